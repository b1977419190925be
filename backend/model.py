"""Our PyTorch implementation of the Llama decoder (RMSNorm, RoPE, GQA, SwiGLU, tied embeddings).

The model works on a flat batch of tokens: ``input_ids: [T]`` with ``positions: [T]``. Attention
over past tokens is delegated to an :class:`AttentionBackend`, which owns the KV cache layout:
a contiguous cache for the single-request path, a paged cache for the engine.

Every elementwise op goes through the model's *layer ops*: :mod:`kernels` by default (Triton on CUDA,
the PyTorch references on CPU), or any object with the same four functions
(:meth:`LlamaForCausalLM.use_layer_ops`, e.g. :class:`backend.layer_ops_cpu.NativeLayerOps` on CPU):
RMSNorm with the residual add fused in, rotary embedding from a cos/sin table built once per model,
and SiLU-and-mul on the fused gate/up projection. Q/K/V and gate/up are each one matmul; Hugging
Face's separate weights are concatenated at load time (:meth:`LlamaForCausalLM.load_state`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from types import ModuleType
from typing import Any, Protocol

import torch
from torch import nn
from torch.nn import functional as F

import kernels
from backend.config import ModelConfig


class AttentionBackend(Protocol):
    """Stores this step's K/V for ``layer`` and returns attention output for the step's queries."""

    def attend(self, layer: int, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """q: [T, Hq, D], k/v: [T, Hkv, D] (already rotated) → out: [T, Hq, D]."""
        ...


class _LazyFusedLayers:
    """The model's fused layers (built by ``build`` at the first forward that can use them); a deep copy of the
    model starts unbuilt, since the copy's weights are its own (and are often converted after copying)."""

    _UNBUILT = object()

    def __init__(self, build: Callable[[Any], Any | None]) -> None:
        self.build = build
        self.value: Any = self._UNBUILT

    def __deepcopy__(self, memo: dict) -> _LazyFusedLayers:
        return _LazyFusedLayers(self.build)

    def get(self, model: Any) -> Any | None:
        if self.value is self._UNBUILT:
            self.value = self.build(model)
        return self.value


class RMSNorm(nn.Module):
    """Root-mean-square layer norm computed in fp32 (:func:`kernels.rms_norm`)."""

    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: torch.Tensor, residual: torch.Tensor | None = None,
                ops: Any = kernels) -> tuple[torch.Tensor, torch.Tensor]:
        """x: [T, H] → ``(norm(x + residual), x + residual)``; without a residual, ``(norm(x), x)``."""
        if residual is None:
            return ops.rms_norm(x, self.weight, self.eps), x
        return ops.fused_add_rms_norm(x, residual, self.weight, self.eps)


class RotaryEmbedding(nn.Module):
    """Rotary position embedding ("rotate_half"): a cos/sin table built once, applied per layer."""

    def __init__(self, head_dim: int, max_positions: int, theta: float) -> None:
        super().__init__()
        self.head_dim, self.theta, self.max_positions = head_dim, theta, max_positions
        self.register_buffer("cos", torch.empty(max_positions, head_dim // 2), persistent=False)  # [P, D/2]
        self.register_buffer("sin", torch.empty(max_positions, head_dim // 2), persistent=False)  # [P, D/2]
        self.reset_buffers()

    def reset_buffers(self) -> None:
        """(Re)build the fp32 table on the buffers' device (after meta init or a dtype cast)."""
        device = self.cos.device
        if device.type == "meta":
            return
        self.cos, self.sin = kernels.rope_cos_sin(self.head_dim, self.max_positions, self.theta, device=device)

    def forward(self, q: torch.Tensor, k: torch.Tensor, positions: torch.Tensor,
                ops: Any = kernels) -> tuple[torch.Tensor, torch.Tensor]:
        """q: [T, Hq, D], k: [T, Hkv, D]; positions: [T] → rotated ``(q, k)``, same dtype."""
        return ops.rotary_embedding(q, k, positions, self.cos, self.sin)


class Attention(nn.Module):
    """Grouped-query self-attention with one fused Q/K/V projection; K/V caching is the backend's job."""

    def __init__(self, config: ModelConfig, layer: int) -> None:
        super().__init__()
        self.layer = layer
        self.num_heads, self.num_kv_heads, self.head_dim = config.num_heads, config.num_kv_heads, config.head_dim
        self.q_size, self.kv_size = config.num_heads * config.head_dim, config.num_kv_heads * config.head_dim
        self.qkv_proj = nn.Linear(config.hidden_size, self.q_size + 2 * self.kv_size, bias=False)
        self.o_proj = nn.Linear(self.q_size, config.hidden_size, bias=False)

    def forward(
        self, x: torch.Tensor, positions: torch.Tensor, rope: RotaryEmbedding, backend: AttentionBackend,
        ops: Any = kernels,
    ) -> torch.Tensor:
        tokens = x.shape[0]
        # .forward: no nn.Module call wrapper (hooks) on the hot path, as in DecoderLayer
        qkv = self.qkv_proj.forward(x).view(tokens, -1, self.head_dim)  # [T, Hq + 2 Hkv, D]
        # strided views: q [T, Hq, D], k and v [T, Hkv, D]
        q, k, v = qkv.split((self.num_heads, self.num_kv_heads, self.num_kv_heads), dim=1)
        q, k = rope.forward(q, k, positions, ops)
        out = backend.attend(self.layer, q, k, v)  # [T, Hq, D]
        return self.o_proj.forward(out.reshape(tokens, self.q_size))


class MLP(nn.Module):
    """SwiGLU feed-forward: down(silu(gate(x)) * up(x)) with gate and up as one projection."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.gate_up_proj = nn.Linear(config.hidden_size, 2 * config.intermediate_size, bias=False)
        self.down_proj = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)

    def forward(self, x: torch.Tensor, ops: Any = kernels) -> torch.Tensor:
        # x: [T, H] → gate ⊕ up: [T, 2I] → [T, I] → [T, H]
        return self.down_proj.forward(ops.silu_and_mul(self.gate_up_proj.forward(x)))


class DecoderLayer(nn.Module):
    """Pre-norm block; the residual stream is carried separately so each norm fuses the residual add."""

    def __init__(self, config: ModelConfig, layer: int) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.self_attn = Attention(config, layer)
        self.post_attention_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.mlp = MLP(config)

    def forward(self, x: torch.Tensor, residual: torch.Tensor | None, positions: torch.Tensor,
                rope: RotaryEmbedding, backend: AttentionBackend, ops: Any = kernels) -> tuple[torch.Tensor, torch.Tensor]:
        """x: [T, H] (the previous block's output), residual: [T, H] or None (first layer)
        → ``(this block's output, residual stream before it)``; their sum is the hidden state."""
        # .forward directly: these run 30 times a step, and nn.Module's call wrapper (hooks) costs ~1 µs each
        h, residual = self.input_layernorm.forward(x, residual, ops)
        h = self.self_attn.forward(h, positions, rope, backend, ops)
        h, residual = self.post_attention_layernorm.forward(h, residual, ops)
        return self.mlp.forward(h, ops), residual


class LlamaBody(nn.Module):
    def __init__(self, config: ModelConfig, initialize: bool = True) -> None:
        super().__init__()
        # initialize=False: an uninitialised table for weights loaded next (on the meta device, nn.Embedding's
        # random init imported torch._dynamo: ~2.4 s of every model load)
        weight = None if initialize else torch.empty(config.vocab_size, config.hidden_size)
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size, _weight=weight)
        self.layers = nn.ModuleList(DecoderLayer(config, i) for i in range(config.num_layers))
        self.norm = RMSNorm(config.hidden_size, config.rms_norm_eps)


# our fused projection → the Hugging Face projections it concatenates (rows in this order)
FUSED_PROJECTIONS = {"self_attn.qkv_proj": ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"),
                     "mlp.gate_up_proj": ("mlp.gate_proj", "mlp.up_proj")}


def fuse_projections(state: dict[str, torch.Tensor]) -> dict[str, torch.Tensor]:
    """Hugging Face names → ours: ``q/k/v_proj`` → ``qkv_proj`` and ``gate/up_proj`` → ``gate_up_proj``
    (rows concatenated in that order). Other entries pass through; the input is not modified."""
    out = dict(state)
    groups = FUSED_PROJECTIONS
    prefixes = {".".join(k.split(".")[:3]) for k in state if k.startswith("model.layers.")}
    for prefix in prefixes:  # "model.layers.N"
        for fused, parts in groups.items():
            names = [f"{prefix}.{p}.weight" for p in parts]
            if all(n in out for n in names):
                out[f"{prefix}.{fused}.weight"] = torch.cat([out.pop(n) for n in names], dim=0)
    return out


class LlamaForCausalLM(nn.Module):
    """Llama decoder with an LM head; weights load from Hugging Face's layout (see :func:`fuse_projections`)."""

    def __init__(self, config: ModelConfig, initialize: bool = True) -> None:
        """``initialize=False`` skips the embedding's random init, for a model whose weights are loaded next."""
        super().__init__()
        self.config = config
        self.model = LlamaBody(config, initialize)
        self.rope = RotaryEmbedding(config.head_dim, config.max_position_embeddings, config.rope_theta)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        if config.tie_word_embeddings:
            self.lm_head.weight = self.model.embed_tokens.weight
        self.layer_ops: Any | None = None  # norms, rotary, SiLU-and-mul; None: the kernels package (use_layer_ops)
        self._fused: _LazyFusedLayers | None = None  # every layer in one native call (use_fused_layers)
        self.fuse_layers = True  # False: op by op even where fused layers exist (the step profiler's breakdown)

    def use_layer_ops(self, ops: ModuleType | Any | None) -> None:
        """Run the norms, rotary embedding and SiLU-and-mul through ``ops`` (an object with
        :mod:`kernels`' ``rms_norm``, ``fused_add_rms_norm``, ``rotary_embedding`` and ``silu_and_mul``);
        ``None`` or the :mod:`kernels` package itself: the default (kept as None so the model deep-copies)."""
        self.layer_ops = None if ops is kernels else ops

    def use_fused_layers(self, build: Callable[[LlamaForCausalLM], Any | None] | None) -> None:
        """Run every decoder layer and the final norm as one call where a step allows it: ``build(model)`` (e.g.
        :meth:`backend.fused_layers_cpu.FusedLayers.from_model`) makes that callable at the first forward, or
        returns None where the model's configuration has none; ``None``: always op by op. A step allows it when
        its attention backend's ``fused_inputs()`` returns its inputs (:mod:`backend.fused_layers_cpu`)."""
        self._fused = None if build is None else _LazyFusedLayers(build)

    def fused_layers(self) -> Any | None:
        """The fused-layers callable (built now if not yet), or None where the model has none."""
        return None if self._fused is None else self._fused.get(self)

    @torch.inference_mode()
    def forward(self, input_ids: torch.Tensor, positions: torch.Tensor, backend: AttentionBackend,
                num_layers: int | None = None) -> torch.Tensor:
        """input_ids, positions: [T] → final hidden states [T, hidden] (``num_layers``: only the first
        decoder layers run, then the final norm: the self-speculation drafter)."""
        ops = kernels if self.layer_ops is None else self.layer_ops
        x = self.model.embed_tokens(input_ids)  # [T, H]
        fused = self.fused_layers() if self.fuse_layers else None
        if fused is not None:
            fused_inputs = getattr(backend, "fused_inputs", None)
            inputs = fused_inputs() if fused_inputs is not None else None
            if inputs is not None:
                return fused(x, positions, inputs, num_layers)
        residual: torch.Tensor | None = None
        for layer in itertools.islice(self.model.layers, num_layers):
            x, residual = layer.forward(x, residual, positions, self.rope, backend, ops)
        return self.model.norm(x, residual, ops)[0]

    @torch.inference_mode()
    def compute_logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """hidden: [N, hidden] → fp32 logits [N, vocab]."""
        return self.lm_head.forward(hidden).float()

    def load_state(self, state: dict[str, torch.Tensor]) -> None:
        """Load a Hugging Face-named state dict, tolerating a missing lm_head when tied."""
        state = fuse_projections(state)
        if self.config.tie_word_embeddings:
            state.pop("lm_head.weight", None)
            state["lm_head.weight"] = state["model.embed_tokens.weight"]
        missing, unexpected = self.load_state_dict(state, strict=False)
        unexpected = [k for k in unexpected if "rotary_emb" not in k]
        if missing or unexpected:
            raise ValueError(f"weights do not match the model: missing={missing[:5]} unexpected={unexpected[:5]}")


class ContiguousKVCache:
    """KV cache for one sequence: ``[layers, max_len, Hkv, D]``; positions must be appended in order."""

    def __init__(self, config: ModelConfig, max_len: int, dtype: torch.dtype, device: torch.device | str) -> None:
        shape = (config.num_layers, max_len, config.num_kv_heads, config.head_dim)
        self.k = torch.zeros(shape, dtype=dtype, device=device)
        self.v = torch.zeros(shape, dtype=dtype, device=device)
        self.length = 0  # tokens stored so far (committed after the last layer of a step)
        self.max_len = max_len
        self.groups = config.num_heads // config.num_kv_heads

    def attend(self, layer: int, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        start, tokens = self.length, q.shape[0]
        end = start + tokens
        if end > self.max_len:
            raise ValueError(f"sequence of {end} tokens exceeds the KV cache of {self.max_len}")
        self.k[layer, start:end] = k
        self.v[layer, start:end] = v
        keys = self.k[layer, :end].transpose(0, 1)  # [Hkv, end, D]
        values = self.v[layer, :end].transpose(0, 1)
        keys = keys.repeat_interleave(self.groups, dim=0)  # [Hq, end, D]
        values = values.repeat_interleave(self.groups, dim=0)
        query = q.transpose(0, 1)  # [Hq, T, D]
        # query i sits at absolute position start + i and may see keys 0..start+i
        mask = torch.ones(tokens, end, dtype=torch.bool, device=q.device).tril(diagonal=start)
        out = F.scaled_dot_product_attention(query, keys, values, attn_mask=mask)  # [Hq, T, D]
        if layer == len(self.k) - 1:
            self.length = end
        return out.transpose(0, 1)

    def truncate(self, length: int) -> None:
        self.length = length
