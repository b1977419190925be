"""Dequantizing GGUF's 32-element blocks (Q4_0, Q4_1, Q8_0) with whole-tensor torch ops.

The ``gguf`` package's numpy dequantizer splits and reshapes per row group in Python: for SmolLM2's 211 quantized
tensors it took ~2 s of every model load on a 2-core EPYC. These are the same formulas, in the same float32
operations (each product and sum rounded once, as numpy rounds them), so the values are the same bits
(``tests/backend/test_gguf_dequant.py`` compares them tensor by tensor on the real file). Other types return None
and the caller keeps ``gguf``'s dequantizer.

Block layouts (ggml): Q4_0 = f16 scale ``d`` + 16 bytes of 4-bit codes (low nibbles are elements 0-15, high nibbles
16-31), value ``(q - 8) * d``; Q4_1 = ``d``, f16 minimum ``m``, 16 bytes of codes, value ``q * d + m``; Q8_0 = ``d`` +
32 signed bytes, value ``q * d``.
"""

from __future__ import annotations

import warnings

import numpy as np
import torch

BLOCK = 32  # elements per block
BLOCK_BYTES = {"Q4_0": 18, "Q4_1": 20, "Q8_0": 34}


def _half(blocks: torch.Tensor, offset: int) -> torch.Tensor:
    """The f16 field at byte ``offset`` of each block: [B, size] uint8 → [B, 1] float32."""
    return blocks[:, offset:offset + 2].contiguous().view(torch.float16).float()


def _nibbles(codes: torch.Tensor) -> torch.Tensor:
    """[B, 16] uint8 → [B, 32] uint8: low nibbles (elements 0-15), then high nibbles (16-31)."""
    return torch.cat([codes & 0x0F, codes >> 4], dim=1)


def dequantize_blocks(data: np.ndarray, type_name: str) -> np.ndarray | None:
    """``data`` (uint8 ``[..., row bytes]``, a GGUF tensor's blocks) of type ``type_name`` → float32 ``[..., row
    elements]``, or None for a type other than Q4_0, Q4_1 and Q8_0."""
    size = BLOCK_BYTES.get(type_name)
    if size is None or data.dtype != np.uint8 or data.shape[-1] % size:
        return None
    with warnings.catch_warnings():  # the file's read-only mapping: only read here
        warnings.simplefilter("ignore", UserWarning)
        raw = torch.from_numpy(np.ascontiguousarray(data))
    blocks = raw.reshape(-1, size)  # [B, size]
    d = _half(blocks, 0)  # [B, 1]
    if type_name == "Q8_0":
        out = blocks[:, 2:].contiguous().view(torch.int8).float() * d  # [B, 32]
    elif type_name == "Q4_0":
        out = d * (_nibbles(blocks[:, 2:]).to(torch.int8) - 8).float()
    else:  # Q4_1
        out = d * _nibbles(blocks[:, 4:]).float() + _half(blocks, 2)
    return out.reshape(*data.shape[:-1], data.shape[-1] // size * BLOCK).numpy()
