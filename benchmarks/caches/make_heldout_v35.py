"""Generate held-out evaluation set v35 for the semantic prompt cache.

Theme
-----
General-knowledge and school/homework questions people ask a chat assistant:
geography (countries, capitals, rivers, mountains, continents, populations),
history (events, dates, centuries, people, wars, inventions), natural science
(elements, planets, animals, the human body, physics and chemistry facts),
literature and the arts (authors, books, painters, composers), maths facts and
definitions, language and word meanings (definitions, synonyms, translation of a
single word) and economics/civics basics.  Short one-line questions are mixed
with two- or three-sentence messages that give context, in tidy and informal
writing alike.

This set was written blind: from scratch, without looking at the project's
code, rules, tests or any other evaluation set.  Only the Python 3 standard
library is used.

Output
------
``data/heldout_generated_v35.json`` next to this script, with keys
``description``, ``text_pairs`` (must-not-hit near misses: the two prompts share
almost all their words but need a different answer) and ``positives`` (true
paraphrases: different wording, same answer, every fact kept identical).

Near-miss categories (text_pairs), 22 pairs each:
    nm_entity_swap          another country / element / book / planet / city
    nm_superlative_flip     largest vs smallest, highest vs lowest, ...
    nm_scope_change         in Europe vs in the world, state vs country, ...
    nm_time_change          another year / century / period
    nm_unit_change          metres vs feet, Celsius vs Fahrenheit, ...
    nm_count_change         three examples vs five, top 3 vs top 10, ...
    nm_relation_change      capital vs largest city, born vs died, ...
    nm_comparison_direction is X bigger than Y vs is Y bigger than X
    nm_negation_exception   which have vs which do not have, "apart from"
    nm_answer_form          one sentence vs in detail, child vs student, ...
    nm_language_target      translate into French vs into German
    nm_cause_effect         causes vs consequences, before vs after
    nm_order_position       first vs last / second
    nm_math_changed         operand, operation or shape changed

Positive categories (positives), 24 pairs each:
    pos_reworded_question   same question asked with other words
    pos_request_wrapper     "Can you explain ..." / "I'd like to know ..."
    pos_case_whitespace     casing and whitespace changes only
    pos_punctuation_contraction  "What is" / "What's", "?" dropped, ...
    pos_synonym             biggest/largest, start/begin, find out/learn, ...
    pos_greeting_thanks     greeting or thanks added
    pos_context_reordered   context sentence moved after the question
    pos_informal_typing     lowercase, no question mark, "pls", "u"
    pos_active_passive      "Who wrote X?" vs "X was written by whom?"
    pos_number_format       number words vs digits

Every category uses at least six templates filled from the hand-written word
lists below; templates are visited round-robin and fillers are drawn with a
seeded shuffle, so the output is deterministic.

Seed: random.Random(353535).

Run from the repository root:
    python3 benchmarks/caches/make_heldout_v35.py
"""

import json
import random
from pathlib import Path

SEED = 353535
NM_PER_CATEGORY = 22
POS_PER_CATEGORY = 24
OUT_PATH = Path(__file__).resolve().parent / "data" / "heldout_generated_v35.json"


# --------------------------------------------------------------------------
# small helpers
# --------------------------------------------------------------------------

def cap(text):
    """Upper-case the first character only."""
    return text[:1].upper() + text[1:]


def perms(items):
    """All ordered pairs of two different items."""
    return [(a, b) for a in items for b in items if a != b]


def swap_tpl(fmt, items):
    """Same sentence, slot {x} filled with two different entities."""
    return [(fmt.format(x=a), fmt.format(x=b)) for a, b in perms(items)]


def pair_tpl(fmt_a, fmt_b, fills):
    """Two sentences filled with the same dict of values."""
    return [(fmt_a.format(**f), fmt_b.format(**f)) for f in fills]


def xs(values, key="x"):
    """Turn a plain list into a list of one-key dicts."""
    return [{key: v} for v in values]


def build_category(rng, templates, count):
    """Pick `count` unique pairs, visiting the templates round-robin."""
    pools = []
    for cands in templates:
        pool = list(dict.fromkeys(cands))
        rng.shuffle(pool)
        pools.append(pool)
    rng.shuffle(pools)
    out, seen = [], set()
    while len(out) < count:
        progressed = False
        for pool in pools:
            while pool:
                a, b = pool.pop()
                key = frozenset((a, b))
                if a != b and key not in seen:
                    seen.add(key)
                    if rng.random() < 0.5:
                        a, b = b, a
                    out.append((a, b))
                    progressed = True
                    break
            if len(out) >= count:
                break
        if not progressed:
            raise RuntimeError("ran out of candidates")
    return out


# --------------------------------------------------------------------------
# hand-written word lists
# --------------------------------------------------------------------------

CAPITAL_COUNTRIES = ["France", "Japan", "Kenya", "Peru", "Canada", "Egypt",
                     "Norway", "Vietnam", "Argentina", "Australia"]
ELEMENTS = ["carbon", "oxygen", "iron", "gold", "sodium", "neon", "copper",
            "helium", "silver", "nitrogen"]
# books by ten different authors
BOOKS = ["Pride and Prejudice", "Moby-Dick", "War and Peace", "Don Quixote",
         "The Great Gatsby", "One Hundred Years of Solitude", "Frankenstein",
         "Les Misérables", "Nineteen Eighty-Four", "The Odyssey"]
# planets with different numbers of moons
MOON_PLANETS = ["Earth", "Mars", "Jupiter", "Saturn", "Uranus", "Neptune"]
# countries with different currencies
CURRENCY_COUNTRIES = ["Japan", "India", "Brazil", "Switzerland", "Sweden",
                      "South Africa", "Poland", "Turkey", "Mexico",
                      "the United Kingdom"]
# cities on different rivers
RIVER_CITIES = ["Paris", "London", "Cairo", "Rome", "Baghdad", "Lisbon",
                "Prague", "Moscow"]
# paintings by different painters
PAINTINGS = ["the Mona Lisa", "The Starry Night", "The Scream", "Guernica",
             "The Night Watch", "The Birth of Venus",
             "The Persistence of Memory", "Girl with a Pearl Earring"]
# countries with different official languages
LANGUAGE_COUNTRIES = ["Brazil", "Mexico", "Egypt", "Germany", "Japan",
                      "Greece", "Iran", "Thailand"]

# countries whose capital is not the largest city
CAPITAL_NOT_LARGEST = ["Australia", "Canada", "the United States", "Brazil",
                       "Turkey", "Switzerland", "New Zealand", "Nigeria",
                       "Morocco", "Pakistan", "Vietnam"]
PEOPLE = ["Wolfgang Amadeus Mozart", "William Shakespeare",
          "Napoleon Bonaparte", "Albert Einstein", "Marie Curie",
          "Charles Darwin", "Ludwig van Beethoven", "Abraham Lincoln",
          "Isaac Newton", "Galileo Galilei", "Leonardo da Vinci",
          "Frida Kahlo"]
# author differs from the main character's name
BOOKS_WITH_HERO = ["Moby-Dick", "Pride and Prejudice", "The Great Gatsby",
                   "Don Quixote", "Great Expectations", "Frankenstein",
                   "To Kill a Mockingbird", "The Catcher in the Rye",
                   "Crime and Punishment", "Madame Bovary"]
MUSEUM_PAINTINGS = ["the Mona Lisa", "The Night Watch", "Las Meninas",
                    "The Birth of Venus", "Girl with a Pearl Earring",
                    "Guernica", "The Starry Night"]
AREA_COUNTRIES = ["Germany", "Canada", "Nigeria", "Indonesia", "Chile",
                  "Italy", "Egypt", "Norway"]
WORDS = ["benevolent", "ephemeral", "frugal", "verbose", "candid",
         "obsolete", "meticulous", "reluctant", "ambiguous", "tranquil"]
SUBSTANCES = ["water", "iron", "gold", "ethanol", "lead", "copper",
              "aluminium", "table salt"]
MUSIC_WORKS = ["The Magic Flute", "Swan Lake", "Carmen", "The Rite of Spring",
               "Rhapsody in Blue", "La traviata", "The Nutcracker", "Boléro"]
SQUARES = ["9", "16", "25", "36", "49", "64", "81", "100", "121", "144"]

WARS = ["World War I", "World War II", "the American Civil War",
        "the Korean War", "the Vietnam War", "the Thirty Years' War",
        "the Hundred Years' War", "the Napoleonic Wars"]
TOPICS_EXPLAIN = ["photosynthesis", "the water cycle", "inflation",
                  "plate tectonics", "how vaccines work", "supply and demand",
                  "the separation of powers", "how the heart works",
                  "the greenhouse effect", "gravity"]
LANG_WORDS = ["house", "water", "friend", "book", "apple", "school", "dog",
              "bread", "moon", "mountain", "cheese", "window"]
LANG_PAIRS = [("French", "German"), ("Spanish", "Japanese"),
              ("Italian", "Russian"), ("German", "Spanish"),
              ("Portuguese", "Dutch"), ("Swedish", "French"),
              ("Japanese", "Italian"), ("Russian", "Portuguese"),
              ("Turkish", "German"), ("Polish", "Spanish")]

INDIRECT_TOPICS = ["how photosynthesis works", "why the sky is blue",
                   "what causes the seasons on Earth",
                   "how a bill becomes a law in the United States",
                   "what inflation is", "how volcanoes form",
                   "why leaves change colour in autumn",
                   "what the Pythagorean theorem says",
                   "how the human heart pumps blood",
                   "what caused the fall of the Western Roman Empire",
                   "how the electoral college works",
                   "what a prime number is"]

SIMPLE_QUESTIONS = ["What is the capital of Canada?", "Who wrote The Odyssey?",
                    "How many planets are in our solar system?",
                    "What is the chemical formula for water?",
                    "When did World War II end?",
                    "What is the longest river in Africa?",
                    "Who painted the ceiling of the Sistine Chapel?",
                    "What does the word 'photosynthesis' mean?",
                    "What is the square root of 144?",
                    "Which gas do plants absorb from the air?",
                    "What is the speed of light in a vacuum?",
                    "Who was the first woman to win a Nobel Prize?",
                    "What does GDP stand for?",
                    "How many chambers does the human heart have?",
                    "What is the plural of 'cactus'?"]

CONTEXT_QUESTIONS = [
    ("I'm studying for a history test on the French Revolution.",
     "In what year was the Bastille stormed?"),
    ("My geography exam is tomorrow.", "What is the capital of Mongolia?"),
    ("I'm helping my daughter with her science homework.",
     "Why do we have seasons on Earth?"),
    ("We are reading Shakespeare in class this term.",
     "In which city is Romeo and Juliet set?"),
    ("I have a chemistry quiz on Friday.",
     "What is the atomic number of carbon?"),
    ("I'm preparing for a pub quiz.", "Which planet has the most moons?"),
    ("I'm writing an essay on the Cold War.",
     "In what year was the Berlin Wall built?"),
    ("My teacher asked us to look this up.",
     "Who invented the printing press?"),
    ("I'm learning Spanish at the moment.",
     "What does the Spanish word 'biblioteca' mean?"),
    ("I'm revising for my economics exam.",
     "What is the difference between inflation and deflation?"),
    ("We're studying the human body in biology.",
     "How many bones are in the adult human skeleton?"),
    ("I'm reviewing for a maths test.",
     "What is the formula for the area of a trapezoid?"),
    ("My son's homework is about volcanoes.",
     "What is the difference between magma and lava?"),
    ("I'm studying civics for my citizenship test.",
     "How many senators does each US state have?"),
]


# --------------------------------------------------------------------------
# near-miss categories (must NOT hit)
# --------------------------------------------------------------------------

def nm_entity_swap():
    return [
        swap_tpl("What is the capital of {x}?", CAPITAL_COUNTRIES),
        swap_tpl("What is the atomic number of {x}?", ELEMENTS),
        swap_tpl("Who wrote {x}?", BOOKS),
        swap_tpl("How many moons does {x} have?", MOON_PLANETS),
        swap_tpl("I'm revising for a geography quiz. What currency is used "
                 "in {x}?", CURRENCY_COUNTRIES),
        swap_tpl("Which river flows through {x}?", RIVER_CITIES),
        swap_tpl("hey, who painted {x}? need it for art class", PAINTINGS),
        swap_tpl("What is the official language of {x}?", LANGUAGE_COUNTRIES),
    ]


def nm_superlative_flip():
    planet_sup = [("largest", "smallest"), ("hottest", "coldest"),
                  ("closest to the Sun", "farthest from the Sun"),
                  ("densest", "least dense")]
    body = [("largest", "smallest", "bone"), ("largest", "smallest", "organ"),
            ("largest", "smallest", "muscle"), ("longest", "shortest", "bone"),
            ("longest", "shortest", "muscle")]
    pop = [(a, b, c) for a, b in [("largest", "smallest")]
           for c in ["Europe", "Africa", "Asia", "South America",
                     "North America"]]
    elem = [(a, b, p) for a, b in [("highest", "lowest")]
            for p in ["melting point", "boiling point", "density",
                      "electronegativity"]]
    ocean = [("largest", "smallest"), ("deepest", "shallowest"),
             ("warmest", "coldest")]
    points = ["the United States", "France", "Japan", "Australia", "Egypt",
              "Spain", "India"]
    area = [("largest", "smallest"), ("second largest", "second smallest")]
    animals = [("largest", "smallest"), ("fastest", "slowest"),
               ("heaviest", "lightest")]
    leaders = ["President of the United States",
               "Prime Minister of the United Kingdom",
               "Prime Minister of Canada", "President of France"]
    return [
        pair_tpl("Which planet in our solar system is the {a}?",
                 "Which planet in our solar system is the {b}?",
                 [{"a": a, "b": b} for a, b in planet_sup]),
        pair_tpl("What is the {a} {c} in the human body?",
                 "What is the {b} {c} in the human body?",
                 [{"a": a, "b": b, "c": c} for a, b, c in body]),
        pair_tpl("Which country in {c} has the {a} population?",
                 "Which country in {c} has the {b} population?",
                 [{"a": a, "b": b, "c": c} for a, b, c in pop]),
        pair_tpl("Which chemical element has the {a} {p}?",
                 "Which chemical element has the {b} {p}?",
                 [{"a": a, "b": b, "p": p} for a, b, p in elem]),
        pair_tpl("What is the {a} ocean on Earth?",
                 "What is the {b} ocean on Earth?",
                 [{"a": a, "b": b} for a, b in ocean]),
        pair_tpl("I'm doing a school project on {c}. What is the highest "
                 "point in the country?",
                 "I'm doing a school project on {c}. What is the lowest "
                 "point in the country?", xs(points, "c")),
        pair_tpl("Which is the {a} country in the world by area?",
                 "Which is the {b} country in the world by area?",
                 [{"a": a, "b": b} for a, b in area]),
        pair_tpl("What is the {a} land animal alive today?",
                 "What is the {b} land animal alive today?",
                 [{"a": a, "b": b} for a, b in animals]),
        pair_tpl("Who was the youngest person to take office as {r}?",
                 "Who was the oldest person to take office as {r}?",
                 xs(leaders, "r")),
    ]


def nm_scope_change():
    mountains = [("Europe", "the world"), ("Africa", "the world"),
                 ("South America", "the world"), ("Japan", "Asia"),
                 ("Australia", "the world"), ("North America", "the world"),
                 ("Antarctica", "the world"), ("the Alps", "the world")]
    rivers = [("Europe", "the world"), ("Asia", "the world"),
              ("North America", "the world"), ("the United Kingdom", "Europe"),
              ("France", "Europe"), ("Australia", "the world")]
    lakes = [("Africa", "the world"), ("North America", "the world"),
             ("Europe", "the world"), ("South America", "the world"),
             ("Italy", "Europe")]
    metro_cities = ["Paris", "London", "Tokyo", "New York", "Mexico City",
                    "Cairo", "Istanbul", "Seoul"]
    cities = [("California", "the United States"),
              ("Texas", "the United States"),
              ("Scotland", "the United Kingdom"), ("Quebec", "Canada"),
              ("Bavaria", "Germany"), ("Queensland", "Australia"),
              ("Andalusia", "Spain")]
    langs = [("India", "the world"), ("Brazil", "South America"),
             ("Quebec", "Canada"), ("Switzerland", "the world"),
             ("Haiti", "the Caribbean")]
    deserts = [("Asia", "the world"), ("Australia", "the world"),
               ("North America", "the world"), ("South America", "the world")]
    capitals = [("Europe", "the world"), ("Africa", "the world"),
                ("Asia", "the world")]

    def scope(fmt, pairs):
        return [(fmt.format(x=a), fmt.format(x=b)) for a, b in pairs]

    return [
        scope("What is the tallest mountain in {x}?", mountains),
        scope("Which is the longest river in {x}?", rivers),
        scope("What's the largest lake in {x}?", lakes),
        pair_tpl("How many people live in the city of {c} itself?",
                 "How many people live in the whole {c} metropolitan area?",
                 xs(metro_cities, "c")),
        scope("What is the largest city in {x} by population?", cities),
        scope("What is the most widely spoken language in {x}?", langs),
        scope("For my geography homework: what is the largest desert in "
              "{x}?", deserts),
        scope("Which capital city is the highest above sea level in {x}?",
              capitals),
    ]


def nm_time_change():
    presidents = ["1803", "1863", "1905", "1935", "1955", "1962", "1985",
                  "1995", "2006", "2015"]
    pms = ["1938", "1942", "1947", "1960", "1967", "1982", "1993", "1999",
           "2012"]
    cups = ["1930", "1966", "1970", "1974", "1982", "1986", "1998", "2010"]
    olympics = ["1896", "1936", "1964", "1968", "1988", "1992", "2000",
                "2008", "2012"]
    centuries = ["15th", "16th", "17th", "18th", "19th", "20th"]
    pop = [(c, a, b) for c in ["London", "New York", "Tokyo", "Paris",
                               "Berlin"]
           for a, b in [("1800", "1900"), ("1900", "2000"), ("1950", "2020")]]
    periods = ["12th century", "1500s", "1700s", "1920s", "1960s"]
    europe_years = ["1789", "1815", "1848", "1871", "1914", "1939", "1989"]
    return [
        swap_tpl("Who was President of the United States in {x}?",
                 presidents),
        swap_tpl("Who was the Prime Minister of the United Kingdom in {x}?",
                 pms),
        swap_tpl("Which country won the FIFA World Cup in {x}?", cups),
        swap_tpl("Which city hosted the Summer Olympics in {x}?", olympics),
        swap_tpl("What were the most important inventions of the {x} "
                 "century?", centuries),
        pair_tpl("Roughly what was the population of {c} in {a}?",
                 "Roughly what was the population of {c} in {b}?",
                 [{"c": c, "a": a, "b": b} for c, a, b in pop]),
        swap_tpl("I'm writing an essay for history class. What was daily "
                 "life like for ordinary people in England in the {x}?",
                 periods),
        swap_tpl("What major event happened in Europe in {x}?", europe_years),
    ]


def nm_unit_change():
    heights = ["Mount Everest", "K2", "Mont Blanc", "Mount Kilimanjaro",
               "the Eiffel Tower", "the Burj Khalifa", "Denali", "Mount Fuji"]
    boil = ["water", "ethanol", "nitrogen", "mercury"]
    temps = ["degrees Celsius", "degrees Fahrenheit", "kelvins"]
    far = ["the Moon", "the Sun", "Mars", "Jupiter"]
    rivers = ["the Nile", "the Amazon", "the Mississippi", "the Danube",
              "the Yangtze", "the Thames"]
    areas = ["Russia", "Canada", "France", "Brazil", "Australia", "Japan"]
    animals_t = ["human", "dog", "cat", "horse", "cow"]
    weights = ["blue whale", "African elephant", "giraffe", "polar bear",
               "hippopotamus", "ostrich"]
    depths = ["the Mariana Trench", "Lake Baikal", "the Grand Canyon",
              "Lake Superior", "Loch Ness"]
    return [
        pair_tpl("How tall is {x} in {a}?", "How tall is {x} in {b}?",
                 [{"x": x, "a": a, "b": b} for x in heights
                  for a, b in perms(["meters", "feet"])]),
        pair_tpl("What is the boiling point of {x} in {a}?",
                 "What is the boiling point of {x} in {b}?",
                 [{"x": x, "a": a, "b": b} for x in boil
                  for a, b in perms(temps)]),
        pair_tpl("How far is {x} from Earth in {a}?",
                 "How far is {x} from Earth in {b}?",
                 [{"x": x, "a": a, "b": b} for x in far
                  for a, b in perms(["kilometers", "miles"])]),
        pair_tpl("How long is {x} in {a}?", "How long is {x} in {b}?",
                 [{"x": x, "a": a, "b": b} for x in rivers
                  for a, b in perms(["miles", "kilometers"])]),
        pair_tpl("What is the total area of {x} in square {a}?",
                 "What is the total area of {x} in square {b}?",
                 [{"x": x, "a": a, "b": b} for x in areas
                  for a, b in perms(["kilometers", "miles"])]),
        pair_tpl("What is the normal body temperature of a {x} in {a}?",
                 "What is the normal body temperature of a {x} in {b}?",
                 [{"x": x, "a": a, "b": b} for x in animals_t
                  for a, b in perms(["Celsius", "Fahrenheit"])]),
        pair_tpl("How much does an adult {x} weigh in {a}?",
                 "How much does an adult {x} weigh in {b}?",
                 [{"x": x, "a": a, "b": b} for x in weights
                  for a, b in perms(["kilograms", "pounds"])]),
        pair_tpl("How deep is {x} in {a}?", "How deep is {x} in {b}?",
                 [{"x": x, "a": a, "b": b} for x in depths
                  for a, b in perms(["meters", "feet"])]),
    ]


def nm_count_change():
    painters = ["Vincent van Gogh", "Claude Monet", "Pablo Picasso",
                "Rembrandt", "Frida Kahlo", "Salvador Dalí"]
    regions = ["Africa", "Europe", "Asia", "South America", "North America",
               "the world"]
    examples = ["renewable energy sources", "igneous rocks",
                "mammals that live in the ocean", "Shakespeare tragedies",
                "irregular English verbs", "metaphors in poetry"]
    facts = ["Mars", "the octopus", "the Roman Empire", "Ancient Egypt",
             "the human brain", "volcanoes"]
    firsts = ["prime numbers", "elements of the periodic table",
              "digits of pi", "presidents of the United States",
              "square numbers", "Fibonacci numbers"]
    essays = ["the water cycle", "the solar system", "the rainforest",
              "the Industrial Revolution", "recycling",
              "the Great Wall of China"]
    reasons = ["the Western Roman Empire fell", "World War I started",
               "bees are important for farming",
               "the Renaissance began in Italy",
               "the Industrial Revolution started in Britain"]

    def counted(fmt, items, numbers, key="x"):
        return [(fmt.format(n=a, **{key: it}), fmt.format(n=b, **{key: it}))
                for it in items for a, b in numbers]

    return [
        counted("Name {n} famous paintings by {x}.", painters,
                [("two", "five"), ("three", "six"), ("four", "eight")]),
        counted("What are the {n} longest rivers in {x}?", regions,
                [("3", "5"), ("5", "10"), ("two", "four")]),
        counted("Give me {n} examples of {x}.", examples,
                [("two", "five"), ("three", "six"), ("four", "eight")]),
        counted("List the {n} most populous countries in {x}.", regions,
                [("3", "5"), ("5", "10"), ("two", "four")]),
        counted("Tell me {n} interesting facts about {x}.", facts,
                [("3", "10"), ("two", "five"), ("five", "twenty")]),
        counted("What are the first {n} {x}?", firsts,
                [("5", "10"), ("three", "seven"), ("10", "20")]),
        counted("Write {n} sentences about {x} for my homework.", essays,
                [("three", "ten"), ("2", "6"), ("five", "fifteen")]),
        counted("Give me {n} reasons why {x}.", reasons,
                [("two", "five"), ("three", "six")]),
    ]


def nm_relation_change():
    return [
        pair_tpl("What is the capital of {x}?",
                 "What is the largest city in {x}?", xs(CAPITAL_NOT_LARGEST)),
        pair_tpl("In what year was {x} born?", "In what year did {x} die?",
                 xs(PEOPLE)),
        pair_tpl("Who wrote {x}?", "Who is the main character in {x}?",
                 xs(BOOKS_WITH_HERO)),
        pair_tpl("What is the atomic number of {x}?",
                 "What is the chemical symbol of {x}?", xs(ELEMENTS)),
        pair_tpl("Who painted {x}?", "In which museum is {x} displayed?",
                 xs(MUSEUM_PAINTINGS)),
        pair_tpl("What is the population of {x}?",
                 "What is the total area of {x}?", xs(AREA_COUNTRIES)),
        pair_tpl("What does the word '{x}' mean?",
                 "What is the opposite of the word '{x}'?", xs(WORDS)),
        pair_tpl("What is the melting point of {x}?",
                 "What is the boiling point of {x}?", xs(SUBSTANCES)),
        pair_tpl("Who composed {x}?", "In what year was {x} first performed?",
                 xs(MUSIC_WORKS)),
        pair_tpl("What is the square root of {x}?", "What is the square of {x}?",
                 xs(SQUARES)),
    ]


def nm_comparison_direction():
    def both_ways(fmt, pairs):
        return [(fmt.format(a=a, b=b), fmt.format(a=b, b=a)) for a, b in pairs]

    return [
        both_ways("Is {a} bigger than {b}?",
                  [("Canada", "the United States"), ("Brazil", "Australia"),
                   ("Russia", "Canada"), ("Jupiter", "Saturn"),
                   ("Earth", "Venus"), ("Asia", "Africa"),
                   ("Greenland", "Australia"), ("France", "Spain")]),
        both_ways("Was {a} born before {b}?",
                  [("Mozart", "Beethoven"), ("Shakespeare", "Cervantes"),
                   ("Newton", "Galileo"),
                   ("Napoleon", "George Washington"),
                   ("Einstein", "Marie Curie"),
                   ("Leonardo da Vinci", "Michelangelo"), ("Bach", "Mozart"),
                   ("Jane Austen", "Charles Dickens")]),
        both_ways("Does {a} have more moons than {b}?",
                  [("Mars", "Earth"), ("Jupiter", "Neptune"),
                   ("Uranus", "Neptune"), ("Saturn", "Jupiter"),
                   ("Earth", "Venus"), ("Mars", "Mercury")]),
        both_ways("Did {a} happen before {b}?",
                  [("the invention of Gutenberg's printing press",
                    "Columbus's first voyage to the Americas"),
                   ("the American Declaration of Independence",
                    "the French Revolution"),
                   ("the Moon landing", "the fall of the Berlin Wall"),
                   ("the sinking of the Titanic", "the start of World War I"),
                   ("the Wright brothers' first flight",
                    "the sinking of the Titanic"),
                   ("the Battle of Hastings", "the signing of the Magna Carta"),
                   ("the fall of Constantinople",
                    "the start of the Protestant Reformation")]),
        both_ways("Is the {a} longer than the {b}?",
                  [("Mississippi", "Danube"), ("Thames", "Seine"),
                   ("Rhine", "Danube"), ("Yangtze", "Mississippi"),
                   ("Volga", "Danube"), ("Ganges", "Mekong")]),
        both_ways("Is an atom of {a} heavier than an atom of {b}?",
                  [("gold", "lead"), ("iron", "copper"),
                   ("oxygen", "nitrogen"), ("silver", "gold"),
                   ("hydrogen", "helium"), ("carbon", "helium"),
                   ("sodium", "potassium")]),
        both_ways("Does {a} have a larger population than {b}?",
                  [("the United States", "Indonesia"), ("Germany", "France"),
                   ("Egypt", "Canada"), ("Spain", "Australia"),
                   ("Vietnam", "Poland"), ("Japan", "Germany"),
                   ("Brazil", "Russia")]),
        both_ways("For my physics homework: does sound travel faster in {a} "
                  "than in {b}?",
                  [("water", "air"), ("steel", "water"), ("helium", "air"),
                   ("steel", "air"), ("air", "carbon dioxide")]),
    ]


def nm_negation_exception():
    planets = [("have rings", "do not have rings"),
               ("have moons", "have no moons"),
               ("are gas giants", "are not gas giants"),
               ("have a solid surface", "do not have a solid surface"),
               ("can be seen without a telescope",
                "cannot be seen without a telescope")]
    eu = [("use the euro", "do not use the euro"),
          ("are in the Schengen Area", "are not in the Schengen Area"),
          ("are also NATO members", "are not NATO members"),
          ("have a coastline", "have no coastline"),
          ("are monarchies", "are not monarchies")]
    except_items = [("largest ocean", "the Pacific"),
                    ("largest planet in the solar system", "Jupiter"),
                    ("largest country by area", "Russia"),
                    ("tallest mountain in the world", "Mount Everest"),
                    ("largest continent", "Asia"),
                    ("most populous country in Africa", "Nigeria"),
                    ("longest river in Europe", "the Volga"),
                    ("largest moon in the solar system", "Ganymede")]
    some = [("mammals", "can fly", "cannot fly"),
            ("birds", "can fly", "cannot fly"),
            ("metals", "are magnetic", "are not magnetic"),
            ("fruits", "grow on trees", "do not grow on trees"),
            ("animals", "lay eggs", "do not lay eggs"),
            ("elements", "are liquid at room temperature",
             "are not liquid at room temperature")]
    return [
        pair_tpl("Which countries in {x} are landlocked?",
                 "Which countries in {x} are not landlocked?",
                 xs(["Africa", "Europe", "Asia", "South America"])),
        pair_tpl("Which planets in our solar system {p}?",
                 "Which planets in our solar system {n}?",
                 [{"p": p, "n": n} for p, n in planets]),
        pair_tpl("Which South American countries border {x}?",
                 "Which South American countries do not border {x}?",
                 xs(["Brazil", "Argentina", "Peru", "Bolivia", "Colombia",
                     "Chile"])),
        pair_tpl("Which EU member states {p}?", "Which EU member states {n}?",
                 [{"p": p, "n": n} for p, n in eu]),
        pair_tpl("Which numbers between 1 and {x} are prime?",
                 "Which numbers between 1 and {x} are not prime?",
                 xs(["10", "15", "20", "25", "30", "40", "50"])),
        pair_tpl("What is the {s}?", "What is the {s}, not counting {e}?",
                 [{"s": s, "e": e} for s, e in except_items]),
        pair_tpl("Quick quiz question: what is the {s}?",
                 "Quick quiz question: excluding {e}, what is the {s}?",
                 [{"s": s, "e": e} for s, e in except_items]),
        pair_tpl("Name some {g} that {p}.", "Name some {g} that {n}.",
                 [{"g": g, "p": p, "n": n} for g, p, n in some]),
    ]


def nm_answer_form():
    causes = ["World War I", "the American Civil War",
              "the French Revolution", "the Cold War",
              "the Hundred Years' War", "the Russian Revolution"]
    terms = ["inflation", "osmosis", "a prime number", "democracy",
             "a metaphor", "kinetic energy", "photosynthesis", "GDP"]
    laws = ["Newton's second law", "Ohm's law", "compound interest",
            "the Pythagorean theorem", "Einstein's mass-energy equivalence",
            "the ideal gas law"]
    poems = ["the water cycle", "the planet Mars", "the Roman Empire",
             "the Amazon rainforest", "volcanoes", "the Moon"]
    yes_no = ["Is Pluto still classified as a planet?",
              "Is a tomato a fruit?",
              "Is the Great Wall of China visible from space with the "
              "naked eye?",
              "Is glass a liquid?", "Is a whale a fish?",
              "Did Vikings wear horned helmets?"]
    plot_books = ["Pride and Prejudice", "Moby-Dick", "The Great Gatsby",
                  "Frankenstein", "Great Expectations",
                  "To Kill a Mockingbird"]
    return [
        pair_tpl("Explain {x} in one sentence.", "Explain {x} in detail.",
                 xs(TOPICS_EXPLAIN)),
        pair_tpl("Explain {x} to a 10-year-old.",
                 "Explain {x} to a university student.", xs(TOPICS_EXPLAIN)),
        pair_tpl("Describe the causes of {x} as a bulleted list.",
                 "Describe the causes of {x} as one short paragraph.",
                 xs(causes)),
        pair_tpl("Summarize the plot of {x} in 50 words.",
                 "Summarize the plot of {x} in 500 words.", xs(plot_books)),
        pair_tpl("Give me a simple definition of {x}.",
                 "Give me a formal, technical definition of {x}.", xs(terms)),
        pair_tpl("Explain {x} without using any equations.",
                 "Explain {x} using the relevant equations.", xs(laws)),
        pair_tpl("Write a short poem about {x}.",
                 "Write a short essay about {x}.", xs(poems)),
        pair_tpl("Answer with just yes or no: {x}",
                 "{x} Please explain your reasoning in a full paragraph.",
                 xs(yes_no)),
    ]


def nm_language_target():
    fmts = ["Translate the word '{w}' into {l}.",
            "What is the {l} word for '{w}'?",
            "How do you say '{w}' in {l}?",
            "I'm learning {l}. How would I say '{w}'?",
            "whats '{w}' in {l}",
            "Can you give me the {l} translation of '{w}'?",
            "My pen pal speaks {l}. How do I write '{w}' in her language?"]
    return [[(f.format(w=w, l=a), f.format(w=w, l=b))
             for w in LANG_WORDS for a, b in LANG_PAIRS] for f in fmts]


def nm_cause_effect():
    events = ["World War I", "the Great Depression", "the French Revolution",
              "the fall of the Western Roman Empire", "the Black Death",
              "the 2008 financial crisis", "the American Civil War",
              "the collapse of the Soviet Union"]
    happenings = ["the Chernobyl disaster", "the sinking of the Titanic",
                  "the fall of the Berlin Wall", "the Boston Tea Party",
                  "the eruption of Mount Vesuvius in 79 AD",
                  "the Cuban Missile Crisis"]
    phenomena = ["acid rain", "inflation", "earthquakes", "deforestation",
                 "soil erosion", "ocean acidification", "unemployment"]
    conditions = ["scurvy", "anemia", "dehydration", "rickets",
                  "type 2 diabetes", "heatstroke"]
    moments = ["the Battle of Waterloo", "the signing of the Treaty of "
               "Versailles", "the assassination of Julius Caesar",
               "the storming of the Bastille", "D-Day",
               "the assassination of Archduke Franz Ferdinand"]
    econ = ["a recession", "a trade deficit", "a rise in interest rates",
            "hyperinflation", "a currency devaluation", "higher unemployment"]
    movements = ["the Industrial Revolution", "the Protestant Reformation",
                 "the Renaissance", "the Russian Revolution",
                 "the abolition of slavery in the United States",
                 "the invention of the printing press"]
    return [
        pair_tpl("What caused {x}?", "What were the consequences of {x}?",
                 xs(events)),
        pair_tpl("Why did {x} happen?", "What happened as a result of {x}?",
                 xs(happenings)),
        pair_tpl("What causes {x}?", "What are the effects of {x}?",
                 xs(phenomena)),
        pair_tpl("What are the causes of {x}?",
                 "What are the symptoms of {x}?", xs(conditions)),
        pair_tpl("For my history timeline: what happened just before {x}?",
                 "For my history timeline: what happened just after {x}?",
                 xs(moments)),
        pair_tpl("I'm studying for my economics test. What leads to {x}?",
                 "I'm studying for my economics test. What does {x} lead "
                 "to?", xs(econ)),
        pair_tpl("What were the reasons for {x}?",
                 "What was the impact of {x}?", xs(movements)),
    ]


def nm_order_position():
    empires = ["Rome", "China", "Russia", "the French", "Brazil", "Germany",
               "Austria"]
    series = ["Harry Potter", "Chronicles of Narnia", "Hunger Games",
              "Percy Jackson and the Olympians", "His Dark Materials",
              "Twilight"]
    alphabets = ["Greek", "Hebrew", "Russian", "English", "Arabic"]
    feats = ["walk on the Moon", "reach the South Pole",
             "travel into space", "win two Nobel Prizes",
             "fly solo nonstop across the Atlantic"]
    ordinals = [("first", "last"), ("second", "third"), ("fourth", "fifth"),
                ("third", "sixth"), ("first", "seventh")]
    presidents = ["the United States", "Mexico", "Kenya", "Indonesia",
                  "Israel", "Turkey", "India"]
    records = ["state admitted to the United States",
               "Apollo mission to land on the Moon",
               "country to win the FIFA World Cup",
               "planet discovered with a telescope"]
    emperor = [("Who was the first emperor of {x}?".format(x=e),
                "Who was the last emperor of {x}?".format(x=e))
               for e in empires]
    return [
        emperor,
        pair_tpl("What is the first book in the {x} series?",
                 "What is the last book in the {x} series?", xs(series)),
        pair_tpl("What is the first letter of the {x} alphabet?",
                 "What is the last letter of the {x} alphabet?",
                 xs(alphabets)),
        pair_tpl("Who was the first person to {x}?",
                 "Who was the second person to {x}?", xs(feats)),
        pair_tpl("Which planet is the {a} from the Sun?",
                 "Which planet is the {b} from the Sun?",
                 [{"a": a, "b": b} for a, b in ordinals]),
        pair_tpl("Who was the first President of {x}?",
                 "Who was the second President of {x}?", xs(presidents)),
        pair_tpl("Which was the first {x}?", "Which was the most recent {x}?",
                 xs(records)),
    ]


def nm_math_changed():
    times = [("7", "8", "9"), ("6", "7", "8"), ("12", "11", "13"),
             ("9", "6", "4"), ("15", "4", "6"), ("8", "8", "9")]
    ops = [("6", "7"), ("9", "12"), ("15", "3"), ("8", "5"), ("11", "4"),
           ("25", "4")]
    roots = ["64", "729", "4096", "1000000"]
    shapes = ["a triangle", "a pentagon", "a hexagon", "a heptagon",
              "an octagon", "a decagon", "a dodecagon"]
    roman = ["14", "49", "1999", "2024", "90", "444"]
    prime_pairs = [("91", "97"), ("51", "53"), ("57", "59"), ("87", "89"),
                   ("119", "113"), ("221", "223")]
    percents = [("20", "25", "80"), ("10", "15", "300"), ("50", "5", "120"),
                ("75", "30", "40"), ("12", "40", "250")]
    radius = ["3", "5", "7", "10", "12"]
    return [
        pair_tpl("What is {a} times {b}?", "What is {a} times {c}?",
                 [{"a": a, "b": b, "c": c} for a, b, c in times]),
        pair_tpl("What is {a} times {b}?", "What is {a} plus {b}?",
                 [{"a": a, "b": b} for a, b in ops]),
        pair_tpl("What is the square root of {x}?",
                 "What is the cube root of {x}?", xs(roots)),
        swap_tpl("How many sides does {x} have?", shapes),
        swap_tpl("What is the sum of the interior angles of {x}?", shapes),
        swap_tpl("How do you write {x} in Roman numerals?", roman),
        pair_tpl("Is {a} a prime number?", "Is {b} a prime number?",
                 [{"a": a, "b": b} for a, b in prime_pairs]),
        pair_tpl("What is {a} percent of {n}?", "What is {b} percent of {n}?",
                 [{"a": a, "b": b, "n": n} for a, b, n in percents]),
        pair_tpl("What is the area of a circle with a radius of {x} cm?",
                 "What is the area of a circle with a diameter of {x} cm?",
                 xs(radius)),
    ]


# --------------------------------------------------------------------------
# positive categories (SHOULD hit)
# --------------------------------------------------------------------------

def pos_reworded_question():
    return [
        pair_tpl("What is the capital city of {x}?",
                 "Which city is the capital of {x}?", xs(CAPITAL_COUNTRIES)),
        pair_tpl("Who is the author of {x}?", "Who wrote the book {x}?",
                 xs(BOOKS)),
        pair_tpl("How many moons does {x} have?",
                 "What is the number of moons that orbit {x}?",
                 xs(MOON_PLANETS)),
        pair_tpl("What is the meaning of the word '{x}'?",
                 "What does '{x}' mean?", xs(WORDS)),
        pair_tpl("What is the chemical symbol for {x}?",
                 "Which symbol is used for {x} on the periodic table?",
                 xs(ELEMENTS)),
        pair_tpl("Which artist painted {x}?", "Who was the painter of {x}?",
                 xs(PAINTINGS)),
        pair_tpl("Which composer wrote {x}?", "Who composed {x}?",
                 xs(MUSIC_WORKS)),
        pair_tpl("In which year did {x} end?",
                 "What year did {x} come to an end?", xs(WARS)),
    ]


def pos_request_wrapper():
    wrappers = [("Can you explain {t}?", "Please explain {t}."),
                ("Tell me {t}.", "I'd like to know {t}."),
                ("Could you help me understand {t}?",
                 "Help me understand {t}, please."),
                ("I want to learn {t}.", "I'd like to find out {t}."),
                ("Do you know {t}?", "Can you tell me {t}?"),
                ("Explain to me {t}.", "Would you explain to me {t}?"),
                ("I'm curious about {t}. Can you explain?",
                 "Could you explain {t}? I'm curious.")]
    return [[(a.format(t=t), b.format(t=t)) for t in INDIRECT_TOPICS]
            for a, b in wrappers]


def _case_ws_variants(text):
    words = text.split(" ")
    return [
        text.lower(),
        text.upper(),
        "  ".join(words),
        "   " + text + "  ",
        " ".join(w[:1].upper() + w[1:] for w in words),
        text[:1].lower() + text[1:] + "\n",
        "\t" + text.lower(),
    ]


class _CaseWhitespace:
    """Holds a seeded Random so the transformation choice is deterministic."""

    def __init__(self, rng):
        self.rng = rng

    def apply(self, questions):
        out = []
        for q in questions:
            variants = [v for v in _case_ws_variants(q) if v != q]
            out.append((q, self.rng.choice(variants)))
        return out


def pos_case_whitespace(rng):
    cw = _CaseWhitespace(rng)
    return [
        cw.apply(["What is the capital of {x}?".format(x=x)
                  for x in CAPITAL_COUNTRIES]),
        cw.apply(["Who wrote {x}?".format(x=x) for x in BOOKS]),
        cw.apply(["How many {x} does an adult human have?".format(x=x)
                  for x in ["bones", "teeth", "ribs", "vertebrae",
                            "chromosomes"]]),
        cw.apply(["When did {x} happen?".format(x=x)
                  for x in ["the fall of the Berlin Wall",
                            "the storming of the Bastille",
                            "the first Moon landing",
                            "the Battle of Hastings",
                            "the sinking of the Titanic"]]),
        cw.apply(["What is the boiling point of {x} at sea level?".format(x=x)
                  for x in SUBSTANCES]),
        cw.apply(["Define the word {x}.".format(x=x) for x in WORDS]),
        cw.apply(["Explain {x} for my school project.".format(x=x)
                  for x in TOPICS_EXPLAIN]),
    ]


def pos_punctuation_contraction():
    confusables = [("weather", "climate"), ("a virus", "a bacterium"),
                   ("affect", "effect"), ("mitosis", "meiosis"),
                   ("speed", "velocity"), ("mass", "weight"),
                   ("a republic", "a democracy")]
    hard = ["photosynthesis", "the water cycle", "long division",
            "the subjunctive mood", "compound interest",
            "the Treaty of Versailles"]
    famous = ["Galileo Galilei", "Marie Curie", "Cleopatra",
              "Nelson Mandela", "Ada Lovelace", "Genghis Khan"]
    return [
        pair_tpl("What is the capital of {x}?", "What's the capital of {x}",
                 xs(CAPITAL_COUNTRIES)),
        pair_tpl("Who is the author of {x}?", "Who's the author of {x}??",
                 xs(BOOKS)),
        pair_tpl("I do not understand {x}. Can you explain it?",
                 "I don't understand {x} - can you explain it?", xs(hard)),
        pair_tpl("What is the difference between {a} and {b}?",
                 "What's the difference between {a} and {b}...?",
                 [{"a": a, "b": b} for a, b in confusables]),
        pair_tpl("It is for my homework: when did {x} begin?",
                 "It's for my homework - when did {x} begin", xs(WARS)),
        pair_tpl("Who was {x}, and what is this person known for?",
                 "Who was {x}? What's this person known for?", xs(famous)),
        pair_tpl("What does '{x}' mean? I cannot find it in my dictionary.",
                 "What does '{x}' mean?! I can't find it in my dictionary",
                 xs(WORDS)),
    ]


def pos_synonym():
    biggest = [("country", "Africa"), ("country", "South America"),
               ("island", "the Mediterranean Sea"), ("lake", "Africa"),
               ("city", "Australia"), ("state", "the United States"),
               ("country", "Europe")]
    wars = ["World War I", "World War II", "the American Civil War",
            "the Korean War", "the Thirty Years' War",
            "the Hundred Years' War"]
    inventions = ["the telephone", "the printing press", "the light bulb",
                  "the steam engine", "the World Wide Web", "dynamite"]
    continents = ["Africa", "South America", "Europe", "North America",
                  "Antarctica"]
    shapes = ["circle", "triangle", "trapezoid", "parallelogram", "rhombus",
              "regular hexagon"]
    syn_words = ["happy", "big", "fast", "smart", "angry", "beautiful",
                 "difficult"]
    theories = ["general relativity", "evolution by natural selection",
                "continental drift", "universal gravitation"]
    parts = ["a plant cell", "a flower", "a volcano", "an atom",
             "an animal cell"]
    return [
        pair_tpl("Which is the biggest {a} in {b}?",
                 "Which is the largest {a} in {b}?",
                 [{"a": a, "b": b} for a, b in biggest]),
        pair_tpl("When did {x} start?", "When did {x} begin?", xs(wars)),
        pair_tpl("I want to find out who invented {x}.",
                 "I want to learn who invented {x}.", xs(inventions)),
        pair_tpl("What is the highest mountain in {x}?",
                 "What is the tallest mountain in {x}?", xs(continents)),
        pair_tpl("How do I calculate the area of a {x}?",
                 "How do I work out the area of a {x}?", xs(shapes)),
        pair_tpl("What is a synonym for '{x}'?",
                 "What is another word for '{x}'?", xs(syn_words)),
        pair_tpl("Who developed the theory of {x}?",
                 "Who came up with the theory of {x}?", xs(theories)),
        pair_tpl("What are the main parts of {x}?",
                 "What are the main components of {x}?", xs(parts)),
    ]


def pos_greeting_thanks():
    wrappers = [("{q}", "Hi! {q}"),
                ("{q}", "{q} Thanks!"),
                ("{q}", "Hello there, quick question: {q}"),
                ("{q}", "Good morning! {q} Thank you in advance."),
                ("{q}", "{q} Thanks so much for your help!"),
                ("{q}", "Hey :) {q}"),
                ("Hi, {ql}", "{q} Cheers!")]
    return [[(a.format(q=q, ql=q[:1].lower() + q[1:]), b.format(q=q))
             for q in SIMPLE_QUESTIONS]
            for a, b in wrappers]


def pos_context_reordered():
    def low(s):
        if s.startswith("I ") or s.startswith("I'"):
            return s
        return s[:1].lower() + s[1:]

    fmts = [("{c} {q}", "{q} {c}"),
            ("{c} Quick question: {q}", "Quick question: {q} {c}"),
            ("Context: {c} Question: {q}", "Question: {q} Context: {c}"),
            ("{c} So, {ql}", "{q} Just so you know, {cl}"),
            ("{c} My question is: {q}", "My question is: {q} {c}"),
            ("{c}\n{q}", "{q}\n{c}")]
    return [[(a.format(c=c, q=q, ql=low(q), cl=low(c)),
              b.format(c=c, q=q, ql=low(q), cl=low(c)))
             for c, q in CONTEXT_QUESTIONS] for a, b in fmts]


def pos_informal_typing():
    topics = ["photosynthesis", "the water cycle", "supply and demand",
              "plate tectonics", "the greenhouse effect", "gravity"]
    diffs = [("weather", "climate"), ("mitosis", "meiosis"),
             ("an atom", "a molecule"), ("speed", "velocity"),
             ("a simile", "a metaphor"), ("latitude", "longitude")]
    starts = ["World War I", "World War II", "the French Revolution",
              "the Cold War", "the American Civil War", "the Renaissance"]
    return [
        pair_tpl("Can you tell me what the capital of {x} is?",
                 "can u tell me whats the capital of {lx}",
                 [{"x": x, "lx": x.lower()} for x in CAPITAL_COUNTRIES]),
        pair_tpl("Please explain {x}.", "pls explain {x}", xs(topics)),
        pair_tpl("What is the difference between {a} and {b}?",
                 "whats the difference between {a} and {b}",
                 [{"a": a, "b": b} for a, b in diffs]),
        pair_tpl("Who wrote {x}?", "who wrote {lx}??",
                 [{"x": x, "lx": x.lower()} for x in BOOKS]),
        pair_tpl("Could you help me with my homework? I need to know when "
                 "{x} started.",
                 "can u help w my homework, need to know when {x} started",
                 xs(starts)),
        pair_tpl("What does the word '{x}' mean?", "wat does {x} mean",
                 xs(WORDS)),
        pair_tpl("How many moons does {x} have?",
                 "how many moons does {lx} have???",
                 [{"x": x, "lx": x.lower()} for x in MOON_PLANETS]),
        pair_tpl("Thank you! One more question: what is the chemical symbol "
                 "for {x}?", "thx! 1 more q: whats the chemical symbol for {x}",
                 xs(ELEMENTS)),
    ]


def pos_active_passive():
    discoveries = ["penicillin", "radium", "the electron", "the planet Uranus",
                   "the law of universal gravitation", "X-rays"]
    inventions = ["the telephone", "the printing press", "the steam engine",
                  "the World Wide Web", "dynamite", "the telescope"]
    cities = ["St. Petersburg", "Alexandria", "Baghdad", "Quebec City",
              "Singapore"]
    buildings = ["the Taj Mahal", "the Colosseum", "the Parthenon",
                 "Angkor Wat", "the Great Pyramid of Giza", "the Alhambra"]
    colonies = ["Brazil", "Mozambique", "India", "Indonesia", "Algeria",
                "Angola"]
    return [
        pair_tpl("Who wrote {x}?", "{x} was written by whom?", xs(BOOKS)),
        pair_tpl("Who painted {x}?", "By whom was {x} painted?",
                 xs(PAINTINGS)),
        pair_tpl("Who discovered {x}?", "{X} was discovered by who?",
                 [{"x": x, "X": cap(x)} for x in discoveries]),
        pair_tpl("Who invented {x}?", "By whom was {x} invented?",
                 xs(inventions)),
        pair_tpl("Who composed {x}?", "{x} was composed by whom?",
                 xs(MUSIC_WORKS)),
        pair_tpl("Who founded the city of {x}?",
                 "The city of {x} was founded by whom?", xs(cities)),
        pair_tpl("Who built {x}?", "{X} was built by whom?",
                 [{"x": x, "X": cap(x)} for x in buildings]),
        pair_tpl("Which country colonized {x}?",
                 "{x} was colonized by which country?", xs(colonies)),
    ]


def pos_number_format():
    nums = [("three", "3"), ("five", "5"), ("four", "4"), ("two", "2"),
            ("seven", "7"), ("ten", "10")]
    things = ["famous female scientists", "countries in South America",
              "plays by Shakespeare", "renewable energy sources",
              "prime numbers", "rivers in Europe"]
    mult = [("seven", "eight", "7", "8"), ("six", "nine", "6", "9"),
            ("twelve", "twelve", "12", "12"), ("eleven", "four", "11", "4"),
            ("nine", "seven", "9", "7"), ("eight", "six", "8", "6")]
    centuries = [("nineteenth", "19th"), ("eighteenth", "18th"),
                 ("fifteenth", "15th"), ("twentieth", "20th"),
                 ("sixteenth", "16th"), ("twelfth", "12th")]
    presidents = [("first", "1st"), ("sixteenth", "16th"), ("third", "3rd"),
                  ("thirty-second", "32nd"), ("twenty-sixth", "26th"),
                  ("forty-fourth", "44th")]
    roots = [("sixty-four", "64"), ("eighty-one", "81"),
             ("one hundred forty-four", "144"),
             ("two hundred twenty-five", "225"), ("forty-nine", "49"),
             ("one hundred sixty-nine", "169")]
    percents = [("twenty", "20", "one hundred fifty", "150"),
                ("ten", "10", "eighty", "80"),
                ("fifty", "50", "three hundred", "300"),
                ("twenty-five", "25", "two hundred", "200"),
                ("fifteen", "15", "sixty", "60")]
    years = [("ten sixty-six", "1066"), ("fourteen ninety-two", "1492"),
             ("seventeen seventy-six", "1776"),
             ("nineteen eighty-nine", "1989"), ("eighteen fifteen", "1815"),
             ("nineteen sixty-nine", "1969")]
    km = [("five", "5"), ("ten", "10"), ("forty-two", "42"),
          ("one hundred", "100"), ("twenty-one", "21"), ("three", "3")]
    return [
        pair_tpl("Name {w} {x}.", "Name {d} {x}.",
                 [{"w": w, "d": d, "x": x} for w, d in nums for x in things]),
        pair_tpl("What is {aw} times {bw}?", "What is {a} x {b}?",
                 [{"aw": aw, "bw": bw, "a": a, "b": b}
                  for aw, bw, a, b in mult]),
        pair_tpl("What were the main events of the {w} century?",
                 "What were the main events of the {d} century?",
                 [{"w": w, "d": d} for w, d in centuries]),
        pair_tpl("Who was the {w} President of the United States?",
                 "Who was the {d} President of the United States?",
                 [{"w": w, "d": d} for w, d in presidents]),
        pair_tpl("What is the square root of {w}?",
                 "What is the square root of {d}?",
                 [{"w": w, "d": d} for w, d in roots]),
        pair_tpl("What is {pw} percent of {nw}?", "What is {p}% of {n}?",
                 [{"pw": pw, "p": p, "nw": nw, "n": n}
                  for pw, p, nw, n in percents]),
        pair_tpl("What important event happened in the year {w}?",
                 "What important event happened in {d}?",
                 [{"w": w, "d": d} for w, d in years]),
        pair_tpl("Convert {w} kilometers to miles.",
                 "Convert {d} km to miles.",
                 [{"w": w, "d": d} for w, d in km]),
    ]


# --------------------------------------------------------------------------
# assembly
# --------------------------------------------------------------------------

NM_CATEGORIES = [
    ("nm_entity_swap", nm_entity_swap),
    ("nm_superlative_flip", nm_superlative_flip),
    ("nm_scope_change", nm_scope_change),
    ("nm_time_change", nm_time_change),
    ("nm_unit_change", nm_unit_change),
    ("nm_count_change", nm_count_change),
    ("nm_relation_change", nm_relation_change),
    ("nm_comparison_direction", nm_comparison_direction),
    ("nm_negation_exception", nm_negation_exception),
    ("nm_answer_form", nm_answer_form),
    ("nm_language_target", nm_language_target),
    ("nm_cause_effect", nm_cause_effect),
    ("nm_order_position", nm_order_position),
    ("nm_math_changed", nm_math_changed),
]

POS_CATEGORIES = [
    ("pos_reworded_question", pos_reworded_question),
    ("pos_request_wrapper", pos_request_wrapper),
    ("pos_case_whitespace", pos_case_whitespace),
    ("pos_punctuation_contraction", pos_punctuation_contraction),
    ("pos_synonym", pos_synonym),
    ("pos_greeting_thanks", pos_greeting_thanks),
    ("pos_context_reordered", pos_context_reordered),
    ("pos_informal_typing", pos_informal_typing),
    ("pos_active_passive", pos_active_passive),
    ("pos_number_format", pos_number_format),
]


def generate():
    rng = random.Random(SEED)
    seen = set()

    def collect(categories, per_cat):
        rows, counts = [], {}
        for name, func in categories:
            templates = func(rng) if name == "pos_case_whitespace" else func()
            if len(templates) < 6:
                raise RuntimeError(name + " has fewer than six templates")
            for stored, query in build_category(rng, templates, per_cat):
                key = frozenset((stored, query))
                if key in seen:
                    raise RuntimeError("duplicate pair in " + name)
                seen.add(key)
                rows.append({"category": name, "stored": stored,
                             "query": query})
            counts[name] = per_cat
        return rows, counts

    text_pairs, nm_counts = collect(NM_CATEGORIES, NM_PER_CATEGORY)
    positives, pos_counts = collect(POS_CATEGORIES, POS_PER_CATEGORY)

    def fmt_counts(counts):
        return ", ".join("%s (%d)" % (k, v) for k, v in counts.items())

    description = (
        "Held-out set v35, written blind (from scratch, without seeing the "
        "project's code, rules, tests or other sets). Theme: general-knowledge "
        "and school/homework questions asked to a chat assistant - geography, "
        "history, natural science, literature and the arts, maths, word "
        "meanings and translation, economics and civics - mixing one-line "
        "questions with short context-giving messages in tidy and informal "
        "writing. text_pairs are must-not-hit near misses (%d pairs): %s. "
        "positives are true paraphrases that must hit (%d pairs): %s. "
        "Generated deterministically with random.Random(%d)."
        % (len(text_pairs), fmt_counts(nm_counts), len(positives),
           fmt_counts(pos_counts), SEED))
    return {"description": description, "text_pairs": text_pairs,
            "positives": positives}


def main():
    data = generate()
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print("wrote %s: %d text_pairs, %d positives"
          % (OUT_PATH, len(data["text_pairs"]), len(data["positives"])))


if __name__ == "__main__":
    main()
