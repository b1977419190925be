"""Our block dequantizer (:mod:`backend.gguf_dequant`) against the ``gguf`` package's: the same float32 bits for
every tensor of the real SmolLM2 file, and for random blocks of each type (any scale, NaN and infinity included)."""

from __future__ import annotations

import gguf
import numpy as np
import pytest

from backend.gguf_dequant import BLOCK_BYTES, dequantize_blocks
from backend.weights import open_gguf
from tokenization.models import resolve_model


def _bits(values: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)


def test_every_block_tensor_of_the_real_file_dequantizes_to_ggufs_bits() -> None:
    reader = open_gguf(resolve_model(None).path)
    seen = set()
    for tensor in reader.tensors:
        got = dequantize_blocks(tensor.data, tensor.tensor_type.name)
        if tensor.tensor_type.name not in BLOCK_BYTES:
            assert got is None
            continue
        seen.add(tensor.tensor_type.name)
        expected = gguf.quants.dequantize(tensor.data, tensor.tensor_type)
        assert got.shape == expected.shape and np.array_equal(_bits(got), _bits(expected)), tensor.name
    assert seen == {"Q4_1", "Q8_0"}  # the types this file uses


@pytest.mark.parametrize("type_name", sorted(BLOCK_BYTES))
def test_random_blocks_dequantize_to_ggufs_bits(type_name: str) -> None:
    rng = np.random.default_rng(7)
    rows, blocks = 5, 6
    data = rng.integers(0, 256, size=(rows, blocks * BLOCK_BYTES[type_name]), dtype=np.uint8)
    data[0, :2] = np.array([np.inf], dtype=np.float16).view(np.uint8)  # an infinite scale
    data[1, :2] = np.array([np.nan], dtype=np.float16).view(np.uint8)
    got = dequantize_blocks(data, type_name)
    expected = gguf.quants.dequantize(data, gguf.GGMLQuantizationType[type_name])
    assert got.shape == expected.shape == (rows, blocks * 32)
    assert np.array_equal(_bits(got), _bits(expected))


def test_other_types_and_ragged_rows_are_left_to_gguf() -> None:
    assert dequantize_blocks(np.zeros((2, 64), dtype=np.uint8), "Q6_K") is None
    assert dequantize_blocks(np.zeros((2, 19), dtype=np.uint8), "Q4_0") is None  # not whole blocks
    assert dequantize_blocks(np.zeros((2, 8), dtype=np.float32), "Q8_0") is None
