#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <torch/library.h>

#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

// --- part body: built inside a namespace of its own (backend/native_build.py) ---
#include "kernel_abi.h"
namespace {

// rows per parallel task: small calls (decode) stay on the calling thread
inline int64_t grain_for(int64_t rows, int64_t width) {
  return rows * width < 32768 ? std::max<int64_t>(rows, 1) : std::max<int64_t>(1, 8192 / std::max<int64_t>(width, 1));
}

void check_rows(const at::Tensor& t, const char* name) {
  TORCH_CHECK(t.device().is_cpu() && t.scalar_type() == at::kFloat, name, ": float32 CPU tensor expected");
  TORCH_CHECK(t.dim() == 2 && t.stride(1) == 1, name, ": [rows, width] with a contiguous last dim expected");
}

// The serial row kernels (noinline: one copy of the machine code, which the fused layers call too;
// native_kernel_abi). Rows [begin, end) of: out = rms_norm(x + residual) * w with summed = x + residual, or
// out = rms_norm(x) * w without a residual (residual and summed null). summed may alias residual.
__attribute__((noinline)) void norm_rows(const float* xp, int64_t xs, const float* rp, int64_t rs, float* sp,
                                         float* op, const float* w, int64_t H, float e, int64_t begin, int64_t end) {
  for (int64_t t = begin; t < end; ++t) {
    const float* src = xp + t * xs;
    if (rp != nullptr) {
      float* s = sp + t * H;
      const float* r = rp + t * rs;
      for (int64_t i = 0; i < H; ++i) s[i] = src[i] + r[i];
      src = s;
    }
    double sq = 0.0;
    for (int64_t i = 0; i < H; ++i) sq += static_cast<double>(src[i]) * src[i];
    const float inv = 1.f / std::sqrt(static_cast<float>(sq / H) + e);
    float* o = op + t * H;
    for (int64_t i = 0; i < H; ++i) o[i] = src[i] * inv * w[i];
  }
}

// tokens [begin, end) of the rotary embedding ("rotate_half"): q [T, Hq, D] and k [T, Hk, D] with free token and
// head strides -> contiguous q_out [T, Hq, D], k_out [T, Hk, D]; cos / sin rows of D / 2 at each token's position
__attribute__((noinline)) void rotary_rows(const float* qp, int64_t qs0, int64_t qs1, const float* kp, int64_t ks0,
                                           int64_t ks1, const int64_t* pp, const float* cp, const float* snp,
                                           int64_t Hq, int64_t Hk, int64_t D, float* qop, float* kop, int64_t begin,
                                           int64_t end) {
  const int64_t half = D / 2;
  for (int64_t t = begin; t < end; ++t) {
    const float* c = cp + pp[t] * half;
    const float* s = snp + pp[t] * half;
    for (int64_t h = 0; h < Hq + Hk; ++h) {
      const bool is_q = h < Hq;
      const float* x = is_q ? qp + t * qs0 + h * qs1 : kp + t * ks0 + (h - Hq) * ks1;
      float* o = is_q ? qop + (t * Hq + h) * D : kop + (t * Hk + h - Hq) * D;
      for (int64_t i = 0; i < half; ++i) {
        const float x1 = x[i], x2 = x[i + half];
        o[i] = x1 * c[i] - x2 * s[i];
        o[i + half] = x2 * c[i] + x1 * s[i];
      }
    }
  }
}

// rows [begin, end): out [T, d] = silu(gate) * up of x [T, 2d] (row stride xs)
__attribute__((noinline)) void silu_rows(const float* xp, int64_t xs, float* op, int64_t d, int64_t begin,
                                         int64_t end) {
  for (int64_t t = begin; t < end; ++t) {
    const float* g = xp + t * xs;
    const float* u = g + d;
    float* o = op + t * d;
    for (int64_t i = 0; i < d; ++i) o[i] = g[i] / (1.f + std::exp(-g[i])) * u[i];
  }
}

// x, residual: [T, H] f32 (row strides free); weight: [H] f32
// -> (rms_norm(x + residual) * weight, x + residual), or (rms_norm(x) * weight, x) without a residual
std::tuple<at::Tensor, at::Tensor> add_rms_norm(const at::Tensor& x, const c10::optional<at::Tensor>& residual,
                                                const at::Tensor& weight, double eps) {
  check_rows(x, "x");
  const int64_t T = x.size(0), H = x.size(1);
  TORCH_CHECK(weight.scalar_type() == at::kFloat && weight.is_contiguous() && weight.numel() == H,
              "weight: float32 [hidden] expected");
  const bool has_res = residual.has_value() && residual->defined();
  if (has_res) {
    check_rows(*residual, "residual");
    TORCH_CHECK(residual->sizes() == x.sizes(), "residual: same shape as x expected");
  }
  at::Tensor out = at::empty({T, H}, x.options());
  at::Tensor summed = has_res ? at::empty({T, H}, x.options()) : x;
  const float* xp = x.data_ptr<float>();
  const float* rp = has_res ? residual->data_ptr<float>() : nullptr;
  float* sp = has_res ? summed.data_ptr<float>() : nullptr;
  float* op = out.data_ptr<float>();
  const float* w = weight.data_ptr<float>();
  const int64_t xs = x.stride(0), rs = has_res ? residual->stride(0) : 0;
  const float e = static_cast<float>(eps);
  at::parallel_for(0, T, grain_for(T, H), [&](int64_t begin, int64_t end) {
    norm_rows(xp, xs, rp, rs, sp, op, w, H, e, begin, end);
  });
  return {out, summed};
}

// q: [T, Hq, D], k: [T, Hk, D] f32 (token/head strides free, last dim contiguous); positions: [T] int;
// cos, sin: [P, D/2] f32 -> new contiguous (q_rot, k_rot), "rotate_half" convention
std::tuple<at::Tensor, at::Tensor> rotary(const at::Tensor& q, const at::Tensor& k, const at::Tensor& positions,
                                          const at::Tensor& cos, const at::Tensor& sin) {
  for (const auto* t : {&q, &k}) {
    TORCH_CHECK(t->device().is_cpu() && t->scalar_type() == at::kFloat && t->dim() == 3 && t->stride(2) == 1,
                "q/k: float32 [tokens, heads, head_dim] with a contiguous last dim expected");
  }
  const int64_t T = q.size(0), Hq = q.size(1), Hk = k.size(1), D = q.size(2), half = D / 2;
  TORCH_CHECK(k.size(0) == T && k.size(2) == D && D % 2 == 0, "q/k: same tokens and an even head_dim expected");
  TORCH_CHECK(cos.scalar_type() == at::kFloat && sin.scalar_type() == at::kFloat && cos.is_contiguous() &&
              sin.is_contiguous() && cos.dim() == 2 && cos.size(1) == half && sin.sizes() == cos.sizes(),
              "cos/sin: float32 [max_positions, head_dim / 2] expected");
  const at::Tensor pos = positions.to(at::kLong).contiguous();
  TORCH_CHECK(pos.numel() == T, "positions: one per token expected");
  const int64_t P = cos.size(0);
  const int64_t* pp = pos.data_ptr<int64_t>();
  for (int64_t t = 0; t < T; ++t) TORCH_CHECK(pp[t] >= 0 && pp[t] < P, "position out of the rotary table's range");
  at::Tensor qo = at::empty({T, Hq, D}, q.options()), ko = at::empty({T, Hk, D}, k.options());
  const float* qp = q.data_ptr<float>();
  const float* kp = k.data_ptr<float>();
  const float* cp = cos.data_ptr<float>();
  const float* snp = sin.data_ptr<float>();
  float* qop = qo.data_ptr<float>();
  float* kop = ko.data_ptr<float>();
  const int64_t qs0 = q.stride(0), qs1 = q.stride(1), ks0 = k.stride(0), ks1 = k.stride(1);
  at::parallel_for(0, T, grain_for(T, (Hq + Hk) * D), [&](int64_t begin, int64_t end) {
    rotary_rows(qp, qs0, qs1, kp, ks0, ks1, pp, cp, snp, Hq, Hk, D, qop, kop, begin, end);
  });
  return {qo, ko};
}

// x: [T, 2d] f32 = gate (+) up -> silu(gate) * up: [T, d]
at::Tensor silu_and_mul(const at::Tensor& x) {
  check_rows(x, "x");
  const int64_t T = x.size(0), d = x.size(1) / 2;
  TORCH_CHECK(x.size(1) % 2 == 0, "x: an even width (gate and up halves) expected");
  at::Tensor out = at::empty({T, d}, x.options());
  const float* xp = x.data_ptr<float>();
  float* op = out.data_ptr<float>();
  const int64_t xs = x.stride(0);
  at::parallel_for(0, T, grain_for(T, d), [&](int64_t begin, int64_t end) {
    silu_rows(xp, xs, op, d, begin, end);
  });
  return out;
}

// the row kernels' addresses, in native_kernel_abi.LAYER_KERNELS' order (typed: a changed signature fails here)
std::vector<int64_t> kernel_addresses() {
  const thrifty_abi::norm_rows_fn norm = &norm_rows;
  const thrifty_abi::rotary_rows_fn rotary = &rotary_rows;
  const thrifty_abi::silu_rows_fn silu = &silu_rows;
  return {reinterpret_cast<int64_t>(norm), reinterpret_cast<int64_t>(rotary), reinterpret_cast<int64_t>(silu)};
}

}  // namespace

TORCH_LIBRARY(thrifty_layer_cpu, m) {
  m.def("kernel_addresses() -> int[]", TORCH_FN(kernel_addresses));
  m.def("add_rms_norm(Tensor x, Tensor? residual, Tensor weight, float eps) -> (Tensor, Tensor)");
  m.def("rotary(Tensor q, Tensor k, Tensor positions, Tensor cos, Tensor sin) -> (Tensor, Tensor)");
  m.def("silu_and_mul(Tensor x) -> Tensor");
  m.impl("add_rms_norm", c10::DispatchKey::CPU, TORCH_FN(add_rms_norm));
  m.impl("rotary", c10::DispatchKey::CPU, TORCH_FN(rotary));
  m.impl("silu_and_mul", c10::DispatchKey::CPU, TORCH_FN(silu_and_mul));
}
