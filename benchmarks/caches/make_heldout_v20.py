"""Held-out evaluation set v20 for a semantic prompt cache (generator).

A semantic prompt cache answers a new chat prompt with the stored answer of an
earlier prompt when the two mean the same thing.  This script writes
``data/heldout_generated_v20.json`` next to itself with two kinds of pairs:

* ``text_pairs`` -- 196 NEAR-MISS pairs.  The query shares most of its wording
  with the stored prompt, but a careful human would answer the two
  differently, so serving the stored answer would be a false hit.  14
  categories of 14 pairs each: code_change, regex_or_format_string_change,
  number_unit_or_date_change, answer_constraint_change,
  role_or_direction_swap, negation, antonym_swap, entity_swap,
  modality_change, order_of_events, quantity_or_scope, time_frame,
  question_target, pasted_content_change.

* ``positives`` -- 100 TRUE PARAPHRASE pairs that a careful human would answer
  identically (a miss on them is a lost hit): reworded_question (25),
  can_you_explain_forms (20), polite_or_chatty_wrapper (20),
  synonym_swap (15), casing_whitespace_punctuation (20).

Every category is produced from many distinct templates (at least 8 per
near-miss category, used round-robin in a shuffled order) filled from the
word lists below.  Pairs are deduplicated across the whole file regardless of
which side is stored, and for each pair the side that is "stored" is chosen at
random.  The generator uses only the Python standard library and
``random.Random(202020)``; two runs produce byte-identical output.

The set was written blind: its author did not look at the cache
implementation, its tests, its documentation or any other data set.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import datetime
import json
import os
import random

SEED = 202020
NEAR_PER_CATEGORY = 14

NEAR_CATEGORIES = [
    "code_change",
    "regex_or_format_string_change",
    "number_unit_or_date_change",
    "answer_constraint_change",
    "role_or_direction_swap",
    "negation",
    "antonym_swap",
    "entity_swap",
    "modality_change",
    "order_of_events",
    "quantity_or_scope",
    "time_frame",
    "question_target",
    "pasted_content_change",
]

POSITIVE_COUNTS = [
    ("reworded_question", 25),
    ("can_you_explain_forms", 20),
    ("polite_or_chatty_wrapper", 20),
    ("synonym_swap", 15),
    ("casing_whitespace_punctuation", 20),
]

DESCRIPTION = (
    "Held-out evaluation set v20 for a semantic prompt cache, generated blind "
    "from templates and word lists with random.Random(202020). 'text_pairs' "
    "holds 196 near-miss pairs in 14 categories of 14 (code, regex/format "
    "strings, numbers/units/dates, answer constraints, role or direction "
    "swaps, negation, antonyms, entity swaps, modality, order of events, "
    "quantity/scope, time frame, question target, pasted content): the query "
    "reuses most of the stored prompt's wording but needs a different answer, "
    "so serving the stored answer would be a false hit. 'positives' holds 100 "
    "true paraphrase pairs (reworded questions, explain-forms, polite or "
    "chatty wrappers, synonym swaps, casing/whitespace/punctuation changes) "
    "that deserve the same answer, so missing them is a lost hit. Pairs are "
    "unique regardless of which side is stored."
)

# ---------------------------------------------------------------------------
# Word lists
# ---------------------------------------------------------------------------

CAPITAL_COUNTRIES = ["France", "Japan", "Brazil", "Canada", "Australia",
                     "Kenya", "Norway", "Argentina", "Vietnam", "Egypt",
                     "Peru", "Poland", "Thailand", "Morocco"]
CITIES = ["Paris", "Berlin", "Tokyo", "Madrid", "Rome", "Lisbon", "Vienna",
          "Prague", "Toronto", "Sydney", "Cairo", "Seoul", "Lima", "Oslo",
          "Chicago", "Istanbul"]
PROG_LANGS = ["Python", "JavaScript", "Java", "Go", "Rust", "C++", "Ruby",
              "Kotlin", "Swift", "C#", "PHP", "TypeScript"]
HUMAN_LANGS = ["French", "German", "Spanish", "Italian", "Portuguese",
               "Japanese", "Dutch", "Polish", "Korean", "Turkish"]
PEOPLE = ["Albert Einstein", "Marie Curie", "Isaac Newton", "Charles Darwin",
          "Ada Lovelace", "Nikola Tesla", "Leonardo da Vinci",
          "Galileo Galilei", "Alan Turing", "Rosalind Franklin",
          "Frida Kahlo", "Wolfgang Amadeus Mozart"]
NAMES = ["Alice", "Bob", "Priya", "Tom", "Maria", "Kenji", "Sara", "Omar",
         "Lena", "David"]
BOOKS = ["Moby-Dick", "Pride and Prejudice", "1984", "The Great Gatsby",
         "Hamlet", "Don Quixote", "Jane Eyre", "Crime and Punishment"]
PAINTINGS = ["the Mona Lisa", "The Starry Night", "The Scream", "Guernica",
             "The Persistence of Memory", "Girl with a Pearl Earring",
             "The Birth of Venus"]
LANDMARKS = ["the Eiffel Tower", "the Statue of Liberty", "Big Ben",
             "the Leaning Tower of Pisa", "the Great Pyramid of Giza",
             "the Empire State Building", "the Sydney Opera House"]
FOODS = ["spinach", "blueberries", "salmon", "oats", "lentils", "almonds",
         "avocado", "broccoli"]

# separate lists for the positives, so that they do not reuse near-miss prompts
POS_CAPITAL_COUNTRIES = ["Chile", "Hungary", "Ghana", "Indonesia", "Portugal",
                         "Ireland", "Colombia", "Malaysia"]
POS_BOOKS = ["War and Peace", "To Kill a Mockingbird", "The Hobbit",
             "Frankenstein", "Wuthering Heights", "The Odyssey"]
POS_PAINTINGS = ["The Last Supper", "The Night Watch", "American Gothic",
                 "The Kiss", "The Garden of Earthly Delights"]
POS_LANDMARKS = ["the Burj Khalifa", "the CN Tower", "the Space Needle",
                 "the Gateway Arch", "Tokyo Tower"]

# countries whose currencies are all different
CURRENCY_COUNTRIES = ["Japan", "Brazil", "India", "Mexico", "Canada",
                      "Australia", "Egypt", "Norway", "South Korea",
                      "Switzerland", "the United Kingdom", "Turkey"]
# countries whose official / main languages are all different
LANGUAGE_COUNTRIES = ["Brazil", "Japan", "Egypt", "the Netherlands", "Greece",
                      "Turkey", "Thailand", "Poland", "Hungary", "Finland",
                      "Vietnam", "Iran"]
# countries whose highest mountains are all different
MOUNTAIN_COUNTRIES = ["Japan", "Mexico", "Canada", "Australia", "Greece",
                      "Turkey", "Kenya", "Peru", "Argentina", "New Zealand",
                      "Spain"]


def cap(s):
    return s[0].upper() + s[1:]


class Cycle(object):
    """Hands out the items of a list in a shuffled order, then repeats."""

    def __init__(self, items):
        self.items = list(items)
        self.order = None
        self.i = 0

    def next(self, r):
        if self.order is None:
            self.order = list(self.items)
            r.shuffle(self.order)
        x = self.order[self.i % len(self.order)]
        self.i += 1
        return x


def low_first(s):
    if len(s) > 1 and s[1].islower():
        return s[0].lower() + s[1:]
    return s


# ---------------------------------------------------------------------------
# Template registries
# ---------------------------------------------------------------------------

NEAR = {c: [] for c in NEAR_CATEGORIES}
POS = {c: [] for c, _ in POSITIVE_COUNTS}


def near(cat):
    def deco(f):
        NEAR[cat].append(f)
        return f
    return deco


def pos(cat):
    def deco(f):
        POS[cat].append(f)
        return f
    return deco


# ===========================================================================
# NEAR-MISS: code_change
# ===========================================================================

@near("code_change")
def cc_arith(r):
    ops = {"//": lambda a, b: a // b, "/": lambda a, b: a / b,
           "%": lambda a, b: a % b, "**": lambda a, b: a ** b,
           "*": lambda a, b: a * b}
    o1, o2 = r.choice([("//", "/"), ("//", "%"), ("**", "*")])
    x = r.choice([7, 9, 11, 13, 17, 19])
    y = r.choice([3, 4, 5])
    if ops[o1](x, y) == ops[o2](x, y):
        return None
    form = r.choice(["What does `%s` evaluate to in Python?",
                     "In Python 3, what is the result of `%s`?",
                     "Quick one: what does Python print for `print(%s)`?"])
    return form % ("%d %s %d" % (x, o1, y)), form % ("%d %s %d" % (x, o2, y))


@near("code_change")
def cc_js_eq(r):
    a, b = r.choice([("'5'", "5"), ("0", "false"), ("null", "undefined"),
                     ("''", "0"), ("'1'", "true")])
    form = r.choice(["In JavaScript, what does `%s` return?",
                     "Is `%s` true or false in JavaScript?",
                     "I'm debugging a JS condition. What is the value of `%s`?"])
    return form % ("%s == %s" % (a, b)), form % ("%s === %s" % (a, b))


@near("code_change")
def cc_str_method(r):
    s = r.choice(["heLLo wORLD", "pyTHon rocks", "gOOd MORNING"])
    m1, m2 = r.choice([("upper", "lower"), ("title", "capitalize"),
                       ("swapcase", "lower")])
    form = "Given `s = \"%s\"`, what does `s.%s()` return in Python?"
    return form % (s, m1), form % (s, m2)


@near("code_change")
def cc_sql_join(r):
    t1, a1, t2, a2, col, fk = r.choice([
        ("customers", "c", "orders", "o", "total", "customer_id"),
        ("authors", "a", "books", "b", "title", "author_id"),
        ("departments", "d", "employees", "e", "salary", "department_id")])
    j1, j2 = r.choice([("LEFT JOIN", "INNER JOIN"), ("LEFT JOIN", "RIGHT JOIN"),
                       ("INNER JOIN", "FULL OUTER JOIN")])
    form = ("Explain which rows this query returns: `SELECT %s.name, %s.%s "
            "FROM %s %s %s %s %s ON %s.%s = %s.id`")
    return (form % (a1, a2, col, t1, a1, j1, t2, a2, a2, fk, a1),
            form % (a1, a2, col, t1, a1, j2, t2, a2, a2, fk, a1))


@near("code_change")
def cc_order_by(r):
    table, col = r.choice([("products", "price"), ("hotels", "rating"),
                           ("movies", "release_year"), ("employees", "salary")])
    form = r.choice([
        "In plain words, which row does `SELECT name FROM %s ORDER BY %s %s LIMIT 1` return?",
        "My report runs `SELECT name FROM %s ORDER BY %s %s LIMIT 1`. What does it give me?"])
    return form % (table, col, "DESC"), form % (table, col, "ASC")


@near("code_change")
def cc_range(r):
    a = r.choice([0, 1, 2])
    b = r.choice([10, 12, 15, 20])
    alt = r.choice(["step", "end"])
    if alt == "step":
        s = r.choice([2, 3])
        q_range = "range(%d, %d, %d)" % (a, b, s)
    else:
        q_range = "range(%d, %d)" % (a, b + 1)
    form = "How many times does the body of `for i in %s:` run in Python?"
    return form % ("range(%d, %d)" % (a, b)), form % q_range


@near("code_change")
def cc_map_filter(r):
    arr = r.choice(["[1, 2, 3, 4]", "[5, 10, 15]", "[2, 4, 6, 8]"])
    t = r.choice([2, 5, 4])
    form = "What does `%s.%s(x => x > %d)` return in JavaScript?"
    return form % (arr, "map", t), form % (arr, "filter", t)


@near("code_change")
def cc_alias(r):
    a, b = r.choice([("a", "b"), ("x", "y"), ("items", "other")])
    copy = r.choice(["%s.copy()", "%s[:]", "list(%s)"]) % a
    tmpl = ("What does this Python snippet print, and why?\n```python\n"
            "%s = [1, 2, 3]\n%s = %s\n%s.append(4)\nprint(len(%s))\n```")
    return tmpl % (a, b, a, b, a), tmpl % (a, b, copy, b, a)


@near("code_change")
def cc_grep(r):
    f1, f2 = r.choice([("-i", "-v"), ("-c", "-v"), ("-i", "-c"), ("-n", "-c")])
    word = r.choice(["error", "timeout", "failed", "denied"])
    fname = r.choice(["app.log", "server.log", "output.txt"])
    form = "What does `grep %s \"%s\" %s` do?"
    return form % (f1, word, fname), form % (f2, word, fname)


@near("code_change")
def cc_git_reset(r):
    m1, m2 = r.choice([("--soft", "--hard"), ("--mixed", "--hard"),
                       ("--soft", "--mixed")])
    n = r.choice([1, 2])
    form = r.choice([
        "What happens to my uncommitted work and staged files if I run `git reset %s HEAD~%d`?",
        "I just ran `git reset %s HEAD~%d`. Are my changes gone?"])
    return form % (m1, n), form % (m2, n)


@near("code_change")
def cc_c_divmod(r):
    a = r.choice([17, 23, 29])
    b = r.choice([4, 5, 6])
    form = "What does this C statement print: `printf(\"%%d\\n\", %s);`?"
    return form % ("%d / %d" % (a, b)), form % ("%d %% %d" % (a, b))


@near("code_change")
def cc_nameerror(r):
    good, typo = r.choice([("items", "item"), ("user_name", "username"),
                           ("count", "counts"), ("results", "result")])
    form = r.choice([
        "Will this Python code run without errors? `%s = [1, 2, 3]; print(len(%s))`",
        "Does this raise an exception?\n```python\n%s = [1, 2, 3]\nprint(len(%s))\n```"])
    return form % (good, good), form % (good, typo)


@near("code_change")
def cc_sorted(r):
    if r.random() < 0.5:
        lst = r.choice(["[3, 1, 2]", "[10, 4, 7, 1]", "[5, 9, 2]"])
        form = "What does `%s` return in Python?"
        return (form % ("sorted(%s, reverse=True)" % lst),
                form % ("sorted(%s)" % lst))
    words = r.choice(["['kiwi', 'fig', 'banana']", "['pear', 'apple', 'fig']"])
    form = "What does `%s` return in Python?"
    return (form % ("sorted(%s, key=len)" % words),
            form % ("sorted(%s)" % words))


@near("code_change")
def cc_split(r):
    s = r.choice(["a, b, c", "red, green, blue", "1, 2, 3"])
    s1, s2 = r.choice([("split(',')", "split()"), ("split(', ')", "split(',')"),
                       ("split(', ')", "split()")])
    form = "In Python, what does `'%s'.%s` return?"
    return form % (s, s1), form % (s, s2)


@near("code_change")
def cc_and_or(r):
    a, b = r.sample([3, 7, 2, 9, 5, "'yes'", "'no'"], 2)
    form = r.choice(["What does `print(%s)` output in Python?",
                     "What value does the Python expression `%s` produce?"])
    return form % ("%s and %s" % (a, b)), form % ("%s or %s" % (a, b))


# ===========================================================================
# NEAR-MISS: regex_or_format_string_change
# ===========================================================================

@near("regex_or_format_string_change")
def rf_digits(r):
    n = r.choice([4, 5, 6])
    s = "1234567890"[:n]
    alt = r.choice(["^\\d{3,}$", "^\\d{%d}$" % n])
    form = "Does the regex `%s` match the string \"%s\"?"
    return form % ("^\\d{3}$", s), form % (alt, s)


@near("regex_or_format_string_change")
def rf_boundary(r):
    w, plural = r.choice([("cat", "cats"), ("dog", "dogs"), ("book", "books"),
                          ("run", "runs")])
    form = r.choice(["Will the regex `%s` match the word \"%s\"?",
                     "Does the pattern `%s` find a match in \"I like %s\"?"])
    return form % ("\\b" + w + "\\b", plural), form % ("\\b" + w, plural)


@near("regex_or_format_string_change")
def rf_fstring(r):
    x = r.choice(["3.14159", "2.71828", "1.41421"])
    s1, s2 = r.choice([(".2f", ".3f"), (".2f", ".0f"), (".2f", ".2e"),
                       (".1f", ".4f")])
    form = "What does `f\"{x:%s}\"` produce in Python when x = %s?"
    return form % (s1, x), form % (s2, x)


@near("regex_or_format_string_change")
def rf_printf(r):
    n = r.choice([42, 7, 123])
    f1, f2 = r.choice([("%5d", "%-5d"), ("%5d", "%05d"), ("%-5d", "%05d")])
    form = "What exactly does `printf(\"%s\", %d)` print in C, including spaces?"
    return form % (f1, n), form % (f2, n)


@near("regex_or_format_string_change")
def rf_strftime(r):
    d, mname, y = r.choice([(4, "March", 2021), (9, "July", 2019),
                            (11, "February", 2023)])
    f1, f2 = r.choice([("%m/%d/%Y", "%d/%m/%Y"), ("%Y-%m-%d", "%y-%m-%d"),
                       ("%d %B %Y", "%d %b %y")])
    form = "What string does `date.strftime('%s')` give for %d %s %d?"
    return form % (f1, d, mname, y), form % (f2, d, mname, y)


@near("regex_or_format_string_change")
def rf_greedy(r):
    s = r.choice(["<b>bold</b>", "<i>hi</i> there", "<p>text</p>"])
    form = "In Python, what does `re.search(r'%s', '%s').group()` return?"
    return form % ("<.+>", s), form % ("<.+?>", s)


@near("regex_or_format_string_change")
def rf_anchor(r):
    w, line = r.choice([("hello", "say hello"), ("done", "the job is done"),
                        ("error", "fatal error")])
    form = "Does the pattern `%s` match the line \"%s\"?"
    return form % ("^" + w, line), form % (w + "$", line)


@near("regex_or_format_string_change")
def rf_findall(r):
    s = r.choice(["ab12cd345", "x7y88z", "room42floor7"])
    p1, p2 = r.choice([("[0-9]+", "[^0-9]+"), ("[0-9]+", "[0-9]"),
                       ("[a-z]+", "[0-9]+")])
    form = "What does `re.findall(r'%s', '%s')` return?"
    return form % (p1, s), form % (p2, s)


@near("regex_or_format_string_change")
def rf_align(r):
    w = r.choice(["cat", "dog", "hi"])
    a1, a2 = r.choice([(">", "<"), (">", "^"), ("<", "^")])
    form = "What does `'{:%s8}'.format('%s')` produce in Python?"
    return form % (a1, w), form % (a2, w)


@near("regex_or_format_string_change")
def rf_excel(r):
    if r.random() < 0.5:
        v = r.choice(["0.256", "0.1234", "0.5"])
        f1, f2 = "0.00%", "0.0%"
    else:
        v = r.choice(["1234.5", "98765.432"])
        f1, f2 = "#,##0", "#,##0.00"
    form = "In Excel, how does the number format `%s` display the value %s?"
    return form % (f1, v), form % (f2, v)


@near("regex_or_format_string_change")
def rf_quant(r):
    p1, p2, s = r.choice([("colou?r", "colou*r", "colouur"),
                          ("go?gle", "go*gle", "gooogle"),
                          ("ab?c", "ab*c", "abbbc"),
                          ("ab+c", "ab*c", "ac")])
    form = "Does the regex `%s` fully match \"%s\"?"
    return form % (p1, s), form % (p2, s)


@near("regex_or_format_string_change")
def rf_flag(r):
    pat, s = r.choice([("hello", "Hello world"), ("error", "ERROR: disk full"),
                       ("python", "Python 3 is out")])
    base = "re.match(r'%s', '%s'" % (pat, s)
    form = "Does `%s` find a match in Python?"
    return form % (base + ")"), form % (base + ", re.IGNORECASE)")


@near("regex_or_format_string_change")
def rf_percent(r):
    n = r.choice(["12345", "98765", "4321"])
    f1, f2 = r.choice([("%.1e", "%.1f"), ("%.1e", "%.1g"), ("%.1f", "%d")])
    form = "What does `'%s' %% %s` evaluate to in Python?"
    return form % (f1, n), form % (f2, n)


@near("regex_or_format_string_change")
def rf_moment(r):
    d = r.choice(["2024-01-05", "2023-11-02", "2022-06-09"])
    f1, f2 = r.choice([("MMM D", "MMMM Do"), ("MMM D", "DD/MM"),
                       ("dddd", "ddd")])
    form = "What does `moment('%s').format('%s')` output?"
    return form % (d, f1), form % (d, f2)


# ===========================================================================
# NEAR-MISS: number_unit_or_date_change
# ===========================================================================

@near("number_unit_or_date_change")
def nu_conv(r):
    small, big = r.choice([("ounces", "pounds"), ("feet", "miles"),
                           ("milliliters", "liters"), ("seconds", "hours"),
                           ("centimeters", "meters"), ("grams", "kilograms")])
    a, b = r.sample([2, 3, 5, 7, 12], 2)
    form = "How many %s are in %d %s?"
    return form % (small, a, big), form % (small, b, big)


@near("number_unit_or_date_change")
def nu_unit(r):
    n = r.choice([3, 5, 10, 20])
    u1, u2, tgt = r.choice([("US gallons", "imperial gallons", "liters"),
                            ("miles", "nautical miles", "kilometers"),
                            ("short tons", "metric tons", "pounds"),
                            ("US cups", "metric cups", "milliliters")])
    form = r.choice(["How many %s is %d %s?", "Convert %d %s to %s."])
    if form.startswith("How"):
        return form % (tgt, n, u1), form % (tgt, n, u2)
    return form % (n, u1, tgt), form % (n, u2, tgt)


@near("number_unit_or_date_change")
def nu_temp(r):
    a, b = r.sample([50, 68, 86, 95, 104], 2)
    form = r.choice(["Convert %d°F to Celsius.",
                     "It's %d°F outside right now. What is that in Celsius?"])
    return form % a, form % b


@near("number_unit_or_date_change")
def nu_weekday(r):
    month, mname, day = r.choice([(7, "July", 4), (12, "December", 25),
                                  (1, "January", 1), (11, "November", 9)])
    y1, y2 = r.sample([1969, 1976, 1989, 1999, 2001, 2010], 2)
    if (datetime.date(y1, month, day).weekday()
            == datetime.date(y2, month, day).weekday()):
        return None
    form = "What day of the week was %s %d, %d?"
    return form % (mname, day, y1), form % (mname, day, y2)


@near("number_unit_or_date_change")
def nu_interest(r):
    p = r.choice([1000, 5000, 10000])
    rates = [3, 5, 7]
    years = [5, 10, 20]
    rate, yr = r.choice(rates), r.choice(years)
    form = ("If I invest $%d at %d%% annual interest compounded yearly, how "
            "much will I have after %d years?")
    if r.random() < 0.5:
        rate2 = r.choice([x for x in rates if x != rate])
        return form % (p, rate, yr), form % (p, rate2, yr)
    yr2 = r.choice([x for x in years if x != yr])
    return form % (p, rate, yr), form % (p, rate, yr2)


@near("number_unit_or_date_change")
def nu_bmi(r):
    h = r.choice([165, 172, 180, 188])
    w1, w2 = r.sample([58, 70, 82, 95], 2)
    form = "I'm %d cm tall and weigh %d kg. What's my BMI?"
    return form % (h, w1), form % (h, w2)


@near("number_unit_or_date_change")
def nu_calories(r):
    food = r.choice(["cooked rice", "cheddar cheese", "almonds",
                     "chicken breast", "dark chocolate"])
    a, b = r.sample([30, 50, 100, 250], 2)
    form = "About how many calories are in %d grams of %s?"
    return form % (a, food), form % (b, food)


@near("number_unit_or_date_change")
def nu_leap(r):
    a, b = r.choice([(1900, 2000), (2024, 2023), (2100, 2096), (1996, 1999)])
    form = r.choice(["Is %d a leap year?", "Was February %d 29 days long?"])
    return form % a, form % b


@near("number_unit_or_date_change")
def nu_percent(r):
    n = r.choice([80, 240, 350, 1200])
    a, b = r.sample([5, 15, 20, 35], 2)
    if r.random() < 0.5:
        form = "The restaurant bill is $%d. How much is a %d%% tip?"
        return form % (n, a), form % (n, b)
    form = "What is %d%% of %d?"
    return form % (a, n), form % (b, n)


@near("number_unit_or_date_change")
def nu_timezone(r):
    c1, c2 = r.choice([("New York", "London"), ("Los Angeles", "Tokyo"),
                       ("Berlin", "Sydney")])
    t1, t2 = r.sample(["7:00 AM", "9:30 AM", "3:00 PM", "11:00 PM"], 2)
    form = "If it's %s in %s, what time is it in %s?"
    return form % (t1, c1, c2), form % (t2, c1, c2)


@near("number_unit_or_date_change")
def nu_recipe(r):
    cups = r.choice([2, 3])
    base = r.choice([12, 24])
    t1, t2 = r.sample([18, 30, 36, 60], 2)
    form = ("A recipe uses %d cups of flour to make %d cookies. How much flour "
            "do I need for %d cookies?")
    return form % (cups, base, t1), form % (cups, base, t2)


@near("number_unit_or_date_change")
def nu_daysbetween(r):
    start = r.choice(["March 1", "January 10", "April 3"])
    e1, e2 = r.sample(["June 15", "July 15", "June 30", "September 1"], 2)
    form = "How many days are there between %s and %s, 2025?"
    return form % (start, e1), form % (start, e2)


@near("number_unit_or_date_change")
def nu_bytes(r):
    n = r.choice([3, 5, 8, 64])
    u1, u2 = r.choice([("kilobytes", "megabytes"), ("megabytes", "gigabytes"),
                       ("kibibytes", "mebibytes")])
    form = "How many bytes are in %d %s?"
    return form % (n, u1), form % (n, u2)


@near("number_unit_or_date_change")
def nu_drive(r):
    d = r.choice([180, 240, 300])
    s1, s2 = r.sample([50, 60, 70], 2)
    form = r.choice(["How long will it take to drive %d miles at %d mph?",
                     "We're driving %d miles and averaging %d mph. How many hours will the trip take?"])
    return form % (d, s1), form % (d, s2)


@near("number_unit_or_date_change")
def nu_circle(r):
    a, b = r.sample([2, 3, 5, 8], 2)
    unit = r.choice(["cm", "inches", "meters"])
    form = "What's the area of a circle with a radius of %d %s?"
    return form % (a, unit), form % (b, unit)


# ===========================================================================
# NEAR-MISS: answer_constraint_change
# ===========================================================================

@near("answer_constraint_change")
def ac_summary(r):
    book = r.choice(BOOKS)
    l1, l2 = r.sample(["in one sentence", "in three paragraphs",
                       "in exactly five bullet points", "in about 500 words"], 2)
    form = "Summarize the plot of %s %s."
    return form % (book, l1), form % (book, l2)


@near("answer_constraint_change")
def ac_tips(r):
    act = r.choice(["improving my sleep", "learning Spanish faster",
                    "saving money on groceries", "training for a first marathon"])
    a, b = r.sample([3, 5, 10, 20], 2)
    form = r.choice(["Give me %d tips for %s.",
                     "I need help with %s. Can you list %d practical tips?"])
    if form.startswith("Give"):
        return form % (a, act), form % (b, act)
    return form % (act, a), form % (act, b)


@near("answer_constraint_change")
def ac_audience(r):
    concept = r.choice(["black holes", "inflation", "how vaccines work",
                        "blockchain", "photosynthesis"])
    a1, a2 = r.choice([("a five-year-old", "a PhD student in the field"),
                       ("a complete beginner", "an expert"),
                       ("my grandmother", "a graduate student")])
    form = "Explain %s to %s."
    return form % (concept, a1), form % (concept, a2)


@near("answer_constraint_change")
def ac_format(r):
    subj = r.choice(["the planets of the solar system", "the seven continents",
                     "the primary colors", "the noble gases"])
    f1, f2 = r.sample(["as a bulleted list", "as a JSON array",
                       "as a markdown table with one fact about each",
                       "in a single comma-separated line", "as a YAML list"], 2)
    form = "List %s %s."
    return form % (subj, f1), form % (subj, f2)


@near("answer_constraint_change")
def ac_poem(r):
    topic = r.choice(["autumn leaves", "the ocean", "my cat", "a rainy Monday"])
    p1, p2 = r.sample(["a haiku", "a limerick", "a sonnet",
                       "a four-line rhyming poem"], 2)
    form = "Write %s about %s."
    return form % (p1, topic), form % (p2, topic)


@near("answer_constraint_change")
def ac_language(r):
    topic = r.choice(["how a rainbow forms", "how vaccines work",
                      "why we have tides", "how a bill becomes law"])
    l1, l2 = r.sample(HUMAN_LANGS, 2)
    form = "Explain %s. Answer in %s."
    return form % (topic, l1), form % (topic, l2)


@near("answer_constraint_change")
def ac_length(r):
    city = r.choice(CITIES)
    l1, l2 = r.choice([("in under 50 words", "in about 500 words"),
                       ("in two sentences", "in a detailed travel-guide style")])
    form = r.choice(["Describe %s %s.",
                     "I'm visiting soon. Describe %s %s."])
    return form % (city, l1), form % (city, l2)


@near("answer_constraint_change")
def ac_tone(r):
    occ = r.choice(["declining a meeting invitation from my manager",
                    "asking my landlord to fix the heating",
                    "turning down a job offer"])
    t1, t2 = r.sample(["formal", "casual", "humorous", "very apologetic"], 2)
    form = "Write a %s email %s."
    return form % (t1, occ), form % (t2, occ)


@near("answer_constraint_change")
def ac_table(r):
    a, b = r.sample(PROG_LANGS, 2)
    form = "Compare %s and %s %s."
    c1, c2 = r.choice([("in a table", "in one short paragraph"),
                       ("in a table", "in exactly three bullet points")])
    return form % (a, b, c1), form % (a, b, c2)


@near("answer_constraint_change")
def ac_landmarks(r):
    city = r.choice(CITIES)
    form = "Name three famous landmarks in %s, %s."
    return (form % (city, "names only"),
            form % (city, "and write two sentences about the history of each"))


@near("answer_constraint_change")
def ac_comments(r):
    task = r.choice(["reverses a string", "checks whether a number is prime",
                     "counts the vowels in a word"])
    c1, c2 = r.choice([("with no comments", "with a comment on every line"),
                       ("with no comments", "and include unit tests for it"),
                       ("as a one-liner", "with type hints and a docstring")])
    form = "Write a Python function that %s, %s."
    return form % (task, c1), form % (task, c2)


@near("answer_constraint_change")
def ac_units(r):
    dish = r.choice(["banana bread", "pancakes", "chocolate chip cookies",
                     "a basic pizza dough"])
    form = "Give me a recipe for %s using %s."
    return (form % (dish, "metric measurements in grams"),
            form % (dish, "US cups and spoons"))


@near("answer_constraint_change")
def ac_cover(r):
    job = r.choice(["data analyst", "nurse", "junior web developer", "barista"])
    form = "Write a cover letter for a %s position, %s."
    c1, c2 = r.choice([("under 150 words", "about 600 words long"),
                       ("in a formal tone", "in a friendly, informal tone")])
    return form % (job, c1), form % (job, c2)


@near("answer_constraint_change")
def ac_yesno(r):
    n = r.choice([91, 97, 221, 101, 87])
    return ("Reply only with yes or no: is %d a prime number?" % n,
            "Is %d a prime number? Show your reasoning step by step." % n)


# ===========================================================================
# NEAR-MISS: role_or_direction_swap
# ===========================================================================

@near("role_or_direction_swap")
def rd_learn(r):
    a, b = r.sample(["English", "Spanish", "Japanese", "German", "Mandarin",
                     "Arabic"], 2)
    form = r.choice(["What's the hardest part of learning %s for a native %s speaker?",
                     "I'm a native %s speaker. What will be hardest about learning %s?"])
    return form % (a, b), form % (b, a)


@near("role_or_direction_swap")
def rd_currency(r):
    c1, c2 = r.choice([("euros", "US dollars"), ("British pounds", "Japanese yen"),
                       ("Canadian dollars", "Swiss francs")])
    n = r.choice([50, 200, 1000])
    form = "Convert %d %s to %s."
    return form % (n, c1, c2), form % (n, c2, c1)


@near("role_or_direction_swap")
def rd_tz(r):
    a, b = r.choice([("Tokyo", "London"), ("New York", "Paris"),
                     ("Sydney", "Los Angeles"), ("Dubai", "Chicago")])
    form = "If it's noon in %s, what time is it in %s?"
    return form % (a, b), form % (b, a)


@near("role_or_direction_swap")
def rd_owe(r):
    a, b = r.sample(NAMES, 2)
    x, y = r.sample([15, 25, 40, 60], 2)
    form = ("%s owes %s $%d and %s owes %s $%d. Who should pay whom, and how "
            "much, to settle up?")
    return form % (a, b, x, b, a, y), form % (a, b, y, b, a, x)


@near("role_or_direction_swap")
def rd_rps(r):
    a, b = r.choice([("rock", "scissors"), ("scissors", "paper"),
                     ("paper", "rock")])
    form = r.choice(["In rock-paper-scissors, does %s beat %s?",
                     "Settle an argument: in rock paper scissors, %s beats %s, right?"])
    return form % (a, b), form % (b, a)


@near("role_or_direction_swap")
def rd_types(r):
    a, b = r.choice([("a string", "an integer"), ("a string", "a date object"),
                     ("an array", "a string")])
    lang = r.choice(["Python", "JavaScript", "Java", "C#"])
    form = "How do I convert %s to %s in %s?"
    return form % (a, b, lang), form % (b, a, lang)


@near("role_or_direction_swap")
def rd_north(r):
    a, b = r.choice([("Oslo", "Rome"), ("Berlin", "Madrid"),
                     ("Toronto", "Mexico City"), ("Stockholm", "Athens"),
                     ("London", "Cairo"), ("Seattle", "Miami")])
    form = "Is %s farther north than %s?"
    return form % (a, b), form % (b, a)


@near("role_or_direction_swap")
def rd_invest(r):
    a, b = r.choice([("stocks", "bonds"), ("a savings account", "an index fund")])
    age = r.choice([30, 45, 60])
    form = "I'm %d. Should I move most of my savings from %s into %s?"
    return form % (age, a, b), form % (age, b, a)


@near("role_or_direction_swap")
def rd_letter(r):
    a, b, topic = r.choice([("landlord", "tenant", "a late rent payment"),
                            ("teacher", "parent", "a missed homework assignment"),
                            ("manager", "employee", "a schedule change"),
                            ("doctor", "patient", "a rescheduled appointment")])
    form = "Write a short email from a %s to a %s about %s."
    return form % (a, b, topic), form % (b, a, topic)


@near("role_or_direction_swap")
def rd_migrate(r):
    a, b = r.choice([("MySQL", "PostgreSQL"), ("MongoDB", "PostgreSQL"),
                     ("SQLite", "MySQL"), ("Windows", "macOS")])
    form = r.choice(["What's the easiest way to migrate from %s to %s?",
                     "Our team is switching from %s to %s. What should we watch out for?"])
    return form % (a, b), form % (b, a)


@near("role_or_direction_swap")
def rd_bigger(r):
    a, b = r.choice([("2^10", "10^3"), ("3^5", "5^3"), ("2^20", "10^6"),
                     ("e^pi", "pi^e")])
    form = "Is %s larger than %s?"
    return form % (a, b), form % (b, a)


@near("role_or_direction_swap")
def rd_subset(r):
    a, b = r.choice([("square", "rectangle"), ("whale", "mammal"),
                     ("integer", "rational number"), ("sonnet", "poem")])
    art = lambda w: ("an " if w[0] in "aeiou" else "a ") + w
    form = "Is every %s %s?"
    return form % (a, art(b)), form % (b, art(a))


@near("role_or_direction_swap")
def rd_redirect(r):
    if r.random() < 0.5:
        form = "How do I redirect %s to %s in bash?"
        return form % ("stderr", "stdout"), form % ("stdout", "stderr")
    form = "How do I copy a folder from %s to %s with scp?"
    return (form % ("my laptop", "a remote server"),
            form % ("a remote server", "my laptop"))


@near("role_or_direction_swap")
def rd_fileconv(r):
    a, b = r.choice([("a PDF", "a Word document"), ("a CSV file", "an Excel spreadsheet"),
                     ("an MP4 video", "a GIF"), ("a HEIC photo", "a JPEG")])
    form = r.choice(["How do I convert %s to %s?",
                     "What's a free tool to turn %s into %s?"])
    return form % (a, b), form % (b, a)


# ===========================================================================
# NEAR-MISS: negation
# ===========================================================================

@near("negation")
def ng_group(r):
    s, q = r.choice([
        ("Which EU countries use the euro?", "Which EU countries do not use the euro?"),
        ("Which planets in our solar system have rings?",
         "Which planets in our solar system do not have rings?"),
        ("Which vitamins are fat-soluble?", "Which vitamins are not fat-soluble?"),
        ("Which US states have a state income tax?",
         "Which US states don't have a state income tax?")])
    return s, q


@near("negation")
def ng_foods(r):
    animal = r.choice(["dogs", "cats", "rabbits", "parrots", "hamsters"])
    form = r.choice(["List foods that are %ssafe for %s to eat.",
                     "My vet visit is next week, but for now: which human foods are %ssafe for %s?"])
    return form % ("", animal), form % ("not ", animal)


@near("negation")
def ng_eggs(r):
    dish = r.choice(["pancakes", "brownies", "fried rice", "meatballs",
                     "a chocolate cake"])
    ing = r.choice(["eggs", "butter", "milk"])
    form = "How do I make %s %s %s?"
    return form % (dish, "with", ing), form % (dish, "without", ing)


@near("negation")
def ng_sql(r):
    pos_, neg_ = r.choice([
        ("customers who have placed an order", "customers who have never placed an order"),
        ("students who are enrolled in a course", "students who are not enrolled in any course"),
        ("employees who have a manager", "employees who do not have a manager")])
    form = "Write a SQL query that finds %s."
    return form % pos_, form % neg_


@near("negation")
def ng_water(r):
    plant = r.choice(["cactus", "basil plant", "peace lily", "fern"])
    return ("What happens if I water my %s every day?" % plant,
            "What happens if I never water my %s?" % plant)


@near("negation")
def ng_prefix(r):
    a, b, noun = r.choice([("reversible", "irreversible", "chemical changes"),
                           ("regular", "irregular", "verbs in Spanish"),
                           ("soluble", "insoluble", "salts"),
                           ("rational", "irrational", "numbers"),
                           ("proper", "improper", "fractions"),
                           ("countable", "uncountable", "nouns in English")])
    form = "Give three examples of %s %s."
    return form % (a, noun), form % (b, noun)


@near("negation")
def ng_sudo(r):
    pkg = r.choice(["Node.js", "Docker", "Python 3.12", "Rust"])
    form = "How can I install %s %s sudo on Linux?"
    return form % (pkg, "with"), form % (pkg, "without")


@near("negation")
def ng_divisible(r):
    k = r.choice([3, 5, 7])
    lang = r.choice(["Python", "JavaScript", "Java"])
    form = "Write a %s function that returns the elements of a list that are %sdivisible by %d."
    return form % (lang, "", k), form % (lang, "not ", k)


@near("negation")
def ng_car(r):
    city = r.choice(CITIES)
    form = "I %s a car. What's the best way to get around %s for a week?"
    return form % ("have", city), form % ("don't have", city)


@near("negation")
def ng_regex(r):
    a, b = r.choice([("at least one digit", "no digits"),
                     ("at least one uppercase letter", "no uppercase letters"),
                     ("whitespace", "no whitespace")])
    form = "Write a regex that matches strings containing %s."
    return form % a, form % b


@near("negation")
def ng_translate(r):
    a, b = r.choice([("I like coffee.", "I don't like coffee."),
                     ("We are open on Sundays.", "We are not open on Sundays."),
                     ("She has a car.", "She has no car."),
                     ("The train was on time.", "The train was not on time.")])
    lang = r.choice(HUMAN_LANGS)
    form = "Translate into %s: \"%s\""
    return form % (lang, a), form % (lang, b)


@near("negation")
def ng_fly(r):
    group, verb = r.choice([("birds", "fly"), ("animals", "swim"),
                            ("garden plants", "survive frost")])
    form = "Name five %s that %s %s."
    return form % (group, "can", verb), form % (group, "cannot", verb)


@near("negation")
def ng_ts(r):
    fw = r.choice(["React app", "Vue app", "Next.js site", "Express server"])
    form = "How do I set up a new %s %s TypeScript?"
    return form % (fw, "with"), form % (fw, "without")


@near("negation")
def ng_eat(r):
    ev = r.choice(["a morning run", "a job interview", "a long flight",
                   "an important exam"])
    form = "What should I %seat before %s?"
    return form % ("", ev), form % ("not ", ev)


# ===========================================================================
# NEAR-MISS: antonym_swap
# ===========================================================================

@near("antonym_swap")
def as_month(r):
    city = r.choice(CITIES)
    form = r.choice(["What's the %s month of the year in %s?",
                     "Planning ahead: which is usually the %s month in %s?"])
    return form % ("hottest", city), form % ("coldest", city)


@near("antonym_swap")
def as_country(r):
    cont = r.choice(["Africa", "Europe", "South America", "Asia"])
    form = "Which is the %s country in %s by area?"
    return form % ("largest", cont), form % ("smallest", cont)


@near("antonym_swap")
def as_font(r):
    app = r.choice(["Microsoft Word", "VS Code", "Google Chrome", "the Kindle app"])
    form = "How do I %s the font size in %s?"
    return form % ("increase", app), form % ("decrease", app)


@near("antonym_swap")
def as_video(r):
    app = r.choice(["iMovie", "Premiere Pro", "VLC", "CapCut"])
    form = "How can I %s a video clip in %s?"
    return form % ("speed up", app), form % ("slow down", app)


@near("antonym_swap")
def as_planet(r):
    form, a, b = r.choice([("Which planet is %s the Sun?", "closest to", "farthest from"),
                           ("Which planet has the %s day?", "shortest", "longest"),
                           ("Which planet is the %s in our solar system?", "hottest", "coldest")])
    return form % a, form % b


@near("antonym_swap")
def as_sort(r):
    lang = r.choice(PROG_LANGS)
    form = "Write a %s function that sorts a list of numbers in %s order."
    return form % (lang, "ascending"), form % (lang, "descending")


@near("antonym_swap")
def as_rare(r):
    form, a, b = r.choice([
        ("Give an everyday example of an %s reaction.", "exothermic", "endothermic"),
        ("Which garden plants grow best in %s soil?", "acidic", "alkaline"),
        ("What are the typical signs of a %s market?", "bull", "bear"),
        ("How does a %s lens form an image?", "convex", "concave"),
        ("What's a good %s for the word 'generous'?", "synonym", "antonym"),
        ("What's an example of a %s tax?", "progressive", "regressive"),
        ("What are the symptoms of %s?", "hyperthyroidism", "hypothyroidism"),
        ("Which foods are high in %s fats?", "saturated", "unsaturated")])
    return form % a, form % b


@near("antonym_swap")
def as_weight(r):
    a, b = r.choice([("gain", "lose"), ("build", "lose")])
    thing = "weight" if a == "gain" else "muscle"
    form = "How can I %s %s in a healthy way?"
    return form % (a, thing), form % (b, thing)


@near("antonym_swap")
def as_series(r):
    series = r.choice(["Harry Potter", "Hunger Games", "Lord of the Rings",
                       "Twilight"])
    form = "What is the %s book in the %s series?"
    return form % ("first", series), form % ("last", series)


@near("antonym_swap")
def as_enable(r):
    feat = r.choice(["dark mode", "notifications", "two-factor authentication",
                     "autocorrect"])
    dev = r.choice(["on my iPhone", "in Windows 11", "on my Android phone"])
    form = "How do I %s %s %s?"
    return form % ("enable", feat, dev), form % ("disable", feat, dev)


@near("antonym_swap")
def as_case(r):
    lang = r.choice(PROG_LANGS)
    form = "How do I convert a string to %s in %s?"
    return form % ("uppercase", lang), form % ("lowercase", lang)


@near("antonym_swap")
def as_econ(r):
    if r.random() < 0.5:
        form = "What are the main causes of %s?"
        return form % "inflation", form % "deflation"
    c = r.choice(["Germany", "Japan", "Brazil", "Canada"])
    form = "What does %s %s the most?"
    return form % (c, "export"), form % (c, "import")


@near("antonym_swap")
def as_president(r):
    a, b = r.choice([("oldest", "youngest"), ("tallest", "shortest")])
    form = r.choice(["Who was the %s US president?",
                     "Trivia question: who was the %s president of the United States?"])
    return form % a, form % b


@near("antonym_swap")
def as_minmax(r):
    form, a, b = r.choice([
        ("What's the %s number of players a soccer team can have on the field?", "maximum", "minimum"),
        ("What's the %s point in %s?", "highest", "lowest")])
    if "%s?" in form and form.count("%s") == 2:
        c = r.choice(["Japan", "the United States", "Australia", "Italy"])
        return form % (a, c), form % (b, c)
    return form % a, form % b


# ===========================================================================
# NEAR-MISS: entity_swap
# ===========================================================================

@near("entity_swap")
def es_capital(r):
    a, b = r.sample(CAPITAL_COUNTRIES, 2)
    form = r.choice(["What is the capital of %s?",
                     "For a geography quiz: what's the capital city of %s?"])
    return form % a, form % b


@near("entity_swap")
def es_painting(r):
    a, b = r.sample(PAINTINGS, 2)
    form = "Who painted %s?"
    return form % a, form % b


@near("entity_swap")
def es_readfile(r):
    a, b = r.sample(PROG_LANGS, 2)
    form = r.choice(["How do I read a file line by line in %s?",
                     "What's the idiomatic way to read a text file line by line in %s?"])
    return form % a, form % b


@near("entity_swap")
def es_population(r):
    a, b = r.sample(CITIES, 2)
    form = "What's the current population of %s?"
    return form % a, form % b


@near("entity_swap")
def es_born(r):
    a, b = r.sample(PEOPLE, 2)
    form = "When was %s born?"
    return form % a, form % b


@near("entity_swap")
def es_version(r):
    a, b = r.choice([("Python 3.11", "Python 3.12"), ("Java 17", "Java 21"),
                     ("React 18", "React 19"), ("Node.js 20", "Node.js 22")])
    form = "What are the main new features in %s?"
    return form % a, form % b


@near("entity_swap")
def es_visit(r):
    a, b = r.sample(["Japan", "Iceland", "Thailand", "Peru", "Morocco",
                     "New Zealand", "India"], 2)
    form = "I'm planning a two-week holiday. What's the best time of year to visit %s?"
    return form % a, form % b


@near("entity_swap")
def es_install(r):
    pkg = r.choice(["Docker", "PostgreSQL", "Node.js", "Git"])
    a, b = r.sample(["Ubuntu", "macOS", "Windows 11"], 2)
    form = "How do I install %s on %s?"
    return form % (pkg, a), form % (pkg, b)


@near("entity_swap")
def es_currency(r):
    a, b = r.sample(CURRENCY_COUNTRIES, 2)
    form = "What currency is used in %s?"
    return form % a, form % b


@near("entity_swap")
def es_food(r):
    a, b = r.sample(FOODS, 2)
    form = "What are the health benefits of eating %s?"
    return form % a, form % b


@near("entity_swap")
def es_known(r):
    a, b = r.sample(PEOPLE, 2)
    form = r.choice(["What is %s best known for?",
                     "My kid has a school project. What did %s contribute to the world?"])
    return form % a, form % b


@near("entity_swap")
def es_reset(r):
    a, b = r.sample(["an iPhone", "a Google Pixel", "a Samsung Galaxy phone",
                     "a Kindle", "a MacBook"], 2)
    form = "How do I reset %s to factory settings?"
    return form % a, form % b


@near("entity_swap")
def es_language(r):
    a, b = r.sample(LANGUAGE_COUNTRIES, 2)
    form = "What's the official language of %s?"
    return form % a, form % b


@near("entity_swap")
def es_mountain(r):
    a, b = r.sample(MOUNTAIN_COUNTRIES, 2)
    form = "What's the tallest mountain in %s, and how high is it?"
    return form % a, form % b


@near("entity_swap")
def es_const(r):
    a, b = r.sample(PROG_LANGS, 2)
    form = "How do I declare a constant in %s?"
    return form % a, form % b


# ===========================================================================
# NEAR-MISS: modality_change
# ===========================================================================

@near("modality_change")
def mc_prog(r):
    lang, x = r.choice([("Python", "a class define an __init__ method"),
                        ("Python", "a function have a return statement"),
                        ("JavaScript", "a statement end with a semicolon"),
                        ("Java", "an interface declare methods"),
                        ("C", "the main function take command-line arguments"),
                        ("SQL", "a table have a primary key")])
    form = "In %s, %s %s?"
    return form % (lang, "must", x), form % (lang, "can", x)


@near("modality_change")
def mc_math(r):
    x = r.choice(["a prime number be odd", "a rectangle be a square",
                  "a triangle have a right angle",
                  "a rhombus have four right angles",
                  "the product of two irrational numbers be irrational"])
    return "Must %s?" % x, "Can %s?" % x


@near("modality_change")
def mc_tax(r):
    n = r.choice(["3,000", "5,000", "8,000"])
    form = ("%s file a federal tax return in the US if I only earned $%s last "
            "year as a single filer?")
    return form % ("Do I have to", n), form % ("Am I allowed to", n)


@near("modality_change")
def mc_style(r):
    rule = r.choice(["commit messages %s start with a verb",
                     "function names %s use snake_case",
                     "pull requests %s include tests",
                     "code comments %s be written in English"])
    form = "Write a one-line rule for our team's style guide saying that %s."
    return form % (rule % "must"), form % (rule % "may")


@near("modality_change")
def mc_can_should(r):
    x = r.choice(["use global variables in Python",
                  "store user passwords in plain text in my database",
                  "use goto statements in C", "use eval() in JavaScript",
                  "commit directly to the main branch",
                  "use floats to store money amounts",
                  "disable SSL certificate verification in Python requests",
                  "run my web server as root"])
    return "Can I %s?" % x, "Should I %s?" % x


@near("modality_change")
def mc_types(r):
    lang = r.choice(["Python", "TypeScript", "Kotlin", "Go", "Swift", "Rust"])
    form = "Is it %s to declare a variable's type in %s?"
    return form % ("required", lang), form % ("possible", lang)


@near("modality_change")
def mc_contract(r):
    party, act = r.choice([("contractor", "deliver the report by Friday"),
                           ("tenant", "repaint the walls before moving out"),
                           ("supplier", "provide monthly usage reports"),
                           ("buyer", "pay a deposit of 10%")])
    form = ("I'm reviewing a contract. Does the clause 'the %s %s %s' create "
            "an obligation?")
    return form % (party, "shall", act), form % (party, "may", act)


@near("modality_change")
def mc_translate(r):
    m1, m2 = r.choice([("can", "must"), ("should", "may"), ("will", "can")])
    verb = r.choice(["swim", "leave now", "work tomorrow", "pay today"])
    lang = r.choice(HUMAN_LANGS)
    form = "How do I say 'I %s %s' in %s?"
    return form % (m1, verb, lang), form % (m2, verb, lang)


@near("modality_change")
def mc_form(r):
    form = r.choice([
        "The instructions say the form %s be signed in blue ink. Will it be rejected if I sign it in black ink?",
        "The visa rules say the photo %s be taken against a white background. Will mine be rejected if the background is light grey?",
        "The portal says the application %s be submitted as a PDF. Will it be rejected if I upload a Word file?"])
    return form % "must", form % "may"


@near("modality_change")
def mc_overtime(r):
    role = r.choice(["a salaried manager", "a salaried software engineer"])
    form = "%s pay me for overtime in the US if I'm %s?"
    return (form % ("Does my employer have to", role),
            form % ("Is my employer allowed to", role))


# ===========================================================================
# NEAR-MISS: order_of_events
# ===========================================================================

@near("order_of_events")
def oe_arith(r):
    n = r.choice([2, 4, 6, 10])
    a = r.choice([3, 5, 7])
    b = r.choice([2, 3, 4])
    return ("Start with %d, add %d, then multiply by %d. What do you get?" % (n, a, b),
            "Start with %d, multiply by %d, then add %d. What do you get?" % (n, b, a))


@near("order_of_events")
def oe_coupon(r):
    p = r.choice([80, 100, 150])
    d = r.choice([10, 20, 25])
    c = r.choice([10, 15])
    return ("A $%d jacket gets a %d%% discount first, and then a $%d coupon is "
            "applied. What's the final price?" % (p, d, c),
            "A $%d jacket gets a $%d coupon applied first, and then a %d%% "
            "discount. What's the final price?" % (p, c, d))


@near("order_of_events")
def oe_git(r):
    a, b = r.choice([("`git stash`", "`git pull`"),
                     ("`git add .`", "`git commit -m \"fix\"`"),
                     ("`git fetch`", "`git merge origin/main`")])
    form = "I have uncommitted changes. What happens if I run %s and then %s?"
    return form % (a, b), form % (b, a)


@near("order_of_events")
def oe_sql(r):
    a, b = r.choice([("WHERE", "GROUP BY"), ("GROUP BY", "HAVING"),
                     ("FROM", "SELECT"), ("ORDER BY", "LIMIT")])
    form = "In SQL's logical order of execution, is %s applied before %s?"
    return form % (a, b), form % (b, a)


@near("order_of_events")
def oe_layers(r):
    a, b = r.choice([("sunscreen", "insect repellent"),
                     ("shampoo", "conditioner"),
                     ("primer", "foundation")])
    form = r.choice(["I put on %s and then %s. Is that the right order?",
                     "Every morning I apply %s first, then %s. Am I doing it in the right order?"])
    return form % (a, b), form % (b, a)


@near("order_of_events")
def oe_listops(r):
    lst = r.choice(["[3, 1, 2]", "[5, 9, 4]"])
    if r.random() < 0.5:
        o1, o2 = "x.sort()", "x.reverse()"
    else:
        o1, o2 = "x.append(7)", "x.pop()"
    form = "What does this print? `x = %s; %s; %s; print(x)`"
    return form % (lst, o1, o2), form % (lst, o2, o1)


@near("order_of_events")
def oe_history(r):
    a, b = r.choice([
        ("the dedication of the Statue of Liberty", "the completion of the Eiffel Tower"),
        ("the sinking of the Titanic", "the end of World War I"),
        ("the founding of Amazon", "the founding of Google"),
        ("the first release of Python", "the first release of Java"),
        ("the first Moon landing", "the fall of the Berlin Wall")])
    form = r.choice(["Did %s come before %s?", "Was %s earlier than %s?"])
    return form % (a, b), form % (b, a)


@near("order_of_events")
def oe_steak(r):
    meat = r.choice(["a thick ribeye", "a pork chop", "a 2-inch steak"])
    return ("My recipe says to sear %s in a pan first and then finish it in the "
            "oven. What temperatures and times should I use?" % meat,
            "My recipe says to cook %s in the oven first and then sear it in a "
            "pan. What temperatures and times should I use?" % meat)


@near("order_of_events")
def oe_cause(r):
    a, b = r.choice([("I installed the system update", "my laptop started overheating"),
                     ("I started taking a new vitamin", "I began getting headaches"),
                     ("I changed the router settings", "the internet became slow"),
                     ("I switched to a new laundry detergent", "I got a skin rash")])
    form = "First %s. A few days later, %s. Could the first have caused the second?"
    return form % (a, b), form % (b, a)


@near("order_of_events")
def oe_paint(r):
    surf = r.choice(["the bedroom wall", "a wooden fence", "the kitchen cabinets"])
    return ("I painted %s and then put primer on top. Will that hold up?" % surf,
            "I put primer on %s and then painted it. Will that hold up?" % surf)


@near("order_of_events")
def oe_compose(r):
    a = r.choice([2, 3, 5])
    b = r.choice([2, 3, 4])
    n = r.choice([1, 4, 6])
    head = "If f(x) = x + %d and g(x) = %dx, what is " % (a, b)
    return head + "f(g(%d))?" % n, head + "g(f(%d))?" % n


@near("order_of_events")
def oe_image(r):
    a, b = r.choice([("rotate an image 90 degrees clockwise", "flip it horizontally"),
                     ("rotate an image 90 degrees clockwise", "flip it vertically")])
    a2 = "flip an image " + b.split(" ", 2)[2]
    b2 = "rotate it 90 degrees clockwise"
    return ("If I %s and then %s, what single transformation do I get?" % (a, b),
            "If I %s and then %s, what single transformation do I get?" % (a2, b2))


@near("order_of_events")
def oe_venv(r):
    pkg = r.choice(["requests", "numpy", "flask"])
    return ("I ran `pip install %s` and then activated my virtual environment. "
            "Where did %s get installed?" % (pkg, pkg),
            "I activated my virtual environment and then ran `pip install %s`. "
            "Where did %s get installed?" % (pkg, pkg))


@near("order_of_events")
def oe_acid(r):
    acid = r.choice(["concentrated sulfuric acid", "concentrated hydrochloric acid"])
    return ("Is it safe to slowly pour water into %s?" % acid,
            "Is it safe to slowly pour %s into water?" % acid)


@near("order_of_events")
def oe_encrypt(r):
    return r.choice([
        ("Step 1: encrypt the backup file. Step 2: compress it with gzip. Will the compression shrink it much?",
         "Step 1: compress the backup file with gzip. Step 2: encrypt it. Will the compression shrink it much?"),
        ("I hash the password and then add the salt. Is that a secure scheme?",
         "I add the salt to the password and then hash it. Is that a secure scheme?")])


# ===========================================================================
# NEAR-MISS: quantity_or_scope
# ===========================================================================

@near("quantity_or_scope")
def qs_allany(r):
    g, p = r.choice([("mammals", "lay eggs"), ("birds", "fly"),
                     ("fish", "breathe air"), ("snakes", "have venom"),
                     ("spiders", "spin webs")])
    return "Do all %s %s?" % (g, p), "Do any %s %s?" % (g, p)


@near("quantity_or_scope")
def qs_undo(r):
    n = r.choice(["two", "three", "five"])
    form = r.choice(["How do I undo %s in git?",
                     "I haven't pushed yet. How do I undo %s in git?"])
    return form % "the last commit", form % ("the last %s commits" % n)


@near("quantity_or_scope")
def qs_replace(r):
    lang = r.choice(["Python", "JavaScript", "Java"])
    form = "In %s, how do I replace %s of a substring in a string?"
    return form % (lang, "only the first occurrence"), form % (lang, "every occurrence")


@near("quantity_or_scope")
def qs_vim(r):
    a, b = r.choice([("foo", "bar"), ("color", "colour"), ("TODO", "DONE")])
    return ("In vim, how do I replace the first '%s' on the current line with '%s'?" % (a, b),
            "In vim, how do I replace every '%s' in the whole file with '%s'?" % (a, b))


@near("quantity_or_scope")
def qs_pyall(r):
    cond = r.choice(["positive", "even", "None", "a string"])
    return ("In Python, how do I check whether all elements of a list are %s?" % cond,
            "In Python, how do I check whether any element of a list is %s?" % cond)


@near("quantity_or_scope")
def qs_synonyms(r):
    w = r.choice(["happy", "important", "big", "fast"])
    n = r.choice(["ten", "five"])
    return ("Give me a synonym for '%s'." % w,
            "Give me %s synonyms for '%s'." % (n, w))


@near("quantity_or_scope")
def qs_most(r):
    c, l = r.choice([("Japan", "English"), ("Brazil", "English"),
                     ("China", "English"), ("Canada", "French"),
                     ("Mexico", "English")])
    return ("Do most people in %s speak %s?" % (c, l),
            "Do any people in %s speak %s?" % (c, l))


@near("quantity_or_scope")
def qs_math(r):
    a, b = r.choice([("multiples of 4", "divisible by 8"),
                     ("prime numbers", "odd"), ("rectangles", "squares"),
                     ("even numbers", "divisible by 4"),
                     ("triangles", "right triangles")])
    return "Are all %s %s?" % (a, b), "Are some %s %s?" % (a, b)


@near("quantity_or_scope")
def qs_pandas(r):
    a, b = r.choice([("a single column", "multiple columns"),
                     ("one column", "all columns"),
                     ("one row by its index", "several rows by their indexes")])
    verb = {"a single column": "select", "one column": "rename",
            "one row by its index": "drop"}[a]
    form = "How do I %s %s in a pandas DataFrame?"
    return form % (verb, a), form % (verb, b)


@near("quantity_or_scope")
def qs_apology(r):
    issue = r.choice(["a late delivery", "a billing mistake", "a website outage"])
    return ("Write a short message apologizing to one customer for %s." % issue,
            "Write a short message apologizing to all our customers for %s." % issue)


@near("quantity_or_scope")
def qs_docker(r):
    a, b = r.choice([("stop one running Docker container", "stop all running Docker containers"),
                     ("remove one Docker image", "remove all unused Docker images"),
                     ("delete a single git branch", "delete all merged git branches")])
    form = "What's the command to %s?"
    return form % a, form % b


@near("quantity_or_scope")
def qs_lakes(r):
    g, p = r.choice([("the Great Lakes", "lie entirely within the United States"),
                     ("the Nordic countries", "use the euro"),
                     ("the G7 countries", "have a monarch as head of state")])
    return "Do any of %s %s?" % (g, p), "Do all of %s %s?" % (g, p)


@near("quantity_or_scope")
def qs_largest(r):
    lang = r.choice(PROG_LANGS)
    return ("Write a %s function that returns the largest number in a list." % lang,
            "Write a %s function that returns the three largest numbers in a list." % lang)


@near("quantity_or_scope")
def qs_kill(r):
    return r.choice([
        ("On Linux, how do I kill the process with PID 4321?",
         "On Linux, how do I kill every process owned by a particular user?"),
        ("How do I delete one email in Gmail?",
         "How do I delete all emails from one sender in Gmail?")])


# ===========================================================================
# NEAR-MISS: time_frame
# ===========================================================================

@near("time_frame")
def tf_leader(r):
    role, c = r.choice([("prime minister", "Canada"), ("president", "France"),
                        ("chancellor", "Germany"), ("prime minister", "India"),
                        ("president", "the United States")])
    return ("Who is the current %s of %s?" % (role, c),
            "Who was the first %s of %s?" % (role, c))


@near("time_frame")
def tf_pop(r):
    city = r.choice(CITIES)
    y = r.choice([1900, 1850, 1950])
    return ("What was the population of %s in %d?" % (city, y),
            "What is the population of %s today?" % city)


@near("time_frame")
def tf_weather(r):
    city = r.choice(CITIES)
    return ("What will the weather be like in %s next week?" % city,
            "What was the weather like in %s last week?" % city)


@near("time_frame")
def tf_capital(r):
    c = r.choice(["Brazil", "Japan", "Australia", "Nigeria", "Tanzania",
                  "Kazakhstan", "Pakistan", "Myanmar"])
    return ("What was the original capital of %s?" % c,
            "What is the capital of %s currently?" % c)


@near("time_frame")
def tf_company(r):
    co = r.choice(["Nokia", "Nintendo", "Samsung", "Amazon", "Netflix"])
    return ("What did %s sell when it was first founded?" % co,
            "What does %s sell today?" % co)


@near("time_frame")
def tf_event(r):
    ev = r.choice(["Summer Olympics", "Winter Olympics", "FIFA World Cup",
                   "UEFA European Championship"])
    return ("Where was the last %s held?" % ev,
            "Where will the next %s be held?" % ev)


@near("time_frame")
def tf_breakfast(r):
    region = r.choice(["Europe", "Japan", "England"])
    return ("What did people in medieval %s usually eat for breakfast?" % region,
            "What do people in %s usually eat for breakfast today?" % region)


@near("time_frame")
def tf_price(r):
    item = r.choice(["a loaf of bread", "a gallon of gas", "a movie ticket",
                     "a new car"])
    y = r.choice([1950, 1970, 1980])
    return ("How much did %s cost in the US in %d?" % (item, y),
            "How much does %s cost in the US now?" % item)


@near("time_frame")
def tf_status(r):
    return r.choice([
        ("Is Pluto a planet?", "Was Pluto ever considered a planet?"),
        ("Is Bonn the capital of Germany?", "Was Bonn ever the capital of West Germany?"),
        ("Is the United Kingdom a member of the European Union?",
         "Was the United Kingdom ever a member of the European Union?"),
        ("Is Kyoto the capital of Japan?", "Was Kyoto ever the capital of Japan?")])


@near("time_frame")
def tf_tallest(r):
    y = r.choice([1930, 1950, 1980])
    return ("What was the tallest building in the world in %d?" % y,
            "What is the tallest building in the world today?")


@near("time_frame")
def tf_change(r):
    topic = r.choice(["AI change office jobs", "smartphones change how people read news",
                      "electric cars change the car industry",
                      "remote work change city centers"])
    subj, rest = topic.split(" change ", 1)
    return ("How will %s change %s over the next ten years?" % (subj, rest),
            "How have %s changed %s over the last ten years?" % (subj, rest)
            if subj.endswith("s") else
            "How has %s changed %s over the last ten years?" % (subj, rest))


@near("time_frame")
def tf_nobel(r):
    prize = r.choice(["Literature", "Physics", "Peace", "Chemistry"])
    return ("Who won the Nobel Prize in %s last year?" % prize,
            "Who is likely to win the Nobel Prize in %s next year?" % prize)


@near("time_frame")
def tf_stack(r):
    site = r.choice(["Twitter", "Facebook"])
    return ("What programming language was %s originally built with?" % site,
            "What programming languages is %s mainly built with today?" % site)


@near("time_frame")
def tf_wage(r):
    y = r.choice([1990, 2000, 2005])
    return ("What was the federal minimum wage in the US in %d?" % y,
            "What is the federal minimum wage in the US now?")


# ===========================================================================
# NEAR-MISS: question_target
# ===========================================================================

@near("question_target")
def qt_cause(r):
    p = r.choice(["inflation", "acid rain", "insomnia", "deforestation",
                  "El Niño", "ocean acidification"])
    return "What causes %s?" % p, "What are the effects of %s?" % p


@near("question_target")
def qt_cost(r):
    p = r.choice(["an iPhone 15", "a Tesla Model 3", "a grand piano",
                  "a mountain bike"])
    form = r.choice(["How much does %s %s?", "Roughly how much does %s %s?"])
    return form % (p, "cost"), form % (p, "weigh")


@near("question_target")
def qt_invent(r):
    inv = r.choice(["telephone", "printing press", "light bulb", "World Wide Web",
                    "steam engine"])
    return "Who invented the %s?" % inv, "When was the %s invented?" % inv


@near("question_target")
def qt_proscons(r):
    x = r.choice(["remote work", "nuclear energy", "electric cars",
                  "using TypeScript instead of JavaScript", "renting instead of buying a home"])
    return "What are the pros of %s?" % x, "What are the cons of %s?" % x


@near("question_target")
def qt_landmark(r):
    lm = r.choice(LANDMARKS)
    return "How tall is %s?" % lm, "How old is %s?" % lm


@near("question_target")
def qt_born(r):
    p = r.choice(PEOPLE)
    return "Where was %s born?" % p, "When was %s born?" % p


@near("question_target")
def qt_disease(r):
    d = r.choice(["shingles", "strep throat", "Lyme disease", "anemia", "gout"])
    return "What are the symptoms of %s?" % d, "What is the treatment for %s?" % d


@near("question_target")
def qt_time_cost(r):
    x = r.choice(["get a passport in the US", "get a driver's license in California",
                  "learn to fly a small plane", "build a small website"])
    return "How long does it take to %s?" % x, "How much does it cost to %s?" % x


@near("question_target")
def qt_poparea(r):
    c = r.choice(CAPITAL_COUNTRIES)
    return "What's the population of %s?" % c, "What's the total area of %s?" % c


@near("question_target")
def qt_whywhen(r):
    ev = r.choice(["the Roman Empire fall", "the Berlin Wall come down",
                   "the Great Depression start", "the Chernobyl disaster happen"])
    return "Why did %s?" % ev, "When did %s?" % ev


@near("question_target")
def qt_complexity(r):
    algo = r.choice(["merge sort", "quicksort", "bubble sort", "binary search",
                     "breadth-first search"])
    return ("What's the time complexity of %s?" % algo,
            "What's the space complexity of %s?" % algo)


@near("question_target")
def qt_movie(r):
    m = r.choice(["Titanic", "The Godfather", "Jurassic Park", "Inception",
                  "Pulp Fiction"])
    return "Who directed %s?" % m, "Who starred in %s?" % m


@near("question_target")
def qt_points(r):
    s = r.choice(["ethanol", "mercury", "table salt", "iron"])
    return "What is the boiling point of %s?" % s, "What is the melting point of %s?" % s


@near("question_target")
def qt_trip(r):
    city = r.choice(CITIES)
    month = r.choice(["April", "August", "December"])
    head = "I'm planning a trip to %s in %s. " % (city, month)
    return (head + "What's the weather usually like then?",
            head + "What festivals or events usually happen then?")


# ===========================================================================
# NEAR-MISS: pasted_content_change
# ===========================================================================

@near("pasted_content_change")
def pc_translate(r):
    d1, d2 = r.sample(["Monday", "Tuesday", "Friday", "Sunday"], 2)
    lang = r.choice(HUMAN_LANGS)
    form = "Translate this into %s: \"I will arrive on %s evening and stay for two nights.\""
    return form % (lang, d1), form % (lang, d2)


@near("pasted_content_change")
def pc_email(r):
    d1, d2 = r.sample(["Thursday", "Friday", "Wednesday"], 2)
    name = r.choice(NAMES)
    form = ("Summarize this email in one line: \"Hi team, the launch meeting is "
            "moved to %s at 3pm. Please bring the Q3 numbers. - %s\"")
    return form % (d1, name), form % (d2, name)


@near("pasted_content_change")
def pc_grammar(r):
    a, b = r.sample(["apples", "oranges", "spicy food", "horror movies"], 2)
    form = "Fix the grammar in this sentence: \"She don't like %s.\""
    return form % a, form % b


@near("pasted_content_change")
def pc_sort(r):
    x, y = r.sample(["date", "fig", "kiwi", "grape", "lemon"], 2)
    form = "Sort this list alphabetically: banana, cherry, %s, apple"
    return form % x, form % y


@near("pasted_content_change")
def pc_sum(r):
    a, b = r.sample([7, 19, 23, 58], 2)
    form = "Add up these numbers: 12, 45, %d, 30"
    return form % a, form % b


@near("pasted_content_change")
def pc_correct(r):
    a, b = r.choice([("Their going to the park later.", "They're going to the park later."),
                     ("Its raining outside again.", "It's raining outside again."),
                     ("I could of helped you.", "I could have helped you."),
                     ("Your welcome to join us.", "You're welcome to join us.")])
    form = "Is this sentence grammatically correct? \"%s\""
    return form % a, form % b


@near("pasted_content_change")
def pc_sentiment(r):
    noun, a, b = r.choice([("staff were", "friendly", "rude"),
                           ("room was", "spotless", "filthy"),
                           ("room was", "quiet", "noisy")])
    form = ("What's the sentiment of this hotel review: \"The location was great "
            "and the %s %s.\"")
    return form % (noun, a), form % (noun, b)


@near("pasted_content_change")
def pc_landlord(r):
    a, b = r.sample(["heater", "fridge", "washing machine", "shower"], 2)
    form = ("Proofread my message to my landlord: \"Hello, the %s in my "
            "apartment has stopped working since Monday. Could you send someone "
            "to fix it?\"")
    return form % a, form % b


@near("pasted_content_change")
def pc_json(r):
    a, b = r.sample(["blue", "yellow", "purple", "orange"], 2)
    form = "Convert this list into a JSON array: red, green, %s"
    return form % a, form % b


@near("pasted_content_change")
def pc_reply(r):
    a, b = r.sample(["Wednesday", "Thursday", "Monday"], 2)
    form = ("Write a polite reply to this email: \"Can we reschedule our call to "
            "next %s morning?\"")
    return form % a, form % b


@near("pasted_content_change")
def pc_count(r):
    s1 = "The quick brown fox jumps over the lazy dog"
    s2 = r.choice(["The quick brown fox jumps over the dog",
                   "The quick fox jumps over the lazy dog"])
    form = "How many words are in this sentence? \"%s\""
    return form % s1, form % s2


@near("pasted_content_change")
def pc_date(r):
    a, b = r.sample([12, 14, 21, 3], 2)
    form = ("Extract the date from this text and give it as YYYY-MM-DD: \"Your "
            "appointment is confirmed for %d March 2024 at 10:30.\"")
    return form % a, form % b


@near("pasted_content_change")
def pc_formal(r):
    a, b = r.sample(["meeting", "dinner", "workshop"], 2)
    form = "Rewrite this in a formal tone: \"hey, can't make it to the %s tmrw, sorry\""
    return form % a, form % b


@near("pasted_content_change")
def pc_notes(r):
    a, b = r.sample([4, 14, 40], 2)
    form = ("Turn these notes into a short paragraph:\n- revenue up 12%%\n- costs "
            "down 3%%\n- hired %d engineers")
    return form % a, form % b


# ===========================================================================
# POSITIVES: reworded_question
# ===========================================================================

@pos("reworded_question")
def rq_largest(r):
    x = r.choice(["ocean on Earth", "planet in our solar system",
                  "desert in the world", "country in South America",
                  "lake in Africa", "island in the world", "moon of Saturn"])
    return "What is the largest %s?" % x, "Which %s is the biggest?" % x


@pos("reworded_question")
def rq_howdo(r):
    t = r.choice(["reverse a list in Python", "center a div horizontally in CSS",
                  "find the length of a string in JavaScript",
                  "list all files in a directory on Linux",
                  "create a new branch in git",
                  "check which version of Node.js I have installed"])
    a, b = r.choice([("How do I %s?", "What's the way to %s?"),
                     ("How do I %s?", "How can I %s?"),
                     ("How can I %s?", "What steps do I take to %s?")])
    return a % t, b % t


@pos("reworded_question")
def rq_capital(r):
    c = r.choice(POS_CAPITAL_COUNTRIES)
    a, b = r.choice([("What is the capital of %s?", "Which city is the capital of %s?"),
                     ("What's the capital city of %s?", "Which city serves as the capital of %s?")])
    return a % c, b % c


@pos("reworded_question")
def rq_count(r):
    return r.choice([
        ("How many days are in a leap year?", "What is the number of days in a leap year?"),
        ("How many bones are in the adult human body?",
         "What is the total number of bones in an adult human body?"),
        ("How many keys does a standard piano have?",
         "What's the number of keys on a standard piano?"),
        ("How many minutes are in a day?", "A day has how many minutes?"),
        ("How many players are on the field for one soccer team?",
         "What's the number of players one soccer team has on the field?")])


@pos("reworded_question")
def rq_author(r):
    b = r.choice(POS_BOOKS)
    return "Who wrote %s?" % b, "Who is the author of %s?" % b


@pos("reworded_question")
def rq_year(r):
    ev = r.choice(["World War II end", "the Berlin Wall fall", "the Titanic sink",
                   "humans first land on the Moon"])
    return "What year did %s?" % ev, "In which year did %s?" % ev


@pos("reworded_question")
def rq_distance(r):
    a, b = r.choice([("the Moon", "Earth"), ("the Sun", "Earth"),
                     ("Paris", "London"), ("Tokyo", "Osaka")])
    return ("How far is %s from %s?" % (a, b),
            "What is the distance between %s and %s?" % (b, a))


@pos("reworded_question")
def rq_meaning(r):
    w = r.choice(["ubiquitous", "ephemeral", "serendipity", "pragmatic",
                  "gregarious", "meticulous"])
    return ("What does the word '%s' mean?" % w,
            "What is the meaning of the word '%s'?" % w)


@pos("reworded_question")
def rq_height(r):
    lm = r.choice(POS_LANDMARKS)
    return "How tall is %s?" % lm, "What is the height of %s?" % lm


@pos("reworded_question")
def rq_painter(r):
    p = r.choice(POS_PAINTINGS)
    return "Who painted %s?" % p, "Which artist painted %s?" % p


@pos("reworded_question")
def rq_boil(r):
    return r.choice([
        ("What's the boiling point of water in Fahrenheit?",
         "At what temperature in Fahrenheit does water boil?"),
        ("What is the speed of light in a vacuum?",
         "How fast does light travel in a vacuum?"),
        ("What is the chemical symbol for gold?",
         "Which chemical symbol does gold have?")])


# ===========================================================================
# POSITIVES: can_you_explain_forms
# ===========================================================================

EXPLAIN_FORMS = ["Can you explain %s?", "Explain %s.", "Could you tell me what %s is?",
                 "What is %s?", "I'd like to understand %s.", "Please explain %s to me.",
                 "Help me understand %s.", "Could you explain %s?"]
EXPLAIN_CONCEPTS = ["photosynthesis", "recursion", "blockchain technology", "inflation",
                    "the greenhouse effect", "compound interest", "machine learning",
                    "a black hole", "the placebo effect", "plate tectonics",
                    "natural selection", "a REST API", "opportunity cost",
                    "public-key cryptography", "the Pythagorean theorem",
                    "a neural network", "the water cycle", "a hash table",
                    "the Doppler effect", "quantum entanglement"]


_EXPLAIN_CYCLE = Cycle(EXPLAIN_CONCEPTS)


def _explain(r):
    c = _EXPLAIN_CYCLE.next(r)
    a, b = r.sample(EXPLAIN_FORMS, 2)
    return a % c, b % c


for _i in range(8):
    POS["can_you_explain_forms"].append(_explain)


# ===========================================================================
# POSITIVES: polite_or_chatty_wrapper
# ===========================================================================

WRAP_BASES = ["What is the capital of Australia?",
              "How do I boil an egg so the yolk stays runny?",
              "What's the difference between a list and a tuple in Python?",
              "How many ounces are in a cup?",
              "What is the tallest mountain in Africa?",
              "How do I convert a string to lowercase in JavaScript?",
              "Why is the sky blue?",
              "What are the symptoms of dehydration?",
              "How long should I steep green tea?",
              "Who was the first person to walk on the Moon?",
              "How do I remove a red wine stain from a white shirt?",
              "What's a good name for a golden retriever puppy?",
              "How do I make a cold brew coffee at home?",
              "Which planet has the most moons?"]
WRAPPERS = ["Hi! %s Thanks so much!", "Hey there, quick question: %s",
            "%s Thanks in advance!", "Hello, I hope you're having a good day. %s",
            "Good morning! %s", "%s I'd really appreciate your help.",
            "Sorry to bother you, but %s", "Hi, hope all is well! I was wondering: %s",
            "Please help me with this one: %s", "Quick question for you: %s Cheers!"]


def _wrap(r, q, w):
    if w.startswith("Sorry") or w.endswith("wondering: %s"):
        return w % low_first(q)
    return w % q


_WRAP_CYCLE = Cycle(WRAP_BASES)


def _polite(r):
    q = _WRAP_CYCLE.next(r)
    if r.random() < 0.6:
        return q, _wrap(r, q, r.choice(WRAPPERS))
    w1, w2 = r.sample(WRAPPERS, 2)
    return _wrap(r, q, w1), _wrap(r, q, w2)


for _i in range(8):
    POS["polite_or_chatty_wrapper"].append(_polite)


# ===========================================================================
# POSITIVES: synonym_swap
# ===========================================================================

@pos("synonym_swap")
def sy_begin(r):
    x = r.choice(["the guitar", "the piano", "chess"])
    what = x if x == "chess" else "to play " + x
    form = "How do I %s learning %s?"
    return form % ("start", what), form % ("begin", what)


@pos("synonym_swap")
def sy_quick(r):
    t = r.choice(["peel a lot of garlic", "chill a bottle of wine",
                  "learn touch typing"])
    form = "What's a %s way to %s?"
    return form % ("quick", t), form % ("fast", t)


@pos("synonym_swap")
def sy_easy(r):
    d = r.choice(["vegetable soup", "tomato pasta sauce", "banana bread"])
    return ("Give me a recipe for a simple %s." % d,
            "Give me a recipe for an easy %s." % d)


@pos("synonym_swap")
def sy_main(r):
    e = r.choice(["the French Revolution", "the Great Depression", "World War I"])
    form = "What were the %s causes of %s?"
    return form % ("main", e), form % ("primary", e)


@pos("synonym_swap")
def sy_gift(r):
    who = r.choice(["mom", "brother", "best friend"])
    hobby = r.choice(["gardening", "cooking", "hiking"])
    form = "Help me choose a %s for my %s who loves %s."
    return form % ("present", who, hobby), form % ("gift", who, hobby)


@pos("synonym_swap")
def sy_fix(r):
    t = r.choice(["leaking faucet", "squeaky door hinge", "flat bicycle tire"])
    form = "How can I %s a %s?"
    return form % ("fix", t), form % ("repair", t)


@pos("synonym_swap")
def sy_reduce(r):
    t = r.choice(["electricity bill", "water bill", "stress at work"])
    form = "How can I %s my %s?"
    return form % ("reduce", t), form % ("lower", t)


@pos("synonym_swap")
def sy_locate(r):
    t = r.choice(["my IP address on Windows", "the hosts file on a Mac"])
    form = "How do I %s %s?"
    return form % ("find", t), form % ("locate", t)


@pos("synonym_swap")
def sy_correct(r):
    t = r.choice(["hold chopsticks", "hold a tennis racket", "fold a fitted sheet"])
    form = "What's the %s way to %s?"
    return form % ("correct", t), form % ("right", t)


@pos("synonym_swap")
def sy_suggest(r):
    t = r.choice(["the history of Rome", "personal finance", "astronomy for beginners"])
    form = "Can you %s a good book about %s?"
    return form % ("suggest", t), form % ("recommend", t)


@pos("synonym_swap")
def sy_buy(r):
    t = r.choice(["a used car", "my first home"])
    form = "What should I check before I %s %s?"
    return form % ("buy", t), form % ("purchase", t)


# ===========================================================================
# POSITIVES: casing_whitespace_punctuation
# ===========================================================================

CASE_BASES = ["What is the capital of Peru?",
              "How do I make a paper airplane that flies far?",
              "Why do cats purr?",
              "What is the difference between weather and climate?",
              "Give me three ideas for a rainy weekend with kids.",
              "How long should I boil spaghetti?",
              "Who painted the ceiling of the Sistine Chapel?",
              "What are some good stretches for tight hamstrings?",
              "How do volcanoes form?",
              "Recommend a few classic novels for a long flight.",
              "What is the best way to store fresh basil?",
              "How many hours of sleep does a teenager need?",
              "Explain how a rainbow forms.",
              "What should I pack for a weekend hiking trip?"]


def _t_lower(q):
    return q.lower()


def _t_nopunct(q):
    return q.rstrip("?.!")


def _t_lower_nopunct(q):
    return q.lower().rstrip("?.!")


def _t_spaces(q):
    words = q.split(" ")
    mid = len(words) // 2
    return " ".join(words[:mid]) + "   " + " ".join(words[mid:])


def _t_newline(q):
    return "\n" + q + "\n\n"


def _t_padding(q):
    return "   " + q + "  "


def _t_inner_newline(q):
    words = q.split(" ")
    mid = len(words) // 2
    return " ".join(words[:mid]) + "\n" + " ".join(words[mid:])


def _t_title(q):
    return " ".join(w[:1].upper() + w[1:] for w in q.split(" "))


def _t_upper(q):
    return q.upper()


def _t_double(q):
    if q.endswith("?"):
        return q + "??"
    return q[:-1] + "!"


CASE_TRANSFORMS = [_t_lower, _t_nopunct, _t_lower_nopunct, _t_spaces, _t_newline,
                   _t_padding, _t_inner_newline, _t_title, _t_upper, _t_double]
_CASE_BASE_CYCLE = Cycle(CASE_BASES)
_CASE_T_CYCLE = Cycle(CASE_TRANSFORMS)


def _casing(r):
    q = _CASE_BASE_CYCLE.next(r)
    t = _CASE_T_CYCLE.next(r)
    out = t(q)
    if out == q:
        return None
    return q, out


for _i in range(8):
    POS["casing_whitespace_punctuation"].append(_casing)


# ---------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------

def _collect(rng, registry, cat, n, seen, min_templates):
    temps = list(registry[cat])
    order = list(range(len(temps)))
    rng.shuffle(order)
    got = []
    used = set()
    i = 0
    attempts = 0
    while len(got) < n:
        attempts += 1
        if attempts > 20000:
            raise RuntimeError("could not fill category %s" % cat)
        ti = order[i % len(order)]
        i += 1
        res = temps[ti](rng)
        if res is None:
            continue
        s, q = res
        if s == q:
            continue
        if rng.random() < 0.5:
            s, q = q, s
        key = frozenset((s, q))
        if key in seen:
            continue
        seen.add(key)
        used.add(ti)
        got.append({"category": cat, "stored": s, "query": q})
    if len(used) < min_templates:
        raise RuntimeError("category %s used only %d templates" % (cat, len(used)))
    return got


def build():
    rng = random.Random(SEED)
    seen = set()
    text_pairs = []
    for cat in NEAR_CATEGORIES:
        text_pairs.extend(_collect(rng, NEAR, cat, NEAR_PER_CATEGORY, seen, 8))
    positives = []
    for cat, n in POSITIVE_COUNTS:
        positives.extend(_collect(rng, POS, cat, n, seen, 1))
    for p in text_pairs + positives:
        for side in ("stored", "query"):
            nw = len(p[side].split())
            if not 2 <= nw <= 60:
                raise RuntimeError("length out of range: %r" % p[side])
    return {"description": DESCRIPTION, "text_pairs": text_pairs,
            "positives": positives}


def main():
    data = build()
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "data")
    os.makedirs(out_dir, exist_ok=True)
    out = os.path.join(out_dir, "heldout_generated_v20.json")
    with open(out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote %s: %d text_pairs (near-miss, %d categories), %d positives"
          % (out, len(data["text_pairs"]), len(NEAR_CATEGORIES),
             len(data["positives"])))


if __name__ == "__main__":
    main()
