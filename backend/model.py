"""Our PyTorch implementation of the Llama decoder (RMSNorm, RoPE, GQA, SwiGLU, tied embeddings).

The model works on a flat batch of tokens: ``input_ids: [T]`` with ``positions: [T]``. Attention
over past tokens is delegated to an :class:`AttentionBackend`, which owns the KV cache layout:
a contiguous cache for the single-request path, a paged cache for the engine.
"""

from __future__ import annotations

from typing import Protocol

import torch
from torch import nn
from torch.nn import functional as F

from backend.config import ModelConfig


class AttentionBackend(Protocol):
    """Stores this step's K/V for ``layer`` and returns attention output for the step's queries."""

    def attend(self, layer: int, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        """q: [T, Hq, D], k/v: [T, Hkv, D] (already rotated) → out: [T, Hq, D]."""
        ...


class RMSNorm(nn.Module):
    """Root-mean-square layer norm computed in fp32."""

    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: [T, H]
        x32 = x.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * x32.to(x.dtype)


class RotaryEmbedding(nn.Module):
    """Rotary position embedding, half-split ("rotate_half") convention."""

    def __init__(self, head_dim: int, max_positions: int, theta: float) -> None:
        super().__init__()
        self.head_dim, self.theta, self.max_positions = head_dim, theta, max_positions
        self.register_buffer("inv_freq", torch.empty(head_dim // 2), persistent=False)  # [D/2]
        self.reset_buffers()

    def reset_buffers(self) -> None:
        """(Re)compute the inverse frequencies in fp32 on the buffer's device (after meta init)."""
        exponent = torch.arange(0, self.head_dim, 2, dtype=torch.int64, device=self.inv_freq.device).float()
        self.inv_freq = 1.0 / (self.theta ** (exponent / self.head_dim))

    def forward(self, x: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        # x: [T, heads, D]; positions: [T]
        freqs = positions.float()[:, None] * self.inv_freq[None, :]  # [T, D/2]
        cos = freqs.cos()[:, None, :]  # [T, 1, D/2]
        sin = freqs.sin()[:, None, :]
        x32 = x.float()
        x1, x2 = x32.chunk(2, dim=-1)  # [T, heads, D/2] each
        rotated = torch.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)
        return rotated.to(x.dtype)


class Attention(nn.Module):
    """Grouped-query self-attention; K/V caching is the backend's job."""

    def __init__(self, config: ModelConfig, layer: int) -> None:
        super().__init__()
        self.layer = layer
        self.num_heads, self.num_kv_heads, self.head_dim = config.num_heads, config.num_kv_heads, config.head_dim
        self.q_proj = nn.Linear(config.hidden_size, config.num_heads * config.head_dim, bias=False)
        self.k_proj = nn.Linear(config.hidden_size, config.num_kv_heads * config.head_dim, bias=False)
        self.v_proj = nn.Linear(config.hidden_size, config.num_kv_heads * config.head_dim, bias=False)
        self.o_proj = nn.Linear(config.num_heads * config.head_dim, config.hidden_size, bias=False)

    def forward(
        self, x: torch.Tensor, positions: torch.Tensor, rope: RotaryEmbedding, backend: AttentionBackend
    ) -> torch.Tensor:
        tokens = x.shape[0]
        q = self.q_proj(x).view(tokens, self.num_heads, self.head_dim)  # [T, Hq, D]
        k = self.k_proj(x).view(tokens, self.num_kv_heads, self.head_dim)  # [T, Hkv, D]
        v = self.v_proj(x).view(tokens, self.num_kv_heads, self.head_dim)  # [T, Hkv, D]
        q, k = rope(q, positions), rope(k, positions)
        out = backend.attend(self.layer, q, k, v)  # [T, Hq, D]
        return self.o_proj(out.reshape(tokens, self.num_heads * self.head_dim))


class MLP(nn.Module):
    """SwiGLU feed-forward: down(silu(gate(x)) * up(x))."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.gate_proj = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.up_proj = nn.Linear(config.hidden_size, config.intermediate_size, bias=False)
        self.down_proj = nn.Linear(config.intermediate_size, config.hidden_size, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    def __init__(self, config: ModelConfig, layer: int) -> None:
        super().__init__()
        self.input_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.self_attn = Attention(config, layer)
        self.post_attention_layernorm = RMSNorm(config.hidden_size, config.rms_norm_eps)
        self.mlp = MLP(config)

    def forward(self, x, positions, rope, backend):
        x = x + self.self_attn(self.input_layernorm(x), positions, rope, backend)
        return x + self.mlp(self.post_attention_layernorm(x))


class LlamaBody(nn.Module):
    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.layers = nn.ModuleList(DecoderLayer(config, i) for i in range(config.num_layers))
        self.norm = RMSNorm(config.hidden_size, config.rms_norm_eps)


class LlamaForCausalLM(nn.Module):
    """Llama decoder with an LM head; weight names follow Hugging Face's layout."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        self.model = LlamaBody(config)
        self.rope = RotaryEmbedding(config.head_dim, config.max_position_embeddings, config.rope_theta)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        if config.tie_word_embeddings:
            self.lm_head.weight = self.model.embed_tokens.weight

    @torch.inference_mode()
    def forward(self, input_ids: torch.Tensor, positions: torch.Tensor, backend: AttentionBackend) -> torch.Tensor:
        """input_ids, positions: [T] → final hidden states [T, hidden]."""
        x = self.model.embed_tokens(input_ids)  # [T, H]
        for layer in self.model.layers:
            x = layer(x, positions, self.rope, backend)
        return self.model.norm(x)

    @torch.inference_mode()
    def compute_logits(self, hidden: torch.Tensor) -> torch.Tensor:
        """hidden: [N, hidden] → fp32 logits [N, vocab]."""
        return self.lm_head(hidden).float()

    def load_state(self, state: dict[str, torch.Tensor]) -> None:
        """Load a Hugging Face-named state dict, tolerating a missing lm_head when tied."""
        state = dict(state)
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
