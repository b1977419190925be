"""Paged attention on CPU that reads the KV pool in place (no per-layer gather of each sequence's blocks).

The PyTorch path in :mod:`backend.engine.model_runner` copies every decode sequence's blocks into a
contiguous tensor per layer per step (``index_select``) and then runs SDPA over the copy. At batch 32 the
copy costs about as much as the attention itself, and with many sequences over a long shared prompt
(24 × ~1,050 tokens) it dominates the step. This module compiles, once per machine, a small C++ operator
(``torch.ops.thrifty_cpu.paged_attention``) that walks each query row's block table and attends straight
from the pool: one pass computes the scores of the G query heads that share a KV head, a softmax, and a
second pass accumulates V. Rows × KV heads run in parallel on ATen's thread pool.

Each query row carries its own block-table row and visible length, so the same call serves decode rows
(length = context + 1), the rows of a short multi-token extend over cached KV (causal: row i sees
``start + i + 1`` keys) and a mix of both. The pool may be float32 or bfloat16 (converted on load);
queries and output are float32.

Building needs a C++ compiler (and ninja) at run time; :func:`load_paged_attention` returns None where it
cannot build, and callers fall back to the gather path. The build is cached by PyTorch
(``TORCH_EXTENSIONS_DIR``, default ``~/.cache/torch_extensions``) and takes ~20-40 s the first time.
"""

from __future__ import annotations

import functools

import torch

from backend.native_build import build_cpu_extension, cpu_fingerprint
from backend.native_kernel_abi import KERNEL_ABI

_EXTENSION = "thrifty_paged_attention_cpu_v4"

_SOURCE = r"""
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty_like.h>
#include <c10/util/BFloat16.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

@KERNEL_ABI@
namespace {

inline float load(const float* p, int64_t i) { return p[i]; }
inline float load(const c10::BFloat16* p, int64_t i) { return static_cast<float>(p[i]); }

// tasks [begin, end) (task = row * Hkv + kv head) of paged attention: q [T, Hq, D] f32; pools [NB, BS, Hkv, D];
// tables [S, W] i32; row_seq, row_len [T] i32 -> out [T, Hq, D]. The serial kernel (one copy of its machine code,
// which the fused layers call too: native_kernel_abi).
template <typename KV, int DC>
__attribute__((noinline)) void attend_tasks(const float* q, const KV* kp, const KV* vp, const int32_t* tables,
                                            const int32_t* row_seq, const int32_t* row_len, float* out, int64_t Hq,
                                            int64_t Hkv, int64_t Drt, int64_t BS, int64_t W, float scale,
                                            int64_t begin, int64_t end) {
  const int64_t D = DC > 0 ? DC : Drt;
  const int64_t G = Hq / Hkv;
  const int64_t tok_stride = Hkv * D;      // between consecutive tokens of a block
  const int64_t blk_stride = BS * Hkv * D;  // between blocks
  std::vector<float> scores;
  std::vector<float> acc(G * D);
  for (int64_t task = begin; task < end; ++task) {
    const int64_t t = task / Hkv, h = task % Hkv;
    const int64_t len = row_len[t];
    float* o = out + (t * Hq + h * G) * D;
    if (len <= 0) {
      std::fill(o, o + G * D, 0.f);
      continue;
    }
    const int32_t* table = tables + static_cast<int64_t>(row_seq[t]) * W;
    const float* qh = q + (t * Hq + h * G) * D;
    scores.resize(G * len);
    // pass 1: scores[g][tok] = scale * <q_g, k_tok>
    for (int64_t b = 0, tok0 = 0; tok0 < len; ++b, tok0 += BS) {
      const KV* kb = kp + static_cast<int64_t>(table[b]) * blk_stride + h * D;
      const int64_t n = std::min(BS, len - tok0);
      for (int64_t i = 0; i < n; ++i) {
        const KV* k = kb + i * tok_stride;
        for (int64_t g = 0; g < G; ++g) {
          const float* qg = qh + g * D;
          float s = 0.f;
#pragma omp simd reduction(+ : s)
          for (int64_t d = 0; d < D; ++d) s += qg[d] * load(k, d);
          scores[g * len + tok0 + i] = s * scale;
        }
      }
    }
    // softmax per query head
    for (int64_t g = 0; g < G; ++g) {
      float* s = scores.data() + g * len;
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < len; ++i) m = std::max(m, s[i]);
      float sum = 0.f;
      for (int64_t i = 0; i < len; ++i) {
        s[i] = std::exp(s[i] - m);
        sum += s[i];
      }
      const float inv = 1.f / sum;
      for (int64_t i = 0; i < len; ++i) s[i] *= inv;
    }
    // pass 2: out[g] = sum_tok p[g][tok] * v_tok
    std::fill(acc.begin(), acc.end(), 0.f);
    for (int64_t b = 0, tok0 = 0; tok0 < len; ++b, tok0 += BS) {
      const KV* vb = vp + static_cast<int64_t>(table[b]) * blk_stride + h * D;
      const int64_t n = std::min(BS, len - tok0);
      for (int64_t i = 0; i < n; ++i) {
        const KV* v = vb + i * tok_stride;
        for (int64_t g = 0; g < G; ++g) {
          const float p = scores[g * len + tok0 + i];
          float* a = acc.data() + g * D;
#pragma omp simd
          for (int64_t d = 0; d < D; ++d) a[d] += p * load(v, d);
        }
      }
    }
    std::copy(acc.begin(), acc.end(), o);
  }
}

// the task kernel for one pool type, head_dim 64 and 128 specialised (the addresses the fused layers take)
template <typename KV>
void attend_task_range(const float* q, const void* k_pool, const void* v_pool, const int32_t* tables,
                       const int32_t* row_seq, const int32_t* row_len, float* out, int64_t Hq, int64_t Hkv, int64_t D,
                       int64_t BS, int64_t W, float scale, int64_t begin, int64_t end) {
  const KV* kp = static_cast<const KV*>(k_pool);
  const KV* vp = static_cast<const KV*>(v_pool);
  if (D == 64) {
    attend_tasks<KV, 64>(q, kp, vp, tables, row_seq, row_len, out, Hq, Hkv, D, BS, W, scale, begin, end);
  } else if (D == 128) {
    attend_tasks<KV, 128>(q, kp, vp, tables, row_seq, row_len, out, Hq, Hkv, D, BS, W, scale, begin, end);
  } else {
    attend_tasks<KV, 0>(q, kp, vp, tables, row_seq, row_len, out, Hq, Hkv, D, BS, W, scale, begin, end);
  }
}

template <typename KV>
void dispatch_d(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v, const at::Tensor& tables,
                const at::Tensor& row_seq, const at::Tensor& row_len, at::Tensor& out, double scale) {
  const int64_t T = q.size(0), Hq = q.size(1), D = q.size(2);
  const int64_t BS = k.size(1), Hkv = k.size(2), W = tables.size(1);
  const float* qp = q.data_ptr<float>();
  const KV* kp = k.data_ptr<KV>();
  const KV* vp = v.data_ptr<KV>();
  const int32_t* tp = tables.data_ptr<int32_t>();
  const int32_t* sp = row_seq.data_ptr<int32_t>();
  const int32_t* lp = row_len.data_ptr<int32_t>();
  float* op = out.data_ptr<float>();
  // small calls (a few short rows) stay on the calling thread: waking the pool costs more than the work
  int64_t keys = 0;
  for (int64_t t = 0; t < T; ++t) keys += std::max<int32_t>(lp[t], 0);
  const int64_t grain = keys * Hkv < 768 ? std::max<int64_t>(T * Hkv, 1) : 1;
  at::parallel_for(0, T * Hkv, grain, [&](int64_t begin, int64_t end) {
    attend_task_range<KV>(qp, kp, vp, tp, sp, lp, op, Hq, Hkv, D, BS, W, static_cast<float>(scale), begin, end);
  });
}

// the task kernels' addresses, in native_kernel_abi.ATTENTION_KERNELS' order (typed: a changed signature fails here)
std::vector<int64_t> kernel_addresses() {
  const thrifty_abi::attend_tasks_fn f32 = &attend_task_range<float>;
  const thrifty_abi::attend_tasks_fn bf16 = &attend_task_range<c10::BFloat16>;
  return {reinterpret_cast<int64_t>(f32), reinterpret_cast<int64_t>(bf16)};
}

at::Tensor paged_attention(const at::Tensor& q, const at::Tensor& k_pool, const at::Tensor& v_pool,
                           const at::Tensor& tables, const at::Tensor& row_seq, const at::Tensor& row_len,
                           double scale) {
  TORCH_CHECK(q.dim() == 3 && q.scalar_type() == at::kFloat && q.is_contiguous(), "q: contiguous f32 [T, Hq, D]");
  TORCH_CHECK(k_pool.dim() == 4 && k_pool.is_contiguous() && v_pool.is_contiguous(), "pools: contiguous [NB, BS, Hkv, D]");
  TORCH_CHECK(k_pool.sizes() == v_pool.sizes() && k_pool.scalar_type() == v_pool.scalar_type(), "k/v pools differ");
  TORCH_CHECK(k_pool.size(3) == q.size(2) && q.size(1) % k_pool.size(2) == 0, "q and pool shapes disagree");
  TORCH_CHECK(tables.dim() == 2 && tables.scalar_type() == at::kInt && tables.is_contiguous(), "tables: i32 [S, W]");
  TORCH_CHECK(row_seq.scalar_type() == at::kInt && row_len.scalar_type() == at::kInt, "row_seq/row_len: i32");
  TORCH_CHECK(row_seq.numel() == q.size(0) && row_len.numel() == q.size(0), "one row_seq/row_len per query row");
  auto out = at::empty_like(q);
  if (k_pool.scalar_type() == at::kFloat) {
    dispatch_d<float>(q, k_pool, v_pool, tables, row_seq.contiguous(), row_len.contiguous(), out, scale);
  } else if (k_pool.scalar_type() == at::kBFloat16) {
    dispatch_d<c10::BFloat16>(q, k_pool, v_pool, tables, row_seq.contiguous(), row_len.contiguous(), out, scale);
  } else {
    TORCH_CHECK(false, "paged_attention: pool dtype must be float32 or bfloat16");
  }
  return out;
}

}  // namespace

TORCH_LIBRARY(thrifty_cpu, m) {
  m.def("kernel_addresses() -> int[]", TORCH_FN(kernel_addresses));
  m.def("paged_attention(Tensor q, Tensor k_pool, Tensor v_pool, Tensor tables, Tensor row_seq, Tensor row_len, float scale) -> Tensor");
  m.impl("paged_attention", c10::DispatchKey::CPU, TORCH_FN(paged_attention));
}
""".replace("@KERNEL_ABI@", KERNEL_ABI)


@functools.cache
def load_paged_attention() -> object | None:
    """Build (once, cached on disk) and load the operator; its ``torch.ops`` callable, or None where it
    cannot be built here (no compiler, ``THRIFTY_NATIVE_ATTENTION=0``)."""
    built = build_cpu_extension(f"{_EXTENSION}_{cpu_fingerprint()}", _SOURCE, "THRIFTY_NATIVE_ATTENTION",
                                "the native CPU paged attention kernel", "the gather path",
                                cflags=("-O3", "-march=native", "-ffast-math"))
    # the overload itself: calling a torch.ops packet resolves the overload on every call
    return torch.ops.thrifty_cpu.paged_attention.default if built else None


def paged_attention(q: torch.Tensor, k_pool: torch.Tensor, v_pool: torch.Tensor, tables: torch.Tensor,
                    row_seq: torch.Tensor, row_len: torch.Tensor, scale: float) -> torch.Tensor:
    """q: [T, Hq, D] float32; k_pool/v_pool: [NB, BS, Hkv, D] float32 or bfloat16; tables: [S, W] int32;
    row_seq/row_len: [T] int32 (each row's table row and how many keys it sees) → [T, Hq, D] float32.

    Raises RuntimeError where the operator cannot be built (see :func:`load_paged_attention`)."""
    op = load_paged_attention()
    if op is None:
        raise RuntimeError("native CPU paged attention is not available on this machine")
    return op(q.contiguous(), k_pool, v_pool, tables, row_seq, row_len, scale)


def reference_paged_attention(q: torch.Tensor, k_pool: torch.Tensor, v_pool: torch.Tensor, tables: torch.Tensor,
                              row_seq: torch.Tensor, row_len: torch.Tensor, scale: float) -> torch.Tensor:
    """The same contract in plain PyTorch, one row at a time (for tests). → [T, Hq, D] float32"""
    _, bs, hkv, d = k_pool.shape
    groups = q.shape[1] // hkv
    out = torch.empty(q.shape, dtype=torch.float32)
    for t in range(q.shape[0]):
        n = int(row_len[t])
        blocks = tables[int(row_seq[t]), :-(-n // bs)].long()
        keys = k_pool[blocks].reshape(-1, hkv, d)[:n].float().repeat_interleave(groups, dim=1)  # [n, Hq, D]
        values = v_pool[blocks].reshape(-1, hkv, d)[:n].float().repeat_interleave(groups, dim=1)
        probs = torch.softmax(torch.einsum("hd,nhd->hn", q[t].float(), keys) * scale, dim=-1)  # [Hq, n]
        out[t] = torch.einsum("hn,nhd->hd", probs, values)
    return out
