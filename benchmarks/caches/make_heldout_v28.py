#!/usr/bin/env python3
"""Generator for held-out semantic-prompt-cache evaluation set v28.

Written BLIND: the author did not read any other data set, test, code or
document of the project while writing this file; every template and word
list below was written from scratch for this set.

The set models everyday chat messages of one to four sentences (personal
life, family, friends, neighbours, work, school, money, travel, pets,
health, sport, small business) typed to an assistant, some tidy and some
informal (lowercase, missing final punctuation, "so", "basically", "tbh",
"idk").  It concentrates on the hardest near-misses: WHO did what to WHOM,
in WHAT ORDER, WHEN and HOW MANY.

Output: benchmarks/caches/data/heldout_generated_v28.json with keys
  description  one paragraph describing the set
  text_pairs   200 near-miss pairs (must NOT be served from cache),
               10 categories x 20:
                 who_does_what, person_perspective, order_of_events,
                 time_frame, quantity_or_scope, negation_in_context,
                 possession, relation_words, condition, amount_or_value
  positives    160 true paraphrase pairs (SHOULD be served from cache),
               8 categories x 20:
                 context_reordered, active_passive, pronoun_named,
                 informal_retelling, synonym_swap, question_reworded,
                 clause_moved, filler_and_greetings
Each entry is {"category", "stored", "query"}.  Every category has at
least six templates filled from small hand-written word lists (first
names, relatives, pets, cities, amounts, jobs, items).  Templates are used
round-robin; pairs are unique and stored != query.

Deterministic: standard library only, random.Random(282828).
Run from the repository root:  python3 benchmarks/caches/make_heldout_v28.py
"""

import json
import os
import random
import re

R = random.Random(282828)

OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "data", "heldout_generated_v28.json")

# ---------------------------------------------------------------- word lists
F_NAMES = ["Ana", "Maria", "Priya", "Sofia", "Chloe", "Emma", "Leila",
           "Hannah", "Mei", "Grace", "Nadia", "Olivia", "Zoe", "Fatima",
           "Julia", "Rosa", "Aisha", "Ingrid"]
M_NAMES = ["Tom", "Marco", "Raj", "Daniel", "Liam", "Omar", "Ben", "Lucas",
           "Kenji", "Sam", "Diego", "Felix", "Noah", "Ivan", "Jonas", "Hugo",
           "Kwame", "Pavel"]
F_REL = ["sister", "mum", "aunt", "grandma", "sister-in-law", "stepmum"]
M_REL = ["brother", "dad", "uncle", "grandpa", "brother-in-law", "stepdad"]
DOGS = [("Biscuit", "m"), ("Luna", "f"), ("Max", "m"), ("Bella", "f"),
        ("Rocky", "m"), ("Daisy", "f"), ("Milo", "m"), ("Pepper", "f")]
CATS = [("Mochi", "f"), ("Oscar", "m"), ("Cleo", "f"), ("Simba", "m"),
        ("Nala", "f"), ("Tigger", "m")]
CITIES = ["Berlin", "Madrid", "Lisbon", "Toronto", "Chicago", "Dublin",
          "Melbourne", "Osaka", "Austin", "Warsaw", "Lyon", "Denver",
          "Leeds", "Porto", "Seattle", "Glasgow"]
COUNTRIES = ["Germany", "Spain", "Portugal", "Canada", "Ireland",
             "the Netherlands", "Japan", "Mexico", "Poland", "Australia"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
        "Saturday", "Sunday"]
JOBS = ["nurse", "teacher", "software developer", "electrician",
        "accountant", "barista", "graphic designer", "paramedic", "chef",
        "sales rep"]
ITEMS = ["laptop", "bike", "camera", "guitar", "drill", "tent", "projector",
         "stand mixer"]
BIZ = ["bakery", "coffee shop", "dog-grooming business", "bike repair shop",
       "nail salon", "food truck", "florist", "print shop"]
PARTNERS = ["partner", "boyfriend", "girlfriend", "husband", "wife",
            "fiancé"]
SPORTS = ["football", "swimming", "tennis", "basketball", "hockey",
          "gymnastics"]
SUBJECTS = ["chemistry", "calculus", "statistics", "French", "accounting",
            "physics"]


# ---------------------------------------------------------------- helpers
def cap(s):
    return s[0].upper() + s[1:]


def person(label, g):
    return {"n": label, "g": g,
            "sub": "she" if g == "f" else "he",
            "obj": "her" if g == "f" else "him",
            "pos": "her" if g == "f" else "his"}


def a_name(g=None, exclude=()):
    g = g or R.choice("fm")
    pool = [n for n in (F_NAMES if g == "f" else M_NAMES) if n not in exclude]
    return person(R.choice(pool), g)


def two_names(diff_gender=False):
    if diff_gender:
        gs = R.choice([("f", "m"), ("m", "f")])
    else:
        gs = (R.choice("fm"), R.choice("fm"))
    a = a_name(gs[0])
    b = a_name(gs[1], exclude=(a["n"],))
    return a, b


def a_rel(g=None):
    g = g or R.choice("fm")
    return person("my " + R.choice(F_REL if g == "f" else M_REL), g)


def two_rels():
    gs = R.choice([("f", "m"), ("m", "f")])
    return a_rel(gs[0]), a_rel(gs[1])


def dog():
    n, g = R.choice(DOGS)
    return person(n, g)


def cat():
    n, g = R.choice(CATS)
    return person(n, g)


def art(word):
    """'a' or 'an' plus the word."""
    return ("an " if word[0].lower() in "aeiou" else "a ") + word


def money(lo, hi, step):
    return "${:,}".format(R.randrange(lo, hi + 1, step))


def two_cities():
    a, b = R.sample(CITIES, 2)
    return a, b


def _drop_apostrophes(s):
    for a, b in (("n't", "nt"), ("i'm", "im"), ("i've", "ive"),
                 ("it's", "its"), ("that's", "thats"), ("what's", "whats")):
        s = s.replace(a, b)
    return s


def style_pair(s, q):
    """Apply the SAME surface style to both sides of a pair."""
    x = R.random()
    if x < 0.45:
        return s, q
    if x < 0.65:
        return s.lower(), q.lower()
    prefix = R.choice(["so ", "basically ", "ok so ", "", "hey so ", "um "])
    drop = R.random() < 0.5

    def f(t):
        t = t.lower().rstrip("?.!")
        if drop:
            t = _drop_apostrophes(t)
        return prefix + t
    return f(s), f(q)


SEEN = set()
_PREFIX = re.compile(r"^(ok so|hey so|so|basically|um) ")


def norm(t):
    """Key used to reject pairs that differ only in surface style."""
    t = _PREFIX.sub("", t.lower())
    t = t.replace("'", "")
    t = re.sub(r"[^a-z0-9$ ]+", " ", t)
    return " ".join(t.split())


def build(category, templates, n=20, styled=True):
    out = []
    i = 0
    tries = 0
    while len(out) < n:
        tries += 1
        if tries > 5000:
            raise RuntimeError("could not fill " + category)
        t = templates[i % len(templates)]
        s, q = t()
        if styled:
            s, q = style_pair(s, q)
        key = (norm(s), norm(q))
        if s == q or key in SEEN or key[::-1] in SEEN:
            continue
        SEEN.add(key)
        out.append({"category": category, "stored": s, "query": q})
        i += 1
    return out


# ================================================================ NEAR-MISSES
def who_does_what():
    def t1():
        x, y = two_rels()
        amt = money(100, 900, 50)
        when = R.choice(["last month", "in March", "back in the spring",
                         "before Christmas", "two months ago"])

        def f(a, b):
            return (f"{cap(a['n'])} lent {b['n']} {amt} {when} and "
                    f"{b['sub']} still hasn't paid it back. How do I help "
                    f"them sort it out without taking sides?")
        return f(x, y), f(y, x)

    def t2():
        x, y = two_names()
        where = R.choice(["our weekly team meetings", "the morning stand-ups",
                          "client calls", "project reviews"])

        def f(a, b):
            return (f"{a['n']} keeps interrupting {b['n']} in {where}. "
                    f"I'm their manager, how should I handle it?")
        return f(x, y), f(y, x)

    def t3():
        boss = R.choice(["boss", "manager", "team lead", "supervisor"])
        p = person("", R.choice("fm"))
        topic = R.choice(["the mistake in the quarterly report",
                          "the budget cuts", "the missed deadline",
                          "the complaint from the client",
                          "the delay on the Henderson order"])
        s = (f"I told my {boss} about {topic}. {cap(p['sub'])} was upset. "
             f"How do I smooth things over?")
        q = (f"My {boss} told me about {topic}. I was upset. "
             f"How do I smooth things over?")
        return s, q

    def t4():
        x, y = two_names(diff_gender=True)
        task = R.choice(["redo the bathroom tiles",
                         "build a website for the bakery",
                         "paint the fence", "do the bookkeeping for the shop",
                         "cater the birthday party"])
        amt = money(200, 1500, 100)

        def f(a, b):
            return (f"{a['n']} hired {b['n']} to {task}. Now {b['sub']} "
                    f"wants {amt} upfront before starting. Is that normal?")
        return f(x, y), f(y, x)

    def t5():
        x, y = two_names()
        city = R.choice(CITIES)
        amt = money(60, 400, 10)

        def f(a, b):
            return (f"{a['n']} owes {b['n']} {amt} from our trip to {city} "
                    f"and {b['n']} keeps bringing it up in the group chat. "
                    f"How can I calm things down?")
        return f(x, y), f(y, x)

    def t6():
        x = a_name()
        when = R.choice(["late at night", "every morning", "during work",
                         "all weekend"])
        s = (f"{x['n']} keeps texting me {when} and I never reply. "
             f"Is that rude?")
        q = (f"I keep texting {x['n']} {when} and {x['sub']} never replies. "
             f"Is that rude?")
        return s, q

    def t7():
        x, y = two_names()

        def f(a, b):
            return (f"{a['n']} broke up with {b['n']} last week and now "
                    f"{b['n']} wants to come to my birthday party. "
                    f"{a['n']} is coming too. Should I let {b['n']} come?")
        return f(x, y), f(y, x)

    def t8():
        x, y = two_names()
        where = R.choice(["off the slide at the park", "in the school queue",
                          "at football practice", "at the swimming pool"])

        def f(a, b):
            return (f"{a['n']} pushed {b['n']} {where} today. {a['n']}'s "
                    f"mum is my best friend. What should I say to her?")
        return f(x, y), f(y, x)

    def t9():
        x = a_name()
        n = R.choice(["a week", "three days", "two weeks"])
        s = (f"I apologised to {x['n']} first. Then {x['sub']} ignored me "
             f"for {n}. Who should reach out now?")
        q = (f"{x['n']} apologised to me first. Then I ignored {x['obj']} "
             f"for {n}. Who should reach out now?")
        return s, q

    return build("who_does_what", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


def person_perspective():
    def t1():
        rm = R.choice(["roommate", "flatmate", "housemate"])
        pet = R.choice(["cat", "dog", "rabbit"])
        s = (f"My {rm}'s {pet} scratched me pretty badly last night. Should "
             f"we go to urgent care, and who should pay for it?")
        q = (f"My {pet} scratched my {rm} pretty badly last night. Should "
             f"we go to urgent care, and who should pay for it?")
        return s, q

    def t2():
        x = a_name()
        pw = R.choice(PARTNERS)
        app = R.choice(["a dating app", "Tinder", "Hinge", "Bumble"])
        s = (f"I saw my friend {x['n']}'s {pw} on {app} yesterday. "
             f"What's the right thing to do here?")
        q = (f"My friend {x['n']} saw my {pw} on {app} yesterday. "
             f"What's the right thing to do here?")
        return s, q

    def t3():
        pw = R.choice(PARTNERS)
        city = R.choice(CITIES)
        s = (f"I got a job offer in {city} but my {pw} doesn't want to move. "
             f"How do we decide?")
        q = (f"My {pw} got a job offer in {city} but I don't want to move. "
             f"How do we decide?")
        return s, q

    def t4():
        x = a_name()
        al = R.choice(["shellfish", "peanuts", "gluten", "dairy", "sesame"])
        day = R.choice(DAYS)
        s = (f"I'm allergic to {al} and my friend {x['n']} is hosting dinner "
             f"on {day}. How do I bring it up?")
        q = (f"My friend {x['n']} is allergic to {al} and I'm hosting dinner "
             f"on {day}. How do I bring it up?")
        return s, q

    def t5():
        a, b = R.choice([
            ("Our neighbours keep parking across our driveway",
             "We keep parking across our neighbours' driveway"),
            ("Our neighbours keep leaving their bins on our side of the fence",
             "We keep leaving our bins on our neighbours' side of the fence"),
            ("Our neighbours' tree keeps dropping leaves into our pool",
             "Our tree keeps dropping leaves into our neighbours' pool"),
            ("The kids next door keep kicking their ball into our garden",
             "Our kids keep kicking their ball into the garden next door"),
        ])
        tail = R.choice(["and it's causing tension on the street",
                         "and there's been a bit of shouting",
                         "and it's getting awkward"])
        return (f"{a} {tail}. How do we fix this?",
                f"{b} {tail}. How do we fix this?")

    def t6():
        r = a_rel()
        dur = R.choice(["a month", "two weeks", "the summer", "six weeks"])
        s = (f"{cap(r['n'])} wants to borrow my car for {dur} while "
             f"{r['sub']}'s between jobs. How should I handle it?")
        q = (f"I want to borrow {r['n']}'s car for {dur} while I'm between "
             f"jobs. How should I handle it?")
        return s, q

    def t7():
        x = a_name()
        team = R.choice(["on the same team", "in the same office",
                         "on the same shift", "in the same department"])
        s = (f"{x['n']} has a crush on me and we work {team}. "
             f"Should I say something?")
        q = (f"I have a crush on {x['n']} and we work {team}. "
             f"Should I say something?")
        return s, q

    def t8():
        x = a_name()
        s = (f"My coworker {x['n']} got the promotion I applied for. "
             f"How do I act around {x['obj']} now?")
        q = (f"I got the promotion my coworker {x['n']} applied for. "
             f"How do I act around {x['obj']} now?")
        return s, q

    def t9():
        who = R.choice(["sister", "cousin", "best friend", "sister-in-law"])
        n = R.choice([7, 8])
        city = R.choice(CITIES)
        s = (f"I'm {n} months pregnant and my {who} wants me to fly to "
             f"{city} for her wedding. Is that safe?")
        q = (f"My {who} is {n} months pregnant and wants to fly to {city} "
             f"for my wedding. Is that safe?")
        return s, q

    return build("person_perspective", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


def order_of_events():
    def t1():
        med = R.choice(["ibuprofen", "my antibiotics", "my iron tablet",
                        "my thyroid pill", "my metformin"])
        meal = R.choice(["a big breakfast", "lunch", "a bowl of cereal",
                         "dinner"])
        s = (f"I took {med} and then ate {meal} about twenty minutes later. "
             f"Is that okay?")
        q = (f"I ate {meal} and then took {med} about twenty minutes later. "
             f"Is that okay?")
        return s, q

    def t2():
        place = R.choice(["bank", "hospital", "warehouse", "call centre",
                          "agency"])
        co = R.choice(["a startup", "the council", "a rival firm",
                       "a logistics company"])
        s = (f"I quit my job at the {place} before I got the offer from {co}. "
             f"What should I tell them about my notice period?")
        q = (f"I got the offer from {co} before I quit my job at the {place}. "
             f"What should I tell them about my notice period?")
        return s, q

    def t3():
        n = R.choice(["two days", "a day", "three days"])
        s = (f"I got the flu shot and {n} later I came down with a fever. "
             f"Did the shot cause it?")
        q = (f"I came down with a fever and {n} later I got the flu shot. "
             f"Did the shot cause it?")
        return s, q

    def t4():
        d = dog()
        s = (f"My dog {d['n']} ate a chunk of dark chocolate and then threw "
             f"up. Do I still need to call the vet?")
        q = (f"My dog {d['n']} threw up and then ate a chunk of dark "
             f"chocolate. Do I still need to call the vet?")
        return s, q

    def t5():
        amt = money(400, 5000, 100)
        who = R.choice(["client", "customer", "café owner", "agency"])
        s = (f"I sent the invoice for {amt}. The {who} cancelled the project. "
             f"Do they still have to pay?")
        q = (f"The {who} cancelled the project. I sent the invoice for {amt}. "
             f"Do they still have to pay?")
        return s, q

    def t6():
        kid = a_name()
        rel = "son" if kid["g"] == "m" else "daughter"
        pet = R.choice(["cat", "puppy", "rabbit", "kitten"])
        s = (f"We adopted a {pet} and then found out my {rel} {kid['n']} is "
             f"allergic. What do we do?")
        q = (f"We found out my {rel} {kid['n']} is allergic and then adopted "
             f"a {pet}. What do we do?")
        return s, q

    def t7():
        x = a_name()
        city = R.choice(CITIES)
        s = (f"{x['n']} proposed right after I told {x['obj']} I was moving "
             f"to {city}. What does that mean?")
        q = (f"I told {x['n']} I was moving to {city} right after "
             f"{x['sub']} proposed. What does that mean?")
        return s, q

    def t8():
        amt = money(300, 2000, 50)
        s = (f"I moved {amt} into savings and then my rent payment bounced. "
             f"Is the transfer what caused it?")
        q = (f"My rent payment bounced and then I moved {amt} into savings. "
             f"Is the transfer what caused it?")
        return s, q

    def t9():
        city = R.choice(CITIES)
        ev = R.choice(["conference", "concert", "trade fair", "wedding"])
        s = (f"I booked a non-refundable hotel in {city} and then the {ev} "
             f"got cancelled. Can I get my money back?")
        q = (f"The {ev} got cancelled and then I booked a non-refundable "
             f"hotel in {city}. Can I get my money back?")
        return s, q

    return build("order_of_events", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


def time_frame():
    def t1():
        place = R.choice(["warehouse", "bank", "hospital", "call centre",
                          "factory", "agency"])
        s = (f"I was laid off from the {place} last week. What happens to my "
             f"health insurance?")
        q = (f"I'm getting laid off from the {place} next week. What happens "
             f"to my health insurance?")
        return s, q

    def t2():
        x = a_name()
        n = R.choice(["two", "three", "five"])
        r = R.choice(F_REL + M_REL)
        s = (f"{x['n']} and I have been dating for {n} years and I want to "
             f"invite {x['obj']} to my {r}'s wedding. Is that weird?")
        q = (f"{x['n']} and I dated {n} years ago and I want to invite "
             f"{x['obj']} to my {r}'s wedding. Is that weird?")
        return s, q

    def t3():
        age = R.choice([34, 41, 48, 55])
        what = R.choice(["smoke a pack a day", "smoke about ten a day",
                         "vape all day"])
        s = (f"I used to {what}. I'm {age} now. Is it safe for me to start "
             f"running?")
        q = (f"I still {what}. I'm {age} now. Is it safe for me to start "
             f"running?")
        return s, q

    def t4():
        n = R.choice(["two", "three", "four", "five"])
        kind = R.choice(["a dry cough", "a sore throat", "a blocked nose"])
        s = f"I've had {kind} for {n} days. Should I see a doctor?"
        q = f"I've had {kind} for {n} weeks. Should I see a doctor?"
        return s, q

    def t5():
        city = R.choice(CITIES)
        n = R.choice(["three", "five", "six"])
        s = (f"My passport expired last month and I fly to {city} in {n} "
             f"weeks. What should I do?")
        q = (f"My passport expires next month and I fly to {city} in {n} "
             f"weeks. What should I do?")
        return s, q

    def t6():
        amt = money(500, 6000, 250)
        b = R.choice(BIZ)
        s = (f"I run a {b}. My supplier's invoice for {amt} was due yesterday "
             f"and I can't pay it until Friday. What should I tell them?")
        q = (f"I run a {b}. My supplier's invoice for {amt} is due tomorrow "
             f"and I can't pay it until Friday. What should I tell them?")
        return s, q

    def t7():
        p = R.choice([dog(), cat()])
        op = R.choice(["surgery", "a dental clean under anaesthetic",
                       "an operation on " + p["pos"] + " leg"])
        s = (f"My pet {p['n']} had {op} yesterday. Can I feed "
             f"{p['obj']} tonight?")
        q = (f"My pet {p['n']} is having {op} tomorrow. Can I feed "
             f"{p['obj']} tonight?")
        return s, q

    def t8():
        x = a_name()
        s = (f"I used to work with {x['n']} at the {R.choice(BIZ)}. Can I "
             f"list {x['obj']} as a reference?")
        q = s.replace("I used to work", "I still work")
        return s, q

    return build("time_frame", [t1, t2, t3, t4, t5, t6, t7, t8])


def quantity_or_scope():
    def t1():
        pw = R.choice(["partner", "husband", "wife"])
        day = R.choice(DAYS)
        s = (f"Both of my kids have the flu and my {pw} is away until {day}. "
             f"How do I manage?")
        q = (f"One of my kids has the flu and my {pw} is away until {day}. "
             f"How do I manage?")
        return s, q

    def t2():
        ev = R.choice(["concert", "football match", "theme park",
                       "comedy show", "escape room"])
        amt = money(30, 120, 5)
        n = R.choice(["four", "five", "six"])
        s = (f"Tickets for the {ev} are {amt} each and there are {n} of us. "
             f"Is that a good deal?")
        q = (f"Tickets for the {ev} are {amt} in total and there are {n} of "
             f"us. Is that a good deal?")
        return s, q

    def t3():
        m = R.choice(MONTHS)
        d = R.choice([15, 20, 25, 28])
        s = (f"All of the invoices from {m} are still unpaid and payroll is "
             f"due on the {d}th. What should I do first?")
        q = (f"Some of the invoices from {m} are still unpaid and payroll is "
             f"due on the {d}th. What should I do first?")
        return s, q

    def t4():
        d = dog()
        w = R.choice([6, 9, 12, 25])
        s = (f"My dog {d['n']} ate the whole bar of dark chocolate. "
             f"{cap(d['sub'])} weighs about {w} kg. Should I call the vet?")
        q = (f"My dog {d['n']} ate one square of the dark chocolate bar. "
             f"{cap(d['sub'])} weighs about {w} kg. Should I call the vet?")
        return s, q

    def t5():
        x = a_name()
        s = (f"This year my boss gave a raise only to {x['n']}. Should I "
             f"bring it up at my review?")
        q = (f"This year my boss gave a raise to {x['n']} and to me. Should I "
             f"bring it up at my review?")
        return s, q

    def t6():
        task = R.choice(["paint their living room", "redo their garden",
                         "fix their website", "tile their bathroom"])
        amt = money(35, 90, 5)
        s = (f"A customer wants me to {task} and I quoted {amt} per hour. "
             f"Is that fair?")
        q = (f"A customer wants me to {task} and I quoted {amt} for the whole "
             f"job. Is that fair?")
        return s, q

    def t7():
        m = R.choice(MONTHS)
        s = (f"I missed one credit card payment in {m}. How badly does that "
             f"hurt my credit score?")
        q = (f"I missed three credit card payments since {m}. How badly does "
             f"that hurt my credit score?")
        return s, q

    def t8():
        ev = R.choice(["leaving drinks", "birthday lunch", "farewell dinner"])
        day = R.choice(DAYS)
        s = (f"None of my coworkers came to my {ev} on {day}. Should I still "
             f"send a thank-you message?")
        q = (f"All of my coworkers came to my {ev} on {day}. Should I still "
             f"send a thank-you message?")
        return s, q

    def t9():
        k = a_name()
        rel = "son" if k["g"] == "m" else "daughter"
        age = R.choice([8, 10, 12])
        s = (f"My {rel} {k['n']} is {age} and knocked out both of "
             f"{k['pos']} front teeth at {R.choice(SPORTS)}. What do I do?")
        q = s.replace("both of " + k["pos"] + " front teeth",
                      "one of " + k["pos"] + " front teeth")
        return s, q

    return build("quantity_or_scope", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


def negation_in_context():
    def t1():
        city = R.choice(CITIES)
        m = R.choice(MONTHS)
        amt = money(500, 2500, 100)
        s = (f"I moved out of my flat in {city} in {m}. My landlord didn't "
             f"return the {amt} deposit. Do I need to do anything else?")
        q = (f"I moved out of my flat in {city} in {m}. My landlord returned "
             f"the {amt} deposit. Do I need to do anything else?")
        return s, q

    def t2():
        x = a_name()
        pill = R.choice(["blood pressure pill", "antibiotic",
                         "sleeping tablet"])
        s = (f"I took my {pill} this morning and tonight is {x['n']}'s "
             f"birthday. Is one glass of wine okay?")
        q = (f"I didn't take my {pill} this morning and tonight is "
             f"{x['n']}'s birthday. Is one glass of wine okay?")
        return s, q

    def t3():
        x = a_name()
        thing = R.choice(["the refund", "the school trip", "the rota",
                          "the invoice", "the flat viewing"])
        s = (f"{x['n']} never replied to my email about {thing}. It's been "
             f"a week. Should I follow up?")
        q = (f"{x['n']} replied to my email about {thing}. It's been a week. "
             f"Should I follow up?")
        return s, q

    def t4():
        proj = R.choice(["kitchen refit", "logo redesign", "garden project",
                         "office move"])
        day = R.choice(["on Monday", "next week", "on the 1st", "tomorrow"])
        s = (f"The client signed the contract for the {proj}. Can I start "
             f"work {day}?")
        q = (f"The client hasn't signed the contract for the {proj}. Can I "
             f"start work {day}?")
        return s, q

    def t5():
        city = R.choice(CITIES)
        s = (f"My flight to {city} got cancelled. I have travel insurance. "
             f"What can I do?")
        q = (f"My flight to {city} got cancelled. I don't have travel "
             f"insurance. What can I do?")
        return s, q

    def t6():
        d = dog()
        s = (f"My puppy {d['n']} has had all {d['pos']} shots. Can I take "
             f"{d['obj']} to the dog park this weekend?")
        q = (f"My puppy {d['n']} hasn't had all {d['pos']} shots. Can I take "
             f"{d['obj']} to the dog park this weekend?")
        return s, q

    def t7():
        m = R.choice(MONTHS)
        n = R.choice([4, 6, 9, 12])
        s = (f"I've told my manager I'm leaving at the end of {m}. Can I "
             f"still use my remaining {n} vacation days?")
        q = (f"I haven't told my manager I'm leaving at the end of {m}. Can I "
             f"still use my remaining {n} vacation days?")
        return s, q

    def t8():
        k = a_name()
        rel = "son" if k["g"] == "m" else "daughter"
        sp = R.choice(SPORTS)
        s = (f"My {rel} {k['n']} made the {sp} team this year. How do I talk "
             f"to {k['obj']} about it?")
        q = (f"My {rel} {k['n']} didn't make the {sp} team this year. How do "
             f"I talk to {k['obj']} about it?")
        return s, q

    return build("negation_in_context", [t1, t2, t3, t4, t5, t6, t7, t8])


def possession():
    def t1():
        nb = R.choice(["neighbour", "friend", "brother", "coworker"])
        kid = R.choice(["kid", "son", "daughter"])
        part = R.choice(["hand", "arm", "leg"])
        s = (f"My dog bit my {nb}'s {kid} on the {part} yesterday. What "
             f"should I do now?")
        q = (f"My {nb}'s dog bit my {kid} on the {part} yesterday. What "
             f"should I do now?")
        return s, q

    def t2():
        r = R.choice(F_REL + M_REL + ["wife", "husband", "roommate"])
        place = R.choice(["supermarket", "gym", "school", "train station"])
        s = (f"I scratched my {r}'s car while parking at the {place}. Does "
             f"my insurance cover it?")
        q = (f"I scratched my car while parking at the {place}. Does my "
             f"insurance cover it?")
        return s, q

    def t3():
        x = a_name()
        it = R.choice(["laptop", "phone", "camera", "bike"])
        s = (f"{x['n']}'s {it} got stolen from my flat during the party. "
             f"Who's responsible?")
        q = (f"My {it} got stolen from {x['n']}'s flat during the party. "
             f"Who's responsible?")
        return s, q

    def t4():
        r = R.choice(["sister", "brother", "cousin", "best friend"])
        pw = R.choice(["boyfriend", "girlfriend", "fiancé"])
        m = R.choice(MONTHS)
        s = (f"My {r}'s {pw} is moving into my place in {m}. How do we split "
             f"the bills?")
        q = (f"My {pw} is moving into my {r}'s place in {m}. How do we split "
             f"the bills?")
        return s, q

    def t5():
        r = R.choice(["dad", "mum", "brother", "sister", "grandma"])
        s = (f"Since I lost my job I've been using my {r}'s credit card for "
             f"groceries. Could it hurt anyone's credit score?")
        q = (f"Since I lost my job I've been using my credit card for "
             f"groceries. Could it hurt anyone's credit score?")
        return s, q

    def t6():
        room = R.choice(["bathroom", "kitchen", "hallway"])
        s = (f"Our landlord's plumber flooded our {room}. Who pays for the "
             f"damage?")
        q = (f"Our plumber flooded our landlord's {room}. Who pays for the "
             f"damage?")
        return s, q

    def t7():
        x = a_name()
        pet = R.choice(["dog", "cat", "puppy"])
        s = (f"{x['n']}'s {pet} got into my kitchen and ate the cake for my "
             f"daughter's party. What should we do about the party?")
        q = (f"My {pet} got into {x['n']}'s kitchen and ate the cake for "
             f"{x['pos']} daughter's party. What should we do about the "
             f"party?")
        return s, q

    def t8():
        x = a_name()
        it = R.choice(ITEMS)
        amt = money(80, 600, 20)
        s = (f"I'm selling {x['n']}'s old {it} online for {amt}. Who should "
             f"the buyer pay?")
        q = (f"I'm selling my old {it} online for {amt}. Who should the "
             f"buyer pay?")
        return s, q

    return build("possession", [t1, t2, t3, t4, t5, t6, t7, t8])


def relation_words():
    def t1():
        a, b = R.sample(COUNTRIES, 2)
        m = R.choice(MONTHS)

        def f(x, y):
            return (f"I moved from {x} to {y} in {m} for work. Do I need a "
                    f"new driving licence?")
        return f(a, b), f(b, a)

    def t2():
        x = a_name()
        al = R.choice(["nuts", "eggs", "gluten", "dairy"])
        s = (f"I'm making {x['n']}'s birthday cake with {al}. {x['n']} has "
             f"{art(al.rstrip('s'))} allergy. Is that okay?")
        q = s.replace("cake with", "cake without")
        return s, q

    def t3():
        lo, hi = R.choice([("140/90", "above"), ("90/60", "below"),
                           ("135/85", "above"), ("100/65", "below")])
        other = "below" if hi == "above" else "above"
        s = (f"My blood pressure readings are usually {hi} {lo}. Should I be "
             f"worried?")
        q = (f"My blood pressure readings are usually {other} {lo}. Should I "
             f"be worried?")
        return s, q

    def t4():
        pw = R.choice(PARTNERS)
        city = R.choice(CITIES)
        s = (f"I earn more than my {pw} and we're moving in together in "
             f"{city}. How should we split the rent?")
        q = (f"I earn less than my {pw} and we're moving in together in "
             f"{city}. How should we split the rent?")
        return s, q

    def t5():
        amt = money(1000, 15000, 500)
        s = (f"I want to move {amt} from my savings to my checking account. "
             f"Will that change the interest I earn?")
        q = (f"I want to move {amt} from my checking to my savings account. "
             f"Will that change the interest I earn?")
        return s, q

    def t6():
        d = dog()
        s = (f"I feed {d['n']} right before {d['pos']} evening walk and "
             f"{d['sub']}'s been throwing up. Should I change anything?")
        q = (f"I feed {d['n']} right after {d['pos']} evening walk and "
             f"{d['sub']}'s been throwing up. Should I change anything?")
        return s, q

    def t7():
        thing = R.choice(["fence", "parking rule", "bike shed",
                          "playground", "security cameras"])
        s = (f"At the residents' meeting I voted for the new {thing} and most "
             f"of my neighbours voted against it. How do I keep things "
             f"friendly?")
        q = (f"At the residents' meeting I voted against the new {thing} and "
             f"most of my neighbours voted for it. How do I keep things "
             f"friendly?")
        return s, q

    def t8():
        pl = R.choice(["tomato plants", "basil", "lemon tree", "geraniums"])
        s = (f"It's going to be below freezing tonight. Should I bring my "
             f"{pl} inside?")
        q = (f"It's going to be above freezing tonight. Should I bring my "
             f"{pl} inside?")
        return s, q

    def t9():
        x = a_name()
        amt = money(100, 2000, 50)
        s = (f"I'm getting {amt} from my cousin {x['n']} through PayPal. "
             f"Do I have to pay tax on it?")
        q = (f"I'm sending {amt} to my cousin {x['n']} through PayPal. "
             f"Do I have to pay tax on it?")
        return s, q

    return build("relation_words", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


def condition():
    def t1():
        amt = money(25, 99, 1)
        n = R.choice([14, 30])
        k = R.choice([3, 5, 8, 10])
        s = (f"The gym charges a fee of {amt} if you cancel within {n} days. "
             f"I joined {k} days ago and want to cancel. Will I be charged?")
        q = (f"The gym charges a fee of {amt} unless you cancel within {n} "
             f"days. I joined {k} days ago and want to cancel. Will I be "
             f"charged?")
        return s, q

    def t2():
        d = dog()
        s = (f"Whenever my dog {d['n']} eats grass, {d['sub']} throws up. "
             f"Is that normal?")
        q = (f"Whenever my dog {d['n']} throws up, {d['sub']} eats grass. "
             f"Is that normal?")
        return s, q

    def t3():
        who = R.choice(["parents", "in-laws", "grandparents"])
        s = (f"If we get married, my {who} will help with the down payment. "
             f"Is that a healthy way to decide?")
        q = (f"If my {who} help with the down payment, we'll get married. "
             f"Is that a healthy way to decide?")
        return s, q

    def t4():
        city = R.choice(CITIES)
        s = (f"I'll take the job in {city} only if they pay for the move. "
             f"How do I tell the recruiter?")
        q = (f"I'll take the job in {city} even if they don't pay for the "
             f"move. How do I tell the recruiter?")
        return s, q

    def t5():
        x = a_name()
        n = R.choice(["three", "four", "five"])
        s = (f"{x['n']} can only come to the wedding if I drive. It's {n} "
             f"hours away. Is it rude to say no?")
        q = (f"I can only come to the wedding if {x['n']} drives. It's {n} "
             f"hours away. Is it rude to say no?")
        return s, q

    def t6():
        x = a_name()
        r = R.choice(["cousin", "brother", "sister", "aunt", "uncle"])
        ev = R.choice(["reunion", "barbecue", "christening", "Christmas dinner"])

        s = (f"If {x['n']} comes to the {ev}, my {r} won't go. How do I "
             f"handle the invitations?")
        q = (f"If my {r} comes to the {ev}, {x['n']} won't go. How do I "
             f"handle the invitations?")
        return s, q

    def t7():
        ev = R.choice(["garden party", "school fair", "barbecue",
                       "picnic"])
        day = R.choice(DAYS)
        s = (f"We cancel the {ev} if it rains, and it's forecast to rain on "
             f"{day}. What should I tell the guests?")
        q = (f"We move the {ev} indoors if it rains, and it's forecast to "
             f"rain on {day}. What should I tell the guests?")
        return s, q

    def t8():
        x = a_name("f")
        s = (f"Our babysitter {x['n']} said she'll stay late on Saturday only "
             f"if we pay her double. How should we reply?")
        q = (f"Our babysitter {x['n']} said she'll stay late on Saturday even "
             f"if we can't pay her extra. How should we reply?")
        return s, q

    return build("condition", [t1, t2, t3, t4, t5, t6, t7, t8])


def amount_or_value():
    def t1():
        k = a_name()
        rel = "son" if k["g"] == "m" else "daughter"
        a, b = R.choice([(4, 9), (5, 11), (3, 8), (4, 12)])
        f = (lambda age: f"My {rel} {k['n']} is {age} years old. "
             f"{cap(k['sub'])} still wets the bed most nights. Is that "
             f"normal?")
        return f(a), f(b)

    def t2():
        inc = R.choice([2800, 3200, 3600, 4100])
        city = R.choice(CITIES)
        lo = R.choice([800, 900, 1000])
        hi = lo + R.choice([900, 1100, 1300])
        f = (lambda rent: f"I take home ${inc:,} a month after tax. The flat "
             f"I like in {city} is ${rent:,} a month. Can I afford it?")
        return f(lo), f(hi)

    def t3():
        t0, m, a, b = R.choice([("5:00", 40, "6:50", "5:50"),
                                ("13:30", 55, "15:45", "14:35"),
                                ("7:15", 30, "9:30", "8:00"),
                                ("16:00", 45, "18:20", "17:05")])
        city = R.choice(CITIES)
        f = (lambda t1: f"My flight to {city} leaves at {t1}. I'm leaving "
             f"home at {t0} and the airport is {m} minutes away. Will I make "
             f"it?")
        return f(a), f(b)

    def t4():
        d = dog()
        w = R.choice([18, 22, 30])
        a, b = R.choice([(10, 150), (15, 200), (5, 120)])
        f = (lambda g: f"My dog {d['n']} weighs {w} kg. {cap(d['sub'])} "
             f"just ate {g} grams of dark chocolate. Should I call the vet?")
        return f(a), f(b)

    def t5():
        p = R.choice([8000, 15000, 25000])
        n = R.choice([3, 5])
        a, b = R.choice([(4.5, 11.9), (3.9, 8.5), (6, 14)])
        f = (lambda r: f"I'm borrowing ${p:,} at {r}% interest over {n} "
             f"years for a car. What will my monthly payment be?")
        return f(a), f(b)

    def t6():
        x = a_name()
        a, b = R.choice([(8, 30), (12, 40), (6, 25)])
        f = (lambda n: f"We're having {n} people over for {x['n']}'s "
             f"birthday. How many large pizzas should I order?")
        return f(a), f(b)

    def t7():
        age = R.choice([2, 4, 6])
        a, b = R.choice([(37.8, 40.3), (38.1, 40.6), (37.9, 40.1)])
        f = (lambda t: f"My daughter is {age} and her temperature is {t}°C. "
             f"Should I take her to A&E?")
        return f(a), f(b)

    def t8():
        date = R.choice(["31 August", "30 June", "15 March", "1 October"])
        a, b = R.choice([(30, 60), (14, 45), (28, 90)])
        f = (lambda n: f"Our lease ends on {date}. We have to give {n} days' "
             f"notice. What's the last day we can tell the landlord?")
        return f(a), f(b)

    def t9():
        n = R.choice([60, 80, 120])
        p1, p2 = R.choice([(2, 4), (3, 5), (1.5, 3.5)])
        c = int(n * (p1 + p2) / 2)
        f = (lambda p: f"I sold {n} cupcakes at ${p:.2f} each at the market. My "
             f"costs were ${c}. Did I make a profit?")
        return f(p1), f(p2)

    return build("amount_or_value", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


# ================================================================ POSITIVES
def context_reordered():
    def shuffled(facts, question):
        order = list(facts)
        s = " ".join(order) + " " + question
        while True:
            R.shuffle(order)
            if order != list(facts):
                break
        return s, " ".join(order) + " " + question

    def t1():
        return shuffled([f"I'm {R.choice([24, 29, 33, 38])}.",
                         f"I work as {art(R.choice(JOBS))} in "
                         f"{R.choice(CITIES)}.",
                         f"I earn about ${R.randrange(28, 90, 2)},000 a year.",
                         "I have no debt."],
                        "Should I open a retirement account now or wait?")

    def t2():
        d = dog()
        return shuffled([f"My dog {d['n']} is {R.choice([2, 4, 7])} years "
                         f"old.",
                         f"{d['n']} is a {R.choice(['beagle', 'border collie', 'pug', 'labrador'])}.",
                         "We live in a small apartment."],
                        f"How much exercise does {d['n']} need each day?")

    def t3():
        return shuffled([f"I run a small {R.choice(BIZ)} in "
                         f"{R.choice(CITIES)}.",
                         f"I have {R.choice([2, 3, 5, 8])} employees.",
                         f"Sales dropped {R.choice([10, 15, 20, 30])}% this "
                         f"quarter."],
                        "Where should I cut costs first?")

    def t4():
        a, b = two_cities()
        return shuffled([f"I'm flying to {a} on {R.choice(DAYS)}.",
                         f"I have a {R.choice([5, 7, 9])}-hour layover in "
                         f"{b}.",
                         "I only have a carry-on."],
                        "Can I leave the airport during the layover?")

    def t5():
        r = R.choice(["mum", "grandma", "aunt"])
        return shuffled([f"My {r} turns {R.choice([60, 65, 70, 80])} next "
                         f"month.",
                         f"My budget is {money(50, 300, 10)}.",
                         f"Gardening is my {r}'s favourite hobby."],
                        "What gift should I get her?")

    def t6():
        return shuffled([f"I'm {R.choice([27, 35, 42])} and work as "
                         f"{art(R.choice(JOBS))}.",
                         "I sleep about five hours a night.",
                         f"I drink {R.choice(['three', 'four', 'five'])} "
                         f"coffees a day."],
                        "Why am I so tired all the time?")

    def t7():
        k = a_name("f")
        return shuffled([f"My daughter {k['n']} is {R.choice([7, 9, 11])}.",
                         "Maths homework takes ages at our house.",
                         f"We have about {R.choice([20, 30, 45])} minutes "
                         f"free each evening."],
                        "How can I help her with maths?")

    def t8():
        return shuffled([f"I have {money(3000, 20000, 500)} in savings.",
                         f"My car loan is {money(4000, 15000, 500)} at "
                         f"{R.choice([5.9, 7.5, 9.2])}%.",
                         "My job is stable."],
                        "Should I pay off the car loan early?")

    return build("context_reordered", [t1, t2, t3, t4, t5, t6, t7, t8])


def active_passive():
    def t1():
        x = a_name()
        return (f"My neighbour {x['n']} hit my parked car this morning. What "
                f"details should I get from {x['obj']}?",
                f"My parked car was hit by my neighbour {x['n']} this "
                f"morning. What details should I get from {x['obj']}?")

    def t2():
        p = R.choice([dog(), cat()])
        return (f"The vet prescribed antibiotics for {p['n']}. How long until "
                f"they start working?",
                f"Antibiotics were prescribed for {p['n']} by the vet. How "
                f"long until they start working?")

    def t3():
        m = R.choice(MONTHS)
        return (f"My boss rejected my vacation request for {m}. Can I appeal?",
                f"My vacation request for {m} was rejected by my boss. Can I "
                f"appeal?")

    def t4():
        b = R.choice(BIZ)
        return (f"A customer left a one-star review on my {b}'s page. Should "
                f"I respond?",
                f"A one-star review was left on my {b}'s page by a customer. "
                f"Should I respond?")

    def t5():
        amt = money(50, 400, 25)
        city = R.choice(CITIES)
        return (f"My landlord raised my rent by {amt} a month. Is that legal "
                f"in {city}?",
                f"My rent was raised by {amt} a month by my landlord. Is that "
                f"legal in {city}?")

    def t6():
        k = a_name()
        rel = "son" if k["g"] == "m" else "daughter"
        n = R.choice(["two", "three", "five"])
        return (f"The school suspended my {rel} {k['n']} for {n} days. What "
                f"are my rights?",
                f"My {rel} {k['n']} was suspended by the school for {n} days. "
                f"What are my rights?")

    def t7():
        x = a_name()
        city = R.choice(CITIES)
        return (f"{x['n']} invited me to {x['pos']} wedding in {city}. Do I "
                f"have to bring a gift?",
                f"I was invited by {x['n']} to {x['pos']} wedding in {city}. "
                f"Do I have to bring a gift?")

    def t8():
        when = R.choice(["yesterday", "this morning", "on Friday"])
        return (f"My bank froze my account {when}. How do I get access back?",
                f"My account was frozen by my bank {when}. How do I get "
                f"access back?")

    def t9():
        x, y = two_names()
        return (f"{x['n']} trained {y['n']} on the new till system. Is one "
                f"session enough?",
                f"{y['n']} was trained on the new till system by {x['n']}. Is "
                f"one session enough?")

    return build("active_passive", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


def pronoun_named():
    def t1():
        x = a_name("f")
        r = R.choice(["sister", "cousin", "aunt"])
        amt = money(200, 2000, 100)
        base = (f"My {r} {x['n']} called me last night. {{}} wants to borrow "
                f"{amt}. Should I lend it?")
        return base.format("She"), base.format(x["n"])

    def t2():
        x = a_name()
        dept = R.choice(["accounting", "marketing", "IT", "sales"])
        base = (f"{x['n']} from {dept} keeps taking credit for my work. How "
                f"do I talk to {{}} about it?")
        return base.format(x["obj"]), base.format(x["n"])

    def t3():
        p = cat()
        n = R.choice([3, 9, 14, 16])
        base = (f"Our cat {p['n']} has stopped eating. {{}} is {n} years old. "
                f"Should I be worried?")
        return base.format(cap(p["sub"])), base.format(p["n"])

    def t4():
        x = a_name("m")
        sp = R.choice(SPORTS)
        n = R.choice(["two", "three", "four"])
        base = (f"My son {x['n']} wants to quit {sp}. He's been doing it for "
                f"{n} years. Should I let {{}}?")
        return base.format("him"), base.format(x["n"])

    def t5():
        x = a_name()
        it = R.choice(ITEMS)
        base = (f"I lent {x['n']} my {it} a month ago and {{}} still hasn't "
                f"given it back. How do I ask for it without being awkward?")
        return base.format(x["sub"]), base.format(x["n"])

    def t6():
        x = a_name()
        base = (f"My business partner {x['n']} wants to take a bigger salary "
                f"this year. {{}} says {x['sub']} works more hours. Is that "
                f"fair?")
        return base.format(cap(x["sub"])), base.format(x["n"])

    def t7():
        r, p = R.choice([("grandma", "her"), ("grandpa", "him"),
                         ("mum", "her"), ("dad", "him")])
        m = R.choice(MONTHS)
        return (f"My {r} is moving in with us in {m}. How do we make {p} feel "
                f"at home?",
                f"My {r} is moving in with us in {m}. How do we make my {r} "
                f"feel at home?")

    return build("pronoun_named", [t1, t2, t3, t4, t5, t6, t7])


def informal_retelling():
    def t1():
        x = a_name("f")
        amt = money(100, 1500, 50)
        f = (f"My sister {x['n']} borrowed {amt} from me three months ago and "
             f"has not paid it back. How should I raise the subject with her?")
        i = (f"so my sister {x['n']} borrowed {amt} from me 3 months ago and "
             f"still hasnt paid it back.. how do i bring it up with her")
        return (f, i) if R.random() < 0.5 else (i, f)

    def t2():
        tod = R.choice(["afternoon", "evening", "morning"])
        j = R.choice(JOBS)
        f = (f"I am {art(j)} and I have had a headache every {tod} for the past "
             f"week. Could it be caused by too much screen time?")
        i = (f"im {art(j)} and ive had a headache every {tod} this past week "
             f"tbh. could it be from too much screen time??")
        return (f, i) if R.random() < 0.5 else (i, f)

    def t3():
        city = R.choice(CITIES)
        f = (f"My landlord has not repaired the broken heating for two weeks. "
             f"What are my rights as a tenant in {city}?")
        i = (f"basically my landlord still hasnt fixed the heating, its been "
             f"broken 2 weeks. what are my rights as a tenant in {city}")
        return (f, i) if R.random() < 0.5 else (i, f)

    def t4():
        j = R.choice(JOBS)
        f = (f"I am thinking about leaving my job as {art(j)} to start my own "
             f"business. Is now a sensible time to do it?")
        i = (f"thinking of quitting my {j} job to start my own business.. idk "
             f"if now is a sensible time to do it?")
        return (f, i) if R.random() < 0.5 else (i, f)

    def t5():
        d = dog()
        f = (f"My dog {d['n']} barks at the postman every morning. How can I "
             f"get {d['obj']} to stop?")
        i = (f"ok so {d['n'].lower()} (my dog) barks at the postman every "
             f"single morning lol. how do i get {d['obj']} to stop")
        return (f, i) if R.random() < 0.5 else (i, f)

    def t6():
        amt = money(2000, 8000, 500)
        f = (f"I would like to ask my manager for a raise of {amt}. How should "
             f"I approach the conversation?")
        i = (f"wanna ask my manager for a {amt} raise. how should i go about "
             f"the conversation")
        return (f, i) if R.random() < 0.5 else (i, f)

    def t7():
        k = a_name("m")
        city = R.choice(CITIES)
        f = (f"My son {k['n']} has had trouble sleeping since we moved to "
             f"{city}. What can we do to help him?")
        i = (f"my son {k['n'].lower()} has trouble sleeping ever since we "
             f"moved to {city.lower()}... what can we do to help him")
        return (f, i) if R.random() < 0.5 else (i, f)

    def t8():
        city = R.choice(CITIES)
        f = (f"We are planning a weekend trip to {city} with two children "
             f"under five. Which neighbourhood should we stay in?")
        i = (f"planning a weekend in {city} w/ 2 kids under 5, which area "
             f"should we stay in?")
        return (f, i) if R.random() < 0.5 else (i, f)

    def t9():
        x = a_name()
        f = (f"My friend {x['n']} cancels our plans at the last minute every "
             f"time. Should I say something to {x['obj']}?")
        i = (f"ugh my friend {x['n']} cancels on me last minute EVERY time. "
             f"should i say something to {x['obj']}")
        return (f, i) if R.random() < 0.5 else (i, f)

    return build("informal_retelling",
                 [t1, t2, t3, t4, t5, t6, t7, t8, t9], styled=False)


def synonym_swap():
    def t1():
        amt = money(3000, 12000, 500)
        return (f"I want to buy a used car for under {amt}. What should I "
                f"check before I pay?",
                f"I want to purchase a second-hand car for less than {amt}. "
                f"What should I inspect before I pay?")

    def t2():
        x = a_name()
        return (f"My kid {x['n']} is scared of the dark. How can I help "
                f"{x['obj']}?",
                f"My child {x['n']} is afraid of the dark. How can I help "
                f"{x['obj']}?")

    def t3():
        city = R.choice(CITIES)
        return (f"Our apartment in {city} is always cold in winter. How can we "
                f"keep it warm cheaply?",
                f"Our flat in {city} is always chilly in winter. How can we "
                f"keep it warm without spending much?")

    def t4():
        b = R.choice(["bakery", "coffee shop", "florist", "food truck"])
        return (f"I'm starting a small {b} and need to pick a name. Any tips?",
                f"I'm launching a little {b} and need to choose a name. Any "
                f"advice?")

    def t5():
        x = a_name()
        return (f"My neighbour {x['n']} is really loud late at night. How do "
                f"I ask {x['obj']} to be quieter?",
                f"My neighbour {x['n']} is very noisy late at night. How do I "
                f"ask {x['obj']} to keep it down?")

    def t6():
        city = R.choice(CITIES)
        return (f"I'm feeling sick after eating seafood in {city}. When should "
                f"I see a doctor?",
                f"I feel ill after eating seafood in {city}. When should I go "
                f"to a doctor?")

    def t7():
        w = R.choice(["work", "the airport", "my mum's", "football practice"])
        return (f"I got a speeding ticket on the way to {w}. Should I fight "
                f"it?",
                f"I received a speeding fine on my way to {w}. Should I "
                f"contest it?")

    def t8():
        p = cat()
        return (f"My cat {p['n']} keeps throwing up after meals. Is that "
                f"normal?",
                f"My cat {p['n']} keeps vomiting after eating. Is that "
                f"typical?")

    def t9():
        r = R.choice(["mum", "dad", "grandma", "grandpa"])
        return (f"My {r} is retiring soon and wants a hobby. Any ideas?",
                f"My {r} is retiring shortly and would like a hobby. Any "
                f"suggestions?")

    return build("synonym_swap", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


def question_reworded():
    def pick(qs):
        a, b = R.sample(qs, 2)
        return a, b

    def t1():
        x = a_name()
        a, b = pick(["What should I do?", "How should I handle this?",
                     "What's the best way to deal with this?"])
        c = f"My coworker {x['n']} keeps eating my lunch from the office fridge."
        return f"{c} {a}", f"{c} {b}"

    def t2():
        it = R.choice(ITEMS)
        c = f"I paid {money(40, 600, 10)} for a {it} online and it arrived broken."
        a, b = pick(["Can I get my money back?",
                     "Is it possible to get a refund?",
                     "Am I able to get a refund for it?"])
        return f"{c} {a}", f"{c} {b}"

    def t3():
        n = R.choice([4, 5, 6, 7])
        c = f"My {n}-year-old still sleeps in our bed most nights."
        a, b = pick(["Is that normal?", "Is that typical at that age?",
                     "Is that common for a kid that age?"])
        return f"{c} {a}", f"{c} {b}"

    def t4():
        x = a_name()
        c = f"My friend {x['n']} always cancels plans at the last minute."
        o = x["obj"]
        a, b = pick([f"How do I bring it up with {o}?",
                     f"What's the best way to raise it with {o}?",
                     f"How should I mention it to {o}?"])
        return f"{c} {a}", f"{c} {b}"

    def t5():
        c = (f"I'm going to {R.choice(CITIES)} for {R.choice([3, 5, 10])} "
             f"days in {R.choice(MONTHS)}.")
        a, b = pick(["What should I pack?", "What do I need to pack?",
                     "What should I put in my suitcase?"])
        return f"{c} {a}", f"{c} {b}"

    def t6():
        c = f"I have {money(150, 900, 50)} left over each month after bills."
        a, b = pick(["What's the smartest thing to do with it?",
                     "How should I use it wisely?",
                     "What would be the best use of that money?"])
        return f"{c} {a}", f"{c} {b}"

    def t7():
        d = dog()
        c = f"My dog {d['n']} pulls on the lead during every walk."
        o = d["obj"]
        a, b = pick([f"How do I get {o} to stop?",
                     f"How can I train {o} out of it?",
                     f"How can I stop {o} doing that?"])
        return f"{c} {a}", f"{c} {b}"

    def t8():
        c = (f"My landlord wants to raise the rent by {money(50, 300, 25)} "
             f"next month.")
        a, b = pick(["Can I negotiate?", "Is there room to negotiate?",
                     "Is it possible to negotiate this?"])
        return f"{c} {a}", f"{c} {b}"

    return build("question_reworded", [t1, t2, t3, t4, t5, t6, t7, t8])


def clause_moved():
    def t1():
        day = R.choice(["Wednesday", "Thursday", "Friday"])
        return (f"After work I go to the gym for an hour, and I'm exhausted "
                f"by {day}. Am I overdoing it?",
                f"I go to the gym for an hour after work, and I'm exhausted "
                f"by {day}. Am I overdoing it?")

    def t2():
        x = a_name()
        day = R.choice(DAYS)
        return (f"If it rains on {day}, we'll move {x['n']}'s party indoors. "
                f"How do I let the guests know?",
                f"We'll move {x['n']}'s party indoors if it rains on {day}. "
                f"How do I let the guests know?")

    def t3():
        city = R.choice(CITIES)
        pet = R.choice(["cat", "dog", "rabbit", "fish", "hamster"])
        return (f"Before I leave for {city}, I need to find someone to feed my "
                f"{pet}. What are my options?",
                f"I need to find someone to feed my {pet} before I leave for "
                f"{city}. What are my options?")

    def t4():
        r = a_rel()
        return (f"When {r['n']} visits, {r['sub']} always rearranges my "
                f"kitchen. How do I ask {r['obj']} to stop?",
                f"{cap(r['n'])} always rearranges my kitchen when "
                f"{r['sub']} visits. How do I ask {r['obj']} to stop?")

    def t5():
        day = R.choice(DAYS)
        return (f"Unless the client pays by {day}, I'll pause the project. How "
                f"do I word the email?",
                f"I'll pause the project unless the client pays by {day}. How "
                f"do I word the email?")

    def t6():
        k = a_name("f")
        return (f"Every morning before school, my daughter {k['n']} refuses "
                f"to eat breakfast. What can I try?",
                f"My daughter {k['n']} refuses to eat breakfast every morning "
                f"before school. What can I try?")

    def t7():
        city = R.choice(CITIES)
        return (f"Since I started the new job in {city}, I've been sleeping "
                f"badly. Any tips?",
                f"I've been sleeping badly since I started the new job in "
                f"{city}. Any tips?")

    def t8():
        amt = money(40, 250, 10)
        return (f"Although I paid the {amt} fee, the school still hasn't sent "
                f"the uniform. Who do I contact?",
                f"The school still hasn't sent the uniform, although I paid "
                f"the {amt} fee. Who do I contact?")

    def t9():
        amt = money(30, 200, 10)
        return (f"If a customer spends over {amt}, I give them free delivery. "
                f"Should I put that on my website?",
                f"I give customers free delivery if they spend over {amt}. "
                f"Should I put that on my website?")

    return build("clause_moved", [t1, t2, t3, t4, t5, t6, t7, t8, t9])


def filler_and_greetings():
    PRE = ["Hi!", "Hey there,", "Hello,", "Quick question:",
           "Hi, hope you're well.", "hey so", "Good morning!",
           "Sorry if this is a silly question, but"]
    POST = ["Thanks!", "Thanks in advance.", "Any help appreciated :)",
            "Sorry for the long message.", "Cheers.", "thx"]

    def wrap(core, pre, post):
        s = core
        if pre:
            is_i = core.startswith(("I ", "I'"))
            if pre.endswith(("so", "but")) or (pre.endswith(",")
                                                and not is_i):
                s = pre + " " + core[0].lower() + core[1:]
            else:
                s = pre + " " + core
        if post:
            s = s + " " + post
        return s

    def variants(core):
        opts = [(None, None)] + [(p, None) for p in PRE] + \
               [(None, p) for p in POST] + \
               [(a, b) for a in PRE for b in POST]
        while True:
            a, b = R.sample(opts, 2)
            if a != b:
                break
        return wrap(core, *a), wrap(core, *b)

    def t1():
        r = a_rel()
        n = R.choice(["three", "five", "ten"])
        return variants(f"{cap(r['n'])} is coming to stay for {n} days and "
                        f"{r['sub']}'s vegetarian. What easy dinners can I "
                        f"make?")

    def t2():
        return variants(f"I run a small {R.choice(BIZ)} and a supplier just "
                        f"raised prices by {R.choice([5, 8, 12, 15])}%. Should "
                        f"I raise my prices too?")

    def t3():
        p = cat()
        return variants(f"My cat {p['n']} has started peeing outside the "
                        f"litter box. Why might that be?")

    def t4():
        dist = R.choice(["5k", "10k", "half-marathon"])
        return variants(f"I'm training for a {dist} in {R.choice(MONTHS)}. "
                        f"How many days a week should I run?")

    def t5():
        x = a_name()
        return variants(f"My friend {x['n']} forgot my birthday again. Should "
                        f"I say something?")

    def t6():
        return variants(f"I have a {money(800, 6000, 100)} credit card "
                        f"balance. Should I pay it off before I start "
                        f"saving?")

    def t7():
        a, b = R.choice([("Lisbon", "Porto"), ("Madrid", "Lisbon"),
                         ("Berlin", "Warsaw"), ("Lyon", "Madrid"),
                         ("Chicago", "Denver"), ("Austin", "Denver"),
                         ("Toronto", "Chicago"), ("Leeds", "Glasgow"),
                         ("Seattle", "Denver")])
        if R.random() < 0.5:
            a, b = b, a
        n = R.choice(["two", "three"])
        return variants(f"We're driving from {a} to {b} with {n} kids. Where's "
                        f"a good place to stop on the way?")

    return build("filler_and_greetings", [t1, t2, t3, t4, t5, t6, t7],
                 styled=False)


DESCRIPTION = (
    "Held-out evaluation set v28 for a semantic prompt cache, written blind "
    "and generated deterministically (random.Random(282828), standard "
    "library only) by benchmarks/caches/make_heldout_v28.py. It models "
    "everyday chat messages of one to four sentences about personal life, "
    "family, friends, neighbours, work, school, money, travel, pets, health, "
    "sport and small business, typed both tidily and informally (lowercase, "
    "missing punctuation, 'so', 'basically', 'tbh', 'idk'), with first "
    "names, relatives, pets, places and amounts. text_pairs holds 200 "
    "near-miss pairs (10 categories x 20: who_does_what, person_perspective, "
    "order_of_events, time_frame, quantity_or_scope, negation_in_context, "
    "possession, relation_words, condition, amount_or_value) whose stored "
    "and query prompts share almost all words but need different answers, "
    "concentrating on who did what to whom, in what order, when and how "
    "many; a cache must not serve one for the other. positives holds 160 "
    "true paraphrase pairs (8 categories x 20: context_reordered, "
    "active_passive, pronoun_named, informal_retelling, synonym_swap, "
    "question_reworded, clause_moved, filler_and_greetings) that keep every "
    "person, role, order, time, number, possession and condition, so a "
    "cache should serve the stored answer."
)


def main():
    text_pairs = []
    for fn in (who_does_what, person_perspective, order_of_events,
               time_frame, quantity_or_scope, negation_in_context,
               possession, relation_words, condition, amount_or_value):
        text_pairs.extend(fn())
    positives = []
    for fn in (context_reordered, active_passive, pronoun_named,
               informal_retelling, synonym_swap, question_reworded,
               clause_moved, filler_and_greetings):
        positives.extend(fn())
    assert len(text_pairs) == 200, len(text_pairs)
    assert len(positives) == 160, len(positives)
    data = {"description": DESCRIPTION, "text_pairs": text_pairs,
            "positives": positives}
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print(f"wrote {OUT_PATH}: {len(text_pairs)} text_pairs, "
          f"{len(positives)} positives")


if __name__ == "__main__":
    main()
