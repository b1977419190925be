#!/usr/bin/env python3
"""Held-out evaluation set v29 for the semantic prompt cache (written blind).

Written blind: every template and word list below was written from scratch for
this file, without looking at the project's code, tests, docs or other data
sets, and without consulting any existing paraphrase or cache data set.

Theme: how people actually type into chat assistants and search-like boxes.
Terse, keyword-style prompts ("python sort dict by value", "best time visit
japan", "convert 8 km to miles") sit beside full-sentence questions, across
many domains: programming (Python, JavaScript, Java, Go, Rust, SQL, git, bash),
spreadsheets, cooking, travel, health basics, personal finance, home repair,
gardening, sports rules, history, science, law basics, shopping, grammar and
language learning, and math.

Two lists are written:

* ``text_pairs`` - 200 near-miss pairs (10 categories x 20) that must NOT be
  served from the cache: the two prompts share almost all of their words, but
  a careful human would give a different answer. Categories:
  nm_terse_changed_entity, nm_terse_swapped_direction,
  nm_changed_tool_platform_version, nm_changed_number_or_unit,
  nm_changed_answer_constraint, nm_negation_or_exclusion,
  nm_flipped_comparative_superlative, nm_terse_vs_different_full_question,
  nm_scope_modifier, nm_time_frame.
* ``positives`` - 160 true paraphrase pairs (8 categories x 20) that a careful
  human would answer identically, so the cache SHOULD serve the stored answer.
  Categories: pos_terse_vs_full_question, pos_terse_reordered,
  pos_full_question_reworded, pos_explain_whatis_forms,
  pos_case_punct_whitespace, pos_abbreviation_expanded, pos_polite_wrapper,
  pos_typo.

Every category has at least six templates filled from hand-written word
lists; templates are drawn round-robin, all pairs are unique, no prompt is
reused within a category and stored != query. Deterministic: standard library
only, ``random.Random(292929)``.

Run from the repository root:

    python3 benchmarks/caches/make_heldout_v29.py

It writes ``benchmarks/caches/data/heldout_generated_v29.json``.
"""

import json
import os
import random

SEED = 292929
N_NEAR_MISS = 20
N_POSITIVE = 20

rng = random.Random(SEED)


def R(keys, rows):
    """Turn a list of tuples (or bare strings) into dicts keyed by ``keys``."""
    keys = keys.split()
    out = []
    for row in rows:
        if not isinstance(row, tuple):
            row = (row,)
        assert len(row) == len(keys), (keys, row)
        out.append(dict(zip(keys, row)))
    return out


def PAIRS(rows):
    """Rows that already are explicit (stored, query) pairs."""
    return "{s}", "{q}", R("s q", rows)


def lcfirst(text):
    return text[0].lower() + text[1:]


# ---------------------------------------------------------------------------
# NEAR-MISS categories (must NOT be served from the cache)
# ---------------------------------------------------------------------------

NEAR_MISS = {}

# 1. A terse query whose object / entity changed.
NEAR_MISS["nm_terse_changed_entity"] = [
    ("{lang} sort {coll} by {a}", "{lang} sort {coll} by {b}", R("lang coll a b", [
        ("python", "dict", "key", "value"),
        ("python", "list of dicts", "name", "age"),
        ("javascript", "array of objects", "name", "date"),
        ("python", "list of strings", "length", "last letter"),
        ("linux", "files", "size", "modification date"),
    ])),
    ("calories in {a}", "calories in {b}", R("a b", [
        ("a boiled egg", "a fried egg"),
        ("1 cup of cooked rice", "1 cup of cooked quinoa"),
        ("a medium banana", "a medium apple"),
        ("a slice of pepperoni pizza", "a slice of cheese pizza"),
        ("100g of salmon", "100g of chicken breast"),
    ])),
    ("capital of {a}", "capital of {b}", R("a b", [
        ("austria", "australia"),
        ("slovakia", "slovenia"),
        ("niger", "nigeria"),
        ("iceland", "ireland"),
        ("sweden", "switzerland"),
    ])),
    ("how to grow {a} from seed", "how to grow {b} from seed", R("a b", [
        ("tomatoes", "peppers"),
        ("lavender", "rosemary"),
        ("avocado", "mango"),
        ("basil", "cilantro"),
        ("sunflowers", "zinnias"),
    ])),
    ("excel {a} formula example", "excel {b} formula example", R("a b", [
        ("vlookup", "hlookup"),
        ("sumif", "countif"),
        ("left", "right"),
        ("round", "roundup"),
        ("index match", "xlookup"),
    ])),
    ("symptoms of {a}", "symptoms of {b}", R("a b", [
        ("hypothyroidism", "hyperthyroidism"),
        ("vitamin d deficiency", "vitamin b12 deficiency"),
        ("the flu", "strep throat"),
        ("low blood sugar", "low blood pressure"),
    ])),
    ("boiling point of {a}", "boiling point of {b}", R("a b", [
        ("ethanol", "methanol"),
        ("water", "acetone"),
        ("nitrogen", "oxygen"),
        ("mercury", "bromine"),
    ])),
]

# 2. Direction / order of two items in a terse query.
NEAR_MISS["nm_terse_swapped_direction"] = [
    ("flights {a} to {b}", "flights {b} to {a}", R("a b", [
        ("paris", "rome"),
        ("london", "dublin"),
        ("new york", "chicago"),
        ("tokyo", "seoul"),
        ("sydney", "auckland"),
    ])),
    ("convert {n} {a} to {b}", "convert {n} {b} to {a}", R("n a b", [
        ("5", "km", "miles"),
        ("10", "kg", "lbs"),
        ("350", "fahrenheit", "celsius"),
        ("3", "liters", "gallons"),
        ("12", "inches", "cm"),
    ])),
    ("{n} {a} to {b}", "{n} {b} to {a}", R("n a b", [
        ("100", "usd", "eur"),
        ("50", "gbp", "usd"),
        ("1000", "jpy", "usd"),
        ("20", "eur", "chf"),
        ("500", "inr", "aud"),
    ])),
    ("{lang} convert {a} to {b}", "{lang} convert {b} to {a}", R("lang a b", [
        ("python", "list", "string"),
        ("python", "string", "datetime"),
        ("javascript", "array", "object"),
        ("java", "int", "string"),
        ("c#", "string", "int"),
    ])),
    ("transfer {x} from {a} to {b}", "transfer {x} from {b} to {a}", R("x a b", [
        ("photos", "iphone", "android"),
        ("contacts", "android", "iphone"),
        ("files", "windows pc", "mac"),
        ("playlists", "spotify", "apple music"),
    ])),
    ("{t} {a} to {b}", "{t} {b} to {a}", R("t a b", [
        ("3pm", "est", "pst"),
        ("9am", "gmt", "ist"),
        ("noon", "cet", "jst"),
        ("8pm", "pst", "cet"),
    ])),
    ("git merge {a} into {b}", "git merge {b} into {a}", R("a b", [
        ("main", "feature branch"),
        ("develop", "main"),
        ("release branch", "develop"),
    ])),
    ("Is {a} bigger than {b}?", "Is {b} bigger than {a}?", R("a b", [
        ("Texas", "France"),
        ("Canada", "the United States"),
        ("Jupiter", "Saturn"),
        ("Greenland", "Australia"),
    ])),
]

# 3. Changed language / tool / platform / version.
NEAR_MISS["nm_changed_tool_platform_version"] = [
    ("pandas {op}", "polars {op}", R("op", [
        "drop duplicates",
        "group by and sum",
        "read csv with semicolon delimiter",
        "rename column",
        "filter rows by condition",
    ])),
    ("{task} {a}", "{task} {b}", R("task a b", [
        ("take screenshot", "windows", "mac"),
        ("check disk space", "mac", "linux"),
        ("find ip address", "windows", "linux"),
        ("set environment variable", "windows", "mac"),
        ("show hidden files", "mac", "windows"),
    ])),
    ("{task} {a}", "{task} {b}", R("task a b", [
        ("print without newline", "python 2", "python 3"),
        ("integer division", "python 2", "python 3"),
        ("switch statement", "java 8", "java 17"),
        ("render root component", "react 17", "react 18"),
        ("http get request", "node 16", "node 18"),
    ])),
    ("{a} {task}", "{b} {task}", R("a b task", [
        ("excel", "google sheets", "freeze top row"),
        ("word", "google docs", "track changes"),
        ("photoshop", "gimp", "remove background"),
        ("vscode", "intellij", "multi cursor shortcut"),
        ("outlook", "gmail", "recall sent email"),
    ])),
    ("{task} {a}", "{task} {b}", R("task a b", [
        ("clear cache", "chrome", "firefox"),
        ("disable pop-up blocker", "safari", "edge"),
        ("clear cookies for one site", "chrome", "safari"),
        ("open private window", "firefox", "safari"),
    ])),
    ("How do I {task} in {a}?", "How do I {task} in {b}?", R("task a b", [
        ("reverse a string", "Go", "Rust"),
        ("read a file line by line", "Java", "C++"),
        ("check if a key exists in a map", "Go", "Java"),
        ("parse JSON", "Python", "JavaScript"),
    ])),
    ("{task} {a}", "{task} {b}", R("task a b", [
        ("limit rows", "sql server", "mysql"),
        ("auto increment column", "postgresql", "mysql"),
        ("string concatenation", "oracle", "sql server"),
        ("list all tables", "postgresql", "mysql"),
    ])),
]

# 4. Changed number or unit.
NEAR_MISS["nm_changed_number_or_unit"] = [
    ("convert {a} {u} to {v}", "convert {b} {u} to {v}", R("a b u v", [
        ("15", "50", "km", "miles"),
        ("100", "180", "f", "c"),
        ("2", "20", "cups", "ml"),
        ("8", "80", "oz", "grams"),
        ("6", "16", "feet", "meters"),
    ])),
    ("how many {a} in a {x}", "how many {b} in a {x}", R("a b x", [
        ("teaspoons", "tablespoons", "cup"),
        ("feet", "yards", "mile"),
        ("seconds", "minutes", "day"),
        ("grams", "ounces", "pound"),
        ("ml", "fluid ounces", "liter"),
    ])),
    ("{p}% tip on ${a}", "{p}% tip on ${b}", R("p a b", [
        ("20", "45", "54"),
        ("15", "36", "63"),
        ("18", "72", "27"),
        ("25", "48", "84"),
    ])),
    ("how long to bake {food} at {a}f", "how long to bake {food} at {b}f", R("food a b", [
        ("salmon", "350", "400"),
        ("chicken breast", "375", "425"),
        ("potatoes", "400", "450"),
        ("meatloaf", "325", "375"),
    ])),
    ("monthly payment {amt} mortgage {a} years {r}%",
     "monthly payment {amt} mortgage {b} years {r}%", R("amt a b r", [
         ("300k", "30", "15", "6"),
         ("450k", "30", "20", "7"),
         ("250k", "15", "10", "5.5"),
     ])),
    ("is {a} prime", "is {b} prime", R("a b", [
        ("91", "97"),
        ("51", "53"),
        ("87", "89"),
        ("57", "59"),
    ])),
    ("{a} anniversary gift", "{b} anniversary gift", R("a b", [
        ("5th", "10th"),
        ("1st", "15th"),
        ("25th", "50th"),
        ("20th", "30th"),
    ])),
    ("How many calories does a {a}-minute run burn?",
     "How many calories does a {b}-minute run burn?", R("a b", [
         ("20", "60"),
         ("30", "90"),
         ("45", "15"),
     ])),
]

# 5. Changed constraint on the form of the answer.
NEAR_MISS["nm_changed_answer_constraint"] = [
    ("explain {t} in one sentence", "explain {t} in detail", R("t", [
        "inflation", "blockchain", "photosynthesis", "the electoral college",
        "recursion",
    ])),
    ("{t} explained for kids", "{t} explained for experts", R("t", [
        "black holes", "quantum entanglement", "how vaccines work",
        "the stock market",
    ])),
    ("list {a} {x}", "list {b} {x}", R("a b x", [
        ("3", "10", "tips for better sleep"),
        ("5", "20", "easy dinner ideas"),
        ("3", "15", "common spanish verbs"),
        ("5", "25", "interview questions for a software engineer"),
    ])),
    ("translate '{p}' to {a}", "translate '{p}' to {b}", R("p a b", [
        ("where is the train station", "spanish", "french"),
        ("thank you very much", "italian", "german"),
        ("i would like a coffee", "portuguese", "spanish"),
        ("happy birthday", "japanese", "korean"),
    ])),
    ("{book} summary one paragraph", "{book} summary chapter by chapter", R("book", [
        "1984", "the great gatsby", "to kill a mockingbird", "animal farm",
    ])),
    ("write a {a} about {s}", "write a {b} about {s}", R("a b s", [
        ("haiku", "limerick", "autumn"),
        ("sonnet", "haiku", "the ocean"),
        ("short poem", "short story", "a lost dog"),
        ("limerick", "haiku", "a cat who loves coffee"),
    ])),
    ("{q} Answer with yes or no only.", "{q} Give me the pros and cons.", R("q", [
        "Is coffee bad for you?",
        "Should I pay off my mortgage early?",
        "Is renting better than buying a house?",
        "Should I learn Rust before C++?",
    ])),
    ("python {task} one liner", "python {task} step by step", R("task", [
        "fizzbuzz", "flatten a nested list", "count word frequency",
        "remove vowels from a string",
    ])),
]

# 6. Negation or exclusion in (mostly) terse form.
NEAR_MISS["nm_negation_or_exclusion"] = [
    ("{d} recipe without {i}", "{d} recipe with {i}", R("d i", [
        ("pancake", "eggs"),
        ("banana bread", "butter"),
        ("pizza dough", "yeast"),
        ("mac and cheese", "milk"),
        ("cheesecake", "cream cheese"),
    ])),
    ("sql select rows where {c} is null", "sql select rows where {c} is not null", R("c", [
        "email", "end_date", "manager_id", "phone_number",
    ])),
    ("countries that require a visa for {n} citizens",
     "countries that don't require a visa for {n} citizens", R("n", [
         "us", "indian", "uk", "canadian",
     ])),
    ("houseplants safe for {p}", "houseplants not safe for {p}", R("p", [
        "cats", "dogs", "rabbits", "parrots",
    ])),
    ("{m} workout without weights", "{m} workout with weights", R("m", [
        "leg", "arm", "back", "chest", "core",
    ])),
    ("{subj} that {pos}", "{subj} that {neg}", R("subj pos neg", [
        ("javascript array methods", "mutate the array", "don't mutate the array"),
        ("python list methods", "modify the list in place", "don't modify the list in place"),
        ("python data types", "are mutable", "are not mutable"),
        ("english verbs", "are followed by a gerund", "are not followed by a gerund"),
    ])),
    ("foods safe to eat {ctx}", "foods not safe to eat {ctx}", R("ctx", [
        "with gout", "during pregnancy", "with acid reflux", "with diverticulitis",
    ])),
    ("Which {x} are tax deductible?", "Which {x} are not tax deductible?", R("x", [
        "home office expenses", "medical expenses", "business travel costs",
        "education expenses",
    ])),
]

# 7. Comparative / superlative flipped.
NEAR_MISS["nm_flipped_comparative_superlative"] = [
    ("cheapest {x}", "most expensive {x}", R("x", [
        "cities to visit in europe", "car brands to maintain",
        "cities to live in the us", "countries to visit in asia",
    ])),
    ("largest {x}", "smallest {x}", R("x", [
        "country in africa", "planet in the solar system", "ocean",
        "state in the us", "bone in the human body",
    ])),
    ("What is the fastest way to get from {a} to {b}?",
     "What is the cheapest way to get from {a} to {b}?", R("a b", [
         ("London", "Paris"),
         ("JFK airport", "Manhattan"),
         ("Rome", "Florence"),
         ("Tokyo", "Kyoto"),
     ])),
    ("best time to visit {c}", "worst time to visit {c}", R("c", [
        "thailand", "iceland", "india", "peru",
    ])),
    ("highest mountain in {c}", "second highest mountain in {c}", R("c", [
        "africa", "europe", "the us", "japan", "canada",
    ])),
    ("richest {x}", "poorest {x}", R("x", [
        "country in europe", "state in the us", "country in south america",
        "country in asia",
    ])),
    ("{f} with the most protein", "{f} with the least protein", R("f", [
        "nuts", "beans", "cheeses", "fish",
    ])),
    ("safest {x}", "most dangerous {x}", R("x", [
        "cities in the us", "countries in south america", "airlines",
        "national parks to hike alone",
    ])),
]

# 8. Terse query vs a full question that is worded closely but asks something else.
NEAR_MISS["nm_terse_vs_different_full_question"] = [
    ("{lang} {feat}", "Which {Lang} version introduced {feat_q}?", R("lang Lang feat feat_q", [
        ("python", "Python", "walrus operator", "the walrus operator"),
        ("python", "Python", "f-strings", "f-strings"),
        ("java", "Java", "records", "records"),
        ("javascript", "JavaScript", "optional chaining", "optional chaining"),
        ("python", "Python", "match statement", "the match statement"),
    ])),
    ("{sport} {rule} rule", "When was the {rule} rule introduced in {sport}?", R("sport rule", [
        ("basketball", "shot clock"),
        ("tennis", "tiebreak"),
        ("baseball", "designated hitter"),
        ("soccer", "back pass"),
    ])),
    ("{med} max dose", "What happens if you take more than the max dose of {med}?", R("med", [
        "ibuprofen", "acetaminophen", "melatonin", "aspirin",
    ])),
    ("{e} causes", "What were the consequences of {E}?", R("e E", [
        ("french revolution", "the French Revolution"),
        ("world war 1", "World War 1"),
        ("great depression", "the Great Depression"),
        ("fall of rome", "the fall of Rome"),
    ])),
    ("{item} prices", "Why have {item} prices gone up so much?", R("item", [
        "egg", "coffee", "cocoa", "used car",
    ])),
    ("{dish} recipe", "Where does the {Dish} recipe originally come from?", R("dish Dish", [
        ("carbonara", "carbonara"),
        ("pad thai", "pad thai"),
        ("tiramisu", "tiramisu"),
        ("caesar salad", "Caesar salad"),
        ("beef stroganoff", "beef stroganoff"),
    ])),
    ("{plant} sunlight needs", "Why is my {plant} turning yellow in direct sunlight?", R("plant", [
        "monstera", "snake plant", "fiddle leaf fig", "pothos",
    ])),
    ("{w} meaning", "What is the origin of the word '{w}'?", R("w", [
        "serendipity", "quarantine", "salary", "robot", "avocado",
    ])),
]

# 9. A modifier that changes the scope of the answer.
NEAR_MISS["nm_scope_modifier"] = [
    ("{t} workout at home", "{t} workout at the gym", R("t", [
        "leg", "full body", "upper body", "glute",
    ])),
    ("{s} tips for beginners", "{s} tips for advanced players", R("s", [
        "chess", "poker", "tennis", "golf",
    ])),
    ("{what} for a {a} year old", "{what} for a {b} year old", R("what a b", [
        ("birthday party ideas", "3", "13"),
        ("birthday party ideas", "5", "15"),
        ("gift ideas", "4", "14"),
        ("chores", "6", "16"),
    ])),
    ("what to wear in {c} in winter", "what to wear in {c} in summer", R("c", [
        "new york", "tokyo", "rome", "chicago",
    ])),
    ("{p} care indoors", "{p} care outdoors", R("p", [
        "rosemary", "lavender", "fig tree", "hibiscus",
    ])),
    ("{l} project ideas for beginners", "{l} project ideas for experienced developers", R("l", [
        "python", "rust", "javascript", "go",
    ])),
    ("things to do in {c} with kids", "things to do in {c} for couples", R("c", [
        "lisbon", "barcelona", "london", "san diego",
    ])),
    ("How much should I save for retirement in my {a}?",
     "How much should I save for retirement in my {b}?", R("a b", [
         ("20s", "50s"),
         ("30s", "60s"),
         ("40s", "20s"),
     ])),
]

# 10. Time frame changed.
NEAR_MISS["nm_time_frame"] = [
    ("{c} population {a}", "{c} population {b}", R("c a b", [
        ("japan", "1960", "2020"),
        ("nigeria", "1990", "2020"),
        ("germany", "1980", "2010"),
        ("india", "1950", "2000"),
    ])),
    ("world cup winner {a}", "world cup winner {b}", R("a b", [
        ("2014", "2018"),
        ("2010", "2022"),
        ("1998", "2002"),
        ("2006", "1994"),
    ])),
    ("what to eat before a {x}", "what to eat after a {x}", R("x", [
        "run", "workout", "swim", "long hike",
    ])),
    ("Who was the {o} in {a}?", "Who was the {o} in {b}?", R("o a b", [
        ("US president", "1995", "2005"),
        ("UK prime minister", "1985", "1995"),
        ("German chancellor", "2000", "2010"),
        ("French president", "2010", "2020"),
    ])),
    ("{k} stretches before running", "{k} stretches after running", R("k", [
        "static", "hamstring", "hip flexor", "calf",
    ])),
    ("{c} weather this weekend", "{c} weather next weekend", R("c", [
        "seattle", "denver", "boston", "miami",
    ])),
    ("summer olympics host city {a}", "summer olympics host city {b}", R("a b", [
        ("2012", "2016"),
        ("2000", "2004"),
        ("2008", "2020"),
        ("1996", "1992"),
    ])),
    ("average us house price {a}", "average us house price {b}", R("a b", [
        ("1980", "2020"),
        ("1990", "2010"),
        ("1970", "2000"),
    ])),
]


# ---------------------------------------------------------------------------
# POSITIVE categories (true paraphrases, SHOULD be served from the cache)
# ---------------------------------------------------------------------------

POSITIVES = {}

# 1. Terse query vs the full question it stands for.
POSITIVES["pos_terse_vs_full_question"] = [
    ("{lt} {tt}", "How do I {tf} in {lf}?", R("lt lf tt tf", [
        ("python", "Python", "sort dict by value", "sort a dictionary by value"),
        ("python", "Python", "reverse list", "reverse a list"),
        ("javascript", "JavaScript", "remove duplicates from array",
         "remove duplicates from an array"),
        ("java", "Java", "read file line by line", "read a file line by line"),
        ("bash", "bash", "loop over files in directory", "loop over the files in a directory"),
        ("git", "git", "undo last commit", "undo the last commit"),
    ])),
    ("convert {n} {a} to {b}", "How many {b} is {n} {a}?", R("n a b", [
        ("8", "km", "miles"),
        ("2", "cups", "milliliters"),
        ("70", "kg", "pounds"),
        ("6", "feet", "meters"),
        ("100", "grams", "ounces"),
    ])),
    ("best time visit {c}", "When is the best time of year to visit {C}?", R("c C", [
        ("japan", "Japan"),
        ("italy", "Italy"),
        ("morocco", "Morocco"),
        ("vietnam", "Vietnam"),
    ])),
    ("symptoms {t}", "What are the symptoms of {f}?", R("t f", [
        ("low iron women", "low iron in women"),
        ("dehydration toddlers", "dehydration in toddlers"),
        ("vitamin d deficiency adults", "vitamin D deficiency in adults"),
        ("heat stroke", "heat stroke"),
    ])),
    ("{food} boiling time", "How long should I boil {food}?", R("food", [
        "corn on the cob", "potatoes", "broccoli", "lentils",
    ])),
    ("capital {c}", "What is the capital of {C}?", R("c C", [
        ("canada", "Canada"),
        ("kazakhstan", "Kazakhstan"),
        ("new zealand", "New Zealand"),
        ("brazil", "Brazil"),
    ])),
    ("{w} past tense", "What is the past tense of '{w}'?", R("w", [
        "swim", "drink", "bring", "seek", "fly",
    ])),
    ("{a} {b} difference", "What is the difference between {A} and {B}?", R("a b A B", [
        ("affect", "effect", "affect", "effect"),
        ("baking soda", "baking powder", "baking soda", "baking powder"),
        ("tcp", "udp", "TCP", "UDP"),
        ("roth ira", "traditional ira", "a Roth IRA", "a traditional IRA"),
    ])),
]

# 2. Terse query with words reordered where order does not matter.
POSITIVES["pos_terse_reordered"] = [
    ("{c} best time to visit", "best time to visit {c}", R("c", [
        "costa rica", "new zealand", "portugal", "greece",
    ])),
    ("{task} {lang}", "{lang} {task}", R("task lang", [
        ("sort list of tuples", "python"),
        ("deep copy object", "javascript"),
        ("string to int", "c#"),
        ("check if file exists", "bash"),
        ("get current date", "java"),
    ])),
    ("calories {f}", "{f} calories", R("f", [
        "avocado", "2 slices of bacon", "glass of red wine", "cup of cooked pasta",
    ])),
    ("{c} symptoms", "symptoms {c}", R("c", [
        "lyme disease", "appendicitis", "celiac disease", "shingles",
    ])),
    ("{d} recipe easy", "easy {d} recipe", R("d", [
        "chicken curry", "lasagna", "guacamole", "shakshuka",
    ])),
    ("{r} rule {s}", "{s} {r} rule", R("r s", [
        ("offside", "soccer"),
        ("infield fly", "baseball"),
        ("traveling", "basketball"),
        ("lbw", "cricket"),
    ])),
    ("{w} synonyms", "synonyms for {w}", R("w", [
        "happy", "important", "difficult", "beautiful",
    ])),
    ("{c} things to do", "things to do in {c}", R("c", [
        "kyoto", "edinburgh", "montreal", "cape town",
    ])),
]

# 3. Full question reworded.
POSITIVES["pos_full_question_reworded"] = [
    ("What is the largest {x}?", "Which {x} is the biggest?", R("x", [
        "planet in the solar system", "ocean on Earth", "country in South America",
        "lake in Africa",
    ])),
    ("How long does it take to {x}?", "How much time does it take to {x}?", R("x", [
        "hard-boil an egg", "fly from London to New York", "digest a meal",
        "walk a mile",
    ])),
    ("Who wrote {b}?", "Who is the author of {b}?", R("b", [
        "Pride and Prejudice", "One Hundred Years of Solitude", "Frankenstein",
        "The Little Prince",
    ])),
    ("When did {e} start?", "In what year did {e} begin?", R("e", [
        "World War I", "the French Revolution", "the Great Depression",
        "the American Civil War",
    ])),
    ("Why is {x}?", "What makes {x}?", R("x", [
        "the sky blue", "the ocean salty", "the moon red during a lunar eclipse",
        "grass green",
    ])),
    ("What is the melting point of {s}?", "At what temperature does {s} melt?", R("s", [
        "gold", "lead", "aluminum", "iron",
    ])),
    ("Is it safe to {x}?", "Can I safely {x}?", R("x", [
        "eat raw cookie dough", "freeze cooked rice", "reheat chicken twice",
        "use olive oil for deep frying",
    ])),
    ("How do I {x}?", "What are the steps to {x}?", R("x", [
        "change a flat tire", "unclog a bathroom sink", "reset a tripped circuit breaker",
        "bleed a radiator",
    ])),
]

# 4. "can you explain X" / "explain X" / "what is X" forms.
POSITIVES["pos_explain_whatis_forms"] = [
    ("can you explain {x}", "explain {x}", R("x", [
        "recursion", "compound interest", "the offside rule in soccer",
        "how a bill becomes a law",
    ])),
    ("what is {x}", "explain {x}", R("x", [
        "photosynthesis", "the greenhouse effect", "machine learning", "the placebo effect",
    ])),
    ("What is {x}?", "Can you tell me what {x} is?", R("x", [
        "a mutual fund", "the Pythagorean theorem", "an API", "dark matter",
    ])),
    ("explain {x} please", "Could you explain {x}?", R("x", [
        "the subjunctive mood", "big O notation", "the water cycle", "supply and demand",
    ])),
    ("what does {x} mean", "what is the meaning of {x}", R("x", [
        "idempotent", "force majeure", "carpe diem", "amortization",
    ])),
    ("define {x}", "what is the definition of {x}", R("x", [
        "habeas corpus", "osmosis", "a prime number", "opportunity cost",
    ])),
    ("How does {x} work?", "Can you explain how {x} works?", R("x", [
        "a heat pump", "a credit score", "a bloom filter", "a 401(k)",
        "garbage collection in Java",
    ])),
]


# 5. Casing, punctuation and whitespace changes.
def _spaced(text):
    words = text.split(" ")
    out = []
    for i, w in enumerate(words):
        out.append(w)
        if i < len(words) - 1:
            out.append(" " * (1 + (i % 3 == 1) + (i % 4 == 2)))
    return "  " + "".join(out) + "  "


POSITIVES["pos_case_punct_whitespace"] = [
    PAIRS([(b, b.lower().rstrip("?")) for b in [
        "How do I convert Celsius to Fahrenheit?",
        "What is the speed of light?",
        "How many players are on a soccer team?",
        "When was the Eiffel Tower built?",
    ]]),
    PAIRS([(b, b[0].upper() + b[1:] + "?") for b in [
        "python list comprehension example",
        "sourdough starter feeding schedule",
        "excel remove blank rows",
        "how to tie a tie",
    ]]),
    PAIRS([(b, _spaced(b)) for b in [
        "what is the capital of peru",
        "how to unclog a drain",
        "pythagorean theorem formula",
        "healthy lunch ideas for work",
    ]]),
    PAIRS([(b, b.upper()) for b in [
        "how many ounces in a pound",
        "what time zone is arizona in",
        "best way to learn guitar",
        "how to get rid of fruit flies",
    ]]),
    PAIRS([
        ("excel freeze top row", "excel: freeze top row"),
        ("sql join three tables", "sql - join three tables"),
        ("git delete remote branch", "git: delete remote branch"),
        ("spanish ser or estar", "spanish - ser or estar?"),
        ("css center a div", "css: center a div"),
    ]),
    PAIRS([
        ("Why is my sourdough so dense?", "why is my sourdough so dense??"),
        ("How do I get my cat to stop scratching the couch?",
         "how do i get my cat to stop scratching the couch?!"),
        ("Is a tomato a fruit?", "is a tomato a fruit???"),
        ("What does 'ls -la' do?", "what does 'ls -la' do..."),
    ]),
    PAIRS([
        ("gluten free pancake recipe", "gluten-free pancake recipe"),
        ("how to say thank you in french", "how to say \"thank you\" in french"),
        ("nonstick pan care", "non-stick pan care"),
        ("self employed tax deductions", "self-employed tax deductions"),
    ]),
]

# 6. Common abbreviations spelt out.
POSITIVES["pos_abbreviation_expanded"] = [
    ("javascript {t}", "js {t}", R("t", [
        "deep clone object", "check if array is empty", "debounce function", "format date",
    ])),
    ("{a} versus {b}", "{a} vs {b}", R("a b", [
        ("roth ira", "traditional ira"),
        ("react", "vue"),
        ("espresso", "drip coffee"),
        ("tile", "laminate flooring"),
    ])),
    ("{d} with {i}", "{d} w/ {i}", R("d i", [
        ("chicken stir fry", "broccoli"),
        ("pasta", "garlic and olive oil"),
        ("fried rice", "egg"),
        ("green smoothie", "spinach"),
    ])),
    ("approximately {q}", "approx {q}", R("q", [
        "how many people live in tokyo", "how far is the moon from earth",
        "how many calories in a bagel", "how long to drive from los angeles to san francisco",
    ])),
    ("how many {af} in {bf}", "how many {a} in {b}", R("a b af bf", [
        ("tsp", "a tbsp", "teaspoons", "a tablespoon"),
        ("ml", "a tsp", "milliliters", "a teaspoon"),
        ("oz", "a lb", "ounces", "a pound"),
        ("cm", "a ft", "centimeters", "a foot"),
    ])),
    ("what's the difference between {x}", "what's the diff between {x}", R("x", [
        "a crocodile and an alligator", "weather and climate", "stocks and bonds",
        "a virus and bacteria",
    ])),
    PAIRS([
        ("kubernetes restart pod", "k8s restart pod"),
        ("typescript interface or type", "ts interface or type"),
        ("postgresql list databases", "postgres list databases"),
        ("new york city best pizza", "nyc best pizza"),
        ("database normalization explained", "db normalization explained"),
    ]),
    PAIRS([
        ("birthday party ideas for 5 year old", "bday party ideas for 5 yr old"),
        ("information about visa on arrival in bali", "info about visa on arrival in bali"),
        ("recommendations for books like dune", "recs for books like dune"),
        ("government shutdown meaning", "govt shutdown meaning"),
    ]),
]

# 7. A polite wrapper or greeting added.
_WRAPPERS = [
    lambda b: "hi, quick question: " + lcfirst(b),
    lambda b: "Hello! " + b,
    lambda b: b + " - thanks in advance!",
    lambda b: "Hey there, could you help me with something? " + b[0].upper() + b[1:],
    lambda b: "Good morning! " + b + ("" if b.endswith("?") else ".") + " Thank you.",
    lambda b: "quick q: " + lcfirst(b),
    lambda b: ("Sorry to bother you, but " + lcfirst(b)) if b.endswith("?")
    else "Sorry to bother you, but could you help with this: " + b,
    lambda b: "I have a question. " + b,
]
_POLITE_BASES = [
    "How do I remove a stripped screw?",
    "best soil for growing blueberries",
    "What is icing in hockey?",
    "how to calculate compound interest monthly",
    "Is 'data' singular or plural?",
    "how much rice per person",
    "What does a notary public do?",
    "python virtual environment setup",
    "When did the Berlin Wall fall?",
    "how to fix a running toilet",
    "What is the difference between a lease and a rental agreement?",
    "how long to let steak rest",
    "Why do cats purr?",
    "excel count cells with text",
    "How do I say 'good night' in German?",
    "how often to water succulents",
    "What causes hiccups?",
    "what is a good credit score",
    "how to patch a hole in drywall",
    "What is the area of a circle with radius 5?",
    "How many bones are in the human body?",
    "tennis scoring explained",
    "What is the plural of 'cactus'?",
    "how to prune tomato plants",
]
_bases = list(_POLITE_BASES)
rng.shuffle(_bases)
POSITIVES["pos_polite_wrapper"] = [
    PAIRS([(b, w(b)) for b in _bases[i::len(_WRAPPERS)]])
    for i, w in enumerate(_WRAPPERS)
]

# 8. Typos of one or two letters in a common word.
POSITIVES["pos_typo"] = [
    ("{d} recipe for beginners", "{d} recipie for beginners", R("d", [
        "sourdough bread", "beef stew", "chocolate chip cookie", "pad thai",
    ])),
    ("how to add {x} to google calendar", "how to add {x} to google calender", R("x", [
        "a recurring event", "birthdays", "an outlook invite", "public holidays",
    ])),
    ("python dictionary {op}", "python dictonary {op}", R("op", [
        "get default value", "comprehension example", "iterate over keys and values", "remove a key",
    ])),
    ("best {cu} restaurant in {c}", "best {cu} restuarant in {c}", R("cu c", [
        ("thai", "chicago"),
        ("italian", "boston"),
        ("ramen", "seattle"),
        ("vegan", "austin"),
    ])),
    ("how to separate {x}", "how to seperate {x}", R("x", [
        "egg whites from yolks", "first and last name in excel", "laundry by color",
        "cream from milk",
    ])),
    ("what temperature to {x}", "what temprature to {x}", R("x", [
        "store red wine", "bake sourdough", "set a freezer", "cook pork chops to",
    ])),
    ("how to calculate {x} payment", "how to calculate {y} payment", R("x y", [
        ("monthly mortgage", "monthly morgage"),
        ("15 year mortgage", "15 year morgage"),
        ("interest only mortgage", "interest only morgage"),
        ("mortgage", "morgage"),
    ])),
    ("is it necessary to {x}", "is it neccessary to {x}", R("x", [
        "rinse rice before cooking", "peel carrots", "let bread dough rest",
        "prime a wall before painting",
    ])),
    ("how long does it take to receive {x}", "how long does it take to recieve {x}", R("x", [
        "a tax refund", "a new passport", "a social security card",
    ])),
]


# ---------------------------------------------------------------------------
# Builder
# ---------------------------------------------------------------------------

def build(categories, n_per_cat, swap, seen):
    out = []
    for cat, templates in categories.items():
        assert len(templates) >= 6, (cat, len(templates))
        pools = []
        for stored_fmt, query_fmt, rows in templates:
            cands = [(stored_fmt.format(**r), query_fmt.format(**r)) for r in rows]
            rng.shuffle(cands)
            pools.append(cands)
        idx = [0] * len(pools)
        used_texts = set()
        got = []
        while len(got) < n_per_cat:
            progressed = False
            for i, pool in enumerate(pools):
                if len(got) >= n_per_cat:
                    break
                while idx[i] < len(pool):
                    s, q = pool[idx[i]]
                    idx[i] += 1
                    key = frozenset((s, q))
                    if s == q or key in seen or s in used_texts or q in used_texts:
                        continue
                    if swap and rng.random() < 0.5:
                        s, q = q, s
                    seen.add(key)
                    used_texts.update((s, q))
                    got.append({"category": cat, "stored": s, "query": q})
                    progressed = True
                    break
            if not progressed:
                raise RuntimeError("category %s ran out of candidates at %d" % (cat, len(got)))
        out.extend(got)
    return out


def main():
    seen = set()
    text_pairs = build(NEAR_MISS, N_NEAR_MISS, swap=True, seen=seen)
    positives = build(POSITIVES, N_POSITIVE, swap=False, seen=seen)

    description = (
        "Held-out semantic prompt cache evaluation set v29, written blind "
        "(all templates and word lists written from scratch, without looking at "
        "the project's code, tests or other data sets). Theme: how people really "
        "type into chat assistants and search-like boxes - terse keyword-style "
        "prompts ('python sort dict by value', 'best time visit japan', "
        "'convert 8 km to miles') beside full-sentence questions, across "
        "programming (Python, JavaScript, Java, Go, Rust, SQL, git, bash), "
        "spreadsheets, cooking, travel, health basics, personal finance, home "
        "repair, gardening, sports rules, history, science, law basics, "
        "shopping, grammar and language learning, and math. text_pairs holds "
        "%d near-miss pairs (%d categories x %d) that must NOT be served from "
        "the cache because a careful human would answer them differently: "
        "%s. positives holds %d true paraphrase pairs (%d categories x %d) "
        "that should be served: %s. Every category uses at least six "
        "templates filled round-robin from hand-written word lists; all pairs "
        "are unique and stored differs from query. Generated deterministically "
        "with random.Random(%d) by benchmarks/caches/make_heldout_v29.py."
    ) % (
        len(text_pairs), len(NEAR_MISS), N_NEAR_MISS, ", ".join(NEAR_MISS),
        len(positives), len(POSITIVES), N_POSITIVE, ", ".join(POSITIVES), SEED,
    )

    data = {"description": description, "text_pairs": text_pairs, "positives": positives}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "data", "heldout_generated_v29.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print("wrote %s: %d text_pairs, %d positives" % (path, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
