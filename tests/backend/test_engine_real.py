"""Greedy equality of the engine with the single-request path on the real SmolLM2-135M weights.

16 chat prompts (half of them sharing a long context, so prefix caching really hits) at batch size 8 (so
requests queue for a free slot) and every other one at batch size 1, with prefix caching and chunked prefill (a
32-token step budget, so prompts are split and mixed with decodes) both on and both off. Any divergence from ``generate_tokens`` must be a near-tie: the oracle's
top-two logit margin at the first divergent token below 1e-3. Plus KV sizing on the real model.
"""

from __future__ import annotations

import pytest
import torch

from backend.engine import Engine, EngineConfig
from backend.engine.kvsize import kv_size, read_model_config
from backend.sampling import SamplingParams
from tests.backend.test_engine_support import check_greedy_equal, oracle_tokens, run_engine

pytestmark = pytest.mark.slow

QUESTIONS = [
    "What is the capital of France?", "Name three primary colors.", "What is 12 times 7?",
    "Write a haiku about rain.", "Who wrote Hamlet?", "What does a bee make?", "Define gravity in one sentence.",
    "Give me a synonym for happy.", "What is the boiling point of water?", "List two mammals that swim.",
    "Why is the sky blue?", "Translate 'good morning' to Spanish.", "What is photosynthesis?",
    "How many legs does a spider have?", "Suggest a name for a cat.", "What is the largest planet?",
    "Tell me a fun fact about octopuses.", "What is 2 to the power of 10?", "Describe a sunset briefly.",
    "What language is spoken in Brazil?", "What is an adjective?", "Recommend a book for children.",
    "What is the opposite of cold?", "How do plants drink water?",
][::3]  # 8 of them: with the 8 follow-ups, 16 prompts for 8 slots
CONTEXT = ("Thrifty is a proxy that sits in front of language model servers. It caches answers, routes easy "
           "questions to small models and hard ones to large models, and batches offline work at night. ")
FOLLOW_UPS = ["What does Thrifty cache?", "Where does Thrifty send hard questions?", "When does it batch work?",
              "Summarise Thrifty in five words.", "Is Thrifty a model server?", "Who benefits from Thrifty?",
              "Name one thing Thrifty routes.", "What sits behind Thrifty?"]


@pytest.fixture(scope="module")
def smol(smollm2):
    """The session's SmolLM2 (tests/conftest.py), shared with the parity tests: one load per run."""
    return smollm2


@pytest.fixture(scope="module")
def cases(smol):
    tok = smol.tokenizer
    prompts = [tok.encode_chat([{"role": "user", "content": q}]) for q in QUESTIONS]
    prompts += [tok.encode_chat([{"role": "system", "content": CONTEXT}, {"role": "user", "content": q}])
                for q in FOLLOW_UPS]
    assert len(prompts) == 16
    out = []
    for i, prompt in enumerate(prompts):
        params = SamplingParams(max_tokens=10 + i % 9, temperature=0.0)  # 10-18: sequences end on different steps
        out.append((f"p{i}", prompt, params, oracle_tokens(smol, prompt, params)))
    return out


# prefix caching and chunking each on and off at batch size 8 (together and neither: each alone adds no
# path of its own, and tests/backend/test_batch_invariance.py covers them on the default weights bit for bit)
@pytest.mark.parametrize(("max_num_seqs", "prefix_caching", "chunked"), [
    (8, True, True), (8, False, False), (1, True, True), (1, False, False),
])
def test_greedy_equals_single_request_path(smol, cases, max_num_seqs: int, prefix_caching: bool,
                                           chunked: bool) -> None:
    if max_num_seqs == 1:  # one at a time is the single-request path's own pace: every other prompt suffices
        cases = cases[::2]
    engine = Engine(smol, EngineConfig(kv_cache_memory=256 * 2**20, max_model_len=2048, max_num_seqs=max_num_seqs,
                                       max_num_batched_tokens=32 if chunked else 512,
                                       enable_prefix_caching=prefix_caching, enable_chunked_prefill=chunked))
    got = run_engine(engine, [(rid, prompt, params) for rid, prompt, params, _ in cases])
    outcomes = [check_greedy_equal(smol, prompt, expected, got[rid][0]) for rid, prompt, _, expected in cases]
    assert outcomes.count("equal") >= len(cases) - 4, outcomes  # near-ties are rare; each one was verified above
    bm = engine.block_manager
    assert bm.num_used_blocks == 0
    bm.check_invariants()
    follow_ups = sum(int(rid[1:]) >= len(QUESTIONS) for rid, *_ in cases)
    if prefix_caching:
        # follow-ups reuse the shared system context, which spans several blocks: at least half of those after
        # the first (follow-ups prefilled in one step together cannot reuse each other's blocks)
        assert bm.prefix_hits >= (follow_ups - 1) * 16 * 4 // 2, bm.prefix_hits
    else:
        assert bm.prefix_hits == 0


def test_kv_size_matches_real_model_allocation(smol, capsys) -> None:
    meta = read_model_config(None)  # metadata only, no weights
    cfg = smol.model.config
    assert (meta.num_layers, meta.num_kv_heads, meta.head_dim) == (cfg.num_layers, cfg.num_kv_heads, cfg.head_dim)
    size = kv_size(meta, seq_len=128, batch=4, dtype=torch.float32)
    engine = Engine(smol, EngineConfig(kv_cache_memory=size.total_bytes, max_model_len=512))
    assert engine.runner.kv_cache_bytes == size.total_bytes == 2 * 30 * 3 * 64 * 128 * 4 * 4
    from proxy.cli import main

    assert main(["kv-size", "--seq-len", "2048", "--batch", "8"]) == 0
    out = capsys.readouterr().out
    assert str(2 * 30 * 3 * 64 * 2048 * 8 * 4) in out
