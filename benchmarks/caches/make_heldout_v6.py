# Over 500 lines on purpose: a frozen data generator whose templates and word lists are its content (its set
# was committed with it and measured as written; edit neither).
"""Generate the sixth held-out evaluation set for the semantic prompt cache.

The set imitates the traffic of a company whose users send customer-support
questions, coding-assistant requests (Python, TypeScript, Java, Go, SQL,
shell, Docker, Kubernetes, git), data questions, math homework, writing and
translation tasks, trivia, health and fitness basics, personal finance and
travel planning.

It has two parts:

* ``text_pairs`` -- MUST-NOT-HIT pairs. The two texts are nearly identical,
  but a careful human would answer them differently, so serving the stored
  answer to the query would be wrong.
* ``positives`` -- true paraphrases. Serving the stored answer is right.

Every pair comes from a hand-written template whose slots are filled from
small word lists chosen so that every combination reads naturally. A slot
option is one of:

* a string -- the same on both sides;
* a 2-tuple ``(stored_value, query_value)`` -- the one place the sides differ;
* a dict of sub-slots, each a string, a 2-tuple, or a list to draw one from.

The set was written without reading the cache's code or the other held-out
sets, and is frozen before any rule change. It must never be used to write
rules.

Usage::

    python benchmarks/caches/make_heldout_v6.py

writes ``data/heldout_generated_v6.json`` next to this file. The output is
deterministic (``random.Random(60613)``).
"""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

SEED = 60613
TEXT_PAIR_QUOTA = 12  # per must-not-hit category
POSITIVE_QUOTA = 12  # per positive category
MAX_TRIES = 200  # draws per template before it counts as exhausted
OUTPUT_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "data", "heldout_generated_v6.json"
)
SLOT_RE = re.compile(r"\{\{(\w+)\}\}")


# ---------------------------------------------------------------------------
# Template machinery
# ---------------------------------------------------------------------------


@dataclass
class Template:
    """One sentence frame.

    ``stored`` is the frame for the stored text; ``query`` is the frame for
    the query (defaults to ``stored``). ``transform`` is applied to the
    finished query text (used for surface noise and polite wrapping).
    """

    stored: str
    query: Optional[str] = None
    slots: dict = field(default_factory=dict)
    transform: Optional[Callable[[str, random.Random], str]] = None


def _assign(stored_vals: dict, query_vals: dict, name: str, value) -> None:
    """Record one resolved slot value for both sides."""
    if isinstance(value, tuple):
        stored_vals[name], query_vals[name] = value
    else:
        stored_vals[name] = query_vals[name] = value


def resolve_slots(rng: random.Random, slots: dict) -> tuple[dict, dict]:
    """Pick one option per slot; return (stored values, query values)."""
    stored_vals: dict = {}
    query_vals: dict = {}
    for name, options in slots.items():
        option = rng.choice(options)
        if isinstance(option, dict):
            for sub_name, sub_value in option.items():
                if isinstance(sub_value, list):
                    sub_value = rng.choice(sub_value)
                _assign(stored_vals, query_vals, sub_name, sub_value)
        else:
            _assign(stored_vals, query_vals, name, option)
    return stored_vals, query_vals


def fill(frame: str, values: dict) -> str:
    """Substitute ``{{name}}`` markers in a single pass."""
    text = SLOT_RE.sub(lambda m: values[m.group(1)], frame)
    if SLOT_RE.search(text):
        raise ValueError(f"unfilled slot in: {text!r}")
    return text


def render(rng: random.Random, template: Template) -> tuple[str, str]:
    """Draw one (stored, query) pair from a template."""
    stored_vals, query_vals = resolve_slots(rng, template.slots)
    stored = fill(template.stored, stored_vals)
    query = fill(template.query or template.stored, query_vals)
    if template.transform is not None:
        query = template.transform(query, rng)
    return stored, query


def swapped(pairs: list[tuple[str, str]], frame: str) -> list[tuple[str, str]]:
    """For each (a, b) give (frame with a, b) vs (frame with b, a)."""
    return [(frame.format(a=a, b=b), frame.format(a=b, b=a)) for a, b in pairs]


def join_and(items: list[str]) -> str:
    """'a', 'a and b', 'a, b, and c'."""
    if len(items) == 1:
        return items[0]
    if len(items) == 2:
        return f"{items[0]} and {items[1]}"
    return ", ".join(items[:-1]) + f", and {items[-1]}"


def reordered(
    rng: random.Random, pool: list[str], size: int, joiner: Callable[[list[str]], str], count: int
) -> list[tuple[str, str]]:
    """Options that list the same constraints in two different orders."""
    options = []
    for _ in range(count):
        chosen = rng.sample(pool, size)
        other = chosen[:]
        while other == chosen:
            rng.shuffle(other)
        options.append((joiner(chosen), joiner(other)))
    return options


# ---------------------------------------------------------------------------
# Query-side transforms (positives only)
# ---------------------------------------------------------------------------

CONTRACTIONS = [
    ("What's", "What is"), ("what's", "what is"), ("Where's", "Where is"),
    ("where's", "where is"), ("don't", "do not"), ("Don't", "Do not"),
    ("I'm", "I am"), ("it's", "it is"), ("It's", "It is"), ("can't", "cannot"),
    ("I've", "I have"), ("doesn't", "does not"), ("isn't", "is not"),
]


def _outside_code(text: str, func: Callable[[str], str]) -> str:
    """Apply ``func`` to the parts of ``text`` that are not in backticks."""
    parts = text.split("`")
    return "`".join(func(p) if i % 2 == 0 else p for i, p in enumerate(parts))


def expand_contractions(text: str, rng: random.Random) -> str:
    for short, full in CONTRACTIONS:
        text = re.sub(rf"(?<!\w){re.escape(short)}(?!\w)", full, text)
    return text


def lowercase_plain(text: str, rng: random.Random) -> str:
    """Chat-style typing: lower case, no apostrophes, no final punctuation."""
    text = _outside_code(text, lambda p: p.lower().replace("'", ""))
    return text.rstrip("?.!")


def expand_and_lower(text: str, rng: random.Random) -> str:
    return expand_contractions(text, rng).lower()


def spaced_out(text: str, rng: random.Random) -> str:
    """Double a couple of spaces and detach the question mark."""
    words = text.rstrip("?").split(" ")
    for index in rng.sample(range(1, len(words)), 2):
        words[index] = " " + words[index]
    return " ".join(words) + " ?"


def exclaim(text: str, rng: random.Random) -> str:
    return text[0].lower() + text[1:].rstrip(".") + "!!"


def double_question_lower(text: str, rng: random.Random) -> str:
    return text.lower().rstrip("?") + " ??"


def _lower_first(text: str) -> str:
    if text.startswith("I ") or text.startswith("I'"):
        return text
    return text[0].lower() + text[1:]


QUESTION_PREFIXES = [
    ("Hi! ", False), ("Hello there! ", False), ("Good morning! ", False),
    ("Hey, hope you're having a good day. ", False), ("Quick question: ", True),
    ("Sorry to bother you, but ", True),
]
THANKS_SUFFIXES = ["", " Thanks!", " Thank you so much.", " Thanks in advance!", " Any help is appreciated."]


def polite_question(text: str, rng: random.Random) -> str:
    """Wrap a question in a greeting and/or thanks."""
    prefix, lower = rng.choice(QUESTION_PREFIXES)
    body = _lower_first(text) if lower else text
    return prefix + body + rng.choice(THANKS_SUFFIXES)


def polite_request(text: str, rng: random.Random) -> str:
    """Turn an imperative into a polite request."""
    as_question = _lower_first(text).rstrip(".") + "?"
    forms = [
        "Please " + _lower_first(text),
        "Could you please " + as_question,
        "Hi! Would you " + as_question,
        "Hello, can you " + as_question,
        "Hey there. " + text,
    ]
    return rng.choice(forms) + rng.choice(THANKS_SUFFIXES)


# ---------------------------------------------------------------------------
# Must-not-hit categories
# ---------------------------------------------------------------------------


def code_token_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "In Python, given `nums = [4, 8, 15, 16, 23, 42]`, what does `{{expr}}` evaluate to?",
            slots={"expr": [("nums[1:3]", "nums[1:4]"), ("nums[-1]", "nums[-2]"),
                            ("nums[::2]", "nums[::3]"), ("len(nums) // 4", "len(nums) / 4"),
                            ("nums.index(16)", "nums.count(16)")]}),
        Template(
            "What gets printed here?\n```python\nwords = ['pear', 'fig', 'apple']\n{{line}}\nprint(words)\n```",
            slots={"line": [("words.sort()", "words.reverse()"),
                            ("words = sorted(words, key=len)", "words = sorted(words, key=str.upper)"),
                            ("words.pop()", "words.pop(0)"),
                            ("words.append('kiwi')", "words.insert(0, 'kiwi')")]}),
        Template(
            "Quick JavaScript check: is `{{expr}}` true or false?",
            slots={"expr": [("null == undefined", "null === undefined"), ("0 == ''", "0 === ''"),
                            ("[] == false", "[] === false"),
                            ("typeof null === 'object'", "typeof null === 'null'"),
                            ("'10' > '9'", "10 > 9")]}),
        Template(
            "What does the expression `{{expr}}` evaluate to in Java, and why?",
            slots={"expr": [("7 / 2", "7 % 2"), ("7 / 2", "7 / 2.0"), ("'a' + 1", '"a" + 1'),
                            ("10 >> 1", "10 << 1"), ("-7 / 2", "-7 % 2")]}),
        Template(
            "I'm learning Go. What does this program print?\n```go\ns := []int{1, 2, 3, 4, 5}\nfmt.Println({{expr}})\n```",
            slots={"expr": [("s[1:3]", "s[2:3]"), ("len(s[:2])", "cap(s[:2])"),
                            ("s[len(s)-1]", "s[len(s)-2]"), ("s[3:]", "s[:3]")]}),
        Template(
            "With `strict` turned on in tsconfig, will this TypeScript compile?\n```ts\n{{code}}\n```",
            slots={"code": [
                ("const ids: number[] = [1, 2, 3];", "const ids: string[] = [1, 2, 3];"),
                ("let label: string | null = null;", "let label: string | undefined = null;"),
                ("const x: any = 5;\nconsole.log(x.toFixed(2));", "const x: unknown = 5;\nconsole.log(x.toFixed(2));"),
                ("function add(a: number, b: number): number {\n  return a + b;\n}",
                 "function add(a: number, b: number): string {\n  return a + b;\n}")]}),
        Template(
            "I keep running into `{{expr}}` in a teammate's Python script. What value does it produce?",
            slots={"expr": [("'hello'.find('l')", "'hello'.rfind('l')"), ("int('101', 2)", "int('101', 8)"),
                            ("divmod(17, 5)", "divmod(17, 3)"), ("'a,b,,c'.split(',')", "'a,b,,c'.split(',', 1)"),
                            ("round(2.5)", "round(3.5)")]}),
    ]


def git_shell_command_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "After I run `git reset {{flag}} HEAD~1`, what happens to the last commit and to the changes that were in it?",
            slots={"flag": [("--soft", "--hard"), ("--soft", "--mixed"), ("--mixed", "--hard")]}),
        Template(
            "I accidentally ran `{{cmd}}` in my repo a minute ago. Is there any way to get my work back?",
            slots={"cmd": [("git stash", "git stash clear"), ("git branch -d feature/login", "git branch -D feature/login"),
                           ("git checkout -- .", "git clean -fdx"), ("git commit --amend", "git reset --hard")]}),
        Template(
            "Can you explain exactly what `{{cmd}}` does on a Linux box?",
            slots={"cmd": [("rm -r build/", "rm -rf build/"), ("chmod 644 deploy.sh", "chmod 755 deploy.sh"),
                           ("ls -l", "ls -la"), ("grep -r TODO src/", "grep -rl TODO src/"),
                           ("tail -n 50 app.log", "tail -f app.log"), ("du -sh *", "du -h *")]}),
        Template(
            "I start the container with `docker run {{flag}} -p 8080:80 nginx`. What happens to my terminal, and how do I stop the container afterwards?",
            slots={"flag": [("-d", "-it"), ("-d", "--rm"), ("--rm -d", "--rm -it")]}),
        Template(
            "What columns does `kubectl get {{res}}` print by default, and what does each one mean?",
            slots={"res": [("pods", "services"), ("pods", "deployments"), ("nodes", "pods"),
                           ("services", "ingress"), ("deployments", "replicasets")]}),
        Template(
            "What exactly does `git diff {{arg}}` show me?",
            slots={"arg": [("--staged", "HEAD"), ("main..feature", "main...feature"),
                           ("--stat", "--name-only"), ("--staged", "--word-diff")]}),
        Template(
            "Before switching branches, my lead told me to run `docker compose {{cmd}}`. What does that do to the Postgres data volume defined in our compose file?",
            slots={"cmd": [("down", "down -v"), ("stop", "down -v"), ("restart", "down -v")]}),
        Template(
            "Is it safe to run `kubectl rollout {{sub}} deployment/api` in production during business hours?",
            slots={"sub": [("restart", "undo"), ("status", "restart"), ("pause", "undo"), ("history", "undo")]}),
        Template(
            "We're about to cut a release and I'm cleaning up my local clone. I have a few uncommitted experiments I don't care about, plus one stash I definitely do care about. If I run `git {{cmd}}`, what happens to each of them?",
            slots={"cmd": [("clean -fd", "stash clear"), ("reset --hard", "stash drop"), ("checkout -- .", "stash pop")]}),
    ]


def regex_or_format_string_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            'Does the regex `{{pat}}` match the string "{{text}}"?',
            slots={"case": [
                {"pat": (r"^\d{3}-\d{4}$", r"^\d{3}-\d{3}$"), "text": "555-1234"},
                {"pat": (r"^[A-Z][a-z]+$", r"^[A-Z][a-z]*$"), "text": "A"},
                {"pat": (r"colou?r", r"colou+r"), "text": "color"},
                {"pat": (r"^\w+@\w+\.com$", r"^\w+@\w+\.org$"), "text": "ana@example.com"},
                {"pat": (r"\bcat\b", r"cat"), "text": "concatenate"}]}),
        Template(
            "In Python, what does `print('{{fmt}}' % {{val}})` output?",
            slots={"case": [
                {"fmt": ("%d", "%s"), "val": "3.9"},
                {"fmt": ("%05d", "%5d"), "val": "42"},
                {"fmt": ("%x", "%o"), "val": "255"},
                {"fmt": ("%.1f", "%.3f"), "val": "2.71828"},
                {"fmt": ("%e", "%f"), "val": "1234.5"}]}),
        Template(
            'If `price = 1234.5678`, what string does `f"{price:{{spec}}}"` produce in Python?',
            slots={"spec": [(".2f", ".3f"), (",.2f", ".2f"), (">12.1f", "<12.1f"),
                            (".0f", ".1e"), ("012.1f", "12.1f")]}),
        Template(
            "In JavaScript, what does `'{{text}}'.replace({{re}}, '-')` return?",
            slots={"case": [
                {"text": "a1b22c333", "re": (r"/\d/", r"/\d/g")},
                {"text": "a1b22c333", "re": (r"/\d+/g", r"/\d/g")},
                {"text": "2024-01-15", "re": ("/-/", "/-/g")},
                {"text": "Hello World", "re": ("/h/g", "/h/gi")}]}),
        Template(
            "What will `datetime(2024, 3, 7, 14, 5).strftime('{{fmt}}')` print?",
            slots={"fmt": [("%d/%m/%Y", "%m/%d/%Y"), ("%H:%M", "%I:%M %p"), ("%b %d", "%B %d"),
                           ("%y-%m-%d", "%Y-%m-%d"), ("%A", "%a")]}),
        Template(
            "Write a {{lang}} function that returns true only if the input matches `{{pat}}`, and add a couple of test cases.",
            slots={"lang": ["Python", "TypeScript", "Go", "Java"],
                   "pat": [(r"^[0-9]{5}$", r"^[0-9]{5}(-[0-9]{4})?$"),
                           (r"^[A-Za-z0-9_]{3,16}$", r"^[A-Za-z0-9_]{8,16}$"),
                           (r"^#[0-9a-f]{6}$", r"^#[0-9a-f]{3}$"),
                           (r"^\+?[0-9]{10}$", r"^\+?[0-9]{11}$")]}),
        Template(
            'What is the output of `String.format("{{fmt}}", {{val}})` in Java?',
            slots={"case": [
                {"fmt": ("%x", "%X"), "val": "255"},
                {"fmt": ("%05d", "%5d"), "val": "255"},
                {"fmt": ("%x", "%o"), "val": "255"},
                {"fmt": ("%.2f", "%10.2f"), "val": "3.14159"},
                {"fmt": ("%s", "%10s"), "val": '"abc"'}]}),
        Template(
            "Which lines of our nginx access log will `grep -E '{{pat}}' access.log` match?",
            slots={"pat": [("^ERROR", "ERROR$"), (" 5[0-9]{2} ", " 4[0-9]{2} "),
                           ("timeout|refused", "timeout.*refused"), (r"^[0-9]{1,3}\.", r"^[0-9]{3}\.")]}),
    ]


def sql_or_query_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Explain what this query returns:\n```sql\nSELECT customer_id, {{agg}}(amount) AS result\nFROM orders\nWHERE status = '{{status}}'\nGROUP BY customer_id;\n```",
            slots={"agg": [("SUM", "AVG"), ("COUNT", "MAX"), ("MIN", "MAX"), ("SUM", "COUNT")],
                   "status": ["shipped", "refunded", "pending"]}),
        Template(
            "Will this find the customers who have never placed an order?\n```sql\nSELECT c.id, c.name\nFROM customers c\n{{join}} orders o ON o.customer_id = c.id\nWHERE o.id IS NULL;\n```",
            slots={"join": [("LEFT JOIN", "INNER JOIN"), ("LEFT JOIN", "RIGHT JOIN")]}),
        Template(
            "What does `SELECT name, salary FROM employees ORDER BY salary {{ord}} LIMIT {{lim}};` return?",
            slots={"case": [
                {"ord": ("DESC", "ASC"), "lim": ["1", "3", "5"]},
                {"ord": ["DESC", "ASC"], "lim": ("1", "10")},
                {"ord": "DESC", "lim": ("3", "5")}]}),
        Template(
            "The `users` table has 1,000 rows, and 200 of them have a NULL `email`. How many rows does `{{q}}` return?",
            slots={"q": [("SELECT COUNT(*) FROM users", "SELECT COUNT(email) FROM users"),
                         ("SELECT * FROM users WHERE email = NULL", "SELECT * FROM users WHERE email IS NULL"),
                         ("SELECT * FROM users WHERE email IS NULL", "SELECT * FROM users WHERE email IS NOT NULL")]}),
        Template(
            "In pandas, what does `df.groupby('region')['revenue'].{{agg}}()` give me for a sales DataFrame?",
            slots={"agg": [("sum", "mean"), ("count", "nunique"), ("max", "idxmax"),
                           ("sum", "cumsum"), ("median", "std")]}),
        Template(
            "Using the table `employees(id, name, department, salary)`, write a query that lists the departments {{cond}}.",
            slots={"cond": [("with more than 10 employees", "with fewer than 10 employees"),
                            ("whose average salary is above 80,000", "whose maximum salary is above 80,000"),
                            ("that have at least one employee earning over 100,000",
                             "in which every employee earns over 100,000"),
                            ("sorted by headcount", "sorted by total payroll")]}),
        Template(
            "Our API paginates with `SELECT id, title FROM posts ORDER BY {{order}} LIMIT 20 OFFSET {{off}};`. Which posts end up on that page?",
            slots={"case": [
                {"order": "id", "off": ("0", "20")},
                {"order": "id", "off": ("20", "40")},
                {"order": ("id", "id DESC"), "off": "0"},
                {"order": ("created_at", "updated_at"), "off": "0"}]}),
        Template(
            "How do I write a query that returns {{x}} from `orders(id, customer_id, total, created_at)`?",
            slots={"x": [("each customer's most recent order", "each customer's first order"),
                         ("the top 5 customers by total spend", "the top 5 customers by number of orders"),
                         ("the total revenue per month", "the number of orders per month")]}),
    ]


def quantity_or_time_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Roughly how much is {{amt}} in {{cur}} at current exchange rates?",
            slots={"case": [
                {"amt": ("250 US dollars", "2,500 US dollars"), "cur": ["euros", "Japanese yen"]},
                {"amt": "500 Canadian dollars", "cur": ("euros", "British pounds")},
                {"amt": ("100 Swiss francs", "100 Australian dollars"), "cur": "US dollars"}]}),
        Template(
            "My flight leaves Chicago at {{time}} and the trip to London takes about 8 hours. What local time will it be in London when I land?",
            slots={"time": [("9:00 a.m.", "9:00 p.m."), ("6:30 p.m.", "7:30 p.m."), ("11:15 a.m.", "11:15 p.m.")]}),
        Template(
            "About how many calories would a {{w}} person burn running for {{dur}} at a moderate pace?",
            slots={"case": [
                {"w": ("60 kg", "90 kg"), "dur": ["30 minutes", "an hour"]},
                {"w": ["70 kg", "150-pound"], "dur": ("20 minutes", "an hour")}]}),
        Template(
            "If I invest ${{p}} at {{r}} annual interest, compounded monthly, how much will I have after {{y}} years?",
            slots={"case": [
                {"p": ("5,000", "50,000"), "r": ["4%", "6%"], "y": ["10", "20"]},
                {"p": ["10,000", "25,000"], "r": ("4%", "7%"), "y": ["10", "15"]},
                {"p": ["10,000", "25,000"], "r": ["5%", "6%"], "y": ("10", "30")}]}),
        Template(
            "How much protein is in {{q}} of cooked chicken breast?",
            slots={"q": [("100 grams", "200 grams"), ("3 ounces", "3 pounds"), ("one cup", "half a cup")]}),
        Template(
            "We're going to Kyoto {{when}}. What's the weather usually like then, and how crowded will the main temples be?",
            slots={"when": [("in late March", "in late June"), ("in mid-October", "in mid-January"),
                            ("during the first week of May", "during the last week of August")]}),
        Template(
            "Your refund policy says annual plans can be refunded within 30 days of purchase. I bought mine {{ago}} ago and haven't used it much. Am I still eligible for a full refund?",
            slots={"ago": [("3 weeks", "5 weeks"), ("29 days", "31 days"), ("two weeks", "two months"), ("10 days", "45 days")]}),
        Template(
            "Convert {{x}} to {{unit}}.",
            slots={"case": [
                {"x": ("25 degrees Celsius", "52 degrees Celsius"), "unit": "Fahrenheit"},
                {"x": ("5 kilometers", "15 kilometers"), "unit": "miles"},
                {"x": ("2.5 liters", "2.5 gallons"), "unit": "cups"},
                {"x": "180 pounds", "unit": ("kilograms", "stone")}]}),
        Template(
            "I'm based in New York and have to join a meeting set for {{time}} {{tz}} time tomorrow. What time is that for me?",
            slots={"case": [
                {"time": ("3 p.m.", "3 a.m."), "tz": "Berlin"},
                {"time": "9 a.m.", "tz": ("Berlin", "Tokyo")},
                {"time": "10 a.m.", "tz": ("London", "Sydney")}]}),
    ]


def answer_shape_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Summarize the plot of {{book}} in {{size}}.",
            slots={"book": ["Pride and Prejudice", "Moby-Dick", "1984", "The Great Gatsby", "Frankenstein"],
                   "size": [("one sentence", "three paragraphs"), ("50 words", "500 words"),
                            ("a single tweet", "a detailed chapter-by-chapter outline")]}),
        Template(
            "Give me {{n}} ideas for a team-building activity for a fully remote engineering team.",
            slots={"n": [("3", "10"), ("five", "twenty"), ("two", "seven")]}),
        Template(
            "Explain {{topic}} {{aud}}.",
            slots={"topic": ["how public-key encryption works", "how compound interest works",
                             "how vaccines train the immune system", "how DNS turns a domain name into an IP address"],
                   "aud": [("to a 10-year-old", "to a graduate student in the field"),
                           ("in plain English for a non-technical manager", "with the underlying math, for an engineer"),
                           ("in two sentences", "in a detailed, step-by-step walkthrough")]}),
        Template(
            "List the differences between {{pair}} as {{fmt}}.",
            slots={"pair": ["TCP and UDP", "Python lists and tuples", "Roth and traditional IRAs", "stocks and bonds"],
                   "fmt": [("a Markdown table", "a JSON object"), ("a numbered list", "a single paragraph"),
                           ("a table", "a short poem")]}),
        Template(
            "Write an email to my landlord {{req}}. Make it {{tone}}.",
            slots={"req": ["asking them to fix the broken heater", "asking for permission to get a cat",
                           "about extending my lease by six months"],
                   "tone": [("polite and brief", "firm and formal"), ("friendly and casual", "strictly formal"),
                            ("short", "detailed and thorough")]}),
        Template(
            "Write a short product description for {{prod}} in {{lang}}.",
            slots={"prod": ["a stainless-steel water bottle", "noise-cancelling headphones",
                            "a bamboo cutting board", "a foldable camping chair"],
                   "lang": [("Spanish", "German"), ("French", "Italian"), ("English", "Japanese"), ("Portuguese", "Dutch")]}),
        Template(
            'Rewrite this paragraph {{how}}: "{{para}}"',
            slots={"para": ["I walked to the station, missed the train by a minute, and decided to wait for the next one.",
                            "We launched the new dashboard last week, and early feedback from customers has been mostly positive."],
                   "how": [("in the third person", "in the second person"),
                           ("at a fifth-grade reading level", "at a college reading level"),
                           ("as a formal report sentence", "as a casual text message")]}),
        Template(
            "Show me how to read a CSV file in Python {{shape}}.",
            slots={"shape": [("with just the code and no explanation", "with a line-by-line explanation"),
                             ("in a single line", "as a reusable function with a docstring and type hints")]}),
        Template(
            "I'm putting together onboarding material for new support agents, who keep asking how refunds work for annual subscriptions. Write an explanation of our refund process {{shape}}.",
            slots={"shape": [("as a numbered checklist", "as a short FAQ"), ("in under 100 words", "in about 400 words"),
                             ("for the agents themselves", "that agents can paste straight into replies to customers")]}),
    ]


NAME_PAIRS = [("Priya", "Marcus"), ("Elena", "Tomás"), ("Kenji", "Aisha"), ("Grace", "Omar"), ("Lars", "Fatima")]


def direction_or_roles_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Write a {{lang}} function that converts {{dir}}.",
            slots={"lang": ["Python", "Go", "TypeScript", "Java"],
                   "dir": [("Celsius to Fahrenheit", "Fahrenheit to Celsius"),
                           ("a Unix timestamp to an ISO 8601 string", "an ISO 8601 string to a Unix timestamp"),
                           ("camelCase to snake_case", "snake_case to camelCase"),
                           ("Roman numerals to integers", "integers to Roman numerals")]}),
        Template(
            "I need help translating a short business letter {{dir}}. Please keep the tone formal and flag any idioms that don't carry over.",
            slots={"dir": [("from English into Portuguese", "from Portuguese into English"),
                           ("from German into French", "from French into German"),
                           ("from Korean into English", "from English into Korean"),
                           ("from Spanish into Italian", "from Italian into Spanish")]}),
        Template(
            "Org chart question: {{rel}} on the platform team, and both of them sit under the VP of Engineering. Which of the two should approve the other's vacation requests?",
            slots={"rel": swapped(NAME_PAIRS, "{a} reports to {b}")}),
        Template(
            "Can I roll money over from {{dir}} without owing any tax?",
            slots={"dir": [("a Roth IRA into a traditional IRA", "a traditional IRA into a Roth IRA"),
                           ("an HSA into an IRA", "an IRA into an HSA"),
                           ("a 401(k) into a Roth IRA", "a Roth IRA into a 401(k)")]}),
        Template(
            "Is every {{rel}}?",
            slots={"rel": [("square a rectangle", "rectangle a square"),
                           ("integer a rational number", "rational number an integer"),
                           ("rhombus a parallelogram", "parallelogram a rhombus"),
                           ("whale a mammal", "mammal a whale"),
                           ("natural number an integer", "integer a natural number")]}),
        Template(
            "In simple terms, how {{rel}}?",
            slots={"rel": [("do interest rates affect housing prices", "do housing prices affect interest rates"),
                           ("does inflation affect unemployment", "does unemployment affect inflation"),
                           ("does sleep affect mood", "does mood affect sleep"),
                           ("does the exchange rate affect exports", "do exports affect the exchange rate")]}),
        Template(
            "In Python, how do I turn {{dir}}?",
            slots={"dir": [("a list of tuples into a dict", "a dict into a list of tuples"),
                           ("a JSON string into a dict", "a dict into a JSON string"),
                           ("bytes into a str", "a str into bytes"),
                           ("a pandas DataFrame into a list of dicts", "a list of dicts into a pandas DataFrame")]}),
        Template(
            "How do I merge {{dir}} without losing my uncommitted local changes?",
            slots={"dir": [("main into my feature branch", "my feature branch into main"),
                           ("develop into release/2.4", "release/2.4 into develop"),
                           ("the hotfix branch into main", "main into the hotfix branch")]}),
        Template(
            "If it's {{t}} in {{rel}}?",
            slots={"t": ["9 a.m.", "noon", "6 p.m."],
                   "rel": swapped([("Tokyo", "New York"), ("London", "Sydney"), ("Berlin", "Los Angeles"),
                                   ("Mumbai", "Chicago")], "{a}, what time is it in {b}")}),
    ]


def negation_or_exception_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Which planets in our solar system {{p}}?",
            slots={"p": [("have rings", "do not have rings"), ("have at least one moon", "have no moons"),
                         ("are larger than Earth", "are not larger than Earth"),
                         ("have a solid surface", "don't have a solid surface")]}),
        Template(
            "Write a {{lang}} function that returns every element of a list {{cond}}.",
            slots={"lang": ["Python", "TypeScript"],
                   "cond": [("that is even", "that is not even"),
                            ("that appears more than once", "that never repeats"),
                            ("that is a string", "except the strings"),
                            ("that is divisible by 3", "that is not divisible by 3")]}),
        Template(
            "Suggest a high-protein breakfast {{x}}.",
            slots={"x": [("with eggs", "without eggs"), ("that includes dairy", "that contains no dairy"),
                         ("with meat", "without any meat"),
                         ("that uses protein powder", "that doesn't use protein powder")]}),
        Template(
            "How do I remove every saved payment method from my account{{exc}}? I'm cleaning out some old cards.",
            slots={"exc": [("", " except the default card"), ("", ", other than the card I used last"),
                           ("", " except the ones tied to active subscriptions")]}),
        Template(
            "Calculate the average order value for last quarter{{exc}}.",
            slots={"exc": [("", ", excluding refunded orders"),
                           ("", " without counting orders from internal test accounts"),
                           (", including shipping fees", ", excluding shipping fees")]}),
        Template(
            "How do I stage every modified file in git{{exc}}?",
            slots={"exc": [("", " except `.env`"), ("", " other than the ones under `logs/`"),
                           ("", " except deleted files")]}),
        Template(
            "Which foods are {{neg}}good to eat when you have {{cond}}?",
            slots={"neg": [("", "not ")],
                   "cond": ["high blood pressure", "type 2 diabetes", "acid reflux", "gout", "high cholesterol"]}),
        Template(
            "Plan a three-day itinerary in {{city}} {{x}}.",
            slots={"city": ["Vienna", "Barcelona", "Chicago", "Singapore"],
                   "x": [("that includes museums", "that doesn't include any museums"),
                         ("with a day trip out of the city", "without any day trips"),
                         ("that relies on public transport", "without using public transport")]}),
        Template(
            "Write a SQL query that returns the customers who {{x}} placed an order in {{year}}.",
            slots={"x": [("have", "have not"), ("have", "have never")], "year": ["2023", "2024"]}),
    ]


def opposite_meaning_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "How do I {{act}} {{setting}} in the mobile app?",
            slots={"act": [("enable", "disable"), ("turn on", "turn off")],
                   "setting": ["two-factor authentication", "dark mode", "automatic renewal",
                               "email notifications", "location sharing"]}),
        Template(
            "What's the quickest way to {{x}}?",
            slots={"x": [("import a CSV file into a PostgreSQL table", "export a PostgreSQL table to a CSV file"),
                         ("merge several PDF files into one", "split a PDF file into separate pages"),
                         ("compress a folder into a zip file on macOS", "extract a zip file on macOS"),
                         ("encrypt a file with GPG", "decrypt a file with GPG")]}),
        Template(
            "Create a 7-day meal plan to help me {{x}} weight{{extra}}.",
            slots={"x": [("lose", "gain")],
                   "extra": ["", " as a vegetarian", " on a tight budget", " while training for a half marathon"]}),
        Template(
            "Write a SQL query to find the {{x}} salary in each department.",
            slots={"x": [("highest", "lowest"), ("maximum", "minimum")]}),
        Template(
            "How do I get the {{x}} occurrence of a substring in a string in {{lang}}?",
            slots={"x": [("first", "last")], "lang": ["Python", "Java", "JavaScript", "Go"]}),
        Template(
            "Why are so many analysts {{x}} on {{asset}} right now?",
            slots={"x": [("bullish", "bearish")],
                   "asset": ["gold", "the US dollar", "semiconductor stocks", "long-term Treasury bonds",
                             "emerging-market equities"]}),
        Template(
            "How do I {{x}} {{thing}}?",
            slots={"x": [("increase", "decrease"), ("raise", "lower")],
                   "thing": ["the memory limit of a Kubernetes pod", "the font size in VS Code",
                             "the number of replicas in a deployment", "the credit limit on my card",
                             "the request timeout in the Python `requests` library"]}),
        Template(
            "In a cash flow statement, which items count as cash {{x}} from {{section}} activities?",
            slots={"x": [("inflows", "outflows")], "section": ["operating", "investing", "financing"]}),
        Template(
            "Why would a company do a {{x}}?",
            slots={"x": [("stock split", "reverse stock split"), ("share buyback", "new share issuance")]}),
    ]


def other_entity_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "How do I read a Parquet file with {{lib}}?",
            slots={"lib": [("pandas", "Polars"), ("PySpark", "DuckDB"), ("pandas", "PyArrow"), ("Polars", "DuckDB")]}),
        Template(
            "Roughly what's the population of {{city}}?",
            slots={"city": [("Toronto", "Vancouver"), ("Lyon", "Marseille"), ("Osaka", "Nagoya"),
                            ("Melbourne", "Sydney"), ("Munich", "Hamburg")]}),
        Template(
            "My {{dev}} stopped syncing with my phone after the latest update. I've already restarted both. What else should I try?",
            slots={"dev": [("Fitbit Charge 6", "Garmin Forerunner 265"), ("Apple Watch", "Galaxy Watch"),
                           ("Kindle Paperwhite", "Kobo Clara"), ("Oura ring", "Whoop band")]}),
        Template(
            "What are the main new features in {{v}}?",
            slots={"v": [("Python 3.11", "Python 3.12"), ("Java 17", "Java 21"), ("Kubernetes 1.28", "Kubernetes 1.29"),
                         ("TypeScript 5.0", "TypeScript 5.4"), ("Go 1.21", "Go 1.22")]}),
        Template(
            "Summarize the main scientific contributions of {{p}}.",
            slots={"p": [("Marie Curie", "Lise Meitner"), ("Isaac Newton", "Gottfried Leibniz"),
                         ("Alan Turing", "John von Neumann"), ("Ada Lovelace", "Charles Babbage"),
                         ("Rosalind Franklin", "Barbara McClintock")]}),
        Template(
            "Plan a four-day, food-focused trip to {{city}} in the spring. I like street food and local markets more than fine dining.",
            slots={"city": [("Lisbon", "Porto"), ("Mexico City", "Oaxaca"), ("Bangkok", "Chiang Mai"),
                            ("Rome", "Florence"), ("Osaka", "Taipei")]}),
        Template(
            "How do I write a unit test that mocks an outgoing HTTP call in {{lang}}?",
            slots={"lang": [("Python", "Go"), ("TypeScript", "Java"), ("Java", "C#"), ("Go", "Rust")]}),
        Template(
            "Does {{svc}} have a free tier that's enough for a small side project, and what are its limits?",
            slots={"svc": [("AWS Lambda", "Google Cloud Functions"), ("Vercel", "Netlify"),
                           ("MongoDB Atlas", "Supabase"), ("Heroku", "Render")]}),
        Template(
            "We're migrating a medium-sized internal dashboard, and the team mostly has backend experience. The app has about forty screens, lots of forms, and talks to a REST API. What are the main pitfalls when moving it from Angular to {{fw}}?",
            slots={"fw": [("React", "Vue"), ("Svelte", "SolidJS"), ("React", "Svelte")]}),
    ]


def extra_or_missing_condition_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Give me a recipe for {{dish}}{{cond}}.",
            slots={"dish": ["banana bread", "lasagna", "a chocolate cake", "pizza dough"],
                   "cond": [("", " that is vegan"), ("", " that takes under 30 minutes"),
                            ("", " without eggs"), ("", " that's gluten-free")]}),
        Template(
            "Write a {{lang}} function to {{task}}{{cond}}.",
            slots={"case": [
                {"lang": ["Python", "Java", "Go", "TypeScript"], "task": "find the duplicates in a list",
                 "cond": ("", " in O(n) time")},
                {"lang": ["Python", "TypeScript"], "task": "flatten a nested list", "cond": ("", " without recursion")},
                {"lang": ["Python", "Java", "Go"], "task": "reverse a singly linked list", "cond": ("", " recursively")},
                {"lang": ["Python", "Java", "Go"], "task": "read a large file line by line",
                 "cond": ("", " with error handling for a missing file")},
                {"lang": ["Python", "Java", "TypeScript"], "task": "check whether a string is a palindrome",
                 "cond": ("", " without using any built-in reverse function")}]}),
        Template(
            "How do I set an environment variable permanently{{cond}}?",
            slots={"cond": [("", " on Windows"), ("", " for all users"), ("", " without admin rights")]}),
        Template(
            "What's the best way to learn {{skill}}{{cond}}?",
            slots={"case": [
                {"skill": "SQL", "cond": ("", " if I already know Excel well")},
                {"skill": "Spanish", "cond": ("", " if I already speak Italian")},
                {"skill": "Kubernetes", "cond": ("", " if I already use Docker every day")},
                {"skill": ["SQL", "Spanish", "data visualization", "Kubernetes"], "cond": ("", " for free")},
                {"skill": ["SQL", "data visualization", "Kubernetes"], "cond": ("", " in just two weeks")}]}),
        Template(
            "What's a good beginner workout routine{{cond}}?",
            slots={"cond": [("", " for someone with bad knees"), ("", " that needs no equipment"),
                            ("", " for someone over 60"), ("", " that I can do in 15 minutes a day"),
                            ("", " during pregnancy")]}),
        Template(
            "Does it make sense to pay off my student loans early{{cond}}?",
            slots={"cond": [("", " if their interest rate is under 3%"), ("", " before I've built an emergency fund"),
                            ("", " when my employer offers a 401(k) match I'm not taking yet")]}),
        Template(
            "What documents do I need to travel to {{country}}{{cond}}?",
            slots={"country": ["Canada", "Mexico"],
                   "cond": [("", " with a child who isn't mine"), ("", " with my dog"),
                            ("", " as a US green card holder")]}),
        Template(
            "How can I make my Docker image smaller{{cond}}?",
            slots={"cond": [("", " without changing the Ubuntu base image"), ("", " for a statically compiled Go binary"),
                            ("", " without using multi-stage builds"), ("", " for a Python app that uses pandas")]}),
        Template(
            "Write a query that removes duplicate rows from the `contacts` table{{cond}}.",
            slots={"cond": [("", ", keeping only the most recently updated row for each email"),
                            ("", " without creating a temporary table"), ("", " in MySQL")]}),
    ]


def comparison_target_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Is {{a}} faster than {{x}} for {{task}}?",
            slots={"case": [
                {"a": "Go", "x": ("Python", "Rust"), "task": "building web APIs"},
                {"a": "PostgreSQL", "x": ("MySQL", "MongoDB"), "task": "write-heavy workloads"},
                {"a": "Polars", "x": ("pandas", "DuckDB"), "task": "aggregating a 10 GB CSV file"},
                {"a": "Bun", "x": ("Node.js", "Deno"), "task": "running a test suite"}]}),
        Template(
            "Which is better for {{who}}: {{a}} or {{b}}?",
            slots={"who": [("beginners", "experienced developers"), ("a small startup", "a large enterprise"),
                           ("a solo side project", "a team of fifty engineers")],
                   "tools": [{"a": "React", "b": "Vue"}, {"a": "Django", "b": "FastAPI"},
                             {"a": "Kubernetes", "b": "Docker Swarm"}, {"a": "MySQL", "b": "PostgreSQL"}]}),
        Template(
            "Is it {{cmp}} to {{act}} than to {{alt}}?",
            slots={"cmp": [("cheaper", "more expensive")],
                   "case": [{"act": "rent a car in Iceland", "alt": "book guided tours"},
                            {"act": "cook at home", "alt": "use a meal-kit service"},
                            {"act": "lease a car", "alt": "buy one outright"},
                            {"act": "take the train from Paris to Amsterdam", "alt": "fly"}]}),
        Template(
            "Nutrition-wise, is {{base}} a better choice than {{x}}?",
            slots={"case": [{"base": "brown rice", "x": ("white rice", "quinoa")},
                            {"base": "oat milk", "x": ("cow's milk", "almond milk")},
                            {"base": "Greek yogurt", "x": ("regular yogurt", "cottage cheese")},
                            {"base": "sweet potatoes", "x": ("white potatoes", "carrots")}]}),
        Template(
            "How does the {{a}} compare with the {{x}} when it comes to battery life?",
            slots={"case": [{"a": "iPhone 15", "x": ("Pixel 8", "Galaxy S24")},
                            {"a": "MacBook Air M2", "x": ("Dell XPS 13", "ThinkPad X1 Carbon")},
                            {"a": "Kindle Paperwhite", "x": ("Kobo Libra 2", "iPad mini")}]}),
        Template(
            "Do index funds usually have lower fees than {{x}}?",
            slots={"x": [("actively managed mutual funds", "ETFs"), ("target-date funds", "robo-advisors"),
                         ("hedge funds", "bond index funds")]}),
        Template(
            "Is {{base}} {{rel}} than {{x}}?",
            slots={"case": [{"base": "Mount Kilimanjaro", "rel": "taller", "x": ("Mont Blanc", "Denali")},
                            {"base": "Mount Fuji", "rel": "taller", "x": ("Ben Nevis", "Mount Rainier")},
                            {"base": "Texas", "rel": "bigger", "x": ("Germany", "Alaska")},
                            {"base": "Australia", "rel": "bigger", "x": ("India", "Brazil")}]}),
        Template(
            "On a Postgres table with 50 million rows, is `{{a}}` slower than `{{x}}`?",
            slots={"case": [{"a": "COUNT(*)", "x": ("COUNT(1)", "COUNT(DISTINCT user_id)")},
                            {"a": "WHERE name LIKE 'abc%'", "x": ("WHERE name LIKE '%abc'", "WHERE name = 'abc'")}]}),
    ]


def tense_or_modality_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Which city {{v}} the capital of {{c}}?",
            slots={"v": [("used to be", "is")], "c": ["Brazil", "Nigeria", "Kazakhstan", "Myanmar", "Turkey"]}),
        Template(
            "{{m}} I {{act}}?",
            slots={"m": [("Can", "Should")],
                   "act": ["withdraw money from my 401(k) before I turn 59½",
                           "run a production Kubernetes cluster on a single node",
                           "hash user passwords with plain SHA-256",
                           "use `git push --force` on a branch my teammates share",
                           "keep my entire emergency fund in a stock index fund"]}),
        Template(
            "{{v}} it legal to {{act}}?",
            slots={"v": [("Is", "Was")],
                   "act": ["smoke on commercial flights in the US",
                           "use a handheld phone while driving in California",
                           "buy absinthe in the United States"]}),
        Template(
            "What currency {{v}} used in {{c}}?",
            slots={"v": [("was", "is")], "c": ["Germany", "France", "Italy", "Spain", "Greece", "Estonia"]}),
        Template(
            "{{q}}",
            slots={"q": [("How has remote work changed the market for office space?",
                          "How will remote work change the market for office space?"),
                         ("How have electric cars affected global oil demand?",
                          "How will electric cars affect global oil demand?"),
                         ("What has the Federal Reserve done about inflation?",
                          "What will the Federal Reserve do about inflation?"),
                         ("How did the shift to cloud computing change IT jobs?",
                          "How will the shift to cloud computing change IT jobs?")]}),
        Template(
            "{{m}} {{act}}?",
            slots={"m": [("Do I have to", "Can I")],
                   "act": ["link a bank account to use the mobile app",
                           "share my location for the app to work",
                           "install the desktop client to join a video call",
                           "create an account to check out"]}),
        Template(
            "{{v}} {{thing}}?",
            slots={"v": [("Was", "Is")],
                   "thing": ["Pluto considered a planet", "Internet Explorer the default browser on Windows",
                             "Adobe Flash supported in Google Chrome", "Twitter's character limit 140"]}),
    ]


def plural_scope_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "What's the {{s}} salary for a software engineer in {{city}}?",
            slots={"s": [("average", "median")], "city": ["Austin", "Berlin", "Toronto", "London", "Bangalore"]}),
        Template(
            "How much does the {{plan}} plan cost {{per}}?",
            slots={"plan": ["Pro", "Business", "Team"],
                   "per": [("per month", "per year"), ("per user", "for the whole team"),
                           ("for one seat", "for all 25 seats on our account")]}),
        Template(
            'In {{lang}}, how do I replace {{s}} of "cat" with "dog" in a string?',
            slots={"lang": ["Python", "JavaScript", "Java", "Go"],
                   "s": [("only the first occurrence", "every occurrence"), ("only the last occurrence", "all occurrences")]}),
        Template(
            "How do I remove {{s}}?",
            slots={"s": [("a stopped Docker container", "all stopped Docker containers"),
                         ("a single pod in Kubernetes", "every pod in a namespace"),
                         ("a local git branch that's already merged", "all local git branches that are already merged"),
                         ("one unused Docker image", "every unused Docker image")]}),
        Template(
            "How much {{nutrient}} should a healthy adult get {{per}}?",
            slots={"nutrient": ["protein", "fiber", "sodium", "added sugar"], "per": [("per day", "per meal")]}),
        Template(
            "I have a $10,000 personal loan at 6% APR over 3 years. How much interest will I pay {{per}}?",
            slots={"per": [("in the first month", "over the life of the loan"), ("in the first month", "in the first year")]}),
        Template(
            "Find me {{s}} from {{route}} on Friday morning.",
            slots={"s": [("the earliest direct flight", "every direct flight"),
                         ("the cheapest nonstop flight", "all the nonstop flights")],
                   "route": ["Boston to Denver", "Seattle to Chicago", "London to Madrid"]}),
        Template(
            "How do I undo {{s}} in git?",
            slots={"s": [("my last commit", "all the commits on this branch since it split off from main"),
                         ("the changes to one file", "all the changes in my working tree")]}),
        Template(
            "Calculate the {{s}} for this order: 3 notebooks at $4.50 each and 2 pens at $1.25 each.",
            slots={"s": [("grand total", "cost of each line item")]}),
    ]


# ---------------------------------------------------------------------------
# Positive categories
# ---------------------------------------------------------------------------


def synonym_reword_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "What's the best way to {{inf}} in {{lang}}?",
            "What's the recommended approach for {{ger}} in {{lang}}?",
            slots={"task": [
                {"inf": "remove duplicates from a list", "ger": "removing duplicates from a list",
                 "lang": ["Python", "JavaScript"]},
                {"inf": "read a JSON file", "ger": "reading a JSON file", "lang": ["Python", "Go", "Java"]},
                {"inf": "reverse a string", "ger": "reversing a string", "lang": ["Python", "Java", "Go"]},
                {"inf": "sort a map by its values", "ger": "sorting a map by its values", "lang": ["Java", "Go"]}]}),
        Template(
            "What are the common symptoms of {{c}}?",
            "What signs usually point to {{c}}?",
            slots={"c": ["iron deficiency", "dehydration", "vitamin D deficiency", "burnout", "low blood sugar"]}),
        Template(
            "What's the difference between {{a}} and {{b}}?",
            "How do {{a}} and {{b}} differ?",
            slots={"pair": [{"a": "a Roth IRA", "b": "a traditional IRA"}, {"a": "a credit score", "b": "a credit report"},
                            {"a": "a process", "b": "a thread"}, {"a": "a Docker image", "b": "a Docker container"},
                            {"a": "weather", "b": "climate"}]}),
        Template(
            "What are the must-see sights in {{city}} for a first-time visitor?",
            "I'm visiting {{city}} for the first time. Which attractions shouldn't I miss?",
            slots={"city": ["Prague", "Istanbul", "Buenos Aires", "Seoul", "Edinburgh"]}),
        Template(
            'Fix the grammar in this sentence: "{{sent}}"',
            'Correct the grammatical mistakes in this sentence: "{{sent}}"',
            slots={"sent": ["Me and him goes to the gym every weekends.",
                            "Their going to announce the results tomorrow, weather or not we're ready.",
                            "She don't like when people is late to meetings.",
                            "Between you and I, the project are behind schedule."]}),
        Template(
            "How do I reset my password if I can no longer access {{ch}}?",
            "I've lost access to {{ch}}. How can I reset my password?",
            slots={"ch": ["the email address on my account", "my old phone number", "my authenticator app"]}),
        Template(
            "How do I find duplicate values in the `{{col}}` column of a SQL table?",
            "What SQL can I use to detect repeated values in a table's `{{col}}` column?",
            slots={"col": ["email", "phone_number", "order_id", "username"]}),
        Template(
            "Find the derivative of {{f}} with respect to x.",
            "Compute d/dx of {{f}}.",
            slots={"f": ["x^3 sin(x)", "e^(2x) ln(x)", "(x^2 + 1)/(x - 3)", "sqrt(1 + x^2)"]}),
    ]


def question_vs_imperative_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "Explain {{topic}}.",
            "What is {{topic}}?",
            slots={"topic": ["a race condition", "gradient descent", "the Pythagorean theorem", "a Docker volume",
                             "dollar-cost averaging", "a database index"]}),
        Template(
            "Can you explain how {{proc}}?",
            "Explain how {{proc}}.",
            slots={"proc": ["a Kubernetes Service routes traffic to pods", "compound interest grows over time",
                            "the TCP three-way handshake works", "photosynthesis turns sunlight into chemical energy",
                            "a bill becomes a law in the United States"]}),
        Template(
            "Write a {{lang}} function that {{does}}.",
            "How would I write a {{lang}} function that {{does}}?",
            slots={"lang": ["Python", "TypeScript", "Go"],
                   "does": ["checks whether a string is a palindrome", "returns the n-th Fibonacci number",
                            "counts the vowels in a string"]}),
        Template(
            'Translate "{{phrase}}" into {{lang}}.',
            'How do you say "{{phrase}}" in {{lang}}?',
            slots={"phrase": ["Where is the train station?", "I'm allergic to peanuts.", "Could we get the check, please?",
                              "What time does the museum open?"],
                   "lang": ["Spanish", "Italian", "Japanese", "German", "French"]}),
        Template(
            "I'd like to understand {{stmt}}.",
            "{{q}}",
            slots={"case": [{"stmt": "how a Roth IRA conversion works", "q": "How does a Roth IRA conversion work?"},
                            {"stmt": "how vaccines create immunity", "q": "How do vaccines create immunity?"},
                            {"stmt": "what a Kubernetes operator does", "q": "What does a Kubernetes operator do?"},
                            {"stmt": "why the sky is blue", "q": "Why is the sky blue?"},
                            {"stmt": "how a credit score is calculated", "q": "How is a credit score calculated?"}]}),
        Template(
            "List the {{n}} largest {{things}}.",
            "What are the {{n}} largest {{things}}?",
            slots={"n": ["three", "five"],
                   "things": ["countries in Africa by area", "US states by population", "planets in our solar system",
                              "cities in Canada by population"]}),
        Template(
            "Summarize the main causes of {{event}}.",
            "What were the main causes of {{event}}?",
            slots={"event": ["the French Revolution", "World War I", "the 2008 financial crisis", "the Great Depression",
                             "the fall of the Western Roman Empire"]}),
        Template(
            "Give me the time complexity of {{algo}}.",
            "What's the time complexity of {{algo}}?",
            slots={"algo": ["binary search", "merge sort", "inserting a key into a Python dict",
                            "Dijkstra's algorithm with a binary heap", "quicksort in the worst case"]}),
    ]


def surface_noise_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "What's the difference between a {{a}} and a {{b}}?",
            transform=lowercase_plain,
            slots={"pair": [{"a": "virus", "b": "bacterium"}, {"a": "crocodile", "b": "alligator"},
                            {"a": "debit card", "b": "credit card"}, {"a": "hurricane", "b": "typhoon"}]}),
        Template(
            "How many {{unit}} are in {{x}}?",
            transform=spaced_out,
            slots={"case": [{"unit": "tablespoons", "x": "a cup"}, {"unit": "ounces", "x": "a pound"},
                            {"unit": "feet", "x": "a mile"}, {"unit": "milliliters", "x": "a US gallon"},
                            {"unit": "seconds", "x": "a day"}]}),
        Template(
            "I don't understand why my {{thing}} keeps {{prob}}. What should I check first?",
            transform=expand_and_lower,
            slots={"case": [{"thing": "laptop", "prob": "overheating"}, {"thing": "Wi-Fi", "prob": "dropping out"},
                            {"thing": "dishwasher", "prob": "leaving spots on glasses"},
                            {"thing": "car battery", "prob": "dying overnight"}]}),
        Template(
            "Recommend a good {{genre}} book for a long flight.",
            transform=exclaim,
            slots={"genre": ["science fiction", "mystery", "history", "fantasy", "business"]}),
        Template(
            "Is it safe to eat {{food}} that was left out overnight?",
            transform=double_question_lower,
            slots={"food": ["cooked rice", "pizza", "a hard-boiled egg", "cooked chicken", "cut watermelon"]}),
        Template(
            "How much should I keep in an emergency fund if my monthly expenses are {{amt}}?",
            transform=lowercase_plain,
            slots={"amt": ["$2,000", "$3,500", "$5,000", "$1,800"]}),
        Template(
            "Where's the best place to see the Northern Lights in {{country}}?",
            transform=expand_contractions,
            slots={"country": ["Norway", "Iceland", "Finland", "Canada", "Sweden"]}),
        Template(
            "What's the difference between `{{a}}` and `{{b}}` in {{lang}}?",
            transform=lowercase_plain,
            slots={"case": [{"a": "git fetch", "b": "git pull", "lang": "Git"},
                            {"a": "let", "b": "const", "lang": "JavaScript"},
                            {"a": "==", "b": "is", "lang": "Python"},
                            {"a": "COPY", "b": "ADD", "lang": "a Dockerfile"}]}),
    ]


def polite_wrapping_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "How do I change the billing email on my {{plan}} account?",
            transform=polite_question,
            slots={"plan": ["team", "business", "personal", "family"]}),
        Template(
            "Write a bash one-liner that counts the lines in every `.{{ext}}` file under the current directory.",
            transform=polite_request,
            slots={"ext": ["py", "ts", "go", "java", "sql"]}),
        Template(
            "What's a good stretching routine for {{who}}?",
            transform=polite_question,
            slots={"who": ["runners", "people who sit at a desk all day", "cyclists", "beginners with tight hamstrings"]}),
        Template(
            'Translate "{{phrase}}" into {{lang}}.',
            transform=polite_request,
            slots={"phrase": ["The meeting has been moved to Thursday.", "Please keep your receipt.",
                              "Our office is closed on public holidays."],
                   "lang": ["Spanish", "German", "Portuguese", "Korean"]}),
        Template(
            "How long should I boil {{food}}?",
            transform=polite_question,
            slots={"food": ["an egg for a runny yolk", "fresh pasta", "corn on the cob", "frozen dumplings"]}),
        Template(
            "Explain the difference between `{{a}}` and `{{b}}` in {{lang}}.",
            transform=polite_request,
            slots={"case": [{"a": "==", "b": "===", "lang": "JavaScript"}, {"a": "list", "b": "tuple", "lang": "Python"},
                            {"a": "interface", "b": "abstract class", "lang": "Java"},
                            {"a": "type", "b": "interface", "lang": "TypeScript"}]}),
        Template(
            "Suggest a {{n}}-day itinerary for {{city}}.",
            transform=polite_request,
            slots={"n": ["two", "three"], "city": ["Amsterdam", "Kyoto", "New Orleans", "Budapest"]}),
        Template(
            "My {{item}} arrived damaged. How do I request a replacement?",
            transform=polite_question,
            slots={"item": ["order", "monitor", "blender", "new headphones"]}),
    ]


def reordered_constraints_templates(rng: random.Random) -> list[Template]:
    def semicolons(items: list[str]) -> str:
        return "; ".join(items)

    def commas(items: list[str]) -> str:
        return ", ".join(items)

    return [
        Template(
            "Write a Python function that {{task}}. Requirements: {{reqs}}.",
            slots={"task": ["parses a log line into a dict", "merges two sorted lists", "validates an email address"],
                   "reqs": reordered(rng, ["include type hints", "add a docstring", "raise ValueError on invalid input",
                                           "don't use any third-party libraries"], 3, semicolons, 4)}),
        Template(
            "Plan a {{n}}-day trip to {{city}} with {{cons}}.",
            slots={"n": ["three", "four", "five"], "city": ["Lisbon", "Copenhagen", "Montreal", "Hanoi"],
                   "cons": reordered(rng, ["a total budget under $1,500", "no more than two museums",
                                           "vegetarian-friendly restaurants", "mostly walkable neighborhoods"], 3, join_and, 4)}),
        Template(
            "Suggest a dinner recipe that is {{cons}}.",
            slots={"cons": reordered(rng, ["gluten-free", "ready in 30 minutes", "high in protein", "kid-friendly",
                                           "made in one pan"], 3, join_and, 5)}),
        Template(
            "Write a cover letter for a {{role}} position. Keep it {{cons}}.",
            slots={"role": ["data analyst", "product manager", "junior backend developer"],
                   "cons": reordered(rng, ["under 300 words", "confident but not arrogant", "focused on measurable results",
                                           "free of clichés"], 3, join_and, 4)}),
        Template(
            "Write a SQL query against `orders(id, customer_id, total, created_at)` that {{cons}}.",
            slots={"cons": reordered(rng, ["only includes orders from 2024", "groups the results by customer_id",
                                           "sorts customers by total spend in descending order", "returns at most 10 rows"],
                                     4, join_and, 4)}),
        Template(
            "Create a weekly workout plan for me: {{cons}}.",
            slots={"cons": reordered(rng, ["three sessions a week", "about 45 minutes per session", "no gym equipment",
                                           "a focus on core strength", "low impact on the knees"], 3, commas, 5)}),
        Template(
            "Give me a `find` command that lists files {{cons}}.",
            slots={"cons": reordered(rng, ["larger than 100 MB", "modified in the last 7 days", "under /var/log",
                                           "whose names end in .log"], 3, join_and, 4)}),
    ]


PY_SNIPPETS = [
    "nums = [3, 1, 2]\nnums.sort()\nprint(nums[-1] * 2)",
    "d = {'a': 1, 'b': 2}\nfor k, v in d.items():\n    print(k * v)",
    "x = [1, 2, 3]\ny = x\ny.append(4)\nprint(len(x))",
    "print(sum(i for i in range(10) if i % 3 == 0))",
    "s = 'banana'\nprint(s.count('an'), s.find('n'))",
]

COMPLEXITY_SNIPPETS = [
    {"fence": "python", "code": "def has_pair(nums, target):\n    seen = set()\n    for n in nums:\n"
                                "        if target - n in seen:\n            return True\n        seen.add(n)\n    return False"},
    {"fence": "python", "code": "def count_pairs(items):\n    total = 0\n    for i in range(len(items)):\n"
                                "        for j in range(i + 1, len(items)):\n            total += 1\n    return total"},
    {"fence": "go", "code": "func sumDigits(n int) int {\n\ts := 0\n\tfor n > 0 {\n\t\ts += n % 10\n\t\tn /= 10\n\t}\n\treturn s\n}"},
    {"fence": "java", "code": "int power(int b, int e) {\n    if (e == 0) return 1;\n    int half = power(b, e / 2);\n"
                              "    return e % 2 == 0 ? half * half : half * half * b;\n}"},
]

SLOW_QUERIES = [
    "SELECT *\nFROM orders\nWHERE YEAR(created_at) = 2024\nORDER BY created_at DESC;",
    "SELECT c.name, COUNT(*)\nFROM customers c\nJOIN orders o ON o.customer_id = c.id\n"
    "WHERE LOWER(c.email) LIKE '%@example.com'\nGROUP BY c.name;",
    "SELECT id\nFROM events\nWHERE user_id IN (SELECT user_id FROM users WHERE country = 'DE');",
]

DOCKERFILES = [
    'FROM python:3.12\nCOPY . /app\nRUN pip install -r /app/requirements.txt\nCMD ["python", "/app/main.py"]',
    'FROM node:20\nWORKDIR /app\nCOPY . .\nRUN npm install\nEXPOSE 3000\nCMD ["npm", "start"]',
    'FROM ubuntu:22.04\nRUN apt-get update\nRUN apt-get install -y curl git\nCOPY app /usr/local/bin/app\nENTRYPOINT ["app"]',
]


def same_code_reworded_templates(rng: random.Random) -> list[Template]:
    return [
        Template(
            "What does this Python code print?\n```python\n{{code}}\n```",
            "If I run the snippet below, what output will I see?\n```python\n{{code}}\n```",
            slots={"code": PY_SNIPPETS}),
        Template(
            "Why does `{{code}}` throw an error in {{lang}}?",
            "I'm getting an error from `{{code}}` in {{lang}}. What's causing it?",
            slots={"case": [{"code": "const total = 1; total = 2;", "lang": "JavaScript"},
                            {"code": "'age: ' + 30", "lang": "Python"},
                            {"code": "int count = null;", "lang": "Java"},
                            {"code": "let id: number = 'abc';", "lang": "TypeScript"},
                            {"code": 'var m map[string]int; m["a"] = 1', "lang": "Go"}]}),
        Template(
            "Can you explain what this regex does: `{{re}}`?",
            "Break down the regular expression `{{re}}` for me.",
            slots={"re": [r"^(?=.*\d)(?=.*[A-Z]).{8,}$", r"^\d{4}-\d{2}-\d{2}$", r"(\w+)@(\w+)\.com",
                          r"^\s*#.*$", r"\b(\w+)\s+\1\b"]}),
        Template(
            "What's the time complexity of this function?\n```{{fence}}\n{{code}}\n```",
            "How does the running time of this function grow with the size of its input?\n```{{fence}}\n{{code}}\n```",
            slots={"snippet": COMPLEXITY_SNIPPETS}),
        Template(
            "What does `{{cmd}}` do?",
            "Could you walk me through what the command `{{cmd}}` does?",
            slots={"cmd": ["find . -name '*.tmp' -mtime +7 -delete", "tar -czvf backup.tar.gz ~/projects",
                           "ps aux | grep python | awk '{print $2}'", "kubectl logs -f deploy/api -c web --since=10m",
                           "docker system prune -a --volumes", "git log --oneline --graph --all"]}),
        Template(
            "Is there a way to speed up this query?\n```sql\n{{q}}\n```",
            "This query is slow. How could I make it run faster?\n```sql\n{{q}}\n```",
            slots={"q": SLOW_QUERIES}),
        Template(
            "Review this Dockerfile and suggest improvements:\n```dockerfile\n{{df}}\n```",
            "What would you change to make this Dockerfile better?\n```dockerfile\n{{df}}\n```",
            slots={"df": DOCKERFILES}),
    ]


MUST_NOT_HIT = {
    "code_token": code_token_templates,
    "git_shell_command": git_shell_command_templates,
    "regex_or_format_string": regex_or_format_string_templates,
    "sql_or_query": sql_or_query_templates,
    "quantity_or_time": quantity_or_time_templates,
    "answer_shape": answer_shape_templates,
    "direction_or_roles": direction_or_roles_templates,
    "negation_or_exception": negation_or_exception_templates,
    "opposite_meaning": opposite_meaning_templates,
    "other_entity": other_entity_templates,
    "extra_or_missing_condition": extra_or_missing_condition_templates,
    "comparison_target": comparison_target_templates,
    "tense_or_modality": tense_or_modality_templates,
    "plural_scope": plural_scope_templates,
}

POSITIVES = {
    "synonym_reword": synonym_reword_templates,
    "question_vs_imperative": question_vs_imperative_templates,
    "surface_noise": surface_noise_templates,
    "polite_wrapping": polite_wrapping_templates,
    "reordered_constraints": reordered_constraints_templates,
    "same_code_reworded": same_code_reworded_templates,
}


# ---------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------


def generate_category(
    rng: random.Random, category: str, templates: list[Template], quota: int, seen: set
) -> list[dict]:
    """Draw ``quota`` distinct pairs, visiting the templates round-robin."""
    order = list(range(len(templates)))
    rng.shuffle(order)
    exhausted: set = set()
    rows: list[dict] = []
    position = 0
    while len(rows) < quota and len(exhausted) < len(order):
        index = order[position % len(order)]
        position += 1
        if index in exhausted:
            continue
        for _ in range(MAX_TRIES):
            stored, query = render(rng, templates[index])
            key = tuple(sorted((stored, query)))
            if stored != query and key not in seen:
                break
        else:
            exhausted.add(index)
            continue
        seen.add(key)
        if rng.random() < 0.5:
            stored, query = query, stored
        rows.append({"category": category, "stored": stored, "query": query})
    if len(rows) < quota:
        raise RuntimeError(f"{category}: only {len(rows)} of {quota} pairs")
    return rows


def build_section(rng: random.Random, registry: dict, quota: int, seen: set) -> list[dict]:
    rows: list[dict] = []
    for category, make_templates in registry.items():
        templates = make_templates(rng)
        if len(templates) < 6:
            raise RuntimeError(f"{category}: needs at least 6 templates")
        rows.extend(generate_category(rng, category, templates, quota, seen))
    return rows


def build_v6() -> dict:
    """Build the whole held-out set deterministically."""
    rng = random.Random(SEED)
    seen: set = set()
    text_pairs = build_section(rng, MUST_NOT_HIT, TEXT_PAIR_QUOTA, seen)
    positives = build_section(rng, POSITIVES, POSITIVE_QUOTA, seen)
    description = (
        "Sixth held-out set, generated by benchmarks/caches/make_heldout_v6.py build_v6 "
        f"(seed {SEED}): {len(text_pairs)} must-not-hit text pairs in {len(MUST_NOT_HIT)} categories "
        f"and {len(positives)} positives (true paraphrases) in {len(POSITIVES)} categories, drawn from "
        "hand-written templates and word lists covering support, coding, data, math, writing, "
        "translation, trivia, health, finance and travel requests; written without reading the "
        "cache's code or the other sets; frozen before any rule change. Never used to write rules."
    )
    return {"description": description, "text_pairs": text_pairs, "positives": positives}


def main() -> None:
    data = build_v6()
    os.makedirs(os.path.dirname(OUTPUT_PATH), exist_ok=True)
    with open(OUTPUT_PATH, "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False, indent=2)
        handle.write("\n")
    print(f"wrote {len(data['text_pairs'])} text_pairs and {len(data['positives'])} positives to {OUTPUT_PATH}")


if __name__ == "__main__":
    main()
