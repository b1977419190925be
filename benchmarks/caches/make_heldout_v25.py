#!/usr/bin/env python3
"""Generator for held-out evaluation set v25 for a semantic prompt cache.

The set models chat prompts a cache might see: roughly one third short
factual questions (geography, science, history, sport, definitions), one
third developer requests (Python, JavaScript, SQL, shell, regex, git,
Docker, HTTP, some with inline code) and one third personal or work
situations (money, health, travel, family, housing, jobs, pets), in a mix
of tidy and informal writing.

It holds two lists of (stored, query) prompt pairs:

* ``text_pairs``: 180 near-miss pairs, 12 categories x 15.  The two
  prompts are worded almost alike but have different correct answers, so a
  cache must not serve the stored answer for the query.  Categories:
  entity_swapped, number_or_unit, code_detail, roles_or_direction,
  negation, opposite_word, time_or_tense, modality, output_constraint,
  quantity_or_scope, person_or_possession, question_focus.
* ``positives``: 150 true-paraphrase pairs, 10 categories x 15.  The two
  prompts mean the same thing and keep every entity, number, code token
  and constraint, so a cache should serve the stored answer.  Categories:
  synonym_swap, question_form, superlative_rephrase, word_order,
  politeness, casing_punctuation_spacing, contractions_and_informal,
  voice_change, context_reordered, reworded_request.

Each category is built from at least five templates filled from small
public word lists (countries, rivers, elements, people, functions, SQL
tables and columns, HTTP codes, units, relations, foods, apps, pets).
Every string is unique within its list.  Output is deterministic: the
generator uses random.Random(252525) and writes
data/heldout_generated_v25.json next to this script.

Written blind, without reading the project's other data sets, tests or code.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import json
import os
import random

SEED = 252525
N_NEAR = 15
N_POS = 15

# ---------------------------------------------------------------- word lists

COUNTRIES = ["France", "Germany", "Japan", "Canada", "Australia", "Brazil",
             "Egypt", "Kenya", "Italy", "Spain", "Mexico", "India",
             "Argentina", "Norway", "Sweden", "Poland", "Turkey", "Vietnam",
             "Peru", "Chile", "Portugal", "Thailand", "Nigeria", "South Korea"]
ELEMENTS = ["hydrogen", "helium", "carbon", "nitrogen", "oxygen", "sodium",
            "iron", "copper", "silver", "gold", "lead", "mercury",
            "potassium", "calcium", "zinc", "uranium"]
RIVERS = ["Nile", "Amazon", "Danube", "Mississippi", "Yangtze", "Rhine",
          "Thames", "Ganges", "Volga", "Mekong", "Congo", "Seine"]
PEOPLE = ["Marie Curie", "Isaac Newton", "Ada Lovelace", "Albert Einstein",
          "Charles Darwin", "Nikola Tesla", "Galileo Galilei",
          "Rosalind Franklin", "Alan Turing", "Leonardo da Vinci",
          "Frida Kahlo", "Nelson Mandela", "Cleopatra", "Genghis Khan"]
PY_FUNCS = ["zip", "enumerate", "sorted", "map", "filter", "any", "all",
            "isinstance", "getattr", "reversed", "divmod", "round"]
JS_METHODS = ["map", "filter", "reduce", "forEach", "find", "some", "every",
              "flat", "includes", "indexOf"]
PY_LIBS = ["pandas", "numpy", "requests", "flask", "django", "fastapi",
           "pytest", "matplotlib", "scipy", "beautifulsoup4", "sqlalchemy"]
PETS = ["dog", "cat", "rabbit", "hamster", "parrot", "guinea pig", "ferret"]
PETS_PL = {"dog": "dogs", "cat": "cats", "rabbit": "rabbits",
           "hamster": "hamsters", "parrot": "parrots",
           "guinea pig": "guinea pigs", "ferret": "ferrets"}
APPS = ["Slack", "Zoom", "Spotify", "WhatsApp", "Notion", "Trello",
        "Outlook", "Discord", "Google Docs", "Excel"]
RELATIONS = ["cousin", "landlord", "manager", "sister", "brother",
             "roommate", "neighbor", "coworker", "mother-in-law", "uncle",
             "best friend", "aunt"]
CITIES = ["Paris", "Berlin", "Rome", "Lisbon", "Tokyo", "Chicago",
          "Toronto", "Sydney", "Barcelona", "Amsterdam", "Seoul", "Denver"]
TZ_CITIES = ["Tokyo", "London", "New York", "Sydney", "Los Angeles",
             "Dubai", "Mumbai", "Berlin", "São Paulo"]
HTTP_CODES = ["200", "201", "204", "301", "302", "304", "400", "401", "403",
              "404", "405", "409", "418", "429", "500", "502", "503", "504"]
SQL_TABLES = {
    "orders": ["total", "status", "order_date", "customer_id"],
    "customers": ["email", "city", "created_at", "country"],
    "employees": ["salary", "department", "hire_date", "manager_id"],
    "products": ["price", "category", "stock", "supplier_id"],
}
US_STATES = ["Texas", "California", "New York", "Florida", "Illinois",
             "Washington", "Ohio"]
JOBS = ["nurse", "data analyst", "electrician", "software engineer",
        "teacher", "pharmacist", "graphic designer", "accountant"]
CONDITIONS = ["migraines", "asthma", "acid reflux", "anemia", "insomnia",
              "gout", "eczema", "shin splints"]
TECHS = ["microservices", "TypeScript", "NoSQL databases", "Docker",
         "GraphQL", "serverless functions", "server-side rendering",
         "a monorepo"]
LANDMARKS = ["Eiffel Tower", "Great Wall of China", "Taj Mahal", "Colosseum",
             "Golden Gate Bridge", "Sydney Opera House", "Panama Canal",
             "Brooklyn Bridge"]
MONTHS = ["January", "March", "April", "June", "July", "August",
          "October", "December"]
CONTINENTS = ["Africa", "Europe", "Asia", "South America", "North America",
              "Oceania"]
LANGS = ["Spanish", "French", "German", "Japanese", "Italian", "Portuguese",
         "Korean", "Dutch"]


def lf(s):
    """Lower-case the first character."""
    return s[:1].lower() + s[1:]


def uf(s):
    """Upper-case the first character."""
    return s[:1].upper() + s[1:]


def money(n):
    return "${:,}".format(n)


# ===================================================== NEAR-MISS TEMPLATES

# ---- 1. entity_swapped
def es_capital(r):
    a, b = r.sample(COUNTRIES, 2)
    f = r.choice(["What is the capital of {}?", "what's the capital city of {}",
                  "Which city is the capital of {}?"])
    return f.format(a), f.format(b)


def es_element(r):
    a, b = r.sample(ELEMENTS, 2)
    f = r.choice(["What is the atomic number of {}?",
                  "What's the chemical symbol for {}?",
                  "What is the melting point of {}?",
                  "how many protons does {} have"])
    return f.format(a), f.format(b)


def es_river(r):
    a, b = r.sample(RIVERS, 2)
    f = r.choice(["How long is the {} River?",
                  "Which countries does the {} flow through?",
                  "Where does the {} River begin?"])
    return f.format(a), f.format(b)


def es_person(r):
    a, b = r.sample(PEOPLE, 2)
    f = r.choice(["What is {} best known for?", "When was {} born?",
                  "Give me a short biography of {}."])
    return f.format(a), f.format(b)


def es_pyfunc(r):
    a, b = r.sample(PY_FUNCS, 2)
    f = r.choice(["In Python, what does `{}()` do?",
                  "Can you show me a simple example of `{}()` in Python?",
                  "what does python's `{}()` return"])
    return f.format(a, a), f.format(b, b)


def es_jsmethod(r):
    a, b = r.sample(JS_METHODS, 2)
    f = r.choice(["In JavaScript, what does `Array.prototype.{}()` do?",
                  "How do I use `.{}()` on an array in JS?"])
    return f.format(a), f.format(b)


def es_lib(r):
    a, b = r.sample(PY_LIBS, 2)
    f = r.choice(["How do I install {} with pip?",
                  "What is the Python library {} used for?"])
    return f.format(a), f.format(b)


def es_pet(r):
    a, b = r.sample(PETS, 2)
    f = r.choice(["My {} keeps scratching its ears. Should I be worried?",
                  "What's the average lifespan of a pet {}?",
                  "How often should I feed an adult {}?"])
    return f.format(a), f.format(b)


def es_app(r):
    a, b = r.sample(APPS, 2)
    f = r.choice(["How do I turn on dark mode in {}?",
                  "How do I export all my data from {}?"])
    return f.format(a), f.format(b)


# ---- 2. number_or_unit
def nu_convert(r):
    s, t = r.choice([("kilometers", "miles"), ("kilograms", "pounds"),
                     ("liters", "gallons"), ("centimeters", "inches"),
                     ("meters", "feet")])
    a, b = r.sample([3, 5, 8, 12, 20, 25, 42, 50, 100, 250], 2)
    f = r.choice(["How many {t} is {n} {s}?", "convert {n} {s} to {t}",
                  "What's {n} {s} in {t}?"])
    return f.format(t=t, n=a, s=s), f.format(t=t, n=b, s=s)


def nu_unitswap(r):
    n = r.choice([2, 4, 6, 15, 30])
    pairs = [("How many pounds is {n} kilograms?", "How many pounds is {n} grams?"),
             ("How many miles is {n} kilometers?", "How many miles is {n} meters?"),
             ("How many cups are in {n} liters?", "How many cups are in {n} milliliters?"),
             ("How many minutes are in {n} hours?", "How many minutes are in {n} days?"),
             ("How many bytes are in {n} kilobytes?", "How many bytes are in {n} megabytes?")]
    a, b = r.choice(pairs)
    return a.format(n=n), b.format(n=n)


WORLD_CUP = {1998: "France", 2002: "Brazil", 2006: "Italy", 2010: "Spain",
             2014: "Germany", 2022: "Argentina"}


def nu_worldcup(r):
    a, b = r.sample(sorted(WORLD_CUP), 2)
    f = r.choice(["Who won the FIFA World Cup in {}?",
                  "who won the {} world cup final",
                  "Which country won the {} men's football World Cup?"])
    return f.format(a), f.format(b)


def nu_version(r):
    a, b = r.sample(["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"], 2)
    f = r.choice(["What new features were added in Python {}?",
                  "When does Python {} reach end of life?",
                  "Is `match`/`case` available in Python {}?"])
    return f.format(a), f.format(b)


def nu_http(r):
    a, b = r.sample(HTTP_CODES, 2)
    f = r.choice(["What does HTTP status code {} mean?",
                  "When should my REST API return a {} status?",
                  "why am i getting a {} from my server"])
    return f.format(a), f.format(b)


def nu_cron(r):
    n = r.choice([5, 10, 15, 20, 30])
    if r.random() < 0.5:
        m = r.choice([x for x in [5, 10, 15, 20, 30] if x != n])
        return ("Write a cron expression that runs a job every {} minutes.".format(n),
                "Write a cron expression that runs a job every {} minutes.".format(m))
    return ("Write a cron expression that runs a job every {} minutes.".format(n % 12 + 2),
            "Write a cron expression that runs a job every {} hours.".format(n % 12 + 2))


def nu_salary(r):
    a, b = r.sample([45, 60, 75, 90, 120, 150], 2)
    st = r.choice(US_STATES)
    f = "I make ${}k a year in {}. Roughly what will my monthly take-home pay be?"
    return f.format(a, st), f.format(b, st)


def nu_currency(r):
    strong = r.choice(["euros", "US dollars", "British pounds", "Swiss francs"])
    weak = r.choice(["Japanese yen", "Indian rupees", "Mexican pesos", "Thai baht"])
    dest = r.choice(["Japan", "Italy", "Portugal", "Vietnam", "Peru"])
    f = "I have 2,000 {} saved for a two-week trip to {}. Is that enough?"
    return f.format(strong, dest), f.format(weak, dest)


def nu_mortgage(r):
    amt = r.choice([250, 300, 400, 500])
    rate = r.choice(["5.5", "6", "6.5", "7"])
    f = "What would the monthly payment be on a ${}k mortgage at {}% over 30 years?"
    if r.random() < 0.5:
        amt2 = r.choice([x for x in [250, 300, 400, 500] if x != amt])
        return f.format(amt, rate), f.format(amt2, rate)
    rate2 = r.choice([x for x in ["5.5", "6", "6.5", "7"] if x != rate])
    return f.format(amt, rate), f.format(amt, rate2)


def nu_oven(r):
    lb = r.choice([3, 4, 5, 6])
    t = r.choice([180, 200, 220])
    f = "How long should I roast a {} lb chicken at {}°{}?"
    return f.format(lb, t, "C"), f.format(lb, t, "F")


# ---- 3. code_detail
def cd_git_reset(r):
    a, b = r.sample(["--soft", "--mixed", "--hard"], 2)
    n = r.choice([1, 2, 3])
    f = r.choice(["What does `git reset {} HEAD~{}` do?",
                  "is `git reset {} HEAD~{}` safe to run on my local branch?"])
    return f.format(a, n), f.format(b, n)


def cd_ls_grep(r):
    if r.random() < 0.5:
        a, b = r.sample(["-a", "-l", "-R", "-t", "-S", "-d"], 2)
        f = "What does `ls {} ~/projects` show?"
    else:
        a, b = r.sample(["-i", "-v", "-c", "-n", "-l", "-o"], 2)
        f = "What does `grep {} error app.log` print?"
    return f.format(a), f.format(b)


def cd_pyop(r):
    a, b = r.sample(["//", "/", "%", "**", "-"], 2)
    x, y = r.choice([(17, 5), (9, 4), (23, 6)])
    f = "What does `print({} {} {})` output in Python?"
    return f.format(x, a, y), f.format(x, b, y)


def cd_js(r):
    a, b = r.choice([("'5' == 5", "'5' === 5"),
                     ("null == undefined", "null === undefined"),
                     ("typeof null", "typeof undefined"),
                     ("0 || 'default'", "0 ?? 'default'"),
                     ("'3' + 2", "'3' - 2"),
                     ("[1, 2, 3].at(-1)", "[1, 2, 3].at(1)")])
    f = r.choice(["In JavaScript, what does `{}` evaluate to?",
                  "what does `{}` give in JS"])
    return f.format(a), f.format(b)


def cd_sql(r):
    t = r.choice(sorted(SQL_TABLES))
    c = r.choice(SQL_TABLES[t])
    k = r.randrange(4)
    if k == 0:
        return ("What does `SELECT {c} FROM {t} ORDER BY {c} ASC LIMIT 1` return?".format(c=c, t=t),
                "What does `SELECT {c} FROM {t} ORDER BY {c} DESC LIMIT 1` return?".format(c=c, t=t))
    if k == 1:
        return ("What does `SELECT COUNT({c}) FROM {t}` count?".format(c=c, t=t),
                "What does `SELECT COUNT(*) FROM {t}` count?".format(t=t))
    if k == 2:
        return ("Why does `SELECT * FROM {t} WHERE {c} IS NULL` return rows?".format(c=c, t=t),
                "Why does `SELECT * FROM {t} WHERE {c} = NULL` return rows?".format(c=c, t=t))
    return ("What does `SELECT {c} FROM {t} UNION SELECT {c} FROM {t}_archive` return?".format(c=c, t=t),
            "What does `SELECT {c} FROM {t} UNION ALL SELECT {c} FROM {t}_archive` return?".format(c=c, t=t))


def cd_regex(r):
    a, b = r.choice([(r"^\d+$", r"^\d*$"), (r"\w+", r"\W+"),
                     (r"[a-z]+", r"[^a-z]+"), (r"a.c", r"a\.c"),
                     (r"colou?r", r"colou*r"), (r"^abc", r"abc$"),
                     (r"\bcat\b", r"\Bcat\B"), (r"\s+", r"\S+"),
                     (r"\d{3}", r"\d{3,}")])
    f = r.choice(["What does the regex `{}` match?",
                  "Which strings match the regular expression `{}`?"])
    return f.format(a), f.format(b)


def cd_docker(r):
    a, b = r.choice([("docker run -d nginx", "docker run -it nginx"),
                     ("docker rm web", "docker rmi web"),
                     ("docker stop web", "docker kill web"),
                     ("docker compose down", "docker compose down -v"),
                     ("docker ps", "docker ps -a")])
    f = r.choice(["What exactly does `{}` do?", "Is it safe to run `{}` on a production host?"])
    return f.format(a), f.format(b)


def cd_pylist(r):
    a, b = r.choice([("nums.append([4, 5])", "nums.extend([4, 5])"),
                     ("nums.sort()", "sorted(nums)"),
                     ("nums.pop()", "nums.pop(0)"),
                     ("copy = nums", "copy = nums[:]")])
    return ("What is `nums` after running `{}` when `nums = [1, 2, 3]`?".format(a),
            "What is `nums` after running `{}` when `nums = [1, 2, 3]`?".format(b))


# ---- 4. roles_or_direction
def rd_units(r):
    a, b = r.choice([("miles", "kilometers"), ("pounds", "kilograms"),
                     ("inches", "centimeters"), ("gallons", "liters"),
                     ("degrees Fahrenheit", "degrees Celsius"), ("feet", "meters")])
    n = r.choice([10, 26, 40, 75, 100])
    f = r.choice(["Convert {n} {a} to {b}.", "how much is {n} {a} in {b}"])
    return f.format(n=n, a=a, b=b), f.format(n=n, a=b, b=a)


def rd_timezone(r):
    a, b = r.sample(TZ_CITIES, 2)
    h = r.choice(["9 am", "noon", "6 pm", "midnight"])
    f = "What time is it in {} when it's {} in {}?"
    return f.format(a, h, b), f.format(b, h, a)


def rd_currency(r):
    a, b = r.sample(["euros", "US dollars", "British pounds", "Japanese yen",
                     "Swiss francs", "Canadian dollars"], 2)
    f = "How many {} do I get for 100 {}?"
    return f.format(a, b), f.format(b, a)


def rd_pyconvert(r):
    a, b = r.choice([("a list", "a string"), ("a string", "an int"),
                     ("a dict", "a JSON string"), ("bytes", "a str"),
                     ("a datetime", "a string"), ("a pandas DataFrame", "a dict")])
    f = r.choice(["How do I convert {} to {} in Python?", "python: turn {} into {}"])
    return f.format(a, b), f.format(b, a)


def rd_git(r):
    a, b = r.sample(["main", "dev", "feature/login", "release/2.0"], 2)
    f = r.choice(["How do I merge `{}` into `{}`?", "How do I rebase `{}` onto `{}`?"])
    return f.format(a, b), f.format(b, a)


def rd_copy(r):
    a, b, tool = r.choice([("my laptop", "a remote server", "scp"),
                           ("my laptop", "a remote server", "rsync"),
                           ("a Docker container", "the host", "`docker cp`"),
                           ("a Kubernetes pod", "my machine", "`kubectl cp`"),
                           ("an S3 bucket", "my laptop", "the AWS CLI")])
    f = "How do I copy a file from {} to {} with {}?"
    return f.format(a, b, tool), f.format(b, a, tool)


def rd_owe(r):
    rel = r.choice(RELATIONS)
    n = r.choice([300, 800, 1500, 2500])
    tail = r.choice(["How should I bring it up?", "What's the best way to handle this?"])
    return ("I owe my {} {} and can't pay it back on time. {}".format(rel, money(n), tail),
            "My {} owes me {} and can't pay it back on time. {}".format(rel, money(n), tail))


def rd_petfood(r):
    a, b = r.choice([("dog", "cat"), ("rabbit", "guinea pig"), ("hamster", "rabbit")])
    f = "Is it okay for my {} to eat {} food?"
    return f.format(a, b), f.format(b, a)


def rd_battle(r):
    a, b, c = r.choice([("Wellington", "Napoleon", "Waterloo"),
                        ("Rome", "Carthage", "Zama"),
                        ("the Union", "the Confederacy", "Gettysburg"),
                        ("Alexander the Great", "Darius III", "Gaugamela"),
                        ("William the Conqueror", "Harold Godwinson", "Hastings")])
    f = "Did {} defeat {} at {}?"
    return f.format(a, b, c), f.format(b, a, c)


def rd_sqlcopy(r):
    a, b = r.choice([("orders", "orders_archive"), ("users", "users_backup"),
                     ("staging_products", "products")])
    f = "Write a SQL query that copies all rows from `{}` into `{}`."
    return f.format(a, b), f.format(b, a)


# ---- 5. negation
def ng_classes(r):
    return r.choice([
        ("Which planets in our solar system have moons?", "Which planets in our solar system have no moons?"),
        ("Which mammals lay eggs?", "Which mammals do not lay eggs?"),
        ("Which planets can be seen from Earth without a telescope?", "Which planets can't be seen from Earth without a telescope?"),
        ("Which EU countries use the euro?", "Which EU countries do not use the euro?"),
        ("Which US states border Canada?", "Which US states do not border Canada?"),
        ("Which metals are magnetic?", "Which metals are not magnetic?"),
        ("Which vitamins does the human body store?", "Which vitamins does the human body not store?")])


def ng_sqlnull(r):
    t = r.choice(sorted(SQL_TABLES))
    c = r.choice(SQL_TABLES[t])
    f = "How do I select rows from `{}` where `{}` is {}NULL?"
    return f.format(t, c, ""), f.format(t, c, "NOT ")


def ng_grep(r):
    w = r.choice(["ERROR", "timeout", "user_id", "404"])
    fl = r.choice(["server.log", "access.log", "app.log"])
    return ("How do I show lines in `{}` that contain `{}` with grep?".format(fl, w),
            "How do I show lines in `{}` that don't contain `{}` with grep?".format(fl, w))


def ng_pycheck(r):
    a, b = r.choice([
        ("How do I check if a key is in a dict in Python?", "How do I check if a key is not in a dict in Python?"),
        ("How do I run a Docker container with root privileges?", "How do I run a Docker container without root privileges?"),
        ("How do I install an npm package and save it to `package.json`?", "How do I install an npm package without saving it to `package.json`?"),
        ("How do I make a git commit that runs the pre-commit hooks?", "How do I make a git commit without running the pre-commit hooks?"),
        ("In JavaScript, how do I filter an array to the items that are null?", "In JavaScript, how do I filter an array to the items that are not null?")])
    return a, b


def ng_lease(r):
    m = r.choice([1, 2, 3])
    f = "I'm {}planning to renew my lease, which ends in {} month{}. What do I need to tell my landlord and when?"
    pl = "" if m == 1 else "s"
    return f.format("", m, pl), f.format("not ", m, pl)


def ng_refund(r):
    c = r.choice(CITIES)
    return ("If I cancel my flight to {}, can I get a refund since I bought travel insurance?".format(c),
            "If I cancel my flight to {}, can I get a refund since I didn't buy travel insurance?".format(c))


def ng_raise(r):
    tail = r.choice(["How should I respond?", "What should I say to my manager?"])
    return ("I was offered a raise at my review this year. {}".format(tail),
            "I was not offered a raise at my review this year. {}".format(tail))


def ng_food(r):
    a, b = r.choice([("Which foods are safe to eat during pregnancy?", "Which foods are not safe to eat during pregnancy?"),
                     ("What human foods can my {} eat?", "What human foods can my {} never eat?"),
                     ("Which houseplants are safe for a {}?", "Which houseplants are not safe for a {}?")])
    p = r.choice(["dog", "cat", "rabbit", "parrot"])
    return a.format(p), b.format(p)


# ---- 6. opposite_word
def ow_geo(r):
    cont = r.choice(["Africa", "Europe", "Asia", "South America", "Oceania"])
    a, b = r.choice([("largest", "smallest"), ("most populous", "least populous")])
    f = "What is the {} country in {}?"
    return f.format(a, cont), f.format(b, cont)


def ow_facts(r):
    return r.choice([
        ("Which planet is closest to the Sun?", "Which planet is farthest from the Sun?"),
        ("What is the hottest planet in the solar system?", "What is the coldest planet in the solar system?"),
        ("Which ocean is the deepest?", "Which ocean is the shallowest?"),
        ("Which animals are herbivores?", "Which animals are carnivores?"),
        ("Name some foods that are acidic.", "Name some foods that are alkaline."),
        ("What is the wettest place on Earth?", "What is the driest place on Earth?"),
        ("What is the longest bone in the human body?", "What is the shortest bone in the human body?")])


def ow_city_month(r):
    c = r.choice(CITIES)
    a, b = r.choice([("hottest", "coldest"), ("wettest", "driest"), ("busiest", "quietest")])
    f = r.choice(["What is the {} month in {}?", "which month is the {} in {}"])
    return f.format(a, c), f.format(b, c)


def ow_dev(r):
    return r.choice([
        ("How do I sort a list of dicts by a key in ascending order in Python?", "How do I sort a list of dicts by a key in descending order in Python?"),
        ("How do I convert a string to uppercase in JavaScript?", "How do I convert a string to lowercase in JavaScript?"),
        ("How do I encrypt a file with gpg?", "How do I decrypt a file with gpg?"),
        ("How do I upload a file with curl?", "How do I download a file with curl?"),
        ("How do I remove a prefix from a string in Python?", "How do I remove a suffix from a string in Python?"),
        ("How do I strip leading whitespace from a string in Python?", "How do I strip trailing whitespace from a string in Python?"),
        ("Which Python built-in types are mutable?", "Which Python built-in types are immutable?"),
        ("How do I block inbound traffic on port 22 with ufw?", "How do I block outbound traffic on port 22 with ufw?"),
        ("What is horizontal scaling?", "What is vertical scaling?"),
        ("How do I enable foreign key checks in MySQL?", "How do I disable foreign key checks in MySQL?"),
        ("How do I expand all code regions in VS Code?", "How do I collapse all code regions in VS Code?"),
        ("How do I zoom in on a Matplotlib plot?", "How do I zoom out on a Matplotlib plot?")])


def ow_personal(r):
    pct = r.choice([5, 10, 15])
    pet = r.choice(["dog", "cat", "rabbit"])
    return r.choice([
        ("My landlord wants to increase my rent by {}% in the middle of my lease. Can he do that?".format(pct),
         "My landlord wants to decrease my rent by {}% in the middle of my lease. Can he do that?".format(pct)),
        ("Which foods help raise blood pressure?", "Which foods help lower blood pressure?"),
        ("My vet says my {} is overweight. How much should I feed it?".format(pet),
         "My vet says my {} is underweight. How much should I feed it?".format(pet)),
        ("My manager wants to promote me next month. What should I ask for?",
         "My manager wants to demote me next month. What should I ask for?"),
        ("How can I gain weight in a healthy way?", "How can I lose weight in a healthy way?"),
        ("I'm an introvert. What kinds of jobs would suit me?", "I'm an extrovert. What kinds of jobs would suit me?"),
        ("Is it a good time to buy a house right now?", "Is it a good time to sell a house right now?")])


def ow_minmax(r):
    t, c, kind = r.choice([("orders", "total", "num"), ("employees", "salary", "num"),
                           ("products", "price", "num"), ("products", "stock", "num"),
                           ("orders", "order_date", "date"), ("customers", "created_at", "date"),
                           ("employees", "hire_date", "date")])
    a, b = ("highest", "lowest") if kind == "num" else ("most recent", "earliest")
    f = r.choice(["Write a SQL query that returns the row with the {} `{}` in `{}`.",
                  "sql: get the {} `{}` from `{}`"])
    return f.format(a, c, t), f.format(b, c, t)


# ---- 7. time_or_tense
def tt_pm(r):
    c = r.choice(["the UK", "Canada", "Japan", "India", "Australia", "Italy", "Spain"])
    return ("Who is the current prime minister of {}?".format(c),
            "Who was the previous prime minister of {}?".format(c))


def tt_events(r):
    e = r.choice(["Summer Olympics", "Winter Olympics", "FIFA World Cup",
                  "Eurovision Song Contest", "Rugby World Cup", "Commonwealth Games"])
    verb = "were" if e.endswith("s") else "was"
    return ("Where {} the last {} held?".format(verb, e), "Where will the next {} be held?".format(e))


def tt_weather(r):
    c = r.choice(CITIES)
    return r.choice([
        ("What's the weather forecast for {} tomorrow?".format(c), "What was the weather like in {} yesterday?".format(c)),
        ("When was the last total solar eclipse visible from {}?".format(c), "When is the next total solar eclipse visible from {}?".format(c))])


def tt_sql(r):
    t, col = r.choice([("orders", "order_date"), ("customers", "created_at"), ("employees", "hire_date")])
    a, b = r.choice([("this month", "last month"), ("this year", "last year"),
                     ("in the past 7 days", "in the next 7 days")])
    f = "Write a SQL query that returns rows from `{}` where `{}` falls {}."
    return f.format(t, col, a), f.format(t, col, b)


def tt_currency(r):
    c = r.choice(["Germany", "France", "Italy", "Spain", "Greece", "the Netherlands", "Ireland"])
    return ("What currency does {} use?".format(c),
            "What currency did {} use before the euro?".format(c))


def tt_personal(r):
    rel = r.choice(["mother", "father", "nephew", "grandmother", "adult son"])
    return r.choice([
        ("How much can I contribute to a Roth IRA for this tax year?", "How much could I contribute to a Roth IRA for last tax year?"),
        ("I started a new job last month. Can I still enroll in the company health plan?",
         "I'm starting a new job next month. Can I still enroll in the company health plan?"),
        ("My {} moved in with me last year. Can I claim them as a dependent?".format(rel),
         "My {} is moving in with me next year. Can I claim them as a dependent?".format(rel)),
        ("Which Python versions reached end of life last year?", "Which Python versions will reach end of life next year?"),
        ("My {} passed away last week. What do I need to do first?".format(rel),
         "My {} is expected to pass away in the coming weeks. What do I need to do first?".format(rel))])


def tt_git(r):
    return r.choice([
        ("How do I see the commits I made this week in git?", "How do I see the commits I made last week in git?"),
        ("What changed in the latest Node.js LTS release?", "What will change in the next Node.js LTS release?"),
        ("What did the last major React release add?", "What is the next major React release going to add?")])


# ---- 8. modality
DEV_CAN_SHOULD = ["commit my `.env` file to a public repo",
                  "store user passwords in plain text in my database",
                  "run my Docker containers as root",
                  "use `eval()` on user input in JavaScript",
                  "use `git push --force` on the shared `main` branch",
                  "use `SELECT *` in production queries",
                  "disable SSL verification with `verify=False` in requests",
                  "catch every exception with a bare `except:` in Python"]
LIFE_CAN_SHOULD = ["quit my job without giving two weeks' notice",
                   "break my lease early to move in with my partner",
                   "tell my manager that I'm interviewing elsewhere",
                   "ask for a raise after only six months",
                   "lend my {} money from my emergency fund",
                   "skip my {}'s annual vaccinations this year"]
LIFE_PETS = ["dog", "cat"]


def md_dev(r):
    a = r.choice(DEV_CAN_SHOULD)
    return "Can I {}?".format(a), "Should I {}?".format(a)


def md_life(r):
    a = r.choice(LIFE_CAN_SHOULD)
    if "lend my" in a:
        a = a.format(r.choice(RELATIONS))
    elif "{}" in a:
        a = a.format(r.choice(LIFE_PETS))
    return "Can I {}?".format(a), "Should I {}?".format(a)


def md_tax(r):
    n = r.choice([5000, 10000, 12000, 14000])
    return ("Must I file a tax return if I earned under {} last year?".format(money(n)),
            "Can I file a tax return if I earned under {} last year?".format(money(n)))


def md_snow(r):
    c = r.choice(["Cairo", "Sydney", "Rome", "Athens", "Dallas", "Jerusalem", "Lisbon"])
    m = r.choice(["December", "January", "February"])
    return "Can it snow in {} in {}?".format(c, m), "Will it snow in {} in {}?".format(c, m)


def md_civic(r):
    a = r.choice(["a US president serve more than two terms",
                  "a non-citizen vote in US federal elections",
                  "the UK monarch refuse to sign a law passed by Parliament",
                  "a US senator serve unlimited terms"])
    return "Can {}?".format(a), "Should {}?".format(a)


def md_landlord(r):
    a = r.choice(["keep my deposit if I leave nail holes in the wall",
                  "enter my apartment while I'm away",
                  "raise my rent when my lease renews"])
    return "Will my landlord {}?".format(a), "Can my landlord {}?".format(a)


# ---- 9. output_constraint
TOPICS = ["photosynthesis", "inflation", "how vaccines work", "blockchain",
          "the French Revolution", "black holes", "compound interest",
          "recursion", "the water cycle", "how DNS works"]


def oc_length(r):
    t = r.choice(TOPICS)
    a, b = r.sample(["in one sentence", "in three paragraphs", "in under 50 words",
                     "in about 500 words", "in a single tweet"], 2)
    return "Explain {} {}.".format(t, a), "Explain {} {}.".format(t, b)


def oc_audience(r):
    t = r.choice(TOPICS)
    a, b = r.sample(["a five-year-old", "a graduate student", "my grandmother",
                     "a software engineer", "a high school class"], 2)
    return "Explain {} to {}.".format(t, a), "Explain {} to {}.".format(t, b)


def oc_tips(r):
    x = r.choice(["saving money on groceries", "sleeping better", "a first job interview",
                  "learning Spanish", "traveling with a toddler", "training a new puppy"])
    a, b = r.sample([3, 5, 10, 20], 2)
    return "Give me {} tips for {}.".format(a, x), "Give me {} tips for {}.".format(b, x)


def oc_codelang(r):
    task = r.choice(["checks if a string is a palindrome", "returns the nth Fibonacci number",
                     "removes duplicate values from an array", "validates an email address"])
    a, b = r.sample(["Python", "JavaScript", "Go", "Rust", "TypeScript", "Java"], 2)
    return ("Write a function in {} that {}.".format(a, task),
            "Write a function in {} that {}.".format(b, task))


def oc_codeonly(r):
    task = r.choice(["parses a CSV file into a list of dicts in Python",
                     "debounces a function in JavaScript",
                     "finds the second largest number in a list in Python"])
    a, b = r.choice([("Just the code, no explanation.", "Explain each line step by step."),
                     ("Keep it to one line.", "Make it readable with comments."),
                     ("Return the result as JSON.", "Return the result as CSV.")])
    return "Write code that {}. {}".format(task, a), "Write code that {}. {}".format(task, b)


def oc_tone(r):
    rel = r.choice(["manager", "landlord", "coworker", "professor", "client"])
    a, b = r.sample(["formal", "casual", "firm", "funny"], 2)
    x = r.choice(["asking to reschedule our meeting", "declining an invitation",
                  "following up on an unpaid invoice"])
    f = "Write a {} email to my {} {}."
    return f.format(a, rel, x), f.format(b, rel, x)


def oc_lang(r):
    rel = r.choice(["grandmother", "best friend", "cousin", "neighbor"])
    a, b = r.sample(["English", "French", "Spanish", "German", "Italian"], 2)
    f = "Write a short birthday message for my {} in {}."
    return f.format(rel, a), f.format(rel, b)


def oc_format(r):
    x = r.choice(["the planets of the solar system", "the G7 countries",
                  "the noble gases", "the HTTP methods"])
    a, b = r.sample(["a numbered list", "a comma-separated line", "a JSON array",
                     "a Markdown table"], 2)
    return "List {} as {}.".format(x, a), "List {} as {}.".format(x, b)


# ---- 10. quantity_or_scope
def qs_cities(r):
    c = r.choice(COUNTRIES)
    n = r.choice(["three", "five", "ten"])
    return ("What is the largest city in {}?".format(c),
            "What are the {} largest cities in {}?".format(n, c))


def qs_presidents(r):
    c = r.choice(["the United States", "Mexico", "Brazil", "Kenya", "Argentina", "South Korea"])
    return r.choice([
        ("Who was the first president of {}?".format(c), "Who were the first three presidents of {}?".format(c)),
        ("Who was the first president of {}?".format(c), "Who was the most recent president of {}?".format(c))])


def qs_shell(r):
    fl = r.choice(["access.log", "data.csv", "notes.txt"])
    return r.choice([
        ("How do I print the first line of `{}` in bash?".format(fl), "How do I print the last line of `{}` in bash?".format(fl)),
        ("How do I print the first line of `{}` in bash?".format(fl), "How do I print the first 10 lines of `{}` in bash?".format(fl)),
        ("How do I delete the first line of `{}` with sed?".format(fl), "How do I delete every blank line of `{}` with sed?".format(fl))])


def qs_sql(r):
    t, c = r.choice([("orders", "total"), ("products", "stock"), ("employees", "salary")])
    unit = {"orders": "order", "products": "product", "employees": "employee"}[t]
    return ("Write a SQL query that returns the `{}` of each {} in `{}`.".format(c, unit, t),
            "Write a SQL query that returns the sum of `{}` across all rows in `{}`.".format(c, t))


def qs_code(r):
    return r.choice([
        ("How do I remove one occurrence of a value from a Python list?", "How do I remove all occurrences of a value from a Python list?"),
        ("How do I replace the first occurrence of a substring in JavaScript?", "How do I replace all occurrences of a substring in JavaScript?"),
        ("How do I stop one Docker container?", "How do I stop all running Docker containers?"),
        ("How do I undo the last git commit?", "How do I undo the last three git commits?"),
        ("How do I get the largest value in a Python list?", "How do I get the three largest values in a Python list?"),
        ("How do I delete one key from a Redis database?", "How do I delete every key from a Redis database?")])


def qs_pets_fixed(r):
    p = r.choice(["cat", "dog", "rabbit", "hamster"])
    n = r.choice(["two", "three", "four"])
    c = r.choice(COUNTRIES)
    return r.choice([
        ("How much does it cost per month to feed one {}?".format(p),
         "How much does it cost per month to feed {} {}?".format(n, PETS_PL[p])),
        ("How much does travel insurance cost for one person going to {} for two weeks?".format(c),
         "How much does travel insurance cost for a family of four going to {} for two weeks?".format(c))])


def qs_personal(r):
    return r.choice([
        ("What's a good gift for one of my coworkers?", "What's a good gift for all twelve of my coworkers?"),
        ("Can I deduct some of my home office costs on my taxes?", "Can I deduct all of my home office costs on my taxes?"),
        ("How much is each monthly payment on a $20,000 car loan at 6% over 5 years?", "How much do I pay in total on a $20,000 car loan at 6% over 5 years?"),
        ("Should I pay off my smallest credit card first?", "Should I pay off all my credit cards at once?")])


# ---- 11. person_or_possession
def pp_linux(r):
    return r.choice([
        ("How do I change my own password on Linux?", "How do I change another user's password on Linux?"),
        ("How do I list my cron jobs?", "How do I list the root user's cron jobs?"),
        ("How do I get the current user's home directory in Python?", "How do I get another user's home directory in Python?"),
        ("How do I show only my own commits in `git log`?", "How do I show only my teammate Dana's commits in `git log`?"),
        ("In PostgreSQL, how do I see the privileges of my current role?", "In PostgreSQL, how do I see the privileges of another role?"),
        ("How do I see my own GitHub notifications from the CLI?", "How do I see my organization's GitHub audit log from the CLI?")])


def pp_party(r):
    a, b = r.sample(["my 6-year-old son", "my teenage daughter", "my 80-year-old grandmother",
                     "my husband", "my boss", "myself", "my dog"], 2)
    f = r.choice(["Help me plan a birthday party for {}.", "Suggest a birthday gift under $50 for {}."])
    return f.format(a), f.format(b)


def pp_speech(r):
    a, b = r.sample(["myself", "my boss", "my father", "my coworker"], 2)
    occ = r.choice(["retirement", "farewell"])
    return ("Write a short {} speech for {}.".format(occ, a),
            "Write a short {} speech for {}.".format(occ, b))


def pp_father(r):
    p = r.choice(["Albert Einstein", "William Shakespeare", "Charles Darwin", "Isaac Newton",
                  "Marie Curie", "Abraham Lincoln", "Vincent van Gogh"])
    a, b = r.choice([("", "'s father"), ("", "'s mother")])
    return ("What did {}{} do for a living?".format(p, a), "What did {}{} do for a living?".format(p, b))


def pp_travel(r):
    c = r.choice(COUNTRIES)
    kid = r.choice(["daughter", "son"])
    rel = r.choice(["sister", "brother", "best friend", "neighbor"])
    return ("What documents do I need to fly to {} with my {}?".format(c, kid),
            "What documents do I need to fly to {} with my {}'s {}?".format(c, rel, kid))


def pp_insurance(r):
    a, b = r.sample(["spouse", "adult son", "mother", "roommate", "stepdaughter", "girlfriend"], 2)
    f = "Can I put my {} on my employer's health insurance?"
    return f.format(a), f.format(b)


def pp_pet(r):
    p = r.choice(["dog", "cat", "parrot"])
    who = r.choice(["neighbor", "roommate", "sister"])
    return ("How do I stop my {} from biting me?".format(p),
            "How do I stop my {}'s {} from biting me?".format(who, p))


# ---- 12. question_focus
def qf_condition(r):
    c = r.choice(CONDITIONS)
    a, b = r.sample(["What causes {}?", "How are {} treated?", "How can I prevent {}?",
                     "What are the early symptoms of {}?"], 2)
    if c in ("asthma", "acid reflux", "anemia", "insomnia", "gout", "eczema"):
        a = a.replace("are {} treated", "is {} treated")
        b = b.replace("are {} treated", "is {} treated")
    return a.format(c), b.format(c)


def qf_tech(r):
    t = r.choice(TECHS)
    a, b = r.choice([("What are the advantages of {}?", "What are the disadvantages of {}?"),
                     ("When should I use {}?", "When should I avoid {}?"),
                     ("Why do teams adopt {}?", "How do teams migrate to {}?")])
    return a.format(t), b.format(t)


def qf_passport(r):
    c = r.choice(["the US", "the UK", "Canada", "Australia", "India", "Ireland"])
    return ("How long does it take to get a passport in {}?".format(c),
            "How much does it cost to get a passport in {}?".format(c))


def qf_landmark(r):
    lm = r.choice(LANDMARKS)
    a, b = r.sample(["When was the {} built?", "Who built the {}?", "Why was the {} built?",
                     "How long did it take to build the {}?"], 2)
    return a.format(lm), b.format(lm)


def qf_pet(r):
    p = r.choice(["dog", "cat", "rabbit", "ferret"])
    return r.choice([
        ("How much does it cost to neuter a {}?".format(p), "How long does a {} take to recover from neutering?".format(p)),
        ("How much should I feed my {}?".format(p), "How often should I feed my {}?".format(p))])


def qf_git(r):
    cmd = r.choice(["git rebase", "git stash", "git commit --amend", "git cherry-pick",
                    "docker system prune", "npm audit fix"])
    return "What does `{}` do?".format(cmd), "How do I undo `{}`?".format(cmd)


def qf_job(r):
    j = r.choice(JOBS)
    c = r.choice(["the US", "Canada", "Germany", "Australia", "the UK"])
    return ("How much does a {} earn in {}?".format(j, c),
            "How long does it take to become a {} in {}?".format(j, c))


def qf_error(r):
    e = r.choice(["KeyError", "RecursionError", "IndexError", "ZeroDivisionError", "UnicodeDecodeError"])
    return "What causes a `{}` in Python?".format(e), "How do I catch a `{}` in Python?".format(e)


NEAR = [
    ("entity_swapped", [es_capital, es_element, es_river, es_person, es_pyfunc,
                        es_jsmethod, es_lib, es_pet, es_app]),
    ("number_or_unit", [nu_convert, nu_unitswap, nu_worldcup, nu_version, nu_http,
                        nu_cron, nu_salary, nu_currency, nu_mortgage, nu_oven]),
    ("code_detail", [cd_git_reset, cd_ls_grep, cd_pyop, cd_js, cd_sql, cd_regex,
                     cd_docker, cd_pylist]),
    ("roles_or_direction", [rd_units, rd_timezone, rd_currency, rd_pyconvert, rd_git,
                            rd_copy, rd_owe, rd_petfood, rd_battle, rd_sqlcopy]),
    ("negation", [ng_classes, ng_sqlnull, ng_grep, ng_pycheck, ng_lease, ng_refund,
                  ng_raise, ng_food]),
    ("opposite_word", [ow_geo, ow_facts, ow_city_month, ow_dev, ow_personal, ow_minmax,
                       ow_dev, ow_personal]),
    ("time_or_tense", [tt_pm, tt_events, tt_weather, tt_sql, tt_currency, tt_personal, tt_git]),
    ("modality", [md_dev, md_life, md_tax, md_snow, md_civic, md_landlord]),
    ("output_constraint", [oc_length, oc_audience, oc_tips, oc_codelang, oc_codeonly,
                           oc_tone, oc_lang, oc_format]),
    ("quantity_or_scope", [qs_cities, qs_presidents, qs_shell, qs_sql, qs_code,
                           qs_pets_fixed, qs_personal]),
    ("person_or_possession", [pp_linux, pp_party, pp_speech, pp_father, pp_travel,
                              pp_insurance, pp_pet]),
    ("question_focus", [qf_condition, qf_tech, qf_passport, qf_landmark, qf_pet, qf_git,
                        qf_job, qf_error]),
]


# ===================================================== POSITIVE TEMPLATES

# ---- 1. synonym_swap
def sy_car(r):
    c = r.choice(CITIES)
    v1, v2 = r.choice([("buy", "purchase"), ("buy", "buy"), ("purchase", "buy")])
    n1, n2 = r.choice([("car", "automobile"), ("car", "car")])
    if v1 == v2 and n1 == n2:
        n2 = "automobile"
    f = "Where can I {} a reliable used {} in {}?"
    return f.format(v1, n1, c), f.format(v2, n2, c)


def sy_start(r):
    x = r.choice(["Japanese", "Rust", "the guitar", "SQL", "watercolor painting", "Portuguese"])
    return ("What's the best way to begin learning {}?".format(x),
            "What's the best way to start learning {}?".format(x))


def sy_remove(r):
    x = r.choice(["a list in Python", "a JavaScript array", "the `customers` table in SQL",
                  "a pandas DataFrame"])
    a, b = r.choice([("remove", "delete"), ("remove", "get rid of")])
    return ("How do I {} duplicates from {}?".format(a, x),
            "How do I {} duplicates from {}?".format(b, x))


def sy_sick(r):
    p = r.choice(PETS)
    return ("My {} seems sick and won't eat. When should I take it to the vet?".format(p),
            "My {} seems ill and won't eat. When should I take it to the vet?".format(p))


def sy_cheap(r):
    a, b = r.choice([("London", "Paris"), ("Boston", "New York"), ("Madrid", "Barcelona"),
                     ("Tokyo", "Kyoto"), ("Berlin", "Prague"), ("Toronto", "Montreal")])
    w1, w2 = r.choice([("cheap", "inexpensive"), ("cheap", "low-cost")])
    return ("What's a {} way to travel from {} to {}?".format(w1, a, b),
            "What's an {} way to travel from {} to {}?".format(w2, a, b) if w2[0] in "aeiou"
            else "What's a {} way to travel from {} to {}?".format(w2, a, b))


def sy_fix(r):
    x = r.choice(["a leaking faucet", "a running toilet", "a flat bike tire",
                  "a squeaky door hinge", "a cracked phone screen"])
    return "How do I fix {} myself?".format(x), "How do I repair {} myself?".format(x)


def sy_doctor(r):
    s = r.choice(["a cough that has lasted three weeks", "frequent headaches",
                  "back pain after lifting boxes", "a mole that changed color",
                  "ringing in my ears"])
    return ("Should I see a doctor about {}?".format(s),
            "Should I see a physician about {}?".format(s))


def sy_help(r):
    j = r.choice(JOBS)
    art = "an" if j[0] in "aeiou" else "a"
    return ("Can you help me write a cover letter for {} {} job?".format(art, j),
            "Can you assist me in writing a cover letter for {} {} job?".format(art, j))


def sy_fast(r):
    x = r.choice(["my Python script", "my SQL query on `orders`", "my React app",
                  "my Docker builds", "my laptop"])
    a, b = r.choice([("faster", "quicker"), ("run faster", "run more quickly")])
    if " " not in a:
        return ("How can I make {} run {}?".format(x, a), "How can I make {} run {}?".format(x, b))
    return ("How can I make {} {}?".format(x, a), "How can I make {} {}?".format(x, b))


# ---- 2. question_form
CONCEPTS = ["photosynthesis", "inflation", "a closure in JavaScript", "a Docker volume",
            "a database index", "compound interest", "a Roth IRA", "the Doppler effect",
            "a race condition", "a 401(k)", "a CORS error", "plate tectonics"]


def qf2_concept(r):
    c = r.choice(CONCEPTS)
    a, b = r.sample(["What is {}?", "Explain {}.", "Can you explain {}?", "Tell me what {} is.",
                     "I'd like to know what {} is.", "Could you describe what {} is?"], 2)
    return a.format(c), b.format(c)


def qf2_capital(r):
    c = r.choice(COUNTRIES)
    a, b = r.sample(["What is the capital of {}?", "Tell me the capital of {}.",
                     "Name the capital of {}.", "Do you know what the capital of {} is?"], 2)
    return a.format(c), b.format(c)


def qf2_howto(r):
    t = r.choice(["reverse a string in Python", "undo the last git commit but keep the changes",
                  "find which process is using port 8080 on Linux", "parse JSON in JavaScript",
                  "rename a column in PostgreSQL", "list all running Docker containers",
                  "check which version of `numpy` is installed"])
    a, b = r.sample(["How do I {}?", "Show me how to {}.", "Can you tell me how to {}?",
                     "What's the way to {}?", "Explain how to {}."], 2)
    return a.format(t), b.format(t)


def qf2_situation(r):
    s = r.choice(["my landlord won't return my security deposit",
                  "my flight to {} gets canceled".format(r.choice(CITIES)),
                  "my dog eats a whole chocolate bar", "I lose my passport abroad",
                  "my coworker keeps taking credit for my work",
                  "my bank charges me an overdraft fee I didn't expect"])
    a, b = r.sample(["What should I do if {}?", "Tell me what to do if {}.",
                     "What do you recommend doing if {}?", "Any advice on what to do if {}?"], 2)
    return a.format(s), b.format(s)


def qf2_who(r):
    w = r.choice(["painted the Mona Lisa", "wrote Pride and Prejudice", "discovered penicillin",
                  "invented the telephone", "was the first person to walk on the Moon",
                  "composed The Four Seasons", "developed the theory of general relativity"])
    a, b = r.sample(["Who {}?", "Tell me who {}.", "Do you know who {}?", "I want to know who {}."], 2)
    return a.format(w), b.format(w)


def qf2_when(r):
    q, s = r.choice([("When did World War II end?", "World War II ended"),
                     ("When did the Berlin Wall fall?", "the Berlin Wall fell"),
                     ("When did the Titanic sink?", "the Titanic sank"),
                     ("When did humans first land on the Moon?", "humans first landed on the Moon"),
                     ("When did the Roman Empire fall?", "the Western Roman Empire fell")])
    if "Western" in s:
        q = "When did the Western Roman Empire fall?"
    req = r.choice(["Tell me when {}.", "I'd like to know when {}.", "Can you tell me when {}?"])
    return q, req.format(s)


# ---- 3. superlative_rephrase
def sr_largest(r):
    x = r.choice(["ocean on Earth", "planet in the solar system", "country in Africa",
                  "desert in Asia", "organ in the human body", "moon of Saturn", "lake in Africa"])
    a, b = r.sample(["Which {} is the largest?", "What's the biggest {}?",
                     "What is the largest {}?", "Which is the biggest {}?"], 2)
    return a.format(x), b.format(x)


def sr_river(r):
    c = r.choice(CONTINENTS)
    a, b = r.sample(["What is the longest river in {}?", "Which river in {} is the longest?",
                     "Which is {}'s longest river?"], 2)
    return a.format(c), b.format(c)


def sr_mountain(r):
    c = r.choice(["Africa", "Japan", "the United States", "Canada", "South America", "New Zealand"])
    a, b = r.sample(["What is the highest mountain in {}?", "Which mountain in {} is the highest?",
                     "What's the highest mountain peak in {}?"], 2)
    return a.format(c), b.format(c)


def sr_populous(r):
    c = r.choice(COUNTRIES)
    a, b = r.sample(["What is the most populous city in {}?", "Which city in {} has the most people?",
                     "Which city in {} has the largest population?"], 2)
    return a.format(c), b.format(c)


def sr_fastest(r):
    t = r.choice(["read a large CSV file in Python", "count the lines in a big file on Linux",
                  "check if a value is in a large list in Python",
                  "copy a 50 GB folder between two Linux servers",
                  "deep clone an object in JavaScript"])
    a, b = r.sample(["What's the fastest way to {}?", "Which way to {} is the fastest?",
                     "What is the quickest way to {}?"], 2)
    return a.format(t), b.format(t)


def sr_cheapest(r):
    t = r.choice(["send money from the US to Mexico", "get from the airport to downtown {}".format(r.choice(CITIES)),
                  "feed a family of four for a week", "ship a bicycle across the country",
                  "heat a small apartment in winter"])
    a, b = r.sample(["What's the cheapest way to {}?", "Which way to {} costs the least?",
                     "What is the least expensive way to {}?"], 2)
    return a.format(t), b.format(t)


def sr_president(r):
    a_ = r.choice(["youngest", "oldest", "tallest"])
    a, b = r.sample(["Who was the {} president of the United States?", "Which US president was the {}?",
                     "Which president of the United States was the {}?"], 2)
    return a.format(a_), b.format(a_)


# ---- 4. word_order
def wo_python(r):
    t = r.choice(["read a file line by line", "merge two dictionaries", "get the current date",
                  "flatten a list of lists", "check if a string is a number", "sort a dict by value"])
    return "In Python, how do I {}?".format(t), "How do I {} in Python?".format(t)


def wo_sql(r):
    t = r.choice(["find duplicate emails in the `customers` table",
                  "get the second highest `salary` from `employees`",
                  "count orders per `status` in `orders`",
                  "delete rows older than 90 days from `logs`"])
    return "Using SQL, how can I {}?".format(t), "How can I {} using SQL?".format(t)


def wo_ubuntu(r):
    t = r.choice(["check free disk space", "add a user to the `sudo` group",
                  "open port 443 in the firewall", "find files larger than 1 GB",
                  "see which services start at boot"])
    return "On Ubuntu, how do I {}?".format(t), "How do I {} on Ubuntu?".format(t)


def wo_pack(r):
    c = r.choice(COUNTRIES)
    m = r.choice(MONTHS)
    return ("For a trip to {} in {}, what should I pack?".format(c, m),
            "What should I pack for a trip to {} in {}?".format(c, m))


def wo_sport(r):
    e = r.choice(["FIFA World Cup", "Tour de France", "Wimbledon men's singles title",
                  "NBA championship", "Champions League"])
    y = r.choice([1998, 2004, 2010, 2014, 2019])
    return "In {}, who won the {}?".format(y, e), "Who won the {} in {}?".format(e, y)


def wo_pet(r):
    p = r.choice(PETS)
    return ("How often should I take my {} to the vet for checkups?".format(p),
            "For checkups, how often should I take my {} to the vet?".format(p))


def wo_money(r):
    n = r.choice([2500, 3200, 4000, 5500, 7000])
    return ("If I earn {} a month after tax, how much should I save?".format(money(n)),
            "How much should I save if I earn {} a month after tax?".format(money(n)))


def wo_js(r):
    a, b = r.choice([("`let`", "`var`"), ("`==`", "`===`"), ("`null`", "`undefined`"),
                     ("`map()`", "`forEach()`")])
    return ("In JavaScript, what's the difference between {} and {}?".format(a, b),
            "What's the difference between {} and {} in JavaScript?".format(a, b))


# ---- 5. politeness
POLITE_Q = ["What is the capital of Australia?", "How do I reverse a list in Python?",
            "What's the difference between `git fetch` and `git pull`?",
            "How long should I boil an egg for a runny yolk?",
            "Is it safe to leave my cat alone for a weekend?", "What does HTTP status 429 mean?",
            "How do I center a div with CSS flexbox?", "How many bones are in the adult human body?",
            "Should I pay off my car loan early?",
            "Why does my Docker container exit immediately after starting?",
            "When did the Berlin Wall fall?", "How do I undo `git add` for one file?",
            "Which vitamins are fat-soluble?", "Can I negotiate my salary after accepting an offer?"]
POLITE_IMP = ["Explain the difference between TCP and UDP.",
              "Write a SQL query that counts rows in `orders` by `status`.",
              "Recommend a few books about personal finance.",
              "Convert 72 degrees Fahrenheit to Celsius.",
              "Summarize the causes of World War I.",
              "Give me a regex that matches a 5-digit ZIP code.",
              "Suggest a polite way to ask my landlord to fix the heating.",
              "List the planets in order from the Sun."]


def po_hi(r):
    q = r.choice(POLITE_Q)
    return q, "Hi! Quick question: " + q


def po_thanks(r):
    q = r.choice(POLITE_Q)
    return q, q + r.choice([" Thanks!", " Thank you so much.", " thx in advance"])


def po_hello(r):
    q = r.choice(POLITE_Q)
    return q, "Hello, " + lf(q) + " Thank you in advance."


def po_could(r):
    q = r.choice(POLITE_IMP)
    return q, "Could you please " + lf(q)[:-1] + "?"


def po_please(r):
    q = r.choice(POLITE_IMP)
    return q, "Please " + lf(q)[:-1] + ", thanks a lot."


def po_hey(r):
    q = r.choice(POLITE_Q + POLITE_IMP)
    return q, r.choice(["Hey, hope you're doing well. ", "Good morning! ", "Sorry to bother you. "]) + q


# ---- 6. casing_punctuation_spacing
CASE_PLAIN = ["What is the tallest building in the world?", "How do I get rid of fruit flies in my kitchen?",
              "Which planet has the most moons?", "Is it normal for a puppy to sleep 18 hours a day?",
              "Who wrote The Great Gatsby?", "How much should I tip a hairdresser in the US?",
              "What's the best way to learn SQL as a beginner?", "Can I bring a power bank in checked luggage?",
              "What year did the Titanic sink?", "How do I ask my manager for a day off?",
              "Why do cats purr?", "What is the speed of light in a vacuum?",
              "How many calories are in a banana?", "Should I rent or buy a home in Denver?"]
CASE_CODE = ["How do I install `requests` with pip?", "What does `git stash pop` do?",
             "Why does `SELECT * FROM users WHERE name = NULL` return no rows?",
             "What's the difference between `==` and `===` in JavaScript?",
             "How do I fix `EADDRINUSE` when starting my Node server?",
             "What does `chmod 755 script.sh` do?"]


def _outside_code_spaces(s):
    """Indices of spaces that are outside backtick code spans."""
    idx, inside = [], False
    for i, ch in enumerate(s):
        if ch == "`":
            inside = not inside
        elif ch == " " and not inside:
            idx.append(i)
    return idx


def cp_lower(r):
    s = r.choice(CASE_PLAIN)
    return s, s.lower()


def cp_upper(r):
    s = r.choice(CASE_PLAIN)
    return s, s.upper()


def cp_strip(r):
    s = r.choice(CASE_PLAIN + CASE_CODE)
    return s, s.rstrip("?.!")


def cp_spaces(r):
    s = r.choice(CASE_PLAIN + CASE_CODE)
    idx = _outside_code_spaces(s)
    picks = set(r.sample(idx, min(2, len(idx))))
    out = "".join(("   " if i in picks else ch) for i, ch in enumerate(s))
    return s, "  " + out + " "


def cp_multi(r):
    s = r.choice(CASE_PLAIN + CASE_CODE)
    return s, s.rstrip("?.!") + r.choice(["???", "?!", " ?"])


def cp_lower_nopunct(r):
    s = r.choice(CASE_PLAIN)
    return s, s.lower().rstrip("?.!").replace("'", "").replace(",", "")


# ---- 7. contractions_and_informal
def ci_whatis(r):
    x = r.choice(["boiling point of water in Fahrenheit", "population of Canada",
                  "difference between a virus and a bacterium", "default port for PostgreSQL",
                  "time difference between London and Tokyo"])
    return "What is the {}?".format(x), "what's the {}".format(x)


def ci_please(r):
    q = r.choice(["explain how `async`/`await` works in JavaScript",
                  "recommend a good budgeting app",
                  "check my cover letter for typos",
                  "explain what a `JOIN` does in SQL",
                  "suggest a name for my new puppy"])
    return "Can you please {}? Thanks.".format(q), "can u pls {} thx".format(q)


def ci_situation(r):
    a, b = r.choice([("I am behind on my rent this month.", "im behind on my rent this month"),
                     ("I am feeling burned out at work.", "i'm feeling burned out at work"),
                     ("I have two job offers and I cannot decide.", "i've got two job offers and i can't decide"),
                     ("I am moving to a new city next month and I do not know anyone.",
                      "im moving to a new city next month and i don't know anyone")])
    return "{} What should I do?".format(a), "{}, what should i do".format(b)


def ci_with(r):
    t, tool = r.choice([("make a POST request", "curl"), ("read an Excel file", "`pandas`"),
                        ("run a Postgres database", "Docker"), ("schedule a script", "cron"),
                        ("test my API", "Postman")])
    return "How do I {} with {}?".format(t, tool), "how do i {} w/ {}".format(t, tool)


def ci_pet(r):
    p = r.choice(PETS)
    return ("What should I do when my {} will not eat?".format(p),
            "what should i do when my {} won't eat??".format(p))


def ci_bday(r):
    rel = r.choice(["sister", "dad", "boyfriend", "best friend", "grandma"])
    return ("It is my {}'s birthday tomorrow and I have not bought a gift yet. Do you have any ideas?".format(rel),
            "it's my {}'s bday tmrw and i haven't bought a gift yet, u got any ideas?".format(rel))


def ci_dont(r):
    x = r.choice(["how `git rebase` works", "what a mortgage escrow account is",
                  "the offside rule in soccer", "how Python decorators work"])
    return ("I do not understand {}. Could you explain it?".format(x),
            "i dont understand {}, could u explain it".format(x))


# ---- 8. voice_change
def vc_book(r):
    b = r.choice(["Pride and Prejudice", "One Hundred Years of Solitude", "1984", "Don Quixote",
                  "War and Peace", "Hamlet", "The Old Man and the Sea"])
    return "Who wrote {}?".format(b), r.choice(["By whom was {} written?", "{} was written by whom?"]).format(b)


def vc_painting(r):
    p = r.choice(["The Starry Night", "the Mona Lisa", "The Persistence of Memory", "Guernica",
                  "The Birth of Venus", "The Night Watch"])
    return "Who painted {}?".format(p), r.choice(["By whom was {} painted?", "{} was painted by whom?"]).format(p)


def vc_discover(r):
    x = r.choice(["penicillin", "radium", "the electron", "the neutron", "Pluto", "the planet Neptune"])
    return "Who discovered {}?".format(x), uf(r.choice(["by whom was {} discovered?", "{} was discovered by whom?"]).format(x))


def vc_created(r):
    x = r.choice(["Python", "JavaScript", "the Linux kernel", "Git", "C++", "Ruby", "the World Wide Web"])
    return "Who created {}?".format(x), uf("{} was created by whom?".format(x))


def vc_internals(r):
    return r.choice([
        ("How does Git store commits internally?", "How are commits stored internally by Git?"),
        ("How does Python manage memory?", "How is memory managed by Python?"),
        ("How does the browser parse HTML?", "How is HTML parsed by the browser?"),
        ("How does PostgreSQL handle concurrent transactions?", "How are concurrent transactions handled by PostgreSQL?"),
        ("How does Docker isolate containers from each other?", "How are containers isolated from each other by Docker?"),
        ("How does the Linux kernel schedule processes?", "How are processes scheduled by the Linux kernel?")])


def vc_car(r):
    rel = r.choice(RELATIONS)
    return ("My {} rear-ended my car at a red light. Whose insurance should pay?".format(rel),
            "My car was rear-ended by my {} at a red light. Whose insurance should pay?".format(rel))


def vc_rent(r):
    p = r.choice([8, 10, 12, 20])
    d = r.choice([14, 30])
    return ("My landlord raised my rent by {}% with only {} days' notice. Is that legal?".format(p, d),
            "My rent was raised by {}% by my landlord with only {} days' notice. Is that legal?".format(p, d))


def vc_bitten(r):
    p = r.choice(["cat", "dog", "rabbit"])
    return ("A neighbor's dog bit my {} this morning. What should I do?".format(p),
            "My {} was bitten by a neighbor's dog this morning. What should I do?".format(p))


# ---- 9. context_reordered
def _reorder(r, facts, question):
    s = " ".join(facts) + " " + question
    perm = facts[:]
    while perm == facts:
        r.shuffle(perm)
    if r.random() < 0.25:
        q = question + " " + " ".join(perm)
    else:
        q = " ".join(perm) + " " + question
    return s, q


def cr_money(r):
    facts = ["I'm {} and have {} in credit card debt.".format(r.choice([26, 34, 41, 52]),
                                                             money(r.choice([4000, 9000, 15000]))),
             "I just got a bonus of {} at work.".format(money(r.choice([2000, 5000, 8000])))]
    return _reorder(r, facts, "Should I put the bonus toward the debt or into savings?")


def cr_housing(r):
    facts = ["My lease ends in {} months.".format(r.choice([2, 3, 4])),
             "My landlord just offered to renew with a rent increase of {}%.".format(r.choice([5, 8, 12])),
             "Similar apartments nearby cost about the same as what I pay now."]
    return _reorder(r, facts, "Should I renew or start looking for a new place?")


def cr_health(r):
    facts = ["I've had a headache every afternoon for {} days.".format(r.choice([5, 10, 14])),
             "I drink about {} cups of coffee a day.".format(r.choice([3, 4, 6])),
             "I've also been sleeping less than six hours a night."]
    return _reorder(r, facts, "What could be causing the headaches?")


def cr_travel(r):
    kid = r.choice(["son", "daughter"])
    facts = ["I'm flying to {} next month with my {}-year-old {}.".format(r.choice(CITIES), r.choice([2, 4, 7]), kid),
             "The flight is {} hours long.".format(r.choice([6, 9, 13])),
             "We have a three-hour layover on the way."]
    return _reorder(r, facts, "How can I keep my {} entertained during the trip?".format(kid))


def cr_job(r):
    facts = ["I've been at my company for {} years.".format(r.choice([2, 4, 6])),
             "I just got an outside offer that pays {}% more.".format(r.choice([10, 15, 25])),
             "My manager hinted that I might get promoted next year."]
    return _reorder(r, facts, "Should I take the new offer?")


def cr_pet(r):
    p = r.choice(["cat", "dog", "rabbit"])
    facts = ["My {} is {} years old.".format(p, r.choice([3, 9, 12])),
             "Two days ago the {} stopped eating her usual food.".format(p),
             "The {} is still drinking water normally.".format(p)]
    return _reorder(r, facts, "Should I take her to the vet?")


def cr_family(r):
    facts = ["My {} is getting married in {}.".format(r.choice(["cousin", "brother", "best friend"]), r.choice(MONTHS)),
             "The wedding is in {}, and flights there cost about {}.".format(r.choice(CITIES), money(r.choice([450, 700, 1200]))),
             "I'm trying to save for a down payment on a house."]
    return _reorder(r, facts, "Would it be rude to skip the wedding?")


# ---- 10. reworded_request
def rw_pyfunc(r):
    a, b = r.choice([("checks whether a number is prime", "check whether a number is prime"),
                     ("counts the vowels in a string", "count the vowels in a string"),
                     ("merges two sorted lists", "merge two sorted lists"),
                     ("returns the median of a list of numbers", "return the median of a list of numbers"),
                     ("converts Celsius to Fahrenheit", "convert Celsius to Fahrenheit")])
    return ("Write a Python function that {}.".format(a),
            r.choice(["Create a Python function to {}.", "I need a Python function to {}."]).format(b))


def rw_error(r):
    e = r.choice(["TypeError: 'NoneType' object is not subscriptable",
                  "ModuleNotFoundError: No module named 'requests'",
                  "SyntaxError: Unexpected token '<' in JSON at position 0",
                  "fatal: refusing to merge unrelated histories",
                  "permission denied while trying to connect to the Docker daemon socket",
                  "ERROR: relation \"users\" does not exist"])
    a, b = r.sample(["Fix this error: `{}`", "How do I resolve this error: `{}`?",
                     "I keep getting `{}`. How do I fix it?", "How can I get rid of this error: `{}`?"], 2)
    return a.format(e), b.format(e)


def rw_regex(r):
    x = r.choice(["US ZIP codes", "email addresses", "dates in YYYY-MM-DD format",
                  "hex color codes like `#1a2b3c`", "IPv4 addresses"])
    return ("Give me a regex that matches {}.".format(x),
            "I need a regular expression to match {}.".format(x))


def rw_sql(r):
    a, b = r.choice([("returns the top 5 customers by total spend from `orders`",
                      "return the top 5 customers by total spend from `orders`"),
                     ("finds employees who earn more than their manager in `employees`",
                      "find employees who earn more than their manager in `employees`"),
                     ("lists products in `products` with `stock` below 10",
                      "list products in `products` with `stock` below 10")])
    return ("Write a SQL query that {}.".format(a), "Can you give me a SQL query to {}?".format(b))


def rw_bash(r):
    a, b = r.choice([("renames all `.jpeg` files in a folder to `.jpg`", "rename all `.jpeg` files in a folder to `.jpg`"),
                     ("backs up my home directory to `/mnt/backup` every night", "back up my home directory to `/mnt/backup` every night"),
                     ("deletes log files older than 30 days", "delete log files older than 30 days")])
    return ("Write a bash script that {}.".format(a), "Put together a bash script to {}.".format(b))


def rw_docker(r):
    x = r.choice(["Flask", "Node.js Express", "Django", "Go", "Spring Boot"])
    return ("Write a Dockerfile for a {} app.".format(x),
            "Create a Dockerfile that containerizes a {} app.".format(x))


def rw_js(r):
    a, b = r.choice([("debounces another function", "debounce another function"),
                     ("formats a number as US currency", "format a number as US currency"),
                     ("deep merges two objects", "deep merge two objects")])
    return ("Write a JavaScript function that {}.".format(a), "I need a JS function to {}.".format(b))


POS = [
    ("synonym_swap", [sy_car, sy_start, sy_remove, sy_sick, sy_cheap, sy_fix, sy_doctor,
                      sy_help, sy_fast]),
    ("question_form", [qf2_concept, qf2_capital, qf2_howto, qf2_situation, qf2_who, qf2_when]),
    ("superlative_rephrase", [sr_largest, sr_river, sr_mountain, sr_populous, sr_fastest,
                              sr_cheapest, sr_president]),
    ("word_order", [wo_python, wo_sql, wo_ubuntu, wo_pack, wo_sport, wo_pet, wo_money, wo_js]),
    ("politeness", [po_hi, po_thanks, po_hello, po_could, po_please, po_hey]),
    ("casing_punctuation_spacing", [cp_lower, cp_upper, cp_strip, cp_spaces, cp_multi,
                                    cp_lower_nopunct]),
    ("contractions_and_informal", [ci_whatis, ci_please, ci_situation, ci_with, ci_pet,
                                   ci_bday, ci_dont]),
    ("voice_change", [vc_book, vc_painting, vc_discover, vc_created, vc_internals, vc_car,
                      vc_rent, vc_bitten]),
    ("context_reordered", [cr_money, cr_housing, cr_health, cr_travel, cr_job, cr_pet, cr_family]),
    ("reworded_request", [rw_pyfunc, rw_error, rw_regex, rw_sql, rw_bash, rw_docker, rw_js]),
]


# ================================================================ assembly

def build(rng, spec, n):
    out, seen, pairs = [], set(), set()
    for cat, templates in spec:
        got, attempts = 0, 0
        while got < n:
            t = templates[attempts % len(templates)]
            attempts += 1
            if attempts > 20000:
                raise RuntimeError("could not fill category " + cat)
            s, q = t(rng)
            if rng.random() < 0.5:
                s, q = q, s
            if s == q or s in seen or q in seen or (s, q) in pairs or (q, s) in pairs:
                continue
            seen.update((s, q))
            pairs.add((s, q))
            out.append({"category": cat, "stored": s, "query": q})
            got += 1
    return out


DESCRIPTION = (
    "Blind held-out evaluation set v25 for a semantic prompt cache, generated from templates "
    "and public word lists with random.Random(252525). It mixes short factual questions, "
    "developer requests (some with inline code) and short personal or work situations in tidy "
    "and informal writing. 'text_pairs' holds 180 near-miss pairs (12 categories x 15) whose "
    "two prompts look alike but need different answers, so the stored answer must not be "
    "served for the query; 'positives' holds 150 true paraphrase pairs (10 categories x 15) "
    "that keep every entity, number, code token and constraint, so the stored answer should be "
    "served. Written blind, without reading the project's other data sets, tests or code."
)


def main():
    rng = random.Random(SEED)
    text_pairs = build(rng, NEAR, N_NEAR)
    positives = build(rng, POS, N_POS)
    data = {"description": DESCRIPTION, "text_pairs": text_pairs, "positives": positives}
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "data", "heldout_generated_v25.json")
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    for name in ("text_pairs", "positives"):
        counts = {}
        for item in data[name]:
            counts[item["category"]] = counts.get(item["category"], 0) + 1
        print(name, len(data[name]), counts)


if __name__ == "__main__":
    main()
