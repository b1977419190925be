#!/usr/bin/env python3
"""Held-out evaluation set v38 for the semantic prompt cache (written blind).

Theme: data work people ask a chat assistant about, each prompt carrying a short
snippet or a plain-language data question: spreadsheet formulas (Excel, Google
Sheets), SQL queries (WHERE, JOIN, GROUP BY, ORDER BY, LIMIT, date conditions),
regular expressions, pandas one-liners, shell pipelines over CSV files (awk, sort,
cut, grep) and questions such as "average order value per region in 2023".

Written blind: authored from scratch without reading any other file of the
repository (no code, rules, tests or earlier sets were consulted).

text_pairs (must-not-hit near misses; the two prompts need different answers):
  nm_operator, nm_regex, nm_sql_clause, nm_function_swap, nm_cell_range,
  nm_number, nm_task_verb, nm_tool, nm_aggregation, nm_direction, nm_missing
positives (true paraphrases; snippet identical character for character):
  pos_reworded, pos_moved, pos_polite, pos_case_space, pos_snippet_format,
  pos_informal, pos_synonym, pos_howdo, pos_number_words

Seed: random.Random(383838). Output: data/heldout_generated_v38.json
(standard library only; run from anywhere).
"""
import json
import random
import re
from pathlib import Path

SEED = 383838
R = random.Random(SEED)
OUT = Path(__file__).resolve().parent / "data" / "heldout_generated_v38.json"
N_PER_CAT = 24

NOUN = {"sql": "SQL query", "excel": "formula", "sheets": "Google Sheets formula",
        "regex": "regex", "pandas": "pandas code", "shell": "shell pipeline"}
TAG = {"sql": "sql", "excel": "", "sheets": "", "regex": "", "pandas": "python", "shell": "bash"}
LANGS = list(NOUN)

POOL = [
    ("sql", "SELECT region, AVG(amount) AS avg_order FROM orders WHERE order_date >= '2023-01-01' GROUP BY region ORDER BY avg_order DESC;"),
    ("sql", "SELECT c.name, COUNT(o.id) FROM customers c LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name;"),
    ("sql", "SELECT product_id, SUM(qty) FROM sales GROUP BY product_id HAVING SUM(qty) > 100 ORDER BY 2 DESC LIMIT 10;"),
    ("sql", "SELECT * FROM events WHERE created_at BETWEEN '2024-03-01' AND '2024-03-31' AND status <> 'test';"),
    ("sql", "SELECT DISTINCT email FROM users WHERE email LIKE '%@gmail.com';"),
    ("sql", "SELECT dept, MAX(salary) FROM employees GROUP BY dept;"),
    ("excel", '=SUMIFS(D2:D500, B2:B500, "North", C2:C500, ">=2023-01-01")'),
    ("excel", '=IFERROR(VLOOKUP(A2, Prices!$A$2:$C$200, 3, FALSE), "not found")'),
    ("excel", "=COUNTIF($A$2:$A$1000, A2)>1"),
    ("excel", "=INDEX(C2:C100, MATCH(MAX(D2:D100), D2:D100, 0))"),
    ("sheets", '=ARRAYFORMULA(IF(B2:B="", "", B2:B*C2:C))'),
    ("sheets", '=TEXT(A2, "yyyy-mm")'),
    ("sheets", '=QUERY(A1:E, "select B, sum(E) where C > 10 group by B")'),
    ("regex", r"^[A-Z]{3}-\d{4}$"),
    ("regex", r"(\d{4})-(\d{2})-(\d{2})"),
    ("regex", r"^[\w.+-]+@[\w-]+\.[a-z]{2,}$"),
    ("regex", r"\$\d+(\.\d{2})?"),
    ("pandas", "df.groupby('region')['amount'].sum().sort_values(ascending=False).head(5)"),
    ("pandas", "df['date'] = pd.to_datetime(df['date'], errors='coerce')"),
    ("pandas", "df.pivot_table(index='month', columns='region', values='sales', aggfunc='sum', fill_value=0)"),
    ("pandas", "df[df['status'].isin(['paid', 'shipped'])].drop_duplicates('order_id')"),
    ("pandas", "df.merge(customers, on='customer_id', how='left')"),
    ("shell", "cut -d, -f3 sales.csv | sort | uniq -c | sort -nr | head"),
    ("shell", "awk -F, 'NR>1 {sum[$2]+=$4} END {for (k in sum) print k, sum[k]}' orders.csv"),
    ("shell", "grep -v '^#' data.csv | wc -l"),
    ("shell", "sort -t, -k3,3n prices.csv | tail -n 1"),
    ("shell", "tail -n +2 users.csv | cut -d, -f1,4 | grep -i '@example.com'"),
]

# ---------------------------------------------------------------- word lists
TM = [("orders", "amount"), ("sales", "revenue"), ("payments", "total"),
      ("invoices", "net_amount"), ("shipments", "weight_kg"), ("subscriptions", "monthly_fee")]
GRP = ["region", "country", "category", "channel", "store_id", "segment"]
FILES = ["sales", "orders", "customers", "inventory", "transactions", "events"]
NUMS = ["10", "50", "100", "250", "500", "1000"]
FIELD = ["2", "3", "4", "5"]
COLL = ["B", "C", "D", "E", "F"]
PCOL = ["amount", "price", "qty", "score", "age", "discount"]
TXTCOL = ["email", "sku", "notes", "phone", "filename", "comment"]
STATUS = ["shipped", "cancelled", "pending", "refunded", "paid"]
DATES = ["2023-01-01", "2023-07-01", "2024-01-01", "2024-04-15"]
MEAS = ["order value", "revenue", "delivery time", "basket size", "refund amount", "discount"]
GROUPS = ["region", "country", "product category", "sales channel", "store", "customer segment"]
YEARS = ["2022", "2023", "2024"]
ENT = ["store", "product", "customer", "employee", "supplier"]
SQLOPS = [(">", ">="), ("<", "<="), ("=", "<>"), ("=", "!="), (">", "<")]
PYOPS = [(">", ">="), ("<", "<="), ("==", "!="), (">", "<")]
XLOPS = [(">", ">="), ("<", "<="), ("=", "<>")]
RX = [(r"^\d+$", r"^\d*$"), (r"[A-Z]{2,4}", r"[A-Z]{2,}"), (r"\d{3}-\d{4}", r"\w{3}-\w{4}"),
      (r"^ORD-\d+", r"ORD-\d+"), (r"\.csv$", r"\.csv"), (r"[aeiou]+", r"[^aeiou]+"),
      (r"\s+", r"\S+"), (r"^[A-Za-z]+$", r"^[A-Za-z ]+$"), (r"(\d+)\.(\d{2})", r"(\d+)\.(\d{2,})"),
      (r"colou?r", r"colou*r"), (r"\d{4}-\d{2}", r"\d{2}-\d{4}"), (r"^#", r"#$"), (r"[0-9]+", r"[0-9]")]
BASE = {"T,M": TM, "G": GRP, "F": FILES, "X": NUMS, "K": FIELD, "C": COLL, "E": ["100", "200", "500", "1000"]}


def sl(*keys, **extra):
    d = {k: BASE[k] for k in keys}
    d.update(extra)
    return d


def P(frame, pairs, slots=None, **kw):
    return dict(frame=frame, pairs=pairs, slots=slots or {}, **kw)


def Q(a, b, slots=None, **kw):
    return dict(a=a, b=b, slots=slots or {}, **kw)


# ---------------------------------------------------------------- near misses
NM = {}
NM["nm_operator"] = [
    P("What rows does this return?\n```sql\nSELECT * FROM <T> WHERE <M> <V> <X>;\n```", SQLOPS, sl("T,M", "X")),
    P('Explain what =COUNTIF(<C>2:<C><E>, "<V><X>") counts.', XLOPS + [(">", "<")], sl("C", "E", "X")),
    P("Which rows does this pandas filter keep?\n```python\ndf[df['<PC>'] <V> <X>]\n```", PYOPS, sl("X", PC=PCOL)),
    P("Which lines of <F>.csv does `awk -F, '$<K> <V> <X>' <F>.csv` print?", PYOPS, sl("F", "K", "X")),
    P("In Google Sheets, what will =FILTER(A2:E200, D2:D200 <V> <X>) show?", XLOPS, sl("X")),
    P("Explain the result of this query:\n```sql\nSELECT <G>, COUNT(*) AS n FROM <T> GROUP BY <G> HAVING COUNT(*) <V> <X>;\n```", SQLOPS, sl("T,M", "G", "X")),
    P('What does =IF(<C>2<V><X>, "bonus", "no bonus") return when <C>2 is exactly <X>?', XLOPS, sl("C", "X")),
]
NM["nm_regex"] = [
    P("What does the regex `<V>` match?", RX),
    P("Which lines does `grep -P '<V>' <F>.csv` print?", RX, sl("F")),
    P("Explain this pandas filter: `df[df['<TC>'].str.contains(r'<V>')]`", RX, {"TC": TXTCOL}),
    P('In Google Sheets, what does =REGEXMATCH(A2, "<V>") check?', RX),
    P("What does this return?\n```python\nre.findall(r'<V>', text)\n```", RX),
    P("Explain this PostgreSQL condition: `WHERE <TC> ~ '<V>'`", RX, {"TC": TXTCOL}),
    P("I use this pattern to validate the <TC> column. What values does it accept?\n```\n<V>\n```", RX, {"TC": TXTCOL}),
]
JT = {"A,B,FK": [("customers", "orders", "customer_id"), ("departments", "employees", "department_id"),
                 ("products", "reviews", "product_id"), ("authors", "books", "author_id"), ("stores", "sales", "store_id")]}
NM["nm_sql_clause"] = [
    P("How many rows does this return if some <A> have no matching <B>?\n```sql\nSELECT a.name, b.id FROM <A> a <V> JOIN <B> b ON b.<FK> = a.id;\n```",
      [("INNER", "LEFT"), ("LEFT", "RIGHT"), ("INNER", "FULL OUTER")], JT),
    P("Explain the output of `SELECT <V>, SUM(<M>) FROM <T> GROUP BY <V>;`",
      [("region", "country"), ("category", "channel"), ("region", "region, year"), ("store_id", "segment"), ("customer_id", "product_id")], sl("T,M")),
    P("What does `SELECT COUNT(*) FROM <T> WHERE status = '<V>'` count?",
      [("shipped", "cancelled"), ("pending", "paid"), ("refunded", "shipped"), ("paid", "cancelled")], sl("T,M")),
    P("Explain this filter: `SELECT * FROM <T> WHERE status = '<ST>' <V> <M> > <X>;`", [("AND", "OR")], sl("T,M", "X", ST=STATUS)),
    P("What does this return?\n```sql\nSELECT COUNT(<V>customer_id) FROM <T> WHERE order_date >= '<D>';\n```", [("", "DISTINCT ")], sl("T,M", D=DATES)),
    P("Which rows come back from `SELECT * FROM <T> ORDER BY <M> DESC <V>`?",
      [("LIMIT <L>", "LIMIT <L> OFFSET <L>"), ("LIMIT <L>", "LIMIT 1 OFFSET <L>")], sl("T,M", L=["3", "5", "10", "20"])),
    P("What does this query return?\n```sql\nSELECT <G>, MAX(<M>) AS top FROM <T> GROUP BY <G> ORDER BY <V>;\n```", [("<G>", "top")], sl("T,M", "G")),
    P("What does `SELECT <V> FROM <T> WHERE <M> > <X>` return?",
      [("*", "COUNT(*)"), ("customer_id", "DISTINCT customer_id"), ("order_id", "customer_id")], sl("T,M", "X")),
]
VERS = [("=VLOOKUP(A2, Products!A:C, 3, FALSE)", "=XLOOKUP(A2, Products!A:A, Products!C:C)"),
        ('=IF(B2>90, "A", IF(B2>80, "B", "C"))', '=IFS(B2>90, "A", B2>80, "B", TRUE, "C")'),
        ('=CONCATENATE(A2, " ", B2)', '=TEXTJOIN(" ", TRUE, A2, B2)'),
        ("=INDEX(B2:B100, MATCH(E2, A2:A100, 0))", "=INDEX(B2:B100, XMATCH(E2, A2:A100))"),
        ('=SUMIF(A2:A100, "North", C2:C100)', '=SUM(FILTER(C2:C100, A2:A100="North"))')]
NM["nm_function_swap"] = [
    P('What will =<V>(<CA>2:<CA>100, "<CR>", <CB>2:<CB>100) return?', [("SUMIF", "AVERAGEIF")],
      {"CA": ["A", "B"], "CB": ["D", "E", "F"], "CR": ["North", "South", "East", "West", "Online", "Retail"]}),
    P("What does =<V>(<C>2:<C><E>) give me for my monthly sales column?",
      [("SUM", "AVERAGE"), ("MAX", "MIN"), ("COUNT", "COUNTA"), ("MEDIAN", "AVERAGE"), ("SUM", "COUNT")], sl("C", "E")),
    P("What does this pandas line compute?\n```python\ndf.groupby('<G>')['<M>'].<V>()\n```",
      [("mean", "median"), ("sum", "mean"), ("max", "min"), ("nunique", "count"), ("first", "last"), ("std", "var")], sl("T,M", "G")),
    P("Explain this query: `SELECT <G>, <V>(<M>) FROM <T> GROUP BY <G>;`",
      [("SUM", "AVG"), ("MAX", "MIN"), ("COUNT", "SUM"), ("AVG", "MAX")], sl("T,M", "G")),
    P('What does =<V>(A2, <L>) return when A2 contains "<W>"?', [("LEFT", "RIGHT")],
      {"L": ["2", "3", "4", "5"], "W": ["INV-2023-0042", "ORD-9981-EU", "SKU-AB12-RED", "CUST-00731-UK"]}),
    P("What does =<V> return?", [("ROUND(<LO>, 1)", "ROUNDUP(<LO>, 1)"), ("ROUND(<HI>, 1)", "ROUNDDOWN(<HI>, 1)"),
                                 ("ROUNDUP(<LO>, 1)", "ROUNDDOWN(<LO>, 1)"), ("ROUNDUP(<HI>, 1)", "ROUNDDOWN(<HI>, 1)")],
      {"LO": ["2.31", "7.42", "13.04", "0.123"], "HI": ["2.37", "7.48", "13.06", "0.987"]}),
    P("Will this formula work in Excel 2016? `<V>`", VERS),
    P("My colleague only has Excel 2013. Can they use a sheet containing <V> without errors?", VERS),
    P("What does `df['<PC>'].<V>()` produce?", [("cumsum", "cummax"), ("diff", "pct_change"), ("cummin", "cummax"), ("cumsum", "diff")], {"PC": PCOL}),
]
NM["nm_cell_range"] = [
    P("I type =<CA>2*<V> in <CD>2 and fill it down to <CD><R>. What formula ends up in <CD><R>?",
      [("$F$1", "F1"), ("$F1", "F$1"), ("F$1", "F1"), ("$F$1", "$F1")], {"CA": ["B", "C"], "CD": ["G", "H"], "R": ["10", "20", "50"]}),
    P("Explain what this does when I drag it down column <CD>: =COUNTIF(<V>, A2)",
      [("$A$2:$A$<E>", "$A$2:A2"), ("$A$2:$A$<E>", "A2:A<E>")], sl("E", CD=["B", "C", "D"])),
    P("In Google Sheets, <C>1 holds a header and there are <X> names below it. What does =COUNTA(<V>) return?",
      [("<C>:<C>", "<C>2:<C>"), ("<C>:<C>", "<C>3:<C>")], sl("C", "X")),
    P("My sales are in column C and my costs are in column D. What does =SUM(<V>) give me?",
      [("C2:C<E>", "D2:D<E>"), ("C2:C<E>", "C2:D<E>")], sl("E")),
    P("My workbook has one sheet per month. What does =SUM(<V>!B2:B31) add up?",
      [("Jan", "Feb"), ("Mar", "Apr"), ("Q1", "Q2"), ("Jan", "Dec"), ("May", "Jun")]),
    P("My data is in B2:B50. Will =SUM(B2:B<V>) include all of it?", [("10", "50"), ("40", "60"), ("49", "100"), ("25", "500"), ("45", "50")]),
    P("I copy =VLOOKUP(A2, <V>, 2, FALSE) down to row <E>. Will every lookup still use the right table?",
      [("$H$2:$I$50", "H2:I50"), ("$H$2:$I$50", "H$2:I50"), ("Rates!$A$2:$B$40", "Rates!A2:B40")], sl("E")),
    P("Column B is quantity, column C is unit price and column D is discount. What does =SUMPRODUCT(B2:B<R>, <V>) calculate?",
      [("C2:C<R>", "D2:D<R>")], {"R": ["20", "50", "120", "300"]}),
]
RNUM = ["3.14159", "2.71828", "1234.5678", "0.98765", "45.6789"]
NM["nm_number"] = [
    P("How many rows does this count?\n```sql\nSELECT COUNT(*) FROM <T> WHERE order_date >= '<V>';\n```",
      [("2023-01-01", "2024-01-01"), ("2023-06-30", "2023-07-01"), ("2022-12-31", "2023-12-31"), ("2024-03-01", "2024-04-01")], sl("T,M")),
    P("Write a SQL query that lists customers whose total spend is over <V> dollars.", [("500", "1000"), ("100", "250"), ("1000", "10000"), ("50", "5000")]),
    P("What does `df.nlargest(<V>, '<PC>')` give me?", [("3", "5"), ("5", "10"), ("10", "20"), ("1", "3")], {"PC": PCOL}),
    P("Explain `awk -F, 'NR > 1 && $<K> > <V>' <F>.csv`", [("10", "100"), ("50", "500"), ("250", "1000"), ("0", "1")], sl("K", "F")),
    P("What does `sort -t, -k<K>,<K>nr <F>.csv | head -n <V>` print?", [("3", "5"), ("5", "10"), ("1", "20")], sl("K", "F")),
    P("What does `cut -d, -f<V> <F>.csv | sort -u` output?", [("1", "2"), ("2", "3"), ("3", "5"), ("4", "6")], sl("F")),
    P("Write a PostgreSQL query that counts <T> rows created in the last <V> days.", [("7", "30"), ("30", "90"), ("1", "7"), ("14", "28")], sl("T,M")),
    P("What does =ROUND(<NUM>, <V>) return?", [("1", "2"), ("2", "3"), ("1", "3")], {"NUM": RNUM}),
    P("Using the orders table, what was the average order value per region in <V>?", [("2022", "2023"), ("2023", "2024"), ("2021", "2023")]),
]
NM["nm_task_verb"] = [
    Q("Explain what this <N> does: <S>", "Optimise this <N>: <S>"),
    Q("What will this <N> output? <S>", "Why might this <N> be slow? <S>"),
    Q("Can you find the bug in this <N>? <S>", "Can you add comments to this <N>? <S>"),
    Q("Explain this <N> step by step.\n<S>", "Rewrite this <N> so it is shorter.\n<S>"),
    Q("<S>\nWhat does this do?", "<S>\nHow can I make this faster?"),
    Q("Predict the result of this <N>: <S>", "Describe an input on which this <N> fails: <S>"),
    Q("Translate this <N> into plain English: <S>", "Write a test case for this <N>: <S>"),
]
NM["nm_tool"] = [
    P("How do I <TK> in <V>?", [("pandas", "SQL"), ("Excel", "Google Sheets"), ("pandas", "Excel"), ("SQL", "Google Sheets"), ("pandas", "polars")],
      {"TK": ["remove duplicate rows", "count rows per category", "compute a running total", "pivot sales by month",
              "split a full name column into first and last name", "rank rows within each group"]}),
    P("Convert this SQL query to <V>: <S>", [("pandas", "PySpark"), ("pandas", "R dplyr"), ("PySpark", "R dplyr"), ("pandas", "polars")], langs=["sql"]),
    P("Rewrite this pipeline using <V>: <S>", [("only awk", "Python"), ("Python", "PowerShell"), ("only awk", "PowerShell"), ("Perl", "Python")], langs=["shell"]),
    P("Write a <V> query that groups <T> by month of created_at and sums <M>.",
      [("MySQL", "PostgreSQL"), ("SQLite", "SQL Server"), ("PostgreSQL", "BigQuery"), ("MySQL", "SQLite"), ("Oracle", "PostgreSQL")], sl("T,M")),
    P("Will this formula work in <V>? `<FX>`", [("Google Sheets", "Excel"), ("Google Sheets", "Excel 2016"), ("Google Sheets", "Excel for the web")],
      {"FX": ["=ARRAYFORMULA(B2:B*C2:C)", '=QUERY(A1:D, "select B, sum(D) group by B")', '=GOOGLEFINANCE("GOOG", "price")',
              '=IMPORTRANGE("sheet-key", "Sheet1!A1:C100")', '=SPLIT(A2, ",")']}),
    P("How do I <STK> with <V>?", [("awk", "sed"), ("awk", "Python"), ("sed", "Perl"), ("grep", "awk"), ("cut", "awk")],
      sl("F", STK=["print the third column of <F>.csv", "delete the header line of <F>.csv", "replace every semicolon with a comma in <F>.csv",
                   "print only the lines of <F>.csv that contain ERROR", "count how many lines of <F>.csv mention refund"])),
    P("Do the same thing as this pandas line but in <V>: <S>", [("SQL", "R dplyr"), ("SQL", "Excel"), ("polars", "SQL"), ("Google Sheets", "SQL")], langs=["pandas"]),
]
AGGP = [("average", "total"), ("average", "median"), ("maximum", "minimum"), ("median", "90th percentile"), ("average", "maximum")]
GRPP = [("region", "country"), ("month", "quarter"), ("product category", "sales channel"), ("store", "region"),
        ("customer segment", "acquisition channel"), ("week", "month")]
AGG_FRAMES = ["What is the <A> <MS> per <GR> in <Y>?", "Write a SQL query for the <A> <MS> by <GR> for <Y>.",
              "In pandas, how do I get the <A> <MS> for each <GR>?", "Build me an Excel pivot table that shows the <A> <MS> by <GR>.",
              "My orders table has one row per order. How would I compute the <A> <MS> per <GR>?",
              "Show the <A> <MS> broken down by <GR>, sorted from highest to lowest.",
              "Using the <F> dataset, which <GR> had the highest <A> <MS> in <Y>?"]
NM["nm_aggregation"] = []
for fr in AGG_FRAMES:
    NM["nm_aggregation"].append(P(fr.replace("<A>", "<V>"), AGGP, {"MS": MEAS, "GR": GROUPS, "Y": YEARS, "F": FILES}))
    NM["nm_aggregation"].append(P(fr.replace("<GR>", "<V>"), GRPP, {"MS": MEAS, "A": ["average", "total", "median", "maximum"], "Y": YEARS, "F": FILES}))
NM["nm_direction"] = [
    P("What does `SELECT <G>, <M> FROM <T> ORDER BY <M> <V> LIMIT <L>` return?", [("ASC", "DESC")], sl("T,M", "G", L=["3", "5", "10"])),
    P("Explain `df.sort_values('<PC>', ascending=<V>).head(<L>)`", [("True", "False")], {"PC": PCOL, "L": ["3", "5", "10"]}),
    P("What does `sort -t, -k<K><V> <F>.csv | head -n <L>` print?", [("n", "nr"), (",<K>n", ",<K>nr")], sl("K", "F", L=["3", "5", "10"])),
    P("How do I turn <V> in pandas? My data has one row per <EN> and one column per month.", [("rows into columns", "columns into rows")], {"EN": ENT}),
    P("In Excel, how do I reshape my <EN> sales table from <V> format?", [("wide to long", "long to wide")], {"EN": ENT}),
    P("What does `<V>(<M>) OVER (PARTITION BY <G> ORDER BY created_at)` return for each row?", [("LAG", "LEAD")], sl("T,M", "G")),
    P("What does `df['<PC>'].shift(<V>)` produce?", [("1", "-1"), ("2", "-2")], {"PC": PCOL}),
    P("List the <L> <EN>s with the <V> total <MS> last year.", [("highest", "lowest")], {"EN": ENT, "MS": MEAS, "L": ["3", "5", "10"]}),
]
HANDLE = ["dropping those rows", "filling them with 0", "filling them with the column mean", "forward-filling from the previous row", "interpolating linearly"]
NM["nm_missing"] = [
    P("What does `df['<PC>'].<V>.mean()` return when some values are NaN?", [("fillna(0)", "dropna()"), ("fillna(0)", "ffill()")], {"PC": PCOL}),
    P("In pandas, how do I handle the missing values in '<PC>' by <V>?", [tuple(R.sample(HANDLE, 2)) for _ in range(6)], {"PC": PCOL}),
    P("What does `SELECT <G>, AVG(<V>) FROM <T> GROUP BY <G>` compute when <M> has NULLs?", [("<M>", "COALESCE(<M>, 0)")], sl("T,M", "G")),
    P("Write an Excel formula that averages <C>2:<C><E>, <V>.", [("ignoring blank cells", "counting blank cells as zero")], sl("C", "E")),
    P("What does `awk -F, '<V>{s+=$<K>; n++} END {print s/n}' <F>.csv` print if some rows have an empty field <K>?", [("", '$<K> != "" ')], sl("K", "F")),
    P("Compute the average <MS> per <GR>, <V>.", [("dropping rows where it is missing", "treating missing values as 0"),
                                                  ("treating missing values as 0", "filling gaps with the previous day's value")], {"MS": MEAS, "GR": GROUPS}),
    P("After `df = pd.read_csv('<F>.csv'<V>)`, what happens to the empty cells?",
      [("", ", keep_default_na=False"), (", keep_default_na=False", ", keep_default_na=False, na_values=['']")], sl("F")),
    P("What does `SELECT COUNT(<V>) FROM <T>` return when <M> has NULLs?", [("*", "<M>")], sl("T,M")),
]

# ---------------------------------------------------------------- positives
QS = ["What does this <N> do?", "Can you explain this <N>?", "What output does this <N> give?", "Is there a bug in this <N>?",
      "How can I make this <N> faster?", "Please break this <N> down step by step.", "What is the purpose of this <N>?",
      "Could you rewrite this <N> to be easier to read?"]
QSL = {"QQ": QS}
POS = {}
POS["pos_reworded"] = [Q(a + " <S>", b + " <S>") for a, b in [
    ("What does this <N> do?", "Could you walk me through what this <N> does?"),
    ("Explain this <N>.", "I'd like an explanation of this <N>."),
    ("What will this <N> output?", "What result will I get from this <N>?"),
    ("Is this <N> correct?", "Does this <N> have any mistakes?"),
    ("How can I make this <N> faster?", "What would improve the performance of this <N>?"),
    ("Break this <N> down piece by piece.", "Go through each part of this <N> and explain it."),
    ("What is the purpose of this <N>?", "What is this <N> meant to accomplish?"),
    ("Can this <N> be written more simply?", "Is there a simpler way to write this <N>?")]]
POS["pos_moved"] = [Q(q + " <S>", "<S>\n\n" + q) for q in QS[:7]]
POS["pos_polite"] = [Q("<QQ> <S>", pre + "<QQ> <S>" + post, QSL) for pre, post in [
    ("Hi! ", ""), ("", "\nThanks a lot!"), ("Hello there, quick question. ", "\nCheers."),
    ("Sorry to bother you, but here goes: ", ""), ("Could you please help me? ", "\nThank you in advance!"),
    ("Good morning! ", "\nMuch appreciated."), ("Hey, hope you're well. ", "\nthanks!")]]
TFS = [str.lower, str.upper, lambda s: s.replace(" ", "  "), lambda s: "\n  " + s + "   ",
       str.title, lambda s: s.replace(" ", " \t")]
POS["pos_case_space"] = [Q("<QQ> <S>", "<QQ> <S>", QSL, tf=f) for f in TFS]
POS["pos_snippet_format"] = [Q("<QQ> <S>", "<QQ> <S>", QSL, st=st) for st in [
    ("tick", "fence"), ("fence", "plain"), ("plain", "tick"), ("fence", "fence0"), ("tick", "fence0"), ("fence0", "plain")]]
POS["pos_informal"] = [Q(a + " <S>", b + " <S>") for a, b in [
    ("What does this <N> do?", "wat does this <N> do"), ("Can you explain this <N>?", "can u explain this <N> pls"),
    ("What output should I expect from this <N>?", "what output shud i expect from this <N>??"),
    ("Please explain this <N> to me.", "pls explain this <N> to me thx"),
    ("I do not understand this <N>. Can you explain it?", "dont get this <N>, explain?"),
    ("What is the result of running this <N>?", "whats the result of running this <N>"),
    ("Why is this <N> not working?", "y is this <N> not working??")]]
POS["pos_synonym"] = [Q(a + ": <S>", b + ": <S>") for a, b in [
    ("Fix this <N>", "Correct this <N>"), ("Explain this <N>", "Describe what this <N> means"),
    ("What is wrong with this <N>", "What is the problem with this <N>"), ("Speed up this <N>", "Make this <N> faster"),
    ("Simplify this <N>", "Make this <N> simpler"), ("Find the mistake in this <N>", "Find the error in this <N>"),
    ("What does this <N> return", "What does this <N> give back"), ("Shorten this <N>", "Make this <N> shorter")]]
HOW = {"ACT,PREP,TOOL": [
    ("remove duplicate rows", "in", "Google Sheets"), ("count unique customers per month", "in", "pandas"),
    ("get the second highest salary", "in", "SQL"), ("extract the domain from an email address", "with", "a regex"),
    ("sum the fourth column of a CSV file", "with", "awk"), ("convert a text column to real dates", "in", "Excel"),
    ("find rows with missing values", "in", "pandas"), ("join two CSV files on an id column", "from", "the shell"),
    ("calculate a 7-day rolling average", "in", "pandas"), ("rank products by revenue within each category", "in", "SQL"),
    ("highlight duplicate values", "in", "Excel"), ("split a comma-separated cell into columns", "in", "Google Sheets"),
    ("count lines matching a pattern in a CSV", "with", "grep"), ("select rows between two dates", "in", "pandas"),
    ("get the top 3 orders per customer", "in", "SQL"), ("match a UK postcode", "with", "a regex"),
    ("pivot long data to wide format", "in", "pandas"), ("look up a price from another sheet", "in", "Excel"),
    ("compute year-over-year growth", "in", "SQL"), ("calculate a running total", "in", "Excel")],
    "HDR": ["order_id,customer_id,region,amount,created_at", "date,store,product,units,price", "user_id,email,signup_date,plan"]}
POS["pos_howdo"] = [Q(a, b, HOW) for a, b in [
    ("How do I <ACT> <PREP> <TOOL>?", "What's the way to <ACT> <PREP> <TOOL>?"),
    ("how do i <ACT> <PREP> <TOOL>", "whats the way to <ACT> <PREP> <TOOL>"),
    ("Quick one: how do I <ACT> <PREP> <TOOL>?", "Quick one: what's the way to <ACT> <PREP> <TOOL>?"),
    ("Using <TOOL>, how do I <ACT>?", "Using <TOOL>, what's the way to <ACT>?"),
    ("How do I <ACT> <PREP> <TOOL>? My header row is: <HDR>", "What's the way to <ACT> <PREP> <TOOL>? My header row is: <HDR>"),
    ("I need to <ACT> <PREP> <TOOL>. How do I do that?", "I need to <ACT> <PREP> <TOOL>. What's the way to do that?")]]
W = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten",
     11: "eleven", 12: "twelve", 14: "fourteen", 15: "fifteen", 20: "twenty", 25: "twenty-five", 30: "thirty",
     50: "fifty", 60: "sixty", 90: "ninety", 100: "one hundred"}


def nw(*ns):
    return {"D,WD": [(str(n), W[n]) for n in ns]}


POS["pos_number_words"] = [Q(a.replace("<X>", "<D>"), a.replace("<X>", "<WD>"), s) for a, s in [
    ("Write a SQL query that returns the top <X> customers by total spend.", nw(3, 5, 10, 20, 25, 50, 100)),
    ("How do I keep only the first <X> rows of each group in pandas?", nw(1, 2, 3, 5, 10)),
    ("Write a regex that matches exactly <X> digits in a row.", nw(2, 3, 4, 5, 6, 8, 9, 10, 12)),
    ("How do I round a number to <X> decimal places in Google Sheets?", nw(1, 2, 3, 4, 5, 6)),
    ("Write an awk command that prints column <X> of the file data.csv.", nw(2, 3, 4, 5, 6, 7, 8, 9, 11, 12)),
    ("Write a SQL query that counts orders placed in the last <X> days.", nw(7, 14, 15, 30, 60, 90)),
    ("Change this pipeline so it shows the top <X> results instead of ten: `cut -d, -f3 sales.csv | sort | uniq -c | sort -nr | head`", nw(3, 5, 15, 20, 25, 50)),
    ("Modify this so it returns <X> regions instead of five: `df.groupby('region')['amount'].sum().sort_values(ascending=False).head(5)`", nw(2, 3, 4, 6, 7, 8, 10))]]


# ---------------------------------------------------------------- machinery
def fmt(snip, style, lang):
    if style == "tick":
        return "`" + snip + "`"
    if style == "fence":
        return "\n```" + TAG[lang] + "\n" + snip + "\n```\n"
    if style == "fence0":
        return "\n```\n" + snip + "\n```\n"
    return snip


def tidy(s):
    s = re.sub(r"[ \t]+\n", "\n", s)
    s = re.sub(r"\n[ \t]+", "\n", s)
    return re.sub(r"\n{3,}", "\n\n", s).strip()


def sub(t, kw):
    for k, v in kw.items():
        t = t.replace("<" + k + ">", v)
    return t


def gen(t):
    kw = {}
    for k, vals in t["slots"].items():
        v = R.choice(vals)
        if "," in k:
            kw.update(zip(k.split(","), v))
        else:
            kw[k] = v
    if "pairs" in t:
        a, b = R.choice(t["pairs"])
        fa, fb = t["frame"].replace("<V>", a), t["frame"].replace("<V>", b)
    else:
        fa, fb = t["a"], t["b"]
    sa = None
    if "<S>" in fa + fb:
        lang, snip = R.choice([p for p in POOL if p[0] in t.get("langs", LANGS)])
        kw["N"] = NOUN[lang]
        sa = sb = R.choice(["tick", "fence", "plain"])
        if "st" in t:
            sa, sb = t["st"]
    kw.update({k: sub(v, kw) for k, v in kw.items()})  # nested placeholders (e.g. <F> inside a task)
    fa, fb = sub(fa, kw), sub(fb, kw)
    tf = t.get("tf")
    if tf:
        fb = "<S>".join(tf(p) for p in fb.split("<S>"))
    if sa:
        fa, fb = fa.replace("<S>", fmt(snip, sa, lang)), fb.replace("<S>", fmt(snip, sb, lang))
    A, B = tidy(fa), (fb if tf else tidy(fb))
    return (B, A) if R.random() < 0.5 else (A, B)


SEEN = set()


def build(cats):
    out = []
    for cat, tpls in cats.items():
        assert len(tpls) >= 6, cat
        got, i, tries = 0, 0, 0
        while got < N_PER_CAT:
            tries += 1
            assert tries < 20000, cat
            A, B = gen(tpls[i % len(tpls)])
            if A == B or (A, B) in SEEN or (B, A) in SEEN or re.search(r"<[A-Z]+>", A + B):
                continue
            SEEN.add((A, B))
            out.append({"category": cat, "stored": A, "query": B})
            got, i = got + 1, i + 1
    return out


def main():
    text_pairs, positives = build(NM), build(POS)
    counts = lambda rows: ", ".join("%s %d" % (c, sum(r["category"] == c for r in rows)) for c in dict.fromkeys(r["category"] for r in rows))
    desc = ("Held-out set v38, written blind (without reading the project's code, rules, tests or other sets): data-work prompts "
            "with short snippets (Excel and Google Sheets formulas, SQL queries with WHERE/JOIN/GROUP BY/ORDER BY/LIMIT and date "
            "conditions, regular expressions, pandas one-liners, awk/sort/cut/grep pipelines over CSV files) and plain-language "
            "dataset questions, asking to explain, fix, rewrite, optimise or predict the output of a snippet, or to write one. "
            "text_pairs are must-not-hit near misses (%d): %s. positives are true paraphrases with the snippet unchanged (%d): %s. "
            "Generated deterministically with random.Random(%d)." % (len(text_pairs), counts(text_pairs), len(positives), counts(positives), SEED))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"description": desc, "text_pairs": text_pairs, "positives": positives},
                              indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print("wrote %s: %d text_pairs, %d positives" % (OUT, len(text_pairs), len(positives)))


if __name__ == "__main__":
    main()
