# Over 500 lines on purpose: a frozen data generator whose templates and word lists are its content (its set was committed with it and measured as written; edit neither).
"""Generate held-out evaluation set v13 for the semantic prompt cache.

The set imitates the traffic of six deployed assistants that differ from a generic chat assistant:

1. a travel-planning assistant (routes, visas, time zones, currencies, packing),
2. a cooking and nutrition assistant (recipes, substitutions, temperatures, grams and cups, calories),
3. a personal-finance assistant (interest, loans, budgets, taxes in general terms, percentages),
4. a data-analysis helper (pandas, NumPy, SQL, spreadsheet formulas, statistics),
5. a history and geography quiz tutor (dates, rulers, capitals, rivers, mountains, wars),
6. a writing and editing assistant (rewriting quoted sentences, tone, length, summaries, grammar).

It has two parts:

* ``text_pairs``: near misses. The stored prompt and the query share most of their wording, but a careful
  human would answer them differently (one code token, number, constraint, direction, negation, antonym,
  entity, qualifier, quantifier, tense or modality, question target, or pasted text changed), so serving the
  stored answer for the query would be wrong.
* ``positives``: true paraphrases that a careful human would answer identically (synonyms, question versus
  imperative, polite wrappers, casing and punctuation, reordered clauses, the same pasted content with other
  wording, contractions, plural or article changes, and "list"/"give me"/"name" forms).

Every pair is built from the templates and word lists in this file with ``random.Random(131313)``; running
the script twice writes byte-identical JSON. The set was written without reading the cache's code, its tests,
its benchmarks or any other held-out set. It is for measurement only: it must never be used to write, tune
or check rules, thresholds or word lists of the cache, or it stops being held out.

Run: ``python benchmarks/caches/make_heldout_v13.py``
"""

import json
import random
from pathlib import Path

SEED = 131313
RNG = random.Random(SEED)
OUT = Path(__file__).parent / "data" / "heldout_generated_v13.json"

NEAR_QUOTA = 15
POSITIVE_QUOTA = {
    "synonym_rewording": 10,
    "question_vs_imperative": 10,
    "polite_wrapper": 10,
    "casing_punctuation_whitespace": 10,
    "clause_reorder": 9,
    "same_pasted_content": 9,
    "contraction": 9,
    "plural_article": 9,
    "list_give_name_forms": 9,
}

DESCRIPTION = (
    "Held-out evaluation set v13 for the semantic prompt cache, imitating six deployed assistants that differ "
    "from a generic chat assistant: a travel planner, a cooking and nutrition helper, a personal-finance "
    "assistant, a data-analysis helper (pandas, NumPy, SQL, spreadsheet formulas, statistics), a history and "
    "geography quiz tutor, and a writing and editing assistant. 'text_pairs' are near misses: the stored prompt "
    "and the query share most of their wording but a careful human would answer them differently (a code, "
    "command, SQL, regex or formula token, a number, unit, currency, percentage or date, an answer constraint, "
    "a direction or role swap, a negation, an antonym, a different entity, an added or dropped qualifier, a "
    "quantifier, tense or modality, the question target, or the pasted text changed), so serving the stored "
    "answer would be wrong. 'positives' are true paraphrases that deserve the same answer (synonyms, question "
    "versus imperative, polite wrappers, casing, punctuation and whitespace, reordered clauses, the same pasted "
    "content with other wording, contractions, plural or article changes, and list/give me/name forms). Pairs "
    "were generated from templates and word lists in benchmarks/caches/make_heldout_v13.py with "
    "random.Random(131313); the set was written without reading the cache's code, its tests, its benchmarks or "
    "any other held-out set, and must never be used to write or tune rules."
)


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def fill(text, values):
    """Replace {KEY} slots named in values; other braces (code, regex quantifiers) stay untouched."""
    for key, val in values.items():
        text = text.replace("{" + key + "}", val)
    return text


def pick(fills):
    chosen = {}
    for key, options in (fills or {}).items():
        val = RNG.choice(options)
        if isinstance(val, dict):
            chosen.update(val)
        else:
            chosen[key] = val
    return chosen


def near(text, diffs, fills=None, reps=1):
    """Near-miss candidates: the {X} slot (or a dict of slots) differs, the other slots are shared."""
    out = []
    for diff in diffs:
        first, second = diff
        if isinstance(first, str):
            first, second = {"X": first}, {"X": second}
        for _ in range(reps):
            shared = pick(fills)
            one = fill(fill(text, first), shared)
            two = fill(fill(text, second), shared)
            if RNG.random() < 0.5:
                one, two = two, one
            out.append((one, two))
    return out


def swaps(pairs, extra=None):
    """Diffs that swap slots A and B, optionally with shared extra slots per pair."""
    out = []
    for i, (a, b) in enumerate(pairs):
        more = extra[i] if extra else {}
        out.append(({"A": a, "B": b, **more}, {"A": b, "B": a, **more}))
    return out


def entity_pairs(values, count):
    out = []
    seen = set()
    while len(out) < count:
        a, b = RNG.sample(values, 2)
        if (a, b) not in seen and (b, a) not in seen:
            seen.add((a, b))
            out.append((a, b))
    return out


def para(stored, query, rows):
    """Paraphrase candidates: both templates receive the same slot values."""
    return [(fill(stored, row), fill(query, row)) for row in rows]


def rows(key, values):
    return [{key: v} for v in values]


def lower_first(text):
    return text[0].lower() + text[1:]


# ---------------------------------------------------------------------------
# word lists
# ---------------------------------------------------------------------------

COUNTRIES = [
    "Japan", "Vietnam", "Brazil", "Kenya", "Turkey", "India", "Australia", "Morocco", "Peru", "Indonesia",
    "Egypt", "Chile", "Georgia", "Sri Lanka", "Jordan", "Mongolia",
]
CITIES = [
    "Lisbon", "Prague", "Bangkok", "Marrakesh", "Reykjavik", "Montreal", "Hanoi", "Buenos Aires", "Cape Town",
    "Seoul", "Istanbul", "Vancouver", "Mexico City", "Kraków",
]
RIVERS = ["Danube", "Mekong", "Rhine", "Volga", "Zambezi", "Mississippi", "Yangtze", "Ganges", "Loire", "Orinoco"]
MOUNTAINS = [
    "Mount Kilimanjaro", "Mont Blanc", "Aconcagua", "Mount Fuji", "Denali", "Mount Elbrus", "the Matterhorn",
    "Mount Kosciuszko",
]
AUTHORS = ["Ernest Hemingway", "Jane Austen", "Mark Twain", "Virginia Woolf", "Raymond Chandler", "Charles Dickens"]
EGG_SUBSTITUTES = ["applesauce", "mashed banana", "ground flaxseed", "plain yogurt", "aquafaba", "silken tofu"]
INDICES = ["S&P 500", "Nasdaq-100", "FTSE 100", "Nikkei 225", "DAX", "MSCI Emerging Markets index"]
LANGUAGES = ["Python", "JavaScript", "Rust", "Go", "Java", "Ruby", "C#"]
REALMS_1600 = ["England", "France", "Spain", "the Ottoman Empire", "Russia", "the Mughal Empire", "Scotland"]
TREATIES = [
    "Treaty of Westphalia", "Treaty of Tordesillas", "Treaty of Versailles", "Treaty of Nanking",
    "Treaty of Utrecht", "Treaty of Brest-Litovsk",
]
FOODS_100G = [
    "cooked quinoa", "raw almonds", "cheddar cheese", "boiled chickpeas", "baked salmon", "dark chocolate",
    "rolled oats", "firm tofu",
]
SENTENCES = [
    "The results of the survey was surprising to everyone on the team.",
    "Me and my manager has been discussing the new schedule since Monday.",
    "Each of the volunteers have brought their own lunch to the event.",
    "We was hoping the report would be finished before the deadline.",
    "Despite the rain, the concert go ahead as planned last night.",
    "The data shows that less people is using cash than ten years ago.",
    "Its important to check you're sources before you publish anything.",
]
PLAIN_SENTENCES = [
    "We will send the revised contract by the end of the week.",
    "The quarterly numbers are lower than we expected.",
    "I can probably finish the draft before Thursday.",
    "The new menu launches next month at all three locations.",
    "Our team missed the deadline because the data arrived late.",
]
PARAGRAPHS = [
    "Our neighbourhood library will close for renovations from March to August. During that time, members can "
    "borrow books from the mobile van that parks outside the community centre every Tuesday and Friday, and all "
    "late fees will be waived until the library reopens.",
    "The city council voted on Tuesday to expand the bike-lane network by forty kilometres over the next three "
    "years. Supporters say it will cut traffic and pollution, while some shop owners worry that removing parking "
    "spaces will hurt their business.",
    "After months of testing, the bakery switched from pure butter to a blend of butter and olive oil in its "
    "croissants. Regular customers noticed a slightly different texture, but sales rose, and the owners say the "
    "change lowered their costs by about twelve percent.",
    "The museum's new exhibition traces the Silk Road through maps, coins and textiles. Visitors follow a single "
    "bolt of silk from a workshop in Chang'an to a market in Constantinople, with audio guides in six languages.",
]
WORDY_SENTENCES = [
    "At this point in time, we are currently in the process of reviewing all of the applications that we have "
    "received so far.",
    "Due to the fact that the weather was extremely bad, the decision was made by the organisers to postpone the "
    "picnic.",
    "In my personal opinion, I think that the new logo is basically a lot better than the old one was.",
    "It is absolutely essential that each and every member of staff completes the safety training course.",
]


# ---------------------------------------------------------------------------
# near misses (text_pairs)
# ---------------------------------------------------------------------------

NEAR = {}

NEAR["code_token_change"] = [
    near(
        "I'm building a monthly report in Google Sheets. Column A of the Invoices tab holds invoice IDs, column B "
        "the client names and column C the amounts in euros. On a second tab I type an invoice ID in cell A2 and "
        "want its amount to appear in B2. Will `{X}` do that correctly, and if not, what should I change?",
        [
            ("=VLOOKUP(A2,Invoices!A:C,3,FALSE)", "=VLOOKUP(A2,Invoices!A:C,3,TRUE)"),
            ("=VLOOKUP(A2,Invoices!A:C,3,FALSE)", "=VLOOKUP(A2,Invoices!A:C,2,FALSE)"),
            ("=INDEX(Invoices!C:C,MATCH(A2,Invoices!A:A,0))", "=INDEX(Invoices!C:C,MATCH(A2,Invoices!A:A,1))"),
            ("=XLOOKUP(A2,Invoices!A:A,Invoices!C:C)", "=XLOOKUP(A2,Invoices!A:A,Invoices!B:B)"),
            ("=SUMIF(Invoices!A:A,A2,Invoices!C:C)", "=COUNTIF(Invoices!A:A,A2)"),
        ],
    ),
    near(
        "Explain what this query returns for an `orders` table with columns id, customer_id, total, status and "
        "created_at:\n```sql\n{X}\n```",
        [
            (
                "SELECT customer_id, SUM(total) FROM orders GROUP BY customer_id HAVING SUM(total) > 500;",
                "SELECT customer_id, SUM(total) FROM orders GROUP BY customer_id HAVING COUNT(*) > 500;",
            ),
            (
                "SELECT o.id, c.name FROM orders o LEFT JOIN customers c ON o.customer_id = c.id;",
                "SELECT o.id, c.name FROM orders o INNER JOIN customers c ON o.customer_id = c.id;",
            ),
            (
                "SELECT COUNT(*) FROM orders WHERE status = 'shipped';",
                "SELECT COUNT(DISTINCT customer_id) FROM orders WHERE status = 'shipped';",
            ),
            (
                "SELECT * FROM orders ORDER BY created_at ASC LIMIT 10;",
                "SELECT * FROM orders ORDER BY created_at DESC LIMIT 10;",
            ),
            (
                "SELECT status, AVG(total) FROM orders GROUP BY status;",
                "SELECT status, MAX(total) FROM orders GROUP BY status;",
            ),
        ],
    ),
    near(
        "Write a short explanation of what the regular expression `{X}` matches, with two example strings it "
        "accepts and two it rejects.",
        [
            (r"^\d+$", r"^\d*$"),
            (r"[a-z]+@[a-z]+\.com", r"[a-z]+@[a-z]+.com"),
            (r"^(\w+)\s\1$", r"^(\w+)\s(\w+)$"),
            (r"\bcat\b", r"\Bcat\B"),
            (r"^[^aeiou]+$", r"^[aeiou]+$"),
            (r"\d{2,4}", r"\d{2,}"),
        ],
    ),
    near(
        "I'm cleaning a CSV before loading it into pandas. What exactly does `{X}` do to data.csv, and is it safe "
        "to run on a 2 GB file?",
        [
            ("sort -u data.csv > clean.csv", "sort -r data.csv > clean.csv"),
            ("sed 's/,/;/g' data.csv", "sed 's/,/;/' data.csv"),
            ("cut -d',' -f2 data.csv", "cut -d',' -f2- data.csv"),
            ("head -n 100 data.csv", "tail -n 100 data.csv"),
            ("grep -v '^#' data.csv", "grep '^#' data.csv"),
        ],
    ),
    near(
        "If `a` is a NumPy array with shape (4, 6), what is the shape of `{X}` and what does each element represent?",
        [
            ("a.sum(axis=0)", "a.sum(axis=1)"),
            ("a.reshape(-1, 3)", "a.reshape(-1, 2)"),
            ("a.T @ a", "a @ a.T"),
            ("a.mean(axis=0, keepdims=True)", "a.mean(axis=1, keepdims=True)"),
            ("a[:, :2]", "a[:2, :]"),
        ],
    ),
    near(
        "My DataFrame has columns 'city', 'month' and 'sales'. What will this line give me?\n"
        "```python\nresult = {X}\n```",
        [
            ("df.groupby('city')['sales'].sum()", "df.groupby('city')['sales'].cumsum()"),
            (
                "df.pivot_table(index='city', columns='month', values='sales', aggfunc='sum')",
                "df.pivot_table(index='city', columns='month', values='sales', aggfunc='count')",
            ),
            ("df.sort_values('sales').head(3)", "df.sort_values('sales').tail(3)"),
            ("df['sales'].rank(ascending=False)", "df['sales'].rank(ascending=True)"),
            ("df.merge(targets, on='city', how='left')", "df.merge(targets, on='city', how='outer')"),
        ],
    ),
]

NEAR["number_unit_change"] = [
    near(
        "My grandmother's recipe calls for {X}. Roughly how many US cups is that?",
        [
            ("250 grams of all-purpose flour", "450 grams of all-purpose flour"),
            ("half a pound of butter", "half a kilo of butter"),
            ("three quarters of a kilo of sugar", "one quarter of a kilo of sugar"),
            ("1.5 kg of basmati rice", "1.5 lb of basmati rice"),
            ("120 ml of whole milk", "1.2 litres of whole milk"),
        ],
    ),
    near(
        "If I deposit {X} compounded monthly, how much will the account hold at the end, and how much of that is "
        "interest?",
        [
            ("$5,000 at 4% annual interest for 10 years", "$5,000 at 4% annual interest for 20 years"),
            ("$5,000 at 4% annual interest for 10 years", "$5,000 at 6% annual interest for 10 years"),
            ("€12,000 at 3.5% for seven years", "€12,000 at 3.5% for seventeen years"),
            ("two thousand dollars at five percent for eight years", "twenty thousand dollars at five percent for "
             "eight years"),
            ("£8,000 at 2.75% for 5 years", "£8,000 at 7.25% for 5 years"),
        ],
    ),
    near(
        "We're a family of four flying from {CITY} to Tokyo next April. Our outbound flight departs at {X} local "
        "time and the scheduled flight time is eleven hours and twenty minutes. What local time will it be in Tokyo "
        "when we land, and will we arrive too late to catch a train into the city?",
        [
            ("9:40 AM", "9:40 PM"),
            ("14:05", "16:05"),
            ("noon", "midnight"),
            ("7:15 in the morning", "7:15 in the evening"),
            ("half past six", "half past eight"),
        ],
        {"CITY": ["Vancouver", "Helsinki", "Frankfurt", "London"]},
    ),
    near(
        "For my quiz: what major event in European history took place in {X}, and why is it remembered?",
        [("1815", "1851"), ("1648", "1684"), ("July 1789", "July 1798"), ("1066", "1666"), ("1453", "1543"),
         ("1517", "1571")],
    ),
    near(
        "A random sample of {X} has a mean of 72 and a standard deviation of 8. Compute the 95% confidence interval "
        "for the population mean and show the steps.",
        [
            ("25 students", "250 students"),
            ("36 patients", "64 patients"),
            ("forty observations", "fourteen observations"),
            ("16 batteries", "100 batteries"),
        ],
    ),
    near(
        "Compute the {X} confidence interval for a sample mean of 72 with standard deviation 8 and n = 49.",
        [("95%", "99%"), ("90%", "95%"), ("ninety percent", "ninety-nine percent"), ("80%", "98%")],
    ),
    near(
        "My airline's checked-bag allowance is {X}. Is that enough for a week of skiing in Iceland if I bring my "
        "own boots and helmet?",
        [("20 kg", "20 lb"), ("23 kilograms", "32 kilograms"), ("one bag of 15 kg", "two bags of 15 kg"),
         ("fifty pounds", "fifteen pounds")],
    ),
]

NEAR["answer_constraint_change"] = [
    near(
        "Summarize the following paragraph {X}: \"{PARA}\"",
        [
            ("in two sentences", "in five sentences"),
            ("in under 30 words", "in under 120 words"),
            ("as a bulleted list", "as a single headline"),
            ("for a ten-year-old", "for a policy expert"),
            ("in French", "in German"),
            ("in a neutral tone", "in an enthusiastic tone"),
        ],
        {"PARA": PARAGRAPHS},
    ),
    near(
        "I'm travelling for two weeks and nobody can feed my sourdough starter. Give me {X} for keeping it alive "
        "until I'm back.",
        [
            ("3 tips", "7 tips"),
            ("three short tips", "a detailed step-by-step plan"),
            ("tips formatted as a table", "tips formatted as a JSON array"),
            ("one tip", "ten tips"),
        ],
    ),
    near(
        "Explain how an adjustable-rate mortgage works {X}.",
        [
            ("in one paragraph", "in five paragraphs"),
            ("for a teenager", "for a mortgage broker"),
            ("in a friendly, casual tone", "in a formal, legal tone"),
            ("in Spanish", "in Portuguese"),
            ("as a table comparing it with a fixed-rate loan", "as a short rhyming poem"),
        ],
    ),
    near(
        "Show me how to compute a rolling 7-day average of daily sales in pandas, {X}.",
        [
            ("with a comment on every line", "with no comments at all"),
            ("and print the result as JSON", "and print the result as CSV"),
            ("using only NumPy", "using only the Python standard library"),
            ("in under five lines", "explained step by step for a beginner"),
        ],
    ),
    near(
        "Plan a three-day itinerary for Kyoto focused on temples and food, and format it as {X}.",
        [
            ("a day-by-day bulleted list", "a table with columns for morning, afternoon and evening"),
            ("one short paragraph per day", "a single sentence per day"),
            ("a packing-style checklist", "a narrative travel story"),
            ("Markdown headings per day", "a JSON object keyed by day"),
        ],
    ),
    near(
        "Explain the causes of the First World War {X}.",
        [
            ("for a middle-school student", "for a university history seminar"),
            ("in exactly three bullet points", "in exactly ten bullet points"),
            ("in English", "in Italian"),
            ("in 100 words", "in 1,000 words"),
            ("as a timeline", "as a persuasive essay"),
        ],
    ),
]

NEAR["direction_role_swap"] = [
    near(
        "If it's 9 AM on a Monday in {A}, what day and time is it in {B}?",
        swaps([("Los Angeles", "Sydney"), ("London", "Tokyo"), ("New York", "Mumbai"), ("Berlin", "Honolulu"),
               ("Auckland", "Lima")]),
    ),
    near(
        "Roughly how much is 150 {A} in {B} at today's exchange rate?",
        swaps([("US dollars", "euros"), ("British pounds", "Japanese yen"), ("Swiss francs", "Thai baht"),
               ("Canadian dollars", "Mexican pesos"), ("Australian dollars", "Indian rupees")]),
    ),
    near(
        "{A} and {B} share a flat. In March {A} paid the whole $240 electricity and internet bill, and {B} paid "
        "the $90 grocery order for both of them. If they split everything evenly, who owes whom, and how much?",
        swaps([("Priya", "Tom"), ("Lena", "Marcus"), ("Diego", "Aisha"), ("Sofia", "Kwame")]),
    ),
    near(
        "How do I convert from {A} to {B} in a baking recipe, and what's a quick rule of thumb?",
        swaps([("degrees Celsius", "degrees Fahrenheit"), ("cups of flour", "grams of flour"), ("ounces", "grams"),
               ("tablespoons of butter", "grams of butter"), ("millilitres", "US fluid ounces")]),
    ),
    near(
        "How do I convert a {A} into a {B} in Python?",
        swaps([("list of dictionaries", "pandas DataFrame"), ("NumPy array", "Python list"),
               ("JSON string", "Python dictionary"), ("datetime object", "Unix timestamp"),
               ("wide-format DataFrame", "long-format DataFrame")]),
    ),
    near(
        "Quiz check: did the {A} happen before the {B}?",
        swaps([("signing of the Magna Carta", "Battle of Hastings"),
               ("fall of Constantinople", "first voyage of Columbus"),
               ("unification of Germany", "unification of Italy"),
               ("Peloponnesian War", "Persian invasion of Greece under Xerxes"),
               ("Battle of Waterloo", "storming of the Bastille")]),
    ),
    near(
        "Rewrite this sentence so that \"{A}\" is the grammatical subject instead of \"{B}\": \"{S}\"",
        swaps(
            [("the proposal", "the committee"), ("the cat", "the dog"), ("the novel", "the critics"),
             ("the bridge", "the engineers")],
            [{"S": "The committee rejected the proposal after a long debate."},
             {"S": "The dog chased the cat across the garden."},
             {"S": "The critics praised the novel for its vivid characters."},
             {"S": "The engineers inspected the bridge before the storm."}],
        ),
    ),
]

NEAR["negation_flip"] = [
    near(
        "Which countries in {REGION} {X} a visa for {NAT} passport holders staying under 30 days?",
        [("require", "do not require")],
        {"REGION": ["South America", "Southeast Asia", "the Balkans", "East Africa", "Central America"],
         "NAT": ["US", "Indian", "Australian", "South African", "Brazilian"]},
        reps=4,
    ),
    near(
        "My {P} is coeliac and is coming for dinner on Saturday. I'm planning a grain bowl and have these in my "
        "pantry: oats, rice flour, barley, buckwheat, spelt, cornstarch and couscous. Which of them are {X} for "
        "{PRON} to eat, assuming there is no cross-contamination?",
        [("safe", "not safe")],
        {"P": [{"P": "brother", "PRON": "him"}, {"P": "niece", "PRON": "her"}, {"P": "neighbour", "PRON": "them"},
               {"P": "boss", "PRON": "her"}]},
        reps=4,
    ),
    near(
        "I work as a freelance {JOB} from home in the US. Which of these expenses are {X} deductible: internet, a "
        "new laptop, commuting costs, client lunches and health insurance premiums?",
        [("usually", "usually not")],
        {"JOB": ["graphic designer", "translator", "photographer", "software developer"]},
        reps=4,
    ),
    near(
        "Write a SQL query that returns the names of customers who {X} placed an order in the last {N} days.",
        [("have", "have not"), ("have", "have never")],
        {"N": ["30", "60", "90"]},
        reps=2,
    ),
    near(
        "Rewrite this message so it {X} passive-aggressive: \"{S}\"",
        [("sounds", "doesn't sound")],
        {"S": ["As I mentioned in my last three emails, the report is due Friday.",
               "Per my previous message, please update the shared calendar.",
               "Thanks for finally replying to my question about the budget.",
               "I guess I'll just do the dishes again, since nobody else will."]},
        reps=4,
    ),
    near(
        "Name the modern countries whose territory was {X} within the {EMP} at its greatest extent around {YEAR}.",
        [("at least partly", "never")],
        {"EMP": [{"EMP": "Roman Empire", "YEAR": "117 AD"}, {"EMP": "Mongol Empire", "YEAR": "1279"},
                 {"EMP": "Ottoman Empire", "YEAR": "1683"}, {"EMP": "Inca Empire", "YEAR": "1527"}]},
        reps=4,
    ),
    near(
        "How do I select the rows of `df` where the '{COL}' column {X} null?",
        [("is", "is not")],
        {"COL": ["email", "phone", "signup_date", "referral_code"]},
        reps=4,
    ),
]

NEAR["antonym_swap"] = [
    near(
        "What's the {X} way to get from the airport to the city centre in {CITY}?",
        [("cheapest", "most expensive"), ("fastest", "slowest"), ("cheapest", "fastest")],
        {"CITY": CITIES},
        reps=2,
    ),
    near(
        "What is the {X} month to visit {PLACE} if I want to avoid crowds and heavy rain?",
        [("best", "worst")],
        {"PLACE": ["Bali", "Iceland", "the Sacred Valley in Peru", "the Amalfi Coast", "Vietnam's Ha Long Bay"]},
        reps=3,
    ),
    near(
        "How can I make my {DISH} {X} without changing the other flavours?",
        [("spicier", "milder"), ("thicker", "thinner"), ("saltier", "less salty")],
        {"DISH": ["chili", "red lentil curry", "tomato soup", "beef stew"]},
    ),
    near(
        "What are the {X} of cooking with a cast-iron skillet compared with a nonstick pan?",
        [("advantages", "disadvantages")],
    ),
    near(
        "What usually happens to the prices of existing bonds when interest rates {X}?",
        [("rise", "fall")],
    ),
    near(
        "I have $400 left over each month. What are the {X} of paying off my mortgage early instead of investing "
        "that money in an index fund?",
        [("advantages", "disadvantages"), ("benefits", "risks")],
    ),
    near(
        "In pandas, how do I sort `df` by '{COL}' in {X} order and keep only the first five rows?",
        [("ascending", "descending")],
        {"COL": ["revenue", "signup_date", "churn_score"]},
        reps=2,
    ),
    near(
        "Who was the {X} reigning monarch in {K} history?",
        [("longest", "shortest")],
        {"K": ["British", "French", "Spanish", "Swedish", "Danish"]},
        reps=3,
    ),
    near(
        "Make this sentence sound more {X}: \"{S}\"",
        [("formal", "casual"), ("optimistic", "pessimistic"), ("confident", "hesitant")],
        {"S": PLAIN_SENTENCES},
    ),
    near(
        "Draft a short, kind email to {NAME} telling {PRON} that we have decided to {X} {PRON} after the "
        "three-month trial period.",
        [("hire", "let go of")],
        {"NAME": [{"NAME": "Daniel", "PRON": "him"}, {"NAME": "Mei", "PRON": "her"}]},
        reps=2,
    ),
]

NEAR["entity_swap"] = [
    near(
        "Do I need a visa to visit {X} for a two-week holiday with a Canadian passport?",
        entity_pairs(COUNTRIES, 4),
    ),
    near(
        "Can I substitute {X} for eggs in a chocolate cake recipe, and how much should I use per egg?",
        entity_pairs(EGG_SUBSTITUTES, 4),
    ),
    near(
        "What has the average annual return of the {X} been over the last 30 years, including dividends?",
        entity_pairs(INDICES, 3),
    ),
    near(
        "How do I remove duplicates from a list while keeping the original order in {X}?",
        entity_pairs(LANGUAGES, 4),
    ),
    near(
        "For my geography quiz: how long is the {X} river, and which countries does it flow through?",
        entity_pairs(RIVERS, 3),
    ),
    near(
        "Who ruled {X} in the year 1600, and how did they come to power?",
        entity_pairs(REALMS_1600, 3),
    ),
    near(
        "Rewrite this paragraph in the style of {X}: \"{PARA}\"",
        entity_pairs(AUTHORS, 3),
        {"PARA": PARAGRAPHS},
    ),
    near(
        "What time zone is {X} in, and does it observe daylight saving time?",
        entity_pairs(CITIES, 3),
    ),
]

NEAR["qualifier_change"] = [
    near(
        "What's the best way to get from {FROM} to {TO}{X}?",
        [("", " with a large dog"), ("", " on a Sunday night after 11 PM"), ("", " without taking any trains"),
         ("", " while carrying two bicycles")],
        {"FROM": [{"FROM": "Rome", "TO": "Florence"}, {"FROM": "Lyon", "TO": "Geneva"},
                  {"FROM": "Edinburgh", "TO": "Inverness"}]},
    ),
    near(
        "Give me a simple recipe for {DISH}{X}.",
        [("", " without eggs"), ("", " that is gluten-free"), ("", " using only a microwave"),
         ("", " with no added sugar")],
        {"DISH": ["pancakes", "banana bread", "brownies", "oatmeal cookies"]},
    ),
    near(
        "How big should my emergency fund be{X}?",
        [("", " if I'm self-employed with irregular income"), ("", " if I have no debt and live with my parents"),
         ("", " when my partner also earns a stable salary"), ("", " if I have three children and a mortgage")],
    ),
    near(
        "How do I compute the average order value per customer in SQL{X}?",
        [("", ", ignoring orders that were refunded"), ("", ", counting only customers who signed up in 2023 or later"),
         ("", " when some order totals are NULL and should count as zero"),
         ("", ", weighting each order by its number of items")],
    ),
    near(
        "{X}",
        [
            ("Who was President of the United States during the Great Depression?",
             "Who was President of the United States when the stock market crashed in October 1929?"),
            ("What is the highest mountain in Africa?", "What is the highest non-volcanic mountain in Africa?"),
            ("What is the highest mountain in Europe?",
             "What is the highest mountain in Europe outside the Caucasus?"),
            ("Which city was the capital of Japan?", "Which city was the capital of Japan during the Heian period?"),
        ],
    ),
    near(
        "Proofread this sentence{X}: \"{S}\"",
        [("", " and convert it to British spelling"), ("", " and make it shorter than ten words"),
         ("", " and rewrite it in the passive voice")],
        {"S": SENTENCES},
    ),
]

NEAR["quantifier_change"] = [
    near(
        "Do {X} of the countries in the Schengen Area use the euro as their currency?",
        [("all", "any"), ("most", "all")],
    ),
    near(
        "Can I replace {X} of the butter with olive oil in this blueberry muffin recipe without ruining the texture?",
        [("all", "about a quarter"), ("all", "half"), ("a little", "every bit")],
    ),
    near(
        "How many grams of protein per day should an adult weighing {W} kg eat {X}?",
        [("at least", "at most")],
        {"W": ["60", "70", "85"]},
        reps=2,
    ),
    near(
        "Write a budget rule for me where {X} 20% of my take-home pay goes to savings and debt repayment.",
        [("at least", "at most"), ("exactly", "no more than")],
    ),
    near(
        "In pandas, how do I drop the rows where {X} of the values are NaN?",
        [("all", "any"), ("all", "at least two"), ("more than half", "fewer than half")],
    ),
    near(
        "Write a SQL query that finds customers who bought {X} products in the 'Electronics' category.",
        [("all the", "none of the"), ("at least three", "at most three"), ("exactly one of the", "every one of the")],
    ),
    near(
        "For my history quiz: which US presidents served {X} two full terms?",
        [("at least", "fewer than"), ("exactly", "more than")],
    ),
    near(
        "Name {X} of the countries that border Germany.",
        [("all", "three"), ("all", "two")],
    ),
    near(
        "Capitalize {X} the words in this title: \"{TITLE}\"",
        [("all", "only the first and last of"), ("every one of", "none of")],
        {"TITLE": ["a short history of the silk road and its many travellers",
                   "how to bake bread in a cold kitchen", "the quiet rise of the electric bicycle"]},
    ),
]

NEAR["tense_modality_change"] = [
    near(
        "{X} I {ACT}?",
        [("Can", "Must")],
        {"ACT": ["take money out of my Roth IRA before I turn 59½", "refrigerate homemade bread dough overnight "
                 "before baking", "bring my passport on a flight from Paris to Madrid",
                 "pay off my car loan before the end of its term"]},
        reps=4,
    ),
    near(
        "Quiz question: which city {X}?",
        [
            ("is the capital of Brazil", "was the capital of Brazil in 1900"),
            ("is the capital of Australia", "was the seat of Australia's federal government in 1920"),
            ("is the capital of Nigeria", "was the capital of Nigeria in 1980"),
            ("is the capital of Kazakhstan", "was the capital of Kazakhstan in 1995"),
            ("is the capital of Pakistan", "was the capital of Pakistan in 1955"),
        ],
    ),
    near(
        "When {X}?",
        [
            ("was Halley's Comet last visible from Earth", "will Halley's Comet next be visible from Earth"),
            ("did Mexico first host the FIFA World Cup", "will Mexico next host the FIFA World Cup"),
            ("was the last total solar eclipse visible from mainland Spain",
             "will the next total solar eclipse be visible from mainland Spain"),
            ("did the Summer Olympics last take place in Los Angeles",
             "will the Summer Olympics next take place in Los Angeles"),
        ],
    ),
    near(
        "Rewrite this sentence in the {X} tense: \"{S}\"",
        [("past", "future"), ("present perfect", "simple past")],
        {"S": ["She walks to the office every morning.", "The committee reviews the budget each quarter.",
               "We plant tomatoes along the fence."]},
        reps=2,
    ),
    near(
        "What {X} the top marginal federal income tax rate in the United States{Y}?",
        [({"X": "is", "Y": ""}, {"X": "was", "Y": " in 1960"}), ({"X": "is", "Y": ""}, {"X": "was", "Y": " in 1944"}),
         ({"X": "is", "Y": ""}, {"X": "was", "Y": " in 1988"})],
    ),
    near(
        "Which pandas method {X} to add new rows to an existing DataFrame?",
        [("should I use today", "did people use before version 2.0")],
    ),
]

NEAR["question_target_change"] = [
    near(
        "What is the {X} of {COUNTRY}?",
        [("capital", "currency"), ("official language", "time zone"),
         ("international dialling code", "standard plug type")],
        {"COUNTRY": COUNTRIES},
        reps=2,
    ),
    near(
        "{X} was the {TREATY} signed?",
        [("When", "Where"), ("Why", "By whom")],
        {"TREATY": TREATIES},
        reps=2,
    ),
    near(
        "For my geography quiz, tell me the {X} of the {RIVER}.",
        [("length", "source"), ("mouth", "average discharge"), ("length", "main tributaries")],
        {"RIVER": RIVERS},
    ),
    near(
        "For a 100 g serving of {FOOD}, how many {X} are there?",
        [("calories", "grams of protein"), ("grams of fibre", "grams of fat"),
         ("grams of carbohydrate", "milligrams of sodium")],
        {"FOOD": FOODS_100G},
    ),
    near(
        "For a $300,000 mortgage at 6.5% fixed over 30 years, what is the {X}?",
        [("monthly payment", "total interest paid over the life of the loan"),
         ("remaining balance after ten years", "payoff date if I add $200 a month")],
    ),
    near(
        "Here are the exam scores: 55, 62, 70, 70, 81, 88, 94. What is the {X}?",
        [("median", "mode"), ("range", "standard deviation"), ("mean", "interquartile range")],
    ),
    near(
        "In the sentence \"{S}\", what is the {X}?",
        [("subject", "main verb"), ("tense", "direct object")],
        {"S": ["The tired hikers reached the summit just before sunset.", "My aunt bakes a lemon cake every Sunday.",
               "Several students submitted their essays late."]},
    ),
]

NEAR["pasted_content_change"] = [
    near(
        "Fix the grammar in this sentence: \"{X}\"",
        [
            ("Their going to the market tomorrow, aren't they?", "Their going to the museum tomorrow, aren't they?"),
            ("Me and him goes to the gym on Mondays.", "Me and her goes to the pool on Fridays."),
            ("The list of items are on the desk.", "The list of names are on the shelf."),
            ("Who's book is this on the table?", "Who's coat is this on the chair?"),
        ],
    ),
    near(
        "What does this code print?\n```python\n{X}\n```",
        [
            ("import pandas as pd\ns = pd.Series([3, 1, 4, 1, 5])\nprint(s.nunique())",
             "import pandas as pd\ns = pd.Series([3, 1, 4, 1, 5, 9])\nprint(s.nunique())"),
            ("nums = [2, 4, 6, 8]\nprint(sum(nums) / len(nums))", "nums = [2, 4, 6, 9]\nprint(sum(nums) / len(nums))"),
            ("import numpy as np\nprint(np.arange(10)[2:8:2])", "import numpy as np\nprint(np.arange(12)[3:9:2])"),
            ("words = ['fig', 'apple', 'kiwi']\nprint(sorted(words, key=len))",
             "words = ['fig', 'banana', 'kiwi']\nprint(sorted(words, key=len))"),
        ],
    ),
    near(
        "Here's what's in my fridge: {X}. What can I make for dinner tonight in under 30 minutes?",
        [
            ("chicken thighs, rice, garlic and spinach", "chicken thighs, pasta, garlic and spinach"),
            ("eggs, feta, tomatoes and a bag of spinach", "eggs, cheddar, potatoes and a bag of spinach"),
            ("tofu, broccoli, soy sauce and noodles", "salmon, broccoli, soy sauce and rice"),
        ],
    ),
    near(
        "Here's my monthly budget after tax: {X}. Which categories should I cut back first if I want to save an extra "
        "$300 a month without moving house?",
        [
            ("rent $1,400, groceries $450, dining out $380, car $520, subscriptions $95, gym $60",
             "rent $1,400, groceries $450, dining out $80, car $520, subscriptions $295, gym $60"),
            ("rent $950, groceries $300, takeaway $410, phone $85, clothing $220",
             "rent $950, groceries $600, takeaway $40, phone $85, clothing $20"),
            ("mortgage $1,800, childcare $900, groceries $700, streaming $120, travel $450",
             "mortgage $1,800, childcare $900, groceries $700, streaming $20, travel $50"),
        ],
    ),
    near(
        "This is my itinerary: {X}. Do I have enough time to make the connection?",
        [
            ("land at Frankfurt 10:20, depart for Vienna 11:05", "land at Frankfurt 10:20, depart for Vienna 13:05"),
            ("arrive Heathrow Terminal 5 at 07:40, leave from Terminal 3 at 09:00",
             "arrive Heathrow Terminal 5 at 07:40, leave from Terminal 5 at 09:00"),
            ("train arrives at Milano Centrale 14:50, flight leaves Malpensa 16:10",
             "train arrives at Milano Centrale 11:50, flight leaves Malpensa 16:10"),
        ],
    ),
    near(
        "Who wrote or said these words, and in what context: \"{X}\"?",
        [
            ("I have a dream that one day this nation will rise up",
             "I have nothing to offer but blood, toil, tears and sweat"),
            ("Veni, vidi, vici", "Alea iacta est"),
            ("Give me liberty, or give me death!", "Give me your tired, your poor"),
        ],
    ),
    near(
        "Translate into Spanish: \"{X}\"",
        [
            ("Where is the nearest train station?", "Where is the nearest bus station?"),
            ("I would like a table for two, please.", "I would like a table for four, please."),
            ("The museum opens at nine.", "The museum closes at nine."),
        ],
    ),
]


# ---------------------------------------------------------------------------
# true paraphrases (positives)
# ---------------------------------------------------------------------------

POS = {}

POS["synonym_rewording"] = [
    para("How tall is {M}?", "What is the height of {M}?", rows("M", MOUNTAINS)),
    para(
        "Which {L} is the biggest in {P}?",
        "What is the largest {L} in {P}?",
        [{"L": "lake", "P": "Africa"}, {"L": "desert", "P": "Asia"}, {"L": "island", "P": "the Mediterranean Sea"},
         {"L": "country", "P": "South America"}, {"L": "glacier", "P": "Europe"}],
    ),
    para(
        "How far is {A} from {B} by road?",
        "What is the driving distance between {A} and {B}?",
        [{"A": "Madrid", "B": "Barcelona"}, {"A": "Milan", "B": "Rome"}, {"A": "Berlin", "B": "Munich"},
         {"A": "Lyon", "B": "Paris"}],
    ),
    para(
        "How many calories does {F} have?",
        "What is the calorie content of {F}?",
        rows("F", ["a medium banana", "one large egg", "a tablespoon of olive oil", "a cup of cooked white rice"]),
    ),
    para(
        "How can I work out the monthly repayment on a {LOAN}?",
        "How do I calculate the monthly payment for a {LOAN}?",
        rows("LOAN", ["$25,000 car loan at 7% over five years", "£180,000 mortgage at 4.2% over 25 years",
                      "€10,000 personal loan at 9% over three years"]),
    ),
    para(
        "Can you make this sentence shorter: \"{S}\"",
        "Could you condense this sentence: \"{S}\"",
        rows("S", WORDY_SENTENCES),
    ),
]

POS["question_vs_imperative"] = [
    para(
        "What is {C}?",
        "Tell me what {C} is.",
        rows("C", ["compound interest", "a Roth IRA", "a pivot table", "the Schengen Area", "the Maillard reaction",
                   "a dangling modifier", "the Treaty of Tordesillas"]),
    ),
    para(
        "Explain {E}.",
        "Can you explain {E}?",
        rows("E", ["how crossing the International Date Line changes the calendar date",
                   "why bread dough needs to rest", "the difference between a median and a mean",
                   "how a 529 college savings plan works", "the causes of the Thirty Years' War",
                   "when to use a semicolon instead of a comma"]),
    ),
    para(
        "Could you help me understand {U}?",
        "Help me understand {U}.",
        rows("U", ["the difference between LEFT JOIN and INNER JOIN in SQL",
                   "how credit card interest is calculated each month", "why the Western Roman Empire fell",
                   "what a p-value tells me", "the difference between active and passive voice"]),
    ),
    para(
        "How do I {T}?",
        "Show me how to {T}.",
        rows("T", ["merge two DataFrames on a shared 'id' column in pandas", "temper dark chocolate at home",
                   "set up a zero-based budget", "calculate a weighted average in Excel",
                   "write a strong topic sentence for an essay"]),
    ),
]

POLITE_QUESTIONS = [
    "What currency is used in Hungary?",
    "How long should I rest a roast chicken before carving it?",
    "What is the 50/30/20 budgeting rule?",
    "How do I count the unique values in a pandas column?",
    "In which year did the Byzantine Empire fall?",
    "Is \"alot\" a correct spelling?",
    "What time zone is Perth, Australia in?",
    "How many grams are in one cup of rolled oats?",
]
POLITE_IMPERATIVES = [
    "Convert 350 degrees Fahrenheit to Celsius.",
    "Recommend a packing list for a week of hiking in Patagonia.",
    "Explain what an index fund is.",
    "Write a SQL query that counts orders per month from an orders table.",
    "Name the rivers that flow into the Caspian Sea.",
    "Rewrite \"we regret to inform you that your application was unsuccessful\" in a warmer tone.",
]
POLITE_ROWS = [{"Q": q} for q in POLITE_QUESTIONS]
POLITE_IMP_ROWS = [{"I": s, "i": lower_first(s), "iq": lower_first(s)[:-1] + "?"} for s in POLITE_IMPERATIVES]

POS["polite_wrapper"] = [
    para("{Q}", "Hi! {Q}", POLITE_ROWS),
    para("{Q}", "{Q} Thanks!", POLITE_ROWS),
    para("{I}", "Please {i}", POLITE_IMP_ROWS),
    para("{Q}", "Hello, hope you're well. {Q} Thanks so much in advance!", POLITE_ROWS),
    para("{I}", "Hey there! Could you please {iq} Thank you!", POLITE_IMP_ROWS),
    para(
        "{Q}",
        "Good morning! I have been trying to figure this out for a while and nobody I asked could help. {Q} "
        "Any help would be greatly appreciated, thank you!",
        POLITE_ROWS,
    ),
]

CASING_BASE = [
    "What is the capital of Mongolia?",
    "How many tablespoons are in a quarter cup?",
    "What is the difference between a Roth IRA and a traditional IRA?",
    "Which river is the longest in Europe?",
    "How do I calculate a moving average in a spreadsheet?",
    "Is it safe to drink tap water in Lisbon?",
    "When did the Berlin Wall fall?",
    "How should I reheat leftover rice safely?",
    "Who was the first emperor of Rome?",
    "What is a good savings rate for someone in their twenties?",
    "Should I use a comma before \"which\" in a relative clause?",
    "How long does it take to fly from Dubai to Singapore?",
]


def casing_rows(transform, count):
    return [(s, transform(s)) for s in RNG.sample(CASING_BASE, count)]


POS["casing_punctuation_whitespace"] = [
    casing_rows(lambda s: s.lower().rstrip("?"), 5),
    casing_rows(lambda s: s.upper(), 5),
    casing_rows(lambda s: "  " + "   ".join(s.split()) + "  ", 5),
    casing_rows(lambda s: s.replace(",", "").rstrip("?") + "??", 5),
]

POS["clause_reorder"] = [
    para(
        "In {LANG}, how do I {T}?",
        "How do I {T} in {LANG}?",
        [{"LANG": "Python", "T": "reverse a string"}, {"LANG": "pandas", "T": "rename a single column"},
         {"LANG": "SQL", "T": "find duplicate email addresses in a users table"},
         {"LANG": "Excel", "T": "freeze the top row"}, {"LANG": "NumPy", "T": "create a 3 by 4 array of zeros"}],
    ),
    para(
        "When visiting {C} in {M}, what should I pack?",
        "What should I pack when visiting {C} in {M}?",
        [{"C": "Norway", "M": "January"}, {"C": "Vietnam", "M": "July"}, {"C": "Morocco", "M": "April"},
         {"C": "New Zealand", "M": "December"}],
    ),
    para(
        "For {G}, how much {F} should I cook?",
        "How much {F} should I cook for {G}?",
        [{"G": "a family of four", "F": "dry pasta"}, {"G": "six hungry adults", "F": "basmati rice"},
         {"G": "two people", "F": "couscous"}],
    ),
    para(
        "If I earn {INC} a year after tax, how much should I put into savings each month?",
        "How much should I put into savings each month if I earn {INC} a year after tax?",
        rows("INC", ["$48,000", "€36,000", "£52,000"]),
    ),
    para(
        "I'm hosting a dinner party for {N} on Saturday and two of the guests are {D}. For a main course that "
        "everyone can share, what would you suggest that can be prepared a day ahead?",
        "What would you suggest as a main course that everyone can share and that can be prepared a day ahead? "
        "I'm hosting a dinner party for {N} on Saturday and two of the guests are {D}.",
        [{"N": "eight", "D": "vegetarian"}, {"N": "ten", "D": "vegan"}, {"N": "six", "D": "gluten-free"}],
    ),
    para(
        "During the reign of {R}, what was the capital of {K}?",
        "What was the capital of {K} during the reign of {R}?",
        [{"R": "Charlemagne", "K": "the Frankish kingdom"},
         {"R": "Suleiman the Magnificent", "K": "the Ottoman Empire"}, {"R": "Emperor Meiji", "K": "Japan"}],
    ),
]

FORMULAS = [
    "=VLOOKUP(A2,B:C,2,FALSE)",
    "=SUMIFS(D:D,B:B,\"North\",C:C,\">=2024-01-01\")",
    "=IFERROR(INDEX(C:C,MATCH(E2,A:A,0)),\"missing\")",
    "=ROUND(AVERAGE(B2:B31),1)",
]
ERROR_SNIPPETS = [
    "import pandas as pd\ndf = pd.DataFrame({'a': [1, 2]})\nprint(df['b'].sum())",
    "import numpy as np\na = np.zeros((3, 4))\nb = np.ones((4, 3))\nprint(a + b)",
    "prices = {'apple': 1.2, 'pear': 0.9}\nprint(prices['banana'])",
    "total = '5' + 3\nprint(total)",
]
COMMANDS = [
    "awk -F',' '{sum += $3} END {print sum}' sales.csv",
    "sort data.csv | uniq -c | sort -nr | head -5",
    "find . -name '*.json' -mtime -7",
    "wc -l *.csv",
]

POS["same_pasted_content"] = [
    para(
        "What does this formula do? `{F}`",
        "`{F}` - can you tell me what this spreadsheet formula does?",
        rows("F", FORMULAS),
    ),
    para(
        "Fix the grammar in this sentence: \"{S}\"",
        "Please correct any grammatical errors in the following sentence: \"{S}\"",
        rows("S", SENTENCES),
    ),
    para(
        "Why does this code raise an error?\n```python\n{CODE}\n```",
        "I ran the snippet below and got an exception. What's causing it?\n```python\n{CODE}\n```",
        rows("CODE", ERROR_SNIPPETS),
    ),
    para("What does `{CMD}` do?", "Explain the command `{CMD}` to me.", rows("CMD", COMMANDS)),
    para(
        "Summarize this in one sentence: \"{PARA}\"",
        "\"{PARA}\"\n\nGive me a one-sentence summary of the text above.",
        rows("PARA", PARAGRAPHS),
    ),
]

POS["contraction"] = [
    para(
        "What's {X}?",
        "What is {X}?",
        rows("X", ["the difference between a visa and an electronic travel authorisation",
                   "the smoke point of avocado oil", "a good interest rate for a high-yield savings account",
                   "the oldest university in Europe", "the plural of \"cactus\"",
                   "the formula for a sample standard deviation"]),
    ),
    para(
        "I don't understand {Y}. Can you explain it?",
        "I do not understand {Y}. Can you explain it?",
        rows("Y", ["how amortization works on a car loan", "what a window function does in SQL",
                   "why the Hundred Years' War lasted so long", "when to use \"whom\" instead of \"who\""]),
    ),
    para(
        "It's my first time in {C}. What shouldn't I miss?",
        "It is my first time in {C}. What should I not miss?",
        rows("C", ["Lisbon", "Kyoto", "Mexico City", "Edinburgh"]),
    ),
    para(
        "Why doesn't my {B} {V}?",
        "Why does my {B} not {V}?",
        [{"B": "bread", "V": "rise in the oven"}, {"B": "pivot table", "V": "update when I add new rows"},
         {"B": "meringue", "V": "hold stiff peaks"}, {"B": "budget spreadsheet", "V": "add up to the right total"}],
    ),
    para(
        "I'm {P}. What's the best way to {D}?",
        "I am {P}. What is the best way to {D}?",
        [{"P": "a student with $2,000 in savings", "D": "start investing"},
         {"P": "flying to Seoul with a six-hour layover in Beijing", "D": "spend the layover"},
         {"P": "cooking for someone who is vegan", "D": "replace butter in shortbread"}],
    ),
]

POS["plural_article"] = [
    para(
        "{S}",
        "{Q}",
        [
            {"S": "What are the health benefits of eating an avocado?",
             "Q": "What are the health benefits of eating avocados?"},
            {"S": "Give me tips for packing a carry-on bag.", "Q": "Give me tips for packing carry-on bags."},
            {"S": "What causes a volcano to erupt?", "Q": "What causes volcanoes to erupt?"},
            {"S": "What does a comma splice look like?", "Q": "What do comma splices look like?"},
        ],
    ),
    para(
        "{S}",
        "{Q}",
        [
            {"S": "What is the best time of the year to visit Iceland?",
             "Q": "What is the best time of year to visit Iceland?"},
            {"S": "Name the capital of the Philippines.", "Q": "Name the capital of Philippines."},
            {"S": "How is the interest on a car loan calculated?", "Q": "How is interest on a car loan calculated?"},
            {"S": "What is the boiling point of water in Fahrenheit?",
             "Q": "What is boiling point of water in Fahrenheit?"},
        ],
    ),
    para(
        "{S}",
        "{Q}",
        [
            {"S": "How do I calculate a percentage change between two numbers?",
             "Q": "How do I calculate the percentage change between two numbers?"},
            {"S": "What's a good substitute for buttermilk in pancakes?",
             "Q": "What's a good substitute for the buttermilk in pancakes?"},
            {"S": "Who was the last tsar of Russia?", "Q": "Who was Russia's last tsar?"},
            {"S": "How do I remove the duplicate rows from a pandas DataFrame?",
             "Q": "How do I remove duplicate rows from a pandas DataFrame?"},
        ],
    ),
]

LIST_ROWS = [
    {"N": "five", "T": "rivers that flow through Germany"},
    {"N": "three", "T": "ways to reduce the sodium in a homemade soup"},
    {"N": "four", "T": "common pandas aggregation functions"},
    {"N": "six", "T": "countries that border Brazil"},
    {"N": "three", "T": "strategies for paying off credit card debt"},
    {"N": "five", "T": "transitional phrases for a persuasive essay"},
    {"N": "four", "T": "things to check before renewing a passport"},
    {"N": "five", "T": "pharaohs of Egypt's New Kingdom"},
]

POS["list_give_name_forms"] = [
    para("List {N} {T}.", "Give me {N} {T}.", LIST_ROWS),
    para("Name {N} {T}.", "What are {N} {T}?", LIST_ROWS),
    para("Can you list {N} {T}?", "Give me a list of {N} {T}.", LIST_ROWS),
]


# ---------------------------------------------------------------------------
# selection and output
# ---------------------------------------------------------------------------


def select(category, templates, quota, seen):
    """Round-robin over the templates of a category so that every template contributes."""
    if len(templates) < 3:
        raise SystemExit(f"{category}: fewer than 3 templates")
    groups = []
    for cands in templates:
        cands = list(cands)
        RNG.shuffle(cands)
        groups.append(cands)
    RNG.shuffle(groups)
    chosen = []
    while len(chosen) < quota and any(groups):
        for group in groups:
            if len(chosen) >= quota:
                break
            while group:
                stored, query = group.pop(0)
                if stored == query or (stored, query) in seen or (query, stored) in seen:
                    continue
                seen.add((stored, query))
                chosen.append({"category": category, "stored": stored, "query": query})
                break
    if len(chosen) < quota:
        raise SystemExit(f"{category}: only {len(chosen)} of {quota} pairs")
    RNG.shuffle(chosen)
    return chosen


def main():
    seen = set()
    text_pairs = []
    for category, templates in NEAR.items():
        text_pairs.extend(select(category, templates, NEAR_QUOTA, seen))
    positives = []
    for category, templates in POS.items():
        positives.extend(select(category, templates, POSITIVE_QUOTA[category], seen))
    data = {"description": DESCRIPTION, "text_pairs": text_pairs, "positives": positives}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT}: {len(text_pairs)} text_pairs, {len(positives)} positives")


if __name__ == "__main__":
    main()
