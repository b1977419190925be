#!/usr/bin/env python3
"""Held-out evaluation set v33 for a semantic prompt cache (written blind).

Written blind: every template and word list below was written from scratch for
this file, without looking at the project's code, tests, docs or other data
sets, and without consulting any existing paraphrase or cache data set.

Theme: a realistic mix of what people send a general chat assistant --
factual questions, how-to questions, coding questions with short snippets,
regular expressions and SQL, writing and summarizing requests with
constraints, and advice questions.

Two parts:

* ``text_pairs`` -- 240 NEAR-MISS pairs (12 categories x 20) that must NOT be
  served from cache: the two prompts share almost all words, but a careful
  human would answer them differently.  Categories:
  code_operator_swap, regex_quantifier_swap, sql_condition_swap,
  length_format_constraint, language_audience_tone, number_unit_date_string,
  negation_antonym, role_direction_swap, superlative_comparative_swap,
  same_kind_entity_swap, identifier_filename_url_swap, tense_time_frame_swap.
* ``positives`` -- 200 true paraphrase pairs (10 categories x 20) that a
  careful human would answer identically.  Categories:
  superlative_rephrase, explain_form_variants, casing_only,
  whitespace_punctuation_only, polite_wrapper, clause_reorder, synonym_swap,
  informal_typing, backtick_toggle, active_passive_voice.

Every category has at least five templates, used round-robin and filled from
lists that ship with Python (``calendar.month_name``, ``calendar.day_name``,
``zoneinfo.available_timezones()`` city names and UTC offsets,
``keyword.kwlist``, builtin function names from ``dir(builtins)``,
``string`` constants) plus small hand-written word lists.  All pairs are
unique and stored != query.  Deterministic: ``random.Random(333333)``.

Run from the repository root:

    python3 benchmarks/caches/make_heldout_v33.py

It writes ``benchmarks/caches/data/heldout_generated_v33.json`` with keys
``description``, ``text_pairs`` and ``positives``; each entry is
``{"category", "stored", "query"}``.
"""

import builtins
import calendar
import datetime
import json
import keyword
import os
import random
import re
import string

SEED = 333333
PER_CATEGORY = 20
OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                        "heldout_generated_v33.json")

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def fill(tpl, **kw):
    """Single-pass replacement of {name} for the given names only.

    Braces that are not one of the given names (regex quantifiers such as
    ``{2,}``, code blocks) are left untouched, and substituted values are
    never re-scanned.
    """
    def sub(m):
        key = m.group(1)
        return str(kw[key]) if key in kw else m.group(0)
    return _PLACEHOLDER.sub(sub, tpl)


def cap(s):
    return s[:1].upper() + s[1:]


def a_an(word):
    return ("an " if word[:1].lower() in "aeiou" else "a ") + word


def two(r, seq):
    a, b = r.sample(list(seq), 2)
    return a, b


# ---------------------------------------------------------------------------
# public lists shipped with Python
# ---------------------------------------------------------------------------

MONTHS = [m for m in calendar.month_name if m]
DAYS = list(calendar.day_name)
PY_KEYWORDS = [k for k in keyword.kwlist if k.islower()]
_SKIP_BUILTINS = {"copyright", "credits", "license", "exit", "quit", "help",
                  "breakpoint", "aiter", "anext"}
BUILTIN_FUNCS = sorted(
    n for n in dir(builtins)
    if n.islower() and not n.startswith("_") and n not in _SKIP_BUILTINS
    and callable(getattr(builtins, n))
    and not (isinstance(getattr(builtins, n), type)
             and issubclass(getattr(builtins, n), BaseException)))
LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits

# Well-known cities; kept only when they appear as zoneinfo keys, so the city
# names (and the UTC offsets used below) come from the tz database.
_WELL_KNOWN = {
    "New_York", "Chicago", "Denver", "Los_Angeles", "Toronto", "Vancouver",
    "Mexico_City", "Sao_Paulo", "Buenos_Aires", "Bogota", "Lima", "Santiago",
    "London", "Paris", "Berlin", "Madrid", "Rome", "Amsterdam", "Brussels",
    "Vienna", "Prague", "Warsaw", "Stockholm", "Oslo", "Copenhagen",
    "Helsinki", "Athens", "Istanbul", "Moscow", "Lisbon", "Dublin", "Zurich",
    "Budapest", "Cairo", "Lagos", "Nairobi", "Johannesburg", "Casablanca",
    "Dubai", "Karachi", "Kolkata", "Dhaka", "Bangkok", "Singapore",
    "Hong_Kong", "Shanghai", "Tokyo", "Seoul", "Manila", "Jakarta", "Sydney",
    "Melbourne", "Perth", "Brisbane", "Auckland", "Honolulu",
}
_FALLBACK_OFFSETS = {  # used only if the tz database is missing
    "New York": -5, "Chicago": -6, "Los Angeles": -8, "London": 0,
    "Paris": 1, "Berlin": 1, "Athens": 2, "Moscow": 3, "Dubai": 4,
    "Karachi": 5, "Bangkok": 7, "Singapore": 8, "Tokyo": 9, "Sydney": 10,
    "Auckland": 12, "Honolulu": -10, "Sao Paulo": -3, "Madrid": 1,
    "Rome": 1, "Stockholm": 1, "Lisbon": 0, "Dublin": 0, "Vienna": 1,
}


def _load_cities():
    try:
        import zoneinfo
        names = sorted(zoneinfo.available_timezones())
    except Exception:  # pragma: no cover - tz database missing
        names = []
    cities, europe = {}, []
    ref = datetime.datetime(2024, 1, 15, 12, 0)
    for name in names:
        parts = name.split("/")
        if len(parts) != 2 or parts[1] not in _WELL_KNOWN:
            continue
        if parts[0] not in ("Europe", "America", "Asia", "Africa",
                            "Australia", "Pacific"):
            continue
        city = parts[1].replace("_", " ")
        off = ref.replace(tzinfo=zoneinfo.ZoneInfo(name)).utcoffset()
        cities[city] = off.total_seconds() / 3600.0
        if parts[0] == "Europe":
            europe.append(city)
    if len(cities) < 20:
        cities = dict(_FALLBACK_OFFSETS)
        europe = ["London", "Paris", "Berlin", "Madrid", "Rome", "Stockholm",
                  "Lisbon", "Dublin", "Vienna", "Athens", "Moscow"]
    return cities, sorted(europe)


CITY_OFFSETS, EUROPE_CITIES = _load_cities()
CITIES = sorted(CITY_OFFSETS)

# ---------------------------------------------------------------------------
# hand-written word lists
# ---------------------------------------------------------------------------

COUNTRIES = ["France", "Japan", "Brazil", "Canada", "Kenya", "Australia",
             "Norway", "Mexico", "India", "Egypt", "Portugal", "Vietnam",
             "Argentina", "Poland", "Morocco", "Chile", "Thailand", "Peru",
             "Greece", "Ireland"]
LANGUAGES = ["French", "German", "Spanish", "Italian", "Portuguese",
             "Japanese", "Dutch", "Polish", "Turkish", "Korean", "Swedish",
             "Mandarin Chinese"]
PROG_LANGS = ["Python", "JavaScript", "Java", "C#", "Go", "Rust", "Ruby",
              "PHP", "Swift", "Kotlin"]
AUTHORS = ["Jane Austen", "Leo Tolstoy", "Toni Morrison", "Gabriel Garcia "
           "Marquez", "Haruki Murakami", "Charles Dickens", "Virginia Woolf",
           "Fyodor Dostoevsky", "Chinua Achebe", "Ernest Hemingway",
           "Agatha Christie", "Mark Twain"]
BOOKS = ["Pride and Prejudice", "Moby-Dick", "To Kill a Mockingbird",
         "The Great Gatsby", "Crime and Punishment", "Things Fall Apart",
         "Jane Eyre", "Brave New World", "The Catcher in the Rye",
         "Wuthering Heights", "Don Quixote", "Frankenstein"]
BOOK_AUTHOR_FREE = BOOKS  # titles used in passive-voice questions as well
PROG_TOPICS = ["recursion", "dependency injection", "async/await",
               "database indexing", "garbage collection", "Git rebasing",
               "memoization", "REST APIs", "unit testing", "race conditions"]
GENERAL_TOPICS = ["black holes", "inflation", "photosynthesis",
                  "blockchain", "vaccines", "the stock market",
                  "climate change", "quantum computing", "compound interest",
                  "plate tectonics"]
FILE_NAMES = ["report.csv", "notes.txt", "server.log", "data.json",
              "backup.tar.gz", "config.yaml", "users.db", "draft.md",
              "access.log", "results.xlsx"]
WORDS = ["apple", "banana", "keyboard", "window", "river", "pencil",
         "galaxy", "lantern", "cactus", "octopus", "umbrella", "tomato",
         "sky", "jazz", "elephant", "microphone", "cat", "strawberry"]

# ---------------------------------------------------------------------------
# NEAR-MISS categories (different answer needed)
# ---------------------------------------------------------------------------


def nm_code_operator_swap():
    VARS = ["total", "count", "score", "x", "acc", "n", "balance", "steps",
            "value", "result"]

    def t1(r):
        v = r.choice(VARS)
        a, b = r.randint(6, 40), r.randint(3, 6)
        o1, o2 = r.choice([("+=", "-="), ("*=", "//="), ("+=", "*="),
                           ("<<=", ">>="), ("-=", "*=")])
        tpl = "What does this Python snippet print: `{v} = {a}; {v} {op} {b}; print({v})`?"
        return fill(tpl, v=v, a=a, b=b, op=o1), fill(tpl, v=v, a=a, b=b, op=o2)

    def t2(r):
        n = r.randint(3, 20)
        lang = r.choice(["C", "Java", "JavaScript", "C++"])
        init = "let i = 0" if lang == "JavaScript" else "int i = 0"
        tpl = "How many times does the body of this {lang} loop run: `for ({init}; i {op} {n}; i++)`?"
        return (fill(tpl, lang=lang, init=init, n=n, op="<"),
                fill(tpl, lang=lang, init=init, n=n, op="<="))

    def t3(r):
        t = r.randint(0, 20)
        a, b = t + r.randint(1, 9), t - r.randint(1, 9)
        x, y = two(r, ["age", "temp", "speed", "price", "level", "size"])
        tpl = "In Python, what does this print: `{x} = {a}; {y} = {b}; print({x} > {t} {op} {y} > {t})`?"
        kw = dict(x=x, y=y, a=a, b=b, t=t)
        return fill(tpl, op="and", **kw), fill(tpl, op="or", **kw)

    def t4(r):
        while True:
            n, k = r.randint(10, 30), r.randint(2, 5)
            eq = len([i for i in range(n) if i % k == 0])
            if eq != n - eq:
                break
        tpl = "What does `len([i for i in range({n}) if i % {k} {op} 0])` return in Python?"
        return fill(tpl, n=n, k=k, op="=="), fill(tpl, n=n, k=k, op="!=")

    def t5(r):
        a = r.randint(0, 99)
        o1, o2 = r.choice([("==", "==="), ("!=", "!==")])
        tpl = "In JavaScript, what does `{a} {op} '{a}'` evaluate to?"
        return fill(tpl, a=a, op=o1), fill(tpl, a=a, op=o2)

    def t6(r):
        while True:
            a, b = r.randint(10, 99), r.randint(3, 9)
            if a // b != a % b:
                break
        tpl = "What is the output of `print({a} {op} {b})` in Python?"
        return fill(tpl, a=a, b=b, op="//"), fill(tpl, a=a, b=b, op="%")

    def t7(r):
        lst = r.sample(range(1, 40), 6)
        k = sorted(lst)[r.randint(2, 3)]
        tpl = "What does `[x for x in {lst} if x {op} {k}]` evaluate to in Python?"
        return fill(tpl, lst=lst, k=k, op=">"), fill(tpl, lst=lst, k=k, op="<")

    return [t1, t2, t3, t4, t5, t6, t7]


def nm_regex_quantifier_swap():
    CLASSES = [(r"\d", DIGITS), ("[a-z]", LOWER), ("[A-Z]", UPPER),
               ("[a-f0-9]", "abcdef0123456789")]

    def t1(r):
        cls, alphabet = r.choice(CLASSES)
        m = r.randint(2, 5)
        s = "".join(r.choice(alphabet) for _ in range(m))
        tpl = 'Does the regex `^{cls}{q}$` match the string "{s}"?'
        return (fill(tpl, cls=cls, s=s, q="{%d,}" % m),
                fill(tpl, cls=cls, s=s, q="{%d,}" % (m + 1)))

    def t2(r):
        pre = r.choice(["user", "id_", "v", "item-", "tag:", "ref", "img"])
        cls = r.choice([r"\d", "[a-z]", r"\w", "[0-9]"])
        tpl = 'Does the regex `^{pre}{cls}{q}$` match the string "{pre}"?'
        return fill(tpl, pre=pre, cls=cls, q="+"), fill(tpl, pre=pre, cls=cls, q="*")

    def t3(r):
        s = ("".join(r.choice(LOWER) for _ in range(r.randint(2, 4)))
             + "".join(r.choice(DIGITS) for _ in range(r.randint(2, 4))))
        tpl = 'In Python, does `re.fullmatch(r"{cls}+", "{s}")` return a match?'
        return fill(tpl, s=s, cls=r"\d"), fill(tpl, s=s, cls=r"\w")

    def t4(r):
        w1, w2 = two(r, ["room", "order", "page", "gate", "flight", "row"])
        n1, n2 = r.randint(10, 999), r.randint(2, 99)
        text = "%s %d and %s %d" % (w1, n1, w2, n2)
        tpl = "What does `re.findall(r'{p}', '{text}')` return in Python?"
        return fill(tpl, text=text, p=r"\d+"), fill(tpl, text=text, p=r"\d")

    def t5(r):
        x, y, z = r.sample(LOWER, 3)
        q1, q2 = r.choice([("?", "+"), ("?", "*")])
        tpl = 'Does the regex `^{x}{y}{q}{z}$` match the string "{x}{y}{y}{z}"?'
        return fill(tpl, x=x, y=y, z=z, q=q1), fill(tpl, x=x, y=y, z=z, q=q2)

    def t6(r):
        tag = r.choice(["b", "i", "em", "span", "div", "p", "code", "strong"])
        word = r.choice(["hi", "bold", "note", "warning", "total"])
        tpl = "What does `re.search(r'{p}', '<{tag}>{word}</{tag}>').group()` return in Python?"
        return (fill(tpl, tag=tag, word=word, p="<.+>"),
                fill(tpl, tag=tag, word=word, p="<.+?>"))

    def t7(r):
        k = r.randint(2, 5)
        phrase = " ".join(r.sample(WORDS, k))
        tpl = "How many items does `re.findall(r'{p}', '{phrase}')` return?"
        return fill(tpl, phrase=phrase, p=r"\S+"), fill(tpl, phrase=phrase, p=r"\s+")

    return [t1, t2, t3, t4, t5, t6, t7]


SQL_TABLES = [
    dict(t="orders", nums=[("total", 50, 500), ("quantity", 2, 20)],
         tc="status", vals=["shipped", "pending", "cancelled"], nc="shipped_at"),
    dict(t="employees", nums=[("salary", 40000, 120000), ("age", 25, 60)],
         tc="department", vals=["Sales", "Engineering", "Support"], nc="manager_id"),
    dict(t="products", nums=[("price", 5, 200), ("stock", 0, 100)],
         tc="category", vals=["books", "toys", "garden"], nc="discontinued_at"),
    dict(t="students", nums=[("credits", 30, 120), ("age", 18, 30)],
         tc="major", vals=["Biology", "History", "Physics"], nc="graduation_date"),
    dict(t="customers", nums=[("credit_limit", 500, 10000), ("loyalty_points", 100, 5000)],
         tc="country", vals=["Canada", "Brazil", "Japan"], nc="phone"),
    dict(t="invoices", nums=[("amount", 100, 5000), ("days_overdue", 5, 90)],
         tc="currency", vals=["EUR", "USD", "GBP"], nc="paid_at"),
]


def nm_sql_condition_swap():
    def num(r, tb):
        col, lo, hi = r.choice(tb["nums"])
        return col, r.randint(lo, hi)

    def t1(r):
        tb = r.choice(SQL_TABLES)
        col, n = num(r, tb)
        tpl = "Write a SQL query that returns all rows from `{t}` where `{c}` {op} {n}."
        return fill(tpl, t=tb["t"], c=col, n=n, op=">"), fill(tpl, t=tb["t"], c=col, n=n, op=">=")

    def t2(r):
        tb = r.choice(SQL_TABLES)
        col, _ = num(r, tb)
        k = r.choice([3, 5, 10])
        tpl = "What does this query return: `SELECT * FROM {t} ORDER BY {c} {d} LIMIT {k};`?"
        return (fill(tpl, t=tb["t"], c=col, k=k, d="ASC"),
                fill(tpl, t=tb["t"], c=col, k=k, d="DESC"))

    def t3(r):
        tb = r.choice(SQL_TABLES)
        col, n = num(r, tb)
        v = r.choice(tb["vals"])
        tpl = "Write a SQL query to find {t} where {tc} = '{v}' {op} {c} > {n}."
        kw = dict(t=tb["t"], tc=tb["tc"], v=v, c=col, n=n)
        return fill(tpl, op="AND", **kw), fill(tpl, op="OR", **kw)

    def t4(r):
        tb = r.choice(SQL_TABLES)
        tpl = r.choice(["What does `SELECT COUNT(*) FROM {t} WHERE {nc} {op};` count?",
                        "Explain the result of `SELECT * FROM {t} WHERE {nc} {op};`"])
        return (fill(tpl, t=tb["t"], nc=tb["nc"], op="IS NULL"),
                fill(tpl, t=tb["t"], nc=tb["nc"], op="IS NOT NULL"))

    def t5(r):
        tb = r.choice(SQL_TABLES)
        (c1, _, _), (c2, _, _) = tb["nums"]
        tpl = "Write a SQL query that returns the average {c} per {tc} from the `{t}` table."
        return fill(tpl, c=c1, tc=tb["tc"], t=tb["t"]), fill(tpl, c=c2, tc=tb["tc"], t=tb["t"])

    def t6(r):
        tb = r.choice(SQL_TABLES)
        x = r.choice(tb["vals"])[:2]
        tpl = "Which rows does `SELECT * FROM {t} WHERE {tc} LIKE '{p}';` return?"
        return (fill(tpl, t=tb["t"], tc=tb["tc"], p=x + "%"),
                fill(tpl, t=tb["t"], tc=tb["tc"], p="%" + x))

    return [t1, t2, t3, t4, t5, t6]


def nm_length_format_constraint():
    ACTIVITIES = ["staying focused while working from home", "running a first "
                  "marathon", "saving money on groceries", "sleeping better",
                  "learning a new language", "preparing for a job interview",
                  "keeping houseplants alive", "writing cleaner Python code"]
    COMPARE = [("Python", "JavaScript"), ("tea", "coffee"),
               ("renting", "buying a home"), ("SQL", "NoSQL databases"),
               ("electric cars", "gasoline cars"), ("iOS", "Android"),
               ("Git merge", "Git rebase")]
    FORMATS = ["as a table", "as a bulleted list", "in a single paragraph"]
    DESCRIBE = ["the French Revolution", "the city of Tokyo",
                "the theory of relativity", "jazz music", "the Roman Empire",
                "the internet", "the Renaissance"]
    LENGTHS = ["in one word", "in one sentence", "in three sentences",
               "in one paragraph"]
    POEMS = ["haiku", "limerick", "sonnet", "four-line rhyming poem"]
    SUBJECTS = ["autumn rain", "my cat", "Monday mornings", "the ocean",
                "coffee", "a broken umbrella", "city lights"]
    LISTS = ["the months of the year", "the days of the week",
             "the planets of the solar system", "the primary colors",
             "the noble gases"]
    LIST_FMTS = ["as a JSON array", "as a comma-separated line",
                 "as a numbered list", "as a Python list"]

    def t1(r):
        a, n1, n2 = r.choice(ACTIVITIES), *two(r, [3, 5, 7, 10])
        tpl = "Give me {n} tips for {a}."
        return fill(tpl, a=a, n=n1), fill(tpl, a=a, n=n2)

    def t2(r):
        (x, y), (f1, f2) = r.choice(COMPARE), two(r, FORMATS)
        tpl = "Compare {x} and {y} {f}."
        return fill(tpl, x=x, y=y, f=f1), fill(tpl, x=x, y=y, f=f2)

    def t3(r):
        d, (l1, l2) = r.choice(DESCRIBE), two(r, LENGTHS)
        tpl = "Describe {d} {l}."
        return fill(tpl, d=d, l=l1), fill(tpl, d=d, l=l2)

    def t4(r):
        b, (n1, n2) = r.choice(BOOKS), two(r, [25, 50, 100, 200])
        tpl = "Summarize the plot of {b} in {n} words."
        return fill(tpl, b=b, n=n1), fill(tpl, b=b, n=n2)

    def t5(r):
        s, (p1, p2) = r.choice(SUBJECTS), two(r, POEMS)
        tpl = "Write a {p} about {s}."
        return fill(tpl, s=s, p=p1), fill(tpl, s=s, p=p2)

    def t6(r):
        li, (f1, f2) = r.choice(LISTS), two(r, LIST_FMTS)
        tpl = "List {li} {f}."
        return fill(tpl, li=li, f=f1), fill(tpl, li=li, f=f2)

    return [t1, t2, t3, t4, t5, t6]


def nm_language_audience_tone():
    PHRASES = ["Where is the train station?", "I am allergic to peanuts.",
               "Could I have the bill, please?", "Happy birthday!",
               "How much does this cost?", "Nice to meet you."]
    NOVICES = ["a five-year-old", "a ten-year-old", "a complete beginner",
               "a high school student"]
    EXPERTS = ["a PhD student in the field", "a university professor",
               "a domain expert", "a graduate researcher"]
    TONE_PAIRS = [("formal", "casual"), ("firm", "friendly"),
                  ("polite", "angry"), ("formal", "humorous")]
    REPAIRS = ["broken heater", "leaking kitchen sink", "front door lock",
               "mold in the bathroom", "noisy radiator"]
    PRODUCTS = ["reusable water bottle", "wireless mouse", "yoga mat",
                "cast-iron skillet", "hiking backpack"]
    DECLINE_TONES = [("polite", "blunt"), ("humorous", "formal"),
                     ("warm", "curt"), ("formal", "casual")]
    EVENTS = ["a team dinner", "a birthday party", "a networking event",
              "a weekend hike", "a book club meeting"]

    def t1(r):
        p, (l1, l2) = r.choice(PHRASES), two(r, LANGUAGES)
        tpl = 'Translate "{p}" into {l}.'
        return fill(tpl, p=p, l=l1), fill(tpl, p=p, l=l2)

    def t2(r):
        t, a1, a2 = r.choice(GENERAL_TOPICS), r.choice(NOVICES), r.choice(EXPERTS)
        tpl = "Explain {t} to {a}."
        return fill(tpl, t=t, a=a1), fill(tpl, t=t, a=a2)

    def t3(r):
        th, (t1_, t2_) = r.choice(REPAIRS), r.choice(TONE_PAIRS)
        tpl = "Write {tone} email to my landlord asking them to fix the {th}."
        return fill(tpl, tone=a_an(t1_), th=th), fill(tpl, tone=a_an(t2_), th=th)

    def t4(r):
        p, (l1, l2) = r.choice(PRODUCTS), two(r, LANGUAGES)
        tpl = "Write a short product description for a {p} in {l}."
        return fill(tpl, p=p, l=l1), fill(tpl, p=p, l=l2)

    def t5(r):
        t = r.choice(PROG_TOPICS)
        a1 = r.choice(["a beginner programmer", "a non-technical manager",
                       "a first-year student"])
        a2 = r.choice(["a senior engineer", "a computer science professor",
                       "a staff-level architect"])
        tpl = "Explain {t} to {a}."
        return fill(tpl, t=t, a=a1), fill(tpl, t=t, a=a2)

    def t6(r):
        e, d, (c1, c2) = r.choice(EVENTS), r.choice(DAYS), r.choice(DECLINE_TONES)
        tpl = "Write {c} reply declining an invitation to {e} on {d}."
        return fill(tpl, c=a_an(c1), e=e, d=d), fill(tpl, c=a_an(c2), e=e, d=d)

    return [t1, t2, t3, t4, t5, t6]


def nm_number_unit_date_string():
    CONVERSIONS = ["miles to kilometers", "pounds to kilograms",
                   "degrees Fahrenheit to Celsius", "feet to meters",
                   "US gallons to liters"]
    VOLUME_UNITS = ["teaspoons", "tablespoons", "cups", "fluid ounces"]

    def t1(r):
        c, (n1, n2) = r.choice(CONVERSIONS), two(r, range(2, 120))
        tpl = "Convert {n} {c}."
        return fill(tpl, c=c, n=n1), fill(tpl, c=c, n=n2)

    def t2(r):
        m, y = r.choice(MONTHS), r.randint(1995, 2024)
        d1 = r.randint(1, 22)
        d2 = d1 + r.randint(1, 6)
        tpl = "What day of the week was {m} {d}, {y}?"
        return fill(tpl, m=m, y=y, d=d1), fill(tpl, m=m, y=y, d=d2)

    def t3(r):
        n = r.choice([80, 120, 250, 640, 1500, 3200])
        p1, p2 = two(r, [5, 12, 15, 20, 35, 40, 75])
        tpl = "What is {p}% of {n}?"
        return fill(tpl, n=n, p=p1), fill(tpl, n=n, p=p2)

    def t4(r):
        while True:
            w1, w2 = two(r, WORDS)
            if len(w1) != len(w2):
                break
        tpl = r.choice(['How many characters are in the string "{w}"?',
                        'What does `len("{w}")` return in Python?'])
        return fill(tpl, w=w1), fill(tpl, w=w2)

    def t5(r):
        n, (u1, u2) = r.choice([2, 3, 4, 6]), two(r, VOLUME_UNITS)
        tpl = "How many milliliters are in {n} {u}?"
        return fill(tpl, n=n, u=u1), fill(tpl, n=n, u=u2)

    def t6(r):
        p = r.choice([15, 20, 25])
        a1, a2 = two(r, [34, 47, 62, 85, 120, 156, 210])
        tpl = "How much is a {p}% tip on a ${a} restaurant bill?"
        return fill(tpl, p=p, a=a1), fill(tpl, p=p, a=a2)

    def t7(r):
        h1, h2 = two(r, range(0, 24))
        dow = r.choice(["*", "1-5", "0", "6"])
        tpl = "What schedule does the cron expression `0 {h} * * {dow}` describe?"
        return fill(tpl, h=h1, dow=dow), fill(tpl, h=h2, dow=dow)

    return [t1, t2, t3, t4, t5, t6, t7]


def nm_negation_antonym():
    PETS = ["dogs", "cats", "rabbits", "parrots", "hamsters", "guinea pigs",
            "horses"]
    SEARCH_WORDS = ["ERROR", "TODO", "password", "deprecated", "timeout",
                    "admin"]
    EAT_EVENTS = ["a marathon", "a long-haul flight", "wisdom tooth surgery",
                  "donating blood", "a colonoscopy", "a heavy leg workout"]
    AVOID_EVENTS = ["a job interview", "a final exam", "getting a tattoo",
                    "a first date", "a long-haul flight", "donating blood"]
    FEATURES = ["two-factor authentication on GitHub", "dark mode in VS Code",
                "autosave in Microsoft Word", "spell check in Google Docs",
                "location services on an iPhone",
                "automatic updates in Windows 11"]
    EXTS = ["py", "txt", "csv", "log", "json", "tmp"]
    PROS = ["remote work", "microservices", "electric cars", "TypeScript",
            "index funds", "rooftop solar panels", "a four-day work week"]

    def t1(r):
        pet = r.choice(PETS)
        w1, w2 = r.choice([("safe", "unsafe"), ("safe", "toxic")])
        tpl = "Which common human foods are {w} for {pet} to eat?"
        return fill(tpl, pet=pet, w=w1), fill(tpl, pet=pet, w=w2)

    def t2(r):
        w = r.choice(SEARCH_WORDS)
        tool = r.choice(["a regex", "a grep command"])
        tpl = 'Write {tool} that matches lines {c} the word "{w}".'
        return (fill(tpl, tool=tool, w=w, c="containing"),
                fill(tpl, tool=tool, w=w, c="not containing"))

    def t3(r):
        if r.random() < 0.5:
            e, tpl = r.choice(EAT_EVENTS), "What should I eat {when} {e}?"
        else:
            e, tpl = r.choice(AVOID_EVENTS), "What should I avoid doing {when} {e}?"
        return fill(tpl, e=e, when="before"), fill(tpl, e=e, when="after")

    def t4(r):
        f = r.choice(FEATURES)
        tpl = "How do I {v} {f}?"
        return fill(tpl, f=f, v="enable"), fill(tpl, f=f, v="disable")

    def t5(r):
        ext = r.choice(EXTS)
        var = r.choice(["files", "names", "entries"])
        tpl = "Write a Python list comprehension that {v} the {var} ending in `.{ext}` from `os.listdir('.')`."
        return (fill(tpl, ext=ext, var=var, v="keeps only"),
                fill(tpl, ext=ext, var=var, v="excludes"))

    def t6(r):
        p = r.choice(PROS)
        tpl = "What are the main {w} of {p}?"
        return fill(tpl, p=p, w="advantages"), fill(tpl, p=p, w="disadvantages")

    def t7(r):
        where = r.choice(["flights within the EU", "US domestic flights",
                          "flights to Japan", "flights to Australia",
                          "flights within Canada"])
        bag = r.choice(["carry-on bags", "checked luggage"])
        tpl = "Which items are {w} in {bag} on {where}?"
        w1, w2 = r.choice([("allowed", "forbidden"), ("permitted", "prohibited")])
        return (fill(tpl, bag=bag, where=where, w=w1),
                fill(tpl, bag=bag, where=where, w=w2))

    return [t1, t2, t3, t4, t5, t6, t7]


def nm_role_direction_swap():
    UNIT_PAIRS = [("Celsius", "Fahrenheit"), ("kilometers", "miles"),
                  ("kilograms", "pounds"), ("liters", "US gallons"),
                  ("seconds", "milliseconds"), ("bytes", "megabytes")]
    BRANCHES = ["main", "develop", "feature/login", "release-2.1",
                "hotfix/cart", "staging"]
    TYPES = [("list", "tuple"), ("string", "integer"),
             ("dict", "JSON string"), ("bytes object", "string"),
             ("list", "set"), ("datetime", "Unix timestamp")]

    def t1(r):
        a, b = r.choice(UNIT_PAIRS)
        tpl = "Write a Python function that converts {x} to {y}."
        return fill(tpl, x=a, y=b), fill(tpl, x=b, y=a)

    def t2(r):
        while True:
            c1, c2 = two(r, CITIES)
            if CITY_OFFSETS[c1] != CITY_OFFSETS[c2]:
                break
        h = r.choice(["8 am", "9 am", "noon", "3 pm", "6 pm"])
        tpl = "What time is it in {x} when it is {h} in {y}?"
        return fill(tpl, x=c1, y=c2, h=h), fill(tpl, x=c2, y=c1, h=h)

    def t3(r):
        a, b = two(r, CITIES)
        s1 = r.randint(2, 5)
        s2 = r.randint(0, s1 - 1)
        tpl = "Write a one-line sports headline: {x} beat {y} {s1}-{s2} in last night's final."
        return fill(tpl, x=a, y=b, s1=s1, s2=s2), fill(tpl, x=b, y=a, s1=s1, s2=s2)

    def t4(r):
        a, b = two(r, BRANCHES)
        tpl = "How do I merge the branch `{x}` into `{y}` in git?"
        return fill(tpl, x=a, y=b), fill(tpl, x=b, y=a)

    def t5(r):
        a, b = r.choice([("config.yaml", "config.yaml.bak"),
                         ("notes.txt", "notes_old.txt"),
                         ("report.csv", "report_final.csv"),
                         (".env.example", ".env"),
                         ("index.html", "index_v2.html"),
                         ("settings.json", "settings.default.json")])
        tpl = r.choice(["Write a shell command that copies `{x}` over `{y}`.",
                        "Write a shell command that renames `{x}` to `{y}`, replacing the existing file."])
        return fill(tpl, x=a, y=b), fill(tpl, x=b, y=a)

    def t6(r):
        a, b = r.choice(TYPES)
        tpl = "How do I convert {x} to {y} in Python?"
        return (fill(tpl, x=a_an(a), y=a_an(b)),
                fill(tpl, x=a_an(b), y=a_an(a)))

    def t7(r):
        a, b = two(r, LANGUAGES[:8])
        tpl = "What mistakes do native {x} speakers typically make when learning {y}?"
        return fill(tpl, x=a, y=b), fill(tpl, x=b, y=a)

    def t8(r):
        base = r.sample(range(1, 10), 4)
        sub = sorted(r.sample(base, 2))
        sup = "{" + ", ".join(map(str, sorted(base))) + "}"
        sb = "{" + ", ".join(map(str, sub)) + "}"
        tpl = "In Python, is `{x}` a subset of `{y}`?"
        return fill(tpl, x=sb, y=sup), fill(tpl, x=sup, y=sb)

    return [t1, t2, t3, t4, t5, t6, t7, t8]


def nm_superlative_comparative_swap():
    LARGEST = ["planet in the solar system", "ocean on Earth",
               "country in Europe by area", "country in South America by area",
               "continent by area", "of the Great Lakes by surface area",
               "US state by area"]
    CHEAPER = [("to heat a house", "a heat pump", "a gas furnace"),
               ("to travel from London to Paris", "the train", "a flight"),
               ("for storing 10 TB of backups", "cloud storage", "external hard drives"),
               ("to run per mile", "an electric car", "a gasoline car"),
               ("for a family of four", "cooking at home", "meal kit subscriptions")]
    HIGHLOW = [("country in the European Union", "population density"),
               ("planet in the solar system", "average surface temperature"),
               ("G7 country", "population"),
               ("Scandinavian country", "population"),
               ("US state", "average elevation")]
    CONTINENTS = ["Africa", "Europe", "Asia", "South America",
                  "North America", "Australia"]
    RECORDS = ["win a Nobel Prize", "become President of the United States",
               "climb Mount Everest", "win an Olympic gold medal",
               "walk on the Moon"]

    def t1(r):
        x = r.choice(LARGEST)
        tpl = "What is the {s} {x}?"
        return fill(tpl, x=x, s="largest"), fill(tpl, x=x, s="smallest")

    def t2(r):
        purpose, a, b = r.choice(CHEAPER)
        tpl = "Which is usually {c} {p}: {a} or {b}?"
        kw = dict(p=purpose, a=a, b=b)
        return fill(tpl, c="cheaper", **kw), fill(tpl, c="more expensive", **kw)

    def t3(r):
        x, m = r.choice(HIGHLOW)
        tpl = "Which {x} has the {s} {m}?"
        return fill(tpl, x=x, m=m, s="highest"), fill(tpl, x=x, m=m, s="lowest")

    def t4(r):
        c = r.choice(EUROPE_CITIES)
        tpl = "Which month has the {s} daylight hours in {c}?"
        return fill(tpl, c=c, s="most"), fill(tpl, c=c, s="fewest")

    def t5(r):
        c = r.choice(CONTINENTS)
        tpl = "What is the {s} river in {c}?"
        return fill(tpl, c=c, s="longest"), fill(tpl, c=c, s="second-longest")

    def t6(r):
        rec = r.choice(RECORDS)
        tpl = "Who was the {s} person to {rec}?"
        return fill(tpl, rec=rec, s="youngest"), fill(tpl, rec=rec, s="oldest")

    return [t1, t2, t3, t4, t5, t6]


def nm_same_kind_entity_swap():
    PLANETS = ["Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"]
    CSV_LIBS = ["pandas", "polars", "NumPy", "Python's csv module",
                "PySpark", "DuckDB"]

    def t1(r):
        a, b = two(r, COUNTRIES)
        tpl = r.choice(["What is the capital of {x}?",
                        "What currency is used in {x}?"])
        return fill(tpl, x=a), fill(tpl, x=b)

    def t2(r):
        a, b = two(r, PLANETS)
        tpl = "How many moons does {x} have?"
        return fill(tpl, x=a), fill(tpl, x=b)

    def t3(r):
        a, b = two(r, PROG_LANGS)
        task = r.choice(["reverse a string", "read a file line by line",
                         "sort an array of integers"])
        tpl = "How do I {task} in {x}?"
        return fill(tpl, task=task, x=a), fill(tpl, task=task, x=b)

    def t4(r):
        a, b = two(r, CSV_LIBS)
        tpl = "How do I read a CSV file with {x}?"
        return fill(tpl, x=a), fill(tpl, x=b)

    def t5(r):
        a, b = two(r, AUTHORS)
        tpl = "What is the most famous novel by {x}?"
        return fill(tpl, x=a), fill(tpl, x=b)

    def t6(r):
        a, b = two(r, PY_KEYWORDS)
        tpl = "What does the Python keyword `{x}` do?"
        return fill(tpl, x=a), fill(tpl, x=b)

    def t7(r):
        a, b = two(r, CITIES)
        tpl = "What is the population of {x}?"
        return fill(tpl, x=a), fill(tpl, x=b)

    return [t1, t2, t3, t4, t5, t6, t7]


def nm_identifier_filename_url_swap():
    OS_PATH = ["join", "split", "basename", "dirname", "exists", "isfile",
               "abspath", "splitext", "getsize", "expanduser"]
    MODULES = ["cv2", "yaml", "sklearn", "PIL", "bs4", "dotenv", "requests",
               "numpy"]
    EXTS = ["parquet", "avro", "ipynb", "whl", "toml", "jsonl", "dmg", "apk"]
    SITES = ["blog.example.com", "docs.example.org", "news.example.net"]
    SLUGS = ["why-rust-is-fast", "intro-to-kubernetes", "sql-window-functions",
             "the-case-for-monorepos", "python-packaging-guide",
             "how-dns-works"]

    def t1(r):
        a, b = two(r, BUILTIN_FUNCS)
        tpl = "What does Python's built-in `{f}()` do?"
        return fill(tpl, f=a), fill(tpl, f=b)

    def t2(r):
        site, (a, b) = r.choice(SITES), two(r, SLUGS)
        tpl = "Summarize the article at https://{site}/{slug} in five bullet points."
        return fill(tpl, site=site, slug=a), fill(tpl, site=site, slug=b)

    def t3(r):
        a, b = two(r, ["report.csv", "notes.txt", "server.log", "data.json",
                       "config.yaml", "draft.md", "access.log", "requirements.txt"])
        tpl = r.choice(["Write a bash command that counts the lines in `{f}`.",
                        "Write a bash command that shows the last 20 lines of `{f}`."])
        return fill(tpl, f=a), fill(tpl, f=b)

    def t4(r):
        a, b = two(r, ["alpha", "beta", "total", "limit", "width", "height",
                       "start", "end"])
        x, y = two(r, range(1, 50))
        tpl = "What does this print: `{a} = {x}; {b} = {y}; print({p})`?"
        return fill(tpl, a=a, b=b, x=x, y=y, p=a), fill(tpl, a=a, b=b, x=x, y=y, p=b)

    def t5(r):
        a, b = two(r, OS_PATH)
        tpl = "What does `os.path.{f}()` do in Python?"
        return fill(tpl, f=a), fill(tpl, f=b)

    def t6(r):
        a, b = two(r, MODULES)
        tpl = "How do I fix `ModuleNotFoundError: No module named '{m}'`?"
        return fill(tpl, m=a), fill(tpl, m=b)

    def t7(r):
        a, b = two(r, EXTS)
        tpl = "What is a `.{e}` file and how do I open it?"
        return fill(tpl, e=a), fill(tpl, e=b)

    return [t1, t2, t3, t4, t5, t6, t7]


def nm_tense_time_frame_swap():
    YEARLY = [("Who won the FIFA World Cup in {y}?", [2002, 2006, 2010, 2014, 2018, 2022]),
              ("Who won the Nobel Prize in Literature in {y}?", list(range(2010, 2024))),
              ("Which city hosted the Summer Olympics in {y}?", [2000, 2004, 2008, 2012, 2016, 2024]),
              ("Which film won the Academy Award for Best Picture in {y}?", list(range(2010, 2024)))]
    RECURRING = ["Super Bowl", "Eurovision Song Contest", "Tour de France",
                 "Wimbledon men's singles title", "Ballon d'Or",
                 "Rugby World Cup"]
    PYTHON_YEARS = [2013, 2015, 2017, 2019, 2021, 2023]

    def t1(r):
        tpl, years = r.choice(YEARLY)
        y1, y2 = two(r, years)
        return fill(tpl, y=y1), fill(tpl, y=y2)

    def t2(r):
        e = r.choice(RECURRING)
        return "Who won the last {0}?".format(e), "Who will win the next {0}?".format(e)

    def t3(r):
        c, (y1, y2) = r.choice(COUNTRIES), two(r, [1980, 1990, 2000, 2010, 2020])
        tpl = "What was the population of {c} in {y}?"
        return fill(tpl, c=c, y=y1), fill(tpl, c=c, y=y2)

    def t4(r):
        c = r.choice(CITIES)
        return ("What was the weather like in {0} yesterday?".format(c),
                "What will the weather be like in {0} tomorrow?".format(c))

    def t5(r):
        y1, y2 = two(r, PYTHON_YEARS)
        tpl = "What was the newest stable version of Python at the end of {y}?"
        return fill(tpl, y=y1), fill(tpl, y=y2)

    def t6(r):
        while True:
            m = r.randint(1, 12)
            y1, y2 = r.randint(1990, 2020), r.randint(2030, 2045)
            if calendar.weekday(y1, m, 1) != calendar.weekday(y2, m, 1):
                break
        name = MONTHS[m - 1]
        return ("What day of the week was {0} 1, {1}?".format(name, y1),
                "What day of the week will {0} 1, {1} be?".format(name, y2))

    return [t1, t2, t3, t4, t5, t6]


# ---------------------------------------------------------------------------
# POSITIVE categories (same answer)
# ---------------------------------------------------------------------------


def pos_superlative_rephrase():
    BIG = ["planet in the solar system", "ocean on Earth", "hot desert in the world",
           "country in South America", "island in the Mediterranean",
           "lake in Africa", "moon of Jupiter"]
    TALL = ["mountain in Africa", "mountain in Europe", "waterfall in the world",
            "volcano in Japan", "mountain in North America"]
    LONG = ["river in Europe", "suspension bridge in the world",
            "bone in the human body", "river in the United States",
            "railway tunnel in the world"]
    POPULOUS = ["city in Canada", "country in Africa", "state in Australia",
                "city in Germany", "country in the European Union"]
    SMALL = ["country in the world", "planet in the solar system",
             "bone in the human body", "ocean on Earth",
             "state in the United States", "continent"]
    DEEP = ["lake in the world", "point in the ocean", "lake in Europe",
            "freshwater lake in North America", "ocean on Earth"]

    def mk(lst, a, b):
        def t(r):
            x = r.choice(lst)
            return fill(a, x=x), fill(b, x=x)
        return t

    return [mk(BIG, "Which {x} is the biggest?", "What is the largest {x}?"),
            mk(TALL, "What is the tallest {x}?", "Which {x} is the highest?"),
            mk(LONG, "What's the longest {x}?", "Which {x} is longer than all the others?"),
            mk(POPULOUS, "Which {x} has the most people?", "What is the most populous {x}?"),
            mk(SMALL, "What is the smallest {x}?", "Which {x} is smaller than all the others?"),
            mk(DEEP, "What is the deepest {x}?", "Which {x} has the greatest depth?")]


def pos_explain_form_variants():
    TOPICS = ["recursion", "a hash table", "a closure in JavaScript",
              "the CAP theorem", "photosynthesis", "compound interest",
              "a Python decorator", "inflation", "a REST API",
              "Big O notation", "a database index", "the greenhouse effect",
              "a mutex", "garbage collection", "DNS",
              "overfitting in machine learning", "a Docker container",
              "opportunity cost", "the Pythagorean theorem", "a SQL join",
              "a virtual environment in Python", "a black hole"]
    FORMS = [("Can you explain {t}?", "Explain {t}."),
             ("What is {t}?", "Could you tell me what {t} is?"),
             ("Explain {t}.", "What is {t}?"),
             ("Could you explain {t}?", "Can you tell me what {t} is?"),
             ("What's {t}?", "Please explain {t}."),
             ("Can you explain what {t} is?", "What is {t}?")]

    def mk(a, b):
        def t(r):
            x = r.choice(TOPICS)
            return fill(a, t=x), fill(b, t=x)
        return t

    return [mk(a, b) for a, b in FORMS]


def _title_case(s):
    return " ".join(w[:1].upper() + w[1:] for w in s.split(" "))


CASE_TRANSFORMS = [
    str.lower,
    str.upper,
    _title_case,
    lambda s: s[:1] + s[1:].lower(),
    lambda s: s[:1].lower() + s[1:],
]


def pos_casing_only():
    DISHES = ["pad thai", "French onion soup", "Neapolitan pizza",
              "chicken tikka masala", "Spanish paella"]
    BASES = [
        lambda r: "What is the capital of {0}?".format(r.choice(COUNTRIES)),
        lambda r: "What are some good books by {0}?".format(r.choice(AUTHORS)),
        lambda r: "What is the time difference between {0} and {1}?".format(*two(r, CITIES)),
        lambda r: "How do I make {0} at home?".format(r.choice(DISHES)),
        lambda r: "Is {0} a good month to visit {1}?".format(r.choice(MONTHS), r.choice(COUNTRIES)),
        lambda r: "What language is spoken in {0}?".format(r.choice(COUNTRIES)),
    ]

    def mk(base):
        def t(r):
            s = base(r)
            return s, r.choice(CASE_TRANSFORMS)(s)
        return t

    return [mk(b) for b in BASES]


def pos_whitespace_punctuation_only():
    TX = [
        lambda s: s.rstrip("?.!"),
        lambda s: s.replace(" ", "  "),
        lambda s: "\n  " + s + "  \n",
        lambda s: s[:-1] + " ?" if s.endswith("?") else s + " .",
        lambda s: s + "?" if s.endswith("?") else s + ".",
        lambda s: s.replace(",", ""),
        lambda s: s.replace(" ", "\t", 1),
    ]
    DIFFS = [("weather", "climate"), ("affect", "effect"),
             ("a virus", "a bacterium"), ("stocks", "bonds"),
             ("latitude", "longitude"), ("baking soda", "baking powder")]
    REQS = ["a raise", "a day off", "permission to work remotely",
            "a promotion", "more training"]
    SKILLS = ["piano", "swimming", "a second language", "drawing", "chess"]
    BASES = [
        lambda r: "How long should I boil an egg for a {0} yolk?".format(
            r.choice(["runny", "jammy", "firm", "fully set"])),
        lambda r: "What is the difference between {0} and {1}?".format(*r.choice(DIFFS)),
        lambda r: "Can you recommend {0} {1} movies from the {2}s?".format(
            r.choice([3, 5]), r.choice(["sci-fi", "horror", "comedy", "animated"]),
            r.choice([1980, 1990, 2000])),
        lambda r: "Is it worth visiting {0} in {1}?".format(r.choice(CITIES), r.choice(MONTHS)),
        lambda r: "Hi, how do I ask my manager for {0}?".format(r.choice(REQS)),
        lambda r: "Honestly, what is the best way to learn {0} as an adult?".format(r.choice(SKILLS)),
    ]

    def mk(base):
        def t(r):
            s = base(r)
            return s, r.choice(TX)(s)
        return t

    return [mk(b) for b in BASES]


def pos_polite_wrapper():
    REQS = [
        lambda r: "suggest three names for a bakery in {0}".format(r.choice(CITIES)),
        lambda r: "write a haiku about {0}".format(r.choice(MONTHS)),
        lambda r: "give me a packing list for a weekend trip to {0}".format(r.choice(CITIES)),
        lambda r: "translate 'thank you very much' into {0}".format(r.choice(LANGUAGES)),
        lambda r: "recommend a good book by {0}".format(r.choice(AUTHORS)),
        lambda r: "explain what the Python keyword `{0}` does".format(r.choice(PY_KEYWORDS)),
    ]
    QS = [
        lambda r: "What is the capital of {0}?".format(r.choice(COUNTRIES)),
        lambda r: "How many days are there in {0}?".format(r.choice(MONTHS)),
        lambda r: "What does Python's built-in `{0}()` do?".format(r.choice(BUILTIN_FUNCS)),
        lambda r: "What is the time difference between {0} and {1}?".format(*two(r, CITIES)),
    ]
    WRAP_REQ = [("Hi! Could you please {q}? Thanks!", "{Q}."),
                ("Hello, I was wondering if you could {q}. Thank you so much!", "{Q}."),
                ("{Q}.", "Please {q}, thanks in advance!")]
    WRAP_Q = [("Good morning! {Q}", "{Q}"),
              ("Hey there, quick question: {Q} Thanks a lot!", "{Q}"),
              ("{Q}", "Hello! I hope you're well. {Q}")]

    def mk_req(a, b):
        def t(r):
            q = r.choice(REQS)(r)
            return fill(a, q=q, Q=cap(q)), fill(b, q=q, Q=cap(q))
        return t

    def mk_q(a, b):
        def t(r):
            q = r.choice(QS)(r)
            return fill(a, Q=q), fill(b, Q=q)
        return t

    return [mk_req(a, b) for a, b in WRAP_REQ] + [mk_q(a, b) for a, b in WRAP_Q]


def pos_clause_reorder():
    TASKS = ["read a file line by line", "check if a string is empty",
             "get the current date", "remove duplicates from an array",
             "sort a list of strings alphabetically"]
    TOOL_TASKS = [("CSS", "center a div horizontally and vertically"),
                  ("git", "undo my last commit but keep the changes"),
                  ("Excel formulas", "remove duplicate rows"),
                  ("the Python standard library", "download a web page"),
                  ("bash", "rename every .txt file in a folder to .md")]
    AUDS = ["ten-year-old", "data analyst", "retired accountant",
            "graphic designer", "high school student"]

    def t1(r):
        lang, task = r.choice(PROG_LANGS), r.choice(TASKS)
        return ("In {0}, how do I {1}?".format(lang, task),
                "How do I {1} in {0}?".format(lang, task))

    def t2(r):
        c, m = r.choice(CITIES), r.choice(MONTHS)
        return ("I'm visiting {0} in {1}. What should I pack?".format(c, m),
                "What should I pack? I'm visiting {0} in {1}.".format(c, m))

    def t3(r):
        tool, task = r.choice(TOOL_TASKS)
        return ("Using only {0}, how can I {1}?".format(tool, task),
                "How can I {1} using only {0}?".format(tool, task))

    def t4(r):
        b, n = r.choice(BOOKS), r.choice([3, 4, 5])
        return ("Without spoilers, summarize {0} in {1} sentences.".format(b, n),
                "Summarize {0} in {1} sentences without spoilers.".format(b, n))

    def t5(r):
        amt, rate, yrs = r.choice([1000, 2500, 5000, 10000]), r.choice([3, 4, 5, 7]), r.choice([5, 10, 20])
        return ("If I invest ${0} at {1}% annual interest compounded yearly, how much will I have after {2} years?".format(amt, rate, yrs),
                "How much will I have after {2} years if I invest ${0} at {1}% annual interest compounded yearly?".format(amt, rate, yrs))

    def t6(r):
        a = r.choice(AUDS)
        return ("For a {0}, what is a good first programming language?".format(a),
                "What is a good first programming language for a {0}?".format(a))

    return [t1, t2, t3, t4, t5, t6]


def pos_synonym_swap():
    ITEMS = ["laptop", "bicycle", "car", "piano", "camera", "smartphone"]
    SKILLS = ["Japanese", "the guitar", "calculus", "Rust", "watercolor painting",
              "chess"]
    FIXES = ["leaking faucet", "squeaky door hinge", "flat bicycle tire",
             "running toilet", "wobbly table leg"]
    OSES = ["macOS Finder", "Windows 11 File Explorer", "Ubuntu's file manager"]
    ROOMS = ["small bedroom", "dorm room", "studio apartment", "home office"]

    def t1(r):
        i = r.choice(ITEMS)
        tpl = "What should I check before I {v} a used {i}?"
        return fill(tpl, i=i, v="buy"), fill(tpl, i=i, v="purchase")

    def t2(r):
        n = r.choice([50, 100, 200, 300, 500])
        tpl = "How often should I change the oil in my {v} if I drive {n} miles a week?"
        return fill(tpl, n=n, v="car"), fill(tpl, n=n, v="automobile")

    def t3(r):
        s = r.choice(SKILLS)
        tpl = "What is the best way to {v} learning {s}?"
        return fill(tpl, s=s, v="start"), fill(tpl, s=s, v="begin")

    def t4(r):
        f = r.choice(FIXES)
        tpl = "How do I {v} a {f}?"
        return fill(tpl, f=f, v="fix"), fill(tpl, f=f, v="repair")

    def t5(r):
        n, room = r.choice([55, 65, 75]), r.choice(ROOMS)
        tpl = "Is a {n}-inch TV too {v} for a {room}?"
        return fill(tpl, n=n, room=room, v="big"), fill(tpl, n=n, room=room, v="large")

    def t6(r):
        o = r.choice(OSES)
        tpl = "How do I {v} hidden files in {o}?"
        return fill(tpl, o=o, v="show"), fill(tpl, o=o, v="display")

    return [t1, t2, t3, t4, t5, t6]


def pos_informal_typing():
    JOBS = ["junior data analyst", "barista", "nurse", "software engineer",
            "marketing assistant", "warehouse supervisor"]
    DIFFS = [("TCP", "UDP"), ("a Roth IRA", "a traditional IRA"),
             ("let", "const in JavaScript"), ("baking soda", "baking powder"),
             ("HTTP", "HTTPS"), ("a latte", "a cappuccino")]
    OCCASIONS = ["birthday", "retirement", "housewarming", "graduation"]
    RELS = ["sister", "boss", "grandfather", "best friend", "neighbor"]
    GENRES = ["fantasy", "mystery", "science fiction", "historical fiction"]

    def t1(r):
        j = r.choice(JOBS)
        return ("Can you help me write a cover letter for a {0} position?".format(j),
                "can u help me write a cover letter for a {0} position pls".format(j))

    def t2(r):
        a, b = r.choice(DIFFS)
        return ("What's the difference between {0} and {1}?".format(a, b),
                "whats the difference between {0} and {1}".format(a, b))

    def t3(r):
        t = r.choice(GENERAL_TOPICS + PROG_TOPICS)
        return ("I don't understand {0}. Could you explain it simply?".format(t),
                "i dont understand {0} could u explain it simply".format(t))

    def t4(r):
        c = r.choice(CITIES)
        return ("What's the cheapest way to get from the airport to downtown {0}?".format(c),
                "whats the cheapest way to get from the airport to downtown {0}".format(c))

    def t5(r):
        n, o, rel = r.choice([3, 5, 10]), r.choice(OCCASIONS), r.choice(RELS)
        return ("Please give me {0} ideas for a {1} gift for my {2}.".format(n, o, rel),
                "pls give me {0} ideas for a {1} gift for my {2}".format(n, o, rel))

    def t6(r):
        g, b = r.choice(GENRES), r.choice(BOOKS)
        return ("Can you recommend a good {0} book? I've already read {1}.".format(g, b),
                "can u recommend a good {0} book, ive already read {1}".format(g, b))

    return [t1, t2, t3, t4, t5, t6]


def pos_backtick_toggle():
    GIT = ["git stash pop", "git rebase -i HEAD~3", "git cherry-pick",
           "git reset --soft HEAD~1", "git bisect", "git reflog",
           "git commit --amend", "git fetch --prune"]
    SHELL = ["ls -la", "du -sh *", "chmod +x run.sh", "tail -f app.log",
             "grep -rn TODO .", "ps aux", "df -h"]
    PY_EXPR = ["print(7 // 2)", "len('hello')", "sorted([3, 1, 2])", "'ab' * 3",
               "2 ** 10", "list(range(3))", "bool('')", "round(2.5)"]
    SQL = ["GROUP BY", "HAVING", "DISTINCT", "LEFT JOIN", "UNION ALL",
           "COALESCE", "ROW_NUMBER() OVER"]

    def mk(tpl, items):
        def t(r):
            x = r.choice(items)
            return fill(tpl, x="`" + x + "`"), fill(tpl, x=x)
        return t

    return [mk("What does {x} do?", GIT),
            mk("Explain the Python built-in {x}.", [f + "()" for f in BUILTIN_FUNCS]),
            mk("What does the shell command {x} do?", SHELL),
            mk("What is the output of {x} in Python?", PY_EXPR),
            mk("When should I use {x} in SQL?", SQL),
            mk("What does the {x} keyword do in Python?", PY_KEYWORDS)]


def pos_active_passive_voice():
    PAINTINGS = ["The Starry Night", "the Mona Lisa", "The Persistence of Memory",
                 "Guernica", "The Birth of Venus", "Girl with a Pearl Earring"]
    DISCOVERIES = ["penicillin", "radium", "the electron", "X-rays",
                   "the structure of DNA", "the planet Uranus"]
    INVENTIONS = ["telephone", "light bulb", "printing press",
                  "World Wide Web", "transistor", "phonograph"]
    MUSIC = ["The Four Seasons", "the Moonlight Sonata", "The Magic Flute",
             "Clair de Lune", "The Nutcracker", "the Brandenburg Concertos"]
    SOFTWARE = ["Windows", "Photoshop", "TypeScript", "the Swift programming language",
                "the Go programming language", "Kotlin"]
    MOVIES = ["Jaws", "Spirited Away", "Pulp Fiction", "The Godfather",
              "Parasite", "Casablanca"]

    def mk(items, a, b):
        def t(r):
            x = r.choice(items)
            return fill(a, x=x, X=cap(x)), fill(b, x=x, X=cap(x))
        return t

    return [mk(BOOKS, "Who wrote {x}?", "{X} was written by whom?"),
            mk(PAINTINGS, "Who painted {x}?", "By whom was {x} painted?"),
            mk(DISCOVERIES, "Who discovered {x}?", "{X} was discovered by whom?"),
            mk(INVENTIONS, "Who invented the {x}?", "The {x} was invented by whom?"),
            mk(MUSIC, "Who composed {x}?", "{X} was composed by whom?"),
            mk(SOFTWARE, "Which company created {x}?", "{X} was created by which company?"),
            mk(MOVIES, "Who directed {x}?", "{X} was directed by whom?")]


NEAR_MISS = [
    ("code_operator_swap", nm_code_operator_swap),
    ("regex_quantifier_swap", nm_regex_quantifier_swap),
    ("sql_condition_swap", nm_sql_condition_swap),
    ("length_format_constraint", nm_length_format_constraint),
    ("language_audience_tone", nm_language_audience_tone),
    ("number_unit_date_string", nm_number_unit_date_string),
    ("negation_antonym", nm_negation_antonym),
    ("role_direction_swap", nm_role_direction_swap),
    ("superlative_comparative_swap", nm_superlative_comparative_swap),
    ("same_kind_entity_swap", nm_same_kind_entity_swap),
    ("identifier_filename_url_swap", nm_identifier_filename_url_swap),
    ("tense_time_frame_swap", nm_tense_time_frame_swap),
]

POSITIVE = [
    ("superlative_rephrase", pos_superlative_rephrase),
    ("explain_form_variants", pos_explain_form_variants),
    ("casing_only", pos_casing_only),
    ("whitespace_punctuation_only", pos_whitespace_punctuation_only),
    ("polite_wrapper", pos_polite_wrapper),
    ("clause_reorder", pos_clause_reorder),
    ("synonym_swap", pos_synonym_swap),
    ("informal_typing", pos_informal_typing),
    ("backtick_toggle", pos_backtick_toggle),
    ("active_passive_voice", pos_active_passive_voice),
]


def build(categories, rng, seen):
    out = []
    for name, factory in categories:
        templates = factory()
        assert len(templates) >= 5, name
        for i in range(PER_CATEGORY):
            tpl = templates[i % len(templates)]
            for _ in range(500):
                a, b = tpl(rng)
                if rng.random() < 0.5:
                    a, b = b, a
                key = (a, b)
                if a != b and key not in seen and (b, a) not in seen:
                    break
            else:
                raise RuntimeError("could not make a unique pair for " + name)
            seen.add(key)
            out.append({"category": name, "stored": a, "query": b})
    return out


def main():
    rng = random.Random(SEED)
    seen = set()
    text_pairs = build(NEAR_MISS, rng, seen)
    positives = build(POSITIVE, rng, seen)
    nm_names = ", ".join(n for n, _ in NEAR_MISS)
    pos_names = ", ".join(n for n, _ in POSITIVE)
    description = (
        "Held-out semantic prompt cache evaluation set v33, written blind "
        "(all templates and word lists written from scratch without looking "
        "at the project's code, tests, docs or other data sets). Theme: a "
        "realistic mix of prompts sent to a general chat assistant -- "
        "factual questions, how-to questions, coding questions with short "
        "snippets, regular expressions and SQL, writing and summarizing "
        "requests with constraints, and advice questions. text_pairs holds "
        "%d near-miss pairs (%d categories x %d) that share almost all words "
        "but need different answers and must not be served from cache: %s. "
        "positives holds %d true paraphrase pairs (%d categories x %d) that "
        "need the same answer and should be served from cache: %s. Each "
        "category has at least five templates used round-robin, filled from "
        "lists shipped with Python (calendar month and day names, zoneinfo "
        "city names and UTC offsets, keyword.kwlist, builtin function names, "
        "string constants) and small hand-written lists; all pairs are "
        "unique and stored != query. Generated deterministically with "
        "random.Random(%d) by benchmarks/caches/make_heldout_v33.py."
        % (len(text_pairs), len(NEAR_MISS), PER_CATEGORY, nm_names,
           len(positives), len(POSITIVE), PER_CATEGORY, pos_names, SEED))
    data = {"description": description, "text_pairs": text_pairs,
            "positives": positives}
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print("wrote %s: %d text_pairs, %d positives"
          % (OUT_PATH, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
