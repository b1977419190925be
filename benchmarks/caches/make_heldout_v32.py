"""Generate held-out evaluation set v32 for the semantic prompt cache (written blind).

Theme: messages customers send to a company's support assistant, which answers
from general policy knowledge: online orders and returns, deliveries,
subscriptions and streaming, airline and hotel bookings, banking and cards,
mobile plans, home internet, insurance claims, food delivery, ride sharing,
software licences and accounts. Messages range from one short sentence to
three or four sentences that set out the situation and then ask.

The set was written blind: every template and word list below was written from
scratch for this file, without looking at any other data set, code, test or
document of the project.

Two parts:

* ``text_pairs`` -- 200 near-miss pairs (10 categories x 20) that must NOT be
  served from the cache: the two messages share almost all words but need a
  different reply. Categories: action_swap, state_swap, actor_swap,
  time_frame, item_swap, negation, quantity_amount, direction, condition,
  channel_place.
* ``positives`` -- 160 true paraphrase pairs (8 categories x 20) that need the
  same reply, with every fact kept identical. Categories: reworded_situation,
  reordered_sentences, tone_shift, pleasantries_added, informal_typing,
  direct_vs_indirect, active_vs_passive, request_position.

Each category has at least six templates, used round-robin and filled from the
word lists below; all pairs are unique, no message text is used twice, and
stored != query. Standard library
only, deterministic with ``random.Random(323232)``.

Run from the repository root:

    python3 benchmarks/caches/make_heldout_v32.py

It writes ``benchmarks/caches/data/heldout_generated_v32.json``.
"""

import json
import os
import random
import string

SEED = 323232
PER_NEAR_MISS = 20
PER_POSITIVE = 20

OUT_PATH = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "data", "heldout_generated_v32.json"
)

# ---------------------------------------------------------------------------
# Word lists
# ---------------------------------------------------------------------------

WORDS = {
    "product": [
        "blender", "coffee maker", "desk lamp", "backpack", "kettle",
        "rice cooker", "yoga mat", "toaster", "vacuum cleaner", "winter coat",
        "bluetooth speaker", "standing fan", "printer", "hair dryer",
    ],
    "elec": [
        "blender", "coffee maker", "kettle", "toaster", "hair dryer",
        "bluetooth speaker", "desk lamp", "vacuum cleaner", "printer",
        "rice cooker",
    ],
    "sub": [
        "music streaming", "video streaming", "cloud storage", "audiobook",
        "meal kit", "premium fitness", "sports streaming", "online news",
    ],
    "city": [
        "Lisbon", "Chicago", "Madrid", "Toronto", "Athens", "Denver",
        "Dublin", "Vienna", "Seattle", "Prague", "Boston", "Oslo",
    ],
    "date": [
        "March 14", "June 3", "July 22", "October 9", "May 30",
        "December 12", "August 5", "April 18", "September 27", "November 2",
    ],
    "weekday": [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday",
        "Sunday",
    ],
    "month": [
        "January", "February", "March", "April", "May", "June", "July",
        "August", "September", "October",
    ],
    "amt": [
        "$24.99", "$59.00", "$112.40", "$38.50", "$17.99", "$249.00",
        "$76.20", "$8.45", "$64.10", "$131.75",
    ],
    "merchant": [
        "an electronics shop", "a petrol station", "a supermarket",
        "an online marketplace", "a car rental company", "a gaming website",
        "a furniture store", "a pharmacy",
    ],
    "restaurant": [
        "Luigi's Pizzeria", "Golden Wok", "Taco Corner", "Green Bowl",
        "Burger Barn", "Sushi House", "Curry Garden", "Falafel King",
    ],
    "dish": [
        "garlic bread", "portion of fries", "side salad", "chicken wrap",
        "dessert", "naan bread", "dipping sauce", "milkshake",
    ],
    "relative": [
        "my daughter", "my son", "my wife", "my husband", "my mother",
        "my brother", "my partner", "my father",
    ],
    "sibling": ["sister", "brother", "father", "mother", "cousin", "aunt"],
    "software": [
        "accounting software", "photo editor", "antivirus", "design suite",
        "video editor", "project planner", "password manager",
    ],
    "country": [
        "Spain", "Japan", "Mexico", "Canada", "Italy", "Turkey", "Thailand",
        "Brazil", "Portugal", "Morocco",
    ],
    "place": [
        "the train station", "my office", "the city centre",
        "the concert hall", "my hotel", "the stadium", "the university",
    ],
    "lostitem": ["wallet", "phone", "umbrella", "laptop bag", "keys", "scarf"],
    "name": ["Sam", "Priya", "Tom", "Elena", "Marcus", "Aisha", "Jonas", "Mei"],
    "plan": ["Unlimited", "Basic 10 GB", "Travel Plus", "Family Share", "Starter"],
    "gb": ["10", "15", "20", "30"],
    "room": ["kitchen", "bathroom", "basement", "hallway"],
    "damage": [
        "water damage in my kitchen", "a cracked windscreen",
        "a stolen bicycle", "storm damage to my roof",
        "a burst pipe in my bathroom", "a dented car door",
    ],
    "insured": ["car", "phone", "laptop", "bike", "roof"],
    "cardtype": ["debit card", "credit card"],
    "lines": ["two", "three", "four", "five"],
    "seats": ["5", "10", "20", "50"],
    "nights": ["three", "four", "five", "six"],
    "speed": ["100 Mbps", "300 Mbps", "500 Mbps"],
    "hours": ["three", "four", "five", "six"],
    "mins": ["5", "10", "15", "20"],
    "cash": ["$50", "$100", "$200", "$300"],
    "time": ["this morning", "yesterday evening", "Sunday", "last night"],
}


def _digits(rng, n):
    return "".join(rng.choice(string.digits) for _ in range(n))


GENERATED = {
    "num": lambda rng: "#" + str(rng.randint(10000, 99999)),
    "digits": lambda rng: _digits(rng, 4),
    "code": lambda rng: rng.choice(["KL", "TA", "NW", "EZ", "SV", "RA", "JB"])
    + str(rng.randint(100, 999)),
    "ref": lambda rng: "".join(
        rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6)
    ),
    "claimno": lambda rng: "CL-" + _digits(rng, 6),
    "acct": lambda rng: _digits(rng, 8),
}

# ---------------------------------------------------------------------------
# Near-miss templates: "t" is the text; {A} (and {B}) are replaced by one side
# of an alternative pair. The remaining {slots} are filled from WORDS with the
# same value on both sides, so only the alternative differs.
# ---------------------------------------------------------------------------


def _swap(pairs):
    """Direction alternatives: (x, y) on one side and (y, x) on the other."""
    return [((x, y), (y, x)) for x, y in pairs]


NEAR_MISS = {
    "action_swap": [
        {"t": "I've had my {sub} subscription since {month}. I'm travelling "
              "for the next two months, so I'd like to {A} it. How do I do that in the app?",
         "alts": [("cancel", "pause")]},
        {"t": "Order {num} arrived on {weekday} and the {product} is fine, it's just not "
              "what I expected. I'd like to {A}. What are the steps?",
         "alts": [("return it for a refund", "exchange it for a different model"),
                  ("return it for a refund", "swap it for store credit")]},
        {"t": "I can't find my {cardtype} ending in {digits}; I think I left it at a "
              "restaurant last night. I want to {A} the card. Can I do that in the app?",
         "alts": [("temporarily freeze", "permanently close")]},
        {"t": "We have {lines} lines on our family mobile plan. How do I {A} "
              "{relative}?",
         "alts": [("add a new line for", "remove the line for")]},
        {"t": "I've booked a flight to {city} on {date}, booking reference {ref}. I need "
              "to {A} the booking. What fees will I pay?",
         "alts": [("change the date of", "cancel")]},
        {"t": "I have a reservation at your {city} hotel for {nights} nights starting "
              "{date}. Is it possible to {A}?",
         "alts": [("extend my stay by one night", "shorten my stay by one night")]},
        {"t": "I'm on your {speed} home internet plan right now. How do I {A}?",
         "alts": [("upgrade to a faster plan", "downgrade to a slower plan")]},
        {"t": "I filed claim {claimno} last week for {damage}. I want to {A}. "
              "How does that work?",
         "alts": [("add more photos to it", "withdraw it")]},
        {"t": "We have a {seats}-seat licence for your {software}. One colleague has just "
              "left the company. How do I {A}?",
         "alts": [("transfer their seat to a new hire", "cancel their seat")]},
        {"t": "I scheduled a transfer of {amt} to my landlord for {date}. Can I {A} "
              "before it goes out?",
         "alts": [("cancel it", "change the amount")]},
    ],
    "state_swap": [
        {"t": "My order {num} with a {product} {A}. Tracking says it was delivered on "
              "{weekday}. What can you do for me?",
         "alts": [("arrived damaged", "never arrived")]},
        {"t": "Looking at my bank statement, my {sub} renewal on {date} {A}. "
              "What should I do?",
         "alts": [("was charged twice", "was never charged")]},
        {"t": "I'd like to cancel order {num} for a {product}. It {A}. Can I still get "
              "my money back?",
         "alts": [("hasn't shipped yet", "has already shipped")]},
        {"t": "My free trial of your {sub} service {A}. If I cancel today, will I be "
              "charged anything?",
         "alts": [("ends in three days", "ended three days ago")]},
        {"t": "My checked suitcase on flight {code} from {city} {A}. What should I do?",
         "alts": [("arrived with a broken handle", "didn't arrive at all")]},
        {"t": "Since {time} my home internet {A}. I've already restarted the router "
              "twice. What's the next step?",
         "alts": [("is completely down", "works but is very slow")]},
        {"t": "My order from {restaurant} tonight {A}, even though the app says it was "
              "delivered. Can I get a refund?",
         "alts": [("was missing the {dish}", "never showed up")]},
        {"t": "My car {A} outside my house on {date}. I have third-party, fire and theft "
              "cover with you. Does my policy pay for this?",
         "alts": [("was stolen from", "was damaged by hail")]},
    ],
    "actor_swap": [
        {"t": "There's a charge of {amt} at {merchant} on my card from {weekday}. It "
              "turns out {A}. Can I dispute it?",
         "alts": [("my partner used my card without asking me",
                   "someone I don't know used my card"),
                  ("my teenage son used my card without asking me",
                   "a stranger used my card")]},
        {"t": "My {sub} subscription was cancelled on {date}. {A}. How do I get it back?",
         "alts": [("I cancelled it myself by mistake",
                   "You cancelled it without any warning")]},
        {"t": "{A} my flight to {city} on {date}. Am I entitled to a full refund?",
         "alts": [("I cancelled", "You cancelled")]},
        {"t": "{A} my reservation at your {city} hotel for {date}. Will I get my "
              "deposit of {amt} back?",
         "alts": [("I cancelled", "You cancelled")]},
        {"t": "{A} after I'd been waiting {mins} minutes, and I was charged a "
              "cancellation fee. Is that right?",
         "alts": [("I cancelled the ride", "The driver cancelled the ride")]},
        {"t": "{A} my food order {num} from {restaurant} about ten minutes after I "
              "placed it. Do I get a full refund?",
         "alts": [("I cancelled", "The restaurant cancelled")]},
        {"t": "My {software} account got locked this morning because {A}. "
              "How do I get back in?",
         "alts": [("I typed the wrong password too many times",
                   "someone else tried to log in from another country")]},
        {"t": "The tracking for order {num} says the parcel was signed for by {A} on "
              "{weekday}. What should I do?",
         "alts": [("my neighbour", "someone I don't know")]},
    ],
    "time_frame": [
        {"t": "I bought a {product} from your website {A} and haven't used it. Can I "
              "still return it for a full refund?",
         "alts": [("10 days ago", "45 days ago"), ("last week", "three months ago")]},
        {"t": "I booked a flight to {city} {A} and now I need to cancel it. Will I get "
              "a full refund?",
         "alts": [("two hours ago", "three weeks ago")]},
        {"t": "Can I cancel my booking at your {city} hotel {A} without paying anything?",
         "alts": [("a week before check-in", "on the day of check-in")]},
        {"t": "I noticed a card transaction of {amt} from {A} that I don't recognise. "
              "Can I still dispute it?",
         "alts": [("yesterday", "last year")]},
        {"t": "My {insured} was damaged {A} and I haven't reported it yet. Can I still "
              "file a claim?",
         "alts": [("yesterday", "eight months ago")]},
        {"t": "I was charged for the annual renewal of my {sub} subscription {A}. If I "
              "cancel now, can I get a refund?",
         "alts": [("this morning", "two months ago")]},
        {"t": "I signed a 24-month contract on the {plan} mobile plan {A}. What would "
              "it cost to cancel now?",
         "alts": [("five days ago", "a year ago")]},
        {"t": "My food order from {restaurant} was delivered {A} and the {dish} was "
              "missing. Can I still report it?",
         "alts": [("ten minutes ago", "three days ago")]},
    ],
    "item_swap": [
        {"t": "I'm moving to {country} next month, so I want to close my {A} with your "
              "bank. What do I need to do?",
         "alts": [("credit card account", "savings account"),
                  ("credit card account", "mortgage account")]},
        {"t": "My {A} is a bit over the weight limit for my flight to {city} on {date}. "
              "How much extra will I have to pay?",
         "alts": [("checked bag", "carry-on bag")]},
        {"t": "If I cancel the {A} of your {sub} service now, do I get any money back?",
         "alts": [("annual plan", "monthly plan")]},
        {"t": "I have a {A} worth {amt} from you that expired last month. Can I still "
              "use it?",
         "alts": [("gift card", "promotional voucher")]},
        {"t": "Does my {A} insurance with you cover flood damage from the storm on {date}?",
         "alts": [("home", "car")]},
        {"t": "I forgot the {A} for my {software} account. How do I recover it?",
         "alts": [("password", "username"),
                  ("password", "email address I signed up with")]},
        {"t": "Can I add {A} to my booking at your {city} hotel for {date}?",
         "alts": [("breakfast", "an extra bed")]},
        {"t": "I placed food order {num} with {restaurant} a few minutes ago. Can I "
              "still change the {A}?",
         "alts": [("delivery address", "payment method")]},
    ],
    "negation": [
        {"t": "There's a charge of {amt} from {merchant} on my card from {weekday}. "
              "I {A}. Can I get it reversed?",
         "alts": [("did authorise it at the time", "never authorised it")]},
        {"t": "I'd like to return the {product} from order {num}. The box {A} been "
              "opened. Will I get a full refund?",
         "alts": [("has", "hasn't")]},
        {"t": "I lost a gift card worth {amt}, and {A}. Can you replace it?",
         "alts": [("someone has already spent the balance",
                   "the balance hasn't been spent yet")]},
        {"t": "I {A} travel insurance when I booked my flight to {city}, and now I'm "
              "ill and can't travel. Can I get my money back?",
         "alts": [("bought", "didn't buy")]},
        {"t": "My home internet has been down since {weekday}. I {A} restarted the "
              "router. What should I do?",
         "alts": [("have already", "haven't")]},
        {"t": "I {A} my {sub} subscription this month and I was charged {amt}. "
              "Can I get that refunded?",
         "alts": [("did use", "didn't use")]},
        {"t": "I {A} the accident on {date} to the police. Can I still claim for the "
              "damage to my car?",
         "alts": [("reported", "didn't report")]},
        {"t": "My booking at your {city} hotel for {date} is {A}. If I cancel now, do "
              "I get my money back?",
         "alts": [("refundable", "non-refundable")]},
    ],
    "quantity_amount": [
        {"t": "Your website says delivery is free on orders over $50. I'm buying a "
              "{product} and my basket comes to {A}. Will I pay for delivery?",
         "alts": [("$62", "$38"), ("$75.40", "$44.90")]},
        {"t": "Order {num} hasn't shipped yet. Can I cancel {A}?",
         "alts": [("just one of the items in it", "the whole order")]},
        {"t": "I have a {nights}-night booking at your {city} hotel from {date}. If I "
              "cancel {A}, will I be charged?",
         "alts": [("just the last night", "the whole stay")]},
        {"t": "My mobile plan includes 5 GB of roaming data. I used {A} while I was in "
              "{country} last week. Will I pay anything extra?",
         "alts": [("2 GB", "12 GB"), ("3 GB", "9 GB")]},
        {"t": "I want to send {A} to my {sibling} abroad. Can I do it in the app today?",
         "alts": [("$500", "$25,000"), ("$300", "$40,000")]},
        {"t": "I'm flying economy to {city} on {date} with a 23 kg checked bag "
              "allowance. My suitcase weighs {A}. Will I have to pay extra?",
         "alts": [("21 kg", "29 kg"), ("19 kg", "31 kg")]},
        {"t": "Your team plan for the {software} covers up to 10 users. We need "
              "licences for {A} people. Is the team plan enough for us?",
         "alts": [("6", "25"), ("8", "14")]},
        {"t": "Can I book one ride for {A} people from {place} to the airport?",
         "alts": [("3", "7"), ("4", "9")]},
    ],
    "direction": [
        {"t": "Can you move my booking at your {city} hotel from {A} to {B}?",
         "alts": _swap([("Friday", "Monday"), ("Tuesday", "Thursday"),
                        ("Saturday", "Wednesday")])},
        {"t": "Please transfer {amt} from my {A} account to my {B} account today.",
         "alts": _swap([("savings", "checking")])},
        {"t": "I'm on the {A} plan of your {sub} service. How do I switch to the {B} "
              "plan, and what happens to what I've already paid?",
         "alts": _swap([("monthly", "annual")])},
        {"t": "I'd like to move my mobile number ending in {digits} from {A} to {B}. Will I keep the "
              "same number?",
         "alts": _swap([("prepaid", "a monthly contract")])},
        {"t": "Roughly how much does a ride from {A} to {B} cost on a weekday evening?",
         "alts": _swap([("the airport", "the city centre"),
                        ("the airport", "the train station")])},
        {"t": "How do I move my {software} licence from my {A} account to my {B} "
              "account?",
         "alts": _swap([("personal", "work")])},
        {"t": "Can you redirect parcel {num} from my {A} address to my {B} address?",
         "alts": _swap([("home", "work")])},
        {"t": "How much would I get if I convert 500 {A} to {B} in the app today?",
         "alts": _swap([("euros", "dollars"), ("pounds", "euros")])},
    ],
    "condition": [
        {"t": "What compensation do I get if my flight to {city} tomorrow is {A}?",
         "alts": [("delayed by three hours", "cancelled")]},
        {"t": "The {product} I ordered arrived with a scratch on the side. If I {A} "
              "it, what refund can I get?",
         "alts": [("return", "keep")]},
        {"t": "My credit card bill for {month} has just come in. If I pay {A}, will I "
              "be charged interest?",
         "alts": [("the full balance", "only the minimum payment")]},
        {"t": "Will my car insurance premium go up if I claim for the accident on "
              "{date}? It {A} my fault.",
         "alts": [("was", "wasn't")]},
        {"t": "I'm staying at your {city} hotel on {date}. If I arrive {A}, can I "
              "still check in?",
         "alts": [("after midnight", "before 10 am")]},
        {"t": "I'm moving house in {month}. If my new address is {A} your coverage "
              "area, can I take my internet contract with me?",
         "alts": [("inside", "outside")]},
        {"t": "Do I have to pay for return shipping if I send back the {product} "
              "because {A}?",
         "alts": [("it's faulty", "I changed my mind")]},
        {"t": "I'm on the {plan} plan with a 24-month contract. If I leave {A} the "
              "minimum term, do I have to pay anything?",
         "alts": [("before the end of", "after the end of")]},
    ],
    "channel_place": [
        {"t": "I bought a {product} {A} last week. Can I return it by post?",
         "alts": [("in one of your stores", "on your website")]},
        {"t": "I booked a room at your {city} hotel for {date} {A}. Can you change the "
              "dates for me?",
         "alts": [("directly on your website", "through a travel booking site")]},
        {"t": "I'm flying to {city} on {date}. How much does an extra checked bag cost "
              "if I buy it {A}?",
         "alts": [("at the airport", "in the app")]},
        {"t": "Can I withdraw {cash} in cash with my debit card {A} without paying a fee?",
         "alts": [("at your own ATMs", "at other banks' ATMs")]},
        {"t": "I bought my phone {A} in {month}. Can you unlock it so it works on other networks?",
         "alts": [("from you", "from another shop")]},
        {"t": "I subscribed to your {sub} service {A}. How do I cancel it?",
         "alts": [("through the app store on my phone", "on your website")]},
        {"t": "I bought my {software} licence {A}. Can I get a refund from you directly?",
         "alts": [("on your website", "from a reseller")]},
        {"t": "My parcel from order {num} was left {A}. How do I collect it?",
         "alts": [("at the post office", "in a parcel locker")]},
    ],
}

# ---------------------------------------------------------------------------
# Positive templates: "s" and "q" carry the same facts; slots are shared.
# "lower": the query is typed in lower case.
# ---------------------------------------------------------------------------

POSITIVE = {
    "reworded_situation": [
        {"s": "I ordered a {product} on {weekday} (order {num}) and it still hasn't "
              "arrived. Where is it?",
         "q": "Order {num}: the {product} I bought on {weekday} hasn't been delivered "
              "yet. Where is it?"},
        {"s": "I lost my debit card ending in {digits} this morning. How do I block it?",
         "q": "My debit card ending in {digits} went missing this morning. How can I "
              "block it?"},
        {"s": "My flight {code} to {city} on {date} was cancelled. How do I get my "
              "money back?",
         "q": "Flight {code} to {city} on {date}, which I was booked on, has been "
              "cancelled. How can I get a refund?"},
        {"s": "I want to stop my {sub} subscription before it renews on {date}. How do "
              "I do that?",
         "q": "How do I end my {sub} subscription so that it doesn't renew on {date}?"},
        {"s": "Since {weekday} my wifi keeps dropping every few minutes. How can I fix it?",
         "q": "My internet connection has been cutting out every few minutes since "
              "{weekday}. How do I fix it?"},
        {"s": "Someone drove into my car while it was parked on {date}. How do I make "
              "a claim?",
         "q": "My parked car was hit by another driver on {date}. What do I do to file "
              "a claim?"},
        {"s": "My order from {restaurant} arrived but the {dish} wasn't in the bag. Can "
              "I get a refund for it?",
         "q": "I got my {restaurant} order and the {dish} was missing from it. Can I be "
              "refunded for that item?"},
        {"s": "I paid for a room at your {city} hotel for {date}, but I can't go "
              "anymore. Can I get the money back?",
         "q": "I can no longer make my stay at your {city} hotel on {date}, which I've "
              "already paid for. Can I get the money back?"},
    ],
    "reordered_sentences": [
        {"s": "I ordered a {elec} on {date}. It arrived today and won't switch on. My "
              "order number is {num}. Can I get a replacement?",
         "q": "My order number is {num}. I ordered a {elec} on {date}, and it arrived "
              "today and won't switch on. Can I get a replacement?"},
        {"s": "I booked a room at your {city} hotel for {date}. I paid a deposit of "
              "{amt}. My trip has now been cancelled. Can I get the deposit back?",
         "q": "My trip has now been cancelled. I booked a room at your {city} hotel for "
              "{date} and paid a deposit of {amt}. Can I get the deposit back?"},
        {"s": "I'm travelling to {country} next week. I'm on the {plan} plan. Will my "
              "phone work there?",
         "q": "I'm on the {plan} plan. Next week I'm travelling to {country}. Will my "
              "phone work there?"},
        {"s": "I took a ride to {place} on {weekday} evening. I left my {lostitem} on "
              "the back seat. How can I get it back?",
         "q": "I left my {lostitem} on the back seat of my ride to {place} on "
              "{weekday} evening. How can I get it back?"},
        {"s": "My card was declined at {merchant} today. There's plenty of money in my "
              "account. Why did this happen?",
         "q": "There's plenty of money in my account. Even so, my card was declined at "
              "{merchant} today. Why did this happen?"},
        {"s": "I signed up for the {sub} free trial on {date}. I was charged {amt} "
              "yesterday. I thought the trial was still running. Why was I charged?",
         "q": "I was charged {amt} yesterday. I thought the trial was still running, as "
              "I signed up for the {sub} free trial on {date}. Why was I charged?"},
        {"s": "My internet has been down since {weekday}. I work from home. I've "
              "already restarted the router. Can you send a technician?",
         "q": "I work from home and I've already restarted the router. My internet has "
              "been down since {weekday}. Can you send a technician?"},
        {"s": "I bought a licence for your {software} on {date}. I've got a new "
              "laptop. How do I move the licence to it?",
         "q": "I've got a new laptop. On {date} I bought a licence for your "
              "{software}. How do I move the licence to it?"},
    ],
    "tone_shift": [
        {"s": "This is ridiculous. You've charged me twice for order {num}! Refund the "
              "extra {amt} right now.",
         "q": "Hello, it seems I've been charged twice for order {num}. Could you "
              "please refund the extra {amt}?"},
        {"s": "Where on earth is my parcel?? Order {num} was supposed to arrive on "
              "{weekday} and it's STILL not here.",
         "q": "Hi, order {num} was due to arrive on {weekday} but hasn't come yet. "
              "Could you tell me where my parcel is?"},
        {"s": "Unbelievable. My flight to {city} was delayed {hours} hours and nobody "
              "told us anything. What am I getting for this?",
         "q": "Good afternoon. My flight to {city} was delayed by {hours} hours and we "
              "weren't given any information. What compensation am I entitled to?"},
        {"s": "Third time this week my internet has dropped out, and I'm paying for "
              "{speed}. I'm sick of it. Fix it already.",
         "q": "My internet has dropped out three times this week, and I'm on the {speed} "
              "plan. Could you please help me fix the problem?"},
        {"s": "Why am I STILL being charged {amt} a month for {sub} when I cancelled it "
              "on {date}? I want my money back.",
         "q": "I cancelled my {sub} subscription on {date}, but I'm still being charged "
              "{amt} a month. Could I please have a refund?"},
        {"s": "Your driver took a ridiculously long route to {place} on {weekday} and I "
              "paid {amt} for it. Sort it out.",
         "q": "On {weekday} my driver took a much longer route than necessary to "
              "{place}, and I paid {amt}. Could you look into this, please?"},
        {"s": "Seriously? My {restaurant} order showed up an hour late and stone cold. "
              "I want a refund.",
         "q": "Hi, my {restaurant} order arrived an hour late and was completely cold. "
              "Would it be possible to get a refund?"},
        {"s": "I've been locked out of my {software} account since {weekday} and your "
              "reset emails never arrive. Get me back in!",
         "q": "I've been locked out of my {software} account since {weekday} and the "
              "password reset emails don't arrive. Could you help me get back in?"},
    ],
    "pleasantries_added": [
        {"s": "How many days do I have to return a {product} I bought online?",
         "q": "Hi, order {num} here. How many days do I have to return a {product} I "
              "bought online? Thanks!"},
        {"s": "My card ending in {digits} was stolen today. Please block it.",
         "q": "Good morning. My card ending in {digits} was stolen today. Please block "
              "it. Many thanks, {name}"},
        {"s": "Can I take a folded stroller on board my flight to {city} on {date}?",
         "q": "Hello! Can I take a folded stroller on board my flight to {city} on "
              "{date}? Thanks in advance."},
        {"s": "How do I update the payment card on my {sub} subscription?",
         "q": "Hi team, hope you're well. How do I update the payment card on my {sub} "
              "subscription? Cheers, {name}"},
        {"s": "Is breakfast included in my booking at your {city} hotel for {date}? "
              "Reference {ref}.",
         "q": "Dear team, is breakfast included in my booking at your {city} hotel for "
              "{date}? Reference {ref}. Kind regards, {name}"},
        {"s": "My parcel for order {num} hasn't moved in tracking since {weekday}. "
              "What's going on?",
         "q": "Hi, hope you can help. My parcel for order {num} hasn't moved in tracking "
              "since {weekday}. What's going on? Thank you!"},
        {"s": "I'm on the {plan} plan. How do I set up a PIN on my mobile account so nobody can move my number "
              "to another provider?",
         "q": "Hey! Account number {acct} here. I'm on the {plan} plan. How do I set up a PIN on my mobile "
              "account so nobody can move my number to another provider? Thanks."},
        {"s": "Can I get a receipt for my ride to {place} on {weekday}?",
         "q": "Hello, can I get a receipt for my ride to {place} on {weekday}? Thank you "
              "so much!"},
    ],
    "informal_typing": [
        {"s": "Hello, my order {num} hasn't arrived yet. Can you please tell me when it "
              "will be delivered?",
         "q": "hey my order {num} still not here when will it come pls", "lower": True},
        {"s": "I need to cancel my {sub} subscription as soon as possible. How do I do "
              "it?",
         "q": "need to cancel my {sub} sub asap how do i do it", "lower": True},
        {"s": "Can you tell me if my flight to {city} on {date} is on time?",
         "q": "is my flight to {city} on {date} on time??", "lower": True},
        {"s": "I can't log in to my {software} account. Can you help me reset my "
              "password?",
         "q": "cant log in to my {software} account can u help me reset my password",
         "lower": True},
        {"s": "My card was charged {amt} twice at {merchant} yesterday. Can you refund "
              "one of the payments?",
         "q": "my card got charged {amt} twice at {merchant} yesterday can u refund one "
              "of them pls", "lower": True},
        {"s": "Could you tell me how to add {relative} to my mobile plan?",
         "q": "how do i add {relative} to my phone plan", "lower": True},
        {"s": "Your delivery driver left my food order from {restaurant} at the wrong "
              "address. Can I get a refund?",
         "q": "ur driver left my {restaurant} food at the wrong address can i get a "
              "refund", "lower": True},
        {"s": "Is it possible to check in early at your {city} hotel on {date}?",
         "q": "can i check in early at ur {city} hotel on {date}", "lower": True},
    ],
    "direct_vs_indirect": [
        {"s": "I sent the {product} back on {date}. Can I get a refund?",
         "q": "I sent the {product} back on {date}, and I'd like to know whether a "
              "refund is possible."},
        {"s": "My {sub} subscription renews on {date}. Can I switch to the annual plan "
              "before then?",
         "q": "My {sub} subscription renews on {date}. I was wondering whether it's "
              "possible to switch to the annual plan before then."},
        {"s": "Does my ticket to {city} on {date} include a checked bag?",
         "q": "I'd like to find out whether my ticket to {city} on {date} includes a "
              "checked bag."},
        {"s": "I'm going to {country} next week. What is the daily cash withdrawal "
              "limit on my {cardtype}?",
         "q": "I'm going to {country} next week. Could you tell me what the daily cash "
              "withdrawal limit on my {cardtype} is?"},
        {"s": "I'm on the {speed} internet plan. Is there a fee for cancelling my "
              "contract early?",
         "q": "I'm on the {speed} internet plan. I'd like to know if there's a fee for "
              "cancelling my contract early."},
        {"s": "A pipe burst in my {room} on {date}. Does my home insurance cover it?",
         "q": "A pipe burst in my {room} on {date}. I want to check whether my home "
              "insurance covers it."},
        {"s": "How many devices can I install your {software} on with one licence?",
         "q": "I'm trying to find out how many devices I can install your {software} on "
              "with one licence."},
        {"s": "Can I tip my driver after the ride to {place} is over?",
         "q": "I'd like to know whether I can tip my driver after the ride to {place} "
              "is over."},
    ],
    "active_vs_passive": [
        {"s": "You charged me twice for my {sub} subscription on {date}. Can I get one "
              "payment back?",
         "q": "I was charged twice for my {sub} subscription on {date}. Can I get one "
              "payment back?"},
        {"s": "Your courier left my parcel for order {num} outside in the rain and it "
              "got soaked. What can you do?",
         "q": "My parcel for order {num} was left outside in the rain by your courier "
              "and got soaked. What can you do?"},
        {"s": "You lost my suitcase on flight {code} from {city}. How do I report it?",
         "q": "My suitcase was lost by you on flight {code} from {city}. How do I report "
              "it?"},
        {"s": "Your hotel in {city} charged my card {amt} for the minibar, but I didn't "
              "use it. How do I dispute this?",
         "q": "My card was charged {amt} by your hotel in {city} for the minibar, but I "
              "didn't use it. How do I dispute this?"},
        {"s": "You blocked my {cardtype} while I was in {country}. How do I get it "
              "unblocked?",
         "q": "My {cardtype} was blocked by you while I was in {country}. How do I get "
              "it unblocked?"},
        {"s": "The restaurant sent me someone else's order (order {num}). Can I get a "
              "refund?",
         "q": "I was sent someone else's order by the restaurant (order {num}). Can I "
              "get a refund?"},
        {"s": "You suspended my {software} account on {date} without any explanation. "
              "Why?",
         "q": "My {software} account was suspended by you on {date} without any "
              "explanation. Why?"},
        {"s": "The driver cancelled my ride to {place} and you charged me {amt}. Why "
              "was I charged?",
         "q": "My ride to {place} was cancelled by the driver and I was charged {amt}. "
              "Why was I charged?"},
    ],
    "request_position": [
        {"s": "Please send me a return label. The {product} from order {num} arrived "
              "damaged.",
         "q": "The {product} from order {num} arrived damaged. Please send me a return "
              "label."},
        {"s": "Can you move my check-in to {date}? I have a reservation at your {city} "
              "hotel, reference {ref}, and my plans have changed.",
         "q": "I have a reservation at your {city} hotel, reference {ref}, and my plans "
              "have changed. Can you move my check-in to {date}?"},
        {"s": "I'd like to dispute a charge. There's a {amt} payment to {merchant} on "
              "my statement that I don't recognise.",
         "q": "There's a {amt} payment to {merchant} on my statement that I don't "
              "recognise. I'd like to dispute the charge."},
        {"s": "How do I get my data speed back to normal? I went over my {gb} GB "
              "allowance on {date} and now everything is slow.",
         "q": "I went over my {gb} GB allowance on {date} and now everything is slow. "
              "How do I get my data speed back to normal?"},
        {"s": "Could you send a technician? The lights on my router have been flashing "
              "red since {weekday} and there's no connection.",
         "q": "The lights on my router have been flashing red since {weekday} and "
              "there's no connection. Could you send a technician?"},
        {"s": "I need to cancel my flight. I'm booked to {city} on {date}, reference "
              "{ref}, and I've come down with the flu.",
         "q": "I'm booked to {city} on {date}, reference {ref}, and I've come down with "
              "the flu. I need to cancel my flight."},
        {"s": "Please refund my ride. The driver never turned up at {place} on "
              "{weekday}, but I was still charged {amt}.",
         "q": "The driver never turned up at {place} on {weekday}, but I was still "
              "charged {amt}. Please refund my ride."},
        {"s": "What's the status of my claim? I submitted claim {claimno} for {damage} "
              "on {date}.",
         "q": "I submitted claim {claimno} for {damage} on {date}. What's the status of "
              "my claim?"},
    ],
}

# ---------------------------------------------------------------------------
# Filling
# ---------------------------------------------------------------------------

_FMT = string.Formatter()


def _fields(text):
    return {name for _, name, _, _ in _FMT.parse(text) if name}


def _slot_values(names, rng):
    values = {}
    for name in sorted(names):
        if name in GENERATED:
            values[name] = GENERATED[name](rng)
        else:
            values[name] = rng.choice(WORDS[name])
    return values


def _cap(text):
    return text[0].upper() + text[1:] if text else text


def _insert_alt(text, side):
    if isinstance(side, str):
        side = (side,)
    for key, val in zip(("A", "B"), side):
        text = text.replace("{" + key + "}", val)
    return text


def make_near_miss(tpl, rng):
    stored_side, query_side = rng.choice(tpl["alts"])
    if rng.random() < 0.5:
        stored_side, query_side = query_side, stored_side
    s = _insert_alt(tpl["t"], stored_side)
    q = _insert_alt(tpl["t"], query_side)
    vals = _slot_values(_fields(s) | _fields(q), rng)
    return _cap(s.format(**vals)), _cap(q.format(**vals))


def make_positive(tpl, rng):
    vals = _slot_values(_fields(tpl["s"]) | _fields(tpl["q"]), rng)
    s = _cap(tpl["s"].format(**vals))
    q = tpl["q"].format(**vals)
    q = q.lower() if tpl.get("lower") else _cap(q)
    if rng.random() < 0.5:
        s, q = q, s
    return s, q


def build(groups, maker, per_category, rng, seen):
    out = []
    for category, templates in groups.items():
        assert len(templates) >= 6, category
        made = 0
        i = 0
        while made < per_category:
            tpl = templates[i % len(templates)]
            i += 1
            for _ in range(200):
                s, q = maker(tpl, rng)
                if s != q and s not in seen and q not in seen:
                    break
            else:
                raise RuntimeError("could not make a unique pair for " + category)
            seen.update((s, q))
            out.append({"category": category, "stored": s, "query": q})
            made += 1
    return out


def main():
    rng = random.Random(SEED)
    seen = set()
    text_pairs = build(NEAR_MISS, make_near_miss, PER_NEAR_MISS, rng, seen)
    positives = build(POSITIVE, make_positive, PER_POSITIVE, rng, seen)
    description = (
        "Held-out evaluation set v32 for the semantic prompt cache, written blind "
        "(all templates and word lists written from scratch without looking at other "
        "data sets or project files). Theme: messages customers send to a company's "
        "support assistant that answers from general policy knowledge - online orders "
        "and returns, deliveries, subscriptions and streaming, airline and hotel "
        "bookings, banking and cards, mobile plans, home internet, insurance claims, "
        "food delivery, ride sharing, software licences and accounts - from one short "
        "sentence to a few sentences giving the situation and then the question, "
        "tidy, informal or annoyed. text_pairs holds %d near-miss pairs that must not "
        "be served from the cache (%d categories x %d: %s): the messages share almost "
        "all words but need a different reply. positives holds %d true paraphrase "
        "pairs with identical facts that need the same reply (%d categories x %d: %s). "
        "Each category has at least six templates used round-robin; all pairs are "
        "unique and no message text is used twice. Generated deterministically with random.Random(%d) by "
        "benchmarks/caches/make_heldout_v32.py."
        % (
            len(text_pairs), len(NEAR_MISS), PER_NEAR_MISS, ", ".join(NEAR_MISS),
            len(positives), len(POSITIVE), PER_POSITIVE, ", ".join(POSITIVE),
            SEED,
        )
    )
    data = {"description": description, "text_pairs": text_pairs,
            "positives": positives}
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2, ensure_ascii=False)
        fh.write("\n")
    print("wrote %s: %d text_pairs, %d positives"
          % (OUT_PATH, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
