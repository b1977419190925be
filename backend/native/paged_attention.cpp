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

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

// --- part body: built inside a namespace of its own (backend/native_build.py) ---
#include "kernel_abi.h"
namespace {

inline float load(const float* p, int64_t i) { return p[i]; }
inline float load(const c10::BFloat16* p, int64_t i) { return static_cast<float>(p[i]); }

// tasks [begin, end) (task = row * Hkv + kv head): fn(h, len, the row's block table, its G query heads, their G
// outputs) for each task whose row sees a key; the outputs of a row that sees none are zeros
template <typename Fn>
inline void each_task(const float* q, const int32_t* tables, const int32_t* row_seq, const int32_t* row_len,
                      float* out, int64_t Hq, int64_t Hkv, int64_t D, int64_t W, int64_t begin, int64_t end, Fn&& fn) {
  const int64_t G = Hq / Hkv;
  for (int64_t task = begin; task < end; ++task) {
    const int64_t t = task / Hkv, h = task % Hkv;
    const int64_t len = row_len[t];
    float* o = out + (t * Hq + h * G) * D;
    if (len <= 0) {
      std::fill(o, o + G * D, 0.f);
      continue;
    }
    fn(h, len, tables + static_cast<int64_t>(row_seq[t]) * W, q + (t * Hq + h * G) * D, o);
  }
}

// scores [G, len] -> softmax of each query head's row, in place
inline void softmax_heads(float* scores, int64_t G, int64_t len) {
  for (int64_t g = 0; g < G; ++g) {
    float* s = scores + g * len;
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
}

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
  each_task(q, tables, row_seq, row_len, out, Hq, Hkv, D, W, begin, end, [&](int64_t h, int64_t len,
                                                                             const int32_t* table, const float* qh,
                                                                             float* o) {
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
    softmax_heads(scores.data(), G, len);
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
  });
}

#if defined(__AVX512F__)
// ---- head_dim 64 with AVX-512: explicit vectors instead of the compiler's reduction loops. A key's 64 values are 4
// vectors; a score is 4 multiply-adds into one vector and a horizontal sum, and the horizontal sums of 16 keys are
// done together (a transpose-and-add tree: ~3 operations a key instead of ~6). Each row's arithmetic is the same
// sequence of operations whatever else the call holds (batch invariance), and whether its keys come 16 at a time or
// fewer (the last block: missing keys are zero vectors, whose sums are not stored).

inline __m512 load16(const float* p) { return _mm512_loadu_ps(p); }
inline __m512 load16(const c10::BFloat16* p) {  // bfloat16 -> float32: the 16 bits on top of a zero mantissa tail
  const __m256i bits = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(bits), 16));
}

// r[j] = the sum of v[j]'s 16 lanes, for j < 16
inline __m512 sum_each(const __m512* v) {
  __m512 a[8], b[4];
  for (int i = 0; i < 8; ++i) {  // per 128-bit chunk: [v0(0+2), v1(0+2), v0(1+3), v1(1+3)]
    a[i] = _mm512_add_ps(_mm512_unpacklo_ps(v[2 * i], v[2 * i + 1]), _mm512_unpackhi_ps(v[2 * i], v[2 * i + 1]));
  }
  for (int i = 0; i < 4; ++i) {  // per chunk: [v0, v1, v2, v3] summed over the chunk's 4 lanes
    const __m512d lo = _mm512_unpacklo_pd(_mm512_castps_pd(a[2 * i]), _mm512_castps_pd(a[2 * i + 1]));
    const __m512d hi = _mm512_unpackhi_pd(_mm512_castps_pd(a[2 * i]), _mm512_castps_pd(a[2 * i + 1]));
    b[i] = _mm512_add_ps(_mm512_castpd_ps(lo), _mm512_castpd_ps(hi));
  }
  // across the 4 chunks: chunks (0 + 1) and (2 + 3), then their sum; inputs 4i..4i+3 end in chunk i
  const __m512 c01 = _mm512_add_ps(_mm512_shuffle_f32x4(b[0], b[1], 0x88), _mm512_shuffle_f32x4(b[0], b[1], 0xDD));
  const __m512 c23 = _mm512_add_ps(_mm512_shuffle_f32x4(b[2], b[3], 0x88), _mm512_shuffle_f32x4(b[2], b[3], 0xDD));
  return _mm512_add_ps(_mm512_shuffle_f32x4(c01, c23, 0x88), _mm512_shuffle_f32x4(c01, c23, 0xDD));
}

// G: query heads per kv head (1-4), a constant so that the accumulators stay in registers
template <typename KV, int G>
void attend_tasks_64(const float* q, const KV* kp, const KV* vp, const int32_t* tables, const int32_t* row_seq,
                     const int32_t* row_len, float* out, int64_t Hq, int64_t Hkv, int64_t BS, int64_t W, float scale,
                     int64_t begin, int64_t end) {
  constexpr int64_t D = 64;
  const int64_t tok_stride = Hkv * D, blk_stride = BS * Hkv * D;
  std::vector<float> scores;
  __m512 acc[4 * G];
  const __m512 scaled = _mm512_set1_ps(scale);
  each_task(q, tables, row_seq, row_len, out, Hq, Hkv, D, W, begin, end, [&](int64_t h, int64_t len,
                                                                             const int32_t* table, const float* qh,
                                                                             float* o) {
    scores.resize(G * len + 16);
    // pass 1: scores[g][tok] = scale * <q_g, k_tok>, 16 keys at a time
    for (int64_t g = 0; g < G; ++g) {
      const __m512 q0 = load16(qh + g * D), q1 = load16(qh + g * D + 16), q2 = load16(qh + g * D + 32),
                   q3 = load16(qh + g * D + 48);
      for (int64_t b = 0, tok0 = 0; tok0 < len; ++b, tok0 += BS) {
        const KV* kb = kp + static_cast<int64_t>(table[b]) * blk_stride + h * D;
        const int64_t n = std::min(BS, len - tok0);
        for (int64_t c = 0; c < n; c += 16) {
          __m512 dots[16];
          const int64_t m = std::min<int64_t>(16, n - c);
          for (int64_t j = 0; j < 16; ++j) {
            if (j >= m) {
              dots[j] = _mm512_setzero_ps();
              continue;
            }
            const KV* k = kb + (c + j) * tok_stride;
            __m512 d = _mm512_mul_ps(q0, load16(k));
            d = _mm512_fmadd_ps(q1, load16(k + 16), d);
            d = _mm512_fmadd_ps(q2, load16(k + 32), d);
            dots[j] = _mm512_fmadd_ps(q3, load16(k + 48), d);
          }
          // a short last group stores up to 15 zeros past head g's scores: into the next head's, which that head
          // writes afterwards (heads in order), or into the 16 floats of slack past the last head's
          _mm512_storeu_ps(scores.data() + g * len + tok0 + c, _mm512_mul_ps(sum_each(dots), scaled));
        }
      }
    }
    softmax_heads(scores.data(), G, len);
    // pass 2: out[g] = sum_tok p[g][tok] * v_tok, tokens in order, one multiply-add per value
    for (auto& a : acc) a = _mm512_setzero_ps();
    for (int64_t b = 0, tok0 = 0; tok0 < len; ++b, tok0 += BS) {
      const KV* vb = vp + static_cast<int64_t>(table[b]) * blk_stride + h * D;
      const int64_t n = std::min(BS, len - tok0);
      for (int64_t i = 0; i < n; ++i) {
        const KV* v = vb + i * tok_stride;
        const __m512 v0 = load16(v), v1 = load16(v + 16), v2 = load16(v + 32), v3 = load16(v + 48);
        for (int64_t g = 0; g < G; ++g) {
          const __m512 p = _mm512_set1_ps(scores[g * len + tok0 + i]);
          acc[4 * g] = _mm512_fmadd_ps(p, v0, acc[4 * g]);
          acc[4 * g + 1] = _mm512_fmadd_ps(p, v1, acc[4 * g + 1]);
          acc[4 * g + 2] = _mm512_fmadd_ps(p, v2, acc[4 * g + 2]);
          acc[4 * g + 3] = _mm512_fmadd_ps(p, v3, acc[4 * g + 3]);
        }
      }
    }
    for (int64_t g = 0; g < G; ++g) {
      for (int i = 0; i < 4; ++i) _mm512_storeu_ps(o + g * D + 16 * i, acc[4 * g + i]);
    }
  });
}
#endif

// the task kernel for one pool type, head_dim 64 and 128 specialised (the addresses the fused layers take)
template <typename KV>
void attend_task_range(const float* q, const void* k_pool, const void* v_pool, const int32_t* tables,
                       const int32_t* row_seq, const int32_t* row_len, float* out, int64_t Hq, int64_t Hkv, int64_t D,
                       int64_t BS, int64_t W, float scale, int64_t begin, int64_t end) {
  const KV* kp = static_cast<const KV*>(k_pool);
  const KV* vp = static_cast<const KV*>(v_pool);
  if (D == 64) {
#if defined(__AVX512F__)
    switch (Hq / Hkv) {
      case 1: return attend_tasks_64<KV, 1>(q, kp, vp, tables, row_seq, row_len, out, Hq, Hkv, BS, W, scale, begin, end);
      case 2: return attend_tasks_64<KV, 2>(q, kp, vp, tables, row_seq, row_len, out, Hq, Hkv, BS, W, scale, begin, end);
      case 3: return attend_tasks_64<KV, 3>(q, kp, vp, tables, row_seq, row_len, out, Hq, Hkv, BS, W, scale, begin, end);
      case 4: return attend_tasks_64<KV, 4>(q, kp, vp, tables, row_seq, row_len, out, Hq, Hkv, BS, W, scale, begin, end);
      default: break;
    }
#endif
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
