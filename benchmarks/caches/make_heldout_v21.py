"""Held-out evaluation set v21 for a semantic prompt cache (generator).

A semantic prompt cache answers a new chat prompt with the stored answer of an
earlier prompt when the two mean the same thing.  This script writes
data/heldout_generated_v21.json (next to this file) with two lists of pairs:

* text_pairs -- NEAR-MISSES.  The query shares most of its wording with the
  stored prompt, but a careful human would answer the two differently, so
  serving the stored answer would be a false hit.  192 pairs, 16 in each of 12
  categories: situation_detail_changed, who_does_what, order_or_timing,
  modality_or_certainty, negation_or_exception, opposite_or_antonym,
  quantity_or_number, time_frame_or_tense, requested_output_changed,
  code_or_formula_changed, comparison_direction, question_target.

* positives -- TRUE PARAPHRASES that a careful human would answer identically
  (a cache should hit on them).  100 pairs: reworded_same_request (30),
  added_pleasantries_or_filler (20), informal_vs_formal (20),
  synonym_swap (15), explain_or_tell_me_forms (15).

The prompts imitate everyday messages to a chat assistant (health, money,
travel, cooking, parenting, pets, home repair, cars, law and tenancy, work,
school, programming, spreadsheets, writing help): some with a sentence or two
of context, some terse, some informal.  Every category is built from at least
8 hand-written templates filled from the word lists below, using
random.Random(212121); the output is deterministic (byte-identical between
runs).  Pairs are de-duplicated regardless of which side is stored, and the
stored/query sides are assigned at random.

The set was written blind: without looking at the cache implementation, its
tests, or any other data set in this repository.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import json
import os
import random
import re

SEED = 212121


def T(stored, query, **slots):
    """A template: two texts with {slot} or {slot.N} placeholders."""
    return (stored, query, slots)


# ---------------------------------------------------------------------------
# Shared word lists
# ---------------------------------------------------------------------------

REL = ["roommate", "brother", "coworker", "best friend", "cousin", "neighbor"]
FREL = ["sister", "best friend", "cousin", "aunt", "roommate"]
AMT = ["$200", "$300", "$500", "$750", "$1,200"]
CARS = ["Honda Accord", "Subaru Outback", "Toyota Camry", "Ford Escape",
        "old pickup truck", "Mazda 3"]
STATES_NO_PAYOUT = ["Texas", "Florida", "Georgia"]
STATES = ["Ohio", "Georgia", "Pennsylvania", "Illinois", "Michigan"]
JOBS = ["a dental hygienist", "an electrician", "a nurse practitioner", "a paralegal",
        "a physical therapist"]

# ---------------------------------------------------------------------------
# NEAR-MISS templates (stored and query need different answers)
# ---------------------------------------------------------------------------

SITUATION = [
    T("My dog just ate a handful of {food.0} that fell off the counter. Do I need to take him to the vet?",
      "My dog just ate a handful of {food.1} that fell off the counter. Do I need to take him to the vet?",
      food=[("grapes", "blueberries"), ("raisins", "baby carrots"),
            ("macadamia nuts", "plain cooked chicken"),
            ("sugar-free gum with xylitol", "plain white rice"),
            ("dark chocolate", "apple slices")]),
    T("My {child} is {age.0} and has a fever of 38.5 C. Can I give ibuprofen, and how much?",
      "My {child} is {age.1} and has a fever of 38.5 C. Can I give ibuprofen, and how much?",
      child=["son", "daughter"],
      age=[("3 months old", "6 years old"), ("10 weeks old", "4 years old"),
           ("4 months old", "9 years old")]),
    T("i'm moving to {country.0} for work next month. which side of the road do they drive on there?",
      "i'm moving to {country.1} for work next month. which side of the road do they drive on there?",
      country=[("the UK", "France"), ("Japan", "Spain"), ("Australia", "Germany"),
               ("Ireland", "Italy"), ("New Zealand", "Portugal")]),
    T("I need to send IT a picture of an error message. How do I take a screenshot on my {device.0}?",
      "I need to send IT a picture of an error message. How do I take a screenshot on my {device.1}?",
      device=[("iPhone 15", "Samsung Galaxy S23"), ("MacBook Air", "Windows 11 laptop"),
              ("Chromebook", "iPad"), ("Pixel 8", "iPhone 12")]),
    T("We're a family of four with a budget of {budget.0} for a week in Italy in August, flights from Chicago included. Is that realistic?",
      "We're a family of four with a budget of {budget.1} for a week in Italy in August, flights from Chicago included. Is that realistic?",
      budget=[("$2,500", "$15,000"), ("$3,000", "$20,000"), ("$1,800", "$12,000")]),
    T("I have {cond.0} and a pounding headache. Which over-the-counter painkiller is safest for me to take?",
      "I have {cond.1} and a pounding headache. Which over-the-counter painkiller is safest for me to take?",
      cond=[("a stomach ulcer", "no health problems at all"),
            ("chronic kidney disease", "no health problems at all"),
            ("aspirin-sensitive asthma", "no health problems at all")]),
    T("I drive a {car.0}. How often do I need to get the oil changed?",
      "I drive a {car.1}. How often do I need to get the oil changed?",
      car=[("2016 Toyota Corolla", "2022 Tesla Model 3"), ("2018 Honda Civic", "2021 Nissan Leaf"),
           ("2015 Ford F-150", "2023 Chevy Bolt")]),
    T("I rent an apartment in {place.0} and my landlord just said the rent is going up 20% next month. Is he allowed to do that?",
      "I rent an apartment in {place.1} and my landlord just said the rent is going up 20% next month. Is he allowed to do that?",
      place=[("a rent-controlled building in San Francisco", "Houston, Texas"),
             ("Berlin", "Dallas"),
             ("a rent-stabilized building in New York City", "Phoenix, Arizona")]),
    T("The cookie recipe is written for a conventional oven at 350°F and I'm using {oven.0}. Do I need to change the temperature or the time?",
      "The cookie recipe is written for a conventional oven at 350°F and I'm using {oven.1}. Do I need to change the temperature or the time?",
      oven=[("a convection oven", "a standard gas oven"),
            ("an air fryer", "a standard electric oven")]),
    T("prepping for a coding interview. simplest way to reverse a string in {lang.0}?",
      "prepping for a coding interview. simplest way to reverse a string in {lang.1}?",
      lang=[("Python", "Java"), ("JavaScript", "C"), ("Go", "Ruby"), ("Python", "JavaScript")]),
    T("I use {app.0} for our team's budget sheet. How do I freeze the top row so it stays visible when I scroll?",
      "I use {app.1} for our team's budget sheet. How do I freeze the top row so it stays visible when I scroll?",
      app=[("Excel on Windows", "Google Sheets"), ("Google Sheets", "Apple Numbers"),
           ("Excel for Mac", "LibreOffice Calc")]),
    T("My {pet.0} has been throwing up since chewing on a leaf from {flower} in a bouquet. How worried should I be?",
      "My {pet.1} has been throwing up since chewing on a leaf from {flower} in a bouquet. How worried should I be?",
      pet=[("cat", "dog")], flower=["an Easter lily", "a tiger lily", "a daylily"]),
    T("I'm {who.0} and I've had a stuffy nose for a week. Is it okay to take pseudoephedrine?",
      "I'm {who.1} and I've had a stuffy nose for a week. Is it okay to take pseudoephedrine?",
      who=[("in my first trimester of pregnancy", "a healthy 30-year-old man"),
           ("8 weeks pregnant", "a healthy 45-year-old woman")]),
]

WHO = [
    T("I lent my {rel} {amt} two months ago and they keep dodging me about paying it back. What are my options?",
      "My {rel} lent me {amt} two months ago and they keep pushing me to pay it back. What are my options?",
      rel=REL, amt=AMT),
    T("I was fired two weeks after I reported {issue} to HR. Is that legal, and what should I do now?",
      "I fired an employee two weeks after they reported {issue} to HR. Is that legal, and what should I do now?",
      issue=["a safety issue", "sexual harassment", "unpaid overtime", "a billing fraud concern"]),
    T("My ex is supposed to pay me {cs} a month in child support but has missed the last three payments. What can I do?",
      "I'm supposed to pay my ex {cs} a month in child support but I've missed the last three payments. What can I do?",
      cs=["$400", "$650", "$900"]),
    T("My {dog} bit the neighbor's {kid} on the hand yesterday. What should I do now?",
      "The neighbor's {dog} bit my {kid} on the hand yesterday. What should I do now?",
      dog=["dog", "German shepherd", "terrier mix"], kid=["8-year-old", "teenage son", "daughter"]),
    T("I rear-ended another car at {spot} this morning. Whose insurance pays for the damage to both cars?",
      "Another car rear-ended me at {spot} this morning. Whose insurance pays for the damage to both cars?",
      spot=["a red light", "a stop sign", "a crosswalk"]),
    T("My {age} {kid.0} is being bullied by a classmate at school. How should I talk to {kid.1} about it?",
      "My {age} {kid.0} is bullying a classmate at school. How should I talk to {kid.1} about it?",
      kid=[("son", "him"), ("daughter", "her")], age=["10-year-old", "seventh-grade", "12-year-old"]),
    T("how do i copy {item} from my laptop to a remote server with {tool}",
      "how do i copy {item} from a remote server to my laptop with {tool}",
      item=["a folder", "a single file", "a whole directory"], tool=["scp", "rsync"]),
    T("Someone accidentally sent me {amt} on {app}. What should I do?",
      "I accidentally sent someone {amt} on {app}. What should I do?",
      amt=AMT, app=["Venmo", "Zelle", "Cash App", "PayPal"]),
    T("I'm hiring a freelance {role} for my small business. What should go in the contract to protect me?",
      "A small business is hiring me as a freelance {role}. What should go in the contract to protect me?",
      role=["graphic designer", "web developer", "copywriter", "photographer"]),
    T("Help me write a text telling my {frel} I can't lend her {amt} right now.",
      "Help me write a text asking my {frel} if she can lend me {amt} right now.",
      frel=FREL, amt=AMT),
    T("My neighbor's tree fell on my {thing} during last night's storm. Who pays for the damage?",
      "My tree fell on my neighbor's {thing} during last night's storm. Who pays for the damage?",
      thing=["fence", "shed", "car", "garage roof"]),
    T("Our new {pet} keeps attacking my older cat. How do I get it to stop?",
      "My older cat keeps attacking our new {pet}. How do I get it to stop?",
      pet=["puppy", "kitten", "rescue dog"]),
    T("My landlord owes me {amt} for repairs I paid for out of pocket. How do I get that money back?",
      "My tenant owes me {amt} for repairs I paid for out of pocket. How do I get that money back?",
      amt=AMT),
    T("My coworker keeps taking credit for my ideas in {meet}. How should I handle it?",
      "My coworker says I keep taking credit for her ideas in {meet}. How should I handle it?",
      meet=["team meetings", "meetings with our boss", "client calls"]),
]

ORDER = [
    T("This morning I put on {x.0} first and then {x.1}. Is that the right order?",
      "This morning I put on {x.1} first and then {x.0}. Is that the right order?",
      x=[("sunscreen", "insect repellent"), ("vitamin C serum", "moisturizer"),
         ("sunscreen", "foundation")]),
    T("I'm doing some DIY this weekend. I {x.0} first and then {x.1}. Did I do it in the right order?",
      "I'm doing some DIY this weekend. I {x.1} first and then {x.0}. Did I do it in the right order?",
      x=[("filled the nail holes with spackle", "painted the wall"),
         ("primed the patched drywall", "painted the wall"),
         ("sanded the deck", "applied the stain")]),
    T("My {car} has a dead battery. When I jump-start it, do I connect the positive cable first and then the negative?",
      "My {car} has a dead battery. When I jump-start it, do I connect the negative cable first and then the positive?",
      car=CARS),
    T("Is it a problem that I added the {pasta} before the water came to a full boil?",
      "Is it a problem that I added the {pasta} after the water came to a full boil?",
      pasta=["spaghetti", "penne", "fresh ravioli"]),
    T("I sold some shares {m.0} months after I bought them, at a profit. How will the gain be taxed in the US?",
      "I sold some shares {m.1} months after I bought them, at a profit. How will the gain be taxed in the US?",
      m=[("11", "13"), ("10", "14"), ("six", "eighteen")]),
    T("I had unprotected sex {t.0} ago. Can I still take Plan B, and will it work?",
      "I had unprotected sex {t.1} ago. Can I still take Plan B, and will it work?",
      t=[("12 hours", "6 days"), ("a day", "a week"), ("36 hours", "8 days")]),
    T("My passport expires {t.0} after I get back from my two-week trip to {c}. Can I still travel on it?",
      "My passport expires {t.1} after I get back from my two-week trip to {c}. Can I still travel on it?",
      t=[("eight months", "two months"), ("a year", "three months"), ("seven months", "four weeks")],
      c=["Thailand", "Indonesia", "Vietnam"]),
    T("I took {dose} of ibuprofen {t.0} ago and my back still hurts. Can I take another dose now?",
      "I took {dose} of ibuprofen {t.1} ago and my back still hurts. Can I take another dose now?",
      t=[("2 hours", "8 hours"), ("90 minutes", "7 hours"), ("an hour", "9 hours")],
      dose=["400 mg", "200 mg", "two tablets"]),
    T("I ran git commit before git add and my changes to {file} aren't in the commit. Why?",
      "I ran git add before git commit and my changes to {file} aren't in the commit. Why?",
      file=["app.py", "index.html", "README.md"]),
    T("I bought my {item} {t.0} ago and the screen just stopped working. It came with a one-year manufacturer warranty. Is it still covered?",
      "I bought my {item} {t.1} ago and the screen just stopped working. It came with a one-year manufacturer warranty. Is it still covered?",
      item=["laptop", "tablet", "TV"],
      t=[("11 months", "14 months"), ("10 months", "two years"), ("six months", "18 months")]),
    T("My lease requires 30 days' written notice. I gave my landlord written notice {t.0} before my move-out date. Will I owe rent past my move-out date?",
      "My lease requires 30 days' written notice. I gave my landlord written notice {t.1} before my move-out date. Will I owe rent past my move-out date?",
      t=[("45 days", "10 days"), ("six weeks", "one week"), ("35 days", "two weeks")]),
    T("I marinated {meat} in lime juice for {t.0} before grilling. Is that okay?",
      "I marinated {meat} in lime juice for {t.1} before grilling. Is that okay?",
      meat=["chicken thighs", "chicken breasts", "pork chops"],
      t=[("30 minutes", "two days"), ("an hour", "three days")]),
    T("I left a pot of cooked rice out on the counter for {t.0} after dinner. Is it still safe to eat?",
      "I left a pot of cooked rice out on the counter for {t.1} after dinner. Is it still safe to eat?",
      t=[("45 minutes", "10 hours"), ("an hour", "all night")]),
]

MODALITY = [
    T("I only made {inc} last year from a part-time job. Do I have to file a federal tax return?",
      "I only made {inc} last year from a part-time job. Can I file a federal tax return?",
      inc=["$6,000", "$8,500", "$4,200"]),
    T("I have a job interview next week and I'm {m} months pregnant. Do I have to tell them?",
      "I have a job interview next week and I'm {m} months pregnant. Should I tell them?",
      m=["three", "four", "five"]),
    T("After my blood work, my doctor said I might have {cond}. What happens next?",
      "After my blood work, my doctor said I definitely have {cond}. What happens next?",
      cond=["type 2 diabetes", "hypothyroidism", "celiac disease"]),
    T("The school sent a note saying the {vax} vaccine is recommended for 7th graders. Can my kid start the school year without it?",
      "The school sent a note saying the {vax} vaccine is required for 7th graders. Can my kid start the school year without it?",
      vax=["HPV", "Tdap", "meningococcal"]),
    T("The {bread} recipe says I can let the dough rise overnight in the fridge. Can I bake it the same day instead?",
      "The {bread} recipe says I must let the dough rise overnight in the fridge. Can I bake it the same day instead?",
      bread=["bread", "pizza", "focaccia"]),
    T("My passport expires in {t}. Is it possible to renew it online?",
      "My passport expires in {t}. Is it mandatory to renew it online?",
      t=["five months", "four months", "seven months"]),
    T("I'm quitting my job in {state}. Is my employer allowed to pay out my unused vacation days?",
      "I'm quitting my job in {state}. Is my employer required to pay out my unused vacation days?",
      state=STATES_NO_PAYOUT),
    T("In our API spec the {field} field is optional. Should my signup endpoint reject requests that don't include it?",
      "In our API spec the {field} field is required. Should my signup endpoint reject requests that don't include it?",
      field=["email", "phone number", "middle name"]),
    T("I have an HSA through work. Can I use it to pay for my kid's {exp}?",
      "I have an HSA through work. Do I have to use it to pay for my kid's {exp}?",
      exp=["braces", "eyeglasses", "therapy sessions"]),
    T("my drone weighs {w} grams and i only fly it for fun. do i have to register it with the FAA?",
      "my drone weighs {w} grams and i only fly it for fun. can i still register it with the FAA?",
      w=["200", "240", "180"]),
    T("The job posting for a {job} role says a master's degree is preferred. Should I still apply with only a bachelor's?",
      "The job posting for a {job} role says a master's degree is required. Should I still apply with only a bachelor's?",
      job=["data analyst", "program manager", "UX researcher"]),
]

NEGATION = [
    T("Which fruits can {p.0} safely eat? I want to give my {p.1} some healthy treats.",
      "Which fruits can't {p.0} safely eat? I want to give my {p.1} some healthy treats.",
      p=[("dogs", "puppy"), ("cats", "kitten")]),
    T("Give me a simple {cake} cake recipe with eggs, it's for a party this weekend.",
      "Give me a simple {cake} cake recipe without eggs, it's for a party this weekend.",
      cake=["chocolate", "vanilla", "carrot"]),
    T("The check engine light in my {car} came on and it's flashing. Is it safe to keep driving?",
      "The check engine light in my {car} came on and it's not flashing. Is it safe to keep driving?",
      car=CARS),
    T("Which EU countries use the euro? I'm planning a trip across Europe this {season}.",
      "Which EU countries don't use the euro? I'm planning a trip across Europe this {season}.",
      season=["summer", "spring", "fall"]),
    T("How do I enable two-factor authentication on my {acct} account?",
      "How do I disable two-factor authentication on my {acct} account?",
      acct=["Gmail", "Instagram", "Amazon", "Dropbox"]),
    T("I'm vegetarian but I eat eggs and dairy. Can you suggest a high-protein {meal}?",
      "I'm vegetarian and I don't eat eggs or dairy. Can you suggest a high-protein {meal}?",
      meal=["dinner", "lunch", "breakfast"]),
    T("My {age} has had the MMR vaccine, and there's a measles case at her daycare. What should I do?",
      "My {age} hasn't had the MMR vaccine, and there's a measles case at her daycare. What should I do?",
      age=["2-year-old", "3-year-old", "4-year-old"]),
    T("I live in {state} and my landlord gave me a written one-year lease. Can he raise my rent whenever he wants?",
      "I live in {state} and my landlord never gave me a written lease. Can he raise my rent whenever he wants?",
      state=STATES),
    T("I'm {age} and I still work at the company that sponsors my 401(k). Can I keep contributing to it?",
      "I'm {age} and I no longer work at the company that sponsors my 401(k). Can I keep contributing to it?",
      age=["45", "52", "38"]),
    T("In Google Sheets, how do I count the cells in column {col} that are empty?",
      "In Google Sheets, how do I count the cells in column {col} that are not empty?",
      col=["B", "C", "D"]),
    T("write a regex that matches lines that contain the word {w}",
      "write a regex that matches lines that do not contain the word {w}",
      w=["ERROR", "timeout", "TODO"]),
    T("Write a cron expression that runs my backup script at {time} every weekday.",
      "Write a cron expression that runs my backup script at {time} every weekday except Friday.",
      time=["9am", "6:30 am", "11 pm"]),
    T("I'm a US citizen driving across the border into Canada for {trip}. Can I get in with my passport?",
      "I'm a US citizen driving across the border into Canada for {trip}. Can I get in without my passport?",
      trip=["a weekend", "a ski trip", "a wedding"]),
    T("Write a short cover letter for a {job} job. Mention that I was laid off in March.",
      "Write a short cover letter for a {job} job. Do not mention that I was laid off in March.",
      job=["marketing coordinator", "office manager", "junior accountant"]),
    T("My {age} cat is spayed and she's been yowling and rolling on the floor all night. What's going on?",
      "My {age} cat isn't spayed and she's been yowling and rolling on the floor all night. What's going on?",
      age=["1-year-old", "8-month-old", "2-year-old"]),
]

OPPOSITE = [
    T("We live in {home} and it gets really humid inside every winter. What can we do about it?",
      "We live in {home} and it gets really dry inside every winter. What can we do about it?",
      home=["a small apartment", "an old farmhouse", "a basement flat"]),
    T("I'm a {age}-year-old {sex}, 5 foot 6. How can I gain 10 pounds in a healthy way?",
      "I'm a {age}-year-old {sex}, 5 foot 6. How can I lose 10 pounds in a healthy way?",
      age=["28", "35", "42"], sex=["woman", "man"]),
    T("The vet says my {breed} is overweight. How should I change his food?",
      "The vet says my {breed} is underweight. How should I change his food?",
      breed=["beagle", "lab", "golden retriever", "border collie"]),
    T("My {fix} water stays too hot even with the handle turned all the way to cold. What's wrong?",
      "My {fix} water stays too cold even with the handle turned all the way to hot. What's wrong?",
      fix=["shower", "kitchen faucet", "bathtub"]),
    T("I'm {age} and my blood pressure tends to run high. What foods should I eat more of?",
      "I'm {age} and my blood pressure tends to run low. What foods should I eat more of?",
      age=["45", "60", "33"]),
    T("Write a polite email accepting the job offer from {co}. The salary is {sal}.",
      "Write a polite email declining the job offer from {co}. The salary is {sal}.",
      co=["Acme Logistics", "the county hospital", "a fintech startup"], sal=["$78k", "$64k", "$92k"]),
    T("In Python, how do I sort a list of dictionaries by the '{key}' key in ascending order?",
      "In Python, how do I sort a list of dictionaries by the '{key}' key in descending order?",
      key=["age", "price", "date"]),
    T("My {dish} tastes too acidic. How do I fix it?",
      "My {dish} tastes too sweet. How do I fix it?",
      dish=["tomato sauce", "chili", "curry"]),
    T("How do I encrypt a file with gpg on {os}?",
      "How do I decrypt a file with gpg on {os}?",
      os=["Linux", "macOS", "Windows"]),
    T("My {kid} sleeps too much. Is that normal for her age?",
      "My {kid} sleeps too little. Is that normal for her age?",
      kid=["4-year-old", "teenage daughter", "9-year-old"]),
    T("Our {room} stays too warm in the evenings. What's the cheapest way to fix it?",
      "Our {room} stays too cold in the evenings. What's the cheapest way to fix it?",
      room=["upstairs bedroom", "home office", "nursery"]),
    T("my sourdough starter is {age} old and way too runny. what should i change",
      "my sourdough starter is {age} old and way too stiff. what should i change",
      age=["two weeks", "a month", "three months"]),
]

QUANTITY = [
    T("This pancake recipe serves 4, but I'm feeding {n.0} people. How much of each should I use? 200 g flour, 2 eggs, 300 ml milk.",
      "This pancake recipe serves 4, but I'm feeding {n.1} people. How much of each should I use? 200 g flour, 2 eggs, 300 ml milk.",
      n=[("6", "12"), ("2", "8"), ("10", "3")]),
    T("My toddler weighs {w.0} kg and has a fever. How much children's acetaminophen (160 mg per 5 ml) can I give her?",
      "My toddler weighs {w.1} kg and has a fever. How much children's acetaminophen (160 mg per 5 ml) can I give her?",
      w=[("11", "18"), ("12", "20"), ("14", "22")]),
    T("I'm taking out a {a.0} car loan at 7% APR for 5 years. What will my monthly payment be?",
      "I'm taking out a {a.1} car loan at 7% APR for 5 years. What will my monthly payment be?",
      a=[("$15,000", "$25,000"), ("$20,000", "$32,000"), ("$12,000", "$18,500")]),
    T("I earn {s.0} a year before taxes. How much rent can I afford using the 30% rule?",
      "I earn {s.1} a year before taxes. How much rent can I afford using the 30% rule?",
      s=[("$48,000", "$72,000"), ("$60,000", "$95,000"), ("$35,000", "$54,000")]),
    T("I feed my 4 kg cat {q.0} of 85 g wet food a day and nothing else. Is that enough?",
      "I feed my 4 kg cat {q.1} of 85 g wet food a day and nothing else. Is that enough?",
      q=[("one pouch", "four pouches"), ("two pouches", "five pouches")]),
    T("How long do I roast a {w.0}-pound turkey at 325°F, unstuffed?",
      "How long do I roast a {w.1}-pound turkey at 325°F, unstuffed?",
      w=[("12", "20"), ("10", "16"), ("14", "24")]),
    T("I'm painting a bedroom that's {d.0} feet with 8-foot ceilings. How many gallons of paint do I need for two coats?",
      "I'm painting a bedroom that's {d.1} feet with 8-foot ceilings. How many gallons of paint do I need for two coats?",
      d=[("10 by 12", "20 by 24"), ("11 by 11", "18 by 22")]),
    T("If I invest {m.0} a month in an index fund averaging 7% a year, how much will I have after 30 years?",
      "If I invest {m.1} a month in an index fund averaging 7% a year, how much will I have after 30 years?",
      m=[("$200", "$1,000"), ("$300", "$750"), ("$150", "$500")]),
    T("my running app shows miles but the race results are in km. i ran {d.0} miles this morning, how many km is that",
      "my running app shows miles but the race results are in km. i ran {d.1} miles this morning, how many km is that",
      d=[("3", "13.1"), ("5", "8"), ("6.2", "10")]),
    T("The doctor said to take amoxicillin 500 mg {f.0} a day. If my first dose is at {first}, when should I take the rest?",
      "The doctor said to take amoxicillin 500 mg {f.1} a day. If my first dose is at {first}, when should I take the rest?",
      f=[("twice", "three times")], first=["7 am", "8 am", "9 am"]),
    T("I made {x.0} from freelance work last year and it was my only income. Do I have to file a federal tax return?",
      "I made {x.1} from freelance work last year and it was my only income. Do I have to file a federal tax return?",
      x=[("$300", "$4,000"), ("$350", "$2,500")]),
    T("Is a {g.0}-gallon tank big enough for two fancy goldfish?",
      "Is a {g.1}-gallon tank big enough for two fancy goldfish?",
      g=[("10", "40"), ("5", "30")]),
]

TIME = [
    T("I'm on {med} for an infection and I had a couple of beers last night. Is that a problem?",
      "I'm on {med} for an infection and I'm planning to have a couple of beers tonight. Is that a problem?",
      med=["metronidazole", "tinidazole"]),
    T("What should I pack for a week in {place} in {m.0}?",
      "What should I pack for a week in {place} in {m.1}?",
      place=["Iceland", "Norway", "Montreal"], m=[("January", "July"), ("February", "August")]),
    T("I'm {age}. What's the maximum I can contribute to a Roth IRA for {y.0}?",
      "I'm {age}. What's the maximum I can contribute to a Roth IRA for {y.1}?",
      age=["34", "29", "41"], y=[("2023", "2024"), ("2022", "2024")]),
    T("I think I was fired illegally for taking medical leave {t.0}. Can I still file a claim?",
      "I think I was fired illegally for taking medical leave {t.1}. Can I still file a claim?",
      t=[("last week", "five years ago"), ("yesterday", "four years ago")]),
    T("Write a {db} query that gets all orders placed last month from an orders table with an order_date column.",
      "Write a {db} query that gets all orders placed this month from an orders table with an order_date column.",
      db=["PostgreSQL", "MySQL", "SQLite"]),
    T("I missed the April 15 tax filing deadline and I owe about {amt}. What should I do?",
      "I'm going to miss the April 15 tax filing deadline and I'll owe about {amt}. What should I do?",
      amt=["$1,500", "$3,000", "$800"]),
    T("In {app}, what formula gives me the first day of the current month?",
      "In {app}, what formula gives me the first day of next month?",
      app=["Google Sheets", "Excel"]),
    T("My {kid.0} turned 18 last month. Can I still call {kid.1} doctor and get {kid.1} test results?",
      "My {kid.0} turns 18 next month. Can I still call {kid.1} doctor and get {kid.1} test results?",
      kid=[("daughter", "her"), ("son", "his")]),
    T("What's the weather usually like in {city} in {m.0}? Trying to decide when to visit.",
      "What's the weather usually like in {city} in {m.1}? Trying to decide when to visit.",
      city=["Lisbon", "Tokyo", "Cape Town"], m=[("March", "August"), ("January", "July")]),
    T("How much did a first-class stamp cost in the US in {y.0}?",
      "How much did a first-class stamp cost in the US in {y.1}?",
      y=[("2019", "2024"), ("2020", "2023")]),
    T("I signed a one-year lease on an apartment, but I just got a job offer in {city}. What should I do about the lease?",
      "I'm about to sign a one-year lease on an apartment, but I just got a job offer in {city}. What should I do about the lease?",
      city=["another city", "Denver", "another state"]),
    T("In Python, how do I get the date exactly one {u.0} ago from today?",
      "In Python, how do I get the date exactly one {u.1} ago from today?",
      u=[("week", "month"), ("day", "year")]),
]

OUTPUT = [
    T("I'm traveling next week. Translate 'Where is the nearest pharmacy?' into {lang.0}.",
      "I'm traveling next week. Translate 'Where is the nearest pharmacy?' into {lang.1}.",
      lang=[("Spanish", "Japanese"), ("French", "Italian"), ("German", "Portuguese")]),
    T("Write a {tone.0} out-of-office reply for while I'm on vacation from {dates}.",
      "Write a {tone.1} out-of-office reply for while I'm on vacation from {dates}.",
      tone=[("formal", "funny"), ("short and professional", "warm and chatty")],
      dates=["June 3 to June 14", "August 5 to 16", "December 22 to January 2"]),
    T("Explain how {topic} works to a {aud.0}.",
      "Explain how {topic} works to a {aud.1}.",
      topic=["the immune system", "inflation", "a credit score", "photosynthesis"],
      aud=[("5-year-old", "graduate student"), ("curious 8-year-old", "room full of experts")]),
    T("Give me {n.0} easy weeknight dinner ideas using {ingr}.",
      "Give me {n.1} easy weeknight dinner ideas using {ingr}.",
      n=[("3", "10"), ("two", "seven")],
      ingr=["chicken thighs and rice", "ground turkey", "canned chickpeas"]),
    T("Write a {form.0} about my cat, {name}, who steals socks.",
      "Write a {form.1} about my cat, {name}, who steals socks.",
      form=[("haiku", "limerick"), ("short poem", "short story")], name=["Miso", "Pickles", "Luna"]),
    T("Write a product description for my handmade {prod} in about {w.0} words.",
      "Write a product description for my handmade {prod} in about {w.1} words.",
      prod=["soy candles", "leather wallets", "ceramic mugs"], w=[("50", "200"), ("30", "150")]),
    T("Rewrite this to sound more {tone.0}: 'hey, can u send me the Q3 report by friday? thx'",
      "Rewrite this to sound more {tone.1}: 'hey, can u send me the Q3 report by friday? thx'",
      tone=[("professional", "apologetic"), ("formal", "urgent")]),
    T("Write a {plat.0} announcing that I just started a new job as a {job}.",
      "Write a {plat.1} announcing that I just started a new job as a {job}.",
      plat=[("LinkedIn post", "tweet"), ("LinkedIn post", "short text to my family")],
      job=["nurse", "data analyst", "teacher"]),
    T("Convert this into {fmt.0}: Anna, 34, Denver; Ben, 29, Austin; Carla, 41, Boston.",
      "Convert this into {fmt.1}: Anna, 34, Denver; Ben, 29, Austin; Carla, 41, Boston.",
      fmt=[("JSON", "a Markdown table"), ("CSV", "YAML"), ("a JSON array", "an HTML table")]),
    T("Write a birthday message for my {aud.0}. Keep it to two sentences.",
      "Write a birthday message for my {aud.1}. Keep it to two sentences.",
      aud=[("boss", "best friend"), ("grandmother", "coworker I barely know"),
           ("10-year-old nephew", "landlord")]),
    T("Summarize the plot of {book} in {len.0}.",
      "Summarize the plot of {book} in {len.1}.",
      book=["Pride and Prejudice", "The Great Gatsby", "To Kill a Mockingbird"],
      len=[("one sentence", "three paragraphs"), ("five bullet points", "a single paragraph")]),
]

CODE = [
    T("In Excel, what does =VLOOKUP(A2, Prices!A:C, {c}, FALSE) do?",
      "In Excel, what does =VLOOKUP(A2, Prices!A:C, {c}, TRUE) do?",
      c=["2", "3"]),
    T("In Python, what does `{v} == {v}` evaluate to, and why?",
      "In Python, what does `{v} is {v}` evaluate to, and why?",
      v=["[1, 2]", "[0]", "['a', 'b']"]),
    T("What does `git reset --soft HEAD~{n}` do to my files?",
      "What does `git reset --hard HEAD~{n}` do to my files?",
      n=["1", "2", "3"]),
    T("In Excel, what does =SUMIF(A2:A50, \"{op.0}100\", B2:B50) add up?",
      "In Excel, what does =SUMIF(A2:A50, \"{op.1}100\", B2:B50) add up?",
      op=[(">", "<"), (">=", "<>")]),
    T("What does `print({a} {op.0} {b})` output in Python 3?",
      "What does `print({a} {op.1} {b})` output in Python 3?",
      a=["17", "10", "23"], b=["5", "3", "4"], op=[("/", "//"), ("%", "//"), ("**", "*")]),
    T("In JavaScript, what does `[1, 2, 3].{m.0}(x => x * 2)` return?",
      "In JavaScript, what does `[1, 2, 3].{m.1}(x => x * 2)` return?",
      m=[("map", "forEach"), ("filter", "find"), ("map", "some")]),
    T("Explain what this query returns: SELECT c.name, o.id FROM customers c {j.0} JOIN orders o ON o.customer_id = c.id;",
      "Explain what this query returns: SELECT c.name, o.id FROM customers c {j.1} JOIN orders o ON o.customer_id = c.id;",
      j=[("INNER", "LEFT"), ("LEFT", "RIGHT")]),
    T("What permissions does `chmod {p.0} {file}` give?",
      "What permissions does `chmod {p.1} {file}` give?",
      p=[("755", "644"), ("700", "777"), ("600", "640")], file=["deploy.sh", "notes.txt", "config.yml"]),
    T("If I copy the formula =B2*{ref.0} from D2 down to D10, what will D10 contain?",
      "If I copy the formula =B2*{ref.1} from D2 down to D10, what will D10 contain?",
      ref=[("$C$1", "C1"), ("C$1", "$C1")]),
    T("What does `list(range(1, 10, {s.0}))` give in Python?",
      "What does `list(range(1, 10, {s.1}))` give in Python?",
      s=[("2", "3"), ("3", "4")]),
    T("Does the regex `{x.0}` match the string '{x.2}'?",
      "Does the regex `{x.1}` match the string '{x.2}'?",
      x=[("colou?r", "colou+r", "color"), ("^\\d{3}$", "\\d{3}", "abc1234"),
         ("^cat", "cat$", "category"), ("a.c", "a\\.c", "abc")]),
    T("In pandas, what does df.dropna(axis={a.0}) do?",
      "In pandas, what does df.dropna(axis={a.1}) do?",
      a=[("0", "1"), ("'index'", "'columns'")]),
    T("What happens to my stash list when I run `git stash {x.0}`?",
      "What happens to my stash list when I run `git stash {x.1}`?",
      x=[("pop", "apply"), ("pop stash@{1}", "apply stash@{1}")]),
]

COMPARISON = [
    T("We're replacing the heating system in our house in {place}. Which is cheaper to run, a gas furnace or a heat pump?",
      "We're replacing the heating system in our house in {place}. Which is more expensive to run, a gas furnace or a heat pump?",
      place=["Virginia", "North Carolina", "Oregon"]),
    T("I'm moving for a remote job. Which is cheaper to live in, {c.0} or {c.1}?",
      "I'm moving for a remote job. Which is more expensive to live in, {c.0} or {c.1}?",
      c=[("Austin", "Denver"), ("Lisbon", "Barcelona"), ("Atlanta", "Boston")]),
    T("I'm {age} and in a low tax bracket right now. Is a Roth IRA better than a traditional IRA for me?",
      "I'm {age} and in a low tax bracket right now. Is a traditional IRA better than a Roth IRA for me?",
      age=["24", "27", "31"]),
    T("Which dog breeds shed the most? We're about to adopt our {nth} dog.",
      "Which dog breeds shed the least? We're about to adopt our {nth} dog.",
      nth=["first", "second"]),
    T("If I'm only staying two years, is renting better than buying in a city like {city}?",
      "If I'm only staying two years, is renting worse than buying in a city like {city}?",
      city=["San Francisco", "Seattle", "Boston"]),
    T("Which is faster in Python for checking whether an item is in a collection of {n} items, a list or a set?",
      "Which is slower in Python for checking whether an item is in a collection of {n} items, a list or a set?",
      n=["10,000", "a million"]),
    T("I work remotely and might relocate. Which US states have the highest state income tax?",
      "I work remotely and might relocate. Which US states have the lowest state income tax?",
      ),
    T("I have two job offers: {o.0} in Texas and {o.1} in California. Which one pays more after taxes?",
      "I have two job offers: {o.0} in Texas and {o.1} in California. Which one pays less after taxes?",
      o=[("$85k", "$95k"), ("$100k", "$112k")]),
    T("Which vegetables have the most {nut} per serving?",
      "Which vegetables have the least {nut} per serving?",
      nut=["fiber", "protein", "vitamin C"]),
    T("Is a 15-year mortgage cheaper overall than a 30-year mortgage on a {amt} loan?",
      "Is a 15-year mortgage more expensive overall than a 30-year mortgage on a {amt} loan?",
      amt=["$300,000", "$450,000"]),
    T("trying to eat better. is {f.0} healthier than {f.1}?",
      "trying to eat better. is {f.1} healthier than {f.0}?",
      f=[("brown rice", "white rice"), ("plain Greek yogurt", "ice cream"),
         ("oatmeal", "sugary breakfast cereal")]),
    T("Which is wider, a {b.0} mattress or a {b.1} mattress?",
      "Which is narrower, a {b.0} mattress or a {b.1} mattress?",
      b=[("queen", "full"), ("king", "queen"), ("twin XL", "full")]),
]

TARGET = [
    T("I've been getting migraines {freq}. What usually causes them?",
      "I've been getting migraines {freq}. How do I treat them?",
      freq=["a few times a month", "almost every week", "since I started a new job"]),
    T("How much does it cost to replace a {wh} water heater?",
      "How long does it take to replace a {wh} water heater?",
      wh=["40-gallon gas", "50-gallon electric", "tankless"]),
    T("I'm thinking about leasing a {car} instead of buying one. What are the pros?",
      "I'm thinking about leasing a {car} instead of buying one. What are the cons?",
      car=["Honda CR-V", "Toyota RAV4", "new EV"]),
    T("My {pet.0} has had diarrhea since yesterday. What could be causing it?",
      "My {pet.0} has had diarrhea since yesterday. What can I give {pet.1} to help?",
      pet=[("dog", "him"), ("cat", "her"), ("puppy", "him")]),
    T("What are the symptoms of {d}?",
      "How is {d} treated?",
      d=["strep throat", "Lyme disease", "a UTI", "shingles"]),
    T("I'm self-employed. What's the deadline for paying my {q} quarterly estimated taxes?",
      "I'm self-employed. What's the penalty for missing my {q} quarterly estimated taxes?",
      q=["second", "third", "fourth"]),
    T("I'm traveling in {m}. How much does it cost to renew a US passport?",
      "I'm traveling in {m}. How long does it take to renew a US passport?",
      m=["June", "three months", "the spring"]),
    T("What are the common side effects of {med}?",
      "What is {med} usually prescribed for?",
      med=["metformin", "sertraline", "lisinopril", "prednisone"]),
    T("How many calories are in {food}?",
      "How much protein is in {food}?",
      food=["a large egg", "a cup of cooked lentils", "a chicken breast"]),
    T("I'm thinking about becoming {job}. What qualifications do I need?",
      "I'm thinking about becoming {job}. How much do they usually earn?",
      job=JOBS),
    T("I'm {age} and just got my first real job. How do I open a Roth IRA?",
      "I'm {age} and just got my first real job. Why should I open a Roth IRA?",
      age=["22", "24", "26"]),
    T("There's black mold on my {spot}. What causes it?",
      "There's black mold on my {spot}. How do I get rid of it?",
      spot=["bathroom ceiling", "shower grout", "window sills"]),
]

# ---------------------------------------------------------------------------
# POSITIVE templates (stored and query are the same request)
# ---------------------------------------------------------------------------

REWORDED = [
    T("My {age}-year-old daughter won't fall asleep before 10pm. How can I get her to bed earlier?",
      "How can I get my {age}-year-old daughter to go to bed earlier? She won't fall asleep before 10pm.",
      age=["5", "6", "7", "8"]),
    T("I'm flying to {city} next month with a carry-on only. What's the liquids limit for carry-on bags at US airports?",
      "What's the carry-on liquids limit at US airports? I'm flying to {city} next month and only bringing a carry-on.",
      city=["Denver", "Miami", "Seattle", "Chicago"]),
    T("My landlord hasn't returned my security deposit and it's been {n} days since I moved out. I'm in {state}. What can I do?",
      "It's been {n} days since I moved out of my apartment in {state} and my landlord still hasn't given back my security deposit. What are my options?",
      n=["45", "60", "50"], state=STATES),
    T("How do I remove duplicate rows in Excel based on column {c}?",
      "In Excel, how can I delete rows that have duplicate values in column {c}?",
      c=["A", "B", "C", "D"]),
    T("My {car} is making a squealing noise when I brake. What could it be?",
      "What could cause a squealing sound when I brake in my {car}?",
      car=CARS),
    T("I'm {age} and want to start running. Can you give me a beginner plan to get to a 5K in {w} weeks?",
      "Can you give me a beginner plan to work up to a 5K in {w} weeks? I'm {age} and want to start running.",
      age=["35", "42", "50", "28"], w=["8", "10", "12"]),
    T("My cat keeps scratching the {f} even though she has a scratching post. How do I get her to stop?",
      "How do I stop my cat from scratching the {f}? She has a scratching post but still goes for it.",
      f=["couch", "armchair", "carpet on the stairs"]),
    T("Write a polite email to my {rec} asking to move our {mtg} from Tuesday to Thursday.",
      "Can you write a polite email asking my {rec} if we can move our {mtg} from Tuesday to Thursday?",
      rec=["manager", "professor", "client"], mtg=["one-on-one", "meeting", "call"]),
    T("In Python, how do I read {file} into a list of dictionaries?",
      "How can I load {file} in Python so that each row becomes a dictionary in a list?",
      file=["a CSV file", "sales.csv", "data.csv"]),
    T("I'm making {d.0} for {n} people. How much {d.1} should I buy?",
      "How much {d.1} do I need to buy to make {d.0} for {n} people?",
      d=[("spaghetti bolognese", "ground beef"), ("tacos", "ground beef"),
         ("risotto", "arborio rice"), ("chili", "ground beef")],
      n=["6", "8", "10"]),
    T("Is it safe to leave my {pet} alone for a weekend if I leave out enough food and water?",
      "If I leave out enough food and water, is it safe for my {pet} to be alone for a weekend?",
      pet=["cat", "adult cat", "two cats"]),
    T("My toddler is {age} months old and still not talking. Should I be worried?",
      "Should I be worried that my {age}-month-old toddler isn't talking yet?",
      age=["18", "20", "24"]),
    T("What's a good way to pay down {amt} of credit card debt on a {sal} salary?",
      "I have {amt} in credit card debt and earn a {sal} salary. What's a good way to pay it down?",
      amt=["$8,000", "$12,000", "$5,500"], sal=["$55,000", "$70,000"]),
]

PLEASANTRIES = [
    T("How long should I boil {x} eggs for {y} yolks?",
      "Hi! Quick question: how long should I boil {x} eggs for {y} yolks? Thanks so much.",
      x=["large", "medium"], y=["runny", "jammy", "firm"]),
    T("What's the difference between {p.0} and {p.1}?",
      "Sorry if this is a dumb question, but what's the difference between {p.0} and {p.1}?",
      p=[("a W-2", "a 1099"), ("an HSA", "an FSA"), ("a Roth IRA", "a traditional IRA"),
         ("a credit union", "a bank")]),
    T("How do I unclog a {drain} without calling a plumber?",
      "Hey there, hoping you can help. How do I unclog a {drain} without calling a plumber? Thanks in advance!",
      drain=["bathroom sink", "kitchen sink", "shower drain", "bathtub drain"]),
    T("Can you fix the grammar in this sentence: '{s}'",
      "Good morning! Could you please fix the grammar in this sentence for me: '{s}' Thank you!",
      s=["Me and him was going to the store yesterday.", "Their going to announce the results tomorrow.",
         "Each of the students have a locker.", "She don't know where the files is."]),
    T("How do I {task} in Google Sheets?",
      "Quick one: how do I {task} in Google Sheets? Appreciate it.",
      task=["add a dropdown list to a cell", "highlight duplicate values", "wrap text in a column",
            "protect a range so others can't edit it"]),
    T("What internal temperature should I cook {meat} to?",
      "Hello! I hope you're having a good day. What internal temperature should I cook {meat} to?",
      meat=["chicken thighs", "pork chops", "ground beef", "a turkey"]),
    T("How often should I {task}?",
      "Random question, no rush: how often should I {task}?",
      task=["change the furnace filter in my house", "replace my toothbrush", "rotate my car's tires",
            "clean my dog's ears"]),
    T("My {kid} has a fever of 102°F. When should I take him to the doctor?",
      "Sorry to bother you, I'm a bit worried. My {kid} has a fever of 102°F. When should I take him to the doctor?",
      kid=["4-year-old son", "6-year-old son", "toddler son"]),
    T("Write a two-sentence thank-you note to my {who} for the {gift}.",
      "Hi, could you help me out? Write a two-sentence thank-you note to my {who} for the {gift}. Thanks!",
      who=["aunt", "neighbor", "coworkers"], gift=["birthday gift card", "homemade lasagna", "flowers"]),
    T("What does {term} mean in my lease?",
      "This might be a silly question, but what does {term} mean in my lease?",
      term=["'joint and several liability'", "'holdover tenant'", "'quiet enjoyment'", "'sublet'"]),
]

INFORMAL = [
    T("how do i get my {a.0} to stop biting other kids at daycare",
      "How can I get my {a.1} to stop biting other children at daycare?",
      a=[("2 yr old", "two-year-old"), ("3yo", "three-year-old"), ("toddler", "toddler")]),
    T("whats the best way to get rid of {pest} in my kitchen",
      "What is the best way to get rid of {pest} in my kitchen?",
      pest=["fruit flies", "ants", "gnats", "mice"]),
    T("can u explain what {t.0} means on a credit card lol",
      "Could you explain what {t.1} means on a credit card?",
      t=[("apr", "APR"), ("min payment", "minimum payment"), ("grace period", "grace period")]),
    T("my landlord wont fix the heat and its freezing. im in {state}, what can i do",
      "My landlord will not fix the heating and it is freezing. I live in {state}. What can I do?",
      state=STATES),
    T("need a formula to sum col B if col A says {w}",
      "I need a formula that sums column B where column A says \"{w}\".",
      w=["paid", "yes", "Rent", "Q1"]),
    T("is it ok to give my dog {f}",
      "Is it safe to give my dog {f}?",
      f=["peanut butter", "cheese", "cooked rice", "bananas"]),
    T("python how to {t.0}",
      "In Python, how do I {t.1}?",
      t=[("check if a key is in a dict", "check whether a key exists in a dictionary"),
         ("merge two dicts", "merge two dictionaries"),
         ("get the last item of a list", "get the last element of a list"),
         ("remove dupes from a list", "remove duplicates from a list")]),
    T("car shakes when i go over {s} on the highway, whats wrong",
      "My car shakes when I drive over {s} mph on the highway. What could be wrong?",
      s=["55", "60", "65", "70"]),
    T("pls make this sound more professional: '{s.0}'",
      "Please rewrite this so it sounds more professional: '{s.0}'",
      s=[("cant make it today, will send stuff tmrw",), ("running late, start w/o me",),
         ("got ur email, will look at it later",)]),
    T("hw help: whats the difference between {c.0} and {c.1}",
      "Homework help: what is the difference between {c.0} and {c.1}?",
      c=[("mitosis", "meiosis"), ("weather", "climate"), ("speed", "velocity"),
         ("a simile", "a metaphor")]),
]

SYNONYM = [
    T("How do I get rid of {stain} on my {fabric}?",
      "How do I remove {stain} from my {fabric}?",
      stain=["a red wine stain", "a grease stain", "a coffee stain"],
      fabric=["carpet", "cotton shirt", "couch cushion"]),
    T("What's a good gift for my dad, who loves {h}?",
      "What's a nice present for my father, who loves {h}?",
      h=["fishing", "gardening", "golf", "grilling"]),
    T("My {dev} is running really slow. How can I speed it up?",
      "My {dev} is really sluggish. How can I make it faster?",
      dev=["laptop", "old iPhone", "Windows PC"]),
    T("Is it normal for my {age} puppy to sleep {h} hours a day?",
      "Is it typical for my {age} puppy to sleep {h} hours a day?",
      age=["10-week-old", "3-month-old"], h=["18", "20", "16"]),
    T("How can I quickly thaw frozen {x}?",
      "What's a fast way to defrost frozen {x}?",
      x=["chicken breasts", "ground beef", "shrimp"]),
    T("What's the cheapest way to ship a {item} across the country?",
      "What's the least expensive way to send a {item} across the country?",
      item=["box of books", "bike", "small package"]),
    T("I'm nervous about my {event} tomorrow. Any tips to calm down?",
      "I'm anxious about my {event} tomorrow. Any tips to relax?",
      event=["job interview", "driving test", "presentation at work"]),
    T("How do I bring up {topic} with my {kid}?",
      "How do I raise the subject of {topic} with my {kid}?",
      topic=["money", "puberty", "our divorce"], kid=["teenager", "10-year-old"]),
]

EXPLAIN = [
    T("Can you explain {c}?",
      "What is {c}?",
      c=["compound interest", "an escrow account", "a credit freeze", "a 401(k) match"]),
    T("Explain how {p} works.",
      "I'd like to know how {p} works.",
      p=["a heat pump", "a reverse mortgage", "a VPN", "sourdough fermentation"]),
    T("Tell me what {c} means.",
      "What does {c} mean?",
      c=["'net 30' on an invoice", "'amortization'", "'EBITDA'", "'escrow'"]),
    T("Can you explain the difference between {p.0} and {p.1}?",
      "What's the difference between {p.0} and {p.1}?",
      p=[("baking soda", "baking powder"), ("a will", "a living trust"),
         ("let", "const in JavaScript"), ("a copay", "a deductible")]),
    T("What is {x.0} in {x.1}?",
      "Could you explain what {x.0} is in {x.1}?",
      x=[("a list comprehension", "Python"), ("a closure", "JavaScript"),
         ("a pivot table", "Excel"), ("a decorator", "Python")]),
    T("I'd like to know why {x}.",
      "Explain why {x}.",
      x=["bread goes stale", "my car battery dies faster in cold weather",
         "interest rates affect house prices", "onions make you cry"]),
    T("can u explain what {c} is",
      "What is {c}?",
      c=["a HELOC", "dollar-cost averaging", "a sinking fund", "a FICO score"]),
    T("How does {p} work?",
      "Can you explain how {p} works?",
      p=["a tankless water heater", "a Roth conversion", "git rebase", "a 529 plan"]),
]

NEAR_MISS = [
    ("situation_detail_changed", SITUATION),
    ("who_does_what", WHO),
    ("order_or_timing", ORDER),
    ("modality_or_certainty", MODALITY),
    ("negation_or_exception", NEGATION),
    ("opposite_or_antonym", OPPOSITE),
    ("quantity_or_number", QUANTITY),
    ("time_frame_or_tense", TIME),
    ("requested_output_changed", OUTPUT),
    ("code_or_formula_changed", CODE),
    ("comparison_direction", COMPARISON),
    ("question_target", TARGET),
]
NEAR_MISS_SIZE = 16

POSITIVES = [
    ("reworded_same_request", REWORDED, 30),
    ("added_pleasantries_or_filler", PLEASANTRIES, 20),
    ("informal_vs_formal", INFORMAL, 20),
    ("synonym_swap", SYNONYM, 15),
    ("explain_or_tell_me_forms", EXPLAIN, 15),
]

DESCRIPTION = (
    "Held-out semantic prompt cache evaluation set v21, written blind. text_pairs are "
    "near-misses: the query reuses most of the stored prompt's wording but needs a different "
    "answer (12 categories x 16 = 192: a changed situation detail, who does what, order or "
    "timing, modality or certainty, negation or exception, an antonym, a quantity, a time "
    "frame or tense, the requested output, a code or formula change, the direction of a "
    "comparison, or the question's target), so serving the stored answer would be a false "
    "hit. positives are true paraphrases that deserve the same answer (100: reworded requests, "
    "added pleasantries or filler, informal vs formal wording, synonym swaps, and "
    "explain/what-is/tell-me forms). Prompts imitate everyday chat-assistant messages about "
    "health, money, travel, cooking, parenting, pets, home repair, cars, tenancy and law, work, "
    "school, programming, spreadsheets and writing. Generated from templates with "
    "random.Random(212121)."
)

_PH = re.compile(r"\{([a-z_]+)(?:\.(\d))?\}")


def fill(text, chosen):
    def rep(m):
        name, idx = m.group(1), m.group(2)
        if name not in chosen:
            raise KeyError("unknown slot %r in %r" % (name, text))
        value = chosen[name]
        if idx is None:
            if not isinstance(value, str):
                raise TypeError("slot %r needs an index in %r" % (name, text))
            return value
        return value[int(idx)]
    return _PH.sub(rep, text)


def build(rng, category, templates, size, seen):
    if len(templates) < 8:
        raise ValueError("category %s has only %d templates" % (category, len(templates)))
    order = list(range(len(templates)))
    rng.shuffle(order)
    out = []
    i = 0
    while len(out) < size:
        if i > 200 * size:
            raise RuntimeError("could not fill category %s" % category)
        stored_t, query_t, slots = templates[order[i % len(order)]]
        i += 1
        chosen = {name: rng.choice(slots[name]) for name in sorted(slots)}
        a, b = fill(stored_t, chosen), fill(query_t, chosen)
        if a == b:
            continue
        key = tuple(sorted((a, b)))
        if key in seen:
            continue
        for text in (a, b):
            n = len(text.split())
            if not 4 <= n <= 70:
                raise ValueError("prompt length %d out of range: %r" % (n, text))
        seen.add(key)
        if rng.random() < 0.5:
            a, b = b, a
        out.append({"category": category, "stored": a, "query": b})
    return out


def main():
    rng = random.Random(SEED)
    seen = set()
    text_pairs = []
    for category, templates in NEAR_MISS:
        text_pairs.extend(build(rng, category, templates, NEAR_MISS_SIZE, seen))
    positives = []
    for category, templates, size in POSITIVES:
        positives.extend(build(rng, category, templates, size, seen))

    here = os.path.dirname(os.path.abspath(__file__))
    out_dir = os.path.join(here, "data")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "heldout_generated_v21.json")
    payload = {"description": DESCRIPTION, "text_pairs": text_pairs, "positives": positives}
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        json.dump(payload, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print("wrote %s: %d text_pairs (%d categories x %d), %d positives (%s)" % (
        os.path.relpath(path, here), len(text_pairs), len(NEAR_MISS), NEAR_MISS_SIZE,
        len(positives), ", ".join("%s=%d" % (c, n) for c, _, n in POSITIVES)))


if __name__ == "__main__":
    main()
