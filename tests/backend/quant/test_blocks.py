"""4-bit / 8-bit weights: decoding GGUF blocks (checked against gguf-py's own dequantizer) and quantizing floats."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from backend.quant.blocks import Int4Weight, decode_gguf_4bit, quantize_int4, quantize_int8


def random_blocks(type_name: str, rows: int, cols: int, seed: int = 0) -> np.ndarray:
    """Raw GGUF bytes ``[rows, blocks * block_bytes]`` with random fp16 scales/minimums and nibbles."""
    rng = np.random.default_rng(seed)
    blocks = cols // 32
    d = rng.uniform(0.001, 0.05, size=(rows, blocks, 1)).astype(np.float16).view(np.uint8)  # [N, B, 2]
    m = rng.uniform(-0.4, 0.0, size=(rows, blocks, 1)).astype(np.float16).view(np.uint8)
    nibbles = rng.integers(0, 256, size=(rows, blocks, 16), dtype=np.uint8)
    parts = [d, m, nibbles] if type_name == "Q4_1" else [d, nibbles]
    return np.concatenate(parts, axis=-1).reshape(rows, -1)


@pytest.mark.parametrize("type_name", ["Q4_0", "Q4_1"])
def test_gguf_blocks_decode_to_what_gguf_py_dequantizes(type_name: str) -> None:
    import gguf

    raw = random_blocks(type_name, rows=48, cols=96)
    ours = decode_gguf_4bit(raw, type_name, rows=48, cols=96)
    theirs = gguf.quants.dequantize(raw, getattr(gguf.GGMLQuantizationType, type_name))  # [48, 96]
    assert ours.values.dtype == torch.uint8 and int(ours.values.max()) <= 15
    assert ours.scale.shape == (48, 3) and ours.minimum.shape == (48, 3)
    assert torch.equal(ours.dequantize(), torch.from_numpy(np.asarray(theirs, dtype=np.float32)))


def test_decode_refuses_other_types_and_partial_blocks() -> None:
    with pytest.raises(ValueError, match="not a 4-bit GGUF block type"):
        decode_gguf_4bit(np.zeros((2, 34), np.uint8), "Q8_0", 2, 32)
    with pytest.raises(ValueError, match="whole number"):
        decode_gguf_4bit(np.zeros((2, 20), np.uint8), "Q4_1", 2, 40)


def test_int4_quantization_error_is_within_half_a_step() -> None:
    torch.manual_seed(0)
    w = torch.randn(64, 128)
    q = quantize_int4(w)
    error = (q.dequantize() - w).abs().view(64, 4, 32)  # [N, K/g, g]
    assert bool((error <= q.scale[..., None] / 2 + 1e-6).all())
    constant = quantize_int4(torch.full((16, 32), 0.25))  # a flat group: scale 0, exact
    assert torch.equal(constant.dequantize(), torch.full((16, 32), 0.25))
    with pytest.raises(ValueError, match="multiple of the group size"):
        quantize_int4(torch.randn(16, 40))


def test_int8_quantization_error_is_within_half_a_step() -> None:
    torch.manual_seed(1)
    w = torch.randn(32, 96)
    q = quantize_int8(w)
    assert q.values.dtype == torch.int8 and q.scale.shape == (32,)
    assert bool(((q.dequantize() - w).abs() <= q.scale[:, None] / 2 + 1e-6).all())
    assert torch.equal(quantize_int8(torch.zeros(16, 32)).dequantize(), torch.zeros(16, 32))


def test_rows_can_be_reordered_and_stacked() -> None:
    torch.manual_seed(2)
    a, b = quantize_int4(torch.randn(32, 64)), quantize_int4(torch.randn(16, 64))
    stacked = Int4Weight.cat([a, b])
    assert torch.equal(stacked.dequantize(), torch.cat([a.dequantize(), b.dequantize()]))
    order = torch.arange(31, -1, -1)
    assert torch.equal(a.select_rows(order).dequantize(), a.dequantize()[order])
