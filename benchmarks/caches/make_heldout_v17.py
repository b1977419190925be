"""Held-out evaluation set v17 for a semantic prompt cache.

A semantic prompt cache answers a new LLM chat prompt with the stored answer
of an earlier prompt when the two mean the same thing.  This script generates
a held-out evaluation set of prompt pairs for such a cache:

* ``text_pairs`` are NEAR-MISS pairs.  The query shares most of its wording
  with the stored prompt, but a careful human would answer the two
  differently, so serving the stored answer for the query would be WRONG.
  The set concentrates on four hard kinds of near-miss (40 pairs each):

  - person_or_perspective: the person the question is about, or who does
    what to whom, changes (me / my dog, I owe him / he owes me, my landlord
    sues me / I sue my landlord, how much I weigh on Mars / how much Mars
    weighs, ...).
  - modality: can / should / must / have to / need to / is it legal /
    is it safe / is it possible / is it worth it / allowed / required ...
    swapped in a way that changes the right answer.
  - step_or_sequence_order: the order of steps, events or operations is
    changed (coupon before or after tax, git commands, cooking steps,
    list operations, "does A happen before B", life events before/after).
  - quantity_or_count: a count, amount or quantity word changes (two /
    three, a few / most, teaspoon / tablespoon, once / twice a day, a dozen /
    half a dozen, half / a quarter, one guest / three guests, ...).

* ``positives`` are TRUE PARAPHRASE pairs (80) that a careful human would
  answer identically: reworded_question (20), polite_or_chatty_wrapper (15),
  synonym_swap (15), word_order_change (15) and casing_punctuation_typo (15).
  They keep the same persons, modality, step order and quantities, so a
  cache that is too strict on those dimensions would miss them.

Pairs are produced from templates filled from word lists written in this
file, using random.Random(171717), so two runs give byte-identical output.

This set was written blind: without reading the cache's code, its tests,
its documentation or any earlier evaluation set.  Only the author's own
knowledge and Python's standard library were used.

Run:
    python3 make_heldout_v17.py
which writes data/heldout_generated_v17.json next to this file.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import json
import os
import random

SEED = 171717

NEAR_MISS_COUNTS = {
    "person_or_perspective": 40,
    "modality": 40,
    "step_or_sequence_order": 40,
    "quantity_or_count": 40,
}

POSITIVE_COUNTS = {
    "reworded_question": 20,
    "polite_or_chatty_wrapper": 15,
    "synonym_swap": 15,
    "word_order_change": 15,
    "casing_punctuation_typo": 15,
}


def cap(s):
    return s[0].upper() + s[1:]


def money(x):
    if isinstance(x, float) and not x.is_integer():
        return "${:,.2f}".format(x)
    return "${:,}".format(int(x))


# ---------------------------------------------------------------------------
# 1. person_or_perspective
# ---------------------------------------------------------------------------

def p_medication():
    meds = [
        ("ibuprofen", "a sore back"),
        ("acetaminophen", "a mild fever"),
        ("melatonin", "trouble falling asleep"),
        ("Benadryl", "itchy hives"),
        ("aspirin", "a headache"),
        ("naproxen", "joint pain"),
    ]
    people = [
        ("me", "my dog"),
        ("me", "my 3-year-old"),
        ("my husband", "my cat"),
        ("me", "my 90-year-old grandmother"),
        ("my wife", "my 8-year-old son"),
    ]
    out = []
    for med, ail in meds:
        for a, b in people:
            out.append(("How much {} is safe for {} to take for {}?".format(med, a, ail),
                        "How much {} is safe for {} to take for {}?".format(med, b, ail)))
            out.append(("What is a safe dose of {} for {} with {}?".format(med, a, ail),
                        "What is a safe dose of {} for {} with {}?".format(med, b, ail)))
    return out


def p_bill_split():
    names = ["Sam", "Priya", "Marcus", "Elena", "Jordan", "Keiko"]
    things = ["hotel bill", "Airbnb booking", "rental car", "concert tickets", "grocery run"]
    amounts = [(300, 100), (240, 60), (180, 40), (500, 150), (90, 30)]
    out = []
    for n in names:
        for t in things:
            for big, small in amounts:
                out.append((
                    "I paid {} and {} paid {} for our {}; if we split it evenly, how much does {} owe me?".format(
                        money(big), n, money(small), t, n),
                    "{} paid {} and I paid {} for our {}; if we split it evenly, how much does {} owe me?".format(
                        n, money(big), money(small), t, n)))
                total = big + small
                out.append((
                    "Splitting evenly, how much do I owe {} if I covered {} of our {} {} and {} covered the rest?".format(
                        n, money(small), money(total), t, n),
                    "Splitting evenly, how much do I owe {} if {} covered {} of our {} {} and I covered the rest?".format(
                        n, n, money(small), money(total), t)))
    return out


def p_privacy_legal():
    # (subject form, possessive form) of the other party
    others = [
        ("my landlord", "my landlord's", "enter", "apartment", "without giving notice"),
        ("my parents", "my parents'", "read", "text messages", "without asking"),
        ("my spouse", "my spouse's", "open", "mail", "without permission"),
        ("my roommate", "my roommate's", "go through", "bedroom closet", "while nobody is home"),
        ("my ex", "my ex's", "track", "phone location", "with a hidden app"),
        ("my employer", "my employer's", "search", "car", "in the company parking lot"),
    ]
    out = []
    for subj, poss, verb, obj, tail in others:
        out.append(("Is it legal for {} to {} my {} {}?".format(subj, verb, obj, tail),
                    "Is it legal for me to {} {} {} {}?".format(verb, poss, obj, tail)))
        out.append(("Can {} legally {} my {} {}?".format(subj, verb, obj, tail),
                    "Can I legally {} {} {} {}?".format(verb, poss, obj, tail)))
    return out


def p_planet_weight():
    planets = ["Mars", "the Moon", "Jupiter", "Venus", "Saturn", "Mercury", "Neptune", "Pluto"]
    out = []
    for pl in planets:
        out.append(("Roughly how much would I weigh on {}?".format(pl),
                    "Roughly how much does {} itself weigh?".format(pl)))
        out.append(("What would my weight be if I stood on {}?".format(pl),
                    "What would the weight of {} be, in kilograms?".format(pl)))
    return out


def p_vitals():
    metrics = [
        ("resting heart rate", "120 beats per minute"),
        ("body temperature", "102 degrees Fahrenheit"),
        ("breathing rate", "30 breaths per minute"),
    ]
    pairs = [
        ("my husband", "my dog"),
        ("my wife", "my cat"),
        ("my father", "my golden retriever"),
        ("my adult daughter", "my rabbit"),
    ]
    out = []
    for m, v in metrics:
        for a, b in pairs:
            out.append(("Is a {} of {} normal for {}?".format(m, v, a),
                        "Is a {} of {} normal for {}?".format(m, v, b)))
            out.append(("{} has a {} of {} this morning. Is that normal?".format(cap(a), m, v),
                        "{} has a {} of {} this morning. Is that normal?".format(cap(b), m, v)))
    return out


def p_financial_product():
    # Each product is paired only with audiences for whom the question is realistic.
    combos = [
        ("a Roth IRA", "me", "my retired parents"),
        ("a Roth IRA", "me", "my 16-year-old daughter with a summer job"),
        ("a 30-year fixed mortgage", "me", "my retired parents in their 70s"),
        ("a term life insurance policy", "me", "my retired parents"),
        ("a term life insurance policy", "my husband and me", "our 16-year-old daughter"),
        ("a high-deductible health plan with an HSA", "me", "my retired parents on Medicare"),
        ("a 529 college savings plan", "my newborn", "my 17-year-old son"),
        ("a reverse mortgage", "my husband and me", "my grandmother in a nursing home"),
        ("a reverse mortgage", "me at 45", "my retired parents"),
    ]
    out = []
    for pr, a, b in combos:
        if True:
            out.append(("Does {} make sense for {}?".format(pr, a),
                        "Does {} make sense for {}?".format(pr, b)))
            out.append(("Would {} be a good fit for {} right now?".format(pr, a),
                        "Would {} be a good fit for {} right now?".format(pr, b)))
    return out


def p_travel_vaccines():
    countries = ["Kenya", "Brazil", "Thailand", "India", "Peru", "Ghana"]
    kids = ["my 9-month-old baby", "my pregnant wife", "my puppy"]
    out = []
    for c in countries:
        for k in kids:
            out.append(("What vaccines do I need before traveling to {}?".format(c),
                        "What vaccines does {} need before traveling to {}?".format(k, c)))
            out.append(("Before our trip to {}, which shots should I get?".format(c),
                        "Before our trip to {}, which shots should {} get?".format(c, k)))
    return out


def p_documents():
    docs = ["passport", "Social Security card", "state ID card"]
    owners = ["my 10-year-old son's", "my 4-year-old daughter's", "my 15-year-old's"]
    places = ["Italy", "Mexico", "Japan"]
    out = []
    for d in docs:
        for o in owners:
            out.append(("How do I get a replacement for my lost {}?".format(d),
                        "How do I get a replacement for {} lost {}?".format(o, d)))
            for pl in places:
                if d != "passport":
                    continue
                out.append(("I lost my {} while traveling in {}; what should I do to replace it?".format(d, pl),
                            "I lost {} {} while traveling in {}; what should I do to replace it?".format(o, d, pl)))
    return out


def p_small_claims():
    parties = [
        ("my landlord", "the security deposit"),
        ("my contractor", "an unfinished kitchen remodel"),
        ("my neighbor", "a tree that fell on the fence between our yards"),
        ("my former roommate", "unpaid utility bills"),
        ("my dog walker", "a dog bite"),
        ("the mechanic", "a botched brake repair"),
    ]
    out = []
    for who, matter in parties:
        out.append(("Can {} sue me in small claims court over {}?".format(who, matter),
                    "Can I sue {} in small claims court over {}?".format(who, matter)))
        out.append(("What are my chances if {} takes me to small claims court over {}?".format(who, matter),
                    "What are my chances if I take {} to small claims court over {}?".format(who, matter)))
    return out


def p_weight_needs():
    pairs = [
        ("My son weighs {n} pounds", "My dog weighs {n} pounds", "he", "it", [40, 60, 80]),
        ("My daughter weighs {n} pounds", "My dog weighs {n} pounds", "she", "it", [35, 50, 70]),
        ("I weigh {n} pounds", "My Great Dane weighs {n} pounds", "I", "it", [140, 150]),
    ]
    out = []
    for a, b, pa, pb, ns in pairs:
        for n in ns:
            sa = a.format(n=n)
            sb = b.format(n=n)
            if pa == "I":
                qa_water = "how much water should I drink each day?"
                qa_cal = "how many calories a day do I need?"
            else:
                qa_water = "how much water should {} drink each day?".format(pa)
                qa_cal = "how many calories a day does {} need?".format(pa)
            qb_water = "how much water should {} drink each day?".format(pb)
            qb_cal = "how many calories a day does {} need?".format(pb)
            out.append(("{}; {}".format(sa, qa_water), "{}; {}".format(sb, qb_water)))
            out.append(("{}. Roughly {}".format(sa, qa_cal), "{}. Roughly {}".format(sb, qb_cal)))
    return out


def p_doctor_minor():
    rels = [("14-year-old daughter", "her"), ("9-year-old son", "his"), ("16-year-old son", "his")]
    conds = ["diagnosis", "test results", "prescriptions"]
    out = []
    for rel, pron in rels:
        for c in conds:
            out.append(("Can my doctor share my {} with my {} without my permission?".format(c, rel),
                        "Can my doctor share my {}'s {} with me without {} permission?".format(rel, c, pron)))
    return out


def p_manager():
    topics = [
        "about a coworker's performance problems",
        "how much the other people on my team earn",
        "about a coworker's upcoming medical leave",
        "about a complaint a client made",
        "about the budget cuts planned for next quarter",
    ]
    out = []
    for t in topics:
        out.append(("Should I tell my manager {}?".format(t),
                    "Should my manager tell me {}?".format(t)))
        out.append(("Would it be unprofessional for me to tell my manager {}?".format(t),
                    "Would it be unprofessional for my manager to tell me {}?".format(t)))
    return out


PERSON_TEMPLATES = [
    p_medication, p_bill_split, p_privacy_legal, p_planet_weight, p_vitals,
    p_financial_product, p_travel_vaccines, p_documents, p_small_claims,
    p_weight_needs, p_doctor_minor, p_manager,
]


# ---------------------------------------------------------------------------
# 2. modality
# ---------------------------------------------------------------------------

def m_taxes():
    acts = [
        "file a federal tax return if I only earned $8,000 last year",
        "file my taxes jointly with my husband",
        "pay quarterly estimated taxes on my freelance income",
        "claim my 19-year-old college student as a dependent",
        "file for an extension on my tax return this year",
    ]
    out = []
    for a in acts:
        out.append(("Do I have to {}?".format(a), "Can I {}?".format(a)))
        out.append(("Am I required to {}?".format(a), "Am I allowed to {}?".format(a)))
    return out


def m_legal_safe():
    acts = [
        "drink the tap water in Mexico City",
        "fly a drone over a crowded city park",
        "camp overnight on a public beach in California",
        "pick wild mushrooms in a national forest",
        "swim in the Hudson River",
        "leave my 10-year-old home alone for an evening",
    ]
    out = []
    for a in acts:
        out.append(("Is it legal to {}?".format(a), "Is it safe to {}?".format(a)))
        out.append(("Quick check before I go ahead: is it legal to {}?".format(a),
                    "Quick check before I go ahead: is it safe to {}?".format(a)))
    return out


def m_trip_prep():
    acts = [
        "buy travel insurance",
        "get an international driving permit",
        "get a yellow fever vaccine",
        "book my hotels in advance",
        "exchange cash at home",
    ]
    countries = ["Japan", "Italy", "Brazil", "Kenya", "Mexico"]
    out = []
    for a in acts:
        for c in countries:
            out.append(("Should I {} before my trip to {}?".format(a, c),
                        "Do I need to {} before my trip to {}?".format(a, c)))
            out.append(("Before flying to {} next month, is it recommended that I {}?".format(c, a),
                        "Before flying to {} next month, is it required that I {}?".format(c, a)))
    return out


def m_employer():
    acts = [
        "pay out my unused vacation days when I quit",
        "let me take unpaid leave to care for my sick father",
        "pay me extra for working on a public holiday",
        "keep my job open while I'm on maternity leave",
        "pay me for the time I spend in mandatory training",
    ]
    out = []
    for a in acts:
        out.append(("Can my employer {}?".format(a), "Does my employer have to {}?".format(a)))
        out.append(("Legally speaking, can my employer {}?".format(a),
                    "Legally speaking, must my employer {}?".format(a)))
    return out


def m_possible_worth():
    acts = [
        "repair a cracked phone screen myself",
        "refinance my mortgage when rates drop by half a percent",
        "learn conversational Spanish in six months",
        "replace the brake pads on my car myself",
        "get a master's degree while working full time",
    ]
    out = []
    for a in acts:
        out.append(("Is it possible to {}?".format(a), "Is it worth it to {}?".format(a)))
        out.append(("Would it be possible for me to {}?".format(a),
                    "Would it be worth it for me to {}?".format(a)))
    return out


def m_students():
    acts = [
        "retake the final exam if they fail it",
        "use a calculator on the SAT math section",
        "take a gap year before starting college",
        "submit SAT scores when applying to test-optional colleges",
        "bring their own laptops to class",
    ]
    out = []
    for a in acts:
        out.append(("Do students have to {}?".format(a), "Are students allowed to {}?".format(a)))
        out.append(("At my daughter's high school, must students {}?".format(a),
                    "At my daughter's high school, may students {}?".format(a)))
    return out


def m_flight_items():
    items = [
        "my own food",
        "a portable power bank",
        "my passport",
        "a car seat for my toddler",
        "a printed boarding pass",
        "an empty refillable water bottle",
    ]
    out = []
    for it in items:
        out.append(("Am I allowed to bring {} on a domestic flight?".format(it),
                    "Do I need to bring {} on a domestic flight?".format(it)))
        out.append(("For a domestic flight in the US, can I bring {}?".format(it),
                    "For a domestic flight in the US, must I bring {}?".format(it)))
    return out


def m_invest():
    acts = [
        "contribute to both a 401(k) and a Roth IRA in the same year",
        "withdraw money from my 401(k) to pay off credit card debt",
        "open a Roth IRA for my 15-year-old who has a summer job",
        "pay off my mortgage early",
        "use my HSA to pay for prescription glasses",
    ]
    out = []
    for a in acts:
        out.append(("Can I {}?".format(a), "Should I {}?".format(a)))
        out.append(("I'm 35 years old. Can I {}?".format(a), "I'm 35 years old. Should I {}?".format(a)))
    return out


def m_possible_safe():
    acts = [
        "charge an electric car from a regular wall outlet",
        "use a gas grill on a covered apartment balcony",
        "pour boiling water into a glass pitcher",
        "reuse frying oil after cooking fish",
        "run the dishwasher while nobody is home",
        "jump-start a car in the rain",
    ]
    out = []
    for a in acts:
        out.append(("Is it possible to {}?".format(a), "Is it safe to {}?".format(a)))
        out.append(("Honest question: is it actually possible to {}?".format(a),
                    "Honest question: is it actually safe to {}?".format(a)))
    return out


def m_how_much():
    acts = [
        "contribute to my 401(k) this year",
        "put into my HSA this year",
        "keep in my checking account",
        "borrow in federal student loans for graduate school",
    ]
    out = []
    for a in acts:
        out.append(("How much money can I {}?".format(a), "How much money should I {}?".format(a)))
        out.append(("I'm a single 30-year-old. Roughly how much can I {}?".format(a),
                    "I'm a single 30-year-old. Roughly how much should I {}?".format(a)))
    return out


MODALITY_TEMPLATES = [
    m_taxes, m_legal_safe, m_trip_prep, m_employer, m_possible_worth,
    m_students, m_flight_items, m_invest, m_possible_safe, m_how_much,
]


# ---------------------------------------------------------------------------
# 3. step_or_sequence_order
# ---------------------------------------------------------------------------

def s_coupon_tax():
    items = [("pair of running shoes", 120), ("winter coat", 180), ("blender", 80),
             ("desk chair", 150), ("backpack", 60)]
    coupons = [10, 20, 25]
    taxes = [6, 8, 9]
    out = []
    for it, p in items:
        for c in coupons:
            for t in taxes:
                out.append((
                    "A {} costs {}. If the {} coupon is applied before the {}% sales tax, what is my total?".format(
                        it, money(p), money(c), t),
                    "A {} costs {}. If the {} coupon is applied after the {}% sales tax, what is my total?".format(
                        it, money(p), money(c), t)))
                out.append((
                    "I'm buying a {} {} with a {}-off coupon and {}% tax. What do I pay if the store takes the coupon off first and then adds tax?".format(
                        money(p), it, money(c), t),
                    "I'm buying a {} {} with a {}-off coupon and {}% tax. What do I pay if the store adds tax first and then takes the coupon off?".format(
                        money(p), it, money(c), t)))
    return out


def s_arithmetic():
    out = []
    for a in [4, 7, 12, 15]:
        for b in [3, 5, 6]:
            for c in [2, 3, 4]:
                out.append(("Start with {}, add {}, then multiply by {}. What is the result?".format(a, b, c),
                            "Start with {}, multiply by {}, then add {}. What is the result?".format(a, c, b)))
                out.append(("What number do I get if I first subtract {} from {} and then divide by {}?".format(b, a * c, c),
                            "What number do I get if I first divide {} by {} and then subtract {}?".format(a * c, c, b)))
    return out


def s_git():
    pairs = [
        ("git stash", "git pull"),
        ("git add .", "git stash"),
        ("git add .", "git commit -m 'fix typo'"),
        ("git checkout main", "git merge feature"),
        ("git fetch origin", "git reset --hard origin/main"),
        ("git rebase main", "git push origin feature"),
    ]
    out = []
    for a, b in pairs:
        out.append(("What happens if I run `{}` and then `{}` in my repo?".format(a, b),
                    "What happens if I run `{}` and then `{}` in my repo?".format(b, a)))
        out.append(("In my project I typed `{}` first and `{}` second. What state is my repository in now?".format(a, b),
                    "In my project I typed `{}` first and `{}` second. What state is my repository in now?".format(b, a)))
    return out


def s_cooking():
    steps = [
        ("a steak", "let it rest for ten minutes", "slice it"),
        ("a risotto", "toast the rice in butter", "add the hot stock"),
        ("a stir-fry", "heat the oil until it shimmers", "add the garlic"),
        ("a layer cake", "let it cool completely", "frost it"),
        ("fried eggplant", "salt the eggplant slices and let them drain", "fry the slices"),
        ("a batch of cookies", "cream the butter and sugar", "add the eggs"),
    ]
    out = []
    for dish, a, b in steps:
        out.append(("When preparing {}, should I {} first and then {}?".format(dish, a, b),
                    "When preparing {}, should I {} first and then {}?".format(dish, b, a)))
        out.append(("For {}, my plan is to {} and then {}. Will that work?".format(dish, a, b),
                    "For {}, my plan is to {} and then {}. Will that work?".format(dish, b, a)))
    return out


def s_happens_before():
    events = [
        ("the home inspection", "the closing", "when buying a house"),
        ("security screening", "boarding", "at a US airport"),
        ("DNA replication", "mitosis", "in the cell cycle"),
        ("law school graduation", "the bar exam", "for most US lawyers"),
        ("the FAFSA submission", "the financial aid offer", "for incoming college students"),
        ("the rehearsal dinner", "the wedding ceremony", "at a typical American wedding"),
    ]
    out = []
    for a, b, ctx in events:
        out.append(("Does {} happen before {} {}?".format(a, b, ctx),
                    "Does {} happen before {} {}?".format(b, a, ctx)))
        out.append(("{}, is {} done after {}?".format(cap(ctx), a, b),
                    "{}, is {} done after {}?".format(cap(ctx), b, a)))
    return out


def s_apply_order():
    pairs = [
        ("moisturizer", "sunscreen", "on my face"),
        ("shampoo", "conditioner", "on my hair"),
        ("wood stain", "polyurethane", "on the oak table"),
        ("caulk", "paint", "on the window trim"),
        ("primer", "foundation", "on my face"),
        ("antibiotic ointment", "a bandage", "on the cut"),
    ]
    out = []
    for a, b, where in pairs:
        out.append(("I applied {} and then {} {}. Did I do it in the right order?".format(a, b, where),
                    "I applied {} and then {} {}. Did I do it in the right order?".format(b, a, where)))
        out.append(("Is it better to put {} first and {} second {}?".format(a, b, where),
                    "Is it better to put {} first and {} second {}?".format(b, a, where)))
    return out


def s_step_lists():
    tasks = [
        ("change a flat tire", ["loosen the lug nuts", "jack up the car", "take off the wheel"],
         ["jack up the car", "loosen the lug nuts", "take off the wheel"]),
        ("repaint my bedroom", ["patch the holes", "prime the walls", "paint"],
         ["prime the walls", "patch the holes", "paint"]),
        ("replace a ceiling light", ["turn off the breaker", "remove the old fixture", "connect the new wires"],
         ["remove the old fixture", "turn off the breaker", "connect the new wires"]),
        ("update my graphics driver", ["uninstall the old driver", "restart", "install the new driver"],
         ["install the new driver", "restart", "uninstall the old driver"]),
        ("clean a cast iron pan", ["scrub it with hot water", "dry it on the stove", "rub in a thin layer of oil"],
         ["rub in a thin layer of oil", "scrub it with hot water", "dry it on the stove"]),
        ("sell my old laptop", ["back up my files", "sign out of my accounts", "wipe the drive"],
         ["wipe the drive", "back up my files", "sign out of my accounts"]),
    ]
    out = []
    for task, s, r in tasks:
        out.append(("To {}, I plan to {}, {}, and then {}. Is that the correct order?".format(task, *s),
                    "To {}, I plan to {}, {}, and then {}. Is that the correct order?".format(task, *r)))
        out.append(("My steps to {}: {}, then {}, then {}. Anything wrong with that?".format(task, *s),
                    "My steps to {}: {}, then {}, then {}. Anything wrong with that?".format(task, *r)))
    return out


def s_life_events():
    events = [
        ("bought my house", "got married", "does my spouse have a claim to it if we divorce"),
        ("received my inheritance", "got married", "is it considered marital property"),
        ("got a new tattoo", "donated blood last week", "is that a problem"),
        ("filed my taxes", "received a corrected W-2", "do I need to amend my return"),
        ("took a home pregnancy test", "missed my period", "can I trust the negative result"),
        ("signed the lease", "noticed the mold in the bathroom", "can I still back out"),
    ]
    out = []
    for a, b, q in events:
        out.append(("I {} before I {}; {}?".format(a, b, q),
                    "I {} after I {}; {}?".format(a, b, q)))
        out.append(("Before I {}, I {}. {}?".format(b, a, cap(q)),
                    "After I {}, I {}. {}?".format(b, a, cap(q))))
    return out


def s_python_lists():
    ops = [
        ("sort it", "take the first three items", ["[5, 1, 4, 2, 3]", "[9, 7, 8, 1, 2]"]),
        ("remove duplicates with set()", "sort it", ["[3, 1, 3, 2]", "[4, 4, 1, 2]"]),
        ("reverse it", "drop the last item", ["[1, 2, 3, 4]", "[10, 20, 30]"]),
        ("append 10", "pop the last element", ["[1, 2, 3]", "[7, 8, 9]"]),
        ("square every element", "keep only the elements greater than 5", ["[1, 2, 3, 4]", "[2, 3, 6]"]),
    ]
    out = []
    for a, b, lists in ops:
        for l in lists:
            out.append(("In Python, if I take the list {}, {}, and then {}, what do I end up with?".format(l, a, b),
                        "In Python, if I take the list {}, {}, and then {}, what do I end up with?".format(l, b, a)))
            out.append(("Python question: starting from {}, I {} first and {} second. What's the result?".format(l, a, b),
                        "Python question: starting from {}, I {} first and {} second. What's the result?".format(l, b, a)))
    return out


STEP_TEMPLATES = [
    s_coupon_tax, s_arithmetic, s_git, s_cooking, s_happens_before,
    s_apply_order, s_step_lists, s_life_events, s_python_lists,
]


# ---------------------------------------------------------------------------
# 4. quantity_or_count
# ---------------------------------------------------------------------------

def q_calories():
    foods = ["large eggs", "slices of whole-wheat bread", "tablespoons of peanut butter",
             "cups of cooked white rice", "medium bananas"]
    counts = [("two", "three"), ("two", "six"), ("three", "five"), ("four", "ten")]
    out = []
    for f in foods:
        for a, b in counts:
            out.append(("How many calories are in {} {}?".format(a, f),
                        "How many calories are in {} {}?".format(b, f)))
            out.append(("I ate {} {} for breakfast. Roughly how many calories is that?".format(a, f),
                        "I ate {} {} for breakfast. Roughly how many calories is that?".format(b, f)))
    return out


def q_spoons():
    grams = ["table salt", "granulated sugar", "baking soda", "ground cinnamon", "honey"]
    soup = ["salt", "cayenne pepper", "ground cumin", "fish sauce", "soy sauce"]
    out = []
    for g in grams:
        out.append(("How many grams is a teaspoon of {}?".format(g),
                    "How many grams is a tablespoon of {}?".format(g)))
    for s in soup:
        out.append(("Is a teaspoon of {} too much for a pot of soup for two?".format(s),
                    "Is a tablespoon of {} too much for a pot of soup for two?".format(s)))
    return out


def q_pills():
    meds = ["vitamin D", "fish oil", "ibuprofen", "allergy"]
    sizes = [30, 60, 90, 100]
    freqs = [("once a day", "twice a day"), ("twice a day", "three times a day"),
             ("every day", "every other day")]
    ks = [("one", "two"), ("two", "three"), ("two", "four")]
    out = []
    for m in meds:
        for n in sizes:
            for a, b in freqs:
                out.append(("How long will a {}-count bottle of {} pills last if I take one {}?".format(n, m, a),
                            "How long will a {}-count bottle of {} pills last if I take one {}?".format(n, m, b)))
            for a, b in ks:
                out.append(("If I take {} a day from a bottle of {} {} tablets, how many days will it last?".format(a, n, m),
                            "If I take {} a day from a bottle of {} {} tablets, how many days will it last?".format(b, n, m)))
    return out


def q_few_all():
    things = [
        ("tomato seedlings", "wilt after transplanting", "wilted after transplanting"),
        ("hens", "stop laying eggs in winter", "stopped laying eggs this winter"),
        ("houseplants", "drop leaves after a move", "dropped leaves after the move"),
        ("new aquarium fish", "die in the first week", "died in the first week"),
        ("students", "fail the first quiz of the semester", "failed the first quiz of the semester"),
    ]
    qs = [("one", "all"), ("a few", "most")]
    out = []
    for t, pres, past in things:
        for a, b in qs:
            out.append(("Is it normal for {} of my {} to {}?".format(a, t, pres),
                        "Is it normal for {} of my {} to {}?".format(b, t, pres)))
            out.append(("{} of my {} {}. Should I be worried?".format(cap(a), t, past),
                        "{} of my {} {}. Should I be worried?".format(cap(b), t, past)))
    return out


def q_recipe_scale():
    mults = [("double", "triple"), ("halve", "double"), ("triple", "quadruple")]
    dishes = ["lasagna", "chili", "banana bread", "potato salad"]
    serves = [4, 6, 8]
    ingredients = [("pancake", "1.5 cups of flour"), ("cookie", "3/4 cup of brown sugar"),
                   ("chili", "2 tablespoons of chili powder"), ("muffin", "2 teaspoons of baking powder")]
    out = []
    for d in dishes:
        for n in serves:
            for a, b in mults:
                out.append(("If I {} a {} recipe that serves {}, how many people will it feed?".format(a, d, n),
                            "If I {} a {} recipe that serves {}, how many people will it feed?".format(b, d, n)))
    for d, ing in ingredients:
        for a, b in mults:
            out.append(("A {} recipe calls for {}. How much do I need if I {} it?".format(d, ing, a),
                        "A {} recipe calls for {}. How much do I need if I {} it?".format(d, ing, b)))
    return out


def q_dozen():
    items = [("donut", "donuts", 1.75), ("bagel", "bagels", 1.5), ("rose", "roses", 3.0),
             ("cupcake", "cupcakes", 2.5)]
    qs = [("a dozen", "half a dozen"), ("two dozen", "a dozen"), ("a dozen", "a baker's dozen")]
    out = []
    for one, many, p in items:
        price = "${:.2f}".format(p)
        for a, b in qs:
            out.append(("If one {} costs {}, how much do {} {} cost?".format(one, price, a, many),
                        "If one {} costs {}, how much do {} {} cost?".format(one, price, b, many)))
            out.append(("I need {} {} for the party. At {} each, what will that cost?".format(a, many, price),
                        "I need {} {} for the party. At {} each, what will that cost?".format(b, many, price)))
    return out


def q_rent_split():
    rents = [1800, 2400, 3000, 3600]
    out = []
    for r in rents:
        for a, b in [("one roommate", "two roommates"), ("two roommates", "three roommates")]:
            out.append(("The rent is {} a month. How much does each of us pay if I live with {}?".format(money(r), a),
                        "The rent is {} a month. How much does each of us pay if I live with {}?".format(money(r), b)))
        for a, b in [("two", "three"), ("three", "four"), ("four", "five")]:
            out.append(("How do we split a {} monthly rent evenly among {} people?".format(money(r), a),
                        "How do we split a {} monthly rent evenly among {} people?".format(money(r), b)))
    return out


def q_shares():
    fracs = [("half", "a quarter"), ("a third", "two thirds"), ("a quarter", "three quarters")]
    amounts = [120000, 90000, 240000]
    out = []
    for x in amounts:
        for a, b in fracs:
            out.append(("If I own {} of a business that made {} in profit last year, what is my share?".format(a, money(x)),
                        "If I own {} of a business that made {} in profit last year, what is my share?".format(b, money(x))))
            out.append(("My share of the family lake house is {}. If it sells for {}, how much do I get before taxes?".format(a, money(x * 3)),
                        "My share of the family lake house is {}. If it sells for {}, how much do I get before taxes?".format(b, money(x * 3))))
    return out


def q_drinks():
    drinks = [("one beer", "five beers"), ("a glass of wine", "a bottle of wine"),
              ("one cocktail", "four cocktails")]
    out = []
    for a, b in drinks:
        out.append(("Is it safe for me to drive two hours after having {}?".format(a),
                    "Is it safe for me to drive two hours after having {}?".format(b)))
        out.append(("I had {} with dinner. Will I be under the legal limit to drive an hour later?".format(a),
                    "I had {} with dinner. Will I be under the legal limit to drive an hour later?".format(b)))
    return out


def q_savings():
    freqs = [("every day", "every week"), ("every week", "every month"), ("every day", "every month")]
    out = []
    for n in [5, 10, 20, 50]:
        for a, b in freqs:
            out.append(("How much will I save in a year if I put {} aside {}?".format(money(n), a),
                        "How much will I save in a year if I put {} aside {}?".format(money(n), b)))
    for n in [50, 100, 200]:
        for a, b in freqs:
            out.append(("If I invest {} {} at 7% interest, how much will I have in ten years?".format(money(n), a),
                        "If I invest {} {} at 7% interest, how much will I have in ten years?".format(money(n), b)))
    return out


def q_guests():
    partners = [("boyfriend", "his"), ("girlfriend", "her"), ("best friend", "her")]
    out = []
    out.append(("Is it rude to bring one guest to a wedding when the invitation says 'and guest'?",
                "Is it rude to bring three guests to a wedding when the invitation says 'and guest'?"))
    out.append(("Is it rude to bring a guest to a wedding when the invitation says 'and guest'?",
                "Is it rude to bring guests to a wedding when the invitation says 'and guest'?"))
    for p, pron in partners:
        out.append(("My wedding invitation says 'plus one.' Can I bring my {}?".format(p),
                    "My wedding invitation says 'plus one.' Can I bring my {} and {} two sisters?".format(p, pron)))
    return out


def q_bags():
    airlines = ["United", "Delta", "American"]
    out = []
    for a in airlines:
        out.append(("How much does it cost to check a bag on a {} domestic flight?".format(a),
                    "How much does it cost to check two bags on a {} domestic flight?".format(a)))
        out.append(("I'm flying {} next week with one checked bag. What will I pay in bag fees?".format(a),
                    "I'm flying {} next week with three checked bags. What will I pay in bag fees?".format(a)))
    return out


QUANTITY_TEMPLATES = [
    q_calories, q_spoons, q_pills, q_few_all, q_recipe_scale, q_dozen,
    q_rent_split, q_shares, q_drinks, q_savings, q_guests, q_bags,
]


# ---------------------------------------------------------------------------
# Positives
# ---------------------------------------------------------------------------

def r_capital():
    countries = ["Peru", "Australia", "Canada", "Kenya", "Vietnam", "Morocco", "Norway"]
    return [("What is the capital city of {}?".format(c),
             "Which city serves as the capital of {}?".format(c)) for c in countries]


def r_units():
    units = [("ounces", "pound"), ("feet", "mile"), ("milliliters", "liter"),
             ("teaspoons", "tablespoon"), ("seconds", "hour"), ("days", "leap year")]
    out = []
    for small, big in units:
        out.append(("How many {} are there in one {}?".format(small, big),
                    "What is the number of {} in a single {}?".format(small, big)))
    return out


def r_duration():
    tasks = ["renew a US passport by mail", "recover from a sprained ankle",
             "get a driver's license in California", "hear back after a job interview",
             "pay off a $10,000 loan at $500 a month"]
    return [("How long does it usually take to {}?".format(t),
             "What is the usual amount of time needed to {}?".format(t)) for t in tasks]


def r_symptoms():
    conds = ["strep throat", "dehydration", "iron deficiency", "a concussion", "Lyme disease"]
    return [("What are the common symptoms of {}?".format(c),
             "What signs usually show up when someone has {}?".format(c)) for c in conds]


def r_steps():
    tasks = ["change a flat tire on my car", "reset my home Wi-Fi router",
             "unclog a kitchen sink without chemicals",
             "set up two-factor authentication on my email account", "freeze my credit report"]
    return [("How do I {}?".format(t), "What are the steps to {}?".format(t)) for t in tasks]


def r_difference():
    pairs = [("a Roth IRA", "a traditional IRA"), ("baking soda", "baking powder"),
             ("a will", "a living trust"), ("RAM", "storage on a laptop"),
             ("a virus", "a bacterial infection"), ("a credit union", "a bank")]
    return [("What is the difference between {} and {}?".format(a, b),
             "How does {} differ from {}?".format(a, b)) for a, b in pairs]


REWORD_TEMPLATES = [r_capital, r_units, r_duration, r_symptoms, r_steps, r_difference]


POLITE_CORES = [
    "How do I get candle wax out of a tablecloth?",
    "What temperature should I bake salmon at?",
    "Can I return an opened laptop to Best Buy?",
    "Should I pay off my car loan early?",
    "How much water should my 20-pound cat drink a day?",
    "Is it safe to eat eggs past the sell-by date?",
    "What time does the DMV usually open on Saturdays?",
    "How do I ask my landlord to fix the heating?",
    "Does my 7-year-old need a booster seat in a taxi?",
    "How often should I change my furnace filter?",
    "What documents do I need to renew my driver's license?",
    "How do I help my son study for his algebra final?",
    "Can I deduct my home office on my taxes?",
    "Why does my laptop fan get so loud at night?",
    "What is a good budget for a weekend trip to Chicago?",
    "Should I tell my doctor I stopped taking my blood pressure pills?",
]

POLITE_WRAPPERS = [
    "Hi! Hope your day is going well. {q}",
    "Quick question for you: {q} Thanks a lot!",
    "Sorry to bother you, but I was wondering: {ql}",
    "{q} Any help would be really appreciated, thank you!",
    "Hello there, I have a question. {q}",
    "Hey, could you help me with something? {q} Thanks in advance.",
    "Good morning! {q} I'd love your advice.",
    "I hope this isn't a silly question, but {ql}",
]


def lower_first(q):
    first = q.split(" ", 1)[0]
    if first in ("I", "I'm"):
        return q
    return q[0].lower() + q[1:]


def polite_pairs(rng):
    cores = list(POLITE_CORES)
    rng.shuffle(cores)
    wrappers = list(POLITE_WRAPPERS)
    rng.shuffle(wrappers)
    out = []
    for i, q in enumerate(cores):
        w = wrappers[i % len(wrappers)]
        out.append((q, w.format(q=q, ql=lower_first(q))))
    return out


def syn_fix():
    things = ["leaky kitchen faucet", "running toilet", "squeaky door hinge",
              "wobbly table leg", "broken zipper on a jacket"]
    return [("How do I fix a {}?".format(t), "How do I repair a {}?".format(t)) for t in things]


def syn_cheap():
    items = ["flights to Tokyo in April", "textbooks for my college classes",
             "furniture for my first apartment", "car insurance for a teenage driver"]
    return [("Where can I find cheap {}?".format(i), "Where can I find inexpensive {}?".format(i)) for i in items]


def syn_child():
    xs = ["has a fever of 103 degrees", "refuses to go to school", "swallowed a small coin",
          "is being bullied at school"]
    return [("What should I do if my child {}?".format(x), "What should I do if my kid {}?".format(x)) for x in xs]


def syn_hard():
    xs = ["learn to drive a stick shift", "get a mortgage with a 620 credit score",
          "switch careers into nursing at 40", "grow tomatoes on a small balcony"]
    return [("Is it hard to {}?".format(x), "Is it difficult to {}?".format(x)) for x in xs]


def syn_fast():
    xs = ["thaw frozen chicken safely", "get to JFK from Midtown Manhattan",
          "pay off $5,000 in credit card debt", "cool down a hot car in summer"]
    return [("What is the quickest way to {}?".format(x), "What is the fastest way to {}?".format(x)) for x in xs]


def syn_doctor():
    xs = ["chronic knee pain", "recurring migraines", "a suspicious mole on my back"]
    return [("What kind of doctor should I see for {}?".format(x),
             "What kind of physician should I see for {}?".format(x)) for x in xs]


def syn_start():
    xs = ["a vegetable garden in my backyard", "saving for retirement at 30",
          "a small online business from home"]
    return [("How do I start {}?".format(x), "How do I begin {}?".format(x)) for x in xs]


SYNONYM_TEMPLATES = [syn_fix, syn_cheap, syn_child, syn_hard, syn_fast, syn_doctor, syn_start]


def w_weather():
    cm = [("Lisbon", "October"), ("Denver", "March"), ("Tokyo", "June"),
          ("Cape Town", "December"), ("Seattle", "November")]
    return [("What is the weather usually like in {} in {}?".format(c, m),
             "In {}, what is the weather usually like in {}?".format(m, c)) for c, m in cm]


def w_conditional():
    pairs = [
        ("will my credit score drop", "I miss one credit card payment"),
        ("can my landlord keep my deposit", "I break my lease early"),
        ("should I call a doctor", "my baby's fever lasts more than two days"),
        ("will my car insurance go up", "I file a claim for a cracked windshield"),
        ("what happens to my 401(k)", "I leave my job"),
        ("do I still get paid", "my office closes because of a snowstorm"),
    ]
    return [("{} if {}?".format(cap(m), c), "If {}, {}?".format(c, m)) for m, c in pairs]


def w_interview():
    xs = ["a nursing job", "a software engineering job", "a college admissions",
          "a bank loan officer job"]
    out = []
    for x in xs:
        out.append(("What questions should I prepare for before {} interview?".format(x),
                    "Before {} interview, what questions should I prepare for?".format(x)))
    return out


def w_open_hours():
    pd = [("the Art Institute of Chicago", "Saturdays"), ("the public library on Main Street", "Sundays"),
          ("the Costco in Burbank", "Christmas Eve"), ("the Apple Store at the mall", "weeknights")]
    return [("How late is {} open on {}?".format(p, d), "On {}, how late is {} open?".format(d, p)) for p, d in pd]


def w_pet_winter():
    pets = ["cat", "dog", "hamster", "bearded dragon"]
    return [("Is it normal for my {} to sleep most of the day in winter?".format(p),
             "In winter, is it normal for my {} to sleep most of the day?".format(p)) for p in pets]


WORD_ORDER_TEMPLATES = [w_weather, w_conditional, w_interview, w_open_hours, w_pet_winter]


CASING_CORES = [
    "How do I turn off automatic updates on Windows 11?",
    "What's the best way to store fresh basil?",
    "Can I use my FSA card to buy sunscreen?",
    "How long should my 12-year-old sleep on school nights?",
    "Is it worth replacing the battery in a five-year-old laptop?",
    "What should I pack for a week of hiking in Scotland?",
    "Do I need a permit to build a backyard shed?",
    "How do I explain compound interest to my teenager?",
    "Why is my sourdough starter not rising?",
    "Should I get a flu shot if I already had the flu this year?",
    "How can I lower my electricity bill in the summer?",
    "What happens if I miss the deadline to appeal a parking ticket?",
    "How do I transfer photos from my iPhone to my Windows computer?",
    "I'm moving abroad, so what do I do with my car insurance?",
    "What are good questions to ask at a parent-teacher conference?",
    "How do I get a copy of my child's vaccination record?",
]

CONTRACTIONS = {"What's": "Whats", "I'm": "Im", "isn't": "isnt", "don't": "dont"}


def add_typo(s, rng):
    words = s.split(" ")
    cands = [i for i, w in enumerate(words) if w.rstrip("?,.!").isalpha() and len(w.rstrip("?,.!")) >= 5]
    idx = rng.choice(cands)
    core = words[idx].rstrip("?,.!")
    tail = words[idx][len(core):]
    positions = [i for i in range(1, len(core) - 2) if core[i] != core[i + 1]]
    i = rng.choice(positions)
    words[idx] = core[:i] + core[i + 1] + core[i] + core[i + 2:] + tail
    return " ".join(words)


def drop_contractions(s):
    return " ".join(CONTRACTIONS.get(w, w) for w in s.split(" "))


def casing_pairs(rng):
    transforms = [
        lambda s: s.lower().rstrip("?"),
        lambda s: add_typo(s, rng),
        lambda s: add_typo(s.lower(), rng),
        lambda s: add_typo(drop_contractions(s).rstrip("?").replace(",", ""), rng),
        lambda s: s.upper(),
        lambda s: lower_first(s).rstrip("?") + "??",
        lambda s: drop_contractions(s.lower()).replace("?", ""),
        lambda s: add_typo(s.rstrip("?"), rng),
    ]
    cores = list(CASING_CORES)
    rng.shuffle(cores)
    out = []
    for i, q in enumerate(cores):
        out.append((q, transforms[i % len(transforms)](q)))
    return out


# ---------------------------------------------------------------------------
# Selection
# ---------------------------------------------------------------------------

def word_count(s):
    return len(s.split())


def pick(rng, template_fns, count, seen, swap=True):
    """Round-robin over templates so that every template contributes."""
    pools = []
    for fn in template_fns:
        pool = list(fn())
        rng.shuffle(pool)
        pools.append(pool)
    chosen = []
    used_templates = set()
    while len(chosen) < count:
        progressed = False
        for ti, pool in enumerate(pools):
            if len(chosen) >= count:
                break
            while pool:
                a, b = pool.pop()
                if swap and rng.random() < 0.5:
                    a, b = b, a
                key = (a, b)
                if key in seen or (b, a) in seen or a == b:
                    continue
                seen.add(key)
                chosen.append((a, b))
                used_templates.add(ti)
                progressed = True
                break
        if not progressed:
            raise RuntimeError("ran out of candidate pairs")
    return chosen, used_templates


def build():
    rng = random.Random(SEED)
    seen = set()
    text_pairs = []
    near_specs = [
        ("person_or_perspective", PERSON_TEMPLATES),
        ("modality", MODALITY_TEMPLATES),
        ("step_or_sequence_order", STEP_TEMPLATES),
        ("quantity_or_count", QUANTITY_TEMPLATES),
    ]
    for cat, fns in near_specs:
        assert len(fns) >= 6, cat
        pairs, used = pick(rng, fns, NEAR_MISS_COUNTS[cat], seen)
        assert len(used) >= 6, (cat, len(used))
        for a, b in pairs:
            text_pairs.append({"category": cat, "stored": a, "query": b})

    positives = []
    pairs, _ = pick(rng, REWORD_TEMPLATES, POSITIVE_COUNTS["reworded_question"], seen)
    positives += [{"category": "reworded_question", "stored": a, "query": b} for a, b in pairs]

    pairs, _ = pick(rng, [lambda: polite_pairs(rng)], POSITIVE_COUNTS["polite_or_chatty_wrapper"], seen)
    positives += [{"category": "polite_or_chatty_wrapper", "stored": a, "query": b} for a, b in pairs]

    pairs, _ = pick(rng, SYNONYM_TEMPLATES, POSITIVE_COUNTS["synonym_swap"], seen)
    positives += [{"category": "synonym_swap", "stored": a, "query": b} for a, b in pairs]

    pairs, _ = pick(rng, WORD_ORDER_TEMPLATES, POSITIVE_COUNTS["word_order_change"], seen)
    positives += [{"category": "word_order_change", "stored": a, "query": b} for a, b in pairs]

    pairs, _ = pick(rng, [lambda: casing_pairs(rng)], POSITIVE_COUNTS["casing_punctuation_typo"], seen,
                    swap=False)
    positives += [{"category": "casing_punctuation_typo", "stored": a, "query": b} for a, b in pairs]

    # Checks.
    for cat, n in NEAR_MISS_COUNTS.items():
        assert sum(1 for p in text_pairs if p["category"] == cat) == n, cat
    for cat, n in POSITIVE_COUNTS.items():
        assert sum(1 for p in positives if p["category"] == cat) == n, cat
    assert len(text_pairs) == sum(NEAR_MISS_COUNTS.values())
    assert len(positives) == sum(POSITIVE_COUNTS.values())
    all_pairs = text_pairs + positives
    keys = set()
    for p in all_pairs:
        assert p["stored"] != p["query"], p
        assert p["stored"].strip().lower() != p["query"].strip().lower() or \
            p["category"] == "casing_punctuation_typo", p
        key = (p["stored"], p["query"])
        assert key not in keys, p
        assert (p["query"], p["stored"]) not in keys, p
        keys.add(key)
        for s in (p["stored"], p["query"]):
            assert 6 <= word_count(s) <= 45, s

    description = (
        "Held-out set v17 for a semantic prompt cache, written blind to the cache's code, tests and "
        "earlier sets. text_pairs are 160 near-miss pairs whose query shares most wording with the "
        "stored prompt but needs a different answer, concentrating on four hard kinds (40 each): "
        "person_or_perspective (who the question is about or who does what to whom), modality "
        "(can/should/must/need to/legal/safe/possible/worth it), step_or_sequence_order (order of "
        "steps, events or operations) and quantity_or_count (counts, amounts, frequencies, fractions, "
        "singular vs plural). positives are 80 true paraphrase pairs (reworded questions, polite "
        "wrappers, synonym swaps, word-order changes, casing/punctuation/typo variants) that keep the "
        "same persons, modality, order and quantities. Generated from templates and word lists with "
        "random.Random(171717)."
    )
    return {"description": description, "text_pairs": text_pairs, "positives": positives}


def main():
    data = build()
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "data")
    os.makedirs(out_dir, exist_ok=True)
    out_path = os.path.join(out_dir, "heldout_generated_v17.json")
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=True, indent=2)
        f.write("\n")
    with open(out_path, encoding="utf-8") as f:
        loaded = json.load(f)
    assert set(loaded) == {"description", "text_pairs", "positives"}
    print("wrote {} ({} near-miss pairs, {} positives)".format(
        out_path, len(loaded["text_pairs"]), len(loaded["positives"])))


if __name__ == "__main__":
    main()
