"""``thrifty bench engine --matrix``: the five traffic shapes and their replay (tiny model, Thrifty only)."""

from __future__ import annotations

import dataclasses

from backend.engine import EngineConfig
from benchmarks.engine.matrix import MatrixSpec, matrix_cases, matrix_table, run_matrix
from tests.backend.test_engine_support import TINY, tiny_loaded

SMALL = MatrixSpec(scale=0.25, chat_prompt=(10, 60), chat_max_tokens=12, decode_output=(8, 16), system_tokens=100,
                   shared_output=(4, 8), stream_prompt=20, stream_output=8)


def test_cases_have_the_five_shapes() -> None:
    loaded = tiny_loaded()
    cases = matrix_cases(loaded.tokenizer, TINY.vocab_size, SMALL)
    assert [c.key for c in cases] == ["a", "b", "c", "d", "e"]
    chat, decode, shared, stream, single_chat = cases
    assert matrix_cases(loaded.tokenizer, TINY.vocab_size, SMALL) == cases  # seeded
    assert len(chat.requests) == 8 and all(not r.ignore_eos and r.output_len == 12 for r in chat.requests)
    assert len({len(r.prompt_ids) for r in chat.requests}) > 1  # prompts of varied length
    assert all(r.ignore_eos and 8 <= r.output_len <= 16 and 16 <= len(r.prompt_ids) <= 64 for r in decode.requests)
    # every shared-prompt request starts with the same long system prompt
    first = shared.requests[0].prompt_ids
    common = min(next((i for i, (a, b) in enumerate(zip(first, r.prompt_ids, strict=False)) if a != b), len(first))
                 for r in shared.requests[1:])
    assert common > 100 and all(len(r.prompt_ids) - common < 60 for r in shared.requests)
    assert stream.one_at_a_time and single_chat.one_at_a_time and not any(c.one_at_a_time for c in cases[:3])
    assert [c.target for c in cases] == [2.0, 2.0, 2.0, 1.0, 1.25]
    # the chat cases carry the messages their ids template (sent as chat completions over HTTP); the random
    # token cases do not
    for case in (chat, shared, single_chat):
        assert all(r.prompt_ids == tuple(loaded.tokenizer.encode_chat(list(r.messages))) for r in case.requests)
    assert all(r.messages is None for r in decode.requests + stream.requests)
    assert len(single_chat.requests) == 4 and all(r.ignore_eos and r.output_len == 128 for r in single_chat.requests)
    assert len({r.messages[0]["content"] for r in single_chat.requests}) == 4  # four different chats
    # (e) draws from its own random stream: the first four cases are the same with or without it
    fewer = matrix_cases(loaded.tokenizer, TINY.vocab_size, dataclasses.replace(SMALL, stream_chat_requests=1))
    assert fewer[:4] == cases[:4] and len(fewer[4].requests) == 1


def test_matrix_replay_on_the_tiny_model() -> None:
    loaded = tiny_loaded()
    cases = matrix_cases(loaded.tokenizer, TINY.vocab_size, SMALL)
    config = EngineConfig(block_size=4, num_blocks=2048, max_model_len=256, max_num_seqs=8, max_num_batched_tokens=64)
    results = run_matrix(loaded, None, config, cases, llama=False, progress=False)
    assert [r.case.key for r in results] == ["a", "b", "c", "d", "e"]
    for r in results:
        assert r.llama is None and r.ratio is None
        assert all(t.finish is not None for t in r.thrifty.timings)
        for req, t in zip(r.case.requests, r.thrifty.timings, strict=True):
            assert (t.tokens == req.output_len) if req.ignore_eos else (1 <= t.tokens <= req.output_len)
    stream = results[3].thrifty.timings
    for before, after in zip(stream, stream[1:], strict=False):  # one at a time: the next starts after
        assert after.first_token > before.finish and after.arrival >= before.finish
    table = matrix_table(results)
    assert "| (d) single stream |" in table and "n/a" in table
