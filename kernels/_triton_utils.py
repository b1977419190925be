"""Helpers shared by the Triton launchers (imported only when a Triton path is used).

Interpreter note: under ``TRITON_INTERPRET=1`` (Triton 3.x) bfloat16 values are held as raw uint16
bits in numpy, so arithmetic and ``tl.dot`` on bf16 operands give wrong results there; loads, stores
and ``.to()`` conversions are correct. The kernels therefore never compute on bf16 values: they
upcast to fp32 right after loading, and feed ``tl.dot`` with :func:`dot_dtype`, which is the
activation dtype on GPU (tensor cores) but fp32 for bf16 in the interpreter.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

_TL_DTYPES = {torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16}


def is_interpreted(kernel: object) -> bool:
    """True when ``kernel`` was decorated while ``TRITON_INTERPRET=1`` (runs on CPU via numpy)."""
    return type(kernel).__name__ == "InterpretedFunction"


def check_launchable(kernel: object, device: torch.device, name: str) -> None:
    """Reject CPU tensors for compiled kernels (and CUDA tensors for interpreted ones) with a clear error."""
    interpreted = is_interpreted(kernel)
    if device.type == "cpu" and not interpreted:
        raise ValueError(
            f"{name}: Triton kernels need CUDA tensors; got CPU tensors. To run them on CPU set "
            "TRITON_INTERPRET=1 before the kernels' Triton modules are first imported, or use the "
            "reference path (use_triton=False)."
        )
    if device.type not in ("cpu", "cuda"):
        raise ValueError(f"{name}: unsupported device {device} for Triton kernels")


def next_pow2(n: int) -> int:
    return 1 if n <= 1 else 1 << (int(n) - 1).bit_length()


def dot_dtype(kernel: object, act: torch.dtype) -> tl.dtype:
    """Operand dtype for ``tl.dot``: the activation dtype, except bf16 → fp32 when interpreted."""
    if act == torch.bfloat16 and is_interpreted(kernel):
        return tl.float32
    return _TL_DTYPES[act]


def dot_precision(act: torch.dtype) -> str:
    """fp32 activations use exact ("ieee") fp32 dots, not TF32."""
    return "ieee" if act == torch.float32 else "tf32"


def num_sms(device: torch.device) -> int:
    if device.type == "cuda":
        return int(torch.cuda.get_device_properties(device).multi_processor_count)
    return 1


@triton.jit
def cast_for(x, ptr):
    """Cast fp32 ``x`` to ``ptr``'s element type with round-to-nearest-even.

    For bf16 the rounding is done explicitly on the fp32 bits (the Triton 3.x interpreter truncates
    fp32 → bf16, GPUs round to nearest even); the value is then exactly representable, so the final
    conversion is exact on both and the interpreter tests the GPU numerics bit for bit.
    """
    if ptr.dtype.element_ty == tl.bfloat16:
        bits = x.to(tl.uint32, bitcast=True)
        bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
        return bits.to(tl.float32, bitcast=True).to(tl.bfloat16)
    else:
        return x.to(ptr.dtype.element_ty)
