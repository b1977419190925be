#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <c10/util/Half.h>
#include <torch/library.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

// --- part body: built inside a namespace of its own (backend/native_build.py) ---
#include "block_scan.h"
namespace {

constexpr int64_t kBlock = 32;
constexpr int kTileRows = 8;  // activation rows that share one read of a weight block
#if defined(__AVX2__) && !(defined(__AVX512F__) && defined(__AVX512BW__))
// The AVX2 4-bit path keeps two blocks in flight per row (FMA latency bounds a one-row call), which fits the
// registers for two rows at most; so its tiles are two rows, and every row is summed in the same order
// whatever the call's row count (batch invariance: a row's result never depends on the other rows).
constexpr int kQ4TileRows = 2;
#else
constexpr int kQ4TileRows = kTileRows;
#endif

inline float half_to_float(uint16_t h) { return static_cast<float>(c10::Half(h, c10::Half::from_bits())); }

// x: [M, K] f32 -> two int8 levels per element, x ≈ (d / 128) * (128 * qx + rx): qx = round(x / d) in
// -127..127 with d = max|x| / 127 per block of 32, rx = round((x - d * qx) * 128 / d) in -64..64 (the
// rounding error of qx, quantized again: ~15 significant bits in all);
// dxv: [M, K/32, 8] f32 (d / 128, 8 copies); sxv: [M, K/32, 8] f32 (the block's exact sum / 8, 8 copies:
// the 8 lanes add up to the sum the 4-bit minimum multiplies)
void quantize_rows(const float* x, int64_t xs, int64_t M, int64_t K, int8_t* qx, int8_t* rx, int16_t* vx,
                   float* dxv, float* sxv) {
  const int64_t B = K / kBlock;
  at::parallel_for(0, M, std::max<int64_t>(1, 64 / std::max<int64_t>(B, 1)), [&](int64_t begin, int64_t end) {
    std::vector<float> amaxes((end - begin) * B), sums((end - begin) * B);
    block_scan(x, xs, K, begin, end, amaxes.data(), sums.data());
    for (int64_t m = begin; m < end; ++m) {
      for (int64_t b = 0; b < B; ++b) {
        const float* src = x + m * xs + b * kBlock;
        const float amax = amaxes[(m - begin) * B + b], sum = sums[(m - begin) * B + b];
        const float d = amax / 127.f;
        const float inv = d > 0.f ? 1.f / d : 0.f;
        int8_t* q = qx + m * K + b * kBlock;
        int8_t* r = rx + m * K + b * kBlock;
        int16_t* joined = vx + m * K + b * kBlock;
        for (int i = 0; i < kBlock; ++i) {
          const float v = std::nearbyint(src[i] * inv);
          q[i] = static_cast<int8_t>(v);
          const float rest = std::fma(-d, v, src[i]);  // exact: x - d * q, rounded once
          r[i] = static_cast<int8_t>(std::max(-127.f, std::min(127.f, std::nearbyint(rest * (inv * 128.f)))));
          joined[i] = static_cast<int16_t>(128 * q[i] + r[i]);  // |128 q + r| <= 16383: fits 16 bits
        }
        for (int i = 0; i < 8; ++i) {
          dxv[(m * B + b) * 8 + i] = d / 128.f;
          sxv[(m * B + b) * 8 + i] = sum / 8.f;
        }
      }
    }
  });
}

#if defined(__AVX2__)
// Σ w * v over one block of 32, as 8 int32 lanes: w and v 16-bit (w0/v0 elements 0..15, w1/v1 16..31).
// With v = 128 q + r this is the same integer as the two byte dot products, for half the multiplies
// (vpmaddwd: 16 pairs per instruction, no u8 x s8 sign trick).
inline __m256i dot_i16(__m256i w0, __m256i w1, const int16_t* v) {
  const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v));
  const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + 16));
  return _mm256_add_epi32(_mm256_madd_epi16(w0, v0), _mm256_madd_epi16(w1, v1));
}

// n float16 bit patterns -> float32 (out has room for n rounded up to 8)
inline void halves_to_float(const uint16_t* h, int64_t n, float* out) {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(h + i))));
  }
  for (; i < n; ++i) out[i] = _cvtsh_ss(h[i]);
}

inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}
#endif

#if defined(__AVX512F__) && defined(__AVX512BW__)
#define THRIFTY_ZMM 1
inline __m512i dot_u8s8_512(__m512i u, __m512i s) {
#if defined(__AVX512VNNI__)
  return _mm512_dpbusd_epi32(_mm512_setzero_si512(), u, s);
#else
  return _mm512_madd_epi16(_mm512_maddubs_epi16(u, s), _mm512_set1_epi16(1));
#endif
}

inline __m512i dot2_u8s8_512(__m512i w, __m512i q, __m512i r) {
#if defined(__AVX512VNNI__)
  return _mm512_dpbusd_epi32(_mm512_slli_epi32(_mm512_dpbusd_epi32(_mm512_setzero_si512(), w, q), 7), w, r);
#else
  return _mm512_add_epi32(_mm512_slli_epi32(dot_u8s8_512(w, q), 7), dot_u8s8_512(w, r));
#endif
}

inline __m512i expand_q4_pair(const uint8_t* codes) {  // 2 blocks (32 bytes) -> 64 codes in element order
  const __m256i packed = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(codes));
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i lo = _mm256_and_si256(packed, low4), hi = _mm256_and_si256(_mm256_srli_epi16(packed, 4), low4);
  const __m512i lanes = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);  // [lo0 lo1 hi0 hi1]
  return _mm512_shuffle_i64x2(lanes, lanes, _MM_SHUFFLE(3, 1, 2, 0));  // [lo0 hi0 lo1 hi1]
}
#endif

// One output row against a tile of T activation rows, 4-bit weights (codes: [B, 16], scales: [B, 2] f16).
template <int T>
inline void q4_row(const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* qx, const int8_t* rx,
                   const int16_t* vx, const float* dxv, const float* sxv, int64_t K, float* out, int64_t out_stride) {
  int64_t b = 0;
  float tail[T];
  for (int t = 0; t < T; ++t) tail[t] = 0.f;
#if defined(THRIFTY_ZMM)
  __m512 acc[T];
  for (int t = 0; t < T; ++t) acc[t] = _mm512_setzero_ps();
  const __m512i pick_d = _mm512_set_epi32(2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m512i pick_m = _mm512_set_epi32(3, 3, 3, 3, 3, 3, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1);
  for (; b + 2 <= B; b += 2) {
    const __m512i wq = expand_q4_pair(codes + b * 16);
    const __m512 dm = _mm512_castps128_ps512(_mm_cvtph_ps(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(scales + 2 * b))));
    const __m512 dw = _mm512_permutexvar_ps(pick_d, dm), mw = _mm512_permutexvar_ps(pick_m, dm);
    for (int t = 0; t < T; ++t) {
      const __m512i xq = _mm512_loadu_si512(qx + t * K + b * kBlock);
      const __m512i xr = _mm512_loadu_si512(rx + t * K + b * kBlock);
      const __m512 dot = _mm512_cvtepi32_ps(dot2_u8s8_512(wq, xq, xr));
      const int64_t at = (t * B + b) * 8;
      acc[t] = _mm512_fmadd_ps(_mm512_mul_ps(dw, _mm512_loadu_ps(dxv + at)), dot, acc[t]);
      acc[t] = _mm512_fmadd_ps(mw, _mm512_loadu_ps(sxv + at), acc[t]);
    }
  }
  for (int t = 0; t < T; ++t) tail[t] = _mm512_reduce_add_ps(acc[t]);
#endif
#if defined(__AVX2__)
  if (b < B) {
    // The row's scales to float once (8 per instruction), so each block broadcasts its own from memory.
    float dm[2 * (B - b) + 8];
    halves_to_float(scales + 2 * b, 2 * (B - b), dm);
    const int64_t b0 = b;
    // Independent accumulators hide the FMA latency, which otherwise bounds a 1-row call: the dot and the
    // minimum terms apart, and U = 2 blocks in flight, each into its own pair. The same U for every T (an
    // AVX2-only build tiles two rows at most, kQ4TileRows): one summation order per row.
    constexpr int U = 2;
    __m256 acc8[U][T], accm[U][T];
    for (int u = 0; u < U; ++u) {
      for (int t = 0; t < T; ++t) acc8[u][t] = accm[u][t] = _mm256_setzero_ps();
    }
    const __m128i low4 = _mm_set1_epi8(0x0F);
    auto block = [&](int64_t bb, __m256 (&acc)[T], __m256 (&am)[T]) __attribute__((always_inline)) {
      const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(codes + bb * 16));
      const __m256i w0 = _mm256_cvtepu8_epi16(_mm_and_si128(packed, low4));  // elements 0..15
      const __m256i w1 = _mm256_cvtepu8_epi16(_mm_and_si128(_mm_srli_epi16(packed, 4), low4));  // 16..31
      const __m256 d = _mm256_broadcast_ss(dm + 2 * (bb - b0)), mn = _mm256_broadcast_ss(dm + 2 * (bb - b0) + 1);
      for (int t = 0; t < T; ++t) {
        const __m256 dot = _mm256_cvtepi32_ps(dot_i16(w0, w1, vx + t * K + bb * kBlock));
        const int64_t at = (t * B + bb) * 8;
        acc[t] = _mm256_fmadd_ps(_mm256_mul_ps(d, _mm256_loadu_ps(dxv + at)), dot, acc[t]);
        am[t] = _mm256_fmadd_ps(mn, _mm256_loadu_ps(sxv + at), am[t]);
      }
    };
    for (; b + U <= B; b += U) {
      for (int u = 0; u < U; ++u) block(b + u, acc8[u], accm[u]);
    }
    for (; b < B; ++b) block(b, acc8[0], accm[0]);
    for (int t = 0; t < T; ++t) {
      __m256 sum = _mm256_add_ps(acc8[0][t], accm[0][t]);
      for (int u = 1; u < U; ++u) sum = _mm256_add_ps(sum, _mm256_add_ps(acc8[u][t], accm[u][t]));
      tail[t] += hsum(sum);
    }
  }
#else
  for (; b < B; ++b) {
    const uint8_t* c = codes + b * 16;
    const float d = half_to_float(scales[2 * b]), mn = half_to_float(scales[2 * b + 1]);
    for (int t = 0; t < T; ++t) {
      const int16_t* v = vx + t * K + b * kBlock;  // 128 q + r
      int dot = 0;
      for (int j = 0; j < 16; ++j) dot += (c[j] & 0x0F) * v[j] + (c[j] >> 4) * v[j + 16];
      tail[t] += d * dxv[(t * B + b) * 8] * dot + mn * 8.f * sxv[(t * B + b) * 8];
    }
  }
#endif
  for (int t = 0; t < T; ++t) out[t * out_stride] = tail[t];
}

// One output row against a tile of T activation rows, 8-bit weights (codes: [B, 32], scales: [B] f16).
template <int T>
inline void q8_row(const int8_t* codes, const uint16_t* scales, int64_t B, const int8_t* qx, const int8_t* rx,
                   const int16_t* vx, const float* dxv, int64_t K, float* out, int64_t out_stride) {
  int64_t b = 0;
  float tail[T];
  for (int t = 0; t < T; ++t) tail[t] = 0.f;
#if defined(THRIFTY_ZMM)
  __m512 acc[T];
  for (int t = 0; t < T; ++t) acc[t] = _mm512_setzero_ps();
  const __m512i pick_d = _mm512_set_epi32(1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0);
  for (; b + 2 <= B; b += 2) {
    const __m512i w = _mm512_loadu_si512(codes + b * kBlock);
    const __m512i wabs = _mm512_abs_epi8(w);  // |w| as unsigned bytes; the sign moves onto x
    const __mmask64 negative = _mm512_movepi8_mask(w);
    const uint32_t two = *reinterpret_cast<const uint32_t*>(scales + b);
    const __m512 dw = _mm512_permutexvar_ps(pick_d, _mm512_castps128_ps512(_mm_cvtph_ps(_mm_cvtsi32_si128(two))));
    for (int t = 0; t < T; ++t) {
      const __m512i xq = _mm512_loadu_si512(qx + t * K + b * kBlock);
      const __m512i xr = _mm512_loadu_si512(rx + t * K + b * kBlock);
      const __m512i sq = _mm512_mask_sub_epi8(xq, negative, _mm512_setzero_si512(), xq);
      const __m512i sr = _mm512_mask_sub_epi8(xr, negative, _mm512_setzero_si512(), xr);
      const __m512 dot = _mm512_cvtepi32_ps(dot2_u8s8_512(wabs, sq, sr));
      acc[t] = _mm512_fmadd_ps(_mm512_mul_ps(dw, _mm512_loadu_ps(dxv + (t * B + b) * 8)), dot, acc[t]);
    }
  }
  for (int t = 0; t < T; ++t) tail[t] = _mm512_reduce_add_ps(acc[t]);
#endif
#if defined(__AVX2__)
  if (b < B) {
    float ds[(B - b) + 8];
    halves_to_float(scales + b, B - b, ds);
    const int64_t b0 = b;
    __m256 acc8[T];
    for (int t = 0; t < T; ++t) acc8[t] = _mm256_setzero_ps();
    for (; b < B; ++b) {
      const __m256i w0 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(codes + b * kBlock)));
      const __m256i w1 = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(codes + b * kBlock + 16)));
      const __m256 d = _mm256_broadcast_ss(ds + (b - b0));
      for (int t = 0; t < T; ++t) {
        const __m256 dot = _mm256_cvtepi32_ps(dot_i16(w0, w1, vx + t * K + b * kBlock));
        acc8[t] = _mm256_fmadd_ps(_mm256_mul_ps(d, _mm256_loadu_ps(dxv + (t * B + b) * 8)), dot, acc8[t]);
      }
    }
    for (int t = 0; t < T; ++t) tail[t] += hsum(acc8[t]);
  }
#else
  for (; b < B; ++b) {
    const int8_t* c = codes + b * kBlock;
    for (int t = 0; t < T; ++t) {
      const int16_t* v = vx + t * K + b * kBlock;  // 128 q + r
      int dot = 0;
      for (int j = 0; j < kBlock; ++j) dot += c[j] * v[j];
      tail[t] += half_to_float(scales[b]) * dxv[(t * B + b) * 8] * dot;
    }
  }
#endif
  for (int t = 0; t < T; ++t) out[t * out_stride] = tail[t];
}

template <bool FourBit, int T>
void rows_tile(const uint8_t* codes, const uint16_t* scales, int64_t n0, int64_t n1, int64_t B, int64_t K,
               const int8_t* qx, const int8_t* rx, const int16_t* vx, const float* dx, const float* sx, float* out,
               int64_t N) {
  const int64_t code_bytes = FourBit ? B * 16 : B * kBlock, scale_halves = FourBit ? 2 * B : B;
  for (int64_t n = n0; n < n1; ++n) {
    if constexpr (FourBit) {
      q4_row<T>(codes + n * code_bytes, scales + n * scale_halves, B, qx, rx, vx, dx, sx, K, out + n, N);
    } else {
      q8_row<T>(reinterpret_cast<const int8_t*>(codes) + n * code_bytes, scales + n * scale_halves, B, qx, rx, vx, dx,
                K, out + n, N);
    }
  }
}

template <bool FourBit>
void tile_dispatch(int T, const uint8_t* codes, const uint16_t* scales, int64_t n0, int64_t n1, int64_t B,
                   int64_t K, const int8_t* qx, const int8_t* rx, const int16_t* vx, const float* dx, const float* sx,
                   float* out, int64_t N) {
  switch (T) {
    case 1: return rows_tile<FourBit, 1>(codes, scales, n0, n1, B, K, qx, rx, vx, dx, sx, out, N);
    case 2: return rows_tile<FourBit, 2>(codes, scales, n0, n1, B, K, qx, rx, vx, dx, sx, out, N);
    case 3: return rows_tile<FourBit, 3>(codes, scales, n0, n1, B, K, qx, rx, vx, dx, sx, out, N);
    case 4: return rows_tile<FourBit, 4>(codes, scales, n0, n1, B, K, qx, rx, vx, dx, sx, out, N);
    case 5: return rows_tile<FourBit, 5>(codes, scales, n0, n1, B, K, qx, rx, vx, dx, sx, out, N);
    case 6: return rows_tile<FourBit, 6>(codes, scales, n0, n1, B, K, qx, rx, vx, dx, sx, out, N);
    case 7: return rows_tile<FourBit, 7>(codes, scales, n0, n1, B, K, qx, rx, vx, dx, sx, out, N);
    default: return rows_tile<FourBit, 8>(codes, scales, n0, n1, B, K, qx, rx, vx, dx, sx, out, N);
  }
}

// x: [M, K] f32 (row stride free, last dim contiguous); codes/scales: one weight in the module's layout
// -> [M, N] f32
template <bool FourBit>
at::Tensor block_mm(const at::Tensor& x, const at::Tensor& codes, const at::Tensor& scales) {
  TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == at::kFloat && x.dim() == 2 && x.stride(1) == 1,
              "x: float32 CPU [rows, in_features] with a contiguous last dim expected");
  TORCH_CHECK(codes.is_contiguous() && scales.is_contiguous() && codes.dim() == 3 &&
              scales.scalar_type() == at::kHalf, "codes/scales: contiguous blocks and float16 scales expected");
  const int64_t M = x.size(0), K = x.size(1), N = codes.size(0), B = codes.size(1);
  TORCH_CHECK(K == B * kBlock, "x: in_features ", K, " does not match the weight's ", B, " blocks of 32");
  TORCH_CHECK(codes.size(2) == (FourBit ? 16 : kBlock) && scales.size(0) == N && scales.size(1) == B,
              "codes/scales: shapes do not match the block format");
  at::Tensor out = at::empty({M, N}, x.options());
  if (M == 0 || N == 0) return out;
  // one workspace for the quantized activations (an allocation per array cost ~1 us each per call):
  // dx, sx [M, B, 8] f32, then vx [M, K] i16, then qx, rx [M, K] i8
  at::Tensor work = at::empty({M * (2 * B * 8 * 4 + 4 * K)}, x.options().dtype(at::kByte));
  float* dp = reinterpret_cast<float*>(work.data_ptr<uint8_t>());
  float* spx = dp + M * B * 8;
  int16_t* vp = reinterpret_cast<int16_t*>(spx + M * B * 8);
  int8_t* qp = reinterpret_cast<int8_t*>(vp + M * K);
  int8_t* rp = qp + M * K;
  quantize_rows(x.data_ptr<float>(), x.stride(0), M, K, qp, rp, vp, dp, spx);
  const uint8_t* cp = reinterpret_cast<const uint8_t*>(codes.data_ptr());
  const uint16_t* sp = reinterpret_cast<const uint16_t*>(scales.data_ptr());
  float* op = out.data_ptr<float>();
  // output rows per task: enough work per task (~16k blocks x rows) that small layers stay on one thread
  const int64_t per_row = B * std::min<int64_t>(M, kTileRows);
  const int64_t grain = std::max<int64_t>(16, 16384 / std::max<int64_t>(per_row, 1));
  const int64_t tile = FourBit ? kQ4TileRows : kTileRows;
  at::parallel_for(0, N, grain, [&](int64_t n0, int64_t n1) {
    for (int64_t m0 = 0; m0 < M; m0 += tile) {
      const int T = static_cast<int>(std::min<int64_t>(tile, M - m0));
      tile_dispatch<FourBit>(T, cp, sp, n0, n1, B, K, qp + m0 * K, rp + m0 * K, vp + m0 * K, dp + m0 * B * 8,
                            spx + m0 * B * 8, op + m0 * N, N);
    }
  });
  return out;
}

at::Tensor q4_mm(const at::Tensor& x, const at::Tensor& codes, const at::Tensor& scales) {
  return block_mm<true>(x, codes, scales);
}

at::Tensor q8_mm(const at::Tensor& x, const at::Tensor& codes, const at::Tensor& scales) {
  return block_mm<false>(x, codes, scales);
}

}  // namespace

TORCH_LIBRARY(NAMESPACE, m) {
  m.def("q4_mm(Tensor x, Tensor codes, Tensor scales) -> Tensor");
  m.def("q8_mm(Tensor x, Tensor codes, Tensor scales) -> Tensor");
  m.impl("q4_mm", c10::DispatchKey::CPU, TORCH_FN(q4_mm));
  m.impl("q8_mm", c10::DispatchKey::CPU, TORCH_FN(q8_mm));
}
