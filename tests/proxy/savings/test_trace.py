"""The savings trace: parsing (bad lines reported by number, skipped, counted), grading, the seeded default."""

from __future__ import annotations

import json

from proxy.savings.replay import ReplayBook
from proxy.savings.trace import default_trace, grade, parse_trace

GOOD = {"t": 0.5, "key": "sk-a", "body": {"model": "thrifty-auto", "messages": [{"role": "user", "content": "hi"}]},
        "ref": {"source": "gsm8k", "id": "1"}}


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


def test_grading_by_expected_answer() -> None:
    assert grade(None, {"expected": "B"}, "B. Kidney") and not grade(None, {"expected": "B"}, "C. Lung")
    assert grade(None, {"expected": "1,200"}, "So the total is $1,200.") and not grade(None, {"expected": "12"}, "120")
    assert grade(None, {"expected": "Paris"}, "It is paris.") and not grade(None, {"expected": "Paris"}, None)


def test_gptcache_reference_accepts_either_question_of_the_pair(book: ReplayBook) -> None:
    from proxy.savings.replay import generic_answer

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
