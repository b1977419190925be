"""Speculative decoding on the real SmolLM2 model as the server loads it (int4, batch invariance on): greedy
output equals decoding without speculation token for token, for every drafter (prompt lookup, the first
layers, the target drafting for itself), with a copy-heavy and a chat request side by side in one batch."""

from __future__ import annotations

import pytest

from backend.engine import Engine, EngineConfig
from backend.sampling import SamplingParams
from backend.speculative.config import SpeculativeConfig
from benchmarks.engine.speculative import CHAT_PROMPTS, COPY_PROMPTS
from tests.backend.test_engine_support import run_engine

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def requests(smollm2_default):
    params = SamplingParams(max_tokens=40, temperature=0.0)
    return [(f"r{i}", smollm2_default.tokenizer.encode_chat(m), params)
            for i, m in enumerate([COPY_PROMPTS[0], COPY_PROMPTS[2], CHAT_PROMPTS[0]])]


@pytest.fixture(scope="module")
def plain(smollm2_default, requests):
    return run_engine(Engine(smollm2_default, EngineConfig(max_num_seqs=4, kv_cache_memory=64 * 2**20)), requests)


@pytest.mark.parametrize("spec", [  # max_step_rows=0: all four requests draft in every step, batched
    SpeculativeConfig("ngram", 4, max_step_rows=0), SpeculativeConfig("self", 3, draft_layers=8, max_step_rows=0),
    SpeculativeConfig("draft", 3, model="the target itself", max_step_rows=0)], ids=lambda s: s.method)
def test_greedy_output_is_identical_with_speculation(smollm2_default, requests, plain,
                                                    spec: SpeculativeConfig) -> None:
    engine = Engine(smollm2_default,
                    EngineConfig(max_num_seqs=4, kv_cache_memory=64 * 2**20, speculative=spec),
                    draft=smollm2_default if spec.method == "draft" else None)
    got = run_engine(engine, requests)
    for rid, _, _ in requests:
        assert got[rid][0] == plain[rid][0], rid  # batch invariance: not even a near-tie may differ
    metrics = engine.metrics()
    assert metrics.spec_draft_tokens > 0
    if spec.method != "self":  # prompt lookup on the copy prompts, and the target itself, are often right
        assert metrics.spec_accepted_tokens > metrics.spec_draft_tokens // 4
    assert engine.block_manager.num_used_blocks == 0
    engine.block_manager.check_invariants()


def test_lookup_ceiling_replays_the_engines_own_drafting(smollm2_default, requests, plain) -> None:
    """With automatic off disabled and no row limit, the engine drafts exactly what the offline ceiling
    replays on the plain answer, so a single stream takes as many decode steps as the ceiling counts."""
    from backend.speculative.ngram import lookup_ceiling

    rid, prompt, params = requests[0]  # the code edit: long copied runs, answer cut at max_tokens
    spec = SpeculativeConfig("ngram", 4, auto_off=False, max_step_rows=0)
    engine = Engine(smollm2_default, EngineConfig(max_num_seqs=4, kv_cache_memory=64 * 2**20, speculative=spec))
    got = run_engine(engine, [(rid, prompt, params)])
    assert got[rid][0] == plain[rid][0]
    assert len(plain[rid][0]) == params.max_tokens  # cut by the limit: no draft ran past the answer's end
    tokens, steps = lookup_ceiling(prompt, plain[rid][0], 4, spec.ngram_min, spec.ngram_max)
    assert tokens == params.max_tokens - 1
    assert engine.steps == 1 + steps  # the prefill step, then one step per verification or plain token
    assert steps < tokens  # prompt lookup did skip steps on this answer
