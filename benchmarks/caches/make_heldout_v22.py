"""Held-out evaluation set v22 for a semantic prompt cache (written blind).

A semantic prompt cache may answer a new chat prompt with the stored answer of
an earlier prompt when both mean the same thing. This generator writes:

* text_pairs: 160 NEAR-MISS pairs (mostly the same wording, different right
  answer), all about WHO does what to whom. 8 categories x 20 pairs:
  who_owes_or_pays, giver_and_receiver, whose_thing, who_the_question_is_about,
  actor_and_target, perspective_in_context, passive_voice_swaps,
  pronoun_referent. Serving one side's answer to the other is a false hit.
* positives: 80 TRUE PARAPHRASES that keep every person and role. 4 categories
  x 20 pairs: role_kept_in_other_voice, reordered_context, reworded_question,
  pleasantries_added.

Seed: random.Random(222222); output is deterministic. Standard library only.
Written blind, without reading the project's other data sets, tests or code.
Output: data/heldout_generated_v22.json next to this file.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import json
import os
import random
import string

RNG = random.Random(222222)

WORDS = {
    "rel": ["sister", "brother", "mum", "dad", "cousin", "best friend", "roommate",
            "uncle", "aunt", "coworker", "flatmate", "girlfriend", "boyfriend",
            "brother-in-law", "sister-in-law", "grandad"],
    "amt": ["$50", "$200", "£80", "$1,500", "€300", "$40", "$750", "£2,000",
            "$120", "€60", "$3,000", "£450"],
    "item": ["bike", "laptop", "camera", "guitar", "phone", "sofa", "car",
             "watch", "tent", "drone", "games console", "sewing machine"],
    "device": ["laptop", "phone", "tablet", "camera", "headphones", "smartwatch"],
    "acct": ["Instagram", "Facebook", "email", "Netflix", "PayPal", "TikTok"],
    "app": ["Venmo", "PayPal", "Zelle", "my banking app", "Cash App", "Revolut"],
    "job": ["kitchen tiling", "website redesign", "wedding photos", "roof repair",
            "logo design", "garden clearance"],
    "food": ["grapes", "chocolate", "raw honey", "whole peanuts", "onions",
             "popcorn", "avocado", "blue cheese", "sushi", "raw cookie dough"],
    "eater": ["my toddler", "my dog", "my cat", "my 8-month-old", "my pregnant wife",
              "my parrot"],
    "med": ["ibuprofen", "paracetamol", "Benadryl", "melatonin", "aspirin",
            "Zyrtec"],
    "age": ["3", "5", "7", "10", "12"],
    "months": ["4", "6", "9", "10"],
    "country": ["Canada", "Japan", "Brazil", "the US", "Australia", "India",
                "Turkey", "Kenya"],
    "nat": ["Nigerian", "Indian", "Brazilian", "Filipino", "Mexican", "Chinese"],
    "weeks": ["3", "6", "8", "12"],
    "hours": ["6", "7", "9", "10", "12"],
    "pethours": ["14", "16", "18", "20"],
    "pet": ["cat", "dog", "rabbit", "hamster"],
    "sin": ["making sexist jokes", "taking credit for work", "being late all the time",
            "drinking at lunch", "sharing confidential files", "bullying an intern"],
    "vehicle": ["taxi", "delivery van", "bus", "pickup truck", "Tesla", "learner driver"],
    "biz": ["bakery", "garage", "cleaning company", "dental practice", "café"],
    "fname": ["Priya", "Sarah", "Maria", "Aisha", "Emma", "Chloe", "Nadia"],
    "mname": ["Tom", "Raj", "Luis", "Ben", "Omar", "Jack", "Daniel"],
    "city1": ["Leeds", "Glasgow", "Cardiff", "Bristol", "Norwich"],
    "city2": ["Malaga", "Dublin", "Aberdeen", "Lisbon", "Inverness"],
    "event": ["wedding", "graduation", "baby shower", "50th birthday party",
              "housewarming"],
    "n": ["20", "35", "40", "60"],
}

NEAR_MISS = {
    "who_owes_or_pays": [
        ("I owe my {rel} {amt} from last month. How should I bring up paying it back?",
         "My {rel} owes me {amt} from last month. How should I bring up paying it back?"),
        ("My landlord owes me {amt}. Can this go to small claims court?",
         "I owe my landlord {amt}. Can this go to small claims court?"),
        ("Should I charge my {rel} interest on the {amt} they owe me?",
         "Should my {rel} charge me interest on the {amt} I owe them?"),
        ("The contractor I work under hasn't paid me {amt} for the {job}. What are my options?",
         "I haven't paid the contractor who works under me {amt} for the {job}. What are my options?"),
        ("I pay my {rel} {amt} a month in rent for their spare room. Do I need to declare it on my taxes?",
         "My {rel} pays me {amt} a month in rent for my spare room. Do I need to declare it on my taxes?"),
        ("My ex owes me {amt} in child support arrears. what happens if the payments keep getting missed?",
         "I owe my ex {amt} in child support arrears. what happens if the payments keep getting missed?"),
        ("My business partner owes me {amt} from the sale. Can it be taken out of the profit share?",
         "I owe my business partner {amt} from the sale. Can it be taken out of the profit share?"),
        ("My {rel} owed me {amt} and passed away last month. How does that work with the estate?",
         "I owed my {rel} {amt} and they passed away last month. How does that work with the estate?"),
        ("My employer overpaid me {amt} in my last paycheck. Do I have to sort it out?",
         "I overpaid my employee {amt} in their last paycheck. Do I have to sort it out?"),
        ("my tenant owes me 2 months rent ({amt}). what can legally happen now",
         "i owe my landlord 2 months rent ({amt}). what can legally happen now"),
    ],
    "giver_and_receiver": [
        ("I lent my {rel} {amt} last year and nothing's been said since. What's the polite way to settle it?",
         "My {rel} lent me {amt} last year and nothing's been said since. What's the polite way to settle it?"),
        ("I sold my {item} to my {rel} for {amt}. Do I need to report it for tax?",
         "My {rel} sold me their {item} for {amt}. Do I need to report it for tax?"),
        ("I sent {amt} to a stranger by mistake on {app}. What should I do?",
         "A stranger sent {amt} to me by mistake on {app}. What should I do?"),
        ("I gave my {rel} my old {item} and now it's broken. Am I responsible for fixing it?",
         "My {rel} gave me their old {item} and now it's broken. Am I responsible for fixing it?"),
        ("I bought a {item} from my {rel} and it broke after a week. Should there be a refund?",
         "My {rel} bought a {item} from me and it broke after a week. Should there be a refund?"),
        ("I borrowed my {rel}'s {item} and lost it. How much should be paid back?",
         "My {rel} borrowed my {item} and lost it. How much should be paid back?"),
        ("A parcel addressed to my neighbour was delivered to me. What am I supposed to do?",
         "A parcel addressed to me was delivered to my neighbour. What am I supposed to do?"),
        ("I signed my car over to my {rel} last week. Who needs to insure it now?",
         "My {rel} signed their car over to me last week. Who needs to insure it now?"),
        ("I got {amt} from my {rel} as a gift towards a house deposit. Does the lender need a gift letter from me?",
         "My {rel} got {amt} from me as a gift towards a house deposit. Does the lender need a gift letter from me?"),
        ("I returned the {item} to the seller but got no refund. how do i chase it",
         "the buyer returned the {item} to me but wants a refund. how do i chase it"),
    ],
    "whose_thing": [
        ("I crashed my {rel}'s car yesterday. Will my insurance cover the damage?",
         "I crashed my car yesterday. Will my insurance cover the damage?"),
        ("Someone hacked my {rel}'s {acct} account. How do I get it back?",
         "Someone hacked my {acct} account. How do I get it back?"),
        ("Our dog keeps barking all night. What can we do about it?",
         "The neighbour's dog keeps barking all night. What can we do about it?"),
        ("My {device} was stolen from my {rel}'s car. Whose insurance do I claim on?",
         "My {rel}'s {device} was stolen from my car. Whose insurance do I claim on?"),
        ("My neighbour's tree fell on my fence in the storm. Who pays for the repair?",
         "My tree fell on my neighbour's fence in the storm. Who pays for the repair?"),
        ("The neighbour's {pet} got into our garden and ate some lilies. What should we do?",
         "Our {pet} got into the neighbour's garden and ate some lilies. What should we do?"),
        ("I accidentally deleted my photos from my {rel}'s laptop. Can I get them back?",
         "I accidentally deleted my {rel}'s photos from my laptop. Can I get them back?"),
        ("Our company's website got hacked last night and customer emails leaked. Do we have to tell anyone?",
         "Our client's website got hacked last night and customer emails leaked. Do we have to tell anyone?"),
        ("I'm staying at my {rel}'s flat and the boiler broke. Who's supposed to call the repair guy?",
         "My {rel} is staying at my flat and the boiler broke. Who's supposed to call the repair guy?"),
        ("My {rel}'s name is on the lease, not mine. can i be evicted?",
         "My name is on the lease, not my {rel}'s. can i be evicted?"),
    ],
    "who_the_question_is_about": [
        ("We've got {food} at the picnic tomorrow. Is it safe for me to eat some?",
         "We've got {food} at the picnic tomorrow. Is it safe for {eater} to eat some?"),
        ("I've had a headache all day. How much {med} can I take in 24 hours?",
         "My kid's had a headache all day. How much {med} can my {age}-year-old take in 24 hours?"),
        ("Can I go into my tenant's flat without giving notice?",
         "Can my landlord come into my flat without giving notice?"),
        ("I'm British and my husband is {nat}. Do I need a visa for {country}?",
         "I'm British and my husband is {nat}. Does my husband need a visa for {country}?"),
        ("I've been off sick for {weeks} weeks. Can I be fired for it?",
         "My employee has been off sick for {weeks} weeks. Can I fire them for it?"),
        ("Is {hours} hours of sleep a night enough for me?",
         "Is {hours} hours of sleep a night enough for my {months}-month-old?"),
        ("Can I claim my {rel} as a dependent this year?",
         "Can my {rel} claim me as a dependent this year?"),
        ("Is it normal for me to sleep {pethours} hours a day?",
         "Is it normal for my {pet} to sleep {pethours} hours a day?"),
        ("Do I have to wear a seatbelt in the back of a taxi?",
         "Does my {age}-year-old have to use a car seat in the back of a taxi?"),
        ("can i get the flu jab at the pharmacy?",
         "can my {age} year old get the flu jab at the pharmacy?"),
    ],
    "actor_and_target": [
        ("My manager yelled at me in front of the whole team. How should I handle it?",
         "I yelled at my manager in front of the whole team. How should I handle it?"),
        ("The dog bit my son this afternoon. What should we do?",
         "My son bit the dog this afternoon. What should we do?"),
        ("My {rel} blocked me on everything after an argument. How do I fix things?",
         "I blocked my {rel} on everything after an argument. How do I fix things?"),
        ("My coworker reported me to HR for {sin}. What happens next?",
         "I reported my coworker to HR for {sin}. What happens next?"),
        ("My ex keeps texting me at 2am. Is this harassment?",
         "I keep texting my ex at 2am. Is this harassment?"),
        ("My tenant threatened me over the broken boiler. Is this a police matter?",
         "I threatened my tenant over the broken boiler. Is this a police matter?"),
        ("My teenager lied to me about where they were on Saturday. How do I handle it?",
         "I lied to my teenager about where I was on Saturday. How do I handle it?"),
        ("A cyclist hit my car at a junction. Who's at fault?",
         "My car hit a cyclist at a junction. Who's at fault?"),
        ("My boss fired me by text message. Is that even allowed?",
         "I fired my boss by text message. Is that even allowed?"),
        ("a {vehicle} reversed into me in the car park. what now",
         "i reversed into a {vehicle} in the car park. what now"),
    ],
    "perspective_in_context": [
        ("My {rel} broke my TV. Who should pay to replace it?",
         "I broke my {rel}'s TV. Who should pay to replace it?"),
        ("My {rel} forgot my birthday yesterday. How do I bring it up without making a big deal of it?",
         "I forgot my {rel}'s birthday yesterday. How do I bring it up without making a big deal of it?"),
        ("My {rel} read my diary. How do we get past this?",
         "I read my {rel}'s diary. How do we get past this?"),
        ("My {rel} dented my car while borrowing it. What's fair here?",
         "I dented my {rel}'s car while borrowing it. What's fair here?"),
        ("My {rel} pulled out of my {event} at the last minute. Should I say something?",
         "I pulled out of my {rel}'s {event} at the last minute. Should I say something?"),
        ("The neighbour's kid smashed our window with a football. How should we sort it out?",
         "Our kid smashed the neighbour's window with a football. How should we sort it out?"),
        ("My {rel} lost my {item} at the festival. What's the right thing to do now?",
         "I lost my {rel}'s {item} at the festival. What's the right thing to do now?"),
        ("My {rel} told the whole family my secret. What now?",
         "I told the whole family my {rel}'s secret. What now?"),
        ("My {rel} stood me up for dinner on Friday. Is it worth having a conversation about it?",
         "I stood my {rel} up for dinner on Friday. Is it worth having a conversation about it?"),
        ("my {rel} ate my leftovers from the fridge again. how do we set some rules?",
         "i ate my {rel}'s leftovers from the fridge again. how do we set some rules?"),
    ],
    "passive_voice_swaps": [
        ("I was sued by my landlord over the deposit. What should I expect in court?",
         "My landlord was sued by me over the deposit. What should I expect in court?"),
        ("The contract was signed by my {rel} but not by me. Am I bound by it?",
         "The contract was signed by me but not by my {rel}. Am I bound by it?"),
        ("I was rear-ended by a {vehicle} this morning. Whose insurance pays?",
         "A {vehicle} was rear-ended by me this morning. Whose insurance pays?"),
        ("I was replaced by my {rel} as executor of the will. Can this be challenged?",
         "My {rel} was replaced by me as executor of the will. Can this be challenged?"),
        ("The cheque was written by me to my {rel}, and it bounced. What happens now?",
         "The cheque was written by my {rel} to me, and it bounced. What happens now?"),
        ("The noise complaint was filed by my neighbour against me. What happens next?",
         "The noise complaint was filed by me against my neighbour. What happens next?"),
        ("I was hired by my {rel}'s company as a freelancer. Who handles the tax?",
         "My {rel} was hired by my company as a freelancer. Who handles the tax?"),
        ("The loan was guaranteed by me for my {rel}, and the payments have stopped. Who's liable?",
         "The loan was guaranteed by my {rel} for me, and the payments have stopped. Who's liable?"),
        ("I was outbid by my {rel} on the same house. Should I say something?",
         "My {rel} was outbid by me on the same house. Should I say something?"),
        ("I was followed home by a stranger last night. Should I report it?",
         "A stranger was followed home by me last night. Should I report it?"),
    ],
    "pronoun_referent": [
        ("My sister and her husband are splitting up. She wants me to take her side. What should I say?",
         "My sister and her husband are splitting up. He wants me to take his side. What should I say?"),
        ("My son and daughter both want the car this weekend. I told him he can have it. How do I explain it to her?",
         "My son and daughter both want the car this weekend. I told her she can have it. How do I explain it to him?"),
        ("My dad wants me to co-sign his mortgage. What are the risks?",
         "My dad wants to co-sign my mortgage. What are the risks?"),
        ("My grandson asked me to lend him {amt}. Should I?",
         "My grandson offered to lend me {amt}. Should I?"),
        ("{fname} and {mname} both applied for the team lead role. I think she's the stronger candidate. How do I tell him?",
         "{fname} and {mname} both applied for the team lead role. I think he's the stronger candidate. How do I tell her?"),
        ("My brother wants me to be his best man. How do I say no nicely?",
         "My brother wants to be my best man. How do I say no nicely?"),
        ("My mum and my stepdad both want me to visit over the holidays. She lives in {city1} and he lives in {city2}. Is it cheaper to fly or drive to see him?",
         "My mum and my stepdad both want me to visit over the holidays. He lives in {city1} and she lives in {city2}. Is it cheaper to fly or drive to see him?"),
        ("My aunt and uncle are divorcing. He's keeping the house and she's moving out. Is she entitled to half the equity?",
         "My aunt and uncle are divorcing. She's keeping the house and he's moving out. Is she entitled to half the equity?"),
        ("my coworker {mname} wants me to cover his shift on saturday. can i say no?",
         "my coworker {mname} wants to cover my shift on saturday. can i say no?"),
        ("{fname} and {mname} both use my car. She's 19 and he's 45. Is he covered on my insurance?",
         "{fname} and {mname} both use my car. He's 19 and she's 45. Is he covered on my insurance?"),
    ],
}

POSITIVE = {
    "role_kept_in_other_voice": [
        ("My {rel} gave me {amt} for my birthday. Do I have to pay tax on it?",
         "I got {amt} from my {rel} for my birthday. Do I have to pay tax on it?"),
        ("My landlord sued me over the deposit. What should I expect in court?",
         "I was sued by my landlord over the deposit. What should I expect in court?"),
        ("The dog bit my son this afternoon. What should we do?",
         "My son was bitten by the dog this afternoon. What should we do?"),
        ("My manager fired me yesterday with no warning. Is that legal?",
         "I was fired by my manager yesterday with no warning. Is that legal?"),
        ("My {rel} lent me {amt} last year. How should I go about paying it back?",
         "I borrowed {amt} from my {rel} last year. How should I go about paying it back?"),
        ("My coworker reported me to HR for {sin}. What happens next?",
         "I was reported to HR by my coworker for {sin}. What happens next?"),
        ("I sold my {item} to my {rel} for {amt}. Do I need to report it for tax?",
         "My {rel} bought my {item} from me for {amt}. Do I need to report it for tax?"),
        ("A {vehicle} hit my car at a junction. Who's at fault?",
         "My car was hit by a {vehicle} at a junction. Who's at fault?"),
    ],
    "reordered_context": [
        ("I'm {age0} and I just started running. How many days a week should I train?",
         "I just started running and I'm {age0}. How many days a week should I train?"),
        ("My {rel} owes me {amt}. It's been six months. How do I ask for it back?",
         "It's been six months since my {rel} borrowed {amt} from me. How do I ask for it back?"),
        ("I broke my {rel}'s TV. Who should pay to replace it?",
         "Who should pay to replace it? I broke my {rel}'s TV."),
        ("My {pet} is {petage} years old and has stopped eating. Should I be worried?",
         "Should I be worried? My {pet} has stopped eating, and is {petage} years old."),
        ("I'm flying to {country} next week and my {rel} is coming too. Do we need travel insurance?",
         "My {rel} and I are flying to {country} next week. Do we need travel insurance?"),
        ("My {rel} dented my car while borrowing it, and it's going to cost {amt}. What's fair here?",
         "It's going to cost {amt} to fix the dent my {rel} put in my car while borrowing it. What's fair here?"),
        ("I work nights and I have a {months}-month-old. How do I get enough sleep?",
         "I have a {months}-month-old and I work nights. How do I get enough sleep?"),
        ("How much {med} can I take in a day? I weigh about 60kg.",
         "I weigh about 60kg. How much {med} can I take in a day?"),
    ],
    "reworded_question": [
        ("My {rel} owes me {amt}. How do I ask for it back?",
         "My {rel} owes me {amt}. What's a good way to ask them to repay it?"),
        ("I crashed my {rel}'s car. Will my insurance cover it?",
         "I crashed my {rel}'s car. Does my insurance pay for the damage?"),
        ("Is it safe for {eater} to eat {food}?",
         "Can {eater} safely eat {food}?"),
        ("My tenant owes me two months' rent. How do I start an eviction?",
         "My tenant owes me two months' rent. What are the steps to evict them?"),
        ("I lent my {rel} my {item} and they lost it. How much should they pay me?",
         "I lent my {rel} my {item} and they lost it. What's a fair amount for them to reimburse me?"),
        ("The neighbour's dog barks all night. What can I do about it?",
         "The neighbour's dog barks all night. What are my options for dealing with it?"),
        ("My coworker reported me to HR for {sin}. What happens next?",
         "My coworker reported me to HR for {sin}. What should I expect now?"),
        ("My {rel} read my diary. How do we move past this?",
         "My {rel} read my diary. How can we get over it?"),
    ],
    "pleasantries_added": [
        ("{q}", "Hi there! {q} Thanks so much in advance."),
        ("{q}", "Hey, hope you're doing well. {q}"),
        ("{q}", "{q} Thank you, I really appreciate the help!"),
        ("{q}", "Good morning :) Quick question. {q} Cheers!"),
        ("{q}", "Hello! Sorry to bother you. {q} Many thanks."),
    ],
}

# Prompts (whole, with roles intact) that the pleasantries templates wrap.
PLEASANTRY_BASES = [
    "My {rel} owes me {amt} from last month. How should I bring up paying it back?",
    "I crashed my {rel}'s car yesterday. Will my insurance cover the damage?",
    "My manager yelled at me in front of the whole team. How should I handle it?",
    "I was rear-ended by a {vehicle} this morning. Whose insurance pays?",
    "Is it normal for my {pet} to sleep {pethours} hours a day?",
    "I sold my {item} to my {rel} for {amt}. Do I need to report it for tax?",
    "My neighbour's tree fell on my fence in the storm. Who pays for the repair?",
    "How much {med} can my {age}-year-old take in 24 hours?",
]

EXTRA = {"age0": ["25", "34", "41", "52", "60"], "petage": ["9", "12", "14", "15"]}


def fields(s):
    return {f for _, f, _, _ in string.Formatter().parse(s) if f}


def fill(pair, extra=None):
    vals = {}
    for f in sorted(fields(pair[0]) | fields(pair[1])):
        if extra and f in extra:
            vals[f] = extra[f]
        else:
            vals[f] = RNG.choice(WORDS.get(f) or EXTRA[f])

    def cap(s):
        s = s.format(**vals)
        return s[0].upper() + s[1:] if s[:1].islower() and not s.startswith(("i ", "my ", "a ", "can ", "the ")) else s

    return cap(pair[0]), cap(pair[1])


def build(cats, per_cat, seen, pleasantries=False):
    out = []
    for cat, templates in cats.items():
        got, i, tries = 0, 0, 0
        while got < per_cat:
            tries += 1
            if tries > 10000:
                raise RuntimeError("could not fill " + cat)
            tpl = templates[i % len(templates)]
            if pleasantries:
                q = fill((RNG.choice(PLEASANTRY_BASES), ""))[0]
                a, b = tpl[0].format(q=q), tpl[1].format(q=q)
            else:
                a, b = fill(tpl)
            key = frozenset((a, b))
            if a == b or key in seen:
                i += 1  # template exhausted or repeat: move on to the next one
                continue
            seen.add(key)
            i += 1
            got += 1
            if RNG.random() < 0.5 and not pleasantries:
                a, b = b, a
            out.append({"category": cat, "stored": a, "query": b})
    return out


def main():
    seen = set()
    text_pairs = build(NEAR_MISS, 20, seen)
    pos = {k: v for k, v in POSITIVE.items() if k != "pleasantries_added"}
    positives = build(pos, 20, seen)
    positives += build({"pleasantries_added": POSITIVE["pleasantries_added"]}, 20, seen,
                       pleasantries=True)
    data = {
        "description": ("Held-out v22 (written blind, seed 222222): 160 near-miss pairs "
                         "about who does what to whom (a cache hit would be a false hit) "
                         "and 80 true paraphrases that keep every person and role."),
        "text_pairs": text_pairs,
        "positives": positives,
    }
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "data", "heldout_generated_v22.json")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    print("wrote %s: %d text_pairs (near-miss), %d positives" % (path, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
