"""Must-not-hit pairs of the third held-out set over text: numbers, units, dates, quoted strings,
URLs, identifiers, answer constraints, role swaps, negation and antonyms (see
:mod:`benchmarks.caches.make_heldout_v3`).

Each generator takes the seeded ``random.Random`` and a count and returns ``(stored, query)`` pairs
whose right answers differ.
"""

from __future__ import annotations

import builtins
import calendar
import datetime as dt
import errno
import hashlib
import html.entities
import keyword
import locale
import math
import random
import re
import signal
from collections.abc import Callable, Sequence

from benchmarks.caches.heldout_v3_lists import (
    TRIP_DAYS,
    Maker,
    Pair,
    argentine_cities,
    callables,
    distinct,
    encodings_list,
    exception_pairs,
    fresh,
    http_statuses,
    islands,
    languages,
    mime_table,
    named_symbols,
    ocean_zones,
    pick_other,
    swap,
    unicode_words,
)


def number(rng: random.Random, n: int) -> list[Pair]:
    def savings(r: random.Random) -> Pair:
        p, rate, y = r.choice([500, 1200, 2500, 8000]), r.randint(2, 7), r.randint(3, 15)
        text = "If I put {} euros into a savings account at {}% interest compounded yearly, how much will I have after {} years?"
        vals = [p, rate, y]
        i = r.randrange(3)
        vals2 = list(vals)
        vals2[i] = pick_other(r, [[500, 1200, 2500, 8000], range(2, 8), range(3, 16)][i], vals[i])
        return text.format(*vals), text.format(*vals2)

    def factors(r: random.Random) -> Pair:
        a = r.randint(120, 990)
        return f"What are the prime factors of {a}?", f"What are the prime factors of {pick_other(r, range(120, 991), a)}?"

    def minutes(r: random.Random) -> Pair:
        h, m = r.randint(2, 11), r.randint(5, 55)
        return (f"How many minutes are there in {h} hours and {m} minutes?",
                f"How many minutes are there in {h} hours and {pick_other(r, range(5, 56), m)} minutes?")

    def train(r: random.Random) -> Pair:
        h, mm, d = r.randint(5, 20), r.choice([5, 10, 20, 35, 40, 50]), r.randint(2, 9)
        return (f"My train leaves at {h}:{mm:02d} and the trip takes {d} hours; when do I arrive?",
                f"My train leaves at {h}:{mm:02d} and the trip takes {pick_other(r, range(2, 10), d)} hours; when do I arrive?")

    def bill(r: random.Random) -> Pair:
        amount, k, tip = r.randint(60, 240), r.randint(3, 8), r.choice([10, 12, 15, 18, 20])
        return (f"How much does each person pay if {k} friends split a {amount} euro dinner bill plus a {tip}% tip?",
                f"How much does each person pay if {pick_other(r, range(3, 9), k)} friends split a {amount} euro dinner bill plus a {tip}% tip?")

    def hexa(r: random.Random) -> Pair:
        a = r.randint(300, 65000)
        return f"What is {a} written in hexadecimal?", f"What is {pick_other(r, range(300, 65001), a)} written in hexadecimal?"

    def rounding(r: random.Random) -> Pair:
        x = round(r.uniform(1, 99), 5)
        k = r.randint(2, 4)
        return f"Round {x} to {k} decimal places.", f"Round {x} to {pick_other(r, [2, 3, 4], k)} decimal places."

    makers: list[Maker] = [savings, factors, minutes, train, bill, hexa, rounding]
    return [swap(rng, *m(rng)) for m in rng.sample(makers, n)]


def unit(rng: random.Random, n: int) -> list[Pair]:
    def both(frame: Callable[[str], str], units: Sequence[str]) -> Maker:
        return lambda r: tuple(frame(u) for u in r.sample(list(units), 2))

    def makers(w: int, a: int) -> list[Maker]:
        return [
        both(lambda u: f"How many calories does a {w} kg person burn walking {a} {u}?", ["kilometres", "miles"]),
        both(lambda u: f"Is a {a} {u} attachment too large to send by email?", ["KiB", "MiB", "GiB"]),
        both(lambda u: f"How long should I roast a whole chicken at {w * 2 + 40} degrees {u}?", ["Celsius", "Fahrenheit"]),
        both(lambda u: f"Is {a + 40} {u} a sensible tyre pressure for a road bike?", ["psi", "kPa"]),
        both(lambda u: f"How many phone charges can I get from a {a * 1000} {u} power bank?", ["mAh", "Wh"]),
        both(lambda u: f"How many square metres are {a} {u}?", ["hectares", "acres", "square feet"]),
        both(lambda u: f"Is {a} {u} a good cruising speed for a small sailing yacht?", ["knots", "km/h", "m/s"]),
        ]

    return fresh(rng, n, makers, lambda r: (r.randint(55, 95), r.randint(3, 15)))


def date(rng: random.Random, n: int) -> list[Pair]:
    months = list(calendar.month_name)[1:]

    def a_day(r: random.Random) -> dt.date:
        return dt.date(r.randint(1950, 2035), r.randint(1, 12), r.randint(1, 28))

    def weekday(r: random.Random) -> Pair:
        d = a_day(r)
        while True:
            e = d.replace(day=pick_other(r, range(1, 29), d.day))
            if e.weekday() != d.weekday():
                break
        text = "What day of the week was {} {} {}?"
        return text.format(d.day, months[d.month - 1], d.year), text.format(e.day, months[e.month - 1], e.year)

    def between(r: random.Random) -> Pair:
        d, e = sorted([a_day(r), a_day(r)])
        e2 = e.replace(year=pick_other(r, range(1950, 2036), e.year))
        return (f"How many days are there between {d.isoformat()} and {e.isoformat()}?",
                f"How many days are there between {d.isoformat()} and {e2.isoformat()}?")

    def zodiac(r: random.Random) -> Pair:
        m, d = r.randrange(12), r.randint(1, 28)
        m2 = (m + r.randint(2, 10)) % 12
        return (f"What is the zodiac sign of someone born on {months[m]} {d}?",
                f"What is the zodiac sign of someone born on {months[m2]} {d}?")

    def leap(r: random.Random) -> Pair:
        y = r.randint(1800, 2100)
        y2 = r.choice([x for x in range(1800, 2101) if calendar.isleap(x) != calendar.isleap(y)])
        return f"Is {y} a leap year in the Gregorian calendar?", f"Is {y2} a leap year in the Gregorian calendar?"

    def probation(r: random.Random) -> Pair:
        d = a_day(r)
        e = d.replace(day=pick_other(r, range(1, 29), d.day))
        text = "I started a new job on {} {}, {}; on what date does my 90-day probation period end?"
        return text.format(months[d.month - 1], d.day, d.year), text.format(months[e.month - 1], e.day, e.year)

    def iso_week(r: random.Random) -> Pair:
        d = a_day(r)
        while True:
            e = d.replace(month=pick_other(r, range(1, 13), d.month))
            if e.isocalendar()[1] != d.isocalendar()[1]:
                break
        text = "Which ISO week number does the date '{}' fall in?"
        return text.format(d.isoformat()), text.format(e.isoformat())

    makers: list[Maker] = [weekday, between, zodiac, leap, probation, iso_week]
    return [swap(rng, *m(rng)) for m in rng.sample(makers, n)]


def quoted_string(rng: random.Random, n: int) -> list[Pair]:
    words, symbols = unicode_words(), named_symbols()

    def letters(r: random.Random) -> Pair:
        w = r.choice(words)
        w2 = r.choice([x for x in words if len(x) != len(w)])
        return f'How many letters are in the word "{w}"?', f'How many letters are in the word "{w2}"?'

    def base64(r: random.Random) -> Pair:
        a, b, c = r.sample(words, 3)
        return f'What is the Base64 encoding of the string "{a} {b}"?', f'What is the Base64 encoding of the string "{a} {c}"?'

    def reverse(r: random.Random) -> Pair:
        a, b = r.sample(words, 2)
        return f'Reverse the string "{a}" and tell me if it reads the same both ways.', \
            f'Reverse the string "{b}" and tell me if it reads the same both ways.'

    def char_name(r: random.Random) -> Pair:
        a, b = r.sample(symbols, 2)
        return f"What is the Unicode name of the character '{a}'?", f"What is the Unicode name of the character '{b}'?"

    def count(r: random.Random) -> Pair:
        s = " ".join(r.sample(words, 4))
        a, b = distinct(r, sorted(set(s.replace(" ", ""))), s.count)
        return f'How many times does "{a}" occur in "{s}"?', f'How many times does "{b}" occur in "{s}"?'

    def sort_words(r: random.Random) -> Pair:
        ws = r.sample(words, 4)
        ws2 = list(ws)
        i = r.randrange(4)
        ws2[i] = pick_other(r, words, ws[i])
        return f'Sort the words in "{" ".join(ws)}" alphabetically.', f'Sort the words in "{" ".join(ws2)}" alphabetically.'

    makers: list[Maker] = [letters, base64, reverse, char_name, count, sort_words]
    return [swap(rng, *m(rng)) for m in rng.sample(makers, n)]


TLDS = [".io", ".dev", ".org", ".net", ".co.uk", ".de", ".app"]
RESOURCES = ["invoices", "orders", "users", "sessions", "reports", "devices", "webhooks"]


def url(rng: random.Random, n: int) -> list[Pair]:
    words = unicode_words()

    def host(r: random.Random) -> str:
        return f"{r.choice(words)}-{r.choice(words)}{r.choice(TLDS)}"

    def curl(r: random.Random) -> Pair:
        h, v, res, p = host(r), r.randint(1, 4), r.choice(RESOURCES), r.randint(2, 30)
        text = "Write a curl command that sends a GET request to https://api.{}/v{}/{}?page={}"
        vals = [h, v, res, p]
        i = r.randrange(1, 4)
        vals2 = list(vals)
        vals2[i] = pick_other(r, [None, range(1, 5), RESOURCES, range(2, 31)][i], vals[i])
        return text.format(*vals), text.format(*vals2)

    def port(r: random.Random) -> Pair:
        h, p = host(r), r.choice([3000, 5000, 8000, 8080, 8443, 9090])
        return (f"My health check at https://{h}:{p}/healthz times out; how do I debug it?",
                f"My health check at https://{h}:{pick_other(r, [3000, 5000, 8000, 8080, 8443, 9090], p)}/healthz times out; how do I debug it?")

    def scheme(r: random.Random) -> Pair:
        h = host(r)
        return f"Is it safe to type my password into http://{h}/login?", f"Is it safe to type my password into https://{h}/login?"

    def query(r: random.Random) -> Pair:
        h, w, p = host(r), r.choice(words), r.randint(2, 9)
        w2 = pick_other(r, words, w)
        return (f"What are the values of the query parameters in https://{h}/search?q={w}&page={p}?",
                f"What are the values of the query parameters in https://{h}/search?q={w2}&page={p}?")

    def proxy(r: random.Random) -> Pair:
        h, a = host(r), r.choice(RESOURCES)
        b = pick_other(r, RESOURCES, a)
        return (f"Write an nginx location block that proxies https://{h}/{a}/ to a backend on port 9000.",
                f"Write an nginx location block that proxies https://{h}/{b}/ to a backend on port 9000.")

    def ssl(r: random.Random) -> Pair:
        a, b, t = r.choice(words), r.choice(words), r.choice(TLDS)
        t2 = pick_other(r, TLDS, t)
        return (f"Why does requests.get('https://{a}-{b}{t}/status') raise an SSLError?",
                f"Why does requests.get('https://{a}-{b}{t2}/status') raise an SSLError?")

    makers: list[Maker] = [curl, port, scheme, query, proxy, ssl]
    return [swap(rng, *m(rng)) for m in rng.sample(makers, n)]


def identifier(rng: random.Random, n: int) -> list[Pair]:
    errnos = sorted(errno.errorcode.values())
    sigs = sorted(s.name for s in signal.Signals if not s.name.startswith("SIGRT"))
    entities = sorted(k for k in html.entities.name2codepoint if k.isalpha() and k.islower() and len(k) >= 3)
    locales = sorted(v for v in set(locale.windows_locale.values()) if re.fullmatch(r"[a-z]{2}_[A-Z]{2}", v))
    symbols, zones = named_symbols(), ocean_zones()
    months = list(calendar.month_name)[1:]

    def both(frame: Callable[[str], str], choices: Sequence[str]) -> Maker:
        return lambda r: tuple(frame(c) for c in r.sample(list(choices), 2))

    def region(r: random.Random) -> Pair:
        lang = r.choice(sorted({v[:2] for v in locales if sum(x.startswith(v[:2]) for x in locales) > 1}))
        a, b = r.sample([v for v in locales if v.startswith(lang)], 2)
        return (f"Which language and country does the locale code {a} stand for?",
                f"Which language and country does the locale code {b} stand for?")

    month = rng.choice(months)
    makers: list[Maker] = [
        both(lambda e: f"What does the error {e} mean on Linux, and how do I fix it?", errnos),
        both(lambda s: f"What is the default action when a process receives {s}?", sigs),
        both(lambda c: f"Which character is U+{ord(c):04X}?", symbols),
        both(lambda e: f"What does the HTML entity &{e}; display?", entities),
        region,
        both(lambda z: f"What is the UTC offset of the {z} time zone in {month}?", zones),
    ]
    return [m(rng) for m in rng.sample(makers, n)]


FORMATS_V3 = ["as a JSON array", "as a bullet list", "as a Markdown table", "as an XML document",
              "as a Python dict literal", "as TOML", "on a single comma-separated line", "as a LaTeX tabular"]
LENGTH_WORDS = ["two", "three", "four", "five", "six", "seven", "ten"]
AUDIENCES_V3 = ["a kindergarten class", "a senior backend developer", "a nurse on night shifts",
                "a high-school chemistry class", "a museum guide", "a non-technical manager", "an accountant",
                "a first-year law student"]
TONES_V3 = ["stern", "cheerful", "diplomatic", "blunt", "whimsical", "melancholic", "deadpan", "reassuring"]


def constraint_format(rng: random.Random, n: int) -> list[Pair]:
    excs = sorted({b for _, b in exception_pairs()})
    majors = sorted({t.split("/")[0] for t in mime_table().values()})
    langs = languages()
    topics = [lambda r: f"the HTTP {r.randint(2, 5)}xx status codes with their reason phrases",
              lambda r: f"the months of {r.randint(1990, 2030)} with their number of days",
              lambda r: f"the Python built-in exceptions that inherit from {r.choice(excs)}",
              lambda r: f"the file extensions of the {r.choice(majors)} MIME types",
              lambda r: f"the days of the week in {r.choice(langs)}",
              lambda r: "the Unix signals and their default actions"]
    frames = [lambda t, f: f"List {t} {f}.", lambda t, f: f"Give me {t}, formatted {f}.",
              lambda t, f: f"Could you return {t} {f}?", lambda t, f: f"Put {t} {f}, nothing else."]
    out = []
    for topic in rng.sample(topics, n):
        t, frame = topic(rng), rng.choice(frames)
        a, b = rng.sample(FORMATS_V3, 2)
        out.append((frame(t, a), frame(t, b)))
    return out


def constraint_length(rng: random.Random, n: int) -> list[Pair]:
    slots = {"island": rng.choice(islands()), "lang": rng.choice(languages()),
             "kw": rng.choice([k for k in keyword.kwlist if k.islower()]),
             "month": rng.choice(list(calendar.month_name)[1:])}
    frames = ["Summarize the history of {island} in {k} sentences.", "Give me {k} tips for learning {lang}.",
              "Write a {k}-line poem about {island}.", "In {k} words or fewer, what is the `{kw}` keyword for in Python?",
              "Suggest {k} names for a kitten born in {month}.", "Describe a {k}-day itinerary for {island}."]
    return [tuple(frame.format(k=k, **slots) for k in rng.sample(LENGTH_WORDS, 2)) for frame in rng.sample(frames, n)]


def constraint_language(rng: random.Random, n: int) -> list[Pair]:
    langs = languages()
    days, months = list(calendar.day_name), list(calendar.month_name)[1:]
    fns, isl = [f for f in callables(math) if f.isalpha()], islands()
    frames = [lambda L, d=rng.choice(days): f"Translate 'The museum opens at nine on {d}s' into {L}.",
              lambda L, f=rng.choice(fns): f"Explain how Python's `math.{f}` works, and reply in {L}.",
              lambda L, i=rng.choice(isl): f"Write a short welcome message for visitors to {i} in {L}.",
              lambda L, m=rng.choice(months): f"How do you say '{m}' in {L}?"]
    return [tuple(frame(L) for L in rng.sample(langs, 2)) for frame in rng.sample(frames, n)]


def constraint_audience(rng: random.Random, n: int) -> list[Pair]:
    code, phrase = rng.choice(http_statuses())
    sig = rng.choice(sorted(s.name for s in signal.Signals if not s.name.startswith("SIGRT")))
    isl = rng.choice(islands())
    kw = rng.choice([k for k in keyword.kwlist if k.islower()])
    frames = [lambda a: f"Explain HTTP status {code} ({phrase}) to {a}.",
              lambda a: f"How would you describe the {sig} signal to {a}?",
              lambda a: f"Write a one-paragraph introduction to {isl} for {a}.",
              lambda a: f"Explain the `{kw}` keyword in Python to {a}."]
    return [tuple(frame(a) for a in rng.sample(AUDIENCES_V3, 2)) for frame in rng.sample(frames, n)]


def constraint_tone(rng: random.Random, n: int) -> list[Pair]:
    month, d = rng.choice(list(calendar.month_name)[1:]), rng.randint(2, 28)
    day = rng.choice(list(calendar.day_name))
    code, phrase = rng.choice([s for s in http_statuses() if s[0] >= 500])
    isl = rng.choice(islands())
    frames = [lambda t: f"Write a {t} reply to a customer whose order is delayed until {month} {d}.",
              lambda t: f"Write a {t} announcement that the office will be closed on {day}.",
              lambda t: f"Draft a {t} incident note explaining that our API returned {code} {phrase} for two hours.",
              lambda t: f"Compose a {t} postcard from {isl}."]
    return [tuple(frame(t) for t in rng.sample(TONES_V3, 2)) for frame in rng.sample(frames, n)]


UNIT_PAIRS_V3 = [("fluid ounces", "millilitres"), ("hectares", "acres"), ("knots", "kilometres per hour"),
                 ("psi", "bar"), ("kilocalories", "kilojoules"), ("stones", "kilograms")]
DISHES_V3 = ["shakshuka", "pad thai", "lasagne", "ratatouille", "chili con carne", "carrot cake", "paella"]
INGREDIENTS_V3 = ["eggs", "garlic", "butter", "peanuts", "gluten", "dairy", "onions"]


def role_swap(rng: random.Random, n: int) -> list[Pair]:
    encs, zones, langs, args = encodings_list(), ocean_zones(), languages(), argentine_cities()
    exts = sorted(e.lstrip(".").upper() for e, t in mime_table().items() if t.startswith("image/"))
    words = unicode_words()

    def swapped(frame: Callable[[str, str], str], a: str, b: str) -> Pair:
        return frame(a, b), frame(b, a)

    def pick(choices: Sequence[str]) -> Callable[[random.Random], list[str]]:
        return lambda r: r.sample(list(choices), 2)

    hour = rng.randint(6, 22)
    qty = rng.randint(3, 40)
    makers: list[Maker] = [
        lambda r: swapped(lambda a, b: f"Convert {qty} {a} to {b}.", *r.choice(UNIT_PAIRS_V3)),
        lambda r: swapped(lambda a, b: f"How do I convert a text file from {a} to {b} on the command line?", *pick(encs)(r)),
        lambda r: swapped(lambda a, b: f"When it is {hour}:00 in {a}, what time is it in {b}?", *pick(zones)(r)),
        lambda r: swapped(lambda a, b: f"I'm a native {a} speaker learning {b}; which grammar points will be hardest?",
                          *pick(langs)(r)),
        lambda r: swapped(lambda a, b: f"Is `{a}` a subclass of `{b}` in Python?", *r.choice(exception_pairs())),
        lambda r: swapped(lambda a, b: f"How do I merge the branch `{a}` into `{b}` without a fast-forward?",
                          *r.sample([f"feature/{w}" for w in r.sample(words, 2)] + ["main", "develop"], 2)),
        lambda r: swapped(lambda a, b: f"Write an rsync command that mirrors /srv/{a}/ to /srv/{b}/ and deletes extra files.",
                          *pick(words)(r)),
        lambda r: swapped(lambda a, b: f"What is the best driving route from {a} to {b}?", *pick(args)(r)),
        lambda r: swapped(lambda a, b: f"How do I batch-convert {a} images to {b} with ImageMagick?", *pick(exts)(r)),
    ]
    return [m(rng) for m in rng.sample(makers, n)]


def negation(rng: random.Random, n: int) -> list[Pair]:
    kws = [k for k in keyword.kwlist if k.islower()]
    fns = [f for f in callables(builtins) if f.islower()]
    tasks = {"max": "finds the largest number in a list", "sorted": "sorts a list of names",
             "sum": "adds up a list of prices", "len": "counts the items in a list", "reversed": "reverses a list",
             "zip": "pairs up the items of two lists", "enumerate": "numbers the lines of a file"}
    tasks = {k: v for k, v in tasks.items() if k in fns}
    isl, months = islands(), list(calendar.month_name)[1:]
    algs = sorted(hashlib.algorithms_guaranteed)
    year = rng.randint(2000, 2040)

    def words(r: random.Random) -> str:
        return ", ".join(r.sample(r.sample(kws, 2) + r.sample(fns, 2), 4))

    def pair(a: str, b: str) -> Callable[[random.Random], Pair]:
        return lambda r: swap(r, a, b)

    fn = rng.choice(sorted(tasks))
    code, phrase = rng.choice(http_statuses())
    call, obj = rng.choice([("flush", "file object"), ("join", "thread"), ("close", "socket"),
                            ("commit", "sqlite3 connection")])
    days, place = rng.choice(TRIP_DAYS), rng.choice(isl)
    dish, ing = rng.choice(DISHES_V3), rng.choice(INGREDIENTS_V3)
    month, alg = rng.choice(months), rng.choice(algs)
    ws = words(rng)
    makers = [
        pair(f"Which of these words are reserved keywords in Python: {ws}?",
             f"Which of these words are not reserved keywords in Python: {ws}?"),
        pair(f"Write a Python function that {tasks[fn]} using `{fn}`.",
             f"Write a Python function that {tasks[fn]} without using `{fn}`."),
        pair(f"When should a server return HTTP {code} {phrase}?", f"When should a server never return HTTP {code} {phrase}?"),
        pair(f"What happens if I call `{call}()` on a {obj}?", f"What happens if I don't call `{call}()` on a {obj}?"),
        pair(f"Plan a {days}-day trip to {place} with a rental car.", f"Plan a {days}-day trip to {place} without a rental car."),
        pair(f"Give me a {dish} recipe that uses {ing}.", f"Give me a {dish} recipe that does not use {ing}."),
        pair(f"Why is {place} a good place to visit in {month}?", f"Why is {place} not a good place to visit in {month}?"),
        pair(f"List the reasons to use {alg} for file checksums.", f"List the reasons not to use {alg} for file checksums."),
        pair(f"Which months of {year} have a Friday the 13th?", f"Which months of {year} have no Friday the 13th?"),
    ]
    return [m(rng) for m in rng.sample(makers, n)]


def antonym(rng: random.Random, n: int) -> list[Pair]:
    isl, args = islands(), argentine_cities()
    types = [t for t in ("list", "tuple", "str", "bytes", "bytearray", "dict", "set", "frozenset", "int")
             if isinstance(getattr(builtins, t, None), type)]
    frames = [
        (("acidic", "alkaline"), lambda w, r: f"Which everyday foods are naturally {w}?"),
        (("verbose", "terse"), lambda w, r: f"How do I make my technical writing less {w}?"),
        (("convex", "concave"), lambda w, r: f"What are {w} mirrors used for?"),
        (("endothermic", "exothermic"), lambda w, r: f"Give an everyday example of an {w} reaction."),
        (("fertile", "barren"), lambda w, r: f"What makes farmland {w}?"),
        (("humid", "arid"), lambda w, r: f"Which months are the most {w} in {r.choice(args)}?"),
        (("bullish", "bearish"), lambda w, r: f"What signals suggest a {w} trend in a stock chart?"),
        (("tighten", "loosen"), lambda w, r: f"How do I {w} a bicycle's headset?"),
        (("ascend", "descend"), lambda w, r: f"How fast should a scuba diver {w} near {r.choice(isl)}?"),
        (("brittle", "ductile"), lambda w, r: f"Why are some metals {w} at low temperatures?"),
        (("mutable", "immutable"), lambda w, r: f"Why is Python's `{r.choice(types)}` type {w}?"),
        (("frugal", "lavish"), lambda w, r: f"Plan a {w} honeymoon in {r.choice(isl)}."),
        (("amplify", "attenuate"), lambda w, r: f"How do I {w} the signal from a condenser microphone?"),
        (("thaw", "freeze"), lambda w, r: f"What is the safest way to {w} salmon fillets?"),
        (("optimistic", "pessimistic"), lambda w, r: f"Write an {w} forecast for tourism in {r.choice(isl)}."
                                                   if w[0] in "aeiou" else f"Write a {w} forecast for tourism in {r.choice(isl)}."),
    ]
    out = []
    for (a, b), frame in rng.sample(frames, n):
        state = rng.getstate()
        first = frame(a, rng)
        rng.setstate(state)  # the same slot on both sides
        out.append(swap(rng, first, frame(b, rng)))
    return out


