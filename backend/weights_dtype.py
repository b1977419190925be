"""``--weights-dtype``: how the linear layers hold and multiply their weights, chosen from the CPU's features.

* ``fp32`` — the weights as loaded (greedy output equal to the transformers oracle; what the real-model
  oracle tests pin). The default is ``auto`` (BENCHMARKS.md, issue 15: fastest within 1 % perplexity).
* ``bf16`` — every ``nn.Linear`` (Q/K/V, O, gate/up, down, LM head) keeps its weight in bfloat16 and
  multiplies a bfloat16 copy of its input, returning the model's dtype; norms, rotary embedding,
  attention, the KV cache and the embedding table stay in the model's dtype. Half the weight bytes per
  token; the matmul runs on oneDNN's bf16 path, fast where the CPU has native bf16 dot products
  (AVX512_BF16 or AMX) and slow where it emulates them (AVX2 only).
* ``int4`` — decoder projections hold 4-bit groups of 32 (:class:`backend.quant.linear.Int4Linear`), read
  from a GGUF file's own Q4_0/Q4_1 blocks (the same values the fp32 path dequantizes) or quantized at
  load; the LM head holds int8 weights. On CUDA the projections run the Triton dequant-GEMM
  (:class:`backend.quant.linear.TritonInt4Linear`) and the LM head keeps the model's dtype.
* ``int8`` — every linear layer holds int8 weights: blocks of 32 with a scale each where the native block
  kernel builds, one scale per output row otherwise. CPU only.
* ``auto`` — on the CPU with a float32 model: ``int4`` when the GGUF file's projections are 4-bit blocks
  (lossless with respect to the file), otherwise ``bf16`` on a CPU with native bf16 (``avx512_bf16`` or
  ``amx_bf16`` in ``/proc/cpuinfo``) and ``fp32`` elsewhere; ``fp32`` off the CPU or for other model dtypes.

The quantized layers choose their kernel by batch shape (see :func:`plan_weights`): calls with few rows
(decode) run our native block kernel (:mod:`backend.quant.native_mm`: 8-bit activations, byte dot
products) where it builds, then torch's fused dequant-matmul kernel on the packed weights; calls with more
rows (prefill, large batches) run a dense matmul on the same values dequantized once at load, in bfloat16
where the CPU has native bf16 and float32 where it does not (measured in BENCHMARKS.md, issue 15). With
the native kernel the int8 layers hold blocks of 32 with a scale each (Q8_0's form) instead of one scale
per row.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

import torch
from torch import nn
from torch.nn import functional as F

from backend.linear_targets import bias_free_linears
from backend.quant.convert import convert_linears

log = logging.getLogger(__name__)

WEIGHTS_DTYPE_NAMES = ("auto", "fp32", "float32", "bf16", "bfloat16", "int8", "int4")
WEIGHTS_DTYPE_CHOICES = ("auto", "fp32", "bf16", "int8", "int4")  # for CLI choices=
_NATIVE_BF16_FLAGS = ("avx512_bf16", "amx_bf16")
# Largest row count (tokens in a call) for which the quantized kernel beats the dense matmul, measured on
# SmolLM2's shapes over 30 layers (BENCHMARKS.md, issue 15): int4 vs bf16 dense crosses at ~16 rows on
# AVX-512; with torch's AVX2 kernels int4 vs fp32 dense crosses at 16-32 rows summed over a layer, but the
# widest projection (gate/up) already loses at 32, so 16 there too; int8 vs dense at ~4-8 rows.
KERNEL_MAX_ROWS = {("int4", torch.bfloat16): 16, ("int4", torch.float32): 16,
                   ("int8", torch.bfloat16): 4, ("int8", torch.float32): 8}
# Largest row count for which our native block kernel (backend.quant.native_mm) beats both torch's int4
# kernel and the dense matmul, summed over SmolLM2's four projections (BENCHMARKS.md, issue 15): 8 on the
# AVX-512 BF16 machine (measured with the kernel on one thread); 32 where the dense copy is fp32 (no native
# bf16: the AVX2-only EPYC, where it is 1.3-1.6x torch's int4 kernel at 9-16 rows and 1.1-1.3x fp32 at 32).
NATIVE_MAX_ROWS = {torch.bfloat16: 8, torch.float32: 32}
# Batch invariance: the native block kernel for every row count (it reduces each row in one fixed order,
# whatever the step's rows), and no dense copy
ALL_ROWS = 1 << 30


@dataclass(frozen=True, slots=True)
class WeightsPlan:
    """A resolved ``--weights-dtype``: ``name`` (fp32 | bf16 | int8 | int4); for int8/int4 the dtype of the
    dense copy used above ``kernel_max_rows`` rows."""

    name: str
    dense_dtype: torch.dtype = torch.float32
    kernel_max_rows: int = 0
    int8_kernel_max_rows: int = 0  # for the int8 layers (all of them for int8; the LM head for int4)
    native_max_rows: int = 0  # rows up to which the native block kernel runs where it builds (0: never)
    triton: bool = False  # int4 on CUDA: the projections run the Triton dequant-GEMM (the LM head stays float)
    batch_invariant: bool = False  # every row through the native block kernel (no kernel chosen by row count)


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    """The first CPU's feature flags (empty where unreadable)."""
    try:
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def has_native_bf16(flags: set[str]) -> bool:
    """Whether the CPU multiplies bfloat16 natively (AVX512_BF16 or AMX)."""
    return any(f in flags for f in _NATIVE_BF16_FLAGS)


def resolve_weights_dtype(name: str, model_dtype: torch.dtype, device: torch.device,
                          flags: set[str] | None = None, four_bit_file: bool = False) -> str:
    """``fp32``, ``bf16``, ``int8`` or ``int4`` for ``--weights-dtype name`` (see the module docstring for
    ``auto``; ``four_bit_file``: the model is a GGUF whose projections are Q4_0/Q4_1 blocks)."""
    key = str(name).strip().lower()
    if key not in WEIGHTS_DTYPE_NAMES:
        raise ValueError(f"weights_dtype must be one of {', '.join(WEIGHTS_DTYPE_CHOICES)}; got {name!r}")
    if key in ("fp32", "float32"):
        return "fp32"
    if key in ("bf16", "bfloat16"):
        if model_dtype not in (torch.float32, torch.bfloat16):
            raise ValueError(f"--weights-dtype bf16 needs a float32 or bfloat16 model, not {model_dtype}")
        return "bf16"
    if key in ("int8", "int4"):
        if device.type != "cpu" and not (key == "int4" and device.type == "cuda"):
            raise ValueError(f"--weights-dtype {key} runs on the CPU{' and CUDA' if key == 'int4' else ''} only "
                             f"(device {device.type}); use {'int4, ' if device.type == 'cuda' else ''}bf16 or fp32 "
                             "there")
        allowed = (torch.float32, torch.bfloat16) + ((torch.float16,) if device.type == "cuda" else ())
        if model_dtype not in allowed:
            raise ValueError(f"--weights-dtype {key} needs a float32 or bfloat16 model, not {model_dtype}")
        return key
    if model_dtype != torch.float32 or device.type != "cpu":
        return "fp32"
    if four_bit_file:
        return "int4"
    flags = cpu_flags() if flags is None else flags
    return "bf16" if has_native_bf16(flags) else "fp32"


def plan_weights(name: str, model_dtype: torch.dtype, device: torch.device, flags: set[str] | None = None,
                 four_bit_file: bool = False, native_block_mm: bool = True,
                 batch_invariant: bool = False) -> WeightsPlan:
    """:func:`resolve_weights_dtype` plus, for int8/int4, the dense dtype and kernel thresholds for this CPU
    (``native_block_mm``: whether the native block kernel may run; it is used only where it builds).

    ``batch_invariant`` (int8/int4 on the CPU with ``native_block_mm``): every call runs the native block
    kernel, whatever its row count, and the layers keep no dense copy; the caller checks that the kernel
    builds (:func:`backend.batch_invariance.weights_plan`)."""
    flags = cpu_flags() if flags is None else flags
    resolved = resolve_weights_dtype(name, model_dtype, device, flags, four_bit_file)
    if resolved not in ("int8", "int4"):
        return WeightsPlan(resolved)
    if device.type == "cuda":  # int4 only: the Triton dequant-GEMM for every row count, no dense copy
        return WeightsPlan(resolved, model_dtype, 1 << 30, 0, 0, triton=True)
    dense = torch.bfloat16 if (has_native_bf16(flags) or model_dtype == torch.bfloat16) else torch.float32
    if batch_invariant and native_block_mm:
        return WeightsPlan(resolved, dense, 0, 0, ALL_ROWS, batch_invariant=True)
    native = NATIVE_MAX_ROWS[dense] if native_block_mm else 0
    return WeightsPlan(resolved, dense, KERNEL_MAX_ROWS[(resolved, dense)], KERNEL_MAX_ROWS[("int8", dense)], native)


class BF16Linear(nn.Module):
    """A bias-free linear layer with a bfloat16 weight: ``x → (bf16(x) @ Wᵀ)`` in ``x``'s dtype."""

    def __init__(self, weight: torch.Tensor) -> None:
        super().__init__()
        self.weight = nn.Parameter(weight.detach().to(torch.bfloat16).contiguous(), requires_grad=False)

    @property
    def in_features(self) -> int:
        return self.weight.shape[1]

    @property
    def out_features(self) -> int:
        return self.weight.shape[0]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x.to(torch.bfloat16), self.weight).to(x.dtype)


def convert_linears_to_bf16(model: nn.Module) -> int:
    """Replace every bias-free ``nn.Linear`` of ``model`` by a :class:`BF16Linear`; → how many.

    A weight tied to another parameter (the LM head and the embedding table) is copied, so the
    embedding keeps its own dtype."""
    targets = bias_free_linears(model, "bf16", ValueError)
    for _, parent, name, child in targets:
        setattr(parent, name, BF16Linear(child.weight))
    return len(targets)


def apply_weights_plan(model: nn.Module, plan: WeightsPlan, model_dtype: torch.dtype,
                       blocks: dict | None = None) -> str:
    """Convert ``model``'s linear layers as ``plan`` says (``blocks``: the GGUF file's 4-bit blocks, for
    int4); → a one-line description for the log."""
    if plan.name == "bf16" and model_dtype != torch.bfloat16:
        return f"bf16: {convert_linears_to_bf16(model)} linear layers keep bfloat16 weights"
    if plan.name in ("int8", "int4"):
        report = convert_linears(model, plan.name, kernel_max_rows=plan.kernel_max_rows,
                                 int8_kernel_max_rows=plan.int8_kernel_max_rows,
                                 dense_dtype=None if plan.batch_invariant else plan.dense_dtype,
                                 blocks=blocks, native_max_rows=plan.native_max_rows, triton=plan.triton,
                                 panel=plan.batch_invariant)
        if plan.triton:
            return f"{plan.name}: {report.summary()}; Triton dequant-GEMM (CUDA), LM head in {model_dtype}"
        if plan.batch_invariant:
            return f"{plan.name}: {report.summary()}; panel kernels for every row count (batch-invariant)"
        native = ""
        if plan.native_max_rows:
            from backend.quant.native_mm import load_block_mm

            native = (f"native block kernel up to {plan.native_max_rows} rows, " if load_block_mm() is not None
                      else "native block kernel unavailable, ")
        return (f"{plan.name}: {report.summary()}; {native}quantized kernel up to {plan.kernel_max_rows} rows, "
                f"dense {plan.dense_dtype} above")
    return plan.name
