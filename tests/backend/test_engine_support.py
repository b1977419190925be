"""Shared helpers for the engine tests: a tiny random-weight Llama, the real SmolLM2 model (loaded once
per process), and the greedy-equality check against the single-request oracle. Holds no tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import torch

from backend.config import ModelConfig
from backend.engine import Engine, EngineConfig
from backend.engine.engine import EngineOutput
from backend.generation import RequestStats, generate_tokens
from backend.model import ContiguousKVCache, LlamaForCausalLM
from backend.runtime import LoadedModel
from backend.sampling import SamplingParams
from tokenization.models import ModelSource

TINY = ModelConfig(vocab_size=96, hidden_size=64, intermediate_size=128, num_layers=2, num_heads=4,
                   num_kv_heads=2, head_dim=16, max_position_embeddings=1024, eos_token_id=1)
NEAR_TIE = 1e-3  # a greedy divergence is accepted only where the oracle's top-two logit margin is below this


class ByteTokenizer:
    """A stand-in tokenizer for the tiny model: token i decodes to a short fixed string."""

    def __init__(self, vocab_size: int, eos_token_id: int = 1) -> None:
        self.vocab_size = vocab_size
        self.eos_token_id = eos_token_id

    def _piece(self, token_id: int) -> str:
        return "" if token_id == self.eos_token_id else chr(ord("a") + token_id % 26) * (1 + token_id % 3)

    def decode(self, ids: Sequence[int], skip_special_tokens: bool = True) -> str:
        return "".join(self._piece(i) for i in ids)

    def encode(self, text: str) -> list[int]:
        return [2 + (ord(c) % (self.vocab_size - 2)) for c in text]

    def token_text(self, token_id: int) -> str:
        return self._piece(token_id)

    def encode_chat(self, messages) -> list[int]:
        return self.encode("".join(f"{m.get('role')}:{m.get('content')};" for m in messages))


def tiny_loaded(seed: int = 0, device: torch.device | str = "cpu") -> LoadedModel:
    """A 2-layer random-weight Llama with GQA, fp32 (on CPU unless ``device`` says otherwise)."""
    torch.manual_seed(seed)
    model = LlamaForCausalLM(TINY)
    with torch.no_grad():
        for p in model.parameters():
            p.normal_(0.0, 0.3)
    model.eval().to(device)
    return LoadedModel(model, ByteTokenizer(TINY.vocab_size), ModelSource(Path("tiny"), "gguf"), torch.float32,
                       torch.device(device))


def run_engine(engine: Engine, requests: Sequence[tuple[str, Sequence[int], SamplingParams]],
               max_steps: int = 100_000,
               stats: Mapping[str, RequestStats] | None = None) -> dict[str, dict[int, list[int]]]:
    """Add all requests (each with its ``stats`` entry when given), step until done; → request id →
    choice index → generated token ids."""
    tokens: dict[str, dict[int, list[int]]] = {rid: {} for rid, _, _ in requests}
    for rid, prompt, params in requests:
        if stats is None:
            engine.add(rid, prompt, params)
        else:
            engine.add(rid, prompt, params, stats=stats[rid])
    steps = 0
    while engine.has_unfinished():
        outs: list[EngineOutput] = engine.step()
        for out in outs:
            assert out.error is None, out.error
            for ev in out.events:
                if ev.token_id is not None:
                    tokens[out.request_id].setdefault(ev.index, []).append(ev.token_id)
        steps += 1
        assert steps < max_steps, "engine did not finish"
    return tokens


def oracle_tokens(loaded: LoadedModel, prompt: Sequence[int], params: SamplingParams) -> list[int]:
    return [ev.token_id for ev in generate_tokens(loaded, prompt, params) if ev.token_id is not None]


def teacher_forced_logits(loaded: LoadedModel, prompt: Sequence[int], prefix: Sequence[int]) -> torch.Tensor:
    """The single-request path's logits for the token after ``prompt + prefix``. → [V]"""
    ids = list(prompt) + list(prefix)
    cache = ContiguousKVCache(loaded.model.config, len(ids), loaded.dtype, loaded.device)
    hidden = loaded.model(torch.tensor(ids), torch.arange(len(ids)), cache)
    return loaded.model.compute_logits(hidden[-1:])[0]


def check_greedy_equal(loaded: LoadedModel, prompt: Sequence[int], expected: list[int], got: list[int],
                       grammar=None) -> str:
    """Assert ``got`` equals the oracle's ``expected`` or first diverges at a near-tie; → "equal" / "near-tie".
    ``grammar``: a compiled grammar of a constrained request, whose mask applies to the compared logits."""
    if got == expected:
        return "equal"
    first = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b), None)
    assert first is not None, f"lengths differ without a token divergence: {len(expected)} vs {len(got)}"
    logits = teacher_forced_logits(loaded, prompt, expected[:first])
    if grammar is not None:
        from backend.structured.masks import advance, mask_logits

        matcher = grammar.matcher()
        for token in expected[:first]:
            advance(matcher, token)
        logits = mask_logits(matcher, logits)
    top2 = torch.topk(logits, 2)
    margin = float(top2.values[0] - top2.values[1])
    pair = {int(top2.indices[0]), int(top2.indices[1])}
    assert {expected[first], got[first]} == pair and margin < NEAR_TIE, (
        f"divergence at output token {first}: oracle {expected[first]} vs engine {got[first]}, "
        f"top-two {sorted(pair)} margin {margin:.2e} (near-tie threshold {NEAR_TIE})")
    return "near-tie"


def tiny_engine(loaded: LoadedModel | None = None, **overrides) -> Engine:
    options = dict(block_size=4, num_blocks=256, max_model_len=512, max_num_seqs=16, max_num_batched_tokens=64)
    options.update(overrides)
    return Engine(loaded or tiny_loaded(), EngineConfig(**options))
