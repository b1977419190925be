"""The savings trace: parsing (bad lines reported by number, skipped, counted), grading, the seeded default."""

from __future__ import annotations

import json

import pytest

from benchmarks.savings.replay import ReplayBook
from benchmarks.savings.trace import ParsedTrace, default_trace, grade, parse_trace
from tests.benchmarks.savings.conftest import GSM_ROWS, MMLU_ROWS, PAIRS


def _body(question: str) -> dict:
    return {"model": "thrifty-auto", "messages": [{"role": "system", "content": "Be brief."},
                                                  {"role": "user", "content": question}]}


GOOD = {"t": 0.5, "key": "sk-a", "body": _body(GSM_ROWS[1][0]), "ref": {"source": "gsm8k", "id": "1"}}


def _parse(book: ReplayBook, *items: dict | str) -> ParsedTrace:
    """A trace of one good line, then ``items`` (objects as JSON, strings as they are), parsed."""
    raw = [json.dumps(GOOD)] + [item if isinstance(item, str) else json.dumps(item) for item in items]
    return parse_trace("\n".join(raw), book)


def _problems(book: ReplayBook, *items: dict | str) -> list[str]:
    """The problems of :func:`_parse`'s trace, checking that only the good first line was kept."""
    parsed = _parse(book, *items)
    assert [line.line_no for line in parsed.lines] == [1]
    return parsed.problems


def test_bad_lines_are_reported_with_their_number_and_skipped(book: ReplayBook) -> None:
    lines = [
        json.dumps(GOOD),
        json.dumps({**GOOD, "ref": {"source": "mmlu", "id": "tiny:99"}}),  # unknown reference
        json.dumps({**GOOD, "body": {"model": "thrifty-auto", "messages": "hi"}}),  # invalid body
        json.dumps({k: v for k, v in GOOD.items() if k != "key"}),  # missing field
        "{not json",
        "",
        json.dumps({**GOOD, "t": 0.1, "batch": True, "ref": {"expected": "B"}}),
    ]
    parsed = parse_trace("\n".join(lines), book)
    assert [line.line_no for line in parsed.lines] == [7, 1]  # sorted by arrival time
    assert parsed.lines[0].batch
    assert len(parsed.problems) == 4
    assert parsed.problems[0].startswith("line 2: unknown reference mmlu:tiny:99")
    assert parsed.problems[1].startswith("line 3: invalid body")
    assert parsed.problems[2] == "line 4: missing field 'key'"
    assert parsed.problems[3].startswith("line 5: not JSON")


@pytest.mark.parametrize(("item", "fragment"), [
    ({**GOOD, "batch": "false"}, "line 2: 'batch' must be true or false"),
    ({**GOOD, "batch": 1}, "line 2: 'batch' must be true or false"),
    ({**GOOD, "body": {**GOOD["body"], "model": "no-such-model"}}, "line 2: invalid body: model 'no-such-model'"),
])
def test_a_line_the_evaluation_cannot_serve_as_meant_is_skipped(book: ReplayBook, item: dict, fragment: str) -> None:
    problems = _problems(book, item)
    assert len(problems) == 1 and problems[0].startswith(fragment)


def test_the_impersonated_models_may_be_asked_by_name(book: ReplayBook) -> None:
    for model in (book.weak_model, book.strong_model):
        assert not _parse(book, {**GOOD, "body": {**GOOD["body"], "model": model}}).problems


def test_grading_by_expected_answer() -> None:
    assert grade(None, {"expected": "B"}, "B. Kidney") and not grade(None, {"expected": "B"}, "C. Lung")
    assert grade(None, {"expected": "1,200"}, "So the total is $1,200.") and not grade(None, {"expected": "12"}, "120")
    assert grade(None, {"expected": "Paris"}, "It is paris.") and not grade(None, {"expected": "Paris"}, None)


def test_gptcache_reference_accepts_either_question_of_the_pair(book: ReplayBook) -> None:
    from benchmarks.savings.replay import generic_answer

    origin, similar = book.gptcache[0]
    assert grade(book, {"source": "gptcache", "id": 0}, generic_answer(book.weak_model, similar))
    assert grade(book, {"source": "gptcache", "id": 0}, generic_answer(book.strong_model, origin))
    assert not grade(book, {"source": "gptcache", "id": 0}, generic_answer(book.weak_model, book.gptcache[1][0]))


def test_default_trace_is_seeded_and_repeats_come_after_their_question(book: ReplayBook) -> None:
    sizes = {"mmlu": 3, "gsm8k": 5, "faq": 2, "repeats": 3, "paraphrases": 2, "batch_share": 0.3}
    first, again = default_trace(book, 7, **sizes), default_trace(book, 7, **sizes)
    assert [line.to_json() for line in first] == [line.to_json() for line in again]
    assert [line.to_json() for line in default_trace(book, 8, **sizes)] != [line.to_json() for line in first]
    assert len(first) == 3 + 5 + 2 + 3 + 2
    parsed = parse_trace("".join(line.to_json() + "\n" for line in first), book)
    assert not parsed.problems and len(parsed.lines) == len(first)
    times = [line.t for line in first]
    assert times == sorted(times)
    for line in first:
        if line.kind in ("repeat", "paraphrase"):
            original = next(o for o in first if o.ref == line.ref and o.kind not in ("repeat", "paraphrase"))
            assert original.t < line.t and original.key == line.key
            if line.kind == "repeat":
                assert original.body == line.body
            else:
                assert original.body != line.body
    assert all(line.key == "sk-nightly" for line in first if line.batch)


@pytest.mark.parametrize("t", ["Infinity", "-Infinity", "NaN", "-0.5"])
def test_a_non_finite_or_negative_arrival_time_is_refused(book: ReplayBook, t: str) -> None:
    line = json.dumps(GOOD).replace('"t": 0.5', f'"t": {t}')
    assert _problems(book, line) == ["line 2: 't' must be a finite number of seconds >= 0"]


@pytest.mark.parametrize("key", ["sk-cl\u00e9", "sk-\u043a\u043b\u044e\u0447", "sk-a\nb", "sk-\u0000"])
def test_a_key_that_is_not_printable_ascii_is_refused(book: ReplayBook, key: str) -> None:
    problems = _problems(book, {**GOOD, "key": key})
    assert len(problems) == 1 and problems[0].startswith("line 2: 'key' must be printable ASCII")


def test_the_body_must_ask_the_referenced_question(book: ReplayBook) -> None:
    parts = {"model": "thrifty-auto", "messages": [{"role": "user", "content": [
        {"type": "text", "text": MMLU_ROWS[0][0]}]}]}  # text parts, as the replay reads them
    parsed = _parse(
        book,
        {**GOOD, "body": _body(GSM_ROWS[2][0])},  # another row's question
        {**GOOD, "body": _body("Please answer: " + GSM_ROWS[1][0])},  # the replay would not recognise it
        {**GOOD, "body": _body("  " + GSM_ROWS[1][0] + "\n")},  # surrounding whitespace: the replay strips it
        {**GOOD, "body": parts, "ref": {"source": "mmlu", "id": "tiny:0"}},
        {**GOOD, "body": _body(PAIRS[0]["similar"]), "ref": {"source": "gptcache", "id": 0}},  # the paraphrase
        {**GOOD, "body": _body(PAIRS[1]["origin"]), "ref": {"source": "gptcache", "id": 0}},  # the other pair
        {**GOOD, "body": _body("anything"), "ref": {"expected": "12"}},  # nothing to compare with
        {**GOOD, "body": {"model": "thrifty-auto", "messages": [{"role": "assistant", "content": GSM_ROWS[1][0]}]}},
    )
    mismatch = "the body does not ask the referenced question"
    assert parsed.problems == [f"line {n}: {mismatch}" for n in (2, 3, 7, 9)]
    assert sorted(line.line_no for line in parsed.lines) == [1, 4, 5, 6, 8]


@pytest.mark.parametrize("expected", ["", "   ", True])
def test_an_empty_or_boolean_expected_answer_is_refused(book: ReplayBook, expected: object) -> None:
    problems = _problems(book, {**GOOD, "ref": {"expected": expected}})
    assert len(problems) == 1 and problems[0].startswith("line 2: 'ref.expected' must")
    assert grade(None, {"expected": ""}, "anything")  # why: an empty expected answer would grade everything right


# --- audit fixes: bodies and batch lines the proxy would refuse, odd numbers, line ends, ids, kinds ---------------


def test_a_batch_line_the_proxys_batch_validation_refuses_is_skipped(book: ReplayBook) -> None:
    # a streamed body is fine interactively, but it fails a whole batch job at the proxy's validation
    streamed = {**GOOD, "body": {**GOOD["body"], "stream": True}}
    problems = _problems(book, {**streamed, "batch": True})
    assert problems == ["line 2: invalid batch line: stream is not supported in a batch; each answer is written whole"]
    assert not _parse(book, streamed).problems


@pytest.mark.parametrize(("extra", "param"), [
    ({"max_tokens": 20.0}, "max_tokens"), ({"max_completion_tokens": "30"}, "max_completion_tokens"),
    ({"n": "2"}, "n"), ({"n": 0}, "n"), ({"stream": "true"}, "stream"), ({"temperature": "0"}, "temperature"),
    ({"temperature": 3}, "temperature"), ({"max_tokens": True}, "max_tokens"),
])
def test_a_body_the_proxy_would_refuse_is_skipped(book: ReplayBook, extra: dict, param: str) -> None:
    problems = _problems(book, {**GOOD, "body": {**GOOD["body"], **extra}})
    assert len(problems) == 1 and problems[0].startswith("line 2: invalid body: ") and param in problems[0]


@pytest.mark.parametrize("raw", ['"temperature": NaN', '"x_extra": Infinity', '"user": "\\ud800"'])
def test_a_body_json_cannot_carry_is_skipped(book: ReplayBook, raw: str) -> None:
    line = json.dumps(GOOD).replace('"model": "thrifty-auto"', f'"model": "thrifty-auto", {raw}')
    problems = _problems(book, line)
    assert len(problems) == 1 and problems[0].startswith("line 2: invalid body: ")


@pytest.mark.parametrize("t", ["1" + "0" * 400, "-1" + "0" * 400])
def test_a_huge_integer_arrival_time_is_a_bad_line(book: ReplayBook, t: str) -> None:
    line = json.dumps(GOOD).replace('"t": 0.5', f'"t": {t}')
    assert _problems(book, line) == ["line 2: 't' must be a finite number of seconds >= 0"]


def test_an_integer_too_long_to_parse_or_nesting_too_deep_is_not_json(book: ReplayBook) -> None:
    problems = _problems(book, json.dumps(GOOD).replace('"t": 0.5', '"t": 1' + "0" * 5000), "[" * 100_000)
    assert [p[:19] for p in problems] == ["line 2: not JSON (E", "line 3: not JSON (m"]
    assert all(len(p) <= 310 for p in problems)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\u0085", "\x1c", "\x1d", "\x1e", "\x0b", "\x0c"])
def test_lines_end_at_a_line_feed_only(book: ReplayBook, separator: str) -> None:
    # a raw separator inside a JSON string (json.dumps(ensure_ascii=False) writes it raw) must not split the line
    odd = {**GOOD, "body": _body(f"one{separator}two"), "ref": {"expected": "one"}}
    text = "\ufeff" + json.dumps(GOOD) + "\r\n" + json.dumps(odd, ensure_ascii=False) + "\r\n\r\n" + json.dumps(GOOD)
    parsed = parse_trace(text, book)
    assert not parsed.problems
    assert [line.line_no for line in parsed.lines] == [1, 2, 4]
    assert parsed.lines[1].body["messages"][-1]["content"] == f"one{separator}two"


def test_a_byte_order_mark_alone_or_a_carriage_return_does_not_spoil_a_line(book: ReplayBook) -> None:
    parsed = parse_trace("\ufeff" + json.dumps(GOOD) + "\r\n", book)
    assert not parsed.problems and [line.line_no for line in parsed.lines] == [1]


@pytest.mark.parametrize(("expected", "answer", "right"), [
    (18.0, "So she pays $18", True), ("18.0", "So she pays 18.", True), ("18.50", "It costs 18.5", True),
    (18.5, "It costs 18.50 dollars", True), ("1,200.00", "The total is 1200", True), (18, "It is 18.0", True),
    ("18.0", "It is 180", False), (-3.0, "It is -3", True), ("18.5", "It is 18", False),
])
def test_a_numeric_expected_answer_is_normalised_like_the_answer(expected: object, answer: str, right: bool) -> None:
    assert grade(None, {"expected": expected}, answer) is right


def test_a_gptcache_id_may_be_given_as_its_decimal_string(book: ReplayBook) -> None:
    item = {**GOOD, "body": _body(PAIRS[1]["origin"]), "ref": {"source": "gptcache", "id": "1"}}
    parsed = _parse(book, item)
    assert not parsed.problems and parsed.lines[1].ref["id"] == "1"
    from benchmarks.savings.replay import generic_answer

    assert grade(book, {"source": "gptcache", "id": "1"}, generic_answer(book.weak_model, PAIRS[1]["origin"]))
    for ident in ("01", "1.0", "-1", "x", "2", 1.0, "\u0661"):  # "\u0661": an Arabic-Indic digit one
        problems = _problems(book, {**item, "ref": {"source": "gptcache", "id": ident}})
        assert problems == [f"line 2: unknown reference gptcache:{ident}"], ident


def test_a_null_kind_is_no_kind_and_another_type_is_refused(book: ReplayBook) -> None:
    parsed = _parse(book, {**GOOD, "kind": None}, {**GOOD, "kind": ""})
    assert not parsed.problems and [line.kind for line in parsed.lines] == ["custom", "custom", "custom"]
    assert _problems(book, {**GOOD, "kind": 3}) == ["line 2: 'kind' must be a string"]
