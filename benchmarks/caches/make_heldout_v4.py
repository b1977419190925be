# Over 500 lines on purpose: a frozen data generator whose templates and word lists are its content (its set
# was committed with it and measured as written; edit neither).
"""Generate the fourth held-out evaluation set for the semantic prompt cache.

Running ``python benchmarks/caches/make_heldout_v4.py`` writes
``data/heldout_generated_v4.json`` next to this script.  The output is fully
deterministic (fixed seed ``SEED``) and uses only the standard library.

The set has two lists of ``{"category", "stored", "query"}`` records:

* ``text_pairs`` -- must-not-hit pairs.  The query is nearly identical to the
  stored question, but asks for something different (a changed operator in a
  code snippet, a changed regex quantifier, a different SQL condition, number,
  unit or date, answer constraint, swapped roles, negation, antonym, named
  entity, quantifier, formula term, or URL / identifier / quoted string).
  Serving the stored answer for the query would be wrong.
* ``positives`` -- true paraphrases (rewording, "explain" forms, casing and
  whitespace, politeness, reordered clauses, identical code with a reworded
  question).  Serving the stored answer is right.

Every case is built from templates and word lists written in this file from
general public knowledge.  The set was written without reading the cache's
verification code and is frozen before any rule change; it must never be used
to write rules.
"""

import json
import random
from pathlib import Path

SEED = 20271206
OUT_PATH = Path(__file__).resolve().parent / "data" / "heldout_generated_v4.json"

NEGATIVE_COUNTS = {
    "code_change": 14,
    "regex_change": 12,
    "sql_condition": 13,
    "number_unit_date": 14,
    "answer_constraint": 14,
    "role_swap": 13,
    "negation": 12,
    "antonym": 14,
    "entity_swap": 13,
    "quantifier_scope": 12,
    "formula": 12,
    "url_identifier_quote": 12,
}

POSITIVE_COUNTS = {
    "reworded": 12,
    "explain_form": 10,
    "case_whitespace": 10,
    "politeness": 10,
    "reordered_clauses": 10,
    "code_same": 9,
}

LANGS = {
    "py": ("Python", "python"),
    "js": ("JavaScript", "javascript"),
    "sql": ("SQL", "sql"),
    "sh": ("shell", "bash"),
    "c": ("C", "c"),
}


# ---------------------------------------------------------------------------
# Generic helpers
# ---------------------------------------------------------------------------

def toggle_groups(specs):
    """(template, (a, b), fills) -> one group per template; {v} is a or b."""
    groups = []
    for template, (a, b), fills in specs:
        group = [(template.format(*f, v=a), template.format(*f, v=b)) for f in fills]
        groups.append(group)
    return groups


def swap_groups(specs):
    """(template, [(a, b), ...]) -> one group per template; {x} is a or b."""
    return [[(t.format(x=a), t.format(x=b)) for a, b in pairs] for t, pairs in specs]


def paraphrase_groups(specs):
    """(template_a, template_b, fills) -> one group per template pair."""
    return [[(ta.format(*f), tb.format(*f)) for f in fills] for ta, tb, fills in specs]


def cycle_frames(rng, frames, count):
    """Return `count` frames, cycling through a shuffled copy of `frames`."""
    order = rng.sample(frames, len(frames))
    return [order[i % len(order)] for i in range(count)]


def sample_spread(rng, groups, n):
    """Pick n pairs round-robin over shuffled groups, so templates vary."""
    pools = [rng.sample(g, len(g)) for g in groups if g]
    rng.shuffle(pools)
    picked, seen = [], set()
    while len(picked) < n and any(pools):
        for pool in pools:
            if pool and len(picked) < n:
                pair = pool.pop()
                if pair not in seen and pair[0] != pair[1]:
                    seen.add(pair)
                    picked.append(pair)
    return picked


def cap(text):
    """Upper-case the first character only."""
    return text[:1].upper() + text[1:]


def lower_first(text):
    """Lower-case the first character only."""
    return text[:1].lower() + text[1:]


# ---------------------------------------------------------------------------
# Must-not-hit categories
# ---------------------------------------------------------------------------

CODE_ITEMS = [
    ("py", "nums = [i for i in range(20) if i % 3 == 0]",
     "nums = [i for i in range(20) if i % 3 != 0]"),
    ("py", "users.sort(key=lambda u: u.age)", "users.sort(key=lambda u: -u.age)"),
    ("py", "count = sum(1 for x in values if x > 0)",
     "count = sum(1 for x in values if x >= 0)"),
    ("py", "with open('log.txt', 'w') as f: f.write(line)",
     "with open('log.txt', 'a') as f: f.write(line)"),
    ("py", "name = data.get('name', 'unknown')", "name = data.pop('name', 'unknown')"),
    ("py", "items = [1, 2]; items.append([3, 4])", "items = [1, 2]; items.extend([3, 4])"),
    ("py", "while n > 1: n //= 2", "while n > 1: n /= 2"),
    ("py", "b = a[::-1]", "b = a[::2]"),
    ("js", "if (value == null) return;", "if (value === null) return;"),
    ("js", "const rest = arr.slice(2);", "const rest = arr.splice(2);"),
    ("js", "for (let i = 0; i < arr.length; i++) console.log(arr[i]);",
     "for (let i = 0; i <= arr.length; i++) console.log(arr[i]);"),
    ("js", "setTimeout(refresh, 5000);", "setInterval(refresh, 5000);"),
    ("js", "const ok = items.some(x => x.active);", "const ok = items.every(x => x.active);"),
    ("js", "Object.freeze(config);", "Object.seal(config);"),
    ("js", "for (var i = 0; i < 3; i++) setTimeout(() => console.log(i), 0);",
     "for (let i = 0; i < 3; i++) setTimeout(() => console.log(i), 0);"),
    ("sql", "SELECT city FROM customers UNION SELECT city FROM suppliers;",
     "SELECT city FROM customers UNION ALL SELECT city FROM suppliers;"),
    ("sql", "DELETE FROM sessions WHERE expires_at < NOW();",
     "DELETE FROM sessions WHERE expires_at > NOW();"),
    ("sql", "SELECT COUNT(email) FROM users;", "SELECT COUNT(DISTINCT email) FROM users;"),
    ("sh", "grep -i 'timeout' app.log", "grep -v 'timeout' app.log"),
    ("sh", 'echo "$LINE" > output.txt', 'echo "$LINE" >> output.txt'),
    ("sh", "find . -name '*.tmp' -mtime +7 -delete", "find . -name '*.tmp' -mtime -7 -delete"),
    ("sh", "git reset --soft HEAD~1", "git reset --hard HEAD~1"),
    ("sh", "chmod 755 deploy.sh", "chmod 700 deploy.sh"),
    ("sh", "rsync -av src/ backup/", "rsync -av src backup/"),
    ("c", "if (flags & MASK) handle();", "if (flags && MASK) handle();"),
    ("c", 'char *s = "hello"; s[0] = \'H\';', 'char s[] = "hello"; s[0] = \'H\';'),
    ("c", "x = i++ + 1;", "x = ++i + 1;"),
]

CODE_FRAMES = [
    "What does `{code}` do in {lang}?",
    "Can you explain this {lang} line to me: {code}",
    "Is there anything wrong with this {lang} code?\n```{tag}\n{code}\n```",
    "I'm reviewing a pull request that contains `{code}`. What exactly happens "
    "when it runs, and are there any edge cases I should worry about?",
    "Walk me through the behaviour of the following {lang} snippet step by step:"
    "\n```{tag}\n{code}\n```",
    "Add comments explaining each part of {code}",
    "How would you refactor `{code}` to make it clearer to a new teammate?",
    "What would an experienced reviewer say about {code} in production {lang} code?",
    "Our team lead flagged this line during code review but didn't explain why, and "
    "I'm a bit lost. Could you tell me what `{code}` actually does in {lang}, whether "
    "there is a subtle problem with it, and how you would write it instead?",
]


def code_change_groups(rng):
    """One group per snippet pair, each rendered with a cycled frame."""
    frames = cycle_frames(rng, CODE_FRAMES, len(CODE_ITEMS))
    groups = []
    for frame, (key, a, b) in zip(frames, CODE_ITEMS):
        lang, tag = LANGS[key]
        groups.append([(frame.format(code=a, lang=lang, tag=tag),
                        frame.format(code=b, lang=lang, tag=tag))])
    return groups


REGEX_ITEMS = [
    (r"^\d{3}-\d{4}$", r"^\d{3}-\d{4}"),
    (r"[a-z]+", r"[a-z]*"),
    (r"colou?r", r"colou*r"),
    (r"\bcat\b", r"\bcat"),
    (r"^\s*#", r"^\s+#"),
    (r"<.+>", r"<.+?>"),
    (r"^[0-9]{5}$", r"^[0-9]{5,}$"),
    (r"[^aeiou]", r"[aeiou]"),
    (r"^https?://", r"^https://"),
    (r"^[\w.-]+@[\w-]+\.[a-z]{2,}$", r"^[\w.-]+@[\w-]+\.[a-z]{2,3}$"),
    (r"\d+(\.\d+)?", r"\d+(\.\d+)*"),
    (r"/error/g", r"/error/gi"),
    (r"^(\d{1,3}\.){3}\d{1,3}$", r"^(\d{1,3}\.){2}\d{1,3}$"),
    (r"\s+", r"\S+"),
    (r"(?<=\$)\d+", r"(?<!\$)\d+"),
    (r"/^#.*$/gm", r"/^#.*$/g"),
    (r"#[A-Fa-f0-9]{6}", r"#[A-Fa-f0-9]{3,6}"),
]

REGEX_FRAMES = [
    "What does the regex `{r}` match?",
    "Explain this regular expression piece by piece: {r}",
    "Give me three example strings that match {r} and three that do not.",
    "Convert the regular expression {r} into a plain-English description "
    "I can put in a code review comment.",
    "How would you write a few unit tests for the pattern `{r}`?",
    "Walk me through how a backtracking regex engine processes `{r}` "
    "against a typical input.",
    "I found the pattern {r} in our validation code. What inputs does it accept?",
]


def regex_change_groups(rng):
    """One group per regex pair, each rendered with a cycled frame."""
    frames = cycle_frames(rng, REGEX_FRAMES, len(REGEX_ITEMS))
    return [[(f.format(r=a), f.format(r=b))] for f, (a, b) in zip(frames, REGEX_ITEMS)]


SQL_CODE_ITEMS = [
    ("SELECT name, salary FROM employees WHERE {c};", "salary > 50000", "salary < 50000"),
    ("SELECT * FROM orders WHERE {c};", "status = 'shipped'", "status = 'cancelled'"),
    ("SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id HAVING {c};",
     "COUNT(*) > 5", "COUNT(*) = 1"),
    ("SELECT title, release_year FROM movies ORDER BY {c};",
     "release_year DESC", "title ASC"),
    ("SELECT u.email, o.total FROM users u {c} orders o ON o.user_id = u.id;",
     "LEFT JOIN", "INNER JOIN"),
    ("SELECT name FROM students WHERE {c} ORDER BY name;", "grade >= 90", "grade < 60"),
    ("SELECT city, SUM(amount) FROM sales GROUP BY city ORDER BY {c} LIMIT 5;",
     "SUM(amount) DESC", "SUM(amount) ASC"),
    ("SELECT p.name, c.name FROM products p JOIN categories c ON {c};",
     "p.category_id = c.id", "p.parent_category_id = c.id"),
]

SQL_CODE_FRAMES = [
    "Is this query correct?\n```sql\n{sql}\n```",
    "What does `{sql}` return?",
    "How can I make {sql} faster on a table with ten million rows?",
    "Translate this SQL into pandas code: {sql}",
    "Rewrite the following query using SQLAlchemy ORM syntax: `{sql}`",
    "Explain in plain English what this PostgreSQL statement does: {sql}",
]

SQL_WORD_ITEMS = [
    ("lists every employee whose salary is above 50,000",
     "lists every employee whose salary is below 50,000"),
    ("counts orders grouped by customer", "counts orders grouped by month"),
    ("returns customers who have more than five orders",
     "returns customers who have exactly one order"),
    ("shows products sorted by price from highest to lowest",
     "shows products sorted alphabetically by name"),
    ("lists each order together with the name of the customer who placed it",
     "lists each order together with the name of the employee who processed it"),
    ("finds users whose email address ends in gmail.com",
     "finds users whose username starts with admin"),
    ("selects the ten most recent blog posts by publication date",
     "selects the ten blog posts with the most comments"),
    ("returns departments where the average salary exceeds 80,000",
     "returns departments where the number of employees exceeds 80"),
]

SQL_WORD_FRAMES = [
    "Write a SQL query that {q}.",
    "How would I write a MySQL statement that {q}?",
    "Can you give me PostgreSQL code that {q}?",
    "What's the SQL for a report that {q}?",
    "Help me write a SELECT that {q}, please.",
    "I'm new to databases. Could you show me a query that {q} and explain each clause?",
    "We have a PostgreSQL database for our online shop with the usual tables (customers, "
    "orders, order_items, products, employees, blog_posts). My manager asked me for a "
    "query that {q}. Could you write it and point out any indexes that would help it "
    "run quickly?",
]


def sql_condition_groups(rng):
    """Groups for SQL written as code and SQL requested in words."""
    groups = []
    frames = cycle_frames(rng, SQL_CODE_FRAMES, len(SQL_CODE_ITEMS))
    for frame, (sql, a, b) in zip(frames, SQL_CODE_ITEMS):
        groups.append([(frame.format(sql=sql.format(c=a)), frame.format(sql=sql.format(c=b)))])
    frames = cycle_frames(rng, SQL_WORD_FRAMES, len(SQL_WORD_ITEMS))
    for frame, (a, b) in zip(frames, SQL_WORD_ITEMS):
        groups.append([(frame.format(q=a), frame.format(q=b))])
    return groups


NUMBER_SPECS = [
    ("How long would it take to drive {x} at an average speed of 100 km/h?",
     [("450 km", "450 miles"), ("80 km", "800 km")]),
    ("Convert {x} to Kelvin.", [("25 °C", "25 °F"), ("100 °C", "100 °F")]),
    ("How many 4 MB photos can I store on a {x} memory card?",
     [("32 GB", "128 GB"), ("64 GB", "64 MB")]),
    ("What day of the week was {x}?",
     [("14 July 1789", "14 July 1889"), ("March 3, 1998", "March 3, 1999")]),
    ("How much is {x} in Japanese yen?",
     [("250 US dollars", "250 euros"), ("250 US dollars", "2,500 US dollars")]),
    ("If I invest $10,000 at 5% annual interest compounded monthly, "
     "how much will I have after {x}?", [("ten years", "twenty years")]),
    ("Roughly how many calories does a 70 kg person burn running {x}?",
     [("5 km", "5 miles"), ("5 km", "15 km")]),
    ("At what temperature does water boil at an altitude of {x}?",
     [("3,000 meters", "3,000 feet")]),
    ("Who won the FIFA World Cup in {x}?", [("1998", "2002"), ("2010", "2014")]),
    ("Is {x} a prime number?", [("91", "97"), ("221", "223")]),
    ("What is 17% of {x}?", [("2,340", "3,240")]),
    ("How many days are there between January 1, 2025 and {x}, 2025?",
     [("March 15", "May 15"), ("October 1", "October 31")]),
    ("What would the monthly payment be on a {x} mortgage over 30 years at 6.5% interest?",
     [("$300,000", "$450,000")]),
    ("How much water should a {x} dog drink per day?", [("10 kg", "30 kg"), ("10 kg", "10 lb")]),
    ("How many seconds are there in {x} days?", [("seven", "seventy")]),
    ("What major events happened in world history on {x}?",
     [("November 9, 1989", "November 9, 1938")]),
    ("Is a download speed of {x} fast enough for streaming 4K video on two TVs at once?",
     [("5 Mbps", "50 Mbps")]),
    ("My partner and I are planning a road trip next summer and want to split the driving "
     "fairly. If we cover {x} per day and each of us drives half of that distance, how many "
     "hours would each of us spend behind the wheel at an average speed of 90 km/h?",
     [("600 km", "600 miles"), ("600 km", "900 km")]),
    ("What is the density of a block with a mass of 12 kg and a volume of {x}?",
     [("3 liters", "3 cubic meters")]),
]


def number_unit_date_groups(rng):
    """One group per template of number / unit / date variants."""
    return swap_groups(NUMBER_SPECS)


EXPLAIN_TOPICS = [
    "how photosynthesis works", "the causes of the First World War",
    "what a hash table is", "how vaccines train the immune system",
    "why the sky is blue", "how compound interest works", "what inflation is",
    "how a bill becomes law in the United States", "the plot of Pride and Prejudice",
    "how the TCP three-way handshake works", "what a black hole is",
    "how blockchain works", "the theory of evolution by natural selection",
]

EXPLAIN_CONSTRAINTS = [
    ("in one sentence", "in one paragraph"),
    ("in under 50 words", "in about 500 words"),
    ("in French", "in Spanish"),
    ("in German", "in Japanese"),
    ("for a seven-year-old", "for a university professor"),
    ("for a complete beginner", "for an expert in the field"),
    ("in a formal tone", "in a casual, friendly tone"),
    ("in three bullet points", "in ten bullet points"),
    ("as a short poem", "as a news article"),
]

EXPLAIN_FRAMES = [
    "Explain {topic} {c}.",
    "Can you describe {topic} {c}?",
    "Please summarize {topic} {c}.",
    "I need a quick explanation of {topic} {c}.",
    "{C}, explain {topic}.",
    "Write an explanation of {topic} {c}, please.",
    "I'm preparing a short presentation for colleagues from very different backgrounds "
    "next week, and I want the background section to be accurate. Could you explain "
    "{topic} {c}? I'll adapt your text for the slides afterwards.",
]

LIST_THINGS = [
    "tips for improving sleep quality", "ideas for a rainy day with kids",
    "ways to reduce cloud hosting costs", "stretches for lower back pain",
    "name ideas for a coffee shop", "questions to ask at the end of a job interview",
    "vegetarian dinner recipes", "interesting facts about octopuses",
]

LIST_COUNTS = [("three", "five"), ("5", "10"), ("ten", "twenty")]
LIST_COUNT_FRAMES = [
    "Give me {n} {thing}.",
    "List {n} {thing}, please.",
    "Can you suggest {n} {thing}?",
    "I'm looking for {n} {thing}. What would you recommend?",
]

LIST_FORMATS = [("as a markdown table", "as a bulleted list"),
                ("as JSON", "as YAML"), ("as CSV", "as a numbered list")]
LIST_FORMAT_FRAMES = [
    "Give me some {thing} {fmt}.",
    "List a few {thing} {fmt}, please.",
    "Could you put together six {thing} and present them {fmt}?",
]


def explain_constraint_groups(rng):
    """One group per explanation constraint, random topics and cycled frames."""
    groups = []
    for a, b in EXPLAIN_CONSTRAINTS:
        frames = cycle_frames(rng, EXPLAIN_FRAMES, 2)
        topics = rng.sample(EXPLAIN_TOPICS, 2)
        groups.append([(f.format(topic=t, c=a, C=cap(a)), f.format(topic=t, c=b, C=cap(b)))
                       for f, t in zip(frames, topics)])
    return groups


def list_constraint_groups(rng):
    """One group per list-count or list-format constraint."""
    groups = []
    for (a, b), frame in zip(LIST_COUNTS, cycle_frames(rng, LIST_COUNT_FRAMES, 3)):
        thing = rng.choice(LIST_THINGS)
        groups.append([(frame.format(n=a, thing=thing), frame.format(n=b, thing=thing))])
    for (a, b), frame in zip(LIST_FORMATS, cycle_frames(rng, LIST_FORMAT_FRAMES, 3)):
        thing = rng.choice(LIST_THINGS)
        groups.append([(frame.format(fmt=a, thing=thing), frame.format(fmt=b, thing=thing))])
    return groups


def answer_constraint_groups(rng):
    """Explanations and lists that differ only in an answer constraint."""
    return explain_constraint_groups(rng) + list_constraint_groups(rng)


ROLE_SPECS = [
    ("How do I convert {a} files to {b} in Python?",
     [("CSV", "JSON"), ("Markdown", "HTML"), ("PNG", "JPEG"), ("XML", "YAML")]),
    ("What time is it in {b} when it is 9 a.m. in {a}?",
     [("Tokyo", "London"), ("New York", "Sydney"), ("Berlin", "Los Angeles")]),
    ("Did {a} beat {b} in the 2014 World Cup final?", [("Germany", "Argentina")]),
    ("Did {a} beat {b} in the 2010 World Cup final?", [("Spain", "the Netherlands")]),
    ("Did {a} beat {b} in the 2008 Wimbledon men's final?", [("Nadal", "Federer")]),
    ("Is {a} bigger than {b}?",
     [("Texas", "France"), ("Ganymede", "Mercury"), ("Greenland", "Australia")]),
    ("Are all {a} {b}?",
     [("squares", "rectangles"), ("whales", "mammals"), ("integers", "rational numbers"),
      ("insects", "arthropods")]),
    ("How do I migrate a project from {a} to {b}?",
     [("MySQL", "PostgreSQL"), ("Vue", "React"), ("Jenkins", "GitHub Actions"),
      ("Flask", "Django")]),
    ("What are the biggest challenges for a native {a} speaker learning {b}?",
     [("English", "Mandarin"), ("Spanish", "German"), ("Japanese", "English")]),
    ("Write a function that converts {a} to {b}.",
     [("Roman numerals", "integers"), ("binary strings", "decimal numbers"),
      ("snake_case strings", "camelCase strings")]),
    ("What is the cheapest way to send money from {a} to {b}?",
     [("the UK", "India"), ("the US", "Mexico")]),
    ("Which {a} words were borrowed from {b}?",
     [("English", "Arabic"), ("Japanese", "Portuguese")]),
    ("Convert 3 {a} to {b}.", [("cups", "pints"), ("ounces", "grams")]),
    ("Is {a} north of {b}?", [("Rome", "New York City"), ("London", "Calgary")]),
]


def role_swap_groups(rng):
    """One group per template; the query swaps the two roles."""
    return [[(t.format(a=a, b=b), t.format(a=b, b=a)) for a, b in pairs]
            for t, pairs in ROLE_SPECS]


NEGATION_SPECS = [
    ("Which {0} are {v} for {1} to eat?", ("safe", "not safe"),
     [("fruits", "dogs"), ("vegetables", "cats"), ("human foods", "rabbits")]),
    ("How do I {0} in {1} {v} recursion?", ("using", "without using"),
     [("reverse a linked list", "Java"), ("compute the nth Fibonacci number", "Python"),
      ("traverse a binary tree in order", "C++"), ("flatten a nested list", "Python")]),
    ("Which European countries are {v}members of {0}?", ("", "not "),
     [("NATO",), ("the European Union",), ("the Schengen Area",)]),
    ("Write a SQL query that finds {0} who {v} placed an order in the last 30 days.",
     ("have", "have not"), [("customers",), ("users",)]),
    ("How can I {0} {v} {1}?", ("by", "without"),
     [("lose weight", "counting calories"), ("fall asleep faster", "taking medication"),
      ("build muscle", "lifting weights")]),
    ("How do I quit {0} {v}?", ("and save my changes", "without saving my changes"),
     [("vim",), ("nano",), ("emacs",)]),
    ("Which {0} are {v}soluble in water?", ("", "not "), [("vitamins",), ("common salts",)]),
    ("In {0}, how do I sort an array {v}?", ("in place", "without modifying the original array"),
     [("JavaScript",), ("Java",)]),
    ("Which {0} {v} fly?", ("can", "cannot"), [("birds",), ("kinds of insects",)]),
    ("Which {0} countries {v} a visa for {1} citizens?", ("require", "do not require"),
     [("European", "US"), ("Asian", "Canadian")]),
]


def negation_groups(rng):
    """Templates toggling a negation."""
    return toggle_groups(NEGATION_SPECS)


ANTONYM_SPECS = [
    ("What are the {v} of {0}?", ("advantages", "disadvantages"),
     [("remote work",), ("nuclear power",), ("a microservices architecture",),
      ("homeschooling",)]),
    ("How do I {v} the font size in {0}?", ("increase", "decrease"),
     [("VS Code",), ("Google Chrome",), ("Microsoft Word",)]),
    ("Which is the {v} planet in our solar system?", ("hottest", "coldest"), [()]),
    ("Who was the {v} person to become president of the United States?",
     ("oldest", "youngest"), [()]),
    ("What is the {v} point in {0}?", ("highest", "lowest"),
     [("Australia",), ("Africa",), ("the United States",)]),
    ("What is the {v} value a 64-bit signed integer can hold in {0}?",
     ("minimum", "maximum"), [("Java",), ("Rust",)]),
    ("What are the main {v}s of {0}?", ("import", "export"),
     [("Brazil",), ("Japan",), ("Nigeria",)]),
    ("How do I center a div {v} with CSS?", ("horizontally", "vertically"), [()]),
    ("What typically causes {v} in an economy?", ("inflation", "deflation"), [()]),
    ("Why did the {0} {v}?", ("rise", "fall"), [("Roman Empire",), ("Ottoman Empire",)]),
    ("How do I {v} a function in a JavaScript ES module?", ("export", "import"), [()]),
    ("What should I eat {v} a {0}?", ("before", "after"),
     [("marathon",), ("strength workout",), ("long-haul flight",)]),
    ("Give me three examples of {v} reactions from everyday life.",
     ("exothermic", "endothermic"), [()]),
    ("How can I tell whether a function is {v}?", ("convex", "concave"), [()]),
    ("What is the {v} capital city in the world?", ("northernmost", "southernmost"), [()]),
    ("How do I sort a list of dictionaries by date in Python, in {v} order?",
     ("ascending", "descending"), [()]),
    ("How do I {v} a file with gpg on the command line?", ("encrypt", "decrypt"), [()]),
    ("How do I make a {v} copy of a dictionary in Python?", ("shallow", "deep"), [()]),
    ("Which foods are the most {v}?", ("acidic", "alkaline"), [()]),
]


def antonym_groups(rng):
    """Templates toggling one word with its opposite."""
    return toggle_groups(ANTONYM_SPECS)


ENTITY_SPECS = [
    ("What is the population of {e}?",
     ["Tokyo", "Lagos", "São Paulo", "Toronto", "Mumbai", "Istanbul", "Cairo", "Jakarta"]),
    ("What are the best museums to visit in {e}?",
     ["Paris", "Madrid", "Amsterdam", "Vienna", "Florence", "St. Petersburg"]),
    ("What is the atomic number of {e}?",
     ["iron", "copper", "uranium", "neon", "silver", "tungsten", "helium", "sodium"]),
    ("How do I read a CSV file in {e}?", ["Python", "R", "Go", "Rust", "Java", "C#", "Ruby"]),
    ("Can you give me a short summary of the novel {e}?",
     ["Moby-Dick", "War and Peace", "Brave New World", "The Great Gatsby",
      "Don Quixote", "Crime and Punishment", "Frankenstein", "Jane Eyre"]),
    ("What currency is used in {e}?",
     ["Switzerland", "Sweden", "Thailand", "South Africa", "Poland", "Vietnam", "Hungary"]),
    ("How do I make an HTTP GET request with the {e} library in Python?",
     ["requests", "httpx", "aiohttp", "urllib3"]),
    ("In what year was {e} born?",
     ["Marie Curie", "Isaac Newton", "Ada Lovelace", "Nikola Tesla", "Frida Kahlo",
      "Charles Darwin"]),
    ("What is the average lifespan of a {e} in the wild?",
     ["red fox", "African elephant", "gray wolf", "bald eagle", "giraffe", "kangaroo"]),
    ("What's the best time of year to visit {e}?",
     ["Japan", "Peru", "Iceland", "Morocco", "New Zealand", "Kenya", "Portugal"]),
    ("How do I install {e} on Ubuntu 22.04?",
     ["Docker", "PostgreSQL", "Redis", "nginx", "Node.js", "MongoDB"]),
    ("When should I use a {e} instead of a list in Python?",
     ["tuple", "set", "deque", "dict"]),
    ("Who composed {e}, and when?",
     ["the Moonlight Sonata", "The Four Seasons", "The Magic Flute", "The Rite of Spring",
      "Swan Lake"]),
]


def entity_swap_groups(rng):
    """One group per template; entities paired off after shuffling."""
    groups = []
    for template, pool in ENTITY_SPECS:
        order = rng.sample(pool, len(pool))
        pairs = zip(order[0::2], order[1::2])
        groups.append([(template.format(e=a), template.format(e=b)) for a, b in pairs])
    return groups


QUANTIFIER_SPECS = [
    ("How do I replace {v} of 'foo' in a string in {0}?",
     ("the first occurrence", "all occurrences"), [("JavaScript",), ("Python",), ("Java",)]),
    ("In {0}, how do I get {v} of a list?", ("the last element", "the last three elements"),
     [("Python",), ("C#",), ("Kotlin",)]),
    ("How do I stop {v} with a single command?",
     ("a Docker container", "all running Docker containers"), [()]),
    ("How do I delete {v} in git?", ("a local branch", "all local branches except main"), [()]),
    ("Who was the {v} person to walk on the Moon?", ("first", "last"), [()]),
    ("How do I capitalize the first letter of {v} in {0}?",
     ("a string", "every word in a string"), [("JavaScript",), ("Python",), ("PHP",)]),
    ("Write a {0} function that {v}.",
     ("checks whether a given number is prime", "returns all prime numbers below 100"),
     [("Python",), ("C",), ("JavaScript",)]),
    ("How do I select {v} from a table in {0}?", ("one random row", "ten random rows"),
     [("PostgreSQL",), ("SQLite",)]),
    ("How do I uninstall {v} with pip?", ("a single package", "all installed packages"), [()]),
    ("What date is the {v} Monday of September {0}?", ("first", "last"),
     [("2025",), ("2026",)]),
    ("Find the index of {v} in a Python list of numbers.",
     ("the first negative number", "every negative number"), [()]),
    ("Do {v} {0}?", ("all", "any"),
     [("snakes lay eggs",), ("mammals lay eggs",), ("spiders spin webs",)]),
]


def quantifier_scope_groups(rng):
    """Templates toggling scope: one vs all, first vs last, all vs any."""
    return toggle_groups(QUANTIFIER_SPECS)


FORMULA_SPECS = [
    ("What is the derivative of {x}?",
     [("x^2 + 3x", "x^2 - 3x"), ("sin(x)·cos(x)", "sin(x)/cos(x)"), ("e^(2x)", "e^(-2x)"),
      ("ln(x^2)", "(ln x)^2")]),
    ("Solve for x: {x}",
     [("2x + 5 = 17", "2x - 5 = 17"), ("x^2 - 5x + 6 = 0", "x^2 + 5x + 6 = 0"),
      ("3x/4 = 9", "4x/3 = 9")]),
    ("Compute the definite integral of {x} from 0 to 1.",
     [("x^3", "x^2"), ("x·e^x", "x·e^(-x)"), ("sqrt(x)", "x^(3/2)")]),
    ("What is the limit of {x} as x approaches 0?",
     [("sin(x)/x", "sin(3x)/x"), ("(1 - cos x)/x", "(1 - cos x)/x^2")]),
    ("Factor the polynomial {x}.",
     [("x^2 - 9", "x^2 - 9x"), ("x^3 - 8", "x^3 + 8"), ("x^2 + 7x + 12", "x^2 + 7x + 10")]),
    ("Does the series whose nth term is {x} converge as n goes from 1 to infinity?",
     [("1/n", "1/n^2"), ("1/sqrt(n)", "1/n^(3/2)"), ("n/2^n", "2^n/n")]),
    ("Simplify {x}.",
     [("(a + b)^2 - (a - b)^2", "(a + b)^2 + (a - b)^2"),
      ("(x^2 - 1)/(x - 1)", "(x^2 - 1)/(x + 1)")]),
    ("Give me a closed-form formula for {x}.",
     [("the sum of k for k = 1 to n", "the sum of k^2 for k = 1 to n"),
      ("the sum of 2^k for k = 0 to n", "the sum of 3^k for k = 0 to n")]),
    ("What is the area under the curve y = {x} between x = 0 and x = 2?",
     [("x^2", "2x"), ("x^2 + 1", "x^2 - 1")]),
    ("Find the {x} of f(x) = x·ln(x).", [("derivative", "indefinite integral")]),
    ("Find the {x} of f(x) = x^2·sin(x).", [("derivative", "antiderivative")]),
]


def formula_groups(rng):
    """Templates with one changed term in a formula."""
    return swap_groups(FORMULA_SPECS)


URL_SPECS = [
    ("What is the file {x} used for on Linux?",
     [("/etc/passwd", "/etc/shadow"), ("/etc/hosts", "/etc/hostname"),
      ("/etc/fstab", "/etc/crontab"), ("~/.bashrc", "~/.bash_profile")]),
    ("How do I fix \"ModuleNotFoundError: No module named '{x}'\"?",
     [("cv2", "yaml"), ("sklearn", "skimage"), ("PIL", "bs4")]),
    ("Summarize the Wikipedia article at {x}",
     [("https://en.wikipedia.org/wiki/Alan_Turing", "https://en.wikipedia.org/wiki/Ada_Lovelace"),
      ("https://en.wikipedia.org/wiki/Photosynthesis",
       "https://en.wikipedia.org/wiki/Cellular_respiration")]),
    ("What does `{x}` do in Python?",
     [("os.path.join", "os.path.split"), ("itertools.chain", "itertools.cycle"),
      ("functools.partial", "functools.reduce")]),
    ("What does the HTTP header `{x}` mean?",
     [("Cache-Control: no-cache", "Cache-Control: no-store"),
      ("Connection: keep-alive", "Connection: close"),
      ("X-Frame-Options: DENY", "X-Frame-Options: SAMEORIGIN")]),
    ("What does the git setting {x} control?",
     [("core.autocrlf", "core.filemode"), ("pull.rebase", "push.default")]),
    ("How do I translate \"{x}\" into Italian?",
     [("good morning", "good night"), ("see you tomorrow", "see you soon"),
      ("I am hungry", "I am thirsty")]),
    ("What does the Python error \"{x}\" mean and how do I fix it?",
     [("TypeError: 'NoneType' object is not iterable",
       "TypeError: 'NoneType' object is not subscriptable"),
      ("ValueError: too many values to unpack", "ValueError: not enough values to unpack")]),
    ("In package.json, what is the \"{x}\" field for?",
     [("dependencies", "peerDependencies"), ("main", "bin")]),
    ("What does the GitHub REST API endpoint {x} return?",
     [("GET /repos/{owner}/{repo}/issues", "GET /repos/{owner}/{repo}/pulls"),
      ("GET /users/{username}/repos", "GET /users/{username}/followers")]),
    ("What does the JavaScript method {x} return when nothing matches?",
     [("Array.prototype.find", "Array.prototype.findIndex"),
      ("String.prototype.match", "String.prototype.search")]),
]


def url_identifier_quote_groups(rng):
    """Templates with a changed URL, path, identifier or quoted string."""
    return swap_groups(URL_SPECS)


# ---------------------------------------------------------------------------
# Positive categories
# ---------------------------------------------------------------------------

REWORD_SPECS = [
    ("What is the largest {0}?", "Which {0} is the biggest?",
     [("ocean on Earth",), ("moon of Saturn",), ("country in South America",)]),
    ("How do I {0} in {1}?", "What's the way to {0} in {1}?",
     [("reverse a string", "Python"), ("remove duplicates from an array", "JavaScript"),
      ("read a file line by line", "Go"), ("convert a string to an integer", "Java")]),
    ("Who invented {0}?", "Who was the inventor of {0}?",
     [("the telephone",), ("the World Wide Web",), ("the printing press",)]),
    ("How many {0} does {1} have?", "What is the number of {0} in {1}?",
     [("bones", "the adult human body"), ("keys", "a standard piano")]),
    ("Can you recommend some good books about {0}?",
     "What are a few good books on {0} you'd suggest?",
     [("the history of ancient Rome",), ("behavioral economics",)]),
    ("What are the common symptoms of {0}?", "Which symptoms does {0} usually cause?",
     [("iron deficiency",), ("dehydration",)]),
    ("What is the capital of {0}?", "Which city is the capital of {0}?",
     [("Canada",), ("Kazakhstan",), ("Nigeria",)]),
    ("How far is {0} from {1}?", "What's the distance between {0} and {1}?",
     [("the Moon", "Earth"), ("Paris", "Berlin")]),
    ("Why is {0} {1}?", "What makes {0} {1}?",
     [("the ocean", "salty"), ("the planet Mars", "red"), ("fresh snow", "white")]),
]


def reworded_groups(rng):
    """Same question, different wording."""
    return paraphrase_groups(REWORD_SPECS)


EXPLAIN_FORMS = [
    "Can you explain {t}?", "Explain {t}.", "Please explain {t} to me.",
    "I'd like to understand {t}.", "Could you help me understand {t}?",
    "Explain to me {t}, please.",
]

EXPLAIN_FORM_TOPICS = [
    "how public-key cryptography works", "the difference between TCP and UDP",
    "what a Python decorator is", "how interest rates affect inflation",
    "the Pythagorean theorem", "how DNS resolution works", "what recursion is in programming",
    "Newton's third law of motion", "how the US electoral college works",
    "what CRISPR gene editing is", "how garbage collection works in Java",
    "the concept of opportunity cost",
]


def explain_form_groups(rng):
    """Each topic phrased with two different 'explain' forms."""
    groups = []
    for topic in EXPLAIN_FORM_TOPICS:
        a, b = rng.sample(EXPLAIN_FORMS, 2)
        groups.append([(a.format(t=topic), b.format(t=topic))])
    return groups


CASE_BASES = [
    "What is a closure in JavaScript?", "How do I make pour-over coffee?",
    "What is the boiling point of ethanol?", "How does a heat pump work?",
    "What are the planets in our solar system?", "How do I merge two dictionaries in Python?",
    "What is the tallest mountain in Africa?", "How many ounces are in a pound?",
    "What causes the northern lights?", "How do I center text in HTML?",
    "What is the speed of light in a vacuum?", "How long should I boil an egg for a soft yolk?",
]

CASE_TRANSFORMS = [
    lambda q: q.lower(),
    lambda q: q.rstrip("?"),
    lambda q: "  " + q.replace(" ", "  ", 2) + "  ",
    lambda q: q.lower().rstrip("?"),
    lambda q: q.title(),
    lambda q: q.replace(" ", "   ", 1).rstrip("?") + " ?",
    lambda q: q.upper(),
    lambda q: q + "\n",
]


def case_whitespace_groups(rng):
    """Each base question with one casing / whitespace / punctuation change."""
    transforms = cycle_frames(rng, CASE_TRANSFORMS, len(CASE_BASES))
    return [[(q, f(q))] for q, f in zip(CASE_BASES, transforms)]


POLITE_BASES = [
    "What is the capital of Portugal?", "How do I create a virtual environment in Python?",
    "What is the difference between weather and climate?",
    "How many teaspoons are in a tablespoon?", "What year did the Berlin Wall fall?",
    "How do I remove a coffee stain from a white shirt?",
    "What does HTTP status code 418 mean?", "How do I convert a string to lowercase in Java?",
    "Why do cats purr when they are being petted?", "What is the formula for the area of a trapezoid?",
    "What is a good stretching routine for runners?",
]

POLITE_WRAPPERS = [
    "Hi! {q}", "Hello there, {ql} Thanks!", "{q} Thanks in advance!",
    "Hey, quick question: {q}", "Good morning! {q} I'd really appreciate your help.",
    "Sorry to bother you, but {ql}", "{q} Thank you so much!",
    "Please help me with this: {q}",
    "Hi there! I hope you're having a good day. I've been trying to figure this out on "
    "my own for a while and I'm stuck, so any help is appreciated. {q} Thanks a lot!",
]


def politeness_groups(rng):
    """Each base question with and without a greeting or thanks."""
    wrappers = cycle_frames(rng, POLITE_WRAPPERS, len(POLITE_BASES))
    return [[(q, w.format(q=q, ql=lower_first(q)))] for q, w in zip(POLITE_BASES, wrappers)]


REORDER_SPECS = [
    ("In {0}, how do I {1}?", "How do I {1} in {0}?",
     [("Python", "reverse a list"), ("JavaScript", "deep-clone an object"),
      ("Rust", "read a whole file into a string"), ("Excel", "remove duplicate rows")]),
    ("Using {0}, how can I {1}?", "How can I {1} using {0}?",
     [("pandas", "group rows by month and sum a column"),
      ("ffmpeg", "extract the audio track from a video"),
      ("curl", "send a POST request with a JSON body")]),
    ("On {0}, how do I {1}?", "How do I {1} on {0}?",
     [("macOS", "show hidden files in Finder"), ("Windows 11", "change the default browser"),
      ("Ubuntu", "find which process is using port 8080")]),
    ("Without using {0}, how do I {1} in Python?", "How do I {1} in Python without using {0}?",
     [("a loop", "sum a list of numbers"),
      ("regular expressions", "check whether a string contains only digits")]),
    ("For a {0}, what is a good {1}?", "What is a good {1} for a {0}?",
     [("beginner runner", "weekly training plan"), ("small apartment", "indoor plant")]),
    ("In under 100 words, summarize {0}.", "Summarize {0} in under 100 words.",
     [("the French Revolution",), ("the plot of Hamlet",)]),
    ("When visiting {0} in {1}, what should I pack?", "What should I pack when visiting {0} in {1}?",
     [("Iceland", "winter"), ("Thailand", "the rainy season")]),
]


def reordered_clauses_groups(rng):
    """Same constraints in a different clause order."""
    return paraphrase_groups(REORDER_SPECS)


CODE_SAME_ITEMS = [
    ("py", "print(sorted(set([3, 1, 3, 2])))", ("explain", "output", "inline")),
    ("py", "def add(x, items=[]):\n    items.append(x)\n    return items", ("explain", "bug")),
    ("js", "console.log(['1', '2', '3'].map(parseInt));", ("explain", "output", "inline")),
    ("js", "console.log(0.1 + 0.2 === 0.3);", ("output", "inline")),
    ("sql", "SELECT department, COUNT(*) FROM employees GROUP BY department "
     "HAVING COUNT(*) > 10;", ("explain", "inline")),
    ("sh", 'for f in *.txt; do mv "$f" "${f%.txt}.md"; done', ("explain", "inline")),
    ("c", 'int *p = NULL;\nprintf("%d\\n", *p);', ("bug",)),
    ("py", "x = [[0] * 3] * 3\nx[0][0] = 1\nprint(x)", ("output", "bug")),
    ("js", "const add = (a) => (b) => a + b;", ("explain", "inline")),
    ("py", "nums = [1, 2, 2, 3]\nfor n in nums:\n    if n == 2:\n        nums.remove(n)\nprint(nums)",
     ("output", "bug")),
]

CODE_SAME_FRAMES = {
    "explain": ("What does this {lang} code do?\n```{tag}\n{code}\n```",
                "Can you explain what the following {lang} snippet does?\n```{tag}\n{code}\n```"),
    "output": ("What is the output of this {lang} code?\n```{tag}\n{code}\n```",
               "If I run the {lang} code below, what gets printed?\n```{tag}\n{code}\n```"),
    "bug": ("Is there a bug in this code?\n```{tag}\n{code}\n```",
            "Can you spot the problem in the snippet below?\n```{tag}\n{code}\n```"),
    "inline": ("Explain `{code}` in {lang}.", "In {lang}, what does `{code}` do?"),
}


def code_same_groups(rng):
    """Identical code, reworded question of the same kind."""
    groups = []
    for key, code, kinds in CODE_SAME_ITEMS:
        lang, tag = LANGS[key]
        frame_a, frame_b = CODE_SAME_FRAMES[rng.choice(kinds)]
        groups.append([(frame_a.format(lang=lang, tag=tag, code=code),
                        frame_b.format(lang=lang, tag=tag, code=code))])
    return groups


# ---------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------

NEGATIVE_BUILDERS = {
    "code_change": code_change_groups,
    "regex_change": regex_change_groups,
    "sql_condition": sql_condition_groups,
    "number_unit_date": number_unit_date_groups,
    "answer_constraint": answer_constraint_groups,
    "role_swap": role_swap_groups,
    "negation": negation_groups,
    "antonym": antonym_groups,
    "entity_swap": entity_swap_groups,
    "quantifier_scope": quantifier_scope_groups,
    "formula": formula_groups,
    "url_identifier_quote": url_identifier_quote_groups,
}

POSITIVE_BUILDERS = {
    "reworded": reworded_groups,
    "explain_form": explain_form_groups,
    "case_whitespace": case_whitespace_groups,
    "politeness": politeness_groups,
    "reordered_clauses": reordered_clauses_groups,
    "code_same": code_same_groups,
}


def build_records(rng, builders, counts, seen):
    """Sample each category, orient each pair at random, drop duplicates."""
    records = []
    for category, builder in builders.items():
        for a, b in sample_spread(rng, builder(rng), counts[category]):
            stored, query = (a, b) if rng.random() < 0.5 else (b, a)
            key = (stored, query)
            if key in seen or (query, stored) in seen:
                continue
            seen.add(key)
            records.append({"category": category, "stored": stored, "query": query})
    return records


def build_v4() -> dict:
    """Build the whole held-out set (deterministic for SEED)."""
    rng = random.Random(SEED)
    seen = set()
    text_pairs = build_records(rng, NEGATIVE_BUILDERS, NEGATIVE_COUNTS, seen)
    positives = build_records(rng, POSITIVE_BUILDERS, POSITIVE_COUNTS, seen)
    description = (
        f"Fourth held-out set, generated by benchmarks/caches/make_heldout_v4.py build_v4 "
        f"(seed {SEED}): {len(text_pairs)} must-not-hit text_pairs in {len(NEGATIVE_COUNTS)} "
        f"categories and {len(positives)} positives in {len(POSITIVE_COUNTS)} categories, "
        "from hand-written templates and word lists; written without reading the cache's "
        "verification code; frozen before any rule change. Never used to write rules."
    )
    return {"description": description, "text_pairs": text_pairs, "positives": positives}


def main():
    data = build_v4()
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    OUT_PATH.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT_PATH}: {len(data['text_pairs'])} text_pairs, "
          f"{len(data['positives'])} positives")


if __name__ == "__main__":
    main()
