"""Held-out evaluation set v18 for a semantic prompt cache.

A semantic prompt cache answers a new chat prompt with the stored answer of
an earlier prompt when the two are judged to mean the same thing.  This
script generates two kinds of prompt pairs:

* text_pairs (near misses): the query shares most of its wording with the
  stored prompt, but a careful human would answer the two differently, so
  serving the stored answer for the query would be wrong.  Four categories
  of 36 pairs each: who_is_affected, modal_or_obligation, order_of_events,
  amount_or_number.
* positives (true paraphrases): the query means exactly the same as the
  stored prompt (same persons, modality, order and amounts), so serving the
  stored answer would be right.  Five categories of 15 pairs each:
  reworded_same_question, chatty_or_polite_version, synonym_replacement,
  same_meaning_different_word_order, terse_search_style_vs_full_sentence.

The set was written blind: without reading the cache's code, its tests, its
documentation or any earlier held-out set.  The pairs come from templates
and word lists in this file only, filled with random.Random(181818), so two
runs produce byte-identical output.  It is meant for measurement only; do
not tune the cache's rules against it.

Run:
    python3 make_heldout_v18.py
which writes data/heldout_generated_v18.json next to this file.
Standard library only.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import itertools
import json
import os
import random

SEED = 181818
N_NEAR = 36
N_POS = 15
OUT_NAME = "heldout_generated_v18.json"


def S(key, values):
    """A slot: one key filled from a list of values."""
    return [{key: v} for v in values]


def R(keys, rows):
    """A slot of linked values: several keys filled together, row by row."""
    return [dict(zip(keys, row)) for row in rows]


def cap(text):
    return text[0].upper() + text[1:] if text else text


def expand(stored_t, query_t, slots):
    out = []
    for combo in itertools.product(*slots):
        fill = {}
        for part in combo:
            fill.update(part)
        out.append((cap(stored_t.format(**fill)), cap(query_t.format(**fill))))
    return out


# ---------------------------------------------------------------------------
# Near-miss templates
# ---------------------------------------------------------------------------

WHO_IS_AFFECTED = [
    ("Can my {boss} look at my {item} without my permission?",
     "Can I look at my {boss_poss} {item} without their permission?",
     [R(("boss", "boss_poss", "item"), [
         ("employer", "employer's", "work email"),
         ("employer", "employer's", "Slack messages"),
         ("employer", "employer's", "browser history"),
         ("parents", "parents'", "text messages"),
         ("parents", "parents'", "diary"),
         ("parents", "parents'", "bank statements"),
     ])]),
    ("What should I say to my {kid} about {topic}?",
     "What should my {kid} say to me about {topic}?",
     [S("kid", ["son", "teenage daughter", "8-year-old"]),
      S("topic", ["the divorce", "their bad report card",
                  "our move to a new city", "the death of our dog",
                  "getting caught vaping"])]),
    ("Does my {ins} cover my {rel}?",
     "Does my {rel_poss} {ins} cover me?",
     [S("ins", ["health insurance", "dental plan", "car insurance",
                "travel insurance"]),
      R(("rel", "rel_poss"), [("wife", "wife's"), ("husband", "husband's"),
                              ("girlfriend", "girlfriend's"),
                              ("stepfather", "stepfather's")])]),
    ("Is it safe for my {pet} to eat {food}?",
     "Is it safe for me to eat {food}?",
     [S("pet", ["dog", "cat"]),
      S("food", ["grapes", "raisins", "dark chocolate", "raw onions",
                 "macadamia nuts", "sugar-free gum with xylitol"])]),
    ("How much {x} does my {pet} need each day?",
     "How much {x} do I need each day?",
     [S("x", ["water", "sleep", "exercise", "protein"]),
      S("pet", ["dog", "cat", "puppy", "rabbit"])]),
    ("Why does my {device} get so hot when I {act}?",
     "Why do I get so hot when I {act}?",
     [R(("device", "act"), [
         ("phone", "play video games for hours"),
         ("phone", "go for a run in the sun"),
         ("laptop", "work in bed under a blanket"),
         ("laptop", "play video games for hours"),
         ("smartwatch", "go for a run in the sun"),
         ("phone", "sit in a parked car in summer"),
     ])]),
    ("Can my {party} {act} without telling me?",
     "Can I {act} without telling my {party}?",
     [R(("party", "act"), [
         ("landlord", "enter the apartment"),
         ("landlord", "change the locks"),
         ("landlord", "put a camera at the front door"),
         ("employer", "change my shift"),
         ("employer", "cut my hours"),
         ("doctor", "share my test results"),
     ])]),
    ("My {rel} keeps {ger} me{tail}. How should I deal with it?",
     "I keep {ger} my {rel}{tail}. How should I deal with it?",
     [S("rel", ["coworker", "sister", "boyfriend", "roommate"]),
      R(("ger", "tail"), [("interrupting", " in meetings"),
                          ("ignoring", " after we argue"),
                          ("criticizing", " in front of our friends"),
                          ("texting", " late at night")])]),
    ("What questions should I ask {pro} before {event}?",
     "What questions will {pro} ask me before {event}?",
     [R(("pro", "event"), [
         ("my surgeon", "my knee surgery"),
         ("my dentist", "a root canal"),
         ("the interviewer", "the end of the interview"),
         ("the landlord", "signing the lease"),
         ("my child's teacher", "the parent-teacher conference ends"),
         ("the vet", "my cat's dental cleaning"),
     ])]),
    ("Can I claim my {rel} as a dependent on my taxes?",
     "Can my {rel} claim me as a dependent on {poss} taxes?",
     [R(("rel", "poss"), [("mother", "her"), ("19-year-old son", "his"),
                          ("girlfriend", "her"), ("grandfather", "his"),
                          ("unemployed brother", "his")])]),
    ("Do I have to pay tax on the {amt} my {rel} gave me?",
     "Does my {rel} have to pay tax on the {amt} {pron} gave me?",
     [S("amt", ["$20,000", "$5,000", "$100,000"]),
      R(("rel", "pron"), [("dad", "he"), ("grandmother", "she"),
                          ("aunt", "she")])]),
]

MODAL_OR_OBLIGATION = [
    ("Do I have to tip {where}?",
     "Is it okay to tip {where}?",
     [S("where", ["at a buffet", "the hotel housekeeper",
                  "on a takeout order", "the movers",
                  "at a self-serve coffee counter",
                  "my hairdresser if she owns the salon"])]),
    ("Is it legal to {act}?",
     "Is it safe to {act}?",
     [S("act", ["drive barefoot", "drink raw milk",
                "eat wild mushrooms I picked myself",
                "fly a drone over a city park",
                "swim in an abandoned quarry",
                "leave a space heater on overnight",
                "drive with headphones on"])]),
    ("Do I need to file a tax return if {s}?",
     "Can I still file a tax return if {s}?",
     [S("s", ["I only earned $8,000 last year",
              "I was a full-time student all year",
              "my only income was unemployment benefits",
              "I live on Social Security",
              "I had no income at all"])]),
    ("Is my employer required to pay me for {x}?",
     "Is my employer allowed to pay me for {x}?",
     [S("x", ["unused vacation days when I quit", "mandatory training",
              "my commute time", "the days I serve on jury duty",
              "being on call at home"])]),
    ("At what age must a child start school in {place}?",
     "At what age can a child start school in {place}?",
     [S("place", ["California", "Texas", "England", "Ontario",
                  "Australia"])]),
    ("Should I tell my employer about {x}?",
     "Do I have to tell my employer about {x}?",
     [S("x", ["my pregnancy", "my second job", "my ADHD diagnosis",
              "a DUI from five years ago", "my upcoming surgery"])]),
    ("Do I need to refrigerate {food} after opening?",
     "Can I refrigerate {food} after opening?",
     [S("food", ["ketchup", "soy sauce", "peanut butter", "hot sauce",
                 "honey", "a jar of mustard"])]),
    ("Is it necessary to {act}?",
     "Is it okay to {act}?",
     [S("act", ["wash raw chicken before cooking it",
                "rinse rice before cooking it",
                "salt the water when boiling pasta",
                "soak dried beans overnight",
                "let a steak rest after grilling it",
                "peel carrots before roasting them"])]),
    ("What do I have to bring to {x}?",
     "What am I allowed to bring to {x}?",
     [S("x", ["the SAT", "the bar exam", "jury duty",
              "my road test at the DMV", "a citizenship interview"])]),
    ("Can I withdraw money from my {acct} {reason}?",
     "Should I withdraw money from my {acct} {reason}?",
     [S("acct", ["401(k)", "Roth IRA", "HSA"]),
      S("reason", ["before I turn 59 and a half",
                   "to pay off credit card debt",
                   "for a down payment on a house"])]),
    ("My {kid} is {age}. Can {pron} legally {act}?",
     "My {kid} is {age}. Should {pron} {act}?",
     [R(("kid", "age", "pron", "act"), [
         ("son", "14", "he", "work a part-time job"),
         ("daughter", "16", "she", "drive her friends around"),
         ("son", "12", "he", "stay home alone overnight"),
         ("daughter", "13", "she", "open her own bank account"),
         ("son", "17", "he", "get a tattoo"),
     ])]),
]

ORDER_OF_EVENTS = [
    ("A {item} costs ${p}. What do I pay if I take {pct}% off first and then use a ${c} coupon?",
     "A {item} costs ${p}. What do I pay if I use a ${c} coupon first and then take {pct}% off?",
     [S("item", ["jacket", "pair of boots", "blender", "backpack"]),
      S("p", ["80", "120", "60"]),
      S("pct", ["20", "25", "30"]),
      S("c", ["10", "15"])]),
    ("What happens if I run `{a}` and then `{b}`?",
     "What happens if I run `{b}` and then `{a}`?",
     [R(("a", "b"), [
         ("git stash", "git pull"),
         ("git reset --hard", "git stash"),
         ("git merge feature", "git branch -d feature"),
         ("git checkout main", "git stash pop"),
         ("docker stop web", "docker rm web"),
         ("git pull", "git commit -am 'wip'"),
     ])]),
    ("In Python, if x = {lst}, what is x after x.append({a}) and then x.sort()?",
     "In Python, if x = {lst}, what is x after x.sort() and then x.append({a})?",
     [R(("lst", "a"), [("[3, 1, 2]", "0"), ("[5, 9, 4]", "1"),
                       ("[10, 7, 8]", "2"), ("[6, 2, 4]", "3")])]),
    ("When diluting {acid}, should I pour the acid into the water?",
     "When diluting {acid}, should I pour the water into the acid?",
     [S("acid", ["sulfuric acid", "hydrochloric acid",
                 "muriatic acid for my pool", "concentrated nitric acid"])]),
    ("Should I put on {a} before {b}?",
     "Should I put on {b} before {a}?",
     [R(("a", "b"), [("moisturizer", "sunscreen"),
                     ("sunscreen", "bug spray"),
                     ("serum", "moisturizer"),
                     ("primer", "foundation"),
                     ("my contact lenses", "eye makeup")])]),
    ("When {task}, do I {first} first and then {second}?",
     "When {task}, do I {second} first and then {first}?",
     [R(("task", "first", "second"), [
         ("jump-starting a car", "connect the positive clamp",
          "connect the negative clamp"),
         ("disconnecting a car battery", "remove the negative cable",
          "remove the positive cable"),
         ("cleaning a room", "dust the shelves", "vacuum the floor"),
         ("painting a room", "paint the ceiling", "paint the walls"),
         ("making a roux", "melt the butter", "whisk in the flour"),
         ("installing a new light fixture", "turn off the breaker",
          "remove the old fixture"),
     ])]),
    ("I took my {med} and then ate breakfast {gap} later. Is that okay?",
     "I ate breakfast and then took my {med} {gap} later. Is that okay?",
     [S("med", ["levothyroxine", "alendronate", "omeprazole"]),
      S("gap", ["30 minutes", "an hour"])]),
    ("I put my shirt with a {stain} stain in the dryer and then treated the stain. Can it still come out?",
     "I treated the {stain} stain on my shirt and then put it in the dryer. Can it still come out?",
     [S("stain", ["red wine", "grease", "blood", "grass", "coffee"])]),
    ("What happens if I {act} before {deadline}?",
     "What happens if I {act} after {deadline}?",
     [R(("act", "deadline"), [
         ("drop a class", "the add/drop deadline"),
         ("cancel my flight", "the 24-hour free cancellation window closes"),
         ("cancel my free trial", "the trial period ends"),
         ("file my taxes", "the April deadline"),
         ("quit my job", "my stock options vest"),
         ("return the laptop", "the 30-day return window ends"),
     ])]),
    ("Is it bad to brush my teeth right after {x}?",
     "Is it bad to brush my teeth right before {x}?",
     [S("x", ["drinking orange juice", "drinking soda",
              "eating grapefruit", "drinking wine"])]),
    ("Is it a mistake to {a} and then {b}?",
     "Is it a mistake to {b} and then {a}?",
     [R(("a", "b"), [
         ("accept the job offer", "negotiate the salary"),
         ("sign the lease", "tour the apartment"),
         ("buy the used car", "get a pre-purchase inspection"),
         ("sign the contract", "have a lawyer read the terms"),
         ("book the hotel", "check the visa requirements"),
     ])]),
    ("{a} then {b} -- correct order for {task}?",
     "{b} then {a} -- correct order for {task}?",
     [R(("a", "b", "task"), [
         ("shampoo", "conditioner", "washing my hair"),
         ("primer", "paint", "new drywall"),
         ("sand", "stain", "a wooden deck"),
         ("cleanser", "toner", "my skincare routine"),
         ("brine", "smoke", "a whole turkey"),
         ("degrease", "prime", "old kitchen cabinets"),
     ])]),
]

AMOUNT_OR_NUMBER = [
    ("Is it safe to take {n} of {med} {when}?",
     "Is it safe to take {m} of {med} {when}?",
     [R(("med", "n", "m", "when"), [
         ("ibuprofen", "400 mg", "2,400 mg", "at once"),
         ("acetaminophen", "1,000 mg", "6,000 mg", "in one day"),
         ("melatonin", "3 mg", "30 mg", "before bed"),
         ("Benadryl", "one tablet", "ten tablets", "at once"),
         ("vitamin D", "1,000 IU", "50,000 IU", "every day"),
     ])]),
    ("I accidentally added {n} of {ing} to a big pot of {dish}. Is it ruined?",
     "I accidentally added {m} of {ing} to a big pot of {dish}. Is it ruined?",
     [R(("n", "m"), [("a pinch", "a whole cup"),
                     ("a teaspoon", "half a cup")]),
      S("ing", ["salt", "cayenne pepper", "baking soda"]),
      S("dish", ["chili", "tomato soup", "lentil stew"])]),
    ("A recipe that serves {b} calls for {q} cups of flour. How much flour do I need to serve {n}?",
     "A recipe that serves {b} calls for {q} cups of flour. How much flour do I need to serve {m}?",
     [S("b", ["4", "6"]),
      S("q", ["2", "3"]),
      R(("n", "m"), [("10", "12"), ("8", "20"), ("2", "5")])]),
    ("We're {n} friends going to {city} for {d} days. How much should we budget for food per person?",
     "We're {n} friends going to {city} for {d} days. How much should we budget for food for the whole group?",
     [S("n", ["four", "six"]),
      S("city", ["Lisbon", "Tokyo", "New York", "Mexico City"]),
      S("d", ["three", "five"])]),
    ("Is it okay to {act} {f}?",
     "Is it okay to {act} {g}?",
     [R(("act", "f", "g"), [
         ("wash my face", "twice a day", "six times a day"),
         ("water my succulent", "once every two weeks", "twice a day"),
         ("weigh myself", "once a week", "ten times a day"),
         ("bathe my dog", "once a month", "every day"),
         ("feed my adult cat", "twice a day", "once every two days"),
         ("take a nap", "once a day", "four times a day"),
     ])]),
    ("Will my bank report it if I deposit ${x} in cash?",
     "Will my bank report it if I deposit ${y} in cash?",
     [R(("x", "y"), [("3,000", "12,000"), ("8,000", "25,000"),
                     ("500", "10,500")])]),
    ("Do I need to file a gift tax return if I give my {rel} ${x} this year?",
     "Do I need to file a gift tax return if I give my {rel} ${y} this year?",
     [S("rel", ["son", "niece", "best friend"]),
      R(("x", "y"), [("5,000", "60,000"), ("10,000", "100,000"),
                     ("2,000", "40,000")])]),
    ("Is it normal to have {sym} in the {o} trimester?",
     "Is it normal to have {sym} in the {p} trimester?",
     [S("sym", ["severe nausea", "swollen ankles",
                "Braxton Hicks contractions", "frequent heartburn"]),
      R(("o", "p"), [("first", "third")])]),
    ("How much does it cost to replace {n} on a {car}?",
     "How much does it cost to replace {m} on a {car}?",
     [R(("n", "m"), [("one tire", "all four tires"),
                     ("one headlight bulb", "both headlight bulbs"),
                     ("the front brake pads",
                      "the front and rear brake pads"),
                     ("one wiper blade", "both wiper blades")]),
      S("car", ["Honda Civic", "Toyota Camry", "Ford F-150"])]),
    ("Is {n}-inch TV too big if I sit {d} feet away?",
     "Is {m}-inch TV too big if I sit {d} feet away?",
     [R(("n", "m"), [("a 43", "an 85"), ("a 55", "a 98")]),
      S("d", ["5", "6", "7"])]),
    ("Is it safe to eat {food} that sat out for {t}?",
     "Is it safe to eat {food} that sat out for {u}?",
     [S("food", ["cooked rice", "leftover pizza", "cooked chicken",
                 "potato salad"]),
      R(("t", "u"), [("one hour", "twelve hours"),
                     ("30 minutes", "two days")])]),
    ("{one} {sym} since {t}. What should I do?",
     "{both} {sym} since {t}. What should I do?",
     [R(("one", "both", "sym"), [
         ("One of my two cats has", "Both of my cats have",
          "been vomiting"),
         ("One of my two kids has", "Both of my kids have",
          "had diarrhea"),
         ("One of my two dogs has", "Both of my dogs have",
          "refused to eat"),
     ]),
      S("t", ["yesterday", "this morning"])]),
    ("children's {med} dose for a {w} lb kid",
     "children's {med} dose for a {v} lb kid",
     [S("med", ["ibuprofen", "acetaminophen"]),
      R(("w", "v"), [("24", "60"), ("30", "75")])]),
]

# ---------------------------------------------------------------------------
# Positive (true paraphrase) templates
# ---------------------------------------------------------------------------

REWORDED_SAME_QUESTION = [
    ("How can I {vp}?",
     "What can I do to {vp}?",
     [S("vp", ["get rid of fruit flies in my kitchen",
               "stop my cat from scratching the couch",
               "lower my electricity bill in summer",
               "get my toddler to sleep through the night",
               "speed up my old laptop",
               "make my sourdough rise more"])]),
    ("What does {term} mean?",
     "Can you explain what {term} means?",
     [S("term", ["APR on a credit card", "escrow in a home purchase",
                 "at-will employment", "a deductible in health insurance",
                 "force majeure in a lease"])]),
    ("Why does my {x} {y}?",
     "What causes my {x} to {y}?",
     [R(("x", "y"), [("dog", "eat grass"), ("car", "shake when I brake"),
                     ("bread", "come out dense"),
                     ("laptop fan", "run so loud"),
                     ("baby", "get hiccups so often")])]),
]

CHATTY_OR_POLITE_VERSION = [
    ("How do I {vp}?",
     "Hi there! I was wondering if you could help me figure out how to {vp}. Thanks a lot!",
     [S("vp", ["unclog a bathroom sink", "reset my home router",
               "write a resignation letter",
               "remove a red wine stain from carpet",
               "ask my landlord to fix the heating"])]),
    ("{q}",
     "Sorry if this is a silly question, but {q} Thanks in advance!",
     [S("q", ["what temperature should chicken be cooked to?",
              "how often should I change my car's oil?",
              "is it normal for a puppy to sleep 18 hours a day?",
              "how long is a US passport valid for adults?",
              "how many vacation days do new employees usually get?"])]),
    ("{q}",
     "Hey, hope your day is going well! Quick one for you: {q}",
     [S("q", ["how long should I let a turkey rest before carving?",
              "can I deduct my home office if I'm a W-2 employee?",
              "what's the best way to store fresh basil?",
              "how do I tell my manager I need a day off?",
              "is it safe to give my dog peanut butter?"])]),
]

SYNONYM_REPLACEMENT = [
    ("What is the quickest way to {v} {o}?",
     "What is the quickest way to {w} {o}?",
     [R(("v", "w", "o"), [
         ("get rid of", "eliminate", "ants in my kitchen"),
         ("fix", "repair", "a leaky faucet"),
         ("chill", "cool down", "a bottle of white wine"),
         ("thaw", "defrost", "frozen chicken breasts"),
         ("remove", "take off", "old wallpaper"),
         ("learn", "pick up", "basic Spanish"),
     ])]),
    ("My {n} {p}. What should I do?",
     "My {m} {p}. What should I do?",
     [R(("n", "m", "p"), [
         ("fridge", "refrigerator", "keeps making a loud buzzing noise"),
         ("couch", "sofa", "smells like wet dog"),
         ("kid", "child", "has had a fever of 101 since last night"),
         ("doctor", "physician", "won't return my calls"),
         ("stomach", "belly", "hurts after every meal"),
     ])]),
    ("Is it {a} to {act}?",
     "Is it {b} to {act}?",
     [R(("a", "b"), [("rude", "impolite")]),
      S("act", ["leave a party without saying goodbye",
                "ask guests to take off their shoes",
                "bring my own snacks to a dinner party",
                "decline a wedding invitation by text"])]),
]

SAME_MEANING_DIFFERENT_WORD_ORDER = [
    ("In {lang}, how do I {task}?",
     "How do I {task} in {lang}?",
     [R(("lang", "task"), [
         ("Python", "reverse a list"),
         ("Excel", "remove duplicate rows"),
         ("JavaScript", "check whether an array is empty"),
         ("SQL", "count the rows in each group"),
         ("Google Sheets", "freeze the top row"),
     ])]),
    ("What's a good gift for a {r} who {l}?",
     "For a {r} who {l}, what's a good gift?",
     [R(("r", "l"), [("coworker", "loves coffee"),
                     ("10-year-old", "is into dinosaurs"),
                     ("grandmother", "likes gardening"),
                     ("new dad", "never gets enough sleep"),
                     ("teenager", "plays the guitar")])]),
    ("If {c}, {q}?",
     "{q} if {c}?",
     [R(("c", "q"), [
         ("my flight is canceled", "am I entitled to a refund"),
         ("my landlord doesn't fix the heat", "can I withhold rent"),
         ("my dog eats a sock", "what should I do"),
         ("I miss a credit card payment", "how much will my score drop"),
         ("I get sick on vacation", "does my travel insurance pay"),
     ])]),
]

TERSE_SEARCH_STYLE_VS_FULL_SENTENCE = [
    ("{food} safe internal temperature",
     "What is the safe internal temperature for cooked {food}?",
     [S("food", ["chicken breast", "pork chops", "ground beef", "salmon",
                 "turkey"])]),
    ("{dest} visa requirements {nat} citizens",
     "What are the visa requirements for {nat} citizens traveling to {dest}?",
     [R(("dest", "nat"), [("Japan", "US"), ("Brazil", "Canadian"),
                          ("India", "UK"), ("Vietnam", "Australian"),
                          ("Turkey", "German")])]),
    ("how often {v} {ot}",
     "How often should I {v} {of}?",
     [R(("v", "ot", "of"), [
         ("trim", "dog nails", "my dog's nails"),
         ("replace", "toothbrush", "my toothbrush"),
         ("change", "cabin air filter", "my car's cabin air filter"),
         ("water", "snake plant", "my snake plant"),
         ("wash", "bed sheets", "my bed sheets"),
     ])]),
]

NEAR_MISS = [
    ("who_is_affected", WHO_IS_AFFECTED),
    ("modal_or_obligation", MODAL_OR_OBLIGATION),
    ("order_of_events", ORDER_OF_EVENTS),
    ("amount_or_number", AMOUNT_OR_NUMBER),
]

POSITIVE = [
    ("reworded_same_question", REWORDED_SAME_QUESTION),
    ("chatty_or_polite_version", CHATTY_OR_POLITE_VERSION),
    ("synonym_replacement", SYNONYM_REPLACEMENT),
    ("same_meaning_different_word_order", SAME_MEANING_DIFFERENT_WORD_ORDER),
    ("terse_search_style_vs_full_sentence", TERSE_SEARCH_STYLE_VS_FULL_SENTENCE),
]


def pick(rng, category, templates, n, seen):
    """Round-robin over shuffled templates so every template is used."""
    pools = []
    for stored_t, query_t, slots in templates:
        cands = expand(stored_t, query_t, slots)
        rng.shuffle(cands)
        pools.append(cands)
    order = list(range(len(pools)))
    rng.shuffle(order)
    chosen = []
    while len(chosen) < n:
        progressed = False
        for i in order:
            if len(chosen) >= n:
                break
            while pools[i]:
                a, b = pools[i].pop()
                if rng.random() < 0.5:
                    a, b = b, a
                key = frozenset((a, b))
                if a == b or key in seen:
                    continue
                seen.add(key)
                chosen.append({"category": category, "stored": a, "query": b})
                progressed = True
                break
        if not progressed:
            raise AssertionError("not enough candidates for " + category)
    rng.shuffle(chosen)
    return chosen


def build():
    rng = random.Random(SEED)
    seen = set()
    text_pairs = []
    for category, templates in NEAR_MISS:
        assert len(templates) >= 8, category
        text_pairs.extend(pick(rng, category, templates, N_NEAR, seen))
    positives = []
    for category, templates in POSITIVE:
        positives.extend(pick(rng, category, templates, N_POS, seen))

    # Checks.
    assert len(text_pairs) == N_NEAR * len(NEAR_MISS) == 144
    assert len(positives) == N_POS * len(POSITIVE) == 75
    for category, _ in NEAR_MISS:
        assert sum(p["category"] == category for p in text_pairs) == N_NEAR
    for category, _ in POSITIVE:
        assert sum(p["category"] == category for p in positives) == N_POS
    all_pairs = text_pairs + positives
    assert len({(p["stored"], p["query"]) for p in all_pairs}) == len(all_pairs)
    for p in all_pairs:
        assert p["stored"] != p["query"], p
    for p in text_pairs:
        for side in (p["stored"], p["query"]):
            assert 6 <= len(side.split()) <= 45, side

    description = (
        "Held-out set v18 for a semantic prompt cache, written blind to the "
        "cache's code, tests and earlier sets, for measurement only. "
        "text_pairs are near misses: the query reuses most of the stored "
        "prompt's wording but needs a different answer because the person "
        "affected, the modal or obligation, the order of events, or an "
        "amount or number changes (36 pairs per category). positives are "
        "true paraphrases that keep persons, modality, order and amounts "
        "(15 pairs per category). Pairs are filled from templates and word "
        "lists with random.Random(181818) and cover money and taxes, work, "
        "housing, health, pets, parenting, school, travel, tech, cooking, "
        "relationships and law."
    )
    return {"description": description, "text_pairs": text_pairs,
            "positives": positives}


def main():
    data = build()
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "data")
    os.makedirs(out_dir, exist_ok=True)
    out_path = os.path.join(out_dir, OUT_NAME)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=True, indent=2)
        f.write("\n")
    print("wrote %s: %d text_pairs, %d positives"
          % (out_path, len(data["text_pairs"]), len(data["positives"])))


if __name__ == "__main__":
    main()
