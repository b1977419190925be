"""``--weights-dtype``: the element type of the linear layers' weights, chosen from the CPU's features.

* ``fp32`` — the weights as loaded (default; greedy output equal to the transformers oracle).
* ``bf16`` — every ``nn.Linear`` (Q/K/V, O, gate/up, down, LM head) keeps its weight in bfloat16 and
  multiplies a bfloat16 copy of its input, returning the model's dtype; norms, rotary embedding,
  attention, the KV cache and the embedding table stay in the model's dtype. Half the weight bytes per
  token; the matmul runs on oneDNN's bf16 path, fast where the CPU has native bf16 dot products
  (AVX512_BF16 or AMX) and slow where it emulates them (AVX2 only).
* ``auto`` — ``bf16`` on a CPU with native bf16 (``avx512_bf16`` or ``amx_bf16`` in ``/proc/cpuinfo``)
  when the model runs in float32, ``fp32`` otherwise.

Not the default yet: bf16 weights change greedy outputs slightly, and the quality evaluation per
weights dtype that would justify it (issue 15, item 4) is not done.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn
from torch.nn import functional as F

WEIGHTS_DTYPE_NAMES = ("auto", "fp32", "float32", "bf16", "bfloat16")
_NATIVE_BF16_FLAGS = ("avx512_bf16", "amx_bf16")


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> set[str]:
    """The first CPU's feature flags (empty where unreadable)."""
    try:
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def resolve_weights_dtype(name: str, model_dtype: torch.dtype, device: torch.device,
                          flags: set[str] | None = None) -> str:
    """``fp32`` or ``bf16`` for ``--weights-dtype name`` (see the module docstring for ``auto``)."""
    key = str(name).strip().lower()
    if key not in WEIGHTS_DTYPE_NAMES:
        raise ValueError(f"weights_dtype must be one of auto, fp32, bf16; got {name!r}")
    if key in ("fp32", "float32"):
        return "fp32"
    if key in ("bf16", "bfloat16"):
        if model_dtype not in (torch.float32, torch.bfloat16):
            raise ValueError(f"--weights-dtype bf16 needs a float32 or bfloat16 model, not {model_dtype}")
        return "bf16"
    if model_dtype != torch.float32 or device.type != "cpu":
        return "fp32"
    flags = cpu_flags() if flags is None else flags
    return "bf16" if any(f in flags for f in _NATIVE_BF16_FLAGS) else "fp32"


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
    targets = [(parent, name, child) for parent in model.modules() for name, child in parent.named_children()
               if isinstance(child, nn.Linear)]
    for parent, name, child in targets:
        if child.bias is not None:
            raise ValueError(f"{name}: linear layers with a bias are not supported by --weights-dtype bf16")
        setattr(parent, name, BF16Linear(child.weight))
    return len(targets)
