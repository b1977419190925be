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
#if defined(__AMX_TILE__) && defined(__AMX_INT8__) && defined(__AVX512F__) && defined(__AVX512BW__) && \
    defined(__linux__)
#define THRIFTY_PANEL_AMX 1
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdlib>
#endif

// --- part body: built inside a namespace of its own (backend/native_build.py) ---
#include "block_scan.h"
#include "kernel_abi.h"

namespace {

constexpr int64_t kBlock = 32;
constexpr int64_t kPanel = 16;
// Blocks ahead whose weights a tile prefetches while it multiplies (past a panel's end: the next panel's, which
// follow in memory). Without it a tile of several rows computed and then waited on memory in turn: a forward
// verifying 4 drafts (5 rows) cost 1.6-2.0x a plain one on an AVX-512 EPYC, 1.4-1.6x with it (BENCHMARKS, issue 35).
constexpr int64_t kPrefetchBlocks = 16;
// Activation rows that share one unpacking of a panel's block: 8 with AVX-512's 32 vector registers, 4 with AVX2's
// 16 (a tile's accumulators and the block's 8 weight vectors must fit). A verification's 5 rows then run as one
// tile, not as a tile of 4 and one of 1. The integer dots are exact, so the tiling never changes the bits.
#if defined(__AVX512F__) && defined(__AVX512BW__)
constexpr int kTile = 8;
#else
constexpr int kTile = 4;
#endif

// rows per tile for M rows: as few tiles as ``most`` (kTile) allows, of near-equal sizes (9 rows on AVX-512 are tiles of 5 and
// 4, not of 8 and 1); the last tile takes what is left. No rows (all of them went to AMX tiles): 1, never a division
// by zero
inline int64_t tile_size(int64_t M, int64_t most = kTile) {
  if (M <= 0) return 1;
  const int64_t tiles = (M + most - 1) / most;
  return (M + tiles - 1) / tiles;
}

#if defined(__AVX2__)
// into L1: block b of a 4-bit panel weight (256 bytes of codes, 64 of scales), of an 8-bit one (512 and 32)
inline void prefetch_block(const uint8_t* codes, const uint16_t* scales, int64_t b) {
  for (int j = 0; j < 4; ++j) _mm_prefetch(reinterpret_cast<const char*>(codes + b * 256 + 64 * j), _MM_HINT_T0);
  _mm_prefetch(reinterpret_cast<const char*>(scales + b * 32), _MM_HINT_T0);
}

inline void prefetch_block8(const uint8_t* codes, const uint16_t* scales, int64_t b) {
  for (int g = 0; g < 8; ++g) _mm_prefetch(reinterpret_cast<const char*>(codes + b * 512 + 64 * g), _MM_HINT_T0);
  _mm_prefetch(reinterpret_cast<const char*>(scales + b * 16), _MM_HINT_T0);
}
#endif

inline float half_to_float(uint16_t h) { return static_cast<float>(c10::Half(h, c10::Half::from_bits())); }

// x: [M, K] f32 -> per block of 32, d = max|x| / 127 and q = round(x / d) (|q| <= 127); with two levels also
// r: the rest rounded to d / 128 steps (x ~ (d / 128) * (128 q + r), ~15 significant bits), and dx: [M, B] = d / 128;
// with one level (two == false: r is not written) x ~ d * q and dx = d. sx: [M, B] = the block's float sum, added
// in index order; qs: [M, B] = 128 * (sum of q) + (sum of r), the integer the 8-bit kernel's +128 code offset adds
// to each block's dot product (two levels only)
// rows [begin, end) of quantize_rows (below): the serial kernel, shared with the fused layers (native_kernel_abi)
__attribute__((noinline)) void quantize_range(const float* x, int64_t xs, int64_t K, bool two, int8_t* q, int8_t* r,
                                              float* dx, float* sx, int32_t* qs, int64_t begin, int64_t end) {
  const int64_t B = K / kBlock;
  block_scan(x, xs, K, begin, end, dx + begin * B, sx + begin * B);  // dx holds each block's max |x| until below
  for (int64_t m = begin; m < end; ++m) {
    for (int64_t b = 0; b < B; ++b) {
      const float* src = x + m * xs + b * kBlock;
      const float d = dx[m * B + b] / 127.f;
      const float inv = d > 0.f ? 1.f / d : 0.f;
      int32_t joined = 0;
      for (int i = 0; i < kBlock; ++i) {
        const float v = std::nearbyint(src[i] * inv);
        q[m * K + b * kBlock + i] = static_cast<int8_t>(v);
        if (!two) continue;
        const float rest = std::fma(-d, v, src[i]);
        r[m * K + b * kBlock + i] =
            static_cast<int8_t>(std::max(-127.f, std::min(127.f, std::nearbyint(rest * (inv * 128.f)))));
        joined += 128 * q[m * K + b * kBlock + i] + r[m * K + b * kBlock + i];
      }
      dx[m * B + b] = two ? d / 128.f : d;
      qs[m * B + b] = joined;
    }
  }
}

void quantize_rows(const float* x, int64_t xs, int64_t M, int64_t K, bool two, int8_t* q, int8_t* r, float* dx,
                   float* sx, int32_t* qs) {
  const int64_t B = K / kBlock;
  at::parallel_for(0, M, std::max<int64_t>(1, 64 / std::max<int64_t>(B, 1)), [&](int64_t begin, int64_t end) {
    quantize_range(x, xs, K, two, q, r, dx, sx, qs, begin, end);
  });
}

inline int32_t group(const int8_t* p) {  // 4 activation bytes as one 32-bit lane value
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

#if defined(__AVX512F__) && defined(__AVX512BW__)
inline __m512i dot4(__m512i acc, __m512i w, __m512i x) {  // acc += 4-byte dot products, u8 w x s8 x, per lane
#if defined(__AVX512VNNI__)
  return _mm512_dpbusd_epi32(acc, w, x);
#else
  return _mm512_add_epi32(acc, _mm512_madd_epi16(_mm512_maddubs_epi16(w, x), _mm512_set1_epi16(1)));
#endif
}

// Sum over the 8 groups of 4 bytes of one activation block against w[0..7], per lane. The integer sum is exact
// in any order, so it runs as C independent chains added at the end: vpdpbusd's latency (~5 cycles) made one
// chain of 8 the bottleneck of a single row (~40 cycles a block); rows of a tile interleave their own chains.
template <int C>
inline __m512i block_dot(const __m512i* w, const int8_t* x) {
  __m512i part[C];
  for (int c = 0; c < C; ++c) part[c] = _mm512_setzero_si512();
  for (int g = 0; g < 8; ++g) part[g % C] = dot4(part[g % C], w[g], _mm512_set1_epi32(group(x + 4 * g)));
  for (int c = 1; c < C; ++c) part[0] = _mm512_add_epi32(part[0], part[c]);
  return part[0];
}

// One panel's block of packed nibbles (4 x 64 bytes) -> w[0..7]: w[g] holds inputs 4g..4g+3 of each of the 16
// outputs as bytes 0..15
inline void unpack_block(const uint8_t* c, __m512i* w) {
  const __m512i low4 = _mm512_set1_epi8(0x0F);
  for (int j = 0; j < 4; ++j) {
    const __m512i v = _mm512_loadu_si512(c + 64 * j);
    w[2 * j] = _mm512_and_si512(v, low4);
    w[2 * j + 1] = _mm512_and_si512(_mm512_srli_epi16(v, 4), low4);
  }
}

// A block's float steps for one row, from its exact integer dot: acc = fma(d_w * d_x, dot, acc), then
// acc = fma(m_w, Σx, acc). The vector tiles and the AMX tiles both call it, so their bits are one definition's.
inline __m512 block_step(__m512 acc, __m512i dot, __m512 d, __m512 mn, float dx, float sx) {
  const __m512 sc = _mm512_mul_ps(d, _mm512_set1_ps(dx));
  acc = _mm512_fmadd_ps(sc, _mm512_cvtepi32_ps(dot), acc);
  return _mm512_fmadd_ps(mn, _mm512_set1_ps(sx), acc);
}

// a block's weight scales d and minimums m, 16 outputs each
inline void block_scales(const uint16_t* scales, __m512& d, __m512& mn) {
  d = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(scales)));
  mn = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(scales + 16)));
}

template <int T, bool Two>
void panel_rows(const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* q, const int8_t* r,
                const float* dx, const float* sx, int64_t K, float* out, int64_t N) {
  constexpr int C = T == 1 ? 4 : 2;  // chains per row (see block_dot)
  __m512 acc[T];
  for (int t = 0; t < T; ++t) acc[t] = _mm512_setzero_ps();
  for (int64_t b = 0; b < B; ++b) {
    prefetch_block(codes, scales, b + kPrefetchBlocks);
    __m512i w[8];
    unpack_block(codes + b * 256, w);
    __m512 d, mn;
    block_scales(scales + b * 32, d, mn);
    for (int t = 0; t < T; ++t) {
      __m512i dot = block_dot<C>(w, q + t * K + b * kBlock);
      if constexpr (Two) {
        dot = _mm512_add_epi32(_mm512_slli_epi32(dot, 7), block_dot<C>(w, r + t * K + b * kBlock));
      }
      acc[t] = block_step(acc[t], dot, d, mn, dx[t * B + b], sx[t * B + b]);
    }
  }
  for (int t = 0; t < T; ++t) _mm512_storeu_ps(out + t * N, acc[t]);
}

#if defined(THRIFTY_PANEL_AMX)
// ---- AMX tiles for 16 rows at a time (prefill-sized calls), the same bits as panel_rows above. A tile
// multiply (tdpbssd, signed 8-bit x signed 8-bit into 32-bit lanes) gives each block's integer dot products
// for 16 rows x 16 outputs, exactly, as the vpdpbusd chains do; the float steps that follow are panel_rows'
// own, per row, blocks in order. Weights: a panel's block unpacked to bytes is AMX's B layout as it stands
// (row g = inputs 4g..4g+3 of each of the 16 outputs, the w[g] vectors above); activations: 16 rows x 32 bytes
// at the row stride K, the A layout.

// Whether this process may use the tile registers: Linux grants the tile data state on request
// (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)); THRIFTY_NATIVE_AMX=0 keeps the vector path.
bool amx_ready() {
  static const bool ready = [] {
    const char* setting = std::getenv("THRIFTY_NATIVE_AMX");
    if (setting != nullptr && std::strcmp(setting, "0") == 0) return false;
    constexpr long kRequestPermission = 0x1023, kTileData = 18;
    return syscall(SYS_arch_prctl, kRequestPermission, kTileData) == 0;
  }();
  return ready;
}

// Activation rows per tile multiply. A tile multiply costs the same for 1 row as for 16 (and a panel's weights are
// unpacked for it): 5-8 rows ran slower on tiles than on the vector tiles, so calls of fewer than 16 rows (decode
// steps, a verification's 5) and the rows past the last multiple of 16 keep the vector tiles.
constexpr int kTileRows = 16;

struct alignas(64) TileConfig {
  uint8_t palette = 1, start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t bytes_per_row[16] = {};
  uint8_t rows[16] = {};
};

// tiles 0-1: activations (16 rows x 32 bytes); 2 and 7: weights (8 rows x 64 bytes); 3-6: integer dots (16 x 16
// int32)
void configure_tiles() {
  TileConfig config;
  for (int t : {0, 1}) config.rows[t] = kTileRows, config.bytes_per_row[t] = kBlock;
  for (int t : {2, 7}) config.rows[t] = kBlock / 4, config.bytes_per_row[t] = 64;
  for (int t : {3, 4, 5, 6}) config.rows[t] = kTileRows, config.bytes_per_row[t] = 64;
  _tile_loadconfig(&config);
}

// weights [B, 4 x 64] packed nibbles of one panel -> [B, 8 x 64] bytes (unpack_block's w[g], in memory)
void unpack_panel(const uint8_t* codes, int64_t B, uint8_t* out) {
  for (int64_t b = 0; b < B; ++b) {
    __m512i w[8];
    unpack_block(codes + b * 256, w);
    for (int g = 0; g < 8; ++g) _mm512_storeu_si512(out + b * 512 + 64 * g, w[g]);
  }
}

// One block's multiply: weights of block b0 + J into tile WT, its activations (row stride K) into AT, the dots
// of 16 rows x 16 outputs into CT, stored to DST (the tile intrinsics take register numbers as literals)
#define THRIFTY_BLOCK_DOT(CT, AT, WT, ACTS, J, DST)  \
  _tile_loadd(WT, weights + (b0 + J) * 512, 64);     \
  _tile_loadd(AT, ACTS + (b0 + J) * kBlock, K);      \
  _tile_zero(CT);                                    \
  _tile_dpbssd(CT, AT, WT);                          \
  _tile_stored(CT, DST, 64);

// The dots of `count` blocks from b0 (at most 4 with one level, 2 with two), into dots [4][512]: block j's q dots
// at j * 512, its r dots at j * 512 + 256. A group's multiplies run while the previous group's float steps do:
// reading a tile's store back too soon stalls the vector loads.
template <bool Two>
void group_dots(const uint8_t* weights, const int8_t* q, const int8_t* r, int64_t K, int64_t b0, int count,
                int32_t* dots) {
  if constexpr (Two) {
    THRIFTY_BLOCK_DOT(3, 0, 2, q, 0, dots)
    THRIFTY_BLOCK_DOT(4, 1, 2, r, 0, dots + 256)
    if (count > 1) {
      THRIFTY_BLOCK_DOT(5, 0, 7, q, 1, dots + 512)
      THRIFTY_BLOCK_DOT(6, 1, 7, r, 1, dots + 768)
    }
  } else {
    THRIFTY_BLOCK_DOT(3, 0, 2, q, 0, dots)
    if (count > 1) { THRIFTY_BLOCK_DOT(4, 1, 7, q, 1, dots + 512) }
    if (count > 2) { THRIFTY_BLOCK_DOT(5, 0, 2, q, 2, dots + 1024) }
    if (count > 3) { THRIFTY_BLOCK_DOT(6, 1, 7, q, 3, dots + 1536) }
  }
}
#undef THRIFTY_BLOCK_DOT

// panel_rows' float steps for block b of 16 rows, from their integer dots
template <bool Two>
inline void tile_steps(const int32_t* dots, const uint16_t* scales, int64_t B, int64_t b, const float* dx,
                       const float* sx, __m512* acc) {
  __m512 d, mn;
  block_scales(scales + b * 32, d, mn);
  for (int t = 0; t < kTileRows; ++t) {
    __m512i dot = _mm512_load_si512(dots + 16 * t);
    if constexpr (Two) dot = _mm512_add_epi32(_mm512_slli_epi32(dot, 7), _mm512_load_si512(dots + 256 + 16 * t));
    acc[t] = block_step(acc[t], dot, d, mn, dx[t * B + b], sx[t * B + b]);
  }
}

// 16 rows of one panel: out [16, N] (the panel's 16 columns); B >= 1 blocks
template <bool Two>
void panel_tile_amx(const uint8_t* weights, const uint16_t* scales, int64_t B, const int8_t* q, const int8_t* r,
                    const float* dx, const float* sx, int64_t K, float* out, int64_t N) {
  constexpr int64_t G = Two ? 2 : 4;  // blocks per group
  alignas(64) int32_t dots[2][4 * 512];
  __m512 acc[kTileRows];
  for (int t = 0; t < kTileRows; ++t) acc[t] = _mm512_setzero_ps();
  const int64_t groups = (B + G - 1) / G;
  group_dots<Two>(weights, q, r, K, 0, static_cast<int>(std::min(G, B)), dots[0]);
  for (int64_t g = 0; g < groups; ++g) {
    if (g + 1 < groups) {
      group_dots<Two>(weights, q, r, K, (g + 1) * G, static_cast<int>(std::min(G, B - (g + 1) * G)),
                      dots[(g + 1) % 2]);
    }
    for (int64_t j = 0; j < std::min(G, B - g * G); ++j) {
      tile_steps<Two>(dots[g % 2] + j * 512, scales, B, g * G + j, dx, sx, acc);
    }
  }
  for (int t = 0; t < kTileRows; ++t) _mm512_storeu_ps(out + t * N, acc[t]);
}

// rows [m_begin, m_end) (a multiple of 16 of them) of panels [p0, p1), 16 at a time (see q4_panels)
void q4_panels_amx(const uint8_t* codes, const uint16_t* scales, int64_t B, int64_t K, int64_t N, bool two,
                   const int8_t* q, const int8_t* r, const float* dx, const float* sx, float* out, int64_t p0,
                   int64_t p1, int64_t m_begin, int64_t m_end) {
  // rows in chunks of 4 tiles, each against every panel of the range (the output is written in row bands, not in
  // one column strip at a time); a panel's weights unpacked to bytes for each chunk (~1 % of its multiplies)
  std::vector<uint8_t> weights(B * 512);
  constexpr int64_t kChunk = 4 * kTileRows;
  configure_tiles();
  for (int64_t c0 = m_begin; c0 < m_end; c0 += kChunk) {
    for (int64_t p = p0; p < p1; ++p) {
      unpack_panel(codes + p * B * 256, B, weights.data());
      for (int64_t m0 = c0; m0 < std::min(m_end, c0 + kChunk); m0 += kTileRows) {
        (two ? panel_tile_amx<true> : panel_tile_amx<false>)(weights.data(), scales + p * B * 32, B, q + m0 * K,
                                                             r + m0 * K, dx + m0 * B, sx + m0 * B, K,
                                                             out + m0 * N + p * kPanel, N);
      }
    }
  }
  _tile_release();
}
#endif
#elif defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
// Both halves of a panel (outputs 0-7 and 8-15) in one pass over a block, so that each activation group is
// broadcast once for the two, and a tile's state stays in AVX2's 16 registers: with the halves one after the other
// GCC kept the broadcasts of the first half for the second and spilled them to the stack (a tile of 3 rows cost
// ~30 cycles a row and block on an AVX2 EPYC; BENCHMARKS, issue 35)
// an accumulator as the compiler must see it after each step: a value it cannot look through, so that it adds the
// products as they come instead of reassociating the sums (GCC kept every product of a block live, then spilled them)
inline void settle(__m256i& v) { asm("" : "+x"(v)); }

template <int T, bool Two>
void panel_rows(const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* q, const int8_t* r,
                const float* dx, const float* sx, int64_t K, float* out, int64_t N) {
  __m256 acc[T][2];
  for (int t = 0; t < T; ++t) acc[t][0] = acc[t][1] = _mm256_setzero_ps();
  const __m256i low4 = _mm256_set1_epi8(0x0F);
  const __m256i ones = _mm256_set1_epi16(1);
  for (int64_t b = 0; b < B; ++b) {
    prefetch_block(codes, scales, b + kPrefetchBlocks);
    const uint8_t* c = codes + b * 256;
    // the 16-bit pair sums of all 8 groups add up in 16 bits before one widening (vpmaddwd): each lane sums 16
    // products |w x| <= 15 * 127, at most 30480 < 2^15, so the integers stay exact
    __m256i sq[T][2], sr[T][2];
    for (int t = 0; t < T; ++t) {
      sq[t][0] = sq[t][1] = _mm256_setzero_si256();
      if constexpr (Two) sr[t][0] = sr[t][1] = _mm256_setzero_si256();
    }
    for (int j = 0; j < 4; ++j) {  // groups 2j (low nibbles) and 2j + 1 (high nibbles), both halves
      const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + 64 * j));
      const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(c + 64 * j + 32));
      const __m256i lo0 = _mm256_and_si256(v0, low4), hi0 = _mm256_and_si256(_mm256_srli_epi16(v0, 4), low4);
      const __m256i lo1 = _mm256_and_si256(v1, low4), hi1 = _mm256_and_si256(_mm256_srli_epi16(v1, 4), low4);
      for (int t = 0; t < T; ++t) {
        // one level's 8 activations (groups 2j and 2j + 1) against both halves' weights, added to its sums
        const auto add_level = [&](const int8_t* level, __m256i* sums) {
          const int8_t* at = level + t * K + b * kBlock + 8 * j;
          const __m256i xl = _mm256_set1_epi32(group(at)), xh = _mm256_set1_epi32(group(at + 4));
          sums[0] = _mm256_add_epi16(sums[0], _mm256_add_epi16(_mm256_maddubs_epi16(lo0, xl),
                                                               _mm256_maddubs_epi16(hi0, xh)));
          sums[1] = _mm256_add_epi16(sums[1], _mm256_add_epi16(_mm256_maddubs_epi16(lo1, xl),
                                                               _mm256_maddubs_epi16(hi1, xh)));
          settle(sums[0]);
          settle(sums[1]);
        };
        add_level(q, sq[t]);
        if constexpr (Two) add_level(r, sr[t]);
      }
    }
    for (int h = 0; h < 2; ++h) {
      const __m256 d = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(scales + b * 32 + 8 * h)));
      const __m256 mn = _mm256_cvtph_ps(
          _mm_loadu_si128(reinterpret_cast<const __m128i*>(scales + b * 32 + 16 + 8 * h)));
      for (int t = 0; t < T; ++t) {
        __m256i dot = _mm256_madd_epi16(sq[t][h], ones);
        if constexpr (Two) dot = _mm256_add_epi32(_mm256_slli_epi32(dot, 7), _mm256_madd_epi16(sr[t][h], ones));
        const __m256 sc = _mm256_mul_ps(d, _mm256_set1_ps(dx[t * B + b]));
        acc[t][h] = _mm256_fmadd_ps(sc, _mm256_cvtepi32_ps(dot), acc[t][h]);
        acc[t][h] = _mm256_fmadd_ps(mn, _mm256_set1_ps(sx[t * B + b]), acc[t][h]);
      }
    }
  }
  for (int t = 0; t < T; ++t) {
    _mm256_storeu_ps(out + t * N, acc[t][0]);
    _mm256_storeu_ps(out + t * N + 8, acc[t][1]);
  }
}
#else
template <int T, bool Two>
void panel_rows(const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* q, const int8_t* r,
                const float* dx, const float* sx, int64_t K, float* out, int64_t N) {
  for (int t = 0; t < T; ++t) {
    for (int l = 0; l < kPanel; ++l) {
      float acc = 0.f;
      for (int64_t b = 0; b < B; ++b) {
        const uint8_t* c = codes + b * 256;
        int32_t aq = 0, ar = 0;
        for (int j = 0; j < 4; ++j) {
          for (int i = 0; i < 4; ++i) {
            const uint8_t byte = c[64 * j + 4 * l + i];
            const int k0 = 8 * j + i, k1 = 8 * j + 4 + i;
            aq += (byte & 0x0F) * q[t * K + b * kBlock + k0] + (byte >> 4) * q[t * K + b * kBlock + k1];
            if (Two) ar += (byte & 0x0F) * r[t * K + b * kBlock + k0] + (byte >> 4) * r[t * K + b * kBlock + k1];
          }
        }
        const float f = static_cast<float>(Two ? aq * 128 + ar : aq);
        const float sc = half_to_float(scales[b * 32 + l]) * dx[t * B + b];
        acc = std::fma(sc, f, acc);
        acc = std::fma(half_to_float(scales[b * 32 + 16 + l]), sx[t * B + b], acc);
      }
      out[t * N + l] = acc;
    }
  }
}
#endif


// ---- 8-bit weights (Q8_0's form w = d * c, c in -127..127), panels of 16 outputs: codes [P, B, 8, 16, 4] u8
// holding c + 128 (lane l, byte i of vector g: input 32 b + 4 g + i), scales [P, B, 16] f16. The +128 makes the
// codes unsigned for the byte dot products; qs (above) takes 128 * sum(128 q + r) back out, exactly.
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512VNNI__)
template <int T>
void panel8_rows(const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* q, const int8_t* r,
                 const float* dx, const int32_t* qs, int64_t K, float* out, int64_t N) {
  __m512 acc[T];
  for (int t = 0; t < T; ++t) acc[t] = _mm512_setzero_ps();
  for (int64_t b = 0; b < B; ++b) {
    const uint8_t* c = codes + b * 512;
    prefetch_block8(codes, scales, b + kPrefetchBlocks);
    __m512i w[8];
    for (int g = 0; g < 8; ++g) w[g] = _mm512_loadu_si512(c + 64 * g);
    const __m512 d = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(scales + b * 16)));
    for (int t = 0; t < T; ++t) {
      const int8_t* qt = q + t * K + b * kBlock;
      const int8_t* rt = r + t * K + b * kBlock;
      // two chains per level (exact integer sums, any order): vpdpbusd's latency otherwise bounds one row
      __m512i aq = _mm512_setzero_si512(), ar = _mm512_setzero_si512();
      __m512i aq2 = _mm512_setzero_si512(), ar2 = _mm512_setzero_si512();
      for (int g = 0; g < 8; g += 2) {
        aq = _mm512_dpbusd_epi32(aq, w[g], _mm512_set1_epi32(group(qt + 4 * g)));
        ar = _mm512_dpbusd_epi32(ar, w[g], _mm512_set1_epi32(group(rt + 4 * g)));
        aq2 = _mm512_dpbusd_epi32(aq2, w[g + 1], _mm512_set1_epi32(group(qt + 4 * g + 4)));
        ar2 = _mm512_dpbusd_epi32(ar2, w[g + 1], _mm512_set1_epi32(group(rt + 4 * g + 4)));
      }
      aq = _mm512_add_epi32(aq, aq2);
      ar = _mm512_add_epi32(ar, ar2);
      const __m512i dot = _mm512_sub_epi32(_mm512_add_epi32(_mm512_slli_epi32(aq, 7), ar),
                                           _mm512_set1_epi32(128 * qs[t * B + b]));
      const __m512 sc = _mm512_mul_ps(d, _mm512_set1_ps(dx[t * B + b]));
      acc[t] = _mm512_fmadd_ps(sc, _mm512_cvtepi32_ps(dot), acc[t]);
    }
  }
  for (int t = 0; t < T; ++t) _mm512_storeu_ps(out + t * N, acc[t]);
}
#elif defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
// Without VNNI an 8-bit byte dot costs two multiplies (vpmaddubsw, then vpmaddwd) per level, and its pairs would
// overflow 16 bits against the +128 codes. Instead the two levels are joined once per call into v = 128 q + r
// (16 bits, |v| <= 16383) and the codes widened to 16 bits (c + 128 <= 255): one vpmaddwd then takes both levels
// of 16 products (pairs <= 2 * 255 * 16383 < 2^31), and the +128 comes back out through qs, as with VNNI. The
// integers are the same, so the bits are too (BENCHMARKS, issue 35: a verification's LM head on an AVX2 CPU).
#define THRIFTY_PANEL8_JOINED 1
constexpr int kTile8 = 3;  // a row's 4 accumulators and its broadcast activations, in 16 vector registers

template <int T>
void panel8_rows(const uint8_t* codes, const uint16_t* scales, int64_t B, const int16_t* v, const float* dx,
                 const int32_t* qs, int64_t K, float* out, int64_t N) {
  __m256 acc[T][2];
  for (int t = 0; t < T; ++t) acc[t][0] = acc[t][1] = _mm256_setzero_ps();
  for (int64_t b = 0; b < B; ++b) {
    prefetch_block8(codes, scales, b + kPrefetchBlocks);
    const uint8_t* c = codes + b * 512;
    // dots[t][j]: outputs 4j..4j+3 of the panel, two 32-bit halves each (inputs 0-1 and 2-3 of every group)
    __m256i dots[T][4];
    for (int t = 0; t < T; ++t) dots[t][0] = dots[t][1] = dots[t][2] = dots[t][3] = _mm256_setzero_si256();
    for (int g = 0; g < 8; ++g) {
      __m256i x[T];
      for (int t = 0; t < T; ++t) {  // inputs 4g..4g+3 of row t, repeated for four outputs
        int64_t four;
        std::memcpy(&four, v + t * K + b * kBlock + 4 * g, 8);
        x[t] = _mm256_set1_epi64x(four);
      }
      for (int j = 0; j < 4; ++j) {
        const __m256i w = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(c + 64 * g + 16 * j)));
        for (int t = 0; t < T; ++t) {
          dots[t][j] = _mm256_add_epi32(dots[t][j], _mm256_madd_epi16(w, x[t]));
          settle(dots[t][j]);
        }
      }
    }
    for (int h = 0; h < 2; ++h) {  // outputs 0-7, then 8-15
      const __m256 d = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(scales + b * 16 + 8 * h)));
      for (int t = 0; t < T; ++t) {
        // the pair sums: outputs 0,1,4,5 | 2,3,6,7 (of the eight), put in order by one 64-bit permute
        const __m256i paired = _mm256_permute4x64_epi64(_mm256_hadd_epi32(dots[t][2 * h], dots[t][2 * h + 1]), 0xD8);
        const __m256i dot = _mm256_sub_epi32(paired, _mm256_set1_epi32(128 * qs[t * B + b]));
        const __m256 sc = _mm256_mul_ps(d, _mm256_set1_ps(dx[t * B + b]));
        acc[t][h] = _mm256_fmadd_ps(sc, _mm256_cvtepi32_ps(dot), acc[t][h]);
      }
    }
  }
  for (int t = 0; t < T; ++t) {
    _mm256_storeu_ps(out + t * N, acc[t][0]);
    _mm256_storeu_ps(out + t * N + 8, acc[t][1]);
  }
}
#else
template <int T>
void panel8_rows(const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* q, const int8_t* r,
                 const float* dx, const int32_t* qs, int64_t K, float* out, int64_t N) {
  for (int t = 0; t < T; ++t) {
    for (int l = 0; l < kPanel; ++l) {
      float acc = 0.f;
      for (int64_t b = 0; b < B; ++b) {
        int32_t dot = 0;
        for (int g = 0; g < 8; ++g) {
          for (int i = 0; i < 4; ++i) {
            const int32_t code = static_cast<int32_t>(codes[b * 512 + 64 * g + 4 * l + i]) - 128;
            dot += code * (128 * q[t * K + b * kBlock + 4 * g + i] + r[t * K + b * kBlock + 4 * g + i]);
          }
        }
        const float sc = half_to_float(scales[b * 16 + l]) * dx[t * B + b];
        acc = std::fma(sc, static_cast<float>(dot), acc);
      }
      out[t * N + l] = acc;
    }
  }
}
#endif

#if !defined(THRIFTY_PANEL8_JOINED)
constexpr int kTile8 = kTile;
#endif

// one tile of T rows of an 8-bit panel: from the two levels q and r, or (AVX2 without VNNI) from v = 128 q + r
void tile8_dispatch(int T, const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* q, const int8_t* r,
                    const int16_t* v, const float* dx, const int32_t* qs, int64_t K, float* out, int64_t N) {
#if defined(THRIFTY_PANEL8_JOINED)
  switch (T) {
    case 1: return panel8_rows<1>(codes, scales, B, v, dx, qs, K, out, N);
    case 2: return panel8_rows<2>(codes, scales, B, v, dx, qs, K, out, N);
    default: return panel8_rows<kTile8>(codes, scales, B, v, dx, qs, K, out, N);
  }
#else
  (void)v;
  switch (T) {
    case 1: return panel8_rows<1>(codes, scales, B, q, r, dx, qs, K, out, N);
    case 2: return panel8_rows<2>(codes, scales, B, q, r, dx, qs, K, out, N);
    case 3: return panel8_rows<3>(codes, scales, B, q, r, dx, qs, K, out, N);
#if defined(__AVX512F__) && defined(__AVX512BW__)
    case 4: return panel8_rows<4>(codes, scales, B, q, r, dx, qs, K, out, N);
    case 5: return panel8_rows<5>(codes, scales, B, q, r, dx, qs, K, out, N);
    case 6: return panel8_rows<6>(codes, scales, B, q, r, dx, qs, K, out, N);
    case 7: return panel8_rows<7>(codes, scales, B, q, r, dx, qs, K, out, N);
    default: return panel8_rows<8>(codes, scales, B, q, r, dx, qs, K, out, N);
#else
    default: return panel8_rows<4>(codes, scales, B, q, r, dx, qs, K, out, N);
#endif
  }
#endif
}

template <bool Two>
void tile_rows(int T, const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* q, const int8_t* r,
               const float* dx, const float* sx, int64_t K, float* out, int64_t N) {
  switch (T) {
    case 1: return panel_rows<1, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
    case 2: return panel_rows<2, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
    case 3: return panel_rows<3, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
#if defined(__AVX512F__) && defined(__AVX512BW__)
    case 4: return panel_rows<4, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
    case 5: return panel_rows<5, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
    case 6: return panel_rows<6, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
    case 7: return panel_rows<7, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
    default: return panel_rows<8, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
#else
    default: return panel_rows<4, Two>(codes, scales, B, q, r, dx, sx, K, out, N);
#endif
  }
}

void tile_dispatch(int T, bool two, const uint8_t* codes, const uint16_t* scales, int64_t B, const int8_t* q,
                   const int8_t* r, const float* dx, const float* sx, int64_t K, float* out, int64_t N) {
  if (two) return tile_rows<true>(T, codes, scales, B, q, r, dx, sx, K, out, N);
  return tile_rows<false>(T, codes, scales, B, q, r, dx, sx, K, out, N);
}

// panels [p0, p1) of a 4-bit panel weight against M quantized rows, in tiles of up to kTile rows: the serial kernel of
// q4_panel_mm, shared with the fused layers (native_kernel_abi)
__attribute__((noinline)) void q4_panels(const uint8_t* codes, const uint16_t* scales, int64_t B, int64_t K, int64_t N,
                                         int64_t M, bool two, const int8_t* q, const int8_t* r, const float* dx,
                                         const float* sx, float* out, int64_t p0, int64_t p1) {
  int64_t tiled = 0;  // rows done by AMX tiles; the rest by the vector tiles, with the same bits
#if defined(THRIFTY_PANEL_AMX)
  if (M >= kTileRows && B > 0 && p1 > p0 && amx_ready()) {
    tiled = M / kTileRows * kTileRows;
    q4_panels_amx(codes, scales, B, K, N, two, q, r, dx, sx, out, p0, p1, 0, tiled);
  }
#endif
  const int64_t size = tile_size(M - tiled);
  for (int64_t p = p0; p < p1; ++p) {
    for (int64_t m0 = tiled; m0 < M; m0 += size) {
      const int T = static_cast<int>(std::min<int64_t>(size, M - m0));
      tile_dispatch(T, two, codes + p * B * 256, scales + p * B * 32, B, q + m0 * K, r + m0 * K, dx + m0 * B,
                    sx + m0 * B, K, out + m0 * N + p * kPanel, N);
    }
  }
}

// x: [M, K] f32 (row stride free, last dim contiguous); 4-bit: codes [N/16, K/32, 4, 16, 4] u8, scales
// [N/16, K/32, 2, 16] f16; 8-bit: codes [N/16, K/32, 8, 16, 4] u8, scales [N/16, K/32, 16] f16 -> [M, N] f32
template <bool FourBit>
at::Tensor panel_mm(const at::Tensor& x, const at::Tensor& codes, const at::Tensor& scales, bool two) {
  TORCH_CHECK(x.device().is_cpu() && x.scalar_type() == at::kFloat && x.dim() == 2 && x.stride(1) == 1,
              "x: float32 CPU [rows, in_features] with a contiguous last dim expected");
  TORCH_CHECK(codes.is_contiguous() && scales.is_contiguous() && codes.dim() == 5 && scales.dim() == (FourBit ? 4 : 3) &&
              codes.scalar_type() == at::kByte && scales.scalar_type() == at::kHalf,
              "codes/scales: contiguous panels (uint8 codes, float16 scales) expected");
  const int64_t M = x.size(0), K = x.size(1), P = codes.size(0), B = codes.size(1), N = P * kPanel;
  TORCH_CHECK(K == B * kBlock, "x: in_features ", K, " does not match the weight's ", B, " blocks of 32");
  TORCH_CHECK(codes.size(2) == (FourBit ? 4 : 8) && codes.size(3) == kPanel && codes.size(4) == 4 &&
              scales.size(0) == P && scales.size(1) == B &&
              (FourBit ? scales.size(2) == 2 && scales.size(3) == kPanel : scales.size(2) == kPanel),
              "codes/scales: shapes do not match the panel format");
  at::Tensor out = at::empty({M, N}, x.options());
  if (M == 0 || N == 0) return out;
#if defined(THRIFTY_PANEL8_JOINED)
  const bool joined = !FourBit;
#else
  const bool joined = false;
#endif
  at::Tensor work = at::empty({M * (2 * K + 12 * B) + (joined ? M * K * 2 : 0)}, x.options().dtype(at::kByte));
  float* dxp = reinterpret_cast<float*>(work.data_ptr<uint8_t>());
  float* sxp = dxp + M * B;
  int32_t* qsp = reinterpret_cast<int32_t*>(sxp + M * B);
  int8_t* qp = reinterpret_cast<int8_t*>(qsp + M * B);
  int8_t* rp = qp + M * K;
  int16_t* vp = reinterpret_cast<int16_t*>(rp + M * K);  // [M, K] 128 q + r, where the 8-bit kernel joins the levels
  quantize_rows(x.data_ptr<float>(), x.stride(0), M, K, two, qp, rp, dxp, sxp, qsp);
  if (joined) {
    for (int64_t i = 0; i < M * K; ++i) vp[i] = static_cast<int16_t>(128 * qp[i] + rp[i]);
  }
  const uint8_t* cp = codes.data_ptr<uint8_t>();
  const uint16_t* sp = reinterpret_cast<const uint16_t*>(scales.data_ptr());
  float* op = out.data_ptr<float>();
  // panels per task: enough work (~16k blocks x rows) that small layers stay on one thread
  const int64_t grain = std::max<int64_t>(1, 1024 / std::max<int64_t>(B * std::min<int64_t>(M, kTile), 1));
  at::parallel_for(0, P, grain, [&](int64_t p0, int64_t p1) {
    if constexpr (FourBit) {
      q4_panels(cp, sp, B, K, N, M, two, qp, rp, dxp, sxp, op, p0, p1);
      return;
    }
    const int64_t size = tile_size(M, kTile8);
    for (int64_t p = p0; p < p1; ++p) {
      for (int64_t m0 = 0; m0 < M; m0 += size) {
        const int T = static_cast<int>(std::min<int64_t>(size, M - m0));
        tile8_dispatch(T, cp + p * B * 512, sp + p * B * 16, B, qp + m0 * K, rp + m0 * K, vp + m0 * K, dxp + m0 * B,
                       qsp + m0 * B, K, op + m0 * N + p * kPanel, N);
      }
    }
  });
  return out;
}

at::Tensor q4_panel_mm(const at::Tensor& x, const at::Tensor& codes, const at::Tensor& scales, int64_t levels) {
  TORCH_CHECK(levels == 1 || levels == 2, "levels: 1 or 2 activation levels expected, got ", levels);
  return panel_mm<true>(x, codes, scales, levels == 2);
}

at::Tensor q8_panel_mm(const at::Tensor& x, const at::Tensor& codes, const at::Tensor& scales) {
  return panel_mm<false>(x, codes, scales, true);
}

// whether calls of 16 rows or more run on AMX tiles in this process (built with AMX-INT8, granted by Linux, and not
// turned off with THRIFTY_NATIVE_AMX=0)
bool amx_enabled() {
#if defined(THRIFTY_PANEL_AMX)
  return amx_ready();
#else
  return false;
#endif
}

// the serial kernels' addresses, in native_kernel_abi.PANEL_KERNELS' order (typed: a changed signature fails here)
std::vector<int64_t> kernel_addresses() {
  const thrifty_abi::quantize_range_fn quantize = &quantize_range;
  const thrifty_abi::q4_panels_fn panels = &q4_panels;
  return {reinterpret_cast<int64_t>(quantize), reinterpret_cast<int64_t>(panels)};
}

}  // namespace

TORCH_LIBRARY(NAMESPACE, m) {
  m.def("kernel_addresses() -> int[]", TORCH_FN(kernel_addresses));
  m.def("amx_enabled() -> bool", TORCH_FN(amx_enabled));
  m.def("q4_panel_mm(Tensor x, Tensor codes, Tensor scales, int levels=2) -> Tensor");
  m.def("q8_panel_mm(Tensor x, Tensor codes, Tensor scales) -> Tensor");
  m.impl("q4_panel_mm", c10::DispatchKey::CPU, TORCH_FN(q4_panel_mm));
  m.impl("q8_panel_mm", c10::DispatchKey::CPU, TORCH_FN(q8_panel_mm));
}
