// The C signatures by which the native CPU operators share their serial kernels with the fused decoder layers
// (backend/native_kernel_abi.py). Each part's body includes it; building the parts together puts a copy in each
// part's namespace.
#pragma once
namespace thrifty_abi {
// rows [begin, end) of x (row stride xs) -> 8-bit activation blocks (see panel_mm.py)
typedef void (*quantize_range_fn)(const float* x, int64_t xs, int64_t K, bool two, int8_t* q, int8_t* r, float* dx,
                                  float* sx, int32_t* qs, int64_t begin, int64_t end);
// panels [p0, p1) of a 4-bit panel weight against M quantized rows -> out [M, N]
typedef void (*q4_panels_fn)(const uint8_t* codes, const uint16_t* scales, int64_t B, int64_t K, int64_t N,
                             int64_t M, bool two, const int8_t* q, const int8_t* r, const float* dx, const float* sx,
                             float* out, int64_t p0, int64_t p1);
// rows [begin, end): out = rms_norm(x (+ residual)) * w, summed = x + residual (residual, summed: nullable)
typedef void (*norm_rows_fn)(const float* x, int64_t xs, const float* residual, int64_t rs, float* summed,
                             float* out, const float* w, int64_t H, float eps, int64_t begin, int64_t end);
// tokens [begin, end): rotary embedding of q [T, Hq, D] and k [T, Hk, D] (strided) into contiguous outputs
typedef void (*rotary_rows_fn)(const float* q, int64_t qs0, int64_t qs1, const float* k, int64_t ks0, int64_t ks1,
                               const int64_t* positions, const float* cos, const float* sin, int64_t Hq, int64_t Hk,
                               int64_t D, float* q_out, float* k_out, int64_t begin, int64_t end);
// rows [begin, end): out [T, d] = silu(gate) * up of x [T, 2d] (row stride xs)
typedef void (*silu_rows_fn)(const float* x, int64_t xs, float* out, int64_t d, int64_t begin, int64_t end);
// tasks [begin, end) of paged attention (task = row * Hkv + kv head); pools float32 or bfloat16 (the address
// picks the type): q [T, Hq, D], pools [NB, BS, Hkv, D], tables [S, W], row_seq / row_len [T] -> out [T, Hq, D]
typedef void (*attend_tasks_fn)(const float* q, const void* k_pool, const void* v_pool, const int32_t* tables,
                                const int32_t* row_seq, const int32_t* row_len, float* out, int64_t Hq, int64_t Hkv,
                                int64_t D, int64_t BS, int64_t W, float scale, int64_t begin, int64_t end);
}  // namespace thrifty_abi
