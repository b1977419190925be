"""Generator for a held-out evaluation set of multi-sentence chat prompts (v24).

The set tests whether a semantic prompt cache keeps apart prompts that look
alike but need different answers, while still matching prompts that mean the
same thing. Every prompt is a short multi-sentence message: two to four
sentences describing a personal, work or technical situation (money between
people, housing, work, health of people and pets, travel, cars, school,
cooking, home repair, software and devices, sport, legal and admin matters),
followed by a question or request. Writing is a mix of tidy and informal.

Output keys:
  text_pairs  168 near-miss pairs (serving the stored answer would be wrong),
              12 categories x 14: context_detail_changed, who_did_what,
              converse_verb_same_side, pronoun_reference, order_of_events,
              negation_in_context, tense_or_time, modality, question_changed,
              request_constraint_changed, quantity_changed,
              comparison_direction.
  positives   120 true-paraphrase pairs (same meaning, same right answer),
              8 categories x 15: context_reordered, voice_changed_roles_kept,
              converse_verb_sides_traded, sentences_joined_or_split,
              clauses_swapped, question_reworded, pleasantries_and_fillers,
              informal_retelling.

Each category is built from at least five templates filled from word lists
(relations, names, amounts, cities, days, months, pets, cars, devices, apps,
foods, household appliances and so on). Templates are cycled in order so that
every template of a category is used. Stored/query sides are randomly
swapped. Within each list every string is distinct. Deterministic: all
choices come from random.Random(242424). Standard library only.

Written blind, without reading the project's other data sets, tests or code.
"""
# This file is a frozen data generator: its templates and word lists are its content.

import json
import os
import random
import string

SEED = 242424
OUT_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "data", "heldout_generated_v24.json")

LISTS = {
    "rel": ["sister", "brother", "cousin", "roommate", "coworker", "best friend",
            "neighbour", "uncle", "aunt", "flatmate", "brother-in-law",
            "old school friend", "sister-in-law", "colleague"],
    "frel": ["sister", "aunt", "cousin Sarah", "flatmate Mia", "best friend Jess",
             "sister-in-law", "niece", "colleague Priya"],
    "mname": ["Tom", "Marco", "Jonas", "Carlos", "Dan", "Kofi", "Raj", "Lukas",
              "Ben", "Omar"],
    "name": ["Tom", "Priya", "Marco", "Lena", "Sam", "Aisha", "Jonas", "Mei",
             "Carlos", "Fatima", "Dan", "Olga", "Kofi", "Hannah"],
    "city": ["Lisbon", "Berlin", "Toronto", "Chicago", "Manchester", "Lyon",
             "Osaka", "Denver", "Melbourne", "Dublin", "Austin", "Madrid",
             "Glasgow", "Seattle"],
    "amt": ["$150", "$200", "$300", "$450", "$600", "$800", "$1,200", "£250",
            "£400", "€350", "€900", "$75"],
    "smallamt": ["$50", "$75", "$100", "£60", "€80", "$120", "£90"],
    "bigamt": ["$15,000", "$20,000", "£30,000", "€25,000", "$40,000", "£12,000"],
    "vetamt": ["$1,800", "$2,500", "£1,500", "€2,200", "$3,000", "£2,700"],
    "carprice": ["£3,500", "$6,000", "€4,200", "$8,500", "£2,800", "$11,000"],
    "dog": ["dog", "beagle", "labrador", "terrier", "spaniel", "border collie",
            "greyhound", "boxer"],
    "smalldog": ["terrier", "dachshund", "chihuahua", "pug", "jack russell",
                 "shih tzu", "miniature poodle"],
    "cat": ["cat", "tabby", "Siamese", "Maine Coon", "rescue cat", "ginger cat"],
    "petage": ["9", "10", "11", "12", "13", "14"],
    "kidage": ["5", "6", "7", "8", "9", "10", "11"],
    "adultage": ["28", "34", "41", "45", "52", "63"],
    "kittenage": ["an eight", "a nine", "a ten", "a twelve"],
    "device": ["laptop", "phone", "tablet", "desktop PC", "MacBook",
               "Chromebook", "Android phone", "iPad"],
    "app": ["Slack", "Zoom", "Outlook", "Excel", "Spotify", "WhatsApp", "Chrome",
            "Teams", "Photoshop", "Notion"],
    "car": ["Honda Civic", "Toyota Corolla", "Ford Focus", "VW Golf", "Mazda 3",
            "Kia Rio", "Subaru Outback", "Hyundai i30"],
    "food": ["a lasagna", "a chickpea curry", "a beef stew", "a fish pie",
             "a big pot of chilli", "a moussaka"],
    "day": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"],
    "month": ["January", "February", "March", "April", "May", "June", "July",
              "August", "September", "October", "November", "December"],
    "examonth": ["May", "June"],
    "drinks": ["a couple of glasses of wine", "two beers", "a large glass of wine",
               "a couple of gin and tonics"],
    "item": ["bike", "camera", "guitar", "road bike", "sewing machine", "drone",
             "keyboard", "projector"],
    "obj": ["dishwasher", "washing machine", "fridge", "tumble dryer", "freezer",
            "boiler"],
    "lang": ["Spanish", "French", "German", "Italian", "Portuguese", "Japanese",
             "Dutch"],
    "sport": ["football", "basketball", "hockey", "netball", "rugby",
              "volleyball", "cricket"],
    "subject": ["maths", "chemistry", "history", "French", "biology", "physics",
                "economics"],
    "company": ["a logistics firm", "a small bank", "a software startup",
                "the council", "a hospital trust", "an insurance company"],
    "team": ["Riverside", "St Mary's", "Northgate", "Westfield", "Eastbrook",
             "Hillcrest", "Oakwood"],
    "street": ["Elm Street", "Park Road", "Mill Lane", "Church Street",
               "King's Road", "Station Road"],
    "teamsize": ["six", "eight", "ten", "twelve", "fifteen"],
}

_FMT = string.Formatter()


def fill(fmts, rng):
    """Fill several format strings with one shared set of slot values.

    A slot named e.g. city2 draws from the list "city" and is kept distinct
    from the other slots drawn from that list.
    """
    names = []
    for f in fmts:
        for _, name, _, _ in _FMT.parse(f):
            if name and name not in names:
                names.append(name)
    values, used = {}, {}
    for name in sorted(names):
        base = name.rstrip("0123456789")
        taken = used.setdefault(base, set())
        pool = [v for v in LISTS[base] if v not in taken]
        v = rng.choice(pool)
        taken.add(v)
        values[name] = v
    return [f.format(**values) for f in fmts]


# ---------------------------------------------------------------- helpers
def P(s, q=None, alts=None):
    """Two formats (q defaults to s); with alts, {X} takes a different value on each side."""
    if q is None:
        q = s

    def make(rng):
        s2, q2 = s, q
        if alts:
            a, b = rng.choice(alts)
            s2, q2 = s.replace("{X}", a), q.replace("{X}", b)
        return tuple(fill([s2, q2], rng))
    return make


def SW(a, b, tail):
    """Two context sentences in one order, then the other, then the same tail."""
    return P(a + " " + b + " " + tail, b + " " + a + " " + tail)


def R(sentences, tail, perms):
    """Context sentences in their order on one side and a listed permutation on the other."""
    def make(rng):
        perm = rng.choice(perms)
        s = " ".join(sentences) + " " + tail
        q = " ".join(sentences[i] for i in perm) + " " + tail
        return tuple(fill([s, q], rng))
    return make


def Q(context, questions):
    """The same context with two different questions from a list."""
    def make(rng):
        a, b = rng.sample(questions, 2)
        return tuple(fill([context + " " + a, context + " " + b], rng))
    return make


ALL3 = [(0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]

PREFIXES = ["Hi!", "Hello.", "Hey!", "Good morning!", "Hi there, quick question.",
            "Hello, sorry for the long message.", "Hey, hope you're doing well.",
            "Quick question:", "Hi, sorry to bother you."]
SUFFIXES = ["Thanks!", "Thanks so much in advance.",
            "Any advice would be really appreciated.", "Cheers!", "Thank you!",
            "Sorry for the long message, and thanks."]


def F(base):
    """The same prompt with different greetings, thanks or filler around it."""
    def dress(rng, mode):
        parts = []
        if mode in ("pre", "both"):
            parts.append(rng.choice(PREFIXES))
        parts.append(base)
        if mode in ("suf", "both"):
            parts.append(rng.choice(SUFFIXES))
        return " ".join(parts)

    def make(rng):
        m1 = rng.choice(["none", "pre", "suf", "both"])
        m2 = rng.choice([m for m in ("pre", "suf", "both") if m != m1])
        return tuple(fill([dress(rng, m1), dress(rng, m2)], rng))
    return make


# ---------------------------------------------------------- near misses
NEAR = {}

NEAR["context_detail_changed"] = [
    P("I'm driving from {city} to a wedding that's {X} away, and I'll come back the same night. My {car} does about 40 miles per gallon and fuel is around $4 a gallon. Roughly how much will I spend on fuel for the round trip?",
      alts=[("90 miles", "260 miles"), ("120 miles", "300 miles"),
            ("150 miles", "45 miles"), ("200 miles", "75 miles")]),
    P("Four of us rented a holiday house in {city} for a week and it cost {X} in total. My {rel} paid the whole thing upfront on their card. How much do I owe them for my share?",
      alts=[("$1,200", "$2,000"), ("€800", "€1,400"), ("£960", "£1,600"),
            ("$1,500", "$2,200")]),
    P("my {smalldog} ate {X} about an hour ago while i wasn't looking. he's tiny, only about 6 kg. do i need to take him to an emergency vet right now?",
      alts=[("a handful of grapes", "a handful of blueberries"),
            ("a square of dark chocolate", "a bit of plain bread"),
            ("a piece of sugar-free gum", "a plain rice cracker"),
            ("some fried onions", "some cucumber slices"),
            ("a few raisins", "a few pieces of apple")]),
    P("I signed up for a gym membership in {city} on {X}. The contract says I can cancel for free within 14 days of signing. Today is the 20th of the same month. Can I still cancel without paying anything?",
      alts=[("the 12th", "the 2nd"), ("the 10th", "the 1st"),
            ("the 15th", "the 3rd"), ("the 9th", "the 4th")]),
    P("I'm {X} and I've just been offered a job at a warehouse in {city}. Some of the shifts are ten hours long and finish at 2am. Am I legally allowed to work those shifts?",
      alts=[("16", "22"), ("15", "19"), ("17", "30")]),
    P("My flight from {city} lands at {X} and my train to {city2} leaves the central station at 11:30. The taxi from the airport to the station takes about 40 minutes. Will I realistically make the train?",
      alts=[("9:15", "10:45"), ("8:50", "11:05"), ("9:30", "11:00"),
            ("8:40", "10:55")]),
    P("The recipe for my {rel}'s birthday cake is written for a 20 cm round tin. The only tin I have at home is {X}. How should I change the quantities and the baking time?",
      alts=[("a 25 cm round one", "a 15 cm round one"),
            ("a 30 by 20 cm rectangular one", "an 18 cm round one"),
            ("a 23 cm square one", "a 2 lb loaf tin")]),
]

NEAR["who_did_what"] = [
    P("my {dog} bit my {rel}'s cat in the garden yesterday. there's a small puncture wound and a bit of swelling. what should i do now, and who should pay the vet bill?",
      "my {rel}'s cat bit my {dog} in the garden yesterday. there's a small puncture wound and a bit of swelling. what should i do now, and who should pay the vet bill?"),
    P("I was sued by my former landlord in {city} over the {amt} deposit from my old flat. The hearing is set for {month}. What documents should I bring to court?",
      "I sued my former landlord in {city} over the {amt} deposit from my old flat. The hearing is set for {month}. What documents should I bring to court?"),
    P("My coworker {name} reported me to HR last week for missing deadlines on our shared project. The two of us have a meeting with our manager on {day}. How should I prepare for it?",
      "I reported my coworker {name} to HR last week for missing deadlines on our shared project. The two of us have a meeting with our manager on {day}. How should I prepare for it?"),
    P("A cyclist crashed into my {car} at a roundabout in {city} this morning. Nobody was badly hurt, but the car door is dented and the bike's front wheel is bent. Who is likely to be found at fault, and what should I do next?",
      "My {car} crashed into a cyclist at a roundabout in {city} this morning. Nobody was badly hurt, but the car door is dented and the bike's front wheel is bent. Who is likely to be found at fault, and what should I do next?"),
    P("My {kidage}-year-old was pushed by a classmate during break and ended up with a scraped knee. The school called me this afternoon to tell me about it. How should I handle the conversation with the teacher?",
      "My {kidage}-year-old pushed a classmate during break and the classmate ended up with a scraped knee. The school called me this afternoon to tell me about it. How should I handle the conversation with the teacher?"),
    P("The new hire, {name}, is training me on the billing system this week. It's going slowly and the quarter closes on {day}. How can we make the sessions more productive?",
      "I'm training the new hire, {name}, on the billing system this week. It's going slowly and the quarter closes on {day}. How can we make the sessions more productive?"),
    P("my {rel} blocked me on whatsapp after we argued about money. it's been two weeks and we haven't spoken at all. how do i fix things between us?",
      "i blocked my {rel} on whatsapp after we argued about money. it's been two weeks and we haven't spoken at all. how do i fix things between us?"),
]

NEAR["converse_verb_same_side"] = [
    P("I lent my {rel} {amt} back in {month} to help with car repairs. We never wrote anything down and it's been months now. What's the polite way to sort out the repayment?",
      "I borrowed {amt} from my {rel} back in {month} to help with car repairs. We never wrote anything down and it's been months now. What's the polite way to sort out the repayment?"),
    P("I bought a used {item} from someone on Facebook Marketplace for {amt}. Two days later it stopped working properly. What are my rights here?",
      "I sold a used {item} to someone on Facebook Marketplace for {amt}. Two days later it stopped working properly. What are my rights here?"),
    P("We won our {sport} league final on penalties last weekend. I'm the captain and I have to say a few words at training on {day}. What should I say to the team?",
      "We lost our {sport} league final on penalties last weekend. I'm the captain and I have to say a few words at training on {day}. What should I say to the team?"),
    P("I'm renting a room to an older couple in {city} starting next month. We've agreed on {amt} a month including bills. What should go in the written agreement?",
      "I'm renting a room from an older couple in {city} starting next month. We've agreed on {amt} a month including bills. What should go in the written agreement?"),
    P("I'm teaching {lang} to a colleague during lunch breaks, twice a week. We've kept it up for three months but progress feels slow. How can we make the sessions more effective?",
      "I'm learning {lang} from a colleague during lunch breaks, twice a week. We've kept it up for three months but progress feels slow. How can we make the sessions more effective?"),
    P("I gave {bigamt} to my {rel} as a gift last {month} to help with a house deposit. Nothing was put in writing. Do I need to report this for tax purposes?",
      "I received {bigamt} from my {rel} as a gift last {month} to help with a house deposit. Nothing was put in writing. Do I need to report this for tax purposes?"),
    P("i'm moving out of a shared flat in {city} at the end of {month}. the other tenants are staying on. what do i need to sort out with the deposit and the bills?",
      "i'm moving into a shared flat in {city} at the end of {month}. the other tenants are staying on. what do i need to sort out with the deposit and the bills?"),
]

NEAR["pronoun_reference"] = [
    SW("My {device} got soaked when I knocked a glass of water over it last night.",
       "My {device2} installed a big system update this morning.",
       "Now it won't turn on at all. What should I try first?"),
    SW("My {frel} just got promoted to team lead.",
       "My {frel2} was turned down for the same position.",
       "She's invited me for coffee on {day}. What should I say to her about the job?"),
    SW("My older dog had his booster vaccinations on {day}.",
       "My puppy got into the shed that afternoon and chewed open a box of slug pellets.",
       "Since then he's been drooling and really sluggish. How urgent is this?"),
    SW("My {car} failed its inspection last week because of worn brake pads.",
       "My partner's {car2} passed, with a note that the tyres are nearly worn out.",
       "It's booked for a long drive to {city} on Saturday. Is it safe to take it?"),
    SW("{mname} from accounting sent out the quarterly report with a big error in it.",
       "{mname2} from sales got a formal warning for missing his targets.",
       "He's asked me how to handle things with our boss. What should I tell him?"),
    SW("The flat on {street} has a damp problem in the bathroom.",
       "The flat near the station costs {amt} more per month than I'd planned to spend.",
       "Apart from that, it seems perfect. Should I take it?"),
    SW("the tomato plant on my balcony gets full sun all afternoon.",
       "the basil on my kitchen windowsill hasn't been watered since {day}.",
       "its leaves have gone yellow and droopy. what should i do to save it?"),
]

NEAR["order_of_events"] = [
    P("On {day} I updated my {device} and then {app} started crashing whenever I open it. I haven't installed anything else since. What's the most likely cause and how do I fix it?",
      "On {day} {app} started crashing whenever I open it and then I updated my {device}. I haven't installed anything else since. What's the most likely cause and how do I fix it?"),
    P("I bought travel insurance for my trip to {city}, and a week later my mum was diagnosed with a serious illness. Now I need to cancel the trip to look after her. Will the policy cover the cancellation?",
      "My mum was diagnosed with a serious illness, and a week later I bought travel insurance for my trip to {city}. Now I need to cancel the trip to look after her. Will the policy cover the cancellation?"),
    P("I signed the lease on a flat in {city} and then found out the building is being sold to a developer. The landlord never mentioned the sale. Can I get out of the lease?",
      "I found out the building in {city} is being sold to a developer and then signed the lease on a flat there. The landlord never mentioned the sale. Can I get out of the lease?"),
    P("I handed in my notice at {company}, and then my manager offered me a raise of {amt} a month. I hadn't told anyone I was unhappy before that. Is it too late to change my mind?",
      "My manager at {company} offered me a raise of {amt} a month, and then I handed in my notice. I hadn't told anyone I was unhappy before that. Is it too late to change my mind?"),
    P("i'm making a chocolate mousse for my {rel}'s birthday. i added the eggs to the melted chocolate and then poured in the hot cream. the whole thing went grainy and split. can i still save it?",
      "i'm making a chocolate mousse for my {rel}'s birthday. i poured the hot cream into the melted chocolate and then added the eggs. the whole thing went grainy and split. can i still save it?"),
    P("I sent an invoice for {amt} to a client in {city} and then they cancelled the project. They're now refusing to pay anything at all. Do I have a case?",
      "A client in {city} cancelled the project and then I sent them an invoice for {amt}. They're now refusing to pay anything at all. Do I have a case?"),
    P("My partner and I got married in {month} and then bought a house together. We're now talking about separating. How would the house be divided?",
      "My partner and I bought a house together and then got married in {month}. We're now talking about separating. How would the house be divided?"),
]

NEAR["negation_in_context"] = [
    P("I have pet insurance for my {cat}. The vet says she needs surgery that will cost about {vetamt}. What are my options for paying for it?",
      "I don't have pet insurance for my {cat}. The vet says she needs surgery that will cost about {vetamt}. What are my options for paying for it?"),
    P("My {car} is still under the manufacturer's warranty. The gearbox started slipping last week. What's the best way to get it fixed?",
      "My {car} is no longer under the manufacturer's warranty. The gearbox started slipping last week. What's the best way to get it fixed?"),
    P("I've been renting a room in {city} for two years. I signed a written tenancy agreement when I moved in. The landlord now says I have to leave in two weeks. Can he do that?",
      "I've been renting a room in {city} for two years. I never signed a written tenancy agreement when I moved in. The landlord now says I have to leave in two weeks. Can he do that?"),
    P("My {kidage}-year-old daughter has had the MMR vaccine. A kid in her class just came down with measles. Should she stay home from school?",
      "My {kidage}-year-old daughter hasn't had the MMR vaccine. A kid in her class just came down with measles. Should she stay home from school?"),
    P("I backed up my {device} before installing the update. Now it's stuck on the startup screen. What's the safest way to get it working again?",
      "I didn't back up my {device} before installing the update. Now it's stuck on the startup screen. What's the safest way to get it working again?"),
    P("my flight from {city} got cancelled two hours before departure. the airline offered to rebook me on a flight the next day and i accepted it. can i still get a refund?",
      "my flight from {city} got cancelled two hours before departure. the airline offered to rebook me on a flight the next day and i didn't accept it. can i still get a refund?"),
    P("I've told my boss about my weekend job at a café in {city}. My contract says any outside work needs approval. Could I get in trouble?",
      "I haven't told my boss about my weekend job at a café in {city}. My contract says any outside work needs approval. Could I get in trouble?"),
]

NEAR["tense_or_time"] = [
    P("I had my wisdom tooth out yesterday morning at a clinic in {city}. The dentist told me to take it easy for a few days. What can I eat and drink today?",
      "I'm having my wisdom tooth out tomorrow morning at a clinic in {city}. The dentist told me to take it easy for a few days. What can I eat and drink today?"),
    P("I sold my {car} last week. The buyer paid {carprice} in cash. What paperwork do I need to deal with?",
      "I'm selling my {car} next week. The buyer is paying {carprice} in cash. What paperwork do I need to deal with?"),
    P("I was made redundant last week after six years at {company}. They've offered a payout of {bigamt}. What should I do about my pension and health cover?",
      "I'm being made redundant next week after six years at {company}. They've offered a payout of {bigamt}. What should I do about my pension and health cover?"),
    P("My {dog} had surgery on his back leg two days ago. He's normally very active and loves long walks. How should I manage his exercise?",
      "My {dog} is having surgery on his back leg in two days. He's normally very active and loves long walks. How should I manage his exercise?"),
    P("I planted my tomato seedlings outside last weekend. The forecast says there could be a frost on {day} night. What should I do?",
      "I'm planting my tomato seedlings outside next weekend. The forecast says there could be a frost on {day} night. What should I do?"),
    P("I've already paid a {amt} holding deposit for a flat in {city}. The landlord won't give me a written contract. What should I do?",
      "I'm about to pay a {amt} holding deposit for a flat in {city}. The landlord won't give me a written contract. What should I do?"),
    P("i took two ibuprofen about an hour ago for a headache. i also had {drinks} with dinner. is that a problem?",
      "i'm going to take two ibuprofen for a headache. i also had {drinks} with dinner. is that a problem?"),
]

NEAR["modality"] = [
    P("My landlord in {city} wants to come into the flat to do repairs on {day}. I'll be at work and I'd rather nobody came in while I'm out. {X}",
      alts=[("Can I refuse to let him in?", "Should I refuse to let him in?"),
            ("Should I let him in?", "Must I let him in?")]),
    P("I did some freelance work on the side last year and earned about {amt} from it. The money went straight into my personal account. {X}",
      alts=[("Must I declare it on my tax return?", "Can I declare it on my tax return?"),
            ("Do I have to declare it?", "Should I declare it?")]),
    P("My {cat} is 17 and has advanced kidney disease. The vet says treatment might give her a few more months. {X}",
      alts=[("Should I have her put to sleep now?", "Can I have her put to sleep now?"),
            ("Should we keep treating her?", "Will treatment keep her comfortable?")]),
    P("I got a parking ticket in {city} while unloading furniture outside my own flat. There were no signs about loading restrictions. {X}",
      alts=[("Do I have to pay it?", "Should I pay it?"),
            ("Must I pay it?", "Will I have to pay it if I appeal?")]),
    P("My {rel} wants to borrow my {car} for a week while theirs is in the garage. They aren't named on my insurance. {X}",
      alts=[("Can they legally drive it?", "Should they drive it?"),
            ("Can I let them drive it?", "Should I let them drive it?")]),
    P("my {kidage}-year-old wants to walk to school on her own. it's about 1 km and there's one busy road to cross. {X}",
      alts=[("can i let her?", "should i let her?"),
            ("can i let her do it?", "will she be ok doing it?")]),
    P("We're flying to {city} in {month} and my passport expires two months after we get back. {X}",
      alts=[("Can I still travel on it?", "Should I still travel on it?"),
            ("Will I be allowed to board with it?", "Should I renew it before we go?")]),
]

NEAR["question_changed"] = [
    Q("I'm flying from {city} to {city2} in {month} with my {kidage}-year-old. It'll be our first long-haul trip together, just the two of us.",
      ["How early should we get to the airport?",
       "What should I pack to keep them busy on the flight?",
       "How can I help them deal with jet lag?",
       "Do they need their own passport?"]),
    Q("My {obj} started leaking water from underneath yesterday. It's about eight years old and no longer under warranty.",
      ["How much does a repair like this usually cost?",
       "Is this something I can fix myself?",
       "Is it worth repairing or should I replace it?",
       "What's most likely causing the leak?"]),
    Q("I've been offered a job in {city} that pays {amt} a month more than I earn now. The commute would be about an hour each way.",
      ["Should I take it?",
       "How do I negotiate an even higher salary?",
       "How do I tell my current boss I'm leaving?",
       "How much notice do I usually have to give?"]),
    Q("My {dog} is {petage} and has started limping on his back left leg after walks. He's still eating well and seems happy otherwise.",
      ["What could be causing the limp?",
       "How much does an X-ray at the vet usually cost?",
       "Should I stop walking him for a while?",
       "Are there any supplements that help older dogs' joints?"]),
    Q("my {car} makes a grinding noise when i brake, especially at low speed. it's done about 90,000 miles.",
      ["is it safe to keep driving it?",
       "what part is probably worn out?",
       "how much will the repair roughly cost?",
       "can i do the repair myself?"]),
    Q("I'm cooking {food} for eight people on {day}. Two of the guests are vegetarian and one can't eat gluten.",
      ["How long should I cook it for?",
       "What sides could I make that everyone can eat?",
       "How far in advance can I make it?",
       "How much should I make so there's enough?"]),
    Q("My {rel} and I are splitting the rent on a two-bedroom flat in {city}. My room is bigger and has its own bathroom.",
      ["What's a fair way to divide the rent?",
       "How should we split the bills?",
       "Should we put our agreement in writing?"]),
]

NEAR["request_constraint_changed"] = [
    P("I'm leaving my job at {company} after four years because I'm moving to {city}. My manager has been really supportive the whole time. Can you write my resignation letter {X}?",
      alts=[("in under 100 words", "in about 300 words"),
            ("in a formal tone", "in a warm, casual tone"),
            ("in English", "in {lang}")]),
    P("My {rel}'s birthday is on {day} and they're turning 40. They're really into cooking and hiking. Can you give me {X}?",
      alts=[("three gift ideas under {amt}", "ten gift ideas under {amt}"),
            ("five gift ideas as a bulleted list", "five gift ideas with a short paragraph on each"),
            ("gift ideas under $50", "gift ideas under $200")]),
    P("My {rel} has just gone vegan and is coming for dinner on {day}. I've got about an hour to cook and a pretty basic kitchen. Suggest a main dish {X}.",
      alts=[("that takes under 30 minutes", "that I can prep the day before"),
            ("and give me the shopping list as bullet points", "and describe it in one short paragraph"),
            ("without any nuts", "without any soy")]),
    P("The {obj} in my rented flat has been broken for three weeks and the landlord keeps putting off the repair. I want to ask for a rent reduction until it's fixed. Please write the message {X}.",
      alts=[("as a short formal email", "as a friendly text"),
            ("in five sentences or fewer", "in full detail with dates"),
            ("in a polite tone", "in a firm, no-nonsense tone")]),
    P("i'm going to {city} in a month and i'm learning {lang} for the trip. i know basic greetings but not much else. can you give me some useful phrases {X}?",
      alts=[("as a table with the english next to them", "as a numbered list with pronunciation tips"),
            ("(just 10 of them)", "(around 40 of them)"),
            ("in one short list", "in a long list grouped by situation")]),
    P("I manage a team of {teamsize} and we're switching from {app} to {app2} next week. Half the team is nervous about the change. Can you draft an announcement {X}?",
      alts=[("in bullet points", "as a single paragraph"),
            ("under 50 words", "of around 200 words"),
            ("in an upbeat tone", "in a neutral, factual tone")]),
    P("I have a CSV file of customer orders from our {city} shop, with columns for date, customer name and amount. I need the total amount for each month. Can you write the code {X}?",
      alts=[("in Python", "in JavaScript"),
            ("in Python without pandas", "in Python using pandas"),
            ("as a SQL query", "as an Excel formula")]),
]

NEAR["quantity_changed"] = [
    P("My {rel} owes me {amt} for each of the last three months' utility bills. They keep saying they'll sort it out soon. How much should I ask them for in total?",
      "My {rel} owes me {amt} in total for the last three months' utility bills. They keep saying they'll sort it out soon. How much should I ask them for in total?"),
    P("A few of the tiles in my bathroom in {city} are cracked. The bathroom was redone about ten years ago. Should I replace them myself or call in a tiler?",
      "All of the tiles in my bathroom in {city} are cracked. The bathroom was redone about ten years ago. Should I replace them myself or call in a tiler?"),
    P("I need to cancel one night of my four-night hotel booking in {city}. It was a non-refundable rate, but I booked directly with the hotel. What are my chances of getting money back?",
      "I need to cancel all four nights of my hotel booking in {city}. It was a non-refundable rate, but I booked directly with the hotel. What are my chances of getting money back?"),
    P("Each ticket for the concert cost {amt}, and I paid for all four of us on my card. My friends want to pay me back. How much should each person send me?",
      "The tickets for the concert cost {amt} altogether, and I paid for all four of us on my card. My friends want to pay me back. How much should each person send me?"),
    P("I missed one payment on my credit card back in {month}. My other bills have always been paid on time. How badly will this hurt my credit score?",
      "I've missed several payments on my credit card since {month}. My other bills have always been paid on time. How badly will this hurt my credit score?"),
    P("Some of my coworkers have been invited to the team offsite in {city}, but I wasn't. I've been on the team for two years. Should I ask my manager why?",
      "All of my coworkers have been invited to the team offsite in {city}, but I wasn't. I've been on the team for two years. Should I ask my manager why?"),
    P("I'm roasting a chicken for a family lunch on {day}. It's about 1.8 kg and my oven is fan-assisted. How long should I cook it for?",
      "I'm roasting two chickens for a family lunch on {day}. They're about 1.8 kg each and my oven is fan-assisted. How long should I cook them for?"),
]

NEAR["comparison_direction"] = [
    P("I have two job offers. The one in {city} pays {X} the one in {city2} and has a longer commute. Both companies are about the same size. Which should I take?",
      alts=[("more than", "less than")]),
    P("My {car} uses {X} fuel than my partner's {car2}. We drive 300 miles to see family every month. Whose car should we take to save money?",
      alts=[("more", "less")]),
    P("The flat in {city} is {X} than the one near the park, and the rent is the same. I work from home three days a week. Which one makes more sense for me?",
      alts=[("bigger but further from the station", "smaller but closer to the station")]),
    P("My {cat} weighs {X} than the vet recommends. She's a {petage}-year-old indoor cat. How should I change her feeding?",
      alts=[("more", "less"), ("a lot more", "a lot less")]),
    P("The first plumber's quote was {amt} {X} than the second one's. The first can start tomorrow and the second not for three weeks. My {obj} is leaking slowly. Which one should I pick?",
      alts=[("higher", "lower")]),
    P("{app} runs {X} on my laptop than on my desktop. Both have 16 GB of RAM, but the desktop has a newer processor. What could be going on?",
      alts=[("much better", "much worse")]),
    P("My rent in {city} went up by {X} than inflation this year. I've lived in the flat for five years and always paid on time. Is it worth challenging the increase?",
      alts=[("a lot more", "a lot less")]),
]

# ------------------------------------------------------------ positives
POS = {}

POS["context_reordered"] = [
    R(["I've lived in {city} for about three years.", "I work from home most days.",
       "My broadband drops out almost every afternoon."],
      "What can I do to fix it?", ALL3),
    R(["My {dog} has been scratching his ears all week.",
       "He's {petage} years old and has never had ear trouble before.",
       "He also shakes his head a lot after walks."],
      "Could this be an ear infection, and should he see a vet?", [(0, 2, 1)]),
    R(["My {rel} lent me {amt} in {month}.", "I've paid back half of it so far.",
       "I just lost my job."],
      "How do I tell them I need more time for the rest?", [(2, 0, 1), (0, 2, 1)]),
    R(["Our office is relocating to {city2} in {month}.",
       "My manager wants me to move with the team.",
       "My partner has a job here in {city} that they love."],
      "How should I decide whether to go?", ALL3),
    R(["my {car} has done about 120,000 miles.", "the timing belt has never been changed.",
       "i'm driving to {city} and back next month."],
      "should i get the belt done before the trip?", ALL3),
    R(["I'm hosting Christmas dinner for {teamsize} people this year.", "My oven is quite small.",
       "Two of the guests don't eat meat."],
      "How should I plan the cooking?", ALL3),
    R(["I'm in year 12 and taking {subject} at A level.", "My exams start in {examonth}.",
       "I've fallen behind since January."],
      "What's a realistic plan to catch up?", ALL3),
]

POS["voice_changed_roles_kept"] = [
    P("My {dog} was bitten by my neighbour's cat yesterday. The cut on his nose keeps bleeding a little. Does he need to see a vet?",
      "My neighbour's cat bit my {dog} yesterday. The cut on his nose keeps bleeding a little. Does he need to see a vet?"),
    P("I was rear-ended by a delivery van at a red light in {city}. The driver admitted fault at the scene. How do I claim for the damage to my {car}?",
      "A delivery van rear-ended me at a red light in {city}. The driver admitted fault at the scene. How do I claim for the damage to my {car}?"),
    P("My {device} was stolen from my car outside the gym last night. The {device} had all my work files on it. What should I do first?",
      "Someone stole my {device} from my car outside the gym last night. The {device} had all my work files on it. What should I do first?"),
    P("I was promoted to team lead by my new manager in {month}. Some of my old teammates now report to me. How do I handle that without making things awkward?",
      "My new manager promoted me to team lead in {month}. Some of my old teammates now report to me. How do I handle that without making things awkward?"),
    P("Our offer on the house in {city} was accepted by the sellers yesterday. We're first-time buyers and have a mortgage agreed in principle. What are the next steps before exchange?",
      "The sellers accepted our offer on the house in {city} yesterday. We're first-time buyers and have a mortgage agreed in principle. What are the next steps before exchange?"),
    P("My daughter was invited to a sleepover by a girl from her class. My daughter is only {kidage} and has never stayed away from home. Should I let her go?",
      "A girl from my daughter's class invited her to a sleepover. My daughter is only {kidage} and has never stayed away from home. Should I let her go?"),
    P("The boiler in our rented flat was serviced by the landlord's plumber in {month}. The boiler has stopped producing hot water again. Who should pay for the repair?",
      "The landlord's plumber serviced the boiler in our rented flat in {month}. The boiler has stopped producing hot water again. Who should pay for the repair?"),
    P("my {car} got towed by the council yesterday while i was at work in {city}. there was no sign saying i couldn't park there. can i get my money back?",
      "the council towed my {car} yesterday while i was at work in {city}. there was no sign saying i couldn't park there. can i get my money back?"),
]

POS["converse_verb_sides_traded"] = [
    P("My {rel} lent me {amt} in {month}. I can only pay back half of it this month. How should I bring this up with them?",
      "I borrowed {amt} from my {rel} in {month}. I can only pay back half of it this month. How should I bring this up with them?"),
    P("I sold my old {item} to {name} for {amt} last week. Now {name} says it's faulty and wants a refund. Do I have to give one?",
      "{name} bought my old {item} from me for {amt} last week. Now {name} says it's faulty and wants a refund. Do I have to give one?"),
    P("I coach an under-14 {sport} team. We lost to {team} in the cup semi-final on Saturday. How do I keep the kids motivated for the rest of the season?",
      "I coach an under-14 {sport} team. {team} beat us in the cup semi-final on Saturday. How do I keep the kids motivated for the rest of the season?"),
    P("I rent the flat above the shop from my {rel}. They want to raise the rent by {smallamt} a month from {month}. Is that a fair increase?",
      "My {rel} rents me the flat above the shop. They want to raise the rent by {smallamt} a month from {month}. Is that a fair increase?"),
    P("My grandmother gave me her old {car} when she stopped driving. It's worth about {carprice}. Do I need to pay any tax or fees to transfer it?",
      "I received my grandmother's old {car} from her when she stopped driving. It's worth about {carprice}. Do I need to pay any tax or fees to transfer it?"),
    P("My {rel} taught me to drive in their old {car}. My driving test is in {month}. What should I practise most in the last few weeks?",
      "I learned to drive from my {rel} in their old {car}. My driving test is in {month}. What should I practise most in the last few weeks?"),
    P("A small firm in {city} employs me as a part-time bookkeeper. They want me to start running payroll as well. Should I ask for more money?",
      "I work for a small firm in {city} as a part-time bookkeeper. They want me to start running payroll as well. Should I ask for more money?"),
    P("I lost a bet to my {rel} about the {sport} final, so now I owe them {amt}. I'm a bit short this month. Is it okay to pay in two instalments?",
      "My {rel} won a bet against me about the {sport} final, so now I owe them {amt}. I'm a bit short this month. Is it okay to pay in two instalments?"),
]

POS["sentences_joined_or_split"] = [
    P("My {dog} is {petage} years old. He's started having accidents indoors. Could this be a sign of a health problem?",
      "My {dog} is {petage} years old and he's started having accidents indoors. Could this be a sign of a health problem?"),
    P("I work in {city}. My partner works in {city2}. We want a flat that's fair for both of our commutes. How should we pick an area?",
      "I work in {city} and my partner works in {city2}. We want a flat that's fair for both of our commutes. How should we pick an area?"),
    P("I paid the {amt} deposit for my room in {month}. The landlord still hasn't given me a receipt. What should I do?",
      "I paid the {amt} deposit for my room in {month}, but the landlord still hasn't given me a receipt. What should I do?"),
    P("I updated {app} yesterday. Now it won't open on my {device}. How do I fix it?",
      "I updated {app} yesterday and now it won't open on my {device}. How do I fix it?"),
    P("My {rel} is getting married in {city} in {month}. I can't afford the flights. How do I tell them I can't come?",
      "My {rel} is getting married in {city} in {month}, but I can't afford the flights. How do I tell them I can't come?"),
    P("I'm {adultage}. I've had a dry cough for three weeks. I don't have a fever. Should I see a doctor?",
      "I'm {adultage}. I've had a dry cough for three weeks, but I don't have a fever. Should I see a doctor?"),
    P("my son is {kidage} and loves {sport}. he doesn't want to join a club. how can i help him keep playing?",
      "my son is {kidage} and loves {sport}, but he doesn't want to join a club. how can i help him keep playing?"),
]

POS["clauses_swapped"] = [
    P("I work nights and I have a {kidage}-year-old at home. I'm exhausted pretty much all the time. How can I get more sleep?",
      "I have a {kidage}-year-old at home and I work nights. I'm exhausted pretty much all the time. How can I get more sleep?"),
    P("I live in a fourth-floor flat with no lift and my {dog} has arthritis. He's {petage} and still loves his walks. How can I make going out easier for him?",
      "My {dog} has arthritis and I live in a fourth-floor flat with no lift. He's {petage} and still loves his walks. How can I make going out easier for him?"),
    P("My {car} is a manual and my {rel} only knows how to drive automatics. They need to borrow a car for a week while theirs is being repaired. What are our options?",
      "My {rel} only knows how to drive automatics and my {car} is a manual. They need to borrow a car for a week while theirs is being repaired. What are our options?"),
    P("I'm vegetarian and my partner is allergic to nuts. We're cooking together on {day} for the first time. Can you suggest a dinner we can both eat?",
      "My partner is allergic to nuts and I'm vegetarian. We're cooking together on {day} for the first time. Can you suggest a dinner we can both eat?"),
    P("I speak only basic {lang} and my budget is about {amt} a month for rent. I'm moving to {city} for a semester in {month}. How should I go about finding a room?",
      "My budget is about {amt} a month for rent and I speak only basic {lang}. I'm moving to {city} for a semester in {month}. How should I go about finding a room?"),
    P("My {device} runs Windows 11 and my phone is an iPhone. I take a lot of photos in {city} and want them on both. What's the easiest way to keep them in sync?",
      "My phone is an iPhone and my {device} runs Windows 11. I take a lot of photos in {city} and want them on both. What's the easiest way to keep them in sync?"),
    P("my landlord lives abroad and the letting agent never picks up the phone. the {obj} has been broken for a week. who should i contact to get it fixed?",
      "the letting agent never picks up the phone and my landlord lives abroad. the {obj} has been broken for a week. who should i contact to get it fixed?"),
]

POS["question_reworded"] = [
    Q("My {rel} asked to borrow {amt} for a deposit on a flat in {city}. They still haven't paid back what they borrowed last year.",
      ["How do I say no without upsetting them?",
       "What's the best way to turn them down without hurting their feelings?",
       "How can I refuse without upsetting them?"]),
    Q("I've just adopted {kittenage}-week-old kitten. She's my first ever pet and she lives indoors in my flat in {city}.",
      ["How often should I feed her?",
       "How many times a day should I be feeding her?",
       "How many meals a day does she need?"]),
    Q("My {obj} makes a loud banging noise whenever it runs. It's about five years old and I bought it in {month} a few years back.",
      ["Is it safe to keep using it?",
       "Is it okay to carry on using it safely?",
       "Can I safely keep using it?"]),
    Q("I have a job interview at {company} on {day}. It's for a junior data analyst role and it's my first interview in years.",
      ["How should I prepare?",
       "What's the best way to get ready for it?",
       "How do I prepare for it?"]),
    Q("I'm flying to {city} with only a carry-on bag. I want to bring my own shampoo and sunscreen.",
      ["How much liquid am I allowed to take?",
       "What's the limit on liquids in hand luggage?",
       "How much liquid can I bring in my carry-on?"]),
    Q("The check engine light on my {car} came on this morning. The car seems to be driving normally.",
      ["Is it okay to keep driving it?",
       "Is it fine to keep driving it?",
       "Is it alright to carry on driving it?"]),
    Q("i'm making {food} for six people on {day}. i'd like to get most of the cooking done early.",
      ["how far in advance can i make it?",
       "how early can i make it ahead of time?",
       "how long before the dinner can i make it?"]),
]

POS["pleasantries_and_fillers"] = [
    F("My {cat} keeps scratching the sofa even though she has a scratching post. I've tried putting the post right next to the sofa. How can I get her to stop?"),
    F("I'm driving five hours to visit my {rel} next weekend in my {car}. I've never done such a long drive on my own. How often should I stop for breaks?"),
    F("My {rel} borrowed {amt} from me for a concert ticket in {month}. They keep saying they'll pay me back next week. How do I ask for it without sounding petty?"),
    F("My neighbour gave me their old {obj}, which is about ten years old. It works but it's very loud. Is it worth servicing or should I just replace it?"),
    F("I have a spreadsheet in Excel where a column of dates from our {city} office is stored as text. Sorting it puts everything in the wrong order. How do I convert them to real dates?"),
    F("I start a new job in {city} on {day} and I've never worked in an office before. The dress code is business casual. What should I wear in the first week?"),
    F("My {kidage}-year-old has a temperature of 38.5 and a runny nose. She's still drinking and playing normally. When should I call the doctor?"),
]

POS["informal_retelling"] = [
    P("My {rel} borrowed {amt} from me in {month} and promised to pay it back within a month. It has now been three months and they have not mentioned it. How should I bring it up without starting an argument?",
      "so my {rel} borrowed {amt} off me in {month} and said they'd pay it back within a month. it's been 3 months now and tbh they haven't mentioned it once. how do i bring it up w/o starting an argument?"),
    P("I am moving from {city} to {city2} next month for work. I have a cat and a lot of furniture. What is the cheapest way to move everything?",
      "moving from {city} to {city2} next month bc of work. i've got a cat + loads of furniture. what's the cheapest way to move everything??"),
    P("My {device} has been running very slowly since the last update. I have already restarted it and cleared the cache. What else can I try?",
      "my {device} has been super slow since the last update. already restarted it and cleared the cache, idk what else to do. what else can i try?"),
    P("My {dog} ate part of a sock about two hours ago. He seems fine at the moment, but he has not eaten his dinner. Should I take him to the vet tonight?",
      "my {dog} ate part of a sock like 2 hrs ago. he seems ok rn but he hasn't eaten his dinner. should i take him to the vet tonight?"),
    P("I have my driving test on {day} in my {rel}'s {car}. I keep stalling at junctions when I am nervous. Do you have any tips for staying calm?",
      "got my driving test on {day} in my {rel}'s {car}. i keep stalling at junctions when i'm nervous lol. any tips for staying calm pls?"),
    P("My landlord has not returned my {amt} deposit, and I moved out six weeks ago. He is not answering my emails. What are my options?",
      "landlord still hasn't given back my {amt} deposit and i moved out 6 wks ago. he's not answering my emails. what are my options??"),
    P("I have to give a presentation to the whole department on {day}, and I get very nervous speaking in public. It is about our sales results for the quarter. How can I prepare so that I feel more confident?",
      "have to present to the whole dept on {day} and public speaking makes me super nervous ngl. it's about our sales results for the quarter. how do i prep so i feel more confident?"),
]

NEAR_ORDER = ["context_detail_changed", "who_did_what", "converse_verb_same_side",
              "pronoun_reference", "order_of_events", "negation_in_context",
              "tense_or_time", "modality", "question_changed",
              "request_constraint_changed", "quantity_changed",
              "comparison_direction"]
POS_ORDER = ["context_reordered", "voice_changed_roles_kept",
             "converse_verb_sides_traded", "sentences_joined_or_split",
             "clauses_swapped", "question_reworded", "pleasantries_and_fillers",
             "informal_retelling"]


def build(table, order, per_cat, rng):
    out, seen_strings, seen_pairs = [], set(), set()
    for cat in order:
        templates = table[cat]
        assert len(templates) >= 5, cat
        for i in range(per_cat):
            make = templates[i % len(templates)]
            for _ in range(1000):
                s, q = make(rng)
                if rng.random() < 0.5:
                    s, q = q, s
                if s == q or s in seen_strings or q in seen_strings:
                    continue
                if (s, q) in seen_pairs or (q, s) in seen_pairs:
                    continue
                break
            else:
                raise RuntimeError("could not make a distinct pair for " + cat)
            seen_strings.update((s, q))
            seen_pairs.add((s, q))
            out.append({"category": cat, "stored": s, "query": q})
    return out


DESCRIPTION = (
    "Held-out blind set v24 of multi-sentence chat prompts for a semantic prompt "
    "cache. Each prompt gives two to four sentences of personal, work or technical "
    "context (money between people, housing, work, health of people and pets, "
    "travel, cars, school, cooking, home repair, software and devices, sport, legal "
    "and admin) and then asks a question or makes a request, in a mix of tidy and "
    "informal writing. text_pairs holds 168 near-miss pairs in 12 categories of 14 "
    "(a changed context detail, swapped actor and acted-upon, a converse verb with "
    "the same subject, a pronoun whose referent changes through reordering, a "
    "changed order of events, an added or removed negation, a changed tense or "
    "time, a changed modal in the question, a different question, a different "
    "request constraint, a changed quantity, and a reversed comparison): serving "
    "the stored answer to the query would be wrong. positives holds 120 true "
    "paraphrase pairs in 8 categories of 15 (reordered context, active/passive "
    "with roles kept, the same event told from the other side with the converse "
    "verb, sentences joined or split, state clauses swapped, a reworded question, "
    "added or removed pleasantries, and an informal retelling) that keep every "
    "fact, person, number and constraint, so the stored answer is right. Built "
    "from templates over word lists with random.Random(242424); written blind, "
    "without reading the project's other data sets, tests or code."
)


def main():
    rng = random.Random(SEED)
    text_pairs = build(NEAR, NEAR_ORDER, 14, rng)
    positives = build(POS, POS_ORDER, 15, rng)
    data = {"description": DESCRIPTION, "text_pairs": text_pairs,
            "positives": positives}
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as fh:
        json.dump(data, fh, ensure_ascii=False, indent=2)
        fh.write("\n")
    print("text_pairs", len(text_pairs), "positives", len(positives))


if __name__ == "__main__":
    main()
