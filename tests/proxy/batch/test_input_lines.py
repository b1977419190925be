"""How a batch input file is cut into lines, counted and checked: at upload (line limit, JSONL
check) and at validation (line numbers, request size)."""

from __future__ import annotations

import json

import pytest

from jsonl_text import jsonl_lines
from proxy.batch.files import LineCounter, _check_jsonl
from proxy.batch.validation import validate_batch_input
from proxy.wire.errors import InvalidRequest

CHAT = "/v1/chat/completions"


def _line(custom_id: str, content: str, **body) -> str:
    return json.dumps({"custom_id": custom_id, "method": "POST", "url": CHAT,
                       "body": {"model": "m", "messages": [{"role": "user", "content": content}], **body}},
                      ensure_ascii=False)


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_raw_unicode_line_separators_inside_strings_do_not_split_a_line(separator):
    text = _line("a", f"x{separator}y") + "\n" + _line("b", "z") + "\n{broken\n"
    assert separator in text  # raw, as JSON allows (str.splitlines() breaks there)
    specs, errors = validate_batch_input(text, CHAT, ["m"], 100)
    assert [(s.line_no, s.custom_id) for s in specs] == [(1, "a"), (2, "b")]
    assert specs[0].body["messages"][0]["content"] == f"x{separator}y"
    assert [(e.line, e.code) for e in errors] == [(3, "invalid_json_line")]


def test_crlf_endings_and_blank_lines_keep_the_real_line_numbers():
    text = "\r\n".join([_line("a", "x"), "", "  \t", _line("a", "again"), _line("b", "y", stream=True)]) + "\r\n"
    specs, errors = validate_batch_input(text, CHAT, ["m"], 100)
    assert [s.line_no for s in specs] == [1]
    assert [(e.line, e.code) for e in errors] == [(4, "duplicate_custom_id"), (5, "invalid_body")]


def test_a_leading_byte_order_mark_is_ignored():
    specs, errors = validate_batch_input("\ufeff" + _line("a", "x") + "\n", CHAT, ["m"], 100)
    assert errors == [] and [s.custom_id for s in specs] == ["a"]
    assert list(jsonl_lines("\ufeff\n{}")) == [(2, "{}")]


def test_a_line_whose_body_is_larger_than_an_interactive_request_may_be_is_refused():
    limit = 2000
    small, big = _line("small", "x" * 100), _line("big", "y" * limit)
    specs, errors = validate_batch_input(f"{small}\n{big}\n", CHAT, ["m"], 100, max_body_bytes=limit)
    assert [s.custom_id for s in specs] == ["small"]
    [error] = errors
    assert (error.line, error.code, error.param) == (2, "request_too_large", "body")
    assert "max_body_bytes" in error.message and str(limit) in error.message
    exact = len(json.dumps(json.loads(big)["body"], separators=(",", ":")).encode())
    assert validate_batch_input(big, CHAT, ["m"], 100, max_body_bytes=exact)[1] == []  # the limit itself is fine
    assert validate_batch_input(big, CHAT, ["m"], 100)[1] == []  # no limit given


def _count(*chunks: bytes) -> int:
    counter = LineCounter()
    for chunk in chunks:
        counter.feed(chunk)
    return counter.finish()


def test_the_upload_counts_request_lines_not_blank_ones():
    assert _count(b"{}\n\n\n{}\n  \r\n\t\n") == 2
    assert _count(b"{}\n{}") == 2  # a last line without a line feed
    assert _count(b"\xef\xbb\xbf\n{}\n") == 1  # a byte-order mark is no line
    assert _count(b"{", b"}\n", b"  ", b"\n", b"[1", b"]") == 2  # lines cut across chunks count once
    assert _count(b"{}\n", b"\n", b"  \n") == 1
    assert _count(b"") == 0


def test_the_upload_check_accepts_a_bom_and_raw_separators_but_not_other_text(tmp_path):
    path = tmp_path / "in.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (_line("a", "x\u2028y") + "\n").encode())
    _check_jsonl(path)
    path.write_bytes(b"\xef\xbb\xbfnot json\n")
    with pytest.raises(InvalidRequest, match="not JSONL"):
        _check_jsonl(path)
