"""The C signatures by which our native CPU operators share their serial kernels with the fused decoder layers.

Each of :mod:`backend.quant.panel_mm`, :mod:`backend.layer_ops_cpu` and :mod:`backend.attention_cpu` compiles its
arithmetic into plain functions over a range of rows (or panels, or attention tasks) and calls them from its own
operators' ``at::parallel_for``. Its ``kernel_addresses()`` operator returns their addresses, and
:mod:`backend.fused_layers_cpu` calls the very same machine code from one thread team. So a row computes the
same bits whichever path runs it (batch invariance), with no second copy of any kernel to keep in step.

:data:`KERNEL_ABI` is C++ text that every one of those sources includes: its typedefs are the contract, and
each exporting source assigns its functions to them, so a changed signature fails to compile on both sides.
The order of the addresses each operator returns is :data:`PANEL_KERNELS`, :data:`LAYER_KERNELS` and
:data:`ATTENTION_KERNELS`.
"""

from __future__ import annotations

KERNEL_ABI = r"""
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
"""

PANEL_KERNELS = ("quantize_range", "q4_panels")
LAYER_KERNELS = ("norm_rows", "rotary_rows", "silu_rows")
ATTENTION_KERNELS = ("attend_tasks_f32", "attend_tasks_bf16")
