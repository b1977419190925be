"""A native CPU matmul over 4-bit (and 8-bit) weights repacked into panels of 16 outputs: one summation order
per output, whatever the row count, and the same bits on AVX-512, AVX2 and plain C++.

The block kernel of :mod:`backend.quant.native_mm` keeps 8 partial sums per block in vector lanes and
scales each lane: ~7 vector operations per 64 multiply-adds and row, so it is compute-bound from the first
row (a prefill of 512 rows ran at a third of oneDNN's bf16 GEMM). This kernel repacks each weight at load,
as llama.cpp repacks Q4 blocks for its AVX-512 GEMM, so that a vector lane is one *output*:

* **weights**: Q4_1's form ``w = d * q + m`` in blocks of 32 along K; outputs in panels of 16. A panel's
  block is 4 vectors of 64 bytes: lane ``l`` (output ``16 p + l``), byte ``i`` of vector ``j`` holds the
  codes of inputs ``32 b + 8 j + i`` (low nibble) and ``32 b + 8 j + 4 + i`` (high nibble):
  ``codes [N/16, K/32, 4, 16, 4] uint8``; ``scales [N/16, K/32, 2, 16] float16`` (``d`` then ``m``).
* **activations**: each row quantized once per call in blocks of 32 to one or two signed 8-bit levels (the
  ``levels`` argument): one level is llama.cpp's Q8 activation, ``x ≈ d * q`` with ``d = max|x| / 127``; two
  add the rounding rest in steps of ``d / 128``, as in :mod:`backend.quant.native_mm`
  (``x ≈ (d / 128) * (128 q + r)``, ~15 significant bits); and the block's exact float sum for the minimum term.
* **per output, per block**: the exact integer ``Σ q_w * q`` (or ``Σ q_w * (128 q + r)``; byte dot products of
  4 inputs against a broadcast activation group: ``vpdpbusd``, or ``vpmaddubsw`` + ``vpmaddwd``), converted to
  float (exact: below 2^24), then ``acc = fma(d_w * d_x, dot, acc)`` and ``acc = fma(m_w, Σx, acc)``, blocks
  in ascending order. No horizontal sum anywhere: every output's arithmetic is the same sequence of
  IEEE operations in every code path and for every row count (batch invariance, and a test that holds the
  AVX-512, AVX2 and portable builds to the same bits).

Per 16 outputs x 32 inputs x row and level: 8 byte dot products and ~3 other vector operations, against ~56
for two levels in the block kernel; the weight unpacking is shared by up to 4 rows. One level halves the dot
products: prefill ran ~1.5x faster, at +0.12 % perplexity where the attention's Q/K/V keep two levels
(:func:`backend.quant.convert.activation_levels`; BENCHMARKS.md, "One activation level"). The 8-bit form
(Q8_0's ``w = d * c``, for the LM head, always two levels) stores ``c + 128`` so the codes are unsigned for
``vpdpbusd`` and subtracts ``128 * Σ(128 q + r)``, exactly; the AVX2 path multiplies ``|c|`` by the activation
with ``c``'s sign instead (no saturation).

**AMX** (Intel CPUs with AMX-INT8, where gcc's ``-march=native`` enables it and Linux grants the tile state): a
call of 16 rows or more runs them 16 at a time as tile multiplies (``tdpbssd``: each block's exact integer dots
for 16 rows x 16 outputs), followed by the same per-row float steps; the rows past the last multiple of 16 take
the vector path. The integers are exact either way, so the bits are those of every other path and row count.
``THRIFTY_NATIVE_AMX=0`` keeps the vector path. Building needs a C++ compiler at run time;
:func:`load_panel_mm` returns None where it cannot, or with ``THRIFTY_PANEL_MM=0``.

Its C++ is ``backend/native/panel_mm.cpp``, built with the other native parts as :mod:`backend.native_build` describes.
"""

from __future__ import annotations

import functools
from typing import Any

import torch

from backend.native_build import load_for_march

PANEL = 16  # outputs per panel (one 512-bit vector of float32)
BLOCK = 32  # inputs per weight block and per activation block


@functools.cache
def load_panel_mm(march: str = "native") -> Any | None:
    """Build (once per CPU and ``march``, cached on disk) and load the operator's ``torch.ops`` namespace, or
    None where it cannot be built here (no compiler, ``THRIFTY_PANEL_MM=0``). ``march``: gcc's ``-march``
    (``haswell``: the AVX2 path, ``x86-64``: the portable loop), as :func:`backend.quant.native_mm.load_block_mm`."""
    return load_for_march("panel_mm", march, "THRIFTY_PANEL_MM", "the native 4-bit panel matmul", "the block kernel")


def pack_q4_panels(values: torch.Tensor, scale: torch.Tensor, minimum: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """4-bit groups of 32 (``values [N, K]`` 0..15, ``scale``/``minimum [N, K/32]``, N a multiple of 16) →
    ``(codes [N/16, K/32, 4, 16, 4] uint8, scales [N/16, K/32, 2, 16] float16)`` (the module docstring's layout)."""
    n, k = values.shape
    if n % PANEL or k % BLOCK:
        raise ValueError(f"panels need N a multiple of {PANEL} and K of {BLOCK}, got {n}x{k}")
    p, b = n // PANEL, k // BLOCK
    v = values.to(torch.uint8).reshape(p, PANEL, b, 4, 2, 4)  # [P, lane, B, j, half, i]
    packed = v[:, :, :, :, 0, :] | (v[:, :, :, :, 1, :] << 4)  # [P, lane, B, j, i]
    codes = packed.permute(0, 2, 3, 1, 4).contiguous()  # [P, B, j, lane, i]
    d = scale.reshape(p, PANEL, b).permute(0, 2, 1)  # [P, B, lane]
    m = minimum.reshape(p, PANEL, b).permute(0, 2, 1)
    scales = torch.stack([d, m], dim=2).to(torch.float16).contiguous()  # [P, B, 2, lane]
    return codes, scales


def pack_q8_panels(values: torch.Tensor, scale: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """8-bit blocks of 32 (``values [N, K]`` -127..127, ``scale [N, K/32]``, N a multiple of 16) → ``(codes
    [N/16, K/32, 8, 16, 4] uint8`` holding ``value + 128``, ``scales [N/16, K/32, 16] float16)``."""
    n, k = values.shape
    if n % PANEL or k % BLOCK:
        raise ValueError(f"panels need N a multiple of {PANEL} and K of {BLOCK}, got {n}x{k}")
    p, b = n // PANEL, k // BLOCK
    shifted = (values.to(torch.int16) + 128).to(torch.uint8).reshape(p, PANEL, b, 8, 4)  # [P, lane, B, g, i]
    codes = shifted.permute(0, 2, 3, 1, 4).contiguous()  # [P, B, g, lane, i]
    scales = scale.reshape(p, PANEL, b).permute(0, 2, 1).to(torch.float16).contiguous()  # [P, B, lane]
    return codes, scales


def unpack_q8_panels(codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """The float32 ``[N, K]`` weight that :func:`pack_q8_panels`'s output stands for."""
    p, b = codes.shape[:2]
    values = (codes.to(torch.int16) - 128).permute(0, 3, 1, 2, 4).reshape(p * PANEL, b, BLOCK).float()
    return (values * scales.float().permute(0, 2, 1).reshape(p * PANEL, b, 1)).reshape(p * PANEL, b * BLOCK)


def unpack_q4_panels(codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """The float32 ``[N, K]`` weight that :func:`pack_q4_panels`'s output stands for."""
    p, b = codes.shape[:2]
    low, high = codes & 0x0F, codes >> 4  # [P, B, j, lane, i]
    values = torch.stack([low, high], dim=4).permute(0, 3, 1, 2, 4, 5).reshape(p * PANEL, b, BLOCK).float()
    s = scales.float().permute(0, 3, 1, 2).reshape(p * PANEL, b, 2)  # [N, B, 2]
    return (values * s[..., 0:1] + s[..., 1:2]).reshape(p * PANEL, b * BLOCK)
