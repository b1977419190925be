"""The engine and the model with the Triton kernels (compiled on CUDA where there is a GPU, interpreted
on CPU elsewhere) against the PyTorch references.

The tiny random-weight Llama runs the same requests twice through the ``kernels`` attention backend:
once with every op forced to Triton (:func:`kernels.force_triton`), once on the references. Greedy
outputs must be identical, with the KV pool in the model dtype and in int8.
"""

from __future__ import annotations

import pytest
import torch

import kernels
from backend.model import ContiguousKVCache
from backend.sampling import SamplingParams
from tests.backend.test_engine_support import TINY, run_engine, tiny_engine, tiny_loaded
from tests.kernels.helpers import kernel_device, requires_triton

pytestmark = requires_triton

REQUESTS = [
    ("a", [5, 17, 40, 3, 42, 8, 9], SamplingParams(max_tokens=5, temperature=0.0, ignore_eos=True)),
    ("b", [7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 20], SamplingParams(max_tokens=4, temperature=0.0, ignore_eos=True)),
    ("c", [5, 17, 40, 3, 42, 60], SamplingParams(max_tokens=5, temperature=0.0, ignore_eos=True)),
]


@pytest.fixture(scope="module")
def loaded():
    return tiny_loaded(device=kernel_device())


@pytest.mark.parametrize("kv_cache_dtype", ["auto", "int8"])
def test_engine_greedy_triton_equals_reference(loaded, kv_cache_dtype: str) -> None:
    outputs, launched = {}, {}
    for triton in (False, True):
        # chunked prefill (budget 8) mixes prefill chunks with decodes; prefix caching shares "a"'s first block
        engine = tiny_engine(loaded, attention_backend="kernels", kv_cache_dtype=kv_cache_dtype,
                             max_num_batched_tokens=8, num_blocks=32)
        with kernels.force_triton(triton), kernels.record_launches() as calls:
            outputs[triton] = run_engine(engine, REQUESTS)
        launched[triton] = set(calls)
    assert outputs[True] == outputs[False]
    assert launched[False] == set()  # the reference run never reached a Triton launcher
    ops = {"fused_add_rms_norm", "rotary_embedding", "silu_and_mul", "store_kv_cache", "paged_decode_attention",
           "paged_prefill_attention"}
    assert ops <= launched[True], ops - launched[True]  # every op really went to its Triton kernel
    assert all(len(outputs[True][rid][0]) == p.max_tokens for rid, _, p in REQUESTS)


def test_model_forward_with_triton_equals_plain(loaded) -> None:
    ids = torch.tensor([3, 14, 15, 92, 65, 35, 89, 79, 32, 38], device=kernel_device())
    positions = torch.arange(ids.shape[0], device=kernel_device())
    hidden = {}
    for triton in (False, True):
        cache = ContiguousKVCache(TINY, 16, torch.float32, kernel_device())
        with kernels.force_triton(triton):
            hidden[triton] = loaded.model(ids, positions, cache)  # [T, H]
    torch.testing.assert_close(hidden[True], hidden[False], atol=2e-5, rtol=2e-5)
    assert not torch.equal(hidden[False][0], hidden[False][1])  # a real forward, not a constant
