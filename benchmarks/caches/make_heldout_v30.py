#!/usr/bin/env python3
"""Held-out evaluation set v30 for a semantic prompt cache (written blind).

Theme: chat prompts in which NUMBERS, QUANTITIES, MEASURES and COMPARISONS
decide the answer -- personal finance, cooking, health and fitness, travel,
home and DIY, school maths and science, shopping, dates and calendars, work.

Every template and word list below was written from scratch for this file,
without looking at any other data set, code, test or doc of the project.

Output (``benchmarks/caches/data/heldout_generated_v30.json``):

* ``text_pairs`` -- 200 near-miss pairs (10 categories x 20) that must NOT be
  served from the cache: the two prompts share almost all words but need a
  different answer.  Categories: number_value_changed, unit_changed,
  direction_swapped, bound_word_changed, percent_wording_changed,
  fraction_or_ratio_changed, rate_vs_total, approximation_or_range_changed,
  date_or_time_changed, asked_quantity_changed.
* ``positives`` -- 160 true paraphrase pairs (8 categories x 20) that must be
  served from the cache: every number, unit, date, direction and bound is
  identical.  Categories: question_reworded, context_reordered,
  number_formatting, quantity_synonym, polite_wrapper, first_person_vs_plain,
  informal_typing, calculation_phrasing.

Each category has at least six templates, used round-robin and filled from
word lists and numbers drawn with ``random.Random(303030)``; all pairs are
unique and stored != query.  Standard library only, deterministic.

Run from the repository root:

    python3 benchmarks/caches/make_heldout_v30.py
"""

import calendar
import datetime
import json
import os
import random
import re

SEED = 303030
PER_NEAR = 20
PER_POS = 20
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                   "heldout_generated_v30.json")

W = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
     "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
     "sixteen", "seventeen", "eighteen", "nineteen", "twenty"]
MONTHS = list(calendar.month_name)[1:]
WEEKDAYS = list(calendar.day_name)
NAMES = ["Anna", "Ben", "Carla", "Dev", "Elif", "Farid", "Grace", "Hugo",
         "Ines", "Jonas", "Keiko", "Luis", "Maya", "Noah", "Priya", "Sam"]


def money(x, cents=False):
    if cents or (isinstance(x, float) and x != int(x)):
        return f"${x:,.2f}"
    return f"${int(x):,}"


def nice_date(d):
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


def rand_date(r, year=None):
    y = year or r.choice([2024, 2025, 2026])
    return datetime.date(y, r.randint(1, 12), r.randint(1, 28))


def and_list(items):
    items = [str(i) for i in items]
    return ", ".join(items[:-1]) + " and " + items[-1]


_AN = re.compile(r"\b([aA]) (?=\$?(?:8|11(?![\d.])|18(?![\d.])|11,\d|18,\d))")


def fix_articles(text):
    """'a 18% tip' -> 'an 18% tip', 'a $8,000 loan' -> 'an $8,000 loan'."""
    return _AN.sub(lambda m: m.group(1) + "n ", text)


NEAR = {}
POS = {}


def near(cat):
    def deco(f):
        NEAR.setdefault(cat, []).append(f)
        return f
    return deco


def pos(cat):
    def deco(f):
        POS.setdefault(cat, []).append(f)
        return f
    return deco


# =========================================================================
# NEAR-MISS PAIRS (must not be served from cache)
# =========================================================================

C = "number_value_changed"


@near(C)
def _(r):
    a, b = r.sample(range(2, 10), 2)
    return (f"How many ounces are in {a} pounds?",
            f"How many ounces are in {b} pounds?")


@near(C)
def _(r):
    s = r.choice([2, 4, 6])
    a, b = r.sample([n for n in range(3, 13) if n != s], 2)
    dish = r.choice(["lentil soup", "chili", "lasagna", "chicken curry",
                     "mushroom risotto", "banana bread"])
    t = ("I have a {d} recipe that serves {s}. I need to feed {n} people "
         "this weekend. What should I multiply each ingredient by?")
    return t.format(d=dish, s=s, n=W[a]), t.format(d=dish, s=s, n=W[b])


@near(C)
def _(r):
    p = r.choice([8000, 12000, 15000, 18000, 22000, 25000])
    rate = r.choice(["4.5", "5", "5.9", "6.5", "7.2"])
    a, b = r.sample([2, 3, 4, 5, 6], 2)
    t = "What would the monthly payment be on a {p} car loan at {r}% APR over {n} years?"
    return (t.format(p=money(p), r=rate, n=a), t.format(p=money(p), r=rate, n=b))


@near(C)
def _(r):
    qa, qb = r.sample(["a dozen", "half a dozen", "a baker's dozen",
                       "two dozen", "a score of"], 2)
    one, many = r.choice([("egg", "eggs"), ("bagel", "bagels"),
                          ("cupcake", "cupcakes"), ("rose", "roses"),
                          ("donut", "donuts")])
    c = r.choice([25, 35, 40, 45, 60, 75])
    t = "If one {o} costs {c} cents, how much would {q} {m} cost?"
    return (t.format(o=one, c=c, q=qa, m=many), t.format(o=one, c=c, q=qb, m=many))


@near(C)
def _(r):
    d = r.choice([2, 3, 4, 5])
    a, b = r.sample([3, 4, 5, 6], 2)
    t = "I run {d} miles a day, {n} days a week. How many miles is that over a full year?"
    return t.format(d=W[d], n=W[a]), t.format(d=W[d], n=W[b])


@near(C)
def _(r):
    a, b = r.sample([5, 12, 15, 18, 25, 30, 35, 40, 45, 60, 75], 2)
    x = r.choice([80, 240, 360, 520, 640, 1250, 2400])
    return f"What's {a}% of {x:,}?", f"What's {b}% of {x:,}?"


@near(C)
def _(r):
    ln, wd = r.randint(10, 16), r.randint(9, 14)
    h1, h2 = r.sample([8, 9, 10], 2)
    t = ("My bedroom is {l} by {w} feet with {h}-foot ceilings. What's the total "
         "wall area I'd have to paint, ignoring the door and windows?")
    return t.format(l=ln, w=wd, h=h1), t.format(l=ln, w=wd, h=h2)


@near(C)
def _(r):
    y1, y2 = r.sample(range(2008, 2020), 2)
    who, pron = r.choice([("daughter", "she"), ("son", "he"),
                          ("niece", "she"), ("nephew", "he")])
    t = "My {w} was born in {y}. How old will {p} turn in 2030?"
    return t.format(w=who, y=y1, p=pron), t.format(w=who, y=y2, p=pron)


C = "unit_changed"


@near(C)
def _(r):
    d = r.choice([40, 55, 75, 90, 120, 150, 180])
    s = r.choice([50, 55, 60, 65, 70])
    t = ("The road sign says the next town is {d} {u} away. If I keep driving "
         "at {s} mph, how long until I get there?")
    return t.format(d=d, u="kilometres", s=s), t.format(d=d, u="miles", s=s)


@near(C)
def _(r):
    x = r.choice([3200, 3800, 4200, 4500, 5100, 5600, 6300])
    u1, u2 = r.sample(["per year", "per week", "per quarter"], 2)
    t = "I make {x} a month before tax. What does that come to {u}?"
    return t.format(x=money(x), u=u1), t.format(x=money(x), u=u2)


@near(C)
def _(r):
    t0 = r.choice([0, 15, 25, 37, 50, 80, 100])
    a, b = r.sample(["Celsius", "Fahrenheit"], 2)
    t = "What is {t} degrees {u} in Kelvin?"
    return t.format(t=t0, u=a), t.format(t=t0, u=b)


@near(C)
def _(r):
    t0 = r.choice([200, 220, 230, 240, 250])
    a, b = r.sample(["Celsius", "Fahrenheit"], 2)
    dish = r.choice(["roast potatoes", "the bread", "the pizza", "the vegetables"])
    t = ("My oven dial only shows gas marks. The recipe says to bake {d} at "
         "{t} degrees {u}. Which gas mark should I use?")
    return t.format(d=dish, t=t0, u=a), t.format(d=dish, t=t0, u=b)


@near(C)
def _(r):
    w = r.randint(25, 31)
    t = ("My checked suitcase weighs {w} {u} and the airline's limit is 23 kg. "
         "Am I over the limit, and by how much?")
    return t.format(w=w, u="kilograms"), t.format(w=w, u="pounds")


@near(C)
def _(r):
    x = r.choice([2, 3, 4, 5, 6])
    a, b = r.sample(["cups", "tablespoons", "teaspoons"], 2)
    t = "How many grams is {x} {u} of all-purpose flour?"
    return t.format(x=x, u=a), t.format(x=x, u=b)


@near(C)
def _(r):
    a = r.choice([120, 150, 180, 200, 240, 300])
    t = ("I'm painting a wall of {a} square {u}. If one litre of paint covers "
         "about 10 square metres, how many litres do I need for one coat?")
    return t.format(a=a, u="feet"), t.format(a=a, u="metres")


@near(C)
def _(r):
    d = r.choice([5, 8, 10, 12, 15])
    m = r.randint(d * 5, d * 7)
    t = "I ran {d} {u} in {m} minutes. What was my average pace per mile?"
    return t.format(d=d, u="kilometres", m=m), t.format(d=d, u="miles", m=m)


@near(C)
def _(r):
    x = r.choice([350, 420, 480, 550, 650])
    a, b = r.sample(["per week", "per month"], 2)
    t = "The flat is listed at {x} {u}. How much would I pay over a 12-month lease?"
    return t.format(x=money(x), u=a), t.format(x=money(x), u=b)


C = "direction_swapped"


@near(C)
def _(r):
    x = r.choice([4, 6, 8, 12, 15, 20, 30, 36])
    return (f"Convert {x} inches to centimetres.",
            f"Convert {x} centimetres to inches.")


CURR = [("US dollar", "US dollars", "euros", "0.92"),
        ("British pound", "British pounds", "US dollars", "1.27"),
        ("euro", "euros", "Swiss francs", "0.95"),
        ("Canadian dollar", "Canadian dollars", "US dollars", "0.73"),
        ("Australian dollar", "Australian dollars", "New Zealand dollars", "1.09")]


@near(C)
def _(r):
    one, a_pl, b_pl, rate = r.choice(CURR)
    x = r.choice([50, 120, 250, 400, 750, 1200])
    return (f"If 1 {one} is worth {rate} {b_pl}, how much is {x:,} {a_pl} in {b_pl}?",
            f"If 1 {one} is worth {rate} {b_pl}, how much is {x:,} {b_pl} in {a_pl}?")


@near(C)
def _(r):
    fr = [(2, 3), (3, 4), (5, 8), (4, 7), (7, 10), (3, 5), (5, 6), (2, 5), (7, 12)]
    (a, b), (c, d) = r.sample(fr, 2)
    if a * d == b * c:
        return None
    return (f"Is {a}/{b} bigger than {c}/{d}?", f"Is {c}/{d} bigger than {a}/{b}?")


TZ = {"London": 0, "Tokyo": 9, "New York": -5, "Sydney": 10, "Dubai": 4,
      "Los Angeles": -8, "Singapore": 8}


@near(C)
def _(r):
    a, b = r.sample(list(TZ), 2)
    h = r.randint(1, 11)
    return (f"If it's {h} am in {a}, what time is it in {b}?",
            f"If it's {h} am in {b}, what time is it in {a}?")


@near(C)
def _(r):
    a, b = r.sample([12, 18, 24, 30, 45, 60, 75, 80, 96, 150], 2)
    return f"{a} is what percent of {b}?", f"{b} is what percent of {a}?"


@near(C)
def _(r):
    t0 = r.choice([0, 20, 32, 50, 68, 100, 180, 212])
    return (f"Convert {t0} degrees Fahrenheit to Celsius.",
            f"Convert {t0} degrees Celsius to Fahrenheit.")


@near(C)
def _(r):
    a, b = r.choice([("New York", "Los Angeles"), ("London", "New York"),
                     ("Chicago", "Seattle"), ("Dubai", "London")])
    h = r.randint(6, 11)
    d = r.randint(3, 8)
    t = ("I'm flying from {a} to {b}. The flight leaves at {h} am local time and "
         "takes {d} hours. What's the local time when I land?")
    return t.format(a=a, b=b, h=h, d=d), t.format(a=b, b=a, h=h, d=d)


@near(C)
def _(r):
    x = r.choice([2, 3, 4, 6, 9, 12])
    return (f"How many teaspoons are in {x} tablespoons?",
            f"How many tablespoons are in {x} teaspoons?")


C = "bound_word_changed"


@near(C)
def _(r):
    k = r.randint(2, 5)
    die = r.choice(["six-sided die", "standard die", "fair die"])
    t = "What's the probability of rolling {b} a {k} on a {d}?"
    return t.format(b="at least", k=k, d=die), t.format(b="at most", k=k, d=die)


@near(C)
def _(r):
    prices = sorted(r.sample(range(6, 90), 6))
    t0 = r.randint(prices[1] + 1, prices[4] - 1)
    if t0 in prices:
        return None
    shown = prices[:]
    r.shuffle(shown)
    item = r.choice(["phone case", "yoga mat", "desk lamp", "backpack", "kettle"])
    up, down = r.choice([("more than", "less than"), ("over", "under")])
    t = "I saw these prices for the same {i}: {p}. Which of them are {b} ${t}?"
    ps = and_list(f"${p}" for p in shown)
    return t.format(i=item, p=ps, b=up, t=t0), t.format(i=item, p=ps, b=down, t=t0)


@near(C)
def _(r):
    n = r.choice([10, 14, 21, 30, 45, 60, 90])
    d = rand_date(r)
    t = "What date is {n} days {b} {d}?"
    return (t.format(n=n, b="before", d=nice_date(d)),
            t.format(n=n, b="after", d=nice_date(d)))


@near(C)
def _(r):
    n = r.choice([4, 5, 6, 8, 10])
    k = r.choice([k for k in range(1, n) if 2 * k != n])
    t = "If I flip a fair coin {n} times, what's the chance of getting {b} {k} heads?"
    if k == 1:
        t = t.replace("heads?", "head?")
    return t.format(n=n, b="at least", k=k), t.format(n=n, b="at most", k=k)


@near(C)
def _(r):
    a = r.choice([12, 14, 16, 18])
    ages = r.sample(range(4, 70), 5)
    le = sum(x <= a for x in ages)
    ge = sum(x >= a for x in ages)
    if le == ge or le == 0 or ge == 0:
        return None
    t = ("A museum gives a discount to visitors aged {a} or {b}. The ages in our "
         "group are {ages}. How many of us get the discount?")
    ag = and_list(ages)
    return t.format(a=a, b="younger", ages=ag), t.format(a=a, b="older", ages=ag)


@near(C)
def _(r):
    k = r.choice([4, 5, 6, 8, 9, 10])
    t = "When rolling two dice, what's the probability the total is {b} {k}?"
    return t.format(b="more than", k=k), t.format(b="less than", k=k)


@near(C)
def _(r):
    n = r.choice([50, 100, 200])
    k = r.randint(7, n - 7)
    t = "How many whole numbers from 1 to {n} are {b} {k}?"
    return t.format(n=n, b="greater than", k=k), t.format(n=n, b="less than", k=k)


C = "percent_wording_changed"


@near(C)
def _(r):
    p = r.choice([10, 15, 20, 25, 30, 40, 60, 70])
    x = r.choice([40, 60, 80, 120, 150, 240, 360])
    return f"What is {p}% off {money(x)}?", f"What is {p}% of {money(x)}?"


@near(C)
def _(r):
    x = r.choice([84, 96, 110, 135, 160, 210])
    p = r.choice([5, 8, 10, 12, 15, 20])
    bill = r.choice(["electricity", "gas", "phone", "water"])
    t = "My {b} bill was {x} last month. If it goes {d} by {p}% this month, what will it be?"
    return (t.format(b=bill, x=money(x), d="up", p=p),
            t.format(b=bill, x=money(x), d="down", p=p))


@near(C)
def _(r):
    rate = r.choice([3, 4, 5, 6])
    p = r.choice([1, 2, 3])
    t = ("My mortgage rate is {r}% and the bank says it will go up by {p} {u}. "
         "What will my new rate be?")
    return (t.format(r=rate, p=p, u="percentage point" if p == 1 else "percentage points"),
            t.format(r=rate, p=p, u="percent"))


@near(C)
def _(r):
    a = r.randint(40, 60)
    b = a + r.randint(3, 15)
    what = r.choice(["Voter turnout", "Our survey response rate", "The club's retention rate"])
    return (f"{what} rose from {a}% to {b}%. By how many percentage points did it go up?",
            f"{what} rose from {a}% to {b}%. By what percent did it go up?")


@near(C)
def _(r):
    n = r.choice([12000, 25000, 48000, 80000])
    p = r.choice([2, 3, 4, 5])
    y = r.choice([3, 5, 10])
    town = r.choice(["a small town", "our city", "the county", "the village"])
    t = "The population of {town} is {n:,}. If it {d} by {p}% a year, what will it be in {y} years?"
    return (t.format(town=town, n=n, d="grows", p=p, y=y),
            t.format(town=town, n=n, d="shrinks", p=p, y=y))


@near(C)
def _(r):
    x = r.choice([48, 64, 85, 112, 140])
    p = r.choice([10, 15, 18, 20])
    t = "My restaurant bill is {x}. What's the total with a {p}% {w}?"
    return (t.format(x=money(x), p=p, w="tip added"),
            t.format(x=money(x), p=p, w="discount taken off"))


@near(C)
def _(r):
    a = r.randint(55, 80)
    p = r.choice([2, 4, 5, 6, 8])
    t = "Our school's exam pass rate was {a}% last year and it rose {p} {u} this year. What is it now?"
    return (t.format(a=a, p=p, u="percentage points"), t.format(a=a, p=p, u="percent"))


C = "fraction_or_ratio_changed"


@near(C)
def _(r):
    a = r.choice([2, 3, 4, 5])
    x = r.choice([10, 20, 25, 40, 50])
    t = ("I'm mixing mortar at {s} sand to {c} cement. I've got {x} kg of cement. "
         "How much sand do I need?")
    many = f"{a} parts"
    return (t.format(s=many, c="1 part", x=x), t.format(s="1 part", c=many, x=x))


FRACS = [("half", 1, 2), ("a third", 1, 3), ("a quarter", 1, 4),
         ("two thirds", 2, 3), ("three quarters", 3, 4), ("a sixth", 1, 6)]


@near(C)
def _(r):
    n = r.choice([12, 24])
    (fa, _, _), (fb, _, _) = r.sample(FRACS, 2)
    t = "We ordered {n} slices of pizza and the kids ate {f} of them. How many slices are left?"
    return t.format(n=n, f=fa), t.format(n=n, f=fb)


@near(C)
def _(r):
    a, b = r.choice([(2, 3), (3, 4), (2, 5), (3, 5), (4, 5), (5, 6), (3, 8)])
    x = a * b * r.randint(2, 12)
    return f"What is {a}/{b} of {x}?", f"What is {b}/{a} of {x}?"


@near(C)
def _(r):
    x = r.choice([600, 900, 1200, 1500, 2000, 2400])
    a, b = r.choice([(1, 2), (2, 3), (3, 5), (1, 3), (3, 7)])
    n1, n2 = r.sample(NAMES, 2)
    t = "Split {x} between {n1} and {n2} in a ratio of {a}:{b}. How much does each get?"
    return (t.format(x=money(x), n1=n1, n2=n2, a=a, b=b),
            t.format(x=money(x), n1=n1, n2=n2, a=b, b=a))


@near(C)
def _(r):
    a, b = r.choice([(3, 1), (4, 1), (5, 2), (7, 3), (9, 1), (5, 1)])
    t = ("If the odds against a horse winning are {a} to {b}, what's the implied "
         "probability that it wins?")
    return t.format(a=a, b=b), t.format(a=b, b=a)


@near(C)
def _(r):
    k = r.choice([4, 5, 6])
    x = r.choice([50, 100, 150, 200])
    t = ("The squash bottle says to mix {c} concentrate to {w} water. How much "
         "water do I add to {x} ml of concentrate?")
    return (t.format(c="1 part", w=f"{k} parts", x=x),
            t.format(c=f"{k} parts", w="1 part", x=x))


@near(C)
def _(r):
    n = r.choice([60, 80, 120, 160, 240])
    (fa, _, _), (fb, _, _) = r.sample(FRACS[1:], 2)
    t = "I've written {f} of my {n}-page thesis. How many pages do I still have to write?"
    return t.format(f=fa, n=n), t.format(f=fb, n=n)


@near(C)
def _(r):
    s1, s2 = r.sample([10000, 25000, 50000, 100000, 250000], 2)
    cm = r.choice([3, 4.5, 6, 8, 12])
    t = ("On a map with a scale of 1:{s:,}, two villages are {cm} cm apart. "
         "How far apart are they in real life?")
    return t.format(s=s1, cm=cm), t.format(s=s2, cm=cm)


C = "rate_vs_total"


@near(C)
def _(r):
    x = r.choice([28, 35, 42, 55, 60])
    n = r.randint(4, 9)
    p = r.choice([15, 18, 20])
    t = "Dinner costs {x} {u} and there are {n} of us. How much is a {p}% tip?"
    return (t.format(x=money(x), u="per person", n=W[n], p=p),
            t.format(x=money(x), u="for the whole table", n=W[n], p=p))


@near(C)
def _(r):
    x = r.choice([60, 75, 90, 110])
    h = r.randint(4, 8)
    y = r.randint(x + 20, x * h - 20)
    t = ("Plumber A charges {x} {u} and the job takes {h} hours. Plumber B quoted "
         "{y} for the whole job. Which one is cheaper?")
    return (t.format(x=money(x), u="per hour", h=h, y=money(y)),
            t.format(x=money(x), u="in total", h=h, y=money(y)))


@near(C)
def _(r):
    x = r.choice([35, 48, 65, 89, 120])
    n = r.randint(3, 6)
    f = r.choice([4, 5, 6, 8])
    t = "Concert tickets are {x} each and I'm buying {n}. What's my total with a {f} booking fee {u}?"
    return (t.format(x=money(x), n=W[n], f=money(f), u="per ticket"),
            t.format(x=money(x), n=W[n], f=money(f), u="per order"))


@near(C)
def _(r):
    x = r.choice([45, 60, 75, 90, 120, 150])
    n = r.randint(3, 5)
    t = "I earn {x} {u} and work {n} eight-hour shifts a week. How much do I make in a year?"
    return (t.format(x=money(x), u="an hour", n=W[n]), t.format(x=money(x), u="per shift", n=W[n]))


@near(C)
def _(r):
    n = r.randint(3, 6)
    g = r.choice([2, 3, 4])
    c = r.choice([30, 35, 42, 48])
    return (f"Each of the {W[n]} rooms needs {W[g]} gallons of paint. At {money(c)} a gallon, what will the paint cost?",
            f"All {W[n]} rooms need {W[g]} gallons of paint in total. At {money(c)} a gallon, what will the paint cost?")


@near(C)
def _(r):
    n = r.randint(3, 6)
    l = r.choice([2, 3, 4])
    d = r.randint(3, 7)
    return (f"On our hike the {W[n]} of us each drink {l} litres of water a day. How much water do we need for {d} days?",
            f"On our hike the {W[n]} of us together drink {l} litres of water a day. How much water do we need for {d} days?")


@near(C)
def _(r):
    m = r.choice([20, 25, 30, 40])
    y = r.choice([5, 8, 10, 15])
    v = r.randint(6, 14)
    t = ("A gym charges {m} a month plus {y} {u}. If I go {v} times a month, "
         "what will I pay in a year?")
    return (t.format(m=money(m), y=money(y), u="per visit", v=v),
            t.format(m=money(m), y=money(y), u="as a one-time sign-up fee", v=v))


C = "approximation_or_range_changed"


@near(C)
def _(r):
    a, b = r.sample([10, 20, 30, 40, 50, 60, 70, 80, 90], 2)
    return (f"Which numbers between {a} and {a + 10} are prime?",
            f"Which numbers between {b} and {b + 10} are prime?")


@near(C)
def _(r):
    x = r.randint(1000, 9999)
    if (x + 5) // 10 * 10 == (x + 50) // 100 * 100:
        return None
    return f"Round {x:,} to the nearest ten.", f"Round {x:,} to the nearest hundred."


@near(C)
def _(r):
    x, y = r.randint(100, 999), r.randint(7, 19)
    if x % y == 0:
        return None
    return (f"What's {x} divided by {y}, rounded to two decimal places?",
            f"What's {x} divided by {y}, rounded to the nearest whole number?")


@near(C)
def _(r):
    age = r.randint(25, 60)
    (a1, b1), (a2, b2) = r.sample([(50, 60), (60, 70), (70, 80), (80, 90)], 2)
    t = "I'm {age}. What heart rate range should I aim for to train at {a} to {b}% of my max?"
    return t.format(age=age, a=a1, b=b1), t.format(age=age, a=a2, b=b2)


@near(C)
def _(r):
    a = r.randint(1, 50)
    b = a + r.randint(10, 60)
    k = r.randint(1, 10)
    t = "What's the sum of all whole numbers from {a} to {b}?"
    return t.format(a=a, b=b), t.format(a=a + k, b=b + k)


@near(C)
def _(r):
    (a1, b1), (a2, b2) = r.sample([(-10, -5), (0, 5), (10, 15), (20, 25), (30, 35)], 2)
    act = r.choice(["a walk", "a bike ride", "a run", "an afternoon at the park"])
    t = "What should I wear for {act} when it's between {a} and {b} degrees Celsius outside?"
    return t.format(act=act, a=a1, b=b1), t.format(act=act, a=a2, b=b2)


@near(C)
def _(r):
    y1, y2 = r.sample([1950, 1960, 1970, 1980, 1990, 2000, 2010], 2)
    return (f"List the leap years between {y1} and {y1 + 20}.",
            f"List the leap years between {y2} and {y2 + 20}.")


@near(C)
def _(r):
    a, b = r.randint(123, 987), r.randint(123, 987)
    return (f"Give me a rough estimate of {a} times {b}; a ballpark figure is fine.",
            f"Give me the exact value of {a} times {b}; I need the precise figure.")


C = "date_or_time_changed"


@near(C)
def _(r):
    y = r.randint(1990, 2020)
    m, d = r.randint(1, 12), r.randint(1, 28)
    t = "What day of the week was {m} {d}, {y}?"
    return t.format(m=MONTHS[m - 1], d=d, y=y), t.format(m=MONTHS[m - 1], d=d, y=y + r.choice([1, -1]))


@near(C)
def _(r):
    year = r.choice([2025, 2026])
    m1 = r.randint(1, 5)
    m2, m3 = r.sample(range(m1 + 1, 13), 2)
    d1, d2 = r.randint(1, 28), r.randint(1, 28)
    t = "How many days are there between {a} {d1} and {b} {d2}, {y}?"
    return (t.format(a=MONTHS[m1 - 1], d1=d1, b=MONTHS[m2 - 1], d2=d2, y=year),
            t.format(a=MONTHS[m1 - 1], d1=d1, b=MONTHS[m3 - 1], d2=d2, y=year))


@near(C)
def _(r):
    h = r.randint(1, 11)
    city = r.choice(["Berlin", "Paris", "Madrid", "Rome"])
    t = "If it's {h} {ap} in New York, what time is it in {c}?"
    return t.format(h=h, ap="am", c=city), t.format(h=h, ap="pm", c=city)


@near(C)
def _(r):
    h, mm = r.randint(6, 11), r.choice(["05", "15", "30", "45", "50"])
    z1, z2 = r.sample(["Eastern", "Central", "Mountain"], 2)
    t = "My flight leaves at {h}:{mm} am Pacific time. What time is that in {z} time?"
    return t.format(h=h, mm=mm, z=z1), t.format(h=h, mm=mm, z=z2)


@near(C)
def _(r):
    d = rand_date(r, 2025)
    wd = r.choice([w for w in WEEKDAYS if w != WEEKDAYS[d.weekday()]])
    t = "Today is {dow}, {d}. What date {v} {nl} {wd}?"
    return (t.format(dow=WEEKDAYS[d.weekday()], d=nice_date(d), v="is", nl="next", wd=wd),
            t.format(dow=WEEKDAYS[d.weekday()], d=nice_date(d), v="was", nl="last", wd=wd))


@near(C)
def _(r):
    y = r.choice([2000, 2004, 2008, 2012, 2016, 2020, 2024, 2028])
    y2 = y + r.choice([1, -1, 2, -2])
    return f"How many days are in February {y}?", f"How many days are in February {y2}?"


@near(C)
def _(r):
    year = r.choice([2025, 2026])
    m1, m2 = r.sample(range(1, 13), 2)
    n = r.choice([60, 90, 120])
    t = "My contract starts on {m} 1, {y} and runs for {n} days. On what date does it end?"
    return t.format(m=MONTHS[m1 - 1], y=year, n=n), t.format(m=MONTHS[m2 - 1], y=year, n=n)


C = "asked_quantity_changed"


@near(C)
def _(r):
    p = r.choice([2000, 5000, 8000, 10000, 15000])
    rate = r.choice([3, 4, 5, 6, 7])
    n = r.randint(2, 6)
    t = "I'm borrowing {p} at {r}% simple interest for {n} years. "
    t = t.format(p=money(p), r=rate, n=n)
    return (t + "How much interest will I pay?", t + "How much will I pay back in total?")


@near(C)
def _(r):
    sc = [r.randint(55, 100) for _ in range(5)]
    if sum(sc) / 5 == sorted(sc)[2]:
        return None
    t = "My test scores this term were {s}. What's my {q} score?"
    return t.format(s=and_list(sc), q="average"), t.format(s=and_list(sc), q="median")


@near(C)
def _(r):
    n = r.randint(2, 6)
    k = r.choice([4, 8, 12, 16])
    p = r.choice([5.99, 7.49, 9.99, 12.49, 14.99])
    t = "I'm buying {n} packs of {k} AA batteries at {p} a pack. "
    t = t.format(n=W[n], k=k, p=money(p, True))
    return t + "What's the total cost?", t + "What's the cost per battery?"


@near(C)
def _(r):
    a, b = r.randint(3, 15), r.randint(3, 15)
    if a * b == 2 * (a + b):
        return None
    t = "Our vegetable garden is {a} metres by {b} metres. What's its {q}?"
    return t.format(a=a, b=b, q="area"), t.format(a=a, b=b, q="perimeter")


@near(C)
def _(r):
    p = r.choice([5000, 10000, 15000, 20000])
    rate = r.choice(["6", "7.5", "8.9", "9.5", "11"])
    n = r.randint(2, 5)
    t = "I'm taking out a {p} personal loan at {r}% APR over {n} years. "
    t = t.format(p=money(p), r=rate, n=n)
    return t + "What will my monthly payment be?", t + "How much interest will I pay in total?"


@near(C)
def _(r):
    x = r.choice([96, 120, 148, 186, 240])
    n = r.randint(3, 7)
    p = r.choice([15, 18, 20])
    t = "Our dinner bill is {x} and we're splitting it {n} ways with a {p}% tip. "
    t = t.format(x=money(x), n=W[n], p=p)
    return t + "How much is the tip?", t + "How much does each person pay?"


@near(C)
def _(r):
    d1 = rand_date(r, 2025)
    d2 = d1 + datetime.timedelta(days=r.randint(20, 150))
    t = "Today is {a} and my vacation starts on {b}. How many {u} do I have left to wait?"
    return (t.format(a=nice_date(d1), b=nice_date(d2), u="days"),
            t.format(a=nice_date(d1), b=nice_date(d2), u="weeks"))


@near(C)
def _(r):
    rad = r.choice([3, 4, 5, 6, 7, 10, 12])
    u = r.choice(["cm", "inches", "metres"])
    t = "A circle has a radius of {r} {u}. What is its {q}?"
    return t.format(r=rad, u=u, q="circumference"), t.format(r=rad, u=u, q="area")


# =========================================================================
# POSITIVE PAIRS (should be served from cache)
# =========================================================================

C = "question_reworded"


@pos(C)
def _(r):
    a = r.randint(2, 12)
    return f"How many ounces are in {a} pounds?", f"{a} pounds is how many ounces?"


@pos(C)
def _(r):
    p = r.choice([5, 12, 15, 18, 35, 45, 65])
    x = r.choice([80, 240, 360, 520, 640, 1250])
    return f"What is {p}% of {x:,}?", f"Take {x:,}. What's {p}% of it?"


@pos(C)
def _(r):
    d1 = rand_date(r, 2025)
    d2 = d1 + datetime.timedelta(days=r.randint(10, 200))
    a, b = nice_date(d1), nice_date(d2)
    return (f"How many days are there between {a} and {b}?",
            f"Between {a} and {b}, how many days are there?")


@pos(C)
def _(r):
    d = r.choice([90, 120, 150, 200, 240, 310])
    s = r.choice([50, 55, 60, 65, 70])
    return (f"How long will it take to drive {d} miles at {s} mph?",
            f"At {s} mph, how long does a {d}-mile drive take?")


@pos(C)
def _(r):
    p = r.choice([1000, 2500, 5000, 10000])
    rate = r.choice([3, 4, 5, 6, 7])
    n = r.choice([5, 10, 15, 20])
    return (f"If I invest {money(p)} at {rate}% interest compounded annually, what will it be worth after {n} years?",
            f"What will {money(p)} invested at {rate}% interest compounded annually be worth after {n} years?")


@pos(C)
def _(r):
    a, b = r.randint(8, 20), r.randint(8, 20)
    return (f"What's the area of a room that measures {a} by {b} feet?",
            f"A room measures {a} feet by {b} feet. What is its area?")


@pos(C)
def _(r):
    n = r.randint(2, 9)
    return f"How many cups are in {n} quarts?", f"{n} quarts equals how many cups?"


@pos(C)
def _(r):
    c = r.choice([90, 100, 110, 120])
    d = r.choice([3, 4, 5, 6, 8, 10, 13])
    return (f"If I burn {c} calories per mile, how many calories do I burn running {d} miles?",
            f"Running {d} miles at {c} calories per mile, how many calories do I burn?")


C = "context_reordered"


def reorder(r, sentences, question):
    order = list(range(len(sentences)))
    while order == list(range(len(sentences))):
        r.shuffle(order)
    a = " ".join(sentences) + " " + question
    b = " ".join(sentences[i] for i in order) + " " + question
    return a, b


@pos(C)
def _(r):
    x = r.choice([2800, 3200, 3600, 4100, 4800])
    rent = r.choice([900, 1100, 1250, 1400, 1600])
    return reorder(r, [f"I take home {money(x)} a month after tax.",
                       f"My rent is {money(rent)} a month."],
                   "What percentage of my take-home pay goes on rent?")


@pos(C)
def _(r):
    n = r.randint(3, 8)
    b = r.choice([96, 132, 180, 214, 260])
    p = r.choice([15, 18, 20])
    return reorder(r, [f"There are {W[n]} of us at dinner.",
                       f"The bill comes to {money(b)}.",
                       f"We want to leave a {p}% tip."],
                   "How much should each person pay?")


@pos(C)
def _(r):
    a = r.choice([3.5, 4, 4.2, 5, 5.5, 6])
    b = r.choice([3, 3.2, 3.8, 4, 4.5])
    return reorder(r, [f"My living room is {a} metres long.",
                       f"The room is {b} metres wide."],
                   "How many square metres of flooring do I need?")


@pos(C)
def _(r):
    h, mm = r.randint(6, 11), r.choice(["00", "15", "30", "45"])
    m = r.choice([25, 40, 50, 70, 90])
    return reorder(r, [f"My flight leaves at {h}:{mm} am.",
                       f"The airport is {m} minutes from my house.",
                       "I want to get there two hours before departure."],
                   "What time should I leave home?")


@pos(C)
def _(r):
    s = r.choice([2, 4, 6])
    n = r.choice([n for n in range(3, 13) if n != s])
    g = r.choice([200, 250, 300, 400, 500])
    return reorder(r, [f"The recipe serves {s}.", f"I'm cooking for {n} people.",
                       f"The recipe calls for {g} grams of pasta."],
                   "How much pasta should I use?")


@pos(C)
def _(r):
    h = r.randint(42, 55)
    w = r.choice([16, 18, 21, 24, 28])
    return reorder(r, [f"This week I worked {h} hours.", f"My hourly rate is {money(w)}.",
                       "Anything over 40 hours is paid at time and a half."],
                   "What's my gross pay for the week?")


@pos(C)
def _(r):
    age = r.randint(25, 60)
    hr = r.randint(55, 75)
    p = r.choice([60, 65, 70, 75, 80])
    return reorder(r, [f"I'm {age} years old.", f"My resting heart rate is {hr} beats per minute."],
                   f"Using the Karvonen formula with 220 minus age as my max, what's my target heart rate at {p}% intensity?")


C = "number_formatting"


@pos(C)
def _(r):
    x = r.randrange(1200, 9800, 50)
    n = r.choice([6, 8, 10, 12, 18])
    t = "I want to save {x} for a trip in {n} months. How much do I need to put aside each month?"
    return t.format(x=f"${x:,}", n=n), t.format(x=f"${x}", n=n)


@pos(C)
def _(r):
    p = r.choice([1500, 2400, 3200, 4750])
    rate = r.choice([18, 19.9, 22, 24.5, 27])
    t = "What's the monthly interest on a {p} credit card balance at {r} APR?"
    return t.format(p=money(p), r=f"{rate}%"), t.format(p=money(p), r=f"{rate} percent")


@pos(C)
def _(r):
    h = r.randint(1, 11)
    a, b = r.choice([("London", "New York"), ("Chicago", "Denver"), ("Paris", "Dubai")])
    t = "If it's {t} in {a}, what time is it in {b}?"
    return t.format(t=f"{h}:00 pm", a=a, b=b), t.format(t=f"{h} pm", a=a, b=b)


@pos(C)
def _(r):
    x = r.choice([18, 20, 24, 30, 45, 60])
    p = r.choice([10, 15, 18, 20])
    item = r.choice(["pizza delivery", "haircut", "taxi ride", "takeaway order"])
    t = "A {i} costs {x} and I want to add a {p}% tip. What's the total?"
    return t.format(i=item, x=f"${x}.00", p=p), t.format(i=item, x=f"${x}", p=p)


@pos(C)
def _(r):
    q = r.choice([
        ("How many miles is {v} {u}?", [3, 5, 10, 21, 42], ("km", "kilometres")),
        ("How many pounds is {v} {u}?", [2, 5, 12, 23, 68], ("kg", "kilograms")),
        ("How many fluid ounces are in {v} {u}?", [250, 330, 500, 750], ("ml", "millilitres")),
        ("How many feet is {v} {u}?", [2, 10, 50, 100, 400], ("m", "metres")),
    ])
    t, vals, (a, b) = q
    v = r.choice(vals)
    return t.format(v=v, u=a), t.format(v=v, u=b)


@pos(C)
def _(r):
    d1 = rand_date(r, 2025)
    d2 = d1 + datetime.timedelta(days=r.randint(15, 200))
    us = lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year}"
    eu = lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}"
    t = "How many days are there between {a} and {b}?"
    return t.format(a=us(d1), b=us(d2)), t.format(a=eu(d1), b=eu(d2))


@pos(C)
def _(r):
    forms = r.choice([("1.5", "1 1/2", "one and a half"), ("2.5", "2 1/2", "two and a half"),
                      ("0.75", "3/4", "three quarters of a"), ("0.5", "1/2", "half a")])
    a, b = r.sample(forms, 2)
    ing = r.choice(["sugar", "flour", "milk", "rice"])
    mult = r.choice(["doubling", "tripling"])
    cup = lambda f: f"{f} cup" if f in ("half a", "three quarters of a") else f"{f} cups"
    t = "I'm {m} a recipe that calls for {c} of {i}. How much {i} do I need?"
    return t.format(m=mult, c=cup(a), i=ing), t.format(m=mult, c=cup(b), i=ing)


@pos(C)
def _(r):
    h1 = r.randint(6, 10)
    h2 = r.randint(2, 7)
    return (f"My shift runs from {h1} am to {h2} pm. How many hours is that?",
            f"My shift runs from {h1}:00 a.m. to {h2}:00 p.m. How many hours is that?")


C = "quantity_synonym"


@pos(C)
def _(r):
    n = r.randint(3, 9)
    item, p = r.choice([("notebooks", 3.49), ("T-shirts", 12.99), ("light bulbs", 4.25),
                        ("plant pots", 6.50), ("movie tickets", 14.00)])
    return (f"What's the total cost of {n} {item} at {money(p, True)} each?",
            f"What's the total price of {n} {item} at {money(p, True)} each?")


@pos(C)
def _(r):
    d = r.choice([3, 4.5, 6, 8, 12])
    s = r.choice([4, 4.5, 5, 5.5])
    return (f"How long does it take to walk {d} km at {s} km/h?",
            f"How much time does it take to walk {d} km at {s} km/h?")


@pos(C)
def _(r):
    g = r.choice([8, 10, 12, 14, 15])
    mpg = r.choice([24, 28, 32, 36, 41])
    return (f"How far can I drive on {g} gallons if my car gets {mpg} miles per gallon?",
            f"What distance can I drive on {g} gallons if my car gets {mpg} miles per gallon?")


@pos(C)
def _(r):
    vals = and_list(r.randint(10, 99) for _ in range(r.randint(5, 7)))
    return f"What's the average of {vals}?", f"What's the mean of {vals}?"


@pos(C)
def _(r):
    w = r.choice([15, 17.5, 19, 22, 26])
    h = r.choice([25, 32, 38, 40])
    return (f"How much do I earn in a week at {money(w, w != int(w))} an hour for {h} hours?",
            f"What's my weekly pay at {money(w, w != int(w))} an hour for {h} hours?")


@pos(C)
def _(r):
    n = r.choice([2, 5, 10, 20, 50])
    return (f"How heavy are {n} litres of water?", f"What's the weight of {n} litres of water?")


@pos(C)
def _(r):
    y = r.randint(1960, 2005)
    y2 = r.choice([2030, 2035, 2040, 2050])
    return (f"I was born in {y}. How old will I be in {y2}?",
            f"I was born in {y}. What age will I be in {y2}?")


C = "polite_wrapper"

PRE = ["Hi there! ", "Hello, hope you're well. ", "Good morning! Quick question. ",
       "Hey, could you help me with something? ", "Hi! I'm stuck on this one. "]
POST = [" Thanks!", " Thank you so much.", " Much appreciated!", " Thanks in advance.", ""]


def wrap(r, q):
    pre, post = r.choice(PRE), r.choice(POST)
    w = pre + q + post
    return (q, w) if r.random() < 0.6 else (w, q)


@pos(C)
def _(r):
    return wrap(r, f"How many tablespoons are in {r.choice([2, 3, 4, 5])} cups?")


@pos(C)
def _(r):
    return wrap(r, f"What's a {r.choice([15, 18, 20, 22])}% tip on a {money(r.choice([38, 56, 74, 92, 128]))} bill?")


@pos(C)
def _(r):
    return wrap(r, f"How many calories do I burn walking {r.choice([2, 3, 4, 5, 6])} miles "
                   f"if I burn about {r.choice([80, 90, 100])} calories per mile?")


@pos(C)
def _(r):
    a, b = r.sample(list(TZ), 2)
    return wrap(r, f"What time is it in {b} when it's {r.randint(1, 11)} am in {a}?")


@pos(C)
def _(r):
    return wrap(r, f"How many square feet of tile do I need for a {r.randint(5, 9)} by "
                   f"{r.randint(6, 12)} foot bathroom floor?")


@pos(C)
def _(r):
    return wrap(r, f"If I earn {money(r.randrange(38000, 98000, 500))} a year, what's my monthly pay before tax?")


@pos(C)
def _(r):
    d1 = rand_date(r, 2026)
    d2 = d1 + datetime.timedelta(days=r.randint(30, 200))
    return wrap(r, f"How many weeks are there between {nice_date(d1)} and {nice_date(d2)}?")


C = "first_person_vs_plain"


@pos(C)
def _(r):
    n = r.randint(2, 4)
    p = r.choice([9, 12, 14, 15])
    bill = 50 if n * p < 50 else 100
    return (f"I bought {n} shirts at {money(p)} each and paid with a {money(bill)} bill. How much change did I get?",
            f"Someone buys {n} shirts at {money(p)} each and pays with a {money(bill)} bill. How much change do they get?")


@pos(C)
def _(r):
    x = r.choice([150, 200, 275, 350, 500])
    n = r.choice([9, 12, 18, 24, 30])
    return (f"I save {money(x)} every month. How much will I have saved after {n} months?",
            f"A person saves {money(x)} every month. How much will they have saved after {n} months?")


@pos(C)
def _(r):
    d = r.randint(6, 28)
    n = r.randint(3, 5)
    return (f"I drive {d} miles each way to work, {W[n]} days a week. How many miles do I drive for my commute per week?",
            f"A commuter drives {d} miles each way to work, {W[n]} days a week. How many miles do they drive for the commute per week?")


@pos(C)
def _(r):
    h = r.randint(42, 52)
    w = r.choice([16, 18, 20, 24, 30])
    return (f"I worked {h} hours this week at {money(w)} an hour, with time and a half for every hour over 40. What's my gross pay?",
            f"An employee works {h} hours in a week at {money(w)} an hour, with time and a half for every hour over 40. What's their gross pay?")


@pos(C)
def _(r):
    n = r.randint(2, 6)
    g = r.choice([113, 125, 150, 200, 225])
    return (f"I'm baking {W[n]} batches of cookies and each batch needs {g} grams of butter. How much butter do I need in total?",
            f"A baker is making {W[n]} batches of cookies and each batch needs {g} grams of butter. How much butter is needed in total?")


@pos(C)
def _(r):
    d = r.choice([5, 8, 10, 15, 21])
    m = r.randint(d * 5, d * 7)
    return (f"I ran {d} km in {m} minutes. What was my average speed in km/h?",
            f"A runner covers {d} km in {m} minutes. What is their average speed in km/h?")


@pos(C)
def _(r):
    a, b = r.randint(6, 14), r.randint(6, 14)
    return (f"I'm tiling a {a} by {b} foot floor with 1-foot square tiles. How many tiles do I need?",
            f"A {a} by {b} foot floor is being tiled with 1-foot square tiles. How many tiles are needed?")


C = "informal_typing"


@pos(C)
def _(r):
    n = r.randint(2, 16)
    return f"How many grams are in {n} ounces?", f"how many grams in {n} oz"


@pos(C)
def _(r):
    p = r.choice([15, 18, 20, 25])
    x = r.choice([42, 65, 88, 120, 154])
    return (f"Can you tell me what a {p}% tip on {money(x)} is?",
            f"can u tell me what a {p}% tip on {money(x)} is")


@pos(C)
def _(r):
    d = r.choice([3, 5, 13, 26, 60, 100])
    return f"What is {d} miles in kilometres?", f"whats {d} miles in km"


@pos(C)
def _(r):
    h, mm = r.randint(7, 10), r.choice(["05", "15", "20", "40", "50"])
    x = r.choice([25, 35, 45, 55, 75, 95])
    return (f"If I leave at {h}:{mm} am and the drive takes {x} minutes, what time will I arrive?",
            f"if i leave at {h}:{mm} am and the drive takes {x} mins what time will i get there")


@pos(C)
def _(r):
    d1 = rand_date(r, 2025)
    d2 = d1 + datetime.timedelta(days=r.randint(10, 150))
    m1, m2 = MONTHS[d1.month - 1], MONTHS[d2.month - 1]
    return (f"How many days are left until {m2} {d2.day}, {d2.year} if today is {m1} {d1.day}, {d1.year}?",
            f"how many days left till {m2.lower()} {d2.day} {d2.year} if today is {m1.lower()} {d1.day} {d1.year}")


@pos(C)
def _(r):
    a = r.choice([45, 55, 60, 70, 80])
    b = a + r.choice([15, 20, 25, 30])
    return (f"Could you work out how much I'd save in a year by paying {money(a)} a month instead of {money(b)} a month?",
            f"could u work out how much id save in a year paying {money(a)} a month instead of {money(b)} a month")


@pos(C)
def _(r):
    w = r.randint(55, 110)
    h = r.randint(155, 195)
    return (f"What's my BMI if I weigh {w} kg and I'm {h} cm tall?",
            f"whats my bmi if i weigh {w}kg and im {h}cm tall")


C = "calculation_phrasing"


def phrase(r, body, what_is):
    forms = [f"What is {what_is}?", f"Can you work out {body}?", f"Calculate {body}.",
             f"Could you calculate {body}, please?"]
    a, b = r.sample(forms, 2)
    return a, b


@pos(C)
def _(r):
    p = r.choice([7, 12, 15, 22, 35])
    x = r.choice([180, 450, 720, 1340, 2600])
    s = f"{p}% of {x:,}"
    return phrase(r, s, s)


@pos(C)
def _(r):
    p = r.choice([1000, 3000, 5000, 12000])
    rate = r.choice([3, 4, 5, 6])
    n = r.choice([2, 3, 5, 10])
    s = f"the compound interest on {money(p)} at {rate}% a year, compounded annually, for {n} years"
    return phrase(r, s, s)


@pos(C)
def _(r):
    rad = r.choice([3, 4, 5, 7, 9, 12])
    s = f"the area of a circle with a radius of {rad} cm"
    return phrase(r, s, s)


@pos(C)
def _(r):
    d = r.choice([120, 180, 250, 340, 420])
    h = r.choice([2, 2.5, 3, 4, 5])
    s = f"the average speed for a {d} km trip that takes {h} hours"
    return phrase(r, s, s)


@pos(C)
def _(r):
    g = r.choice([40, 75, 150, 220, 300])
    c = r.choice([52, 89, 130, 250, 380])
    return phrase(r, f"how many calories are in {g} grams of a food with {c} calories per 100 grams",
                  f"the number of calories in {g} grams of a food with {c} calories per 100 grams")


@pos(C)
def _(r):
    s = r.choice([12, 14, 18, 20, 24])
    p = r.choice([3.49, 4.29, 4.99, 5.79])
    s2 = f"the price per ounce of a {s}-ounce box of cereal that costs {money(p, True)}"
    return phrase(r, s2, s2)


@pos(C)
def _(r):
    d1 = rand_date(r, 2026)
    d2 = d1 + datetime.timedelta(days=r.randint(20, 250))
    s = f"the number of days from {nice_date(d1)} to {nice_date(d2)}"
    return phrase(r, s, s)


# =========================================================================


def build(registry, per_cat, rng, seen_texts):
    out, seen_pairs = [], set()
    for cat, templates in registry.items():
        assert len(templates) >= 6, cat
        for i in range(per_cat):
            tpl = templates[i % len(templates)]
            for _attempt in range(500):
                res = tpl(rng)
                if res is None:
                    continue
                stored, query = res
                if stored == query or (stored, query) in seen_pairs:
                    continue
                stored, query = fix_articles(stored), fix_articles(query)
                if stored in seen_texts or query in seen_texts:
                    continue
                break
            else:
                raise RuntimeError(f"could not fill {cat} template {i % len(templates)}")
            seen_pairs.add((stored, query))
            seen_texts.update([stored, query])
            out.append({"category": cat, "stored": stored, "query": query})
    return out


def main():
    rng = random.Random(SEED)
    seen_texts = set()  # no prompt text appears twice anywhere in the file
    text_pairs = build(NEAR, PER_NEAR, rng, seen_texts)
    positives = build(POS, PER_POS, rng, seen_texts)
    desc = (
        "Held-out semantic prompt cache evaluation set v30, written blind "
        "(all templates and word lists written from scratch without looking at "
        "other data sets or project code). Theme: chat prompts where numbers, "
        "quantities, measures and comparisons decide the answer -- personal "
        "finance, cooking, health and fitness, travel, home and DIY, school "
        "maths and science, shopping, dates and calendars, and work. "
        f"text_pairs holds {len(text_pairs)} near-miss pairs ({len(NEAR)} "
        f"categories x {PER_NEAR}: {', '.join(NEAR)}) whose prompts share "
        "almost all words but need different answers, so they must not be "
        f"served from cache. positives holds {len(positives)} paraphrase pairs "
        f"({len(POS)} categories x {PER_POS}: {', '.join(POS)}) with identical "
        "numbers, units, dates, directions and bounds, which should be served "
        "from cache. Each category uses at least six templates round-robin, "
        f"filled deterministically with random.Random({SEED}); all pairs are "
        "unique and stored differs from query."
    )
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump({"description": desc, "text_pairs": text_pairs,
                   "positives": positives}, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print(f"wrote {OUT}: {len(text_pairs)} text_pairs, {len(positives)} positives")


if __name__ == "__main__":
    main()
