"""Kernel micro-benchmarks: each Triton kernel against PyTorch, printed as a markdown table.

Usage::

    python -m benchmarks.kernels.bench                       # all ops, batch 1..256, context 512..8k, bf16
    python -m benchmarks.kernels.bench --ops decode,prefill --batch 1,64 --context 2048 --int8

Shapes default to SmolLM2-135M (9 query heads, 3 KV heads, head_dim 64, hidden 576,
intermediate 1536). Baselines:

* decode: ``torch.index_select`` gather of the paged cache + ``scaled_dot_product_attention``
  (``enable_gqa``), i.e. a straightforward PyTorch paged decode; the table also shows SDPA on
  already-contiguous K/V (no paging) as a lower bound for what PyTorch can do.
* prefill: SDPA causal over dense ``[B, H, ctx, D]`` (every sequence the same length, no paging).
* store: index assignment into the flattened cache; elementwise ops: the fp32 eager references.

Every case also checks the Triton output against its baseline (``max_err``). Needs CUDA; on a
machine without it, prints a message and exits 0.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import torch
import torch.nn.functional as F

import kernels
from kernels import reference

OPS = ("decode", "prefill", "store", "rms_norm", "fused_add_rms_norm", "rotary", "silu_and_mul")
DTYPES = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}


@dataclass(frozen=True, slots=True)
class BenchConfig:
    ops: tuple[str, ...] = OPS
    batches: tuple[int, ...] = (1, 8, 32, 64, 128, 256)
    contexts: tuple[int, ...] = (512, 1024, 2048, 4096, 8192)
    dtype: torch.dtype = torch.bfloat16
    num_q_heads: int = 9
    num_kv_heads: int = 3
    head_dim: int = 64
    hidden: int = 576
    intermediate: int = 1536
    block_size: int = 16
    int8: bool = False
    max_prefill_tokens: int = 65536
    warmup: int = 10
    iters: int = 50


@dataclass(slots=True)
class Case:
    op: str
    batch: int
    context: int
    triton_fn: Callable[[], torch.Tensor]
    torch_fn: Callable[[], torch.Tensor]
    baseline: str
    extra_fn: Callable[[], torch.Tensor] | None = None  # second PyTorch timing (decode: dense SDPA)
    bytes_moved: int = 0


def _paged_cache(cfg: BenchConfig, batch: int, context: int, device: torch.device, quantized: bool):
    """Uniform-length paged cache with shuffled pages. Returns (k, v, ks, vs, block_tables, context_lens)."""
    pages = (context + cfg.block_size - 1) // cfg.block_size
    num_blocks = batch * pages
    shape = (num_blocks, cfg.block_size, cfg.num_kv_heads, cfg.head_dim)
    if quantized:
        k = torch.randint(-127, 128, shape, dtype=torch.int8, device=device)
        v = torch.randint(-127, 128, shape, dtype=torch.int8, device=device)
        ks = torch.rand(shape[:3], device=device) * 0.01
        vs = torch.rand(shape[:3], device=device) * 0.01
    else:
        k = torch.randn(shape, device=device).to(cfg.dtype)
        v = torch.randn(shape, device=device).to(cfg.dtype)
        ks = vs = None
    bt = torch.randperm(num_blocks, device=device).to(torch.int32).view(batch, pages)  # [B, pages]
    lens = torch.full((batch,), context, dtype=torch.int32, device=device)
    return k, v, ks, vs, bt, lens


def _decode_cases(cfg: BenchConfig, device: torch.device, quantized: bool) -> Iterator[Case]:
    hq, hk, d = cfg.num_q_heads, cfg.num_kv_heads, cfg.head_dim
    for batch in cfg.batches:
        for context in cfg.contexts:
            k, v, ks, vs, bt, lens = _paged_cache(cfg, batch, context, device, quantized)
            q = torch.randn(batch, hq, d, device=device).to(cfg.dtype)  # [B, Hq, D]
            if quantized:
                assert ks is not None and vs is not None
                kd = reference.dequantize_kv_int8(k, ks, cfg.dtype)
                vd = reference.dequantize_kv_int8(v, vs, cfg.dtype)
            else:
                kd, vd = k, v
            k_dense = kd[bt.long()].flatten(1, 2)[:, :context].transpose(1, 2).contiguous()  # [B, Hk, L, D]
            v_dense = vd[bt.long()].flatten(1, 2)[:, :context].transpose(1, 2).contiguous()

            def tri(q=q, k=k, v=v, ks=ks, vs=vs, bt=bt, lens=lens) -> torch.Tensor:
                return kernels.paged_decode_attention(q, k, v, bt, lens, k_scale=ks, v_scale=vs, use_triton=True)

            def gather_sdpa(q=q, kd=kd, vd=vd, bt=bt, context=context, batch=batch) -> torch.Tensor:
                idx = bt.long().flatten()
                kk = kd.index_select(0, idx).view(batch, -1, hk, d)[:, :context].transpose(1, 2)  # [B, Hk, L, D]
                vv = vd.index_select(0, idx).view(batch, -1, hk, d)[:, :context].transpose(1, 2)
                out = F.scaled_dot_product_attention(q[:, :, None, :], kk, vv, enable_gqa=True)  # [B, Hq, 1, D]
                return out[:, :, 0]

            def dense_sdpa(q=q, k_dense=k_dense, v_dense=v_dense) -> torch.Tensor:
                return F.scaled_dot_product_attention(q[:, :, None, :], k_dense, v_dense, enable_gqa=True)[:, :, 0]

            elem = 1 if quantized else torch.finfo(cfg.dtype).bits // 8
            moved = 2 * batch * context * hk * d * elem + (2 * batch * context * hk * 4 if quantized else 0)
            yield Case("decode-int8" if quantized else "decode", batch, context, tri, gather_sdpa,
                       "gather+SDPA", dense_sdpa, moved)
            del k, v, ks, vs, kd, vd, k_dense, v_dense


def _prefill_cases(cfg: BenchConfig, device: torch.device) -> Iterator[Case]:
    hq, d = cfg.num_q_heads, cfg.head_dim
    for batch in cfg.batches:
        for context in cfg.contexts:
            if batch * context > cfg.max_prefill_tokens:
                continue
            k, v, _, _, bt, lens = _paged_cache(cfg, batch, context, device, False)
            q = torch.randn(batch * context, hq, d, device=device).to(cfg.dtype)  # [T, Hq, D]
            cu = torch.arange(0, batch * context + 1, context, dtype=torch.int32, device=device)  # [B + 1]
            k_dense = k[bt.long()].flatten(1, 2)[:, :context].transpose(1, 2).contiguous()  # [B, Hk, L, D]
            v_dense = v[bt.long()].flatten(1, 2)[:, :context].transpose(1, 2).contiguous()
            q_dense = q.view(batch, context, hq, d).transpose(1, 2).contiguous()  # [B, Hq, L, D]

            def tri(q=q, k=k, v=v, bt=bt, cu=cu, lens=lens, context=context) -> torch.Tensor:
                return kernels.paged_prefill_attention(q, k, v, bt, cu, lens, max_seqlen_q=context, use_triton=True)

            def sdpa(q_dense=q_dense, k_dense=k_dense, v_dense=v_dense, batch=batch, context=context) -> torch.Tensor:
                out = F.scaled_dot_product_attention(q_dense, k_dense, v_dense, is_causal=True, enable_gqa=True)
                return out.transpose(1, 2).reshape(batch * context, hq, d)

            yield Case("prefill", batch, context, tri, sdpa, "dense causal SDPA")
            del k, v, k_dense, v_dense, q_dense


def _token_counts(cfg: BenchConfig) -> list[int]:
    return sorted(set(cfg.batches) | set(cfg.contexts))


def _store_cases(cfg: BenchConfig, device: torch.device) -> Iterator[Case]:
    hk, d = cfg.num_kv_heads, cfg.head_dim
    for tokens in _token_counts(cfg):
        num_blocks = 2 * ((tokens + cfg.block_size - 1) // cfg.block_size)
        shape = (num_blocks, cfg.block_size, hk, d)
        kc = torch.zeros(shape, dtype=cfg.dtype, device=device)
        vc = torch.zeros(shape, dtype=cfg.dtype, device=device)
        slots = torch.randperm(num_blocks * cfg.block_size, device=device)[:tokens]
        key = torch.randn(tokens, hk, d, device=device).to(cfg.dtype)
        value = torch.randn(tokens, hk, d, device=device).to(cfg.dtype)

        def tri(key=key, value=value, kc=kc, vc=vc, slots=slots) -> torch.Tensor:
            kernels.store_kv_cache(key, value, kc, vc, slots, use_triton=True)
            return kc

        def eager(key=key, value=value, kc=kc, vc=vc, slots=slots) -> torch.Tensor:
            kc.view(-1, hk, d)[slots] = key
            vc.view(-1, hk, d)[slots] = value
            return kc

        yield Case("store", tokens, 0, tri, eager, "index_put")


def _elementwise_cases(cfg: BenchConfig, device: torch.device) -> Iterator[Case]:
    cos, sin = kernels.rope_cos_sin(cfg.head_dim, max(cfg.contexts) + 1, device=device)
    for tokens in _token_counts(cfg):
        x = torch.randn(tokens, cfg.hidden, device=device).to(cfg.dtype)
        r = torch.randn(tokens, cfg.hidden, device=device).to(cfg.dtype)
        w = torch.randn(cfg.hidden, device=device).to(cfg.dtype)
        if "rms_norm" in cfg.ops:
            yield Case("rms_norm", tokens, 0, lambda x=x, w=w: kernels.rms_norm(x, w, 1e-5, use_triton=True),
                       lambda x=x, w=w: reference.rms_norm(x, w, 1e-5), "eager fp32")
        if "fused_add_rms_norm" in cfg.ops:
            yield Case("fused_add_rms_norm", tokens, 0,
                       lambda x=x, r=r, w=w: kernels.fused_add_rms_norm(x, r, w, 1e-5, use_triton=True)[0],
                       lambda x=x, r=r, w=w: reference.fused_add_rms_norm(x, r, w, 1e-5)[0], "eager fp32")
        if "rotary" in cfg.ops:
            q = torch.randn(tokens, cfg.num_q_heads, cfg.head_dim, device=device).to(cfg.dtype)
            k = torch.randn(tokens, cfg.num_kv_heads, cfg.head_dim, device=device).to(cfg.dtype)
            pos = torch.randint(0, max(cfg.contexts), (tokens,), device=device)
            yield Case("rotary", tokens, 0,
                       lambda q=q, k=k, pos=pos: kernels.rotary_embedding(q, k, pos, cos, sin, use_triton=True)[0],
                       lambda q=q, k=k, pos=pos: reference.rotary_embedding(q, k, pos, cos, sin)[0], "eager fp32")
        if "silu_and_mul" in cfg.ops:
            gu = torch.randn(tokens, 2 * cfg.intermediate, device=device).to(cfg.dtype)
            yield Case("silu_and_mul", tokens, 0, lambda gu=gu: kernels.silu_and_mul(gu, use_triton=True),
                       lambda gu=gu: reference.silu_and_mul(gu), "eager fp32")


def iter_cases(cfg: BenchConfig, device: torch.device) -> Iterator[Case]:
    """Build cases lazily (one case's tensors alive at a time, modulo the caller)."""
    if "decode" in cfg.ops:
        yield from _decode_cases(cfg, device, quantized=False)
        if cfg.int8:
            yield from _decode_cases(cfg, device, quantized=True)
    if "prefill" in cfg.ops:
        yield from _prefill_cases(cfg, device)
    if "store" in cfg.ops:
        yield from _store_cases(cfg, device)
    if {"rms_norm", "fused_add_rms_norm", "rotary", "silu_and_mul"} & set(cfg.ops):
        yield from _elementwise_cases(cfg, device)


def cuda_time_ms(fn: Callable[[], object], warmup: int, iters: int) -> float:
    """Median of per-call CUDA-event timings, in milliseconds."""
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(iters)]
    for s, e in zip(starts, ends, strict=True):
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in zip(starts, ends, strict=True))


def run(
    cfg: BenchConfig,
    device: torch.device,
    timer: Callable[[Callable[[], object]], float],
    *,
    progress: bool = False,
) -> list[str]:
    """Run every case (``timer(fn)`` → milliseconds); returns the markdown table rows, header first.
    With ``progress`` each row is also echoed to stderr as soon as it is measured."""
    rows = [
        "| op | batch/tokens | context | triton µs | torch µs | torch baseline | speedup | dense SDPA µs | triton GB/s | max_err |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|",
    ]
    for case in iter_cases(cfg, device):
        try:
            got, want = case.triton_fn().float(), case.torch_fn().float()
            err = float((got - want).abs().max()) if got.numel() else 0.0
            t_tri = timer(case.triton_fn) * 1e3
            t_ref = timer(case.torch_fn) * 1e3
            t_extra = f"{timer(case.extra_fn) * 1e3:.1f}" if case.extra_fn is not None else ""
            gbs = f"{case.bytes_moved / (t_tri * 1e-6) / 1e9:.0f}" if case.bytes_moved and t_tri > 0 else ""
            speed = f"{t_ref / t_tri:.2f}x" if t_tri > 0 else ""
            rows.append(
                f"| {case.op} | {case.batch} | {case.context or ''} | {t_tri:.1f} | {t_ref:.1f} | {case.baseline} | "
                f"{speed} | {t_extra} | {gbs} | {err:.2e} |"
            )
        except torch.cuda.OutOfMemoryError:
            rows.append(f"| {case.op} | {case.batch} | {case.context or ''} | OOM | | | | | | |")
            torch.cuda.empty_cache()
        if progress:
            print(rows[-1], file=sys.stderr, flush=True)
    return rows


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(t) for t in text.split(",") if t.strip())


def parse_args(argv: list[str] | None) -> BenchConfig:
    p = argparse.ArgumentParser(prog="thrifty bench kernels", description=__doc__.split("\n\n")[0])
    p.add_argument("--ops", default=",".join(OPS), help=f"comma list from {', '.join(OPS)}")
    p.add_argument("--batch", default="1,8,32,64,128,256", help="batch sizes (token counts for elementwise ops)")
    p.add_argument("--context", default="512,1024,2048,4096,8192", help="context lengths")
    p.add_argument("--dtype", default="bf16", choices=sorted(DTYPES))
    p.add_argument("--block-size", type=int, default=16)
    p.add_argument("--heads", type=int, default=9)
    p.add_argument("--kv-heads", type=int, default=3)
    p.add_argument("--head-dim", type=int, default=64)
    p.add_argument("--int8", action="store_true", help="also benchmark decode over an int8 KV cache")
    p.add_argument("--max-prefill-tokens", type=int, default=65536)
    p.add_argument("--warmup", type=int, default=10)
    p.add_argument("--iters", type=int, default=50)
    a = p.parse_args(argv)
    ops = tuple(o.strip() for o in a.ops.split(",") if o.strip())
    unknown = set(ops) - set(OPS)
    if unknown:
        p.error(f"unknown ops: {', '.join(sorted(unknown))}")
    return BenchConfig(
        ops=ops, batches=_ints(a.batch), contexts=_ints(a.context), dtype=DTYPES[a.dtype],
        num_q_heads=a.heads, num_kv_heads=a.kv_heads, head_dim=a.head_dim, block_size=a.block_size,
        int8=a.int8, max_prefill_tokens=a.max_prefill_tokens, warmup=a.warmup, iters=a.iters,
    )


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (0 also when there is no GPU)."""
    cfg = parse_args(argv)
    if not torch.cuda.is_available():
        print("benchmarks.kernels.bench: CUDA is not available on this machine; the Triton kernels are benchmarked on "
              "NVIDIA GPUs only. Nothing to do.")
        return 0
    if not kernels.triton_available():
        print("benchmarks.kernels.bench: the 'triton' package is not installed; nothing to benchmark.")
        return 0
    import triton

    device = torch.device("cuda")
    print(f"# benchmarks.kernels.bench on {torch.cuda.get_device_name(device)}")
    print(f"torch {torch.__version__}, triton {triton.__version__}, dtype {cfg.dtype}, "
          f"Hq={cfg.num_q_heads} Hk={cfg.num_kv_heads} D={cfg.head_dim} block_size={cfg.block_size}")
    print(f"command: python -m benchmarks.kernels.bench {' '.join(argv if argv is not None else sys.argv[1:])}\n")
    rows = run(cfg, device, lambda fn: cuda_time_ms(fn, cfg.warmup, cfg.iters), progress=True)
    print("\n" + "\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
