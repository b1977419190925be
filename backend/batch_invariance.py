"""Batch invariance: the same greedy or seeded answer whether a request runs alone, beside 63 others, after
a prefix-cache hit, in a chunked prefill or under speculative decoding (``batch_invariant``, on by default).

A float sum depends on its order, and a kernel chosen by the step's row count sums in its own order: with
int4 weights a decode step of a few rows ran our native block kernel (8-bit activations), a step of many
rows a dense bfloat16 GEMM, so 7 of 16 greedy answers changed when the 16 requests were sent together.
With ``batch_invariant`` every operation that mixes values reduces each row in one fixed order, whatever
else the step holds:

* **linears**: the 4-bit projections run the panel kernel (:mod:`backend.quant.panel_mm`: weights repacked
  at load so that a vector lane is one output, exact integer block dot products, then one fixed sequence of
  float steps per output, the same bits on AVX-512, AVX2 and plain C++) for every row count; so does the
  8-bit LM head (its 8-bit panels).
  Both quantize each activation row on its own. No dense copy is kept.
* **attention**: every query row, a fresh prompt's included, attends through the native paged kernel
  (:mod:`backend.attention_cpu`), which reads K/V from the pool in position order, one row at a time, so a
  prompt's own tokens, a cached prefix and a chunk of a prompt give the same numbers.
* **norms, rotary, SiLU**: the native layer ops (:mod:`backend.layer_ops_cpu`) are per row already.

It holds for the ``int4`` and ``int8`` weights (``auto`` picks int4 for the bundled model) with the native
kernels built. The ``fp32`` and ``bf16`` linears run oneDNN/MKL GEMMs whose blocking depends on the row
count, so they are not covered; :func:`weights_plan` says so at start-up, as it says when a native kernel
cannot be built here (no C++ compiler) and the engine falls back to the faster-per-shape kernels.
The cost, measured in BENCHMARKS.md ("Batch invariance"), is prefill: the block kernel and the paged
attention are slower than the dense GEMM and SDPA on long prompts.
"""

from __future__ import annotations

import logging

import torch

from backend.weights_dtype import WeightsPlan, plan_weights

log = logging.getLogger(__name__)


def weights_plan(weights_dtype: str, model_dtype: torch.dtype, device: torch.device, four_bit_file: bool,
                 batch_invariant: bool) -> WeightsPlan:
    """:func:`backend.weights_dtype.plan_weights`, batch-invariant where asked and possible; logs one line
    where it was asked and cannot hold (and the plan falls back to kernels chosen by row count)."""
    plan = plan_weights(weights_dtype, model_dtype, device, four_bit_file=four_bit_file)
    if not batch_invariant or device.type != "cpu":
        return plan
    if plan.name not in ("int4", "int8"):
        log.warning("batch invariance: --weights-dtype %s multiplies with GEMMs whose summation order depends on "
                    "the batch; greedy answers may change with what else runs (use --weights-dtype int4 or int8 "
                    "for batch-invariant answers)", plan.name)
        return plan
    from backend.quant.native_mm import load_block_mm

    if load_block_mm() is None:
        log.warning("batch invariance is off: the native block kernel cannot be built here (a C++ compiler is "
                    "needed, or THRIFTY_NATIVE_BLOCK_MM=0); each step picks its kernel by row count instead")
        return plan
    return plan_weights(weights_dtype, model_dtype, device, four_bit_file=four_bit_file, batch_invariant=True)


def attention_invariant(requested: bool, attention_backend: str) -> bool:
    """Whether every prefill row attends through the native paged kernel (as decode rows do): asked for,
    and the native attention backend is in use (logs one line where it was asked and is not)."""
    if requested and attention_backend != "native":
        log.warning("batch invariance: the %s attention backend attends fresh prompts with SDPA and decode rows "
                    "with another kernel; answers may change with a prefix-cache hit or a chunked prefill "
                    "(the native CPU backend needs a C++ compiler)", attention_backend)
    return requested and attention_backend == "native"
