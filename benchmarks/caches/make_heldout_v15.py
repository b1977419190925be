"""Held-out evaluation set v15 for a semantic prompt cache.

A semantic prompt cache answers a new LLM prompt with the stored answer of an
earlier prompt when the two prompts mean the same thing.  This script writes a
held-out set to measure such a cache:

* "text_pairs": 210 NEAR-MISS pairs (14 categories x 15).  The query shares
  most of its wording with the stored prompt, but a careful human would answer
  the two differently, so serving the stored answer for the query is WRONG.
  Categories: code_operator, regex_or_format_string, sql_condition,
  answer_length, output_format_or_language, audience_or_tone,
  role_or_direction_swap, negation_or_antonym, number_unit_or_date,
  entity_swap, quantifier_or_scope, condition_or_exception,
  tense_or_time_frame, question_target.
* "positives": 100 TRUE PARAPHRASE pairs (10 categories x 10), which a careful
  human would answer identically.  Categories: synonyms,
  question_vs_imperative, polite_wrapper, can_you_explain,
  casing_and_whitespace, contractions, reordered_clauses, active_vs_passive,
  word_order_of_a_list, filler_words.

Pairs are generated from the templates and word/entity/number lists written
in this file (public facts only), using random.Random(151515), so two runs
give byte-identical output.  Where a near-miss depends on the exact result of
a code snippet, regular expression or format string, the script evaluates
both variants with the standard library and keeps the pair only if the
results differ.

This set was written blind: without reading the cache's code, its tests,
its documentation or any earlier held-out set.  It is for measurement only;
do not tune the cache against it.

Run:  python3 make_heldout_v15.py
It writes data/heldout_generated_v15.json next to this file.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import datetime
import json
import os
import random
import re

SEED = 151515
N_NEAR = 15
N_POS = 10
MIN_WORDS = 6
MAX_WORDS = 40


def capfirst(s):
    return s[:1].upper() + s[1:]


def lowfirst(s):
    return s[:1].lower() + s[1:]


def _choose(slots, r):
    """Pick one option per slot (sorted keys for determinism).

    An option that is a dict is merged into the fill (co-varying slots)."""
    fill = {}
    for k in sorted(slots):
        v = r.choice(slots[k])
        if isinstance(v, dict):
            fill.update(v)
        else:
            fill[k] = v
    return fill


def _put(text, value):
    if isinstance(value, dict):
        for k in sorted(value):
            text = text.replace("{" + k + "}", value[k])
        return text
    return text.replace("{A}", value)


def pair_t(text, pairs, slots=None, swap=True):
    """Near-miss template: the {A} slot (or the keys of a dict) takes the two
    sides of a pair; every other slot is filled the same on both sides."""
    slots = slots or {}

    def gen(r):
        a, b = r.choice(pairs)
        if swap and r.random() < 0.5:
            a, b = b, a
        fill = _choose(slots, r)
        keys = ["A"]
        if isinstance(a, dict):
            keys = list(a.keys())
        for k in keys:
            fill[k] = "{" + k + "}"
        base = text.format(**fill)
        return _put(base, a), _put(base, b)

    return gen


def ent_t(text, items, slots=None):
    """Near-miss template: two different entities of the same type in {E}."""
    slots = slots or {}

    def gen(r):
        a, b = r.sample(items, 2)
        fill = _choose(slots, r)
        return text.format(E=a, **fill), text.format(E=b, **fill)

    return gen


def para_t(t1, t2, slots):
    """Paraphrase template: two wordings filled from the same slots."""

    def gen(r):
        fill = _choose(slots, r)
        s, q = t1.format(**fill), t2.format(**fill)
        if r.random() < 0.5:
            s, q = q, s
        return s, q

    return gen


# ---------------------------------------------------------------------------
# 1. code_operator
# ---------------------------------------------------------------------------

def g_py_arith(r):
    ops = [("+", "-"), ("//", "/"), ("*", "**"), ("%", "//"), ("==", "!="),
           ("<", "<="), (">", ">="), ("&", "|")]
    a, b = r.choice(ops)
    if r.random() < 0.5:
        a, b = b, a
    for _ in range(200):
        x = r.randint(2, 12)
        y = x if r.random() < 0.4 else r.randint(2, 5)
        e1 = "%d %s %d" % (x, a, y)
        e2 = "%d %s %d" % (x, b, y)
        if str(eval(e1)) != str(eval(e2)):
            break
    else:
        return None
    phr = r.choice([
        "What does `print({e})` output in Python 3?",
        "In Python 3, what gets printed by `print({e})`?",
        "If I run `print({e})` in a Python shell, what will I see?",
    ])
    return phr.format(e=e1), phr.format(e=e2)


def g_py_index(r):
    seqs = ["[10, 20, 30, 40, 50]", "['a', 'b', 'c', 'd']", "'python'",
            "[5, 3, 8, 1, 9]", "(2, 4, 6, 8)", "'hello world'"]
    idx = [("[0]", "[-1]"), ("[1]", "[2]"), ("[1:3]", "[1:4]"),
           ("[:2]", "[2:]"), ("[::2]", "[::-1]"), ("[-2]", "[2]"),
           ("[1:]", "[:-1]")]
    for _ in range(200):
        s = r.choice(seqs)
        i1, i2 = r.choice(idx)
        if r.random() < 0.5:
            i1, i2 = i2, i1
        if repr(eval(s + i1)) != repr(eval(s + i2)):
            break
    else:
        return None
    phr = r.choice([
        "In Python, what does `{e}` evaluate to?",
        "What is the value of the Python expression `{e}`?",
    ])
    return phr.format(e=s + i1), phr.format(e=s + i2)


def g_py_strmeth(r):
    strings = ["hello world", "Data Science", "abc123", "  padded text  ",
               "PyThOn", "2024", "new york city"]
    meths = [("upper", "lower"), ("title", "capitalize"), ("isdigit", "isalnum"),
             ("isalpha", "isalnum"), ("strip", "rstrip"), ("swapcase", "lower"),
             ("lstrip", "rstrip"), ("isupper", "istitle")]
    for _ in range(200):
        s = r.choice(strings)
        m1, m2 = r.choice(meths)
        if r.random() < 0.5:
            m1, m2 = m2, m1
        v1 = eval("'%s'.%s()" % (s, m1))
        v2 = eval("'%s'.%s()" % (s, m2))
        if repr(v1) != repr(v2):
            break
    else:
        return None
    phr = r.choice([
        "What does `'{s}'.{m}()` return in Python?",
        "In Python 3, what is the result of calling `'{s}'.{m}()`?",
    ])
    return phr.format(s=s, m=m1), phr.format(s=s, m=m2)


def g_py_list(r):
    inits = ["[3, 1, 2]", "[5, 9, 7, 9]", "['pear', 'apple', 'fig']",
             "[10, 20, 30]", "[4, 8, 6]"]
    stmts = [("nums.append(4)", "nums.insert(0, 4)"), ("nums.pop()", "nums.pop(0)"),
             ("nums.sort()", "nums.reverse()"),
             ("nums.sort()", "nums.sort(reverse=True)"),
             ("nums.extend([0, 6])", "nums.append([0, 6])"),
             ("del nums[0]", "del nums[-1]")]
    for _ in range(200):
        init = r.choice(inits)
        s1, s2 = r.choice(stmts)
        if r.random() < 0.5:
            s1, s2 = s2, s1
        ns1, ns2 = {}, {}
        exec("nums = %s\n%s" % (init, s1), {}, ns1)
        exec("nums = %s\n%s" % (init, s2), {}, ns2)
        if repr(ns1["nums"]) != repr(ns2["nums"]):
            break
    else:
        return None
    phr = r.choice([
        "In Python, after `nums = {i}` and then `{s}`, what does `print(nums)` show?",
        "I set `nums = {i}` and run `{s}` in Python. What is nums now?",
    ])
    return phr.format(i=init, s=s1), phr.format(i=init, s=s2)


def g_py_logic(r):
    vals = ["0", "3", "''", "'hi'", "None", "[]", "[1, 2]"]
    for _ in range(200):
        x, y = r.choice(vals), r.choice(vals)
        e1, e2 = "%s and %s" % (x, y), "%s or %s" % (x, y)
        if r.random() < 0.5:
            e1, e2 = e2, e1
        if repr(eval(e1)) != repr(eval(e2)):
            break
    else:
        return None
    phr = r.choice([
        "What does the Python expression `{e}` evaluate to?",
        "In Python, what value do you get from `{e}`?",
    ])
    return phr.format(e=e1), phr.format(e=e2)


def g_bash_arith(r):
    ops = [("/", "%"), ("*", "**"), ("+", "-"), ("<<", ">>")]
    a, b = r.choice(ops)
    if r.random() < 0.5:
        a, b = b, a
    pyop = {"/": "//", "%": "%", "*": "*", "**": "**", "+": "+", "-": "-",
            "<<": "<<", ">>": ">>"}
    for _ in range(200):
        x, y = r.randint(7, 20), r.randint(2, 4)
        v1 = eval("%d %s %d" % (x, pyop[a], y))
        v2 = eval("%d %s %d" % (x, pyop[b], y))
        if v1 != v2:
            break
    else:
        return None
    phr = "In bash, what does `echo $(( {x} {o} {y} ))` print?"
    return phr.format(x=x, o=a, y=y), phr.format(x=x, o=b, y=y)


CODE_OPERATOR = [
    g_py_arith, g_py_index, g_py_strmeth, g_py_list, g_py_logic, g_bash_arith,
    pair_t("In JavaScript, does `{A}` evaluate to true or false?", [
        ("undefined == null", "undefined === null"),
        ("'5' == 5", "'5' === 5"),
        ("0 == ''", "0 === ''"),
        ("null == 0", "null >= 0"),
        ("[] == false", "[] === false"),
        ("1 < 2 < 3", "3 > 2 > 1"),
    ]),
    pair_t("In JavaScript, what does `{A}` return?", [
        ("'3' + 2", "'3' - 2"),
        ("'3' * '2'", "'3' + '2'"),
        ("typeof null", "typeof undefined"),
        ("Math.round(2.5)", "Math.floor(2.5)"),
        ("'abc'.slice(1)", "'abc'.slice(-1)"),
        ("[10, 1, 2].sort()", "[10, 1, 2].reverse()"),
        ("parseInt('08abc')", "Number('08abc')"),
        ("[1, 2, 3].indexOf(4)", "[1, 2, 3].includes(4)"),
    ]),
    pair_t("In a bash script, is `[ $count {A} {n} ]` true when count is exactly {n}?",
           [("-lt", "-le"), ("-gt", "-ge"), ("-eq", "-ne")],
           {"n": ["0", "5", "10", "100", "42"]}),
    pair_t("In Python, is `{v} {A} {v}` True or False?",
           [("==", "is"), ("<", "<="), ("==", "!="), (">=", ">")],
           {"v": ["[1, 2]", "[3]", "[0, 0]", "['x']"]}),
]

# ---------------------------------------------------------------------------
# 2. regex_or_format_string
# ---------------------------------------------------------------------------


def g_re_findall(r):
    pats = [(r"\d+", r"\d"), (r"[a-z]+", r"[A-Z]+"), (r"\w+", r"\w"),
            (r"\b\w", r"\w\b"), (r"a.c", r"a\.c"), (r"\d{2}", r"\d{3}"),
            (r"colou?r", r"colou+r"), (r"^\w+", r"\w+$"), (r"[aeiou]", r"[^aeiou ]"),
            (r"\d+", r"\D+")]
    texts = ["Order 66 shipped on 2024-03-15", "abc a.c aXc acc",
             "color colour colouur", "The Quick brown Fox jumps",
             "room 101 and room 2048", "tea at 4 or 5"]
    for _ in range(300):
        p1, p2 = r.choice(pats)
        if r.random() < 0.5:
            p1, p2 = p2, p1
        t = r.choice(texts)
        v1, v2 = re.findall(p1, t), re.findall(p2, t)
        if v1 != v2 and (v1 or v2):
            break
    else:
        return None
    phr = r.choice([
        "What does `re.findall(r'{p}', '{t}')` return in Python?",
        "In Python, what list do I get from `re.findall(r'{p}', '{t}')`?",
    ])
    return phr.format(p=p1, t=t), phr.format(p=p2, t=t)


def g_re_fullmatch(r):
    pats = [(r"[0-9]{3}-[0-9]{4}", r"[0-9]{3}-[0-9]{3}"), (r"[A-Za-z]+", r"[a-z]+"),
            (r"\d+\.?\d*", r"\d+\.\d+"), (r"https?://\S+", r"https://\S+"),
            (r"[A-Z][a-z]*", r"[A-Z][a-z]+"), (r"\w+@\w+\.com", r"\w+@\w+\.org"),
            (r"\d{4}", r"\d{2,4}")]
    strings = ["555-1234", "Hello", "42", "http://example.com", "A",
               "anna@mail.com", "hello", "3.14", "2024", "99"]
    for _ in range(300):
        p1, p2 = r.choice(pats)
        if r.random() < 0.5:
            p1, p2 = p2, p1
        s = r.choice(strings)
        if bool(re.fullmatch(p1, s)) != bool(re.fullmatch(p2, s)):
            break
    else:
        return None
    phr = r.choice([
        "Does `re.fullmatch(r'{p}', '{s}')` return a match or None in Python?",
        "Will the regex `{p}` match the entire string '{s}' when used with re.fullmatch?",
    ])
    return phr.format(p=p1, s=s), phr.format(p=p2, s=s)


def g_strftime(r):
    dates = [(2024, 3, 5, 14, 7), (2023, 11, 21, 9, 45), (2025, 7, 4, 18, 30),
             (2022, 1, 9, 6, 5), (2021, 12, 31, 23, 59)]
    fmts = [("%d/%m/%Y", "%m/%d/%Y"), ("%H:%M", "%I:%M"), ("%y", "%Y"),
            ("%b %d", "%B %d"), ("%a", "%A"), ("%M", "%m"), ("%j", "%d"),
            ("%Y-%m-%d", "%Y-%d-%m"), ("%I:%M %p", "%H:%M %p")]
    for _ in range(300):
        d = r.choice(dates)
        f1, f2 = r.choice(fmts)
        if r.random() < 0.5:
            f1, f2 = f2, f1
        dt = datetime.datetime(*d)
        if dt.strftime(f1) != dt.strftime(f2):
            break
    else:
        return None
    call = "datetime(%d, %d, %d, %d, %d)" % d
    phr = r.choice([
        "In Python, what string does `{c}.strftime('{f}')` return?",
        "What is the output of `print({c}.strftime('{f}'))` in Python?",
    ])
    return phr.format(c=call, f=f1), phr.format(c=call, f=f2)


def g_printf(r):
    items = [("%.2f", "%.3f", ["3.14159", "2.71828", "0.5"]),
             ("%5d", "%-5d", ["42", "7", "123"]),
             ("%x", "%X", ["255", "48879", "171"]),
             ("%d", "%05d", ["42", "7", "123"]),
             ("%e", "%.1f", ["3.14159", "1234.5"]),
             ("%o", "%x", ["64", "255", "100"]),
             ("%8.2f", "%-8.2f", ["3.14159", "99.5"])]
    f1, f2, vals = r.choice(items)
    if r.random() < 0.5:
        f1, f2 = f2, f1
    v = r.choice(vals)
    num = float(v) if "." in v else int(v)
    if (f1 % num) == (f2 % num):
        return None
    if r.random() < 0.5:
        phr = 'What exactly does `printf("{f}|", {v});` print in C?'
    else:
        phr = "In Python, what string does `'{f}|' % {v}` produce?"
    return phr.format(f=f1, v=v), phr.format(f=f2, v=v)


def g_format_spec(r):
    items = [(",", "_", ["1234567", "98765"]),
             (".1%", ".0%", ["0.4567", "0.1234"]),
             ("08.3f", "8.3f", ["3.14159", "2.5"]),
             ("b", "o", ["42", "10", "255"]),
             (">10", "<10", ["'cat'", "'tea'"]),
             ("^10", ">10", ["'cat'", "'hi'"]),
             (".2e", ".2f", ["1234.5678", "0.000123"]),
             ("+d", "d", ["42", "7"])]
    s1, s2, vals = r.choice(items)
    if r.random() < 0.5:
        s1, s2 = s2, s1
    v = r.choice(vals)
    val = eval(v)
    if format(val, s1) == format(val, s2):
        return None
    if r.random() < 0.5:
        t1 = "In Python, what does `f'{x:" + s1 + "}'` produce when x = " + v + "?"
        t2 = "In Python, what does `f'{x:" + s2 + "}'` produce when x = " + v + "?"
    else:
        t1 = "What is the output of `print(format(" + v + ", '" + s1 + "'))` in Python?"
        t2 = "What is the output of `print(format(" + v + ", '" + s2 + "'))` in Python?"
    return t1, t2


def g_js_replace(r):
    items = [("foo boo zoo", "o"), ("banana", "a"), ("a-b-c-d", "-"),
             ("hello world", "l"), ("2024-03-15", "-"), ("mississippi", "ss")]
    s, body = r.choice(items)
    v1 = re.sub(re.escape(body), "_", s, count=1)
    v2 = re.sub(re.escape(body), "_", s)
    if v1 == v2:
        return None
    re1, re2 = "/" + body + "/", "/" + body + "/g"
    if r.random() < 0.5:
        re1, re2 = re2, re1
    phr = "In JavaScript, what does `'{s}'.replace({p}, '_')` return?"
    return phr.format(s=s, p=re1), phr.format(s=s, p=re2)


REGEX_OR_FORMAT = [
    g_re_findall, g_re_fullmatch, g_strftime, g_printf, g_format_spec, g_js_replace,
    pair_t("Which lines of app.log will `grep -E '{A}' app.log` print?", [
        ("^ERROR", "ERROR$"), ("[0-9]{3}", "[0-9]{4}"), ("^$", "^.$"),
        ("timeout|refused", "timeout.*refused"), ("^[A-Z]+:", "^[A-Z]*:")]),
]

# ---------------------------------------------------------------------------
# 3. sql_condition
# ---------------------------------------------------------------------------

SQL_CONDITION = [
    pair_t("Explain what rows this query returns: `SELECT name, salary FROM employees WHERE {A};`", [
        ("salary > 50000", "salary >= 50000"),
        ("dept = 'Sales'", "dept <> 'Sales'"),
        ("hired_at < '2020-01-01'", "hired_at > '2020-01-01'"),
        ("manager_id IS NULL", "manager_id IS NOT NULL"),
        ("age BETWEEN 20 AND 30", "age NOT BETWEEN 20 AND 30"),
        ("dept = 'IT' AND salary > 80000", "dept = 'IT' OR salary > 80000"),
        ("name LIKE 'A%'", "name LIKE '%A'"),
    ]),
    pair_t("Write a SQL query that returns the top 10 rows from the {tbl} table ordered by {A}.", [
        ("price descending", "price ascending"),
        ("price descending", "units sold descending"),
        ("creation date, newest first", "creation date, oldest first"),
        ("average rating", "number of reviews"),
    ], {"tbl": ["products", "listings", "items"]}),
    pair_t("Do orders with no matching customer appear in the result of `SELECT * FROM orders o {A} customers c ON o.customer_id = c.id`?", [
        ("INNER JOIN", "LEFT JOIN"), ("RIGHT JOIN", "FULL OUTER JOIN"),
        ("LEFT JOIN", "RIGHT JOIN"), ("INNER JOIN", "FULL OUTER JOIN"),
    ]),
    pair_t("Write a SQL query on the {tbl} table that shows total revenue grouped by {A}.", [
        ("region", "product"), ("month", "year"), ("store", "salesperson"),
        ("customer", "region"), ("product category", "payment method"),
    ], {"tbl": ["sales", "transactions", "invoices"]}),
    pair_t("Write a {dialect} query that finds users whose {A}.", [
        ("email ends with '@gmail.com'", "email starts with 'admin'"),
        ("last login was more than 90 days ago", "account was created more than 90 days ago"),
        ("country is 'Canada' and age is over 18", "country is 'Canada' or age is over 18"),
        ("first name is NULL", "first name is an empty string"),
        ("username contains a digit", "username contains no digits"),
    ], {"dialect": ["PostgreSQL", "MySQL", "SQLite"]}),
    pair_t("In SQL, what does `SELECT COUNT({A}) FROM users;` return when some users have a NULL email?", [
        ("*", "email"), ("email", "DISTINCT email"), ("1", "email"),
    ]),
    pair_t("Write a SQL query that lists customers who have placed {A}.", [
        ("at least one order in 2023", "no orders in 2023"),
        ("more than 5 orders", "more than 5 orders over $100"),
        ("an order this month", "an order every month this year"),
    ]),
]

# ---------------------------------------------------------------------------
# 4. answer_length
# ---------------------------------------------------------------------------

TOPICS_EXPLAIN = [
    "how vaccines train the immune system", "what compound interest is",
    "how a car's differential works", "the causes of World War I",
    "how photosynthesis works", "what a Python decorator does",
    "how the stock market works", "the offside rule in soccer",
    "how a bill becomes law in the United States", "the greenhouse effect",
    "how a SQL index speeds up queries", "why the Roman Empire fell",
]

ANSWER_LENGTH = [
    pair_t("Explain {topic} in {A}.", [
        ("one sentence", "one paragraph"), ("one sentence", "three paragraphs"),
        ("under 50 words", "under 200 words"), ("two sentences", "a full page"),
        ("a single tweet", "a 500-word essay"),
    ], {"topic": TOPICS_EXPLAIN}),
    pair_t("Give me {A} tips for {act}.", [
        ("3", "5"), ("3", "10"), ("5", "10"), ("two", "seven"), ("four", "twelve"),
    ], {"act": ["growing tomatoes on a balcony", "saving money on groceries",
                "writing cleaner Python code", "improving my 5K running time",
                "packing light for a two-week trip", "keeping a sourdough starter alive",
                "paying off credit card debt", "learning guitar chords faster",
                "organizing a large Excel spreadsheet", "sleeping better at night"]}),
    pair_t("Please name {A} well-known {things}.", [
        ("three", "ten"), ("5", "20"), ("two", "eight"),
    ], {"things": ["Baroque composers", "national parks in the United States",
                   "dishes from Thai cuisine", "battles of the American Civil War",
                   "rivers in Africa", "jazz saxophonists", "Formula 1 drivers",
                   "Impressionist painters"]}),
    pair_t("Summarize the plot of {work} in {A}.", [
        ("three sentences", "ten sentences"), ("50 words", "300 words"),
        ("one line", "five paragraphs"),
    ], {"work": ["Romeo and Juliet", "The Great Gatsby", "Moby-Dick",
                 "Pride and Prejudice", "George Orwell's 1984", "Hamlet",
                 "Don Quixote"]}),
    pair_t("Write a {A}-line poem about {subj}.", [
        ("4", "14"), ("2", "20"), ("six", "sixteen"),
    ], {"subj": ["autumn leaves", "a morning commute", "the ocean at night",
                 "a lost cat", "a cup of coffee", "my first car"]}),
    pair_t("Write a {A} product description for {prod}.", [
        ("20-word", "150-word"), ("one-sentence", "three-paragraph"),
        ("short", "detailed 400-word"),
    ], {"prod": ["a stainless steel water bottle", "noise-cancelling headphones",
                 "an ergonomic office chair", "a cast iron skillet",
                 "a beginner acoustic guitar"]}),
]

# ---------------------------------------------------------------------------
# 5. output_format_or_language
# ---------------------------------------------------------------------------

OUTPUT_FORMAT = [
    pair_t("List {subj} {A}.", [
        ("as a Markdown table", "as JSON"), ("as a bullet list", "as YAML"),
        ("as CSV", "as a Markdown table"), ("as JSON", "as XML"),
        ("as a numbered list", "as an HTML table"),
    ], {"subj": ["the planets of the solar system with their diameters",
                 "the five largest countries by area with their capitals",
                 "the first ten chemical elements with their atomic masses",
                 "the Summer Olympic host cities since 2000 with their years",
                 "the noble gases with their boiling points",
                 "the seven continents with their approximate populations"]}),
    pair_t("How do you say \"{phrase}\" in {A}?", [
        ("French", "German"), ("Spanish", "Italian"), ("Japanese", "Korean"),
        ("Portuguese", "Dutch"), ("Polish", "Swedish"),
    ], {"phrase": ["Where is the train station?", "I am allergic to peanuts",
                   "The meeting has been moved to Thursday",
                   "Could I have the bill, please?", "Happy birthday, my friend",
                   "How much does this cost?"]}),
    pair_t("{q} Please answer in {A}.", [
        ("Spanish", "French"), ("German", "English"), ("Chinese", "Arabic"),
        ("Italian", "Russian"),
    ], {"q": ["How do I renew a passport by mail?",
              "What are the health benefits of green tea?",
              "How does a heat pump heat a house?",
              "What should I see on a first visit to Rome?"]}),
    pair_t("Write a {A} function that {task}.", [
        ("Python", "JavaScript"), ("Python", "Rust"), ("JavaScript", "Go"),
        ("Java", "C#"), ("Bash", "PowerShell"), ("Ruby", "PHP"),
    ], {"task": ["checks whether a string is a palindrome", "reverses a linked list",
                 "computes the factorial of n recursively",
                 "removes duplicates from an array while keeping order",
                 "counts word frequencies in a text",
                 "converts Celsius to Fahrenheit"]}),
    pair_t("Convert this record to {A}: name {nm}, age {age}, city {city}.", [
        ("JSON", "YAML"), ("XML", "CSV"), ("TOML", "JSON"), ("YAML", "XML"),
    ], {"nm": ["Alice", "Rahul", "Mei", "Carlos"], "age": ["30", "41", "27"],
        "city": ["Paris", "Toronto", "Osaka", "Lima"]}),
    pair_t("Give me a one-week {diet} meal plan formatted as {A}.", [
        ("a table", "a numbered list"), ("a JSON object", "plain paragraphs"),
        ("a bullet list", "a CSV file"),
    ], {"diet": ["vegetarian", "high-protein", "low-sodium", "Mediterranean"]}),
]

# ---------------------------------------------------------------------------
# 6. audience_or_tone
# ---------------------------------------------------------------------------

AUDIENCE_OR_TONE = [
    pair_t("Explain {topic} to {A}.", [
        ("a 6-year-old", "a university professor in the field"),
        ("a complete beginner", "an expert"),
        ("a high school student", "a graduate student"),
        ("someone with no technical background", "a specialist"),
    ], {"topic": ["how black holes form", "how blockchain works",
                  "how insulin regulates blood sugar", "what inflation is",
                  "how neural networks learn", "how the heart pumps blood",
                  "what DNS does", "why the sky is blue", "how mortgages work",
                  "how nuclear fission releases energy"]}),
    pair_t("Write {A} email to my {w}.", [
        ("a formal", "a casual"), ("a polite", "an angry"), ("an apologetic", "a firm"),
        ("a friendly", "a strictly professional"),
    ], {"w": [{"w": "landlord asking for the broken heater to be repaired"},
              {"w": "manager asking for a day off next Friday"},
              {"w": "professor asking for a one-week extension on my essay"},
              {"w": "neighbor asking them to keep their dog quiet at night"}]}),
    pair_t("Write a {A} toast for my {who}'s {event}.", [
        ("funny", "sentimental"), ("short and lighthearted", "serious and heartfelt"),
        ("roast-style", "respectful"),
    ], {"who": ["brother", "best friend", "sister", "colleague"],
        "event": ["wedding", "retirement party", "40th birthday"]}),
    pair_t("Explain the risks of {proc} for {A}.", [
        ("a worried patient", "a surgical resident"),
        ("a patient's teenage child", "an anesthesiologist"),
    ], {"proc": ["knee replacement surgery", "cataract surgery", "an appendectomy",
                 "a colonoscopy", "LASIK eye surgery"]}),
    pair_t("Write a cover letter for a {job} position in a {A} tone.", [
        ("formal", "playful"), ("confident", "humble"), ("conversational", "corporate"),
    ], {"job": ["junior data analyst", "pastry chef", "high school history teacher",
                "mechanical engineer", "museum curator"]}),
    pair_t("Write a {A} review of {thing}.", [
        ("sarcastic", "sincere"), ("glowing", "harsh"), ("funny", "serious"),
    ], {"thing": ["the latest iPhone", "a budget airline flight",
                  "a cheap pizza place near my office", "Microsoft Excel",
                  "a used Honda Civic I just bought"]}),
]

# ---------------------------------------------------------------------------
# 7. role_or_direction_swap
# ---------------------------------------------------------------------------


def swap_pairs(rows, k1="X", k2="Y", extra=None):
    """Turn (x, y[, extra...]) rows into dict pairs with x and y swapped."""
    out = []
    for row in rows:
        x, y = row[0], row[1]
        d1, d2 = {k1: x, k2: y}, {k1: y, k2: x}
        if extra:
            for i, k in enumerate(extra):
                d1[k] = row[2 + i]
                d2[k] = row[2 + i]
        out.append((d1, d2))
    return out


ROLE_SWAP = [
    pair_t("How do I convert {X} to {Y} in {lang}?", swap_pairs([
        ("a string", "an integer"), ("a list", "a tuple"),
        ("a JSON string", "a dictionary"), ("a date string", "a datetime object"),
        ("bytes", "a string"),
    ]), {"lang": ["Python", "Python 3"]}, swap=False),
    pair_t("As a {N} citizen, do I need a visa to visit {C}?", [
        ({"N": "Indian", "C": "Japan"}, {"N": "Japanese", "C": "India"}),
        ({"N": "US", "C": "Brazil"}, {"N": "Brazilian", "C": "the United States"}),
        ({"N": "Chinese", "C": "Canada"}, {"N": "Canadian", "C": "China"}),
        ({"N": "Nigerian", "C": "Germany"}, {"N": "German", "C": "Nigeria"}),
        ({"N": "Russian", "C": "the United Kingdom"}, {"N": "British", "C": "Russia"}),
    ]),
    pair_t("How many {X} are in a {Y}?", [
        ({"X": "cups", "Y": "gallon"}, {"X": "gallons", "Y": "cup"}),
        ({"X": "teaspoons", "Y": "tablespoon"}, {"X": "tablespoons", "Y": "teaspoon"}),
        ({"X": "ounces", "Y": "pound"}, {"X": "pounds", "Y": "ounce"}),
        ({"X": "kilometers", "Y": "mile"}, {"X": "miles", "Y": "kilometer"}),
        ({"X": "milliliters", "Y": "US fluid ounce"}, {"X": "US fluid ounces", "Y": "milliliter"}),
    ]),
    pair_t("Did {X} beat {Y} in the {E}?", swap_pairs([
        ("Argentina", "France", "2022 FIFA World Cup final"),
        ("Spain", "the Netherlands", "2010 FIFA World Cup final"),
        ("Germany", "Argentina", "2014 FIFA World Cup final"),
        ("the Kansas City Chiefs", "the San Francisco 49ers", "Super Bowl LVIII"),
        ("the Golden State Warriors", "the Boston Celtics", "2022 NBA Finals"),
        ("the Los Angeles Dodgers", "the New York Yankees", "2024 World Series"),
    ], extra=["E"])),
    pair_t("How do I merge the {X} branch into the {Y} branch in git?", swap_pairs([
        ("feature", "main"), ("develop", "release"), ("hotfix", "develop"),
        ("main", "staging"),
    ])),
    pair_t("In general, is every {X} also a {Y}?", swap_pairs([
        ("square", "rectangle"), ("whole number", "rational number"),
        ("mammal", "vertebrate"), ("violin", "string instrument"),
        ("bee", "flying insect"), ("square", "rhombus"),
    ])),
    pair_t("Can I move money from my {X} to my {Y} at any time without a penalty?", swap_pairs([
        ("401(k)", "checking account"), ("Roth IRA", "savings account"),
        ("HSA", "checking account"), ("certificate of deposit", "savings account"),
    ])),
    pair_t("How much is {v} {X} when converted to {Y}?", swap_pairs([
        ("degrees Fahrenheit", "degrees Celsius"), ("miles", "kilometers"),
        ("pounds", "kilograms"), ("liters", "US gallons"), ("inches", "centimeters"),
    ]), {"v": ["30", "100", "45", "72", "250"]}),
    pair_t("In a typical {org}, does the {X} report to the {Y}?", swap_pairs([
        ("CFO", "CEO", "company"), ("line cook", "head chef", "restaurant kitchen"),
        ("dean", "provost", "US university"), ("staff nurse", "charge nurse", "hospital ward"),
        ("sergeant", "lieutenant", "army platoon"),
    ], extra=["org"])),
]

# ---------------------------------------------------------------------------
# 8. negation_or_antonym
# ---------------------------------------------------------------------------

NEG_ITEMS = [
    ("Which foods {A} the risk of heart disease?", ("increase", "reduce")),
    ("Which foods are {A} for dogs to eat?", ("safe", "toxic")),
    ("What should I eat {A} a long-distance run?", ("before", "after")),
    ("Which Python list methods {A} the original list in place?", ("modify", "do not modify")),
    ("Which vegetables grow well in {A}?", ("full sun", "deep shade")),
    ("What is the {A} way to get from Heathrow Airport to central London?", ("cheapest", "most expensive")),
    ("Which items are {A} in carry-on bags on US domestic flights?", ("allowed", "prohibited")),
    ("Which countries drive on the {A} side of the road?", ("left", "right")),
    ("Which vitamins are {A}-soluble, and why does that matter?", ("water", "fat")),
    ("What happens to the volume of a gas when its temperature {A} at constant pressure?", ("rises", "falls")),
    ("Which exercises should I {A} if I have a herniated disc?", ("do", "avoid")),
    ("Which common household metals are {A}?", ("magnetic", "non-magnetic")),
    ("How do I make a JavaScript function run {A}?", ("synchronously", "asynchronously")),
    ("Which months are the {A} time to visit Thailand?", ("best", "worst")),
    ("What habits {A} your credit score the most?", ("improve", "hurt")),
    ("Which SQL statements {A} be rolled back inside a PostgreSQL transaction?", ("can", "cannot")),
    ("List the ten {A} countries in the world.", ("most populous", "least populous")),
    ("What is the {A} temperature ever recorded on Earth?", ("highest", "lowest")),
    ("In music theory, which intervals are considered {A}?", ("consonant", "dissonant")),
    ("Which common antibiotics should be taken {A} food?", ("with", "without")),
    ("How do I turn {A} Track Changes in Microsoft Word?", ("on", "off")),
    ("Why do ice cubes {A} in a glass of water?", ("float", "sink")),
    ("Which popular houseplants need {A} watering?", ("frequent", "infrequent")),
    ("Why does my car engine run too {A}?", ("hot", "cold")),
    ("How do I {A} a Python virtual environment from the terminal?", ("activate", "deactivate")),
    ("Which kinds of stocks tend to do well when interest rates {A}?", ("rise", "fall")),
    ("Which chess openings are {A} for beginners?", ("suitable", "unsuitable")),
    ("Which spices should I add {A} when cooking a curry?", ("early", "late")),
    ("What are the {A} of leasing a car instead of buying one?", ("advantages", "disadvantages")),
    ("Which stretches are {A} during pregnancy?", ("recommended", "discouraged")),
    ("Which countries have {A} compulsory voting?", ("introduced", "abolished")),
    ("What are signs that bread dough is {A}-proofed?", ("under", "over")),
    ("Which bones in the human body are the {A}?", ("longest", "shortest")),
    ("Which European capitals are {A} for tourists?", ("cheapest", "priciest")),
]

NEGATION = [pair_t(t, [p]) for t, p in NEG_ITEMS]

# ---------------------------------------------------------------------------
# 9. number_unit_or_date
# ---------------------------------------------------------------------------


def g_weekday(r):
    dates = [(1989, 11, 9), (1969, 7, 20), (1941, 12, 7), (1944, 6, 6),
             (1912, 4, 15), (1929, 10, 29), (2001, 9, 11), (1963, 11, 22),
             (1865, 4, 14), (1990, 10, 3)]
    for _ in range(200):
        y, m, d = r.choice(dates)
        d1 = datetime.date(y, m, d)
        if r.random() < 0.5:
            d2 = d1 + datetime.timedelta(days=r.choice([1, 2, 3, -1, -2, -3]))
        else:
            try:
                d2 = d1.replace(year=y + r.choice([1, 2, 10, -1, -5]))
            except ValueError:
                continue
        if d1.weekday() != d2.weekday():
            break
    else:
        return None

    def fmt(dt):
        return "%s %d, %d" % (dt.strftime("%B"), dt.day, dt.year)

    phr = r.choice(["What day of the week was {d}?",
                    "On which day of the week did {d} fall?"])
    return phr.format(d=fmt(d1)), phr.format(d=fmt(d2))


def g_tip(r):
    p1 = r.choice([15, 18, 20, 22, 25])
    b1 = r.choice([48, 64, 85, 120, 37.5])
    if r.random() < 0.5:
        p2, b2 = r.choice([x for x in [10, 15, 18, 20, 25] if x != p1]), b1
    else:
        p2, b2 = p1, r.choice([x for x in [42, 60, 95, 150] if x != b1])

    def money(b):
        return ("%.2f" % b) if b != int(b) else str(int(b))

    phr = "What is a {p}% tip on a ${b} restaurant bill?"
    return phr.format(p=p1, b=money(b1)), phr.format(p=p2, b=money(b2))


NUMBER_UNIT_DATE = [
    g_weekday, g_tip,
    pair_t("How long should I roast a {A}-pound turkey at 325 degrees F?", [
        ("12", "20"), ("10", "24"), ("14", "22")]),
    pair_t("Is a resting heart rate of {A} beats per minute normal for an adult?", [
        ("72", "135"), ("65", "150"), ("80", "38"), ("60", "120")]),
    pair_t("Write a cron expression that runs a backup script every day at {A}.", [
        ("3:00 AM", "3:00 PM"), ("2:30 AM", "4:15 AM"), ("midnight", "noon"),
        ("6:00 AM", "6:00 PM")]),
    pair_t("Write a crontab line that runs /usr/local/bin/sync.sh every {A} minutes.", [
        ("5", "15"), ("10", "30"), ("2", "20")]),
    pair_t("Plan a {A}-day itinerary for a first trip to {city}.", [
        ("3", "7"), ("2", "5"), ("4", "10")],
        {"city": ["Lisbon", "Kyoto", "Mexico City", "Istanbul", "Prague", "Cape Town"]}),
    pair_t("Roughly how much is {amt} US dollars in {A}?", [
        ("euros", "Japanese yen"), ("British pounds", "Mexican pesos"),
        ("Canadian dollars", "Indian rupees")], {"amt": ["250", "1,000", "75"]}),
    pair_t("How many calories are in one {A} of {food}?", [
        ("cup", "tablespoon"), ("ounce", "pound"), ("cup", "gram")],
        {"food": ["cooked white rice", "peanut butter", "shredded cheddar cheese",
                  "rolled oats"]}),
    pair_t("Who won the Nobel Prize in {field} in {A}?", [
        ("2018", "2019"), ("2020", "2021"), ("2015", "2016"), ("2022", "2023")],
        {"field": ["Physics", "Chemistry", "Literature", "Physiology or Medicine"]}),
    pair_t("What is the boiling point of water at an altitude of {A} meters?", [
        ("1,000", "4,000"), ("500", "3,000"), ("2,000", "5,000")]),
    pair_t("How much will I have after {A} if I invest $5,000 at 6% interest compounded annually?", [
        ("5 years", "15 years"), ("10 years", "10 months"), ("20 years", "30 years")]),
]

# ---------------------------------------------------------------------------
# 10. entity_swap
# ---------------------------------------------------------------------------

SPORTS_TITLES = [
    ("Real Madrid", "Barcelona", "UEFA Champions League"),
    ("the Boston Celtics", "the Chicago Bulls", "NBA"),
    ("the New York Yankees", "the St. Louis Cardinals", "World Series"),
    ("Brazil", "Germany", "FIFA World Cup"),
    ("the Montreal Canadiens", "the Toronto Maple Leafs", "Stanley Cup"),
    ("Italy", "Argentina", "FIFA World Cup"),
]


def g_titles(r):
    a, b, comp = r.choice(SPORTS_TITLES)
    if r.random() < 0.5:
        a, b = b, a
    phr = "What is the total number of {c} titles won by {t}?"
    return phr.format(t=a, c=comp), phr.format(t=b, c=comp)


ENTITY_SWAP = [
    ent_t("What is the capital of {E}?", [
        "Australia", "Canada", "Brazil", "Turkey", "Nigeria", "Switzerland",
        "Kazakhstan", "Myanmar", "New Zealand", "Morocco", "Vietnam", "Pakistan"]),
    ent_t("What is the atomic number of {E}?", [
        "gold", "iron", "oxygen", "uranium", "sodium", "carbon", "mercury",
        "silver", "helium", "tungsten"]),
    ent_t("Who founded {E}, and in what year?", [
        "Microsoft", "Apple", "Amazon", "Nvidia", "Netflix", "Airbnb",
        "Spotify", "IKEA", "Samsung", "Oracle"]),
    ent_t("How do I read a CSV file into a table with {E} in Python?", [
        "pandas", "polars", "the csv module", "NumPy", "PySpark", "DuckDB"]),
    g_titles,
    ent_t("What is the best time of year to visit {E}?", [
        "Kyoto", "Reykjavik", "Marrakech", "Cape Town", "Bangkok",
        "Buenos Aires", "Vancouver", "Cusco", "Dubai"]),
    ent_t("What were the main scientific achievements of {E}?", [
        "Marie Curie", "Isaac Newton", "Ada Lovelace", "Nikola Tesla",
        "Rosalind Franklin", "Alan Turing", "Charles Darwin", "Louis Pasteur"]),
    ent_t("How tall is {E} in meters?", [
        "Mount Everest", "K2", "Mont Blanc", "Denali", "Kilimanjaro",
        "Aconcagua", "Mount Fuji", "the Matterhorn"]),
]


# ---------------------------------------------------------------------------
# 11. quantifier_or_scope
# ---------------------------------------------------------------------------

QUANT_ITEMS = [
    ("How many calories should an average adult woman eat per {A}?", ("day", "week")),
    ("Write a SQL query that shows the {A} order value for each customer.", ("total", "average")),
    ("Do {A} mammals lay eggs instead of giving birth?", ("any", "all")),
    ("Is it true that {A} prime numbers are odd?", ("all", "most")),
    ("Does {A} country in the European Union use the euro?", ("every", "any")),
    ("Can {A} of the noble gases form chemical compounds?", ("any", "all")),
    ("Are {A} snakes venomous to humans?", ("all", "some")),
    ("Do {A} US states observe daylight saving time?", ("all", "most")),
    ("How do I remove {A} of a value from a Python list?", ("all occurrences", "only the first occurrence")),
    ("In JavaScript, how do I replace {A} occurrence of a substring in a string?", ("every", "only the first")),
    ("What is the total price {A} sales tax for three items at $19.99 each with 8% tax?", ("including", "excluding")),
    ("How many people visit the Louvre per {A} on average?", ("day", "year")),
    ("Is a salary of $6,000 per {A} good for living in Denver?", ("month", "year")),
    ("What is the {A} distance of the Tour de France?", ("total", "average stage")),
    ("How many hours of sleep does a teenager need per {A}?", ("night", "week")),
    ("How do I print {A} lines of a file in bash?", ("all", "only the first 10")),
    ("How much water should an adult drink per {A}?", ("day", "hour")),
    ("Which of the Great Lakes are {A} in the United States?", ("entirely", "partly")),
    ("What percentage of {A} voters turned out in the 2020 US presidential election?", ("eligible", "registered")),
    ("How do I delete {A} rows in a pandas DataFrame that contain missing values?", ("all", "only the first")),
    ("What is the {A} rainfall in Seattle in November?", ("average daily", "total")),
]

QUANTIFIER = [pair_t(t, [p]) for t, p in QUANT_ITEMS]

# ---------------------------------------------------------------------------
# 12. condition_or_exception
# ---------------------------------------------------------------------------

CONDITION = [
    pair_t("How do I make a {dish}{A}?", [
        ("", " without an oven"), (" without eggs", " without flour"),
        (" for a vegan", " for someone with celiac disease"),
        ("", " at high altitude")],
        {"dish": ["chocolate cake", "loaf of banana bread", "batch of brownies",
                  "cheesecake"]}),
    pair_t("Can I take ibuprofen for a {pain}{A}?", [
        ("", " if I am pregnant"), (" if I have asthma", " if I have no other conditions"),
        ("", " while taking blood thinners"), (" on an empty stomach", " with food")],
        {"pain": ["headache", "sprained ankle", "toothache", "sore back"]}),
    pair_t("How do I install {sw} {A}?", [
        ("on Windows", "on macOS"), ("on Ubuntu", "on Windows"),
        ("on a Mac with an M2 chip", "on a Raspberry Pi"), ("with admin rights", "without admin rights")],
        {"sw": ["Python 3.12", "Node.js", "PostgreSQL", "Docker", "Git"]}),
    pair_t("How do I take a screenshot {A}?", [
        ("on Windows 11", "on a Mac"), ("on an iPhone", "on an Android phone"),
        ("on a Chromebook", "on Ubuntu Linux"), ("of the whole screen on a Mac", "of just one window on a Mac")]),
    pair_t("What is the best way to travel around {country} {A}?", [
        ("on a tight budget", "in a wheelchair"), ("with two toddlers", "as a solo backpacker"),
        ("in winter", "without a driver's license")],
        {"country": ["Japan", "Italy", "Norway", "Peru", "New Zealand"]}),
    pair_t("How should I invest $10,000 {A}?", [
        ("if I need the money in one year", "if I won't touch it for 30 years"),
        ("if I already have high-interest debt", "if I have no debt and an emergency fund"),
        ("as a 25-year-old", "as a 70-year-old retiree")]),
    pair_t("Can I break my apartment lease early in {st} {A}?", [
        ("if I'm called up for military service", "if I just don't like the neighborhood"),
        ("if my landlord won't fix the heating", "if I bought a house")],
        {"st": ["California", "Texas", "New York", "Florida"]}),
    pair_t("What vegetables should I plant in spring {A}?", [
        ("in a cold northern climate", "in a hot desert climate"),
        ("if I only have a shady balcony", "if I have a big sunny yard"),
        ("in containers", "in clay soil")]),
]

# ---------------------------------------------------------------------------
# 13. tense_or_time_frame
# ---------------------------------------------------------------------------

TENSE = [
    pair_t("What {V} in {city} {W}?", [
        ({"V": "was the weather like", "W": "yesterday"}, {"V": "will the weather be like", "W": "tomorrow"}),
        ({"V": "was the weather like", "W": "last weekend"}, {"V": "will the weather be like", "W": "next weekend"}),
    ], {"city": ["London", "Chicago", "Madrid", "Sydney", "Toronto", "Mumbai"]}),
    pair_t("When {A} total solar eclipse visible from {place}?", [
        ("was the last", "is the next")],
        {"place": ["the United States", "Spain", "Australia", "Mexico", "Egypt", "Chile"]}),
    pair_t("Where {V} the {W} {event} {X}?", [
        ({"V": "was", "W": "most recent", "X": "held"}, {"V": "will", "W": "next", "X": "be held"})],
        {"event": ["Summer Olympics", "Winter Olympics", "FIFA World Cup",
                   "Commonwealth Games", "Eurovision Song Contest"]}),
    pair_t("How {V} climate change {W} {crop} farming in {region}?", [
        ({"V": "has", "W": "affected"}, {"V": "will", "W": "affect"})],
        {"crop": ["coffee", "wine grape", "wheat", "rice", "cocoa"],
         "region": ["Brazil", "France", "Australia", "Vietnam", "West Africa"]}),
    pair_t("What {A} in {country}?", [
        ("was the inflation rate last year", "will the inflation rate be next year"),
        ("was the unemployment rate last year", "will the unemployment rate be next year")],
        {"country": ["the United States", "Germany", "Japan", "Brazil", "Canada"]}),
    pair_t("Which version of {lang} {A}?", [
        ("was released most recently", "will be released next"),
        ("came out last year", "is scheduled to come out next year")],
        {"lang": ["Python", "Node.js", "Java", "Ubuntu", "PostgreSQL"]}),
    pair_t("How much {A} a gallon of gas cost in {st} {W}?", [
        ({"A": "did", "W": "last summer"}, {"A": "will", "W": "next summer"}),
        ({"A": "did", "W": "in 2008"}, {"A": "does", "W": "today"})],
        {"st": ["California", "Texas", "Ohio", "Florida"]}),
    pair_t("What {A} the biggest trends in {field} {W}?", [
        ({"A": "were", "W": "last year"}, {"A": "will be", "W": "next year"}),
        ({"A": "were", "W": "a decade ago"}, {"A": "will be", "W": "a decade from now"})],
        {"field": ["web development", "electric cars", "personal finance apps",
                   "home gardening", "pop music"]}),
    pair_t("What {A} the population of {city} {W}?", [
        ({"A": "was", "W": "in 1950"}, {"A": "will be", "W": "in 2050"}),
        ({"A": "was", "W": "ten years ago"}, {"A": "will be", "W": "ten years from now"})],
        {"city": ["Lagos", "Tokyo", "Sao Paulo", "Delhi", "Cairo", "Jakarta"]}),
]

# ---------------------------------------------------------------------------
# 14. question_target
# ---------------------------------------------------------------------------

QUESTION_TARGET = [
    pair_t("What are the {A} {dis}?", [
        ("symptoms of", "causes of"), ("symptoms of", "treatment options for"),
        ("causes of", "complications of"), ("risk factors for", "treatment options for")],
        {"dis": ["iron deficiency anemia", "gout", "migraine", "appendicitis",
                 "Lyme disease", "hypothyroidism", "shingles", "kidney stones"]}),
    pair_t("{P} {thing}{S}?", [
        ({"P": "Who is credited with inventing", "S": ""},
         {"P": "In what year was", "S": " first invented"}),
        ({"P": "In which country was", "S": " first invented"},
         {"P": "In what year was", "S": " first invented"}),
        ({"P": "Who is credited with inventing", "S": ""},
         {"P": "In which country was", "S": " first invented"})],
        {"thing": ["the telephone", "the printing press", "the light bulb",
                   "the World Wide Web", "the transistor", "dynamite", "the jet engine"]}),
    pair_t("What is the {A} of the {yr} {car}?", [
        ("price", "curb weight"), ("top speed", "fuel economy"),
        ("horsepower", "towing capacity"), ("cargo space", "0-60 mph time")],
        {"yr": ["2020", "2022", "2023"],
         "car": ["Toyota Prius", "Tesla Model 3", "Ford F-150", "Honda Civic",
                 "Porsche 911", "Subaru Outback"]}),
    pair_t("{A} from {c} by car?", [
        ("How far is it", "How long does it take to get")],
        {"c": ["Paris to Lyon", "Boston to New York City", "Los Angeles to San Francisco",
               "Berlin to Munich", "Toronto to Montreal", "Madrid to Barcelona"]}),
    pair_t("What is the {A} of {country}?", [
        ("population", "land area"), ("currency", "official language"),
        ("highest mountain", "longest river"), ("national dish", "national sport")],
        {"country": ["Argentina", "Poland", "Kenya", "Indonesia", "Canada", "Egypt"]}),
    pair_t("What is the {A} of `{op}` in Python?", [
        ("time complexity", "return value"), ("time complexity", "space complexity")],
        {"op": ["list.sort()", "list.pop(0)", "dict.get(key)", "list.append(x)",
                "set.add(x)", "sorted(items)"]}),
    pair_t("{P} the Battle of {b}{S}?", [
        ({"P": "When was", "S": " fought"}, {"P": "Who won", "S": ""}),
        ({"P": "Where was", "S": " fought"}, {"P": "How many soldiers died in", "S": ""}),
        ({"P": "Who won", "S": ""}, {"P": "Why was", "S": " fought"})],
        {"b": ["Hastings", "Waterloo", "Gettysburg", "Stalingrad", "Agincourt", "Midway"]}),
    pair_t("{A} should I bake {food}?", [
        ("How long", "At what temperature")],
        {"food": ["a loaf of banana bread", "bone-in chicken thighs", "a whole sweet potato",
                  "salmon fillets", "chocolate chip cookies"]}),
    pair_t("What is the {A} for {crime} in {st}?", [
        ("statute of limitations", "maximum penalty")],
        {"crime": ["petty theft", "a first DUI offense", "tax evasion"],
         "st": ["California", "Texas", "New York"]}),
]

# ---------------------------------------------------------------------------
# Positives
# ---------------------------------------------------------------------------

SYNONYMS = [
    para_t("Which {x} is the biggest?", "What is the largest {x}?",
           {"x": ["planet in the solar system", "ocean on Earth", "desert in the world",
                  "country in Africa by area", "organ in the human body",
                  "lake in North America", "moon of Saturn"]}),
    para_t("How can I fix a {p}?", "How can I repair a {p}?",
           {"p": ["leaking kitchen faucet", "flat bicycle tire", "squeaky door hinge",
                  "running toilet", "wobbly chair leg"]}),
    para_t("What is the quickest way to {t}?", "What is the fastest way to {t}?",
           {"t": ["defrost chicken safely", "reverse a string in Python",
                  "remove duplicate rows in Excel", "get from JFK Airport to Manhattan",
                  "cool down a hot car in summer"]}),
    para_t("Is it hard to {h}?", "Is it difficult to {h}?",
           {"h": ["learn the piano as an adult", "grow orchids indoors",
                  "pass the bar exam on the first try", "switch from Windows to Linux",
                  "learn Japanese as an English speaker"]}),
    para_t("What are the benefits of {b}?", "What are the advantages of {b}?",
           {"b": ["index funds over individual stocks", "using TypeScript instead of JavaScript",
                  "raised garden beds", "a heat pump over a gas furnace",
                  "a standing desk"]}),
    para_t("How do I begin {s}?", "How do I start {s}?",
           {"s": ["learning to play the guitar", "investing with a small amount of money",
                  "a vegetable garden from scratch", "running when I am out of shape",
                  "journaling every day"]}),
]

QUESTION_VS_IMPERATIVE = [
    para_t("How do I {x}?", "Tell me how to {x}.",
           {"x": ["boil an egg so the yolk stays soft", "center a div with CSS",
                  "set up a monthly budget", "check tire pressure on my car",
                  "undo the last commit in git", "descale a coffee machine"]}),
    para_t("What is the definition of {d}?", "Give me the definition of {d}.",
           {"d": ["entropy in thermodynamics", "opportunity cost in economics",
                  "a closure in JavaScript", "habeas corpus in law",
                  "a mutual fund in personal finance"]}),
    para_t("What are {l}?", "List {l}.",
           {"l": ["the stages of mitosis in order", "the countries that share a border with Germany",
                  "the noble gases on the periodic table",
                  "the planets of the solar system in order from the Sun",
                  "the main symptoms of iron deficiency anemia",
                  "the ingredients in a classic Caesar salad"]}),
    para_t("{q}", "{i}",
           {"r": [{"q": "How many bones are in the adult human body?",
                   "i": "Tell me how many bones are in the adult human body."},
                  {"q": "How many players are on a rugby union team?",
                   "i": "Tell me how many players are on a rugby union team."},
                  {"q": "How many keys does a standard piano have?",
                   "i": "Tell me how many keys a standard piano has."},
                  {"q": "How many states are there in Australia?",
                   "i": "Tell me how many states there are in Australia."}]}),
    para_t("What is a good {x} for {y}?", "Suggest a good {x} for {y}.",
           {"r": [{"x": "laptop", "y": "a computer science student"},
                  {"x": "houseplant", "y": "a dark apartment"},
                  {"x": "book", "y": "learning SQL from scratch"},
                  {"x": "stretch", "y": "tight hamstrings"},
                  {"x": "name", "y": "a golden retriever puppy"}]}),
]

TASKS = ["convert 5 miles to kilometers and show the math", "summarize the causes of the French Revolution",
         "write a Python function that checks if a number is prime",
         "explain the difference between a Roth IRA and a traditional IRA",
         "suggest three herbs that grow well indoors", "list the common symptoms of dehydration in adults",
         "translate 'good morning, how are you' into Italian",
         "recommend a beginner workout routine for three days a week",
         "write a bash one-liner that counts the lines in every .txt file"]
TASK_ROWS = [{"x": t, "X": capfirst(t)} for t in TASKS]

DIRECT_INDIRECT = [
    ("What is the boiling point of ethanol?", "what the boiling point of ethanol is"),
    ("How many ounces are in a pound?", "how many ounces are in a pound"),
    ("When did the Berlin Wall fall?", "when the Berlin Wall fell"),
    ("Why is the sky blue during the day?", "why the sky is blue during the day"),
    ("Who wrote the novel Pride and Prejudice?", "who wrote the novel Pride and Prejudice"),
    ("How does a heat pump work?", "how a heat pump works"),
    ("What does HTTP status code 404 mean?", "what HTTP status code 404 means"),
    ("Where exactly is Machu Picchu located?", "where exactly Machu Picchu is located"),
    ("What causes the tides in the ocean?", "what causes the tides in the ocean"),
    ("How long should I steep green tea?", "how long I should steep green tea"),
]
DI_ROWS = [{"D": d, "d": lowfirst(d), "ind": i} for d, i in DIRECT_INDIRECT]

POLITE_WRAPPER = [
    para_t("{X}.", "Could you please {x}?", {"r": TASK_ROWS}),
    para_t("{X}.", "I'd appreciate it if you could {x}.", {"r": TASK_ROWS}),
    para_t("{D}", "I'd like to know {ind}.", {"r": DI_ROWS}),
    para_t("{D}", "Could you tell me {ind}, please?", {"r": DI_ROWS}),
    para_t("{X}.", "Would you kindly {x}?", {"r": TASK_ROWS}),
]

EXPLAIN_TOPICS = ["how a hash table works", "the difference between TCP and UDP",
                  "how the Federal Reserve sets interest rates",
                  "what causes the seasons on Earth", "how compound interest works on a savings account",
                  "the basic rules of cricket", "how a refrigerator keeps food cold",
                  "what a SQL index does", "how mRNA vaccines train the immune system",
                  "how a car's anti-lock braking system works"]

CAN_YOU_EXPLAIN = [
    para_t("Can you explain {x}?", "Explain {x}.", {"x": EXPLAIN_TOPICS}),
    para_t("Could you explain {x}?", "Please explain {x}.", {"x": EXPLAIN_TOPICS}),
    para_t("Can you explain {x}?", "Give me an explanation of {x}.", {"x": EXPLAIN_TOPICS}),
    para_t("Can you explain to me {x}?", "I want you to explain {x}.", {"x": EXPLAIN_TOPICS}),
    para_t("Are you able to explain {x}?", "Explain {x}, please.", {"x": EXPLAIN_TOPICS}),
]

CASE_BASE = [
    "What is the capital city of Australia?",
    "How do I reset my router to factory settings?",
    "What are the symptoms of vitamin D deficiency?",
    "How long does it take to boil pasta al dente?",
    "Which planet has the most moons in the solar system?",
    "How do I change the oil in a Toyota Corolla?",
    "What is the difference between weather and climate?",
    "When should I prune apple trees in a cold climate?",
    "How many players are on a basketball team on the court?",
    "What is the best way to store fresh basil?",
    "Who painted the ceiling of the Sistine Chapel?",
    "How do I freeze the top row in a spreadsheet?",
]


def _t_lower(s, r):
    return s.lower()


def _t_upper(s, r):
    return s.upper()


def _t_nopunct(s, r):
    return s.rstrip("?.!")


def _t_spaces(s, r):
    words = s.split(" ")
    k = r.randrange(1, len(words))
    return " ".join(words[:k]) + "   " + " ".join(words[k:])


def _t_pad(s, r):
    return r.choice(["  ", "\t", " "]) + s + r.choice(["  ", "\n", " \n"])


def _t_lower_nopunct(s, r):
    return s.lower().rstrip("?")


def _t_extra_punct(s, r):
    return s + r.choice(["??", "?!", " ?"])


def case_gen(transform):
    def gen(r):
        s = r.choice(CASE_BASE)
        q = transform(s, r)
        if r.random() < 0.3:
            s, q = q, s
        return s, q
    return gen


CASING = [case_gen(f) for f in (_t_lower, _t_upper, _t_nopunct, _t_spaces, _t_pad,
                                _t_lower_nopunct, _t_extra_punct)]

CONTRACTIONS = [
    para_t("What's the best way to {x}?", "What is the best way to {x}?",
           {"x": ["clean a cast iron pan", "learn SQL in a month", "pay off student loans",
                  "get rid of aphids on roses", "memorize a speech"]}),
    para_t("I can't {x}. What should I do?", "I cannot {x}. What should I do?",
           {"x": ["fall asleep before 2 AM", "log in to my Gmail account",
                  "get my car to start in the cold", "pip install packages behind a proxy",
                  "stop my basil from wilting"]}),
    para_t("Why doesn't {s} {v}?", "Why does {s} not {v}?",
           {"r": [{"s": "my bread dough", "v": "rise in the oven"},
                  {"s": "my Python script", "v": "find the module I installed"},
                  {"s": "my laptop", "v": "connect to the hotel Wi-Fi"},
                  {"s": "my sourdough starter", "v": "bubble after feeding"},
                  {"s": "my VLOOKUP formula", "v": "return the right value"}]}),
    para_t("I'm planning {x}. What should I pack?", "I am planning {x}. What should I pack?",
           {"x": ["a week in Iceland in March", "a hiking trip in the Alps",
                  "a beach holiday in Bali", "a business trip to Chicago in January"]}),
    para_t("Why shouldn't I {x}?", "Why should I not {x}?",
           {"x": ["mix bleach and ammonia", "store tomatoes in the fridge",
                  "use eval() on user input in Python", "put metal in a microwave",
                  "water my lawn in the afternoon"]}),
    para_t("It's {c}. Is it still safe to {x}?", "It is {c}. Is it still safe to {x}?",
           {"r": [{"c": "been two days since I cooked this rice", "x": "eat it"},
                  {"c": "past the expiry date on my eggs by a week", "x": "eat them"},
                  {"c": "snowing lightly", "x": "drive on summer tires"},
                  {"c": "been four hours since I took ibuprofen", "x": "take another dose"}]}),
]

REORDER = [
    para_t("If {c}, {m}?", "{M} if {c}?",
           {"r": [{"c": "I'm flying to Japan in April", "m": "what should I pack", "M": "What should I pack"},
                  {"c": "my dog eats chocolate", "m": "what should I do", "M": "What should I do"},
                  {"c": "I earn $60,000 a year", "m": "how much rent can I afford", "M": "How much rent can I afford"},
                  {"c": "a Python dict key is missing", "m": "how do I return a default value", "M": "How do I return a default value"}]}),
    para_t("When {c}, {m}?", "{M} when {c}?",
           {"r": [{"c": "the check engine light comes on", "m": "what should I check first", "M": "What should I check first"},
                  {"c": "tomato leaves turn yellow", "m": "what is usually the cause", "M": "What is usually the cause"},
                  {"c": "a fever lasts more than three days", "m": "should I see a doctor", "M": "Should I see a doctor"},
                  {"c": "a git merge has conflicts", "m": "how do I resolve them", "M": "How do I resolve them"}]}),
    para_t("Before {c}, {m}?", "{M} before {c}?",
           {"r": [{"c": "buying a used car", "m": "what should I inspect", "M": "What should I inspect"},
                  {"c": "signing a lease", "m": "which clauses should I read carefully", "M": "Which clauses should I read carefully"},
                  {"c": "running a marathon", "m": "what should I eat", "M": "What should I eat"},
                  {"c": "upgrading to PostgreSQL 16", "m": "what should I back up", "M": "What should I back up"}]}),
    para_t("In {l}, how do I {x}?", "How do I {x} in {l}?",
           {"r": [{"l": "Python", "x": "read a file line by line"},
                  {"l": "JavaScript", "x": "deep copy an object"},
                  {"l": "Excel", "x": "remove duplicate rows"},
                  {"l": "bash", "x": "loop over all files in a directory"},
                  {"l": "SQL", "x": "find duplicate email addresses"}]}),
    para_t("For {a}, what {m}?", "What {m} for {a}?",
           {"r": [{"a": "a beginner guitarist", "m": "is a good first song to learn"},
                  {"a": "a family of four", "m": "is a reasonable weekly grocery budget"},
                  {"a": "someone with lactose intolerance", "m": "are good sources of calcium"},
                  {"a": "a first visit to Paris", "m": "are the must-see sights"}]}),
]

ACTIVE_PASSIVE = [
    para_t("Which author wrote {w}?", "By which author was {w} written?",
           {"w": ["One Hundred Years of Solitude", "the novel Frankenstein",
                  "The Wealth of Nations", "the play Death of a Salesman",
                  "the poem The Raven"]}),
    para_t("Which artist painted {p}?", "Which artist was {p} painted by?",
           {"p": ["the Mona Lisa", "The Starry Night", "Girl with a Pearl Earring",
                  "The Persistence of Memory", "the Sistine Chapel ceiling"]}),
    para_t("Which scientist discovered {d}?", "By which scientist was {d} discovered?",
           {"d": ["the antibiotic penicillin", "the element radium", "the element polonium",
                  "the planet Uranus", "the ring structure of benzene"]}),
    para_t("Which company makes {p}?", "Which company is {p} made by?",
           {"p": ["the PlayStation console", "the Prius hybrid car", "the Switch game console",
                  "the Kindle e-reader", "the Galaxy line of phones"]}),
    para_t("When did {a} {v} {o}?", "When was {o} {pp} by {a}?",
           {"r": [{"a": "the United States", "v": "purchase", "o": "Alaska", "pp": "purchased"},
                  {"a": "Hernan Cortes", "v": "conquer", "o": "the Aztec capital", "pp": "conquered"},
                  {"a": "Edmund Hillary and Tenzing Norgay", "v": "climb", "o": "Mount Everest", "pp": "climbed"},
                  {"a": "Gustave Eiffel's company", "v": "build", "o": "the Eiffel Tower", "pp": "built"},
                  {"a": "Tim Berners-Lee", "v": "invent", "o": "the World Wide Web", "pp": "invented"}]}),
]

LIST_TEMPLATES = [
    ("I have {a}, {b} and {c} in my kitchen. What can I cook for dinner?", [
        ["eggs", "spinach", "feta cheese"], ["chicken thighs", "rice", "broccoli"],
        ["tofu", "bell peppers", "soy sauce"], ["pasta", "canned tomatoes", "garlic"]]),
    ("What are the capitals of {a}, {b} and {c}?", [
        ["Peru", "Kenya", "Finland"], ["Canada", "Australia", "Turkey"],
        ["Vietnam", "Chile", "Hungary"], ["Morocco", "Norway", "Thailand"]]),
    ("What are the main differences between {a}, {b} and {c}?", [
        ["Python", "Java", "C++"], ["PostgreSQL", "MySQL", "SQLite"],
        ["stocks", "bonds", "index funds"], ["React", "Vue", "Angular"]]),
    ("Can I grow {a}, {b} and {c} together in the same raised bed?", [
        ["tomatoes", "basil", "marigolds"], ["carrots", "onions", "lettuce"],
        ["beans", "corn", "squash"], ["peppers", "cucumbers", "dill"]]),
    ("How many calories are in {a}, {b} and {c} combined?", [
        ["one banana", "one apple", "a cup of milk"],
        ["two eggs", "a slice of toast", "a tablespoon of butter"],
        ["a bagel", "an orange", "a cup of black coffee"]]),
    ("Which of these has the highest boiling point: {a}, {b} or {c}?", [
        ["water", "ethanol", "acetone"], ["mercury", "bromine", "water"],
        ["methane", "ammonia", "propane"]]),
]


def list_gen(idx):
    text, sets = LIST_TEMPLATES[idx]

    def gen(r):
        items = list(r.choice(sets))
        perm = list(items)
        while perm == items:
            r.shuffle(perm)
        s = text.format(a=items[0], b=items[1], c=items[2])
        q = text.format(a=perm[0], b=perm[1], c=perm[2])
        return s, q
    return gen


WORD_ORDER = [list_gen(i) for i in range(len(LIST_TEMPLATES))]

FILLER = [
    para_t("{D}", "Hey, {d}", {"r": DI_ROWS}),
    para_t("{D}", "So, {d}", {"r": DI_ROWS}),
    para_t("{D}", "Um, quick question: {d}", {"r": DI_ROWS}),
    para_t("I want to know {ind}.", "I just want to know {ind}.", {"r": DI_ROWS}),
    para_t("Can you tell me {ind}?", "Can you just quickly tell me {ind}?", {"r": DI_ROWS}),
    para_t("{D}", "Okay, so, {d}", {"r": DI_ROWS}),
]

NEAR_MISS = [
    ("code_operator", CODE_OPERATOR),
    ("regex_or_format_string", REGEX_OR_FORMAT),
    ("sql_condition", SQL_CONDITION),
    ("answer_length", ANSWER_LENGTH),
    ("output_format_or_language", OUTPUT_FORMAT),
    ("audience_or_tone", AUDIENCE_OR_TONE),
    ("role_or_direction_swap", ROLE_SWAP),
    ("negation_or_antonym", NEGATION),
    ("number_unit_or_date", NUMBER_UNIT_DATE),
    ("entity_swap", ENTITY_SWAP),
    ("quantifier_or_scope", QUANTIFIER),
    ("condition_or_exception", CONDITION),
    ("tense_or_time_frame", TENSE),
    ("question_target", QUESTION_TARGET),
]

POSITIVE = [
    ("synonyms", SYNONYMS),
    ("question_vs_imperative", QUESTION_VS_IMPERATIVE),
    ("polite_wrapper", POLITE_WRAPPER),
    ("can_you_explain", CAN_YOU_EXPLAIN),
    ("casing_and_whitespace", CASING),
    ("contractions", CONTRACTIONS),
    ("reordered_clauses", REORDER),
    ("active_vs_passive", ACTIVE_PASSIVE),
    ("word_order_of_a_list", WORD_ORDER),
    ("filler_words", FILLER),
]

DESCRIPTION = (
    "Held-out set v15 for a semantic prompt cache, generated from templates and "
    "public-fact word lists with random.Random(151515). 'text_pairs' holds 210 "
    "near-miss pairs (14 categories x 15): the query shares most of its wording "
    "with the stored prompt but needs a different answer, so a cache hit would be "
    "wrong. 'positives' holds 100 true paraphrase pairs (10 categories x 10) that "
    "deserve the same answer. Written without reading the cache's code, tests or "
    "earlier sets; for measurement only."
)


def build(groups, n, r, seen):
    out = []
    for name, templates in groups:
        order = list(templates)
        r.shuffle(order)
        got = 0
        i = 0
        tries = 0
        while got < n:
            tries += 1
            if tries > 5000:
                raise RuntimeError("could not fill category %s" % name)
            gen = order[i % len(order)]
            i += 1
            res = gen(r)
            if res is None:
                continue
            s, q = res
            if s == q or (s, q) in seen or (q, s) in seen:
                continue
            for t in (s, q):
                nw = len(t.split())
                if not MIN_WORDS <= nw <= MAX_WORDS:
                    raise ValueError("word count %d out of range in %s: %r" % (nw, name, t))
            seen.add((s, q))
            out.append({"category": name, "stored": s, "query": q})
            got += 1
    return out


def main():
    r = random.Random(SEED)
    seen = set()
    for name, templates in NEAR_MISS + POSITIVE:
        assert len(templates) >= 4, name
    text_pairs = build(NEAR_MISS, N_NEAR, r, seen)
    positives = build(POSITIVE, N_POS, r, seen)

    assert len(NEAR_MISS) == 14 and len(POSITIVE) == 10
    assert len(text_pairs) == 14 * N_NEAR == 210
    assert len(positives) == 10 * N_POS == 100
    for name, _ in NEAR_MISS:
        assert sum(1 for p in text_pairs if p["category"] == name) == N_NEAR, name
    for name, _ in POSITIVE:
        assert sum(1 for p in positives if p["category"] == name) == N_POS, name
    for p in text_pairs + positives:
        assert p["stored"] != p["query"], p
    keys = [(p["stored"], p["query"]) for p in text_pairs + positives]
    assert len(keys) == len(set(keys))

    data = {"description": DESCRIPTION, "text_pairs": text_pairs, "positives": positives}
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "data")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "heldout_generated_v15.json")
    with open(path, "w", encoding="ascii") as f:
        json.dump(data, f, ensure_ascii=True, indent=2)
        f.write("\n")
    print("wrote %s: %d text_pairs, %d positives" % (path, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
