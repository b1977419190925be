"""A native CPU matmul over 4-bit and 8-bit weight blocks with 8-bit activations (what llama.cpp does by hand).

torch's ``_weight_int4pack_mm_for_cpu`` takes bfloat16 activations and dequantizes every weight group
to floating point inside its loop, once per block of activation rows; on a small model that makes the
cost of a decode step's linears grow with the rows (a 5-row speculative verification cost 1.7x a 1-row
step, BENCHMARKS.md, issue 16), and the bf16 casts around each call cost as much as the small layers.

This kernel instead:

* quantizes each activation row once per call in blocks of 32, as two signed 8-bit levels: ``q`` =
  round(x / d) with ``d = max|x| / 127``, and ``r`` = the rounding error of ``q`` quantized again in
  steps of ``d / 128``, so ``x ≈ (d / 128) * (128 q + r)`` to ~15 significant bits (one 8-bit level, as
  llama.cpp's Q8 activations use, flipped noticeably more near-tied greedy tokens against fp32; the
  second level costs a second byte dot product per block);
* reads each weight block once per tile of up to 8 activation rows and computes the integer dot
  products ``Σ qw * (128 q + r)``: with AVX-512, two byte dot products per block (``vpdpbusd`` with VNNI,
  ``vpmaddubsw`` + ``vpmaddwd`` without); with AVX2 only, the two levels joined into one 16-bit value
  ``128 q + r`` against 16-bit weights (``vpmaddwd``: the same integers, half the multiplies of the byte
  form there); plain C++ elsewhere;
* sums ``dw * d / 128 * dot (+ mw * Σx)`` per block in float32 (``Σx``, the block's exact sum, for the
  4-bit minimum term).

Weight formats (both 32-element blocks, as GGUF's):

* 4-bit, Q4_1's form ``w = d * q + m``, ``q`` in 0..15: ``codes [N, K/32, 16] uint8`` (byte ``j`` holds
  element ``j`` in its low nibble and element ``j + 16`` in its high nibble) and ``scales [N, K/32, 2]``
  float16 (``d``, ``m``);
* 8-bit, Q8_0's form ``w = d * q``, ``q`` in -127..127: ``codes [N, K/32, 32] int8`` and ``scales
  [N, K/32]`` float16.

The error against the float matmul is the activations' rounding, ~1/32,000 of each block's largest
value; BENCHMARKS.md (issue 15) has the quality table.
Building needs a C++ compiler at run time; :func:`load_block_mm` returns None where it cannot, or with
``THRIFTY_NATIVE_BLOCK_MM=0``, and the layers keep torch's kernels.

Its C++ is ``backend/native/block_mm.cpp``, built with the other native parts as :mod:`backend.native_build` describes.
"""

from __future__ import annotations

import functools
from typing import Any

import torch

from backend.native_build import load_for_march

BLOCK = 32  # elements per weight block and per activation block


@functools.cache
def load_block_mm(march: str = "native") -> Any | None:
    """Build (once per CPU and ``march``, cached on disk) and load the operators; their ``torch.ops``
    namespace, or None where they cannot be built here (no compiler, ``THRIFTY_NATIVE_BLOCK_MM=0``).

    ``march`` is gcc's ``-march``: ``native`` (what the server uses) takes the best path this CPU has;
    ``haswell`` builds the AVX2 path and ``x86-64`` the portable one, so that tests and benchmarks on an
    AVX-512 machine also run the code an AVX2-only CPU gets."""
    return load_for_march("block_mm", march, "THRIFTY_NATIVE_BLOCK_MM", "the native block-quantized matmul",
                          "torch's int4/int8 kernels")


def pack_q4(values: torch.Tensor, scale: torch.Tensor, minimum: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """4-bit groups of 32 (``values [N, K]`` 0..15, ``scale``/``minimum [N, K/32]``) → the kernel's
    ``(codes [N, K/32, 16] uint8, scales [N, K/32, 2] float16)``."""
    n, k = values.shape
    blocks = values.reshape(n, k // BLOCK, BLOCK).to(torch.uint8)  # [N, B, 32]
    codes = (blocks[..., :16] | (blocks[..., 16:] << 4)).contiguous()  # [N, B, 16]
    scales = torch.stack([scale, minimum], dim=-1).to(torch.float16).contiguous()  # [N, B, 2]
    return codes, scales


def pack_q8(values: torch.Tensor, scale: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """8-bit blocks of 32 (``values [N, K]`` -127..127, ``scale [N, K/32]``) → ``(codes [N, K/32, 32] int8,
    scales [N, K/32] float16)``."""
    n, k = values.shape
    return values.reshape(n, k // BLOCK, BLOCK).to(torch.int8).contiguous(), scale.to(torch.float16).contiguous()


def unpack_q4(codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """The float32 ``[N, K]`` weight that :func:`pack_q4`'s output stands for (the kernel's exact values)."""
    values = torch.cat([codes & 0x0F, codes >> 4], dim=-1).float()  # [N, B, 32]
    s = scales.float()  # [N, B, 2]
    return (values * s[..., 0:1] + s[..., 1:2]).reshape(codes.shape[0], -1)


def unpack_q8(codes: torch.Tensor, scales: torch.Tensor) -> torch.Tensor:
    """The float32 ``[N, K]`` weight that :func:`pack_q8`'s output stands for."""
    return (codes.float() * scales.float()[..., None]).reshape(codes.shape[0], -1)
