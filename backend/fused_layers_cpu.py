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
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import torch

from backend.native_build import build_cpu_extension, cpu_fingerprint
from backend.native_kernel_abi import KERNEL_ABI

_EXTENSION = "thrifty_fused_layers_cpu_v1"

_SOURCE = r"""
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/util/BFloat16.h>
#include <torch/library.h>
#include <omp.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

@KERNEL_ABI@
namespace {

// A barrier for the team of one call: it spins (with a pause), because the stages between barriers take
// microseconds and a sleeping barrier (libgomp's under OMP_WAIT_POLICY=PASSIVE) costs a wake-up each time; it
// yields the core after a while, in case another process holds it.
class SpinBarrier {
 public:
  void size(int threads) { threads_ = threads; }  // before the team's first wait
  void wait() {
    if (threads_ == 1) return;
    const int generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == threads_ - 1) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    for (int spins = 0; generation_.load(std::memory_order_acquire) == generation; ++spins) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
      if (spins > 4000) sched_yield();
    }
  }

 private:
  int threads_ = 1;
  alignas(64) std::atomic<int> arrived_{0};
  alignas(64) std::atomic<int> generation_{0};
};

struct Kernels {
  thrifty_abi::quantize_range_fn quantize;
  thrifty_abi::q4_panels_fn panels;
  thrifty_abi::norm_rows_fn norm;
  thrifty_abi::rotary_rows_fn rotary;
  thrifty_abi::silu_rows_fn silu;
  thrifty_abi::attend_tasks_fn attend;
};

// One 4-bit panel weight: codes [N/16, K/32, 4, 16, 4] u8, scales [N/16, K/32, 2, 16] f16
struct Panels {
  const uint8_t* codes;
  const uint16_t* scales;
  int64_t n, k, blocks;
  bool two;  // two activation levels
};

Panels panels_of(const at::Tensor& codes, const at::Tensor& scales, int64_t levels, int64_t k, const char* name) {
  TORCH_CHECK(codes.scalar_type() == at::kByte && scales.scalar_type() == at::kHalf && codes.is_contiguous() &&
              scales.is_contiguous() && codes.dim() == 5 && scales.dim() == 4 && codes.size(2) == 4 &&
              codes.size(3) == 16 && codes.size(4) == 4, name, ": 4-bit panels expected");
  TORCH_CHECK(codes.size(1) * 32 == k, name, ": ", codes.size(1) * 32, " inputs, expected ", k);
  TORCH_CHECK(levels == 1 || levels == 2, name, ": 1 or 2 activation levels expected");
  return {codes.data_ptr<uint8_t>(), reinterpret_cast<const uint16_t*>(scales.data_ptr()), codes.size(0) * 16,
          k, codes.size(1), levels == 2};
}

// [b, e) of n items for thread tid of nt
inline void share(int64_t n, int tid, int nt, int64_t& b, int64_t& e) {
  b = n * tid / nt;
  e = n * (tid + 1) / nt;
}

// x: [T, H] f32 embeddings; positions, slots: [T] i64; cos/sin [P, D/2] f32; norms: 2L + 1 [H] f32 (input and
// post-attention norm of each layer, then the final norm); codes/scales: 4L panel weights (Q/K/V, O, gate/up,
// down of each layer) with levels: 4L; pools [L, NB, BS, Hkv, D] f32 or bf16; tables [S, W], row_seq, row_len
// [T] i32 -> the final norm of the hidden states after num_layers layers: [T, H] f32
at::Tensor layers(const at::Tensor& x, const at::Tensor& positions, const at::Tensor& cos, const at::Tensor& sin,
                  at::TensorList norms, at::TensorList codes, at::TensorList scales, at::IntArrayRef levels,
                  const at::Tensor& k_cache, const at::Tensor& v_cache, const at::Tensor& slots,
                  const at::Tensor& tables, const at::Tensor& row_seq, const at::Tensor& row_len, double attn_scale,
                  double eps, int64_t num_layers, int64_t num_heads, at::IntArrayRef kernels) {
  TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == at::kFloat && x.dim() == 2 && x.is_contiguous(),
              "x: contiguous float32 [tokens, hidden] expected");
  const int64_t T = x.size(0), H = x.size(1);
  TORCH_CHECK(k_cache.dim() == 5 && k_cache.is_contiguous() && v_cache.is_contiguous() &&
              k_cache.sizes() == v_cache.sizes() && k_cache.scalar_type() == v_cache.scalar_type(),
              "k_cache/v_cache: contiguous [layers, blocks, block_size, kv_heads, head_dim] expected");
  const bool bf16 = k_cache.scalar_type() == at::kBFloat16;
  TORCH_CHECK(bf16 || k_cache.scalar_type() == at::kFloat, "k_cache/v_cache: float32 or bfloat16 expected");
  const int64_t L = k_cache.size(0), NB = k_cache.size(1), BS = k_cache.size(2), Hkv = k_cache.size(3),
                D = k_cache.size(4), Hq = num_heads;
  TORCH_CHECK(num_layers >= 0 && num_layers <= L, "num_layers: 0..", L, " expected");
  TORCH_CHECK(static_cast<int64_t>(norms.size()) == 2 * L + 1 && static_cast<int64_t>(codes.size()) == 4 * L &&
              static_cast<int64_t>(scales.size()) == 4 * L && static_cast<int64_t>(levels.size()) == 4 * L,
              "norms: 2L + 1, codes/scales/levels: 4L entries expected");
  TORCH_CHECK(kernels.size() == 7, "kernels: the 7 kernel addresses expected");
  TORCH_CHECK(Hq % Hkv == 0 && D % 2 == 0, "heads: a multiple of the kv heads and an even head_dim expected");
  const int64_t QKV = (Hq + 2 * Hkv) * D, QD = Hq * D;
  for (const auto* t : {&positions, &slots}) {
    TORCH_CHECK(t->scalar_type() == at::kLong && t->is_contiguous() && t->numel() == T,
                "positions/slots: contiguous int64 [tokens] expected");
  }
  TORCH_CHECK(tables.scalar_type() == at::kInt && tables.dim() == 2 && tables.is_contiguous() &&
              row_seq.scalar_type() == at::kInt && row_len.scalar_type() == at::kInt && row_seq.is_contiguous() &&
              row_len.is_contiguous() && row_seq.numel() == T && row_len.numel() == T,
              "tables: i32 [S, W], row_seq/row_len: contiguous i32 [tokens] expected");
  TORCH_CHECK(cos.scalar_type() == at::kFloat && sin.scalar_type() == at::kFloat && cos.is_contiguous() &&
              sin.is_contiguous() && cos.dim() == 2 && cos.size(1) == D / 2 && sin.sizes() == cos.sizes(),
              "cos/sin: float32 [max_positions, head_dim / 2] expected");
  const int64_t* pos = positions.data_ptr<int64_t>();
  const int64_t* slot = slots.data_ptr<int64_t>();
  for (int64_t t = 0; t < T; ++t) {
    TORCH_CHECK(pos[t] >= 0 && pos[t] < cos.size(0), "position out of the rotary table's range");
    TORCH_CHECK(slot[t] >= 0 && slot[t] < NB * BS, "slot out of the KV pool");
  }
  std::vector<const float*> norm_w(2 * L + 1);
  for (int64_t i = 0; i < 2 * L + 1; ++i) {
    TORCH_CHECK(norms[i].scalar_type() == at::kFloat && norms[i].is_contiguous() && norms[i].numel() == H,
                "norms: float32 [hidden] expected");
    norm_w[i] = norms[i].data_ptr<float>();
  }
  std::vector<Panels> w(4 * L);
  int64_t I = 0;
  for (int64_t l = 0; l < L; ++l) {
    w[4 * l] = panels_of(codes[4 * l], scales[4 * l], levels[4 * l], H, "qkv");
    w[4 * l + 1] = panels_of(codes[4 * l + 1], scales[4 * l + 1], levels[4 * l + 1], QD, "o");
    w[4 * l + 2] = panels_of(codes[4 * l + 2], scales[4 * l + 2], levels[4 * l + 2], H, "gate_up");
    I = w[4 * l + 2].n / 2;
    w[4 * l + 3] = panels_of(codes[4 * l + 3], scales[4 * l + 3], levels[4 * l + 3], I, "down");
    TORCH_CHECK(w[4 * l].n == QKV && w[4 * l + 1].n == H && w[4 * l + 3].n == H,
                "projection shapes do not match the heads and hidden size");
  }
  const Kernels kern{reinterpret_cast<thrifty_abi::quantize_range_fn>(kernels[0]),
                     reinterpret_cast<thrifty_abi::q4_panels_fn>(kernels[1]),
                     reinterpret_cast<thrifty_abi::norm_rows_fn>(kernels[2]),
                     reinterpret_cast<thrifty_abi::rotary_rows_fn>(kernels[3]),
                     reinterpret_cast<thrifty_abi::silu_rows_fn>(kernels[4]),
                     reinterpret_cast<thrifty_abi::attend_tasks_fn>(kernels[bf16 ? 6 : 5])};

  const auto f32 = x.options();
  at::Tensor out = at::empty({T, H}, f32);
  const int64_t widest = std::max({H, QD, I});
  // float work: residual, h (normed), qkv, q_rot, k_rot, attention out, o / down out, gate_up, act
  at::Tensor fwork = at::empty({T * (3 * H + QKV + 2 * QD + Hkv * D + 3 * I) + 2 * T * (widest / 32)}, f32);
  float* resid = fwork.data_ptr<float>();
  float* h = resid + T * H;
  float* cur = h + T * H;  // the previous layer's output (the o projection's output too)
  float* qkv = cur + T * H;
  float* qrot = qkv + T * QKV;
  float* att = qrot + T * QD;
  float* krot = att + T * QD;
  float* gu = krot + T * Hkv * D;
  float* act = gu + T * 2 * I;
  float* dx = act + T * I;
  float* sx = dx + T * (widest / 32);
  at::Tensor iwork = at::empty({T * (2 * widest + 4 * (widest / 32))}, x.options().dtype(at::kByte));
  int8_t* q8 = reinterpret_cast<int8_t*>(iwork.data_ptr<uint8_t>());
  int8_t* r8 = q8 + T * widest;
  int32_t* qs = reinterpret_cast<int32_t*>(r8 + T * widest);

  const float* xp = x.data_ptr<float>();
  const float e = static_cast<float>(eps);
  const float sc = static_cast<float>(attn_scale);
  const int64_t layer_elems = NB * BS * Hkv * D;
  const int64_t W = tables.size(1);
  const int32_t* tp = tables.data_ptr<int32_t>();
  const int32_t* rsp = row_seq.data_ptr<int32_t>();
  const int32_t* rlp = row_len.data_ptr<int32_t>();
  char* kbase = static_cast<char*>(k_cache.data_ptr());
  char* vbase = static_cast<char*>(v_cache.data_ptr());
  const int64_t elem = k_cache.element_size();
  const int team = std::max(1, at::get_num_threads());

  SpinBarrier barrier;
#pragma omp parallel num_threads(team)
  {
    const int tid = omp_get_thread_num();
    const int nt = omp_get_num_threads();  // may be fewer than asked (a call from inside a parallel region)
#pragma omp single
    barrier.size(nt);  // single's implicit barrier: every thread sees the size before its first wait
    SpinBarrier* bar = &barrier;
    int64_t rb, re, pb, pe;
    share(T, tid, nt, rb, re);
    auto project = [&](const Panels& p, const float* in, float* dst) {
      // quantize the rows (split by rows), then the panels (split by panels) against every row
      kern.quantize(in, p.k, p.k, p.two, q8, r8, dx, sx, qs, rb, re);
      bar->wait();
      share(p.n / 16, tid, nt, pb, pe);
      kern.panels(p.codes, p.scales, p.blocks, p.k, p.n, T, p.two, q8, r8, dx, sx, dst, pb, pe);
      bar->wait();
    };
    for (int64_t l = 0; l < num_layers; ++l) {
      // residual add + input norm: the first layer's residual is its input
      if (l == 0) {
        kern.norm(xp, H, nullptr, 0, nullptr, h, norm_w[0], H, e, rb, re);
        std::copy(xp + rb * H, xp + re * H, resid + rb * H);
      } else {
        kern.norm(cur, H, resid, H, resid, h, norm_w[2 * l], H, e, rb, re);
      }
      project(w[4 * l], h, qkv);
      // rotary, then this step's K/V into the pool (every row's before any row attends)
      kern.rotary(qkv, QKV, D, qkv + QD, QKV, D, pos, static_cast<const float*>(cos.data_ptr()),
                  static_cast<const float*>(sin.data_ptr()), Hq, Hkv, D, qrot, krot, rb, re);
      for (int64_t t = rb; t < re; ++t) {
        const int64_t at_slot = l * layer_elems + slot[t] * Hkv * D;
        const float* ks = krot + t * Hkv * D;
        const float* vs = qkv + t * QKV + QD + Hkv * D;
        if (bf16) {
          auto* kd = reinterpret_cast<c10::BFloat16*>(kbase) + at_slot;
          auto* vd = reinterpret_cast<c10::BFloat16*>(vbase) + at_slot;
          for (int64_t i = 0; i < Hkv * D; ++i) {
            kd[i] = c10::BFloat16(ks[i]);
            vd[i] = c10::BFloat16(vs[i]);
          }
        } else {
          std::copy(ks, ks + Hkv * D, reinterpret_cast<float*>(kbase) + at_slot);
          std::copy(vs, vs + Hkv * D, reinterpret_cast<float*>(vbase) + at_slot);
        }
      }
      bar->wait();
      int64_t ab, ae;
      share(T * Hkv, tid, nt, ab, ae);
      kern.attend(qrot, kbase + l * layer_elems * elem, vbase + l * layer_elems * elem, tp, rsp, rlp, att, Hq, Hkv,
                  D, BS, W, sc, ab, ae);
      bar->wait();
      project(w[4 * l + 1], att, cur);
      kern.norm(cur, H, resid, H, resid, h, norm_w[2 * l + 1], H, e, rb, re);
      project(w[4 * l + 2], h, gu);
      kern.silu(gu, 2 * I, act, I, rb, re);
      project(w[4 * l + 3], act, cur);
    }
    if (num_layers == 0) {
      kern.norm(xp, H, nullptr, 0, nullptr, out.data_ptr<float>(), norm_w[2 * L], H, e, rb, re);
    } else {
      kern.norm(cur, H, resid, H, resid, out.data_ptr<float>(), norm_w[2 * L], H, e, rb, re);
    }
  }
  return out;
}

}  // namespace

TORCH_LIBRARY(thrifty_fused_cpu, m) {
  m.def("layers(Tensor x, Tensor positions, Tensor cos, Tensor sin, Tensor[] norms, Tensor[] codes, Tensor[] scales, "
        "int[] levels, Tensor k_cache, Tensor v_cache, Tensor slots, Tensor tables, Tensor row_seq, Tensor row_len, "
        "float attn_scale, float eps, int num_layers, int num_heads, int[] kernels) -> Tensor");
  m.impl("layers", c10::DispatchKey::CPU, TORCH_FN(layers));
}
""".replace("@KERNEL_ABI@", KERNEL_ABI)


@functools.cache
def load_fused_layers() -> Any | None:
    """Build (once per CPU, cached on disk) and load the operator; its overload, or None where it cannot be built
    here (no compiler, ``THRIFTY_FUSED_LAYERS=0``)."""
    built = build_cpu_extension(f"{_EXTENSION}_{cpu_fingerprint()}", _SOURCE, "THRIFTY_FUSED_LAYERS",
                                "the fused CPU decoder layers", "the op-by-op layers", cflags=("-O3", "-march=native"))
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
