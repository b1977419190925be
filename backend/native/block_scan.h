// The activation quantizers' first pass, shared by the block and panel matmuls (backend/native/block_mm.cpp,
// panel_mm.cpp): each 32-value block's max |x| and float sum. Each part's body includes it, so each part's
// namespace holds a copy; the including file brings <algorithm>, <cmath>, <cstdint> and, where AVX2 is on,
// <immintrin.h>.
#pragma once

// Each block's max |x| and float sum of rows [begin, end) -> amax, sum [(end - begin) * B]. The sum is added in
// index order, one dependent add after another (~4 cycles each), so the vector paths run 16 (or 8) blocks side by
// side, a block per lane, each lane adding its block's values in the same order: the same bits as the scalar loop,
// without its latency chain. The max is exact in any order (a NaN is skipped, as std::max(amax, NaN) skips it).
inline void block_scan(const float* x, int64_t xs, int64_t K, int64_t begin, int64_t end, float* amax, float* sum) {
  constexpr int64_t kScanBlock = 32;
  const int64_t B = K / kScanBlock, n = (end - begin) * B;
  int64_t done = 0;
#if defined(__AVX512F__) || (defined(__AVX2__) && defined(__FMA__))
#if defined(__AVX512F__)
  constexpr int64_t kLanes = 16;
#else
  constexpr int64_t kLanes = 8;
#endif
  const float* base = x + begin * xs;
  if ((end - begin) * xs < (int64_t{1} << 31) - K) {  // element offsets fit the gathers' 32-bit indices
    alignas(64) int32_t offsets[kLanes];
    for (; done + kLanes <= n; done += kLanes) {
      for (int64_t j = 0; j < kLanes; ++j) {
        const int64_t block = done + j;
        offsets[j] = static_cast<int32_t>((block / B) * xs + (block % B) * kScanBlock);
      }
#if defined(__AVX512F__)
      const __m512i index = _mm512_load_si512(offsets);
      __m512 s = _mm512_setzero_ps(), m = _mm512_setzero_ps();
      for (int i = 0; i < kScanBlock; ++i) {
        const __m512 v = _mm512_i32gather_ps(index, base + i, 4);
        s = _mm512_add_ps(s, v);
        m = _mm512_max_ps(_mm512_abs_ps(v), m);  // (|v| > m) ? |v| : m, NaN skipped
      }
      _mm512_storeu_ps(sum + done, s);
      _mm512_storeu_ps(amax + done, m);
#else
      const __m256i index = _mm256_load_si256(reinterpret_cast<const __m256i*>(offsets));
      const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
      __m256 s = _mm256_setzero_ps(), m = _mm256_setzero_ps();
      for (int i = 0; i < kScanBlock; ++i) {
        const __m256 v = _mm256_i32gather_ps(base + i, index, 4);
        s = _mm256_add_ps(s, v);
        m = _mm256_max_ps(_mm256_and_ps(v, magnitude), m);
      }
      _mm256_storeu_ps(sum + done, s);
      _mm256_storeu_ps(amax + done, m);
#endif
    }
  }
#endif
  for (; done < n; ++done) {
    const float* src = x + (begin + done / B) * xs + (done % B) * kScanBlock;
    float a = 0.f, t = 0.f;
    for (int i = 0; i < kScanBlock; ++i) {
      a = std::max(a, std::fabs(src[i]));
      t += src[i];
    }
    amax[done] = a;
    sum[done] = t;
  }
}

