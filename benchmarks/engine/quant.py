"""``python -m benchmarks.engine.quant``: candidate matmul paths for the linear layers, timed on this CPU.

For each of SmolLM2's layer shapes (Q/K/V fused 576→960, O 576→576, the issue's 576x1536 / 1536x576 (up
and down), gate/up fused 576→3072, the LM head 576→49152) and each row count (1 and 32 decode rows,
512 prefill rows): fp32 and bf16 dense ``F.linear``, torch's fused int8 kernel
(``_weight_int8pack_mm``) and int4 kernel (``_weight_int4pack_mm_for_cpu``), each with bfloat16 and with
float32 activations; our native block kernel (:mod:`backend.quant.native_mm`: int4 groups and int8 blocks
of 32, 8-bit activations; ``--march haswell`` builds its AVX2 path). Weights are cycled over ``--copies`` distinct tensors (as many as the model has
layers) so they come from memory, not cache, as in a real step. Prints ms per call and the speed-up of
each path over fp32. ``ATEN_CPU_CAPABILITY=avx2 ONEDNN_MAX_CPU_ISA=AVX2`` in the environment makes torch
and oneDNN dispatch their AVX2 kernels, an approximation of an AVX2-only CPU.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

SHAPES = {"qkv 576->960": (960, 576), "o 576->576": (576, 576), "up 576->1536": (1536, 576),
          "down 1536->576": (576, 1536), "gate_up 576->3072": (3072, 576), "lm_head 576->49152": (49152, 576)}
PATHS = ("fp32", "bf16", "int8 (bf16 act)", "int4 (bf16 act)", "int8 (fp32 act)", "int4 (fp32 act)",
         "int4 native", "int8 blocks native")


def _make(path: str, weight, march: str = "native") -> Callable:
    import torch
    from torch.nn import functional as F

    from backend.quant.blocks import quantize_int4, quantize_int8, quantize_q8_blocks
    from backend.quant.linear import INT4_INNER_K_TILES
    from backend.quant.native_mm import load_block_mm, pack_q4, pack_q8

    if path.endswith("native"):
        ops = load_block_mm(march)
        if ops is None:
            raise SystemExit("the native block kernel did not build here (see the warning above)")
        if path.startswith("int4"):
            q = quantize_int4(weight)
            codes, scales = pack_q4(q.values, q.scale, q.minimum)
            return lambda x: ops.q4_mm(x, codes, scales)
        codes, scales = pack_q8(*quantize_q8_blocks(weight))
        return lambda x: ops.q8_mm(x, codes, scales)
    if path == "fp32":
        return lambda x: F.linear(x, weight)
    if path == "bf16":
        wb = weight.to(torch.bfloat16)
        return lambda x: F.linear(x.to(torch.bfloat16), wb).float()
    act = torch.bfloat16 if "bf16 act" in path else torch.float32
    if path.startswith("int8"):
        q = quantize_int8(weight)
        values, scales = q.values, q.scale.to(act)
        return lambda x: torch._weight_int8pack_mm(x.to(act), values, scales).float()
    q = quantize_int4(weight)
    packed = torch._convert_weight_to_int4pack_for_cpu(q.values.to(torch.int32), INT4_INNER_K_TILES)
    sz = torch.stack([q.scale, q.minimum + 8 * q.scale], -1).transpose(0, 1).contiguous().to(act)
    return lambda x: torch._weight_int4pack_mm_for_cpu(x.to(act), packed, q.group_size, sz).float()


def measure(shape: tuple[int, int], rows: int, paths, copies: int, budget_s: float,
            march: str = "native") -> dict[str, float]:
    """ms per call of each path for ``rows`` input rows, weights cycled over ``copies`` tensors."""
    import torch

    n, k = shape
    weights = [torch.randn(n, k) * 0.05 for _ in range(copies)]
    x = torch.randn(rows, k)
    out = {}
    for path in paths:
        fns = [_make(path, w, march) for w in weights]
        fns[0](x)  # warm-up
        calls, started = 0, time.perf_counter()
        while calls < len(fns) or (time.perf_counter() - started < budget_s and calls < 50 * len(fns)):
            fns[calls % len(fns)](x)
            calls += 1
        out[path] = (time.perf_counter() - started) / calls * 1e3
        del fns
    return out


def main(argv: list[str] | None = None) -> int:
    import os

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    p = argparse.ArgumentParser(prog="python -m benchmarks.engine.quant", description=__doc__)
    p.add_argument("--rows", default="1,32,512", help="comma-separated row counts")
    p.add_argument("--shapes", default=",".join(s.split()[0] for s in SHAPES), help="qkv,o,up,down,gate_up,lm_head")
    p.add_argument("--copies", type=int, default=30, help="distinct weight tensors per shape (default 30)")
    p.add_argument("--budget", type=float, default=0.5, help="seconds per path and size (at least one pass)")
    p.add_argument("--no-fp32-act", action="store_true", help="skip the (slow) fp32-activation int kernels")
    p.add_argument("--paths", default=",".join(PATHS), help="comma-separated paths (default: all)")
    p.add_argument("--march", default="native",
                   help="gcc -march of the native kernels (haswell: the AVX2 path, as an AVX2-only CPU runs it)")
    args = p.parse_args(argv)
    import torch

    wanted = set(args.shapes.split(","))
    chosen = {q.strip() for q in args.paths.split(",")} | {"fp32"}
    paths = [q for q in PATHS if q in chosen and not (args.no_fp32_act and "fp32 act" in q)]
    print(f"## python -m benchmarks.engine.quant\n\ntorch {torch.__version__}, capability "
          f"{torch.backends.cpu.get_cpu_capability()}, {torch.get_num_threads()} threads, {args.copies} weight "
          "copies per shape; ms per call (speed-up over fp32)\n")
    print("| shape | rows | " + " | ".join(paths) + " |")
    print("|---|---:|" + "---:|" * len(paths))
    for label, shape in SHAPES.items():
        if label.split()[0] not in wanted:
            continue
        for rows in (int(r) for r in args.rows.split(",")):
            copies = max(2, args.copies // (8 if label.startswith("lm_head") else 1))
            t = measure(shape, rows, paths, copies, args.budget, args.march)
            cells = [f"{t[q]:.3f} ({t['fp32'] / t[q]:.1f}x)" for q in paths]
            print(f"| {label} | {rows} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
