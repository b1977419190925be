"""SSE framing and identity helpers."""

from __future__ import annotations

from proxy.identity import ANONYMOUS, key_id_from_authorization, request_id_from_header
from proxy.upstream import SSEDecoder


def test_sse_decoder_emits_only_complete_events_across_arbitrary_splits():
    stream = b'data: {"a": 1}\n\ndata: {"b": 2}\r\n\r\n: comment\n\ndata: [DONE]\n\n'
    for size in (1, 3, 7, len(stream)):
        decoder = SSEDecoder()
        events = []
        for start in range(0, len(stream), size):
            events += decoder.feed(stream[start : start + size])
        events += decoder.flush()
        assert [e.data for e in events] == [{"a": 1}, {"b": 2}, None, None]
        assert events[-1].done and not events[2].done


def test_identity_is_a_hash_of_the_token():
    a = key_id_from_authorization("Bearer sk-one")
    assert a == key_id_from_authorization("bearer sk-one") and a != key_id_from_authorization("Bearer sk-two")
    assert "sk-one" not in a
    assert key_id_from_authorization(None) == ANONYMOUS == key_id_from_authorization("Bearer ")


def test_request_ids_are_reused_only_when_well_formed():
    assert request_id_from_header("abc-123") == "abc-123"
    assert request_id_from_header("bad id with spaces").startswith("req-")
    assert request_id_from_header("x" * 500).startswith("req-")
