"""Held-out evaluation set v19 for a semantic prompt cache.

A semantic prompt cache answers a new chat prompt with the stored answer of an
earlier prompt when the two mean the same thing.  This script generates two
kinds of (stored, query) prompt pairs:

* NEAR-MISSES ("text_pairs", 180 pairs): the query shares most of its wording
  with the stored prompt (usually one to four words differ, or a few words
  change places), but a careful human would answer the two differently, so
  serving the stored answer would be a false hit.  Categories:
    - order_of_events (60): the order or timing relation of events, steps or
      actions changes (A before B vs B before A, before/after/during, since vs
      until, once vs before, start with vs end with, three-step sequences with
      two steps swapped, operations in code, math, recipes, travel, finance...).
    - modality (60): the modal meaning changes (ability vs permission vs
      obligation vs advice vs possibility vs probability vs prediction:
      can/should/must/may/might/will, is it legal/safe/wise/necessary...).
    - tense_or_time_frame (30): past vs present vs future, originally vs
      currently, last year vs next year, has ever vs will ever.
    - condition_or_exception (30): if vs unless, with vs without, except vs
      including, only vs also, at least vs at most, always vs sometimes,
      worst case vs average case.

* POSITIVES ("positives", 100 pairs): true paraphrases a careful human would
  answer identically.  Categories:
    - reworded_question (25), polite_or_chatty_wrapper (20), synonym_swap (20),
      order_words_kept (20): paraphrases of prompts containing order or modal
      words where the order relation and the modality are preserved,
      casing_punctuation_typo (15).

Pairs are produced from templates and word lists written in this file, filled
with random.Random(191919); the output is deterministic (byte-identical across
runs).  The set was written blind: its author did not look at any other data
set, test, or cache implementation in the repository.

Usage: python3 make_heldout_v19.py  -> writes data/heldout_generated_v19.json
next to this script.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import json
import os
import random

SEED = 191919
rng = random.Random(SEED)

NEAR_MISS_COUNTS = [
    ("order_of_events", 60),
    ("modality", 60),
    ("tense_or_time_frame", 30),
    ("condition_or_exception", 30),
]
POSITIVE_COUNTS = [
    ("reworded_question", 25),
    ("polite_or_chatty_wrapper", 20),
    ("synonym_swap", 20),
    ("order_words_kept", 20),
    ("casing_punctuation_typo", 15),
]

TEMPLATES = {name: [] for name, _ in NEAR_MISS_COUNTS + POSITIVE_COUNTS}


def tpl(category):
    def deco(fn):
        TEMPLATES[category].append(fn)
        return fn
    return deco


def cap(s):
    return s[:1].upper() + s[1:]


def two(r, items):
    """Two distinct items in random order."""
    a, b = r.sample(items, 2)
    return a, b


def maybe_flip(r, a, b):
    return (b, a) if r.random() < 0.5 else (a, b)


# ---------------------------------------------------------------------------
# Shared word lists
# ---------------------------------------------------------------------------

HIST_EVENTS = [
    "the fall of the Berlin Wall",
    "the first Moon landing",
    "the signing of the Magna Carta",
    "the storming of the Bastille",
    "the American Civil War",
    "the invention of the printing press",
    "the sinking of the Titanic",
    "the first FIFA World Cup",
    "the Battle of Waterloo",
    "the founding of the United Nations",
    "the Chernobyl disaster",
    "the launch of Sputnik",
    "the Russian Revolution",
    "the signing of the Declaration of Independence",
    "the end of apartheid in South Africa",
    "the breakup of the Soviet Union",
    "the opening of the Suez Canal",
    "the Wright brothers' first flight",
    "the Boston Tea Party",
    "the unification of Italy",
    "the Meiji Restoration",
    "the Cuban Missile Crisis",
    "the construction of the Eiffel Tower",
    "the partition of India",
    "the abolition of slavery in the British Empire",
    "the laying of the first transatlantic telegraph cable",
]

PEOPLE = [
    "Mozart", "Beethoven", "Napoleon", "Abraham Lincoln", "Charles Darwin",
    "Isaac Newton", "Galileo", "Shakespeare", "Leonardo da Vinci",
    "Queen Victoria", "Marie Curie", "Albert Einstein", "Jane Austen",
    "Benjamin Franklin", "Johann Sebastian Bach", "Michelangelo",
    "George Washington", "Karl Marx", "Nikola Tesla", "Thomas Edison",
    "Frederick Douglass", "Catherine the Great", "Chopin", "Rembrandt",
]

# ---------------------------------------------------------------------------
# NEAR-MISS: order_of_events
# ---------------------------------------------------------------------------
OE = "order_of_events"


@tpl(OE)
def oe_history_before(r):
    a, b = two(r, HIST_EVENTS)
    lead = r.choice(["", "Quick history question: ", "I'm settling an argument with a friend. ",
                     "For my history homework: "])
    return (lead + "Did %s happen before %s?" % (a, b),
            lead + "Did %s happen before %s?" % (b, a))


@tpl(OE)
def oe_history_by_the_time(r):
    a, b = two(r, HIST_EVENTS)
    tail = r.choice(["", " I always mix up the dates.", " Just a yes or no is fine."])
    return ("Had %s already happened by the time of %s?%s" % (a, b, tail),
            "Had %s already happened by the time of %s?%s" % (b, a, tail))


@tpl(OE)
def oe_born_before(r):
    a, b = two(r, PEOPLE)
    lead = r.choice(["", "Random trivia question: ", "My kid asked me this and I have no idea. "])
    word = r.choice(["before", "earlier than"])
    return (lead + "Was %s born %s %s?" % (a, word, b),
            lead + "Was %s born %s %s?" % (b, word, a))


@tpl(OE)
def oe_died_before_born(r):
    a, b = two(r, PEOPLE)
    return ("Did %s die before %s was born?" % (a, b),
            "Did %s die before %s was born?" % (b, a))


SERIES = [
    ("the Star Wars timeline", "Rogue One", "A New Hope"),
    ("the Star Wars timeline", "The Phantom Menace", "Attack of the Clones"),
    ("the Harry Potter books", "Chamber of Secrets", "Prisoner of Azkaban"),
    ("the Marvel Cinematic Universe timeline", "Captain America: The First Avenger", "Iron Man"),
    ("Tolkien's Middle-earth chronology", "The Hobbit", "The Fellowship of the Ring"),
    ("the Mad Max timeline", "Furiosa", "Fury Road"),
    ("the Godfather saga", "The Godfather Part II", "The Godfather Part III"),
]


@tpl(OE)
def oe_precede_follow(r):
    series, x, y = r.choice(SERIES)
    x, y = maybe_flip(r, x, y)
    tail = r.choice(["", " I want to watch them in story order.", " Planning a marathon this weekend."])
    return ("In %s, does %s precede %s?%s" % (series, x, y, tail),
            "In %s, does %s follow %s?%s" % (series, x, y, tail))


MEDS_FOOD = ["ibuprofen", "naproxen", "metformin", "levothyroxine", "omeprazole",
             "iron tablets", "aspirin", "prednisone", "amoxicillin"]


@tpl(OE)
def oe_med_food(r):
    m = r.choice(MEDS_FOOD)
    meal = r.choice(["eating", "a meal", "breakfast"])
    lead = r.choice(["", "My stomach is pretty sensitive. ", "The pharmacy label got smudged. "])
    return (lead + "Is it okay to take %s before %s?" % (m, meal),
            lead + "Is it okay to take %s after %s?" % (m, meal))


GIT_PAIRS = [
    ("git stash", "git pull"),
    ("git add .", "git commit -m 'wip'"),
    ("git fetch", "git reset --hard origin/main"),
    ("git pull", "git stash pop"),
    ("git checkout main", "git merge feature"),
    ("git commit --amend", "git push"),
    ("git rebase main", "git push --force-with-lease"),
]


@tpl(OE)
def oe_git(r):
    a, b = r.choice(GIT_PAIRS)
    lead = r.choice(["", "I'm pretty new to git. ", "I have some local changes on my branch. "])
    return (lead + "What happens if I run `%s` and then `%s`?" % (a, b),
            lead + "What happens if I run `%s` and then `%s`?" % (b, a))


@tpl(OE)
def oe_arith(r):
    n = r.randint(3, 19)
    a = r.randint(2, 9)
    k = r.randint(2, 5)
    ops = [("add %d" % a, "multiply by %d" % k),
           ("add %d" % a, "square it"),
           ("subtract %d" % a, "double it"),
           ("add %d" % a, "triple it")]
    p, q = r.choice(ops)
    lead = r.choice(["", "Mental math check: ", "My son's worksheet says: "])
    end = r.choice(["What number do I end up with?", "What's the result?"])
    return (lead + "Start with %d, %s, then %s. %s" % (n, p, q, end),
            lead + "Start with %d, %s, then %s. %s" % (n, q, p, end))


DISH_ORDER = [
    ("a roux", "the flour", "the butter"),
    ("risotto", "the wine", "the stock"),
    ("a vinaigrette", "the oil", "the vinegar"),
    ("a cake batter", "the eggs", "the flour"),
    ("bread dough", "the salt", "the yeast"),
    ("hollandaise", "the melted butter", "the egg yolks"),
    ("a stir-fry", "the soy sauce", "the vegetables"),
]


@tpl(OE)
def oe_recipe(r):
    dish, x, y = r.choice(DISH_ORDER)
    x, y = maybe_flip(r, x, y)
    return ("When making %s, do I add %s before %s?" % (dish, x, y),
            "When making %s, do I add %s before %s?" % (dish, y, x))


STAINS = ["red wine", "grass", "blood", "grease", "coffee", "ink", "tomato sauce", "chocolate"]


@tpl(OE)
def oe_stain(r):
    s = r.choice(STAINS)
    garment = r.choice(["shirt", "pair of jeans", "tablecloth"])
    lead = r.choice(["", "Laundry question. ", "Doing a load of washing tonight. "])
    return (lead + "Should I treat a %s stain before the %s goes in the dryer?" % (s, garment),
            lead + "Should I treat a %s stain after the %s goes in the dryer?" % (s, garment))


@tpl(OE)
def oe_credit_card(r):
    bal = r.choice(["balance", "bill"])
    lead = r.choice(["", "My utilization is around 40%. ",
                     "I'm trying to boost my score before applying for a mortgage. "])
    goal = r.choice(["help my credit score", "lower the utilization the bureaus see"])
    return (lead + "If I pay my credit card %s before the statement closing date, does it %s?" % (bal, goal),
            lead + "If I pay my credit card %s after the statement closing date, does it %s?" % (bal, goal))


COUNTRY_EVENTS = [
    ("Germany", "reunification"), ("Russia", "the 1917 revolution"),
    ("Ireland", "the Great Famine"), ("India", "independence"),
    ("the United States", "the Civil War"), ("Japan", "the Meiji Restoration"),
    ("France", "the Revolution"), ("South Africa", "the end of apartheid"),
    ("Spain", "Franco's death"), ("Poland", "the fall of communism"),
]


@tpl(OE)
def oe_country_life(r):
    c, e = r.choice(COUNTRY_EVENTS)
    frame = r.choice(["What was daily life like in %s in the years %s %s?",
                      "How was the economy of %s doing in the decade %s %s?"])
    return (frame % (c, "before", e), frame % (c, "after", e))


COMPETITIONS = [
    ("a triathlon", "the bike leg", "the run"),
    ("a triathlon", "the swim", "the bike leg"),
    ("a decathlon", "the 400 meters", "the 1500 meters"),
    ("a figure skating competition", "the short program", "the free skate"),
    ("a traditional church wedding", "the exchange of vows", "the exchange of rings"),
    ("an Olympic opening ceremony", "the parade of nations", "the lighting of the cauldron"),
]


@tpl(OE)
def oe_competition(r):
    ev, x, y = r.choice(COMPETITIONS)
    x, y = maybe_flip(r, x, y)
    return ("In %s, does %s come before %s?" % (ev, x, y),
            "In %s, does %s come before %s?" % (ev, y, x))


WORKOUTS = ["long run", "heavy leg day", "morning swim", "half marathon", "HIIT class",
            "two-hour bike ride", "big climbing session"]


@tpl(OE)
def oe_eat_workout(r):
    w = r.choice(WORKOUTS)
    lead = r.choice(["", "I'm trying to get more serious about training. ",
                     "I always feel drained lately. "])
    return (lead + "What should I eat before a %s?" % w,
            lead + "What should I eat after a %s?" % w)


PROCEDURES = [
    ("drink alcohol", "donating blood"),
    ("go swimming", "getting a tattoo"),
    ("drive", "having my pupils dilated at the eye doctor"),
    ("eat", "getting a dental filling"),
    ("drink coffee", "a fasting blood test"),
    ("take a hot bath", "getting a spray tan"),
    ("fly", "scuba diving"),
]


@tpl(OE)
def oe_right_before_after(r):
    x, y = r.choice(PROCEDURES)
    return ("Can I %s right before %s?" % (x, y),
            "Can I %s right after %s?" % (x, y))


SKINCARE = [("sunscreen", "moisturizer"), ("serum", "moisturizer"), ("toner", "serum"),
            ("vitamin C serum", "sunscreen"), ("primer", "foundation"), ("eye cream", "face oil")]


@tpl(OE)
def oe_skincare(r):
    a, b = r.choice(SKINCARE)
    a, b = maybe_flip(r, a, b)
    lead = r.choice(["", "I'm building a simple skincare routine. ", "Morning routine question. "])
    return (lead + "Should I apply %s first and then %s?" % (a, b),
            lead + "Should I apply %s first and then %s?" % (b, a))


HOME_PROJECTS = [
    ("painting a wall", "prime", "sand"),
    ("refinishing a wooden table", "stain", "sand"),
    ("tiling a bathroom floor", "grout", "seal the tiles"),
    ("installing a ceiling fan", "turn off the breaker", "remove the old fixture"),
    ("replacing a toilet", "shut off the water supply", "disconnect the tank"),
]


@tpl(OE)
def oe_home(r):
    p, a, b = r.choice(HOME_PROJECTS)
    a, b = maybe_flip(r, a, b)
    return ("When %s, do I %s before I %s?" % (p, a, b),
            "When %s, do I %s before I %s?" % (p, b, a))


TECH_ORDER = [
    ("JavaScript", "the finally block", "the catch block"),
    ("SQL", "the WHERE clause", "GROUP BY"),
    ("SQL", "HAVING", "GROUP BY"),
    ("SQL", "ORDER BY", "the SELECT list"),
    ("Python's unittest", "setUp()", "each test method"),
    ("Java", "a static initializer block", "the constructor"),
    ("React", "a useEffect callback", "the component's first render"),
]


@tpl(OE)
def oe_tech(r):
    t, a, b = r.choice(TECH_ORDER)
    a, b = maybe_flip(r, a, b)
    return ("In %s, does %s get executed before %s?" % (t, a, b),
            "In %s, does %s get executed before %s?" % (t, b, a))


AFTER_PAIRS = [
    ("cancel my old phone plan", "port my number to the new carrier"),
    ("quit my job", "apply for a mortgage"),
    ("delete my Facebook account", "download a copy of my data"),
    ("wipe my old laptop", "back up my photos"),
    ("format the SD card", "copy the pictures off it"),
    ("book my flights", "apply for the visa"),
    ("sign the lease", "see the apartment in person"),
]


@tpl(OE)
def oe_after_i_can_i(r):
    a, b = r.choice(AFTER_PAIRS)
    lead = r.choice(["", "Trying to plan this properly. ", "Sorry if this is obvious. "])
    return (lead + "After I %s, can I %s?" % (a, b),
            lead + "After I %s, can I %s?" % (b, a))


SYMPTOMS = ["exhausted", "dizzy", "anxious", "nauseous", "foggy-headed"]
MEDS_START = ["sertraline", "a new birth control pill", "a blood pressure pill", "vitamin D",
              "metformin", "a statin"]


@tpl(OE)
def oe_since_until(r):
    s = r.choice(SYMPTOMS)
    m = r.choice(MEDS_START)
    end = r.choice(["Is the medication responsible?", "Could the medication be the reason?"])
    return ("I've been %s ever since I started taking %s. %s" % (s, m, end),
            "I was %s right up until I started taking %s. %s" % (s, m, end))


@tpl(OE)
def oe_once_boil(r):
    x = r.choice(["the pasta", "the salt", "the eggs for hard-boiled eggs", "the potatoes",
                  "the rice", "the dumplings"])
    lead = r.choice(["", "Cooking for the first time here. ", "Dumb kitchen question. "])
    return (lead + "Once the water boils, should I add %s?" % x,
            lead + "Before the water boils, should I add %s?" % x)


SUPPLEMENTS = ["fish oil", "aspirin", "ginkgo", "vitamin E", "St. John's wort", "turmeric capsules"]


@tpl(OE)
def oe_prior_to(r):
    s = r.choice(SUPPLEMENTS)
    lead = r.choice(["", "I have a knee operation coming up. ", "My surgeon's office hasn't called me back. "])
    return (lead + "Should I stop taking %s prior to surgery?" % s,
            lead + "Should I stop taking %s after surgery?" % s)


ROUTES = [
    ("Boston", "New York", "Washington, D.C."),
    ("Lisbon", "Madrid", "Barcelona"),
    ("Vienna", "Prague", "Berlin"),
    ("Amsterdam", "Brussels", "Paris"),
    ("Seattle", "Portland", "San Francisco"),
    ("Edinburgh", "York", "London"),
    ("Milan", "Florence", "Rome"),
    ("San Diego", "Los Angeles", "San Francisco"),
]


@tpl(OE)
def oe_route(r):
    a, b, c = r.choice(ROUTES)
    kind = r.choice(["road trip", "rail trip"])
    if r.random() < 0.5:
        alt = (a, c, b)
    else:
        alt = (b, a, c)
    fmt = "I'm planning a %s: %s, then %s, then %s. Is that an efficient route?"
    return (fmt % ((kind,) + (a, b, c)), fmt % ((kind,) + alt))


ML_ORDER = [
    ("PyTorch", "optimizer.zero_grad()", "loss.backward()"),
    ("PyTorch", "loss.backward()", "optimizer.step()"),
    ("Keras", "model.compile()", "model.fit()"),
    ("scikit-learn", "train_test_split()", "scaler.fit()"),
    ("matplotlib", "plt.savefig()", "plt.show()"),
]


@tpl(OE)
def oe_ml(r):
    lib, a, b = r.choice(ML_ORDER)
    a, b = maybe_flip(r, a, b)
    return ("In %s, should I call %s before %s?" % (lib, a, b),
            "In %s, should I call %s before %s?" % (lib, b, a))


SLEEP_ITEMS = ["take my ADHD medication", "drink my last coffee", "do my intense workouts",
               "eat my biggest meal", "take a long nap"]


@tpl(OE)
def oe_earlier_later(r):
    x = r.choice(SLEEP_ITEMS)
    lead = r.choice(["I struggle to fall asleep. ", "My sleep has been terrible lately. "])
    return (lead + "Should I %s earlier in the day?" % x,
            lead + "Should I %s later in the day?" % x)


@tpl(OE)
def oe_workout_start_end(r):
    x = r.choice(["static stretching", "foam rolling", "a cardio session", "core exercises",
                  "heavy squats"])
    return ("Should my workout start with %s?" % x, "Should my workout end with %s?" % x)


DOC_X = [("a cover letter", "a thank-you to the reader"),
         ("a cover letter", "a summary of my qualifications"),
         ("a wedding toast", "a joke"),
         ("a conference talk", "a summary of the key points"),
         ("a sales email", "a question"),
         ("an essay", "a quotation")]


@tpl(OE)
def oe_doc_start_end(r):
    d, x = r.choice(DOC_X)
    return ("Should %s start with %s?" % (d, x), "Should %s end with %s?" % (d, x))


@tpl(OE)
def oe_day_before_after(r):
    act = r.choice(["drink alcohol", "do a hard workout", "have a big greasy meal"])
    x = r.choice(["a colonoscopy", "running a marathon", "donating blood", "surgery",
                  "a long-haul flight"])
    return ("Is it okay to %s the day before %s?" % (act, x),
            "Is it okay to %s the day after %s?" % (act, x))


@tpl(OE)
def oe_debt_invest(r):
    d = r.choice(["student loans", "credit card debt", "car loan", "mortgage"])
    lead = r.choice(["", "I'm 28 with about $15k in savings. ", "My employer offers a 401(k) match. "])
    return (lead + "Is it smarter to pay off my %s before I start investing?" % d,
            lead + "Is it smarter to start investing before I pay off my %s?" % d)


VAX_TRAVEL = [("yellow fever", "Brazil"), ("typhoid", "India"), ("hepatitis A", "Mexico"),
              ("rabies", "Thailand"), ("Japanese encephalitis", "Vietnam"), ("cholera", "Haiti")]


@tpl(OE)
def oe_vaccine_travel(r):
    v, p = r.choice(VAX_TRAVEL)
    return ("Should I get the %s vaccine before traveling to %s?" % (v, p),
            "Should I get the %s vaccine after traveling to %s?" % (v, p))


CAR_CHECKS = [
    ("the tire pressure", "before driving in the morning", "right after a long drive"),
    ("the engine oil level", "before starting the car", "right after turning the engine off"),
    ("the transmission fluid", "before starting the engine", "after the engine has warmed up"),
]


@tpl(OE)
def oe_car_check(r):
    x, t1, t2 = r.choice(CAR_CHECKS)
    lead = r.choice(["", "First-time car owner here. "])
    return (lead + "Should I check %s %s?" % (x, t1), lead + "Should I check %s %s?" % (x, t2))


@tpl(OE)
def oe_bank_permit(r):
    c = r.choice(["Germany", "Spain", "the Netherlands", "Portugal", "Italy", "Japan"])
    lead = r.choice(["", "I'm moving abroad for work. "])
    return (lead + "In %s, can I open a bank account before I get my residence permit?" % c,
            lead + "In %s, can I get my residence permit before I open a bank account?" % c)


MEAT_STEPS = [("sear", "braising", "the short ribs", "them"),
              ("marinate", "grilling", "the chicken", "it"),
              ("rest", "slicing", "the steak", "it"),
              ("blanch", "freezing", "green beans", "them"),
              ("brine", "roasting", "the turkey", "it")]


@tpl(OE)
def oe_meat(r):
    a, b, m, pr = r.choice(MEAT_STEPS)
    return ("Do I %s %s before %s %s?" % (a, m, b, pr),
            "Do I %s %s after %s %s?" % (a, m, b, pr))


@tpl(OE)
def oe_repot(r):
    p = r.choice(["orchid", "peace lily", "Christmas cactus", "amaryllis", "azalea", "hoya"])
    return ("Should I repot my %s before it flowers?" % p,
            "Should I repot my %s after it flowers?" % p)


PROC_FIXED = [
    ("When jump-starting a car, do I connect the positive cable before the negative one?",
     "When jump-starting a car, do I connect the negative cable before the positive one?"),
    ("When disconnecting a car battery, do I remove the negative terminal before the positive one?",
     "When disconnecting a car battery, do I remove the positive terminal before the negative one?"),
    ("When replacing a light switch, do I turn off the breaker before unscrewing the cover plate?",
     "When replacing a light switch, do I turn off the breaker after unscrewing the cover plate?"),
    ("When putting on PPE in a hospital, do the gloves go on before the gown?",
     "When putting on PPE in a hospital, does the gown go on before the gloves?"),
    ("When changing a flat tire, should I loosen the lug nuts before jacking up the car?",
     "When changing a flat tire, should I loosen the lug nuts after jacking up the car?"),
    ("When building a PC, should I install the CPU before putting the motherboard in the case?",
     "When building a PC, should I install the CPU after putting the motherboard in the case?"),
]


@tpl(OE)
def oe_procedure_fixed(r):
    return r.choice(PROC_FIXED)


@tpl(OE)
def oe_brush_acid(r):
    d = r.choice(["orange juice", "coffee", "soda", "red wine", "lemon water", "a sports drink"])
    return ("Is it bad to brush my teeth right after drinking %s?" % d,
            "Is it bad to brush my teeth right before drinking %s?" % d)


@tpl(OE)
def oe_drive_med(r):
    m = r.choice(["diazepam", "a sedating antihistamine", "gabapentin", "codeine", "zolpidem"])
    return ("Is it safe to drive while I'm taking %s?" % m,
            "Is it safe to drive after I stop taking %s?" % m)


SINCE_PAIRS = [("airport security rules", "9/11"), ("house prices in the UK", "the 2008 crash"),
               ("remote work policies", "the pandemic"), ("phone cameras", "the first iPhone"),
               ("Formula 1 safety rules", "Senna's death")]


@tpl(OE)
def oe_since_before(r):
    x, e = r.choice(SINCE_PAIRS)
    return ("How much have %s changed since %s?" % (x, e),
            "How much did %s change before %s?" % (x, e))


@tpl(OE)
def oe_visa_expire(r):
    x = r.choice(["a visa extension", "a change of status", "permanent residency", "a different visa type"])
    lead = r.choice(["I'm in the US on an F-1 visa. ", "I'm on a working holiday visa in Australia. ", ""])
    return (lead + "Can I apply for %s before my visa expires?" % x,
            lead + "Can I apply for %s after my visa expires?" % x)


PAY_BEFORE = [("The landlord wants me to pay the deposit", "see the apartment"),
              ("The seller wants me to send the money", "inspect the car"),
              ("The recruiter wants me to pay a training fee", "sign the job offer"),
              ("The breeder wants me to pay in full", "meet the puppy"),
              ("The contractor wants the full payment", "the work is finished")]


@tpl(OE)
def oe_pay_before_see(r):
    a, b = r.choice(PAY_BEFORE)
    tail = r.choice(["Is that normal?", "Is that a red flag?"])
    b_ = b if b.startswith("the ") else "I " + b
    return ("%s before %s. %s" % (a, b_, tail), "%s after %s. %s" % (a, b_, tail))


QUIT_ITEMS = [("annual bonus is paid out", "the bonus"), ("stock options vest", "the options"),
              ("401(k) match vests", "the match"), ("signing bonus clawback period ends", "the signing bonus")]


@tpl(OE)
def oe_quit_bonus(r):
    x, obj = r.choice(QUIT_ITEMS)
    return ("If I quit my job before my %s, what happens to %s?" % (x, obj),
            "If I quit my job after my %s, what happens to %s?" % (x, obj))


@tpl(OE)
def oe_docker(r):
    c = r.choice(["npm install", "pip install -r requirements.txt", "go mod download", "bundle install"])
    return ("In my Dockerfile, if I COPY the whole source tree before running `%s`, will layer caching still work well?" % c,
            "In my Dockerfile, if I COPY the whole source tree after running `%s`, will layer caching still work well?" % c)


@tpl(OE)
def oe_discount(r):
    item = r.choice(["jacket", "pair of boots", "blender", "desk chair"])
    p = r.choice([60, 80, 120, 150, 200])
    c = r.choice([10, 20, 25])
    d = r.choice([10, 20, 25, 30])
    base = "A %s costs $%d. I have a $%d-off coupon and there's a %d%% off sale. What do I pay if " % (item, p, c, d)
    return (base + "the coupon is applied first and then the %d%% discount?" % d,
            base + "the %d%% discount is applied first and then the coupon?" % d)


BAD_RIGHT = [("go swimming", "eating a big meal"), ("take a cold shower", "a workout"),
             ("go for a run", "a heavy lunch"), ("lie down", "eating dinner"),
             ("take a nap", "drinking coffee")]


@tpl(OE)
def oe_bad_right(r):
    x, y = r.choice(BAD_RIGHT)
    return ("Is it bad to %s right after %s?" % (x, y), "Is it bad to %s right before %s?" % (x, y))


CODE_SEQ = [
    ("In Python, if I sort the list first and then remove duplicates with set(), will the result still be sorted?",
     "In Python, if I remove duplicates with set() first and then sort the list, will the result still be sorted?"),
    ("In JavaScript, with [1, 2, 3, 4, 5], what do I get if I call .reverse() first and then .slice(0, 3)?",
     "In JavaScript, with [1, 2, 3, 4, 5], what do I get if I call .slice(0, 3) first and then .reverse()?"),
    ("In pandas, if I call groupby('city') first and then head(2), what does the output look like?",
     "In pandas, if I call head(2) first and then groupby('city'), what does the output look like?"),
]


@tpl(OE)
def oe_code_seq(r):
    return r.choice(CODE_SEQ)


AS_SOON = [("start applying for jobs", "I graduate"), ("tell my manager", "I accept the new offer"),
           ("book the hotel", "my visa is approved"),
           ("start house hunting", "I get pre-approved for a mortgage"),
           ("switch my car insurance", "my current policy renews")]


@tpl(OE)
def oe_as_soon_as(r):
    x, y = r.choice(AS_SOON)
    return ("Should I %s as soon as %s?" % (x, y), "Should I %s before %s?" % (x, y))


@tpl(OE)
def oe_passport_control(r):
    ap = r.choice(["Heathrow", "Schiphol", "Frankfurt Airport", "Dubai International",
                   "Singapore Changi", "Paris Charles de Gaulle"])
    return ("At %s, do I go through passport control before security when departing?" % ap,
            "At %s, do I go through passport control after security when departing?" % ap)


@tpl(OE)
def oe_booking_order(r):
    place = r.choice(["Iceland", "Japan", "Peru", "Italy", "New Zealand"])
    a, b = r.choice([("flights", "hotels"), ("flights", "rental car"), ("hotels", "tours")])
    return ("For a trip to %s, is it better to book the %s first and then the %s?" % (place, a, b),
            "For a trip to %s, is it better to book the %s first and then the %s?" % (place, b, a))


WASH_ALTER = [("the new jeans", "hemming them"), ("the linen fabric", "sewing it into a dress"),
              ("the new cotton curtains", "shortening them"), ("the quilt fabric", "cutting the pieces")]


@tpl(OE)
def oe_wash_alter(r):
    x, y = r.choice(WASH_ALTER)
    return ("Should I wash %s before %s?" % (x, y), "Should I wash %s after %s?" % (x, y))


DURING_PAIRS = [("dizzy", "a hot yoga class"), ("nauseous", "a long run"), ("shaky", "giving blood"),
                ("sore", "a deep tissue massage"), ("light-headed", "a sauna session")]


@tpl(OE)
def oe_during_after(r):
    s, a = r.choice(DURING_PAIRS)
    return ("Is it normal to feel %s during %s?" % (s, a), "Is it normal to feel %s after %s?" % (s, a))


@tpl(OE)
def oe_med_sequence(r):
    lead = r.choice(["My doctor gave me two inhalers. ", "I was prescribed two inhalers for asthma. "])
    a, b = maybe_flip(r, "the steroid inhaler", "the rescue inhaler")
    return (lead + "Should I use %s first and %s second?" % (a, b),
            lead + "Should I use %s first and %s second?" % (b, a))


@tpl(OE)
def oe_history_which_led(r):
    pairs = [("the assassination of Archduke Franz Ferdinand", "the start of World War I"),
             ("the Great Depression", "the New Deal"),
             ("the Boston Tea Party", "the American Revolutionary War"),
             ("the storming of the Bastille", "the Reign of Terror")]
    a, b = r.choice(pairs)
    return ("Did %s come after %s?" % (a, b), "Did %s come after %s?" % (b, a))


# ---------------------------------------------------------------------------
# NEAR-MISS: modality
# ---------------------------------------------------------------------------
MO = "modality"

LEGAL_SAFE = [("hitchhike", "New Zealand"), ("eat wild mushrooms I picked myself", "the UK"),
              ("swim in the Seine", "Paris"), ("use a VPN", "China"), ("wild camp", "Scotland"),
              ("carry pepper spray", "Germany"), ("ride an e-scooter on the sidewalk", "Paris")]


@tpl(MO)
def mo_legal_safe(r):
    x, p = r.choice(LEGAL_SAFE)
    lead = r.choice(["", "Planning a trip next month. ", "Asking for a friend. "])
    return (lead + "Is it legal to %s in %s?" % (x, p), lead + "Is it safe to %s in %s?" % (x, p))


CAN_SHOULD = ["withdraw money from my 401(k) before I retire",
              "quit my job without giving two weeks' notice",
              "pay my rent with a credit card",
              "refinance my mortgage a second time this year",
              "take my kids out of school for a family vacation",
              "cash out my pension early"]


@tpl(MO)
def mo_can_should(r):
    x = r.choice(CAN_SHOULD)
    lead = r.choice(["", "Serious question. ", "I've been going back and forth on this. "])
    return (lead + "Can I %s?" % x, lead + "Should I %s?" % x)


HAVE_TO_WORTH = ["buy travel insurance for a week in Spain",
                 "get an extended warranty on a new laptop",
                 "hire a real estate agent to sell my house",
                 "file a tax return if I earned less than $10,000 last year",
                 "get a building permit for a small backyard shed"]


@tpl(MO)
def mo_have_to_worth(r):
    x = r.choice(HAVE_TO_WORTH)
    return ("Do I have to %s?" % x, "Is it worth it to %s?" % x)


MANDATORY = ["wear a helmet when cycling in the Netherlands",
             "wear a helmet when cycling in Australia",
             "get a rabies vaccine before a trip to Bali",
             "get a home inspection before buying a house",
             "have an MBA to become a product manager",
             "use winter tires in Germany"]


@tpl(MO)
def mo_mandatory_recommended(r):
    x = r.choice(MANDATORY)
    return ("Is it mandatory to %s?" % x, "Is it recommended to %s?" % x)


POSSIBLE_WISE = ["run a marathon with only four weeks of training",
                 "get a mortgage with a 550 credit score",
                 "lose ten pounds in a single week",
                 "travel around Europe on $30 a day",
                 "learn to code and get a developer job in three months",
                 "put my entire emergency fund into crypto"]


@tpl(MO)
def mo_possible_wise(r):
    x = r.choice(POSSIBLE_WISE)
    return ("Is it possible to %s?" % x, "Is it wise to %s?" % x)


COMMON_SAFE = ["take melatonin every night", "fast for 24 hours once a week",
               "lift heavy weights every single day", "let a newborn sleep on their side",
               "drink coffee while pregnant", "take ibuprofen every day for back pain"]


@tpl(MO)
def mo_common_safe(r):
    x = r.choice(COMMON_SAFE)
    return ("Is it common to %s?" % x, "Is it safe to %s?" % x)


GAME_RULES = [("chess", "capture en passant when it's available"),
              ("Monopoly", "buy every property they land on"),
              ("Scrabble", "use all seven tiles in one turn"),
              ("poker", "show their cards when nobody calls their bet"),
              ("tennis", "serve underhand")]


@tpl(MO)
def mo_must_may(r):
    g, x = r.choice(GAME_RULES)
    return ("Under the official rules of %s, must a player %s?" % (g, x),
            "Under the official rules of %s, may a player %s?" % (g, x))


LIKELY_POSSIBLE = ["my flight gets cancelled because of light snow in Chicago",
                   "it snows in London in December",
                   "a three-year-old laptop battery starts swelling",
                   "I catch the flu twice in one winter",
                   "an asteroid hits Earth this century",
                   "my package arrives before Friday if it shipped today"]


@tpl(MO)
def mo_likely_possible(r):
    x = r.choice(LIKELY_POSSIBLE)
    return ("Is it likely that %s?" % x, "Is it possible that %s?" % x)


TELL_MAY = ["use my work laptop for personal browsing",
            "drop a class after the add/drop deadline",
            "bring my own birthday cake to a restaurant",
            "sublet my apartment while I travel for the summer"]


@tpl(MO)
def mo_tell_may_should(r):
    x = r.choice(TELL_MAY)
    return ("Tell me whether I may %s." % x, "Tell me whether I should %s." % x)


NEED_GOOD = ["rinse rice before cooking it", "update my computer's BIOS",
             "get a lawyer to review my apartment lease", "take a probiotic after antibiotics",
             "replace my car's timing belt at 60,000 miles"]


@tpl(MO)
def mo_need_good_idea(r):
    x = r.choice(NEED_GOOD)
    return ("Do I need to %s?" % x, "Is it a good idea to %s?" % x)


@tpl(MO)
def mo_allowed_required_luggage(r):
    x = r.choice(["my prescription medication", "my laptop", "expensive jewelry", "a pocket knife",
                  "a bottle of wine"])
    lead = r.choice(["", "Flying out of JFK next week. "])
    return (lead + "Am I allowed to put %s in my checked luggage?" % x,
            lead + "Am I required to put %s in my checked luggage?" % x)


EMPLOYER = ["pay out my unused vacation days when I quit",
            "give me a reason for firing me",
            "give me a written warning before firing me",
            "pay me for time spent in mandatory training"]


@tpl(MO)
def mo_employer(r):
    x = r.choice(EMPLOYER)
    lead = r.choice(["I'm in California. ", "I work full-time in Texas. ", ""])
    return (lead + "Does my employer have to %s?" % x, lead + "Is my employer allowed to %s?" % x)


@tpl(MO)
def mo_will_should_eu(r):
    c = r.choice(["Norway", "Switzerland", "Iceland", "Serbia", "Ukraine", "Turkey"])
    return ("Will %s join the EU in the next decade?" % c, "Should %s join the EU in the next decade?" % c)


WILL_SHOULD_MISC = ["the Fed cut interest rates this year",
                    "AI replace most junior software engineers",
                    "the UK rejoin the single market",
                    "cities ban gas-powered cars by 2035"]


@tpl(MO)
def mo_will_should_misc(r):
    x = r.choice(WILL_SHOULD_MISC)
    return ("Will %s?" % x, "Should %s?" % x)


@tpl(MO)
def mo_might_will_need(r):
    p = r.choice(["knee surgery", "a root canal", "a hip replacement", "physical therapy",
                  "a C-section"])
    end = r.choice(["What should I be doing now?", "How should I prepare?"])
    return ("My doctor said I might need %s. %s" % (p, end),
            "My doctor said I will need %s. %s" % (p, end))


STOLEN = [("bike", "outside my office"), ("package", "my front porch"),
          ("wallet", "my gym locker"), ("laptop", "my car")]


@tpl(MO)
def mo_may_have_been(r):
    i, p = r.choice(STOLEN)
    return ("My %s may have been stolen from %s. What should I do?" % (i, p),
            "My %s was stolen from %s. What should I do?" % (i, p))


TIP = [("a waiter", "the US"), ("a hotel housekeeper", "the US"),
       ("a food delivery driver", "Canada"), ("a hairdresser", "the US"), ("a tour guide", "Canada")]


@tpl(MO)
def mo_tip(r):
    w, c = r.choice(TIP)
    return ("Should I tip %s in %s?" % (w, c), "Do I have to tip %s in %s?" % (w, c))


FIRED = ["posting about my job on social media", "being late three times in a month",
         "discussing my salary with coworkers", "refusing to work unpaid overtime"]


@tpl(MO)
def mo_fired(r):
    x = r.choice(FIRED)
    lead = r.choice(["I work in the US. ", "", "My manager is furious with me. "])
    return (lead + "Can I be fired for %s?" % x, lead + "Should I be fired for %s?" % x)


@tpl(MO)
def mo_can_will_die(r):
    x = r.choice(["a bee sting", "drinking too much water", "a black widow bite",
                  "eating raw cookie dough", "a jellyfish sting"])
    return ("Can you die from %s?" % x, "Will you die from %s?" % x)


@tpl(MO)
def mo_necessary_harmful(r):
    x = r.choice(["wash raw chicken before cooking it", "give a newborn water",
                  "fully drain my phone battery before charging it",
                  "use antibacterial soap for everyday handwashing"])
    return ("Is it necessary to %s?" % x, "Is it harmful to %s?" % x)


FORBIDDEN_RUDE = [("wear shoes", "a Japanese home"), ("leave a tip", "a restaurant in Japan"),
                  ("blow your nose at the dinner table", "China"),
                  ("take photos inside", "a mosque"), ("point with your index finger", "Malaysia")]


@tpl(MO)
def mo_forbidden_rude(r):
    x, p = r.choice(FORBIDDEN_RUDE)
    return ("Is it forbidden to %s in %s?" % (x, p), "Is it rude to %s in %s?" % (x, p))


REQUIRED_CUSTOMARY = [("bring a gift to", "a wedding in China"), ("wear black at", "a funeral in the UK"),
                      ("give a speech at", "your own wedding reception"),
                      ("bring a dish to", "a Thanksgiving dinner you're invited to"),
                      ("send a thank-you card after", "a baby shower")]


@tpl(MO)
def mo_required_customary(r):
    x, e = r.choice(REQUIRED_CUSTOMARY)
    return ("Is it required to %s %s?" % (x, e), "Is it customary to %s %s?" % (x, e))


@tpl(MO)
def mo_tell_employer(r):
    x = r.choice(["my pregnancy", "a side business", "a mental health diagnosis",
                  "a job offer from a competitor", "my ADHD diagnosis"])
    return ("Should I tell my employer about %s?" % x,
            "Am I legally required to tell my employer about %s?" % x)


OKAY_LEGAL = ["record a phone call without telling the other person",
              "read my teenager's text messages",
              "use my neighbor's unsecured Wi-Fi",
              "track my partner's phone location",
              "record audio with a dashcam in my rideshare car"]


@tpl(MO)
def mo_okay_legal(r):
    x = r.choice(OKAY_LEGAL)
    return ("Is it okay to %s?" % x, "Is it legal to %s?" % x)


@tpl(MO)
def mo_report_insurance(r):
    x = r.choice(["a minor fender bender", "a cracked windshield", "a speeding ticket",
                  "a small kitchen fire"])
    who = r.choice(["my insurance company", "my insurer"])
    return ("Do I have to report %s to %s?" % (x, who), "Can I report %s to %s?" % (x, who))


@tpl(MO)
def mo_pet_can_need(r):
    a, f = r.choice([("dogs", "rice"), ("dogs", "carrots"), ("dogs", "eggs"), ("cats", "fish"),
                     ("cats", "grass"), ("rabbits", "fruit")])
    return ("Can %s eat %s?" % (a, f), "Do %s need to eat %s?" % (a, f))


@tpl(MO)
def mo_visa_need_get(r):
    c, n = r.choice([("Russia", "US"), ("India", "UK"), ("China", "Canadian"), ("Vietnam", "Australian"),
                     ("Brazil", "US")])
    return ("Do I need a tourist visa to visit %s on a %s passport?" % (c, n),
            "Can I get a tourist visa to visit %s on a %s passport?" % (c, n))


@tpl(MO)
def mo_baby_normal_necessary(r):
    age, x = r.choice([("3-month-old", "sleep 16 hours a day"), ("6-month-old", "drink water"),
                       ("9-month-old", "wear shoes"), ("4-month-old", "eat solid food"),
                       ("2-month-old", "take vitamin D drops")])
    return ("Is it normal for a %s baby to %s?" % (age, x),
            "Is it necessary for a %s baby to %s?" % (age, x))


@tpl(MO)
def mo_without_lawyer(r):
    x = r.choice(["file for divorce", "write my own will", "sell my house",
                  "fight a DUI charge", "form an LLC"])
    return ("Can I %s without a lawyer?" % x, "Should I %s without a lawyer?" % x)


@tpl(MO)
def mo_production(r):
    x = r.choice(["Flask's built-in development server", "SQLite as my database",
                  "Python's eval() on user input", "Kubernetes for a two-page website",
                  "a self-signed TLS certificate"])
    return ("Can I use %s in production?" % x, "Should I use %s in production?" % x)


@tpl(MO)
def mo_await(r):
    x = r.choice(["an async function in JavaScript", "a regular non-async function",
                  "a function that returns a Promise"])
    return ("Do I have to use await when calling %s?" % x, "Can I use await when calling %s?" % x)


RUDE_ILLEGAL = ["leave a wedding before the cake is cut", "not tip at a restaurant in the US",
                "park in front of my neighbor's house every day", "fly a drone over my neighbor's yard",
                "record my kid's school play and post it online"]


@tpl(MO)
def mo_rude_illegal(r):
    x = r.choice(RUDE_ILLEGAL)
    return ("Would it be rude to %s?" % x, "Would it be illegal to %s?" % x)


@tpl(MO)
def mo_entitled_obligated(r):
    x = r.choice(["take paid sick leave", "take my full parental leave", "work on bank holidays",
                  "take a lunch break"])
    lead = r.choice(["I'm employed full-time in the UK. ", ""])
    return (lead + "Am I entitled to %s?" % x, lead + "Am I obligated to %s?" % x)


@tpl(MO)
def mo_could_would_fight(r):
    a, b = r.choice([("lion", "tiger"), ("gorilla", "grizzly bear"), ("hippo", "crocodile"),
                     ("wolf", "cougar"), ("moose", "grizzly bear")])
    return ("Could a %s beat a %s in a fight?" % (a, b), "Would a %s beat a %s in a fight?" % (a, b))


@tpl(MO)
def mo_can_will_snow(r):
    c, m = r.choice([("Houston", "March"), ("Rome", "February"), ("Seattle", "November"),
                     ("Atlanta", "January"), ("Madrid", "December")])
    return ("Can it snow in %s in %s?" % (c, m), "Will it snow in %s this %s?" % (c, m))


@tpl(MO)
def mo_possible_recommended_downgrade(r):
    a, b = r.choice([("iOS 18", "iOS 17"), ("Windows 11", "Windows 10"),
                     ("Python 3.12", "Python 3.8"), ("Android 15", "Android 14")])
    return ("Is it possible to downgrade from %s to %s?" % (a, b),
            "Is it recommended to downgrade from %s to %s?" % (a, b))


@tpl(MO)
def mo_turn_right_red(r):
    s = r.choice(["California", "Texas", "Ontario", "Florida", "Illinois"])
    return ("In %s, am I allowed to turn right on red when the road is clear?" % s,
            "In %s, am I required to turn right on red when the road is clear?" % s)


@tpl(MO)
def mo_bank_can_will(r):
    x = r.choice(["freeze my account if I miss one credit card payment",
                  "reverse a charge I say is fraudulent",
                  "close my account for being inactive",
                  "charge me a fee for a bounced check"])
    return ("Can the bank %s?" % x, "Will the bank %s?" % x)


@tpl(MO)
def mo_teen_job(r):
    kid, pr, obj = r.choice([("daughter", "she", "her"), ("son", "he", "him")])
    age = r.choice([14, 15, 16])
    h = r.choice([20, 30, 40])
    lead = "My %s is %d and wants a summer job. " % (kid, age)
    return (lead + "Is %s allowed to work more than %d hours a week?" % (pr, h),
            lead + "Is it a good idea for %s to work more than %d hours a week?" % (obj, h))


@tpl(MO)
def mo_safe_necessary_daily(r):
    x = r.choice(["a baby aspirin", "vitamin D", "an antihistamine", "a multivitamin",
                  "melatonin"])
    return ("Is it safe to take %s every day?" % x, "Is it necessary to take %s every day?" % x)


@tpl(MO)
def mo_have_want(r):
    x = r.choice(["move out of my apartment before the lease ends",
                  "leave my job before my probation period ends",
                  "pull my son out of his school mid-year",
                  "cancel my wedding two months before the date"])
    end = r.choice(["What are my options?", "Where do I even start?"])
    return ("I have to %s. %s" % (x, end), "I want to %s. %s" % (x, end))


@tpl(MO)
def mo_ought_must(r):
    x = r.choice(["return the extra change the cashier gave me by mistake",
                  "report a coworker who keeps padding their timesheet",
                  "tell the seller about the mistake in their listing price"])
    return ("Ought I to %s?" % x, "Am I legally required to %s?" % x)


@tpl(MO)
def mo_is_it_normal_likely(r):
    x = r.choice(["gain weight after quitting smoking", "lose hair after giving birth",
                  "feel depressed after a big move"])
    return ("Is it normal to %s?" % x, "Is it inevitable that I'll %s?" % x)


@tpl(MO)
def mo_could_should_have(r):
    x = r.choice(["gotten a refund for my cancelled concert ticket",
                  "claimed the home office deduction last year",
                  "negotiated a higher starting salary"])
    return ("Could I have %s?" % x, "Should I have %s?" % x)


# ---------------------------------------------------------------------------
# NEAR-MISS: tense_or_time_frame
# ---------------------------------------------------------------------------
TE = "tense_or_time_frame"


@tpl(TE)
def te_capital(r):
    c = r.choice(["Brazil", "Nigeria", "Kazakhstan", "Myanmar", "Turkey", "Russia", "Japan",
                  "Pakistan", "Tanzania"])
    return ("What is the current capital of %s?" % c, "What was the original capital of %s?" % c)


@tpl(TE)
def te_currency(r):
    c = r.choice(["France", "Germany", "Italy", "Spain", "Greece", "Ireland", "the Netherlands",
                  "Estonia", "Croatia"])
    return ("What currency does %s use?" % c, "What currency did %s use in 1995?" % c)


@tpl(TE)
def te_price(r):
    x = r.choice(["a gallon of gas", "a movie ticket", "a first-class stamp", "a Big Mac",
                  "a year at a public university"])
    dec = r.choice(["the 1970s", "the 1980s", "1995"])
    return ("How much does %s cost in the US?" % x, "How much did %s cost in the US in %s?" % (x, dec))


@tpl(TE)
def te_has_will_ever(r):
    t, c = r.choice([("the Netherlands", "the World Cup"), ("Belgium", "the World Cup"),
                     ("the Buffalo Bills", "the Super Bowl"), ("Canada", "the FIFA World Cup"),
                     ("the Cleveland Browns", "the Super Bowl")])
    return ("Has %s ever won %s?" % (t, c), "Will %s ever win %s?" % (t, c))


@tpl(TE)
def te_used_to(r):
    h = r.choice(["smoke a pack a day", "drink heavily on weekends", "work night shifts",
                  "vape every day", "eat fast food every day"])
    end = r.choice(["What are the health risks for me?", "How worried should I be about my heart?"])
    return ("I used to %s. %s" % (h, end), "I still %s. %s" % (h, end))


@tpl(TE)
def te_company_original(r):
    co = r.choice(["Nintendo", "Nokia", "Samsung", "Toyota", "Amazon", "Netflix", "Lamborghini"])
    return ("What does %s sell?" % co, "What did %s originally sell?" % co)


@tpl(TE)
def te_next_last(r):
    e = r.choice(["total solar eclipse visible from the US", "appearance of Halley's Comet",
                  "World Cup hosted in Europe", "leap year", "Winter Olympics held in Asia"])
    return ("When is the next %s?" % e, "When was the last %s?" % e)


@tpl(TE)
def te_tallest(r):
    y = r.choice([1930, 1975, 1990, 2000, 2005])
    what = r.choice(["building", "skyscraper"])
    return ("What is the tallest %s in the world?" % what,
            "What was the tallest %s in the world in %d?" % (what, y))


@tpl(TE)
def te_planets(r):
    return r.choice([
        ("How many planets are in our solar system?", "How many planets were in our solar system in 1990?"),
        ("Is Pluto considered a planet?", "Was Pluto considered a planet in 1990?"),
        ("How many moons does Saturn have according to current counts?",
         "How many moons did Saturn have according to counts in 1980?"),
    ])


@tpl(TE)
def te_prog_lang(r):
    app = r.choice(["Twitter", "Reddit", "Facebook", "Minecraft", "YouTube"])
    return ("What programming language is %s written in?" % app,
            "What programming language was %s originally written in?" % app)


@tpl(TE)
def te_min_wage(r):
    y = r.choice([1980, 1990, 2000])
    return ("What is the federal minimum wage in the US?",
            "What was the federal minimum wage in the US in %d?" % y)


@tpl(TE)
def te_owner(r):
    co = r.choice(["Instagram", "WhatsApp", "YouTube", "LinkedIn", "Jaguar", "Volvo Cars"])
    return ("Who owns %s these days?" % co, "Who originally owned %s?" % co)


@tpl(TE)
def te_euro(r):
    c = r.choice(["Sweden", "Poland", "Denmark", "the Czech Republic", "Hungary", "Romania"])
    return ("Did %s adopt the euro?" % c, "Will %s adopt the euro?" % c)


@tpl(TE)
def te_phone(r):
    y = r.choice([2012, 2015, 2018])
    return ("What's the best smartphone you can buy right now?",
            "What was the best smartphone you could buy in %d?" % y)


@tpl(TE)
def te_rate(r):
    y = r.choice([1981, 2008, 2019])
    return ("What is the Federal Reserve's interest rate right now?",
            "What was the Federal Reserve's interest rate in %d?" % y)


@tpl(TE)
def te_pm(r):
    c, y = r.choice([("the UK", 2000), ("Canada", 2010), ("Japan", 2015), ("Australia", 2005),
                     ("India", 2010), ("Italy", 2012)])
    return ("Who is the prime minister of %s?" % c, "Who was the prime minister of %s in %d?" % (c, y))


@tpl(TE)
def te_inflation(r):
    c = r.choice(["the UK", "the US", "Japan", "Germany", "Canada", "Argentina"])
    return ("What was the inflation rate in %s last year?" % c,
            "What will the inflation rate in %s be next year?" % c)


@tpl(TE)
def te_population(r):
    c, y = r.choice([("Tokyo", 1950), ("Lagos", 1980), ("London", 1900), ("Shenzhen", 1980),
                     ("Dubai", 1990)])
    return ("What is the population of %s?" % c, "What was the population of %s in %d?" % (c, y))


@tpl(TE)
def te_olympics(r):
    s = r.choice(["Summer", "Winter"])
    return ("Which city hosted the most recent %s Olympics?" % s,
            "Which city will host the next %s Olympics?" % s)


@tpl(TE)
def te_travel_time(r):
    t, era = r.choice([("fly from London to New York", "the 1950s"),
                       ("cross the Atlantic by ship", "the 1800s"),
                       ("travel from Paris to London", "1900"),
                       ("drive across the US", "the 1920s")])
    return ("How long does it take to %s?" % t, "How long did it take to %s in %s?" % (t, era))


@tpl(TE)
def te_passport(r):
    return ("Do you need a passport to travel from the US to Canada by car?",
            "Did you need a passport to travel from the US to Canada by car in 2005?")


@tpl(TE)
def te_valuable(r):
    y = r.choice([2000, 2010, 1990])
    return ("What is the most valuable company in the world?",
            "What was the most valuable company in the world in %d?" % y)


@tpl(TE)
def te_will_ever_return(r):
    return r.choice([("Have humans walked on the Moon?", "Will humans walk on the Moon again?"),
                     ("Has a woman been president of the United States?",
                      "Will a woman be president of the United States?"),
                     ("Has London hosted the Summer Olympics?", "Will London host the Summer Olympics again?")])


@tpl(TE)
def te_rules_changed(r):
    x = r.choice(["Is it legal to smoke in bars in New York?",
                  "Is same-sex marriage legal in Germany?",
                  "Is cannabis legal in Canada?"])
    past = {"Is it legal to smoke in bars in New York?": "Was it legal to smoke in bars in New York in 1995?",
            "Is same-sex marriage legal in Germany?": "Was same-sex marriage legal in Germany in 2010?",
            "Is cannabis legal in Canada?": "Was cannabis legal in Canada in 2015?"}
    return (x, past[x])


# ---------------------------------------------------------------------------
# NEAR-MISS: condition_or_exception
# ---------------------------------------------------------------------------
CE = "condition_or_exception"


@tpl(CE)
def ce_med_food(r):
    m = r.choice(["ibuprofen", "levothyroxine", "iron tablets", "metformin", "naproxen"])
    return ("Can I take %s with food?" % m, "Can I take %s without food?" % m)


@tpl(CE)
def ce_visa_days(r):
    c, n = r.choice([("Japan", 90), ("Thailand", 30), ("the UK", 180), ("Brazil", 90), ("Turkey", 90)])
    lead = r.choice(["I'm a US citizen. ", "I have a US passport. "])
    return (lead + "Do I need a visa for %s if I'm staying at least %d days?" % (c, n),
            lead + "Do I need a visa for %s if I'm staying at most %d days?" % (c, n))


INCL_EXCL = [
    ("How many countries make up the UK, including Northern Ireland?",
     "How many countries make up the UK, excluding Northern Ireland?"),
    ("What is the population of the US including Puerto Rico?",
     "What is the population of the US excluding Puerto Rico?"),
    ("Which planets, including Earth, have moons?", "Which planets, except Earth, have moons?"),
    ("How many days are in a year, excluding weekends?", "How many days are in a year, including weekends?"),
    ("How many players are on a soccer team, including substitutes?",
     "How many players are on a soccer team, excluding substitutes?"),
    ("Which countries use the euro, including countries outside the EU?",
     "Which countries use the euro, excluding countries outside the EU?"),
]


@tpl(CE)
def ce_incl_excl(r):
    return r.choice(INCL_EXCL)


@tpl(CE)
def ce_at_fault(r):
    what = r.choice(["repairs to my own car", "my medical bills", "a rental car while mine is in the shop"])
    return ("Does my car insurance cover %s if I was at fault?" % what,
            "Does my car insurance cover %s if I wasn't at fault?" % what)


@tpl(CE)
def ce_refund_window(r):
    x = r.choice(["flight", "hotel reservation", "concert ticket", "rental car booking"])
    return ("Can I get a full refund if I cancel my %s within 24 hours of booking?" % x,
            "Can I get a full refund if I cancel my %s more than 24 hours after booking?" % x)


@tpl(CE)
def ce_receipt(r):
    s = r.choice(["Walmart", "Target", "Costco", "IKEA", "Home Depot"])
    i = r.choice(["a blender", "a pair of shoes", "a space heater"])
    return ("Can I return %s to %s without a receipt?" % (i, s),
            "Can I return %s to %s with a receipt?" % (i, s))


@tpl(CE)
def ce_recipe_with(r):
    d, i = r.choice([("pancakes", "eggs"), ("brownies", "butter"), ("pizza dough", "yeast"),
                     ("mayonnaise", "eggs"), ("cornbread", "buttermilk"), ("banana bread", "baking soda")])
    return ("How do I make %s without %s?" % (d, i), "How do I make %s with %s?" % (d, i))


CODE_COND = [
    ("Write a Python function that returns the sum of a list of numbers, including negative numbers.",
     "Write a Python function that returns the sum of a list of numbers, excluding negative numbers."),
    ("Write a Python function that counts the vowels in a string, including 'y'.",
     "Write a Python function that counts the vowels in a string, excluding 'y'."),
    ("How do I sort a list of strings in Python case-insensitively?",
     "How do I sort a list of strings in Python case-sensitively?"),
    ("Write a bash command that deletes all files in a directory except the .log files.",
     "Write a bash command that deletes only the .log files in a directory."),
    ("Write a SQL query that counts all orders, including cancelled ones.",
     "Write a SQL query that counts all orders except cancelled ones."),
]


@tpl(CE)
def ce_code(r):
    return r.choice(CODE_COND)


@tpl(CE)
def ce_always_sometimes_cause(r):
    x, y = r.choice([("HPV", "cervical cancer"), ("smoking", "lung cancer"),
                     ("high blood pressure", "headaches"), ("a concussion", "loss of consciousness"),
                     ("stress", "hair loss")])
    return ("Does %s always cause %s?" % (x, y), "Does %s sometimes cause %s?" % (x, y))


@tpl(CE)
def ce_always_sometimes_misc(r):
    x = r.choice(["Do cats %s land on their feet?", "Does lightning %s strike the tallest object around?",
                  "Do bees %s die after they sting?"])
    return (x % "always", x % "sometimes")


@tpl(CE)
def ce_roth_income(r):
    n = r.choice(["$150,000", "$200,000", "$250,000"])
    status = r.choice(["single", "married filing jointly"])
    return ("Can I contribute to a Roth IRA if I'm %s and earn at least %s a year?" % (status, n),
            "Can I contribute to a Roth IRA if I'm %s and earn at most %s a year?" % (status, n))


@tpl(CE)
def ce_only_also(r):
    x, y = r.choice([("GDPR", "companies based in the EU"),
                     ("the Americans with Disabilities Act", "government buildings"),
                     ("copyright", "published works"), ("HIPAA", "hospitals"),
                     ("my renter's insurance", "theft inside my apartment")])
    return ("Does %s only apply to %s?" % (x, y), "Does %s also apply to %s?" % (x, y))


@tpl(CE)
def ce_months(r):
    return r.choice([("Which months have at least 30 days?", "Which months have at most 30 days?"),
                     ("Which US states have at least 10 electoral votes?",
                      "Which US states have at most 10 electoral votes?")])


@tpl(CE)
def ce_complexity(r):
    a = r.choice(["quicksort", "a hash table lookup", "searching a binary search tree", "quickselect"])
    return ("What is the time complexity of %s in the worst case?" % a,
            "What is the time complexity of %s in the average case?" % a)


@tpl(CE)
def ce_veg_dinner(r):
    x = r.choice(["cheese", "beans", "mushrooms", "tofu", "eggs"])
    return ("Suggest a quick vegetarian dinner with %s." % x, "Suggest a quick vegetarian dinner without %s." % x)


@tpl(CE)
def ce_if_unless_contract(r):
    x = r.choice(["I'm fired", "I resign", "the company is sold"])
    return ("My contract says I can't work for a competitor for a year if %s. Is that enforceable?" % x,
            "My contract says I can't work for a competitor for a year unless %s. Is that enforceable?" % x)


@tpl(CE)
def ce_real_id(r):
    return r.choice([("Can I fly within the US with a REAL ID?", "Can I fly within the US without a REAL ID?"),
                     ("Can I enter the UK with an ETA as a US citizen?",
                      "Can I enter the UK without an ETA as a US citizen?"),
                     ("Can I rent a car in Italy with an international driving permit?",
                      "Can I rent a car in Italy without an international driving permit?")])


@tpl(CE)
def ce_combinatorics(r):
    n = r.randint(5, 10)
    k = r.randint(2, n - 2)
    return ("How many ways can I choose at least %d items from a set of %d?" % (k, n),
            "How many ways can I choose at most %d items from a set of %d?" % (k, n))


@tpl(CE)
def ce_with_kids(r):
    c = r.choice(["Rome", "Tokyo", "London", "Barcelona", "New York"])
    return ("What's the best way to spend a week in %s with kids?" % c,
            "What's the best way to spend a week in %s without kids?" % c)


@tpl(CE)
def ce_bank_fee(r):
    n = r.choice(["$500", "$1,500", "$5,000"])
    return ("Will my checking account charge a monthly fee if I keep at least %s in it?" % n,
            "Will my checking account charge a monthly fee unless I keep at least %s in it?" % n)


@tpl(CE)
def ce_allergy(r):
    a, f = r.choice([("peanuts", "pad thai"), ("shellfish", "paella"), ("gluten", "soy sauce"),
                     ("dairy", "pesto")])
    return ("I'm allergic to %s. Is it safe for me to eat %s?" % (a, f),
            "I'm not allergic to %s. Is it safe for me to eat %s?" % (a, f))


@tpl(CE)
def ce_self_employed(r):
    x = r.choice(["deduct my home office", "deduct my internet bill", "contribute to a SEP IRA"])
    return ("Can I %s if I'm self-employed?" % x, "Can I %s if I'm a salaried employee?" % x)


@tpl(CE)
def ce_water_exercise(r):
    who = r.choice(["an adult woman", "an adult man", "a 10-year-old"])
    return ("How much water should %s drink a day if they exercise?" % who,
            "How much water should %s drink a day if they don't exercise?" % who)


@tpl(CE)
def ce_list_scope(r):
    return r.choice([
        ("List all the Harry Potter books, including the spin-off books.",
         "List all the Harry Potter books, excluding the spin-off books."),
        ("List the Beatles' albums, only the studio albums.",
         "List the Beatles' albums, including the live albums and compilations."),
        ("Name the Great Lakes, including the ones entirely in the US.",
         "Name the Great Lakes, except the ones entirely in the US."),
    ])


@tpl(CE)
def ce_capital_gains_home(r):
    lead = r.choice(["I'm selling my house in the US. ", "We're about to sell our home in California. "])
    return (lead + "Do I pay capital gains tax on the sale if I've lived there at least two years?",
            lead + "Do I pay capital gains tax on the sale if I've lived there at most two years?")


# ---------------------------------------------------------------------------
# POSITIVES: reworded_question
# ---------------------------------------------------------------------------
RW = "reworded_question"


@tpl(RW)
def rw_largest(r):
    x, y = r.choice([("ocean", "on Earth"), ("planet", "in our solar system"), ("lake", "in Africa"),
                     ("organ", "in the human body"), ("moon", "of Saturn"), ("country", "in South America")])
    return ("What is the largest %s %s?" % (x, y), "Which %s %s is the biggest?" % (x, y))


@tpl(RW)
def rw_how_do_i(r):
    x = r.choice(["reset my router to factory settings", "convert a PDF to a Word document",
                  "clear the cache in Chrome", "undo my last git commit", "remove a stripped screw",
                  "change a flat tire"])
    q = r.choice(["What are the steps to %s?", "How can I %s?", "What's the procedure to %s?"])
    return ("How do I %s?" % x, q % x)


@tpl(RW)
def rw_explain(r):
    c = r.choice(["how vaccines work", "the difference between TCP and UDP", "what inflation is",
                  "how photosynthesis works", "how a blockchain works", "what a black hole is"])
    q = r.choice(["Explain %s.", "Please explain %s to me.", "I'd like you to explain %s."])
    return ("Can you explain %s?" % c, q % c)


@tpl(RW)
def rw_meaning(r):
    t = r.choice(["'ubiquitous'", "'schadenfreude'", "'idempotent' in programming", "'amortization'",
                  "'per se'", "'sonder'"])
    return ("What does %s mean?" % t, "What is the meaning of %s?" % t)


@tpl(RW)
def rw_author(r):
    b = r.choice(["Pride and Prejudice", "One Hundred Years of Solitude", "The Great Gatsby",
                  "Crime and Punishment", "Beloved", "The Name of the Rose"])
    q = r.choice(["Who is the author of %s?", "Which writer wrote %s?"])
    return ("Who wrote %s?" % b, q % b)


@tpl(RW)
def rw_boiling(r):
    x = r.choice(["ethanol", "liquid nitrogen", "water at sea level", "mercury"])
    return ("What is the boiling point of %s?" % x, "At what temperature does %s boil?" % x)


@tpl(RW)
def rw_how_many(r):
    a, b = r.choice([("teaspoons", "tablespoon"), ("ounces", "pound"), ("cups", "quart"),
                     ("seconds", "day"), ("keys", "standard piano"), ("feet", "mile")])
    return ("How many %s are in a %s?" % (a, b), "How many %s does a %s have?" % (a, b))


@tpl(RW)
def rw_translate(r):
    p = r.choice(["good morning", "thank you very much", "where is the train station",
                  "I'm allergic to peanuts"])
    lang = r.choice(["Spanish", "Japanese", "German", "Italian", "Portuguese"])
    q = r.choice(["Translate '%s' into %s.", "What is '%s' in %s?"])
    return ("How do you say '%s' in %s?" % (p, lang), q % (p, lang))


@tpl(RW)
def rw_painter(r):
    a = r.choice(["the Mona Lisa", "The Starry Night", "Guernica", "The Birth of Venus",
                  "The Persistence of Memory", "Girl with a Pearl Earring"])
    return ("Who painted %s?" % a, "Which artist painted %s?" % a)


@tpl(RW)
def rw_difference(r):
    a, b = r.choice([("a virus", "a bacterium"), ("weather", "climate"), ("a Roth IRA", "a traditional IRA"),
                     ("'affect'", "'effect'"), ("RAM", "storage")])
    return ("What's the difference between %s and %s?" % (a, b), "How do %s and %s differ?" % (a, b))


@tpl(RW)
def rw_why_fixed(r):
    return r.choice([
        ("Why is the sky blue?", "What makes the sky appear blue?"),
        ("Why do cats purr?", "What causes cats to purr?"),
        ("Why do onions make you cry?", "What is it about onions that makes people cry?"),
        ("Why does ice float on water?", "What makes ice float on water?"),
        ("Why do we get hiccups?", "What causes hiccups?"),
    ])


@tpl(RW)
def rw_year_end(r):
    e = r.choice(["World War I", "the Vietnam War", "the Cold War", "the Korean War"])
    return ("In what year did %s end?" % e, "%s ended in which year?" % cap(e))


@tpl(RW)
def rw_recommend(r):
    x = r.choice(["a good beginner book on statistics", "a podcast about ancient history",
                  "a laptop for programming under $1,000"])
    return ("Can you recommend %s?" % x, "What's %s you would recommend?" % x)


# ---------------------------------------------------------------------------
# POSITIVES: polite_or_chatty_wrapper
# ---------------------------------------------------------------------------
PW = "polite_or_chatty_wrapper"

CHATTY_QUESTIONS = [
    "How long should I boil an egg for a runny yolk?",
    "What is the capital of Australia?",
    "How do I convert Celsius to Fahrenheit?",
    "What's a good name for a golden retriever puppy?",
    "How many calories are in a banana?",
    "What time zone is Chicago in?",
    "How do I center a div with CSS?",
    "What's the difference between a latte and a cappuccino?",
    "How do I get rid of fruit flies in my kitchen?",
    "What is the square root of 144?",
    "How often should I water a snake plant?",
    "What does HTTP stand for?",
    "How do I take a screenshot on a Mac?",
    "Who was the first person to climb Mount Everest?",
    "How much sleep does a teenager need?",
]
CHATTY_REQUESTS = [
    "write a haiku about autumn",
    "summarize the plot of Hamlet in three sentences",
    "give me five ideas for a rainy-day activity with kids",
    "suggest a name for my bakery",
    "explain recursion with a simple example",
]
PREFIXES = ["Hi there! ", "Hey, quick question: ", "Hello! ", "Good morning! ",
            "Hi, hope you're doing well. ", "Hey! Random thing I've been curious about. ",
            "Okay so this might be a silly one. "]
SUFFIXES = ["", " Thanks!", " Thanks in advance!", " Thank you so much.", " Cheers.",
            " Any help appreciated!", " :)"]


@tpl(PW)
def pw_question(r):
    q = r.choice(CHATTY_QUESTIONS)
    pre = r.choice(PREFIXES)
    suf = r.choice(SUFFIXES)
    return (q, pre + q + suf)


@tpl(PW)
def pw_wondering(r):
    q = r.choice(CHATTY_QUESTIONS)
    pre = r.choice(["I was wondering, ", "Hi! I was just wondering: ", "Sorry to bother you, but "])
    suf = r.choice(SUFFIXES)
    return (q, pre + q[0].lower() + q[1:] + suf)


@tpl(PW)
def pw_request(r):
    x = r.choice(CHATTY_REQUESTS)
    form = r.choice(["Could you please %s?", "Please %s. Thank you!", "Hi! Would you mind if I asked you to %s? Thanks!",
                     "Hey, if you have a sec, can you %s? Much appreciated."])
    return (cap(x) + ".", form % x)


# ---------------------------------------------------------------------------
# POSITIVES: synonym_swap
# ---------------------------------------------------------------------------
SY = "synonym_swap"

SYN_TEMPLATES = [
    ("How do I {w} a leaking kitchen faucet?", ["fix", "repair"]),
    ("What are the main {w} of intermittent fasting?", ["benefits", "advantages"]),
    ("Where can I {w} cheap train tickets in Italy?", ["buy", "purchase"]),
    ("What's the best way to {w} learning Japanese as an adult?", ["start", "begin"]),
    ("What's a good {w} for my dad's 60th birthday?", ["gift", "present"]),
    ("How can I {w} my electricity bill in winter?", ["reduce", "lower", "cut"]),
    ("What's the {w} way to cool down a hot bedroom without AC?", ["fastest", "quickest"]),
    ("How do I {w} a red wine stain from a carpet?", ["remove", "get rid of"]),
    ("Can you {w} a good movie for a rainy Sunday?", ["recommend", "suggest"]),
    ("Can you recommend a good {w} for a rainy Sunday?", ["movie", "film"]),
    ("What are the early {w} of dehydration in toddlers?", ["signs", "symptoms"]),
    ("Why is my {w} making a clicking noise when I turn the steering wheel?", ["car", "vehicle"]),
    ("How can I {w} the quality of my sleep?", ["improve", "enhance"]),
    ("What are some {w} ways to decorate a small apartment?", ["cheap", "inexpensive", "low-cost"]),
    ("How do I {w} my Netflix subscription?", ["cancel", "end"]),
    ("Give me a {w} summary of the French Revolution.", ["short", "brief"]),
    ("What's the {w} time of year to see cherry blossoms in Japan?", ["best", "ideal"]),
    ("My {w} won't turn on after I dropped it. What can I do?", ["phone", "smartphone", "cell phone"]),
    ("How do I {w} a large PDF into several smaller files?", ["split", "divide"]),
    ("I need {w} for a quick dinner with chicken and rice.", ["ideas", "suggestions"]),
    ("Is it {w} to leave my laptop plugged in all the time?", ["bad", "harmful"]),
    ("How do I {w} a conversation with someone I just met?", ["start", "begin"]),
]


@tpl(SY)
def sy_swap(r):
    t, ws = r.choice(SYN_TEMPLATES)
    a, b = r.sample(ws, 2)
    return (t.replace("{w}", a), t.replace("{w}", b))


# ---------------------------------------------------------------------------
# POSITIVES: order_words_kept
# ---------------------------------------------------------------------------
OK = "order_words_kept"

CLAUSE_MOVE = [
    ("before bed", "should I take magnesium"),
    ("after a workout", "should I eat protein right away"),
    ("after a job interview", "should I send a thank-you email"),
    ("before a long flight", "should I take aspirin"),
    ("after the first rise", "should I punch down the bread dough"),
    ("after eating", "can I go swimming"),
    ("before a blood test", "do I need to fast"),
    ("after getting a tattoo", "can I take a shower"),
]


@tpl(OK)
def ok_clause_move(r):
    c, m = r.choice(CLAUSE_MOVE)
    return ("%s, %s?" % (cap(c), m), "%s %s?" % (cap(m), c))


@tpl(OK)
def ok_before_as_after(r):
    a, b = two(r, HIST_EVENTS)
    return ("Did %s happen before %s?" % (a, b), "Did %s happen after %s?" % (b, a))


@tpl(OK)
def ok_born_before_after(r):
    a, b = two(r, PEOPLE)
    return ("Was %s born before %s?" % (a, b), "Was %s born after %s?" % (b, a))


NEED_HAVE = ["register my drone with the FAA", "show my passport when flying within the Schengen area",
             "file a tax return if I only worked three months", "renew my driver's license in person",
             "get a permit to cut down a tree in my own yard"]


@tpl(OK)
def ok_need_have(r):
    x = r.choice(NEED_HAVE)
    return ("Do I need to %s?" % x, "Do I have to %s?" % x)


ALLOWED_PERMITTED = ["bring food into the Louvre", "fly a drone in Yosemite", "take photos inside the Sistine Chapel",
                     "bring a dog into a supermarket in France"]


@tpl(OK)
def ok_allowed_permitted(r):
    x = r.choice(ALLOWED_PERMITTED)
    return ("Is it allowed to %s?" % x, "Am I permitted to %s?" % x)


@tpl(OK)
def ok_must_required(r):
    x = r.choice(["wear a seatbelt in the back seat in the UK", "carry my ID at all times in Germany",
                  "tell my landlord if I get a cat"])
    return ("Must I %s?" % x, "Am I required to %s?" % x)


BEFORE_FIRST = [("rinse the rice", "cook it"), ("prime the wall", "paint it"),
                ("back up my phone", "install the update"), ("preheat the oven", "put the cake in"),
                ("soak the beans", "boil them")]


@tpl(OK)
def ok_before_first_then(r):
    a, b = r.choice(BEFORE_FIRST)
    return ("Should I %s before I %s?" % (a, b), "Should I %s first and then %s?" % (a, b))


@tpl(OK)
def ok_after_once(r):
    x = r.choice([("stretch", "after my run", "once my run is over"),
                  ("take my contact lenses out", "before I go to sleep", "prior to going to sleep"),
                  ("feed the dog", "after our morning walk", "once our morning walk is done")])
    v, a, b = x
    return ("Should I %s %s?" % (v, a), "Should I %s %s?" % (v, b))


@tpl(OK)
def ok_fixed(r):
    return r.choice([
        ("Does primer go on before foundation?", "Do I apply foundation after primer?"),
        ("Can I take ibuprofen after drinking coffee?", "After drinking coffee, is it okay for me to take ibuprofen?"),
        ("What should I do first after a minor car accident?", "After a minor car accident, what's the first thing I should do?"),
        ("Should I wash new clothes before wearing them?", "Before wearing new clothes, should I wash them?"),
        ("Do I have to let the engine cool down before checking the coolant?",
         "Do I need to wait for the engine to cool down before I check the coolant?"),
    ])


@tpl(OK)
def ok_should_advisable(r):
    x = r.choice(["get a flu shot every year", "stretch before lifting weights", "replace my toothbrush every three months"])
    return ("Should I %s?" % x, "Is it advisable for me to %s?" % x)


# ---------------------------------------------------------------------------
# POSITIVES: casing_punctuation_typo
# ---------------------------------------------------------------------------
CP = "casing_punctuation_typo"

TYPO_BASE = [
    "How do I receive money through PayPal?",
    "What is the difference between baking soda and baking powder?",
    "Is it necessary to preheat the oven for cookies?",
    "Which restaurant chains are open on Christmas Day?",
    "How do I separate egg whites from yolks?",
    "What's the weather usually like in Lisbon in October?",
    "How can I definitely tell if an avocado is ripe?",
    "What is the best way to start a small business?",
    "Can you recommend a good calendar app for Android?",
    "How do I add a new column to a table in PostgreSQL?",
    "What are the symptoms of a vitamin B12 deficiency?",
    "How long does it take to walk across the Golden Gate Bridge?",
    "What is the environment variable PATH used for?",
    "Why does my cat knead blankets?",
    "How do I write a good cover letter for a government job?",
]
TYPOS = {"receive": "recieve", "difference": "diffrence", "necessary": "neccessary",
         "restaurant": "restuarant", "separate": "seperate", "weather": "weathr",
         "definitely": "definately", "business": "buisness", "calendar": "calender",
         "column": "colum", "symptoms": "symtoms", "Bridge": "Brigde", "environment": "enviroment",
         "blankets": "blankts", "government": "goverment"}


def _apply_typo(s):
    for k, v in TYPOS.items():
        if k in s:
            return s.replace(k, v, 1)
    return s


@tpl(CP)
def cp_lower_nopunct(r):
    s = r.choice(TYPO_BASE)
    return (s, s.lower().rstrip("?").rstrip("."))


@tpl(CP)
def cp_typo(r):
    s = r.choice(TYPO_BASE)
    return (s, _apply_typo(s))


@tpl(CP)
def cp_spacing(r):
    s = r.choice(TYPO_BASE)
    words = s.split(" ")
    i = r.randrange(1, len(words))
    return (s, " ".join(words[:i]) + "  " + " ".join(words[i:]) + " ")


@tpl(CP)
def cp_lower_typo(r):
    s = r.choice(TYPO_BASE)
    return (s, _apply_typo(s).lower())


@tpl(CP)
def cp_caps_punct(r):
    s = r.choice(TYPO_BASE)
    form = r.choice(["upper", "qq", "space_q"])
    if form == "upper":
        return (s, s.upper())
    if form == "qq":
        return (s, s.rstrip("?") + "??")
    return (s, s.rstrip("?") + " ?")


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

def generate(category, n, seen, swap):
    temps = list(TEMPLATES[category])
    rng.shuffle(temps)
    out = []
    rounds = 0
    while len(out) < n:
        rounds += 1
        if rounds > 200:
            raise RuntimeError("could not fill category %s (%d/%d)" % (category, len(out), n))
        for fn in temps:
            if len(out) >= n:
                break
            for _ in range(40):
                a, b = fn(rng)
                if category != CP:
                    a, b = a.strip(), b.strip()
                if a == b:
                    continue
                if swap and rng.random() < 0.5:
                    a, b = b, a
                key = frozenset((a, b))
                if key in seen:
                    continue
                seen.add(key)
                nw = max(len(a.split()), len(b.split()))
                assert 4 <= nw <= 70, (category, a, b)
                out.append({"category": category, "stored": a, "query": b})
                break
    return out


DESCRIPTION = (
    "Held-out set v19 for a semantic prompt cache, written blind and generated by "
    "make_heldout_v19.py with random.Random(191919). text_pairs holds 180 near-miss pairs: "
    "the query shares most of its wording with the stored prompt but needs a different answer, "
    "so serving the stored answer would be a false hit (order_of_events 60: the order or timing "
    "of events, steps or operations changes; modality 60: ability, permission, obligation, advice, "
    "possibility, probability or prediction changes; tense_or_time_frame 30: past, present or "
    "future frame changes; condition_or_exception 30: a condition, exception or scope changes). "
    "positives holds 100 true paraphrase pairs a careful human would answer identically "
    "(reworded_question 25, polite_or_chatty_wrapper 20, synonym_swap 20, order_words_kept 20 "
    "where order and modal words keep their meaning under rewording, casing_punctuation_typo 15)."
)


def main():
    for cat in (OE, MO):
        assert len(TEMPLATES[cat]) >= 40, (cat, len(TEMPLATES[cat]))
    seen = set()
    text_pairs = []
    for cat, n in NEAR_MISS_COUNTS:
        text_pairs.extend(generate(cat, n, seen, swap=True))
    positives = []
    for cat, n in POSITIVE_COUNTS:
        positives.extend(generate(cat, n, seen, swap=True))
    data = {"description": DESCRIPTION, "text_pairs": text_pairs, "positives": positives}
    out_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "heldout_generated_v19.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote %s: %d text_pairs, %d positives" % (path, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
