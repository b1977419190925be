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

// --- part body: built inside a namespace of its own (backend/native_build.py) ---
#include "kernel_abi.h"
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
