"""Must-not-hit pairs of the third held-out set over code: operators, identifiers, comparisons,
regular expressions, formulas and SQL conditions (see :mod:`benchmarks.caches.make_heldout_v3`).

Each generator takes the seeded ``random.Random`` and a count and returns ``(stored, query)`` pairs
whose right answers differ.
"""

from __future__ import annotations

import builtins
import datetime as dt
import itertools
import keyword
import math
import operator
import os.path
import random
import re
import shutil
import string
from collections.abc import Callable, Sequence

from benchmarks.caches.heldout_v3_lists import (
    Maker,
    Pair,
    callables,
    distinct,
    fresh,
    pick_other,
    probe,
    swap,
)


def code_operator(rng: random.Random, n: int) -> list[Pair]:
    py = {"//": operator.floordiv, "%": operator.mod, "**": operator.pow, "/": operator.truediv,
          "+": operator.add, "-": operator.sub, "*": operator.mul, "<<": operator.lshift, ">>": operator.rshift}
    def makers(a: int, b: int, c: int) -> list[Maker]:
        return [
        lambda r: tuple(f"What does `print({a} {op} {b})` output in Python 3?"
                        for op in distinct(r, ["//", "%", "**", "/"], lambda o: py[o](a, b))),
        lambda r: tuple(f"What does `echo $(( {a} {op} {b} ))` print in Bash?"
                        for op in distinct(r, ["+", "-", "*", "%", "<<", ">>"], lambda o: py[o](a, b))),
        lambda r: tuple(f"Is `(x {op} 1) == 0` a correct way to check that an integer x is even in C?"
                        for op in r.sample(["&", "|", "^"], 2)),
        lambda r: swap(r, "Can the Python expression `p and (q or not p)` be simplified, and to what?",
                        "Can the Python expression `p or (q or not p)` be simplified, and to what?"),
        lambda r: swap(r, "What is the time complexity of `while j > 0: j //= 2` when j starts at n?",
                        "What is the time complexity of `while j > 0: j -= 2` when j starts at n?"),
        lambda r: tuple(f"Why does `'{a}' {op} 1` give that result in JavaScript?" for op in r.sample(["+", "-", "*"], 2)),
        lambda r: swap(r, f"Which commits does `git log HEAD~{c}` list?", f"Which commits does `git log HEAD^{c}` list?"),
        lambda r: tuple(f"After `int n = {a}; n {op} {b};` in Java, what is the value of n?"
                        for op in distinct(r, ["+=", "*=", "-=", "%="], lambda o: py[o[0]](a, b))),
        ]

    return fresh(rng, n, makers, lambda r: (r.randint(13, 97), r.randint(3, 9), r.randint(2, 4)))


def code_identifier(rng: random.Random, n: int) -> list[Pair]:
    sample = "  Mixed Case text  "
    path = "~/docs/../notes/todo.txt"
    str_methods = [m for m in callables(str) if probe(lambda m=m: getattr(sample, m)()) not in {"TypeError"}]
    math_fns = [f for f in callables(math) if probe(lambda f=f: getattr(math, f)(-2.5)) != "TypeError"]
    path_fns = [f for f in callables(os.path) if not f.startswith(("common", "same"))
                and probe(lambda f=f: getattr(os.path, f)(path)) != "TypeError"]
    gen_fns = [f for f in callables(builtins) if f.islower() and f in
               {"list", "tuple", "set", "sorted", "sum", "max", "min", "any", "all", "len", "frozenset", "reversed"}]
    list_methods = [m for m in callables(list) if probe(lambda m=m: getattr([3, 1, 2], m)()) != "TypeError"]
    copy_fns = [f for f in callables(shutil) if f.startswith("copy") or f == "move"]
    iter_fns = [f for f in callables(itertools) if probe(lambda f=f: list(getattr(itertools, f)("ABCD", 2))) != "TypeError"]

    def after(m: str) -> str:
        xs = [3, 1, 2]
        getattr(xs, m)()
        return repr(xs)

    makers: list[Maker] = [
        lambda r: tuple(f"What does `'{sample}'.{m}()` return in Python?"
                        for m in distinct(r, str_methods, lambda m: probe(lambda: getattr(sample, m)()))),
        lambda r: tuple(f"Why does `math.{f}(-2.5)` return that value?"
                        for f in distinct(r, math_fns, lambda f: probe(lambda: getattr(math, f)(-2.5)))),
        lambda r: tuple(f"What does `os.path.{f}('{path}')` return on Linux?" for f in r.sample(path_fns, 2)),
        lambda r: tuple(f"What happens when I call `{f}(x * x for x in range(5))`?" for f in r.sample(gen_fns, 2)),
        lambda r: tuple(f"If `xs = [3, 1, 2]`, what is `xs` after `xs.{m}()`?"
                        for m in distinct(r, list_methods, after)),
        lambda r: tuple(f"Does `shutil.{f}(src, dst)` keep the file's permissions and modification time?"
                        for f in r.sample(copy_fns, 2)),
        lambda r: tuple(f"What does `list(itertools.{f}('ABCD', 2))` return?"
                        for f in distinct(r, iter_fns, lambda f: list(getattr(itertools, f)("ABCD", 2)))),
    ]
    return [m(rng) for m in rng.sample(makers, n)]


FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "!=", "!=": "==", "-gt": "-lt", "-lt": "-gt",
        "-ge": "-le", "-le": "-ge"}


def code_comparison(rng: random.Random, n: int) -> list[Pair]:
    def flip(frame: Callable[[str], str], ops: Sequence[str]) -> Maker:
        return lambda r: (lambda op: (frame(op), frame(FLIP[op])))(r.choice(list(ops)))

    def makers(k: int, m: int, w1: str, w2: str, data: list[int], t: int) -> list[Maker]:
        return [
        flip(lambda op: f"How many times does `for (int i = 0; i {op} {k}; i++)` run in C?", ["<", "<="]),
        flip(lambda op: f"What does `[x for x in range({k}) if x % {m} {op} 0]` evaluate to?", ["==", "!="]),
        flip(lambda op: f"Does `'{w1}' {op} '{w2}'` evaluate to True in Python?", ["<", ">"]),
        flip(lambda op: f"What value does n hold after `while (n {op} 1) n /= 2;` when n starts at {k}?", [">", ">="]),
        flip(lambda op: f"What does the test `[ \"$retries\" {op} {m} ]` check in a Bash script?", ["-gt", "-ge"]),
        flip(lambda op: f"What does `sorted(v for v in data if v {op} {t})` return when data = {data}?", ["<", ">=", "<="]),
        flip(lambda op: f"When does the branch `if (strcmp(a, b) {op} 0)` run in C?", ["==", "<", ">"]),
        ]

    def draw(r: random.Random) -> tuple:
        w1, w2 = r.sample([w for w in keyword.kwlist if w.islower()], 2)
        return r.randint(10, 40), r.randint(3, 7), w1, w2, [r.randint(1, 60) for _ in range(7)], r.randint(15, 45)

    return fresh(rng, n, makers, draw)


ATOMS_V3 = [r"\D", r"\W", r"\S", "[aeiou]", "[^aeiou]", "[A-Fa-f0-9]", "[_a-zA-Z]", r"[\w.-]"]
QUANTS_V3 = ["{4}", "{4,}", "{1,4}", "*", "+", "?", "{0,2}", "{3,6}"]
SEPARATORS = ["-", "@", r"\.", ":", "_"]


def regex(rng: random.Random, n: int) -> list[Pair]:
    def token(r: random.Random) -> str:
        return "".join(r.choice(string.ascii_letters + string.digits) for _ in range(r.randint(1, 7)))

    probes = [token(rng) + rng.choice("-@.:_") + token(rng) for _ in range(60)]

    def changed(r: random.Random, anchored: bool) -> Pair:
        """A pattern and the same pattern with one class or one quantifier changed, matching differently."""
        for _ in range(200):
            parts = [r.choice(ATOMS_V3), r.choice(QUANTS_V3), r.choice(SEPARATORS), r.choice(ATOMS_V3), r.choice(QUANTS_V3)]
            other = list(parts)
            i = r.choice([0, 1, 3, 4])
            other[i] = pick_other(r, ATOMS_V3 if i in (0, 3) else QUANTS_V3, parts[i])
            p, q = "".join(parts), "".join(other)
            if anchored:
                p, q = f"^{p}$", f"^{q}$"
            if [re.findall(p, s) for s in probes] != [re.findall(q, s) for s in probes]:
                return p, q
        raise RuntimeError("no regex pair")

    def on_input(frame: Callable[[str, str], str], compute: Callable[[str, str], object]) -> Maker:
        def make(r: random.Random) -> Pair:
            for _ in range(200):
                p, q = changed(r, anchored=False)
                differ = [s for s in probes if compute(p, s) != compute(q, s)]
                if differ:
                    s = r.choice(differ)
                    return frame(p, s), frame(q, s)
            raise RuntimeError("no regex input")
        return make

    makers: list[Maker] = [
        on_input(lambda p, s: f"Does `re.fullmatch(r'{p}', '{s}')` return a match object?",
                 lambda p, s: re.fullmatch(p, s) is None),
        on_input(lambda p, s: f"What does `re.findall(r'{p}', '{s}')` return?", lambda p, s: re.findall(p, s)),
        on_input(lambda p, s: f"What is the result of `re.sub(r'{p}', '#', '{s}')`?", lambda p, s: re.sub(p, "#", s)),
        lambda r: tuple(f"Explain in plain English which strings the regular expression `{p}` accepts."
                        for p in changed(r, anchored=True)),
        lambda r: tuple(f"Would `{p}` be a reasonable pattern for validating a username field?"
                        for p in changed(r, anchored=True)),
        lambda r: tuple(f"Give three example strings that match `{p}` and three that do not."
                        for p in changed(r, anchored=True)),
        lambda r: tuple(f"How do I use `grep -E '{p}'` to find matching lines in server.log?"
                        for p in changed(r, anchored=False)),
        lambda r: tuple(f"Why does my JavaScript regex /{p}/ not match what I expect?" for p in changed(r, anchored=True)),
    ]
    return [swap(rng, *m(rng)) for m in rng.sample(makers, n)]


def formula(rng: random.Random, n: int) -> list[Pair]:
    def nz(r: random.Random, lo: int = 2, hi: int = 12) -> int:
        return r.randint(lo, hi)

    def solve(r: random.Random) -> Pair:
        a, b, c = nz(r), nz(r), nz(r, 20, 60)
        a2, b2, c2 = a, b, c
        which = r.randrange(3)
        if which == 0:
            a2 = pick_other(r, range(2, 13), a)
        elif which == 1:
            b2 = pick_other(r, range(2, 13), b)
        else:
            c2 = pick_other(r, range(20, 61), c)
        return f"Solve for x: {a}x + {b} = {c}", f"Solve for x: {a2}x + {b2} = {c2}"

    def derivative(r: random.Random) -> Pair:
        a, k = nz(r), r.randint(2, 6)
        fn, fn2 = r.sample(["sin(x)", "cos(x)", "ln(x)", "e^x", "tan(x)", "sqrt(x)"], 2)
        if r.random() < 0.5:
            return f"What is the derivative of f(x) = {a}x^{k} + {fn}?", f"What is the derivative of f(x) = {a}x^{k} + {fn2}?"
        k2 = pick_other(r, range(2, 7), k)
        return f"What is the derivative of f(x) = {a}x^{k} + {fn}?", f"What is the derivative of f(x) = {a}x^{k2} + {fn}?"

    def integral(r: random.Random) -> Pair:
        a, k, up = nz(r), r.randint(2, 5), r.randint(2, 9)
        up2 = pick_other(r, range(2, 10), up)
        return (f"Evaluate the definite integral of {a}x^{k} from x = 0 to x = {up}.",
                f"Evaluate the definite integral of {a}x^{k} from x = 0 to x = {up2}.")

    def determinant(r: random.Random) -> Pair:
        m = [nz(r, 1, 9) for _ in range(4)]
        m2 = list(m)
        i = r.randrange(4)
        m2[i] = pick_other(r, range(1, 10), m[i])
        text = "What is the determinant of the matrix [[{}, {}], [{}, {}]]?"
        return text.format(*m), text.format(*m2)

    def expand(r: random.Random) -> Pair:
        a, b = nz(r, 1, 9), nz(r, 1, 9)
        b2 = pick_other(r, range(1, 10), b)
        return f"Expand (x + {a})(x - {b}).", f"Expand (x + {a})(x - {b2})."

    def limit(r: random.Random) -> Pair:
        a = nz(r, 2, 9)
        a2 = pick_other(r, range(2, 10), a)
        return (f"What is the limit of (1 + {a}/n)^n as n goes to infinity?",
                f"What is the limit of (1 + {a2}/n)^n as n goes to infinity?")

    def roots(r: random.Random) -> Pair:
        p, q = r.sample(range(1, 10), 2)
        s, t = p + q, p * q
        t2 = pick_other(r, range(1, 40), t)
        return f"Find the roots of x^2 - {s}x + {t} = 0.", f"Find the roots of x^2 - {s}x + {t2} = 0."

    def heron(r: random.Random) -> Pair:
        while True:
            a, b, c = sorted(r.sample(range(4, 16), 3))
            c2 = pick_other(r, range(c - 2, c + 3), c)
            if a + b > c and a + b > c2 and c2 > b:
                return (f"Using Heron's formula, what is the area of a triangle with sides {a}, {b} and {c} cm?",
                        f"Using Heron's formula, what is the area of a triangle with sides {a}, {b} and {c2} cm?")

    makers: list[Maker] = [solve, derivative, integral, determinant, expand, limit, roots, heron]
    return [swap(rng, *m(rng)) for m in rng.sample(makers, n)]



SCHEMA = {
    "shipments": {"weight_kg": (1, 80), "status": ["pending", "in transit", "delivered", "returned"],
                  "shipped_on": "date", "carrier": ["DHL", "UPS", "FedEx", "GLS"]},
    "patients": {"age": (18, 95), "ward": ["cardiology", "oncology", "maternity", "neurology"],
                 "admitted_on": "date", "blood_type": ["A+", "O-", "B+", "AB-"]},
    "subscriptions": {"monthly_fee": (5, 300), "plan": ["basic", "pro", "team", "enterprise"],
                      "renews_on": "date", "billing_country": ["FR", "DE", "BR", "JP", "CA"]},
    "tickets": {"priority": (1, 5), "state": ["open", "closed", "on hold", "escalated"],
                "opened_on": "date", "channel": ["email", "phone", "chat"]},
    "books": {"page_count": (80, 1200), "genre": ["fantasy", "history", "poetry", "biography"],
              "published_on": "date", "format": ["hardcover", "paperback", "ebook"]},
    "flights": {"delay_minutes": (0, 300), "aircraft": ["A320", "B737", "E190", "A350"],
                "departs_on": "date", "cabin": ["economy", "business", "first"]},
}


def sql(rng: random.Random, n: int) -> list[Pair]:
    def condition(r: random.Random, table: str) -> tuple[list[str], list[str]]:
        cols = SCHEMA[table]
        num = next(c for c, v in cols.items() if isinstance(v, tuple))
        text = next(c for c, v in cols.items() if isinstance(v, list))
        day = next(c for c, v in cols.items() if v == "date")
        lo, hi = cols[num]
        x = r.randint(lo + 1, hi - 1)
        op = r.choice([">", "<", ">=", "<="])
        val = r.choice(cols[text])
        d = dt.date(r.randint(2019, 2025), r.randint(1, 12), r.randint(1, 28))
        parts = [f"{num} {op} {x}", "AND", f"{text} = '{val}'", "AND", f"{day} >= '{d.isoformat()}'"]
        other = list(parts)
        change = r.randrange(5)
        if change == 0:
            other[0], where = f"{num} {FLIP[op]} {x}", 0
        elif change == 1:
            other[0], where = f"{num} {op} {pick_other(r, range(lo + 1, hi), x)}", 0
        elif change == 2:
            other[2], where = f"{text} = '{pick_other(r, cols[text], val)}'", 2
        elif change == 3:
            where = r.choice([1, 3])
            other[where] = "OR"
        else:
            other[4], where = f"{day} >= '{d.replace(year=pick_other(r, range(2019, 2026), d.year)).isoformat()}'", 4
        keep = r.choice([k for k in ([0, 1, 2], [2, 3, 4], [0, 1, 2, 3, 4]) if where in k])
        return [parts[i] for i in keep], [other[i] for i in keep]

    frames = [lambda t, c: f"Write a SQL query that selects every row of {t} WHERE {c}.",
              lambda t, c: f"How do I count the rows in {t} with {c} in PostgreSQL?",
              lambda t, c: f"Is `DELETE FROM {t} WHERE {c};` safe to run in production?",
              lambda t, c: f"Rewrite `SELECT * FROM {t} WHERE {c}` so that it can use an index.",
              lambda t, c: f"Which index would speed up `SELECT id FROM {t} WHERE {c} ORDER BY id`?",
              lambda t, c: f"Write a MySQL UPDATE that archives the {t} matching {c}.",
              lambda t, c: f"Explain what `SELECT COUNT(*) FROM {t} WHERE {c}` computes."]
    out = []
    for frame in rng.sample(frames, n):
        table = rng.choice(sorted(SCHEMA))
        for _ in range(20):
            a, b = condition(rng, table)
            if a != b:
                break
        out.append(swap(rng, frame(table, " ".join(a)), frame(table, " ".join(b))))
    return out


