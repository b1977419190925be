#!/usr/bin/env python3
"""Held-out evaluation set v16 for a semantic prompt cache.

A semantic prompt cache answers a new LLM chat prompt with the stored answer
of an earlier prompt when the two prompts mean the same thing.  This script
generates a held-out set to measure such a cache:

* "text_pairs": 208 NEAR-MISS pairs (13 categories x 16).  The query shares
  most of its wording with the stored prompt, but a careful human would answer
  the two differently, so serving the stored answer would be WRONG.
  Categories: person_or_perspective, modality, step_or_sequence_order,
  quantity_or_count, code_change, constraint_on_answer, comparison_direction,
  negation, entity_or_version, time_or_tense, scope_or_qualifier,
  condition_or_context, asked_attribute.
* "positives": 90 TRUE PARAPHRASE pairs (9 categories x 10) that a careful
  human would answer identically.  Categories: reworded_question,
  imperative_vs_question, polite_or_chatty_wrapper,
  context_sentence_reordered, casing_punctuation_whitespace,
  contractions_and_abbreviations, synonym_swap, typo, terse_vs_full.

Style: prompts as real users type them into a chat assistant at work and at
home (a line of context then a request, terse lowercase search-style lines,
short code snippets in backticks or fenced blocks, numbers, dates, money and
versions), 5-60 words each, on customer support, HR and payroll, devops and
cloud, data analysis, health and nutrition, parenting, travel, legal and tax
basics, home and garden, cooking, school homework and product comparisons.

The set was written blind: without reading the cache's code, its tests, its
documentation or any earlier held-out set.  It uses only the author's own
general knowledge (public facts) and Python's standard library.  It is for
measurement only; do not tune a cache against it.

Pairs are produced from templates filled from the word/entity/number lists
below, with random.Random(161616), so two runs give byte-identical output.

Run:
    python3 make_heldout_v16.py
which writes data/heldout_generated_v16.json next to this file.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import itertools
import json
import os
import re
import random

SEED = 161616
N_NEAR = 16
N_POS = 10
OUT_NAME = "heldout_generated_v16.json"


def grid(**lists):
    """All combinations of the given filler lists, as dicts."""
    keys = list(lists)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(lists[k] for k in keys))]


def order_swaps(pairs, a="a", b="b"):
    """(x, y) -> stored uses a=x, b=y; query uses a=y, b=x."""
    return [({a: x, b: y}, {a: y, b: x}) for x, y in pairs]


# ---------------------------------------------------------------------------
# NEAR-MISS templates.  Each template: "t" (format string), "swaps" (list of
# (stored_values, query_values); a plain string fills slot "v"), and "fills"
# (list of dicts for the remaining slots).
# ---------------------------------------------------------------------------

NEAR = {}

NEAR["person_or_perspective"] = [
    {
        "t": "How many weeks of paid leave does {v} get after having a baby in {c}?",
        "swaps": [("a mother", "a father"), ("the birth mother", "the non-birthing partner")],
        "fills": grid(c=["the UK", "Ireland", "France", "Italy"]),
    },
    {
        "t": "Quick tax question. In the US, do I owe tax or have to file a form when {v} ${amt} as a gift this year?",
        "swaps": [("I give my " + r, "my " + r + " gives me") for r in ["daughter", "son", "niece", "brother"]],
        "fills": grid(amt=["25,000", "40,000", "60,000"]),
    },
    {
        "t": "{ctx} How many hours of sleep does {v} need per night?",
        "swaps": [
            ("my 3-year-old", "my 15-year-old"),
            ("my 8-month-old baby", "my 6-year-old"),
            ("my 10-year-old", "my 40-year-old husband"),
            ("my 2-year-old", "my 12-year-old"),
        ],
        "fills": grid(ctx=["Trying to sort out bedtimes at home.", "Our evenings have been chaotic lately.",
                           "Everyone in our house seems tired."]),
    },
    {
        "t": "What's the usual dose of {drug} for {v}?",
        "swaps": [("a 2-year-old", "an adult"), ("a 4-year-old", "a 40-year-old")],
        "fills": grid(drug=["acetaminophen (Tylenol)", "ibuprofen (Advil)", "cetirizine (Zyrtec)",
                            "loratadine (Claritin)"]),
    },
    {
        "t": "I'm {v} making ${sal} a year in the US. How much Social Security tax comes out of that?",
        "swaps": [("a W-2 employee", "self-employed"), ("on payroll as an employee", "a freelancer")],
        "fills": grid(sal=["48,000", "65,000", "90,000", "120,000"]),
    },
]

NEAR["modality"] = [
    {
        "t": "Is it {v} to {act}?",
        "swaps": [("legal", "safe")],
        "fills": grid(act=["drive barefoot in Texas", "leave a 10-year-old home alone after school in Ohio",
                           "ride an e-scooter on the sidewalk in San Francisco",
                           "sleep in my car at a highway rest stop in Florida",
                           "drive with earbuds in both ears in California",
                           "fly a small drone over my own backyard in New York"]),
    },
    {
        "t": "{v} file a federal tax return if I only earned ${amt} last year {job}?",
        "swaps": [("Do I have to", "Am I allowed to"), ("Am I required to", "Can I still")],
        "fills": grid(amt=["6,200", "9,800", "11,000"],
                      job=["as a part-time cashier", "from a W-2 campus job", "waiting tables on weekends"]),
    },
    {
        "t": "Our small business is in {state}. {v} pay out unused vacation days when an employee quits?",
        "swaps": [("Are we legally required to", "Are we allowed to"), ("Do we have to", "Can we choose to")],
        "fills": grid(state=["Texas", "Florida", "Georgia", "Virginia", "Arizona"]),
    },
    {
        "t": "I had a ${amt} fender bender last week and it was my fault. {v}",
        "swaps": [("Will my insurance premium go up if I file a claim?",
                   "Should I file a claim or just pay out of pocket?")],
        "fills": grid(amt=["1,200", "1,500", "3,000", "6,000"]),
    },
    {
        "t": "{v} use my HSA money to pay for {item}?",
        "swaps": [("Can I", "Should I"), ("Am I allowed to", "Is it smart to")],
        "fills": grid(item=["prescription glasses", "a chiropractor visit", "my kid's braces",
                            "over-the-counter allergy pills"]),
    },
    {
        "t": "{ctx} My employer offers a 401(k) with a 4% match. {v} enroll in it?",
        "swaps": [("Do I have to", "Am I allowed to"), ("Do I have to", "Should I")],
        "fills": grid(ctx=["Just started a new job.", "Started at a hospital last month.", "New hire here."]),
    },
]

NEAR["step_or_sequence_order"] = [
    {
        "t": "{ctx} I {a} and then {b}. Was that the right order?",
        "swaps": order_swaps([
            ("washed my hair with shampoo", "used conditioner"),
            ("put on moisturizer", "applied sunscreen"),
            ("primed the new drywall", "painted the drywall"),
            ("sanded the deck", "stained the deck"),
            ("mixed the wet ingredients together", "folded in the dry ingredients"),
            ("applied a base coat", "painted on the nail color"),
        ]),
        "fills": grid(ctx=["Quick sanity check.", "First time doing this.", "Not sure I did this right."]),
    },
    {
        "t": "{ctx} What does `df.{a}.{b}` return?",
        "swaps": order_swaps([
            ("fillna(0)", "dropna()"),
            ("head(10)", "sort_values('price')"),
            ("sort_values('date')", "reset_index(drop=True)"),
            ("drop_duplicates()", "head(5)"),
            ("tail(3)", "sort_values('score')"),
        ]),
        "fills": grid(ctx=["My pandas df has 1,000 rows of sales data with some NaNs.",
                           "Working with a CSV of orders in pandas, a few cells are empty."]),
    },
    {
        "t": "Homework check: start with {n}, {a}, then {b}. What number do I end up with?",
        "swaps": order_swaps([
            ("multiply by 3", "add 4"),
            ("square it", "subtract 2"),
            ("divide by 2", "add 10"),
            ("double it", "subtract 6"),
            ("subtract 5", "multiply by 4"),
        ]),
        "fills": grid(n=["6", "7", "12", "20"]),
    },
    {
        "t": "I took my {drug} {v} breakfast this morning. Is that the right way to take it?",
        "swaps": [("30 minutes before", "right after"), ("an hour before", "together with")],
        "fills": grid(drug=["levothyroxine", "alendronate (Fosamax)", "omeprazole", "ibuprofen"]),
    },
    {
        "t": "For my history class: did {a} happen before {b}?",
        "swaps": order_swaps([
            ("the fall of the Berlin Wall", "the collapse of the Soviet Union"),
            ("the signing of the Magna Carta", "the Norman conquest of England"),
            ("the French Revolution", "the American Revolution"),
            ("the invention of the telephone", "the end of the US Civil War"),
            ("the first Moon landing", "the fall of Saigon"),
            ("the Battle of Hastings", "the First Crusade"),
        ]),
    },
]

NEAR["quantity_or_count"] = [
    {
        "t": "{ctx} My recipe calls for {v}. How many grams is that?",
        "swaps": [
            ("1 cup of flour", "1 tablespoon of flour"),
            ("2 cups of sugar", "2 teaspoons of sugar"),
            ("half a cup of butter", "half a tablespoon of butter"),
            ("3 cups of rice", "3 tablespoons of rice"),
            ("a cup of honey", "a teaspoon of honey"),
        ],
        "fills": grid(ctx=["Baking tonight and I only have a kitchen scale.", "My scale only shows grams."]),
    },
    {
        "t": "{ctx} My doctor prescribed {dose} once {v}. Is that a normal dose for an adult?",
        "swaps": [("a week", "a day")],
        "fills": grid(ctx=["Pharmacy label confusion.", "Just picked up a new prescription."],
                      dose=["50,000 IU of vitamin D", "15 mg of methotrexate", "70 mg of alendronate",
                            "1 mg of semaglutide (Ozempic)"]),
    },
    {
        "t": "Buying {v} concert tickets at ${p} each, plus a ${fee} service fee per ticket. What's my total?",
        "swaps": [("two", "three"), ("four", "six"), ("three", "five")],
        "fills": grid(p=["45", "79.50", "120"], fee=["6.50", "12"]),
    },
    {
        "t": "Logging my food today. How many calories are in {v}?",
        "swaps": [
            ("one large egg", "three large eggs"),
            ("one medium banana", "two medium bananas"),
            ("a slice of whole wheat bread", "four slices of whole wheat bread"),
            ("one tablespoon of peanut butter", "two tablespoons of peanut butter"),
            ("a cup of cooked white rice", "half a cup of cooked white rice"),
        ],
    },
    {
        "t": "How do I scale my `{dep}` deployment to {v} replicas with kubectl?",
        "swaps": [("3", "5"), ("2", "10"), ("6", "4")],
        "fills": grid(dep=["web-api", "checkout", "worker"]),
    },
]

NEAR["code_change"] = [
    {
        "t": "What does `print({v})` output in Python 3?",
        "swaps": [("7 / 2", "7 // 2"), ("2 ** 3", "2 * 3"), ("'abc'[1]", "'abc'[-1]"),
                  ("[1, 2, 3][1:]", "[1, 2, 3][:1]"), ("round(2.5)", "round(3.5)"),
                  ("10 % 3", "10 % 4"), ("-7 // 2", "-7 / 2")],
    },
    {
        "t": "What exactly does `git {v}` do? I don't want to lose work.",
        "swaps": [("reset --soft HEAD~1", "reset --hard HEAD~1"), ("clean -n", "clean -f"),
                  ("stash", "stash drop"), ("push --force-with-lease", "push --force"),
                  ("branch -d old-feature", "branch -D old-feature")],
    },
    {
        "t": "{ctx} What does `docker run {v} nginx` do?",
        "swaps": [("-d", "-it"), ("-p 8080:80", "-p 80:8080"), ("--rm", "--restart always"),
                  ("-v /srv/site:/usr/share/nginx/html", "-v /srv/site:/usr/share/nginx/html:ro"),
                  ("--network host", "--network none")],
        "fills": grid(ctx=["New to containers.", "Reading someone else's deploy script."]),
    },
    {
        "t": "What does this return? `SELECT customer_id, COUNT(*) FROM orders GROUP BY customer_id HAVING COUNT(*) {v} 5`",
        "swaps": [(">", "<"), (">=", "="), ("<=", ">")],
    },
    {
        "t": "Which rows does `SELECT * FROM users u {v} orders o ON u.id = o.user_id` return?",
        "swaps": [("LEFT JOIN", "INNER JOIN"), ("RIGHT JOIN", "LEFT JOIN"), ("FULL OUTER JOIN", "INNER JOIN")],
    },
    {
        "t": "What does `chmod {v} {f}` do on Linux?",
        "swaps": [("755", "644"), ("700", "777"), ("+x", "-x"), ("u+w", "o+w")],
        "fills": grid(f=["deploy.sh", "backup.sh"]),
    },
    {
        "t": "In pandas, what does `df.groupby('{col}')['{val}'].{v}()` give me?",
        "swaps": [("sum", "mean"), ("count", "nunique"), ("max", "idxmax"), ("first", "last")],
        "fills": grid(col=["region", "store_id"], val=["sales", "revenue"]),
    },
    {
        "t": "What does this print?\n```python\nnums = [4, 8, 15, 16]\nprint(nums[{v}])\n```",
        "swaps": [("1", "-1"), ("0", "2"), ("1:3", "-2:")],
    },
    {
        "t": "What does this nginx directive do?\n```nginx\nreturn {v} https://$host$request_uri;\n```",
        "swaps": [("301", "302"), ("301", "307")],
    },
]

NEAR["constraint_on_answer"] = [
    {
        "t": "Can you explain {topic} {v}?",
        "swaps": [("in one sentence", "in about 500 words"), ("to a 7-year-old", "to a graduate student"),
                  ("in Spanish", "in German"), ("using only bullet points", "as a short story")],
        "fills": grid(topic=["photosynthesis", "how vaccines train the immune system", "inflation",
                             "the TCP three-way handshake", "compound interest"]),
    },
    {
        "t": "I need to tell my {rec} that {msg}. Write the email {v}.",
        "swaps": [("in a formal tone", "in a casual, friendly tone"), ("in under 50 words", "in about 250 words"),
                  ("as three short bullet points", "as one flowing paragraph")],
        "fills": [
            {"rec": "manager", "msg": "I'll be out sick tomorrow"},
            {"rec": "landlord", "msg": "the kitchen sink has been leaking for a week"},
            {"rec": "team", "msg": "the release is delayed to Friday"},
            {"rec": "kid's teacher", "msg": "we'll be traveling the week of March 10"},
        ],
    },
    {
        "t": "Give me {v} ideas for {thing}.",
        "swaps": [("3", "10"), ("two quick", "a dozen"), ("5", "20")],
        "fills": grid(thing=["healthy lunches for a picky 6-year-old", "team-building activities for a remote team",
                             "weekend trips from Chicago", "a gift for a retiring coworker under $50"]),
    },
    {
        "t": "{ctx} Summarize {book} {v}.",
        "swaps": [("in one paragraph", "chapter by chapter"), ("without spoilers", "including how it ends"),
                  ("as a haiku", "in five bullet points"), ("for a 5th grader", "for a college literature seminar")],
        "fills": grid(ctx=["For English class.", "Book club is tonight."],
                      book=["To Kill a Mockingbird", "1984 by George Orwell", "The Great Gatsby",
                            "Of Mice and Men", "Pride and Prejudice"]),
    },
    {
        "t": "List {data} {v}.",
        "swaps": [("as a JSON array", "as a markdown table"), ("as CSV", "as a bulleted list"),
                  ("as a Python dict", "as a YAML list")],
        "fills": grid(data=["the G7 countries and their capitals",
                            "the first 10 elements of the periodic table with their atomic masses",
                            "the US time zones with their UTC offsets",
                            "the seven continents and their largest countries"]),
    },
]

NEAR["comparison_direction"] = [
    {
        "t": "Which is {v} in protein per 100 grams, {a} or {b}?",
        "swaps": [("higher", "lower")],
        "fills": [{"a": a, "b": b} for a, b in [("chicken breast", "tofu"), ("lentils", "quinoa"),
                                                ("Greek yogurt", "regular yogurt"), ("peanuts", "almonds"),
                                                ("canned tuna", "chickpeas"), ("cottage cheese", "whole milk")]],
    },
    {
        "t": "Is {a} faster than {b} for {task}?",
        "swaps": [({"a": a, "b": b, "task": t}, {"a": b, "b": a, "task": t}) for a, b, t in [
            ("a Python set", "a Python list", "checking whether an item is in the collection"),
            ("an NVMe SSD", "a spinning hard drive", "random reads"),
            ("Redis", "PostgreSQL", "simple key lookups"),
            ("a B-tree index lookup", "a full table scan", "finding a single row by id"),
            ("`str.join`", "repeated `+=`", "building a long string in Python"),
        ]],
    },
    {
        "t": "Which city is {v} in {month}, {a} or {b}?",
        "swaps": [("warmer", "colder")],
        "fills": [{"a": a, "b": b, "month": m} for a, b, m in [
            ("Seattle", "Phoenix", "January"), ("Rome", "Oslo", "March"), ("Sydney", "London", "July"),
            ("Bangkok", "Tokyo", "January"), ("Miami", "Chicago", "February"), ("Reykjavik", "Lisbon", "December")]],
    },
    {
        "t": "{ctx} Is it cheaper to {a} than to {b}?",
        "swaps": order_swaps([
            ("lease a $35,000 car for 3 years", "finance a $35,000 car over 5 years"),
            ("take the train from New York to Boston", "fly from New York to Boston"),
            ("cook dinner at home", "order delivery every night"),
            ("heat my house with a heat pump", "heat my house with a gas furnace"),
        ]),
        "fills": grid(ctx=["Trying to cut costs this year.", "Budget question."]),
    },
    {
        "t": "Does {a} have more {n} than {b}?",
        "swaps": [({"a": a, "b": b, "n": n}, {"a": b, "b": a, "n": n}) for a, b, n in [
            ("a banana", "an avocado", "potassium"), ("an orange", "a red bell pepper", "vitamin C"),
            ("a cup of black coffee", "a cup of black tea", "caffeine"), ("salmon", "tilapia", "omega-3 fat"),
            ("white rice", "brown rice", "fiber")]],
    },
]

NEAR["negation"] = [
    {
        "t": "I was just diagnosed with {cond}. Which foods should I {v}?",
        "swaps": [("eat more of", "avoid"), ("focus on", "stay away from")],
        "fills": grid(cond=["gout", "acid reflux", "type 2 diabetes", "high blood pressure", "IBS"]),
    },
    {
        "t": "Why does my {thing} {v} after a server reboot?",
        "swaps": [("start automatically", "not start automatically"), ("come back up", "stay down")],
        "fills": grid(thing=["Docker container", "nginx service", "PostgreSQL service", "systemd timer"]),
    },
    {
        "t": "Is it OK to take {drug} {v} food?",
        "swaps": [("with", "without"), ("together with", "without any")],
        "fills": grid(drug=["ibuprofen", "naproxen", "metformin", "prednisone", "aspirin", "levothyroxine"]),
    },
    {
        "t": "In {db}, how do I select all rows from `{tbl}` where `{col}` {v}?",
        "swaps": [("is NULL", "is NOT NULL"), ("has a value", "has no value")],
        "fills": [dict(db=d, tbl=t, col=c) for d in ["PostgreSQL", "MySQL"]
                  for t, c in [("customers", "email"), ("employees", "manager_id"), ("orders", "shipped_at"),
                               ("users", "deleted_at")]],
    },
    {
        "t": "My {age} {v} naps during the day. Is that normal?",
        "swaps": [("still", "no longer"), ("still", "never")],
        "fills": grid(age=["18-month-old", "2-year-old", "7-year-old", "8-year-old"]),
    },
    {
        "t": "I work from home as a {job}. Which expenses {v} tax-deductible?",
        "swaps": [("are", "are not")],
        "fills": grid(job=["freelance graphic designer", "self-employed consultant", "W-2 software engineer",
                           "self-employed bookkeeper"]),
    },
    {
        "t": "{ctx} How do I list the files that {v} tracked by git in this repo?",
        "swaps": [("are", "are not"), ("are", "aren't")],
        "fills": grid(ctx=["Cleaning up my project.", "Preparing a release."]),
    },
]

NEAR["entity_or_version"] = [
    {
        "t": "{ctx} What's the top capital gains tax rate in {v}?",
        "swaps": [("Germany", "France"), ("Canada", "Australia"), ("the UK", "Ireland"), ("Japan", "South Korea")],
        "fills": grid(ctx=["Thinking of selling some shares.", "Comparing tax rules before a move."]),
    },
    {
        "t": "How do I {task} in {v}?",
        "swaps": [("Python", "JavaScript"), ("Java", "Go"), ("Ruby", "Rust"), ("C#", "Kotlin")],
        "fills": grid(task=["reverse a string", "read a file line by line", "parse a JSON string",
                            "sort a list of objects by a field"]),
    },
    {
        "t": "{ctx} What are the main new features in {v}?",
        "swaps": [("Python 3.11", "Python 3.12"), ("Kubernetes 1.28", "Kubernetes 1.29"), ("React 17", "React 18"),
                  ("Node.js 18", "Node.js 20"), ("PostgreSQL 15", "PostgreSQL 16"), ("Java 17", "Java 21")],
        "fills": grid(ctx=["Planning an upgrade at work.", "Writing a short tech talk."]),
    },
    {
        "t": "{ctx} What's the maximum daily dose of {v} for a healthy adult?",
        "swaps": [("acetaminophen", "ibuprofen"), ("naproxen", "aspirin"), ("Tylenol", "Advil"),
                  ("cetirizine", "diphenhydramine")],
        "fills": grid(ctx=["Bad back this week.", "Stocking the medicine cabinet."]),
    },
    {
        "t": "As a US citizen, do I need a visa to visit {v} for two weeks?",
        "swaps": [("India", "Mexico"), ("Vietnam", "Thailand"), ("Russia", "Georgia"), ("Kenya", "Morocco"),
                  ("China", "Japan")],
    },
    {
        "t": "{ctx} What's the default port for {v}?",
        "swaps": [("PostgreSQL", "MySQL"), ("Redis", "MongoDB"), ("Elasticsearch", "Kibana"), ("RabbitMQ", "Kafka")],
        "fills": grid(ctx=["Setting up a firewall rule.", "Writing a docker-compose file."]),
    },
]

_limits = []
for _acct in ["401(k)", "IRA", "HSA self-only"]:
    _limits.append(({"acct": _acct, "v": "2022"}, {"acct": _acct, "v": "2023"}))
    _limits.append(({"acct": _acct, "v": "2023"}, {"acct": _acct, "v": "2024"}))
for _acct in ["401(k)", "HSA self-only"]:  # the IRA limit did not change from 2024 to 2025
    _limits.append(({"acct": _acct, "v": "2024"}, {"acct": _acct, "v": "2025"}))

NEAR["time_or_tense"] = [
    {
        "t": "Payroll is updating deductions. What's the {acct} contribution limit for {v}?",
        "swaps": _limits,
    },
    {
        "t": "{ctx} {v}",
        "swaps": [
            ("Where were the Summer Olympics held in 2016?", "Where will the Summer Olympics be held in 2028?"),
            ("Which city hosted the Summer Olympics in 2012?", "Which city will host the Summer Olympics in 2032?"),
            ("Where was the FIFA World Cup played in 2018?", "Where will the FIFA World Cup be played in 2030?"),
            ("Who won the FIFA World Cup in 2018?", "Who won the FIFA World Cup in 2022?"),
        ],
        "fills": grid(ctx=["Trivia night prep.", "Settling a bet with my brother."]),
    },
    {
        "t": "I {v}. When do I have to take my first required minimum distribution from my {acct}?",
        "swaps": [("turned 73 in 2024", "will turn 73 in 2027"), ("turned 72 in 2022", "will turn 72 in 2026")],
        "fills": grid(acct=["traditional IRA", "old 401(k)", "403(b)"]),
    },
    {
        "t": "What was the population of {city} in {v}?",
        "swaps": [("1950", "2020"), ("1900", "2000")],
        "fills": grid(city=["Tokyo", "Shanghai", "New York City", "Lagos", "Mumbai"]),
    },
    {
        "t": "My {air} flight {v}. What am I entitled to?",
        "swaps": [("was cancelled yesterday", "might be cancelled tomorrow because of a storm"),
                  ("was delayed 5 hours last night", "is expected to be delayed tomorrow morning")],
        "fills": grid(air=["United", "Delta", "Lufthansa", "Ryanair", "Air Canada"]),
    },
    {
        "t": "What time is sunset in {city} on {v}?",
        "swaps": [("June 21", "December 21"), ("March 1", "September 1")],
        "fills": grid(city=["Seattle", "Chicago", "Madrid", "Sydney"]),
    },
]

NEAR["scope_or_qualifier"] = [
    {
        "t": "My {v} salary is ${x} and I live in {state}. How much is that per biweekly paycheck?",
        "swaps": [("gross", "net"), ("annual", "monthly")],
        "fills": grid(x=["65,000", "85,000", "110,000"], state=["Texas", "New York", "California"]),
    },
    {
        "t": "Unit price is ${p}, I need {n} units, and sales tax is 8.25%. What's the {v}?",
        "swaps": [("total including tax", "total before tax"), ("tax amount alone", "total with tax"),
                  ("cost per unit including tax", "total including tax")],
        "fills": grid(p=["12.40", "39.99", "7.25"], n=["15", "40"]),
    },
    {
        "t": "In {db}, how do I count {v} in my `orders` table?",
        "swaps": [("all rows", "only the distinct customer_id values"), ("every order", "only orders from 2024"),
                  ("all customers", "only customers with more than one order")],
        "fills": grid(db=["PostgreSQL", "MySQL", "SQLite"]),
    },
    {
        "t": "{ctx} How many {v}?",
        "swaps": [("countries are in the European Union", "countries are in Europe"),
                  ("time zones does the contiguous US have", "time zones does the US have including its territories"),
                  ("countries use the euro", "EU countries use the euro"),
                  ("bones are in the adult human body", "bones are in the adult human hand"),
                  ("senators are in the US Congress", "members are in the US Congress in total")],
        "fills": grid(ctx=["Quiz tomorrow.", "Helping my kid with homework."]),
    },
    {
        "t": "In pandas, how do I drop rows from `{df}` where {v} of the values are missing?",
        "swaps": [("any", "all")],
        "fills": grid(df=["sales_df", "orders", "survey", "df"]),
    },
    {
        "t": "I weigh {w} and lift weights {d} days a week. How much protein should I eat {v}?",
        "swaps": [("per day", "per meal"), ("per day", "per week")],
        "fills": grid(w=["70 kg", "180 lbs", "60 kg"], d=["3", "4"]),
    },
]

NEAR["condition_or_context"] = [
    {
        "t": "{v} Can you suggest a quick breakfast I can make in 10 minutes?",
        "swaps": [("I'm type 1 diabetic.", "I'm vegan."), ("I have celiac disease.", "I'm trying to bulk up and gain weight."),
                  ("I'm allergic to eggs.", "I'm on a low-sodium diet."), ("I'm on keto.", "I'm training for a marathon.")],
    },
    {
        "t": "How do I install {tool} {v}?",
        "swaps": [("on Windows 11", "on Ubuntu 22.04"), ("on macOS", "on Windows 11"), ("on an M1 Mac", "on Debian 12")],
        "fills": grid(tool=["Docker", "Python 3.12", "kubectl", "PostgreSQL", "Node.js 20"]),
    },
    {
        "t": "We're {v}. Which {thing} would you recommend?",
        "swaps": [("a 5-person startup", "a 5,000-employee enterprise"),
                  ("a two-founder startup with no revenue", "a bank with strict compliance requirements")],
        "fills": grid(thing=["CI/CD platform", "HR and payroll software", "password manager", "cloud provider",
                             "ticketing system for customer support"]),
    },
    {
        "t": "Planning {n} days in {city} {v}. Where should I stay?",
        "swaps": [("on a tight budget", "with money no object"), ("as a solo backpacker", "with two toddlers")],
        "fills": grid(n=["3", "5"], city=["Paris", "Tokyo", "New York", "Barcelona", "Lisbon"]),
    },
    {
        "t": "{v} Is it OK for me to take {drug} for a headache?",
        "swaps": [("I'm 28 weeks pregnant.", "I'm 30 and healthy."), ("I have a stomach ulcer.", "I have no health problems."),
                  ("I take warfarin daily.", "I don't take any other meds."),
                  ("I have stage 3 kidney disease.", "I'm a healthy 25-year-old.")],
        "fills": grid(drug=["ibuprofen", "naproxen (Aleve)"]),
    },
    {
        "t": "I'm on {v}. How do I permanently set the `{var}` environment variable?",
        "swaps": [("Windows with PowerShell", "Ubuntu with bash"), ("macOS with zsh", "Windows with cmd")],
        "fills": grid(var=["JAVA_HOME", "PATH", "AWS_PROFILE"]),
    },
]

_books = ["One Hundred Years of Solitude", "Frankenstein", "Things Fall Apart", "The Catcher in the Rye",
          "Beloved", "Brave New World"]

NEAR["asked_attribute"] = [
    {
        "t": "What is the {v} of {country}?",
        "swaps": [("capital", "population"), ("currency", "official language"), ("capital", "currency")],
        "fills": grid(country=["Australia", "Canada", "Brazil", "Kenya", "Vietnam", "Switzerland"]),
    },
    {
        "t": "{ctx} {v}",
        "swaps": [("who wrote " + b + "?", "what year was " + b + " first published?") for b in _books],
        "fills": grid(ctx=["For my lit class:", "Quick one:"]),
    },
    {
        "t": "What are the {v} of {drug}?",
        "swaps": [("common side effects", "typical adult doses"), ("main drug interactions", "common side effects")],
        "fills": grid(drug=["sertraline", "metformin", "lisinopril", "atorvastatin", "amoxicillin"]),
    },
    {
        "t": "How {v} to {task}?",
        "swaps": [("much does it cost", "long does it take")],
        "fills": grid(task=["renew a US passport by mail", "get a REAL ID in California",
                            "replace an asphalt shingle roof on a 2,000 sq ft house",
                            "repaint a two-bedroom apartment", "get an uncontested divorce in Texas"]),
    },
    {
        "t": "Chemistry homework: what's the {v} of {c}?",
        "swaps": [("molar mass", "boiling point"), ("chemical formula", "molar mass"),
                  ("boiling point", "melting point")],
        "fills": grid(c=["ethanol", "acetone", "sodium chloride", "acetic acid", "benzene"]),
    },
    {
        "t": "Where is the {v} for {svc} on Ubuntu?",
        "swaps": [({"v": "default config file", "svc": x}, {"v": "default log file", "svc": x})
                  for x in ["nginx", "PostgreSQL 16", "Redis", "MySQL 8"]]
                 + [({"v": "default config file", "svc": x}, {"v": "default data directory", "svc": x})
                    for x in ["PostgreSQL 16", "Redis", "MySQL 8"]]
                 + [({"v": "default config file", "svc": "nginx"}, {"v": "default web root", "svc": "nginx"})],
    },
]


# ---------------------------------------------------------------------------
# POSITIVE templates.  Either {"s", "q", "fills"} format pairs, or
# {"fn", "bases"} where query = fn(base).
# ---------------------------------------------------------------------------

QWERTY_NEIGHBORS = {
    "a": "qs", "b": "vn", "c": "xv", "d": "sf", "e": "wr", "f": "dg", "g": "fh", "h": "gj", "i": "uo",
    "j": "hk", "k": "jl", "l": "k", "m": "n", "n": "bm", "o": "ip", "p": "o", "q": "w", "r": "et",
    "s": "ad", "t": "ry", "u": "yi", "v": "cb", "w": "qe", "x": "zc", "y": "tu", "z": "x",
}


def _typo_word(core, kind, rng):
    """Return core with one typo of the given kind, or None if this word does not suit it."""
    n = len(core)
    if kind == "swap":
        j = rng.randrange(1, n - 2)
        if core[j] == core[j + 1]:
            return None
        new = core[:j] + core[j + 1] + core[j] + core[j + 2:]
    elif kind == "drop":
        j = rng.randrange(1, n - 1)
        new = core[:j] + core[j + 1:]
    elif kind == "double":
        j = rng.randrange(1, n - 1)
        if core[j] == core[j - 1] or core[j] == core[j + 1]:
            return None
        new = core[:j] + core[j] + core[j:]
    elif kind == "adjacent":
        j = rng.randrange(1, n - 1)
        c = core[j].lower()
        if c not in QWERTY_NEIGHBORS:
            return None
        new = core[:j] + rng.choice(QWERTY_NEIGHBORS[c]) + core[j + 1:]
    else:
        raise ValueError(kind)
    if new.lower() == core.lower():
        return None
    return new


def make_typos(sentence, kinds, rng):
    """Apply one realistic typo per kind, each to a different long word of the sentence."""
    words = sentence.split(" ")
    idxs = [i for i, w in enumerate(words) if len(w.strip(".,?!:;")) >= 6 and w.strip(".,?!:;").isalpha()]
    rng.shuffle(idxs)
    out = list(words)
    for kind in kinds:
        while True:
            if not idxs:
                raise ValueError("no typo position in: " + sentence)
            i = idxs.pop()
            raw = words[i]
            core = raw.strip(".,?!:;")
            start = raw.index(core)
            new = None
            for _ in range(5):
                new = _typo_word(core, kind, rng)
                if new is not None:
                    break
            if new is not None:
                out[i] = raw[:start] + new + raw[start + len(core):]
                break
    return " ".join(out)


CONTRACTIONS = [("do not", "don't"), ("does not", "doesn't"), ("I am", "I'm"), ("it is", "it's"),
                ("cannot", "can't"), ("What is", "What's"), ("should not", "shouldn't"),
                ("we are", "we're"), ("is not", "isn't"), ("I would", "I'd"), ("will not", "won't")]
ABBREVIATIONS = [("approximately", "approx."), ("information", "info"), ("minutes", "mins"),
                 ("for example", "e.g."), ("versus", "vs."), ("temperature", "temp"), ("application", "app"),
                 ("appointment", "appt"), ("as soon as possible", "ASAP"), ("department", "dept."),
                 ("without", "w/o"), ("with", "w/"), ("and", "&")]
UNIT_ABBREVIATIONS = [("pounds", "lbs"), ("ounces", "oz"), ("tablespoons", "tbsp"), ("teaspoon", "tsp"),
                      ("hours", "hrs"), ("kilometers", "km"), (" degrees Fahrenheit", "F"), ("minutes", "min"),
                      ("grams", "g"), ("milliliters", "ml")]
CHAT_ABBREVIATIONS = [("please", "pls"), ("thanks", "thx"), ("because", "bc"), ("by the way", "btw"),
                      ("as far as I know", "afaik"), ("to be honest", "tbh"), ("you", "u")]


def abbreviate(table):
    def fn(text):
        out = text
        for full, short in table:
            out = re.sub(r"\b" + re.escape(full) + r"\b", short, out)
        return out
    return fn


def lower_no_punct(text):
    return text.lower().rstrip("?.!").rstrip()


def extra_spaces(text):
    out = text.replace(" ", "  ", 2)
    if out.endswith("?"):
        out = out[:-1] + " ?"
    return "  " + out + " "


def all_caps(text):
    return text.upper()


def sloppy_punct(text):
    out = text.replace(",", "").replace("'", "")
    out = out[0].lower() + out[1:]
    if out.endswith("?"):
        out = out + "??"
    return out


def strip_caps_keep_q(text):
    return text.lower()


POS = {}

POS["reworded_question"] = [
    {
        "s": "Which {x} is the largest?", "q": "What's the biggest {x}?",
        "fills": grid(x=["planet in our solar system", "ocean on Earth", "organ in the human body",
                         "country in Africa", "moon of Saturn"]),
    },
    {
        "s": "How long should I boil {f}?", "q": "How many minutes does {f} need in boiling water?",
        "fills": grid(f=["dried spaghetti", "corn on the cob", "fresh broccoli", "fresh asparagus"]),
    },
    {
        "s": "How do I check which version of {t} is installed?", "q": "What command shows the installed {t} version?",
        "fills": grid(t=["Docker", "kubectl", "Python", "Node.js", "nginx", "git"]),
    },
    {
        "s": "{a}", "q": "{b}",
        "fills": [{"a": a, "b": b} for a, b in [
            ("What year did the Titanic sink?", "In which year did the Titanic go down?"),
            ("When did World War I begin? Just the year please.", "Which year did the First World War start?"),
            ("What year did the Berlin Wall come down?", "In what year did the Berlin Wall fall?"),
            ("Who was the first woman to win a Nobel Prize?", "Which woman won a Nobel Prize first, before any other woman?"),
        ]],
    },
    {
        "s": "How many {u1} are in a {u2}?", "q": "A {u2} is equal to how many {u1}?",
        "fills": [{"u1": a, "u2": b} for a, b in [("ounces", "pound"), ("teaspoons", "tablespoon"), ("feet", "mile"),
                                                  ("milliliters", "US cup"), ("grams", "kilogram")]],
    },
    {
        "s": "Can I {x}?", "q": "Is it possible to {x}?",
        "fills": grid(x=["freeze cooked rice and reheat it later", "reuse frying oil a second time",
                         "undo a git commit that I already pushed", "rename a column in a pandas DataFrame in place"]),
    },
]

POS["imperative_vs_question"] = [
    {
        "s": "Can you explain how {x} works?", "q": "Explain how {x} works.",
        "fills": grid(x=["a fixed-rate mortgage", "DNS resolution", "a Roth IRA", "Kubernetes service discovery",
                         "the electoral college"]),
    },
    {
        "s": "How do I {t}?", "q": "Show me how to {t}.",
        "fills": grid(t=["remove all stopped Docker containers", "undo my last git commit but keep the changes",
                         "freeze the top row in Excel", "add a column to a pandas DataFrame based on another column"]),
    },
    {
        "s": "What is {a} in {b}?", "q": "Convert {a} to {b}.",
        "fills": [{"a": a, "b": b} for a, b in [("72 degrees Fahrenheit", "Celsius"), ("5 miles", "kilometers"), ("250 grams", "ounces"),
                                                ("3 US cups", "milliliters")]],
    },
    {
        "s": "Could you write a {lang} function that {d}?", "q": "Write a {lang} function that {d}.",
        "fills": grid(lang=["Python", "JavaScript"],
                      d=["checks if a string is a palindrome", "returns the n-th Fibonacci number",
                         "removes duplicates from a list while keeping the order"]),
    },
    {
        "s": "What's the difference between {a} and {b}?", "q": "Tell me the difference between {a} and {b}.",
        "fills": [{"a": a, "b": b} for a, b in [("a W-2 form", "a 1099 form"), ("baking soda", "baking powder"),
                                                ("`git merge`", "`git rebase`"), ("an HMO", "a PPO"),
                                                ("a virus", "a bacterium")]],
    },
]

_chat_questions = [
    "How do I reset my password if I no longer have access to my email?",
    "What's the difference between a W-2 and a 1099?",
    "How long should I rest a roast chicken before carving it?",
    "How do I see the logs of a crashed Kubernetes pod?",
    "Can I carry a power bank in my checked luggage?",
    "How do I remove duplicate rows in Excel?",
    "What's a good bedtime for a 4-year-old?",
    "How often should I water tomato plants in hot weather?",
    "How do I find the slope of a line through two points?",
    "What's the balanced equation for burning methane?",
    "How many vacation days do I accrue per month if I get 15 days a year?",
    "Is my employer allowed to change my pay date without notice in Texas?",
]

POS["polite_or_chatty_wrapper"] = [
    {"s": "{x}", "q": "Hi! Hope you're doing well. {x}", "fills": grid(x=_chat_questions)},
    {"s": "{x}", "q": "{x} Thanks so much in advance!", "fills": grid(x=_chat_questions)},
    {"s": "{x}", "q": "Quick question. {x}", "fills": grid(x=_chat_questions)},
    {"s": "{x}", "q": "Hey there, sorry to bother you. {x} Appreciate it!", "fills": grid(x=_chat_questions)},
    {"s": "Hello! {x}", "q": "{x} Thank you!", "fills": grid(x=_chat_questions)},
]

POS["context_sentence_reordered"] = [
    {
        "s": "{c} {r}", "q": "{r} {c}",
        "fills": [{"c": c, "r": r} for c, r in [
            ("I'm on a Mac with an M2 chip.", "How do I install Docker Desktop?"),
            ("We're flying Delta from Atlanta to Rome in June.", "How many bags can we check for free?"),
            ("I have a 4x8 raised bed that gets full sun.", "Which vegetables should I plant this spring?"),
            ("My pandas DataFrame has a `date` column stored as strings.", "How do I convert that column to datetime?"),
            ("I live in Oregon and rent a one-bedroom apartment.", "Can my landlord raise the rent mid-lease?"),
        ]],
    },
    {
        "s": "{a} {b} {r}", "q": "{b} {a} {r}",
        "fills": [{"a": a, "b": b, "r": r} for a, b, r in [
            ("I'm 34.", "I work as an independent contractor in Ohio.", "Can I open a solo 401(k)?"),
            ("The recipe serves 4.", "I'm cooking for 10 people.", "How much dry pasta should I make?"),
            ("My nginx container listens on port 8080.", "The host runs Ubuntu 22.04.",
             "How do I put HTTPS in front of it with Let's Encrypt?"),
            ("My son is in 7th grade.", "Fractions are his weak spot.", "What are some fun ways to practice at home?"),
        ]],
    },
    {
        "s": "Context: {c} Question: {r}", "q": "Question: {r} Context: {c}",
        "fills": [{"c": c, "r": r} for c, r in [
            ("I was hired on a salary of $58,000 and started on July 1.", "What will my gross pay be for July?"),
            ("my Excel sheet has names in column A and emails in column B.", "How do I find emails that appear twice?"),
            ("our team uses GitHub Actions and deploys to AWS ECS.", "How should we store database passwords?"),
        ]],
    },
    {
        "s": "{r} {k}", "q": "{k} {r}",
        "fills": [{"r": r, "k": k} for r, k in [
            ("Explain what a 401(k) employer match is.", "Keep it under 100 words."),
            ("Write a reply to a customer asking for a refund on a late order.", "Use a warm, apologetic tone."),
            ("Give me a 3-day packing list for Chicago in November.", "Format it as a checklist."),
            ("Summarize the causes of World War I.", "Make it suitable for a 9th grader."),
        ]],
    },
]

_plain_questions = [
    "How do I get red wine out of a white carpet?",
    "What is the best way to store fresh basil?",
    "How much should a 6-month-old baby sleep during the day?",
    "Can I deduct student loan interest if I file jointly?",
    "Which is better for a small kitchen, a gas or induction cooktop?",
    "How do I ask my manager for a raise after one year?",
    "What is the boiling point of water in Denver, Colorado?",
    "How many hours should I fast before a cholesterol test?",
    "What documents do I need to renew my passport?",
    "Why are the leaves on my tomato plants turning yellow?",
    "How do I calculate the area of a trapezoid?",
    "What causes the seasons on Earth?",
]

POS["casing_punctuation_whitespace"] = [
    {"fn": lower_no_punct, "bases": _plain_questions},
    {"fn": extra_spaces, "bases": _plain_questions},
    {"fn": all_caps, "bases": _plain_questions},
    {"fn": sloppy_punct, "bases": _plain_questions},
    {"fn": strip_caps_keep_q, "bases": _plain_questions},
]

POS["contractions_and_abbreviations"] = [
    {"fn": abbreviate(CONTRACTIONS), "bases": [
        "I do not see my overtime hours on this paycheck. What is the next step?",
        "My son cannot fall asleep before 11 pm. What should I try?",
        "I am self-employed. Do I need to pay quarterly estimated taxes?",
        "The dishwasher does not drain all the way. What is usually the cause?",
        "I have a job offer with a lower salary but more PTO. How should I compare them?",
        "My docker build is not using the cache and it is slow. Why?",
    ]},
    {"fn": abbreviate(ABBREVIATIONS), "bases": [
        "How long is the drive from Denver to Aspen in winter, approximately?",
        "Where do I find information about my 401(k) vesting schedule?",
        "Which department handles payroll errors at most companies?",
        "How do I reschedule a doctor appointment without paying a fee?",
        "What is the ideal fridge temperature for keeping milk fresh?",
        "Roth versus traditional IRA for someone earning $60k, which is better?",
    ]},
    {"fn": abbreviate(UNIT_ABBREVIATIONS), "bases": [
        "How many tablespoons of butter are in half a cup?",
        "I weigh 165 pounds. How much water should I drink a day?",
        "How long do I bake chicken thighs at 400 degrees Fahrenheit?",
        "Is running 10 kilometers in 55 minutes a good time for a beginner?",
        "How many grams of sugar are in 12 ounces of cola?",
    ]},
    {"fn": abbreviate(CHAT_ABBREVIATIONS), "bases": [
        "Can you please explain what a W-4 form is for?",
        "My toddler refuses vegetables because of the texture. Any tips?",
        "To be honest I have no idea how to read a payslip. Can you walk me through one?",
        "Can you tell me how to check disk usage on a Linux server, please?",
        "By the way, how do I undo git add before committing?",
    ]},
]

POS["synonym_swap"] = [
    {"s": "What's the {a} way to {x}?", "q": "What's the {b} way to {x}?",
     "fills": [dict(a=a, b=b, x=x) for a, b in [("quickest", "fastest")]
               for x in ["defrost chicken breasts", "learn the multiplication tables", "get rid of fruit flies",
                         "clear the DNS cache on a Mac"]]},
    {"s": "How can I {a} a {x}?", "q": "How can I {b} a {x}?",
     "fills": [dict(a=a, b=b, x=x) for a, b in [("fix", "repair")]
               for x in ["running toilet", "squeaky door hinge", "flat bike tire", "leaky kitchen faucet"]]},
    {"s": "What are some {a} dinner ideas for {x}?", "q": "What are some {b} dinner ideas for {x}?",
     "fills": [dict(a=a, b=b, x=x) for a, b in [("easy", "simple"), ("quick", "fast")]
               for x in ["a family of four", "a busy weeknight", "one person"]]},
    {"s": "How do I {a} my {x}?", "q": "How do I {b} my {x}?",
     "fills": [dict(a=a, b=b, x=x) for a, b in [("cancel", "end")]
               for x in ["Netflix subscription", "gym membership", "Amazon Prime membership"]]},
    {"s": "My daughter has a {a} and a runny nose. Should I keep her home from school?",
     "q": "My daughter has a {b} and a runny nose. Should I keep her home from school?",
     "fills": [dict(a="fever", b="high temperature")]},
    {"s": "What's a {a} present for a coworker who is {x}?", "q": "What's a {b} gift for a coworker who is {x}?",
     "fills": [dict(a=a, b=b, x=x) for a, b in [("good", "nice")] for x in ["retiring", "moving abroad"]]},
    {"s": "How do I {a} the total of a column in Excel?", "q": "How do I {b} the total of a column in Excel?",
     "fills": [dict(a="calculate", b="compute"), dict(a="get", b="find")]},
]

_typo_bases = [
    "How do I change my direct deposit account in the payroll portal?",
    "What temperature should I cook salmon fillets in the oven?",
    "Can my landlord keep the security deposit for normal wear and tear?",
    "How do I restart a deployment in Kubernetes without downtime?",
    "What vegetables grow well in containers on a balcony?",
    "How should I explain multiplication to my second grader?",
    "Which documents do I need to apply for a mortgage?",
    "What's the difference between a ZIP file and a tarball?",
    "How many vacation days can I carry over into the following year?",
    "What are the symptoms of dehydration in toddlers?",
    "How do I merge two spreadsheets using a common column?",
    "Why does my sourdough starter smell like nail polish remover?",
]

POS["typo"] = [
    {"typo": "swap", "bases": _typo_bases},
    {"typo": "drop", "bases": _typo_bases},
    {"typo": "double", "bases": _typo_bases},
    {"typo": "adjacent", "bases": _typo_bases},
    {"typo": "two", "bases": _typo_bases},
]

POS["terse_vs_full"] = [
    {"s": "{a}", "q": "{b}", "fills": [{"a": a, "b": b} for a, b in [
        ("docker remove all stopped containers", "How do I remove all stopped Docker containers?"),
        ("kubectl get pods all namespaces", "How do I list pods across all namespaces with kubectl?"),
        ("excel vlookup from another sheet", "How do I do a VLOOKUP that pulls data from another sheet in Excel?"),
        ("git undo last commit keep changes", "How do I undo my last git commit but keep the changes?"),
        ("nginx test config syntax command", "What command checks the nginx configuration for syntax errors?"),
    ]]},
    {"s": "calories in 100g {f}", "q": "How many calories are in 100 grams of {f}?",
     "fills": grid(f=["cooked brown rice", "raw hass avocado", "skinless chicken thigh", "cheddar cheese"])},
    {"s": "flight time {al} to {bl}", "q": "How long is the flight from {a} to {b}?",
     "fills": [{"a": a, "b": b, "al": a.lower(), "bl": b.lower()}
               for a, b in [("New York", "London"), ("Los Angeles", "Tokyo"), ("Chicago", "Denver"),
                            ("Sydney", "Auckland")]]},
    {"s": "convert {n} {u1} to {u2}", "q": "How many {u2full} is {n} {u1full}?",
     "fills": [dict(n=n, u1=u1, u1full=f1, u2=u2, u2full=f2) for n, u1, f1, u2, f2 in [
         ("5", "km", "kilometers", "miles", "miles"), ("350", "f", "degrees Fahrenheit", "c", "degrees Celsius"),
         ("2", "lbs", "pounds", "kg", "kilograms"), ("12", "oz", "ounces", "grams", "grams")]]},
    {"s": "best time to visit {p}", "q": "When is the best time of year to visit {p}?",
     "fills": grid(p=["Iceland", "Japan", "Peru", "New Zealand"])},
]


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

def near_candidates(tpl, rng):
    """Candidates (stored, query, features) for one near-miss template, shuffled."""
    fills = tpl.get("fills") or [{}]
    out = []
    for k, (a, b) in enumerate(tpl["swaps"]):
        a = {"v": a} if isinstance(a, str) else a
        b = {"v": b} if isinstance(b, str) else b
        for f in fills:
            feats = tuple("fill:" + str(v) for v in f.values()) + ("swap:%s:%d" % (tpl["t"], k),)
            out.append((tpl["t"].format(**{**f, **a}), tpl["t"].format(**{**f, **b}), feats))
    rng.shuffle(out)
    return out


def pos_candidates(tpl, rng):
    """Candidates (stored, query, features) for one positive template, shuffled."""
    if "typo" in tpl:
        out = []
        for base in tpl["bases"]:
            kinds = ["swap", "drop"] if tpl["typo"] == "two" else [tpl["typo"]]
            out.append((base, make_typos(base, kinds, rng), ("base:" + base,)))
    elif "fn" in tpl:
        out = [(base, tpl["fn"](base), ("base:" + base,)) for base in tpl["bases"]]
    else:
        out = [(tpl["s"].format(**f), tpl["q"].format(**f), tuple("fill:" + str(v) for v in f.values()))
               for f in tpl["fills"]]
    rng.shuffle(out)
    return out


def word_count(text):
    return len(text.split())


def select(category, templates, n, make, rng, seen, flip=True):
    """Round-robin over templates; within a template prefer the candidate whose
    fillers have been used least so far in this category (ties: shuffled order)."""
    cand_lists = [make(t, rng) for t in templates]
    usage = {}
    picked = []
    used = set()
    while len(picked) < n:
        progressed = False
        for i, cl in enumerate(cand_lists):
            if len(picked) >= n:
                break
            best = None
            for j, (s, q, feats) in enumerate(cl):
                if s == q or (s, q) in seen or (q, s) in seen:
                    continue
                score = sum(usage.get(f, 0) for f in feats)
                if best is None or score < best[0]:
                    best = (score, j)
            if best is None:
                continue
            s, q, feats = cl.pop(best[1])
            for f in feats:
                usage[f] = usage.get(f, 0) + 1
            seen.add((s, q))
            if flip and rng.random() < 0.5:
                s, q = q, s
            picked.append({"category": category, "stored": s, "query": q})
            used.add(i)
            progressed = True
        if not progressed:
            raise RuntimeError("ran out of candidates for " + category)
    assert len(used) >= 4, (category, len(used))
    return picked


def build():
    rng = random.Random(SEED)
    seen = set()
    text_pairs = []
    for cat, tpls in NEAR.items():
        assert len(tpls) >= 4, cat
        text_pairs.extend(select(cat, tpls, N_NEAR, near_candidates, rng, seen))
    positives = []
    for cat, tpls in POS.items():
        assert len(tpls) >= 4, cat
        positives.extend(select(cat, tpls, N_POS, pos_candidates, rng, seen, flip=(cat != "typo")))

    assert len(NEAR) == 13 and len(POS) == 9
    assert len(text_pairs) == 13 * N_NEAR == 208
    assert len(positives) == 9 * N_POS == 90
    for cat in NEAR:
        assert sum(1 for p in text_pairs if p["category"] == cat) == N_NEAR, cat
    for cat in POS:
        assert sum(1 for p in positives if p["category"] == cat) == N_POS, cat
    keys = set()
    for p in text_pairs + positives:
        assert p["stored"] != p["query"], p
        key = (p["stored"], p["query"])
        assert key not in keys and (p["query"], p["stored"]) not in keys, p
        keys.add(key)
        for side in ("stored", "query"):
            wc = word_count(p[side])
            assert 5 <= wc <= 60, (wc, p[side])

    description = (
        "Held-out set v16 for a semantic prompt cache, written blind (without reading the cache's code, tests, "
        "docs or earlier sets). Prompts imitate what people type into a chat assistant at work and at home: "
        "support, HR and payroll, devops and cloud, data analysis, health, parenting, travel, legal and tax "
        "basics, home and garden, cooking, homework and product comparisons. 'text_pairs' holds 208 near-miss "
        "pairs in 13 categories (16 each) whose query shares most wording with the stored prompt but needs a "
        "different answer, so a cache hit would be wrong. 'positives' holds 90 true paraphrase pairs in 9 "
        "categories (10 each) that deserve the same answer. Generated from templates with "
        "random.Random(161616); for measurement only."
    )
    return {"description": description, "text_pairs": text_pairs, "positives": positives}


def main():
    data = build()
    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "data")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, OUT_NAME)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=True, indent=2)
        fh.write("\n")
    print("wrote %s: %d text_pairs, %d positives" % (path, len(data["text_pairs"]), len(data["positives"])))


if __name__ == "__main__":
    main()
