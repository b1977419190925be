"""Public lists and small helpers of the third held-out set (see :mod:`benchmarks.caches.make_heldout_v3`).

Every list comes from Python's standard library or the system's time-zone database, sorted so that a
seeded draw is reproducible.
"""

from __future__ import annotations

import builtins
import http
import locale
import mimetypes
import os.path
import random
import re
import statistics
import unicodedata
import zoneinfo
from collections.abc import Callable, Sequence

Pair = tuple[str, str]
Maker = Callable[[random.Random], Pair]


# --- public lists --------------------------------------------------------------------------------


def _zone_tail(zone: str) -> str:
    return zone.rsplit("/", 1)[1].replace("_", " ")


ISLAND_NAMES = {"Easter": "Easter Island", "Christmas": "Christmas Island", "Norfolk": "Norfolk Island",
                "Cocos": "the Cocos Islands", "Galapagos": "the Galapagos Islands", "Canary": "the Canary Islands",
                "Azores": "the Azores", "Marquesas": "the Marquesas Islands", "Gambier": "the Gambier Islands",
                "Kerguelen": "the Kerguelen Islands", "Chatham": "the Chatham Islands", "Comoro": "the Comoros",
                "Maldives": "the Maldives", "Faroe": "the Faroe Islands", "Chagos": "the Chagos Archipelago",
                "Wallis": "Wallis and Futuna", "Kanton": "Kanton Island", "Cape Verde": "Cape Verde"}


def islands() -> list[str]:
    """Place names of the ``Pacific/``, ``Atlantic/`` and ``Indian/`` time zones (obsolete spellings out)."""
    old = {"Faeroe", "Truk", "Ponape", "Samoa", "Johnston", "Enderbury", "Jan Mayen", "Yap", "Wake", "Midway"}
    names = {_zone_tail(z) for z in zoneinfo.available_timezones() if z.split("/")[0] in {"Pacific", "Atlantic", "Indian"}}
    return sorted(ISLAND_NAMES.get(n, n) for n in names if n not in old and n.replace(" ", "").isalpha())


def ocean_zones() -> list[str]:
    """The same zones as full IANA identifiers."""
    keep = set(islands())
    return sorted(z for z in zoneinfo.available_timezones()
                  if z.split("/")[0] in {"Pacific", "Atlantic", "Indian"}
                  and ISLAND_NAMES.get(_zone_tail(z), _zone_tail(z)) in keep)


def argentine_cities() -> list[str]:
    """Cities of the ``America/Argentina/`` time zones."""
    return sorted(_zone_tail(z) for z in zoneinfo.available_timezones()
                  if z.startswith("America/Argentina/") and "Comod" not in z)


def languages() -> list[str]:
    """English language names among ``locale.locale_alias``'s keys."""
    not_languages = {"american", "cextend", "universal", "deutsch", "galego", "hrvatski", "bokmal", "nynorsk",
                     "rumanian", "serbocroatian", "english", "slovene"}
    return sorted(k.capitalize() for k in locale.locale_alias
                  if k.isascii() and k.isalpha() and len(k) > 5 and k not in not_languages)


def unicode_words() -> list[str]:
    """Lower-case English words of 5-9 letters from the Unicode names of the arrows-to-dingbats blocks."""
    words = set()
    for cp in range(0x2190, 0x27C0):
        for w in unicodedata.name(chr(cp), "").split():
            if w.isalpha() and 5 <= len(w) <= 9:
                words.add(w.lower())
    return sorted(words)


def named_symbols() -> list[str]:
    """Characters of the Greek, currency and arrow blocks that have a Unicode name."""
    ranges = [range(0x3B1, 0x3CA), range(0x20A0, 0x20C0), range(0x2190, 0x21A0)]
    return [chr(cp) for r in ranges for cp in r if unicodedata.name(chr(cp), "")]


def http_statuses() -> list[tuple[int, str]]:
    """``(code, reason phrase)`` of :class:`http.HTTPStatus`, 2xx to 5xx."""
    return [(int(s), s.phrase) for s in http.HTTPStatus if 200 <= int(s) < 600]


def mime_table() -> dict[str, str]:
    """Extension -> MIME type from :mod:`mimetypes`' built-in table (no system files read)."""
    return dict(sorted(mimetypes.MimeTypes().types_map[True].items()))


def encodings_list() -> list[str]:
    """Readable names of the single-byte and UTF codecs among :mod:`encodings.aliases`."""
    from encodings.aliases import aliases

    out = set()
    for codec in set(aliases.values()):
        if codec.startswith("iso8859_"):
            out.add("ISO-8859-" + codec.split("_")[1])
        elif re.fullmatch(r"cp125\d", codec):
            out.add("Windows-" + codec[2:])
        elif codec.startswith("koi8_"):
            out.add(codec.upper().replace("_", "-"))
        elif codec in {"utf_16", "utf_32", "utf_8"}:
            out.add(codec.upper().replace("_", "-"))
    return sorted(out)


def exception_pairs() -> list[tuple[str, str]]:
    """``(subclass, base)`` pairs of built-in exceptions, the base not ``BaseException``/``Exception``."""
    exc = {n: getattr(builtins, n) for n in dir(builtins)
           if isinstance(getattr(builtins, n), type) and issubclass(getattr(builtins, n), BaseException)}
    return sorted((a, b) for a, ca in exc.items() for b, cb in exc.items()
                  if ca is not cb and issubclass(ca, cb) and b not in {"BaseException", "Exception"}
                  and not issubclass(cb, ca))


def statistics_functions() -> list[str]:
    return sorted(n for n in dir(statistics) if n.islower() and not n.startswith("_")
                  and getattr(getattr(statistics, n), "__module__", "") == "statistics"
                  and callable(getattr(statistics, n)) and not isinstance(getattr(statistics, n), type)
                  and not n.endswith(("_low", "_high", "_grouped")))


TRIP_DAYS = [3, 4, 5, 6, 7, 9, 10, 12, 14]  # "a N-day trip" (no "a 8-day")
SITE_BUILTINS = {"copyright", "credits", "license", "help", "quit", "exit"}  # added by ``site``, not always there


def callables(module: object) -> list[str]:
    """Public callable names of a module or type (no submodules, no ``site`` additions)."""
    return sorted(n for n in dir(module) if not n.startswith("_") and n not in SITE_BUILTINS
                  and callable(getattr(module, n, None)) and not isinstance(getattr(module, n), type(os)))


# --- small helpers -------------------------------------------------------------------------------


def pick_other(rng: random.Random, choices: Sequence, current: object):
    return rng.choice([c for c in choices if c != current])


def swap(rng: random.Random, a: str, b: str) -> Pair:
    """``(a, b)`` or ``(b, a)``: which side is stored does not matter for a must-not-hit pair."""
    return (a, b) if rng.random() < 0.5 else (b, a)


def _answer(value: Callable[[object], object], x: object) -> object:
    try:
        return ("value", value(x))
    except Exception as e:  # an error is an answer too
        return ("error", type(e).__name__)


def distinct(rng: random.Random, options: Sequence, value: Callable[[object], object], tries: int = 200):
    """Two options whose computed answers differ."""
    for _ in range(tries):
        x, y = rng.sample(list(options), 2)
        if _answer(value, x) != _answer(value, y):
            return x, y
    raise RuntimeError("no two options with different answers")


def fresh(rng: random.Random, n: int, makers_for: Callable[..., list[Maker]],
           draw: Callable[[random.Random], tuple]) -> list[Pair]:
    """``n`` of the frames ``makers_for`` builds, each with slots drawn afresh by ``draw``."""
    chosen = rng.sample(range(len(makers_for(*draw(random.Random(0))))), n)
    return [makers_for(*draw(rng))[i](rng) for i in chosen]


def probe(f: Callable[[], object]) -> str:
    try:
        return repr(f())
    except Exception as e:
        return type(e).__name__


