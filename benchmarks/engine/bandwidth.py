"""The memory limit of a batch-1 decode step: the bytes it must read over the bandwidth this CPU reaches.

A batch-1 decode step is memory-bound: it reads every weight the linear kernels stream once, plus the K and V
of the whole context, and does little arithmetic per byte. Its floor on a CPU is therefore
``step bytes / read bandwidth at that working-set size``, and ``limit / measured step`` says how close an
engine gets (1.0 = at the limit). ``thrifty bench engine-profile`` prints this section.

* :func:`step_bytes` counts what one batch-1 decode step reads, from the loaded model's own modules: each
  linear layer's buffers as the kernel that takes one row reads them (for the int4/int8 layers under the
  native block kernel, ``native_codes`` + ``native_scales``; ``packed``, ``scales_and_zeros`` or a dense
  copy that the layer also holds are not read), the norms' weights, one row of the embedding table and of
  the rotary cos/sin tables, and the KV pool's K and V for ``context_len`` tokens in every layer.
* :func:`read_bandwidth` times a STREAM-like read loop (a C++ operator built at run time with
  :func:`backend.native_build.build_cpu_extension`, ``-O3 -march=native``: AVX-512 or AVX2 integer sums)
  over a buffer of the given size, on one thread or on all of torch's threads (``at::parallel_for``), best
  of several repetitions (:func:`read_bandwidths`: several sizes, their tries interleaved).
* :func:`llama_cpp_step_ms` times llama.cpp's single-stream decode step where ``llama_cpp`` is installed.
"""

from __future__ import annotations

import functools
import math
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
from torch import nn

_EXTENSION = "thrifty_read_bandwidth_v1"

_SOURCE = r"""
#include <ATen/Parallel.h>
#include <ATen/core/Tensor.h>
#include <torch/library.h>
#include <immintrin.h>

#include <cstdint>
#include <vector>

namespace {

// the sum of p[0..n) (int32 lanes, four independent accumulators so that loads, not adds, set the pace)
int64_t sum_span(const int32_t* p, int64_t n) {
  int64_t i = 0, s = 0;
#if defined(__AVX512F__)
  __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
  for (; i + 64 <= n; i += 64) {
    a0 = _mm512_add_epi32(a0, _mm512_loadu_si512(p + i));
    a1 = _mm512_add_epi32(a1, _mm512_loadu_si512(p + i + 16));
    a2 = _mm512_add_epi32(a2, _mm512_loadu_si512(p + i + 32));
    a3 = _mm512_add_epi32(a3, _mm512_loadu_si512(p + i + 48));
  }
  alignas(64) int32_t lanes[16];
  _mm512_store_si512(lanes, _mm512_add_epi32(_mm512_add_epi32(a0, a1), _mm512_add_epi32(a2, a3)));
  for (int j = 0; j < 16; ++j) s += lanes[j];
#elif defined(__AVX2__)
  __m256i a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0;
  for (; i + 32 <= n; i += 32) {
    a0 = _mm256_add_epi32(a0, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i)));
    a1 = _mm256_add_epi32(a1, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 8)));
    a2 = _mm256_add_epi32(a2, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 16)));
    a3 = _mm256_add_epi32(a3, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 24)));
  }
  alignas(32) int32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes),
                     _mm256_add_epi32(_mm256_add_epi32(a0, a1), _mm256_add_epi32(a2, a3)));
  for (int j = 0; j < 8; ++j) s += lanes[j];
#endif
  for (; i < n; ++i) s += p[i];
  return s;
}

// data: contiguous int32 [n]; reads it `passes` times (each thread its own contiguous share when parallel)
// -> the sum of every value read (n * passes for a buffer of ones)
int64_t read_sum(const at::Tensor& data, int64_t passes, bool parallel) {
  TORCH_CHECK(data.scalar_type() == at::kInt && data.is_contiguous(), "data: contiguous int32");
  const int32_t* p = data.data_ptr<int32_t>();
  const int64_t n = data.numel();
  const int64_t parts = parallel ? std::max<int64_t>(at::get_num_threads(), 1) : 1;
  std::vector<int64_t> sums(parts, 0);
  auto work = [&](int64_t begin, int64_t end) {
    for (int64_t part = begin; part < end; ++part) {
      const int64_t lo = n * part / parts, hi = n * (part + 1) / parts;
      int64_t s = 0;
      for (int64_t pass = 0; pass < passes; ++pass) {
        s += sum_span(p + lo, hi - lo);
        asm volatile("" ::: "memory");  // every pass reads memory again (no hoisting out of the loop)
      }
      sums[part] = s;
    }
  };
  if (parallel) {
    at::parallel_for(0, parts, 1, work);
  } else {
    work(0, parts);
  }
  int64_t total = 0;
  for (int64_t s : sums) total += s;
  return total;
}

}  // namespace

TORCH_LIBRARY(thrifty_bandwidth, m) {
  m.def("read_sum(Tensor data, int passes, bool parallel) -> int");
  m.impl("read_sum", c10::DispatchKey::CPU, TORCH_FN(read_sum));
}
"""

MiB = 1 << 20
FIXED_SIZES = (1 * MiB, 16 * MiB, 256 * MiB)  # L2-sized, L3-ish, well past any cache
_BYTES_PER_CALL = 256 * MiB  # each timed call reads at least this much (many passes over a small buffer)


@dataclass(frozen=True, slots=True)
class StepBytes:
    """What one batch-1 decode step reads, in bytes."""

    weights: int  # the linear layers' buffers, as the kernel that takes one row reads them
    kv: int  # K and V of the context, every layer (int8 pools: their float32 scales too)
    other: int  # the norms' weights, one embedding row, one row of the rotary cos/sin tables
    context_len: int

    @property
    def total(self) -> int:
        return self.weights + self.kv + self.other


def _nbytes(*tensors: torch.Tensor | None) -> int:
    return sum(t.numel() * t.element_size() for t in tensors if t is not None)


def linear_read_bytes(module: nn.Module) -> int | None:
    """The bytes ``module``'s forward reads for one row when it is a linear layer (None otherwise): the
    buffers of the path that :class:`~backend.quant.linear._QuantizedLinear` picks for ``rows == 1``."""
    from backend.quant.linear import Int4Linear, Int8Linear, TritonInt4Linear
    from backend.weights_dtype import BF16Linear

    if isinstance(module, Int4Linear | Int8Linear):
        if module.native_max_rows >= 1 and module.native_codes is not None:
            return _nbytes(module.native_codes, module.native_scales)
        if module.dense is not None and module.kernel_max_rows < 1:
            return _nbytes(module.dense)
        if isinstance(module, Int4Linear):
            return _nbytes(module.packed, module.scales_and_zeros)
        return _nbytes(module.values, module.scales)
    if isinstance(module, TritonInt4Linear):
        return _nbytes(module.codes, module.scales)
    if isinstance(module, nn.Linear):
        return _nbytes(module.weight, module.bias)
    if isinstance(module, BF16Linear):
        return _nbytes(module.weight)
    return None


def step_bytes(loaded: Any, context_len: int, kv_dtype: torch.dtype | None = None) -> StepBytes:
    """The bytes a batch-1 decode step of ``loaded`` (a :class:`backend.runtime.LoadedModel`) reads with
    ``context_len`` tokens in its KV cache, whose pool holds ``kv_dtype`` (default: the model's dtype)."""
    from backend.engine.config import kv_scale_bytes
    from backend.model import RMSNorm, RotaryEmbedding

    weights = other = 0
    for module in loaded.model.modules():
        linear = linear_read_bytes(module)
        if linear is not None:
            weights += linear
        elif isinstance(module, RMSNorm):
            other += _nbytes(module.weight)
        elif isinstance(module, nn.Embedding):
            other += module.weight.shape[1] * module.weight.element_size()  # this token's row
        elif isinstance(module, RotaryEmbedding):
            other += (module.cos.shape[-1] * module.cos.element_size()
                      + module.sin.shape[-1] * module.sin.element_size())  # this position's row of each
    cfg = loaded.model.config
    dtype = kv_dtype or loaded.dtype
    # one token of one layer, K or V: its values, and an int8 pool's scale per head
    per_token = cfg.num_kv_heads * (cfg.head_dim * torch.empty((), dtype=dtype).element_size() + kv_scale_bytes(dtype))
    kv = 2 * cfg.num_layers * context_len * per_token
    return StepBytes(weights, kv, other, context_len)


@functools.cache
def load_read_loop() -> Any | None:
    """Build (once per CPU, cached on disk) and load the read loop; its operator, or None where it cannot be
    built (no compiler, ``THRIFTY_NATIVE_BANDWIDTH=0``)."""
    from backend.native_build import build_cpu_extension, cpu_fingerprint

    built = build_cpu_extension(f"{_EXTENSION}_{cpu_fingerprint()}", _SOURCE, "THRIFTY_NATIVE_BANDWIDTH",
                                "the read-bandwidth loop", "no bandwidth figure", cflags=("-O3", "-march=native"))
    return torch.ops.thrifty_bandwidth.read_sum.default if built else None


def read_bandwidth(size_bytes: int, parallel: bool, repeats: int = 5) -> float:
    """Read bandwidth in GB/s (10⁹ bytes per second) over an int32 buffer of ``size_bytes``, summed on one
    thread or, ``parallel``, on all of torch's threads (each its own share): see :func:`read_bandwidths`."""
    return read_bandwidths([size_bytes], repeats, (parallel,))[size_bytes, parallel]


def read_bandwidths(sizes: Sequence[int], repeats: int = 5,
                    modes: Sequence[bool] = (False, True)) -> dict[tuple[int, bool], float]:
    """``(size, parallel) → GB/s`` for each working-set size and mode (False: one thread; True: all of torch's
    threads): the best of ``repeats`` timed calls after a warm-up, each call reading the buffer enough times
    to read at least ~256 MiB. The tries run in rounds (one of each size and mode per round), so that a burst
    of other load on a shared machine costs one try of each rather than every try of one. Raises
    RuntimeError where the loop cannot be built."""
    op = load_read_loop()
    if op is None:
        raise RuntimeError("the read-bandwidth loop could not be built (see the log)")
    buffers = {s: torch.ones(max(s // 4, 1), dtype=torch.int32) for s in sizes}  # [n] each; written: resident
    passes = {s: max(1, math.ceil(_BYTES_PER_CALL / data.nbytes)) for s, data in buffers.items()}
    for s, data in buffers.items():
        for parallel in modes:  # warm-up, and a check that every value was read
            if op(data, passes[s], parallel) != data.numel() * passes[s]:
                raise RuntimeError("the read-bandwidth loop summed the wrong total")
    best = {(s, parallel): math.inf for s in buffers for parallel in modes}
    for _ in range(repeats):
        for (s, parallel), seconds in best.items():
            start = time.perf_counter()
            op(buffers[s], passes[s], parallel)
            best[s, parallel] = min(seconds, time.perf_counter() - start)
    return {(s, parallel): buffers[s].nbytes * passes[s] / seconds / 1e9 for (s, parallel), seconds in best.items()}


def llama_cpp_step_ms(gguf_path: Path, n_threads: int, context_len: int, steps: int) -> float | None:
    """Median ms of llama.cpp's single-stream decode step (``llama_cpp.Llama.generate``, greedy, as
    :func:`benchmarks.engine.workload.run_llama_cpp` runs it) after a ``context_len``-token prompt, over
    ``steps`` steps; None where ``llama_cpp`` is not installed or the run fails.

    It runs in a child process with libgomp's default wait policy, as llama.cpp's users run it: this process
    often has ``OMP_WAIT_POLICY=PASSIVE`` (set for our engine), which libgomp reads once at start and which
    slows llama.cpp's thread pool."""
    import importlib.util
    import os
    import subprocess
    import sys

    if importlib.util.find_spec("llama_cpp") is None:
        return None
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    code = ("import sys; from benchmarks.engine.bandwidth import _llama_cpp_step_ms_here as step; "
            "ms = step(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])); "
            "print('' if ms is None else ms)")
    try:
        done = subprocess.run([sys.executable, "-c", code, str(gguf_path), str(n_threads), str(context_len), str(steps)],
                              env=env, capture_output=True, text=True, timeout=900, check=True)
    except (subprocess.SubprocessError, OSError) as exc:
        print(f"llama.cpp step not measured: {exc}", file=sys.stderr)
        return None
    lines = done.stdout.strip().splitlines()
    return float(lines[-1]) if lines and lines[-1] else None


def _llama_cpp_step_ms_here(gguf_path: str, n_threads: int, context_len: int, steps: int) -> float | None:
    """:func:`llama_cpp_step_ms` in this process."""
    from llama_cpp import Llama

    llm = Llama(model_path=str(gguf_path), n_ctx=context_len + steps + 16, n_batch=512, n_threads=n_threads,
                n_threads_batch=n_threads, verbose=False)
    prompt = [1000 + i % 30000 for i in range(context_len)]
    warm_up = 2
    stamps: list[float] = []
    for token_count, _token in enumerate(llm.generate(prompt, top_k=1, top_p=1.0, temp=0.0, repeat_penalty=1.0,
                                                      reset=True), start=1):
        stamps.append(time.perf_counter())  # the first one after the prefill, then one per decode step
        if token_count > warm_up + steps:
            break
    gaps = [b - a for a, b in zip(stamps[warm_up:], stamps[warm_up + 1:], strict=False)]
    return statistics.median(gaps) * 1000.0 if gaps else None


def _mb(n: float) -> str:
    return f"{n / 1e6:.1f} MB"


def memory_limit_section(loaded: Any, cpu: str, ours_ms: float, context_len: int, kv_dtype: torch.dtype | None = None,
                         repeats: int = 10, llama_ms: float | None = None, llama_note: str = "") -> str:
    """The markdown "memory limit" section: read bandwidth at the fixed sizes and at the step's working set
    (one thread and all of torch's), the bytes of a batch-1 decode step at ``context_len`` tokens, the limit
    in ms per step, and ``ours_ms`` (and ``llama_ms`` where given; else ``llama_note`` says why not) as a
    fraction of it (limit / step: 1.0 = at the limit)."""
    threads = torch.get_num_threads()
    need = step_bytes(loaded, context_len, kv_dtype)
    lines = ["#### memory limit (decode, batch 1)\n",
             f"CPU {cpu}, {threads} torch threads. Bytes one batch-1 decode step reads at {context_len} tokens of "
             f"context: **{_mb(need.total)}** = weights {_mb(need.weights)} + KV {_mb(need.kv)} + other "
             f"{_mb(need.other)} (norms, one embedding row, one rotary row).\n"]
    sizes = sorted({*FIXED_SIZES, need.total})
    try:
        bandwidth = read_bandwidths(sizes, repeats)
    except RuntimeError as exc:
        return "\n".join([*lines, f"read bandwidth: unavailable ({exc})\n"])
    lines += [f"Read bandwidth (STREAM-like int32 sum, -O3 -march=native, best of {repeats}):\n",
              f"| working set | 1 thread GB/s | {threads} threads GB/s |", "|---|---:|---:|"]
    for s in sizes:
        name = f"{_mb(s)} (the step)" if s == need.total else f"{s // MiB} MiB"
        lines.append(f"| {name} | {bandwidth[s, False]:.1f} | {bandwidth[s, True]:.1f} |")
    limit_ms = need.total / (bandwidth[need.total, True] * 1e9) * 1000.0
    single_ms = need.total / (bandwidth[need.total, False] * 1e9) * 1000.0
    lines += ["", "| batch-1 decode step | ms / step | fraction of the limit |", "|---|---:|---:|",
              f"| memory limit ({threads} threads) | {limit_ms:.2f} | 1.00 |",
              f"| memory limit (1 thread) | {single_ms:.2f} | {limit_ms / single_ms:.2f} |",
              f"| Thrifty (unprofiled, median) | {ours_ms:.2f} | {limit_ms / ours_ms:.2f} |"]
    if llama_ms is not None:
        lines.append(f"| llama.cpp ({llama_note}) | {llama_ms:.2f} | {limit_ms / llama_ms:.2f} |")
    else:
        lines += ["", f"llama.cpp: {llama_note}"]
    return "\n".join(lines) + "\n"
