"""Group-quantized weights: decoding GGUF's Q4_0 / Q4_1 / Q8_0 blocks and quantizing float weights.

A 4-bit weight is ``w = scale * q + minimum`` per group of ``group_size`` consecutive input columns
(``q`` in 0..15), which is Q4_1's own form; Q4_0 (``w = d * (q - 8)``) is the same with
``minimum = -8 d``. An 8-bit weight is ``w = scale * q`` with one scale per output row (``q`` in
-127..127), the form torch's ``_weight_int8pack_mm`` reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

GROUP_SIZE = 32  # GGUF's block length for Q4_0 / Q4_1 / Q8_0
_BLOCK_BYTES = {"Q4_0": 18, "Q4_1": 20}
FOUR_BIT_GGUF_TYPES = tuple(_BLOCK_BYTES)


@dataclass(frozen=True, slots=True)
class Int4Weight:
    """A 4-bit group-quantized ``[N, K]`` weight: ``w[n, k] = scale[n, k // g] * values[n, k] + minimum[n, k // g]``."""

    values: torch.Tensor  # [N, K] uint8, 0..15
    scale: torch.Tensor  # [N, K / g] float32
    minimum: torch.Tensor  # [N, K / g] float32
    group_size: int = GROUP_SIZE

    @property
    def shape(self) -> tuple[int, int]:
        return tuple(self.values.shape)

    def dequantize(self) -> torch.Tensor:
        """→ float32 ``[N, K]``."""
        n, k = self.values.shape
        groups = self.values.view(n, k // self.group_size, self.group_size).float()  # [N, K/g, g]
        return (groups * self.scale[..., None] + self.minimum[..., None]).view(n, k)

    def select_rows(self, index: torch.Tensor) -> Int4Weight:
        """The same weight with its output rows reordered (``index``: [N])."""
        return Int4Weight(self.values[index], self.scale[index], self.minimum[index], self.group_size)

    @staticmethod
    def cat(parts: list[Int4Weight]) -> Int4Weight:
        """Output rows of several weights (same K and group size) stacked in order."""
        return Int4Weight(torch.cat([p.values for p in parts]), torch.cat([p.scale for p in parts]),
                          torch.cat([p.minimum for p in parts]), parts[0].group_size)


@dataclass(frozen=True, slots=True)
class Int8Weight:
    """An 8-bit per-output-row weight: ``w[n, k] = scale[n] * values[n, k]``."""

    values: torch.Tensor  # [N, K] int8
    scale: torch.Tensor  # [N] float32

    def dequantize(self) -> torch.Tensor:
        """→ float32 ``[N, K]``."""
        return self.values.float() * self.scale[:, None]


def decode_gguf_4bit(data: np.ndarray, type_name: str, rows: int, cols: int) -> Int4Weight:
    """A GGUF tensor's raw Q4_0 / Q4_1 bytes (``[rows, blocks * block_bytes]`` uint8) → :class:`Int4Weight`.

    Block layout (ggml): fp16 ``d``, (Q4_1 only) fp16 ``m``, then 16 bytes whose low nibbles are
    elements 0..15 of the block and high nibbles elements 16..31."""
    if type_name not in _BLOCK_BYTES:
        raise ValueError(f"not a 4-bit GGUF block type: {type_name}")
    if cols % GROUP_SIZE:
        raise ValueError(f"{cols} columns is not a whole number of {GROUP_SIZE}-element blocks")
    blocks, width = cols // GROUP_SIZE, _BLOCK_BYTES[type_name]
    raw = torch.from_numpy(np.array(data, dtype=np.uint8, copy=True)).reshape(rows, blocks, width)
    scale = raw[..., 0:2].contiguous().view(torch.float16).float().squeeze(-1)  # [N, B]
    if type_name == "Q4_1":
        minimum = raw[..., 2:4].contiguous().view(torch.float16).float().squeeze(-1)  # [N, B]
        packed = raw[..., 4:]  # [N, B, 16]
    else:
        minimum, packed = -8.0 * scale, raw[..., 2:]
    values = torch.cat([packed & 0x0F, packed >> 4], dim=-1)  # [N, B, 32]
    return Int4Weight(values.reshape(rows, cols).contiguous(), scale.contiguous(), minimum.contiguous())


def quantize_int4(weight: torch.Tensor, group_size: int = GROUP_SIZE) -> Int4Weight:
    """Float ``[N, K]`` → asymmetric 4-bit groups (min/max per group, as Q4_1 does)."""
    n, k = weight.shape
    if k % group_size:
        raise ValueError(f"{k} input columns is not a multiple of the group size {group_size}")
    groups = weight.detach().float().reshape(n, k // group_size, group_size)  # [N, K/g, g]
    low, high = groups.amin(-1), groups.amax(-1)  # [N, K/g]
    scale = (high - low) / 15
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))
    values = ((groups - low[..., None]) / safe[..., None]).round().clamp(0, 15).to(torch.uint8)
    return Int4Weight(values.reshape(n, k), scale, low, group_size)


def quantize_int8(weight: torch.Tensor) -> Int8Weight:
    """Float ``[N, K]`` → symmetric 8-bit values with one scale per output row."""
    w = weight.detach().float()
    scale = w.abs().amax(dim=1) / 127  # [N]
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))
    return Int8Weight((w / safe[:, None]).round().clamp(-127, 127).to(torch.int8), scale)


def quantize_q8_blocks(weight: torch.Tensor, block: int = GROUP_SIZE) -> tuple[torch.Tensor, torch.Tensor]:
    """Float ``[N, K]`` → symmetric 8-bit values ``[N, K]`` (-127..127) with one scale per block of ``block``
    input columns ``[N, K / block]``, rounded to float16 first (Q8_0's form: re-quantizing a weight that was
    dequantized from Q8_0 gives back the file's values)."""
    n, k = weight.shape
    if k % block:
        raise ValueError(f"{k} input columns is not a multiple of the block size {block}")
    blocks = weight.detach().float().reshape(n, k // block, block)  # [N, B, 32]
    scale = (blocks.abs().amax(-1) / 127).to(torch.float16).float()  # [N, B]
    safe = torch.where(scale > 0, scale, torch.ones_like(scale))
    values = (blocks / safe[..., None]).round().clamp(-127, 127).to(torch.int8)
    return values.reshape(n, k), scale
