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

// --- part body: built inside a namespace of its own (backend/native_build.py) ---
#include "kernel_abi.h"
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
