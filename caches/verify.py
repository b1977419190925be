"""Cheap lexical verification of semantic-cache candidates.

Sentence embeddings are good at "same topic" and poor at "same question": *go up* and *go down*,
*Paris to London* and *London to Paris*, *5 km* and *5 miles* embed almost identically. Before a
semantic hit is served, :func:`verify` compares a few surface features of the query and of the
cached query and rejects the candidate when any of them differ:

- numbers (digits and number words, thousands separators and ``k`` suffixes normalised),
- units and currencies,
- negation (presence of *not*, *no*, *never*, *without*, *n't*, ...),
- named entities: capitalised words (sentence-initial ones unless they are common words),
  acronyms, camelCase / snake_case identifiers and back-quoted code,
- direction and polarity words (up/down, increase/decrease, before/after, buy/sell, ...),
- ordering: reversed ``X to Y`` / ``X than Y`` / ``from X to Y`` pairs, and pure word-order swaps
  (*the dog chased the cat* / *the cat chased the dog*).

All checks are symmetric and deliberately conservative: a rejected paraphrase only costs a miss.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["TextFeatures", "VerifyResult", "extract_features", "verify"]

# --- vocabularies (immutable) ----------------------------------------------------------------

STOPWORDS: frozenset[str] = frozenset(
    """
    a an the and or but if then else so as of at by for with about against between into through
    during to from in on off out over under again further once here there when where why how all
    any both each few other some such own same too very can will just should now is are was were be
    been being have has had having do does did doing i me my myself we our ours ourselves you your
    yours yourself yourselves he him his himself she her hers herself it its itself they them their
    theirs themselves what which who whom whose this that these those am would could may might must
    shall also please yes ok okay hi hello hey dear thanks thank well let lets let's i'm it's that's
    what's there's here's really actually basically just kind sort way ways thing things something
    anything everything someone anyone everyone tell give show explain describe list write define
    summarize summarise compare calculate compute find name provide create make generate help suggest
    recommend translate convert use using used get gets got need needs want wants know like does
    do can could would is are was should which there
    """.split()
)

# Common words that may start a sentence with a capital letter without being a named entity.
SENTENCE_STARTERS: frozenset[str] = STOPWORDS | frozenset(
    """
    note remember imagine assume consider suppose given today tomorrow yesterday currently generally
    usually typically sometimes often always never maybe perhaps however therefore thus hence also
    additionally furthermore moreover finally first second third next then last instead otherwise
    unfortunately fortunately sure absolutely certainly simply yes no not one two three users user
    developers people someone version there many most several few more less only even still in on
    at by for with without from to into after before during while since until unless because
    although though whether either neither both each every another other such sorry great good
    afterwards example examples some using via thereby instead rather besides overall meanwhile
    similarly likewise nowadays recently essentially specifically especially particularly apart
    add build call change check choose click copy delete download enter ensure fill follow go
    include install keep load look move open pass print put read remove rename replace return run
    save see select send set sort split start stop store take try turn type update upload verify
    visit wait what whats where when why who how which do does did is are was were can could
    should would will may might must
    """.split()
)

# A capitalised sentence-initial word with one of these endings is taken for an ordinary word
# ("Storing ...", "Subsequently ...", "Rename ..."), not a name.
_COMMON_WORD_SUFFIXES: tuple[str, ...] = (
    "ing",
    "ed",
    "ly",
    "tion",
    "sion",
    "ment",
    "ness",
    "ize",
    "ise",
    "able",
    "ible",
    "ful",
    "ous",
    "ive",
    "ity",
    "ance",
    "ence",
)

NEGATIONS: frozenset[str] = frozenset(
    """
    not no never none nobody nothing neither nor nowhere cannot without unable absence absent
    lack lacks lacking
    """.split()
)
_NEGATING_PREFIXES: tuple[str, ...] = ("non-", "no-", "non")
_NON_WORDS: frozenset[str] = frozenset("none nonetheless nonsense nonce".split())

NUMBER_WORDS: Mapping[str, int] = MappingProxyType(
    {
        "zero": 0,
        "two": 2,
        "three": 3,
        "four": 4,
        "five": 5,
        "six": 6,
        "seven": 7,
        "eight": 8,
        "nine": 9,
        "ten": 10,
        "eleven": 11,
        "twelve": 12,
        "thirteen": 13,
        "fourteen": 14,
        "fifteen": 15,
        "sixteen": 16,
        "seventeen": 17,
        "eighteen": 18,
        "nineteen": 19,
        "twenty": 20,
        "thirty": 30,
        "forty": 40,
        "fifty": 50,
        "sixty": 60,
        "seventy": 70,
        "eighty": 80,
        "ninety": 90,
        "dozen": 12,
        "twice": 2,
        "thrice": 3,
    }
)
# "one" (a pronoun as often as a number) and bare "hundreds"/"thousands" are too vague to compare;
# "thousand", "million", ... still scale a preceding number ("5 thousand" == "5000").
_NUMBER_WORD_VALUE: Mapping[str, str] = MappingProxyType(
    {**{k: str(v) for k, v in NUMBER_WORDS.items()}, "half": "0.5"}
)

_MULTIPLIERS: Mapping[str, int] = MappingProxyType(
    {
        "k": 1000,
        "thousand": 1000,
        "million": 1_000_000,
        "mn": 1_000_000,
        "bn": 1_000_000_000,
        "billion": 1_000_000_000,
    }
)

# Unit words recognised anywhere in the text -> canonical unit.
_UNIT_SPELLINGS: Mapping[str, str] = MappingProxyType(
    {
        "km": "km kms kilometer kilometers kilometre kilometres",
        "m": "meter meters metre metres",
        "cm": "cm centimeter centimeters centimetre centimetres",
        "mm": "mm millimeter millimeters millimetre millimetres",
        "mile": "mile miles",
        "ft": "ft foot feet",
        "inch": "inch inches",
        "yard": "yard yards yd",
        "kg": "kg kgs kilogram kilograms kilo kilos",
        "gram": "gram grams",
        "mg": "mg milligram milligrams",
        "lb": "lb lbs",
        "pound": "pound pounds",
        "oz": "oz ounce ounces",
        "ton": "ton tons tonne tonnes",
        "liter": "liter liters litre litres",
        "ml": "ml milliliter milliliters millilitre millilitres",
        "gallon": "gallon gallons",
        "cup": "cup cups",
        "celsius": "celsius centigrade °c",
        "fahrenheit": "fahrenheit °f",
        "kelvin": "kelvin kelvins",
        "percent": "percent percentage %",
        "usd": "usd dollar dollars $",
        "eur": "eur euro euros €",
        "gbp": "gbp £ sterling",
        "jpy": "jpy yen ¥",
        "ms": "ms millisecond milliseconds",
        "us": "microsecond microseconds",
        "ns": "ns nanosecond nanoseconds",
        "second": "second seconds sec secs",
        "minute": "minute minutes mins",
        "hour": "hour hours hr hrs",
        "day": "day days",
        "week": "week weeks",
        "month": "month months",
        "year": "year years yr yrs",
        "decade": "decade decades",
        "century": "century centuries",
        "byte": "byte bytes",
        "kb": "kb kilobyte kilobytes kib",
        "mb": "mb megabyte megabytes mib",
        "gb": "gb gigabyte gigabytes gib",
        "tb": "tb terabyte terabytes tib",
        "bit": "bit bits",
        "hz": "hz hertz",
        "khz": "khz kilohertz",
        "mhz": "mhz megahertz",
        "ghz": "ghz gigahertz",
        "watt": "w watt watts",
        "kw": "kw kilowatt kilowatts",
        "kwh": "kwh",
        "volt": "volt volts",
        "amp": "amp amps ampere amperes",
        "mph": "mph",
        "kmh": "km/h kph kmh",
        "calorie": "calorie calories cal kcal",
        "atm": "atm atmosphere atmospheres",
        "psi": "psi",
        "bar": "bars",
        "degree": "degree degrees °",
        "token": "token tokens",
        "pixel": "px pixel pixels",
    }
)
_UNIT_WORDS: Mapping[str, str] = MappingProxyType(
    {word: canon for canon, words in _UNIT_SPELLINGS.items() for word in words.split()}
)
# Short abbreviations that are units only directly after a number ("5 m", "10s", "3 h", "2 in").
_UNIT_AFTER_NUMBER: Mapping[str, str] = MappingProxyType(
    {
        "m": "m",
        "g": "gram",
        "s": "second",
        "h": "hour",
        "l": "liter",
        "in": "inch",
        "min": "minute",
        "d": "day",
        "w": "watt",
        "v": "volt",
        "a": "amp",
        "b": "byte",
        "t": "ton",
        "x": "times",
        "c": "celsius",
        "f": "fahrenheit",
    }
)

# Direction / polarity pairs: (pole A, pole B, strict). Words may belong to several pairs.
# A strict pair must match exactly in short texts (one side mentioning "descending" and the other
# not is a different question); a non-strict pair only rejects a conflict (one side "possible",
# the other "impossible"), because its words are also used loosely ("it is possible to ...").
_S, _C = True, False
_DIRECTION_SPEC: tuple[tuple[str, str, bool], ...] = (
    ("up upward upwards", "down downward downwards", _S),
    (
        "increase increases increased increasing raise raises raised raising rise rises rising rose "
        "grow grows growing grew growth higher boost boosts",
        "decrease decreases decreased decreasing reduce reduces reduced reducing reduction lower "
        "lowers lowered lowering fall falls falling fell decline declines declined declining shrink "
        "shrinks shrinking shrank",
        _S,
    ),
    ("before prior earlier preceding", "after later subsequent afterwards", _S),
    ("above", "below beneath underneath", _S),
    (
        "max maximum maximal maximize maximise largest biggest highest most greatest longest",
        "min minimum minimal minimize minimise smallest lowest least fewest shortest",
        _S,
    ),
    ("more greater larger bigger longer", "less fewer smaller shorter", _S),
    ("faster quicker", "slower", _S),
    ("ascending asc", "descending desc", _S),
    ("left", "right", _C),
    ("north northern", "south southern", _S),
    ("east eastern", "west western", _S),
    ("buy buys buying bought purchase purchasing", "sell sells selling sold", _S),
    (
        "import imports importing imported importer importers",
        "export exports exporting exported exporter exporters",
        _S,
    ),
    ("upload uploads uploading uploaded", "download downloads downloading downloaded", _S),
    ("encode encodes encoding encoded", "decode decodes decoding decoded", _S),
    (
        "encrypt encrypts encrypting encrypted encryption",
        "decrypt decrypts decrypting decrypted decryption",
        _S,
    ),
    (
        "compress compresses compressing compression",
        "decompress decompresses decompressing decompression",
        _S,
    ),
    (
        "serialize serialise serializing serialization",
        "deserialize deserialise deserializing deserialization",
        _S,
    ),
    ("enable enables enabling enabled activate", "disable disables disabling disabled deactivate", _C),
    (
        "add adds adding added insert append",
        "remove removes removing removed delete deletes deleting deleted",
        _S,
    ),
    ("push pushes pushing", "pull pulls pulling", _C),
    ("open opens opening", "close closes closing", _C),
    ("start starts starting begin begins beginning", "stop stops stopping end ends ending finish", _C),
    ("input inputs", "output outputs", _C),
    ("send sends sending sent", "receive receives receiving received", _C),
    ("forward forwards", "backward backwards", _S),
    ("inside inner internal", "outside outer external", _C),
    ("win wins winning won", "lose loses losing lost", _S),
    ("true", "false", _C),
    ("positive", "negative", _S),
    ("hot hotter hottest warm warmer", "cold colder coldest cool cooler", _S),
    ("first earliest oldest", "last latest newest final", _C),
    ("top", "bottom", _S),
    ("older elder", "younger", _S),
    ("cheap cheaper cheapest", "expensive", _S),
    ("lend lends lending lent", "borrow borrows borrowing borrowed", _S),
    ("advantages advantage pros benefits benefit", "disadvantages disadvantage cons drawbacks drawback", _S),
    ("safe safely safer", "unsafe dangerous", _C),
    ("legal", "illegal", _C),
    ("valid", "invalid", _C),
    ("possible", "impossible", _C),
    ("inflation", "deflation", _S),
    ("bull bullish", "bear bearish", _S),
    ("enter enters entering", "exit exits exiting", _C),
    ("arrive arrives arrival arrivals", "depart departs departure departures", _S),
    ("overestimate", "underestimate", _S),
    ("appreciate appreciation", "depreciate depreciation", _C),
    ("inbound incoming", "outbound outgoing", _S),
    ("client", "server", _C),
    ("horizontal horizontally", "vertical vertically", _S),
    ("uppercase", "lowercase", _S),
    ("plus", "minus", _S),
    ("multiply multiplied multiplication", "divide divided division", _S),
    ("synchronous sync", "asynchronous async", _S),
)
# A general antonym lexicon: evaluative polarity, quantifiers, comparatives and complementary
# roles. Conflict-only (a text with one pole against a text with the other), since these words are
# also used loosely; one side naming a pole and the other none is left to the embedding.
_LEXICON_SPEC: tuple[tuple[str, str], ...] = (
    # evaluation and sentiment
    ("good better best great excellent", "bad worse worst poor terrible awful"),
    ("success successful succeed succeeds succeeded", "failure fail fails failed failing unsuccessful"),
    ("strong stronger strongest strength strengths", "weak weaker weakest weakness weaknesses"),
    ("safe safer safest safety", "risky riskier dangerous hazardous"),
    ("love loves loved loving like likes", "hate hates hated hating dislike dislikes"),
    ("easy easier easiest simple simpler", "hard harder hardest difficult complicated complex"),
    ("happy happier happiest glad", "sad sadder saddest unhappy"),
    ("rich richer richest wealthy", "poor poorer poorest"),
    ("healthy healthier", "unhealthy sick sicker ill"),
    ("right correct accurate", "wrong incorrect inaccurate"),
    ("gain gains gained", "lose loses lost losing loss losses"),
    ("profit profits profitable", "loss losses unprofitable"),
    ("agree agrees agreed agreement", "disagree disagrees disagreed disagreement"),
    ("accept accepts accepted acceptance", "reject rejects rejected rejection refuse refused"),
    ("allow allows allowed permit permitted", "forbid forbids forbidden prohibit prohibited ban banned"),
    ("include includes included including", "exclude excludes excluded excluding"),
    ("pass passes passed", "fail fails failed"),
    ("support supports supported", "oppose opposes opposed"),
    ("benefit benefits beneficial help helps", "harm harms harmful hurt hurts damage damages"),
    ("optimistic optimism", "pessimistic pessimism"),
    ("friend friends ally allies", "enemy enemies foe foes"),
    ("alive living", "dead dying"),
    ("clean cleaner", "dirty dirtier"),
    ("full", "empty"),
    ("wet wetter", "dry drier dryer"),
    ("heavy heavier heaviest", "light lighter lightest"),
    ("deep deeper deepest", "shallow shallower"),
    ("wide wider widest broad", "narrow narrower narrowest"),
    ("thick thicker", "thin thinner"),
    ("early earlier earliest", "late later latest"),
    ("new newer newest", "old older oldest"),
    ("young younger youngest", "old older oldest elderly"),
    ("big bigger biggest large larger largest huge", "small smaller smallest little tiny"),
    ("long longer longest", "short shorter shortest"),
    ("high higher highest", "low lower lowest"),
    ("fast faster fastest quick quicker", "slow slower slowest"),
    ("hard harder", "soft softer"),
    ("loud louder", "quiet quieter"),
    ("bright brighter", "dark darker dim"),
    ("formal", "informal casual"),
    ("public", "private"),
    ("legal lawful", "illegal unlawful"),
    ("true truth", "false falsehood lie"),
    ("win wins won victory", "lose loses lost defeat"),
    ("attack attacks attacking offense offensive", "defend defends defending defense defensive"),
    ("rise rises rising", "fall falls falling"),
    ("strengthen strengthens", "weaken weakens"),
    ("expand expands expansion", "contract contracts contraction"),
    ("maximum", "minimum"),
    ("majority", "minority"),
    ("odd", "even"),
    ("male men man boy boys", "female women woman girl girls"),
    ("father dad", "mother mom mum"),
    ("son sons", "daughter daughters"),
    ("brother brothers", "sister sisters"),
    ("husband", "wife"),
    ("king kings", "queen queens"),
    # quantifiers
    ("all every everyone everybody everything always", "some sometimes someone somebody"),
    ("all every everyone everybody everything always", "none nobody nothing never no-one"),
    ("all every everyone everybody everything most", "few"),
    ("most many", "few"),
    ("more", "less fewer"),
    # complementary roles
    ("teacher teachers", "student students pupil pupils"),
    ("employer employers", "employee employees"),
    ("buyer buyers", "seller sellers vendor vendors"),
    ("landlord landlords", "tenant tenants"),
    ("doctor doctors", "patient patients"),
    ("parent parents", "child children kid kids"),
    ("host hosts", "guest guests"),
    ("author authors writer writers", "reader readers"),
    ("lender lenders creditor creditors", "borrower borrowers debtor debtors"),
    ("plaintiff", "defendant"),
    ("manager managers boss", "worker workers subordinate"),
    ("speaker speakers", "listener listeners audience"),
    ("sender", "recipient receiver"),
    ("predator predators", "prey"),
)
_GROUP_SPEC: tuple[tuple[str, str, bool], ...] = _DIRECTION_SPEC + tuple((a, b, _C) for a, b in _LEXICON_SPEC)
DIRECTION_GROUPS: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split()), frozenset(b.split())) for a, b, _ in _GROUP_SPEC
)
_STRICT_GROUPS: frozenset[int] = frozenset(i for i, (_, _, strict) in enumerate(_GROUP_SPEC) if strict)

# Prefixes and suffix pairs that turn a word into its opposite (likely/unlikely, honest/dishonest,
# careful/careless): a word of one text whose affixed form is in the other is a polarity conflict.
_OPPOSITE_PREFIXES: tuple[str, ...] = ("un", "in", "im", "il", "ir", "dis", "non", "non-", "mis", "anti", "counter")
_OPPOSITE_SUFFIXES: tuple[tuple[str, str], ...] = (("ful", "less"),)
_MIN_STEM = 4

# When something happens: these must match exactly (today / tomorrow, monday / sunday, ...).
# ("may" and "march" are left out: they are also a modal verb and a verb.)
CALENDAR_WORDS: frozenset[str] = frozenset(
    """
    january february april june july august september october november december
    jan feb apr jun jul aug sep sept oct nov dec
    monday tuesday wednesday thursday friday saturday sunday weekend weekends weekday weekdays
    today tomorrow yesterday tonight morning afternoon evening overnight midnight noon
    spring summer autumn winter
    """.split()
)

# Code: a text that carries code must match token for token (outside whitespace) to be served.
# fenced blocks, and back-quoted spans beyond one identifier (`timm` is a name, `a && b` code)
_CODE_SPAN = re.compile(r"```.*?(?:```|$)|`[^`\n]+`", re.DOTALL)
_ONE_IDENTIFIER = re.compile(r"`\w+`")
_CODE_CHARS = re.compile(r"[=<>!+\-*/%&|^~\[\](){};]")
_HYPHENATED = re.compile(r"\w+(?:-\w+)+")
_QUOTED = re.compile(r'"([^"\n]{3,})"')
_CODE_SIGNALS: tuple[re.Pattern[str], ...] = tuple(re.compile(p) for p in (
    r"==|!=|<=|>=|\+\+|(?<!-)--(?!-)|&&|\|\||=>|->|::|\+=|-=|\*=|/=",  # operators
    r"[{};]\s*$|[{}]|;\s*\w",  # braces and statement separators
    r"\b[A-Za-z_]\w*\(",  # a call: f(a, b), print(len(x))
    r"\b\w+\[[^\]]*\]",  # indexing or slicing: a[i], x[1:]
    r"\b[A-Za-z_]\w*\s*=\s*[\w\[({\"']",  # an assignment: x = 5
    r"\b(?:def|return|lambda|elif|printf|console\.log|import|const|var|let|fn|func)\b",
    r"\bSELECT\b|\bFROM\b|\bWHERE\b|\bINSERT\b|\bUPDATE\b|\bJOIN\b",  # SQL (upper case)
))
_CODE_TOKEN = re.compile(r"\w+|[^\w\s]")
# "set up", "sign up", ... : "up" as a verb particle carries no direction
_PHRASAL_UP: frozenset[str] = frozenset(
    "set sign look pick make show wake give end clean back speed warm break catch come follow keep "
    "mix open put shut take turn spin fire boot start bring call fill hook line look wrap sum".split()
)

_DIRECTION_INDEX: Mapping[str, tuple[tuple[int, int], ...]] = MappingProxyType(
    {
        word: tuple(
            (g, pole)
            for g, group in enumerate(DIRECTION_GROUPS)
            for pole, vocab in enumerate(group)
            if word in vocab
        )
        for group in DIRECTION_GROUPS
        for vocab in group
        for word in vocab
    }
)

# Words after/before which the order of the neighbouring key tokens matters.
_ORDER_CONNECTORS: frozenset[str] = frozenset(
    "to into than from vs versus over per by in minus divided times towards ->".split()
)
_FILLERS: frozenset[str] = frozenset("a an the my your our their its this that these those of".split())

_TOKEN_RE = re.compile(
    r"`[^`\n]+`"  # back-quoted code
    r"|(?:(?<![\w.])[-+](?=\d))?(?<![\w.])\d(?:[\d,.]*\d)?[a-zA-Z]*"  # numbers (+ unit suffix)
    r"|[^\W\d][\w'’./-]*\w|[^\W\d]"  # words and identifiers (dots, dashes, slashes inside)
    r"|->|[$€£¥%°]"
    r"|[.!?;:\n,]"  # punctuation
)
_NUMBER_TOKEN_RE = re.compile(r"^([-+]?\d(?:[\d,.]*\d)?)([a-zA-Z]*)$")
_SYMBOLS: frozenset[str] = frozenset("$€£¥%°")
_MULTIPLIER_WORDS: frozenset[str] = frozenset(("thousand", "million", "billion", "mn", "bn"))
_SAFE_SHORT_UNITS: frozenset[str] = frozenset("km kg cm mm mg ml lb oz ft mb gb tb kb".split())
_APOSTROPHELESS_NEGATIONS: frozenset[str] = frozenset(
    "cant dont doesnt isnt wont didnt arent shouldnt wouldnt couldnt wasnt werent hasnt havent".split()
)
_LIST_MARKER_RE = re.compile(r"(?m)^\s*\(?\d{1,2}[.)]\s+|(?<![\w(])\d{1,2}\)\s")
_DIGITS_RE = re.compile(r"\d+(?:[.,]\d+)*")
_THOUSANDS_RE = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$")
_CAMEL_RE = re.compile(r"[a-z][A-Z]|[A-Z]{2,}")
_SENTENCE_END = frozenset(".!?;:\n")


# --- features --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TextFeatures:
    """The surface features :func:`verify` compares."""

    numbers: frozenset[str]
    units: frozenset[str]
    negated: bool
    entities: frozenset[str]  # lower-cased
    vocab: frozenset[str]  # every lower-cased word of the text
    directions: frozenset[tuple[int, int]]  # (index in DIRECTION_GROUPS, pole 0/1) that occur
    ordered_pairs: frozenset[tuple[str, str]]
    content: tuple[str, ...]  # content words in order (for word-order swaps)
    calendar: frozenset[str] = frozenset()  # days, months, seasons, today/tomorrow...
    code: tuple[str, ...] | None = None  # its code, when the text carries code (see code_tokens)


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """Outcome of :func:`verify`; ``reason`` names the first feature that differed."""

    ok: bool
    reason: str | None = None


def _normalise_number(raw: str) -> list[str]:
    raw = raw.strip(".,")
    if not raw:
        return []
    if _THOUSANDS_RE.match(raw):
        raw = raw.replace(",", "")
    parts = raw.split(",") if "," in raw else [raw]
    out: list[str] = []
    for part in parts:
        if not part:
            continue
        if part.count(".") == 1:
            try:
                value = float(part)
            except ValueError:
                out.append(part)
                continue
            out.append(_fmt(value))
        elif "." in part:  # version string 2.10.0: drop leading zeros per component
            out.append(".".join(str(int(p)) if p.isdigit() else p for p in part.split(".")))
        else:
            out.append(str(int(part)))
    return out


def _fmt(value: float) -> str:
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def _is_acronym(token: str) -> bool:
    letters = [c for c in token if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _tokens(text: str) -> list[str]:
    return _TOKEN_RE.findall(text)


def extract_features(text: str) -> TextFeatures:
    """Extract the comparable features of ``text`` (a user question or prompt)."""
    raw_tokens = _tokens(_LIST_MARKER_RE.sub(" ", text))
    letters = [c for c in text if c.isalpha()]
    shouting = bool(letters) and sum(c.isupper() for c in letters) > 0.6 * len(letters)
    acc = _Accumulator()
    sentence_start = True
    prev_was_number = False
    for i, tok in enumerate(raw_tokens):
        if tok in _SENTENCE_END:
            sentence_start, prev_was_number = True, False
            continue
        if tok == ",":
            prev_was_number = False
            continue
        nxt = raw_tokens[i + 1].lower() if i + 1 < len(raw_tokens) else ""
        if tok.startswith("`"):
            acc.code(tok[1:-1].strip().lower())
            prev_was_number = False
        elif tok in _SYMBOLS:
            acc.unit(_UNIT_WORDS.get(tok, tok), tok)
            prev_was_number = False
        elif tok == "->":
            acc.word(tok, key=False)
        elif tok[0].isdigit() or (tok[0] in "+-" and len(tok) > 1):
            acc.number(tok, nxt)
            prev_was_number = True
        else:
            acc.text_word(
                tok, nxt, sentence_start=sentence_start, after_number=prev_was_number, shouting=shouting
            )
            prev_was_number = False
        sentence_start = False
    directions = frozenset(
        hit
        for i, w in enumerate(acc.words)
        if not (w == "up" and i > 0 and acc.words[i - 1] in _PHRASAL_UP)
        for hit in _DIRECTION_INDEX.get(w, ())
    )
    return TextFeatures(
        numbers=frozenset(acc.numbers),
        units=frozenset(acc.units),
        negated=acc.negated,
        entities=frozenset(acc.entities),
        vocab=frozenset(acc.words),
        directions=directions,
        ordered_pairs=_ordered_pairs(acc.words, acc.key_flags),
        content=tuple(w for w in acc.words if w not in STOPWORDS and w not in _FILLERS),
        calendar=frozenset(w for w in acc.words if w in CALENDAR_WORDS),
        code=code_tokens(text),
    )


def code_tokens(text: str) -> tuple[str, ...] | None:
    """The code ``text`` carries, as comparable tokens (outside whitespace); None without code.

    Code is what is fenced or back-quoted (a span beyond one identifier), or what is double-quoted
    and carries a code signal: the spans are compared as a sorted list, each token for token, so
    a paraphrase may reword and reorder the prose around them. In a text with no such span but at
    least two code signals (operators, braces, calls, indexing, assignments, keywords, SQL), the
    code is every whitespace-separated piece that holds an operator or bracket (``f(a,``, ``+``,
    ``x[1:]``), as a sorted list: prose words stay free, a changed operator does not."""
    spans = [m.group(0).strip("`") for m in _CODE_SPAN.finditer(text) if not _ONE_IDENTIFIER.fullmatch(m.group(0))]
    spans += [q for q in _QUOTED.findall(text) if any(s.search(q) for s in _CODE_SIGNALS)]
    if spans:
        return tuple(sorted(" ".join(_CODE_TOKEN.findall(span)) for span in spans))
    found = 0
    for signal in _CODE_SIGNALS:
        found += sum(1 for _ in zip(signal.finditer(text), range(2), strict=False))
    if found < 2:
        return None
    pieces = (piece.strip(".,;:?!'\"") for piece in text.split())
    return tuple(sorted(p for p in pieces if _CODE_CHARS.search(p) and not _HYPHENATED.fullmatch(p)))


def _affix_conflict(a: frozenset[str], b: frozenset[str]) -> bool:
    """A word of one text whose opposite by affix (un-, dis-, -less...) is in the other only."""
    only_a, only_b = a - b, b - a
    for x, y in ((only_a, only_b), (only_b, only_a)):
        for word in x:
            if len(word) < _MIN_STEM:
                continue
            if any(prefix + word in y for prefix in _OPPOSITE_PREFIXES):
                return True
            for plus, minus in _OPPOSITE_SUFFIXES:
                if word.endswith(plus) and len(word) - len(plus) >= 3 and word[: -len(plus)] + minus in y:
                    return True
    return False


class _Accumulator:
    """Per-call scratch state of :func:`extract_features` (never shared)."""

    __slots__ = ("numbers", "units", "entities", "words", "key_flags", "negated")

    def __init__(self) -> None:
        self.numbers: set[str] = set()
        self.units: set[str] = set()
        self.entities: set[str] = set()
        self.words: list[str] = []
        self.key_flags: list[bool] = []
        self.negated = False

    def word(self, word: str, *, key: bool) -> None:
        self.words.append(word)
        self.key_flags.append(key)

    def unit(self, canonical: str, surface: str) -> None:
        self.units.add(canonical)
        self.word(surface, key=True)

    def code(self, code: str) -> None:
        self.entities.add(code)
        for raw in _DIGITS_RE.findall(code):
            self.numbers.update(_normalise_number(raw))
        self.word(code, key=True)

    def number(self, tok: str, nxt: str) -> None:
        m = _NUMBER_TOKEN_RE.match(tok)
        num_part, suffix = (m.group(1), m.group(2).lower()) if m else (tok, "")
        sign = "-" if num_part.startswith("-") else ""
        mult = _MULTIPLIERS.get(suffix) or (_MULTIPLIERS.get(nxt) if nxt in _MULTIPLIER_WORDS else None)
        values = _normalise_number(num_part.lstrip("+-"))
        for value in values:
            if mult:
                try:
                    value = _fmt(float(value) * mult)
                except ValueError:  # a version string: no multiplier
                    pass
            self.numbers.add(sign + value)
        if suffix and suffix not in _MULTIPLIERS:
            unit = _UNIT_WORDS.get(suffix) or _UNIT_AFTER_NUMBER.get(suffix)
            if unit:
                self.units.add(unit)
            elif suffix not in ("st", "nd", "rd", "th"):
                self.entities.add(tok.lower())  # e.g. 4090ti, 7b
        self.word(sign + (values[0] if values else num_part), key=True)

    def text_word(
        self, tok: str, nxt: str, *, sentence_start: bool, after_number: bool, shouting: bool
    ) -> None:
        low = tok.lower().replace("\u2019", "'")
        if low.endswith("'s"):
            low, tok = low[:-2], tok[:-2]
        key = False
        if low in _UNIT_WORDS and (len(low) > 2 or after_number or low in _SAFE_SHORT_UNITS):
            self.units.add(_UNIT_WORDS[low])
            key = True
        elif after_number and low in _UNIT_AFTER_NUMBER:
            self.units.add(_UNIT_AFTER_NUMBER[low])
            key = True
        if (
            low in NEGATIONS
            or low.endswith("n't")
            or low in _APOSTROPHELESS_NEGATIONS
            or (low.startswith(_NEGATING_PREFIXES) and low not in _NON_WORDS and len(low) > 4)
        ):
            # a leading "No," / "No." answers a question; it does not negate the text
            if not (low == "no" and sentence_start and nxt in (",", ".", "!", ":", ";")):
                self.negated = True
        if low in NUMBER_WORDS:
            self.numbers.add(_NUMBER_WORD_VALUE[low])
            key = True
        if self._is_entity(tok, low, sentence_start=sentence_start, shouting=shouting):
            self.entities.add(low)
            key = True
        for raw in _DIGITS_RE.findall(low):  # digits inside identifiers: gpt4, mp3, v2.10.0
            self.numbers.update(_normalise_number(raw))
        self.word(low, key=key)

    @staticmethod
    def _is_entity(tok: str, low: str, *, sentence_start: bool, shouting: bool) -> bool:
        identifier = "_" in tok or (any(c.isdigit() for c in tok) and any(c.isalpha() for c in tok))
        if identifier:
            return True
        if shouting:  # capitalisation carries no information in an all-caps text
            return False
        if low == "i" or low.startswith("i'"):
            return False
        if _CAMEL_RE.search(tok) or _is_acronym(tok):
            return not (sentence_start and low in SENTENCE_STARTERS)
        if tok[0].isupper():
            if not sentence_start:
                return True
            return low not in SENTENCE_STARTERS and not low.endswith(_COMMON_WORD_SUFFIXES)
        return False


def _ordered_pairs(words: list[str], key_flags: list[bool]) -> frozenset[tuple[str, str]]:
    """(left key token, right key token) around order-sensitive connectors such as "to"/"than"."""
    pairs: set[tuple[str, str]] = set()
    n = len(words)
    for i, w in enumerate(words):
        if w not in _ORDER_CONNECTORS:
            continue
        left = next((words[j] for j in range(i - 1, max(-1, i - 4), -1) if key_flags[j]), None)
        right = next((words[j] for j in range(i + 1, min(n, i + 4)) if key_flags[j]), None)
        if left is not None and right is not None and left != right:
            pairs.add((left, right))
    return frozenset(pairs)


def verify(
    query: str | TextFeatures,
    candidate: str | TextFeatures,
    *,
    short_text_words: int = 12,
) -> VerifyResult:
    """Check that ``candidate`` (a cached query) asks the same thing as ``query``.

    Returns ``VerifyResult(ok=False, reason=...)`` when numbers, units, negation, named entities,
    direction words or ordering differ. Either argument may be pre-extracted features.

    Named entities differ when an entity of one text does not occur (in any case) in the other.
    Direction words must match exactly when both texts have at most ``short_text_words`` content
    words (in a short question every such word matters); in longer texts, which paraphrases reword
    freely, only a conflict (opposite poles of the same pair) rejects.
    """
    q = query if isinstance(query, TextFeatures) else extract_features(query)
    c = candidate if isinstance(candidate, TextFeatures) else extract_features(candidate)
    if q.numbers != c.numbers:
        return VerifyResult(False, "numbers")
    if q.units != c.units:
        return VerifyResult(False, "units")
    if q.negated != c.negated:
        return VerifyResult(False, "negation")
    if (q.code is not None or c.code is not None) and q.code != c.code:
        return VerifyResult(False, "code")
    if q.calendar != c.calendar:
        return VerifyResult(False, "calendar")
    if _affix_conflict(q.vocab, c.vocab):
        return VerifyResult(False, "polarity")
    if not q.entities <= c.vocab or not c.entities <= q.vocab:
        return VerifyResult(False, "entities")
    if q.directions != c.directions:
        short = max(len(q.content), len(c.content)) <= short_text_words
        q_groups = {g for g, _ in q.directions}
        c_groups = {g for g, _ in c.directions}
        for group in q_groups | c_groups:
            q_poles = {p for g, p in q.directions if g == group}
            c_poles = {p for g, p in c.directions if g == group}
            if q_poles == c_poles:
                continue
            if (q_poles and c_poles) or (short and group in _STRICT_GROUPS):
                return VerifyResult(False, "direction")
    for left, right in q.ordered_pairs:
        if (right, left) in c.ordered_pairs and (left, right) not in c.ordered_pairs:
            return VerifyResult(False, "order")
    if _is_block_swap(q.content, c.content):
        return VerifyResult(False, "order")
    return VerifyResult(True)


def _is_block_swap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """True when ``b`` is ``a`` with two word blocks exchanged around a non-empty middle.

    *the dog chased the cat* / *the cat chased the dog* is a swap (subject and object change
    places); moving one block next to another (*sort a list in Python* / *sort a Python list*)
    is not.
    """
    if a == b or len(a) != len(b) or Counter(a) != Counter(b):
        return False
    start = next(i for i in range(len(a)) if a[i] != b[i])
    end = max(i for i in range(len(a)) if a[i] != b[i]) + 1
    seg_a, seg_b = a[start:end], b[start:end]
    n = len(seg_a)
    for x_len in range(1, n - 1):
        for y_len in range(1, n - x_len):
            mid = n - x_len - y_len
            x, middle, y = seg_a[:x_len], seg_a[x_len : x_len + mid], seg_a[x_len + mid :]
            if seg_b == y + middle + x:
                return True
    return False
