#!/usr/bin/env python3
"""Generate held-out evaluation set v27 for the semantic prompt cache.

Theme: LONGER prompts that carry PASTED MATERIAL plus an instruction, the way
people send them to a chat assistant.  The material is written by this script
from templates and small word lists: emails and chat messages, customer
complaints, paragraphs of news/company reports, product reviews, meeting notes,
contract clauses, service logs, Python tracebacks, JSON configs, docker-compose
YAML, 5-25 line code blocks (Python, JavaScript, SQL, bash), CSV excerpts,
maintenance checklists, incident timelines and recipes.  The instruction is
placed before or after the material, sometimes with a label line ("Email
below:") and with code fences, quotes, bullets and indentation as real users
paste them.  Every prompt has 40-300 words; roughly half have more than 100.

text_pairs -- 180 near-miss pairs (12 categories x 15).  Stored and query
share almost all of their text but need DIFFERENT answers, so a cache must not
serve one for the other:
  material_number_changed, material_name_changed, material_negation,
  material_code_changed, material_line_removed_or_added,
  material_order_changed, instruction_task_changed,
  instruction_length_or_format, instruction_audience_or_tone,
  instruction_language, instruction_focus, material_swapped_roles.
Material edits are applied to a parameterised material template (one value,
one negation, one code token, one line, one swap of two steps or of two
roles).  For material edits the instruction is drawn from tasks whose answer
necessarily reflects the edited detail (translate, rewrite keeping every fact,
extract every fact as JSON, "what does this print", root-cause analysis, ...).

positives -- 150 true-paraphrase pairs (10 categories x 15).  Both prompts
carry IDENTICAL material and mean exactly the same; only the listed surface
feature differs, so a cache SHOULD serve the stored answer:
  instruction_reworded, instruction_moved, greeting_or_thanks_added,
  whitespace_and_line_breaks (prose material only, never indentation-
  significant code), casing_of_instruction, fence_or_quote_style,
  filler_context_added, question_form, contractions_and_informal,
  label_words.

Every category draws from at least five material templates (28 material
builders in total) and, for the positive categories, from at least five
framing templates (greetings, fillers, whitespace edits, casing edits, fence
styles, label sets, paraphrase families).

Deterministic: standard library only, random.Random(272727).  Run from the
repository root:  python3 benchmarks/caches/make_heldout_v27.py
It writes benchmarks/caches/data/heldout_generated_v27.json.

This set was written BLIND: without reading any other data set, test, code or
documentation of the project.
"""

import copy
import json
import os
import re
import textwrap
import random

SEED = 272727
R = random.Random(SEED)

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_PATH = os.path.join(HERE, "data", "heldout_generated_v27.json")

# ---------------------------------------------------------------------------
# word lists
# ---------------------------------------------------------------------------
FIRST = ["Anna", "Ben", "Carla", "David", "Elena", "Farid", "Grace", "Hiro", "Ines", "Jonas",
         "Kavya", "Liam", "Maya", "Nikos", "Olga", "Priya", "Quentin", "Rosa", "Sami", "Tomas",
         "Uma", "Victor", "Wen", "Yusuf", "Zoe", "Marta", "Oscar", "Leila", "Dmitri", "Chloe"]
LAST = ["Novak", "Okafor", "Lindqvist", "Moreau", "Tanaka", "Rossi", "Schmidt", "Haddad",
        "Kowalski", "Fernandes", "Byrne", "Nakamura", "Petrov", "Alvarez", "Mensah", "Larsen",
        "Duarte", "Sato", "Weber", "Quinn"]
COMPANIES = ["Northwind Logistics", "Brightline Media", "Kestrel Analytics", "Halden Foods",
             "Orbis Health", "Pinecrest Bank", "Tidewater Energy", "Lumen Works",
             "Granite Peak Software", "Bluefin Travel", "Atlas Freight", "Cobalt Labs",
             "Meridian Insurance", "Redwood Retail", "Silverline Telecom", "Juniper Textiles"]
CITIES = ["Lisbon", "Toronto", "Osaka", "Denver", "Krakow", "Nairobi", "Melbourne", "Dublin",
          "Austin", "Lyon", "Seattle", "Porto", "Valencia", "Leeds", "Rotterdam", "Brno"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
TIMES = ["8:30 am", "9:00 am", "9:30 am", "10:00 am", "10:45 am", "11:15 am", "1:00 pm",
         "1:30 pm", "2:30 pm", "3:00 pm", "4:15 pm", "5:00 pm"]
ROOMS = ["2B", "3A", "4C", "5.12", "Orion", "Atlas", "Maple", "Harbor"]
LANGS = ["French", "Spanish", "German", "Italian", "Portuguese", "Dutch", "Japanese", "Polish"]
REGIONS = ["Latin America", "Southeast Asia", "Eastern Europe", "West Africa", "the Nordics",
           "the Gulf states"]
ACQ_WHAT = ["route-planning software for delivery fleets", "payment terminals for small shops",
            "sensors for cold-chain monitoring", "scheduling tools for clinics",
            "recycling equipment for packaging plants", "booking software for gyms"]
TEAMS = ["Mobile", "Payments", "Growth", "Platform", "Data", "Support tooling", "Web"]
FEATURES = ["dark mode", "the new checkout flow", "offline sync", "the referral programme",
            "CSV export", "two-factor login", "the redesigned search page"]
SERVICES = ["billing-api", "search-gateway", "user-profile", "media-uploader", "payments-core",
            "order-service", "auth-api", "notification-service"]
FEATS = ["invoices", "refunds", "exports", "webhooks", "audit_log", "multi_currency", "sso"]
REVIEW_CATS = [
    ("headphones", ["Quietline Q3", "Soundwave S2", "Aurelo Mini"],
     "The noise cancelling is excellent on trains and the battery easily lasts a full work week",
     "the ear cushions get warm after an hour and the case feels cheap"),
    ("blender", ["AeroBlend 500", "VitaSpin Pro", "Kitchora X2"],
     "It crushes ice in seconds and the jug goes straight into the dishwasher",
     "it is very loud and the lid leaked twice when I made soup"),
    ("backpack", ["Trailmate 30L", "Northpeak Scout", "Roamwell Daypack"],
     "It fits a 15-inch laptop with room to spare and the straps stay comfortable all day",
     "the side pockets are too shallow to hold a water bottle"),
    ("desk lamp", ["Lumo Arc", "Brightline Slim", "Halo Flex"],
     "The light is warm and even, and the arm stays exactly where you put it",
     "the touch controls are oversensitive and it sometimes switches off by itself"),
    ("pair of running shoes", ["StrideFlex 2", "Paceline Glide", "VeloRun 5"],
     "They are light and the cushioning makes long runs much easier on my knees",
     "the sole started peeling off after about 200 km"),
    ("smartwatch", ["Pulse X2", "Tempo Fit", "Orbit S"],
     "The heart-rate readings match my chest strap and the screen is easy to read in sunlight",
     "the app crashes while syncing and the strap irritates my wrist"),
    ("electric kettle", ["BrewMaster K1", "Calda Steel", "Boilo Mini"],
     "It boils a full litre in under three minutes and the temperature presets are genuinely useful",
     "the lid is stiff and the water tasted of plastic for the first few days"),
    ("robot vacuum", ["Sweepo R5", "CleanPath 300", "Dustin Go"],
     "It maps the flat accurately and handles the rugs without getting stuck",
     "the bin is tiny and has to be emptied after every run"),
]
REVIEW_TITLES = ["Solid, with a couple of flaws", "My honest take after a few weeks",
                 "Not bad for the price", "Mixed feelings", "Worth a look"]
TICKET_SUMMARIES = ["Cannot log in after password reset", "Invoice PDF shows the wrong VAT number",
                    "Export to Excel times out for large reports",
                    "Mobile app crashes when uploading photos",
                    "Two-factor codes arrive several minutes late",
                    "Dashboard only shows yesterday's data", "Refund not received after 14 days",
                    "Search returns nothing for accented names",
                    "Email notifications end up in spam", "Cannot change the billing address"]
MEMOS = ["share of the concert tickets", "rent for the month, my half",
         "birthday present for Sam", "groceries from the weekend", "train tickets to the coast",
         "electricity bill split", "dinner at the Thai place", "deposit for the holiday cottage"]
CART_ITEMS = [("notebook", "4.5"), ("pen", "1.2"), ("backpack", "39.99"), ("mug", "8"),
              ("stapler", "6.75"), ("desk lamp", "24.5"), ("USB cable", "7.99"), ("planner", "12.25")]
PRICES = ["19.99", "5.50", "42.00", "12.75", "8.25", "99.90", "3.49", "24.00", "61.20"]
COMPLAINT_PRODUCTS = ["ceramic mugs", "linen napkins", "cushion covers", "water bottles",
                      "phone cases", "bath towels"]
COLORS = ["navy", "sage green", "terracotta", "charcoal", "mustard yellow", "dusty pink"]


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def pick(seq):
    return R.choice(seq)


def other(seq, cur):
    return R.choice([x for x in seq if x != cur])


def other_int(cur, lo, hi):
    return R.choice([v for v in range(lo, hi + 1) if v != cur])


def fill(t, **kw):
    for _ in range(3):
        for k, v in kw.items():
            t = t.replace("<<%s>>" % k, str(v))
    assert "<<" not in t, t
    return t


def mset(key, fn):
    def m(p):
        q = copy.deepcopy(p)
        q[key] = fn(p[key])
        return q
    return m


def mtoggle(key):
    return mset(key, lambda v: not v)


def mswap(k1, k2):
    def m(p):
        q = copy.deepcopy(p)
        q[k1], q[k2] = p[k2], p[k1]
        return q
    return m


def words(s):
    return len(s.split())


class Builder:
    """One parameterised material template plus what can be varied in it."""

    def __init__(self, name, **kw):
        self.name = name
        self.numbers = []
        self.names = []
        self.code = []
        self.order = []
        self.roles = None
        self.neg = False
        self.extra = False
        self.request = False
        self.prose = False
        self.lang = None
        self.alt_tasks = []
        self.__dict__.update(kw)


BUILDERS = []


def add(b):
    BUILDERS.append(b)
    return b


EMAIL_LABELS = ["Here is the email:", "Email below:", "The email:", "Here's the email:",
                "Email text:", "This is the email:"]

# ---------------------------------------------------------------------------
# 1. email: meeting confirmation
# ---------------------------------------------------------------------------


def g_meet():
    s, r, h = R.sample(FIRST, 3)
    return dict(sender=s, recipient=r, helper="%s %s" % (h, pick(LAST)), company=pick(COMPANIES),
                weekday=pick(WEEKDAYS), dnum=R.randint(2, 28), month=pick(MONTHS),
                time=pick(TIMES), city=pick(CITIES), room=pick(ROOMS), people=R.randint(6, 24),
                neg=R.random() < 0.3, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_meet(p):
    body = fill("Thanks for sending the agenda. Just confirming the details on my side: the "
                "<<company>> planning session is on <<weekday>> <<dnum>> <<month>> at <<time>> "
                "at our <<city>> office, room <<room>>, and we are expecting <<people>> people.", **p)
    body += (" I will not be able to join in person." if p["neg"]
             else " I will be able to join in person.")
    if p["extra"]:
        body += " Could you also book a projector? The one in that room has been broken since last month."
    parts = ["Subject: %s planning session" % p["company"], "Hi %s," % p["recipient"], body]
    if p["long"]:
        parts.append(fill("<<helper>> will bring the updated budget figures, and I will send round "
                          "last quarter's slides by Friday so everyone has time to read them "
                          "beforehand. If the room turns out to be too small, the lounge on the "
                          "fourth floor is usually free in the afternoons, and catering can be "
                          "moved there with a day's notice.", **p))
    parts.append("Best,\n%s" % p["sender"])
    return "\n\n".join(parts)


add(Builder(
    "email_meet", obj="this email", group="email", univ="prose", prose=True,
    gen=g_meet, render=r_meet, labels=EMAIL_LABELS,
    tasks=[("Summarize this email in two sentences, keeping every name, date, time and number.", "num name roles"),
           ("Rewrite this email so it is shorter, without dropping any detail.", "*"),
           ("Turn this email into a calendar invite with title, date, time, location, attendance and notes.", "num name neg line")],
    alt_tasks=["Write a short reply to this email confirming that the plan works for me.",
               "List the questions I should ask the sender before the session."],
    questions=lambda p: ["What time does the session start?", "How many people are expected?",
                         "Which room is the session in?", "Is the sender going to attend in person?",
                         "Which office is the session at?"],
    numbers=[mset("time", lambda v: other(TIMES, v)), mset("people", lambda v: other_int(v, 6, 24)),
             mset("dnum", lambda v: other_int(v, 2, 28))],
    names=[mset("city", lambda v: other(CITIES, v)), mset("company", lambda v: other(COMPANIES, v))],
    neg=True, extra=True, roles=mswap("sender", "recipient"),
    intents=["summ2", "points3", "reply", "translate"]))

# ---------------------------------------------------------------------------
# 2. email: overdue invoice
# ---------------------------------------------------------------------------


def g_inv():
    s, r = R.sample(FIRST, 2)
    return dict(sender="%s %s" % (s, pick(LAST)), recipient=r, vendor=pick(COMPANIES),
                inv=R.randint(10000, 99999), amount=R.randint(12, 380) * 25,
                due="%d %s" % (R.randint(1, 28), pick(MONTHS)), days=R.randint(5, 60),
                fee=pick(["1.5", "2", "3", "5"]), month2=pick(MONTHS),
                neg=R.random() < 0.4, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_inv(p):
    amt = "${:,}.00".format(p["amount"])
    body = fill("I hope you are well. I am writing from the accounts team at <<vendor>> about "
                "invoice #<<inv>> for <<amt>>, which was due on <<due>>. According to our records "
                "it is now <<days>> days overdue.", amt=amt, **p)
    body += fill(" A late fee of <<fee>>% will not be added to the balance." if p["neg"]
                 else " A late fee of <<fee>>% will be added to the balance.", **p)
    if p["extra"]:
        body += fill(" Please note that our bank details changed on 1 <<month2>>, so payments "
                     "sent to the old account will be returned.", **p)
    parts = ["Subject: Overdue invoice #%d" % p["inv"], "Hello %s," % p["recipient"], body]
    if p["long"]:
        parts.append("If payment has already been sent, please disregard this message and forward "
                     "the remittance advice so that we can match it to your account. If there is "
                     "a problem with the invoice itself, for example a missing purchase order "
                     "number or an incorrect address, let me know and I will issue a corrected "
                     "copy the same day.")
    parts.append(fill("Kind regards,\n<<sender>>\nAccounts Receivable, <<vendor>>", **p))
    return "\n\n".join(parts)


add(Builder(
    "email_invoice", obj="this email", group="email", univ="prose", prose=True,
    gen=g_inv, render=r_inv, labels=EMAIL_LABELS,
    tasks=[("Summarize this email in two sentences, keeping every figure and date.", "num neg"),
           ("Extract every fact in this email (invoice number, amount, due date, days overdue, late fee and any other notices) as JSON.", "*"),
           ("Rewrite this email in a firmer tone, keeping every fact and figure.", "*")],
    alt_tasks=["Write a polite reply saying we will pay by Friday.",
               "Draft an internal note to our finance team about this email."],
    questions=lambda p: ["How much money is owed?", "When was the invoice due?",
                         "Will a late fee be added?", "What is the invoice number?",
                         "How many days overdue is the invoice?"],
    numbers=[mset("amount", lambda v: v + pick([-250, -100, 100, 250, 500])),
             mset("days", lambda v: other_int(v, 5, 60)),
             mset("fee", lambda v: other(["1.5", "2", "3", "5"], v)),
             mset("inv", lambda v: v + pick([1, 9, 10, 100]))],
    names=[mset("vendor", lambda v: other(COMPANIES, v))],
    neg=True, extra=True,
    intents=["summ2", "points3", "reply", "translate"]))

# ---------------------------------------------------------------------------
# 3. product review
# ---------------------------------------------------------------------------


def g_rev():
    cat, prods, pro, con = pick(REVIEW_CATS)
    return dict(cat=cat, prods=prods, product=pick(prods), pro=pro, con=con,
                stars=R.randint(2, 5), price=R.randint(25, 320), weeks=R.randint(2, 20),
                sdays=R.randint(3, 12), title=pick(REVIEW_TITLES),
                reviewer="%s %s." % (pick(FIRST), pick(LAST)[0]), city=pick(CITIES),
                neg=R.random() < 0.4, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_rev(p):
    t = fill('Rating: <<stars>>/5\nTitle: "<<title>>"\n\nI bought the <<product>> <<cat>> for '
             '$<<price>> about <<weeks>> weeks ago. <<pro>>. On the downside, <<con>>.', **p)
    if p["extra"]:
        t += fill(" Customer support took <<sdays>> days to reply to my email about it.", **p)
    if p["long"]:
        t += (" I compared it with two other models in the shop before buying, and this one "
              "seemed to have the best build quality for the money. Delivery was quick and the "
              "packaging was mostly recyclable, which I appreciate. I use it almost every day, "
              "so I think I have a fair picture of it by now.")
    t += (" Overall, I would not recommend it to a friend." if p["neg"]
          else " Overall, I would recommend it to a friend.")
    t += fill("\n\n- <<reviewer>>, <<city>>", **p)
    return t


def m_rev_product(p):
    q = copy.deepcopy(p)
    q["product"] = other(p["prods"], p["product"])
    return q


add(Builder(
    "review", obj="this review", group="doc", univ="prose", prose=True,
    gen=g_rev, render=r_rev,
    labels=["Here is the review:", "Review below:", "The review:", "Review text:", "Here's the review:"],
    tasks=[("Extract the product, rating, price, time owned, pros, cons, support experience and whether the reviewer recommends it, as JSON.", "*"),
           ("Rewrite this review so it is clearer and more concise, keeping every detail.", "*"),
           ("Write a short public reply to this review on behalf of the manufacturer that names the product and responds to every point, including the recommendation.", "name neg line")],
    alt_tasks=["Classify the sentiment of this review as positive, negative or mixed.",
               "List the pros and cons mentioned in this review."],
    questions=lambda p: ["What does the reviewer like about the product?",
                         "What is the reviewer's main complaint?", "How much did the reviewer pay?",
                         "How long has the reviewer owned it?", "What rating did the reviewer give?"],
    numbers=[mset("stars", lambda v: other_int(v, 1, 5)), mset("price", lambda v: other_int(v, 25, 320)),
             mset("weeks", lambda v: other_int(v, 2, 20))],
    names=[m_rev_product], neg=True, extra=True,
    intents=["summ2", "sentiment", "translate"]))

# ---------------------------------------------------------------------------
# 4. company report paragraph
# ---------------------------------------------------------------------------


def g_rep():
    return dict(company=pick(COMPANIES), ceo_f=pick(FIRST), ceo_l=pick(LAST),
                quarter=pick(["first", "second", "third", "fourth"]), year=R.randint(2021, 2025),
                rev=R.randint(40, 900), growth=R.randint(3, 28), region=pick(REGIONS),
                city=pick(CITIES), heads=pick([40, 60, 80, 120, 150, 200, 250]),
                neg=R.random() < 0.4, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_rep(p):
    t = fill("<<company>> reported revenue of $<<rev>> million for the <<quarter>> quarter of "
             "<<year>>, up <<growth>>% on the same period last year. Chief executive <<ceo_f>> "
             "<<ceo_l>> said the growth came mainly from new contracts in <<region>>. The company "
             "plans to open an office in <<city>> next spring and expects to hire about <<heads>> "
             "people there. <<ceo_l>> added that <<company>> ", **p)
    t += "will not raise prices" if p["neg"] else "will raise prices"
    t += " for existing customers this year."
    if p["extra"]:
        t += " Shares fell 4% in early trading after the announcement."
    if p["long"]:
        t += ("\n\nAnalysts had expected slightly stronger results, mainly because the previous "
              "quarter had included several large one-off orders. Operating margin was broadly "
              "flat, and the company kept its full-year forecast unchanged. The board also "
              "confirmed that the current share buyback programme will continue until the end of "
              "the year.")
    return t


PARA_LABELS = ["Here is the paragraph:", "Paragraph below:", "The paragraph:", "Text:",
               "Here's the excerpt:"]

add(Builder(
    "report_para", obj="this paragraph", group="doc", univ="prose", prose=True,
    gen=g_rep, render=r_rep, labels=PARA_LABELS,
    tasks=[("Write a three-sentence news brief from this paragraph that includes every figure.", "num"),
           ("Extract every fact in this paragraph (company, people, figures, places, plans and market reaction) as a JSON object.", "*"),
           ("Rewrite this paragraph for a general audience, keeping all names, facts and figures.", "*")],
    alt_tasks=["Write three possible headlines for this paragraph.",
               "What questions would an investor ask after reading this paragraph?"],
    questions=lambda p: ["How much revenue did the company report?", "Where will the new office open?",
                         "What did the chief executive say about prices?",
                         "How many people does the company plan to hire?",
                         "Where did most of the growth come from?"],
    numbers=[mset("rev", lambda v: other_int(v, 40, 900)), mset("growth", lambda v: other_int(v, 3, 28)),
             mset("heads", lambda v: other([40, 60, 80, 120, 150, 200, 250], v)),
             mset("year", lambda v: other_int(v, 2021, 2025))],
    names=[mset("company", lambda v: other(COMPANIES, v)), mset("city", lambda v: other(CITIES, v)),
           mset("ceo_l", lambda v: other(LAST, v))],
    neg=True, extra=True,
    intents=["summ2", "points3", "translate"]))

# ---------------------------------------------------------------------------
# 5. acquisition news paragraph
# ---------------------------------------------------------------------------


def g_acq():
    c1, c2 = R.sample(COMPANIES, 2)
    return dict(c1=c1, c2=c2, amt=R.randint(40, 950), weekday=pick(WEEKDAYS), city=pick(CITIES),
                emp=pick([120, 180, 240, 300, 450, 600, 850]), what=pick(ACQ_WHAT),
                closing=pick(["the end of March", "the end of June", "the end of the year",
                              "early next year"]),
                ceo="%s %s" % (pick(FIRST), pick(LAST)),
                neg=R.random() < 0.4, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_acq(p):
    t = fill("<<c1>> has agreed to buy <<c2>> for $<<amt>> million in cash, the two companies "
             "said on <<weekday>>. <<c2>>, which is based in <<city>>, makes <<what>> and employs "
             "about <<emp>> people. The deal is expected to close by <<closing>>, subject to "
             "regulatory approval. The companies said the deal ", **p)
    t += "is not expected to lead to job cuts." if p["neg"] else "is expected to lead to job cuts."
    if p["extra"]:
        t += fill(" <<c2>>'s two founders will leave the business once the deal closes.", **p)
    if p["long"]:
        t += fill(" <<c1>>'s chief executive, <<ceo>>, said the purchase would let the group offer "
                  "a more complete product to its largest customers and would be paid for from "
                  "existing cash. Analysts said the price looked high but reflected how scarce "
                  "such businesses have become, and several expect rivals to look for similar "
                  "deals in the coming months.", **p)
    return t


add(Builder(
    "acquisition_para", obj="this paragraph", group="doc", univ="prose", prose=True,
    gen=g_acq, render=r_acq, labels=PARA_LABELS + ["News item:"],
    tasks=[("Write a two-sentence news brief from this paragraph that names the buyer, the company being bought and the price.", "roles"),
           ("Extract the buyer, the company being bought, the price, the closing date, the job impact and every other fact as JSON.", "*"),
           ("Rewrite this paragraph in plain English for a general audience, keeping every fact.", "*")],
    alt_tasks=["Write a LinkedIn post celebrating this deal.",
               "List the risks of this deal for the employees of the company being bought."],
    questions=lambda p: ["Who is buying whom?", "How much is the deal worth?",
                         "When is the deal expected to close?",
                         "How many people does the company being bought employ?",
                         "Will the deal lead to job cuts?", "Where is the company being bought based?"],
    numbers=[mset("amt", lambda v: other_int(v, 40, 950)),
             mset("emp", lambda v: other([120, 180, 240, 300, 450, 600, 850], v))],
    names=[mset("city", lambda v: other(CITIES, v))],
    neg=True, extra=True, roles=mswap("c1", "c2"),
    intents=["summ2", "points3", "translate"]))

# ---------------------------------------------------------------------------
# 6. meeting notes
# ---------------------------------------------------------------------------


def g_notes():
    att = R.sample(FIRST, 4)
    o1, o2, ra, rb = R.sample(att, 4)
    d = R.sample(WEEKDAYS, 4)
    return dict(team=pick(TEAMS), date="%d %s" % (R.randint(2, 28), pick(MONTHS)), att=att,
                o1=o1, o2=o2, ra=ra, rb=rb, o3=pick(att), feature=pick(FEATURES),
                ldnum=R.randint(2, 28), lmonth=pick(MONTHS), d1=d[0], d2=d[1], d3=d[2], d4=d[3],
                t1=R.randint(90, 200), t2=R.randint(10, 60),
                neg=R.random() < 0.4, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_notes(p):
    L = [fill("<<team>> team sync - <<date>>", **p), "Attendees: " + ", ".join(p["att"]), "",
         "Decisions", fill("- Launch of <<feature>> moved to <<ldnum>> <<lmonth>>.", **p),
         "- We will not keep the beta open to new sign-ups until launch." if p["neg"]
         else "- We will keep the beta open to new sign-ups until launch.",
         "", "Action items",
         fill("- <<o1>>: update the release notes by <<d1>>", **p),
         fill("- <<o2>>: fix the crash on older Android devices by <<d2>>", **p),
         fill("- <<ra>>: review <<rb>>'s draft of the pricing page by <<d3>>", **p)]
    if p["extra"]:
        L.append(fill("- <<o3>>: book five participants for the usability test by <<d4>>", **p))
    if p["long"]:
        L += ["", "Discussion",
              fill("- Support tickets about login problems dropped from <<t1>> to <<t2>> since the last release.", **p),
              "- Design wants one more round of feedback on the onboarding screens before they are final.",
              "- The next sync will be shorter because of the public holiday."]
    return "\n".join(L)


def m_notes_owner(p):
    q = copy.deepcopy(p)
    q["o1"] = other(p["att"], p["o1"])
    return q


add(Builder(
    "meeting_notes", obj="these meeting notes", group="doc", univ="prose", prose=True,
    gen=g_notes, render=r_notes,
    labels=["Here are the notes:", "Notes below:", "The notes:", "Meeting notes:",
            "Here are the meeting notes:"],
    tasks=[("Turn these notes into a follow-up email to the attendees that covers every decision and action item.", "*"),
           ("Translate these notes into Spanish.", "*"),
           ("Extract the action items from these notes as a table with owner, task and deadline.", "line roles")],
    alt_tasks=["Write a two-line status update for the company newsletter based on these notes.",
               "Suggest an agenda for the next sync based on these notes."],
    questions=lambda p: ["What is the new launch date for %s?" % p["feature"],
                         "Who is reviewing the pricing page draft?",
                         "What does %s need to do, and by when?" % p["o1"],
                         "Is the beta still open to new sign-ups?",
                         "Who is fixing the Android crash?"],
    numbers=[mset("ldnum", lambda v: other_int(v, 2, 28)), mset("d1", lambda v: other(WEEKDAYS, v))],
    names=[m_notes_owner, mset("feature", lambda v: other(FEATURES, v))],
    neg=True, extra=True, roles=mswap("ra", "rb"),
    intents=["summ2", "action_items", "translate"]))

# ---------------------------------------------------------------------------
# 7. contract clause
# ---------------------------------------------------------------------------


def g_con():
    sup, cus = R.sample(COMPANIES, 2)
    return dict(sup=sup, cus=cus, months=pick([12, 24, 36, 48]), notice=pick([30, 60, 90, 120]),
                cap=pick([3, 5, 7, 10]), ta="Customer", tb="Supplier",
                neg=R.random() < 0.4, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_con(p):
    cl = [fill('This Agreement between <<sup>> ("Supplier") and <<cus>> ("Customer") starts on '
               'the Effective Date and continues for an initial term of <<months>> months.', **p),
          "At the end of the initial term, this Agreement " + ("shall not" if p["neg"] else "shall")
          + " renew automatically for successive periods of twelve (12) months.",
          fill("<<ta>> may terminate this Agreement at any time by giving <<tb>> at least "
               "<<notice>> days' written notice.", **p),
          fill("Supplier may increase the fees once in each renewal period by no more than <<cap>>%.", **p)]
    if p["extra"]:
        cl.append("Customer may terminate without penalty if Supplier misses the service levels in "
                  "Schedule 2 for three consecutive months.")
    if p["long"]:
        cl.append("Any notice under this clause must be sent by email to the contact named in "
                  "Schedule 1 and confirmed by registered post within five (5) business days.")
        cl.append("Termination does not affect any fees already due, which remain payable within "
                  "thirty (30) days of the termination date.")
    lines = ["Clause 12 - Term, Renewal and Fees", ""]
    lines += ["12.%d %s" % (i, c) for i, c in enumerate(cl, 1)]
    return "\n".join(lines)


add(Builder(
    "contract_clause", obj="this clause", group="doc", univ="prose", prose=True,
    gen=g_con, render=r_con,
    labels=["Here is the clause:", "Clause below:", "The clause:", "Clause text:", "Here's the clause:"],
    tasks=[("Explain this clause in plain English, going through every sub-clause and naming the parties.", "*"),
           ("List each party's rights and obligations under this clause, with every number and deadline.", "num neg line roles"),
           ("Translate this clause into French.", "*")],
    alt_tasks=["Is this clause favourable to the Customer? Answer briefly.",
               "Draft a counter-proposal to this clause from the Customer's side."],
    questions=lambda p: ["How much notice is needed to terminate?",
                         "Does the agreement renew automatically?", "By how much can the fees go up?",
                         "How long is the initial term?", "Who can terminate the agreement by giving notice?"],
    numbers=[mset("months", lambda v: other([12, 24, 36, 48], v)),
             mset("notice", lambda v: other([30, 60, 90, 120], v)),
             mset("cap", lambda v: other([3, 5, 7, 10], v))],
    names=[mset("sup", lambda v: other(COMPANIES, v))],
    neg=True, extra=True, roles=mswap("ta", "tb"),
    intents=["plain", "summ2", "translate"]))

# ---------------------------------------------------------------------------
# 8. service log
# ---------------------------------------------------------------------------
HEAP_LOW = [58, 63, 67, 71]
HEAP_HIGH = [94, 97, 99]


def g_log():
    return dict(svc=pick(SERVICES), ver="%d.%d.%d" % (R.randint(1, 4), R.randint(0, 12), R.randint(0, 9)),
                host="app-%02d" % R.randint(1, 24), db="db-%02d" % R.randint(1, 9),
                port=pick([5432, 6432, 5433]), heap=pick(HEAP_LOW + HEAP_HIGH),
                batch=R.randint(1000, 9999),
                date="2024-%02d-%02d" % (R.randint(1, 12), R.randint(1, 28)),
                order=False, extra=R.random() < 0.3, long=R.random() < 0.7)


def r_log(p):
    d, s = p["date"], p["svc"]

    def L(t, lvl, msg):
        return "%s %s %-5s [%s] %s" % (d, t, lvl, s, msg)
    lines = [L("09:12:03,114", "INFO", "Starting %s v%s on %s" % (s, p["ver"], p["host"])),
             L("09:12:04,562", "INFO", "Loaded configuration from /etc/%s/config.yaml" % s),
             L("09:12:05,008", "INFO", "Connected to postgres at %s:%s" % (p["db"], p["port"]))]
    if p["long"]:
        lines += [L("09:13:05,010", "INFO", "GET /health 200 (3 ms)"),
                  L("09:13:52,774", "INFO", "Processed batch %d (500 records) in 2.1 s" % (p["batch"] - 1)),
                  L("09:14:05,011", "INFO", "GET /health 200 (4 ms)")]
    lines.append(L("09:14:38,902", "WARN", "Heap usage at %d%% of 2048 MB" % p["heap"]))
    if p["extra"]:
        lines.append(L("09:14:40,117", "ERROR", "Disk full: could not write to /var/log/%s/app.log" % s))
    sig = ("INFO", "Received SIGTERM, shutting down gracefully")
    dbl = ("ERROR", "Lost connection to postgres at %s:%s (server closed the connection unexpectedly)"
           % (p["db"], p["port"]))
    a, b = (dbl, sig) if p["order"] else (sig, dbl)
    lines += [L("09:14:41,377", *a), L("09:14:41,390", *b),
              L("09:14:46,402", "ERROR", "Failed to process batch %d: connection closed" % p["batch"]),
              L("09:14:46,410", "INFO", "Shutdown complete")]
    return "\n".join(lines)


add(Builder(
    "service_log", obj="this log", group="tech", univ="log", lang="",
    gen=g_log, render=r_log,
    labels=["Here is the log:", "Log output:", "Logs below:", "Log excerpt:", "The log:"],
    tasks=[("What is the most likely root cause of the failure in this log? Quote the lines that support your answer.", "*"),
           ("Write a short incident note for the team based on this log, including the timestamps, hosts, port and version.", "*"),
           ("Explain, in order, what happened in this log.", "*")],
    alt_tasks=["Write a regular expression that matches the ERROR lines in this log.",
               "Suggest alerts we should add so we notice this earlier next time."],
    questions=lambda p: ["What time did the service receive the shutdown signal?",
                         "Which database host was the service connected to?",
                         "What was the heap usage shortly before the failure?",
                         "Which version of the service was running?", "Which batch failed to process?",
                         "Which host was the service running on?"],
    numbers=[mset("heap", lambda v: pick(HEAP_HIGH) if v in HEAP_LOW else pick(HEAP_LOW))],
    names=[mset("db", lambda v: other(["db-%02d" % i for i in range(1, 10)], v)),
           mset("host", lambda v: other(["app-%02d" % i for i in range(1, 25)], v))],
    order=[mtoggle("order")], extra=True,
    intents=["explain_log", "summ2"]))

# ---------------------------------------------------------------------------
# 9. python traceback
# ---------------------------------------------------------------------------
ERRS = ["ZeroDivisionError: division by zero", "KeyError: '<<field>>'",
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
        "TypeError: 'NoneType' object is not iterable"]


def g_tb():
    return dict(mod=pick(["main", "app", "run_report", "worker", "cli"]),
                util=pick(["stats", "metrics", "utils", "aggregate", "helpers"]),
                func=pick(["average_price", "mean_score", "compute_ratio", "avg_latency"]),
                field=pick(["price", "score", "value", "latency_ms", "amount"]),
                l1=R.randint(80, 140), l2=R.randint(40, 75), l4=R.randint(20, 38), l3=R.randint(5, 30),
                err=R.randint(0, 3), long=R.random() < 0.7)


def r_tb(p):
    L = ["Traceback (most recent call last):",
         '  File "/srv/app/<<mod>>.py", line <<l1>>, in <module>', "    main()"]
    if p["long"]:
        L = ["2024-06-03 02:00:14 ERROR nightly-report: job failed with exit code 1"] + L
    if p["long"]:
        L += ['  File "/usr/lib/python3.11/site-packages/click/core.py", line 1157, in __call__',
              "    return self.main(*args, **kwargs)",
              '  File "/usr/lib/python3.11/site-packages/click/core.py", line 1078, in main',
              "    rv = self.invoke(ctx)"]
    L += ['  File "/srv/app/<<mod>>.py", line <<l2>>, in main',
          "    report = build_report(load_rows(args.input))",
          '  File "/srv/app/<<mod>>.py", line <<l4>>, in build_report',
          "    avg = <<func>>(rows)",
          '  File "/srv/app/<<util>>.py", line <<l3>>, in <<func>>',
          '    return sum(r["<<field>>"] for r in rows) / len(rows)',
          ERRS[p["err"]]]
    return fill("\n".join(L), **p)


add(Builder(
    "traceback", obj="this traceback", group="tech", univ="log", lang="",
    gen=g_tb, render=r_tb,
    labels=["Here is the traceback:", "Traceback:", "The error:", "Error output:", "Stack trace below:"],
    tasks=[("Why does this fail, and how do I fix it?", "*"),
           ("Explain this traceback line by line.", "*"),
           ("Write a minimal unit test that reproduces this exact error.", "*")],
    alt_tasks=["Rewrite the failing function so it logs a warning instead of crashing.",
               "Write a short bug report for this crash."],
    questions=lambda p: ["Which function actually raised the exception?",
                         "What is main() doing on line %d?" % p["l2"],
                         "What kind of input would trigger this error?",
                         "What does the last line of the traceback mean?",
                         "Which file should I open first to fix this?"],
    code=[mset("err", lambda v: other([0, 1, 2, 3], v))],
    intents=["fix_error", "explain_log"]))

# ---------------------------------------------------------------------------
# 10. JSON config
# ---------------------------------------------------------------------------


def g_json():
    return dict(service=pick(SERVICES), replicas=R.randint(2, 8), port=pick([8000, 8080, 9090, 3000, 5000]),
                debug=R.random() < 0.3,
                host="db-%s-%d" % (pick(["prod", "main", "primary", "eu"]), R.randint(1, 4)),
                pool=pick([10, 20, 25, 40, 50]), timeout=pick([2000, 3000, 5000, 10000]),
                feats=R.sample(FEATS, 3), extra=R.random() < 0.4, long=R.random() < 0.7)


def r_json(p):
    o = {"service": p["service"], "replicas": p["replicas"], "port": p["port"], "debug": p["debug"],
         "database": {"host": p["host"], "pool_size": p["pool"], "timeout_ms": p["timeout"]},
         "features": p["feats"]}
    if p["extra"]:
        o["maintenance_mode"] = True
    if p["long"]:
        o["logging"] = {"level": "info", "format": "json", "destination": "stdout"}
        o["cors"] = {"allowed_origins": ["https://app.example.com", "https://admin.example.com"],
                     "allow_credentials": True}
        o["rate_limit"] = {"requests_per_minute": 600, "burst": 50}
        o["cache"] = {"enabled": True, "ttl_seconds": 300}
    return json.dumps(o, indent=2)


def m_json_feat(p):
    q = copy.deepcopy(p)
    i = R.randrange(len(p["feats"]))
    q["feats"][i] = other([f for f in FEATS if f not in p["feats"]], None)
    return q


add(Builder(
    "json_config", obj="this JSON config", group="tech", univ="config", lang="json",
    gen=g_json, render=r_json,
    labels=["Here is the config:", "Config:", "The JSON:", "JSON below:", "Config file:"],
    tasks=[("Convert this JSON config to YAML.", "*"),
           ("Explain what each setting in this config does, quoting its value.", "*"),
           ("Write the equivalent environment variables for this config, one per line (for example SERVICE_PORT=...).", "*")],
    alt_tasks=["Review this config for a production deployment and point out anything risky.",
               "Write a JSON Schema that validates this config."],
    questions=lambda p: ["What port will the service listen on?", "How many replicas will run?",
                         "Which features are enabled?", "What is the database timeout in seconds?",
                         "Is debug mode on?", "How big is the database connection pool?"],
    numbers=[mset("replicas", lambda v: other_int(v, 2, 8)), mset("pool", lambda v: other([10, 20, 25, 40, 50], v)),
             mset("timeout", lambda v: other([2000, 3000, 5000, 10000], v)),
             mset("port", lambda v: other([8000, 8080, 9090, 3000, 5000], v))],
    names=[mset("service", lambda v: other(SERVICES, v)), m_json_feat],
    code=[mtoggle("debug")], extra=True,
    intents=["to_yaml", "explain_cfg"]))

# ---------------------------------------------------------------------------
# 11. docker-compose YAML
# ---------------------------------------------------------------------------
COMPOSE_T = """services:
  web:
    image: <<app>>:<<tag>>
    ports:
      - "<<hport>>:8000"
    environment:
      - DATABASE_URL=postgres://<<user>>@db:5432/<<dbname>>
      - DEBUG=<<debugv>>
    depends_on:
      - db<<restart>>
  db:
    image: postgres:<<pgver>>
    environment:
      - POSTGRES_USER=<<user>>
      - POSTGRES_DB=<<dbname>>
    volumes:
      - <<vol>>:/var/lib/postgresql/data<<health>><<redis>>
volumes:
  pgdata:"""


def g_comp():
    return dict(app=pick(["shopfront", "ledger", "wiki", "tracker", "portal"]),
                tag="%d.%d.%d" % (R.randint(1, 3), R.randint(0, 9), R.randint(0, 9)),
                hport=pick([8000, 8080, 80, 5000, 3000]), user=pick(["app", "web", "svc"]),
                dbname=pick(["shop", "ledger", "wiki", "tracker", "portal", "main"]),
                debug=False, bind=False, pgver=pick([13, 14, 15, 16]),
                extra=R.random() < 0.4, long=R.random() < 0.7)


def r_comp(p):
    redis = ('\n  redis:\n    image: redis:7\n    command: ["redis-server", "--appendonly", "yes"]'
             '\n    ports:\n      - "6379:6379"') if p["long"] else ""
    health = ('\n    healthcheck:\n      test: ["CMD-SHELL", "pg_isready -U <<user>>"]'
              '\n      interval: 10s\n      timeout: 5s\n      retries: 5') if p["long"] else ""
    return fill(COMPOSE_T, health=health, restart="\n    restart: unless-stopped" if p["extra"] else "",
                redis=redis, debugv=1 if p["debug"] else 0,
                vol="./pgdata" if p["bind"] else "pgdata", **p)


add(Builder(
    "compose_yaml", obj="this docker-compose file", group="tech", univ="config", lang="yaml",
    gen=g_comp, render=r_comp,
    labels=["Here is the compose file:", "docker-compose.yml:", "Compose file below:", "The file:",
            "My compose file:"],
    tasks=[("Explain what this docker-compose file sets up, service by service, including ports, versions and volumes.", "*"),
           ("Convert this compose file into the equivalent docker run commands.", "*"),
           ("Add a comment to every line of this compose file explaining it.", "*")],
    alt_tasks=["Convert this compose file into Kubernetes manifests.",
               "What should I change in this compose file before using it in production?"],
    questions=lambda p: ["Which host port is the web app exposed on?", "Which Postgres version is used?",
                         "Where is the database data stored?", "What is the database name?",
                         "Does the web service wait for the database to start?"],
    numbers=[mset("hport", lambda v: other([8000, 8080, 80, 5000, 3000], v)),
             mset("pgver", lambda v: other([13, 14, 15, 16], v))],
    names=[mset("dbname", lambda v: other(["shop", "ledger", "wiki", "tracker", "portal", "main"], v)),
           mset("app", lambda v: other(["shopfront", "ledger", "wiki", "tracker", "portal"], v))],
    code=[mtoggle("debug"), mtoggle("bind")], extra=True,
    intents=["explain_cfg", "explain_code"]))

# ---------------------------------------------------------------------------
# 12. python: discount
# ---------------------------------------------------------------------------
PY_DISC = '''def apply_discount(price, percent):<<doc>>
    if percent < 0 or percent > 100:
        raise ValueError("percent must be between 0 and 100")
    discounted = price * (1 - percent <<div>> 100)
    return <<ret>>

items = [<<i1>>, <<i2>>, <<i3>>]<<app>>
totals = [apply_discount(p, <<pct>>) for p in items]
print(<<agg>>(totals))'''


def g_disc():
    i = R.sample(PRICES, 4)
    return dict(i1=i[0], i2=i[1], i3=i[2], i4=i[3], pct=pick([10, 15, 20, 25, 30]),
                intdiv=False, trunc=False, usemax=False,
                extra=R.random() < 0.3, long=R.random() < 0.7)


def r_disc(p):
    doc = ('\n    """Return the price reduced by the given percentage.\n\n'
           '    Raises ValueError if percent is outside 0-100.\n    """') if p["long"] else ""
    return fill(PY_DISC, doc=doc, div="//" if p["intdiv"] else "/",
                ret="int(discounted)" if p["trunc"] else "round(discounted, 2)",
                agg="max" if p["usemax"] else "sum",
                app=("\nitems.append(%s)" % p["i4"]) if p["extra"] else "", **p)


CODE_LABELS = ["Here is the code:", "Code:", "The code:", "Code below:", "Here's the snippet:"]

add(Builder(
    "py_discount", obj="this code", group="tech", univ="code", lang="python", pl="JavaScript",
    gen=g_disc, render=r_disc, labels=CODE_LABELS,
    tasks=[("What does this code print? Show your working.", "*"),
           ("Explain this code line by line.", "*"),
           ("Rewrite this code in JavaScript with exactly the same behaviour.", "*")],
    alt_tasks=["Write pytest tests for apply_discount.", "Add type hints to this code."],
    questions=lambda p: ["What does the if statement at the top of apply_discount check?",
                         "What does apply_discount return for the first item?",
                         "What happens if percent is 150?", "What does the list comprehension build?",
                         "What does the last line print?"],
    numbers=[mset("pct", lambda v: other([10, 15, 20, 25, 30], v)), mset("i1", lambda v: other(PRICES, v))],
    code=[mtoggle("intdiv"), mtoggle("trunc"), mtoggle("usemax")], extra=True,
    intents=["explain_code", "bug"]))

# ---------------------------------------------------------------------------
# 13. python: word count
# ---------------------------------------------------------------------------
PY_WC = '''from collections import Counter

def top_words(path, n=<<n>>):
    with open(path, encoding="utf-8") as f:
        words = f.read()<<lower>>.split(<<sep>>)<<strip>>
    counts = Counter(words)
    return counts.most_common(n)

<<more>>
for word, count in top_words("<<file>>"):
    print(f"{word}: {count}")<<more2>>'''
WC_FILES = ["notes.txt", "report.md", "speech.txt", "reviews.txt", "chapter1.txt", "minutes.txt"]


def g_wc():
    return dict(n=pick([3, 5, 10, 20]), file=pick(WC_FILES), nolower=False, comma=False,
                extra=R.random() < 0.4, long=R.random() < 0.7)


WC_MORE = '''
def longest_words(path, n=5):
    with open(path, encoding="utf-8") as f:
        unique = set(f.read().split())
    return sorted(unique, key=len, reverse=True)[:n]

'''


def r_wc(p):
    return fill(PY_WC, more=WC_MORE if p["long"] else "",
                more2='\nprint("Longest:", ", ".join(longest_words("<<file>>")))' if p["long"] else "",
                lower="" if p["nolower"] else ".lower()", sep='","' if p["comma"] else "",
                strip='\n    words = [w.strip(".,!?;:") for w in words]' if p["extra"] else "", **p)


add(Builder(
    "py_wordcount", obj="this script", group="tech", univ="code", lang="python", pl="JavaScript (Node.js)",
    gen=g_wc, render=r_wc, labels=CODE_LABELS + ["Script:"],
    tasks=[("Explain what this script does and what it prints.", "*"),
           ("Add a docstring and type hints to this code and describe its exact behaviour.", "*"),
           ("Rewrite this script in JavaScript for Node.js with the same behaviour.", "*")],
    alt_tasks=["Write unit tests for top_words.", "How would this script perform on a 5 GB file?"],
    questions=lambda p: ["What does the `with` block do here?", "What does `counts.most_common(n)` return?",
                         "What does the final loop print?", "What happens if the file does not exist?",
                         'Why is `encoding="utf-8"` passed to open()?'],
    numbers=[mset("n", lambda v: other([3, 5, 10, 20], v))],
    names=[mset("file", lambda v: other(WC_FILES, v))],
    code=[mtoggle("nolower"), mtoggle("comma")], extra=True,
    intents=["explain_code", "bug"]))

# ---------------------------------------------------------------------------
# 14. python: orders loop (indentation-significant)
# ---------------------------------------------------------------------------


def g_ord():
    ids = sorted(R.sample(range(100, 999), 6))
    return dict(ids=ids, amts=[R.randint(10, 300) for _ in range(6)], st2=pick(["refunded", "pending"]),
                indent=False, noteq=False, extra=R.random() < 0.4, long=R.random() < 0.7)


def r_ord(p):
    rows = [(p["ids"][0], "paid", p["amts"][0]), (p["ids"][1], p["st2"], p["amts"][1]),
            (p["ids"][2], "paid", p["amts"][2])]
    if p["long"]:
        rows += [(p["ids"][3], "cancelled", p["amts"][3]), (p["ids"][4], "paid", p["amts"][4])]
    if p["extra"]:
        rows.append((p["ids"][5], "paid", p["amts"][5]))
    L = ["orders = ["]
    L += ['    {"id": %d, "status": "%s", "amount": %d},' % r for r in rows]
    L += ["]", "", "total = 0", "for order in orders:",
          '    if order["status"] %s "paid":' % ("!=" if p["noteq"] else "=="),
          '        total += order["amount"]',
          ("    " if p["indent"] else "") + 'print("Total paid:", total)']
    return "\n".join(L)


def m_ord_amt(p):
    q = copy.deepcopy(p)
    q["amts"][0] = other_int(p["amts"][0], 10, 300)
    return q


add(Builder(
    "py_orders", obj="this code", group="tech", univ="code", lang="python", pl="JavaScript",
    gen=g_ord, render=r_ord, labels=CODE_LABELS,
    tasks=[("What exactly does this code print?", "*"),
           ("Explain what this code does, line by line.", "*"),
           ("Rewrite this code in JavaScript with the same output.", "*")],
    alt_tasks=["Rewrite this with a list comprehension.", "Add type hints to this code."],
    questions=lambda p: ["What does the if statement check?", "Why is total set to 0 before the loop?",
                         "Which orders are skipped?", "What is the value of total after the first order?"],
    numbers=[m_ord_amt], code=[mtoggle("indent"), mtoggle("noteq")], extra=True,
    intents=["explain_code", "bug"]))

# ---------------------------------------------------------------------------
# 15. javascript: fetch
# ---------------------------------------------------------------------------
JS_FETCH = '''async function loadUser(id) {
  const res = <<aw>>fetch(`/api/users/${id}`);
  if (<<bang>>res.ok) {
    throw new Error(`Request failed with status ${res.status}`);
  }
  const data = await res.json();
  return data.<<field>>;
}
<<retry>>
<<caller>>(<<uid>>)
  .then((value) => console.log("Result:", value))
  .catch((err) => console.error(err.message));'''
JS_RETRY = '''
async function loadUserWithRetry(id, attempts = 3) {
  for (let i = 1; i <= attempts; i++) {
    try {
      return await loadUser(id);
    } catch (err) {
      if (i === attempts) throw err;
    }
  }
}
'''
JS_FIELDS = ["email", "name", "username", "createdAt"]


def g_jsf():
    return dict(field=pick(JS_FIELDS), uid=R.randint(2, 999), noawait=False, nobang=False,
                long=R.random() < 0.7)


def r_jsf(p):
    return fill(JS_FETCH, aw="" if p["noawait"] else "await ", bang="" if p["nobang"] else "!",
                retry=JS_RETRY if p["long"] else "",
                caller="loadUserWithRetry" if p["long"] else "loadUser", **p)


add(Builder(
    "js_fetch", obj="this code", group="tech", univ="code", lang="javascript", pl="Python",
    gen=g_jsf, render=r_jsf, labels=CODE_LABELS,
    tasks=[("Explain what this code does and what it logs.", "*"),
           ("Rewrite this using .then() chains instead of async/await, keeping exactly the same behaviour.", "*"),
           ("Convert this code to TypeScript with proper types, without changing what it does.", "*")],
    alt_tasks=["Write Jest tests for loadUser.", "Add a timeout to the fetch call."],
    questions=lambda p: ["What happens if the server returns a 404?", "Why is await used before res.json()?",
                         "What does the .catch handler do?", "What URL does the request go to?"],
    numbers=[mset("uid", lambda v: other_int(v, 2, 999))],
    names=[mset("field", lambda v: other(JS_FIELDS, v))],
    code=[mtoggle("noawait"), mtoggle("nobang")],
    intents=["explain_code", "bug"]))

# ---------------------------------------------------------------------------
# 16. javascript: cart total
# ---------------------------------------------------------------------------


def g_cart():
    items = R.sample(CART_ITEMS, 5)
    return dict(items=items, qty=[R.randint(1, 6) for _ in range(5)], strinit=False, minus=False,
                extra=R.random() < 0.4, long=R.random() < 0.7)


def r_cart(p):
    n = 3 + (1 if p["long"] else 0)
    rows = [(p["items"][i][0], p["items"][i][1], p["qty"][i]) for i in range(n)]
    if p["extra"]:
        rows.append((p["items"][4][0], p["items"][4][1], p["qty"][4]))
    L = ["const cart = ["]
    L += ['  { name: "%s", price: %s, qty: %d },' % r for r in rows]
    L += ["];", "",
          "const total = cart.reduce((sum, item) => sum %s item.price * item.qty, %s);"
          % ("-" if p["minus"] else "+", "'0'" if p["strinit"] else "0"),
          "console.log(`Total: ${total.toFixed(2)}`);"]
    return "\n".join(L)


def m_cart_qty(p):
    q = copy.deepcopy(p)
    q["qty"][0] = other_int(p["qty"][0], 1, 6)
    return q


add(Builder(
    "js_cart", obj="this code", group="tech", univ="code", lang="javascript", pl="Python",
    gen=g_cart, render=r_cart, labels=CODE_LABELS,
    tasks=[("What does this code log to the console? Show the calculation.", "*"),
           ("Rewrite this with a plain for loop, keeping the same output.", "*"),
           ("Explain this code line by line.", "*")],
    alt_tasks=["Convert this to TypeScript with an interface for cart items.",
               "Add a 10% discount to the total."],
    questions=lambda p: ["What does reduce do here?", "What is the initial value of sum?",
                         "Why is toFixed(2) used?", "What would happen if the cart were empty?"],
    numbers=[m_cart_qty], code=[mtoggle("strinit"), mtoggle("minus")], extra=True,
    intents=["explain_code", "bug"]))

# ---------------------------------------------------------------------------
# 17. SQL report query
# ---------------------------------------------------------------------------
SQL_REP = """<<hdr>>SELECT c.name,
       COUNT(o.id)  AS order_count,
       SUM(o.total) AS revenue<<avg>>
FROM customers AS c
JOIN orders AS o ON o.customer_id = c.id
WHERE o.created_at >= '<<date>>'<<status>>
GROUP BY c.name
HAVING COUNT(o.id) <<cmp>> <<n>>
ORDER BY revenue <<dir>>
LIMIT <<k>>;"""
SQL_STATUSES = ["shipped", "delivered", "completed", "paid"]


def g_sqlr():
    return dict(month=R.randint(1, 12), year=pick([2023, 2024]), st=pick(SQL_STATUSES),
                n=R.randint(2, 10), k=pick([5, 10, 20, 25, 50]), asc=False, gte=False,
                extra=R.random() < 0.6, long=R.random() < 0.7)


def r_sqlr(p):
    return fill(SQL_REP, hdr="-- Top customers by revenue for the quarterly review\n" if p["long"] else "",
                avg=",\n       AVG(o.total) AS avg_order_value" if p["long"] else "",
                date="%d-%02d-01" % (p["year"], p["month"]),
                status=("\n  AND o.status = '%s'" % p["st"]) if p["extra"] else "",
                cmp=">=" if p["gte"] else ">", dir="ASC" if p["asc"] else "DESC", **p)


SQL_LABELS = ["Here is the query:", "Query:", "The SQL:", "SQL below:", "Here's the query:"]

add(Builder(
    "sql_report", obj="this SQL query", group="tech", univ="code", lang="sql", pl="pandas",
    gen=g_sqlr, render=r_sqlr, labels=SQL_LABELS,
    tasks=[("Explain in plain English exactly what this query returns, including every filter and limit.", "*"),
           ("Rewrite this query using a CTE, keeping exactly the same result.", "*"),
           ("Translate this query into equivalent pandas code.", "*")],
    alt_tasks=["Suggest indexes that would speed up this query.",
               "Format this query according to a common SQL style guide."],
    questions=lambda p: ["What does the HAVING clause do here?", "Why is there a LIMIT?",
                         "Which orders does the WHERE clause keep?", "How is revenue calculated?",
                         "How are the results sorted?"],
    numbers=[mset("n", lambda v: other_int(v, 2, 10)), mset("k", lambda v: other([5, 10, 20, 25, 50], v)),
             mset("month", lambda v: other_int(v, 1, 12))],
    names=[mset("st", lambda v: other(SQL_STATUSES, v))],
    code=[mtoggle("asc"), mtoggle("gte")], extra=True,
    intents=["sql_explain", "explain_code"]))

# ---------------------------------------------------------------------------
# 18. SQL maintenance script (order matters)
# ---------------------------------------------------------------------------
SQL_PLANS = ["free", "trial", "basic", "legacy"]


def g_sqlu():
    return dict(year=pick([2022, 2023]), month=R.randint(1, 12), plan=pick(SQL_PLANS), order=False,
                rollback=False, gt=False, extra=R.random() < 0.6, long=R.random() < 0.7)


def r_sqlu(p):
    upd = ("UPDATE accounts\nSET status = 'inactive',\n    updated_at = NOW()\nWHERE last_login %s '%d-%02d-01'%s;"
           % (">" if p["gt"] else "<", p["year"], p["month"],
              ("\n  AND plan = '%s'" % p["plan"]) if p["extra"] else ""))
    dele = ("DELETE FROM sessions\nWHERE account_id IN (\n    SELECT id FROM accounts WHERE status = 'inactive'\n);")
    stm = [dele, upd] if p["order"] else [upd, dele]
    if p["long"]:
        stm.append("INSERT INTO audit_log (action, created_at)\nVALUES ('deactivate_stale_accounts', NOW());")
    hdr = ("-- Deactivate accounts that have not logged in since the cutoff date\n"
           "-- and remove their sessions. Run manually, then check audit_log.\n") if p["long"] else ""
    return hdr + "BEGIN;\n\n" + "\n\n".join(stm) + "\n\n" + ("ROLLBACK;" if p["rollback"] else "COMMIT;")


add(Builder(
    "sql_update", obj="this SQL script", group="tech", univ="code", lang="sql", pl="Python with psycopg2",
    gen=g_sqlu, render=r_sqlu, labels=SQL_LABELS + ["Script:"],
    tasks=[("Explain exactly what this SQL script will do to the data, statement by statement.", "*"),
           ("Is this script safe to run on production? Explain your reasoning.", "code order line"),
           ("Rewrite this as a PostgreSQL function that takes the cutoff date as a parameter, keeping the same logic.", "code order line name")],
    alt_tasks=["Write a query to preview which accounts this script would change.",
               "How can I undo this script after it has run?"],
    questions=lambda p: ["Which accounts does the UPDATE affect?", "Which sessions get deleted?",
                         "What does BEGIN do here?", "What does NOW() return?"],
    numbers=[mset("month", lambda v: other_int(v, 1, 12)), mset("year", lambda v: other([2021, 2022, 2023], v))],
    names=[mset("plan", lambda v: other(SQL_PLANS, v))],
    code=[mtoggle("rollback"), mtoggle("gt")], order=[mtoggle("order")], extra=True,
    intents=["explain_code", "bug"]))

# ---------------------------------------------------------------------------
# 19. bash backup
# ---------------------------------------------------------------------------
BASH_BK = '''#!/usr/bin/env bash
set <<sf>> pipefail

BACKUP_DIR=/var/backups/<<db>>
STAMP=$(date +%F)<<logf>>

mkdir -p "$BACKUP_DIR"
pg_dump <<db>> > "$BACKUP_DIR/<<db>>-$STAMP.sql"<<gz>>
find "$BACKUP_DIR" -name "*.sql.gz" -mtime <<mt>><<days>> -delete<<s3>>
echo "Backup of <<db>> finished"<<logend>>'''
BK_DBS = ["shop", "crm", "wiki", "billing", "analytics"]


def g_bk():
    return dict(db=pick(BK_DBS), days=pick([7, 14, 30, 60]), bucket=pick(["acme-backups", "ops-archive", "db-dumps-eu"]),
                noe=False, minus=False, extra=R.random() < 0.7, long=R.random() < 0.7)


def r_bk(p):
    logf = ('\nLOG=/var/log/backup-<<db>>.log\n\nlog() {\n  echo "$(date \'+%F %T\') $*" >> "$LOG"\n}'
            '\n\nlog "Starting backup of <<db>> to $BACKUP_DIR"') if p["long"] else ""
    return fill(BASH_BK, logf=logf, logend='\nlog "Backup of <<db>> finished"' if p["long"] else "", sf="-uo" if p["noe"] else "-euo", mt="-" if p["minus"] else "+",
                gz='\ngzip "$BACKUP_DIR/<<db>>-$STAMP.sql"' if p["extra"] else "",
                s3='\naws s3 cp "$BACKUP_DIR/<<db>>-$STAMP.sql.gz" "s3://<<bucket>>/<<db>>/"' if p["long"] else "",
                **p)


BASH_LABELS = ["Here is the script:", "Script:", "The script:", "Script below:", "Here's the script:"]

add(Builder(
    "bash_backup", obj="this script", group="tech", univ="code", lang="bash", pl="Python",
    gen=g_bk, render=r_bk, labels=BASH_LABELS,
    tasks=[("Explain what this script does, step by step, including which files it keeps and deletes.", "*"),
           ("Rewrite this script in Python with exactly the same behaviour.", "*"),
           ("Add a comment to each line of this script.", "*")],
    alt_tasks=["Write a crontab entry that runs this script every night at 2 am.",
               "How would I restore a database from one of these backups?"],
    questions=lambda p: ["What does `set %s pipefail` do?" % ("-uo" if p["noe"] else "-euo"),
                         "How long are backups kept?", "Where are the backups stored?",
                         "What happens if pg_dump fails?", "What does the find command delete?"],
    numbers=[mset("days", lambda v: other([7, 14, 30, 60], v))],
    names=[mset("db", lambda v: other(BK_DBS, v))],
    code=[mtoggle("noe"), mtoggle("minus")], extra=True,
    intents=["explain_code", "bug"]))

# ---------------------------------------------------------------------------
# 20. bash deploy (order matters)
# ---------------------------------------------------------------------------
DEP_SWAPS = {1: (4, 5), 2: (2, 3), 3: (1, 3)}
BRANCHES = ["main", "release", "production", "stable"]


def g_dep():
    return dict(app=pick(["shopfront", "docs-site", "dashboard", "landing", "helpdesk"]),
                branch=pick(BRANCHES), stop=False, ord=0, long=R.random() < 0.7)


def r_dep(p):
    a = p["app"]
    steps = ["cd /opt/%s" % a, "git pull origin %s" % p["branch"], "npm ci", "npm run build",
             "rm -rf /var/www/%s/*" % a, "cp -r dist/* /var/www/%s/" % a,
             "sudo systemctl %s nginx" % ("stop" if p["stop"] else "reload")]
    if p["ord"]:
        i, j = DEP_SWAPS[p["ord"]]
        steps[i], steps[j] = steps[j], steps[i]
    if p["long"]:
        steps.insert(0, "trap 'echo \"Deploy failed at line $LINENO\" >&2' ERR")
        steps.insert(3, 'echo "Deploying commit $(git rev-parse --short HEAD) of branch %s"' % p["branch"])
        steps.append('curl -fsS https://%s.example.com/health > /dev/null && echo "Health check passed"' % a)
    return "\n".join(["#!/bin/bash", "set -e", ""] + steps + ['echo "Deployed %s at $(date)"' % a])


add(Builder(
    "bash_deploy", obj="this script", group="tech", univ="code", lang="bash", pl="Python",
    gen=g_dep, render=r_dep, labels=BASH_LABELS,
    tasks=[("Explain what this deploy script does, step by step, in the order it runs.", "*"),
           ("What could go wrong when running this script? List the risks.", "code order"),
           ("Convert this script into a GitHub Actions workflow with the same steps in the same order.", "*")],
    alt_tasks=["Add logging to every step of this script.",
               "How would I roll back a bad deploy made with this script?"],
    questions=lambda p: ["What does `npm ci` do here?", "What does `set -e` change?",
                         "Which directory is served by the web server?", "Which branch gets deployed?",
                         "What does the last systemctl command do?"],
    names=[mset("branch", lambda v: other(BRANCHES, v))],
    code=[mtoggle("stop")], order=[mset("ord", lambda v: other([0, 1, 2, 3], v))],
    intents=["explain_code", "bug"]))

# ---------------------------------------------------------------------------
# 21. CSV: support tickets
# ---------------------------------------------------------------------------


def g_tix():
    long = R.random() < 0.7
    n = 7 if long else 5
    custs = R.sample(COMPANIES, 4)
    sums = R.sample(TICKET_SUMMARIES, n + 1)
    tid, day = R.randint(1000, 8000), R.randint(1, 8)
    month = R.randint(3, 9)
    rows = []
    for i in range(n + 1):
        tid += R.randint(1, 9)
        day += R.randint(0, 2)
        rows.append(["T-%d" % tid, "2024-%02d-%02d" % (month, day), pick(custs),
                     pick(["high", "medium", "low"]), pick(["open", "open", "pending", "closed"]), sums[i]])
    return dict(rows=rows[:n], xrow=rows[n], custs=custs, month=month,
                extra=R.random() < 0.4, long=long)


def r_tix(p):
    rows = p["rows"] + ([p["xrow"]] if p["extra"] else [])
    L = ["ticket_id,opened,customer,priority,status,summary"]
    L += ['%s,%s,%s,%s,%s,"%s"' % tuple(r) for r in rows]
    return "\n".join(L)


def m_tix_date(p):
    q = copy.deepcopy(p)
    i = R.randrange(len(p["rows"]))
    d = int(p["rows"][i][1][-2:])
    q["rows"][i][1] = "2024-%02d-%02d" % (p["month"], other_int(d, 1, 28))
    return q


def m_tix_cust(p):
    q = copy.deepcopy(p)
    i = R.randrange(len(p["rows"]))
    q["rows"][i][2] = other(COMPANIES, p["rows"][i][2])
    return q


CSV_LABELS = ["Here is the CSV:", "CSV:", "The data:", "Data below:", "CSV excerpt:"]

add(Builder(
    "csv_tickets", obj="this CSV", group="tech", univ="data", lang="",
    gen=g_tix, render=r_tix, labels=CSV_LABELS,
    tasks=[("Write a short status update for the support team that mentions every ticket in this CSV with its customer and date.", "*"),
           ("Convert this CSV into a Markdown table.", "*"),
           ("Group the tickets in this CSV by customer and list every ticket under its customer, with its date and status.", "*")],
    alt_tasks=["Which of these tickets should we handle first, and why?",
               "Write a SQL CREATE TABLE statement for this data."],
    questions=lambda p: ["How many tickets are still open?", "Which customer has the most tickets?",
                         "Which ticket is the oldest?", "Which tickets are high priority?"],
    numbers=[m_tix_date], names=[m_tix_cust], extra=True,
    intents=["csv_md", "summ2"]))

# ---------------------------------------------------------------------------
# 22. CSV: money transfers between friends
# ---------------------------------------------------------------------------


def g_tr():
    long = R.random() < 0.7
    n = 7 if long else 5
    ppl = R.sample(FIRST, 4)
    memos = R.sample(MEMOS, n + 1)
    tid, day, month = R.randint(100, 900), R.randint(1, 6), R.randint(1, 12)
    rows = []
    for i in range(n + 1):
        tid += R.randint(1, 5)
        day += R.randint(1, 3)
        a, b = R.sample(ppl, 2)
        rows.append(["TR-%d" % tid, "2024-%02d-%02d" % (month, day), a, b,
                     "%d.%s" % (R.randint(8, 400), pick(["00", "50", "25", "99"])), memos[i]])
    return dict(rows=rows[:n], xrow=rows[n], ppl=ppl, extra=R.random() < 0.4, long=long)


def r_tr(p):
    rows = p["rows"] + ([p["xrow"]] if p["extra"] else [])
    L = ["transfer_id,date,from,to,amount_eur,memo"]
    L += ['%s,%s,%s,%s,%s,"%s"' % tuple(r) for r in rows]
    return "\n".join(L)


def m_tr_amt(p):
    q = copy.deepcopy(p)
    i = R.randrange(len(p["rows"]))
    q["rows"][i][4] = "%d.%s" % (R.randint(8, 400), pick(["00", "50", "25", "99"]))
    return q


def m_tr_name(p):
    q = copy.deepcopy(p)
    i = R.randrange(len(p["rows"]))
    r = p["rows"][i]
    q["rows"][i][3] = other([x for x in p["ppl"] if x != r[2]], r[3])
    return q


def m_tr_roles(p):
    q = copy.deepcopy(p)
    i = R.randrange(len(p["rows"]))
    q["rows"][i][2], q["rows"][i][3] = p["rows"][i][3], p["rows"][i][2]
    return q


add(Builder(
    "csv_transfers", obj="this CSV", group="tech", univ="data", lang="",
    gen=g_tr, render=r_tr, labels=CSV_LABELS,
    tasks=[("Work out the net amount each person sent or received across these transfers, showing your sums.", "*"),
           ("Write one plain-English sentence for each transfer in this CSV, saying who paid whom, how much and why.", "*"),
           ("Convert this CSV into a JSON array of objects.", "*")],
    alt_tasks=["Suggest a simpler way for this group to settle up.",
               "Write a SQL CREATE TABLE statement for this data."],
    questions=lambda p: ["Who sent the most money in total?", "What was the largest single transfer?",
                         "How many transfers did %s receive?" % p["ppl"][0],
                         "What is the total amount transferred?"],
    numbers=[m_tr_amt], names=[m_tr_name], roles=m_tr_roles, extra=True,
    intents=["net", "csv_md"]))

# ---------------------------------------------------------------------------
# 23. maintenance checklist (order matters)
# ---------------------------------------------------------------------------
CHK_DBS = ["orders", "billing", "users", "inventory"]
CHK_SYSTEMS = ["the customer portal", "the billing system", "the intranet", "the mobile API",
               "the warehouse app"]


def g_chk():
    return dict(system=pick(CHK_SYSTEMS), date="%d %s" % (R.randint(2, 28), pick(MONTHS)),
                time=pick(["21:00", "22:00", "22:30", "23:00", "06:00"]),
                channel=pick(["ops", "engineering", "announcements", "support"]), db=pick(CHK_DBS),
                mig="%04d_add_%s.sql" % (R.randint(100, 480), pick(["invoice_index", "user_flags", "sku_table", "audit_columns"])),
                pre=pick([15, 30, 45, 60]), dur=pick([45, 60, 90]),
                owner="%s %s" % (pick(FIRST), pick(LAST)), order=0,
                extra=R.random() < 0.4, long=R.random() < 0.8)


def r_chk(p):
    st = {"A": "Post a downtime notice in #%s %d minutes before the window" % (p["channel"], p["pre"]),
          "B": "Take a full backup of the %s database" % p["db"],
          "C": "Run the schema migration %s" % p["mig"],
          "D": "Restart the application servers",
          "E": "Run the smoke tests and confirm that checkout works",
          "F": "Post an all-clear message in #%s" % p["channel"],
          "X": "Update the public status page"}
    seq = ["A", "B", "C", "D", "E", "F"]
    if p["order"] == 1:
        seq[1], seq[2] = seq[2], seq[1]
    elif p["order"] == 2:
        seq[3], seq[4] = seq[4], seq[3]
    if p["extra"]:
        seq.insert(1, "X")
    L = ["Maintenance checklist for %s (%s, starting %s)" % (p["system"], p["date"], p["time"])]
    L += ["%d. %s" % (i, st[k]) for i, k in enumerate(seq, 1)]
    if p["long"]:
        L += ["", "Notes:",
              "- The window is %d minutes. If the migration takes longer than 20 minutes, roll back." % p["dur"],
              "- %s is on call and has the rollback script." % p["owner"],
              "- Do not start before the nightly import has finished."]
    return "\n".join(L)


add(Builder(
    "checklist", obj="this checklist", group="doc", univ="prose", prose=True,
    gen=g_chk, render=r_chk,
    labels=["Here is the checklist:", "Checklist:", "The checklist:", "Checklist below:",
            "Here's the checklist:"],
    tasks=[("Review this checklist and point out any problems with the order of the steps or anything missing.", "order line"),
           ("Turn this checklist into a message announcing the maintenance to the team, listing every step in order with the times.", "*"),
           ("Rewrite this checklist as a bash script skeleton with one comment per step, in the same order and with the same details.", "*")],
    alt_tasks=["Estimate how long each step will take.",
               "Write the downtime notice mentioned in step 1."],
    questions=lambda p: ["When does the maintenance start?", "Which database gets backed up?",
                         "Which migration is being run?", "Where is the downtime notice posted?",
                         "What is checked by the smoke tests?"],
    numbers=[mset("pre", lambda v: other([15, 30, 45, 60], v)),
             mset("time", lambda v: other(["21:00", "22:00", "22:30", "23:00", "06:00"], v))],
    names=[mset("db", lambda v: other(CHK_DBS, v)), mset("system", lambda v: other(CHK_SYSTEMS, v))],
    order=[mset("order", lambda v: other([0, 1, 2], v))], extra=True,
    intents=["review_list", "summ2"]))

# ---------------------------------------------------------------------------
# 24. incident timeline (order matters)
# ---------------------------------------------------------------------------


def g_tl():
    mj, mn = R.randint(2, 5), R.randint(0, 9)
    return dict(svc=pick(SERVICES), ver="%d.%d.0" % (mj, mn + 1), prev="%d.%d.%d" % (mj, mn, R.randint(1, 6)),
                err=pick([12, 18, 27, 35, 41, 64]), oncall="%s %s" % (pick(FIRST), pick(LAST)),
                date="%d %s" % (R.randint(2, 28), pick(MONTHS)), failed=pick([800, 1200, 2300, 4100]),
                order=False, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_tl(p):
    evA = "Deploy of %s v%s started" % (p["svc"], p["ver"])
    evB = "Error rate on checkout rose to %d%%" % p["err"]
    a, b = (evB, evA) if p["order"] else (evA, evB)
    L = ["Incident timeline: %s outage on %s (all times UTC)" % (p["svc"], p["date"]),
         "- 14:02 " + a, "- 14:05 " + b]
    if p["extra"]:
        L.append("- 14:07 Customer support reports failed card payments")
    L += ["- 14:09 On-call engineer %s paged" % p["oncall"],
          "- 14:15 Rollback to v%s started" % p["prev"], "- 14:21 Error rate back below 0.5%"]
    if p["long"]:
        L += ["- 14:30 Status page updated to resolved", "- 15:10 Postmortem meeting scheduled", "",
              "Impact: about %d checkout attempts failed. No data was lost, but some customers were "
              "charged twice and will be refunded automatically." % p["failed"]]
    return "\n".join(L)


add(Builder(
    "incident_timeline", obj="this timeline", group="doc", univ="prose", prose=True,
    gen=g_tl, render=r_tl,
    labels=["Here is the timeline:", "Timeline:", "The timeline:", "Timeline below:", "Here's the timeline:"],
    tasks=[("Based on this timeline, what most likely caused the incident? Explain briefly.", "order line"),
           ("Write a short postmortem summary from this timeline, keeping every time, name and number in order.", "*"),
           ("Rewrite this timeline as a status-page update for customers, keeping the times and the order of events.", "order line")],
    alt_tasks=["List follow-up actions the team should take after this incident.",
               "Write the questions I should ask in the postmortem meeting."],
    questions=lambda p: ["How long did the incident last?", "When was the on-call engineer paged?",
                         "Which version was rolled back to?", "What was the peak error rate?",
                         "What happened at 14:15?"],
    numbers=[mset("err", lambda v: other([12, 18, 27, 35, 41, 64], v))],
    names=[mset("oncall", lambda v: "%s %s" % (other(FIRST, v.split()[0]), v.split()[1])),
           mset("svc", lambda v: other(SERVICES, v))],
    order=[mtoggle("order")], extra=True,
    intents=["summ2", "points3", "translate"]))

# ---------------------------------------------------------------------------
# 25. recipe
# ---------------------------------------------------------------------------


def g_rec():
    return dict(flavour=pick(["lemon", "orange", "lime"]), serves=R.randint(6, 10), eggs=R.randint(2, 4),
                sugar=pick([150, 175, 200, 225]), flour=pick([150, 175, 200, 225]),
                temp=pick([160, 170, 180, 190]), mins=pick([25, 30, 35, 40, 45]), order=0,
                extra=R.random() < 0.4, long=R.random() < 0.8)


def r_rec(p):
    F = p["flavour"]
    L = ["%s sponge cake (serves %d)" % (F.capitalize(), p["serves"]), "", "Ingredients:",
         "- %d eggs" % p["eggs"], "- %d g caster sugar" % p["sugar"], "- %d g self-raising flour" % p["flour"],
         "- 100 g melted butter", "- zest of 1 %s" % F]
    if p["extra"]:
        L.append("- 50 g chopped walnuts")
    steps = ["Preheat the oven to %d°C and grease a 20 cm round tin." % p["temp"],
             "Whisk the eggs and sugar until pale and thick.",
             "Fold in the flour, then the melted butter and the %s zest." % F,
             "Pour into the tin and bake for %d minutes." % p["mins"],
             "Leave to cool in the tin for 10 minutes before turning out."]
    if p["order"] == 1:
        steps[1], steps[2] = steps[2], steps[1]
    elif p["order"] == 2:
        steps[2], steps[3] = steps[3], steps[2]
    L += ["", "Method:"] + ["%d. %s" % (i, s) for i, s in enumerate(steps, 1)]
    if p["long"]:
        L += ["", "Tips:", "- Don't open the oven door during the first 20 minutes.",
              "- The cake is done when a skewer comes out clean.",
              "- It keeps for three days in an airtight tin."]
    return "\n".join(L)


add(Builder(
    "recipe", obj="this recipe", group="doc", univ="prose", prose=True,
    gen=g_rec, render=r_rec,
    labels=["Here is the recipe:", "Recipe:", "The recipe:", "Recipe below:", "Here's the recipe:"],
    tasks=[("Convert this recipe to US cups and Fahrenheit.", "num line"),
           ("Rewrite this recipe for a complete beginner, keeping exactly the same ingredients, amounts and order of steps.", "*"),
           ("Check this recipe for mistakes in the method and tell me what you would change.", "order")],
    alt_tasks=["Suggest a gluten-free version of this recipe.", "What could I serve with this cake?"],
    questions=lambda p: ["How long does the cake bake for?", "What oven temperature is needed?",
                         "How many eggs are needed?", "How long should the cake cool before turning it out?",
                         "What size tin is used?"],
    numbers=[mset("temp", lambda v: other([160, 170, 180, 190], v)), mset("mins", lambda v: other([25, 30, 35, 40, 45], v)),
             mset("eggs", lambda v: other_int(v, 2, 4)), mset("sugar", lambda v: other([150, 175, 200, 225], v))],
    order=[mset("order", lambda v: other([0, 1, 2], v))], extra=True,
    intents=["us_units", "translate"]))

# ---------------------------------------------------------------------------
# 26. chat message: shift swap request
# ---------------------------------------------------------------------------
SHIFT_HOURS = ["7 am", "8 am", "9 am", "10 am", "12 pm", "2 pm", "4 pm", "6 pm"]


def g_sh():
    a, b, m = R.sample(FIRST, 3)
    h = sorted(R.sample(range(len(SHIFT_HOURS)), 2))
    return dict(to=a, frm=b, mgr=m, day=pick(["Thursday", "Friday", "Saturday"]),
                start=SHIFT_HOURS[h[0]], end=SHIFT_HOURS[h[1]],
                neg=R.random() < 0.4, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_sh(p):
    t = fill("Hi <<to>>! Quick favour to ask: could you cover my shift at the café on <<day>> from "
             "<<start>> to <<end>>? <<mgr>> already said it's fine as long as someone with a till "
             "login is there.", **p)
    t += (" I can't take your Sunday morning shift in return." if p["neg"]
          else " I can take your Sunday morning shift in return.")
    if p["extra"]:
        t += " I'll leave the storeroom keys in the usual place."
    if p["long"]:
        t += (" It's my cousin's wedding and I only found out the date last week, otherwise I'd "
              "have asked sooner. The milk delivery usually arrives around 11, so someone just "
              "needs to sign for it and put everything in the fridge. Let me know by tonight if "
              "you can, and no worries if not!")
    return t + "\n\n- " + p["frm"]


def m_sh_mgr(p):
    q = copy.deepcopy(p)
    q["mgr"] = pick([f for f in FIRST if f not in (p["mgr"], p["to"], p["frm"])])
    return q


add(Builder(
    "msg_shift", obj="this message", group="email", univ="prose", prose=True, request=True,
    gen=g_sh, render=r_sh,
    labels=["Here is the message:", "Message below:", "The message:", "Here's the text:", "Message text:"],
    tasks=[("Write a reply to this message saying yes, addressed to the sender by name and confirming the day, the hours and the swap arrangement.", "num neg roles"),
           ("Rewrite this message so it sounds more polite, keeping every detail.", "*"),
           ("Translate this message into Italian.", "*")],
    alt_tasks=["Summarize what is being asked in one sentence.",
               "Add this shift to my calendar: give me a title, time and note."],
    questions=lambda p: ["What time does the shift start?", "Who approved the swap?",
                         "What is offered in return?", "Which day is the shift?",
                         "Why does the sender need cover?"],
    numbers=[mset("start", lambda v: other(SHIFT_HOURS[:4], v)), mset("day", lambda v: other(["Thursday", "Friday", "Saturday"], v))],
    names=[m_sh_mgr],
    neg=True, extra=True, roles=mswap("to", "frm"),
    intents=["reply", "translate", "summ2"]))

# ---------------------------------------------------------------------------
# 27. email: remote-work approval (roles)
# ---------------------------------------------------------------------------


def g_lv():
    a, b, h = R.sample(FIRST, 3)
    d1 = R.randint(2, 18)
    return dict(a=a, b=b, hr="%s %s" % (h, pick(LAST)), city=pick(CITIES), d1=d1, d2=d1 + R.randint(5, 9),
                month=pick(MONTHS), time=pick(TIMES[:6]),
                extra=R.random() < 0.4, long=R.random() < 0.8)


def r_lv(p):
    body = fill("Quick update: <<a>> has approved <<b>>'s request to work remotely from <<city>> "
                "from <<d1>> to <<d2>> <<month>>. While away, <<b>> will still join the daily "
                "stand-up at <<time>> our time, and <<a>> will cover <<b>>'s on-call shifts for "
                "that period.", **p)
    if p["extra"]:
        body += fill(" Please mark <<b>>'s days as remote in the team calendar.", **p)
    parts = ["Subject: Remote work approval", "Hi all,", body]
    if p["long"]:
        parts.append(fill("The connection from <<city>> can be unreliable, so <<b>> may join some "
                          "calls with the camera off. Please avoid sending large files over the VPN "
                          "during that time, and if something urgent comes up, message <<a>> first "
                          "and <<b>> second.", **p))
    parts.append("Thanks,\n" + p["hr"])
    return "\n\n".join(parts)


add(Builder(
    "email_leave", obj="this email", group="email", univ="prose", prose=True,
    gen=g_lv, render=r_lv, labels=EMAIL_LABELS,
    tasks=[("Translate this email into Spanish.", "*"),
           ("Rewrite this email as a short team chat message, keeping all names, dates and times.", "*"),
           ("Extract who approved what and for whom, the location, the dates and every other arrangement as JSON.", "*")],
    alt_tasks=["Write a short reply to this email.", "Summarize this email in one sentence."],
    questions=lambda p: ["Who approved the request?", "Where will the person be working from?",
                         "When does the remote period end?", "What time is the daily stand-up?",
                         "Who covers the on-call shifts?"],
    numbers=[mset("d2", lambda v: v + pick([1, 2, 3, 7])), mset("time", lambda v: other(TIMES[:6], v))],
    names=[mset("city", lambda v: other(CITIES, v))],
    extra=True, roles=mswap("a", "b"),
    intents=["summ2", "reply", "translate"]))

# ---------------------------------------------------------------------------
# 28. customer complaint email
# ---------------------------------------------------------------------------


def g_cmp():
    c1, c2 = R.sample(COLORS, 2)
    return dict(order=R.randint(100000, 999999), date="%d %s" % (R.randint(1, 28), pick(MONTHS)),
                qty=R.randint(2, 8), product=pick(COMPLAINT_PRODUCTS), color=c1, color2=c2,
                bday=pick(["Saturday", "next Tuesday", "the 14th", "this weekend"]),
                name="%s %s" % (pick(FIRST), pick(LAST)), city=pick(CITIES),
                neg=R.random() < 0.5, extra=R.random() < 0.4, long=R.random() < 0.8)


def r_cmp(p):
    body = fill("I placed order #<<order>> on <<date>> for <<qty>> x <<product>> in <<color>>, but "
                "the parcel that arrived yesterday contained <<color2>> ones instead.", **p)
    body += " I have not opened the packaging." if p["neg"] else " I have opened the packaging."
    if p["extra"]:
        body += " The outer box was also badly dented on one corner."
    body += fill(" I would like the correct colour sent out as soon as possible, because they are a "
                 "birthday present for <<bday>>.", **p)
    parts = ["Subject: Wrong colour in order #%d" % p["order"], "Hello,", body]
    if p["long"]:
        parts.append(fill("I have attached a photo of the items next to the packing slip, which "
                          "clearly lists <<color>>. If it is easier, I am happy to drop the wrong "
                          "items at one of your shops in <<city>> instead of posting them back. "
                          "Please let me know which option you prefer and whether I need to print "
                          "a return label.", **p))
    parts.append("Thanks,\n" + p["name"])
    return "\n\n".join(parts)


add(Builder(
    "complaint_email", obj="this email", group="email", univ="prose", prose=True,
    gen=g_cmp, render=r_cmp,
    labels=["Here is the customer's email:", "Customer email below:", "The complaint:",
            "Email from the customer:", "Here's the message:"],
    tasks=[("Write a reply from customer support to this email that addresses every point in it and quotes the order details.", "*"),
           ("Extract the order number, order date, product, quantity, problem, packaging status and requested fix as JSON.", "num name neg"),
           ("Translate this email into German.", "*")],
    alt_tasks=["Classify this email by urgency: low, medium or high.",
               "Write an internal note for the warehouse team about this email."],
    questions=lambda p: ["What is the order number?", "What colour did the customer order?",
                         "What did they receive instead?", "Why is the order urgent?",
                         "Has the packaging been opened?"],
    numbers=[mset("qty", lambda v: other_int(v, 2, 8)), mset("order", lambda v: v + pick([1, 10, 1000]))],
    names=[mset("product", lambda v: other(COMPLAINT_PRODUCTS, v))],
    neg=True, extra=True,
    intents=["reply", "summ2", "translate"]))


# ---------------------------------------------------------------------------
# optional context sentences users write around technical material (identical
# on both sides of every pair; never adds a requirement)
# ---------------------------------------------------------------------------
CONTEXTS = {
    "service_log": ["Our service went down this morning and this is what the logs on the box show. I've removed the unrelated lines. It normally runs for weeks without a restart, and nothing was deployed yesterday as far as I know.",
                    "This happened on one of our production hosts overnight, and the on-call engineer restarted the service before anyone looked closely. The database team says they did not change anything on their side."],
    "traceback": ["Our nightly report job started crashing after last week's release. It runs on Python 3.11 inside a Docker container and reads a CSV export from the billing system, which usually has a few thousand rows.",
                  "I get this when I run the reporting tool against this month's data. The same command worked fine last month, and as far as I know nobody touched the report code since then."],
    "json_config": ["We're moving this service from a VM to Kubernetes next sprint, and this is the config file it currently reads at startup. The database and the service run in the same region.",
                    "This is the config file our service loads when it starts. I took it over from another team last week and I'm still finding my way around it, so bear with me."],
    "compose_yaml": ["I'm setting up a local development environment for a small web app. This is the compose file I have so far; the app itself runs fine outside Docker, on a Linux laptop with Docker 24 and Compose v2.",
                     "A teammate shared this compose file for our side project, and I'm the one who has to keep it running on a small VPS from now on. I have used Docker before but never Compose."],
    "py_discount": ["This is a simplified version of the pricing helper in our shop backend. I inherited the code from a colleague who left, and I'm trying to understand it before changing anything.",
                    "I'm practising Python with small exercises from an online course, and this one is about functions and list comprehensions. I'm running it with Python 3.12 on my laptop."],
    "py_wordcount": ["I wrote this small script for a text-analysis homework assignment. The input file is a plain text file of a few thousand words, and I run it with Python 3.11 from the terminal in the same folder.",
                     "My manager asked for a quick count of the most common words in our customer feedback, so I threw this together during lunch. The feedback is exported as a plain text file."],
    "py_orders": ["This snippet comes from a reporting script that runs at the end of every day. The real list comes from the database, but I've hard-coded a few orders to test it; amounts are whole euros.",
                  "I'm teaching myself Python with small examples like this one, using Python 3.12 on my laptop. The data is made up, but the structure is the same as in a real shop."],
    "js_fetch": ["This is from the front end of our admin dashboard. The API is our own and returns JSON for each user, and it runs in current versions of Chrome and Firefox.",
                 "I'm building a small browser extension for our support team, and this helper talks to our internal users API. In our test setup the endpoint needs no authentication."],
    "js_cart": ["I'm learning JavaScript and building a tiny shopping cart for practice. I run it with Node 20 from the terminal, and prices are in euros.",
                "This is a stripped-down piece of the checkout page of a small online shop I help a friend with. Quantities are always whole numbers between 1 and 10."],
    "sql_report": ["We use PostgreSQL 15. The customers table has about 40,000 rows and orders has about 2 million, and created_at is a timestamp column.",
                   "Our analyst wrote this for the monthly sales meeting, and it runs against a read replica of our production PostgreSQL database every first Monday."],
    "sql_update": ["This is a cleanup script a colleague wants to run tonight on our PostgreSQL database. The accounts table has roughly 300,000 rows and the sessions table is much bigger.",
                   "We run PostgreSQL 14, and this script is part of a quarterly housekeeping task that someone usually runs by hand at night, when nothing else writes to these tables."],
    "bash_backup": ["This runs from cron every night on an Ubuntu 22.04 server that hosts our PostgreSQL database. The database is about 8 GB and the backup disk has plenty of free space.",
                    "I found this script on an old server we are about to migrate, and nobody remembers who wrote it. It seems to be called from cron once a day."],
    "bash_deploy": ["We deploy a small Node front end to a single Ubuntu VM with this script. Someone runs it by hand over SSH after each merge, and nginx serves the static build.",
                    "This is the deploy script for our marketing site. It lives in the repo, the person on release duty runs it, and there is no staging environment."],
    "csv_tickets": ["This is an export from our helpdesk tool for the last few days. The summary column is whatever the customer typed as the subject, and customers are company accounts.",
                    "Our support lead exported these tickets for the weekly review meeting, straight from the helpdesk tool without any editing."],
    "csv_transfers": ["My flatmates and I track who paid whom in a shared spreadsheet. This is the export for the last few weeks; all amounts are in euros.",
                      "We split costs on a group trip and logged every bank transfer in a sheet, exported here. Every row is a single bank transfer."],
}
for _b in BUILDERS:
    _b.context = CONTEXTS.get(_b.name, [])


# ---------------------------------------------------------------------------
# instruction families
# ---------------------------------------------------------------------------
UNIV = {
    "prose": ["Translate {obj} into {L}.",
              "Rewrite {obj} in plain, simple English, keeping every fact, name and figure.",
              "Turn {obj} into a bulleted list of every fact it contains.",
              "Proofread {obj} and return the corrected text in full."],
    "code": ["Explain {obj} line by line.", "Add a short comment above each line of {obj}.",
             "Walk me through exactly what {obj} does when it runs.",
             "Rewrite {obj} in {PL}, keeping exactly the same behaviour."],
    "data": ["Convert {obj} into a JSON array of objects.", "Convert {obj} into a Markdown table."],
    "config": ["Explain every line of {obj}.", "Add a comment next to every line of {obj} explaining it."],
    "log": ["Walk me through {obj} line by line."],
}

LEN_FMT = [
    ("Summarize {obj} in one sentence.", "Summarize {obj} in three bullet points."),
    ("Summarize {obj} in about 50 words.", "Summarize {obj} in about 200 words."),
    ("Summarize the key facts in {obj} as a table.", "Summarize the key facts in {obj} as a JSON object."),
    ("Give me a one-line summary of {obj}.", "Give me a detailed summary of {obj}, at least two paragraphs long."),
    ("Explain {obj} in a single short paragraph.", "Explain {obj} as a numbered list of steps."),
    ("Describe {obj} in under 30 words.", "Describe {obj} in roughly 150 words."),
    ("Summarize {obj} in five bullet points.", "Summarize {obj} in two bullet points."),
    ("Give me the main points of {obj} as plain prose, with no lists.", "Give me the main points of {obj} as a Markdown checklist."),
]

AUD = {
    "email": [
        ("Write a reply to {obj} in a formal, professional tone.", "Write a reply to {obj} in a warm, casual tone."),
        ("Rewrite {obj} so it sounds more formal.", "Rewrite {obj} so it sounds friendlier and more relaxed."),
        ("Summarize {obj} for my manager.", "Summarize {obj} for a ten-year-old."),
        ("Write a reply to {obj} that is firm and direct.", "Write a reply to {obj} that is apologetic and gentle."),
        ("Write a reply to {obj} as a senior executive would.", "Write a reply to {obj} as a new intern would."),
    ],
    "doc": [
        ("Explain {obj} to a ten-year-old.", "Explain {obj} to an expert in the field."),
        ("Rewrite {obj} in a neutral, formal tone for an official report.", "Rewrite {obj} in a playful tone for a social media post."),
        ("Summarize {obj} for a busy executive.", "Summarize {obj} for a complete beginner, explaining every term."),
        ("Explain {obj} to my grandmother, who knows nothing about the topic.", "Explain {obj} to a specialist, using precise terminology."),
        ("Rewrite {obj} in a cheerful, upbeat tone.", "Rewrite {obj} in a serious, sober tone."),
    ],
    "tech": [
        ("Explain {obj} to a complete beginner who has never written code.", "Explain {obj} to a senior engineer; skip the basics."),
        ("Explain {obj} to a non-technical product manager.", "Explain {obj} to the on-call engineer who has to fix it tonight."),
        ("Explain {obj} like I'm five.", "Explain {obj} in precise technical detail for a code review."),
        ("Write a short, friendly note to a junior colleague explaining {obj}.", "Write a formal technical note for the architecture team explaining {obj}."),
        ("Explain {obj} to a student in their first programming course.", "Explain {obj} to an experienced site reliability engineer."),
    ],
}
REQ_AUD = [("Write a reply to {obj} politely declining.", "Write a reply to {obj} enthusiastically accepting."),
           ("Write a short, apologetic reply to {obj} turning the request down.", "Write a short, cheerful reply to {obj} agreeing to help.")]

LANG_T = {
    "email": ["Reply to {obj} in {L}.", "Translate {obj} into {L}.", "Summarize {obj} in {L}."],
    "doc": ["Translate {obj} into {L}.", "Summarize {obj} in {L}.", "Explain {obj} in {L}."],
    "tech": ["Explain {obj} in {L}.", "Explain {obj} step by step, writing in {L}.", "Describe {obj} briefly in {L}."],
}

INTENTS = {
    "summ2": dict(
        imp=["Summarize {obj} in two sentences.", "Give me a two-sentence summary of {obj}.",
             "Sum up {obj} in two sentences.", "Write a two-sentence summary of {obj}.",
             "Condense {obj} into two sentences."],
        q=["Can you summarize {obj} in two sentences?", "Could you give me a two-sentence summary of {obj}?",
           "Would you sum up {obj} in two sentences?", "Could you condense {obj} into two sentences?"],
        inf=["pls summarize {obj} in 2 sentences", "can u sum up {obj} in two sentences pls",
             "gimme a 2 sentence summary of {obj} pls", "need {obj} summed up in 2 sentences, thx"]),
    "points3": dict(
        imp=["List the three most important points in {obj} as bullet points.",
             "Give me the three key points of {obj} as a bulleted list.",
             "Pull out the three main points of {obj} as bullets.",
             "Write the three most important points from {obj} as a bullet list."],
        q=["Can you list the three most important points in {obj} as bullet points?",
           "What are the three key points of {obj}? Give them as bullets.",
           "Could you pull out the three main points of {obj} as bullets?"],
        inf=["pls list the 3 main points in {obj} as bullets", "can u gimme the 3 key points from {obj} in bullet form",
             "wanna see the three most important points of {obj} as bullets pls"]),
    "reply": dict(
        imp=["Write a short, polite reply to {obj}.", "Draft a brief, polite reply to {obj}.",
             "Compose a short and courteous reply to {obj}.", "Write a polite reply to {obj} and keep it short."],
        q=["Can you write a short, polite reply to {obj}?", "Could you draft a brief, polite reply to {obj}?",
           "Would you write a short and courteous reply to {obj}?"],
        inf=["pls write a short polite reply to {obj}", "can u draft a quick, polite reply to {obj}",
             "gonna need a short polite reply to {obj}, can u write one?",
             "u mind writing a short polite reply to {obj}?"]),
    "translate": dict(
        imp=["Translate {obj} into {L}.", "Translate {obj} to {L}.", "Give me a translation of {obj} into {L}.",
             "Produce a translation of {obj} into {L}."],
        q=["Can you translate {obj} into {L}?", "Could you give me a translation of {obj} into {L}?",
           "Would you translate {obj} to {L}?"],
        inf=["pls translate {obj} into {Ll}", "can u translate {obj} to {L} pls",
             "need {obj} in {Ll}, can u translate it?"]),
    "sentiment": dict(
        imp=["Classify the sentiment of {obj} as positive, negative or mixed, and give one reason.",
             "Label {obj} as positive, negative or mixed, and give one reason.",
             "Decide whether {obj} is positive, negative or mixed, and give one reason."],
        q=["Is {obj} positive, negative or mixed? Give one reason.",
           "Can you classify the sentiment of {obj} as positive, negative or mixed and give one reason?",
           "Could you tell me whether {obj} is positive, negative or mixed, with one reason?"],
        inf=["pls classify {obj} as positive, negative or mixed + give 1 reason",
             "is {obj} positive, negative or mixed? gimme one reason pls",
             "can u tell me if {obj} is positive, negative or mixed? 1 reason pls"]),
    "action_items": dict(
        imp=["Extract the action items from {obj} as a bulleted list.",
             "Pull out the action items from {obj} as a bulleted list.",
             "List the action items in {obj} as bullet points."],
        q=["Can you extract the action items from {obj} as a bulleted list?",
           "What are the action items in {obj}? List them as bullets.",
           "Could you list the action items in {obj} as bullet points?"],
        inf=["pls pull out the action items from {obj} as bullets",
             "can u list the action items in {obj}? bullet points pls",
             "need the action items from {obj} as a bullet list, thx"]),
    "plain": dict(
        imp=["Explain {obj} in plain English.", "Explain in plain English what {obj} means.",
             "Give me a plain-English explanation of {obj}."],
        q=["Can you explain {obj} in plain English?", "What does {obj} mean in plain English?",
           "Could you give me a plain-English explanation of {obj}?"],
        inf=["pls explain {obj} in plain english", "can u explain {obj} in normal english, not legalese",
             "wat does {obj} mean in plain english? pls explain"]),
    "explain_log": dict(
        imp=["Explain what went wrong in {obj}.", "Tell me what went wrong according to {obj}.",
             "Describe what went wrong in {obj}.", "Work out what went wrong from {obj}."],
        q=["What went wrong in {obj}?", "Can you explain what went wrong in {obj}?",
           "Could you tell me what went wrong, based on {obj}?"],
        inf=["pls explain what went wrong in {obj}", "can u tell me what broke in {obj}",
             "whats going wrong in {obj}? pls explain"]),
    "fix_error": dict(
        imp=["Explain why this error happens and how to fix it.", "Explain the cause of this error and how to fix it.",
             "Tell me why this error occurs and how I can fix it."],
        q=["Why does this error happen, and how do I fix it?", "Can you explain why this error happens and how to fix it?",
           "Could you tell me what causes this error and how to fix it?"],
        inf=["pls explain why this error happens n how to fix it", "why am i getting this error? how do i fix it pls",
             "can u tell me why this errors out and how to fix it"]),
    "to_yaml": dict(
        imp=["Convert this JSON to YAML.", "Rewrite this JSON as YAML.", "Turn this JSON into YAML.",
             "Convert this JSON into YAML format."],
        q=["Can you convert this JSON to YAML?", "Could you rewrite this JSON as YAML?",
           "Would you turn this JSON into YAML?"],
        inf=["pls convert this json to yaml", "can u turn this JSON into YAML pls",
             "gonna need this json as yaml, can u convert it?"]),
    "explain_cfg": dict(
        imp=["Explain each setting in {obj}.", "Go through {obj} and explain every setting.",
             "Explain what every setting in {obj} does."],
        q=["Can you explain each setting in {obj}?", "What does each setting in {obj} do?",
           "Could you go through {obj} and explain every setting?"],
        inf=["pls explain each setting in {obj}", "can u go thru {obj} n explain every setting",
             "what does each setting in {obj} do? explain pls"]),
    "explain_code": dict(
        imp=["Explain what {obj} does.", "Describe what {obj} does.", "Tell me what {obj} does.",
             "Explain what {obj} is doing."],
        q=["Can you explain what {obj} does?", "What does {obj} do?", "Could you tell me what {obj} does?",
           "Would you explain what {obj} does?"],
        inf=["pls explain what {obj} does", "can u tell me what {obj} does", "what's {obj} doing? pls explain",
             "dont get what {obj} does, can u explain?"]),
    "bug": dict(
        imp=["Find the bug in {obj} and show the corrected version.",
             "Identify the bug in {obj} and give me the fixed version.",
             "Spot the bug in {obj} and show the fix.", "Locate the bug in {obj} and provide a corrected version."],
        q=["Can you find the bug in {obj} and show the corrected version?",
           "Where is the bug in {obj}, and what does the fixed version look like?",
           "Could you spot the bug in {obj} and show me the fix?"],
        inf=["pls find the bug in {obj} n show the fixed version", "can u spot the bug in {obj}? show me the fix pls",
             "theres a bug in {obj}, can u find it and show the fixed version?"]),
    "sql_explain": dict(
        imp=["Explain in plain English what {obj} returns.", "Describe in plain English what {obj} returns.",
             "Tell me in plain English what {obj} returns."],
        q=["What does {obj} return? Explain in plain English.", "Can you explain in plain English what {obj} returns?",
           "Could you describe in plain English what {obj} returns?"],
        inf=["pls explain in plain english what {obj} returns", "can u tell me what {obj} returns, in plain english",
             "what does {obj} return? plain english pls"]),
    "net": dict(
        imp=["Work out the net amount each person sent or received in {obj}.",
             "Calculate each person's net amount sent or received in {obj}.",
             "Compute how much each person sent or received overall, net, in {obj}."],
        q=["Can you work out the net amount each person sent or received in {obj}?",
           "How much did each person send or receive overall, net, in {obj}?",
           "Could you calculate each person's net amount sent or received in {obj}?"],
        inf=["pls work out the net amount each person sent or received in {obj}",
             "can u calc the net amount each person sent or got in {obj}",
             "need each person's net sent/received from {obj} pls"]),
    "csv_md": dict(
        imp=["Convert {obj} into a Markdown table.", "Turn {obj} into a Markdown table.",
             "Reformat {obj} as a Markdown table."],
        q=["Can you convert {obj} into a Markdown table?", "Could you turn {obj} into a Markdown table?",
           "Would you reformat {obj} as a Markdown table?"],
        inf=["pls turn {obj} into a markdown table", "can u convert {obj} to a md table pls",
             "gonna need {obj} as a markdown table, can u do that?"]),
    "review_list": dict(
        imp=["Review {obj} and point out any problems.", "Check {obj} and point out any problems.",
             "Look over {obj} and flag any problems."],
        q=["Can you review {obj} and point out any problems?", "Are there any problems with {obj}? Point them out.",
           "Could you check {obj} and point out any problems?"],
        inf=["pls review {obj} n point out any problems", "can u check {obj} for problems?",
             "anything wrong with {obj}? pls point it out"]),
    "us_units": dict(
        imp=["Convert {obj} to US cups and Fahrenheit.", "Rewrite {obj} using US cups and degrees Fahrenheit.",
             "Change the measurements in {obj} to US cups and Fahrenheit."],
        q=["Can you convert {obj} to US cups and Fahrenheit?",
           "Could you rewrite {obj} using US cups and degrees Fahrenheit?",
           "Would you change the measurements in {obj} to US cups and Fahrenheit?"],
        inf=["pls convert {obj} to us cups and fahrenheit", "can u redo {obj} in cups n fahrenheit",
             "need {obj} in US cups + °F, can u convert it?"]),
}

GREETS = [("Hi! ", ""), ("", " Thanks!"), ("Hello! ", " Thank you."), ("Hey there! ", " Thanks a lot."),
          ("Good morning! ", ""), ("", " Thanks in advance!"), ("Hi, hope you're well. ", ""),
          ("", " Much appreciated!"), ("Hello. ", " Cheers!"), ("PLEASE", "")]

FILLERS = ["I'm in a bit of a hurry.", "This is for work.", "My colleague sent me this.",
           "I got this earlier today.", "I've been looking at this for a while.",
           "Asking for a project I'm working on.", "Just trying to clear my backlog.",
           "This came up in a meeting today.", "A friend forwarded this to me."]


def fmt(t, b, L=None):
    L = L or "German"
    return t.format(obj=b.obj, L=L, Ll=L.lower(), PL=getattr(b, "pl", "Python"))


# ---------------------------------------------------------------------------
# material styling and prompt composition
# ---------------------------------------------------------------------------


def style_block(m, style, lang):
    if style == "raw":
        return m
    if style == "fence":
        return "```%s\n%s\n```" % (lang or "", m)
    if style == "fence_plain":
        return "```\n%s\n```" % m
    if style == "fence_text":
        return "```text\n%s\n```" % m
    if style == "tilde":
        return "~~~\n%s\n~~~" % m
    if style == "quote":
        return "\n".join(("> " + l) if l else ">" for l in m.split("\n"))
    if style == "dq":
        return '"' + m + '"'
    if style == "here":
        return "Here it is:\n\n" + m
    if style == "dashes":
        return "---\n%s\n---" % m
    raise ValueError(style)


def styles_for(b):
    if b.lang:            # real code / config
        return ["fence", "fence_plain", "tilde", "here", "raw"]
    if b.lang == "":      # logs, tracebacks, csv
        return ["fence_plain", "fence_text", "tilde", "here", "raw", "quote"]
    return ["raw", "fence_plain", "quote", "dq", "here", "dashes"]


def default_style(b):
    x = R.random()
    if b.lang:
        return "fence" if x < 0.8 else "raw"
    if b.lang == "":
        return "fence_plain" if x < 0.6 else ("raw" if x < 0.85 else "fence_text")
    return "raw" if x < 0.7 else ("quote" if x < 0.85 else "fence_plain")


def framing(b):
    return dict(before=R.random() < 0.6, label=pick(b.labels) if R.random() < 0.45 else None,
                style=default_style(b), colon=R.random() < 0.5,
                ctx=pick(b.context) if b.context and R.random() < 0.85 else None)


def compose(instr, block, label=None, before=True, colon=False, sep="\n\n"):
    if before and colon and not label and instr.endswith("."):
        instr = instr[:-1] + ":"
    mat = (label + "\n" + block) if label else block
    return (instr + sep + mat) if before else (mat + sep + instr)


def cf(instr, m, b, fr, **over):
    f = dict(fr)
    f.update(over)
    ctx = f.get("ctx")
    if ctx and f["before"]:
        instr = ctx + " " + instr
    out = compose(instr, style_block(m, f["style"], b.lang), f["label"], f["before"], f["colon"])
    if ctx and not f["before"]:
        out = ctx + "\n\n" + out
    return out


# ---------------------------------------------------------------------------
# near-miss generators
# ---------------------------------------------------------------------------
MAT_KIND = {"material_number_changed": "num", "material_name_changed": "name",
            "material_negation": "neg", "material_code_changed": "code",
            "material_line_removed_or_added": "line", "material_order_changed": "order",
            "material_swapped_roles": "roles"}


def eligible(b, kind):
    return {"num": bool(b.numbers), "name": bool(b.names), "neg": b.neg, "code": bool(b.code),
            "line": b.extra, "order": bool(b.order), "roles": b.roles is not None}[kind]


def material_instr(b, kind):
    cands = [t for t, tags in b.tasks if tags == "*" or kind in tags.split()]
    cands += [fmt(t, b, pick(LANGS)) for t in UNIV[b.univ]]
    return pick(cands)


def nm_material(b, kind):
    p = b.gen()
    if kind == "num":
        p2 = pick(b.numbers)(p)
    elif kind == "name":
        p2 = pick(b.names)(p)
    elif kind == "neg":
        p2 = mtoggle("neg")(p)
    elif kind == "line":
        p2 = mtoggle("extra")(p)
    elif kind == "code":
        p2 = pick(b.code)(p)
    elif kind == "order":
        p2 = pick(b.order)(p)
    elif kind == "roles":
        p2 = b.roles(p)
    A, B = b.render(p), b.render(p2)
    if A == B:
        return None
    instr = material_instr(b, kind)
    fr = framing(b)
    s, q = cf(instr, A, b, fr), cf(instr, B, b, fr)
    return (s, q) if R.random() < 0.5 else (q, s)


def nm_instruction(b, cat):
    p = b.gen()
    m = b.render(p)
    fr = framing(b)
    if cat == "instruction_task_changed":
        pool = [t for t, _ in b.tasks] + list(b.alt_tasks)
        a, c = R.sample(pool, 2)
    elif cat == "instruction_length_or_format":
        a, c = [fmt(t, b) for t in pick(LEN_FMT)]
    elif cat == "instruction_audience_or_tone":
        pool = AUD[b.group] + (REQ_AUD if b.request else [])
        a, c = [fmt(t, b) for t in pick(pool)]
    elif cat == "instruction_language":
        t = pick(LANG_T[b.group])
        l1, l2 = R.sample(LANGS, 2)
        a, c = fmt(t, b, l1), fmt(t, b, l2)
    elif cat == "instruction_focus":
        a, c = R.sample(b.questions(p), 2)
    else:
        raise ValueError(cat)
    if R.random() < 0.5:
        a, c = c, a
    return cf(a, m, b, fr), cf(c, m, b, fr)


NEAR_CATS = ["material_number_changed", "material_name_changed", "material_negation",
             "material_code_changed", "material_line_removed_or_added", "material_order_changed",
             "instruction_task_changed", "instruction_length_or_format",
             "instruction_audience_or_tone", "instruction_language", "instruction_focus",
             "material_swapped_roles"]

# ---------------------------------------------------------------------------
# positive generators
# ---------------------------------------------------------------------------


def lower_first(s):
    return s[:1].lower() + s[1:]


CASINGS = [lambda s: s.lower(), lambda s: s.upper(),
           lambda s: " ".join(w[:1].upper() + w[1:] for w in s.split(" ")),
           lower_first,
           lambda s: (lambda w: w[0].upper() + (" " + w[1] if len(w) > 1 else ""))(s.split(" ", 1))]


def ws_rewrap(m):
    w = pick([48, 56, 64])
    out = []
    for line in m.split("\n"):
        if len(line) > w + 10 and not re.match(r"^\s*([-*>]|\d+[.)])", line):
            out.append(textwrap.fill(line, width=w))
        else:
            out.append(line)
    return "\n".join(out)


def ws_double(m):
    return re.sub(r"\n(?!\n)", "\n\n", m)


def ws_collapse(m):
    return re.sub(r"\n[ \t]*\n+", "\n", m)


def ws_trailing(m):
    return "\n".join((l + pick(["  ", " ", "   ", " \t"])) if l else l for l in m.split("\n"))


def ws_tabs(m):
    return "\n".join(("\t" + l) if l.strip() else l for l in m.split("\n"))


def ws_dblspace(m):
    return re.sub(r"([.!?]) (?=[A-Z])", r"\1  ", m)


WS_FUNCS = [ws_rewrap, ws_double, ws_collapse, ws_trailing, ws_tabs, ws_dblspace]


def pos_pair(b, cat):
    p = b.gen()
    m = b.render(p)
    fr = framing(b)
    intent = INTENTS[pick(b.intents)]
    L = pick(LANGS)
    imp = [fmt(t, b, L) for t in intent["imp"]]
    qs = [fmt(t, b, L) for t in intent["q"]]
    inf = [fmt(t, b, L) for t in intent["inf"]]
    i = pick(imp)

    if cat == "instruction_reworded":
        a, c = R.sample(imp, 2)
        s, q = cf(a, m, b, fr), cf(c, m, b, fr)
    elif cat == "instruction_moved":
        s, q = cf(i, m, b, fr, before=True), cf(i, m, b, fr, before=False)
    elif cat == "greeting_or_thanks_added":
        fr = dict(fr, ctx=None)
        pre, post = pick(GREETS)
        s = cf(i, m, b, fr, colon=False)
        if pre == "PLEASE":
            q = cf("Please " + lower_first(i), m, b, fr, colon=False)
        elif fr["before"]:
            q = cf(pre + i + post, m, b, fr, colon=False)
        else:
            body = cf(i + post, m, b, fr, colon=False)
            q = (pre.strip() + "\n\n" + body) if pre else body
    elif cat == "whitespace_and_line_breaks":
        fr = dict(fr, style=pick(["raw", "raw", "fence_plain"]), ctx=None)
        m2 = m
        while m2 == m:
            m2 = pick(WS_FUNCS)(m)
        s = cf(i, m, b, fr)
        q = cf(i, m2, b, fr)
        if R.random() < 0.3:
            sep = pick(["\n", "\n\n\n", "\n\n\n\n"])
            q = compose(i, style_block(m2, fr["style"], b.lang), fr["label"], fr["before"], fr["colon"], sep=sep)
    elif cat == "casing_of_instruction":
        base = pick([i, pick(qs)])
        c = base
        while c == base:
            c = pick(CASINGS)(base)
        s, q = cf(base, m, b, fr), cf(c, m, b, fr)
    elif cat == "fence_or_quote_style":
        s1, s2 = R.sample(styles_for(b), 2)
        s = cf(i, m, b, fr, style=s1, label=None)
        q = cf(i, m, b, fr, style=s2, label=None)
    elif cat == "filler_context_added":
        fr = dict(fr, ctx=None)
        f = pick(FILLERS)
        k = R.randrange(5)
        s = cf(i, m, b, fr, colon=False)
        if k == 0:
            q = cf(f + " " + i, m, b, fr, colon=False)
        elif k == 1:
            q = cf(i + " " + f, m, b, fr, colon=False)
        elif k == 2:
            q = f + "\n\n" + s
        elif k == 3:
            q = s + "\n\n" + f
        else:
            mat = style_block(m, fr["style"], b.lang)
            mat = (fr["label"] + "\n" + mat) if fr["label"] else mat
            q = (i + "\n\n" + f + "\n\n" + mat) if fr["before"] else (mat + "\n\n" + f + " " + i)
    elif cat == "question_form":
        s, q = cf(i, m, b, fr), cf(pick(qs), m, b, fr)
    elif cat == "contractions_and_informal":
        s, q = cf(pick([i, pick(qs)]), m, b, fr), cf(pick(inf), m, b, fr)
    elif cat == "label_words":
        l1, l2 = R.sample(b.labels, 2)
        s, q = cf(i, m, b, fr, label=l1), cf(i, m, b, fr, label=l2)
    else:
        raise ValueError(cat)
    return (s, q) if R.random() < 0.5 else (q, s)


POS_CATS = ["instruction_reworded", "instruction_moved", "greeting_or_thanks_added",
            "whitespace_and_line_breaks", "casing_of_instruction", "fence_or_quote_style",
            "filler_context_added", "question_form", "contractions_and_informal", "label_words"]


# ---------------------------------------------------------------------------
# driver
# ---------------------------------------------------------------------------
SEEN = set()


def accept(s, q):
    """Distinct strings, 40-300 words each, and no prompt reused by another pair."""
    if s is None or s == q or s in SEEN or q in SEEN:
        return False
    for t in (s, q):
        if not 40 <= words(t) <= 300:
            return False
    SEEN.update((s, q))
    return True


def run_category(cat, pool, make, n=15):
    pool = list(pool)
    R.shuffle(pool)
    out, used, tries, k = [], [], 0, 0
    while len(out) < n:
        tries += 1
        if tries > 3000:
            raise RuntimeError("could not fill category %s" % cat)
        b = pool[k % len(pool)]
        k += 1
        r = make(b)
        if r is None:
            continue
        s, q = r
        if accept(s, q):
            out.append({"category": cat, "stored": s, "query": q})
            used.append(b.name)
    assert len(set(used)) >= 5, (cat, used)
    return out


def build():
    text_pairs = []
    for cat in NEAR_CATS:
        if cat in MAT_KIND:
            kind = MAT_KIND[cat]
            pool = [b for b in BUILDERS if eligible(b, kind)]
            text_pairs += run_category(cat, pool, lambda b, kind=kind: nm_material(b, kind))
        else:
            pool = BUILDERS
            text_pairs += run_category(cat, pool, lambda b, cat=cat: nm_instruction(b, cat))
    positives = []
    for cat in POS_CATS:
        pool = [b for b in BUILDERS if b.prose] if cat == "whitespace_and_line_breaks" else BUILDERS
        positives += run_category(cat, pool, lambda b, cat=cat: pos_pair(b, cat))
    return text_pairs, positives


DESCRIPTION = (
    "Held-out set v27 (written blind, generated deterministically with random.Random(272727)) of "
    "long chat-assistant prompts that carry pasted material plus an instruction: emails and chat "
    "messages, customer complaints, news and company-report paragraphs, product reviews, meeting "
    "notes, contract clauses, service logs, Python tracebacks, JSON and docker-compose configs, "
    "Python/JavaScript/SQL/bash code blocks, CSV excerpts, maintenance checklists, incident "
    "timelines and recipes, with the instruction before or after the material and with labels, "
    "code fences, quotes, bullets and indentation as users paste them (40-300 words per prompt, "
    "about half over 100). text_pairs holds 180 near-miss pairs (12 categories x 15) whose stored "
    "and query prompts share almost all of their text but need different answers: one number, "
    "name, negation, code token, line, order of two steps or pair of roles changed inside the "
    "material, or the instruction's task, length/format, audience/tone, output language or focus "
    "changed over identical material. positives holds 150 true paraphrase pairs (10 categories x "
    "15) with identical material and the same meaning, differing only in instruction wording, "
    "placement, greetings, whitespace in prose, instruction casing, fence/quote style, filler "
    "context, question form, informal spelling or the label that introduces the material; a cache "
    "should serve the stored answer for these."
)


def main():
    text_pairs, positives = build()
    assert len(text_pairs) == 180 and len(positives) == 150
    data = {"description": DESCRIPTION, "text_pairs": text_pairs, "positives": positives}
    os.makedirs(os.path.dirname(OUT_PATH), exist_ok=True)
    with open(OUT_PATH, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2, ensure_ascii=False)
        f.write("\n")
    allp = [t for pr in text_pairs + positives for t in (pr["stored"], pr["query"])]
    wc = [words(t) for t in allp]
    print("wrote %s" % OUT_PATH)
    print("text_pairs=%d positives=%d" % (len(text_pairs), len(positives)))
    print("words: min=%d max=%d mean=%.1f share>100=%.2f"
          % (min(wc), max(wc), sum(wc) / len(wc), sum(1 for w in wc if w > 100) / len(wc)))


if __name__ == "__main__":
    main()
