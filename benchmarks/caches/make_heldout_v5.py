# Over 500 lines on purpose: a frozen data generator whose templates and word lists are its content (its set
# was committed with it and measured as written; edit neither).
"""Generate the fifth held-out evaluation set for the semantic cache.

The set is written to ``data/heldout_generated_v5.json`` next to this script.
It holds two lists of (stored, query) prompt pairs:

* ``text_pairs`` -- MUST-NOT-HIT pairs.  The two prompts look almost the same
  (an embedding model would score them as very similar) but a careful human
  would say they ask for different things, so serving the stored prompt's
  cached answer for the query would be wrong.  Thirteen categories: a changed
  code literal, regex, SQL clause, number, output constraint, direction or
  role, negation, antonym, named entity, scope, math term, identifier or
  path, and an added or dropped requirement.
* ``positives`` -- true paraphrases, where serving the cached answer is
  right.  Six categories: synonyms, question form, surface noise (case,
  spacing, punctuation, contractions), politeness wrappers, clause order,
  and the same code snippet with the surrounding words changed.

Every category has its own templates (at least six) and its own word lists,
written from general public knowledge for this file only.  Each template is
paired with the list items that make sense for it; random slot fillers are
drawn with ``random.Random(5512027)``, so the output is deterministic.

The set was written without reading the cache's verification code or the
other held-out sets, and is frozen before any rule change: it must never be
used to write rules.

Usage::

    python benchmarks/caches/make_heldout_v5.py
"""

from __future__ import annotations

import json
import os
import random
import re

SEED = 5512027
OUT_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "data", "heldout_generated_v5.json"
)

MIN_WORDS = 4
MAX_WORDS = 80
DEFAULT_NEGATIVES = 12
DEFAULT_POSITIVES = 12
EXTRA_NEGATIVES = {"code_literal", "numeric", "opposite_word", "different_entity"}

_SLOT = re.compile(r"\{([A-Za-z_]\w*)\}")


# ---------------------------------------------------------------------------
# Template helpers
# ---------------------------------------------------------------------------


def neg(text, items, **slots):
    """A must-not-hit template.

    ``text`` holds ``{v}`` (the slot that differs between stored and query)
    and possibly other ``{name}`` slots.  Each item is either a pair
    ``(a, b)`` for ``v`` or a dict with ``"v": (a, b)`` plus fixed slot
    values.  ``slots`` maps further slot names to lists drawn at random.
    """
    return {"text": text, "items": items, "slots": slots}


def pos(stored, query, items, **slots):
    """A positive template: two wordings that ask exactly the same thing.

    Each item is a string (slot ``x``) or a dict of slot values.
    """
    return {"stored": stored, "query": query, "items": items, "slots": slots}


def base(text, items, imperative=False, **slots):
    """A single wording, turned into a positive pair by a transform."""
    return {"text": text, "items": items, "slots": slots, "imperative": imperative}


def fill(text, values):
    """Replace ``{name}`` slots that have a value; leave other braces alone."""
    return _SLOT.sub(lambda m: values.get(m.group(1), m.group(0)), text)


def check_slots(text, values):
    names = set(_SLOT.findall(text))
    missing = names - set(values)
    if missing:
        raise ValueError(f"unfilled slots {sorted(missing)} in template {text!r}")


def item_values(item, default_key):
    if isinstance(item, dict):
        return dict(item)
    if isinstance(item, tuple):
        return {"v": item}
    return {default_key: item}


def draw_slots(rng, values, slots):
    for name, choices in slots.items():
        values[name] = rng.choice(choices)
    return values


# ---------------------------------------------------------------------------
# Must-not-hit categories
# ---------------------------------------------------------------------------


def code_literal_templates():
    return [
        neg(
            "What does `{v}` print in Python?",
            [
                ("print(7 // 2)", "print(7 / 2)"),
                ("print(round(2.5))", "print(round(3.5))"),
                ("print(len(range(10)))", "print(len(range(1, 10)))"),
                ("print([1, 2, 3][1:])", "print([1, 2, 3][:1])"),
                ("print(10 % 3)", "print(10 // 3)"),
                ("print(bool('False'))", "print(bool(''))"),
            ],
        ),
        neg(
            "In Python, if `xs = [1, 2, 3]` and I then run `{v}`, what is `xs` afterwards?",
            [
                ("xs.append([4, 5])", "xs.extend([4, 5])"),
                ("xs.pop()", "xs.pop(0)"),
                ("xs.remove(2)", "xs.pop(2)"),
                ("xs += [4]", "xs + [4]"),
                ("xs.insert(0, 9)", "xs.insert(-1, 9)"),
            ],
        ),
        neg(
            "Is `if value {v} None:` the right way to check for None in Python?",
            [("is", "=="), ("is not", "!=")],
        ),
        neg(
            "What does this log to the console?\n```javascript\nconsole.log({v});\n```",
            [
                ("'5' + 3", "'5' - 3"),
                ("null == undefined", "null === undefined"),
                ("typeof null", "typeof undefined"),
                ("[1, 2, 3].map(n => n * 2)", "[1, 2, 3].forEach(n => n * 2)"),
                ("[10, 1, 2].sort()", "[10, 1, 2].reverse()"),
                ("Math.round(-0.5)", "Math.floor(-0.5)"),
            ],
        ),
        neg(
            "Will this throw an error when it runs?\n```js\n{v} total = 0;\n"
            "for (const n of [1, 2, 3]) total += n;\nconsole.log(total);\n```",
            [("const", "let")],
        ),
        neg(
            "In Go, what are len(s) and cap(s) after `s := make([]int, {v})`?",
            [("5", "5, 10"), ("0, 8", "8"), ("3", "0, 3")],
        ),
        neg(
            "Does this Rust snippet compile? `let {v} = Vec::new(); v.push(3);`",
            [("v", "mut v")],
        ),
        neg(
            "rust: can I still use `names` after looping with `for n in {v}`?",
            [("names.iter()", "names.into_iter()"), ("&names", "names")],
        ),
        neg(
            "What does `{v}` do in a bash script?",
            [
                ("cmd > out.txt 2>&1", "cmd 2>&1 > out.txt"),
                ("set -e", "set -u"),
                ("echo $?", "echo $#"),
                ("cmd >> out.txt", "cmd > out.txt"),
                ("[[ -f $path ]]", "[[ -d $path ]]"),
                ("${name:-guest}", "${name:=guest}"),
            ],
        ),
        neg(
            "What does `{v}` do in CSS?",
            [
                ("box-sizing: border-box", "box-sizing: content-box"),
                ("position: absolute", "position: relative"),
                ("display: none", "visibility: hidden"),
                ("justify-content: center", "align-items: center"),
                ("flex: 1", "flex: none"),
                ("overflow: hidden", "overflow: auto"),
            ],
        ),
        neg(
            "In Python, what happens with `{v}` when the key 'k' is missing from the dict d?",
            [("d.get('k')", "d['k']"), ("d.pop('k', None)", "d.pop('k')")],
        ),
    ]


def regex_pattern_templates():
    return [
        neg(
            "What strings does the regex `{v}` match?",
            [
                (r"^\d{3}$", r"^\d{3,}$"),
                ("colou?r", "colou*r"),
                ("^[a-z]+$", "^[a-z]*$"),
                (r"\bcat\b", r"\bcat"),
                ("[^0-9]+", "[0-9]+"),
                ("(ab)+", "ab+"),
                (r"^\s+", r"\s+$"),
            ],
        ),
        neg(
            "In JavaScript, what does `str.replace(/{v}, '')` do?",
            [(r"\s+/g", r"\s+/"), ("^0+/", "0+/g"), ("a/gi", "a/g")],
        ),
        neg(
            "What does `re.findall(r'{v}', '<b>bold</b><i>it</i>')` return in Python?",
            [("<.*>", "<.*?>"), (r"<(\w+)>", r"<\w+>"), (r"</?\w+>", r"<\w+>")],
        ),
        neg(
            "Is `{v}` a good regex for validating a US ZIP code?",
            [
                (r"^\d{5}$", r"\d{5}"),
                (r"^\d{5}(-\d{4})?$", r"^\d{5}-\d{4}$"),
                ("^[0-9]{5}$", "^[0-9]{4,5}$"),
            ],
        ),
        neg(
            "Which lines does `grep -E '{v}' app.log` print?",
            [
                ("^ERROR", "ERROR$"),
                ("[0-9]{2,3}ms", "[0-9]{2}ms"),
                ("(GET|POST) /api", "GET|POST /api"),
            ],
        ),
        neg(
            "In Python, how does compiling `^a.c$` with `{v}` change what it matches?",
            [
                ("re.MULTILINE", "re.IGNORECASE"),
                ("re.DOTALL", "re.MULTILINE"),
                ("re.IGNORECASE", "re.DOTALL"),
            ],
        ),
        neg(
            "Describe in plain English what this pattern accepts: `{v}`",
            [
                (
                    r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$",
                    r"^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,4}$",
                ),
                (r"^#?([a-f0-9]{6}|[a-f0-9]{3})$", r"^#([a-f0-9]{6}|[a-f0-9]{3})$"),
                (r"^(\d{1,3}\.){3}\d{1,3}$", r"^(\d{1,3}\.){3}\d{3}$"),
                (r"^\+?1?\d{10}$", r"^\+1\d{10}$"),
            ],
        ),
        neg(
            "What does `sed -E 's/{v}/X/' input.txt` replace on each line?",
            [("[aeiou]", "[aeiou]+"), ("^ +", " +"), ("[0-9]{4}", "[0-9]{2}")],
        ),
    ]


def sql_query_templates():
    return [
        neg(
            "What does this query return?\n```sql\nSELECT {v} FROM orders WHERE status = 'shipped';\n```",
            [
                ("COUNT(*)", "SUM(total)"),
                ("AVG(total)", "MAX(total)"),
                ("COUNT(DISTINCT customer_id)", "COUNT(customer_id)"),
            ],
        ),
        neg(
            "Is this right for getting the five best-paid employees? "
            "`SELECT name, salary FROM employees ORDER BY salary {v} LIMIT 5`",
            [("DESC", "ASC")],
        ),
        neg(
            "What does `SELECT {v}, COUNT(*) FROM employees GROUP BY {v}` return?",
            [("department", "manager_id"), ("country", "city"), ("job_title", "hire_year")],
        ),
        neg(
            "How many rows will `SELECT * FROM users u {v} orders o ON o.user_id = u.id` "
            "return for users who have no orders?",
            [("LEFT JOIN", "INNER JOIN"), ("FULL OUTER JOIN", "INNER JOIN")],
        ),
        neg(
            "Translate this SQL into pandas: `SELECT * FROM products WHERE {v}`",
            [
                ("price > 100", "price < 100"),
                ("category = 'books'", "category <> 'books'"),
                ("stock IS NULL", "stock IS NOT NULL"),
                ("name LIKE 'A%'", "name LIKE '%A'"),
            ],
        ),
        neg(
            "For pagination, which rows does `SELECT * FROM posts ORDER BY id LIMIT {v}` give me?",
            [("10 OFFSET 20", "20 OFFSET 10"), ("10", "10 OFFSET 10")],
        ),
        neg(
            "postgres: what does `SELECT customer_id, SUM(amount) FROM payments GROUP BY customer_id "
            "HAVING SUM(amount) {v}` list?",
            [("> 1000", "< 1000"), (">= 500", "= 500")],
        ),
        neg(
            "Which cities does `SELECT city FROM customers {v} SELECT city FROM suppliers` return?",
            [("UNION", "UNION ALL"), ("INTERSECT", "EXCEPT"), ("UNION", "INTERSECT")],
        ),
        neg(
            "In SQL, how does `{v}() OVER (ORDER BY score DESC)` number rows with tied scores?",
            [("RANK", "DENSE_RANK"), ("ROW_NUMBER", "RANK")],
        ),
        neg(
            "What does `ROW_NUMBER() OVER (PARTITION BY {v} ORDER BY hired_at)` number in my employees table?",
            [("department_id", "manager_id"), ("office_id", "team_id")],
        ),
    ]


def numeric_templates():
    return [
        neg(
            "How many cups is {v} of all-purpose flour?",
            [("250 grams", "500 grams"), ("100 grams", "150 grams"), ("1 kilogram", "1 pound")],
        ),
        neg(
            "Convert {v} to Celsius.",
            [
                ("350°F", "400°F"),
                ("72 degrees Fahrenheit", "27 degrees Fahrenheit"),
                ("100 kelvin", "100 degrees Fahrenheit"),
            ],
        ),
        neg(
            "If I put {v} into an index fund averaging 7% a year, roughly how much will I have after 20 years?",
            [("$10,000", "$1,000"), ("$500 a month", "$500 a year")],
        ),
        neg(
            "What's the monthly payment on a $300,000 mortgage at {v}?",
            [
                ("6.5% over 30 years", "5.5% over 30 years"),
                ("6% over 15 years", "6% over 30 years"),
            ],
        ),
        neg(
            "How long does it take to drive {v} at 65 mph?",
            [("300 miles", "450 miles"), ("120 kilometers", "120 miles")],
        ),
        neg(
            "If it's {v} in New York, what time is it in Tokyo?",
            [("9 am", "9 pm"), ("3:30 pm", "5:30 pm"), ("midnight", "noon")],
        ),
        neg(
            "How many calories does a 70 kg person burn walking briskly for {v}?",
            [("30 minutes", "two hours"), ("one hour", "three hours")],
        ),
        neg(
            "What were the most important world events of {v}?",
            [("1848", "1868"), ("1989", "1991"), ("1914", "1918")],
        ),
        neg(
            "How much is {v} in euros right now?",
            [
                ("100 US dollars", "100 British pounds"),
                ("50 dollars", "500 dollars"),
                ("1,000 Japanese yen", "1,000 Swiss francs"),
            ],
        ),
        neg("What's a {v} tip on an $86 restaurant bill?", [("15%", "20%"), ("10%", "25%")]),
        neg(
            "How long should I roast a {v} whole chicken at 200°C?",
            [("1.5 kg", "2.5 kg"), ("3-pound", "6-pound")],
        ),
        neg(
            "What day of the week was {v}?",
            [("July 4, 1776", "July 14, 1789"), ("January 1, 2000", "January 1, 2001")],
        ),
        neg(
            "I have a lasagna recipe that serves 4. How do I scale the ingredients to serve {v}?",
            [("6", "10"), ("twelve", "two")],
        ),
        neg(
            "We're driving from Chicago to Denver, about 1,000 miles, in a car that gets {mpg} miles "
            "per gallon. With gas at {v} a gallon, roughly how much will fuel cost one way?",
            [("$3.50", "$4.20"), ("$2.90", "$3.90")],
            mpg=["25", "30", "35"],
        ),
    ]


def output_constraint_templates():
    return [
        neg(
            "Give me {v} blog post ideas about {topic}.",
            [("5", "10"), ("three", "twenty"), ("7", "15")],
            topic=[
                "personal finance for students",
                "urban gardening",
                "remote work productivity",
                "home espresso",
                "learning Rust",
                "budget travel in Europe",
            ],
        ),
        neg(
            "Summarize the plot of {book} in {v}.",
            [("one sentence", "three paragraphs"), ("50 words", "300 words"), ("a single tweet", "a one-page essay")],
            book=["Pride and Prejudice", "Moby-Dick", "1984", "The Great Gatsby", "Hamlet", "Don Quixote"],
        ),
        neg(
            "List the ten most populous countries and their capitals as {v}.",
            [("a markdown table", "CSV"), ("bullet points", "a JSON array"), ("a numbered list", "an HTML table")],
        ),
        neg(
            "Explain how {concept} works {v}.",
            [
                ("like I'm five", "at a graduate level"),
                ("in Spanish", "in German"),
                ("for a high school student", "for an expert audience"),
            ],
            concept=[
                "public-key cryptography",
                "the immune system",
                "inflation",
                "a neural network",
                "photosynthesis",
                "the stock market",
            ],
        ),
        neg(
            "Write a {v} email to my manager declining Friday's offsite meeting.",
            [("formal", "casual"), ("friendly", "strictly professional"), ("formal", "light-hearted")],
        ),
        neg(
            "Write a 300-word short story about a lighthouse keeper, told in the {v}.",
            [("first person", "third person"), ("present tense", "past tense"), ("second person", "first person")],
        ),
        neg(
            "Write {v} about {subject}.",
            [("a haiku", "a limerick"), ("a sonnet", "a haiku"), ("a four-line poem", "a 20-line poem")],
            subject=["autumn rain", "a cat ignoring its owner", "Monday mornings", "the ocean at night", "a lost umbrella"],
        ),
        neg(
            "Turn this into {v}: Paris - France, Berlin - Germany, Madrid - Spain, Rome - Italy",
            [("YAML", "JSON"), ("a Python dict", "a markdown table"), ("an HTML unordered list", "CSV")],
        ),
        neg(
            "Write a product description for a stainless steel water bottle aimed at {v}.",
            [("hikers", "office workers"), ("kids", "luxury shoppers")],
        ),
        neg(
            "Give me a beginner 5K training plan {v}.",
            [("as a week-by-week table", "as a short paragraph"), ("in bullet points", "in French")],
        ),
        neg(
            "I'm running a workshop for new hires at a logistics company, and most of them have never "
            "used spreadsheets. Write {v} that explains how to build a pivot table in Excel, with a "
            "short practice exercise at the end.",
            [
                ("a one-page handout", "a 10-slide presentation outline"),
                ("a step-by-step guide in plain English", "a step-by-step guide in Portuguese"),
            ],
        ),
    ]


def direction_role_templates():
    return [
        neg(
            "Write a Python function that converts {v}.",
            [
                ("Celsius to Fahrenheit", "Fahrenheit to Celsius"),
                ("a Unix timestamp to an ISO 8601 string", "an ISO 8601 string to a Unix timestamp"),
                ("snake_case to camelCase", "camelCase to snake_case"),
                ("binary to decimal", "decimal to binary"),
                ("a list of tuples into a dict", "a dict into a list of tuples"),
            ],
        ),
        neg(
            "What's the easiest way to migrate a project from {v}?",
            [
                ("MySQL to PostgreSQL", "PostgreSQL to MySQL"),
                ("Webpack to Vite", "Vite to Webpack"),
                ("Jest to Vitest", "Vitest to Jest"),
                ("npm to pnpm", "pnpm to npm"),
            ],
        ),
        neg(
            "{v} We split everything evenly, so who owes whom, and how much?",
            [
                (
                    "I paid $90 for dinner and my friend paid $30 for the taxi.",
                    "My friend paid $90 for dinner and I paid $30 for the taxi.",
                ),
                (
                    "Ana covered the $200 hotel and Ben covered the $80 car rental.",
                    "Ben covered the $200 hotel and Ana covered the $80 car rental.",
                ),
                (
                    "My roommate paid the $120 electricity bill and I paid the $60 internet bill.",
                    "I paid the $120 electricity bill and my roommate paid the $60 internet bill.",
                ),
            ],
        ),
        neg(
            "Is there good evidence that {v}?",
            [
                ("higher interest rates cause inflation", "inflation causes higher interest rates"),
                ("social media use causes depression in teens", "depression in teens causes more social media use"),
                ("poverty leads to poor health", "poor health leads to poverty"),
            ],
        ),
        neg(
            "Is every {v}?",
            [
                ("square a rectangle", "rectangle a square"),
                ("integer a rational number", "rational number an integer"),
                ("mammal a vertebrate", "vertebrate a mammal"),
                ("bijection an injection", "injection a bijection"),
            ],
        ),
        neg(
            "Quick history question: {v}",
            [
                ("who succeeded Queen Victoria on the British throne?", "who did Queen Victoria succeed on the British throne?"),
                ("who succeeded Abraham Lincoln as US president?", "who did Abraham Lincoln succeed as US president?"),
                ("who replaced Neville Chamberlain as UK prime minister?", "who did Neville Chamberlain replace as UK prime minister?"),
            ],
        ),
        neg(
            "How do I {v}?",
            [
                ("merge main into my feature branch in git", "merge my feature branch into main in git"),
                (
                    "copy a folder from my laptop to a remote server with scp",
                    "copy a folder from a remote server to my laptop with scp",
                ),
                ("move my photos from Google Photos to iCloud", "move my photos from iCloud to Google Photos"),
            ],
        ),
        neg(
            "How long is a nonstop flight from {v}?",
            [
                ("London to New York", "New York to London"),
                ("Los Angeles to Sydney", "Sydney to Los Angeles"),
                ("Tokyo to San Francisco", "San Francisco to Tokyo"),
            ],
        ),
        neg(
            "What do you call {v}?",
            [
                ("your wife's brother", "your brother's wife"),
                ("your father's sister's daughter", "your daughter's father's sister"),
                ("your grandmother's son", "your son's grandmother"),
            ],
        ),
        neg(
            "Roughly how many {v} today?",
            [("US dollars make one euro", "euros make one US dollar"), ("yen make one US dollar", "US dollars make one yen")],
        ),
        neg(
            "My team is moving our backend from {v}. We have about 40 REST endpoints, a Postgres "
            "database and a small test suite. What should the migration plan look like, and what "
            "usually breaks along the way?",
            [("Flask to FastAPI", "FastAPI to Flask"), ("Express to NestJS", "NestJS to Express")],
        ),
    ]


def negated_templates():
    return [
        neg(
            "Which EU member states {v}?",
            [
                ("use the euro", "don't use the euro"),
                ("are part of the Schengen Area", "are not part of the Schengen Area"),
                ("have a monarchy", "don't have a monarchy"),
            ],
        ),
        neg(
            "Give me a banana bread recipe {v}.",
            [("with eggs", "without eggs"), ("that uses butter", "that doesn't use butter"), ("with walnuts", "without nuts")],
        ),
        neg(
            "How do I copy a folder with rsync {v}?",
            [
                ("including hidden files", "excluding hidden files"),
                (
                    "and delete files that no longer exist in the source",
                    "without deleting files that no longer exist in the source",
                ),
            ],
        ),
        neg(
            "pandas: how do I drop {v}?",
            [
                ("every column except 'id'", "the 'id' column"),
                ("all rows where price is null", "all rows except the ones where price is null"),
            ],
        ),
        neg(
            "Which planets in our solar system {v}?",
            [("have rings", "don't have rings"), ("have moons", "have no moons")],
        ),
        neg(
            "Which countries can US citizens visit {v}?",
            [("without a visa", "only with a visa")],
        ),
        neg(
            "Which cold symptoms mean I {v} to see a doctor?",
            [("need", "don't need")],
        ),
        neg(
            "List the common sorting algorithms that {v} stable.",
            [("are", "are not")],
        ),
        neg(
            "Which JavaScript array methods {v} the original array?",
            [("mutate", "do not mutate")],
        ),
        neg(
            "With `find`, how do I list every file under /var/www that {v}?",
            [("ends in .php", "doesn't end in .php"), ("was modified in the last day", "wasn't modified in the last day")],
        ),
        neg(
            "Suggest five high-protein vegetarian dinners {v}.",
            [("that include tofu", "that never use tofu"), ("with eggs", "without eggs")],
        ),
    ]


def opposite_word_templates():
    return [
        neg(
            "How do I sort a list of dicts by the 'age' key in {v} order in Python?",
            [("ascending", "descending")],
        ),
        neg("How do I {v} a file with a password using openssl?", [("encrypt", "decrypt")]),
        neg(
            "What's the fastest way to {v} using the AWS CLI?",
            [("upload a 50 GB file to S3", "download a 50 GB file from S3")],
        ),
        neg("Is it smart to {v} index funds right after the market drops 20%?", [("buy", "sell")]),
        neg(
            "What are the {v} of living in {city}?",
            [("pros", "cons"), ("biggest advantages", "biggest drawbacks")],
            city=["Lisbon", "Denver", "Singapore", "Toronto", "Berlin"],
        ),
        neg("python: how do I make a {v} copy of a nested list?", [("shallow", "deep")]),
        neg(
            "Which {thing} is the most {v}?",
            [("underrated", "overrated")],
            thing=["Beatles album", "Pixar movie", "Star Wars film"],
        ),
        neg("What's the {v} value of sin(x) + cos(x)?", [("minimum", "maximum")]),
        neg(
            "What goods does {country} {v} the most?",
            [("import", "export")],
            country=["Japan", "Germany", "Brazil", "India"],
        ),
        neg("What time does the sun {v} in Reykjavik in late June?", [("rise", "set")]),
        neg(
            "Give me {v} for the word '{word}'.",
            [("a synonym", "an antonym")],
            word=["generous", "ancient", "fragile", "brave"],
        ),
        neg("How do I {v} a .tar.gz archive from the command line?", [("create", "extract")]),
        neg("Should I {v} through my nose or my mouth while running?", [("inhale", "exhale")]),
        neg("Is it a good idea to {v} a close friend?", [("lend money to", "borrow money from")]),
        neg("How do I {v} dark mode in VS Code?", [("enable", "disable")]),
        neg("What's the {v} temperature ever recorded on Earth?", [("highest", "lowest")]),
        neg("What does it mean when a bond trades at a {v}?", [("premium", "discount")]),
        neg("What typically happens to stock prices in a {v} market?", [("bull", "bear")]),
    ]


def different_entity_templates():
    return [
        neg(
            "What's the capital of {v}?",
            [("Australia", "Austria"), ("Slovakia", "Slovenia"), ("Niger", "Nigeria")],
        ),
        neg(
            "How do I read a CSV file in {v}?",
            [("Python", "Ruby"), ("Go", "Rust"), ("Java", "Kotlin")],
        ),
        neg(
            "When is the best time of year to visit {v}?",
            [("Iceland", "Ireland"), ("Sweden", "Switzerland"), ("Costa Rica", "Puerto Rico")],
        ),
        neg(
            "Who wrote {v}?",
            [
                ("Frankenstein", "Dracula"),
                ("The Great Gatsby", "The Grapes of Wrath"),
                ("War and Peace", "Crime and Punishment"),
                ("Brave New World", "Fahrenheit 451"),
            ],
        ),
        neg(
            "How many moons does {v} have?",
            [("Jupiter", "Saturn"), ("Mars", "Neptune"), ("Uranus", "Neptune")],
        ),
        neg(
            "What's the atomic number of {v}?",
            [("sodium", "potassium"), ("iron", "nickel"), ("silver", "gold")],
        ),
        neg(
            "Should I pick {v} for a small internal dashboard if my team already knows JavaScript?",
            [("React or Vue", "React or Svelte"), ("Next.js or Remix", "Next.js or Astro")],
        ),
        neg("Who directed the movie {v}?", [("Jaws", "Alien"), ("Pulp Fiction", "Fargo"), ("Inception", "Titanic")]),
        neg(
            "How many European Cup and Champions League titles have {v} won?",
            [("Real Madrid", "Barcelona"), ("AC Milan", "Inter Milan"), ("Liverpool", "Manchester United")],
        ),
        neg(
            "When was {v} founded, and by whom?",
            [("Microsoft", "Apple"), ("Samsung", "Sony"), ("Nintendo", "Sega")],
        ),
        neg("What's the population of {v}?", [("Sydney", "Melbourne"), ("Zurich", "Geneva")]),
        neg(
            "What is {v} best known for?",
            [("Ada Lovelace", "Grace Hopper"), ("Nikola Tesla", "Thomas Edison"), ("Marie Curie", "Rosalind Franklin")],
        ),
    ]


def scope_change_templates():
    return [
        neg("How do I get the {v} element of a list in Python?", [("first", "last")]),
        neg("How many calories does an average adult burn {v}?", [("per day", "per hour")]),
        neg(
            "How do I delete {v} in git?",
            [("a single stash entry", "all stash entries"), ("one local branch", "all local branches")],
        ),
        neg(
            "Who was the {v}?",
            [
                ("first person to walk on the Moon", "last person to walk on the Moon"),
                ("first Tudor monarch", "last Tudor monarch"),
                ("first emperor of the Holy Roman Empire", "last emperor of the Holy Roman Empire"),
            ],
        ),
        neg(
            "Over five days I drove 320, 280, 410, 150 and 240 km. How far did I drive {v}?",
            [("in total", "on average per day")],
        ),
        neg(
            "In Python, how do I replace {v} of 'cat' in a string?",
            [("only the first occurrence", "every occurrence")],
        ),
        neg(
            r"Python regex: how do I get {v} for `\d+` in a string?",
            [("the first match", "all matches")],
        ),
        neg("What is Germany's {v} GDP?", [("total", "per-capita")]),
        neg(
            "SQL: how do I select the most recent order for {v}?",
            [("each customer", "customer 42")],
        ),
        neg(
            "How many calories are in {v}?",
            [("one slice of pepperoni pizza", "a whole large pepperoni pizza")],
        ),
        neg(
            "What's the average salary of a software engineer in the US {v}?",
            [("per year", "per hour")],
        ),
        neg(
            "With a standard 52-card deck, what's the probability of drawing {v}?",
            [("an ace", "all four aces in the first four cards")],
        ),
    ]


def math_expression_templates():
    return [
        neg(
            "Find the derivative of {v} with respect to x.",
            [
                ("x^3 sin(x)", "x^2 sin(x)"),
                ("e^(2x)", "e^(-2x)"),
                ("ln(x^2 + 1)", "ln(x^2 - 1)"),
                ("sqrt(x) + 1/x", "sqrt(x) - 1/x"),
            ],
        ),
        neg("Compute the {v} of x^2 e^x.", [("derivative", "indefinite integral")]),
        neg(
            "What is the limit of {v}?",
            [
                ("sin(x)/x as x → 0", "sin(x)/x as x → ∞"),
                ("(1 + 1/n)^n as n → ∞", "(1 + 2/n)^n as n → ∞"),
                ("x·ln(x) as x → 0⁺", "x·ln(x) as x → ∞"),
            ],
        ),
        neg(
            "Solve for x: {v}",
            [
                ("x^2 - 5x + 6 = 0", "x^2 + 5x + 6 = 0"),
                ("2x + 3 = 11", "2x - 3 = 11"),
                ("|x - 2| < 5", "|x - 2| > 5"),
            ],
        ),
        neg(
            "Does the series {v} converge, and if so to what?",
            [
                ("sum of 1/n^2 for n ≥ 1", "sum of 1/n for n ≥ 1"),
                ("sum of 1/2^n for n ≥ 0", "sum of 1/3^n for n ≥ 0"),
                ("sum of (-1)^(n+1)/n for n ≥ 1", "sum of (-1)^(n+1)/n^2 for n ≥ 1"),
            ],
        ),
        neg(
            "Compute the definite integral of {v}.",
            [("x^2 from 0 to 1", "x^2 from 0 to 2"), ("x^3 from -1 to 1", "x^2 from -1 to 1"), ("e^x from 0 to 1", "e^(-x) from 0 to 1")],
        ),
        neg("What's the determinant of the matrix [[1, 2], [3, {v}]]?", [("4", "5"), ("6", "-6")]),
        neg("Simplify (x^2 - 9)/(x {v} 3).", [("-", "+")]),
        neg("What's {v}? Show the steps.", [("3^100 mod 7", "2^100 mod 7"), ("C(10, 3)", "P(10, 3)")]),
    ]


def identifiers_paths_templates():
    return [
        neg("What does HTTP status code {v} mean?", [("401", "403"), ("502", "504"), ("301", "302"), ("409", "429")]),
        neg(
            "How do I fix `{v}` in Python?",
            [
                ("TypeError: 'NoneType' object is not subscriptable", "TypeError: 'NoneType' object is not iterable"),
                ("KeyError: 'user_id'", "IndexError: list index out of range"),
            ],
        ),
        neg(
            "What exactly does `{v}` do?",
            [
                ("git reset --soft HEAD~1", "git reset --hard HEAD~1"),
                ("docker run -d nginx", "docker run --rm nginx"),
                ("pip install -e .", "pip install -U ."),
                ("git push --force-with-lease", "git push --force"),
            ],
        ),
        neg(
            "linux: what does `{v}` do?",
            [
                ("ls -a", "ls -l"),
                ("chmod 755 deploy.sh", "chmod 644 deploy.sh"),
                ("tar -xzf backup.tar.gz", "tar -tzf backup.tar.gz"),
                ("rm -r build/", "rm -f build/"),
            ],
        ),
        neg(
            "What is the `{v}` environment variable used for?",
            [("PYTHONPATH", "PYTHONHOME"), ("LD_LIBRARY_PATH", "LD_PRELOAD"), ("NODE_ENV", "NODE_OPTIONS")],
        ),
        neg("Which new features arrived in Python {v}?", [("3.8", "3.12"), ("3.10", "3.11")]),
        neg("Does Django 5.0 support Python {v}?", [("3.9", "3.11")]),
        neg(
            "What is `{v}` used for on a Linux system?",
            [
                ("/etc/hosts", "/etc/hostname"),
                ("/var/log/syslog", "/var/log/auth.log"),
                ("~/.bashrc", "~/.bash_profile"),
                ("/etc/passwd", "/etc/shadow"),
            ],
        ),
        neg(
            "What does Python's `{v}` return for the path '/home/ana/notes.txt'?",
            [("os.path.basename", "os.path.dirname"), ("os.path.splitext", "os.path.split")],
        ),
        neg("Which service uses port {v} by default?", [("5432", "3306"), ("6379", "27017")]),
    ]


def extra_requirement_templates():
    return [
        neg(
            "How do I {task} in Python{v}?",
            [
                {"task": "reverse a string", "v": ("", " without using slicing or reversed()")},
                {"task": "find the most common element in a list", "v": ("", " without importing collections")},
                {"task": "read a large CSV file", "v": ("", " without loading it all into memory")},
                {"task": "merge two sorted lists", "v": ("", " in linear time without calling sort()")},
            ],
        ),
        neg(
            "Write a JavaScript function that checks whether a number is prime{v}.",
            [("", " using recursion"), ("", ", plus unit tests in Jest")],
        ),
        neg(
            "Explain how {concept} works{v}.",
            [
                {"concept": "RSA encryption", "v": ("", ", including its known weaknesses")},
                {"concept": "compound interest", "v": ("", " with a worked numerical example")},
                {"concept": "a hash table", "v": ("", ", with an implementation in C")},
                {"concept": "TCP's three-way handshake", "v": ("", ", with an ASCII diagram")},
            ],
        ),
        neg(
            "Plan a 3-day itinerary for {city}{v}.",
            [("", " for a family with a toddler"), ("", " on a budget of $60 a day"), ("", " focused on food markets")],
            city=["Rome", "Kyoto", "Lisbon", "Mexico City"],
        ),
        neg(
            "Give me a weeknight dinner recipe using chicken and rice{v}.",
            [("", " that takes under 20 minutes"), ("", " that's also gluten-free"), ("", " for a slow cooker")],
        ),
        neg(
            "Write a cover letter for a junior data analyst position{v}.",
            [("", ", mentioning that I'm switching careers from teaching"), ("", " in under 150 words")],
        ),
        neg(
            "Write a bash script that backs up my home directory to /mnt/backup{v}.",
            [("", " and deletes backups older than 7 days"), ("", " and sends me an email if it fails")],
        ),
        neg("How do I center a div {v} with CSS?", [("horizontally", "horizontally and vertically")]),
        neg(
            "Write a SQL query that finds duplicate email addresses in the users table{v}.",
            [("", " and deletes all but the oldest row for each"), ("", ", ignoring letter case")],
        ),
        neg(
            "Summarize the main causes of World War I{v}.",
            [("", " and name a historian for each point"), ("", " in under 100 words")],
        ),
        neg(
            "I run a small bakery and want a simple website. It needs a menu page, an about page and "
            "a contact form{v}. I can edit HTML but I'm not a developer. Which static site generator "
            "or website builder would you suggest, and why?",
            [("", ", plus online ordering with card payments"), ("", ", and it must be free to host")],
        ),
    ]


NEGATIVE_CATEGORIES = {
    "code_literal": code_literal_templates,
    "regex_pattern": regex_pattern_templates,
    "sql_query": sql_query_templates,
    "numeric": numeric_templates,
    "output_constraint": output_constraint_templates,
    "direction_role": direction_role_templates,
    "negated": negated_templates,
    "opposite_word": opposite_word_templates,
    "different_entity": different_entity_templates,
    "scope_change": scope_change_templates,
    "math_expression": math_expression_templates,
    "identifiers_paths": identifiers_paths_templates,
    "extra_requirement": extra_requirement_templates,
}


# ---------------------------------------------------------------------------
# Positive categories
# ---------------------------------------------------------------------------


def synonym_reword_templates():
    return [
        pos(
            "What's the quickest way to {x}?",
            "What's the fastest way to {x}?",
            [
                "learn touch typing",
                "thaw frozen chicken safely",
                "get rid of hiccups",
                "remove duplicates from a list in Python",
            ],
        ),
        pos(
            'How do I fix "{err}" when I run {tool}?',
            'How can I resolve the "{err}" error when running {tool}?',
            [
                {"err": "Permission denied (publickey)", "tool": "git push"},
                {"err": "EADDRINUSE: address already in use :::3000", "tool": "npm start"},
                {"err": "externally-managed-environment", "tool": "pip install on Ubuntu"},
            ],
        ),
        pos(
            "What is the biggest {x}?",
            "What is the largest {x}?",
            ["desert in the world", "moon in the solar system", "organ in the human body", "lake in Africa"],
        ),
        pos(
            "Tips for buying a used car {x}",
            "Advice on purchasing a second-hand car {x}",
            ["from a private seller", "with high mileage"],
        ),
        pos(
            "What are common symptoms of {x}?",
            "What are the typical signs of {x}?",
            ["iron deficiency", "dehydration", "burnout", "vitamin D deficiency"],
        ),
        pos(
            "Can you recommend a good book about {x}?",
            "Can you suggest a good book on {x}?",
            ["the history of mathematics", "behavioral economics", "the Roman Empire", "learning to cook"],
        ),
        pos(
            "How do I delete a {x} in git?",
            "How do I remove a {x} in git?",
            ["remote branch", "local branch", "tag that I already pushed"],
        ),
        pos(
            "Why is my {x} so slow?",
            "Why is my {x} so sluggish?",
            ["old Windows laptop", "Docker build", "Postgres query with a LIKE filter"],
        ),
        pos(
            "What's the difference between {a} and {b}?",
            "How does {a} differ from {b}?",
            [
                {"a": "a Roth IRA", "b": "a traditional IRA"},
                {"a": "TCP", "b": "UDP"},
                {"a": "baking soda", "b": "baking powder"},
                {"a": "weather", "b": "climate"},
            ],
        ),
    ]


def question_form_templates():
    return [
        pos(
            "Explain {x}.",
            "Can you explain {x}?",
            ["how DNS resolution works", "the Monty Hall problem", "the difference between stocks and bonds", "how compound interest works"],
        ),
        pos(
            "What is {x}?",
            "I want to understand what {x} is.",
            ["a Roth IRA", "a closure in JavaScript", "the Krebs cycle", "quantitative easing", "an index fund"],
        ),
        pos(
            "Tell me how {x} works.",
            "How does {x} work?",
            ["a heat pump", "garbage collection in Go", "the US electoral college", "a credit score"],
        ),
        pos(
            "Give me the steps to {x}.",
            "What are the steps to {x}?",
            ["renew a US passport by mail", "set up SSH keys for GitHub", "make cold brew coffee at home", "change a flat tire"],
        ),
        pos(
            "I need to know how to {x}.",
            "How do I {x}?",
            [
                "undo the last git commit but keep my changes",
                "convert a string to a date in JavaScript",
                "descale an espresso machine",
                "calculate my body mass index",
            ],
        ),
        pos(
            "List the differences between {x}.",
            "What are the differences between {x}?",
            ["`let` and `var` in JavaScript", "a virus and a bacterium", "Arabica and Robusta coffee", "a mutex and a semaphore"],
        ),
        pos(
            "{s}",
            "{q}",
            [
                {"s": "Tell me the year the Berlin Wall fell.", "q": "What year did the Berlin Wall fall?"},
                {"s": "Name the longest river in South America.", "q": "Which is the longest river in South America?"},
                {"s": "Tell me the boiling point of water at sea level in Fahrenheit.", "q": "At sea level, what's the boiling point of water in Fahrenheit?"},
            ],
        ),
    ]


def clause_order_templates():
    return [
        pos(
            "Using pandas, how do I {x}?",
            "How do I {x} using pandas?",
            [
                "drop duplicate rows",
                "fill missing values with the column mean",
                "pivot a long table into wide format",
                "read only the first 100 rows of a CSV",
            ],
        ),
        pos(
            "In {lang}, what's the best way to {task}?",
            "What's the best way to {task} in {lang}?",
            [
                {"lang": "Go", "task": "read a file line by line"},
                {"lang": "Rust", "task": "parse a JSON string into a struct"},
                {"lang": "JavaScript", "task": "deep clone an object"},
                {"lang": "bash", "task": "loop over files with spaces in their names"},
            ],
        ),
        pos(
            "For a 10-year-old, explain {x}.",
            "Explain {x} for a 10-year-old.",
            ["why the sky is blue", "how vaccines work", "what gravity is"],
        ),
        pos(
            "With a budget of $1,000, what's the best {x}?",
            "What's the best {x} with a budget of $1,000?",
            ["laptop for video editing", "road bike for commuting", "espresso machine for home"],
        ),
        pos(
            "Without a calculator, how can I {x}?",
            "How can I {x} without a calculator?",
            ["estimate a 15% tip", "find the square root of 200", "check whether 391 is prime"],
        ),
        pos(
            "In under 100 words and as bullet points, summarize {x}.",
            "Summarize {x} as bullet points, in under 100 words.",
            ["the French Revolution", "how a bill becomes law in the US", "the plot of Macbeth"],
        ),
        pos(
            "In Spanish, write {x}.",
            "Write {x} in Spanish.",
            ["a short birthday message for my grandmother", "a polite complaint to a hotel about a noisy room"],
        ),
        pos(
            "On macOS, how do I {x}?",
            "How do I {x} on macOS?",
            ["show hidden files in Finder", "find which process is using port 5000", "take a screenshot of a single window"],
        ),
        pos(
            "For a two-week trip to {country} in {month}, with a budget of $3,000 not counting flights, "
            "plan an itinerary that covers {cities}.",
            "Plan an itinerary that covers {cities} for a two-week trip to {country} in {month}, "
            "with a budget of $3,000 not counting flights.",
            [
                {"country": "Japan", "cities": "Tokyo, Kyoto and Osaka"},
                {"country": "Italy", "cities": "Rome, Florence and Venice"},
                {"country": "Mexico", "cities": "Mexico City, Oaxaca and Mérida"},
            ],
            month=["April", "October", "November"],
        ),
    ]


PY_SNIPPETS_OUTPUT = [
    "def add(item, bucket=[]):\n    bucket.append(item)\n    return bucket\n\nprint(add(1))\nprint(add(2))",
    "nums = [1, 2, 3, 4]\nfor n in nums:\n    if n % 2 == 0:\n        nums.remove(n)\nprint(nums)",
    "funcs = [lambda: i for i in range(3)]\nprint([f() for f in funcs])",
]
JS_SNIPPETS_OUTPUT = [
    "for (var i = 0; i < 3; i++) {\n  setTimeout(() => console.log(i), 0);\n}",
    "console.log([1, 10, 2, 21].sort());",
    "console.log(0.1 + 0.2 === 0.3);",
]
BUGGY_SNIPPETS = [
    {"lang": "python", "code": "def average(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total / len(xs) - 1"},
    {"lang": "javascript", "code": "function last(arr) {\n  return arr[arr.length];\n}"},
    {"lang": "bash", "code": "for f in $(ls *.txt); do\n  wc -l $f\ndone"},
    {"lang": "go", "code": "for _, v := range items {\n    go func() {\n        fmt.Println(v)\n    }()\n}"},
    {"lang": "sql", "code": "SELECT * FROM orders WHERE shipped_at = NULL;"},
]
SLOW_SNIPPETS = [
    {"lang": "python", "code": "result = []\nfor line in open('big.txt'):\n    result = result + [line.strip()]"},
    {"lang": "python", "code": "found = []\nfor a in list_a:\n    if a in list_b:\n        found.append(a)"},
    {"lang": "sql", "code": "SELECT * FROM events WHERE DATE(created_at) = '2024-05-01';"},
]


def same_code_new_words_templates():
    return [
        pos(
            "What does this print, and why?\n```{lang}\n{code}\n```",
            "Can you walk me through what this outputs and the reason for it?\n```{lang}\n{code}\n```",
            [{"lang": "python", "code": c} for c in PY_SNIPPETS_OUTPUT]
            + [{"lang": "javascript", "code": c} for c in JS_SNIPPETS_OUTPUT],
        ),
        pos(
            "Find the bug in this code:\n```{lang}\n{code}\n```",
            "There's a bug somewhere in here, can you spot it?\n```{lang}\n{code}\n```",
            BUGGY_SNIPPETS,
        ),
        pos(
            "Is this idiomatic {name}? `{inline}`",
            "Would an experienced {name} developer write it like this: `{inline}`?",
            [
                {"name": "Python", "inline": "squares = list(map(lambda x: x * x, range(10)))"},
                {"name": "JavaScript", "inline": "const names = users.map(u => u.name).filter(Boolean);"},
                {"name": "Rust", "inline": "let n: i32 = s.parse().unwrap();"},
                {"name": "Go", "inline": "if err != nil { panic(err) }"},
            ],
        ),
        pos(
            "Explain this regex: `{x}`",
            "What does the pattern `{x}` match? Break it down for me.",
            [r"^(?=.*\d)(?=.*[a-z]).{8,}$", r"(\d{4})-(\d{2})-(\d{2})", r"^\s*#.*$"],
        ),
        pos(
            "How can I make this faster?\n```{lang}\n{code}\n```",
            "Any way to speed this up?\n```{lang}\n{code}\n```",
            SLOW_SNIPPETS,
        ),
        pos(
            "Rewrite this using a list comprehension:\n```python\n{x}\n```",
            "Could you turn this into a list comprehension?\n```python\n{x}\n```",
            [
                "evens = []\nfor n in range(20):\n    if n % 2 == 0:\n        evens.append(n)",
                "upper = []\nfor w in words:\n    upper.append(w.upper())",
            ],
        ),
        pos(
            "Why does this SQL fail?\n```sql\n{x}\n```",
            "This query gives me an error. What's wrong with it?\n```sql\n{x}\n```",
            [
                "SELECT department, AVG(salary)\nFROM employees\nWHERE AVG(salary) > 50000\nGROUP BY department;",
                "SELECT name, COUNT(*) FROM users;",
            ],
        ),
        pos(
            "Add type hints to this function: `{x}`",
            "Can you annotate this function with type hints? `{x}`",
            ["def mean(values): return sum(values) / len(values)", "def greet(name, times=1): return ', '.join(['hi ' + name] * times)"],
        ),
    ]


def surface_noise_bases():
    return [
        base(
            "What's the best way to {x}?",
            ["store fresh basil", "learn SQL as a beginner", "clean a cast iron pan", "pack for a two-week trip in a carry-on"],
        ),
        base(
            "Why doesn't my {x}?",
            ["sourdough rise overnight", "cron job run at midnight", "Bluetooth headset connect to my laptop"],
        ),
        base(
            "I'm planning a trip to {x}. What's the best month to go?",
            ["Japan", "Peru", "Morocco", "New Zealand"],
        ),
        base(
            "Do I need a visa to visit {x} as a Canadian citizen?",
            ["Brazil", "Vietnam", "India"],
        ),
        base(
            "How do I convert a {x} in Python?",
            ["string to an integer", "list to a set", "datetime to a Unix timestamp"],
        ),
        base(
            "What's the difference between {x}?",
            ["a latte and a cappuccino", "RAM and storage", "a credit card and a debit card"],
        ),
        base(
            "It's my first time cooking {x}. What temperature should I use?",
            ["salmon in the oven", "a whole turkey", "pork tenderloin"],
        ),
        base(
            "I don't understand {x}. Can you explain it simply?",
            ["how mortgages work", "what a p-value is", "how recursion works"],
        ),
    ]


def politeness_wrapper_bases():
    return [
        base(
            "Explain the difference between {x}.",
            ["a stock split and a dividend", "HTTP and HTTPS", "a hurricane and a typhoon"],
            imperative=True,
        ),
        base(
            "How do I {x}?",
            ["set up a Python virtual environment on Windows", "remove a stripped screw", "get red wine out of a carpet"],
        ),
        base(
            "Write a short thank-you note to {x}.",
            ["my child's teacher", "a colleague who covered my shift", "my neighbors for watering my plants"],
            imperative=True,
        ),
        base(
            "Recommend {x}.",
            [
                "a beginner-friendly houseplant for a dark apartment",
                "a few science fiction novels similar to Dune",
                "a good budget mechanical keyboard",
            ],
            imperative=True,
        ),
        base(
            "What's a good substitute for {x} in baking?",
            ["buttermilk", "eggs", "brown sugar"],
        ),
        base(
            "Translate '{x}' into Italian.",
            ["Where is the nearest pharmacy?", "How much does this cost?", "I'm allergic to peanuts."],
            imperative=True,
        ),
        base(
            "Check this SQL for mistakes: `{x}`",
            [
                "SELECT name, COUNT(*) FROM users GROUP BY name HAVING COUNT(*) > 1",
                "UPDATE accounts SET balance = balance - 50 WHERE id = 7",
            ],
            imperative=True,
        ),
        base(
            "Draft a 150-word summary for a grant proposal for {x}. Mention the 40 volunteers, "
            "the $12,000 budget and our goal of supplying two local food banks.",
            ["a community garden", "a neighborhood composting program"],
            imperative=True,
        ),
    ]


POSITIVE_CATEGORIES = {
    "synonym_reword": synonym_reword_templates,
    "question_form": question_form_templates,
    "clause_order": clause_order_templates,
    "same_code_new_words": same_code_new_words_templates,
}
TRANSFORM_CATEGORIES = {
    "surface_noise": surface_noise_bases,
    "politeness_wrapper": politeness_wrapper_bases,
}
POSITIVE_ORDER = [
    "synonym_reword",
    "question_form",
    "surface_noise",
    "politeness_wrapper",
    "clause_order",
    "same_code_new_words",
]


# ---------------------------------------------------------------------------
# Transforms for surface noise and politeness
# ---------------------------------------------------------------------------

CONTRACTIONS = [
    ("What's", "What is"),
    ("don't", "do not"),
    ("I'm", "I am"),
    ("It's", "It is"),
]

POLITE_PREFIXES = [
    "Hi! ",
    "Hello, ",
    "Hey there! ",
    "Quick question: ",
    "Good morning! ",
    "Hi, hope you're doing well. ",
]
POLITE_SUFFIXES = [" Thanks in advance!", " Thank you!", " Thanks so much.", " Any help is appreciated."]


def noise_lowercase(rng, text):
    return text.lower()


def noise_spacing(rng, text):
    words = text.split(" ")
    if len(words) < 3:
        return "  " + text + " "
    for gap in sorted(rng.sample(range(1, len(words)), 2), reverse=True):
        words.insert(gap, "")
    return " ".join(words) + rng.choice(["", " ", "  "])


def noise_punctuation(rng, text):
    if text.endswith("?"):
        return text[:-1] if rng.random() < 0.5 else text + "??"
    if text.endswith("."):
        return text[:-1]
    return text + "?"


def noise_contraction(rng, text):
    options = [(a, b) for a, b in CONTRACTIONS if a in text] + [(b, a) for a, b in CONTRACTIONS if b in text]
    if not options:
        return text
    old, new = rng.choice(options)
    return text.replace(old, new, 1)


NOISE_OPS = [noise_lowercase, noise_spacing, noise_punctuation, noise_contraction]


def add_surface_noise(rng, text, imperative):
    """Apply one or two meaning-preserving surface edits."""
    ops = rng.sample(NOISE_OPS, rng.choice([1, 2]))
    noisy = text
    for op in ops:
        noisy = op(rng, noisy)
    if noisy == text:
        noisy = noise_lowercase(rng, text)
    return noisy


def add_politeness(rng, text, imperative):
    """Wrap a request in greetings, 'please' or thanks."""
    choices = ["prefix", "suffix", "both"]
    if imperative:
        choices.append("please")
    kind = rng.choice(choices)
    if kind == "please":
        return "Please " + text[0].lower() + text[1:]
    if kind == "suffix":
        return text + rng.choice(POLITE_SUFFIXES)
    wrapped = with_prefix(rng.choice(POLITE_PREFIXES), text)
    if kind == "prefix":
        return wrapped
    return wrapped + rng.choice(POLITE_SUFFIXES)


def with_prefix(prefix, text):
    """Join a greeting and a request; lower-case the request after a comma."""
    if prefix.endswith(", ") and not text.startswith("I "):
        text = text[0].lower() + text[1:]
    return prefix + text


TRANSFORMS = {"surface_noise": add_surface_noise, "politeness_wrapper": add_politeness}


# ---------------------------------------------------------------------------
# Candidate generation and sampling
# ---------------------------------------------------------------------------


def negative_candidates(rng, template):
    out = []
    for item in template["items"]:
        values = draw_slots(rng, item_values(item, "v"), template["slots"])
        a, b = values.pop("v")
        if rng.random() < 0.5:
            a, b = b, a
        check_slots(template["text"], {**values, "v": a})
        stored = fill(template["text"], {**values, "v": a})
        query = fill(template["text"], {**values, "v": b})
        out.append((stored, query))
    return out


def positive_candidates(rng, template):
    out = []
    for item in template["items"]:
        values = draw_slots(rng, item_values(item, "x"), template["slots"])
        check_slots(template["stored"], values)
        check_slots(template["query"], values)
        pair = (fill(template["stored"], values), fill(template["query"], values))
        if rng.random() < 0.5:
            pair = pair[::-1]
        out.append(pair)
    return out


def transform_candidates(rng, template, transform):
    out = []
    for item in template["items"]:
        values = draw_slots(rng, item_values(item, "x"), template["slots"])
        check_slots(template["text"], values)
        text = fill(template["text"], values)
        pair = (text, transform(rng, text, template["imperative"]))
        if rng.random() < 0.5:
            pair = pair[::-1]
        out.append(pair)
    return out


def round_robin(rng, candidate_lists, count, seen):
    """Take ``count`` unseen pairs, cycling over templates in random order."""
    pools = [list(c) for c in candidate_lists]
    for pool in pools:
        rng.shuffle(pool)
    rng.shuffle(pools)
    chosen = []
    while len(chosen) < count and any(pools):
        for pool in pools:
            while pool:
                pair = pool.pop()
                if pair not in seen and pair[0] != pair[1]:
                    seen.add(pair)
                    chosen.append(pair)
                    break
            if len(chosen) == count:
                break
    if len(chosen) < count:
        raise ValueError(f"only {len(chosen)} candidates, wanted {count}")
    return chosen


def word_count(text):
    return len(text.split())


def validate(entries):
    for entry in entries:
        for side in ("stored", "query"):
            n = word_count(entry[side])
            if not MIN_WORDS <= n <= MAX_WORDS:
                raise ValueError(f"{entry['category']}: {n} words in {entry[side]!r}")
        if entry["stored"] == entry["query"]:
            raise ValueError(f"identical pair in {entry['category']}")


def build_text_pairs(rng, seen):
    entries = []
    for category, make_templates in NEGATIVE_CATEGORIES.items():
        templates = make_templates()
        if len(templates) < 6:
            raise ValueError(f"{category} needs at least 6 templates")
        count = DEFAULT_NEGATIVES + (1 if category in EXTRA_NEGATIVES else 0)
        candidates = [negative_candidates(rng, t) for t in templates]
        for stored, query in round_robin(rng, candidates, count, seen):
            entries.append({"category": category, "stored": stored, "query": query})
    return entries


def build_positives(rng, seen):
    entries = []
    for category in POSITIVE_ORDER:
        if category in TRANSFORM_CATEGORIES:
            templates = TRANSFORM_CATEGORIES[category]()
            candidates = [transform_candidates(rng, t, TRANSFORMS[category]) for t in templates]
        else:
            templates = POSITIVE_CATEGORIES[category]()
            candidates = [positive_candidates(rng, t) for t in templates]
        if len(templates) < 6:
            raise ValueError(f"{category} needs at least 6 templates")
        for stored, query in round_robin(rng, candidates, DEFAULT_POSITIVES, seen):
            entries.append({"category": category, "stored": stored, "query": query})
    return entries


def build_v5() -> dict:
    """Build the whole set deterministically from SEED."""
    rng = random.Random(SEED)
    seen: set = set()
    text_pairs = build_text_pairs(rng, seen)
    positives = build_positives(rng, seen)
    validate(text_pairs)
    validate(positives)
    description = (
        "Fifth held-out set, generated by benchmarks/caches/make_heldout_v5.py build_v5 "
        f"(seed {SEED}): {len(text_pairs)} must-not-hit text pairs in "
        f"{len(NEGATIVE_CATEGORIES)} categories (near-identical prompts that ask for "
        f"something different) and {len(positives)} positives in {len(POSITIVE_ORDER)} "
        "categories (true paraphrases); written without reading the cache's verification "
        "code or the other sets; frozen before any rule change. Never used to write rules."
    )
    return {"description": description, "text_pairs": text_pairs, "positives": positives}


def main():
    data = build_v5()
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {len(data['text_pairs'])} text_pairs and {len(data['positives'])} positives to {OUT_PATH}")


if __name__ == "__main__":
    main()
