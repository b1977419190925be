#!/usr/bin/env python3
"""Generator for held-out semantic-prompt-cache evaluation set v26.

Written blind: the author did not look at any other data set, test, code or
documentation of the project while writing this script; all templates and
word lists below were written from scratch for this file.

The set focuses on TASK INSTRUCTIONS as people send them to a chat assistant
at work and at home (write / draft / summarize / translate / rewrite / list /
compare / explain / plan / convert / fix / review) across customer support,
e-commerce, HR and hiring, finance and invoices, health, law and contracts,
teaching, cooking, travel, fitness, real estate, marketing and programming
(Python, JavaScript, SQL, shell, regex, JSON, YAML, CSS, Docker, CI). Roughly
40 % of prompts carry two to four sentences of context before the request;
the rest are one sentence. Tidy and informal writing are mixed.

Output: benchmarks/caches/data/heldout_generated_v26.json with keys
  description  one paragraph describing the set
  text_pairs   192 near-miss pairs (16 categories x 12): stored and query are
               worded almost alike but need a DIFFERENT answer, so a cache
               must NOT serve one for the other. Categories: entity_swapped,
               number_or_unit, code_detail, roles_or_direction, negation,
               opposite_word, time_or_tense, modality, output_format,
               output_length, audience_or_tone, language, quantity_or_scope,
               person_or_possession, context_changed, task_changed.
  positives    160 true paraphrase pairs (10 categories x 16): both prompts
               mean the same and keep every entity, number, code fragment,
               format, length, language, audience and context fact, so a cache
               SHOULD serve the stored answer. Categories: synonym_swap,
               request_form, question_to_imperative, word_order,
               politeness_and_filler, casing_punctuation_spacing,
               contractions_and_informal, voice_change, context_reordered,
               reworded_request.
Every list item is {"category", "stored", "query"}. Each category has at least
five templates; slots are filled from small hand-written word lists. Pairs are
unique (unordered) across the whole file and stored != query always.

Deterministic: random.Random(262626). Run from the repository root:
    python3 benchmarks/caches/make_heldout_v26.py
"""

import json
import os
import random
import re

SEED = 262626
rng = random.Random(SEED)

OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "data", "heldout_generated_v26.json")

N_NEAR = 12
N_POS = 16

# --------------------------------------------------------------------------
# Shared word lists
# --------------------------------------------------------------------------
W = {
    "city": ["Lisbon", "Kyoto", "Denver", "Marrakech", "Edinburgh",
             "Vancouver", "Prague", "Buenos Aires", "Seoul", "Cape Town"],
    "state": ["California", "Texas", "New York", "Florida", "Illinois",
              "Washington State", "Oregon", "Massachusetts"],
    "country": ["Japan", "Germany", "Brazil", "Canada", "France", "India",
                "Mexico", "Australia"],
    "lang": ["French", "Spanish", "German", "Italian", "Portuguese",
             "Japanese", "Dutch", "Polish", "Korean", "Turkish"],
    "dish": ["lasagna", "chicken tikka masala", "vegetable ramen",
             "seafood paella", "shakshuka", "beef stew", "pad thai",
             "mushroom risotto", "banana bread", "black bean chili"],
    "product": ["standing desk", "robot vacuum", "hiking backpack",
                "smart thermostat", "mechanical keyboard", "yoga mat",
                "countertop blender", "noise-cancelling headset",
                "coffee grinder", "portable projector"],
    "shop": ["Northwind Traders", "Summit Outdoor Gear", "Brightmart",
             "Homeline Direct", "Gadget Garage", "Pinecrest Supply"],
    "company": ["Northwind Traders", "Bluebird Bakery", "Acme Logistics",
                "Greenleaf Pharmacy", "Harbor Fitness", "Pixel Forge Studio",
                "Summit Outdoor Gear", "Brightline Dental"],
    "org": ["Contoso", "Meridian Partners", "Vantage Labs", "Halcyon Group",
            "Orchard & Company", "Lumen Health", "Fabrikam", "Northstar Systems"],
    "fname": ["Maria", "Priya", "Aisha", "Laura", "Fatima", "Sofia", "Mei",
              "Hannah"],
    "job": ["senior data analyst", "junior frontend developer",
            "warehouse supervisor", "dental hygienist",
            "marketing coordinator", "payroll specialist", "registered nurse",
            "customer support lead", "high school math teacher",
            "DevOps engineer"],
    "name": ["Maria", "Tom", "Priya", "Jonas", "Aisha", "Kenji", "Laura",
             "Daniel", "Fatima", "Lucas"],
    "drug": ["ibuprofen", "acetaminophen", "amoxicillin", "metformin",
             "loratadine", "omeprazole", "sertraline", "lisinopril"],
    "condition": ["type 2 diabetes", "migraines", "asthma",
                  "high blood pressure", "eczema", "iron deficiency anemia",
                  "acid reflux", "hypothyroidism", "IBS", "gout"],
    "table": ["orders", "customers", "invoices", "employees", "products",
              "payments"],
    "fw": ["React", "Vue", "Angular", "Svelte"],
    "plang": ["Python", "JavaScript", "Go", "Rust", "Java", "C#"],
    "fmt": ["CSV", "JSON", "XML", "YAML", "Excel"],
    "tool": ["Linear", "GitHub Issues", "Asana", "Trello", "ClickUp",
             "Notion"],
    "concept": ["compound interest", "blockchain", "photosynthesis",
                "inflation", "machine learning", "the immune system",
                "recursion", "supply and demand", "DNS", "the greenhouse effect"],
    "topic": ["sleeping better", "saving money on groceries",
              "public speaking", "running a remote team meeting",
              "studying for exams", "negotiating a salary",
              "keeping houseplants alive", "writing clean Python code"],
    "business": ["dog grooming salon", "vegan food truck", "bookkeeping firm",
                 "candle shop", "coffee roastery", "yoga studio",
                 "bike repair shop", "tutoring service"],
    "book": ["Pride and Prejudice", "1984", "The Great Gatsby",
             "To Kill a Mockingbird", "Frankenstein", "Moby-Dick",
             "Jane Eyre", "Of Mice and Men"],
    "rel": ["wife", "husband", "sister", "brother", "mom", "dad",
            "best friend", "coworker"],
    "inv": ["1042", "2087", "3319", "4410", "5128", "7736"],
    "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
}

SLOT = re.compile(r"\{([a-z_]+)(\d*)(\^?)\}")


def fill(texts, local=None):
    """Fill {slot}, {slot2}, {slot^} placeholders consistently across texts.

    Same name+index -> same value in every text; different indexes of the
    same base name -> distinct values. A trailing ^ capitalises the value.
    """
    local = local or {}
    keys = []
    for t in texts:
        for m in SLOT.finditer(t):
            k = (m.group(1), m.group(2))
            if k not in keys:
                keys.append(k)
    chosen, used = {}, {}
    for base, idx in keys:
        pool = local.get(base, W.get(base))
        if pool is None:
            raise KeyError("no word list for slot %r" % base)
        taken = used.setdefault(base, set())
        avail = [v for v in pool if v not in taken]
        v = rng.choice(avail)
        taken.add(v)
        chosen[(base, idx)] = v

    def rep(m):
        v = chosen[(m.group(1), m.group(2))]
        if m.group(3):
            v = v[0].upper() + v[1:]
        return v

    return [SLOT.sub(rep, t) for t in texts]


# ==========================================================================
# NEAR-MISS TEMPLATES (stored, query[, local lists])
# ==========================================================================
NEAR = {}

NEAR["entity_swapped"] = [
    ("My partner and I are going to {city} for our anniversary. We both love street food and museums. Write a 3-day itinerary for us.",
     "My partner and I are going to {city2} for our anniversary. We both love street food and museums. Write a 3-day itinerary for us."),
    ("I sell handmade candles online. My best seller is the {scent} candle and I want more people to find it. Write a product description for it in under 80 words.",
     "I sell handmade candles online. My best seller is the {scent2} candle and I want more people to find it. Write a product description for it in under 80 words.",
     {"scent": ["lavender", "sandalwood", "sea salt", "vanilla bean",
                "cedarwood", "fig and cassis"]}),
    ("My doctor just prescribed {drug}. I've never taken it before and I'm a bit nervous. Summarize its most common side effects in plain language.",
     "My doctor just prescribed {drug2}. I've never taken it before and I'm a bit nervous. Summarize its most common side effects in plain language."),
    ("hey can u give me a {dish} recipe that serves 4? thx",
     "hey can u give me a {dish2} recipe that serves 4? thx"),
    ("Explain how `{pyfunc}` works in Python, with a short example.",
     "Explain how `{pyfunc2}` works in Python, with a short example.",
     {"pyfunc": ["zip()", "enumerate()", "sorted()", "map()", "filter()",
                 "any()", "reversed()", "isinstance()"]}),
    ("Our support team tracks tickets in Jira. We're thinking about moving to {tool}. List what we would need to migrate and the main risks.",
     "Our support team tracks tickets in Jira. We're thinking about moving to {tool2}. List what we would need to migrate and the main risks."),
    ("Draft a job posting for a {job} at {org}, mentioning that the role is hybrid.",
     "Draft a job posting for a {job2} at {org}, mentioning that the role is hybrid."),
    ("Write a short bio of {person} for my son's 5th grade presentation!",
     "Write a short bio of {person2} for my son's 5th grade presentation!",
     {"person": ["Marie Curie", "Ada Lovelace", "Nelson Mandela",
                 "Frida Kahlo", "Alan Turing", "Wangari Maathai"]}),
]

NEAR["number_or_unit"] = [
    ("my recipe says bake at {temp}°F, what's that in Celsius?",
     "my recipe says bake at {temp2}°F, what's that in Celsius?",
     {"temp": ["325", "350", "375", "400", "425", "450"]}),
    ("I just got a job offer. It pays ${salary} a year and I'd file as single in {state}. Roughly what will my monthly take-home pay be after taxes?",
     "I just got a job offer. It pays ${salary2} a year and I'd file as single in {state}. Roughly what will my monthly take-home pay be after taxes?",
     {"salary": ["48,000", "65,000", "82,000", "120,000", "150,000"]}),
    ("I'm a freelance web designer. A client still hasn't paid invoice #{inv} for $2,450, and it is now {days} days overdue. Write a polite but firm reminder.",
     "I'm a freelance web designer. A client still hasn't paid invoice #{inv} for $2,450, and it is now {days2} days overdue. Write a polite but firm reminder.",
     {"days": ["7", "14", "30", "45", "60", "90"]}),
    ("I'm 42 and haven't exercised in years. Create a {weeks}-week plan to get me from the couch to running a 5K.",
     "I'm 42 and haven't exercised in years. Create a {weeks2}-week plan to get me from the couch to running a 5K.",
     {"weeks": ["4", "6", "8", "10", "12"]}),
    ("Scale this cookie recipe from 24 cookies to {count} cookies: 2 cups flour, 1 cup butter, 3/4 cup sugar, 2 eggs, 1 tsp baking soda.",
     "Scale this cookie recipe from 24 cookies to {count2} cookies: 2 cups flour, 1 cup butter, 3/4 cup sugar, 2 eggs, 1 tsp baking soda.",
     {"count": ["12", "36", "48", "60", "100"]}),
    ("Convert 250 {cur} to US dollars at a typical recent exchange rate.",
     "Convert 250 {cur2} to US dollars at a typical recent exchange rate.",
     {"cur": ["euros", "British pounds", "Japanese yen", "Swiss francs",
              "Canadian dollars", "Mexican pesos"]}),
    ("My apartment lease ends on {date}. The contract says I must give 60 days' written notice. What's the last day I can send it, and can you draft the notice?",
     "My apartment lease ends on {date2}. The contract says I must give 60 days' written notice. What's the last day I can send it, and can you draft the notice?",
     {"date": ["March 31", "June 30", "September 15", "December 1",
               "August 31"]}),
    ("What is a {pct}% tip on a restaurant bill of $86.40?",
     "What is a {pct2}% tip on a restaurant bill of $86.40?",
     {"pct": ["15", "18", "20", "22", "25"]}),
]

NEAR["code_detail"] = [
    ("I made a bad commit on my feature branch. My teammate has already pulled it. What does `git reset {flag} HEAD~1` do, and is it safe here?",
     "I made a bad commit on my feature branch. My teammate has already pulled it. What does `git reset {flag2} HEAD~1` do, and is it safe here?",
     {"flag": ["--soft", "--mixed", "--hard"]}),
    ("Explain what the regex `^[a-z0-9_]{q}$` matches and give two example strings.",
     "Explain what the regex `^[a-z0-9_]{q2}$` matches and give two example strings.",
     {"q": ["+", "*", "?", "{3,16}", "{8}"]}),
    ("What rows does `SELECT * FROM orders o {join} customers c ON o.customer_id = c.id` return?",
     "What rows does `SELECT * FROM orders o {join2} customers c ON o.customer_id = c.id` return?",
     {"join": ["INNER JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL OUTER JOIN"]}),
    ("In JavaScript, what does `[1, 2, 3].{method}(x => x * 2)` return?",
     "In JavaScript, what does `[1, 2, 3].{method2}(x => x * 2)` return?",
     {"method": ["map", "forEach", "filter", "some", "find"]}),
    ("i'm cleaning up disk space on our web server. the logs folder is huge. what does `find . -name '*.log' -mtime {m} -delete` do? pls explain before i run it on prod",
     "i'm cleaning up disk space on our web server. the logs folder is huge. what does `find . -name '*.log' -mtime {m2} -delete` do? pls explain before i run it on prod",
     {"m": ["+7", "-7", "+30", "-1"]}),
    ("What will `print(list(range({args})))` print in Python?",
     "What will `print(list(range({args2})))` print in Python?",
     {"args": ["5", "1, 5", "0, 10, 2", "5, 0, -1", "10, 0, -3"]}),
    ("I set `display: {css};` on a container div. Explain what happens to its child elements.",
     "I set `display: {css2};` on a container div. Explain what happens to its child elements.",
     {"css": ["flex", "grid", "inline-block", "contents", "none"]}),
    ("In a GitHub Actions workflow, when does a step with `if: {cond}` run?",
     "In a GitHub Actions workflow, when does a step with `if: {cond2}` run?",
     {"cond": ["failure()", "always()", "success()", "cancelled()"]}),
    ("We use Postgres 15. Our nightly report runs `SELECT status, COUNT(*) FROM orders GROUP BY status {clause}`. Explain what it returns.",
     "We use Postgres 15. Our nightly report runs `SELECT status, COUNT(*) FROM orders GROUP BY status {clause2}`. Explain what it returns.",
     {"clause": ["HAVING COUNT(*) > 10", "HAVING COUNT(*) < 10",
                 "ORDER BY COUNT(*) DESC", "LIMIT 3"]}),
    ("We deploy a small Flask API with Docker Compose on one VM. The compose file has `restart: {restart}` on the api service. What happens when the container crashes or the host reboots?",
     "We deploy a small Flask API with Docker Compose on one VM. The compose file has `restart: {restart2}` on the api service. What happens when the container crashes or the host reboots?",
     {"restart": ["always", "unless-stopped", "on-failure", '"no"']}),
]

NEAR["roles_or_direction"] = [
    ("Write an email from the landlord to the tenant about next year's rent increase.",
     "Write an email from the tenant to the landlord about next year's rent increase."),
    ("Write a short message from a mentor to a mentee suggesting we meet every two weeks.",
     "Write a short message from a mentee to a mentor suggesting we meet every two weeks."),
    ("I have an important meeting the day after I land. I'm flying from {tz} to {tz2} next week, so what's the time difference and how do I deal with the jet lag?",
     "I have an important meeting the day after I land. I'm flying from {tz2} to {tz} next week, so what's the time difference and how do I deal with the jet lag?",
     {"tz": ["New York", "Tokyo", "London", "Sydney", "Los Angeles", "Dubai"]}),
    ("Write a SQL statement that copies all rows from `{arch}` into `{arch2}`.",
     "Write a SQL statement that copies all rows from `{arch2}` into `{arch}`.",
     {"arch": ["orders_2023", "orders_archive", "orders_staging",
               "orders_backup"]}),
    ("Write a Python script that converts {fmt} files to {fmt2}.",
     "Write a Python script that converts {fmt2} files to {fmt}."),
    ("Our dashboard has about 80 components. We're a team of three and want to switch frameworks this quarter. What's the easiest way to migrate from {fw} to {fw2}?",
     "Our dashboard has about 80 components. We're a team of three and want to switch frameworks this quarter. What's the easiest way to migrate from {fw2} to {fw}?"),
    ("I'm writing training examples for our marketplace's support team. The scenario is a {product} that arrived damaged. Draft an email from the buyer to the seller about it.",
     "I'm writing training examples for our marketplace's support team. The scenario is a {product} that arrived damaged. Draft an email from the seller to the buyer about it."),
    ("how do i transfer photos from my iPhone to my Windows laptop??",
     "how do i transfer photos from my Windows laptop to my iPhone??"),
]

NEAR["negation"] = [
    ("I'm applying for a {job} role. I took two years off to care for my father. Write a cover letter that mentions my career gap.",
     "I'm applying for a {job} role. I took two years off to care for my father. Write a cover letter that doesn't mention my career gap."),
    ("What foods should I eat if I have {condition}?",
     "What foods should I not eat if I have {condition}?"),
    ("Write a Python function that returns the items in `list_a` that are also in `list_b`.",
     "Write a Python function that returns the items in `list_a` that are not in `list_b`."),
    ("My tenant {fname} paid rent on time every month for two years. She's moving out and asked me for a reference. Write a reference letter for her new landlord.",
     "My tenant {fname} did not pay rent on time every month for two years. She's moving out and asked me for a reference. Write a reference letter for her new landlord."),
    ("We run an online pet supply shop. Marketing wants to send a new email campaign. Write a SQL query that lists customers who have placed an order in the last 30 days.",
     "We run an online pet supply shop. Marketing wants to send a new email campaign. Write a SQL query that lists customers who have not placed an order in the last 30 days."),
    ("We interviewed 14 people for the {job} position last week. Draft an email to the candidates who were selected for a second interview.",
     "We interviewed 14 people for the {job} position last week. Draft an email to the candidates who were not selected for a second interview."),
    ("Plan a 7-day trip around {country} that includes renting a car.",
     "Plan a 7-day trip around {country} that does not include renting a car."),
]

NEAR["opposite_word"] = [
    ("{org} offered me the {job} position on Friday. The salary is exactly what I asked for. Draft a reply accepting the offer.",
     "{org} offered me the {job} position on Friday. The salary is exactly what I asked for. Draft a reply rejecting the offer."),
    ("I'm 50 and I just started running three times a week. My calves get really tight. What stretches should I do before a run?",
     "I'm 50 and I just started running three times a week. My calves get really tight. What stretches should I do after a run?"),
    ("Write a short paragraph about the advantages of buying a {product} for a home office.",
     "Write a short paragraph about the disadvantages of buying a {product} for a home office."),
    ("I bake sourdough every weekend. My kitchen is pretty cold in winter. How can I make the dough rise faster?",
     "I bake sourdough every weekend. My kitchen is pretty cold in winter. How can I make the dough rise slower?"),
    ("Write a SQL query to find the highest-paid employee in each department from the `employees` table.",
     "Write a SQL query to find the lowest-paid employee in each department from the `employees` table."),
    ("In Python, how do I sort a list of dictionaries by the `price` key in ascending order?",
     "In Python, how do I sort a list of dictionaries by the `price` key in descending order?"),
    ("Write a support macro that explains how customers can upgrade their subscription plan.",
     "Write a support macro that explains how customers can downgrade their subscription plan."),
    ("how do I encrypt a file with gpg on Linux?",
     "how do I decrypt a file with gpg on Linux?"),
    ("Our launch was planned for June 14. The client just changed the scope. Write a message to my team announcing that the deadline has moved one week earlier.",
     "Our launch was planned for June 14. The client just changed the scope. Write a message to my team announcing that the deadline has moved one week later."),
]

NEAR["time_or_tense"] = [
    ("Write a short Slack message to the team about the product launch that happened yesterday.",
     "Write a short Slack message to the team about the product launch that's happening tomorrow."),
    ("I had knee surgery last week. What exercises are safe for me right now?",
     "I'm having knee surgery next week. What exercises are safe for me right now?"),
    ("What changed in the US rules for home office tax deductions last year?",
     "What will change in the US rules for home office tax deductions next year?"),
    ("Write a LinkedIn post announcing that I left {org} after five years.",
     "Write a LinkedIn post announcing that I'm leaving {org} after five years."),
    ("We're a team of four developers working on the {company} checkout page. Our manager wants a stakeholder update. Write a summary of what we did in the last sprint.",
     "We're a team of four developers working on the {company} checkout page. Our manager wants a stakeholder update. Write a summary of what we will do in the next sprint."),
    ("I ordered a {product} from {shop}. The tracking page shows the wrong street. It was delivered to that wrong address yesterday, so what should I do?",
     "I ordered a {product} from {shop}. The tracking page shows the wrong street. It is going to be delivered to that wrong address tomorrow, so what should I do?"),
    ("Write a thank-you email to the volunteers who helped at the {city} charity 10K last Saturday.",
     "Write a thank-you email to the volunteers who will help at the {city} charity 10K next Saturday."),
]

NEAR["modality"] = [
    ("Which fields must appear on a business invoice in {eu}?",
     "Which fields may appear on a business invoice in {eu}?",
     {"eu": ["Germany", "France", "Spain", "Italy", "the Netherlands",
             "Poland"]}),
    ("I'm going to {vac} for three weeks in March. I'll be in cities and some rural areas. Which vaccines are required for the trip?",
     "I'm going to {vac} for three weeks in March. I'll be in cities and some rural areas. Which vaccines are recommended for the trip?",
     {"vac": ["Brazil", "Kenya", "India", "Thailand", "Peru", "Ghana"]}),
    ("I rent out a condo in {state}. Am I allowed to ask tenants for a pet deposit?",
     "I rent out a condo in {state}. Am I required to ask tenants for a pet deposit?"),
    ("I'm a college student in the US. Last year I earned $9,000 from a part-time job and had taxes withheld. Do I need to file a tax return?",
     "I'm a college student in the US. Last year I earned $9,000 from a part-time job and had taxes withheld. Can I file a tax return?"),
    ("Which arguments must I pass to `{func}` in Python?",
     "Which arguments can I pass to `{func}` in Python?",
     {"func": ["open()", "requests.get()", "subprocess.run()",
               "pandas.read_csv()", "json.dumps()", "datetime.datetime()"]}),
    ("Do I have to include a cover letter when applying for a {job} job?",
     "Should I include a cover letter when applying for a {job} job?"),
    ("Is it mandatory to wear a helmet when riding an e-scooter in {scoot}?",
     "Is it advisable to wear a helmet when riding an e-scooter in {scoot}?",
     {"scoot": ["Paris", "Berlin", "Madrid", "Melbourne", "Toronto"]}),
]

NEAR["output_format"] = [
    ("Our startup is picking a backend stack. The team knows both {plang} and {plang2}. Compare them for backend development in a table.",
     "Our startup is picking a backend stack. The team knows both {plang} and {plang2}. Compare them for backend development in a few paragraphs."),
    ("List the ingredients for {dish} as a JSON array of objects with name and quantity.",
     "List the ingredients for {dish} as a bulleted list with quantities."),
    ("Extract the name, email and phone number from this email signature and return them as {sf}: '{sig}'",
     "Extract the name, email and phone number from this email signature and return them as {sf2}: '{sig}'",
     {"sf": ["JSON", "YAML", "a CSV row", "a markdown table"],
      "sig": ["Laura Chen | Account Manager | laura.chen@northwind.example | +1 415 555 0134",
              "Jonas Weber, Head of Sales, jonas.weber@acme.example, +49 30 5550 1122",
              "Priya Nair - Recruiter - priya@brightline.example - (212) 555-0199"]}),
    ("I'm a recruiter writing a careers page. Our client is hiring a {job}. Summarize the main responsibilities of the role as bullet points.",
     "I'm a recruiter writing a careers page. Our client is hiring a {job}. Summarize the main responsibilities of the role as a single paragraph."),
    ("I'm training for a half marathon and can run four days a week. My long run is on Sundays. Lay out my weekly schedule as {fo}.",
     "I'm training for a half marathon and can run four days a week. My long run is on Sundays. Lay out my weekly schedule as {fo2}.",
     {"fo": ["a markdown table", "a numbered list", "a checklist",
             "a short paragraph", "JSON"]}),
    ("Write the release notes for version 2.4 of our mobile app in {rn}.",
     "Write the release notes for version 2.4 of our mobile app in {rn2}.",
     {"rn": ["Markdown", "HTML", "plain text", "reStructuredText"]}),
    ("pls make me a packing list for a weekend camping trip, as a table with columns item / qty / packed",
     "pls make me a packing list for a weekend camping trip, as a simple bulleted list"),
]

NEAR["output_length"] = [
    ("Give me {n} tips for {topic}.",
     "Give me {n2} tips for {topic}.",
     {"n": ["3", "5", "10", "15"]}),
    ("Explain {concept} {ln}.",
     "Explain {concept} {ln2}.",
     {"ln": ["in one sentence", "in three paragraphs", "in about 50 words",
             "in a detailed 1,000-word article"]}),
    ("I'm a {job} with eight years of experience. Write a LinkedIn summary for me in under {wc} words.",
     "I'm a {job} with eight years of experience. Write a LinkedIn summary for me in under {wc2} words.",
     {"wc": ["50", "100", "200", "300"]}),
    ("Summarize the plot of {book} {pl}.",
     "Summarize the plot of {book} {pl2}.",
     {"pl": ["in one line", "in a single short paragraph",
             "in about one page", "chapter by chapter"]}),
    ("My best friend {name} is getting married next month and I'm giving a toast. We met in college and went camping together every summer. Write a {mins}-minute toast.",
     "My best friend {name} is getting married next month and I'm giving a toast. We met in college and went camping together every summer. Write a {mins2}-minute toast.",
     {"mins": ["1", "2", "5", "10"]}),
    ("I'm hiring a {job}. First-round calls are only 20 minutes long. List {iq} interview questions I could ask.",
     "I'm hiring a {job}. First-round calls are only 20 minutes long. List {iq2} interview questions I could ask.",
     {"iq": ["3", "8", "15", "25"]}),
]

NEAR["audience_or_tone"] = [
    ("Explain {concept} to {aud}.",
     "Explain {concept} to {aud2}.",
     {"aud": ["a 7-year-old", "a PhD student in the field",
              "a room of business executives", "my 80-year-old grandmother"]}),
    ("The heater in my apartment broke three days ago. It's below freezing at night. Write a {tone} email to my landlord asking them to fix it.",
     "The heater in my apartment broke three days ago. It's below freezing at night. Write a {tone2} email to my landlord asking them to fix it.",
     {"tone": ["very formal", "warm and friendly", "firm and urgent"]}),
    ("Our release is delayed by two weeks because the payment integration failed testing. Nothing is lost, but the new checkout won't ship in May. Write an update about the delay for {upd}.",
     "Our release is delayed by two weeks because the payment integration failed testing. Nothing is lost, but the new checkout won't ship in May. Write an update about the delay for {upd2}.",
     {"upd": ["my manager", "our customers", "the engineering team",
              "the board of directors"]}),
    ("Write a description of {condition} for {med}.",
     "Write a description of {condition} for {med2}.",
     {"med": ["patients who were just diagnosed", "medical students",
              "parents of young children"]}),
    ("Write a {bt} birthday message for my coworker {name}.",
     "Write a {bt2} birthday message for my coworker {name}.",
     {"bt": ["funny", "heartfelt", "short and professional", "sarcastic"]}),
    ("Write an Instagram caption for our new {product} aimed at {ig}!",
     "Write an Instagram caption for our new {product} aimed at {ig2}!",
     {"ig": ["college students", "retirees", "busy parents",
             "small business owners"]}),
]

NEAR["language"] = [
    ("Translate 'Your order has shipped and should arrive in 3 to 5 business days.' into {lang}.",
     "Translate 'Your order has shipped and should arrive in 3 to 5 business days.' into {lang2}."),
    ("Write a short welcome message for our hotel guests in {lang}, mentioning that breakfast is served from 7 to 10.",
     "Write a short welcome message for our hotel guests in {lang2}, mentioning that breakfast is served from 7 to 10."),
    ("explain how to reset a home wifi router, answer in {lang} pls",
     "explain how to reset a home wifi router, answer in {lang2} pls"),
    ("We're localizing our budgeting app. Right now every error message is in English only. Translate 'Incorrect password. Please try again.' into {lang} for the strings file.",
     "We're localizing our budgeting app. Right now every error message is in English only. Translate 'Incorrect password. Please try again.' into {lang2} for the strings file."),
    ("Translate this menu item into {lang}: '{dish^} with seasonal vegetables'.",
     "Translate this menu item into {lang2}: '{dish^} with seasonal vegetables'."),
    ("I'm a pharmacist in a busy neighborhood. Many of my customers don't speak English well. Write simple instructions in {lang} for taking {drug} twice a day with food.",
     "I'm a pharmacist in a busy neighborhood. Many of my customers don't speak English well. Write simple instructions in {lang2} for taking {drug} twice a day with food."),
]

NEAR["quantity_or_scope"] = [
    ("Write a SQL query that returns the total revenue for each customer from the `orders` table.",
     "Write a SQL query that returns the total revenue across all customers from the `orders` table."),
    ("Give me a bash command that deletes all .tmp files in the current folder.",
     "Give me a bash command that deletes all .tmp files in the current folder and all its subfolders."),
    ("I'm opening a {business} in a small college town next spring. Give me one name idea for it.",
     "I'm opening a {business} in a small college town next spring. Give me a list of 20 name ideas for it."),
    ("How many calories are in a slice of {food}?",
     "How many calories are in a whole {food}?",
     {"food": ["pepperoni pizza", "banana bread", "cheesecake",
               "apple pie", "carrot cake"]}),
    ("Write a bash one-liner to rename `Report_FINAL.TXT` to lowercase.",
     "Write a bash one-liner to rename every file in the current directory to lowercase."),
    ("I had three interviews today for the {job} role at {org}. All of them went well. Write a thank-you note to the hiring manager.",
     "I had three interviews today for the {job} role at {org}. All of them went well. Write a thank-you note to each of the three interviewers."),
    ("What's the monthly payment on a $300,000 mortgage at 6% over 30 years?",
     "What's the total amount paid on a $300,000 mortgage at 6% over 30 years?"),
]

NEAR["person_or_possession"] = [
    ("I pack lunches every weekday. My husband has {kc}. What snacks should I pack for him?",
     "I pack lunches every weekday. My 6-year-old son has {kc}. What snacks should I pack for him?",
     {"kc": ["celiac disease", "type 1 diabetes", "a peanut allergy",
             "lactose intolerance"]}),
    ("Write an email to my boss saying I'm sick and can't come in today.",
     "Write an email to my boss saying my daughter is sick and I can't come in today."),
    ("I'm a US citizen and my partner is Canadian. We want to live together in Toronto. Which visa do I need?",
     "I'm a US citizen and my partner is Canadian. We want to live together in Toronto. Which visa does my partner need?"),
    ("I'm 34 and my dad is 68. Which health screenings should I get this year?",
     "I'm 34 and my dad is 68. Which health screenings should he get this year?"),
    ("Write my self-assessment for the annual review. I'm a {job} and I led the database migration this year.",
     "Write my direct report's assessment for the annual review. She's a {job} and she led the database migration this year."),
    ("Our cat keeps getting into our vegetable garden and digging up the plants. How do we stop it?",
     "Our neighbor's cat keeps getting into our vegetable garden and digging up the plants. How do we stop it?"),
    ("We're moving to {city} next month. Our gym has no branch there. Write an email to the gym cancelling my membership.",
     "We're moving to {city} next month. Our gym has no branch there. Write an email to the gym cancelling my wife's membership."),
]

NEAR["context_changed"] = [
    ("I'm {cc}. I've had a bad cold with a stuffy nose and sore throat for three days. Which over-the-counter medicines are safe for me?",
     "I'm {cc2}. I've had a bad cold with a stuffy nose and sore throat for three days. Which over-the-counter medicines are safe for me?",
     {"cc": ["pregnant", "on blood thinners", "breastfeeding a newborn",
             "being treated for high blood pressure"]}),
    ("I run a small bakery in {city}. {cause} last week, so about 20 orders went out late. Draft an apology email to the affected customers.",
     "I run a small bakery in {city}. {cause2} last week, so about 20 orders went out late. Draft an apology email to the affected customers.",
     {"cause": ["Our main oven broke down", "Our delivery van was in an accident",
                "Two of our bakers were out sick",
                "A power outage shut down the kitchen"]}),
    ("We're a team of three developers. Our web app is written in {stack} and gets about 10,000 visitors a day. Which hosting option should we pick?",
     "We're a team of three developers. Our web app is written in {stack2} and gets about 10,000 visitors a day. Which hosting option should we pick?",
     {"stack": ["Django", "Ruby on Rails", "Next.js", "Laravel",
                "ASP.NET Core"]}),
    ("I'm hosting six friends for dinner on Saturday. One of them is {diet}. Plan a three-course menu that works for everyone.",
     "I'm hosting six friends for dinner on Saturday. One of them is {diet2}. Plan a three-course menu that works for everyone.",
     {"diet": ["vegan", "allergic to nuts", "celiac", "lactose intolerant",
               "pescatarian"]}),
    ("We're visiting {city} in July with {comp}. We love food and walking around. Suggest a plan for two days.",
     "We're visiting {city} in July with {comp2}. We love food and walking around. Suggest a plan for two days.",
     {"comp": ["two toddlers", "my elderly parents", "our dog",
               "a group of college friends"]}),
    ("I'm a beginner and I have a bad {body}. I can train three times a week at home with dumbbells. Make me a four-week workout plan.",
     "I'm a beginner and I have a bad {body2}. I can train three times a week at home with dumbbells. Make me a four-week workout plan.",
     {"body": ["knee", "shoulder", "lower back", "wrist"]}),
    ("I work as a freelance graphic designer in {fl}. A client is 60 days late paying a 3,000 euro invoice. What are my legal options, and can you draft a final notice?",
     "I work as a freelance graphic designer in {fl2}. A client is 60 days late paying a 3,000 euro invoice. What are my legal options, and can you draft a final notice?",
     {"fl": ["Germany", "France", "Ireland", "Spain", "the Netherlands"]}),
]

NEAR["task_changed"] = [
    ("I'm about to sign the lease for my first apartment. The landlord added this clause: '{clause}' {tk}",
     "I'm about to sign the lease for my first apartment. The landlord added this clause: '{clause}' {tk2}",
     {"tk": ["Summarize it for me.", "Explain the risks for me as the tenant.",
             "Rewrite it so it favors the tenant.", "Translate it into Spanish."],
      "clause": ["The tenant shall be responsible for all repairs under $200, and the landlord may enter the premises with 24 hours' notice.",
                 "Either party may terminate this agreement with 30 days' written notice, except during the first six months of the term."]}),
    ("I inherited a small Flask codebase. One helper looks like this: `def slugify(s): return s.lower().strip().replace(' ', '-')`. {tf}",
     "I inherited a small Flask codebase. One helper looks like this: `def slugify(s): return s.lower().strip().replace(' ', '-')`. {tf2}",
     {"tf": ["Write pytest unit tests for it.", "Add type hints and a docstring to it.",
             "Explain it line by line.", "Find the edge cases that break it."]}),
    ("I'm thinking about taking a fully remote job as a {job}. I have two kids and a small apartment. List the pros of working remotely in my situation.",
     "I'm thinking about taking a fully remote job as a {job}. I have two kids and a small apartment. List the cons of working remotely in my situation."),
    ("Draft {hr} for a {job} at {org}.",
     "Draft {hr2} for a {job} at {org}.",
     {"hr": ["a job description", "ten interview questions",
             "an offer letter", "a 30-60-90 day onboarding plan"]}),
    ("{sq}: `SELECT c.name, SUM(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.created_at >= '2024-01-01' GROUP BY c.name`",
     "{sq2}: `SELECT c.name, SUM(o.total) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.created_at >= '2024-01-01' GROUP BY c.name`",
     {"sq": ["Explain this SQL query", "Optimize this SQL query",
             "Rewrite this SQL query with a CTE",
             "Turn this SQL query into the equivalent pandas code"]}),
    ("We sell a {product} on our website. I wrote this blurb for it: 'Built to last, designed to delight, and priced for everyone.' {pt}",
     "We sell a {product} on our website. I wrote this blurb for it: 'Built to last, designed to delight, and priced for everyone.' {pt2}",
     {"pt": ["Proofread it.", "Translate it into German.",
             "Make it sound more luxurious.",
             "Write three headline options based on it."]}),
    ("Give me {dt} for {dish}.",
     "Give me {dt2} for {dish}.",
     {"dt": ["a recipe", "a shopping list", "wine pairing suggestions",
             "the nutrition facts per serving"]}),
]

# ==========================================================================
# POSITIVE TEMPLATES
# ==========================================================================
POS = {}

POS["synonym_swap"] = [
    ("Give me a quick {dish} recipe for four people.",
     "Give me a fast {dish} recipe for four people."),
    ("Suggest some inexpensive things to do in {city} on a weekend.",
     "Suggest some cheap things to do in {city} on a weekend."),
    ("My {rel}'s birthday is next week. My budget is $50. Help me pick a present.",
     "My {rel}'s birthday is next week. My budget is $50. Help me choose a gift."),
    ("I run a small design studio. A client still hasn't paid invoice #{inv}. Draft a polite reminder that it's overdue.",
     "I run a small design studio. A client still hasn't paid invoice #{inv}. Draft a courteous reminder that it's past due."),
    ("What are the typical symptoms of {condition}?",
     "What are the usual symptoms of {condition}?"),
    ("How can I lower my monthly {bill} bill?",
     "How can I reduce my monthly {bill} bill?",
     {"bill": ["electricity", "phone", "grocery", "internet", "water",
               "heating"]}),
    ("Write a short description of our new {product} for the online store.",
     "Write a brief description of our new {product} for the online shop."),
    ("I'm 35 and haven't exercised in years. I want to begin running in {month}. Make a plan for a total beginner.",
     "I'm 35 and haven't exercised in years. I want to start running in {month}. Create a plan for a complete beginner.",
     {"month": ["January", "March", "May", "September"]}),
]


def _request_form(task, ctx="", local=None):
    forms = ["Can you {t}?", "{T}.", "I'd like you to {t}.", "Please {t}.",
             "Could you {t}?", "I need you to {t}.", "Would you please {t}?"]

    def f(r):
        filled = fill([ctx, task], local)
        c, t = filled
        a, b = r.sample(forms, 2)

        def render(form):
            body = form.replace("{T}", t[0].upper() + t[1:]).replace("{t}", t)
            return (c + " " + body) if c else body
        return render(a), render(b)
    return f


POS["request_form"] = [
    _request_form("explain how {concept} works in simple terms"),
    _request_form("summarize the plot of {book} in five sentences"),
    _request_form("translate 'Thank you for your patience while we look into this' into {lang}"),
    _request_form("write a SQL query that returns the ten most recent rows from the `{table}` table by `created_at`",
                  "Our app stores everything in Postgres. I'm new to SQL."),
    _request_form("draft a short out-of-office reply saying I'm back on {day}",
                  "I'm going on a hiking trip next week. I won't have any phone signal."),
    _request_form("list the main differences between a Roth IRA and a traditional IRA",
                  "I'm 29 and just started my first full-time job. My employer doesn't offer a 401(k)."),
    _request_form("write a regex that matches a US ZIP code like `12345` or `12345-6789`"),
    _request_form("suggest a 3-day itinerary for {city} on a mid-range budget"),
    _request_form("make me an eight-week plan to learn {plang}",
                  "I'm a {job} who wants to move into software. I have about five hours a week to study."),
]


def _conversions(r):
    conv = r.choice([("5 miles", "kilometers"), ("350 grams", "ounces"),
                     ("2 cups", "milliliters"), ("72 degrees Fahrenheit", "Celsius"),
                     ("6 feet 2 inches", "centimeters"), ("1.5 liters", "fluid ounces")])
    return ("What is %s in %s?" % conv, "Convert %s to %s." % conv)


POS["question_to_imperative"] = [
    ("What are some good ways to {goal}?",
     "Give me some good ways to {goal}.",
     {"goal": ["save money on groceries", "fall asleep faster",
               "stay focused while working from home",
               "keep houseplants alive", "improve my credit score"]}),
    _conversions,
    ("Which documents do I need to rent an apartment in {city}?",
     "List the documents I need to rent an apartment in {city}."),
    ("What are the symptoms of {condition}?",
     "List the symptoms of {condition}."),
    ("I'm opening a {business} in my hometown. It will be small and family-run. What's a good name for it?",
     "I'm opening a {business} in my hometown. It will be small and family-run. Suggest a good name for it."),
    ("I'm new to our team's deploy scripts. One line says `{cmd}`. What does it do?",
     "I'm new to our team's deploy scripts. One line says `{cmd}`. Explain what it does.",
     {"cmd": ["git stash pop", "chmod 755 deploy.sh", "docker system prune -a",
              "npm ci", "tar -xzvf backup.tar.gz",
              "kubectl rollout undo deployment/web"]}),
    ("I've been a {job} at {org} for three years. I took on two new projects this year. What should I write in an email asking my manager for a raise?",
     "I've been a {job} at {org} for three years. I took on two new projects this year. Tell me what I should write in an email asking my manager for a raise."),
    ("How do I center a div horizontally and vertically with CSS flexbox?",
     "Show me how to center a div horizontally and vertically with CSS flexbox."),
]

POS["word_order"] = [
    ("My sister and I are going to {city} for five days in October. We'll be outdoors most of the time. What should we pack?",
     "In October, my sister and I are going to {city} for five days. We'll be outdoors most of the time. What should we pack?"),
    ("In Python, how do I read a CSV file into a list of dictionaries?",
     "How do I read a CSV file into a list of dictionaries in Python?"),
    ("Using only pantry staples, suggest a {meal} for two.",
     "Suggest a {meal} for two using only pantry staples.",
     {"meal": ["dinner", "lunch", "breakfast", "dessert"]}),
    ("In under 100 words, write a thank-you note to {name} for the referral.",
     "Write a thank-you note to {name} for the referral in under 100 words."),
    ("Before my interview at {org} on {day}, what questions should I prepare for?",
     "What questions should I prepare for before my interview at {org} on {day}?"),
    ("For each department, write a query that returns the average salary from `employees`.",
     "Write a query that returns the average salary from `employees` for each department."),
    ("I'm a {job}. Next month I'm switching teams. Quickly and politely, draft a goodbye message to my current team.",
     "I'm a {job}. Next month I'm switching teams. Draft a goodbye message to my current team, quickly and politely."),
    ("Once a week, on Sundays, I want to back up my `~/projects` folder to an external drive. Write a cron entry for that.",
     "Write a cron entry for backing up my `~/projects` folder to an external drive once a week on Sundays."),
]

_Q_PRE = ["Hi! ", "Hey, quick question: ", "Hello! ", "Quick question: ",
          "If you don't mind me asking, ", "Hi there, hope you're well. "]
_I_PRE = ["Hi! ", "Hello, hope you're well. ", "Hey! ", "Good morning. ",
          "Please ", "Hi there! "]
_C_PRE = ["Hi! ", "Hello, hope you're well. ", "Hey there! ", "Good morning. ",
          "Hi, sorry to bother you. "]
_SUF = [" Thanks!", " Thank you so much!", " Thx in advance.",
        " Much appreciated.", " Thanks a lot for the help!"]


def _polite(base, kind, local=None):
    """kind: 'q' one-sentence question, 'i' one-sentence imperative,
    'c' context sentences followed by a request."""
    def decorate(r, s):
        pres = {"q": _Q_PRE, "i": _I_PRE, "c": _C_PRE}[kind]
        mode = r.choice(["pre", "suf", "both", "please_end"])
        if mode == "please_end" and kind == "i":
            return s[:-1] + ", please" + s[-1]
        if mode == "please_end":
            mode = "suf"
        out = s
        if mode in ("pre", "both"):
            p = r.choice(pres)
            body = out
            if p.endswith((", ", ": ")) or p == "Please ":
                body = body[0].lower() + body[1:]
            out = p + body
        if mode in ("suf", "both"):
            out = out + r.choice(_SUF)
        return out

    def f(r):
        s = fill([base], local)[0]
        a, b = s, decorate(r, s)
        if r.random() < 0.3:
            a = decorate(r, s)
        if r.random() < 0.5:
            a, b = b, a
        return a, b
    return f


POS["politeness_and_filler"] = [
    _polite("How long should I boil an egg to get a runny yolk?", "q"),
    _polite("Summarize the main themes of {book} in five bullet points.", "i"),
    _polite("Write a Python function that checks whether a string is a palindrome.", "i"),
    _polite("What's the best way to get a red wine stain out of a {fabric}?", "q",
            {"fabric": ["carpet", "white cotton shirt", "linen tablecloth",
                        "wool sweater"]}),
    _polite("Draft a two-line message to {name} moving our call to {day}.", "i"),
    _polite("My {charge} stopped working after a week. I still have the receipt. Write a return request to the store.", "c",
            {"charge": ["electric toothbrush", "robot vacuum", "e-reader",
                        "smartwatch", "cordless drill"]}),
    _polite("I start a new job as a {job} on Monday. I'm nervous about the first week. What should I focus on in my first few days?", "c"),
    _polite("Our team of five shares one Google Calendar. Meetings keep getting double-booked. Suggest a simple booking rule we could all follow.", "c"),
    _polite("I'm teaching {book} to a 10th grade class. The unit lasts two weeks. Write three discussion questions for the first lesson.", "c"),
    _polite("Convert this JSON to YAML: `{\"service\": \"web\", \"replicas\": 3, \"ports\": [80, 443]}`.", "i"),
]


def _outside_code(text, fn):
    parts = text.split("`")
    return "`".join(fn(p) if i % 2 == 0 else p for i, p in enumerate(parts))


def _t_lower(s, r):
    return _outside_code(s, str.lower)


def _t_upper(s, r):
    return _outside_code(s, str.upper)


def _t_strip_end(s, r):
    return s.rstrip(".?!")


def _t_no_commas_apos(s, r):
    return _outside_code(s, lambda p: p.replace(",", "").replace("'", ""))


def _t_extra_punct(s, r):
    if s.endswith("?"):
        return s + "??"
    if s.endswith("."):
        return s[:-1] + "!!"
    return s + "!"


def _t_spaces(s, r):
    def widen(p):
        idx = [i for i, c in enumerate(p) if c == " "]
        if not idx:
            return p
        pick = set(r.sample(idx, min(len(idx), r.randint(1, 3))))
        return "".join(("   " if i in pick else c) for i, c in enumerate(p))
    return "  " + _outside_code(s, widen) + " "


# spaces must come last so that end-of-string edits see the real last char
_TRANSFORMS = [_t_lower, _t_upper, _t_strip_end, _t_no_commas_apos,
               _t_extra_punct, _t_spaces]


def _casing(base, local=None):
    def f(r):
        s = fill([base], local)[0]
        ops = r.sample(_TRANSFORMS, r.randint(1, 3))
        if _t_lower in ops and _t_upper in ops:
            ops.remove(_t_upper)
        if _t_strip_end in ops and _t_extra_punct in ops:
            ops.remove(_t_extra_punct)
        ops.sort(key=_TRANSFORMS.index)
        q = s
        for op in ops:
            q = op(q, r)
        if r.random() < 0.25:
            return q, s
        return s, q
    return f


POS["casing_punctuation_spacing"] = [
    _casing("What's the best way to learn {lang} in six months?"),
    _casing("Plan a 4-day trip to {city} for a couple who loves hiking and wine."),
    _casing("Write a cover letter for a {job} position at {org}."),
    _casing("How do I merge two dictionaries in Python 3?"),
    _casing("What are the side effects of {drug}?"),
    _casing("Explain the difference between `let` and `const` in JavaScript."),
    _casing("My {charge} stopped charging after two months. It's still under warranty. Write a support ticket asking for a replacement.",
            {"charge": ["electric toothbrush", "robot vacuum", "e-reader",
                        "smartwatch", "cordless drill"]}),
    _casing("I'm planning a baby shower for my {rel}. There will be about 20 guests. Suggest five games that don't feel cheesy."),
    _casing("Our restaurant in {city} gets lots of tourists. The menu is only in English. Write a short note for the menu saying an allergy guide is available on request."),
    _casing("I'm a {job}. My manager wants a status update every week. Write a template I can reuse every Friday."),
]

POS["contractions_and_informal"] = [
    ("I do not understand how to set up a cron job that runs every Monday at 9 am. Can you show me?",
     "i don't get how to set up a cron job that runs every monday at 9 am, can u show me?"),
    ("What is the best way to tell my team I am going to be out on {day}?",
     "whats the best way to tell my team im gonna be out on {day}?"),
    ("I ordered a {product} from {shop} three weeks ago. I have not heard back about my refund. Can you write a follow-up email for me, please?",
     "ordered a {product} from {shop} 3 weeks ago. havent heard back about my refund... can u write a follow up email for me pls"),
    ("I would like a {cdish} recipe that does not need an oven.",
     "i'd like a {cdish} recipe that doesn't need an oven pls",
     {"cdish": ["chicken curry", "fried rice", "shakshuka", "pad thai",
                "lentil soup", "black bean chili"]}),
    ("You are going to help me write a toast for my {wrel}'s wedding. I am the maid of honor. It should not be longer than two minutes.",
     "ur gonna help me write a toast for my {wrel}'s wedding. im the maid of honor. shouldn't be longer than 2 mins",
     {"wrel": ["sister", "brother", "best friend", "cousin"]}),
    ("Can you explain why my Python script says it cannot find the module `{mod}` even though I installed it?",
     "can u explain why my python script says it can't find the module `{mod}` even tho i installed it??",
     {"mod": ["requests", "pandas", "numpy", "yaml", "flask"]}),
    ("I am a {job} and I have not taken a vacation in two years. How do I ask my manager for a week off?",
     "im a {job} and i haven't taken a vacation in 2 yrs, how do i ask my manager for a week off?"),
    ("It is my first time filing taxes as a freelancer in {state}. I did not save any receipts. What do I need to know?",
     "it's my 1st time filing taxes as a freelancer in {state}. i didn't save any receipts... what do i need to know"),
    ("I am trying to lose about 5 kg before {event}. What should I be eating?",
     "im tryna lose like 5 kg before {event}, what should i be eating",
     {"event": ["my wedding", "summer", "my vacation", "the holidays"]}),
]


def _hormones(r):
    organ, verb, hormone = r.choice([
        ("the pancreas", "produces", "insulin"),
        ("the thyroid gland", "produces", "thyroid hormone"),
        ("the adrenal glands", "produce", "cortisol"),
        ("the kidneys", "produce", "erythropoietin"),
        ("the pituitary gland", "produces", "growth hormone")])
    return ("Explain how %s %s %s." % (organ, verb, hormone),
            "Explain how %s is produced by %s." % (hormone, organ))


POS["voice_change"] = [
    ("Summarize the feedback that our customers gave about the new {product}.",
     "Summarize the feedback that was given by our customers about the new {product}."),
    ("My employer terminated my contract without notice. What are my options in {state}?",
     "My contract was terminated by my employer without notice. What are my options in {state}?"),
    _hormones,
    ("Write a Python function that the scheduler calls every hour to delete temp files older than a day.",
     "Write a Python function that is called by the scheduler every hour to delete temp files older than a day."),
    ("I work in customer support at {shop}. The courier lost a customer's package on the way to {city}. Draft a reply to that customer.",
     "I work in customer support at {shop}. A customer's package was lost by the courier on the way to {city}. Draft a reply to that customer."),
    ("Our accountant prepared the {year} tax return. I have to sign it by Friday. List the questions I should ask her before I sign.",
     "The {year} tax return was prepared by our accountant. I have to sign it by Friday. List the questions I should ask her before I sign.",
     {"year": ["2022", "2023", "2024"]}),
    ("I bought a {product} from {shop} last week. {shop} charged my credit card twice for the order. Write a complaint email asking for a refund.",
     "I bought a {product} from {shop} last week. My credit card was charged twice by {shop} for the order. Write a complaint email asking for a refund."),
]


def _reorder(sentences, request, local=None):
    def f(r):
        filled = fill(list(sentences) + [request], local)
        ctx, req = filled[:-1], filled[-1]
        perm = list(ctx)
        while perm == ctx:
            r.shuffle(perm)
        return " ".join(ctx + [req]), " ".join(perm + [req])
    return f


POS["context_reordered"] = [
    _reorder(["I run a small bakery in {city}.",
              "Our main oven broke down last week.",
              "About 20 customer orders went out late last week."],
             "Draft an apology email to the customers whose orders were late."),
    _reorder(["I'm a {job} with six years of experience.",
              "I was laid off in March.",
              "I'm applying for a similar role at {org}."],
             "Write a cover letter that addresses the layoff briefly."),
    _reorder(["We're a five-person marketing agency.",
              "Everyone on the team works remotely.",
              "Our main tools are Slack and Google Drive."],
             "Write a one-page remote work policy for us."),
    _reorder(["I'm vegetarian.",
              "I'm training for a marathon in {city}.",
              "I have about 30 minutes to cook each evening."],
             "Give me a 7-day dinner plan with enough protein."),
    _reorder(["Our web app is built with {fw}.",
              "The checkout page takes about 6 seconds to load on mobile.",
              "Most of our users are on older Android phones."],
             "List the first things we should check to speed up the checkout page."),
    _reorder(["I'm 45 and I have {condition}.",
              "My doctor wants me to exercise more.",
              "I haven't worked out in ten years."],
             "Suggest a safe way for me to start."),
    _reorder(["I'm traveling to {city} in November.",
              "It will be my first solo trip.",
              "My budget is about $1,500 for the week, not counting flights."],
             "Plan where I should stay and what I should do."),
    _reorder(["Our Postgres `orders` table has 40 million rows.",
              "Queries that filter on `customer_id` and `created_at` are slow.",
              "We can't take any downtime during business hours."],
             "Explain how to add the right index safely."),
    _reorder(["My daughter is in 7th grade.",
              "Fractions are the hardest topic in math for my daughter.",
              "My daughter learns best from visual examples."],
             "Explain how to add fractions with different denominators in a way that works for her."),
    _reorder(["We sell refurbished laptops online.",
              "Our return window is 30 days.",
              "Customers pay return shipping unless the item is faulty.",
              "Refunds go back to the original payment method."],
             "Write a friendly FAQ answer explaining our return policy."),
]

POS["reworded_request"] = [
    ("We sell a {product} online. Most of our customers are busy parents. Write a 150-word product description for it.",
     "We sell a {product} online. Most of our customers are busy parents. I need roughly 150 words of product copy for it, pitched at them."),
    ("Translate the sentence 'Items can be returned within 30 days with a receipt.' into {lang}.",
     "Please render the sentence 'Items can be returned within 30 days with a receipt.' in {lang}."),
    ("My boss wants to know who our best customers are. Our shop database has a `{otab}` table with one row per order. Write a SQL query that returns the number of orders per customer, sorted from most to fewest.",
     "My boss wants to know who our best customers are. Our shop database has a `{otab}` table with one row per order. I need SQL that counts how many orders each customer has and lists them in descending order of that count.",
     {"otab": ["sales", "purchases", "shop_orders", "customer_orders"]}),
    ("Plan a 3-day trip to {city} for two adults on a mid-range budget.",
     "Put together a three-day itinerary in {city} for two adults with a moderate budget."),
    ("Draft an email to my team letting them know the {day} stand-up is cancelled.",
     "Write a quick note to my team saying we won't have the stand-up meeting on {day}."),
    ("Suggest three ways to make my {dish} healthier without changing the taste much.",
     "What are three changes that would make my {dish} healthier while keeping the flavor roughly the same?"),
    ("Explain the difference between a W-2 employee and a 1099 contractor in {how}.",
     "In {how}, what distinguishes a 1099 contractor from a W-2 employee?",
     {"how": ["plain English", "simple terms", "two short paragraphs"]}),
    ("I manage a team of {size} {staff}. Two of them keep arguing in meetings. Give me a step-by-step plan to resolve the conflict.",
     "I manage a team of {size} {staff}. Two of them keep arguing in meetings. Lay out, step by step, how I can resolve the conflict between them.",
     {"size": ["six", "eight", "twelve"],
      "staff": ["nurses", "developers", "sales reps", "warehouse workers"]}),
]


# ==========================================================================
# Generation
# ==========================================================================
SEEN = set()


def generate(category, templates, n):
    out = []
    order = list(templates)
    rng.shuffle(order)
    i = attempts = 0
    while len(out) < n:
        attempts += 1
        if attempts > 5000:
            raise RuntimeError("could not fill category %s" % category)
        t = order[i % len(order)]
        i += 1
        if callable(t):
            t = t(rng)
        local = t[2] if len(t) > 2 else None
        s, q = fill([t[0], t[1]], local)
        key = frozenset((s, q))
        if s == q or key in SEEN:
            continue
        SEEN.add(key)
        out.append({"category": category, "stored": s, "query": q})
    return out


DESCRIPTION = (
    "Held-out evaluation set v26 for a semantic prompt cache, written blind "
    "(without looking at any other data, tests or code of the project) and "
    "generated deterministically from hand-written templates and small word "
    "lists with random.Random(262626). Unlike short trivia questions, every "
    "prompt is a task instruction or request of the kind people send to a "
    "chat assistant at work and at home (write, draft, summarize, translate, "
    "rewrite, list, compare, explain, plan, convert, fix, review) across "
    "customer support, e-commerce, HR and hiring, finance and invoices, "
    "health, law and leases, teaching, cooking, travel, fitness, marketing "
    "and programming (Python, JavaScript, SQL, shell, regex, JSON, YAML, CSS, "
    "Docker, CI); roughly 40% of prompts carry two to four sentences of "
    "context before the request, and tidy and informal writing are mixed. "
    "text_pairs holds 192 near-miss pairs (16 categories x 12: "
    "entity_swapped, number_or_unit, code_detail, roles_or_direction, "
    "negation, opposite_word, time_or_tense, modality, output_format, "
    "output_length, audience_or_tone, language, quantity_or_scope, "
    "person_or_possession, context_changed, task_changed) whose two prompts "
    "share most words but need different answers, so a cache must not serve "
    "one for the other. positives holds 160 true paraphrase pairs (10 "
    "categories x 16: synonym_swap, request_form, question_to_imperative, "
    "word_order, politeness_and_filler, casing_punctuation_spacing, "
    "contractions_and_informal, voice_change, context_reordered, "
    "reworded_request) that keep every entity, number, code fragment, "
    "format, length, language, audience and context fact, so a cache should "
    "serve the stored answer."
)


def main():
    text_pairs = []
    for cat, temps in NEAR.items():
        text_pairs.extend(generate(cat, temps, N_NEAR))
    positives = []
    for cat, temps in POS.items():
        positives.extend(generate(cat, temps, N_POS))
    assert len(NEAR) == 16 and len(POS) == 10
    assert all(len(v) >= 5 for v in NEAR.values())
    assert all(len(v) >= 5 for v in POS.values())
    assert len(text_pairs) == 16 * N_NEAR and len(positives) == 10 * N_POS
    data = {"description": DESCRIPTION, "text_pairs": text_pairs,
            "positives": positives}
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print("wrote %s: %d text_pairs, %d positives"
          % (OUT_PATH, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
