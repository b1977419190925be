"""jsonl_text: the one JSONL splitter breaks records at line feeds only."""

from __future__ import annotations

import json

from jsonl_text import jsonl_lines, split_lines


def test_a_separator_inside_a_json_string_does_not_split_the_record() -> None:
    records = [{"text": "one\u2028two\u2029three\x85four\x0bfive"}, {"text": "next"}]
    text = "\ufeff" + "\r\n".join(json.dumps(r, ensure_ascii=False) for r in records) + "\r\n"
    assert text.splitlines()[0] != json.dumps(records[0], ensure_ascii=False)  # what str.splitlines does
    assert [json.loads(line) for line in split_lines(text) if line] == records
    assert [json.loads(line) for _, line in jsonl_lines(text.encode("utf-8"))] == records


def test_blank_lines_are_skipped_but_counted() -> None:
    assert list(jsonl_lines('{"a": 1}\n\n \t\n{"b": 2}')) == [(1, '{"a": 1}'), (4, '{"b": 2}')]
