"""The decoder's layers in one native call per forward on CPU: one thread team, no Python between the ops.

With int4 weights a batch-1 decode step of SmolLM2 does ~4 ms of arithmetic, but run op by op from Python it
took 11-18 ms: each of the ~12 native calls per layer, 30 layers, paid Python, the dispatcher, allocation and a
wake-up of ATen's thread pool (with ``OMP_WAIT_POLICY=PASSIVE``, ~20-30 us per parallel region; two threads
ran a 576x576 layer slower than one). This module compiles one operator, ``torch.ops.thrifty_fused_cpu.layers``,
that runs every layer of a forward, and the final norm, inside one OpenMP team:

per layer: residual add + RMSNorm → Q/K/V (4-bit panels) → rotary → K/V stored in the paged pool → paged
attention → O → residual add + RMSNorm → gate/up → SiLU-and-mul → down, the threads splitting each stage's
rows, panels or attention tasks and meeting at a spinning barrier between stages (a barrier that sleeps, as
libgomp's does under ``PASSIVE``, costs a wake-up each time).

It has no arithmetic of its own. Every stage calls the serial kernels that the per-op operators call, by
address (:mod:`backend.native_kernel_abi`): the panel matmul and its activation quantizer
(:mod:`backend.quant.panel_mm`), the norm, rotary and SiLU rows (:mod:`backend.layer_ops_cpu`) and the
attention tasks (:mod:`backend.attention_cpu`). So a row gets the same bits through this path as through the
op-by-op one, whatever the batch (``tests/backend/test_fused_layers_cpu.py`` holds them equal).

It runs where the model is the batch-invariant CPU configuration: float32 activations, native layer ops,
every projection on 4-bit panels, native paged attention over a float32 or bfloat16 pool, and every row of
the step attended natively (:meth:`backend.engine.model_runner.NativePagedAttention.fused_inputs`). Anything
else keeps the op-by-op path. ``THRIFTY_FUSED_LAYERS=0`` turns it off; a failed build logs a warning and
falls back the same way.

Its C++ is ``backend/native/fused_layers.cpp``, built with the other native parts as :mod:`backend.native_build` describes.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import torch

from backend.native_build import load_cpu_part


@functools.cache
def load_fused_layers() -> Any | None:
    """Build (once per CPU, cached on disk) and load the operator; its overload, or None where it cannot be built
    here (no compiler, ``THRIFTY_FUSED_LAYERS=0``)."""
    built = load_cpu_part("fused_layers", "THRIFTY_FUSED_LAYERS", "the fused CPU decoder layers", "the op-by-op layers")
    return torch.ops.thrifty_fused_cpu.layers.default if built else None


@dataclass(frozen=True, slots=True)
class FusedAttentionInputs:
    """What the fused layers need of a step's paged attention (all rows attended natively)."""

    k_cache: torch.Tensor  # [L, NB, BS, Hkv, D] float32 or bfloat16
    v_cache: torch.Tensor
    slots: torch.Tensor  # [T] int64: where each row's K/V goes
    tables: torch.Tensor  # [S, W] int32 block tables
    row_seq: torch.Tensor  # [T] int32: each row's table row
    row_len: torch.Tensor  # [T] int32: keys each row sees
    scale: float


def _kernel_addresses() -> list[int] | None:
    """The serial kernels' addresses in the operator's order (native_kernel_abi), or None where one is missing."""
    from backend.attention_cpu import load_paged_attention
    from backend.layer_ops_cpu import load_layer_ops
    from backend.quant.panel_mm import load_panel_mm

    panel, layer = load_panel_mm(), load_layer_ops()
    if panel is None or layer is None or load_paged_attention() is None:
        return None
    return [*panel.kernel_addresses(), *layer.kernel_addresses(), *torch.ops.thrifty_cpu.kernel_addresses()]


def _panel_weight(linear: Any) -> tuple[torch.Tensor, torch.Tensor, int] | None:
    """``(codes, scales, activation levels)`` of a linear layer that runs the 4-bit panel kernel for every row
    count, else None."""
    from backend.quant.linear import Int4Linear

    codes = getattr(linear, "native_codes", None)
    if not isinstance(linear, Int4Linear) or codes is None or codes.dim() != 5 or linear.native_max_rows < 1 << 30:
        return None
    return codes, linear.native_scales, linear.activation_levels


class FusedLayers:
    """A model's decoder layers and final norm as one native call (see the module docstring). Build with
    :meth:`from_model`; holds references to the model's own weights, no copies."""

    def __init__(self, op: Any, kernels: list[int], norms: list[torch.Tensor], codes: list[torch.Tensor],
                 scales: list[torch.Tensor], levels: list[int], cos: torch.Tensor, sin: torch.Tensor, eps: float,
                 num_heads: int) -> None:
        self._op, self._kernels = op, kernels
        self._norms, self._codes, self._scales, self._levels = norms, codes, scales, levels
        self._cos, self._sin, self._eps, self._num_heads = cos, sin, eps, num_heads
        self.num_layers = len(codes) // 4

    @classmethod
    def from_model(cls, model: Any) -> FusedLayers | None:
        """The fused layers of ``model`` (a :class:`backend.model.LlamaForCausalLM`) where it is the configuration
        they serve (float32, native layer ops, every projection on 4-bit panels) and the operators build; else None."""
        from backend.layer_ops_cpu import NativeLayerOps

        if not isinstance(model.layer_ops, NativeLayerOps) or model.rope.cos.dtype != torch.float32:
            return None
        layers = list(model.model.layers)
        norms = [n.weight for layer in layers for n in (layer.input_layernorm, layer.post_attention_layernorm)]
        norms.append(model.model.norm.weight)
        if any(n.dtype != torch.float32 or n.device.type != "cpu" for n in norms):
            return None
        weights = [_panel_weight(linear) for layer in layers for linear in (
            layer.self_attn.qkv_proj, layer.self_attn.o_proj, layer.mlp.gate_up_proj, layer.mlp.down_proj)]
        if not weights or any(w is None for w in weights):
            return None
        op, kernels = load_fused_layers(), _kernel_addresses()
        if op is None or kernels is None:
            return None
        eps = {layer.input_layernorm.eps for layer in layers} | {model.model.norm.eps}
        if len(eps) != 1:
            return None
        return cls(op, kernels, [n.detach() for n in norms], [w[0] for w in weights], [w[1] for w in weights],
                   [w[2] for w in weights], model.rope.cos, model.rope.sin, eps.pop(), model.config.num_heads)

    def __call__(self, hidden: torch.Tensor, positions: torch.Tensor, attention: FusedAttentionInputs,
                 num_layers: int | None = None) -> torch.Tensor:
        """hidden: [T, H] float32 embeddings, positions: [T] int64 → the final norm's output after ``num_layers``
        (default: all) layers, [T, H] float32; stores each layer's K/V of the step in the pool."""
        layers = self.num_layers if num_layers is None else min(num_layers, self.num_layers)
        norms, codes, scales, levels = self._norms, self._codes, self._scales, self._levels
        pool_layers = attention.k_cache.size(0)
        if pool_layers != self.num_layers:
            # a pool of the first layers only: the self-speculation drafter's (backend.speculative.draft_model)
            if pool_layers > self.num_layers:
                raise ValueError(f"a KV pool of {pool_layers} layers for a model of {self.num_layers}")
            norms = norms[:2 * pool_layers] + norms[-1:]  # each layer's two norms, then the final norm
            codes, scales, levels = codes[:4 * pool_layers], scales[:4 * pool_layers], levels[:4 * pool_layers]
            layers = min(layers, pool_layers)
        return self._op(hidden.contiguous(), positions, self._cos, self._sin, norms, codes, scales, levels,
                        attention.k_cache, attention.v_cache, attention.slots, attention.tables, attention.row_seq,
                        attention.row_len, attention.scale, self._eps, layers, self._num_heads, self._kernels)
