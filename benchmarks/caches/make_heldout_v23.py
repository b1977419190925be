#!/usr/bin/env python3
"""Generator for a held-out evaluation set for a semantic prompt cache (v23).

The output file holds two lists of prompt pairs, each pair made of a stored
prompt and a later query.

text_pairs: 168 near-miss pairs in 14 categories of 12 pairs each. In every
pair the two prompts are worded almost the same way, but the right answer to
the query differs from the right answer to the stored prompt, so a cache must
not serve the stored answer. The categories cover one changed operator in a
code snippet, one changed quantifier or character class in a regular
expression, a changed condition, column, comparison or aggregate in an SQL
request, a changed answer length limit, a changed output format, language,
audience or tone, a changed number, unit, date or currency, a changed quoted
string, file name, URL, version or identifier, swapped direction or roles,
an added or removed negation, a word replaced by its opposite, a changed
person or owner, a changed order of events or steps, a changed modality or
tense, and a changed quantity or scope. Each category draws on four or more
templates.

positives: 136 true paraphrase pairs in 8 categories of 17 pairs each. The
two prompts of a pair mean the same thing and keep every entity, number,
code fragment, quantity and constraint, so a cache should serve the stored
answer. The categories are reworded superlatives, different ways to ask for
an explanation, changes of case, whitespace or punctuation only, added or
removed greetings and politeness, questions turned into imperatives, synonym
substitutions, reordered context sentences, and informal chat retellings of
the same situation.

Prompts are built from templates over lists of public entities (countries,
cities, rivers, programming languages, chemical elements, companies,
historical events, family and social relations, foods, units, SQL tables and
so on). They mix short single questions with two- or three-sentence chat
prompts, some of them informal. The output is deterministic: all random
choices come from random.Random(232323). Only the standard library is used.

Written blind, without reading the project's other data sets, tests or code.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import datetime
import json
import os
import re

import random

SEED = 232323
R = random.Random(SEED)

N_NEAR = 12
N_POS = 17


def ch(seq):
    return R.choice(seq)


def two(seq):
    return R.sample(list(seq), 2)


def maybe(p=0.5):
    return R.random() < p


def art(word):
    return ("an " if word[0].lower() in "aeiou" else "a ") + word


def lcfirst(s):
    if len(s) > 1 and s[0].isupper() and s[1].islower():
        return s[0].lower() + s[1:]
    return s


# ---------------------------------------------------------------- word lists

COUNTRIES = ["France", "Japan", "Brazil", "Kenya", "Canada", "Australia",
             "India", "Germany", "Mexico", "Egypt", "Norway", "Argentina",
             "Vietnam", "Italy", "Spain", "Peru", "Morocco", "Thailand",
             "Poland", "Chile", "Portugal", "Ireland", "South Korea",
             "New Zealand", "Greece", "Turkey"]
CITIES = ["Paris", "Rome", "Berlin", "Madrid", "Lisbon", "Tokyo", "Seoul",
          "Toronto", "Chicago", "Sydney", "Cairo", "Nairobi", "Mumbai",
          "Mexico City", "Buenos Aires", "Oslo", "Vienna", "Prague",
          "Istanbul", "Bangkok", "Amsterdam", "Dublin", "Barcelona",
          "Montreal", "Copenhagen", "Athens"]
LATITUDE = {"Oslo": 59.9, "Stockholm": 59.3, "Edinburgh": 55.9,
            "Copenhagen": 55.7, "London": 51.5, "Berlin": 52.5,
            "Paris": 48.9, "Vienna": 48.2, "Montreal": 45.5, "Rome": 41.9,
            "Madrid": 40.4, "Athens": 38.0, "Tokyo": 35.7, "Cairo": 30.0,
            "Miami": 25.8, "Singapore": 1.3, "Nairobi": -1.3,
            "Lima": -12.0, "Cape Town": -33.9, "Helsinki": 60.2,
            "Dubai": 25.2, "Reykjavik": 64.1, "Mumbai": 19.1}
PROG_LANGS = ["Python", "JavaScript", "Rust", "Go", "Java", "C++", "Kotlin",
              "Swift", "Ruby", "TypeScript", "C#", "PHP"]
HUMAN_LANGS = ["French", "Spanish", "German", "Italian", "Portuguese",
               "Japanese", "Dutch", "Korean", "Polish", "Turkish"]
RELS = ["sister", "brother", "landlord", "coworker", "boss", "roommate",
        "neighbor", "cousin", "best friend", "mother-in-law", "teacher",
        "son", "daughter", "uncle"]
BOOKS = ["Hamlet", "Pride and Prejudice", "The Great Gatsby", "Moby-Dick",
         "1984", "Romeo and Juliet", "The Odyssey", "Frankenstein",
         "Don Quixote", "To Kill a Mockingbird", "Jane Eyre", "Dracula",
         "Crime and Punishment", "The Hobbit", "Brave New World"]
ELEMENTS = ["hydrogen", "helium", "carbon", "oxygen", "iron", "gold",
            "silver", "copper", "uranium", "sodium", "neon", "mercury",
            "titanium", "calcium", "lithium"]
COMPANIES = ["Google", "Apple", "Microsoft", "Amazon", "Netflix", "Spotify",
             "IKEA", "Siemens", "Toyota", "Nvidia", "Airbnb", "Shopify"]
APPS = ["VS Code", "Google Chrome", "Microsoft Word", "the macOS Terminal",
        "Firefox", "Slack", "Notion", "IntelliJ IDEA"]
AIRPORTS = ["Heathrow", "JFK", "Charles de Gaulle", "Schiphol", "Narita",
            "Madrid Barajas", "Rome Fiumicino", "O'Hare", "Dublin Airport",
            "Lisbon Airport"]
TOPICS = ["linear algebra", "machine learning", "Roman history",
          "organic chemistry", "personal finance", "photography",
          "music theory", "game theory", "astronomy", "woodworking",
          "statistics", "cryptography"]
CONCEPTS = ["recursion", "photosynthesis", "inflation", "a hash table",
            "the Doppler effect", "compound interest", "a Docker container",
            "the Pythagorean theorem", "opportunity cost",
            "the greenhouse effect", "a blockchain",
            "overfitting in machine learning", "plate tectonics",
            "an API", "DNS", "supply and demand", "entropy in thermodynamics",
            "gerrymandering", "CRISPR gene editing", "quantitative easing",
            "a mortgage", "the placebo effect", "a black hole",
            "Big O notation", "a REST API", "natural selection",
            "the Monty Hall problem", "public-key cryptography"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
        "Sunday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]

TABLES = {
    "employees": {"num": ["salary", "age", "years_of_service"],
                  "cat": ["department", "city", "job_title"],
                  "date": "hire_date"},
    "orders": {"num": ["total", "quantity", "discount"],
               "cat": ["status", "country", "payment_method"],
               "date": "created_at"},
    "products": {"num": ["price", "stock", "rating"],
                 "cat": ["category", "brand", "color"],
                 "date": "added_on"},
    "students": {"num": ["grade", "age", "absences"],
                 "cat": ["class", "major", "city"],
                 "date": "enrolled_on"},
    "customers": {"num": ["age", "loyalty_points", "lifetime_value"],
                  "cat": ["country", "city", "segment"],
                  "date": "signup_date"},
    "invoices": {"num": ["amount", "tax", "days_overdue"],
                 "cat": ["status", "currency", "region"],
                 "date": "due_date"},
}

# ---------------------------------------------------------------- styling

PREFIXES = ["hey, ", "quick question: ", "pls help: ", "ok so ", "hi! ",
            "hmm, ", "sorry if this is basic, but "]


def restyle(s, q, code=False, p_prefix=0.22, p_lower=0.12):
    """Apply the same informal touch to both prompts of a pair."""
    r = R.random()
    if r < p_prefix:
        p = ch(PREFIXES)
        return p + lcfirst(s), p + lcfirst(q)
    if not code and r < p_prefix + p_lower:
        return s.lower(), q.lower()
    return s, q


# ================================================================ near misses
# ---------------------------------------------------------------- 1 code_operator

def co_compare():
    lang = ch(["Python", "JavaScript", "Java", "C", "Go", "Rust"])
    n = R.randint(2, 40)
    a, b = ch([("<", "<="), (">", ">="), ("==", "!=")])
    fmt = ch(["In {lang}, what does `x {op} {n}` evaluate to when x is {n}?",
              "I'm debugging a {lang} condition. If x equals {n}, is "
              "`x {op} {n}` true or false?"])
    return fmt.format(lang=lang, op=a, n=n), fmt.format(lang=lang, op=b, n=n)


def _run_acc(start, n, op):
    t = start
    for i in range(n):
        if op == "+=":
            t += i
        elif op == "-=":
            t -= i
        else:
            t *= i
    return t


def co_accumulate():
    n = R.randint(3, 9)
    start = ch([0, 1, 10, 50, 100])
    a, b = ch([("+=", "-="), ("+=", "*="), ("-=", "*=")])
    if _run_acc(start, n, a) == _run_acc(start, n, b):
        return None
    fmt = ch(["What does this print? `total = {s}` then "
              "`for i in range({n}): total {op} i` then `print(total)`",
              "hey, what's the final value of total after `total = {s}` and "
              "`for i in range({n}): total {op} i` in Python?"])
    return (fmt.format(s=start, n=n, op=a), fmt.format(s=start, n=n, op=b))


def co_js_eq():
    left, right = ch([("5", "'5'"), ("0", "''"), ("null", "undefined"),
                      ("1", "true"), ("'0'", "false"), ("[]", "''"),
                      ("42", "'42'")])
    fmt = ch(["In JavaScript, is `{l} {op} {r}` true or false?",
              "Quick JS question: what does `{l} {op} {r}` return?",
              "My linter flagged a comparison. In JavaScript, what does "
              "`{l} {op} {r}` evaluate to?"])
    return (fmt.format(l=left, r=right, op="=="),
            fmt.format(l=left, r=right, op="==="))


def co_is():
    lit = ch(["[1, 2]", "[3, 4, 5]", "[]", "{'a': 1}", "[0]", "{}",
              "[None]", "['x', 'y']"])
    a, b = ch([("==", "is"), ("!=", "is not")])
    fmt = ch(["In Python, does `{x} {op} {x}` return True?",
              "My teammate says `{x} {op} {x}` is True in Python. Is that "
              "right?"])
    return fmt.format(x=lit, op=a), fmt.format(x=lit, op=b)


def co_andor():
    left, right = ch([("True", "False"), ("0", "5"), ("[]", "'x'"),
                      ("None", "3"), ("''", "'abc'"), ("7", "0"),
                      ("'a'", "'b'")])
    fmt = ch(["What does `{l} {op} {r}` return in Python?",
              "Can you tell me the value of `result = {l} {op} {r}` in "
              "Python 3?"])
    return (fmt.format(l=left, r=right, op="and"),
            fmt.format(l=left, r=right, op="or"))


def co_bitwise():
    a_op, b_op = ch([("&", "|"), ("&", "^"), ("<<", ">>"), ("|", "^")])
    a = R.randint(5, 60)
    b = R.randint(1, 4) if a_op == "<<" else R.randint(3, 60)
    if a == b or eval("%d %s %d" % (a, a_op, b)) == eval("%d %s %d" % (a, b_op, b)):
        return None
    fmt = ch(["What is `{a} {op} {b}` in C?",
              "In Python, what's the result of `{a} {op} {b}`?",
              "I'm learning bit manipulation. What does `{a} {op} {b}` "
              "evaluate to in Java?"])
    return fmt.format(a=a, b=b, op=a_op), fmt.format(a=a, b=b, op=b_op)


def co_division():
    a = R.randint(7, 60)
    b = R.randint(2, 7)
    if a % b == 0:
        return None
    x, y = ch([("/", "//"), ("//", "%"), ("/", "%")])
    if eval("%d %s %d" % (a, x, b)) == eval("%d %s %d" % (a, y, b)):
        return None
    fmt = ch(["What does `{a} {op} {b}` give in Python 3?",
              "I'm splitting {a} items into groups of {b}. What does "
              "`{a} {op} {b}` return in Python?"])
    return fmt.format(a=a, b=b, op=x), fmt.format(a=a, b=b, op=y)


def co_loopcount():
    n = R.randint(3, 15)
    a, b = ch([("<", "<="), ("!=", "<=")])
    if maybe():
        fmt = ("`int i = 0; while (i {op} {n}) {{ i++; }}` in C: how many "
               "times does the loop body run?")
    else:
        fmt = ("I wrote `for (int i = 0; i {op} {n}; i++)` in Java. How many "
               "iterations is that?")
    return fmt.format(op=a, n=n), fmt.format(op=b, n=n)


def co_incr():
    x = R.randint(2, 20)
    a, b = ch([("x++", "++x"), ("x--", "--x")])
    if maybe():
        fmt = "In C, if `int x = {x}; int y = {e};` what is y?"
    else:
        fmt = "In JavaScript, after `let x = {x}; let y = {e};`, what's the value of y?"
    return fmt.format(x=x, e=a), fmt.format(x=x, e=b)


# ---------------------------------------------------------------- 2 regex_quantifier

def rx_plus_star():
    cls = ch(["[a-z]", r"\d", "[0-9]", "[A-Z]", "x", r"\w", "[aeiou]", "."])
    a, b = "^" + cls + "+$", "^" + cls + "*$"
    fmt = ch(["Does the regex `{p}` match an empty string?",
              "Will `re.fullmatch(r'{p}', '')` return a match in Python?",
              "I'm using `{p}` to validate a form field. Will it accept a "
              "blank input?"])
    return fmt.format(p=a), fmt.format(p=b)


def rx_range():
    cls = ch([r"\d", "[0-9]"])
    lo = R.randint(1, 4)
    hi = lo + R.randint(1, 3)
    if maybe():
        length = hi + 1
        a = "^%s{%d,%d}$" % (cls, lo, hi)
        b = "^%s{%d,%d}$" % (cls, lo, hi + 1)
    else:
        length = lo
        a = "^%s{%d,%d}$" % (cls, lo + 1, hi + 1)
        b = "^%s{%d,%d}$" % (cls, lo, hi + 1)
    s = "".join(str(R.randint(0, 9)) for _ in range(length))
    if bool(re.fullmatch(a, s)) == bool(re.fullmatch(b, s)):
        return None
    thing = ch(["PIN codes", "order numbers", "zip codes", "phone extensions",
                "invoice IDs"])
    fmt = ch(["Does `{p}` match the string '{s}'?",
              "I'm validating {t} with the regex `{p}`. Will it accept '{s}'?"])
    return fmt.format(p=a, s=s, t=thing), fmt.format(p=b, s=s, t=thing)


def rx_class_d_w():
    word = ch(["abc123", "user42", "x9", "hello7", "id_55", "A1B2",
               "order_9", "v2beta"])
    if maybe():
        a, b = r"^\d+$", r"^\w+$"
        fmt = ch(["Will `{p}` match '{w}'?",
                  "Does `re.fullmatch(r'{p}', '{w}')` find a match?"])
    else:
        a, b = r"\d", r"\w"
        fmt = "How many matches does `re.findall(r'{p}', '{w}')` return?"
    return fmt.format(p=a, w=word), fmt.format(p=b, w=word)


def rx_lazy():
    text, greedy, lazy = ch([
        ("<b>bold</b>", "<.+>", "<.+?>"),
        ("<i>x</i><i>y</i>", "<i>.*</i>", "<i>.*?</i>"),
        ('"a" and "b"', '".*"', '".*?"'),
        ("[1][2][3]", r"\[.+\]", r"\[.+?\]"),
        ("(a)(b)", r"\(.*\)", r"\(.*?\)"),
        ("<p>hi</p><p>yo</p>", "<p>.+</p>", "<p>.+?</p>")])
    fmt = ch(["What does `re.findall(r'{p}', '{t}')` return?",
              "In Python, what list do I get from re.findall with the "
              "pattern `{p}` on the text `{t}`?"])
    return fmt.format(p=greedy, t=text), fmt.format(p=lazy, t=text)


def rx_optional():
    pre, c, post = ch([("colo", "u", "r"), ("go", "o", "gle"),
                       ("cat", "s", ""), ("hel", "l", "o"),
                       ("ba", "n", "ana"), ("ap", "p", "le"),
                       ("yes", "s", "")])
    test = pre + c * 2 + post
    q2 = ch(["*", "+"])
    a = "^" + pre + c + "?" + post + "$"
    b = "^" + pre + c + q2 + post + "$"
    fmt = ch(["Does `{p}` match '{t}'?",
              "hey, would the regex `{p}` accept the misspelling '{t}'?"])
    return fmt.format(p=a, t=test), fmt.format(p=b, t=test)


def rx_exact_min():
    n = R.randint(2, 5)
    word = ch([w for w in ["banana", "kiwi", "melon", "apricot", "fig",
                           "cherry", "plum", "mango"] if len(w) > n])
    a = "^[a-z]{%d}$" % n
    b = "^[a-z]{%d,}$" % n
    fmt = ch(["Does `{p}` match '{w}'?",
              "I'm filtering a word list with `{p}`. Is '{w}' kept?"])
    return fmt.format(p=a, w=word), fmt.format(p=b, w=word)


def rx_case_class():
    word = ch(["Paris", "Hello", "Python", "London", "Monday", "Alice",
               "Berlin"])
    a, b = ch([("^[a-z]+$", "^[a-zA-Z]+$"), ("^[a-z]*$", "^[A-Za-z]*$")])
    fmt = ch(["Does `{p}` match '{w}'?",
              "I'm checking names with `{p}`. Would '{w}' pass?"])
    return fmt.format(p=a, w=word), fmt.format(p=b, w=word)


def rx_space():
    s = ch(["hello world", "a b c", "one two three four", "x  y",
            "New York City", "tab and space"])
    a, b = r"\s", r"\S"
    if len(re.findall(a, s)) == len(re.findall(b, s)):
        return None
    fmt = ch(["How many matches does `re.findall(r'{p}', '{s}')` return?",
              "What is `len(re.findall(r'{p}', '{s}'))` in Python?"])
    return fmt.format(p=a, s=s), fmt.format(p=b, s=s)


# ---------------------------------------------------------------- 3 sql_condition

COL_NUMS = {"salary": [30000, 50000, 80000], "age": [18, 30, 65],
            "years_of_service": [2, 5, 10], "total": [50, 100, 500],
            "quantity": [1, 5, 10], "discount": [0, 10, 25], "price": [10, 50, 100],
            "stock": [0, 5, 20], "rating": [3, 4], "grade": [50, 70, 90],
            "absences": [0, 3, 10], "loyalty_points": [100, 500, 1000],
            "lifetime_value": [100, 1000, 5000], "amount": [100, 1000, 5000],
            "tax": [0, 50, 200], "days_overdue": [0, 30, 90]}

OP_WORDS = {">": "greater than", "<": "less than", ">=": "at least",
            "<=": "at most", "=": "equal to", "<>": "not equal to"}


def sql_compare():
    t = ch(list(TABLES))
    col = ch(TABLES[t]["num"])
    n = ch(COL_NUMS[col])
    a, b = ch([(">", ">="), ("<", "<="), (">", "<"), ("=", "<>")])
    if maybe():
        fmt = "Write a SQL query that selects all rows from {t} where {c} is {w} {n}."
        return (fmt.format(t=t, c=col, w=OP_WORDS[a], n=n),
                fmt.format(t=t, c=col, w=OP_WORDS[b], n=n))
    fmt = "Can you explain what `SELECT * FROM {t} WHERE {c} {op} {n};` returns?"
    return fmt.format(t=t, c=col, op=a, n=n), fmt.format(t=t, c=col, op=b, n=n)


def sql_aggregate():
    t = ch(list(TABLES))
    col = ch(TABLES[t]["num"])
    cat = ch(TABLES[t]["cat"])
    if maybe():
        a, b = two(["average", "maximum", "minimum", "total"])
        by = ch(["", " for each " + cat])
        fmt = "How do I get the {agg} {c} from the {t} table{by}?"
        return (fmt.format(agg=a, c=col, t=t, by=by),
                fmt.format(agg=b, c=col, t=t, by=by))
    a, b = two(["AVG", "MAX", "MIN", "SUM"])
    fmt = "What does `SELECT {k}, {agg}({c}) FROM {t} GROUP BY {k};` compute?"
    return (fmt.format(k=cat, agg=a, c=col, t=t),
            fmt.format(k=cat, agg=b, c=col, t=t))


def sql_groupby():
    t = ch(list(TABLES))
    a, b = two(TABLES[t]["cat"])
    fmt = ch(["Write SQL that counts the rows in {t} grouped by {c}.",
              "I need a report from my {t} table: how many records are there "
              "per {c}? What's the query?"])
    return fmt.format(t=t, c=a), fmt.format(t=t, c=b)


def sql_null():
    t = ch(list(TABLES))
    c = ch(TABLES[t]["cat"])
    if maybe():
        fmt = ("My {t} table has a nullable {c} column. How do I select the "
               "rows where {c} {cond}?")
        return (fmt.format(t=t, c=c, cond="is NULL"),
                fmt.format(t=t, c=c, cond="is not NULL"))
    fmt = ("Does `SELECT COUNT(*) FROM {t} WHERE {c} {cond};` count the rows "
           "with a missing {c}?")
    return (fmt.format(t=t, c=c, cond="IS NULL"),
            fmt.format(t=t, c=c, cond="IS NOT NULL"))


def sql_order():
    t = ch(list(TABLES))
    col = ch(TABLES[t]["num"])
    k = ch([1, 3, 5, 10, 20])
    fmt = ch(["What does `SELECT * FROM {t} ORDER BY {c} {d} LIMIT {k};` return?",
              "My dashboard runs `SELECT * FROM {t} ORDER BY {c} {d} LIMIT {k}`. "
              "Which rows does it show?"])
    return fmt.format(t=t, c=col, d="DESC", k=k), fmt.format(t=t, c=col, d="ASC", k=k)


def sql_having():
    t = ch(list(TABLES))
    cat = ch(TABLES[t]["cat"])
    n = ch([1, 2, 5, 10, 100])
    a, b = ch([(">", "<"), (">", ">="), ("=", ">")])
    fmt = ch(["Explain this query: `SELECT {k}, COUNT(*) FROM {t} GROUP BY {k} "
              "HAVING COUNT(*) {op} {n}`",
              "In plain words, which groups does `SELECT {k}, COUNT(*) FROM {t} "
              "GROUP BY {k} HAVING COUNT(*) {op} {n}` keep?"])
    return fmt.format(k=cat, t=t, op=a, n=n), fmt.format(k=cat, t=t, op=b, n=n)


def sql_date():
    t = ch(list(TABLES))
    d = TABLES[t]["date"]
    y = R.randint(2015, 2023)
    a, b = ch([("before", "in"), ("after", "before"), ("in", "since")])
    fmt = ch(["Write a query to find all {t} with a {d} {w} {y}.",
              "I'm cleaning up our database. What SQL returns the {t} whose "
              "{d} is {w} {y}?"])
    return fmt.format(t=t, d=d, w=a, y=y), fmt.format(t=t, d=d, w=b, y=y)


# ---------------------------------------------------------------- 4 answer_length

ACTIVITIES = ["sleeping better", "learning Spanish", "running a first marathon",
              "saving money on groceries", "staying focused while working "
              "from home", "growing tomatoes on a balcony", "public speaking",
              "writing a cover letter", "keeping houseplants alive"]


def al_summary():
    book = ch(BOOKS)
    a, b = ch([("one sentence", "one paragraph"),
               ("one sentence", "three sentences"),
               ("10 words", "100 words"), ("a single tweet", "a full page")])
    fmt = ch(["Summarize the plot of {b} in {l}.",
              "I didn't finish {b} for book club tonight. Can you sum up the "
              "plot in {l}?"])
    return fmt.format(b=book, l=a), fmt.format(b=book, l=b)


def al_tips():
    act = ch(ACTIVITIES)
    a, b = two([3, 5, 7, 10])
    fmt = ch(["Give me {n} tips for {a}.",
              "what are your top {n} tips for {a}?"])
    return fmt.format(n=a, a=act), fmt.format(n=b, a=act)


def al_describe():
    city = ch(CITIES)
    a, b = ch([(50, 200), (30, 300), (100, 500), (25, 150)])
    fmt = ch(["Describe {c} in under {n} words.",
              "I'm writing a travel blog. Can you describe {c} in at most {n} words?"])
    return fmt.format(c=city, n=a), fmt.format(c=city, n=b)


def al_oneword():
    q = ch(["what causes the tides?", "why is the sky blue?",
            "what makes bread rise?", "why do leaves change color in autumn?",
            "what powers the Sun?", "why does ice float on water?"])
    a, b = ch([("in one word", "in one sentence"),
               ("in one word", "in a short paragraph"),
               ("in one sentence", "in detail")])
    fmt = ch(["Answer {l}: {q}", "{Q} Please answer {l}."])
    return (fmt.format(l=a, q=q, Q=q[0].upper() + q[1:]),
            fmt.format(l=b, q=q, Q=q[0].upper() + q[1:]))


def al_speech():
    rel = ch(["brother", "sister", "best friend", "cousin", "college roommate"])
    a, b = two([1, 2, 5, 10])
    fmt = ch(["I need a {n}-minute speech for my {r}'s wedding. Can you draft it?",
              "I'm the best man at my {r}'s wedding next month and I'm nervous. "
              "Could you write me a {n}-minute toast?"])
    return fmt.format(n=a, r=rel), fmt.format(n=b, r=rel)


def al_facts():
    el = ch(ELEMENTS)
    a, b = two([2, 3, 5, 10])
    fmt = ch(["List {n} facts about {e}.",
              "My kid has a science project on {e}. Can you give us {n} "
              "interesting facts about it?"])
    return fmt.format(n=a, e=el), fmt.format(n=b, e=el)


def al_poem():
    topic = ch(["autumn", "the ocean", "my cat", "a rainy Monday", "coffee",
                "the city at night"])
    a, b = ch([(4, 12), (2, 8), (6, 20), (4, 16)])
    fmt = ch(["Write a {n}-line poem about {t}.",
              "can u write me a {n} line poem about {t}"])
    return fmt.format(n=a, t=topic), fmt.format(n=b, t=topic)


def al_bullets():
    topic = ch(TOPICS)
    a, b = two([3, 4, 6, 8])
    fmt = ("I'm preparing a short talk on {t} for my team. Can you give me an "
           "outline with {n} bullet points?")
    return fmt.format(t=topic, n=a), fmt.format(t=topic, n=b)


# ---------------------------------------------------------------- 5 format_language_audience_tone

def fm_table():
    x, y = two(PROG_LANGS)
    a, b = ch([("in a table", "as a bulleted list"),
               ("in a table", "as a short essay"),
               ("as a numbered list", "in a two-column table")])
    fmt = ch(["Compare {x} and {y} {f}.",
              "I'm choosing a language for a new backend. Compare {x} and {y} "
              "for me {f}, please."])
    return fmt.format(x=x, y=y, f=a), fmt.format(x=x, y=y, f=b)


def fm_language():
    concept = ch(CONCEPTS)
    a, b = two(HUMAN_LANGS)
    fmt = ch(["Explain {c}. Please answer in {l}.",
              "I'm practicing my {l}. Can you explain {c} to me in {l}?"])
    return fmt.format(c=concept, l=a), fmt.format(c=concept, l=b)


def fm_audience():
    concept = ch(CONCEPTS)
    a, b = two(["a five-year-old", "a high school student", "an expert",
                "a senior software engineer", "my grandmother",
                "a university professor"])
    fmt = ch(["Explain {c} to {a}.", "How would you explain {c} to {a}?"])
    return fmt.format(c=concept, a=a), fmt.format(c=concept, a=b)


def fm_tone():
    rel = ch(["boss", "landlord", "coworker", "professor", "client"])
    day = ch(DAYS)
    a, b = ch([("formal", "casual"), ("polite", "blunt"),
               ("friendly", "strictly professional"), ("apologetic", "firm")])
    fmt = ch(["Write a {t} email to my {r} asking to move our meeting to {d}.",
              "Something came up and I can't make our meeting. Draft a {t} "
              "message to my {r} asking to move it to {d}."])
    return fmt.format(t=a, r=rel, d=day), fmt.format(t=b, r=rel, d=day)


def fm_data():
    k = ch([3, 5, 10])
    what = ch(["most populous countries", "largest cities in Europe",
               "longest rivers in the world", "tallest mountains in Asia",
               "biggest tech companies by revenue"])
    a, b = two(["JSON", "YAML", "CSV", "a Markdown table", "XML"])
    fmt = ch(["Give me the {k} {w} as {f}.",
              "I need data for a test fixture: list the {k} {w}, formatted as {f}."])
    return fmt.format(k=k, w=what, f=a), fmt.format(k=k, w=what, f=b)


def fm_convert():
    name = ch(["api", "worker", "billing", "auth-service", "frontend"])
    port = ch([8080, 3000, 5000, 9000])
    a, b = two(["YAML", "TOML", "XML", "an INI file"])
    fmt = 'Convert this config to {f}: `{{"name": "{n}", "port": {p}, "debug": false}}`'
    return fmt.format(f=a, n=name, p=port), fmt.format(f=b, n=name, p=port)


def fm_translate():
    phrase = ch(["good morning, how are you?", "where is the train station?",
                 "I would like a coffee, please", "thank you for your help",
                 "see you tomorrow"])
    a, b = two(HUMAN_LANGS)
    fmt = ch(["Translate '{p}' into {l}.",
              "I'm traveling next week. How do I say '{p}' in {l}?"])
    return fmt.format(p=phrase, l=a), fmt.format(p=phrase, l=b)


# ---------------------------------------------------------------- 6 numbers_units_dates

WORLD_CUP = {1966: "England", 1970: "Brazil", 1974: "West Germany",
             1978: "Argentina", 1982: "Italy", 1986: "Argentina",
             1990: "West Germany", 1994: "Brazil", 1998: "France",
             2002: "Brazil", 2006: "Italy", 2010: "Spain", 2014: "Germany",
             2018: "France", 2022: "Argentina"}
PRESIDENT = {1962: "Kennedy", 1966: "L. Johnson", 1972: "Nixon",
             1976: "Ford", 1979: "Carter", 1985: "Reagan",
             1991: "G. H. W. Bush", 1996: "Clinton", 2004: "G. W. Bush",
             2012: "Obama", 2018: "Trump", 2022: "Biden"}


def nu_walk():
    n = ch([3, 5, 8, 10, 15, 21])
    a, b = ch([("km", "miles"), ("kilometers", "miles")])
    fmt = ch(["How long does it take to walk {n} {u}?",
              "I'm training for a charity hike. How many calories do I burn "
              "walking {n} {u}?"])
    return fmt.format(n=n, u=a), fmt.format(n=n, u=b)


def nu_kelvin():
    n = ch([20, 25, 30, 37, 100, 0, 50])
    fmt = ch(["Convert {n} {u} to Kelvin.",
              "What is {n} {u} in Kelvin?"])
    return fmt.format(n=n, u="°C"), fmt.format(n=n, u="°F")


def nu_worldcup():
    while True:
        y1, y2 = two(list(WORLD_CUP))
        if WORLD_CUP[y1] != WORLD_CUP[y2]:
            break
    fmt = ch(["Who won the {y} FIFA World Cup?",
              "My dad keeps talking about the {y} World Cup final. Who won it?"])
    return fmt.format(y=y1), fmt.format(y=y2)


def nu_president():
    y1, y2 = two(list(PRESIDENT))
    fmt = ch(["Who was the US president in {y}?",
              "I'm reading old newspapers from {y}. Who was president of the "
              "United States then?"])
    return fmt.format(y=y1), fmt.format(y=y2)


def nu_tip():
    amt = ch([42, 58, 75, 86, 120, 64])
    a, b = two([10, 15, 18, 20, 25])
    fmt = ch(["What's a {p}% tip on a ${a} bill?",
              "Dinner came to ${a}. How much is a {p}% tip?"])
    return fmt.format(p=a, a=amt), fmt.format(p=b, a=amt)


def nu_age():
    y1, y2 = two(list(range(1970, 2006)))
    fmt = ch(["I was born in {y}. How old will I turn in 2030?",
              "born in {y} here - what age do i hit in 2030?"])
    return fmt.format(y=y1), fmt.format(y=y2)


def nu_weekday():
    m = R.randint(1, 12)
    d = R.randint(1, 28)
    fmt = ch(["What day of the week was {d} {m} {y}?",
              "My grandmother was born on {m} {d}, {y}. Which weekday was that?"])
    y1, y2 = two(list(range(1925, 1961)) if "grandmother" in fmt else list(range(1950, 2024)))
    if (datetime.date(y1, m, d).weekday() == datetime.date(y2, m, d).weekday()):
        return None
    return (fmt.format(d=d, m=MONTHS[m - 1], y=y1),
            fmt.format(d=d, m=MONTHS[m - 1], y=y2))


def nu_calories():
    food = ch(["cooked rice", "chicken breast", "almonds", "oats", "cheddar",
               "avocado", "salmon"])
    a, b = two([30, 50, 100, 150, 200, 250])
    fmt = ch(["How many calories are in {n} g of {f}?",
              "I'm tracking macros. How much protein is in {n} grams of {f}?"])
    return fmt.format(n=a, f=food), fmt.format(n=b, f=food)


def nu_currency():
    n = ch([50, 100, 250, 1000])
    a, b = two(["US dollars", "euros", "British pounds", "Swiss francs",
                "Canadian dollars"])
    fmt = ch(["How much is {n} {c} in Japanese yen?",
              "I'm flying to Tokyo next week with {n} {c} in cash. Roughly how "
              "many yen is that?"])
    return fmt.format(n=n, c=a), fmt.format(n=n, c=b)


def nu_recipe():
    n = ch([2, 3, 1.5, 4])
    ing = ch(["flour", "sugar", "rolled oats", "rice"])
    a, b = ch([("cups", "tablespoons"), ("cups", "ounces")])
    fmt = ("My recipe calls for {n} {u} of {i} but I only have a kitchen scale. "
           "How many grams is that?")
    return fmt.format(n=n, u=a, i=ing), fmt.format(n=n, u=b, i=ing)


# ---------------------------------------------------------------- 7 quoted_url_identifier

def qi_version():
    prod, vers = ch([("Python", ["3.8", "3.9", "3.10", "3.11", "3.12"]),
                     ("Node.js", ["16", "18", "20", "22"]),
                     ("Java", ["11", "17", "21"]),
                     ("Django", ["3.2", "4.2", "5.0"]),
                     ("PostgreSQL", ["14", "15", "16"])])
    a, b = two(vers)
    fmt = ch(["What's new in {p} {v}?",
              "We're upgrading at work. What are the main changes in {p} {v}?"])
    return fmt.format(p=prod, v=a), fmt.format(p=prod, v=b)


def qi_file():
    proj, files = ch([("Node.js", ["package.json", "package-lock.json", ".npmrc",
                                   "tsconfig.json"]),
                      ("Python", ["requirements.txt", "setup.py",
                                  "pyproject.toml", "setup.cfg", "tox.ini"]),
                      ("Docker", ["Dockerfile", "docker-compose.yml",
                                  ".dockerignore"]),
                      ("git", [".gitignore", ".gitattributes", ".gitmodules"])])
    a, b = two(files)
    fmt = ch(["What is the `{f}` file for in a {p} project?",
              "I cloned a {p} repo and there's a file called `{f}`. What does it do?"])
    return fmt.format(f=a, p=proj), fmt.format(f=b, p=proj)


def qi_error():
    if maybe():
        a, b = two(["ENOENT", "EACCES", "EADDRINUSE", "ECONNREFUSED", "EPIPE",
                    "ENOSPC"])
        fmt = "What does the `{e}` error mean on Linux?"
    else:
        a, b = two(["KeyError", "IndexError", "ValueError", "TypeError",
                    "AttributeError", "ZeroDivisionError"])
        fmt = "My Python script keeps raising `{e}`. What usually causes it?"
    return fmt.format(e=a), fmt.format(e=b)


def _vowels(w):
    return sum(1 for c in w.lower() if c in "aeiou")


def qi_word():
    words = ["strength", "queueing", "rhythm", "education", "banana",
             "encyclopedia", "sky", "onomatopoeia", "facetious", "crypt"]
    a, b = two(words)
    if maybe():
        if _vowels(a) == _vowels(b):
            return None
        fmt = "How many vowels are in the word '{w}'?"
    else:
        if len(a) == len(b):
            return None
        fmt = "How many letters does '{w}' have?"
    return fmt.format(w=a), fmt.format(w=b)


def qi_url():
    dom = ch(["example.org", "intranet.local", "shop.example.com",
              "api.example.net"])
    a, b = ch([("http", "https"), ("ftp", "https"), ("http", "ftp")])
    fmt = ch(["What port does a client connect to for '{s}://{d}'?",
              "Our firewall only allows a few ports. Which port is used by "
              "'{s}://{d}' by default?"])
    return fmt.format(s=a, d=dom), fmt.format(s=b, d=dom)


def qi_iso():
    a, b = two(["CHF", "CNY", "CAD", "CZK", "SEK", "SGD", "ZAR", "NZD", "HUF",
                "DKK"])
    fmt = ch(["What currency has the ISO code '{c}'?",
              "My bank statement shows a charge in '{c}'. Which currency is that?"])
    return fmt.format(c=a), fmt.format(c=b)


def qi_phrase():
    a, b = two(["je ne sais pas", "bon appétit", "c'est la vie", "à bientôt",
                "déjà vu", "n'importe quoi", "ça va"])
    fmt = ch(["What does '{p}' mean in English?",
              "A French colleague wrote '{p}' in the chat. What does it mean?"])
    return fmt.format(p=a), fmt.format(p=b)


def qi_flag():
    cmd, flags = ch([("ls", ["-l", "-a", "-h", "-t", "-R"]),
                     ("rm", ["-r", "-f", "-i"]),
                     ("grep", ["-i", "-v", "-c", "-n", "-r"]),
                     ("tar", ["-x", "-c", "-t"]),
                     ("git log", ["--oneline", "--graph", "--stat"])])
    a, b = two(flags)
    fmt = ch(["What does `{c} {f}` do?",
              "I saw `{c} {f}` in a tutorial. What does that flag do?"])
    return fmt.format(c=cmd, f=a), fmt.format(c=cmd, f=b)


def qi_html():
    a, b = two(["<ol>", "<ul>", "<th>", "<td>", "<section>", "<aside>",
                "<iframe>", "<canvas>", "<pre>", "<dl>"])
    fmt = ch(["What does the HTML tag `{t}` do?",
              "Building my first web page. When should I use `{t}`?"])
    return fmt.format(t=a), fmt.format(t=b)


# ---------------------------------------------------------------- 8 direction_roles

BATTLES = [("the Duke of Wellington", "Napoleon", "Waterloo"),
           ("Alexander the Great", "Darius III", "Gaugamela"),
           ("William of Normandy", "Harold Godwinson", "Hastings"),
           ("Hannibal", "the Romans", "Cannae"),
           ("the Greeks", "the Persians", "Salamis"),
           ("the English", "the French", "Agincourt"),
           ("the Union", "the Confederacy", "Gettysburg")]
TRIBUTARIES = [("Missouri", "Mississippi"), ("Ohio", "Mississippi"),
               ("Moselle", "Rhine"), ("Main", "Rhine"), ("Inn", "Danube"),
               ("Saône", "Rhône"), ("Madeira", "Amazon"), ("Yamuna", "Ganges"),
               ("Ottawa", "St. Lawrence"), ("Sava", "Danube"), ("Oka", "Volga")]
FOUNDED = [("Microsoft", "Apple"), ("Google", "Facebook"), ("Amazon", "Google"),
           ("Nintendo", "Sony"), ("IBM", "Intel"), ("Toyota", "Honda"),
           ("Coca-Cola", "Pepsi"), ("Apple", "Amazon"), ("Intel", "Microsoft")]
SUBSETS = [("square", "rectangle"), ("integer", "rational number"),
           ("dog", "mammal"), ("penguin", "bird"), ("oak", "tree"),
           ("equilateral triangle", "isosceles triangle"),
           ("prime number", "natural number"), ("square", "rhombus")]


EURO_CITIES = ["Paris", "Rome", "Berlin", "Madrid", "Lisbon", "Vienna", "Prague",
               "Amsterdam", "Barcelona", "Copenhagen", "Munich", "Milan",
               "Brussels", "Zurich", "Budapest", "Lyon"]


def dr_train():
    a, b = two(EURO_CITIES)
    fmt = ch(["Find me a train from {a} to {b} tomorrow morning.",
              "I need to get from {a} to {b} this weekend. Which flights "
              "are the cheapest?",
              "How do I take a bus from {a} to {b}?"])
    return fmt.format(a=a, b=b), fmt.format(a=b, b=a)


def dr_currency():
    n = ch([20, 100, 250, 1500])
    a, b = two(["USD", "EUR", "GBP", "JPY", "CHF", "INR", "BRL"])
    fmt = ch(["Convert {n} {a} to {b}.",
              "how much is {n} {a} in {b} right now?"])
    return fmt.format(n=n, a=a, b=b), fmt.format(n=n, a=b, b=a)


def dr_battle():
    w, l, place = ch(BATTLES)
    fmt = ch(["Did {a} defeat {b} at the Battle of {p}?",
              "My history teacher said {a} beat {b} at {p}. Is that true?"])
    return fmt.format(a=w, b=l, p=place), fmt.format(a=l, b=w, p=place)


def dr_north():
    while True:
        a, b = two(list(LATITUDE))
        if abs(LATITUDE[a] - LATITUDE[b]) >= 2:
            break
    fmt = ch(["Is {a} north of {b}?", "Is {a} further north than {b}?"])
    return fmt.format(a=a, b=b), fmt.format(a=b, b=a)


def dr_river():
    a, b = ch(TRIBUTARIES)
    fmt = ch(["Does the {a} flow into the {b}?",
              "Is the {a} a tributary of the {b}?"])
    return fmt.format(a=a, b=b), fmt.format(a=b, b=a)


def dr_founded():
    a, b = ch(FOUNDED)
    fmt = ch(["Was {a} founded before {b}?", "Is {a} an older company than {b}?"])
    return fmt.format(a=a, b=b), fmt.format(a=b, b=a)


def dr_subset():
    a, b = ch(SUBSETS)
    fmt = ch(["Is every {a} {b}?",
              "My son asked me this for homework: is every {a} also {b}?"])
    return fmt.format(a=a, b=art(b)), fmt.format(a=b, b=art(a))


def dr_transfer():
    a, b = ch([("PayPal account", "bank account"),
               ("savings account", "checking account"),
               ("Revolut account", "Wise account"),
               ("Venmo balance", "debit card")])
    fmt = ch(["How do I move money from my {a} to my {b}?",
              "I need the cash by Friday. What's the fastest way to transfer "
              "money from my {a} to my {b}?"])
    return fmt.format(a=a, b=b), fmt.format(a=b, b=a)


# ---------------------------------------------------------------- 9 negation

def ne_car():
    ap = ch(AIRPORTS)
    fmt = ch(["I {h} a car. What's the best way to get from {ap} to the city center?",
              "Landing at {ap} tomorrow night and I {h} a car there. How should "
              "I get downtown?"])
    return fmt.format(h="have", ap=ap), fmt.format(h="don't have", ap=ap)


def ne_allergy():
    al, dish = ch([("peanuts", "pad thai"), ("shellfish", "paella"),
                   ("dairy", "tiramisu"), ("eggs", "carbonara"),
                   ("tree nuts", "pesto"), ("sesame", "hummus"),
                   ("wheat", "ramen")])
    fmt = ch(["I'm {n}allergic to {a}. Is it safe for me to eat {d}?",
              "We're going out for dinner and I'm {n}allergic to {a}. Should I "
              "order the {d}?"])
    return fmt.format(n="", a=al, d=dish), fmt.format(n="not ", a=al, d=dish)


WHICH_NEG = [("Which planets in our solar system have rings?",
              "Which planets in our solar system don't have rings?"),
             ("Which EU countries use the euro?",
              "Which EU countries do not use the euro?"),
             ("Which US states observe daylight saving time?",
              "Which US states do not observe daylight saving time?"),
             ("Which G7 countries drive on the left?",
              "Which G7 countries don't drive on the left?"),
             ("Which noble gases are radioactive?",
              "Which noble gases are not radioactive?"),
             ("Which of the Great Lakes border Canada?",
              "Which of the Great Lakes don't border Canada?"),
             ("Which Scandinavian countries use the euro?",
              "Which Scandinavian countries don't use the euro?"),
             ("Which planets have a solid surface?",
              "Which planets don't have a solid surface?")]


def ne_which():
    return ch(WHICH_NEG)


def ne_warranty():
    item, prob = ch([("laptop", "the screen cracked"),
                     ("phone", "the battery is swelling"),
                     ("dishwasher", "it's leaking onto the floor"),
                     ("car", "the transmission is slipping"),
                     ("TV", "half the screen went black")])
    fmt = "My {i} is {n}under warranty and {p}. What should I do?"
    return fmt.format(i=item, n="", p=prob), fmt.format(i=item, n="not ", p=prob)


def ne_backup():
    dev = ch(["iPhone", "Android phone", "MacBook", "Windows laptop", "iPad"])
    fmt = ch(["I {h} backed up my {d}. Is it okay to factory reset it now?",
              "Selling my {d} tomorrow. I {h} backed it up. Can I wipe it now?"])
    return fmt.format(h="have", d=dev), fmt.format(h="haven't", d=dev)


def ne_contains():
    cat, x = ch([("snacks", "gluten"), ("cheeses", "lactose"),
                 ("drinks", "caffeine"), ("breakfast cereals", "added sugar"),
                 ("sauces", "soy"), ("desserts", "eggs")])
    n = ch(["three", "five", "ten"])
    fmt = ch(["List {n} {c} that {v} {x}.",
              "I'm planning a party menu. Can you suggest {n} {c} that {v} {x}?"])
    return fmt.format(n=n, c=cat, v="contain", x=x), fmt.format(n=n, c=cat, v="don't contain", x=x)


def ne_compiles():
    lang = ch(PROG_LANGS)
    fmt = ch(["My {l} code {v} and the tests fail. Where should I start looking?",
              "ugh, my {l} project {v} and CI is red. what should i check first?"])
    return fmt.format(l=lang, v="compiles"), fmt.format(l=lang, v="doesn't compile")


def ne_swim():
    place = ch(["Bali", "the Great Barrier Reef", "Cozumel", "the Red Sea",
                "the Maldives"])
    fmt = "I {c} swim. Is snorkeling in {p} a good idea for my vacation?"
    return fmt.format(c="can", p=place), fmt.format(c="can't", p=place)


def ne_sql():
    days = ch([7, 30, 90])
    fmt = ch(["Write a query that finds customers who {v} placed an order in "
              "the last {d} days.",
              "For a marketing email I need all users who {v} logged in during "
              "the past {d} days. What's the SQL?"])
    return fmt.format(v="have", d=days), fmt.format(v="have not", d=days)


# ---------------------------------------------------------------- 10 antonym_or_opposite

def an_font():
    a, b = ch([("increase", "decrease"), ("enlarge", "shrink")])
    app = ch(APPS)
    fmt = ch(["How do I {v} the font size in {a}?",
              "I'm giving a demo in {a} tomorrow. How do I {v} the font size?"])
    return fmt.format(v=a, a=app), fmt.format(v=b, a=app)


def an_trade():
    c = ch(COUNTRIES)
    fmt = ch(["What does {c} mainly {v}?", "Which goods does {c} {v} the most?"])
    return fmt.format(c=c, v="import"), fmt.format(c=c, v="export")


def an_meal():
    act = ch(["a long run", "a swim", "a heavy leg workout", "a big exam",
              "a blood donation"])
    fmt = ch(["What should I eat {w} {a}?",
              "I never know what to eat {w} {a}. Any suggestions?"])
    return fmt.format(w="before", a=act), fmt.format(w="after", a=act)


def an_price():
    city = ch(CITIES)
    a, b = ch([("cheapest", "most expensive"), ("cheapest", "priciest")])
    fmt = ch(["What's the {w} neighborhood to rent an apartment in {c}?",
              "What is the {w} month to fly to {c}?"])
    return fmt.format(w=a, c=city), fmt.format(w=b, c=city)


def an_geo():
    if maybe():
        c = ch(COUNTRIES)
        fmt = "What's the {w} point in {c}?"
        a, b = "highest", "lowest"
    else:
        c = ch(CITIES)
        fmt = "What's the {w} month of the year in {c}?"
        a, b = ch([("hottest", "coldest"), ("wettest", "driest")])
    return fmt.format(w=a, c=c), fmt.format(w=b, c=c)


def an_book():
    t = ch(TOPICS)
    a, b = ch([("beginner", "advanced"), ("introductory", "graduate-level")])
    fmt = ch(["Can you recommend {w} book on {t}?",
              "I want to get into {t}. Can you suggest {w} book?"])
    return fmt.format(w=art(a), t=t), fmt.format(w=art(b), t=t)


def an_file():
    tool, a, b = ch([("GPG", "encrypt", "decrypt"),
                     ("OpenSSL", "encrypt", "decrypt"),
                     ("gzip", "compress", "decompress"),
                     ("7-Zip", "compress", "extract")])
    fmt = "How do I {v} a file with {t} on the command line?"
    return fmt.format(v=a, t=tool), fmt.format(v=b, t=tool)


def an_weight():
    n = ch([3, 5, 8, 10])
    ev = ch(["my wedding", "the summer", "a bodybuilding show", "ski season"])
    fmt = "I want to {v} {n} kg before {e}. What should I change in my diet?"
    return fmt.format(v="gain", n=n, e=ev), fmt.format(v="lose", n=n, e=ev)


def an_dynasty():
    d = ch(["the Ming dynasty", "the Western Roman Empire", "the Qing dynasty",
            "the Byzantine Empire", "the Holy Roman Empire", "the Mughal Empire"])
    fmt = ch(["Who was the {w} emperor of {d}?", "Who was {d}'s {w} emperor?"])
    return fmt.format(w="first", d=d), fmt.format(w="last", d=d)


def an_sort():
    lang = ch(["Python", "JavaScript", "Java", "Go", "Ruby"])
    key = ch(["price", "date", "name", "score"])
    fmt = "How do I sort a list of records by '{k}' in {l} in {w} order?"
    return fmt.format(k=key, l=lang, w="ascending"), fmt.format(k=key, l=lang, w="descending")


def an_symptom():
    thing = ch(["blood pressure", "blood sugar", "potassium", "iron",
                "thyroid hormone"])
    fmt = ch(["What are the symptoms of {w} {t}?",
              "My doctor mentioned my {t} might be too {w}. What symptoms "
              "should I watch for?"])
    return fmt.format(w="high", t=thing), fmt.format(w="low", t=thing)


def an_soak():
    part = ch(["sprained ankle", "swollen knee", "sore wrist", "stiff neck"])
    fmt = "Should I put my {p} in {w} water?"
    return fmt.format(p=part, w="warm"), fmt.format(p=part, w="cold")


def an_offer():
    co = ch(COMPANIES)
    fmt = ch(["How do I politely {v} a job offer from {c}?",
              "I got an offer from {c} yesterday. Can you help me write an "
              "email to {v} it?"])
    return fmt.format(v="accept", c=co), fmt.format(v="decline", c=co)


def an_video():
    player = ch(["VLC", "YouTube", "QuickTime", "Premiere Pro", "Netflix"])
    fmt = "How do I {v} a video in {p}?"
    return fmt.format(v="speed up", p=player), fmt.format(v="slow down", p=player)


def an_extreme():
    c = ch(COUNTRIES)
    fmt = ch(["What's the {w} city in {c}?",
              "Which town is the {w} in {c}?"])
    return fmt.format(w="northernmost", c=c), fmt.format(w="southernmost", c=c)


# ---------------------------------------------------------------- 11 person_or_owner

def pe_pay():
    r, thing = ch([("landlord", "the broken water heater"),
                   ("roommate", "the whole internet bill"),
                   ("neighbor", "the new fence between our yards"),
                   ("boss", "the repair of my work laptop"),
                   ("sister", "mom's birthday dinner"),
                   ("ex", "the vet bills for our dog"),
                   ("coworker", "the team lunch")])
    s = "My {r} wants me to pay for {t}. Is that fair?".format(r=r, t=thing)
    q = "I want my {r} to pay for {t}. Is that fair?".format(r=r, t=thing)
    return s, q


KIN_PAIRS = [("mother", "brother"), ("father", "sister"), ("sister", "son"),
             ("brother", "daughter"), ("mother", "father"), ("aunt", "son"),
             ("uncle", "daughter"), ("husband", "mother"),
             ("grandmother", "son"), ("sister", "husband"),
             ("wife", "brother")]


def pe_kin():
    a, b = ch(KIN_PAIRS)
    fmt = ch(["What do you call my {a}'s {b}?", "How am I related to my {a}'s {b}?"])
    return fmt.format(a=a, b=b), fmt.format(a=b, b=a)


def pe_gift():
    a, b = two(["son", "teacher", "boss", "sister", "neighbor", "landlord",
                "coworker", "daughter", "doctor"])
    fmt = ch(["What's a good birthday present for my {a}'s {b}?",
              "I'm invited to a party for my {a}'s {b} on {d}. What gift should I bring?"])
    d = ch(DAYS)
    return fmt.format(a=a, b=b, d=d), fmt.format(a=b, b=a, d=d)


def pe_broke():
    r = ch(RELS)
    item = ch(["bike", "camera", "laptop", "car", "drone", "guitar"])
    s = "My {r} borrowed my {i} and broke it. Who should pay for the repair?".format(r=r, i=item)
    q = "I borrowed my {r}'s {i} and broke it. Who should pay for the repair?".format(r=r, i=item)
    return s, q


def pe_wedding():
    r = ch(["cousin", "brother", "sister", "best friend", "coworker", "uncle"])
    s = "Is it rude that my {r} didn't invite me to the wedding?".format(r=r)
    q = "Is it rude that I didn't invite my {r} to the wedding?".format(r=r)
    return s, q


def pe_birthday():
    r = ch(RELS)
    s = "My {r} forgot my birthday. How should I bring it up?".format(r=r)
    q = "I forgot my {r}'s birthday. How should I bring it up?".format(r=r)
    return s, q


def pe_read():
    r, x = ch([("employer", "work emails"), ("parent", "text messages"),
               ("spouse", "private messages"), ("roommate", "mail"),
               ("landlord", "packages")])
    s = "Is it legal for my {r} to open my {x}?".format(r=r, x=x)
    q = "Is it legal for me to open my {r}'s {x}?".format(r=r, x=x)
    return s, q


def pe_tax():
    r = ch(["brother", "mother", "cousin", "business partner", "aunt"])
    asset = ch(["car", "shares", "vacation house", "vintage guitar", "land"])
    s = "My {r} sold my {a} last year. Who has to pay tax on the profit?".format(r=r, a=asset)
    q = "I sold my {r}'s {a} last year. Who has to pay tax on the profit?".format(r=r, a=asset)
    return s, q


# ---------------------------------------------------------------- 12 order_of_events

STORIES = [("copied my photos onto the USB drive", "formatted the drive",
            "Are my photos still on it?"),
           ("saved the file", "typed the last two pages of my essay",
            "Then the laptop crashed. Will those pages be in the saved file?"),
           ("ran `git add .`", "ran `git commit -m 'fix'`",
            "Is my change in the commit?"),
           ("backed up my laptop", "upgraded the OS",
            "The upgrade deleted some files. Are they in my backup?"),
           ("bought travel insurance", "broke my leg skiing",
            "Will the insurance cover my hospital bill?"),
           ("signed the lease", "noticed mold in the bathroom",
            "Can I still back out of the contract?"),
           ("installed the update", "restarted my phone",
            "Is the update active now?"),
           ("unplugged the freezer", "took out the food",
            "Is the food likely still frozen?")]


def or_story():
    a, b, q = ch(STORIES)
    fmt = ch(["I {x} and then {y}. {q}", "Yesterday I {x}, and after that I {y}. {q}"])
    return fmt.format(x=a, y=b, q=q), fmt.format(x=b, y=a, q=q)


PROCEDURES = [("painting a wall", "apply primer", "paint"),
              ("washing my hair", "shampoo", "use conditioner"),
              ("refinishing a table", "sand the wood", "apply the stain"),
              ("checking my car's coolant", "let the engine cool",
               "open the radiator cap"),
              ("replacing a light switch", "turn off the breaker",
               "remove the old switch"),
              ("making grilled chicken", "marinate the chicken", "grill it"),
              ("cleaning a bathroom", "scrub the toilet", "mop the floor"),
              ("changing a tire", "loosen the lug nuts", "jack up the car")]


def or_procedure():
    task, a, b = ch(PROCEDURES)
    fmt = ch(["When {t}, should I {x} first and then {y}?",
              "Quick check before I start {t}: is it right to {x} and only then {y}?"])
    return fmt.format(t=task, x=a, y=b), fmt.format(t=task, x=b, y=a)


MATH_OPS = [("double it", lambda v: v * 2), ("add 7", lambda v: v + 7),
            ("square it", lambda v: v * v), ("subtract 4", lambda v: v - 4),
            ("multiply it by 3", lambda v: v * 3), ("add 10", lambda v: v + 10)]


def or_math():
    n = R.randint(2, 12)
    (na, fa), (nb, fb) = two(MATH_OPS)
    if fb(fa(n)) == fa(fb(n)):
        return None
    fmt = ch(["Start with {n}. First {x}, then {y}. What number do I end up with?",
              "my kid's puzzle: take {n}, {x}, then {y}. what's the answer?"])
    return fmt.format(n=n, x=na, y=nb), fmt.format(n=n, x=nb, y=na)


EVENTS = [("the French Revolution", 1789),
          ("the American Declaration of Independence", 1776),
          ("the fall of the Berlin Wall", 1989), ("the Moon landing", 1969),
          ("the sinking of the Titanic", 1912),
          ("the start of World War I", 1914),
          ("the invention of the telephone", 1876),
          ("the Battle of Hastings", 1066),
          ("the signing of Magna Carta", 1215),
          ("Columbus's first voyage to the Americas", 1492),
          ("the fall of Constantinople", 1453),
          ("the founding of the United Nations", 1945)]


def or_history():
    (a, ya), (b, yb) = two(EVENTS)
    fmt = ch(["Did {a} happen before {b}?",
              "For my history quiz: did {a} take place earlier than {b}?"])
    return fmt.format(a=a, b=b), fmt.format(a=b, b=a)


LIST_OPS = [("x.sort()", lambda l: l.sort()), ("x.reverse()", lambda l: l.reverse()),
            ("x.append(0)", lambda l: l.append(0)), ("x.pop()", lambda l: l.pop()),
            ("x.pop(0)", lambda l: l.pop(0)), ("x.insert(0, 9)", lambda l: l.insert(0, 9))]


def or_listops():
    base = ch([[3, 1, 2], [5, 9, 4, 1], [2, 8, 6], [7, 3, 5, 1]])
    (na, fa), (nb, fb) = two(LIST_OPS)
    l1 = list(base)
    fa(l1)
    fb(l1)
    l2 = list(base)
    fb(l2)
    fa(l2)
    if l1 == l2:
        return None
    fmt = "In Python, what is x after `x = {b}; {p}; {q}`?"
    return fmt.format(b=base, p=na, q=nb), fmt.format(b=base, p=nb, q=na)


# ---------------------------------------------------------------- 13 modality_or_time

def mo_rain():
    city = ch(CITIES)
    day = ch(DAYS)
    a, b = ch([("Did it rain", "Will it rain"), ("Did it snow", "Will it snow")])
    fmt = ch(["{v} in {c} on {d}?",
              "I'm planning a picnic in {c}. {v} there on {d}?"])
    return fmt.format(v=a, c=city, d=day), fmt.format(v=b, c=city, d=day)


CAN_SHOULD = ["take ibuprofen on an empty stomach", "freeze cooked rice",
              "pay off my student loan early",
              "quit my job without another one lined up",
              "run a marathon without training", "put a cast-iron pan in the dishwasher",
              "use my phone while it's charging", "drink tap water in {c}"]


def mo_can_should():
    x = ch(CAN_SHOULD).replace("{c}", ch(COUNTRIES))
    a, b = ch([("Can I", "Should I"), ("Could I", "Should I")])
    fmt = ch(["{m} {x}?", "Honest question. {m} {x}?"])
    return fmt.format(m=a, x=x), fmt.format(m=b, x=x)


def mo_must_may():
    c = ch(COUNTRIES)
    x = ch(["pay for the metro in cash in {c}", "tip taxi drivers in {c}",
            "drive with my foreign license in {c}",
            "bring my own wine into restaurants in {c}"]).format(c=c)
    fmt = ch(["{m} {x}?", "Traveling soon. {m} {x}?"])
    return fmt.format(m="Do I have to", x=x), fmt.format(m="Can I", x=x)


def mo_last_next():
    ev = ch(["total solar eclipse visible from {c}", "Summer Olympics",
             "FIFA World Cup", "leap year", "US presidential election",
             "Winter Olympics", "appearance of Halley's Comet"])
    ev = ev.format(c=ch(COUNTRIES))
    fmt = ch(["When {v} the {w} {e}?", "Just curious: when {v} the {w} {e}?"])
    return fmt.format(v="was", w="last", e=ev), fmt.format(v="is", w="next", e=ev)


def mo_won():
    t = ch(["Champions League", "Tour de France", "Wimbledon men's title",
            "Super Bowl", "NBA Finals", "Eurovision Song Contest"])
    fmt = ch(["Who {v} the {t} this year?", "My friends are arguing about sports: "
              "who {v} the {t} this year?"])
    return fmt.format(v="won", t=t), fmt.format(v="will win", t=t)


def mo_release():
    co, prod = ch([("Apple", "iPhone"), ("Nintendo", "console"),
                   ("Tesla", "car model"), ("Google", "Pixel phone"),
                   ("Sony", "PlayStation")])
    fmt = "{v} {c} release a new {p} this year?"
    return fmt.format(v="Did", c=co, p=prod), fmt.format(v="Will", c=co, p=prod)


def mo_would():
    e = ch(["the UK left the EU", "the Suez Canal was blocked",
            "the Yellowstone supervolcano erupted", "the internet went down "
            "worldwide for a day", "Iceland's volcano shut down European air travel"])
    s = "What happened when {e}?".format(e=e)
    q = "What would happen if {e}?".format(e=e)
    return s, q


# ---------------------------------------------------------------- 14 quantity_or_scope

TOPK = [("lake in Africa", "lakes in Africa"), ("city in Canada", "cities in Canada"),
        ("moon of Jupiter", "moons of Jupiter"),
        ("island in the Mediterranean", "islands in the Mediterranean"),
        ("country in South America", "countries in South America"),
        ("desert in the world", "deserts in the world"),
        ("ocean on Earth", "oceans on Earth"), ("state in the US", "states in the US")]


def qs_topk():
    sing, plur = ch(TOPK)
    k = ch(["two", "three", "five"])
    s = "What is the largest {x}?".format(x=sing)
    q = "What are the {k} largest {x}?".format(k=k, x=plur)
    return s, q


def qs_each_total():
    n = ch([4, 5, 6, 8, 12])
    tot = ch([60, 96, 120, 144, 240])
    what = ch(["pizza", "a cabin rental", "a group dinner", "concert tickets"])
    fmt = ("There are {n} of us and we paid ${t} for {w}. How much did {s}?")
    return (fmt.format(n=n, t=tot, w=what, s="each person pay"),
            fmt.format(n=n, t=tot, w=what, s="we pay in total"))


ALL_SOME = [("birds", "fly"), ("mammals", "give birth to live young"),
            ("snakes", "have venom"), ("metals", "stay solid at room temperature"),
            ("plants", "need sunlight"), ("spiders", "spin webs"),
            ("fish", "have scales"), ("bees", "sting")]


def qs_all_some():
    g, p = ch(ALL_SOME)
    fmt = ch(["Do {q} {g} {p}?", "Settle a bet for me: do {q} {g} {p}?"])
    return fmt.format(q="all", g=g, p=p), fmt.format(q="some", g=g, p=p)


def qs_one_all():
    x = ch(["countries that border {c}", "chemical elements that are liquid at "
            "room temperature", "planets with rings", "official languages of {s}",
            "US states that border Canada", "countries the Danube flows through"])
    x = x.format(c=ch(["Germany", "Brazil", "China", "Austria", "France"]),
                 s=ch(["Switzerland", "India", "South Africa", "Belgium"]))
    fmt = "Name {q} {x}."
    return fmt.format(q="one of the", x=x), fmt.format(q="all the", x=x)


def qs_occurrence():
    lang = ch(["Python", "JavaScript", "Java", "Go"])
    v = ch(["3", "'apple'", "None", "0", "'x'"])
    fmt = ch(["How do I remove {w} of {v} from a list in {l}?",
              "I have a {l} list with duplicates. How can I delete {w} of {v}?"])
    return (fmt.format(w="the first occurrence", v=v, l=lang),
            fmt.format(w="every occurrence", v=v, l=lang))


def qs_rows():
    t = ch(list(TABLES))
    fmt = ch(["How do I delete {w} from my {t} table?",
              "What's the SQL to remove {w} in the {t} table?"])
    return (fmt.format(w="the most recent row", t=t),
            fmt.format(w="all rows", t=t))


def qs_lang():
    c = ch(["Switzerland", "Canada", "Belgium", "India", "South Africa",
            "Singapore", "Finland"])
    return ("What is the official language of {c}?".format(c=c),
            "What are the official languages of {c}?".format(c=c))


# ================================================================ positives
# ---------------------------------------------------------------- 1 superlative_reworded

BIG_X = ["country in Africa", "planet in the solar system", "ocean on Earth",
         "island in the Mediterranean", "lake in Africa", "desert in Asia",
         "moon of Saturn", "country in South America", "country in Europe",
         "bone in the human body", "organ in the human body"]
MOUNTAIN_REGIONS = ["Africa", "South America", "Japan", "the Alps", "Canada",
                    "Mexico", "New Zealand", "Scotland", "Turkey", "Switzerland"]
POP_COUNTRIES = ["Brazil", "India", "Australia", "Canada", "Germany", "Italy",
                 "Spain", "Japan", "Nigeria", "Turkey", "Mexico", "Vietnam"]
CONTINENTS = ["Africa", "Europe", "Asia", "South America", "North America",
              "Australia"]


def su_big():
    x = ch(BIG_X)
    fmt = ch([("Which {x} is the biggest?", "What is the largest {x}?"),
              ("What's the biggest {x}?", "Which {x} is largest?")])
    return fmt[0].format(x=x), fmt[1].format(x=x)


def su_mountain():
    r = ch(MOUNTAIN_REGIONS)
    fmt = ch([("What's the tallest mountain in {r}?", "Which mountain in {r} is the highest?"),
              ("Which is the highest peak in {r}?", "What is the tallest peak in {r}?")])
    return fmt[0].format(r=r), fmt[1].format(r=r)


def su_city():
    c = ch(POP_COUNTRIES)
    fmt = ch([("Which city in {c} is the most populous?", "What city in {c} has the most people?"),
              ("What's the most populous city in {c}?", "Which city in {c} has the largest population?")])
    return fmt[0].format(c=c), fmt[1].format(c=c)


def su_river():
    c = ch(CONTINENTS)
    fmt = ch([("What is the longest river in {c}?", "Which river in {c} is the longest?"),
              ("Which is the longest river in {c}?", "Name the longest river in {c}.")])
    return fmt[0].format(c=c), fmt[1].format(c=c)


def su_small():
    c = ch(["Europe", "Africa", "Asia", "South America", "the world"])
    fmt = ch([("What is the smallest country in {c} by area?",
               "Which country in {c} has the smallest area?"),
              ("Which country in {c} covers the least land area?",
               "What's the smallest country by area in {c}?")])
    return fmt[0].format(c=c), fmt[1].format(c=c)


def su_deep():
    r = ch(["the world", "Europe", "Africa", "North America", "Japan"])
    fmt = ch([("What's the deepest lake in {r}?", "Which lake in {r} is the deepest?"),
              ("Which lake in {r} is deepest?", "What is the deepest lake in {r}?")])
    return fmt[0].format(r=r), fmt[1].format(r=r)


def su_misc():
    return ch([("What's the fastest land animal?", "Which land animal is the fastest?"),
               ("Which planet is the hottest in our solar system?",
                "What's the hottest planet in the solar system?"),
               ("Which element is the most abundant in the universe?",
                "What is the most abundant element in the universe?"),
               ("What's the most spoken language in the world by native speakers?",
                "Which language has the most native speakers in the world?"),
               ("Which country has the largest population in Africa?",
                "What's the most populous country in Africa?")])


# ---------------------------------------------------------------- 2 explain_forms

EXPLAIN_FORMS = ["Can you explain {x}?", "Explain {x}.", "What is {x}?",
                 "Could you tell me what {x} is?", "I'd like to understand {x}.",
                 "Please explain {x} to me.", "Help me understand {x}.",
                 "What exactly is {x}?", "can u explain {x}", "Could you explain {x}?"]


def ex_forms():
    x = ch(CONCEPTS)
    a, b = two(EXPLAIN_FORMS)
    return a.format(x=x), b.format(x=x)


def ex_forms_context():
    x = ch(CONCEPTS)
    lead = ch(["I keep hearing about {x} at work.", "My textbook mentions {x}.",
               "Someone brought up {x} in a meeting today."]).format(x=x)
    a, b = two(["Can you explain it?", "What is it?", "Could you tell me what it is?",
                "Please explain it to me.", "I'd like to understand it."])
    return lead + " " + a, lead + " " + b


# ---------------------------------------------------------------- 3 case_whitespace_punctuation

def _case_bases():
    return [
        "What is the capital of {c}?".format(c=ch(COUNTRIES)),
        "Who wrote {b}?".format(b=ch(BOOKS)),
        "What is the chemical symbol for {e}?".format(e=ch(ELEMENTS)),
        ch(["How many ounces are in a pound?", "How many feet are in a mile?",
            "How many centimeters are in an inch?",
            "How many teaspoons are in a tablespoon?"]),
        "What year did {e} happen?".format(e=ch([e for e, _ in EVENTS])),
        "What currency is used in {c}?".format(c=ch(COUNTRIES)),
        "What is the boiling point of {s} at sea level?".format(
            s=ch(["water", "ethanol", "liquid nitrogen", "acetone"])),
        "How do I reverse a string in {l}?".format(l=ch(PROG_LANGS)),
        "What time zone is {c} in?".format(c=ch(CITIES)),
    ]


def _spaces(s):
    words = s.split(" ")
    out = words[0]
    for w in words[1:]:
        out += ("  " if maybe(0.4) else " ") + w
    return out


CASE_TRANSFORMS = [
    lambda s: s,
    lambda s: s.lower(),
    lambda s: s.upper(),
    lambda s: s.rstrip("?.!"),
    lambda s: s.rstrip("?") + "??",
    lambda s: s.lower().rstrip("?.!"),
    lambda s: s + "\n",
    lambda s: "  " + s + "  ",
    _spaces,
    lambda s: s.rstrip("?") + " ?",
    lambda s: s + "\n\n",
    lambda s: s.title(),
]


def cw_pair():
    base = ch(_case_bases())
    f1, f2 = two(CASE_TRANSFORMS)
    return f1(base), f2(base)


# ---------------------------------------------------------------- 4 polite_or_greeting

def _polite_bases():
    return [
        ("q", "What's the time difference between {0} and {1}?".format(*two(CITIES))),
        ("q", "How do I convert {n} degrees Fahrenheit to Celsius?".format(n=ch([50, 68, 86, 98, 212]))),
        ("q", "What is the population of {c}?".format(c=ch(CITIES))),
        ("q", "How long should I boil an egg for a runny yolk?"),
        ("q", "Which {l} web framework is best for a small side project?".format(l=ch(["Python", "JavaScript", "Ruby", "Go"]))),
        ("i", "Tell me the difference between {0} and {1}.".format(*ch([
            ("a virus", "a bacterium"), ("weather", "climate"), ("TCP", "UDP"),
            ("a list", "a tuple"), ("affect", "effect"), ("a crocodile", "an alligator")]))),
        ("i", "Recommend three books about {t}.".format(t=ch(TOPICS))),
        ("i", "Explain how {x} works.".format(x=ch(["a vaccine", "a credit score", "GPS", "a heat pump", "an electric motor"]))),
        ("i", "Write a short birthday message for my {r}.".format(r=ch(RELS))),
        ("q", "Can you suggest a {n}-day itinerary for {c}?".format(n=ch([2, 3, 4, 5]), c=ch(CITIES))),
        ("q", "What's the best way to learn {l}?".format(l=ch(HUMAN_LANGS + PROG_LANGS))),
    ]


GREET_PRE = ["Hi! ", "Hello, ", "Hey there! ", "Quick question: ", "Good morning! ",
             "hey, quick question - ", "Hi there, hope you're well. "]
GREET_POST = [" Thanks in advance!", " Thank you!", " Thanks!", " Much appreciated.",
              " thx!", " Thanks so much."]


def po_pair():
    kind, base = ch(_polite_bases())

    def deco(s):
        r = R.random()
        if kind == "i" and r < 0.3:
            s = "Please " + lcfirst(s)
        elif kind == "i" and r < 0.45:
            s = "Could you please " + lcfirst(s).rstrip(".") + "?"
        if maybe(0.6):
            pre = ch(GREET_PRE)
            s = pre + (lcfirst(s) if (pre.endswith(", ") or pre.endswith("- ") or maybe(0.3)) else s)
        if maybe(0.5):
            s = s + ch(GREET_POST)
        return s

    a = base if maybe(0.6) else deco(base)
    b = deco(base)
    return a, b


# ---------------------------------------------------------------- 5 question_to_imperative

TASKS = ["reset a home Wi-Fi router to factory settings",
         "change a flat tire on a bicycle", "create a new branch in git",
         "hard-boil an egg", "center a div horizontally with CSS",
         "install Python 3 on Windows", "unclog a bathroom sink drain",
         "turn on two-factor authentication for a Gmail account",
         "make a pivot table in Excel", "take a screenshot on a Mac",
         "undo the last git commit", "convert a PDF to a Word document",
         "jump-start a car battery", "clear the cache in Chrome",
         "set up a Python virtual environment", "remove a stripped screw",
         "freeze the top row in Google Sheets",
         "export my contacts from an iPhone", "descale a coffee machine",
         "merge two dictionaries in Python"]
Q_FORMS = ["How do I {t}?", "Tell me how to {t}.", "Show me the steps to {t}.",
           "What's the way to {t}?", "Explain how to {t}.", "How can I {t}?",
           "What are the steps to {t}?", "how do i {t}", "Walk me through how to {t}."]


def qi_pair():
    t = ch(TASKS)
    a = ch([f for f in Q_FORMS if f.endswith("?") or f == "how do i {t}"])
    b = ch([f for f in Q_FORMS if not (f.endswith("?") or f == "how do i {t}")])
    return a.format(t=t), b.format(t=t)


# ---------------------------------------------------------------- 6 synonym_rewording

def sy_car():
    c = ch(CITIES)
    return ("Where can I buy a used car in {c}?".format(c=c),
            "Where can I purchase a second-hand automobile in {c}?".format(c=c))


def sy_screen():
    p = ch(["iPhone 13", "Samsung Galaxy S22", "Pixel 7", "iPad Air"])
    return ("How much does it cost to fix a cracked {p} screen?".format(p=p),
            "What's the price to repair a cracked {p} screen?".format(p=p))


def sy_school():
    c = ch(COUNTRIES)
    return ("When does the school year begin in {c}?".format(c=c),
            "When does the school year start in {c}?".format(c=c))


def sy_quick():
    a, b = two(CITIES)
    return ("What's the quickest way to get from {a} to {b}?".format(a=a, b=b),
            "What's the fastest way to travel from {a} to {b}?".format(a=a, b=b))


def sy_hard():
    l = ch(HUMAN_LANGS)
    return ("Is it hard to learn {l} as an adult?".format(l=l),
            "Is it difficult to learn {l} as a grown-up?".format(l=l))


def sy_battery():
    d = ch(["laptop", "phone", "smartwatch", "tablet"])
    return ("How can I make my {d}'s battery last longer?".format(d=d),
            "How can I extend the battery life of my {d}?".format(d=d))


def sy_cheap():
    lm = ch(["the Eiffel Tower", "the Colosseum", "Times Square",
             "the British Museum", "Shibuya Crossing", "the Sagrada Familia"])
    return ("What are some cheap places to eat near {l}?".format(l=lm),
            "What are some inexpensive spots to eat close to {l}?".format(l=lm))


def sy_gift():
    n = ch([6, 7, 10, 12, 14])
    h = ch(["dinosaurs", "drawing", "football", "space", "Lego", "chess"])
    return ("What's a good present for a {n}-year-old who loves {h}?".format(n=n, h=h),
            "What's a nice gift for a {n}-year-old who really likes {h}?".format(n=n, h=h))


def sy_pet():
    p = ch(["puppy", "dog", "rabbit", "kitten"])
    return ("How do I stop my {p} from chewing the furniture?".format(p=p),
            "How can I prevent my {p} from gnawing on the furniture?".format(p=p))


def sy_start():
    c = ch(["Ramadan", "the Chinese New Year", "Diwali", "Hanukkah", "Lent"])
    y = ch([2025, 2026, 2027])
    return ("When does {c} begin in {y}?".format(c=c, y=y),
            "On what date does {c} start in {y}?".format(c=c, y=y))


# ---------------------------------------------------------------- 7 reordered_context

def rc_trip():
    n = ch([2, 3, 4, 5])
    c = ch(CITIES)
    i = ch(["modern art", "street food", "history", "architecture",
            "live music", "hiking"])
    a = "I have {n} days in {c}.".format(n=n, c=c)
    b = "I really love {i}.".format(i=i)
    q = "What should I see?"
    return " ".join([a, b, q]), " ".join([b, a, q])


def rc_rain():
    c = ch(CITIES)
    k = ch(["kids", "my parents", "a group of friends", "my partner"])
    return ("If it rains tomorrow, what indoor activities can I do in {c} with {k}?".format(c=c, k=k),
            "What indoor activities can I do in {c} with {k} if it rains tomorrow?".format(c=c, k=k))


def rc_laptop():
    n = ch([600, 800, 1000, 1500])
    use = ch(["video editing", "programming", "university work", "gaming"])
    a = "My budget is ${n}.".format(n=n)
    b = "I need a laptop for {u}.".format(u=use)
    q = "Which one should I get?"
    return " ".join([a, b, q]), " ".join([b, a, q])


def rc_marathon():
    age = ch([28, 35, 42, 51])
    km = ch([15, 20, 30, 40])
    m = ch(MONTHS)
    a = "I'm {a} years old.".format(a=age)
    b = "I currently run {k} km a week.".format(k=km)
    c = "I want to finish a marathon in {m}.".format(m=m)
    q = "How should I train?"
    order = ch([[b, a, c], [c, a, b], [a, c, b]])
    return " ".join([a, b, c, q]), " ".join(order + [q])


def rc_dinner():
    r, p = ch([("sister", "She"), ("brother", "He"), ("boss", "She"),
               ("father-in-law", "He")])
    d = ch(DAYS)
    a = "My {r} is vegetarian.".format(r=r)
    b = "{p}'s coming over for dinner on {d}.".format(p=p, d=d)
    s = "My {r} is coming over for dinner on {d}. {p}'s vegetarian. What can I cook?".format(r=r, d=d, p=p)
    q = a + " " + b + " What can I cook?"
    return s, q


def rc_error():
    cmd, err = ch([("npm install", "EACCES: permission denied"),
                   ("pip install numpy", "externally-managed-environment"),
                   ("docker run hello-world", "permission denied while trying to connect to the Docker daemon socket"),
                   ("git push", "rejected: non-fast-forward")])
    os_ = ch(["Ubuntu 22.04", "macOS Sonoma", "Windows 11", "Debian 12"])
    a = "When I run `{c}`, I get '{e}'.".format(c=cmd, e=err)
    b = "I'm on {o}.".format(o=os_)
    q = "How do I fix it?"
    return " ".join([a, b, q]), " ".join([b, a, q])


def rc_editor():
    o = ch(["Linux", "a Mac", "Windows", "a Chromebook"])
    l = ch(PROG_LANGS)
    a = "I use {o}.".format(o=o)
    b = "I want to start learning {l}.".format(l=l)
    q = "Which code editor should I install?"
    return " ".join([a, b, q]), " ".join([b, a, q])


def rc_condition():
    n = ch([2, 3, 5])
    x, c = ch([("my flight is delayed more than {n} hours", "the airline"),
               ("my package arrives more than {n} days late", "the seller"),
               ("my train is more than {n} hours late", "the rail company"),
               ("my hotel room is not available at check-in", "the hotel")])
    x = x.format(n=n)
    return ("If {x}, am I entitled to compensation from {c}?".format(x=x, c=c),
            "Am I entitled to compensation from {c} if {x}?".format(x=x, c=c))


# ---------------------------------------------------------------- 8 informal_chat_rewording

def ic_move():
    c = ch(CITIES)
    m = ch(MONTHS)
    return ("I am moving to {c} in {m} with my two children. Which neighborhoods are good for families?".format(c=c, m=m),
            "so me and my 2 kids are moving to {c} in {m}. which neighborhoods are good for families?".format(c=c, m=m))


def ic_deposit():
    n = ch([800, 1200, 1500, 2000])
    k = ch([3, 4, 6, 8])
    return ("My landlord has not returned my security deposit of ${n}. I moved out {k} weeks ago. What can I do?".format(n=n, k=k),
            "hey so my landlord still hasn't given back my ${n} deposit and i moved out {k} weeks ago... what can i do?".format(n=n, k=k))


def ic_interview():
    co = ch(COMPANIES)
    d = ch(DAYS)
    role = ch(["data analyst", "junior developer", "product manager",
               "UX designer"])
    return ("I have a job interview at {c} on {d}. The position is {r}. How should I prepare?".format(c=co, d=d, r=role),
            "got an interview at {c} on {d} for a {r} position. tbh not sure how to prepare, how should i?".format(c=co, d=d, r=role))


def ic_argue():
    r = ch(["husband", "wife", "roommate", "brother", "sister"])
    claim = ch(["tomatoes are fruits", "bats are blind", "a hot dog is a sandwich",
                "the Great Wall is visible from space", "goldfish have a three-second memory"])
    return ("My {r} and I are arguing about whether {c}. Who is right?".format(r=r, c=claim),
            "me and my {r} keep arguing about whether {c} lol. who's right?".format(r=r, c=claim))


def ic_rent():
    n = ch([2500, 3000, 3800, 4500])
    r = ch([900, 1200, 1500, 1800])
    return ("I earn ${n} per month and my rent is ${r}. Is that too much to spend on rent?".format(n=n, r=r),
            "i make ${n} a month and rent's ${r}. is that too much to spend on rent tbh?".format(n=n, r=r))


def ic_laptop():
    n = ch([4, 5, 6, 7])
    return ("My laptop is {n} years old and it has become very slow. Should I upgrade the RAM or buy a new one?".format(n=n),
            "my laptop's {n} years old and it's gotten really slow. should i upgrade the ram or just buy a new one?".format(n=n))


def ic_language():
    l = ch(HUMAN_LANGS)
    n = ch([3, 6, 8, 10])
    return ("I have been learning {l} for {n} months. I can read simple texts but I cannot follow conversations. How can I improve my listening?".format(l=l, n=n),
            "been learning {l} for {n} months now. i can read simple stuff but can't follow convos. how do i get better at listening?".format(l=l, n=n))


def ic_coworker():
    n = ch([2, 3, 4])
    return ("A coworker takes credit for my work in meetings. This has happened {n} times this month. How should I handle it?".format(n=n),
            "ugh a coworker keeps taking credit for my work in meetings, it's happened {n} times this month. how do i deal with it?".format(n=n))


def ic_dog():
    age = ch([2, 5, 8, 10])
    return ("My {a}-year-old dog has stopped eating since yesterday. He is still drinking water. Should I take him to the vet?".format(a=age),
            "my dog's {a} and he hasn't eaten anything since yesterday, he's still drinking water tho. should i take him to the vet?".format(a=age))


# ================================================================ builder

NEAR_MISS = [
    ("code_operator", [co_compare, co_accumulate, co_js_eq, co_is, co_andor,
                       co_bitwise, co_division, co_loopcount, co_incr], True),
    ("regex_quantifier", [rx_plus_star, rx_range, rx_class_d_w, rx_lazy,
                          rx_optional, rx_exact_min, rx_case_class, rx_space], True),
    ("sql_condition", [sql_compare, sql_aggregate, sql_groupby, sql_null,
                       sql_order, sql_having, sql_date], True),
    ("answer_length", [al_summary, al_tips, al_describe, al_oneword, al_speech,
                       al_facts, al_poem, al_bullets], False),
    ("format_language_audience_tone", [fm_table, fm_language, fm_audience,
                                       fm_tone, fm_data, fm_convert,
                                       fm_translate], False),
    ("numbers_units_dates", [nu_walk, nu_kelvin, nu_worldcup, nu_president,
                             nu_tip, nu_age, nu_weekday, nu_calories,
                             nu_currency, nu_recipe], False),
    ("quoted_url_identifier", [qi_version, qi_file, qi_error, qi_word, qi_url,
                               qi_iso, qi_phrase, qi_flag, qi_html], True),
    ("direction_roles", [dr_train, dr_currency, dr_battle, dr_north, dr_river,
                         dr_founded, dr_subset, dr_transfer], False),
    ("negation", [ne_car, ne_allergy, ne_which, ne_warranty, ne_backup,
                  ne_contains, ne_compiles, ne_swim, ne_sql], False),
    ("antonym_or_opposite", [an_font, an_trade, an_meal, an_price, an_geo,
                             an_book, an_file, an_weight, an_dynasty, an_sort,
                             an_symptom, an_soak, an_offer, an_video,
                             an_extreme], False),
    ("person_or_owner", [pe_pay, pe_kin, pe_gift, pe_broke, pe_wedding,
                         pe_birthday, pe_read, pe_tax], False),
    ("order_of_events", [or_story, or_procedure, or_math, or_history,
                         or_listops], True),
    ("modality_or_time", [mo_rain, mo_can_should, mo_must_may, mo_last_next,
                          mo_won, mo_release, mo_would], False),
    ("quantity_or_scope", [qs_topk, qs_each_total, qs_all_some, qs_one_all,
                           qs_occurrence, qs_rows, qs_lang], False),
]

POSITIVE = [
    ("superlative_reworded", [su_big, su_mountain, su_city, su_river,
                              su_small, su_deep, su_misc], "light"),
    ("explain_forms", [ex_forms, ex_forms_context], "light"),
    ("case_whitespace_punctuation", [cw_pair], "none"),
    ("polite_or_greeting", [po_pair], "none"),
    ("question_to_imperative", [qi_pair], "none"),
    ("synonym_rewording", [sy_car, sy_screen, sy_school, sy_quick, sy_hard,
                           sy_battery, sy_cheap, sy_gift, sy_pet, sy_start],
     "light"),
    ("reordered_context", [rc_trip, rc_rain, rc_laptop, rc_marathon,
                           rc_dinner, rc_error, rc_editor, rc_condition],
     "light"),
    ("informal_chat_rewording", [ic_move, ic_deposit, ic_interview, ic_argue,
                                 ic_rent, ic_laptop, ic_language, ic_coworker,
                                 ic_dog], "none"),
]


def norm(text):
    """Key used to keep pairs apart: spacing and end punctuation removed, and
    case too when the prompt holds no code."""
    key = " ".join(text.split()).rstrip("?.! ")
    return key if "`" in key else key.lower()


def build(category, templates, n, used, style, template_log):
    templates = list(templates)
    R.shuffle(templates)
    pairs = []
    i = 0
    while len(pairs) < n:
        t = templates[i % len(templates)]
        for _ in range(500):
            pair = t()
            if pair is None:
                continue
            s, q = pair
            if style == "code":
                s, q = restyle(s, q, code=True)
            elif style == "text":
                s, q = restyle(s, q)
            elif style == "light":
                s, q = restyle(s, q, p_prefix=0.12, p_lower=0.08)
            if maybe():
                s, q = q, s
            ks, kq = norm(s), norm(q)
            if s == q or ks in used or kq in used:
                continue
            if ks == kq and category != "case_whitespace_punctuation":
                continue
            break
        else:
            raise RuntimeError("could not fill %s with %s" % (category, t.__name__))
        used.add(ks)
        used.add(kq)
        pairs.append({"category": category, "stored": s, "query": q})
        template_log.setdefault(category, set()).add(t.__name__)
        i += 1
    return pairs


DESCRIPTION = (
    "Held-out evaluation set v23 for a semantic prompt cache, written blind. "
    "text_pairs holds 168 near-miss pairs (14 categories x 12): a stored "
    "prompt and a query that share almost all of their wording but need a "
    "different answer, because an operator, regex quantifier, SQL condition, "
    "length limit, output format or language or audience or tone, number or "
    "unit or date, quoted identifier, direction or role, negation, opposite "
    "word, person or owner, order of events, modality or tense, or quantity "
    "or scope differs; a cache must not serve the stored answer for them. "
    "positives holds 136 true paraphrase pairs (8 categories x 17) that keep "
    "every entity, number, code fragment and constraint while changing the "
    "wording, casing, punctuation, politeness, sentence form, word choice, "
    "context order or register; a cache should serve the stored answer for "
    "them. Prompts are generated from templates over public entities with "
    "random.Random(232323), mixing short questions with short multi-sentence "
    "chat prompts, some of them informal.")


def main():
    log = {}
    used_near = set()
    text_pairs = []
    for cat, temps, is_code in NEAR_MISS:
        text_pairs += build(cat, temps, N_NEAR, used_near,
                            "code" if is_code else "text", log)
    used_pos = set()
    positives = []
    for cat, temps, style in POSITIVE:
        positives += build(cat, temps, N_POS, used_pos, style, log)

    # self-checks
    assert len(text_pairs) == 168 and len(positives) == 136
    for lst in (text_pairs, positives):
        strings = [p["stored"] for p in lst] + [p["query"] for p in lst]
        assert len(strings) == len(set(strings))
    for cat, _, _ in NEAR_MISS:
        assert len(log[cat]) >= 4, cat

    out = {"description": DESCRIPTION, "text_pairs": text_pairs,
           "positives": positives}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "data", "heldout_generated_v23.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")

    counts = {}
    for p in text_pairs + positives:
        counts[p["category"]] = counts.get(p["category"], 0) + 1
    print("text_pairs:", len(text_pairs), "positives:", len(positives))
    for k, v in counts.items():
        print("  %s: %d (templates used: %d)" % (k, v, len(log[k])))


if __name__ == "__main__":
    main()
