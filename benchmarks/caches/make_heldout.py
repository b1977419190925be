"""Generate the frozen held-out set of the semantic cache (``heldout_generated.json``).

The set is built from templates over public lists (IANA time-zone cities from ``zoneinfo``,
Python's standard-library module and builtin names, calendar month names, SI units, seeded random
numbers, code and regular-expression fragments) so that nobody writes its cases by hand, and it
is frozen in its own commit before any verification rule is changed. Rules must never be tuned on
it: ``thrifty eval cache`` only reports it.

    python -m benchmarks.caches.make_heldout            # rewrites the file (seed 20261203)

The same command also rewrites the second set (``build_v2``, below) and the third
(``make_heldout_v3.build_v3``, a module of its own).

The city list comes from the system's time-zone database, so another machine may generate a
slightly different file; the committed file is the frozen set.

Two kinds of case:

- ``text_pairs``: ``stored`` and ``query`` ask different questions (one code token, number, quoted
  string, URL, date or unit changed; roles or direction swapped; a different answer constraint;
  negation; an antonym). A semantic hit on any of them is a false hit.
- ``positives``: the same question reworded, re-cased or re-spaced. Each should hit.
"""

from __future__ import annotations

import calendar
import json
import random
import sys
import zoneinfo
from pathlib import Path

from benchmarks.caches.make_heldout_v3 import OUT_V3, build_v3  # the third set lives in its own module

SEED = 20261203
OUT = Path(__file__).with_name("data") / "heldout_generated.json"


def _cities() -> list[str]:
    names = set()
    for zone in zoneinfo.available_timezones():
        parts = zone.split("/")
        if len(parts) == 2 and parts[0] in {"Europe", "Asia", "America", "Africa", "Australia"}:
            city = parts[1].replace("_", " ")
            if city.isascii() and city.replace(" ", "").isalpha() and len(city) > 3:
                names.add(city)
    return sorted(names)


def _modules() -> list[str]:
    return sorted(m for m in sys.stdlib_module_names if not m.startswith("_") and m.isidentifier() and len(m) > 3)


def _builtins() -> list[str]:
    import builtins

    return sorted(n for n in dir(builtins) if n.islower() and not n.startswith("_") and callable(getattr(builtins, n)))


UNITS = ["metres", "kilometres", "miles", "feet", "inches", "grams", "kilograms", "pounds", "ounces",
         "litres", "gallons", "seconds", "minutes", "hours", "days", "bytes", "kilobytes", "megabytes"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**", "<<", ">>", "&", "|", "^"]
COMPARISONS = ["<", "<=", ">", ">=", "==", "!="]
QUANTIFIERS = ["+", "*", "?", "{2}", "{3}", "{2,}", "{1,3}"]
REGEX_ATOMS = [r"\d", r"\w", r"\s", "[a-z]", "[A-Z]", "[0-9a-f]", "."]
SQL_COLUMNS = ["price", "quantity", "age", "score", "salary", "rating", "stock", "weight"]
SQL_TABLES = ["orders", "products", "customers", "employees", "invoices", "students"]
LANGUAGES = ["French", "German", "Spanish", "Italian", "Portuguese", "Dutch", "Japanese", "Korean",
             "Turkish", "Polish", "Swedish", "Greek"]
FORMATS = [("as a table", "as a bulleted list"), ("as JSON", "as YAML"), ("as a numbered list", "as a paragraph"),
           ("in a haiku", "in a limerick"), ("as a CSV file", "as an HTML table")]
AUDIENCES = ["a child", "a lawyer", "a software engineer", "a complete beginner", "a physics professor",
             "a teenager", "a doctor", "a retired farmer"]
TONES = ["formal", "casual", "humorous", "angry", "apologetic", "enthusiastic", "sarcastic"]
LENGTHS = [("in one sentence", "in one paragraph"), ("in one word", "in three sentences"),
           ("briefly", "in great detail"), ("in under 50 words", "in about 500 words"),
           ("in a single line", "in a long essay")]
TOPICS = ["photosynthesis", "inflation", "plate tectonics", "the immune system", "public-key cryptography",
          "supply and demand", "the water cycle", "compound interest", "black holes", "natural selection",
          "the French Revolution", "machine learning", "vaccination", "climate change", "blockchain"]
ANTONYMS = [("cheap", "expensive"), ("safe", "dangerous"), ("legal", "illegal"), ("heavy", "light"),
            ("fast", "slow"), ("ancient", "modern"), ("rural", "urban"), ("wet", "dry"),
            ("accept", "reject"), ("arrive", "depart"), ("borrow", "lend"), ("import", "export"),
            ("maximum", "minimum"), ("strengthen", "weaken"), ("shallow", "deep"), ("victory", "defeat"),
            ("friend", "enemy"), ("success", "failure"), ("inside", "outside"), ("simple", "complex")]
DESCRIBABLE = ["living near the coast", "a diet high in protein", "working night shifts", "a four-day work week",
               "remote work", "nuclear power", "electric cars", "open-plan offices", "homeschooling"]


def _one_token_change(rng: random.Random, choices: list[str], current: str) -> str:
    return rng.choice([c for c in choices if c != current])


def build(seed: int = SEED) -> dict:
    rng = random.Random(seed)
    cities, modules, fns = _cities(), _modules(), _builtins()
    months = list(calendar.month_name)[1:]
    neg: list[dict[str, str]] = []
    pos: list[dict[str, str]] = []

    def add(category: str, stored: str, query: str) -> None:
        neg.append({"category": category, "stored": stored, "query": query})

    def hit(category: str, stored: str, query: str) -> None:
        pos.append({"category": category, "stored": stored, "query": query})

    for _ in range(6):  # one operator inside a code snippet
        a, b = rng.sample("abcdefghxyz", 2)
        op = rng.choice(OPERATORS)
        op2 = _one_token_change(rng, OPERATORS, op)
        x, y = rng.randint(2, 99), rng.randint(2, 99)
        form = rng.choice([
            "What does `{a} = {x}; {b} = {y}; print({a} {op} {b})` print in Python?",
            "In Python, what is the value of {x} {op} {y}?",
            "Explain what the expression `{a} {op} {b}` computes when {a} and {b} are integers.",
        ])
        add("code_operator", form.format(a=a, b=b, op=op, x=x, y=y), form.format(a=a, b=b, op=op2, x=x, y=y))
    for _ in range(4):  # one comparison in a condition
        var = rng.choice(["n", "count", "total", "i"])
        op = rng.choice(COMPARISONS)
        op2 = _one_token_change(rng, COMPARISONS, op)
        k = rng.randint(1, 20)
        form = "How many times does `while {v} {op} {k}: {v} += 1` loop if {v} starts at 0?"
        add("code_comparison", form.format(v=var, op=op, k=k), form.format(v=var, op=op2, k=k))
    for _ in range(5):  # one function name in code
        f1, f2 = rng.sample(fns, 2)
        arg = rng.choice(["[3, 1, 2]", "'hello'", "range(5)", "(1, 2)"])
        form = rng.choice(["What does `{f}({arg})` return in Python?", "Why does calling {f}({arg}) raise an error?"])
        add("code_identifier", form.format(f=f1, arg=arg), form.format(f=f2, arg=arg))
    for _ in range(6):  # one quantifier inside a regular expression
        atoms = rng.sample(REGEX_ATOMS, 2)
        q1 = [rng.choice(QUANTIFIERS) for _ in atoms]
        q2 = list(q1)
        j = rng.randrange(len(q2))
        q2[j] = _one_token_change(rng, QUANTIFIERS, q2[j])
        p1 = "^" + "".join(a + q for a, q in zip(atoms, q1, strict=True)) + "$"
        p2 = "^" + "".join(a + q for a, q in zip(atoms, q2, strict=True)) + "$"
        form = rng.choice(["Does the regex {p} match the string 'ab12'?", "Explain the regular expression `{p}`.",
                           "Write a Python function that validates input with re.fullmatch(r'{p}', s)."])
        add("regex", form.format(p=p1), form.format(p=p2))
    for _ in range(6):  # one condition in a SQL request
        table, col = rng.choice(SQL_TABLES), rng.choice(SQL_COLUMNS)
        op = rng.choice(COMPARISONS[:4])
        n = rng.randint(10, 500)
        kind = rng.randrange(3)
        stored = f"Write a SQL query that selects all {table} where {col} {op} {n}."
        if kind == 0:
            query = f"Write a SQL query that selects all {table} where {col} {_one_token_change(rng, COMPARISONS[:4], op)} {n}."
        elif kind == 1:
            query = f"Write a SQL query that selects all {table} where {_one_token_change(rng, SQL_COLUMNS, col)} {op} {n}."
        else:
            query = f"Write a SQL query that selects all {table} where {col} {op} {n + rng.randint(1, 50)}."
        add("sql_condition", stored, query)
    for _ in range(6):  # numbers
        n = rng.randint(2, 90)
        u1, u2 = rng.sample(UNITS, 2)
        form = rng.choice(["How many {u2} are there in {n} {u1}?", "Convert {n} {u1} to {u2}.",
                           "What is {n} percent of {m}?"])
        m = rng.randint(100, 900)
        n2 = n + rng.choice([1, 2, 10, -1])
        add("number", form.format(n=n, u1=u1, u2=u2, m=m), form.format(n=n2, u1=u1, u2=u2, m=m))
    for _ in range(5):  # units
        n = rng.randint(2, 90)
        u1, u2, u3 = rng.sample(UNITS, 3)
        add("unit", f"Convert {n} {u1} to {u2}.", f"Convert {n} {u1} to {u3}.")
    for _ in range(5):  # dates
        month, day, year = rng.choice(months), rng.randint(1, 28), rng.randint(1900, 2020)
        which = rng.randrange(3)
        m2 = _one_token_change(rng, months, month) if which == 0 else month
        d2 = day + 1 if which == 1 else day
        y2 = year + rng.randint(1, 30) if which == 2 else year
        form = rng.choice(["What day of the week was {m} {d}, {y}?", "What happened in the news on {d} {m} {y}?"])
        add("date", form.format(m=month, d=day, y=year), form.format(m=m2, d=d2, y=y2))
    for _ in range(5):  # quoted strings
        w1, w2 = rng.sample(modules, 2)
        form = rng.choice(['How many vowels are in the word "{w}"?', 'Reverse the string "{w}".',
                           "Is '{w}' a palindrome?"])
        add("quoted_string", form.format(w=w1), form.format(w=w2))
    for _ in range(4):  # URLs
        m1, m2 = rng.sample(modules, 2)
        add("url", f"Summarise the page at https://docs.python.org/3/library/{m1}.html",
            f"Summarise the page at https://docs.python.org/3/library/{m2}.html")
    for _ in range(5):  # identifiers in prose
        m1, m2 = rng.sample(modules, 2)
        form = rng.choice(["What is the {m} module in Python used for?", "Show an example of using {m}.",
                           "Is {m} thread-safe?"])
        add("identifier", form.format(m=m1), form.format(m=m2))
    for _ in range(6):  # entities
        c1, c2 = rng.sample(cities, 2)
        form = rng.choice(["What is the population of {c}?", "What is the best time of year to visit {c}?",
                           "What time zone is {c} in?", "Recommend three museums in {c}."])
        add("entity", form.format(c=c1), form.format(c=c2))
    for _ in range(8):  # roles and direction swapped
        c1, c2 = rng.sample(cities, 2)
        l1, l2 = rng.sample(LANGUAGES, 2)
        x, y = rng.sample(range(2, 1000), 2)
        form = rng.choice([
            ("How long is the flight from {c1} to {c2}?", "How long is the flight from {c2} to {c1}?"),
            ("Is {c1} north of {c2}?", "Is {c2} north of {c1}?"),
            ("Translate this sentence from {l1} to {l2}: good morning.", "Translate this sentence from {l2} to {l1}: good morning."),
            ("Is {x} greater than {y}?", "Is {y} greater than {x}?"),
            ("Why is {c1} more expensive than {c2}?", "Why is {c2} more expensive than {c1}?"),
            ("Write a letter from the mayor of {c1} to the mayor of {c2}.", "Write a letter from the mayor of {c2} to the mayor of {c1}."),
        ])
        kw = {"c1": c1, "c2": c2, "l1": l1, "l2": l2, "x": x, "y": y}
        add("role_swap", form[0].format(**kw), form[1].format(**kw))
    for _ in range(6):  # answer length
        topic = rng.choice(TOPICS)
        short, long = rng.choice(LENGTHS)
        form = rng.choice(["Explain {t} {l}.", "Describe {t} {l}."])
        add("constraint_length", form.format(t=topic, l=short), form.format(t=topic, l=long))
    for _ in range(4):  # counts of items
        topic = rng.choice(TOPICS)
        n = rng.randint(2, 8)
        add("constraint_count", f"Give me {n} facts about {topic}.", f"Give me {n + rng.randint(1, 4)} facts about {topic}.")
    for _ in range(5):  # answer format
        topic = rng.choice(TOPICS)
        f1, f2 = rng.choice(FORMATS)
        add("constraint_format", f"Summarise the key ideas of {topic} {f1}.", f"Summarise the key ideas of {topic} {f2}.")
    for _ in range(5):  # answer language
        topic = rng.choice(TOPICS)
        l1, l2 = rng.sample(LANGUAGES, 2)
        if rng.random() < 0.5:
            add("constraint_language", f"Explain {topic} in {l1}.", f"Explain {topic} in {l2}.")
        else:
            add("constraint_language", f"Explain {topic}.", f"Explain {topic} in {l1}.")
    for _ in range(5):  # audience
        topic = rng.choice(TOPICS)
        a1, a2 = rng.sample(AUDIENCES, 2)
        add("constraint_audience", f"Explain {topic} to {a1}.", f"Explain {topic} to {a2}.")
    for _ in range(5):  # tone
        t1, t2 = rng.sample(TONES, 2)
        subject = rng.choice(["declining a meeting invitation", "asking for a refund", "announcing a price increase",
                              "welcoming a new colleague"])
        add("constraint_tone", f"Write a {t1} email {subject}.", f"Write a {t2} email {subject}.")
    for _ in range(6):  # negation
        thing = rng.choice(DESCRIBABLE)
        form = rng.choice([("Why is {t} a good idea?", "Why is {t} not a good idea?"),
                           ("What are the reasons to choose {t}?", "What are the reasons not to choose {t}?"),
                           ("Should I consider {t}?", "Should I never consider {t}?")])
        add("negation", form[0].format(t=thing), form[1].format(t=thing))
    for _ in range(8):  # antonyms
        w1, w2 = rng.choice(ANTONYMS)
        c = rng.choice(cities)
        form = rng.choice(["Which neighbourhoods of {c} are the most {w}?", "Give an example of a {w} decision made in {c}.",
                           "Why do people in {c} say it is {w}?", "What is the most {w} thing to do in {c}?"])
        add("antonym", form.format(c=c, w=w1), form.format(c=c, w=w2))

    # --- paraphrases that should hit ---
    for _ in range(4):  # case only
        c = rng.choice(cities)
        text = rng.choice(["what is the population of {c}?", "recommend three museums in {c}.",
                           "what is the best time of year to visit {c}?"]).format(c=c)
        hit("case", text, text.upper() if rng.random() < 0.5 else text.title())
    for _ in range(4):  # whitespace only
        topic = rng.choice(TOPICS)
        text = f"Explain {topic} in simple terms."
        spaced = "  " + text.replace(" ", rng.choice(["  ", " \n", "\t"]), 2) + " \n"
        hit("whitespace", text, spaced)
    for _ in range(5):  # "can you explain" forms
        topic = rng.choice(TOPICS)
        a, b = rng.sample([f"Explain {topic}.", f"Can you explain {topic}?", f"Could you explain {topic} to me?",
                           f"Please explain {topic}.", f"I'd like you to explain {topic}."], 2)
        hit("request_form", a, b)
    for _ in range(5):  # superlative rewording
        c = rng.choice(cities)
        thing = rng.choice(["park", "museum", "stadium", "airport", "library"])
        hit("reworded", f"What is the largest {thing} in {c}?", f"Which {thing} in {c} is the biggest?")
    for _ in range(4):
        m = rng.choice(modules)
        hit("reworded", f"How do I use the {m} module in Python?", f"How can I use Python's {m} module?")
    for _ in range(4):
        c = rng.choice(cities)
        hit("reworded", f"What is the population of {c}?", f"How many people live in {c}?")
    for _ in range(4):
        topic = rng.choice(TOPICS)
        hit("reworded", f"What are the benefits of {topic}?", f"What are the advantages of {topic}?")
    for _ in range(4):
        c = rng.choice(cities)
        hit("reworded", f"What is the best time of year to visit {c}?", f"When is the best time to visit {c}?")
    for _ in range(3):
        topic = rng.choice(TOPICS)
        hit("reworded", f"Tell me about {topic}.", f"Give me an overview of {topic}.")
    for _ in range(3):
        m = rng.choice(modules)
        hit("punctuation", f"What is the {m} module in Python used for?", f"what is the {m} module in python used for")

    return {
        "description": (
            f"Generated by benchmarks/caches/make_heldout.py (seed {seed}) from templates over public lists; frozen "
            "in its own commit before any verification rule changed. Never used to write or tune rules."
        ),
        "seed": seed,
        "text_pairs": neg,
        "positives": pos,
    }


# --- the second held-out set (frozen after the first was measured twice and then opened) -----------

SEED_V2 = 20261204
OUT_V2 = Path(__file__).with_name("data") / "heldout_generated_v2.json"
TYPES = ["list", "tuple", "dict", "set", "string", "integer", "float", "bytes"]
SHELL_MODES = ["644", "755", "600", "700", "777", "444"]
FORMS = ["poem", "short story", "song", "tweet", "essay", "limerick", "speech"]
LANGUAGES_V2 = ["Hindi", "Arabic", "Finnish", "Czech", "Vietnamese", "Hungarian", "Indonesian", "Hebrew"]
AUDIENCES_V2 = ["a ten-year-old", "a graduate student", "my grandmother", "a new employee", "an investor"]
TONES_V2 = ["polite", "confident", "friendly", "professional", "urgent", "playful"]
ANTONYMS_V2 = [("enable", "disable"), ("encrypt", "decrypt"), ("upload", "download"), ("compress", "decompress"),
               ("include", "exclude"), ("open", "close"), ("lock", "unlock"), ("install", "uninstall"),
               ("increase", "reduce"), ("show", "hide")]
OBJECTS = ["file", "folder", "repository", "database", "partition", "archive", "account", "feature flag"]
TOOLS = ["Git", "Docker", "PostgreSQL", "Windows", "Linux", "Excel", "Chrome"]
DISHES = ["pancakes", "guacamole", "risotto", "banana bread", "hummus", "fried rice"]
THINGS = ["telephone", "light bulb", "printing press", "radio", "bicycle", "compass"]
RECYCLABLES = ["plastics", "batteries", "glass jars", "pizza boxes", "light bulbs"]


def build_v2(seed: int = SEED_V2) -> dict:
    """A second held-out set with templates of its own (not the first set's)."""
    rng = random.Random(seed)
    cities, modules, fns = _cities(), _modules(), _builtins()
    days = list(calendar.day_name)
    months = list(calendar.month_name)[1:]
    neg: list[dict[str, str]] = []
    pos: list[dict[str, str]] = []

    def add(category: str, stored: str, query: str) -> None:
        neg.append({"category": category, "stored": stored, "query": query})

    def hit(category: str, stored: str, query: str) -> None:
        pos.append({"category": category, "stored": stored, "query": query})

    for _ in range(5):
        a, b = rng.randint(2, 50), rng.randint(2, 50)
        op = rng.choice(OPERATORS[:6])
        add("code_operator", f"What is the output of console.log({a} {op} {b}) in JavaScript?",
            f"What is the output of console.log({a} {_one_token_change(rng, OPERATORS[:6], op)} {b}) in JavaScript?")
    for _ in range(4):
        v, k = rng.choice(["x", "idx", "n"]), rng.randint(1, 9)
        cmp_ = rng.choice(COMPARISONS)
        add("code_comparison", f"Fix this line: if ({v} {cmp_} {k}) return;",
            f"Fix this line: if ({v} {_one_token_change(rng, COMPARISONS, cmp_)} {k}) return;")
    for _ in range(4):
        m1 = rng.choice(SHELL_MODES)
        add("shell", f"What does chmod {m1} notes.txt do?",
            f"What does chmod {_one_token_change(rng, SHELL_MODES, m1)} notes.txt do?")
    for _ in range(4):
        f1, f2 = rng.sample(fns, 2)
        add("code_identifier", f"Why is {f1}() slow on big inputs?", f"Why is {f2}() slow on big inputs?")
    for _ in range(4):
        atom = rng.choice(REGEX_ATOMS)
        q1 = rng.choice(QUANTIFIERS)
        add("regex", f"What strings does /{atom}{q1}x/ match?",
            f"What strings does /{atom}{_one_token_change(rng, QUANTIFIERS, q1)}x/ match?")
    for _ in range(5):
        n, h = rng.randint(50, 400), rng.randint(2, 9)
        if rng.random() < 0.5:
            add("number", f"A train travels {n} km in {h} hours. What is its average speed?",
                f"A train travels {n} km in {h + 1} hours. What is its average speed?")
        else:
            add("number", f"A train travels {n} km in {h} hours. What is its average speed?",
                f"A train travels {n + 10} km in {h} hours. What is its average speed?")
    for _ in range(4):
        m, d1, d2 = rng.choice(months), rng.randint(1, 10), rng.randint(12, 28)
        add("date", f"How many days are there between {m} {d1} and {m} {d2}?",
            f"How many days are there between {m} {d1} and {m} {d2 - 1}?")
    for _ in range(3):
        d1, d2 = rng.sample(days, 2)
        add("date", f"Schedule a reminder for every {d1} at noon.", f"Schedule a reminder for every {d2} at noon.")
    for _ in range(4):
        n = rng.randint(2, 20)
        u1, u2 = rng.sample(UNITS[:10], 2)
        add("unit", f"Is {n} {u1} more than {n} {u2}?", f"Is {n} {u1} more than {n} {rng.choice([u for u in UNITS[:10] if u not in (u1, u2)])}?")
    for _ in range(4):
        w1, w2 = rng.sample(modules, 2)
        add("quoted_string", f"Translate '{w1} is ready' into French.", f"Translate '{w2} is ready' into French.")
    for _ in range(3):
        p1, p2 = rng.sample(modules, 2)
        add("url", f"Is https://example.org/{p1}?page=2 a valid URL?", f"Is https://example.org/{p2}?page=2 a valid URL?")
    for _ in range(4):
        t1, t2 = rng.sample(TYPES, 2)
        add("role_swap", f"Can a {t1} be converted into a {t2} in Python?", f"Can a {t2} be converted into a {t1} in Python?")
    for _ in range(3):
        m1, m2 = rng.sample(modules, 2)
        add("role_swap", f"Should I migrate from {m1} to {m2}?", f"Should I migrate from {m2} to {m1}?")
    for _ in range(3):
        n1, n2 = rng.sample(range(3, 500), 2)
        add("role_swap", f"Is {n1} divisible by {n2}?", f"Is {n2} divisible by {n1}?")
    for _ in range(3):
        c1, c2 = rng.sample(cities, 2)
        add("role_swap", f"Is it cheaper to fly from {c1} to {c2} in winter?", f"Is it cheaper to fly from {c2} to {c1} in winter?")
    for _ in range(4):
        topic = rng.choice(TOPICS)
        f1, f2 = rng.sample(FORMS, 2)
        add("constraint_format", f"Write a {f1} about {topic}.", f"Write a {f2} about {topic}.")
    for _ in range(4):
        topic = rng.choice(TOPICS)
        n = rng.choice([20, 50, 100, 200])
        add("constraint_length", f"Explain {topic}; answer in {n} words.", f"Explain {topic}; answer in {n * 2} words.")
    for _ in range(4):
        topic = rng.choice(TOPICS)
        a1, a2 = rng.sample(AUDIENCES_V2, 2)
        add("constraint_audience", f"Explain {topic} for {a1}.", f"Explain {topic} for {a2}.")
    for _ in range(4):
        l1, l2 = rng.sample(LANGUAGES_V2, 2)
        c = rng.choice(cities)
        add("constraint_language", f"Reply in {l1}: what is there to see in {c}?", f"Reply in {l2}: what is there to see in {c}?")
    for _ in range(4):
        t1, t2 = rng.sample(TONES_V2, 2)
        add("constraint_tone", f"Rewrite my cover letter to sound more {t1}.", f"Rewrite my cover letter to sound more {t2}.")
    for _ in range(4):
        r = rng.choice(RECYCLABLES)
        add("negation", f"Can I recycle {r}?", f"Can I not recycle {r}?")
    for _ in range(2):
        r = rng.choice(RECYCLABLES)
        add("negation", f"Why should I recycle {r}?", f"Why shouldn't I recycle {r}?")
    for _ in range(6):
        w1, w2 = rng.choice(ANTONYMS_V2)
        obj, tool = rng.choice(OBJECTS), rng.choice(TOOLS)
        add("antonym", f"How do I {w1} a {obj} in {tool}?", f"How do I {w2} a {obj} in {tool}?")

    for _ in range(3):
        tool = rng.choice(TOOLS)
        t = f"how do i delete a branch in {tool}?"
        hit("case", t, t.capitalize().replace(tool.lower(), tool))
    for _ in range(3):
        d = rng.choice(DISHES)
        t = f"Give me a simple recipe for {d}."
        hit("whitespace", t, t.replace(" ", "   ") + "\n\n")
    for _ in range(4):
        a, b = rng.sample(TYPES, 2)
        hit("reworded", f"What's the difference between a {a} and a {b} in Python?", f"How does a {a} differ from a {b} in Python?")
    for _ in range(4):
        th = rng.choice(THINGS)
        hit("reworded", f"Who invented the {th}?", f"Who was the inventor of the {th}?")
    for _ in range(4):
        d = rng.choice(DISHES)
        hit("reworded", f"Give me a recipe for {d}.", f"How do I make {d}?")
    for _ in range(4):
        topic = rng.choice(TOPICS)
        hit("reworded", f"Summarize {topic}.", f"Give me a summary of {topic}.")
    for _ in range(4):
        topic = rng.choice(TOPICS)
        hit("reworded", f"What are some good books about {topic}?", f"Can you recommend some good books on {topic}?")
    for _ in range(4):
        topic = rng.choice(TOPICS)
        hit("reworded", f"Explain {topic} simply.", f"Explain {topic} in simple terms.")
    for _ in range(4):
        lang = rng.choice(LANGUAGES_V2)
        hit("reworded", f"How do you say 'thank you' in {lang}?", f"What is 'thank you' in {lang}?")
    for _ in range(3):
        m = rng.choice(modules)
        hit("request_form", f"Show me an example of the {m} module.", f"Could you show me an example of the {m} module, please?")
    for _ in range(3):
        c = rng.choice(cities)
        hit("reworded", f"Is {c} expensive to visit?", f"Is visiting {c} expensive?")
    return {
        "description": (
            f"Second held-out set, generated by benchmarks/caches/make_heldout.py build_v2 (seed {seed}) from "
            "templates of its own over public lists; frozen in its own commit after the first set was opened "
            "and before the rules changed again. Never used to write or tune rules."
        ),
        "seed": seed,
        "text_pairs": neg,
        "positives": pos,
    }


def main() -> int:
    for data, out in ((build(), OUT), (build_v2(), OUT_V2), (build_v3(), OUT_V3)):
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {out}: {len(data['text_pairs'])} must-not-hit pairs, {len(data['positives'])} paraphrases")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
