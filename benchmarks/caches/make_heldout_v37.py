"""Generate held-out evaluation set v37 for the semantic prompt cache.

Theme: writing and editing tasks people give a chat assistant.  Most prompts
carry 1-4 sentences of material to work on (an email, a paragraph, a product
description, a cover-letter paragraph, a social-media post, meeting notes or a
slogan) pasted after a colon, in quotes or on new lines, with the instruction
before or after it (rewrite, proofread, shorten, expand, summarize, translate,
change the tone ...).  Others ask for a new text (email, toast, apology,
announcement, bio, poem, story opening) from a short brief.

This set was written blind: without reading the project's code, rules, tests
or any other evaluation set.  Only the Python 3 standard library is used.

Two lists are written:

* text_pairs (must NOT hit; the two prompts need different answers):
  nm_length, nm_tone, nm_audience, nm_language, nm_format, nm_task_verb,
  nm_material_detail, nm_sentence_added, nm_negation, nm_include_avoid,
  nm_person, nm_tense, nm_recipient_sender, nm_item_count, nm_genre,
  nm_brief_detail.
* positives (true paraphrases; same material character for character, same
  constraints, same answer):
  pos_instruction_reworded, pos_instruction_moved, pos_polite_wrapper,
  pos_greeting_thanks, pos_case_whitespace, pos_material_delimiter,
  pos_constraint_phrasing, pos_constraint_position, pos_informal_typing,
  pos_synonym_instruction, pos_brief_reworded.

Every category uses at least six templates filled from hand-written lists.
Generation is deterministic: random.Random(373737).

Run from the repository root:  python3 benchmarks/caches/make_heldout_v37.py
"""

import json
import random
from pathlib import Path

SEED = 373737
N_PER_CATEGORY = 22
OUT_PATH = Path(__file__).resolve().parent / "data" / "heldout_generated_v37.json"

rng = random.Random(SEED)

# ---------------------------------------------------------------------------
# Material to work on: (kind, text).  No double quotes inside the texts.
# ---------------------------------------------------------------------------
MATERIALS = [
    ("email", "Hi Tom, I wanted to let you know that the quarterly report will be late because the finance team is still waiting on figures from the Denver office. I expect to send it by Thursday afternoon. Sorry for the delay."),
    ("email", "Dear Ms. Alvarez, thank you for your order. Unfortunately the blue armchair you selected is out of stock until March 12. We can offer you a full refund or a 10% discount on a similar model."),
    ("email", "hey team, just a reminder that the office will be closed on monday for the holiday. please make sure your timesheets are submitted by friday at noon."),
    ("email", "Hello Priya, I am writing to follow up on my interview last Tuesday for the data analyst role. I really enjoyed meeting the team and I am still very interested in the position."),
    ("email", "Dear landlord, the kitchen faucet has been leaking for two weeks and the drip is getting worse. Could someone come to fix it this week? I am home every day after 5 pm."),
    ("email", "Hi all, our team lunch has moved from Wednesday to Friday at 12:30. We will still meet at the Italian place on Main Street. Let me know if you can't make it."),
    ("paragraph", "Remote work has changed how many companies think about office space. Some firms have cut their leases in half, while others have redesigned their offices for collaboration rather than desk work."),
    ("paragraph", "Honeybees share the location of food through a movement called the waggle dance. The angle of the dance tells other bees the direction of the flowers, and its length signals the distance."),
    ("paragraph", "The town library was built in 1902 with money donated by a local mill owner. Today it hosts reading clubs, coding classes for teenagers, and a weekly market on its front lawn."),
    ("paragraph", "Their going to announce the results tomorow, but most people allready think the vote will be close. The new mayor will take office in january."),
    ("product description", "This stainless steel water bottle keeps drinks cold for 24 hours and hot for 12. It holds 750 ml, fits most car cup holders, and comes with a leak-proof lid."),
    ("product description", "Our handmade lavender soap is made in small batches with olive oil and shea butter. It is gentle on sensitive skin and contains no artificial fragrance."),
    ("product description", "The TrailLite backpack weighs just 900 grams and has a 28-liter main compartment. Padded straps and a rain cover make it ideal for day hikes."),
    ("product description", "This wireless desk lamp has three brightness levels and a built-in phone charger. The battery lasts up to 40 hours on a single charge."),
    ("cover letter paragraph", "I have spent five years managing social media accounts for small businesses, growing their audiences by an average of 40 percent. I would love to bring that experience to your marketing team."),
    ("cover letter paragraph", "As a recent nursing graduate, I completed clinical rotations in pediatrics and emergency care. I am calm under pressure and eager to learn from experienced colleagues."),
    ("cover letter paragraph", "In my current role as a warehouse supervisor, I lead a team of twelve and reduced shipping errors by 30 percent last year. I am now looking for a position in operations management."),
    ("social media post", "Big news! Our bakery is opening a second location on Elm Street this Saturday. Come by for free cupcakes from 9 to 11 am!"),
    ("social media post", "Just finished my first half marathon in 2 hours and 5 minutes. Legs are sore but I'm so proud. Thanks to everyone who cheered me on!"),
    ("social media post", "We're hiring! Looking for a part-time barista who loves coffee and people. DM us or stop by the shop to apply."),
    ("set of meeting notes", "Budget meeting, May 3: marketing spend cut by 15%. Website redesign postponed to Q3. Sara to send revised forecast by Friday."),
    ("set of meeting notes", "Project sync: backend API is finished, mobile app is two weeks behind. Decided to hire one contract developer. Next check-in on the 14th."),
    ("set of meeting notes", "Parent committee notes: bake sale raised $640. Field trip to the science museum approved for April 22. Need four more volunteer drivers."),
    ("set of meeting notes", "Retro, sprint 18: deploys went smoothly, but too many meetings ate into coding time. Action item: move standup to 9:45 and cap it at 15 minutes."),
]

SLOGANS = [
    ("slogan", "Fresh bread, every morning, just around the corner."),
    ("slogan", "Drive less. Live more."),
    ("slogan", "Your home, cleaner than ever."),
    ("slogan", "Small shop, big heart."),
    ("slogan", "Code faster, sleep better."),
    ("slogan", "Every cup tells a story."),
    ("slogan", "Built to last, priced to move."),
]

# First-person material, for perspective changes.
PERSON_MATERIALS = [
    ("cover letter paragraph", "I have spent five years managing social media accounts for small businesses, growing their audiences by an average of 40 percent. I would love to bring that experience to your marketing team."),
    ("social media post", "Just finished my first half marathon in 2 hours and 5 minutes. Legs are sore but I'm so proud. Thanks to everyone who cheered me on!"),
    ("about-us paragraph", "I started this bakery in my grandmother's kitchen in 2015. Today I bake over 300 loaves a day and still use her sourdough starter."),
    ("bio", "I'm a high-school chemistry teacher who loves turning kitchen experiments into lessons. On weekends I coach the school's robotics team."),
    ("message", "I'm sorry I missed your call yesterday. I was stuck in a meeting all afternoon and only saw your message at 7 pm."),
    ("bio", "I am a civil engineer with twelve years of experience designing bridges. I live in Denver, and in my free time I climb and make pottery."),
    ("email", "I wanted to thank everyone for the surprise party on Friday. I honestly had no idea, and I will remember it for a long time."),
]

# Narrative material, for tense changes.
TENSE_MATERIALS = [
    ("announcement", "We launch the new app on Monday. The team is testing the last features, and the marketing emails are ready to go."),
    ("paragraph", "I walk to the station, buy a coffee, and catch the 8:15 train. On the way I read the news on my phone."),
    ("event description", "The festival opens with a parade, and local bands play in the square until midnight. Food trucks line the river path."),
    ("company update", "Our company moved into a new building and hired twenty engineers. Sales grew by 18 percent."),
    ("bakery notice", "The bakery will open at 7 am and will serve fresh croissants. The owner will greet every guest at the door."),
    ("social media post", "Maria finished the marathon and raised $2,000 for the children's hospital. Her whole family waited at the finish line."),
    ("set of meeting notes", "The team reviews the budget, agrees on a new hiring plan, and sets the next meeting for June 4."),
]

LANGUAGE_PAIRS = [
    ("Spanish", "French"), ("German", "Japanese"), ("Italian", "Portuguese"),
    ("French", "German"), ("Japanese", "Korean"), ("Dutch", "Spanish"),
    ("Portuguese", "Polish"), ("Chinese", "Japanese"),
]

INCLUDE_WORDS = ["exciting", "unfortunately", "delighted", "simple", "amazing",
                 "honestly", "thrilled", "important", "affordable", "quickly"]

# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

DEFAULT = "default"


def T(fmt, pairs, pool=DEFAULT, **extras):
    """A near-miss template: fmt has a {x} slot filled with pair[0] / pair[1]."""
    return (fmt, pairs, pool, extras)


def slot_category(name, templates, default_pool=MATERIALS, n=N_PER_CATEGORY):
    """Near misses where one slot of the prompt ({x}) differs between sides."""
    out, seen, i, attempts = [], set(), 0, 0
    while len(out) < n:
        attempts += 1
        if attempts > 5000:
            raise RuntimeError("cannot fill " + name)
        fmt, pairs, pool, extras = templates[i % len(templates)]
        a, b = pairs[(i // len(templates)) % len(pairs)]
        i += 1
        pool = default_pool if pool == DEFAULT else pool
        fill = {}
        if pool:
            kind, mat = rng.choice(pool)
            fill.update(kind=kind, mat=mat)
        for k, v in extras.items():
            # extras may mention {kind}, e.g. obj="this {kind}"
            fill[k] = rng.choice(v).format(kind=fill.get("kind", ""))
        if rng.random() < 0.5:
            a, b = b, a
        # {x} is substituted first, so a pair value may itself use {obj}
        stored = fmt.replace("{x}", a).format(**fill)
        query = fmt.replace("{x}", b).format(**fill)
        if stored == query or (stored, query) in seen or (query, stored) in seen:
            continue
        seen.add((stored, query))
        out.append({"category": name, "stored": stored, "query": query})
    return out


def material_pair_category(name, frames, mpairs, n=N_PER_CATEGORY):
    """Near misses where the instruction is the same and the material differs."""
    out, seen = [], set()
    i = 0
    while len(out) < n:
        kind, a, b = mpairs[i % len(mpairs)]
        frame = frames[(i + i // len(mpairs)) % len(frames)]
        i += 1
        if i > 5000:
            raise RuntimeError("cannot fill " + name)
        if rng.random() < 0.5:
            a, b = b, a
        stored, query = frame.format(kind=kind, mat=a), frame.format(kind=kind, mat=b)
        if stored == query or (stored, query) in seen or (query, stored) in seen:
            continue
        seen.add((stored, query))
        out.append({"category": name, "stored": stored, "query": query})
    return out


def lower_first(s):
    return s[0].lower() + s[1:]


def upper_first(s):
    return s[0].upper() + s[1:]


def pick(lst, i):
    return lst[i % len(lst)]


# ---------------------------------------------------------------------------
# Near misses (text_pairs)
# ---------------------------------------------------------------------------

def nm_length():
    return slot_category("nm_length", [
        T("Summarize this {kind} in {x}:\n{mat}",
          [("one sentence", "three sentences"), ("20 words", "80 words"),
           ("two sentences", "five sentences"), ("30 words", "100 words")]),
        T("Rewrite this {kind} so it is {x}:\n{mat}",
          [("under 100 characters", "about 400 characters long"),
           ("about half as long", "about twice as long"),
           ("no longer than 25 words", "at least 120 words long")]),
        T("{mat}\n\nCut this {kind} down to {x}.",
          [("30 words", "15 words"), ("20 words", "10 words"),
           ("a single sentence", "a five-word phrase")]),
        T("Expand this {kind} to about {x}:\n{mat}",
          [("100 words", "250 words"), ("150 words", "400 words"),
           ("two paragraphs", "four paragraphs"), ("80 words", "200 words")]),
        T("Give me a {x} version of this {kind}: \"{mat}\"",
          [("10-word", "40-word"), ("one-line", "three-paragraph"),
           ("50-word", "150-word")]),
        T("Write a summary of this {kind}, {x}.\n\n{mat}",
          [("no more than 15 words", "around 60 words"),
           ("max two sentences", "at least five sentences"),
           ("under 140 characters", "around 500 characters")]),
    ])


def nm_tone():
    return slot_category("nm_tone", [
        T("Rewrite this {kind} so that its tone is {x}:\n{mat}",
          [("formal", "casual"), ("friendly", "stern"), ("apologetic", "confident"),
           ("playful", "serious"), ("enthusiastic", "neutral")]),
        T("Make this {kind} sound more {x}:\n{mat}",
          [("professional", "relaxed"), ("polite", "blunt"),
           ("urgent", "laid-back"), ("heartfelt", "businesslike")]),
        T("{mat}\n\nCan you make the {kind} above {x}?",
          [("more formal", "more casual"), ("more persuasive", "more neutral"),
           ("more upbeat", "more somber"), ("friendlier", "colder")]),
        T("Polish this {kind} and give it a {x} feel:\n{mat}",
          [("luxurious", "budget-friendly"), ("humorous", "serious"),
           ("youthful", "traditional"), ("corporate", "personal")]),
        T("Rewrite this {kind} so it sounds {x}: \"{mat}\"",
          [("apologetic", "defensive"), ("excited", "calm"),
           ("confident", "humble"), ("sarcastic", "sincere")]),
        T("Adjust the tone of this {kind} to be {x}.\n\n{mat}",
          [("more diplomatic", "more direct"), ("cheerful", "formal"),
           ("empathetic", "matter-of-fact"), ("persuasive", "purely informative")]),
    ])


def nm_audience():
    return slot_category("nm_audience", [
        T("Rewrite this {kind} for {x}:\n{mat}",
          [("a customer", "my manager"), ("a child", "a university professor"),
           ("my team", "the CEO"), ("a new employee", "an investor")]),
        T("Explain what this {kind} says to {x}:\n{mat}",
          [("a five-year-old", "a software engineer"),
           ("my grandmother", "my business partner"),
           ("a new intern", "a board member"), ("a tourist", "a local resident")]),
        T("{mat}\n\nAdapt this {kind} so it works for {x}.",
          [("a LinkedIn audience", "teenagers on TikTok"),
           ("existing customers", "potential investors"),
           ("parents", "teachers"), ("a technical audience", "a general audience")]),
        T("Tailor this {kind} to {x}: \"{mat}\"",
          [("a ten-year-old", "a retired engineer"),
           ("customers in their seventies", "college students"),
           ("hospital doctors", "high-school students"),
           ("first-time buyers", "industry experts")]),
        T("I need to send this {kind} to {x}. Please rewrite it accordingly:\n{mat}",
          [("a customer", "my boss"), ("my landlord", "my best friend"),
           ("a client", "a colleague"), ("the school principal", "the other parents at school")]),
        T("Reword this {kind} with {x} in mind:\n{mat}",
          [("small children", "senior managers"),
           ("first-time visitors", "regular customers"),
           ("job recruiters", "my friends"),
           ("international readers", "readers in my hometown")]),
    ])


def nm_language():
    lp = LANGUAGE_PAIRS
    return slot_category("nm_language", [
        T("Translate this {kind} into {x}:\n{mat}", lp),
        T("{mat}\n\nTranslate the {kind} above into {x}.", lp[2:] + lp[:2]),
        T("Can you put this {kind} into {x}? \"{mat}\"", lp[4:] + lp[:4]),
        T("Give me this {kind} in {x}:\n{mat}", lp[1:] + lp[:1]),
        T("Translate to {x}, keeping the tone friendly:\n{mat}", lp[3:] + lp[:3]),
        T("Rewrite this {kind} more formally and then translate it into {x}:\n{mat}", lp[5:] + lp[:5]),
        T("Summarize this {kind} in {x}:\n{mat}", lp[6:] + lp[:6]),
    ])


def nm_format():
    return slot_category("nm_format", [
        T("Summarize this {kind} as {x}:\n{mat}",
          [("bullet points", "a single paragraph"), ("a table", "a numbered list"),
           ("a numbered list", "bullet points"), ("a short paragraph", "a two-column table")]),
        T("Turn this {kind} into {x}:\n{mat}",
          [("a subject line", "a one-paragraph summary"), ("a checklist", "a one-sentence pitch"),
           ("a tweet", "a formal memo"), ("a FAQ", "a bulleted summary")]),
        T("{mat}\n\nReformat this as {x}.",
          [("a bulleted list", "a numbered list"), ("a table with two columns", "plain prose"),
           ("an email", "a text message"), ("JSON", "a markdown table")]),
        T("Write {x} for this {kind}:\n{mat}",
          [("a subject line", "a three-item bullet summary"),
           ("a headline", "a numbered list of key points"),
           ("a title", "a table of key facts"),
           ("a list of hashtags", "a one-paragraph summary")]),
        T("Present the key points of this {kind} in {x}: \"{mat}\"",
          [("a table", "a bulleted list"), ("a numbered list", "one paragraph"),
           ("a Q&A format", "a single sentence"), ("markdown headings", "a plain paragraph")]),
        T("Rewrite this {kind} as {x}, please.\n\n{mat}",
          [("a text message", "a formal letter"), ("a LinkedIn post", "an internal memo"),
           ("a tweet thread", "a press release"), ("a voicemail script", "a printed flyer")]),
    ])


def nm_task_verb():
    # Pair values use {obj}, the phrase that names the material in that template.
    this = ["this {kind}"]
    return slot_category("nm_task_verb", [
        T("{x}:\n{mat}",
          [("Summarize {obj}", "Proofread {obj}"), ("Translate {obj} into Spanish", "Shorten {obj}"),
           ("Proofread {obj}", "Expand {obj}"), ("Shorten {obj}", "Expand {obj}"),
           ("Summarize {obj}", "Translate {obj} into French")], obj=this),
        T("{mat}\n\nPlease {x}.",
          [("proofread {obj}", "summarize {obj}"), ("expand {obj}", "shorten {obj}"),
           ("translate {obj} into German", "proofread {obj}"), ("summarize {obj}", "write a headline for {obj}")],
          obj=["the {kind} above"]),
        T("Can you {x} for me? \"{mat}\"",
          [("shorten {obj}", "proofread {obj}"), ("write a headline for {obj}", "summarize {obj}"),
           ("expand {obj}", "translate {obj} into Italian"), ("simplify {obj}", "expand {obj}")], obj=this),
        T("I pasted my {kind} below. {x}.\n{mat}",
          [("Proofread {obj}", "Summarize {obj}"), ("Expand {obj}", "Shorten {obj}"),
           ("Critique {obj}", "Rewrite {obj}"), ("Translate {obj} into Japanese", "Proofread {obj}")],
          obj=["it"]),
        T("Quick task: {x}.\n\n{mat}",
          [("summarize {obj}", "translate {obj} into Portuguese"), ("proofread {obj}", "write a headline for {obj}"),
           ("shorten {obj}", "give feedback on {obj}"), ("expand {obj}", "summarize {obj}")], obj=this),
        T("{x}: {mat}",
          [("Summarize {obj}", "Continue {obj}"), ("Proofread {obj}", "Suggest a title for {obj}"),
           ("Shorten {obj}", "Translate {obj} into Dutch"), ("Expand {obj}", "Proofread {obj}")],
          obj=["the following {kind}"]),
    ])


MATERIAL_FRAMES = [
    "Translate this {kind} into French:\n{mat}",
    "Proofread this {kind}:\n{mat}",
    "{mat}\n\nRewrite this {kind} in a more formal tone.",
    "Make this {kind} friendlier: \"{mat}\"",
    "Summarize this {kind} in one sentence:\n{mat}",
    "Rewrite this {kind} to sound more professional.\n\n{mat}",
    "Turn this {kind} into a short text message:\n{mat}",
]


def nm_material_detail():
    mpairs = [
        ("email", "Hi Tom, the quarterly report will be ready on Thursday. Please review it before the client call.",
         "Hi Tom, the quarterly report will be ready on Tuesday. Please review it before the client call."),
        ("email", "Dear Ms. Alvarez, your refund of $45 has been processed and should appear in 3-5 business days.",
         "Dear Ms. Alvarez, your refund of $450 has been processed and should appear in 3-5 business days."),
        ("product description", "Our water bottle holds 750 ml and keeps drinks cold for 24 hours.",
         "Our water bottle holds 500 ml and keeps drinks cold for 24 hours."),
        ("email", "Hi Priya, I am writing to follow up on my interview for the data analyst role. I enjoyed meeting the team.",
         "Hi Priya, I am writing to follow up on my interview for the project manager role. I enjoyed meeting the team."),
        ("social media post", "Big news! Our bakery is opening a second location on Elm Street this Saturday.",
         "Big news! Our bakery is opening a second location on Oak Street this Saturday."),
        ("set of meeting notes", "Budget meeting: marketing spend cut by 15%. Sara to send the revised forecast by Friday.",
         "Budget meeting: marketing spend cut by 15%. Mark to send the revised forecast by Friday."),
        ("product description", "The TrailLite backpack weighs just 900 grams and has a 28-liter main compartment.",
         "The TrailLite backpack weighs just 900 grams and has a 38-liter main compartment."),
        ("cover letter paragraph", "I have spent five years managing social media accounts for small businesses.",
         "I have spent eight years managing social media accounts for small businesses."),
        ("email", "Our team lunch is on Wednesday at 12:30 at the Italian place on Main Street.",
         "Our team lunch is on Wednesday at 12:30 at the Thai place on Main Street."),
        ("set of meeting notes", "The field trip to the science museum is approved for April 22. We need four more volunteer drivers.",
         "The field trip to the science museum is approved for April 29. We need four more volunteer drivers."),
        ("email", "Dear Mr. Chen, thank you for staying at our hotel for three nights. We hope to welcome you again.",
         "Dear Mr. Patel, thank you for staying at our hotel for three nights. We hope to welcome you again."),
        ("announcement", "The webinar starts at 10 am Eastern and lasts 45 minutes. Registration is free.",
         "The webinar starts at 10 am Eastern and lasts 90 minutes. Registration is free."),
        ("social media post", "Our summer sale starts tomorrow: 20% off all sandals until Sunday!",
         "Our summer sale starts tomorrow: 20% off all sneakers until Sunday!"),
        ("email", "Hi Jenna, please book the conference room for 8 people on the 3rd floor.",
         "Hi Jenna, please book the conference room for 18 people on the 3rd floor."),
    ]
    return material_pair_category("nm_material_detail", MATERIAL_FRAMES, mpairs)


def nm_sentence_added():
    bases = [
        ("email", "Hi Tom, the quarterly report will be late because we are still waiting on figures from the Denver office.",
         "I will also need two extra days to finish the appendix."),
        ("product description", "This wireless desk lamp has three brightness levels and a built-in phone charger.",
         "It comes with a two-year warranty."),
        ("social media post", "Big news! Our bakery is opening a second location on Elm Street this Saturday.",
         "The first 50 customers get a free cupcake."),
        ("set of meeting notes", "Project sync: the backend API is finished and the mobile app is two weeks behind.",
         "We decided to hire one contract developer."),
        ("cover letter paragraph", "As a recent nursing graduate, I completed clinical rotations in pediatrics and emergency care.",
         "I am also fluent in Spanish and Portuguese."),
        ("email", "Dear landlord, the kitchen faucet has been leaking for two weeks.",
         "The bathroom light has also stopped working."),
        ("paragraph", "The town library was built in 1902 with money donated by a local mill owner.",
         "It will close for renovations next spring."),
        ("email", "Hi all, our team lunch has moved from Wednesday to Friday at 12:30.",
         "Please bring your ideas for the holiday party."),
        ("product description", "Our handmade lavender soap is gentle on sensitive skin.",
         "Each bar is wrapped in recycled paper."),
        ("social media post", "Just finished my first half marathon in 2 hours and 5 minutes.",
         "Next goal: the Chicago marathon in October."),
        ("set of meeting notes", "Parent committee notes: the bake sale raised $640.",
         "The field trip is postponed until May."),
        ("email", "Dear Ms. Alvarez, the blue armchair you ordered is out of stock until March 12.",
         "As an apology, we have added free delivery to your order."),
    ]
    mpairs = [(k, b, b + " " + e) for k, b, e in bases]
    frames = [
        "Translate this {kind} into Spanish:\n{mat}",
        "Proofread this {kind}:\n{mat}",
        "Rewrite this {kind} in a friendlier tone: \"{mat}\"",
        "{mat}\n\nSummarize the {kind} above.",
        "Make this {kind} more formal.\n\n{mat}",
        "Turn this {kind} into bullet points:\n{mat}",
        "Make this {kind} sound more enthusiastic:\n{mat}",
    ]
    return material_pair_category("nm_sentence_added", frames, mpairs)


def nm_negation():
    mpairs = [
        ("email", "The package was delivered on time. Please confirm the invoice amount.",
         "The package was not delivered on time. Please confirm the invoice amount."),
        ("email", "I will be able to attend the planning meeting on Friday. Let me know if you need anything from me beforehand.",
         "I will not be able to attend the planning meeting on Friday. Let me know if you need anything from me beforehand."),
        ("product description", "This soap contains artificial fragrance and is made with olive oil.",
         "This soap contains no artificial fragrance and is made with olive oil."),
        ("announcement", "The new policy allows employees to work from home on Fridays.",
         "The new policy does not allow employees to work from home on Fridays."),
        ("social media post", "Our store is open on public holidays, so come by anytime this weekend!",
         "Our store is not open on public holidays, so plan your visit for next week!"),
        ("email", "Hi Sam, the software update fixed the login problem for our customers.",
         "Hi Sam, the software update did not fix the login problem for our customers."),
        ("set of meeting notes", "Design review: the client approved the new logo. Next step is the website banner.",
         "Design review: the client did not approve the new logo. Next step is the website banner."),
        ("paragraph", "Refunds are available after 30 days if the item is unused.",
         "Refunds are not available after 30 days, even if the item is unused."),
        ("product description", "The backpack is waterproof. It has padded straps and a 28-liter compartment.",
         "The backpack is not waterproof. It has padded straps and a 28-liter compartment."),
        ("email", "Dear team, I agree with the proposal to move the launch to June.",
         "Dear team, I do not agree with the proposal to move the launch to June."),
        ("listing", "Pets are allowed in the apartment, and the rent includes parking.",
         "Pets are not allowed in the apartment, and the rent includes parking."),
        ("email", "Your flight booking includes a checked bag and a seat selection.",
         "Your flight booking does not include a checked bag or a seat selection."),
    ]
    return material_pair_category("nm_negation", MATERIAL_FRAMES, mpairs)


def nm_include_avoid():
    w = {"w": INCLUDE_WORDS}
    return slot_category("nm_include_avoid", [
        T("Rewrite this {kind} and make sure {x} the word \"{w}\":\n{mat}",
          [("to use", "not to use")], **w),
        T("Polish this {kind}. {x} the word \"{w}\".\n{mat}",
          [("Include", "Avoid"), ("Use", "Do not use")], **w),
        T("{mat}\n\nRewrite the text above {x} the word \"{w}\".",
          [("using", "without using"), ("including", "leaving out")], **w),
        T("Edit this {kind} so it {x} the word \"{w}\": \"{mat}\"",
          [("contains", "does not contain"), ("includes", "never includes")], **w),
        T("Rewrite this {kind}, {x} the word \"{w}\":\n{mat}",
          [("working in", "steering clear of"), ("featuring", "banning")], **w),
        T("Make this {kind} more persuasive and {x} the word \"{w}\".\n\n{mat}",
          [("add", "avoid"), ("use", "don't use")], **w),
    ])


PERSON_PAIRS = [
    ("in the first person", "in the third person"),
    ("in first person plural (we)", "in first person singular (I)"),
    ("from my own point of view", "from an outside narrator's point of view"),
    ("in the third person, using the name Alex", "in the first person"),
]


def nm_person():
    pp = PERSON_PAIRS
    return slot_category("nm_person", [
        T("Rewrite this {kind} {x}:\n{mat}", pp),
        T("{mat}\n\nCan you rewrite that {kind} {x}?", pp[1:] + pp[:1]),
        T("Rewrite this {kind} {x}, keeping it short: \"{mat}\"", pp[2:] + pp[:2]),
        T("Please edit this {kind} so it is written {x}.\n\n{mat}", pp[3:] + pp[:3]),
        T("Polish this {kind} and put it {x}:\n{mat}", pp),
        T("Make this {kind} more professional, written {x}:\n{mat}", pp[1:] + pp[:1]),
    ], default_pool=PERSON_MATERIALS)


TENSE_PAIRS = [("past", "future"), ("present", "past"), ("future", "past"),
               ("present", "future")]


def nm_tense():
    tp = TENSE_PAIRS
    return slot_category("nm_tense", [
        T("Rewrite this {kind} in the {x} tense:\n{mat}", tp),
        T("{mat}\n\nPut the {kind} above into the {x} tense.", tp[1:] + tp[:1]),
        T("Change this {kind} to the {x} tense: \"{mat}\"", tp[2:] + tp[:2]),
        T("Proofread this {kind} and convert it to the {x} tense.\n\n{mat}", tp[3:] + tp[:3]),
        T("Can you rewrite this {kind} using the {x} tense throughout?\n{mat}", tp),
        T("Make this {kind} more formal and use the {x} tense:\n{mat}", tp[1:] + tp[:1]),
    ], default_pool=TENSE_MATERIALS)


def nm_recipient_sender():
    return slot_category("nm_recipient_sender", [
        T("Write a polite email from {x} about the broken heater in apartment 4B.",
          [("me to my landlord", "my landlord to me"),
           ("a tenant to the building manager", "the building manager to a tenant"),
           ("my roommate to me", "me to my roommate"),
           ("the tenants' association to the owner", "the owner to the tenants' association")], pool=None),
        T("Draft a thank-you note from {x} at the end of the school year.",
          [("a teacher to her class", "a student to her teacher"),
           ("the parents to the coach", "the coach to the parents"),
           ("the principal to the volunteers", "the volunteers to the principal")], pool=None),
        T("Write a short apology message from {x} for missing Monday's meeting.",
          [("me to my manager", "my manager to me"),
           ("the vendor to our team", "our team to the vendor"),
           ("Lisa to David", "David to Lisa"),
           ("a student to her professor", "a professor to her student")], pool=None),
        T("Compose a welcome message from {x} for the first day at work.",
          [("the new hire to the team", "the team to the new hire"),
           ("a mentor to a new mentee", "a new mentee to a mentor"),
           ("the CEO to the interns", "the interns to the CEO")], pool=None),
        T("Write a text message from {x} about pickup at 5 pm tomorrow.",
          [("a parent to the babysitter", "the babysitter to a parent"),
           ("me to my sister", "my sister to me"),
           ("the dry cleaner to a customer", "a customer to the dry cleaner")], pool=None),
        T("Write a congratulations card message from {x} on the new job.",
          [("Anna to her former boss Mark", "Mark to his former employee Anna"),
           ("me to my best friend", "my best friend to me"),
           ("a nephew to his uncle", "an uncle to his nephew"),
           ("our team to our former intern Raj", "our former intern Raj to our team")], pool=None),
        T("Write a follow-up email from {x} after yesterday's call.",
          [("a sales rep to a prospective client", "a prospective client to a sales rep"),
           ("our startup to the investor", "the investor to our startup"),
           ("the agency to the client", "the client to the agency")], pool=None),
    ])


COUNT_PAIRS = [("three", "five"), ("two", "four"), ("five", "ten"),
               ("four", "six"), ("3", "7"), ("six", "two")]


def nm_item_count():
    cp = COUNT_PAIRS
    return slot_category("nm_item_count", [
        T("Summarize this {kind} in {x} bullet points:\n{mat}",
          [("two", "four"), ("three", "five"), ("2", "3"), ("three", "four")]),
        T("Give me {x} alternative versions of this slogan: \"{mat}\"", cp[1:] + cp[:1], pool=SLOGANS),
        T("Suggest {x} possible titles for this {kind}:\n{mat}", cp[2:] + cp[:2]),
        T("{mat}\n\nList the {x} most important points from this {kind}.",
          [("two", "three"), ("two", "four"), ("three", "four")]),
        T("Write {x} hashtags for this {kind}: \"{mat}\"", cp[4:] + cp[:4]),
        T("Give me {x} different opening lines I could use for this {kind}:\n{mat}", cp[5:] + cp[:5]),
        T("Brainstorm {x} taglines based on this slogan:\n{mat}", cp, pool=SLOGANS),
    ])


TOPICS = ["autumn rain", "a lost umbrella", "the first day of school", "a lighthouse keeper",
          "morning coffee", "a cat who hates Mondays", "moving to a new city", "the last day of summer"]


def nm_genre():
    return slot_category("nm_genre", [
        T("Write a {x} about {topic}.",
          [("haiku", "limerick"), ("short poem", "short story opening"),
           ("sonnet", "free-verse poem")], pool=None, topic=TOPICS),
        T("Write the opening paragraph of a {x} story about {topic}.",
          [("mystery", "romance"), ("science fiction", "fairy-tale"), ("horror", "comedy")],
          pool=None, topic=TOPICS),
        T("I need a {x} about {topic} for a school assignment.",
          [("rhyming poem", "short story"), ("diary entry", "news report"),
           ("ballad", "haiku sequence")], pool=None, topic=TOPICS),
        T("Write a {x} that starts with the line \"The train was late again.\"",
          [("poem", "short story"), ("song chorus", "diary entry"),
           ("limerick", "screenplay scene"), ("haiku", "news article")], pool=None),
        T("Can you write a {x} for my friend who just adopted a puppy?",
          [("card message", "limerick"), ("short poem", "funny toast"),
           ("haiku", "two-line rhyme")], pool=None),
        T("Compose a {x} for my parents' 40th wedding anniversary.",
          [("toast", "poem"), ("speech", "limerick"), ("card message", "song verse")],
          pool=None),
    ])


def nm_brief_detail():
    return slot_category("nm_brief_detail", [
        T("Write a toast for my {x} wedding.",
          [("sister's", "brother's"), ("best friend Jake's", "best friend Lily's"),
           ("cousin's", "boss's"), ("son's", "daughter's")], pool=None),
        T("Write a short birthday poem for my grandmother's {x} birthday.",
          [("80th", "90th"), ("70th", "100th"), ("75th", "85th")], pool=None),
        T("Draft an announcement that our office is moving to {x}.",
          [("Chicago on June 1", "Boston on June 1"), ("Chicago on June 1", "Chicago on July 1"),
           ("the fifth floor next week", "the ground floor next week")], pool=None),
        T("Write an apology email to a customer whose order arrived {x}.",
          [("three days late", "damaged"), ("with a missing item", "in the wrong size"),
           ("a week late", "at the wrong address"),
           ("two days early", "two weeks late")], pool=None),
        T("Write a LinkedIn bio for a {x} with 10 years of experience.",
          [("nurse", "pharmacist"), ("graphic designer", "UX researcher"),
           ("high-school teacher", "school principal"),
           ("wedding photographer", "real-estate agent")], pool=None),
        T("Write a retirement announcement for {x}.",
          [("Karen after 25 years in accounting", "Karen after 35 years in accounting"),
           ("Mr. Lopez, our head chef", "Mr. Lopez, our head gardener"),
           ("Dr. Singh, our lab director", "Dr. Singh, our chief nurse")], pool=None),
        T("Write a story opening set in {x}.",
          [("a lighthouse in 1890", "a space station in 2190"),
           ("a snowy mountain village", "a crowded desert market"),
           ("a flooded subway station", "an empty school at midnight")], pool=None),
    ])


# ---------------------------------------------------------------------------
# Positives
# ---------------------------------------------------------------------------

# Task families: every phrasing of one family asks for the same output.
FAMILIES = [
    ["Shorten this", "Make this shorter", "Cut this down", "Trim this down"],
    ["Proofread this", "Give this a proofread", "Run a proofread on this", "Do a proofread of this"],
    ["Summarize this", "Give me a summary of this", "Sum this up", "Write a summary of this"],
    ["Make this more formal", "Rewrite this in a more formal tone", "Give this a more formal tone", "Make this sound more formal"],
    ["Make this friendlier", "Make this sound friendlier", "Rewrite this in a friendlier tone", "Give this a friendlier tone"],
    ["Translate this into Spanish", "Translate this to Spanish", "Put this into Spanish", "Give me a Spanish translation of this"],
    ["Translate this into French", "Translate this to French", "Put this into French", "Give me a French translation of this"],
    ["Translate this into German", "Translate this to German", "Put this into German", "Give me a German translation of this"],
    ["Translate this into Japanese", "Translate this to Japanese", "Put this into Japanese", "Give me a Japanese translation of this"],
    ["Turn this into bullet points", "Convert this into bullet points", "Rewrite this as bullet points", "Make this a bulleted list"],
    ["Expand this", "Make this longer", "Lengthen this", "Flesh this out"],
    ["Simplify this", "Make this simpler", "Rewrite this in simpler language", "Put this in simpler words"],
    ["Fix the grammar in this", "Correct the grammar in this", "Fix the grammar of this", "Correct the grammar of this"],
    ["Make this more persuasive", "Make this more convincing", "Rewrite this to be more persuasive", "Give this a more persuasive tone"],
]


def pos_category(name, make, n=N_PER_CATEGORY):
    """make(i) -> (stored, query); collects n unique pairs."""
    out, seen, i = [], set(), 0
    while len(out) < n:
        if i > 5000:
            raise RuntimeError("cannot fill " + name)
        stored, query = make(i)
        i += 1
        if stored == query or (stored, query) in seen or (query, stored) in seen:
            continue
        seen.add((stored, query))
        out.append({"category": name, "stored": stored, "query": query})
    return out


def material(i):
    return MATERIALS[(i * 7 + rng.randrange(3)) % len(MATERIALS)]


def family(i):
    return FAMILIES[(i * 5 + rng.randrange(2)) % len(FAMILIES)]


def pos_instruction_reworded():
    frames = [
        "{p}:\n\n{mat}",
        "{p}: \"{mat}\"",
        "{p}.\n{mat}",
        "{mat}\n\n{p}.",
        "{p}, please:\n{mat}",
        "Here is my {kind}. {p}:\n{mat}",
        "{p} (it's my {kind}):\n{mat}",
    ]

    def make(i):
        fr = pick(frames, i)
        kind, mat = material(i)
        p1, p2 = rng.sample(family(i), 2)
        return fr.format(p=p1, mat=mat, kind=kind), fr.format(p=p2, mat=mat, kind=kind)
    return pos_category("pos_instruction_reworded", make)


def pos_instruction_moved():
    frames = [
        ("{p}:\n{mat}", "{mat}\n\n{p}."),
        ("{p}: \"{mat}\"", "\"{mat}\"\n{p}."),
        ("{p}.\n\n{mat}", "{mat}\n\n{p}."),
        ("{p} (it's my {kind}):\n{mat}", "{mat}\n\n{p} (it's my {kind})."),
        ("{p}:\n---\n{mat}\n---", "---\n{mat}\n---\n{p}."),
        ("{p}: {mat}", "{mat}\n{p}."),
        ("Here it is:\n{mat}\n\n{p}.", "{p}.\nHere it is:\n{mat}"),
    ]

    def make(i):
        a, b = pick(frames, i)
        kind, mat = material(i)
        p = rng.choice(family(i))
        s, q = a.format(p=p, mat=mat, kind=kind), b.format(p=p, mat=mat, kind=kind)
        return (s, q) if rng.random() < 0.5 else (q, s)
    return pos_category("pos_instruction_moved", make)


def pos_polite_wrapper():
    frames = [
        ("{P}:\n{mat}", "Please {p}:\n{mat}"),
        ("{P}:\n{mat}", "Could you {p}?\n{mat}"),
        ("{P}:\n{mat}", "I need you to {p}:\n{mat}"),
        ("Please {p}:\n{mat}", "Would you be so kind as to {p}?\n{mat}"),
        ("{P}.\n\n{mat}", "Can you please {p}?\n\n{mat}"),
        ("{P}: \"{mat}\"", "I'd really appreciate it if you could {p}: \"{mat}\""),
        ("Could you please {p}?\n{mat}", "{P}.\n{mat}"),
        ("{mat}\n\n{P}.", "{mat}\n\nKindly {p}."),
    ]

    def make(i):
        a, b = pick(frames, i)
        kind, mat = material(i)
        P = rng.choice(family(i))
        p = lower_first(P)
        s, q = a.format(P=P, p=p, mat=mat), b.format(P=P, p=p, mat=mat)
        return (s, q) if rng.random() < 0.5 else (q, s)
    return pos_category("pos_polite_wrapper", make)


def pos_greeting_thanks():
    frames = [
        ("{P}:\n{mat}", "Hi! {P}:\n{mat}"),
        ("{P}:\n{mat}", "{P}:\n{mat}\nThanks a lot!"),
        ("{P}:\n{mat}", "Good morning! {P}:\n{mat}\nThank you!"),
        ("{P}: \"{mat}\"", "Hey there. {P}: \"{mat}\" Thanks in advance."),
        ("{mat}\n\n{P}.", "{mat}\n\n{P}. Thanks so much!"),
        ("Hello! {P}:\n{mat}", "{P}:\n{mat}"),
        ("{P}.\n\n{mat}", "Hi, hope you're well. {P}.\n\n{mat}\n\nCheers!"),
    ]

    def make(i):
        a, b = pick(frames, i)
        kind, mat = material(i)
        P = rng.choice(family(i))
        s, q = a.format(P=P, mat=mat), b.format(P=P, mat=mat)
        return (s, q) if rng.random() < 0.5 else (q, s)
    return pos_category("pos_greeting_thanks", make)


def pos_case_whitespace():
    variants = [
        lambda P: P.lower(),
        lambda P: P.upper(),
        lambda P: P.title(),
        lambda P: P.replace(" ", "  "),
        lambda P: "   " + P + "  ",
        lambda P: P.lower().replace(" ", "   "),
    ]
    frames = [
        ("{P}:\n{mat}", "{V}:\n{mat}"),
        ("{P}:\n{mat}", "{V} :\n\n{mat}"),
        ("{P}: \"{mat}\"", "{V}: \"{mat}\""),
        ("{mat}\n\n{P}.", "{mat}\n\n\n{V}."),
        ("{P}.\n{mat}", "{V}.\n{mat}"),
        ("{P}:\n\n{mat}", "\n{V}:\n{mat}"),
    ]

    def make(i):
        a, b = pick(frames, i)
        var = variants[(i + i // len(frames)) % len(variants)]
        kind, mat = material(i)
        P = rng.choice(family(i))
        s, q = a.format(P=P, mat=mat), b.format(V=var(P), mat=mat)
        return (s, q) if rng.random() < 0.5 else (q, s)
    return pos_category("pos_case_whitespace", make)


def pos_material_delimiter():
    frames = [
        ("{P}: {mat}", "{P}:\n\"{mat}\""),
        ("{P}:\n{mat}", "{P}:\n\"\"\"\n{mat}\n\"\"\""),
        ("{P}: \"{mat}\"", "{P}:\n```\n{mat}\n```"),
        ("{P}:\n\n{mat}", "{P}: '{mat}'"),
        ("{P}.\nText: {mat}", "{P}.\n\n{mat}"),
        ("{P}:\n> {mat}", "{P}: \"{mat}\""),
        ("{P}:\n---\n{mat}\n---", "{P}: {mat}"),
    ]

    def make(i):
        a, b = pick(frames, i)
        kind, mat = material(i)
        P = rng.choice(family(i))
        s, q = a.format(P=P, mat=mat), b.format(P=P, mat=mat)
        return (s, q) if rng.random() < 0.5 else (q, s)
    return pos_category("pos_material_delimiter", make)


CONSTRAINT_FAMILIES = [
    ["in under 50 words", "in fewer than 50 words", "in less than 50 words", "in under fifty words"],
    ["in 40 words max", "in at most 40 words", "in no more than 40 words", "in a maximum of 40 words"],
    ["in two sentences", "in 2 sentences", "in exactly two sentences", "using two sentences"],
    ["in one sentence", "in a single sentence", "in 1 sentence", "as one sentence"],
    ["in under 280 characters", "in fewer than 280 characters", "in less than 280 characters", "in under 280 chars"],
    ["as three bullet points", "as 3 bullet points", "in three bullet points", "in 3 bullets"],
    ["in a formal tone", "in formal language", "in a formal register", "in a formal style"],
    ["for a ten-year-old", "for a 10-year-old", "for a ten year old", "for a 10 year old"],
    ["as a numbered list", "as a numbered list of points", "in numbered-list form", "in the form of a numbered list"],
]

VERBS = [("Summarize", "summarize", "summarized"), ("Rewrite", "rewrite", "rewritten")]


def pos_constraint_phrasing():
    frames = [
        "{V} this {kind} {c}:\n{mat}",
        "{mat}\n\n{V} the {kind} above {c}.",
        "Can you {v} this {kind} {c}?\n{mat}",
        "I need this {kind} {ved} {c}: \"{mat}\"",
        "Please {v} the following {kind} {c}.\n\n{mat}",
        "{V} this {kind} {c}, thanks:\n{mat}",
    ]

    def make(i):
        fr = pick(frames, i)
        cf = CONSTRAINT_FAMILIES[(i * 4 + rng.randrange(2)) % len(CONSTRAINT_FAMILIES)]
        V, v, ved = VERBS[rng.randrange(2)]
        kind, mat = material(i)
        c1, c2 = rng.sample(cf, 2)
        f = dict(V=V, v=v, ved=ved, kind=kind, mat=mat)
        return fr.format(c=c1, **f), fr.format(c=c2, **f)
    return pos_category("pos_constraint_phrasing", make)


MOVABLE_CONSTRAINTS = ["in under 50 words", "in two sentences", "in one sentence",
                       "in a formal tone", "in Spanish", "in under 280 characters",
                       "for a ten-year-old", "in three bullet points", "in French"]


def pos_constraint_position():
    frames = [
        ("{V} this {kind} {c}:\n{mat}", "{C}, {v} this {kind}:\n{mat}"),
        ("{mat}\n\n{V} this {kind} {c}.", "{mat}\n\n{C}, {v} this {kind}."),
        ("Please {v} this {kind} {c}: \"{mat}\"", "{C}, please {v} this {kind}: \"{mat}\""),
        ("Can you {v} this {kind} {c}?\n{mat}", "Can you {v} this {kind}? {C}, please.\n{mat}"),
        ("{V} the following {kind} {c}.\n\n{mat}", "{V} the following {kind}. Do it {c}.\n\n{mat}"),
        ("{V} this {kind} {c}:\n{mat}", "{V} this {kind}:\n{mat}\n\n{C}, please."),
    ]

    def make(i):
        a, b = pick(frames, i)
        c = MOVABLE_CONSTRAINTS[(i * 2 + rng.randrange(3)) % len(MOVABLE_CONSTRAINTS)]
        V, v, _ = VERBS[rng.randrange(2)]
        kind, mat = material(i)
        f = dict(V=V, v=v, c=c, C=upper_first(c), kind=kind, mat=mat)
        s, q = a.format(**f), b.format(**f)
        return (s, q) if rng.random() < 0.5 else (q, s)
    return pos_category("pos_constraint_position", make)


def informal(p):
    words = p.lower().split()
    repl = {"you": "u", "your": "ur", "please": "pls", "thanks": "thx"}
    return " ".join(repl.get(w, w) for w in words)


def pos_informal_typing():
    frames = [
        ("Could you please {p}?\n{mat}", "could u pls {q}\n{mat}"),
        ("{P}, please:\n{mat}", "{q} pls:\n{mat}"),
        ("Can you {p} for me?\n{mat}", "can u {q} for me??\n{mat}"),
        ("Please {p}. Thank you!\n{mat}", "pls {q} thx\n{mat}"),
        ("I need you to {p}:\n{mat}", "need u to {q}:\n{mat}"),
        ("Could you {p}?\n{mat}", "cn u {q}\n{mat}"),
        ("Hi, could you {p}? Thanks.\n{mat}", "hi cud u {q}? ty\n{mat}"),
    ]

    def make(i):
        a, b = pick(frames, i)
        kind, mat = material(i)
        P = rng.choice(family(i))
        p = lower_first(P)
        s, q = a.format(P=P, p=p, mat=mat), b.format(q=informal(P), mat=mat)
        return (s, q) if rng.random() < 0.5 else (q, s)
    return pos_category("pos_informal_typing", make)


def pos_synonym_instruction():
    langs = ["Spanish", "French", "German", "Italian", "Japanese"]
    templates = [
        ("{s} the grammar in this {kind}:\n{mat}", [("Fix", "Correct")]),
        ("Write a {s} summary of this {kind}:\n{mat}", [("short", "brief"), ("quick", "brief"), ("short", "quick")]),
        ("{s} this {kind} into {lang}:\n{mat}", [("Translate", "Put")]),
        ("Fix the {s} in this {kind}: \"{mat}\"", [("spelling mistakes", "spelling errors"), ("spelling mistakes", "misspellings")]),
        ("{s} this {kind} so it sounds more professional:\n{mat}", [("Rewrite", "Rephrase"), ("Rewrite", "Reword"), ("Rephrase", "Reword")]),
        ("Make this {kind} {s}:\n{mat}", [("shorter", "briefer"), ("more polite", "more courteous"), ("easier to read", "more readable")]),
        ("{mat}\n\nTurn the {kind} above into a list of {s}.", [("bullet points", "bullets")]),
        ("{s} a good title for this {kind}:\n{mat}", [("Give me", "Suggest"), ("Come up with", "Suggest")]),
    ]

    def make(i):
        fr, pairs = pick(templates, i)
        s1, s2 = pairs[(i // len(templates)) % len(pairs)]
        if rng.random() < 0.5:
            s1, s2 = s2, s1
        kind, mat = material(i)
        lang = rng.choice(langs)
        return (fr.format(s=s1, kind=kind, mat=mat, lang=lang),
                fr.format(s=s2, kind=kind, mat=mat, lang=lang))
    return pos_category("pos_synonym_instruction", make)


BRIEFS = [
    "a short toast for my sister Maya's wedding",
    "a three-sentence apology to my neighbor for the loud party on Saturday",
    "a friendly email announcing that our office will close early on December 23",
    "a 50-word bio for a freelance photographer based in Lisbon",
    "a four-line poem about autumn rain",
    "an opening paragraph for a mystery story set on a night train",
    "a thank-you note to my team for finishing the project early",
    "a formal email asking my manager for Friday off",
    "a short retirement announcement for our colleague Dennis after 30 years",
    "a funny birthday message for my dad's 60th",
    "a tweet announcing our new oat-milk latte",
    "a polite reminder to tenants that rent is due on the 1st",
    "a haiku about morning coffee",
    "a two-paragraph welcome message for new members of our hiking club",
]


def pos_brief_reworded():
    frames = [
        ("Write {b}.", "Can you write {b}?"),
        ("Write {b}.", "I need {b}."),
        ("Draft {b}.", "Please draft {b}."),
        ("Could you please write {b}?", "Write {b}."),
        ("I need {b}.", "Help me write {b}."),
        ("Compose {b}.", "Write {b}, please."),
        ("Please write {b}.", "I'd like you to write {b}."),
    ]

    def make(i):
        a, b = pick(frames, i)
        brief = BRIEFS[(i * 3 + rng.randrange(2)) % len(BRIEFS)]
        s, q = a.format(b=brief), b.format(b=brief)
        return (s, q) if rng.random() < 0.5 else (q, s)
    return pos_category("pos_brief_reworded", make)


# ---------------------------------------------------------------------------

def count_by_category(items):
    counts = {}
    for it in items:
        counts[it["category"]] = counts.get(it["category"], 0) + 1
    return counts


def main():
    text_pairs = []
    for fn in (nm_length, nm_tone, nm_audience, nm_language, nm_format, nm_task_verb,
               nm_material_detail, nm_sentence_added, nm_negation, nm_include_avoid,
               nm_person, nm_tense, nm_recipient_sender, nm_item_count, nm_genre,
               nm_brief_detail):
        text_pairs.extend(fn())
    positives = []
    for fn in (pos_instruction_reworded, pos_instruction_moved, pos_polite_wrapper,
               pos_greeting_thanks, pos_case_whitespace, pos_material_delimiter,
               pos_constraint_phrasing, pos_constraint_position, pos_informal_typing,
               pos_synonym_instruction, pos_brief_reworded):
        positives.extend(fn())

    # Sanity checks: non-identical sides, global uniqueness, no cross-list overlap.
    keys = set()
    for it in text_pairs + positives:
        assert it["stored"] != it["query"], it
        key = frozenset((it["stored"], it["query"]))
        assert key not in keys, it
        keys.add(key)

    nm_counts = count_by_category(text_pairs)
    pos_counts = count_by_category(positives)
    description = (
        "Held-out set v37, written blind (without reading the project's code, rules, "
        "tests or other sets). Theme: writing and editing tasks given to a chat "
        "assistant - rewriting, proofreading, shortening, expanding, summarizing or "
        "translating pasted emails, paragraphs, product descriptions, cover-letter "
        "paragraphs, social-media posts, meeting notes and slogans, and writing new "
        "texts (emails, toasts, apologies, announcements, bios, poems, story openings) "
        "from short briefs. text_pairs are must-not-hit near misses ("
        + ", ".join("%s: %d" % kv for kv in nm_counts.items())
        + "); positives are true paraphrases with the material kept character for "
        "character ("
        + ", ".join("%s: %d" % kv for kv in pos_counts.items())
        + "). %d text_pairs, %d positives. Generated by make_heldout_v37.py with "
        "random.Random(%d)." % (len(text_pairs), len(positives), SEED)
    )
    data = {"description": description, "text_pairs": text_pairs, "positives": positives}
    OUT_PATH.parent.mkdir(parents=True, exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print("wrote %s: %d text_pairs, %d positives" % (OUT_PATH, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
