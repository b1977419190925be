"""Paraphrase pairs (should hit) of the third held-out set: reworded questions, "explain" forms,
polite wrappers, word order, casing and whitespace (see :mod:`benchmarks.caches.make_heldout_v3`).
"""

from __future__ import annotations

import builtins
import calendar
import errno
import keyword
import math
import random
import signal

from benchmarks.caches.heldout_v3_lists import (
    TRIP_DAYS,
    argentine_cities,
    callables,
    encodings_list,
    http_statuses,
    islands,
    languages,
    mime_table,
    named_symbols,
    ocean_zones,
    statistics_functions,
)


def _slots(rng: random.Random) -> dict[str, str]:
    """One draw of every slot the paraphrase frames use."""
    code, phrase = rng.choice(http_statuses())
    mimes = mime_table()
    ext = rng.choice(sorted(mimes))
    a1, a2 = rng.sample(argentine_cities(), 2)
    z1, z2 = rng.sample(ocean_zones(), 2)
    return {
        "island": rng.choice(islands()), "month": rng.choice(list(calendar.month_name)[1:]),
        "day": rng.choice(list(calendar.day_name)), "year": str(rng.randint(2024, 2030)),
        "code": str(code), "phrase": phrase, "mime": mimes[ext], "ext": ext,
        "kw": rng.choice([k for k in keyword.kwlist if k.islower()]),
        "type": rng.choice(["int", "float", "list", "tuple", "bytes", "set"]),
        "arg1": a1, "arg2": a2, "zone1": z1, "zone2": z2, "lang": rng.choice(languages()),
        "fn": rng.choice([f for f in callables(builtins) if f.islower()]),
        "sig": rng.choice(sorted(s.name for s in signal.Signals if not s.name.startswith("SIGRT"))),
        "errno": rng.choice(sorted(errno.errorcode.values())), "enc": rng.choice(encodings_list()),
        "strm": rng.choice(callables(str)), "mathf": rng.choice([f for f in callables(math) if f.isalpha()]),
        "stat": rng.choice(statistics_functions()).replace("_", " "), "nights": str(rng.choice(TRIP_DAYS)),
        "port": str(rng.choice([22, 443, 5432, 6379, 8080, 25565])), "char": rng.choice(named_symbols()),
    }


REWORDED = [
    ("How many people live in {island}?", "What is the population of {island}?"),
    ("How many days does {month} have?", "How many days are there in {month}?"),
    ("Which time zone does {island} use?", "What time zone is {island} in?"),
    ("What does the HTTP {code} status code mean?", "What is the meaning of HTTP status {code}?"),
    ("Which file extension is used for {mime} files?", "What is the file extension for {mime} files?"),
    ("Which beach on {island} is the most popular?", "What is the most popular beach on {island}?"),
    ("What does the `{kw}` keyword do in Python?", "What is the purpose of Python's `{kw}` keyword?"),
    ("Which language is spoken in {island}?", "What language do people speak in {island}?"),
    ("How do I turn a string into a {type} in Python?", "How can I convert a string to a {type} in Python?"),
    ("What's the cheapest way to get from {arg1} to {arg2}?", "What is the least expensive way to travel from {arg1} to {arg2}?"),
    ("When is the best time of year to visit {island}?", "What is the best season to visit {island}?"),
    ("What is the tallest mountain near {arg1}?", "Which mountain near {arg1} is the highest?"),
]
EXPLAINED = ["the Python built-in function `{fn}`", "HTTP status code {code} ({phrase})", "the {sig} signal",
             "the Linux error {errno}", "the `{strm}` method of Python strings", "the {enc} character encoding",
             "the MIME type {mime}", "Python's `math.{mathf}` function"]
EXPLAIN_FORMS = [("Can you explain {x}?", "Explain {x}."), ("What is {x}?", "Can you explain what {x} is?"),
                 ("Explain {x}.", "What is {x}?"), ("Could you explain {x} to me?", "Explain {x}."),
                 ("What is {x}?", "Explain {x}, please.")]
POLITE_BASE = ["How do I change my time zone to {zone1} on Linux?", "What does the `{fn}` built-in return?",
               "How many weekdays are there in {month} {year}?", "What's the weather usually like in {island} in {month}?",
               "How do I read a {ext} file in Python?", "What is the Unicode code point of '{char}'?",
               "How do I open port {port} in the firewall on Ubuntu?", "Do I need a visa to visit {island}?",
               "How long is the bus ride from {arg1} to {arg2}?", "How do I compute the {stat} of a list in Python?"]
POLITE_WRAPPERS = ["Please help me with this: {q}", "{q} Thanks!", "I'd like to know something. {q}",
                   "Hello, {lq}", "Could you help? {q}", "I was wondering: {lq}", "Hey there, {lq} Thank you!",
                   "Hi! {q} Thanks in advance."]
WORD_ORDER = [
    ("What is the average temperature in {island} in {month}?", "In {month}, what is the average temperature in {island}?"),
    ("What time do banks in {island} open on {day}s?", "On {day}s, what time do banks in {island} open?"),
    ("What should I pack for a {nights}-day trip to {island}?", "For a {nights}-day trip to {island}, what should I pack?"),
    ("How do I compute the {stat} of a list of numbers with the statistics module?",
     "With the statistics module, how do I compute the {stat} of a list of numbers?"),
    ("What time is it in {zone2} when it is noon in {zone1}?", "When it is noon in {zone1}, what time is it in {zone2}?"),
    ("How long is the flight from {arg1} to {island}?", "From {arg1}, how long is the flight to {island}?"),
    ("When will I reach {arg2} by car if I leave {arg1} at 8 am?", "If I leave {arg1} at 8 am, when will I reach {arg2} by car?"),
    ("How do I check in Python whether a filename ends with {ext}?", "In Python, how do I check whether a filename ends with {ext}?"),
]
PLAIN = ["Which airlines fly to {island}?", "Is {island} worth visiting in {month}?",
         "What is the population of {arg1}?", "How do I say good night in {lang}?",
         "What are the best hiking trails near {arg2}?", "Is tap water safe to drink in {island}?",
         "How many days are there in {month} {year}?", "What is there to do in {arg1} on a rainy day?"]


def _lower_first(q: str) -> str:
    return q[0].lower() + q[1:] if q[:2] != "I " and not q[1:2].isupper() else q


def _recase(rng: random.Random, q: str) -> str:
    forms = [q.lower(), q.upper(), " ".join(w[:1].upper() + w[1:] for w in q.split(" ")), q.lower().capitalize()]
    return rng.choice([f for f in forms if f != q])


def _respace(rng: random.Random, q: str) -> str:
    words = q.split(" ")
    i = rng.randrange(1, len(words))
    forms = [f"  {q}  ", " ".join(words[:i]) + "   " + " ".join(words[i:]), " ".join(words[:i]) + "\n" + " ".join(words[i:]),
             "\t" + q, q.replace(" ", "  "), q[:-1] + " " + q[-1] if q.endswith("?") else q + " "]
    return rng.choice(forms)


def positives(rng: random.Random) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []

    def hit(category: str, a: str, b: str) -> None:
        s, q = (a, b) if rng.random() < 0.5 else (b, a)
        out.append({"category": category, "stored": s, "query": q})

    for a, b in rng.sample(REWORDED, 10):
        slots = _slots(rng)
        hit("reworded", a.format(**slots), b.format(**slots))
    for x in rng.sample(EXPLAINED, 8):
        a, b = rng.choice(EXPLAIN_FORMS)
        x = x.format(**_slots(rng))
        hit("explain_form", a.format(x=x), b.format(x=x))
    for base, wrapper in zip(rng.sample(POLITE_BASE, 8), rng.sample(POLITE_WRAPPERS, 8), strict=True):
        q = base.format(**_slots(rng))
        hit("polite", q, wrapper.format(q=q, lq=_lower_first(q)))
    for a, b in rng.sample(WORD_ORDER, 7):
        slots = _slots(rng)
        hit("word_order", a.format(**slots), b.format(**slots))
    for base in rng.sample(PLAIN, 6):
        q = base.format(**_slots(rng))
        out.append({"category": "case", "stored": q, "query": _recase(rng, q)})
    for base in rng.sample(PLAIN + POLITE_BASE, 6):
        q = base.format(**_slots(rng))
        out.append({"category": "whitespace", "stored": q, "query": _respace(rng, q)})
    return out


