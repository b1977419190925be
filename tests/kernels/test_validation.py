"""Bad input raises ValueError naming the argument, on both the reference and the Triton path."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch

import kernels
from tests.kernels.helpers import make_paged_cache, requires_triton

NB, BS, HK, HQ, D = 6, 4, 2, 6, 64


def _decode_args(**over: Any) -> dict[str, Any]:
    cache = make_paged_cache([5, 9], HK, D, BS, torch.float16)
    args: dict[str, Any] = dict(
        q=torch.randn(2, HQ, D).half(),
        k_cache=cache.k_cache,
        v_cache=cache.v_cache,
        block_tables=cache.block_tables,
        context_lens=cache.context_lens,
    )
    args.update(over)
    return args


def _prefill_args(**over: Any) -> dict[str, Any]:
    args = _decode_args()
    args["q"] = torch.randn(6, HQ, D).half()
    args["cu_seqlens_q"] = torch.tensor([0, 2, 6], dtype=torch.int32)
    args.update(over)
    return args


def _store_args(**over: Any) -> dict[str, Any]:
    args: dict[str, Any] = dict(
        key=torch.randn(3, HK, D),
        value=torch.randn(3, HK, D),
        k_cache=torch.zeros(NB, BS, HK, D),
        v_cache=torch.zeros(NB, BS, HK, D),
        slot_mapping=torch.tensor([0, 5, -1]),
    )
    args.update(over)
    return args


def _rope_args(**over: Any) -> dict[str, Any]:
    cos, sin = kernels.rope_cos_sin(D, 16)
    args: dict[str, Any] = dict(
        q=torch.randn(3, HQ, D), k=torch.randn(3, HK, D), positions=torch.tensor([0, 1, 15]), cos=cos, sin=sin
    )
    args.update(over)
    return args


def _int8_cache() -> torch.Tensor:
    return torch.zeros(NB, BS, HK, D, dtype=torch.int8)


BAD: dict[str, tuple[Callable[..., Any], Callable[[], dict[str, Any]], str]] = {
    # decode
    "decode-q-2d": (kernels.paged_decode_attention, lambda: _decode_args(q=torch.randn(2, HQ * D).half()), "q"),
    "decode-q-int": (kernels.paged_decode_attention, lambda: _decode_args(q=torch.zeros(2, HQ, D, dtype=torch.int32)), "q"),
    "decode-q-last-stride": (
        kernels.paged_decode_attention, lambda: _decode_args(q=torch.randn(2, D, HQ).half().transpose(1, 2)), "q"),
    "decode-q-batch": (kernels.paged_decode_attention, lambda: _decode_args(q=torch.randn(3, HQ, D).half()), "q"),
    "decode-gqa-not-multiple": (kernels.paged_decode_attention, lambda: _decode_args(q=torch.randn(2, 5, D).half()), "q"),
    "decode-head-dim": (kernels.paged_decode_attention, lambda: _decode_args(q=torch.randn(2, HQ, 32).half()), "q"),
    "decode-cache-dtype": (
        kernels.paged_decode_attention, lambda: _decode_args(q=torch.randn(2, HQ, D).bfloat16()), "k_cache"),
    "decode-v-shape": (
        kernels.paged_decode_attention, lambda: _decode_args(v_cache=torch.zeros(NB, BS, HK, D + 1).half()), "v_cache"),
    "decode-bt-dtype": (
        kernels.paged_decode_attention, lambda: _decode_args(block_tables=torch.zeros(2, 4)), "block_tables"),
    "decode-bt-noncontig": (
        kernels.paged_decode_attention,
        lambda: _decode_args(block_tables=torch.zeros(4, 2, dtype=torch.int32).t()), "block_tables"),
    "decode-ctx-shape": (
        kernels.paged_decode_attention, lambda: _decode_args(context_lens=torch.tensor([1], dtype=torch.int32)),
        "context_lens"),
    "decode-ctx-too-long": (
        kernels.paged_decode_attention, lambda: _decode_args(context_lens=torch.tensor([5, 99], dtype=torch.int32)),
        "context_lens"),
    "decode-page-out-of-range": (
        kernels.paged_decode_attention,
        lambda: _decode_args(block_tables=torch.tensor([[0, 1, 2, 3], [1000, 0, 0, 0]], dtype=torch.int32)),
        "block_tables"),
    "decode-int8-no-scale": (
        kernels.paged_decode_attention, lambda: _decode_args(k_cache=_int8_cache(), v_cache=_int8_cache()), "k_scale"),
    "decode-scale-on-fp-cache": (
        kernels.paged_decode_attention, lambda: _decode_args(k_scale=torch.ones(NB, BS, HK)), "k_scale"),
    "decode-bad-scale-value": (kernels.paged_decode_attention, lambda: _decode_args(scale=-1.0), "scale"),
    "decode-int8-scale-shape": (
        kernels.paged_decode_attention,
        lambda: _decode_args(k_cache=_int8_cache(), v_cache=_int8_cache(), k_scale=torch.ones(NB, BS),
                             v_scale=torch.ones(NB, BS, HK)), "k_scale"),
    "decode-not-a-tensor": (kernels.paged_decode_attention, lambda: _decode_args(context_lens=[5, 9]), "context_lens"),
    # prefill
    "prefill-cu-shape": (
        kernels.paged_prefill_attention, lambda: _prefill_args(cu_seqlens_q=torch.tensor([0, 6], dtype=torch.int32)),
        "cu_seqlens_q"),
    "prefill-cu-end": (
        kernels.paged_prefill_attention,
        lambda: _prefill_args(cu_seqlens_q=torch.tensor([0, 2, 5], dtype=torch.int32)), "cu_seqlens_q"),
    "prefill-more-new-than-context": (
        kernels.paged_prefill_attention,
        lambda: _prefill_args(cu_seqlens_q=torch.tensor([0, 6, 6], dtype=torch.int32)), "context_lens"),
    # store
    "store-value-dtype": (kernels.store_kv_cache, lambda: _store_args(value=torch.randn(3, HK, D).half()), "value"),
    "store-key-heads": (kernels.store_kv_cache, lambda: _store_args(key=torch.randn(3, HK + 1, D),
                                                                      value=torch.randn(3, HK + 1, D)), "key"),
    "store-cache-dtype": (
        kernels.store_kv_cache,
        lambda: _store_args(k_cache=torch.zeros(NB, BS, HK, D).half(), v_cache=torch.zeros(NB, BS, HK, D).half()),
        "k_cache"),
    "store-slot-shape": (kernels.store_kv_cache, lambda: _store_args(slot_mapping=torch.tensor([0, 1])), "slot_mapping"),
    "store-slot-dtype": (kernels.store_kv_cache, lambda: _store_args(slot_mapping=torch.tensor([0.0, 1.0, 2.0])),
                         "slot_mapping"),
    "store-slot-range": (kernels.store_kv_cache, lambda: _store_args(slot_mapping=torch.tensor([0, NB * BS, 1])),
                         "slot_mapping"),
    "store-slot-duplicate": (kernels.store_kv_cache, lambda: _store_args(slot_mapping=torch.tensor([3, 3, 1])),
                             "slot_mapping"),
    "store-int8-needs-scales": (
        kernels.store_kv_cache, lambda: _store_args(k_cache=_int8_cache(), v_cache=_int8_cache()), "k_scale"),
    "store-device": (kernels.store_kv_cache, lambda: _store_args(k_cache=torch.zeros(NB, BS, HK, D, device="meta"),
                                                                   v_cache=torch.zeros(NB, BS, HK, D, device="meta")),
                     "k_cache"),
    # rotary
    "rope-positions-range": (kernels.rotary_embedding, lambda: _rope_args(positions=torch.tensor([0, 1, 16])),
                             "positions"),
    "rope-positions-dtype": (kernels.rotary_embedding, lambda: _rope_args(positions=torch.tensor([0.0, 1.0, 2.0])),
                             "positions"),
    "rope-k-dtype": (kernels.rotary_embedding, lambda: _rope_args(k=torch.randn(3, HK, D).half()), "k"),
    "rope-cos-shape": (kernels.rotary_embedding, lambda: _rope_args(cos=torch.zeros(16, D)), "cos"),
    "rope-cos-dtype": (kernels.rotary_embedding, lambda: _rope_args(cos=torch.zeros(16, D // 2).half()), "cos"),
    "rope-odd-head-dim": (kernels.rotary_embedding, lambda: _rope_args(q=torch.randn(3, HQ, 5), k=torch.randn(3, HK, 5)),
                          "q"),
    # norm / activation
    "rms-weight-shape": (kernels.rms_norm, lambda: dict(x=torch.randn(3, 8), weight=torch.ones(9), eps=1e-5), "weight"),
    "rms-x-3d": (kernels.rms_norm, lambda: dict(x=torch.randn(2, 3, 8), weight=torch.ones(8), eps=1e-5), "x"),
    "rms-eps": (kernels.rms_norm, lambda: dict(x=torch.randn(3, 8), weight=torch.ones(8), eps=-1.0), "eps"),
    "rms-x-last-stride": (kernels.rms_norm, lambda: dict(x=torch.randn(8, 3).t(), weight=torch.ones(8), eps=1e-5), "x"),
    "fused-residual-shape": (
        kernels.fused_add_rms_norm,
        lambda: dict(x=torch.randn(3, 8), residual=torch.randn(4, 8), weight=torch.ones(8), eps=1e-5), "residual"),
    "fused-residual-dtype": (
        kernels.fused_add_rms_norm,
        lambda: dict(x=torch.randn(3, 8), residual=torch.randn(3, 8).half(), weight=torch.ones(8), eps=1e-5),
        "residual"),
    "silu-odd": (kernels.silu_and_mul, lambda: dict(x=torch.randn(3, 7)), "x"),
    "silu-int": (kernels.silu_and_mul, lambda: dict(x=torch.zeros(3, 8, dtype=torch.int64)), "x"),
}


@pytest.mark.parametrize("mode", ["reference", pytest.param("triton", marks=requires_triton)])
@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_raises_value_error_naming_argument(case, mode):
    fn, make_args, name = BAD[case]
    with pytest.raises(ValueError, match=rf"^{name}\b"):
        fn(**make_args(), use_triton=(mode == "triton"))


def test_dequantize_validates():
    with pytest.raises(ValueError, match="^q"):
        kernels.dequantize_kv_int8(torch.zeros(2, 4), torch.ones(2))
    with pytest.raises(ValueError, match="^scale"):
        kernels.dequantize_kv_int8(torch.zeros(2, 4, dtype=torch.int8), torch.ones(3))
    with pytest.raises(ValueError, match="^x"):
        kernels.quantize_kv_int8(torch.zeros(2, 4, dtype=torch.int8))
