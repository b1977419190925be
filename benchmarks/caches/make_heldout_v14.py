"""Held-out evaluation set v14 for a semantic prompt cache.

The set has two parts:

* ``text_pairs`` - 180 NEAR-MISS pairs (12 categories x 15).  In each pair the
  new prompt (``query``) shares most of its wording with a prompt already in
  the cache (``stored``), but a careful human would answer the two differently,
  so serving the stored answer would be wrong.  The categories cover subtle
  changes: comparison degree, order of steps, person or perspective, count and
  quantity words, a scope qualifier, time frame, the target of the question,
  the unit or format of the answer, negation, direction reversal (from/to,
  A into B), with vs without, and modality (can / must / should / is it legal
  vs is it safe).
* ``positives`` - 90 TRUE PARAPHRASE pairs (9 categories x 10) that a careful
  human would answer identically: synonyms, question vs imperative, polite
  wrappers, casing / punctuation / whitespace, contractions, reordered
  clauses, determiner changes, "Can you explain X" vs "Explain X", and active
  vs passive voice.

Every pair is built from the templates and word lists below, over many topics
(everyday questions, shopping, health and fitness, science facts, programming,
travel, sports, home repair, work and careers), using public facts only.  The
set was written without reading the cache's code, tests, benchmarks or any
other evaluation set, and it is meant for measurement only: it must never be
used to tune thresholds or train the cache.

Run ``python3 make_heldout_v14.py``; it writes
``data/heldout_generated_v14.json`` next to this file.  The generator is
deterministic (``random.Random(141414)``), so two runs give byte-identical
output.
"""

# This file is a frozen data generator: its templates and word lists are its content.

import json
import os
import random
import re

SEED = 141414
PER_NEAR_MISS_CATEGORY = 15
PER_POSITIVE_CATEGORY = 10

OUT_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "data", "heldout_generated_v14.json"
)

DESCRIPTION = (
    "Held-out evaluation set v14 for a semantic prompt cache. 'text_pairs' holds "
    "180 near-miss pairs (12 categories x 15) in which the new prompt shares most "
    "of its wording with a prompt already in the cache but asks for something a "
    "careful human would answer differently, so serving the stored answer would be "
    "wrong: changed comparison degree, swapped order of steps, changed person or "
    "perspective, changed count or quantity word, narrowed or widened scope, "
    "changed time frame, changed target of the question, changed unit or format of "
    "the answer, added or removed negation, reversed direction, with vs without, "
    "and changed modality. 'positives' holds 90 true paraphrase pairs (9 "
    "categories x 10) that a careful human would answer identically: synonyms, "
    "question vs imperative, polite wrappers, casing/punctuation/whitespace, "
    "contractions, reordered clauses, determiner changes, 'Can you explain X' vs "
    "'Explain X', and active vs passive voice. Every pair was generated "
    "deterministically (random.Random(141414)) by make_heldout_v14.py from "
    "hand-written templates and word lists covering everyday questions, shopping, "
    "health and fitness, science facts, programming, travel, sports, home repair, "
    "and work and careers, using public facts only. It was written without reading "
    "the cache's code, tests, benchmarks or any other evaluation set, and it is "
    "for measurement only, never for tuning or training."
)


# ---------------------------------------------------------------------------
# Item helpers
# ---------------------------------------------------------------------------

def P(stored, query, topics=None):
    """A pair item: two templates; {t} (or {a}, {b}, ... for tuples) filled
    from the same topic on both sides."""
    return ("pair", stored, query, topics)


def S(template, pairs):
    """A swap item: one template with {a} and {b}; the query swaps them.
    A pair may carry a third element that fills {t} on both sides."""
    return ("swap", template, pairs)


def _fill(template, topic):
    if topic is None:
        return template
    if isinstance(topic, tuple):
        return template.format(**dict(zip("abcd", topic)))
    return template.format(t=topic)


# ---------------------------------------------------------------------------
# NEAR-MISS categories (text_pairs)
# ---------------------------------------------------------------------------

NEAR_MISS = {}

NEAR_MISS["comparison_degree"] = [
    P("Is {t} larger than Earth?",
      "Is {t} the largest planet in the solar system?",
      ["Saturn", "Neptune", "Uranus"]),
    P("Is {t} a deep lake?",
      "Is {t} the deepest lake in the world?",
      ["Lake Tahoe", "Crater Lake", "Lake Superior"]),
    P("Is running more effective than walking for losing weight?",
      "Is running the most effective exercise for losing weight?"),
    P("Is {t} less risky than stocks?",
      "Is {t} the least risky investment?",
      ["a government bond", "gold", "real estate"]),
    P("Is {t} a better source of protein than chicken?",
      "Is {t} the best source of protein?",
      ["tofu", "Greek yogurt", "lentils"]),
    P("Is a {t} more fuel efficient than a sedan?",
      "Is a {t} the most fuel efficient kind of car?",
      ["hybrid", "minivan", "diesel pickup"]),
    P("Is {t} bad for my teeth?",
      "Is {t} worse for my teeth than candy?",
      ["soda", "fruit juice", "sparkling water"]),
    P("Who has won more Grand Slam singles titles than {t}?",
      "Who has won the most Grand Slam singles titles?",
      ["Roger Federer", "Pete Sampras", "Rafael Nadal"]),
    P("How far is {t} from the Sun?",
      "How much farther is {t} from the Sun than Earth is?",
      ["Mars", "Jupiter", "Saturn"]),
    P("Which month is the least expensive for flying to {t}?",
      "Is June less expensive than August for flying to {t}?",
      ["Hawaii", "Japan", "Italy"]),
    P("Is {t} the most durable countertop material?",
      "Is {t} more durable than laminate for a kitchen countertop?",
      ["quartz", "granite", "butcher block"]),
    P("Does {t} need to be watered often?",
      "Does {t} need to be watered more often than most houseplants?",
      ["a fern", "a peace lily", "a snake plant", "a fiddle leaf fig"]),
    P("Does a {t} earn more than a nurse?",
      "Does a {t} earn the most of all healthcare jobs?",
      ["pharmacist", "physician assistant", "dental hygienist"]),
    P("Which cut of beef has the least fat?",
      "Which cut of beef has less fat, sirloin or ribeye?"),
    P("Does WD-40 work well for loosening a rusted bolt?",
      "What works better than WD-40 for loosening a rusted bolt?"),
    P("Which country has the most time zones?",
      "Which country has more time zones than the United States?"),
    P("Is {t} harder to learn than Spanish for English speakers?",
      "Is {t} the hardest language to learn for English speakers?",
      ["Mandarin", "Arabic", "Japanese"]),
]

NEAR_MISS["step_order"] = [
    S("Should I apply {a} before {b} in the morning?",
      [("sunscreen", "moisturizer")]),
    S("Is it better to {a} first and {b} afterwards in the same workout?",
      [("lift weights", "do cardio")]),
    S("I'm planning to {a} and then {b}. Is that the right order?",
      [("sand the deck", "stain the deck"), ("prime the wall", "paint the wall")]),
    S("To publish my changes, do I run {a} and then {b}?",
      [("git commit", "git push")]),
    S("Is it a mistake to {a} before you {b}?",
      [("scale the features", "split the dataset into train and test sets")]),
    S("What happens if I {a} and then {b}?",
      [("turn off the breaker", "unscrew the old light fixture")]),
    S("Is it okay to {a} right after I {b}?",
      [("take ibuprofen", "eat breakfast")]),
    S("Do I {a} first and {b} second when I wash my hair?",
      [("use shampoo", "use conditioner")]),
    S("When planning a trip abroad, is it smarter to {a} first and then {b}?",
      [("book the hotel", "book the flight")]),
    S("Should I {a} before I {b}?",
      [("accept the new job offer", "resign from my current job")]),
    S("Does it make sense to {a} and then {b} on the same day?",
      [("mow the lawn", "water the lawn")]),
    S("In a SQL query, is {a} applied first and {b} afterwards?",
      [("the WHERE clause", "the GROUP BY clause"),
       ("the HAVING clause", "the GROUP BY clause")]),
    S("Is it fine to {a} and only then {b}?",
      [("wax the car", "wash the car")]),
    S("When cooking a steak, should I {a} before I {b}?",
      [("sear it", "let it rest")]),
    S("Is it smarter to {a} first and then {b}?",
      [("pay off my credit card debt", "start investing in index funds")]),
    S("Should you {a} a new cast iron pan before you {b} it?",
      [("wash", "season")]),
]

NEAR_MISS["person_perspective"] = [
    P("Can my employer read my work emails?",
      "Can I read my employees' work emails?"),
    P("What should I do if my dog bites someone?",
      "What should I do if someone's dog bites me?"),
    P("Is it legal for my landlord to enter my apartment without notice?",
      "Is it legal for me to enter my tenant's apartment without notice?"),
    P("Can I claim my {a} as a dependent on my taxes?",
      "Can my {a} claim me as a dependent on {b} taxes?",
      [("mother", "her"), ("adult son", "his"), ("grandfather", "his")]),
    P("Do I owe my roommate half of the internet bill?",
      "Does my roommate owe me half of the internet bill?"),
    P("How do I perform the Heimlich maneuver on someone else?",
      "How do I perform the Heimlich maneuver on myself?"),
    S("What is my {a}'s {b}'s daughter to me?",
      [("father", "brother"), ("mother", "sister")]),
    P("I'm from {a} and my friend lives in {b}; do I need a visa to visit her?",
      "I'm from {a} and my friend lives in {b}; does she need a visa to visit me?",
      [("India", "the UK"), ("the US", "Brazil"), ("Mexico", "Canada")]),
    P("Who pays the real estate agent's commission when I buy a house?",
      "Who pays the real estate agent's commission when I sell a house?"),
    P("Can my neighbor cut the branches of my tree that hang over his yard?",
      "Can I cut the branches of my neighbor's tree that hang over my yard?"),
    P("How do I give a coworker access to my GitHub repository?",
      "How do I get access to a coworker's GitHub repository?"),
    P("Is it rude to ask my guests to take their shoes off in my house?",
      "Is it rude to take my shoes off when I'm a guest in someone's house?"),
    P("What should I say to a friend who just got laid off?",
      "What should I say to my friends now that I just got laid off?"),
    P("How do I ask my manager for feedback on my work?",
      "How do I give my manager feedback on her work?"),
    P("Should I pay for my date's dinner on a first date?",
      "Should my date pay for my dinner on a first date?"),
    P("Can you tell if someone blocked you on {t}?",
      "Can someone tell if you blocked them on {t}?",
      ["WhatsApp", "Instagram", "iMessage"]),
]

NEAR_MISS["quantity_word"] = [
    P("Do all {t}?", "Do any {t}?",
      ["mammals lay eggs", "snakes have venom", "birds migrate"]),
    P("How do I delete a single commit from my git history?",
      "How do I delete all the commits from my git history?"),
    P("How do I close a tab in {t}?",
      "How do I close all tabs at once in {t}?",
      ["Chrome", "Firefox", "Safari"]),
    P("Can I bring a bottle of wine through US customs duty free?",
      "Can I bring several bottles of wine through US customs duty free?"),
    P("Why are a few of the leaves on my {t} turning yellow?",
      "Why are most of the leaves on my {t} turning yellow?",
      ["tomato plant", "monstera", "lemon tree"]),
    P("How do I replace a single cracked tile on my bathroom floor?",
      "How do I replace all the tiles on my bathroom floor?"),
    P("What is the square root of {t}?",
      "What are the square roots of {t}?",
      ["16", "49", "81"]),
    P("Is it normal to wake up once during the night?",
      "Is it normal to wake up several times every night?"),
    P("What happens if I miss one credit card payment?",
      "What happens if I miss several credit card payments in a row?"),
    P("Do some countries drive on the left side of the road?",
      "Do most countries drive on the left side of the road?"),
    P("Is a little salt in my diet bad for me?",
      "Is a lot of salt in my diet bad for me?"),
    P("Is one drink a day bad for your heart?",
      "Are a few drinks a day bad for your heart?"),
    P("How do I rename a file in {t}?",
      "How do I rename many files at once in {t}?",
      ["Linux", "Windows", "macOS"]),
    P("Is one coat of paint enough to cover a dark wall?",
      "Are two coats of paint enough to cover a dark wall?"),
    P("Why does one light in my house flicker?",
      "Why do all the lights in my house flicker?"),
]

NEAR_MISS["scope_qualifier"] = [
    P("What is the tallest mountain in {t}?",
      "What is the tallest mountain in the world?",
      ["Europe", "Africa", "North America", "South America"]),
    P("What is the longest river in {t}?",
      "What is the longest river in the world?",
      ["Europe", "Asia", "North America"]),
    P("Who has scored the most goals in Champions League history?",
      "Who has scored the most goals in a single Champions League season?"),
    P("What is the best-selling car in {t}?",
      "What is the best-selling electric car in {t}?",
      ["the US", "Europe", "Japan"]),
    P("What is the largest desert in the world?",
      "What is the largest hot desert in the world?"),
    P("What is the largest lake in the world?",
      "What is the largest freshwater lake in the world?"),
    P("What is the most popular sport in {t}?",
      "What is the most popular winter sport in {t}?",
      ["Brazil", "India", "Australia"]),
    P("How do I sort a list in Python?",
      "How do I sort a list of dictionaries by one key in Python?"),
    P("What is the fastest animal?",
      "What is the fastest land animal?"),
    P("What is the biggest bird in the world?",
      "What is the biggest flying bird in the world?"),
    P("What is the tallest building in {t}?",
      "What is the tallest residential building in {t}?",
      ["New York City", "the world"]),
    P("What documents do I need to travel to {t}?",
      "What documents do I need to travel to {t} with my dog?",
      ["Mexico", "Japan", "the UK"]),
    P("What is the minimum wage in {t}?",
      "What is the minimum wage for tipped workers in {t}?",
      ["the US", "Texas", "Florida"]),
    P("What is the oldest university in the world?",
      "What is the oldest university in the English-speaking world?"),
    P("How many bones are in the human body?",
      "How many bones are in the human hand?"),
    P("What is the most spoken language in the world?",
      "What is the most spoken native language in the world?"),
]

NEAR_MISS["time_frame"] = [
    P("What will the weather be like in {t} today?",
      "What will the weather be like in {t} this weekend?",
      ["Chicago", "London", "Seattle", "Denver"]),
    P("Where were the last Summer Olympics held?",
      "Where will the next Summer Olympics be held?"),
    P("What should I eat before a long run?",
      "What should I eat after a long run?"),
    P("Can I cancel my flight for free within 24 hours of booking?",
      "Can I cancel my flight for free within 24 hours of departure?"),
    P("What should I do the night before a job interview?",
      "What should I do the day after a job interview?"),
    P("How do I see the commits I made today in git?",
      "How do I see the commits I made last week in git?"),
    P("What did people in {t} usually eat for breakfast in the Middle Ages?",
      "What do people in {t} usually eat for breakfast today?",
      ["England", "France", "Japan"]),
    P("Is it too late to plant tulip bulbs in {t}?",
      "Is it too early to plant tulip bulbs in {t}?",
      ["September", "October", "November"]),
    P("Did it snow much in {t} last winter?",
      "Will it snow much in {t} next winter?",
      ["Denver", "Boston", "Toronto"]),
    P("When does daylight saving time start this year in the US?",
      "When did daylight saving time start last year in the US?"),
    P("Who was the president of the United States before {t}?",
      "Who was the president of the United States after {t}?",
      ["Barack Obama", "Ronald Reagan", "Abraham Lincoln"]),
    P("How much caffeine is safe to have per day?",
      "How much caffeine is safe to have in one sitting?"),
    P("What are the best things to do in {t} in the summer?",
      "What are the best things to do in {t} in the winter?",
      ["Montreal", "Prague", "Tokyo"]),
    P("Should I stretch before lifting weights?",
      "Should I stretch after lifting weights?"),
    P("What was the unemployment rate in the US last month?",
      "What was the unemployment rate in the US last year?"),
]

NEAR_MISS["question_target"] = [
    P("What causes {t}?", "What are the effects of {t}?",
      ["inflation", "acid rain", "sleep deprivation"]),
    P("How much does {t} cost?", "How much does {t} weigh?",
      ["a Tesla Model 3", "a grand piano", "a MacBook Air"]),
    P("Who invented the {t}?", "When was the {t} invented?",
      ["telephone", "printing press", "light bulb"]),
    P("How tall is the {t}?", "How old is the {t}?",
      ["Eiffel Tower", "Statue of Liberty", "Great Pyramid of Giza"]),
    P("What are the symptoms of {t}?", "What is the treatment for {t}?",
      ["strep throat", "the flu", "a sprained ankle"]),
    P("What is the population of {t}?", "What is the total area of {t}?",
      ["Canada", "Japan", "Brazil"]),
    P("What is the boiling point of {t}?", "What is the melting point of {t}?",
      ["iron", "ethanol", "lead"]),
    P("What does the {t} function return in Python?",
      "What arguments does the {t} function take in Python?",
      ["zip", "enumerate", "sorted"]),
    P("What is the time complexity of {t}?",
      "What is the space complexity of {t}?",
      ["merge sort", "quicksort", "heapsort"]),
    P("How long does it take to fly from {a} to {b}?",
      "How much does it cost to fly from {a} to {b}?",
      [("New York", "London"), ("Sydney", "Tokyo"), ("Chicago", "Paris")]),
    P("How long does it take to become a {t}?",
      "How much does it cost to become a {t}?",
      ["commercial pilot", "registered nurse", "licensed electrician"]),
    P("Who won the {t}?", "Which country hosted the {t}?",
      ["2014 FIFA World Cup", "2010 FIFA World Cup", "2006 FIFA World Cup"]),
    P("How many calories are in {t}?", "How much protein is in {t}?",
      ["a tablespoon of peanut butter", "two large eggs", "a cup of cooked rice"]),
    P("How often should I replace my {t}?", "How often should I clean my {t}?",
      ["HVAC air filter", "toothbrush", "dishwasher filter"]),
    P("What is the half-life of {t}?", "What is the atomic number of {t}?",
      ["carbon-14", "uranium-238", "iodine-131"]),
]

NEAR_MISS["answer_unit_format"] = [
    P("How tall is {t} in meters?", "How tall is {t} in feet?",
      ["Mount Everest", "the Eiffel Tower", "the Burj Khalifa"]),
    P("What is {t} degrees Fahrenheit in Celsius?",
      "What is {t} degrees Fahrenheit in Kelvin?",
      ["72", "100", "50"]),
    P("How far is it from {a} to {b} in miles?",
      "How far is it from {a} to {b} in kilometers?",
      [("Los Angeles", "San Francisco"), ("Paris", "Berlin"), ("Boston", "New York")]),
    P("List the planets of the solar system in order from the Sun.",
      "List the planets of the solar system in alphabetical order."),
    P("How do I get the current time as an ISO 8601 string in {t}?",
      "How do I get the current time as a Unix timestamp in {t}?",
      ["Python", "JavaScript", "Go"]),
    P("How do I export my {t} contacts as a CSV file?",
      "How do I export my {t} contacts as a vCard file?",
      ["Gmail", "Outlook", "iPhone"]),
    P("What is the speed of light in kilometers per second?",
      "What is the speed of light in miles per hour?"),
    P("Write the number {t} in Roman numerals.",
      "Write the number {t} in binary.",
      ["2024", "49", "99"]),
    P("How do I read a CSV file into a list of dictionaries in Python?",
      "How do I read a CSV file into a pandas DataFrame in Python?"),
    P("How much does a gallon of milk weigh in pounds?",
      "How much does a gallon of milk weigh in kilograms?"),
    P("Summarize the plot of {t} in one sentence.",
      "Summarize the plot of {t} as a short poem.",
      ["Hamlet", "Moby-Dick", "The Great Gatsby"]),
    P("What is the area of {t} in square miles?",
      "What is the area of {t} in square kilometers?",
      ["Texas", "France", "Lake Michigan"]),
    P("What is 30 miles per gallon in liters per 100 kilometers?",
      "What is 30 miles per gallon in kilometers per liter?"),
    P("How much is one cup of {t} in grams?",
      "How much is one cup of {t} in ounces?",
      ["flour", "sugar", "butter"]),
    P("Give me a weekly running plan for a beginner as a table.",
      "Give me a weekly running plan for a beginner as a checklist."),
]

NEAR_MISS["negation_polarity"] = [
    P("What foods should I eat if I have gout?",
      "What foods should I not eat if I have gout?"),
    P("Which EU countries use the euro?",
      "Which EU countries don't use the euro?"),
    P("Which houseplants are safe for cats?",
      "Which houseplants are not safe for cats?"),
    P("Which US states have a state income tax?",
      "Which US states don't have a state income tax?"),
    P("Which fruits ripen after being picked?",
      "Which fruits don't ripen after being picked?"),
    P("Which Python data types are mutable?",
      "Which Python data types are immutable?"),
    P("What happens if I pay my credit card bill in full every month?",
      "What happens if I don't pay my credit card bill in full every month?"),
    P("Why is my phone charging slowly?",
      "Why is my phone not charging at all?"),
    P("Which planets in the solar system have moons?",
      "Which planets in the solar system have no moons?"),
    P("What words should I use in a cover letter?",
      "What words should I never use in a cover letter?"),
    P("Which well-paying jobs require a college degree?",
      "Which well-paying jobs don't require a college degree?"),
    P("Which airlines allow pets in the cabin?",
      "Which airlines don't allow pets in the cabin?"),
    P("Which vitamins are fat-soluble?",
      "Which vitamins are not fat-soluble?"),
    P("Which countries require a visa for US citizens?",
      "Which countries don't require a visa for US citizens?"),
    P("Which exercises are safe to do with a bad knee?",
      "Which exercises are unsafe to do with a bad knee?"),
    P("Which grains contain gluten?",
      "Which grains don't contain gluten?"),
]

NEAR_MISS["direction_reversal"] = [
    S("How do I convert {a} to {b} in {t}?",
      [("a string", "an integer", "Java"), ("a string", "an integer", "Python"),
       ("a list", "a string", "Python"), ("a date", "a string", "JavaScript")]),
    S("What time is it in {a} when it is 9 am in {b}?",
      [("Tokyo", "London"), ("New York", "Los Angeles"), ("Sydney", "Paris")]),
    S("How do I transfer photos from my {a} to my {b}?",
      [("iPhone", "Windows PC"), ("Android phone", "Mac")]),
    S("What is the easiest way to turn {a} into {b}?",
      [("a PDF", "a Word document"), ("a JPEG", "a PNG")]),
    S("How many {a} do I get for 100 {b}?",
      [("euros", "US dollars"), ("yen", "euros"), ("British pounds", "Canadian dollars")]),
    P("Does caffeine raise blood pressure?",
      "Does caffeine lower blood pressure?"),
    S("How do I merge {a} into {b} in git?",
      [("the main branch", "my feature branch")]),
    S("Can I convert my {a} to a {b}?",
      [("Roth IRA", "traditional IRA")]),
    P("Which way do I turn a screw to loosen it?",
      "Which way do I turn a screw to tighten it?"),
    S("How do I switch my phone plan from {a} to {b}?",
      [("prepaid", "postpaid")]),
    S("What is the formula to convert {a} to {b}?",
      [("Celsius", "Fahrenheit"), ("kilometers", "miles")]),
    S("How do I move my music library from {a} to {b}?",
      [("Spotify", "Apple Music"), ("iTunes", "Spotify")]),
    P("How do I increase the font size in {t}?",
      "How do I decrease the font size in {t}?",
      ["VS Code", "Microsoft Word"]),
    P("Does the Earth move closer to the Sun in January?",
      "Does the Earth move farther from the Sun in January?"),
    S("How do I copy a file from {a} to {b} using scp?",
      [("my laptop", "a remote server")]),
]

NEAR_MISS["with_without"] = [
    P("How do I make fluffy pancakes without buttermilk?",
      "How do I make fluffy pancakes with buttermilk?"),
    P("How can I connect my printer to my laptop without a USB cable?",
      "How can I connect my printer to my laptop with a USB cable?"),
    P("How can I build muscle at home without any equipment?",
      "How can I build muscle at home with just a pair of dumbbells?"),
    P("How do I exit vim without saving my changes?",
      "How do I exit vim and save my changes?"),
    P("How do I undo my last git commit without losing my changes?",
      "How do I undo my last git commit and throw away my changes?"),
    P("How do I cook rice without a rice cooker?",
      "How do I cook rice in a rice cooker?"),
    P("How do I make bread without yeast?",
      "How do I make bread with instant yeast?"),
    P("How do I brew coffee without a filter?",
      "How do I brew coffee with a paper filter?"),
    P("How do I remove a stripped screw without a drill?",
      "How do I remove a stripped screw with a drill?"),
    P("How do I get hired as a software developer without a degree?",
      "How do I get hired as a software developer with a computer science degree?"),
    P("How do I open a bottle of wine without a corkscrew?",
      "How do I open a bottle of wine with a corkscrew?"),
    P("How should I clean a cast iron skillet without soap?",
      "How should I clean a cast iron skillet with soap?"),
    P("Can I rent a car in {t} without an international driving permit?",
      "Can I rent a car in {t} with an international driving permit?",
      ["Italy", "Japan", "Spain"]),
    P("How do I paint kitchen cabinets without removing the doors?",
      "How do I paint kitchen cabinets with the doors taken off?"),
    P("How do I get around {t} without a car?",
      "How do I get around {t} in a rental car?",
      ["Iceland", "New Zealand", "Ireland"]),
    P("How do I lose weight without counting calories?",
      "How do I lose weight by counting calories?"),
]

NEAR_MISS["modality_change"] = [
    P("Is it legal to drive barefoot in {t}?",
      "Is it safe to drive barefoot in {t}?",
      ["the US", "the UK", "Germany"]),
    P("Do I have to tip at restaurants in {t}?",
      "Is it okay to tip at restaurants in {t}?",
      ["Japan", "Italy", "the US"]),
    P("Do I have to file a tax return as a college student?",
      "Should I file a tax return as a college student?"),
    P("Is travel insurance required for a trip to {t}?",
      "Is travel insurance recommended for a trip to {t}?",
      ["Cuba", "the Schengen area", "Thailand"]),
    P("Is it possible to run Linux on a Chromebook?",
      "Is it worth running Linux on a Chromebook?"),
    P("Can you use Python to build mobile apps?",
      "Should you use Python to build mobile apps?"),
    P("Is it legal to record a phone call without telling the other person in {t}?",
      "Is it ethical to record a phone call without telling the other person in {t}?",
      ["California", "New York", "Texas"]),
    P("Is it possible to get sunburned on a cloudy day?",
      "How likely is it to get sunburned on a cloudy day?"),
    P("Am I legally required to give two weeks' notice before quitting?",
      "Should I give two weeks' notice before quitting?"),
    P("Is it mandatory to wear a bike helmet in {t}?",
      "Is it a good idea to wear a bike helmet in {t}?",
      ["Australia", "the Netherlands", "Germany"]),
    P("Is it legal to do my own electrical work in {t}?",
      "Is it safe to do my own electrical work in {t}?",
      ["Australia", "the UK", "Ontario"]),
    P("Can I use dish soap to wash my car?",
      "Should I use dish soap to wash my car?"),
    P("Can I negotiate my salary after accepting a job offer?",
      "Should I negotiate my salary after accepting a job offer?"),
    P("Do I need to declare fresh fruit at US customs?",
      "Am I allowed to bring fresh fruit through US customs?"),
    P("Is it possible to learn to swim as an adult?",
      "Is it necessary to learn to swim as an adult?"),
    P("Can I use a higher-wattage charger with my phone?",
      "Should I use a higher-wattage charger with my phone?"),
]


# ---------------------------------------------------------------------------
# POSITIVE categories (true paraphrases)
# ---------------------------------------------------------------------------

# synonym_swap: (template with {w}, (word, synonym), topics or None)
SYNONYM_ITEMS = [
    ("How do I {w} a leaky {t}?", ("fix", "repair"), ["faucet", "toilet", "shower head"]),
    ("What is the {w} way to thaw frozen {t}?", ("quickest", "fastest"),
     ["chicken", "shrimp", "ground beef"]),
    ("How can I {w} learning {t}?", ("start", "begin"), ["Python", "the guitar", "Spanish"]),
    ("What is the {w} time of year to visit {t}?", ("best", "ideal"), ["Japan", "Iceland", "Peru"]),
    ("How do I {w} fruit flies in my kitchen?", ("get rid of", "eliminate"), None),
    ("How can I {w} my credit score?", ("improve", "boost"), None),
    ("What are some {w} exercises for lower back pain?", ("good", "effective"), None),
    ("What is the {w} price of a new {t}?", ("typical", "usual"),
     ["dishwasher", "mattress", "road bike"]),
    ("How do I {w} my dog from barking at the mailman?", ("stop", "keep"), None),
    ("How should I {w} for a job interview?", ("prepare", "get ready"), None),
    ("How many hours of sleep does a {w} need?", ("teenager", "teen"), None),
    ("How do I {w} a deleted file in {t}?", ("recover", "restore"), ["Windows", "macOS"]),
]

# question_vs_imperative: (question template, imperative template, topics)
QUESTION_IMPERATIVE_ITEMS = [
    ("What is the capital of {t}?", "Tell me the capital of {t}.",
     ["Australia", "Canada", "Brazil"]),
    ("What are the symptoms of {t}?", "List the symptoms of {t}.",
     ["dehydration", "iron deficiency", "heat exhaustion"]),
    ("How do I {t}?", "Show me how to {t}.",
     ["reverse a string in Python", "tie a bowline knot", "unclog a bathroom sink"]),
    ("What is the difference between {a} and {b}?", "Describe the difference between {a} and {b}.",
     [("a Roth IRA", "a traditional IRA"), ("TCP", "UDP"), ("baking soda", "baking powder")]),
    ("Which countries border {t}?", "Name the countries that border {t}.",
     ["Germany", "Switzerland", "Brazil"]),
    ("What are some good stretches for {t}?", "Give me some good stretches for {t}.",
     ["tight hamstrings", "a stiff neck", "lower back pain"]),
    ("How many players does a {t} team have on the field?",
     "Tell me how many players a {t} team has on the field.",
     ["soccer", "rugby union", "baseball"]),
    ("What does {t} mean in finance?", "Tell me what {t} means in finance.",
     ["EBITDA", "liquidity", "a bear market"]),
    ("What should I pack for a week in {t}?", "Tell me what to pack for a week in {t}.",
     ["Iceland", "Costa Rica", "Morocco"]),
    ("What is the formula for the area of a {t}?", "Give me the formula for the area of a {t}.",
     ["circle", "trapezoid", "triangle"]),
    ("What are the rules of {t}?", "Tell me the rules of {t}.",
     ["pickleball", "cricket", "curling"]),
]

# polite_wrapper: bare requests (lowercase start) and polite wrappers around them
POLITE_BASES = [
    "explain how compound interest works",
    "list the planets in order from the Sun",
    "give me a simple recipe for banana bread",
    "summarize the main causes of World War I",
    "recommend a beginner stretching routine for runners",
    "tell me how to change a car's cabin air filter",
    "write a Python function that checks whether a number is prime",
    "suggest a three-day itinerary for Rome",
    "tell me how much water an adult should drink each day",
    "describe how scoring works in tennis",
    "show me how to set up two-factor authentication on Gmail",
    "give me tips for negotiating a higher salary",
]
POLITE_WRAPPERS = [
    "Could you please {b}?",
    "Would you kindly {b}?",
    "Please {b}. Thank you!",
    "Hi there! Can you {b}, please?",
    "I'd really appreciate it if you could {b}.",
    "Hello, could you {b} for me? Thanks a lot.",
    "If you don't mind, please {b}.",
]

# surface_form: base questions; transforms change only casing, punctuation or spacing
SURFACE_BASES = [
    "What is the boiling point of water at sea level?",
    "How do I reset my router to factory settings?",
    "How many ounces are in a pound?",
    "What year did the Berlin Wall fall?",
    "How do I center a div with CSS?",
    "Is it safe to eat raw oysters?",
    "What are the visa requirements for visiting Vietnam?",
    "How long should I rest between sets when lifting weights?",
    "Who won the first Super Bowl?",
    "What is a good salary for a junior data analyst in Chicago?",
    "How do I remove rust from a bicycle chain?",
    "What's the best way to learn touch typing?",
]

# contraction: [full|short] markers; one side uses the full forms, the other the short ones
CONTRACTION_TEMPLATES = [
    "[What is|What's] the fastest way to cool down a hot car?",
    "My dishwasher [does not|doesn't] drain completely. What should I check?",
    "[I am|I'm] training for a half marathon. How many miles a week should I run?",
    "Why [can I not|can't I] connect my AirPods to my laptop?",
    "[It is|It's] my first time in Lisbon. Which sights should I see?",
    "[I have|I've] never done a pull-up. How do I build up to one?",
    "My laptop [will not|won't] turn on after an update. What can I do?",
    "[There is|There's] a crack in the drywall above my door. Should I worry?",
    "[Who is|Who's] the all-time leading scorer in NBA history?",
    "Why [should you not|shouldn't you] put metal in a microwave?",
    "[I would|I'd] like to switch careers into UX design. Where do I start?",
    "[We are|We're] flying to Denver with a toddler. What should we pack in the carry-on?",
]

# clause_reorder: (main question, subordinate clause); "Main clause?" vs "Clause, main?"
CLAUSE_ITEMS = [
    ("what should I pack", "if I'm hiking in the Alps in October"),
    ("how much water should I drink", "when I'm exercising in hot weather"),
    ("which neighborhoods should I stay in", "when I visit Barcelona for the first time"),
    ("how do I keep my code readable", "as my Python project grows"),
    ("what should I do", "if my basement floods after heavy rain"),
    ("is it okay to run every day", "if I'm a beginner"),
    ("how should I ask for a raise", "if my company just had a bad quarter"),
    ("what's the best way to store fresh basil", "once I bring it home from the store"),
    ("do I need a visa", "if I'm a US citizen visiting Japan for two weeks"),
    ("how do I fix a squeaky door hinge", "without buying any special tools"),
    ("how long should I wait to eat", "after I get a filling at the dentist"),
    ("which muscles does a deadlift work", "when it's done with proper form"),
]

# determiner_change: [x|y] markers swap articles / determiners that do not change the meaning
DETERMINER_TEMPLATES = [
    "How do I unclog [a|the] kitchen sink?",
    "What is the best way to clean [a|my] laptop keyboard?",
    "How do I reset [the|my] router?",
    "How often should I water [a|my] snake plant?",
    "What are [the|some] health benefits of green tea?",
    "How do I replace [a|the] battery in [a|my] car key fob?",
    "What's the best way to store [the |]leftover rice?",
    "How long should I boil [an|the] egg for a runny yolk?",
    "What is [a|the] typical starting salary for junior web developers in Berlin?",
    "How do I patch [a|the] small hole in [the|my] drywall?",
    "How do I sharpen [a|my] kitchen knife with [a|the] whetstone?",
    "How do I get [the |]candle wax out of [a|the] carpet?",
]

# explain_request: topics; "Can you explain X?" vs "Explain X."
EXPLAIN_TOPICS = [
    "how a mortgage works",
    "the difference between TCP and UDP",
    "what inflation is",
    "how vaccines train the immune system",
    "the offside rule in soccer",
    "how photosynthesis works",
    "what a 401(k) is",
    "how recursion works in programming",
    "why the sky is blue",
    "how jet lag affects the body",
    "what a load-bearing wall is",
]
EXPLAIN_ASK = ["Can you explain {x}?", "Could you explain {x}?", "Can you explain to me {x}?"]
EXPLAIN_TELL = ["Explain {x}.", "Explain to me {x}."]

# active_passive: (active template, passive template, topics or None)
ACTIVE_PASSIVE_ITEMS = [
    ("Who wrote {t}?", "Who was {t} written by?",
     ["Pride and Prejudice", "Nineteen Eighty-Four", "The Odyssey"]),
    ("Who discovered {t}?", "By whom was {t} discovered?",
     ["penicillin", "radium", "the electron"]),
    ("Which company makes the {t}?", "Which company is the {t} made by?",
     ["PlayStation", "Kindle", "Surface laptop"]),
    ("How do plants absorb water from the soil?",
     "How is water absorbed from the soil by plants?", None),
    ("Which country produces the most coffee?",
     "In which country is the most coffee produced?", None),
    ("Who invented the {t}?", "Who was the {t} invented by?",
     ["World Wide Web", "dishwasher", "telescope"]),
    ("Who founded {t}?", "Who was {t} founded by?", ["Microsoft", "Amazon", "Nike"]),
    ("Which enzyme breaks down starch in the mouth?",
     "By which enzyme is starch broken down in the mouth?", None),
    ("What causes the ocean tides?", "What are the ocean tides caused by?", None),
    ("Who painted {t}?", "Who was {t} painted by?",
     ["the Mona Lisa", "The Starry Night", "the ceiling of the Sistine Chapel"]),
    ("Who designed the {t}?", "By whom was the {t} designed?",
     ["Eiffel Tower", "Sydney Opera House"]),
    ("Can a virus infect my computer through a PDF?",
     "Can my computer be infected by a virus through a PDF?", None),
]


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------

def _cap(s):
    return s[0].upper() + s[1:]


def _markers(template, side):
    """Pick alternative `side` (0 or 1) of every [x|y] marker."""
    return re.sub(r"\[([^|\]]*)\|([^\]]*)\]", lambda m: m.group(side + 1), template)


def _maybe_swap(rng, stored, query):
    if rng.random() < 0.5:
        return query, stored
    return stored, query


def build_near_miss(rng):
    out = []
    for category, items in NEAR_MISS.items():
        chosen = rng.sample(items, PER_NEAR_MISS_CATEGORY)
        for item in chosen:
            if item[0] == "pair":
                _, s_tpl, q_tpl, topics = item
                topic = rng.choice(topics) if topics else None
                stored, query = _fill(s_tpl, topic), _fill(q_tpl, topic)
            else:
                _, tpl, pairs = item
                pair = rng.choice(pairs)
                x, y = pair[0], pair[1]
                t = pair[2] if len(pair) > 2 else ""
                stored = tpl.format(a=x, b=y, t=t)
                query = tpl.format(a=y, b=x, t=t)
            stored, query = _maybe_swap(rng, stored, query)
            out.append({"category": category, "stored": stored, "query": query})
    return out


def _surface_transform(rng, text):
    kind = rng.choice(["lower_noq", "upper", "spaces", "punct", "lower_spaced_q", "title"])
    if kind == "lower_noq":
        return text.lower().rstrip("?")
    if kind == "upper":
        return text.upper()
    if kind == "spaces":
        words = text.split(" ")
        gaps = [rng.choice([" ", "  ", " ", "   "]) for _ in words[1:]]
        gaps[rng.randrange(len(gaps))] = "  "
        joined = words[0] + "".join(g + w for g, w in zip(gaps, words[1:]))
        return "  " + joined + " "
    if kind == "punct":
        return text.rstrip("?") + "???"
    if kind == "lower_spaced_q":
        return text[0].lower() + text[1:-1] + " ?"
    # title case, keeping apostrophes intact
    return " ".join(w[0].upper() + w[1:] for w in text.split(" "))


def build_positives(rng):
    out = []

    def add(category, stored, query):
        stored, query = _maybe_swap(rng, stored, query)
        out.append({"category": category, "stored": stored, "query": query})

    for tpl, (w1, w2), topics in rng.sample(SYNONYM_ITEMS, PER_POSITIVE_CATEGORY):
        topic = rng.choice(topics) if topics else None
        add("synonym_swap",
            _fill(tpl.replace("{w}", w1), topic), _fill(tpl.replace("{w}", w2), topic))

    for q_tpl, i_tpl, topics in rng.sample(QUESTION_IMPERATIVE_ITEMS, PER_POSITIVE_CATEGORY):
        topic = rng.choice(topics)
        add("question_vs_imperative", _fill(q_tpl, topic), _fill(i_tpl, topic))

    for base in rng.sample(POLITE_BASES, PER_POSITIVE_CATEGORY):
        add("polite_wrapper", _cap(base) + ".", rng.choice(POLITE_WRAPPERS).format(b=base))

    for base in rng.sample(SURFACE_BASES, PER_POSITIVE_CATEGORY):
        add("surface_form", base, _surface_transform(rng, base))

    for tpl in rng.sample(CONTRACTION_TEMPLATES, PER_POSITIVE_CATEGORY):
        add("contraction", _markers(tpl, 0), _markers(tpl, 1))

    for main, clause in rng.sample(CLAUSE_ITEMS, PER_POSITIVE_CATEGORY):
        add("clause_reorder", _cap(main) + " " + clause + "?", _cap(clause) + ", " + main + "?")

    for tpl in rng.sample(DETERMINER_TEMPLATES, PER_POSITIVE_CATEGORY):
        add("determiner_change", _markers(tpl, 0), _markers(tpl, 1))

    for topic in rng.sample(EXPLAIN_TOPICS, PER_POSITIVE_CATEGORY):
        add("explain_request",
            rng.choice(EXPLAIN_ASK).format(x=topic), rng.choice(EXPLAIN_TELL).format(x=topic))

    for a_tpl, p_tpl, topics in rng.sample(ACTIVE_PASSIVE_ITEMS, PER_POSITIVE_CATEGORY):
        topic = rng.choice(topics) if topics else None
        add("active_passive", _fill(a_tpl, topic), _fill(p_tpl, topic))

    return out


def _check(pairs):
    seen = set()
    for p in pairs:
        assert p["stored"] != p["query"], p
        assert "{" not in p["stored"] + p["query"], p
        assert "  " not in p["stored"] or p["category"] == "surface_form", p
        key = (p["stored"], p["query"])
        assert key not in seen, p
        seen.add(key)


def main():
    rng = random.Random(SEED)
    text_pairs = build_near_miss(rng)
    positives = build_positives(rng)
    assert len(text_pairs) == 12 * PER_NEAR_MISS_CATEGORY
    assert len(positives) == 9 * PER_POSITIVE_CATEGORY
    _check(text_pairs)
    _check(positives)
    data = {"description": DESCRIPTION, "text_pairs": text_pairs, "positives": positives}
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8", newline="\n") as f:
        json.dump(data, f, indent=2, ensure_ascii=True)
        f.write("\n")


if __name__ == "__main__":
    main()
