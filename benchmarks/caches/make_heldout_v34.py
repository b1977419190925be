#!/usr/bin/env python3
"""Held-out evaluation set v34 for a semantic prompt cache (written blind).

Theme: everyday questions about health, nutrition, fitness, sleep, medicines
in general terms (no diagnosis), pregnancy and babies, children's development
and schooling, elderly parents, and pets' health and care.  Prompts mix short
one-sentence questions with two-to-four-sentence messages that give context
(age, weight, what happened, since when) before asking; some are tidy, some
informal.

Every template and word list below was written from scratch and blind: no
other data set, code, test or document of the project was read.

Output (benchmarks/caches/data/heldout_generated_v34.json):

* ``text_pairs`` -- 220 NEAR-MISS pairs (11 categories x 20) that must NOT be
  served from the cache: the two prompts share almost all words but need a
  different answer.  Categories: nm_subject_swap, nm_condition_state,
  nm_timing_order, nm_number_unit, nm_negation_antonym, nm_direction_role,
  nm_frequency_duration, nm_quantity_scope, nm_comparison_degree,
  nm_asked_aspect, nm_safety_substitution.
* ``positives`` -- 180 true paraphrase pairs (9 categories x 20) whose right
  answer is the same; every fact (who, ages, numbers, conditions, timing,
  negation) is kept identical inside a pair.  Categories: pos_reworded,
  pos_context_reordered, pos_greeting_thanks, pos_informal_typing,
  pos_synonyms, pos_active_passive, pos_number_words, pos_request_wrapper,
  pos_phrase_moved.

Each category has at least six templates filled from hand-written word lists;
templates are used round-robin, all pairs are unique and stored != query.
Standard library only, deterministic (``random.Random(343434)``).

Run from the repository root:

    python3 benchmarks/caches/make_heldout_v34.py
"""

import itertools
import json
import os
import random
import re

SEED = 343434
PER_CATEGORY = 20
OUT_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "data", "heldout_generated_v34.json"
)


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def tidy(text):
    """Collapse spaces, capitalise the first letter of every sentence."""
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"([.?!] )([a-z])", lambda m: m.group(1) + m.group(2).upper(), text)
    # indefinite article before a vowel sound ("an 8-year-old", "an adolescent")
    text = re.sub(r"\b([Aa]) (?=(?:8|11|18|8\d)\b|(?:8|11|18|8\d)-|[aeiouAEIOU])", r"\1n ", text)
    return text[:1].upper() + text[1:]


def loose(text):
    """For informal typing: only collapse spaces, keep case and punctuation."""
    return re.sub(r"\s+", " ", text).strip()


def fill(fmt, mapping):
    """Format repeatedly so that slot values may contain further slots."""
    text = fmt
    for _ in range(5):
        if "{" not in text:
            break
        text = text.format(**mapping)
    return text


def _combos(slots):
    names = list(slots)
    lists = [slots[n] for n in names]
    for idx, combo in enumerate(itertools.product(*lists)):
        merged = {}
        tokens = []
        for name, value in zip(names, combo):
            if isinstance(value, dict):
                merged.update(value)
            else:
                merged[name] = value
            tokens.append(name + "=" + repr(value))
        yield tuple(tokens), merged


class Near:
    """Near-miss template: one format, a list of (a, b) differences."""

    def __init__(self, fmt, diffs, slots=None):
        self.fmt = fmt
        self.diffs = []
        for a, b in diffs:
            self.diffs.append((a if isinstance(a, dict) else {"X": a},
                               b if isinstance(b, dict) else {"X": b}))
        self.slots = slots or {}

    def candidates(self):
        out = []
        for di, (da, db) in enumerate(self.diffs):
            for tokens, base in _combos(self.slots) if self.slots else [((), {})]:
                ma = dict(base)
                ma.update(da)
                mb = dict(base)
                mb.update(db)
                key = ("diff=%d" % di, "diff=%d" % di) + tokens
                out.append((key, tidy(fill(self.fmt, ma)), tidy(fill(self.fmt, mb))))
        return out


class Pos:
    """Positive template: two formats filled with the very same values."""

    def __init__(self, fmt_a, fmt_b, slots, post_a=tidy, post_b=tidy):
        self.fmt_a = fmt_a
        self.fmt_b = fmt_b
        self.slots = slots
        self.post_a = post_a
        self.post_b = post_b

    def candidates(self):
        out = []
        for key, m in _combos(self.slots):
            out.append((key, self.post_a(fill(self.fmt_a, m)),
                        self.post_b(fill(self.fmt_b, m))))
        return out


def swap(pairs, a_key="A", b_key="B", extra=None):
    """Direction diffs: (A -> B) versus (B -> A), extra keys shared."""
    out = []
    for item in pairs:
        a, b = item[0], item[1]
        shared = dict(item[2]) if len(item) > 2 else {}
        if extra:
            shared.update(extra)
        da = dict(shared, **{a_key: a, b_key: b})
        db = dict(shared, **{a_key: b, b_key: a})
        out.append((da, db))
    return out


def aspect_diffs(aspects):
    return [({"X": a}, {"X": b}) for a, b in itertools.combinations(aspects, 2)]


ONES = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight",
        "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen",
        "sixteen", "seventeen", "eighteen", "nineteen"]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy",
        "eighty", "ninety"]


def words(n):
    if n < 20:
        return ONES[n]
    tens, ones = divmod(n, 10)
    return TENS[tens] + ("" if ones == 0 else "-" + ONES[ones])


def nums(prefix, values):
    return [{prefix + "_w": words(v), prefix + "_d": str(v)} for v in values]


KID_SON = {"kid": "son", "pr": "he", "Pr": "He", "obj": "him", "poss": "his"}
KID_DAU = {"kid": "daughter", "pr": "she", "Pr": "She", "obj": "her", "poss": "her"}


# --------------------------------------------------------------------------
# near-miss categories (must NOT be served from cache)
# --------------------------------------------------------------------------

NEAR = {}

NEAR["nm_subject_swap"] = [
    Near("{lead}how many hours of sleep a day does {X} need?",
         [("a 2-year-old", "a 15-year-old"), ("a newborn", "a 6-year-old"),
          ("my 70-year-old mother", "my 9-year-old daughter"),
          ("my 4-year-old son", "my 16-year-old son"), ("a 1-year-old", "a 10-year-old")],
         {"lead": ["", "Roughly, "]}),
    Near("Is it safe to give {X} ibuprofen for {r}?",
         [({"X": "my 2-month-old", "r": "a mild fever"}, {"X": "my 7-year-old", "r": "a mild fever"}),
          ({"X": "my dog", "r": "pain"}, {"X": "my 12-year-old", "r": "pain"}),
          ({"X": "my cat", "r": "pain"}, {"X": "my teenage daughter", "r": "pain"}),
          ({"X": "my 3-month-old baby", "r": "a fever"}, {"X": "my 2-year-old", "r": "a fever"})],
         {"lead": [""]}),
    Near("{Who} has had diarrhea since {t} but is still drinking. How long can I wait before getting {pron} checked?",
         [({"Who": "my 5-month-old", "pron": "her"}, {"Who": "my 10-year-old", "pron": "her"}),
          ({"Who": "my puppy", "pron": "him"}, {"Who": "my 6-year-old dog", "pron": "him"}),
          ({"Who": "my 88-year-old father", "pron": "him"}, {"Who": "my 30-year-old husband", "pron": "him"}),
          ({"Who": "my 3-month-old son", "pron": "him"}, {"Who": "my 8-year-old son", "pron": "him"})],
         {"t": ["yesterday morning", "last night"]}),
    Near("{qw} should {X} get {when}?",
         [({"X": "my new kitten", "when": "at the first vet visit"}, {"X": "my new puppy", "when": "at the first vet visit"}),
          ({"X": "my 67-year-old dad", "when": "this year"}, {"X": "my 12-year-old daughter", "when": "this year"}),
          ({"X": "my 2-month-old", "when": "at the next checkup"}, {"X": "my 4-year-old", "when": "at the next checkup"}),
          ({"X": "my pregnant wife", "when": "this fall"}, {"X": "my 70-year-old mother", "when": "this fall"})],
         {"qw": ["What vaccines", "Which shots"]}),
    Near("How often should I {verb} {X} nails?",
         [("my newborn's", "my dog's"), ("my cat's", "my rabbit's"),
          ("my toddler's", "my guinea pig's"), ("my puppy's", "my 1-year-old's")],
         {"verb": ["trim", "cut"]}),
    Near("Can {X} have {amt} honey?",
         [("my 6-month-old", "my 2-year-old"), ("my 9-month-old", "my 15-month-old"),
          ("my 11-month-old", "my 3-year-old"), ("a newborn", "a 5-year-old")],
         {"amt": ["a little", "a spoonful of"]}),
    Near("{Who} has put on quite a bit of weight {t}. How much exercise should {pron} be getting every day?",
         [({"Who": "my dog", "pron": "he"}, {"Who": "my cat", "pron": "he"}),
          ({"Who": "my 8-year-old son", "pron": "he"}, {"Who": "my 75-year-old father", "pron": "he"}),
          ({"Who": "my 13-year-old daughter", "pron": "she"}, {"Who": "my 82-year-old mother", "pron": "she"}),
          ({"Who": "my beagle", "pron": "she"}, {"Who": "my rabbit", "pron": "she"})],
         {"t": ["this year", "since the winter"]}),
    Near("What's a good bedtime for {X} who has to be up {up} for school?",
         [("my 5-year-old", "my 14-year-old"), ("my 8-year-old", "my 17-year-old"),
          ("my kindergartner", "my high schooler")],
         {"up": ["at 7", "by 6:30"]}),
]

NEAR["nm_condition_state"] = [
    Near("Is it safe to take {med} while {X}?",
         [("pregnant", "breastfeeding"), ("in my first trimester", "in my third trimester")],
         {"med": ["ibuprofen", "aspirin", "a decongestant like pseudoephedrine", "naproxen"]}),
    Near("My {age} {kid} has a {sym} {X}. Should I keep {obj} home from school tomorrow?",
         [("and a fever", "but no fever"),
          ("and a temperature of 38.9°C", "and a normal temperature")],
         {"age": ["7-year-old", "9-year-old"], "k": [KID_SON, KID_DAU],
          "sym": ["runny nose", "mild cough", "sore throat"]}),
    Near("I have {X}. {q}",
         [({"X": "type 2 diabetes", "food": "a banana"}, {"X": "high blood pressure", "food": "a banana"}),
          ({"X": "high blood pressure", "food": "a handful of salted peanuts"},
           {"X": "type 2 diabetes", "food": "a handful of salted peanuts"}),
          ({"X": "type 2 diabetes", "food": "a glass of orange juice"},
           {"X": "high cholesterol", "food": "a glass of orange juice"}),
          ({"X": "lactose intolerance", "food": "a glass of milk"},
           {"X": "high blood pressure", "food": "a glass of milk"}),
          ({"X": "celiac disease", "food": "a bowl of wheat pasta"},
           {"X": "high cholesterol", "food": "a bowl of wheat pasta"})],
         {"q": ["Is it okay for me to have {food} every day?", "Can I still have {food} every day?"]}),
    Near("Is it fine to take my {med} {X}?",
         [("on an empty stomach", "right after a big meal")],
         {"med": ["ibuprofen", "iron tablet", "levothyroxine", "naproxen", "aspirin", "calcium carbonate"]}),
    Near("My {pet} is {X}. {q}",
         [({"pet": "dog", "X": "six weeks pregnant"}, {"pet": "dog", "X": "nursing a litter of puppies"}),
          ({"pet": "cat", "X": "five weeks pregnant"}, {"pet": "cat", "X": "nursing a litter of kittens"})],
         {"q": ["How much more food does she need than usual?", "Should I change what I'm feeding her?"]}),
    Near("Is it okay to {act} {X}?",
         [("when I just have a stuffy nose", "when I have a fever and body aches"),
          ("with a mild head cold", "with a chest infection")],
         {"act": ["go for a run", "do my usual gym workout", "go to my spin class"]}),
    Near("My {age} baby is {X}. Does {pr} need vitamin D drops?",
         [("exclusively breastfed", "fully formula-fed")],
         {"b": [{"age": "3-week-old", "pr": "she"}, {"age": "2-month-old", "pr": "he"},
                {"age": "4-month-old", "pr": "she"}, {"age": "5-month-old", "pr": "he"}]}),
    Near("Is it okay to sit in a {place} {X}?",
         [("while pregnant", "while I have a head cold"), ("when I'm 20 weeks pregnant", "when I'm just feeling stiff")],
         {"place": ["hot tub", "sauna"]}),
]

NEAR["nm_timing_order"] = [
    Near("What's a good thing to eat {X} my {w}?",
         [("an hour before", "right after"), ("the night before", "right after")],
         {"w": ["morning run", "heavy weightlifting session", "long bike ride", "swim practice"]}),
    Near("{lead} I {X}. Is that okay?",
         [({"X": "give my {age} a bottle of milk and then brush {poss} teeth"},
           {"X": "brush my {age}'s teeth and then give {pron} a bottle of milk"})],
         {"lead": ["At bedtime", "Every night"],
          "b": [{"age": "1-year-old", "pron": "her", "poss": "her"}, {"age": "14-month-old", "pron": "him", "poss": "his"},
                {"age": "18-month-old", "pron": "her", "poss": "her"}, {"age": "10-month-old", "pron": "him", "poss": "his"}]}),
    Near("I {X} {gap} later. Is that okay?",
         [({"X": "take my {med} first thing and eat breakfast"},
           {"X": "eat breakfast first thing and take my {med}"})],
         {"med": ["thyroid pill", "levothyroxine"], "gap": ["45 minutes", "half an hour", "an hour"]}),
    Near("I put {A} on my {kid} first and then {B} on top. Is that the right way to do it?",
         swap([("sunscreen", "insect repellent"), ("sunscreen", "bug spray")]),
         {"kid": ["kids", "4-year-old", "son", "daughter"]}),
    Near("I {habit} {X}. Could that be why I'm having trouble falling asleep?",
         [("at 7 in the morning", "at 9 at night"), ("first thing in the morning", "just before bed")],
         {"habit": ["drink two cups of coffee", "do an intense HIIT workout", "eat a big meal",
                    "drink a strong black tea"]}),
    Near("My doctor put me on {med}. Is it okay to take it {X}?",
         [("in the morning", "at bedtime")],
         {"med": ["a water pill for my blood pressure", "furosemide", "simvastatin for my cholesterol"]}),
    Near("I twisted my {part} {X}. Should I put ice or heat on it now?",
         [("this morning", "three weeks ago"), ("an hour ago", "last month")],
         {"part": ["ankle", "wrist", "knee"]}),
    Near("Is it okay to take my {dog} for a {walk} right {X} {pron} eats dinner?",
         [("after", "before")],
         {"d": [{"dog": "Great Dane", "pron": "he"}, {"dog": "German shepherd", "pron": "she"},
                {"dog": "Labrador", "pron": "he"}, {"dog": "boxer", "pron": "she"}],
          "walk": ["long run", "hard hike"]}),
]

NEAR["nm_number_unit"] = [
    Near("My baby is {X} months old. About how much formula should {pr} drink at each feed?",
         [("2", "7"), ("1", "5"), ("3", "9"), ("4", "10")],
         {"pr": ["she", "he"]}),
    Near("How much {med} can I give my child who weighs {X}?",
         [("12 kg", "24 kg"), ("10 kg", "30 kg"), ("15 kg", "35 kg")],
         {"med": ["children's paracetamol", "children's ibuprofen", "children's acetaminophen"]}),
    Near("I'm {age} and I usually sleep about {X} hours a night. Is that enough?",
         [("5", "8"), ("4", "7"), ("6", "9")],
         {"age": ["35", "42", "28", "60"]}),
    Near("My {age} has a temperature of {X}. Should I take {obj} to the doctor?",
         [("37.5°C", "40.5°C"), ("99.5°F", "104.5°F"), ("37.8°C", "40.6°C")],
         {"b": [{"age": "4-year-old", "obj": "her"}, {"age": "6-year-old son", "obj": "him"},
                {"age": "9-year-old daughter", "obj": "her"}]}),
    Near("My {kid} is {X} months old and still not walking. Should I be worried?",
         [("11", "20"), ("12", "19"), ("10", "18")],
         {"kid": ["son", "daughter", "baby"]}),
    Near("My {size} dog just ate {X} of milk chocolate. Is that dangerous?",
         [("a single chip", "a whole 200 g bar"), ("one small square", "an entire family-size bar")],
         {"size": ["30 kg", "5 kg", "10 kg"]}),
    Near("I'm {X} weeks pregnant and {still}. Is that normal?",
         [("16", "28"), ("14", "30"), ("18", "32")],
         {"still": ["haven't felt the baby move yet", "still haven't felt any kicks"]}),
    Near("I've had {cough} for {n} {X} and it isn't getting better. Should I see a doctor?",
         [("days", "weeks")],
         {"n": ["2", "3", "4"], "cough": ["a cough", "a dry cough", "a chesty cough"]}),
]

NEAR["nm_negation_antonym"] = [
    Near("Should I use a {X} compress for {cond}?",
         [("warm", "cold")],
         {"cond": ["a stiff neck", "a fresh bruise", "a stye on my eyelid",
                   "a sprained ankle from this morning", "a swollen bee sting"]}),
    Near("How can I help my {kid} {X} weight{how}?",
         [("gain", "lose")],
         {"kid": ["10-year-old", "teenage son", "12-year-old daughter", "senior dog", "cat"],
          "how": ["", " in a healthy way"]}),
    Near("My {age} sleeps {X} during the day. Is that normal?",
         [("a lot", "very little"), ("almost all the time", "hardly at all")],
         {"age": ["newborn", "3-month-old", "6-month-old"]}),
    Near("My {age} {X} vaccinated against measles and there's an outbreak {place}. What should I do?",
         [("has been", "hasn't been")],
         {"age": ["12-month-old", "15-month-old", "2-year-old", "3-year-old"],
          "place": ["at daycare", "in our town", "at our church"]}),
    Near("My {cat} {X} spayed, and she {beh}. What's going on?",
         [("is", "isn't")],
         {"cat": ["cat", "2-year-old cat", "indoor cat"],
          "beh": ["keeps yowling and rolling around on the floor",
                  "has been yowling at night and rubbing against everything"]}),
    Near("My {age} {X}. What form of {med} should I buy?",
         [("can swallow tablets now", "can't swallow tablets yet")],
         {"age": ["5-year-old", "7-year-old", "9-year-old"],
          "med": ["ibuprofen", "allergy medicine", "paracetamol"]}),
    Near("Which foods {nat}{X} {marker}?",
         [("raise", "lower"), ("increase", "decrease")],
         {"marker": ["blood pressure", "LDL cholesterol", "blood sugar"], "nat": ["", "naturally "]}),
    Near("My {age} has been {X} since we started {food}. What can I do?",
         [("constipated", "having diarrhea")],
         {"b": [{"age": "7-month-old", "food": "solid foods"}, {"age": "6-month-old", "food": "rice cereal"},
                {"age": "1-year-old", "food": "cow's milk"}, {"age": "13-month-old", "food": "whole milk"},
                {"age": "8-month-old", "food": "pureed meats"}]}),
]


def _sibling_diffs():
    out = []
    for young, old, young_girl, old_girl in [(3, 8, True, False), (2, 7, False, True),
                                             (4, 10, False, False), (5, 12, True, True)]:
        y_poss = "her" if young_girl else "his"
        o_poss = "her" if old_girl else "his"
        y_rel = "sister" if young_girl else "brother"
        o_rel = "sister" if old_girl else "brother"
        a = {"X": "my %d-year-old keeps {act} %s %d-year-old %s" % (young, y_poss, old, o_rel)}
        b = {"X": "my %d-year-old keeps {act} %s %d-year-old %s" % (old, o_poss, young, y_rel)}
        out.append((a, b))
    return out


NEAR["nm_direction_role"] = [
    Near("{how} {who} from {A} to {B}?",
         swap([("breast milk", "formula", {"who": "my baby"}),
               ("dry food", "wet food", {"who": "my cat"}),
               ("a crib", "a toddler bed", {"who": "my 2-year-old"}),
               ("kibble", "a raw diet", {"who": "my dog"})]),
         {"how": ["How do I switch", "What's the best way to switch"]}),
    Near("{X}. {q}",
         _sibling_diffs(),
         {"act": ["hitting", "pushing", "kicking"],
          "q": ["How should I handle it?", "What should I do about it?"]}),
    Near("{A} {sc} {B}. How can we help them get used to each other?",
         swap([("our new puppy", "our 4-year-old"), ("our cat", "our new puppy"),
               ("our toddler", "our dog"), ("our 6-year-old", "our new kitten")]),
         {"sc": ["is scared of", "is terrified of"]}),
    Near("I'm flying from {A} to {B}{with}. How can I deal with jet lag?",
         swap([("New York", "London"), ("Chicago", "Paris"), ("Boston", "Rome"), ("Los Angeles", "Sydney")]),
         {"with": ["", " with my 2-year-old"]}),
    Near("My {part} hurts when I {X}, but not {rest}. {q}",
         [({"part": "knee", "X": "walk up stairs", "rest": "on flat ground"},
           {"part": "knee", "X": "walk down stairs", "rest": "on flat ground"}),
          ({"part": "lower back", "X": "bend forward", "rest": "when I'm standing still"},
           {"part": "lower back", "X": "lean backward", "rest": "when I'm standing still"}),
          ({"part": "knee", "X": "hike uphill", "rest": "on flat ground"},
           {"part": "knee", "X": "hike downhill", "rest": "on flat ground"})],
         {"q": ["What might be causing it?", "Any idea what could cause that?"]}),
    Near("How can I help my {parent} move from {A} into {B}?",
         swap([("our house", "assisted living"), ("our house", "a nursing home")]),
         {"parent": ["84-year-old mother", "90-year-old father", "elderly aunt"]}),
    Near("I'm switching from {A} to {B} {when}. How should I adjust my sleep?",
         swap([("night shifts", "day shifts"), ("early shifts", "late shifts")]),
         {"when": ["next week", "on Monday"]}),
]

NEAR["nm_frequency_duration"] = [
    Near("Is it fine to take {med} {X}?",
         [("once in a while", "every day"), ("for a couple of days", "every day for months")],
         {"med": ["melatonin", "an over-the-counter sleep aid", "a laxative", "ibuprofen for my back"]}),
    Near("I've been using {med} for {X}. Is that okay?",
         [("3 days", "3 months"), ("a few days", "several months")],
         {"med": ["a decongestant nasal spray", "omeprazole for heartburn",
                  "a hydrocortisone cream on my face", "eye drops for redness"]}),
    Near("I give my {who} a bath {X}. Is that the right amount?",
         [("every day", "once a month"), ("twice a week", "once a month")],
         {"who": ["newborn", "dog", "6-month-old", "cat"]}),
    Near("We walk our {dog} for {X} a day. Is that the right amount of exercise?",
         [("10 minutes", "two hours"), ("15 minutes", "three hours")],
         {"dog": ["border collie", "pug", "senior Labrador", "husky", "French bulldog"]}),
    Near("My {age} baby feeds {X}. Is that normal?",
         [("every hour", "every four hours"), ("every 90 minutes", "every five hours")],
         {"age": ["2-week-old", "6-week-old", "3-month-old"]}),
    Near("I'm {age} and I do strength training {X}. Is that a good plan to build muscle?",
         [("once a week", "six days a week"), ("twice a week", "every single day")],
         {"age": ["45", "30", "60"]}),
    Near("My {age}-year-old {parent} forgets {thing} {X}. Is that a normal part of aging?",
         [("once in a while", "several times a day")],
         {"p": [{"parent": "father", "pr": "he", "poss": "his"}, {"parent": "mother", "pr": "she", "poss": "her"}],
          "age": ["74", "79", "83"],
          "thing": ["where {poss} keys are", "people's names", "whether {pr} has eaten"]}),
    Near("My {age} spends {X} a day on screens. Is that too much?",
         [("about 30 minutes", "around six hours"), ("an hour", "seven hours")],
         {"age": ["4-year-old", "8-year-old", "13-year-old", "2-year-old"]}),
]

NEAR["nm_quantity_scope"] = [
    Near("My {age} has an ear infection in {X}. Does {pr} need antibiotics?",
         [("one ear", "both ears")],
         {"b": [{"age": "18-month-old", "pr": "she"}, {"age": "10-month-old", "pr": "he"},
                {"age": "20-month-old", "pr": "she"}, {"age": "15-month-old", "pr": "he"}]}),
    Near("{lead} {meds}. {Q}",
         [({"meds": "just {A}", "A": a, "B": b, "Q": q}, {"meds": "{A} and also {B}", "A": a, "B": b, "Q": q})
          for a, b, q in [
              ("a daily multivitamin", "simvastatin", "Is it safe for me to drink grapefruit juice every morning?"),
              ("vitamin D", "warfarin", "Can I take ibuprofen for a headache?"),
              ("fish oil", "lisinopril", "Is it okay to use a salt substitute that contains potassium?"),
              ("a calcium supplement", "sertraline", "Can I try St John's wort for low mood?")]],
         {"lead": ["I take", "Right now I take"]}),
    Near("My {parent} has had swelling in {X} since {time}. What could be causing it?",
         [("one ankle", "both ankles"), ("one leg", "both legs")],
         {"parent": ["80-year-old father", "76-year-old mother", "grandmother"],
          "time": ["last week", "the weekend"]}),
    Near("My {age} coughs {X}. Should I be worried?",
         [("only at night", "all day long"), ("only when running around", "all day long")],
         {"age": ["5-year-old", "3-year-old", "8-year-old"]}),
    Near("I've had an itchy rash {X} since I started {new}. What should I do?",
         [("only on my hands", "all over my body")],
         {"new": ["a new antibiotic three days ago", "a new blood pressure pill last week",
                  "using a new laundry detergent", "a new job at a hair salon"]}),
    Near("I'm breastfeeding my {age} and {X} red, hot and sore. What can I do at home?",
         [("one breast is", "both breasts are")],
         {"age": ["3-week-old", "2-month-old", "5-day-old", "4-month-old"]}),
    Near("{X} {cond}. How likely is it that our baby will have it too?",
         [("only my husband has", "both my husband and I have"), ("only I have", "my partner and I both have")],
         {"cond": ["asthma", "hay fever", "eczema", "type 1 diabetes"]}),
]

NEAR["nm_comparison_degree"] = [
    Near("{lead} the {X} foods for {who}?",
         [("best", "worst")],
         {"lead": ["What are", "Which are"],
          "who": ["a toddler with constipation", "a dog with a sensitive stomach",
                  "someone with acid reflux", "a pregnant woman with heartburn"]}),
    Near("Is it normal for {who}'s {m} to be {X} than an adult's?",
         [("higher", "lower")],
         {"who": ["a baby", "a toddler", "a 5-year-old"],
          "m": ["heart rate", "breathing rate", "blood pressure"]}),
    Near("{lead} {X} {n} if I have {cond}?",
         [({"X": "more"}, {"X": "less"})],
         {"lead": ["Should I eat", "Do I need to eat"],
          "i": [{"n": "salt", "cond": "high blood pressure"}, {"n": "fiber", "cond": "constipation"},
                {"n": "sugar", "cond": "type 2 diabetes"}, {"n": "iron-rich food", "cond": "iron-deficiency anemia"}]}),
    Near("Why is my {pet} drinking {X} water than usual{late}?",
         [("more", "less"), ("a lot more", "a lot less")],
         {"pet": ["dog", "cat", "senior cat", "rabbit"], "late": ["", " lately"]}),
    Near("Does {A} have {X} {nu} than {B}{per}?",
         [({"X": "more"}, {"X": "less"})],
         {"i": [{"A": "spinach", "nu": "iron", "B": "beef"}, {"A": "oat milk", "nu": "protein", "B": "cow's milk"},
                {"A": "brown rice", "nu": "fiber", "B": "white rice"}, {"A": "a banana", "nu": "potassium", "B": "an apple"},
                {"A": "salmon", "nu": "omega-3", "B": "chicken"}],
          "per": ["", " per serving"]}),
    Near("My {age} bumped {poss} head on the {obj} an hour ago and now seems {X}. What should I do?",
         [("a little sleepy", "very hard to wake up"), ("slightly cranky", "confused and unsteady")],
         {"b": [{"age": "3-year-old", "poss": "her"}, {"age": "6-year-old", "poss": "his"},
                {"age": "18-month-old", "poss": "his"}],
          "obj": ["table", "floor"]}),
    Near("Which burns {X} calories per hour: {A} or {B}?",
         [({"X": "more"}, {"X": "fewer"})],
         {"i": [{"A": "brisk walking", "B": "running"}, {"A": "cycling", "B": "swimming"},
                {"A": "yoga", "B": "weightlifting"}, {"A": "dancing", "B": "rowing"}]}),
    Near("What's the {X} sleeping position {cond}?",
         [("best", "worst")],
         {"cond": ["when you have lower back pain", "when you have acid reflux",
                   "when you snore", "when you're 30 weeks pregnant"]}),
]

NEAR["nm_asked_aspect"] = [
    Near("My {age} gets nosebleeds a few times a week, usually at night. {X}",
         aspect_diffs(["What usually causes that?", "What's the right way to stop a nosebleed?",
                       "When is it worth seeing a doctor about it?"]),
         {"age": ["6-year-old", "9-year-old", "11-year-old"]}),
    Near("My {pet} has been scratching {poss} ears and shaking {poss} head a lot since {time}. {X}",
         aspect_diffs(["What could be causing it?", "How do I clean {poss} ears safely at home?",
                       "How soon does {pr} need to see a vet?"]),
         {"p": [{"pet": "dog", "poss": "his", "pr": "he"}, {"pet": "cocker spaniel", "poss": "her", "pr": "she"},
                {"pet": "cat", "poss": "her", "pr": "she"}],
          "time": ["last weekend", "Monday"]}),
    Near("My {age}-year-old {parent} has fallen twice at home in the last month. {X}",
         aspect_diffs(["Why do older people fall more often?", "How can I make the house safer for {obj}?",
                       "What should I do if {pr} falls again and can't get up?"]),
         {"p": [{"parent": "father", "obj": "him", "pr": "he"}, {"parent": "mother", "obj": "her", "pr": "she"}],
          "age": ["78", "83", "88"]}),
    Near("I'm {n} weeks pregnant and get heartburn almost every evening. {X}",
         aspect_diffs(["Why does pregnancy cause heartburn?", "What can I safely take for it?",
                       "Will it go away after the baby is born?"]),
         {"n": ["24", "30", "33"]}),
    Near("I keep waking up at {t} every night and can't get back to sleep. {X}",
         aspect_diffs(["What causes this?", "What can I do in the moment to fall back asleep?",
                       "Should I talk to a doctor about it?"]),
         {"t": ["3 in the morning", "4 in the morning", "around 2:30"]}),
    Near("My {age} has a flat spot on the back of {poss} head. {X}",
         aspect_diffs(["How did this happen?", "What can I do to help it round out?",
                       "Will it affect {poss} development?"]),
         {"b": [{"age": "3-month-old", "poss": "her"}, {"age": "4-month-old", "poss": "his"},
                {"age": "2-month-old", "poss": "her"}]}),
    Near("My {grade} has been refusing to go to school for the past {period}. {X}",
         aspect_diffs(["Why might {pr} be doing this?", "How should I talk to {obj} about it?",
                       "Should I let the school know?"]),
         {"g": [{"grade": "second-grader", "pr": "she", "obj": "her"}, {"grade": "fifth-grader", "pr": "he", "obj": "him"},
                {"grade": "seventh-grader", "pr": "she", "obj": "her"}],
          "period": ["two weeks", "month"]}),
    Near("My {part} are still really sore {n} days after {act}. {X}",
         aspect_diffs(["Why does the soreness get worse on the second day?",
                       "Is it okay to work out again while I'm this sore?",
                       "What can I do to recover faster?"]),
         {"i": [{"part": "legs", "act": "my first leg day in months"}, {"part": "calves", "act": "a long hike"},
                {"part": "arms", "act": "my first climbing session"}, {"part": "shoulders", "act": "a new boxing class"}],
          "n": ["two", "three"]}),
]

NEAR["nm_safety_substitution"] = [
    Near("Is it safe to give my {dog} {X} for {poss} arthritis pain?",
         [("carprofen", "ibuprofen"), ("carprofen", "naproxen"), ("the meloxicam the vet prescribed", "acetaminophen")],
         {"d": [{"dog": "dog", "poss": "his"}, {"dog": "old Lab", "poss": "her"}, {"dog": "senior terrier", "poss": "his"}]}),
    Near("Can I give my {age} {X} for a fever?",
         [("ibuprofen", "aspirin"), ("acetaminophen", "aspirin")],
         {"age": ["5-year-old", "8-year-old", "3-year-old", "12-year-old"]}),
    Near("{lead} {X}?",
         [("carob treats", "chocolate treats"), ("blueberries", "grapes"),
          ("plain peanut butter", "peanut butter sweetened with xylitol"),
          ("cooked chicken", "cooked chicken bones"), ("carrots", "onions")],
         {"lead": ["Can my dog eat", "Is it okay for my puppy to eat"]}),
    Near("Can I switch my {age} from formula to {X}?",
         [("whole cow's milk", "skim milk"), ("whole cow's milk", "rice milk")],
         {"age": ["12-month-old", "13-month-old", "14-month-old"]}),
    Near("Is it okay to take {X} for a headache while I'm on {drug}?",
         [("acetaminophen", "ibuprofen"), ("paracetamol", "aspirin")],
         {"drug": ["warfarin", "lithium", "blood pressure medication"]}),
    Near("Can I use {X} on my {cat}{why}?",
         [({"X": "a flea spot-on made for cats", "why": ""}, {"X": "a flea spot-on made for dogs", "why": ""}),
          ({"X": "coconut oil", "why": " to help her dry skin"}, {"X": "tea tree oil", "why": " to help her dry skin"})],
         {"cat": ["cat", "10-year-old cat", "indoor cat"]}),
    Near("{lead} {X} while pregnant?",
         [("hard cheddar", "unpasteurized brie"), ("cooked salmon", "raw oysters"),
          ("canned light tuna", "swordfish"), ("pasteurized yogurt", "raw milk yogurt")],
         {"lead": ["Is it safe to eat", "Can I eat"]}),
]


# --------------------------------------------------------------------------
# positive categories (same answer)
# --------------------------------------------------------------------------

POS = {}

POS["pos_reworded"] = [
    Pos("How much water should a {age}-year-old drink per day?",
        "What's the recommended daily water intake for a {age}-year-old?",
        {"age": ["5", "7", "9", "11", "14"]}),
    Pos("Can I safely {act} while I'm pregnant?",
        "Is it safe for me to {act} during pregnancy?",
        {"act": ["go swimming", "do yoga", "lift light weights", "ride a stationary bike", "go jogging"]}),
    Pos("What are the signs of dehydration in {who}?",
        "How can I tell if {who} is dehydrated?",
        {"who": ["a baby", "a dog", "an elderly person", "a toddler", "a cat"]}),
    Pos("How long does it usually take to recover from {x}?",
        "What's the typical recovery time for {x}?",
        {"x": ["a sprained ankle", "a pulled hamstring", "a bad cold", "the flu", "a stomach bug"]}),
    Pos("When do babies usually start {m}?",
        "At what age do most babies begin {m}?",
        {"m": ["crawling", "teething", "sleeping through the night", "saying their first words", "walking"]}),
    Pos("How many times a year should my {pet} see the vet for a checkup?",
        "How often each year does my {pet} need a vet checkup?",
        {"pet": ["adult cat", "senior dog", "rabbit", "8-year-old Labrador"]}),
    Pos("What foods are high in {n}?",
        "Which foods contain a lot of {n}?",
        {"n": ["iron", "calcium", "vitamin D", "fiber", "magnesium", "potassium"]}),
]

POS["pos_context_reordered"] = [
    Pos("My {kid} is {age} and weighs {w} kg. {Pr} has had a fever since last night. How much children's ibuprofen can I give {obj}?",
        "My {kid} has had a fever since last night. {Pr} is {age} and weighs {w} kg. How much children's ibuprofen can I give {obj}?",
        {"aw": [{"age": "4", "w": "16"}, {"age": "6", "w": "20"}, {"age": "8", "w": "25"}, {"age": "3", "w": "14"}],
         "k": [KID_SON, KID_DAU]}),
    Pos("I'm {n} weeks pregnant. I've had a bad cold for {d} days. What can I safely take for the congestion?",
        "I've had a bad cold for {d} days and I'm {n} weeks pregnant. What can I safely take for the congestion?",
        {"n": ["12", "20", "31"], "d": ["three", "five"]}),
    Pos("My {p} is {age}. {Pr} lives alone and has started skipping meals. How can I make sure {pr} eats enough?",
        "My {p} lives alone and has started skipping meals. {Pr} is {age}. How can I make sure {pr} eats enough?",
        {"age": ["79", "84", "87", "91"],
         "pp": [{"p": "dad", "pr": "he", "Pr": "He"}, {"p": "mom", "pr": "she", "Pr": "She"}]}),
    Pos("We adopted a {age} {breed} last week. She hasn't eaten much since she arrived. Is that normal?",
        "Since we adopted our {age} {breed} last week, she hasn't eaten much. Is that normal?",
        {"age": ["2-year-old", "5-year-old", "10-week-old"], "breed": ["greyhound", "beagle", "terrier mix"]}),
    Pos("I'm {age} and work night shifts. I sleep about {h} hours during the day. Is that enough?",
        "I work night shifts and sleep about {h} hours during the day. I'm {age}. Is that enough?",
        {"age": ["29", "41", "52"], "h": ["five", "six", "seven"]}),
    Pos("My {age}-year-old started {grade} in September. {Pr} cries every morning before school. How can I help {obj}?",
        "Every morning before school my {age}-year-old cries. {Pr} started {grade} in September. How can I help {obj}?",
        {"g": [{"age": "5", "grade": "kindergarten"}, {"age": "6", "grade": "first grade"},
               {"age": "11", "grade": "middle school"}, {"age": "4", "grade": "preschool"}],
         "k": [KID_SON, KID_DAU]}),
    Pos("My baby is {m} months old and breastfed. {Pr} wakes up {k} times a night. Is that normal?",
        "My breastfed baby wakes up {k} times a night, and {pr}'s {m} months old. Is that normal?",
        {"m": ["4", "6", "9"], "k": ["three", "four", "five"],
         "b": [{"pr": "he", "Pr": "He"}, {"pr": "she", "Pr": "She"}]}),
    Pos("I'm {age} and just started running. After {d} weeks my shins hurt. Should I stop?",
        "After {d} weeks of running, my shins hurt. I'm {age} and just started. Should I stop?",
        {"age": ["34", "47", "55"], "d": ["two", "three"]}),
]

_GREET = [
    {"pre": "Hi! ", "post": ""},
    {"pre": "", "post": " Thanks!"},
    {"pre": "Hello, ", "post": " Thank you so much."},
    {"pre": "Hey there! ", "post": " Thanks in advance."},
    {"pre": "Good morning! ", "post": ""},
    {"pre": "", "post": " Any help is appreciated, thanks."},
    {"pre": "Hi, hope you're well. ", "post": " Many thanks."},
]

POS["pos_greeting_thanks"] = [
    Pos("{q}", "{pre}{q}{post}",
        {"qq": [{"q": "what's a healthy after-school snack for a %s-year-old?" % a} for a in ["6", "9", "12", "15"]],
         "g": _GREET}),
    Pos("{q}", "{pre}{q}{post}",
        {"qq": [{"q": "how can I get my %s to take %s pills?" % p} for p in
                [("dog", "his"), ("cat", "her"), ("senior cat", "his"), ("puppy", "her")]],
         "g": _GREET}),
    Pos("{q}", "{pre}{q}{post}",
        {"qq": [{"q": "is it normal for a %s-month-old to drool this much?" % m} for m in ["3", "4", "5", "7"]],
         "g": _GREET}),
    Pos("{q}", "{pre}{q}{post}",
        {"qq": [{"q": "what stretches help with lower back pain from %s?" % c} for c in
                ["sitting at a desk all day", "driving for work", "standing all day at my job"]],
         "g": _GREET}),
    Pos("{q}", "{pre}{q}{post}",
        {"qq": [{"q": "how can I help my %s remember to take %s medications every day?" % p} for p in
                [("dad", "his"), ("mom", "her"), ("grandmother", "her"), ("83-year-old father", "his")]],
         "g": _GREET}),
    Pos("{q}", "{pre}{q}{post}",
        {"qq": [{"q": "how much tummy time should my %s-week-old get each day?" % w} for w in ["4", "6", "8", "10"]],
         "g": _GREET}),
    Pos("{q}", "{pre}{q}{post}",
        {"qq": [{"q": "how much protein do I need if I lift weights %s times a week?" % n} for n in
                ["three", "four", "five"]],
         "g": _GREET}),
]

POS["pos_informal_typing"] = [
    Pos("My {age}-year-old doesn't want to eat any vegetables. What can I do?",
        "my {age} yr old doesnt want to eat any veggies what can i do",
        {"age": ["3", "4", "5", "6", "7", "8"]}, post_b=loose),
    Pos("How long should I wait after {x} before going swimming?",
        "how long should i wait after {x} before going swimming pls",
        {"x": ["eating lunch", "a big meal", "breakfast", "eating a sandwich"]}, post_b=loose),
    Pos("I'm {n} weeks pregnant and I feel nauseous all day. Is there anything that helps?",
        "im {n} weeks pregnant and i feel nauseous all day, anything that helps??",
        {"n": ["7", "9", "11", "13"]}, post_b=loose),
    Pos("My {pa} keeps eating grass. Should I be worried?",
        "my {pb} keeps eating grass should i be worried",
        {"p": [{"pa": "dog", "pb": "dog"}, {"pa": "puppy", "pb": "puppy"}, {"pa": "cat", "pb": "cat"},
               {"pa": "10-year-old dog", "pb": "10 yr old dog"}]}, post_b=loose),
    Pos("Why don't I sleep well after drinking {drink} in the evening?",
        "why dont i sleep well after drinking {drink} in the evening",
        {"drink": ["wine", "coffee", "green tea", "energy drinks"]}, post_b=loose),
    Pos("Do you know how often I should replace my {shoes}?",
        "do u know how often i should replace my {shoes}",
        {"shoes": ["running shoes", "gym shoes", "walking shoes", "hiking boots"]}, post_b=loose),
    Pos("My {parent} is {age} and keeps falling asleep in the afternoon. Is that normal?",
        "my {parent} is {age} and keeps falling asleep in the afternoon is that normal",
        {"parent": ["mom", "dad", "grandma"], "age": ["81", "86", "78"]}, post_b=loose),
    Pos("Please tell me what I should pack in my hospital bag for {x}{when}.",
        "pls tell me what i should pack in my hospital bag for {xl}{when}",
        {"xx": [{"x": "giving birth", "xl": "giving birth"}, {"x": "a planned C-section", "xl": "a planned c-section"}],
         "when": ["", " next month"]}, post_b=loose),
]


def syn(a_key, b_key, pairs):
    return [{a_key: a, b_key: b} for a, b in pairs]


POS["pos_synonyms"] = [
    Pos("Should I take my {ka} to the {da} for a {aa} that won't go away?",
        "Should I take my {kb} to the {db} for a {ab} that won't go away?",
        {"k": syn("ka", "kb", [("child", "kid"), ("son", "boy"), ("daughter", "girl")]),
         "d": syn("da", "db", [("doctor", "physician"), ("pediatrician", "children's doctor")]),
         "a": syn("aa", "ab", [("stomach ache", "tummy ache"), ("bellyache", "sore tummy")])}),
    Pos("How can I {ra} the swelling in my feet and ankles {wa}?",
        "How can I {rb} the swelling in my feet and ankles {wb}?",
        {"r": syn("ra", "rb", [("reduce", "decrease"), ("ease", "relieve"), ("bring down", "reduce")]),
         "w": syn("wa", "wb", [("during pregnancy", "while I'm pregnant"), ("while pregnant", "during pregnancy")])}),
    Pos("Is it {na} for a {ba} to sleep so much?",
        "Is it {nb} for a {bb} to sleep so much?",
        {"n": syn("na", "nb", [("normal", "typical"), ("normal", "usual")]),
         "b": syn("ba", "bb", [("newborn", "new baby"), ("newborn", "newborn baby")])}),
    Pos("My {ea} {fa} gets {ta} very easily. Should I be {wa}?",
        "My {eb} {fb} gets {tb} very easily. Should I be {wb}?",
        {"e": syn("ea", "eb", [("elderly", "aging")]),
         "f": syn("fa", "fb", [("father", "dad"), ("mother", "mom")]),
         "t": syn("ta", "tb", [("tired", "worn out"), ("exhausted", "worn out")]),
         "w": syn("wa", "wb", [("worried", "concerned")])}),
    Pos("What's the {ba} way to stop my {pet} from {ca} the {fa}?",
        "What's the {bb} way to stop my {pet} from {cb} the {fb}?",
        {"b": syn("ba", "bb", [("best", "most effective")]),
         "pet": ["puppy", "dog", "kitten"],
         "c": syn("ca", "cb", [("chewing on", "gnawing on")]),
         "f": syn("fa", "fb", [("furniture", "furniture"), ("couch", "sofa")])}),
    Pos("How much {ea} should a {ta} get {da}?",
        "How much {eb} should a {tb} get {db}?",
        {"e": syn("ea", "eb", [("exercise", "physical activity")]),
         "t": syn("ta", "tb", [("teenager", "teen"), ("teenager", "adolescent")]),
         "d": syn("da", "db", [("each day", "per day"), ("every day", "daily")])}),
    Pos("Can {sa} cause {ua}?",
        "Can {sb} cause {ub}?",
        {"s": syn("sa", "sb", [("iron tablets", "iron pills"), ("vitamin C tablets", "vitamin C pills"),
                               ("magnesium tablets", "magnesium pills")]),
         "u": syn("ua", "ub", [("an upset stomach", "stomach upset"), ("nausea", "queasiness")])}),
]

POS["pos_active_passive"] = [
    Pos("My {kid} was bitten by our neighbor's {a} {t}. The skin is broken. Does {pr} need to see a doctor?",
        "Our neighbor's {a} bit my {kid} {t}. The skin is broken. Does {pr} need to see a doctor?",
        {"k": [KID_SON, KID_DAU], "a": ["dog", "cat"], "t": ["this afternoon", "yesterday"]}),
    Pos("My {who} was stung by a bee on the {part}. What should I do?",
        "A bee stung my {who} on the {part}. What should I do?",
        {"who": ["toddler", "8-year-old", "husband"], "part": ["hand", "foot", "neck"]}),
    Pos("I was prescribed {m} by my doctor for {x}. Can I drink alcohol while taking it?",
        "My doctor prescribed me {m} for {x}. Can I drink alcohol while taking it?",
        {"i": [{"m": "amoxicillin", "x": "a chest infection"}, {"m": "metronidazole", "x": "a dental infection"},
               {"m": "prednisone", "x": "my asthma"}, {"m": "an antidepressant", "x": "anxiety"}]}),
    Pos("My {p} was diagnosed with {c} by the doctor last {w}. What kind of diet should {pr} follow?",
        "The doctor diagnosed my {p} with {c} last {w}. What kind of diet should {pr} follow?",
        {"pp": [{"p": "father", "pr": "he"}, {"p": "mother", "pr": "she"}],
         "c": ["type 2 diabetes", "high blood pressure", "osteoporosis"], "w": ["month", "week"]}),
    Pos("My {kid} is being bullied by {b}. How should I talk to {obj} about it?",
        "{b} {v} bullying my {kid}. How should I talk to {obj} about it?",
        {"k": [KID_SON, KID_DAU],
         "bb": [{"b": "a classmate", "v": "is"}, {"b": "an older kid on the bus", "v": "is"},
                {"b": "a group of kids in {poss} class", "v": "are"}]}),
    Pos("My {pet}'s paw was stepped on by {person}. {Pr} is limping a little. Should I take {obj} to the vet?",
        "{person} stepped on my {pet}'s paw. {Pr} is limping a little. Should I take {obj} to the vet?",
        {"pp": [{"pet": "dog", "Pr": "He", "obj": "him"}, {"pet": "cat", "Pr": "She", "obj": "her"}],
         "person": ["my toddler", "my husband", "a visitor"]}),
    Pos("Does {m} need to be stored in the fridge once it's opened?",
        "Do I need to store {m} in the fridge once I open it?",
        {"m": ["liquid amoxicillin", "insulin", "a bottle of eye drops", "children's antibiotic syrup",
               "a jar of probiotic powder"]}),
]

POS["pos_number_words"] = [
    Pos("My {kid} is {n_w} years old and still wakes up at night. Is that normal?",
        "My {kid} is {n_d} years old and still wakes up at night. Is that normal?",
        {"n": nums("n", [2, 3, 4, 5, 6]), "kid": ["son", "daughter", "grandson"]}),
    Pos("I sleep about {h_w} hours a night. Is that enough for a {age}-year-old?",
        "I sleep about {h_d} hours a night. Is that enough for a {age}-year-old?",
        {"h": nums("h", [5, 6, 7]), "age": ["35", "50", "68"]}),
    Pos("My {pet} is {n_w} weeks old. How many times a day should I feed {obj}?",
        "My {pet} is {n_d} weeks old. How many times a day should I feed {obj}?",
        {"n": nums("n", [8, 10, 12, 14]),
         "p": [{"pet": "puppy", "obj": "him"}, {"pet": "kitten", "obj": "her"}]}),
    Pos("I'm {n_w} weeks pregnant and my feet are swollen. Is that normal?",
        "I'm {n_d} weeks pregnant and my feet are swollen. Is that normal?",
        {"n": nums("n", [24, 28, 32, 36, 21])}),
    Pos("My baby is {n_w} months old. Can {pr} start eating solid food?",
        "My baby is {n_d} months old. Can {pr} start eating solid food?",
        {"n": nums("n", [4, 5, 6]), "pr": ["he", "she"]}),
    Pos("How many calories does a {n_w}-minute {act} burn?",
        "How many calories does a {n_d}-minute {act} burn?",
        {"n": nums("n", [20, 30, 45, 60]), "act": ["walk", "swim", "bike ride"]}),
    Pos("My {a_w}-year-old mother walks {m_w} miles a day. Is that too much for her?",
        "My {a_d}-year-old mother walks {m_d} miles a day. Is that too much for her?",
        {"a": nums("a", [80, 85, 78]), "m": nums("m", [2, 3])}),
    Pos("My cat is {n_w} years old and sleeping more than usual. Should I be worried?",
        "My cat is {n_d} years old and sleeping more than usual. Should I be worried?",
        {"n": nums("n", [12, 14, 16, 17])}),
]

_WRAP = [
    {"w_pre": "Can you tell me ", "w_post": "?"},
    {"w_pre": "I'd like to know ", "w_post": "."},
    {"w_pre": "I was wondering ", "w_post": "."},
    {"w_pre": "Do you know ", "w_post": "?"},
    {"w_pre": "Could you let me know ", "w_post": "?"},
]

POS["pos_request_wrapper"] = [
    Pos("How much sleep does a {age}-year-old need?",
        "{w_pre}how much sleep a {age}-year-old needs{w_post}",
        {"age": ["3", "8", "13", "16"], "w": _WRAP}),
    Pos("Is it safe to give my dog {food}?",
        "{w_pre}whether it's safe to give my dog {food}{w_post}",
        {"food": ["cooked rice", "raw carrots", "plain yogurt", "boiled chicken"], "w": _WRAP}),
    Pos("What should I do if my {age} baby rolls onto {poss} tummy while sleeping?",
        "{w_pre}what I should do if my {age} baby rolls onto {poss} tummy while sleeping{w_post}",
        {"b": [{"age": "3-month-old", "poss": "her"}, {"age": "5-month-old", "poss": "his"},
               {"age": "4-month-old", "poss": "her"}],
         "w": _WRAP}),
    Pos("How long should a {age}-year-old spend on homework each night?",
        "{w_pre}how long a {age}-year-old should spend on homework each night{w_post}",
        {"age": ["7", "10", "13", "16"], "w": _WRAP}),
    Pos("Why does my {p} get more confused in the evening?",
        "{w_pre}why my {p} gets more confused in the evening{w_post}",
        {"p": ["grandmother", "elderly father", "mother with dementia", "grandfather"], "w": _WRAP}),
    Pos("When can I start {act} again after {birth}?",
        "{w_pre}when I can start {act} again after {birth}{w_post}",
        {"act": ["running", "lifting weights", "doing sit-ups"], "birth": ["a vaginal birth", "a C-section"],
         "w": _WRAP}),
    Pos("Which vitamins should I take while {state}?",
        "{w_pre}which vitamins I should take while {state}{w_post}",
        {"state": ["trying to get pregnant", "breastfeeding", "pregnant"], "w": _WRAP}),
]

POS["pos_phrase_moved"] = [
    Pos("Every night my {kid} wakes up crying around {t}. What could help?",
        "My {kid} wakes up crying around {t} every night. What could help?",
        {"kid": ["2-year-old", "toddler", "3-year-old"], "t": ["midnight", "2 in the morning"]}),
    Pos("At night my {kid} coughs a lot. Should I be worried?",
        "My {kid} coughs a lot at night. Should I be worried?",
        {"kid": ["4-year-old", "son", "daughter", "6-year-old", "baby"]}),
    Pos("At school, my {age}-year-old has trouble concentrating. How can I help {obj}?",
        "My {age}-year-old has trouble concentrating at school. How can I help {obj}?",
        {"age": ["7", "9", "12"], "o": [{"obj": "him"}, {"obj": "her"}]}),
    Pos("After long walks, my {dog} limps on {poss} back leg. What should I do?",
        "My {dog} limps on {poss} back leg after long walks. What should I do?",
        {"d": [{"dog": "dog", "poss": "his"}, {"dog": "old Labrador", "poss": "her"},
               {"dog": "9-year-old spaniel", "poss": "his"}, {"dog": "greyhound", "poss": "her"}]}),
    Pos("During the night, my {age}-year-old {p} gets up {n} times to pee. Is that normal at {poss} age?",
        "My {age}-year-old {p} gets up {n} times during the night to pee. Is that normal at {poss} age?",
        {"pp": [{"p": "father", "poss": "his"}, {"p": "mother", "poss": "her"}],
         "age": ["76", "82"], "n": ["three", "four"]}),
    Pos("Since last week, my {age} has been spitting up more than usual. Is that okay?",
        "My {age} has been spitting up more than usual since last week. Is that okay?",
        {"age": ["6-week-old", "2-month-old", "3-month-old", "4-month-old"]}),
    Pos("In hot weather, how much water should my {pet} drink?",
        "How much water should my {pet} drink in hot weather?",
        {"pet": ["dog", "cat", "husky", "rabbit"]}),
    Pos("On weekends I sleep until {t}. Is that bad for my sleep schedule?",
        "I sleep until {t} on weekends. Is that bad for my sleep schedule?",
        {"t": ["noon", "11", "10:30"]}),
]


# --------------------------------------------------------------------------
# generation
# --------------------------------------------------------------------------

def build(categories, rng, seen):
    out = []
    for category, templates in categories.items():
        assert len(templates) >= 6, category
        pools = []
        for tpl in templates:
            cands = tpl.candidates()
            rng.shuffle(cands)
            pools.append({"cands": cands, "used": {}})
        picked = 0
        turn = 0
        stalled = 0
        while picked < PER_CATEGORY:
            pool = pools[turn % len(pools)]
            turn += 1
            choice = None
            best = None
            for i, (key, a, b) in enumerate(pool["cands"]):
                if a == b or (a, b) in seen or (b, a) in seen:
                    continue
                # prefer the least used difference and slot values (variety)
                usage = sum(pool["used"].get(tok, 0) for tok in key)
                if best is None or usage < best:
                    best, choice = usage, i
            if choice is None:
                stalled += 1
                if stalled > len(pools):
                    raise RuntimeError("ran out of candidates for " + category)
                continue
            stalled = 0
            key, a, b = pool["cands"].pop(choice)
            for tok in key:
                pool["used"][tok] = pool["used"].get(tok, 0) + 1
            if rng.random() < 0.5:
                a, b = b, a
            seen.add((a, b))
            out.append({"category": category, "stored": a, "query": b})
            picked += 1
    return out


def main():
    rng = random.Random(SEED)
    seen = set()
    text_pairs = build(NEAR, rng, seen)
    positives = build(POS, rng, seen)
    description = (
        "Held-out evaluation set v34 for a semantic prompt cache, written blind (every template and word "
        "list written from scratch without looking at any other data set, code or document of the project). "
        "Theme: everyday questions about health, nutrition, fitness, sleep, medicines in general terms (no "
        "diagnosis), pregnancy and babies, children's development and schooling, elderly parents, and pets' "
        "health and care, mixing one-sentence questions with short multi-sentence messages that give context "
        "before asking, some tidy and some informal. text_pairs holds %d near-miss pairs (%d categories x %d: %s) "
        "whose prompts share almost all words but need a different answer and must not be served from cache. "
        "positives holds %d true paraphrase pairs (%d categories x %d: %s) whose answer is the same, with every "
        "fact (who, ages, numbers, conditions, timing, negation) kept identical. Each category uses at least six "
        "templates filled from hand-written word lists, round-robin; all pairs are unique and stored differs "
        "from query. Generated deterministically with Python's standard library, random.Random(%d), by "
        "benchmarks/caches/make_heldout_v34.py."
        % (len(text_pairs), len(NEAR), PER_CATEGORY, ", ".join(NEAR),
           len(positives), len(POS), PER_CATEGORY, ", ".join(POS), SEED)
    )
    data = {"description": description, "text_pairs": text_pairs, "positives": positives}
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print("wrote %s: %d text_pairs, %d positives" % (OUT_PATH, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
