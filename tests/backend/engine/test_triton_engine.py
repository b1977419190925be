"""The engine and the model with the Triton kernels (interpreted on CPU) against the PyTorch references.

The tiny random-weight Llama runs the same requests twice through the ``kernels`` attention backend:
once with every op forced to Triton (:func:`kernels.force_triton`), once on the references. Greedy
outputs must be identical, with the KV pool in the model dtype and in int8.
"""

from __future__ import annotations

import sys

import pytest
import torch

import kernels
from backend.model import ContiguousKVCache
from backend.sampling import SamplingParams
from tests.backend.test_engine_support import TINY, run_engine, tiny_engine, tiny_loaded
from tests.kernels.helpers import requires_triton

pytestmark = requires_triton

REQUESTS = [
    ("a", [5, 17, 40, 3, 42, 8, 9], SamplingParams(max_tokens=5, temperature=0.0, ignore_eos=True)),
    ("b", [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20], SamplingParams(max_tokens=4, temperature=0.0, ignore_eos=True)),
    ("c", [5, 17, 40, 3, 42, 60], SamplingParams(max_tokens=5, temperature=0.0, ignore_eos=True)),
]


@pytest.fixture(scope="module")
def loaded():
    return tiny_loaded()


@pytest.mark.parametrize("kv_cache_dtype", ["auto", "int8"])
def test_engine_greedy_triton_equals_reference(loaded, kv_cache_dtype: str) -> None:
    outputs = {}
    for triton in (False, True):
        # chunked prefill (budget 8) mixes prefill chunks with decodes; prefix caching shares "a"'s first block
        engine = tiny_engine(loaded, attention_backend="kernels", kv_cache_dtype=kv_cache_dtype,
                             max_num_batched_tokens=8, num_blocks=32)
        with kernels.force_triton(triton):
            outputs[triton] = run_engine(engine, REQUESTS)
    assert outputs[True] == outputs[False]
    ops = ("norm", "rotary", "activation", "kv_store", "paged_decode", "paged_prefill")
    assert all(f"kernels.{op}" in sys.modules for op in ops)  # every op really ran its Triton kernel
    assert all(len(outputs[True][rid][0]) == p.max_tokens for rid, _, p in REQUESTS)


def test_model_forward_with_triton_equals_plain(loaded) -> None:
    ids = torch.tensor([3, 14, 15, 92, 65, 35, 89, 79, 32, 38])
    positions = torch.arange(ids.shape[0])
    hidden = {}
    for triton in (False, True):
        cache = ContiguousKVCache(TINY, 16, torch.float32, "cpu")
        with kernels.force_triton(triton):
            hidden[triton] = loaded.model(ids, positions, cache)  # [T, H]
    torch.testing.assert_close(hidden[True], hidden[False], atol=2e-5, rtol=2e-5)
    assert not torch.equal(hidden[False][0], hidden[False][1])  # a real forward, not a constant
