"""Our Llama forward against transformers' on the real SmolLM2 GGUF weights."""

from __future__ import annotations

import pytest
import torch

from backend.generation import generate_tokens
from backend.model import ContiguousKVCache
from backend.sampling import SamplingParams

pytestmark = pytest.mark.slow

PROMPTS = [
    [{"role": "user", "content": "What is the capital of France?"}],
    [{"role": "system", "content": "You answer in one word."}, {"role": "user", "content": "Name a colour."}],
    [{"role": "user", "content": "Write a Python function that adds two numbers."}],
    [{"role": "user", "content": "Explain photosynthesis to a child, with émojis 🌱 and accents: café, naïve."}],
]


def _our_logits(loaded, ids: list[int]) -> torch.Tensor:
    cache = ContiguousKVCache(loaded.model.config, len(ids), torch.float32, "cpu")
    hidden = loaded.model(torch.tensor(ids), torch.arange(len(ids)), cache)
    return loaded.model.compute_logits(hidden)  # [T, V]


@pytest.mark.parametrize("messages", PROMPTS)
def test_logits_match_transformers_within_1e3(smollm2, hf_oracle, messages):
    ids = smollm2.tokenizer.encode_chat(messages)
    ours = _our_logits(smollm2, ids)
    with torch.no_grad():
        ref = hf_oracle(torch.tensor([ids])).logits[0].float()
    assert ours.shape == ref.shape
    assert (ours - ref).abs().max().item() < 1e-3


def test_incremental_decode_matches_full_forward(smollm2):
    """Prefill then one-token steps through the KV cache gives the same logits as one big forward."""
    ids = smollm2.tokenizer.encode_chat(PROMPTS[0])
    full = _our_logits(smollm2, ids)
    cache = ContiguousKVCache(smollm2.model.config, len(ids), torch.float32, "cpu")
    smollm2.model(torch.tensor(ids[:-3]), torch.arange(len(ids) - 3), cache)
    for i in range(len(ids) - 3, len(ids)):
        hidden = smollm2.model(torch.tensor([ids[i]]), torch.tensor([i]), cache)
        step = smollm2.model.compute_logits(hidden)[0]
        assert (step - full[i]).abs().max().item() < 1e-3


@pytest.mark.parametrize("messages", PROMPTS[:3])
def test_greedy_generation_matches_transformers_token_for_token(smollm2, hf_oracle, messages):
    ids = smollm2.tokenizer.encode_chat(messages)
    params = SamplingParams(max_tokens=24, temperature=0.0)
    ours = [e.token_id for e in generate_tokens(smollm2, ids, params)]  # ends with EOS if one was chosen
    with torch.no_grad():
        out = hf_oracle.generate(torch.tensor([ids]), max_new_tokens=24, do_sample=False, pad_token_id=2)
    assert len(ours) >= 5
    assert ours == out[0, len(ids):].tolist()


def test_answers_the_capital_of_france(smollm2):
    ids = smollm2.tokenizer.encode_chat(PROMPTS[0])
    text = "".join(e.text for e in generate_tokens(smollm2, ids, SamplingParams(max_tokens=30, temperature=0)))
    assert "Paris" in text
