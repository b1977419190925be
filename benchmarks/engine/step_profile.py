"""``thrifty bench engine-profile``: where the milliseconds of one engine step go, on the real model.

Three shapes, each run through a real :class:`~backend.engine.Engine` (paged KV, the scheduler, sampling):

* **decode, batch 1** — one sequence past its prompt, one token per step;
* **decode, batch N** (default 32) — N sequences decoding together;
* **prefill, P tokens** (default 512) — one fresh prompt in one step (prefix caching off).

Then a **verification** table: the forward of one sequence checking K draft tokens (K + 1 rows) against its
plain one-row decode forward (``--drafts``, default 1, 2, 4), interleaved.

Last, a **memory limit** section (:mod:`benchmarks.engine.bandwidth`): the bytes a batch-1 decode step
reads, this CPU's read bandwidth at that working set (and at 1, 16 and 256 MiB), the limit in ms per step, and
the unprofiled batch-1 step (and llama.cpp's, measured where ``llama_cpp`` is installed or given with
``--llama-step-ms``) as a fraction of it.

Each step runs under :mod:`torch.profiler` with the model's pieces wrapped in
:func:`torch.profiler.record_function` ranges (linears, attention, norms, rope, activation, embedding,
sampling, scheduler, input preparation); the time of a step not inside any range is Python and
engine overhead (bookkeeping, detokenisation, the layer loop, tensor views). The wrappers are
installed on one engine's objects for the duration of the run and removed afterwards; the model's
code is not changed. The profiler adds its own overhead per op, so the unprofiled wall time of the
same step is reported beside the breakdown.

Module import stays light (no torch) because the CLI parser imports :func:`add_arguments`.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

CATEGORIES = ("linears", "attention", "norms", "rope", "activation", "embedding", "sampling", "scheduler",
              "input prep")
OVERHEAD = "python / engine overhead"
_STEP = "engine step"
_WARM_UP_STEPS = 3  # decode steps run before the profiled ones


@dataclass(frozen=True, slots=True)
class StepProfile:
    """The breakdown of one step shape: milliseconds per step for each category (and the rest)."""

    name: str
    steps: int
    profiled_ms: float  # step time under the profiler (per step)
    wall_ms: float  # median unprofiled step time
    categories: dict[str, float]  # category → ms per step (profiled), OVERHEAD included
    top_ops: list[tuple[str, float, int]]  # (aten op, self CPU ms per step, calls per step)
    op_by_op_ms: float | None = None  # the unprofiled step with the fused layers off (None: the model has none)

    def table(self) -> str:
        fused = ("" if self.op_by_op_ms is None else
                 f" with the fused layers, {self.op_by_op_ms:.1f} ms op by op (the breakdown below is op by op)")
        lines = [f"#### {self.name}\n",
                 f"unprofiled step: **{self.wall_ms:.1f} ms** (median){fused}; under the profiler "
                 f"{self.profiled_ms:.1f} ms (mean of {self.steps} steps)\n",
                 "| part | ms / step | share |", "|---|---:|---:|"]
        for name, ms in sorted(self.categories.items(), key=lambda kv: -kv[1]):
            share = ms / self.profiled_ms if self.profiled_ms > 0 else 0.0
            lines.append(f"| {name} | {ms:.2f} | {share:.1%} |")
        lines += ["", "| top aten ops (self CPU) | ms / step | calls / step |", "|---|---:|---:|"]
        lines += [f"| `{op}` | {ms:.2f} | {calls:g} |" for op, ms, calls in self.top_ops]
        return "\n".join(lines) + "\n"


def _wrap(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    import torch

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with torch.profiler.record_function(label):
            return fn(*args, **kwargs)

    return wrapped


@contextlib.contextmanager
def instrumented(engine: Any) -> Iterator[None]:
    """Wrap ``engine``'s model pieces and step phases in ``record_function`` ranges named by category.

    Instance attributes shadow the methods (restored on exit); the ``kernels`` ops the model calls
    through the module, and those of its native layer ops object when it has one
    (:mod:`backend.layer_ops_cpu`), are swapped for wrappers and put back on exit. The fused layers
    (:mod:`backend.fused_layers_cpu`) are off meanwhile: one native call has no parts to attribute."""
    from torch import nn

    import kernels
    from backend.quant.linear import Int4Linear, Int8Linear
    from backend.weights_dtype import BF16Linear

    model = engine.runner.model
    patched: list[tuple[Any, str, Any, bool]] = []  # (object, attribute, old value, was an instance attribute)

    def patch(obj: Any, attr: str, label: str) -> None:
        own = attr in vars(obj) if hasattr(obj, "__dict__") else False
        old = getattr(obj, attr)
        patched.append((obj, attr, vars(obj).get(attr) if own else old, own))
        setattr(obj, attr, _wrap(label, old))

    for op, label in (("rms_norm", "norms"), ("fused_add_rms_norm", "norms"), ("rotary_embedding", "rope"),
                      ("silu_and_mul", "activation")):
        patch(kernels, op, label)
        if model.layer_ops is not None:  # the native CPU layer ops (they fall back to kernels' ops)
            patch(model.layer_ops, op, label)
    for module in model.modules():
        if isinstance(module, nn.Linear | BF16Linear | Int4Linear | Int8Linear):
            patch(module, "forward", "linears")
    patch(model.model.embed_tokens, "forward", "embedding")
    patch(engine.runner.attention, "attend", "attention")
    patch(engine.runner, "prepare", "input prep")
    patch(engine.scheduler, "schedule", "scheduler")
    patch(engine, "_sample", "sampling")
    fuse_layers, model.fuse_layers = model.fuse_layers, False
    try:
        yield
    finally:
        model.fuse_layers = fuse_layers
        for obj, attr, old, own in reversed(patched):
            if obj is kernels or own:
                setattr(obj, attr, old)
            else:
                delattr(obj, attr)


def _profile_steps(engine: Any, steps: int, name: str, advance: Callable[[], None]) -> StepProfile:
    """Profile ``steps`` calls of ``advance`` (each one engine step) and break them down."""
    import torch
    from torch.profiler import ProfilerActivity, profile

    with instrumented(engine), profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(steps):
            with torch.profiler.record_function(_STEP):
                advance()
    averages = prof.key_averages()
    totals: dict[str, float] = {}
    for event in averages:
        if event.key in CATEGORIES or event.key == _STEP:
            totals[event.key] = totals.get(event.key, 0.0) + event.cpu_time_total / 1000.0 / steps
    step_ms = totals.pop(_STEP, 0.0)
    categories = {c: totals.get(c, 0.0) for c in CATEGORIES}
    categories[OVERHEAD] = max(0.0, step_ms - sum(categories.values()))
    ops = [e for e in averages if e.key.startswith(("aten::", "thrifty_cpu::"))]
    ops.sort(key=lambda e: -e.self_cpu_time_total)
    top = [(e.key, e.self_cpu_time_total / 1000.0 / steps, e.count / steps) for e in ops[:8]]
    return StepProfile(name, steps, step_ms, 0.0, categories, top)


def _wall_times(engine: Any, advance: Callable[[], None], steps: int) -> tuple[float, float | None]:
    """Median unprofiled step ms as the engine runs (fused layers where the model has them), and op by op
    (None where the model has no fused layers)."""
    model = engine.runner.model
    wall = _timed(advance, steps)
    if model.fused_layers() is None:
        return wall, None
    fuse_layers, model.fuse_layers = model.fuse_layers, False
    try:
        return wall, _timed(advance, steps)
    finally:
        model.fuse_layers = fuse_layers


def _timed(advance: Callable[[], None], steps: int) -> float:
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        advance()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000.0


def _prompt(rng: Any, length: int, vocab: int) -> list[int]:
    low, high = min(1000, vocab // 2), min(40000, vocab)  # ordinary (non-special) ids of a real vocabulary
    return [rng.randrange(low, high) for _ in range(length)]


def profile_decode(loaded: Any, engine_config: Any, batch: int, steps: int, prompt_len: int = 128,
                   seed: int = 0) -> StepProfile:
    """Breakdown of a decode step with ``batch`` sequences, each ``prompt_len`` tokens into its context."""
    import random
    from dataclasses import replace

    from backend.engine import Engine
    from backend.sampling import SamplingParams

    rng = random.Random(seed)
    vocab = loaded.model.config.vocab_size
    engine = Engine(loaded, replace(engine_config, max_num_seqs=max(batch, engine_config.max_num_seqs)))
    params = SamplingParams(max_tokens=4 * steps + 64, temperature=0.0, ignore_eos=True)
    for i in range(batch):
        engine.add(str(i), _prompt(rng, prompt_len, vocab), params)
    # run every prompt through its prefill, then a few decode steps to warm up
    while engine.scheduler.num_waiting or any(s.num_computed < s.prompt_len for s in engine.scheduler.running):
        engine.step()
    for _ in range(_WARM_UP_STEPS):
        engine.step()
    name = f"decode, batch {batch} (context ~{prompt_len} tokens)"
    result = _profile_steps(engine, steps, name, engine.step)
    wall, op_by_op = _wall_times(engine, engine.step, steps)
    return replace(result, wall_ms=wall, op_by_op_ms=op_by_op)


def _shared_prefix_engine(loaded: Any, engine_config: Any, batch: int, prefix_len: int, question_len: int,
                          steps: int, seed: int = 0) -> Any:
    """An engine with ``batch`` sequences decoding over one cached ``prefix_len``-token prompt plus a
    ``question_len``-token question each (issue 15's case c): the first request computes the prefix, the
    others are admitted after it and hit the prefix cache, so their block tables share those blocks."""
    import random
    from dataclasses import replace

    from backend.engine import Engine
    from backend.sampling import SamplingParams

    rng = random.Random(seed)
    vocab = loaded.model.config.vocab_size
    engine = Engine(loaded, replace(engine_config, max_num_seqs=max(batch, engine_config.max_num_seqs)))
    params = SamplingParams(max_tokens=batch + 2 * steps + 16, temperature=0.0, ignore_eos=True)
    prefix = _prompt(rng, prefix_len, vocab)
    for i in range(batch):
        engine.add(str(i), prefix + _prompt(rng, question_len, vocab), params)
        while engine.scheduler.num_waiting or any(s.num_computed < s.prompt_len for s in engine.scheduler.running):
            engine.step()
    for _ in range(2):
        engine.step()
    return engine


def compare_attention(loaded: Any, engine_config: Any, backends: list[str], batch: int, prefix_len: int,
                      question_len: int, steps: int) -> str:
    """Median decode step time of the same shared-prefix batch under each attention backend, steps
    interleaved (one step of each in turn) so that machine load hits all alike. → markdown table"""
    from dataclasses import replace

    engines = {b: _shared_prefix_engine(loaded, replace(engine_config, attention_backend=b), batch, prefix_len,
                                        question_len, steps) for b in backends}
    times: dict[str, list[float]] = {b: [] for b in backends}
    for _ in range(steps):
        for b, engine in engines.items():
            start = time.perf_counter()
            engine.step()
            times[b].append((time.perf_counter() - start) * 1000.0)
    base = statistics.median(times[backends[0]])
    lines = [f"#### decode, batch {batch} sharing a {prefix_len}-token prefix (+{question_len}-token questions), "
             f"{steps} interleaved steps\n", "| attention backend | step ms (median) | speed-up vs first |",
             "|---|---:|---:|"]
    for b in backends:
        ms = statistics.median(times[b])
        lines.append(f"| {b} | {ms:.1f} | {base / ms:.2f}x |")
    return "\n".join(lines) + "\n"


def profile_prefill(loaded: Any, engine_config: Any, prompt_len: int, steps: int, seed: int = 0) -> StepProfile:
    """Breakdown of a step that runs one fresh ``prompt_len``-token prompt (prefix caching off)."""
    import random
    from dataclasses import replace

    from backend.engine import Engine
    from backend.sampling import SamplingParams

    rng = random.Random(seed)
    vocab = loaded.model.config.vocab_size
    config = replace(engine_config, enable_prefix_caching=False,
                     max_num_batched_tokens=max(prompt_len, engine_config.max_num_batched_tokens))
    engine = Engine(loaded, config)
    params = SamplingParams(max_tokens=1, temperature=0.0, ignore_eos=True)
    counter = iter(range(10**9))

    def advance() -> None:
        engine.add(f"p{next(counter)}", _prompt(rng, prompt_len, vocab), params)
        engine.step()  # the whole prompt in one step; max_tokens=1 finishes it
        assert not engine.has_unfinished()

    advance()  # warm-up
    result = _profile_steps(engine, steps, f"prefill, one {prompt_len}-token prompt", advance)
    wall, op_by_op = _wall_times(engine, advance, steps)
    return replace(result, wall_ms=wall, op_by_op_ms=op_by_op)


def verification_cost(loaded: Any, engine_config: Any, context: int, drafts: tuple[int, ...], steps: int,
                      seed: int = 0) -> str:
    """Markdown: the forward of one sequence verifying K draft tokens (K + 1 rows over its cached context),
    against its plain one-row decode forward, interleaved, median of ``steps`` each (issue 35 item 3: at
    most 1.3x for K = 4). The sequence's state is not advanced: each forward rewrites the same slots."""
    import random
    from dataclasses import replace

    from backend.engine import Engine
    from backend.engine.scheduler import ScheduledSeq
    from backend.sampling import SamplingParams

    rng = random.Random(seed)
    engine = Engine(loaded, replace(engine_config, enable_prefix_caching=False))
    bs = engine_config.block_size
    length = context - context % bs + 1  # decode at the start of a block: K + 1 slots fit in it
    engine.add("v", _prompt(rng, length, loaded.model.config.vocab_size),
               SamplingParams(max_tokens=4, temperature=0.0, ignore_eos=True))
    engine.step()  # the prefill: the sequence now decodes its second token at position ``length``
    seq = engine.scheduler.running[0]
    assert max(drafts) + 1 <= bs - seq.num_computed % bs, "the drafts must fit in the sequence's last block"
    seq.draft_ids = [rng.randrange(1000, 20000) for _ in range(max(drafts))]
    shapes = {0: [ScheduledSeq(seq, 1)], **{k: [ScheduledSeq(seq, k + 1, num_draft=k)] for k in drafts}}
    times: dict[int, list[float]] = {k: [] for k in shapes}
    for _ in range(2):  # warm-up
        for items in shapes.values():
            engine.runner.execute(items)
    for _ in range(steps):
        for k, items in shapes.items():
            start = time.perf_counter()
            engine.runner.execute(items)
            times[k].append(time.perf_counter() - start)
    plain = statistics.median(times[0]) * 1000
    lines = [f"#### verification: one sequence ({seq.num_computed}-token context) checking K drafts, "
             f"{steps} interleaved forwards each\n", "| rows | forward ms (median) | x a plain step |",
             "|---|---:|---:|", f"| 1 (plain decode) | {plain:.2f} | 1.00x |"]
    for k in drafts:
        ms = statistics.median(times[k]) * 1000
        lines.append(f"| {k + 1} (K = {k}) | {ms:.2f} | {ms / plain:.2f}x |")
    engine.abort("v")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``thrifty bench engine-profile`` flags."""
    p.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    p.add_argument("--dtype", default="float32")
    p.add_argument("--weights-dtype", default="auto", type=str.lower, choices=("auto", "fp32", "bf16", "int8", "int4"),
                   help="linear weights (default auto: what the server loads, int4 for the bundled model)")
    p.add_argument("--drafts", default="1,2,4", help="draft counts K of the verification-cost table ('' to skip)")
    p.add_argument("--num-threads", type=int, default=None, help="torch CPU threads (default: torch's)")
    p.add_argument("--batch", type=int, default=32, help="the larger decode batch (default 32)")
    p.add_argument("--prefill-tokens", type=int, default=512)
    p.add_argument("--context", type=int, default=128, help="prompt tokens before the profiled decode steps")
    p.add_argument("--steps", type=int, default=10, help="profiled (and then timed) steps per shape")
    p.add_argument("--kv-cache-memory", default="256MiB")
    p.add_argument("--attention-backend", default="auto", choices=("auto", "torch", "native"),
                   help="engine attention (auto: native in-place kernel on CPU where it builds, else torch)")
    p.add_argument("--output", help="also write the markdown report to this file")
    p.add_argument("--llama-step-ms", type=float, default=None, metavar="MS",
                   help="llama.cpp's decode step in ms for the memory limit (default: timed here if installed)")
    p.add_argument("--bandwidth-repeats", type=int, default=10,
                   help="timed read-bandwidth calls per size (the best counts)")
    p.add_argument("--compare-attention", default=None, metavar="B1,B2",
                   help="instead: time shared-prefix decode steps under these attention backends (torch,native)")
    p.add_argument("--shared-batch", type=int, default=24, help="sequences in the --compare-attention batch")
    p.add_argument("--shared-prefix", type=int, default=1000, help="their shared prompt tokens")
    p.add_argument("--question", type=int, default=48, help="their own prompt tokens after the prefix")


def run_from_args(args: argparse.Namespace, loaded: Any = None) -> int:
    """Profile the three step shapes; prints markdown tables to stdout. ``loaded``: a model already loaded
    with ``args``' model options (default: load it here)."""
    import platform

    import torch

    from backend.config import BackendConfig
    from backend.engine.config import EngineConfig, parse_size
    from backend.runtime import load_model

    if loaded is None:
        loaded = load_model(BackendConfig(model_path=args.model, dtype=args.dtype, num_threads=args.num_threads,
                                          weights_dtype=args.weights_dtype))
    max_len = max(args.prefill_tokens, args.context + 4 * args.steps + 64) + 16
    config = EngineConfig(kv_cache_memory=parse_size(args.kv_cache_memory), max_model_len=max_len,
                          attention_backend=args.attention_backend)
    if args.compare_attention:
        config = EngineConfig(kv_cache_memory=parse_size(args.kv_cache_memory),
                              max_model_len=args.shared_prefix + args.question + args.shared_batch + 2 * args.steps + 64)
        backends = [b.strip() for b in args.compare_attention.split(",") if b.strip()]
        text = (f"## thrifty bench engine-profile --compare-attention\n\nmodel `{loaded.source.path.name}` "
                f"({args.dtype}, weights {args.weights_dtype}), torch {torch.__version__}, "
                f"{torch.get_num_threads()} threads, CPU {_cpu_name() or platform.processor()}.\n\n"
                + compare_attention(loaded, config, backends, args.shared_batch, args.shared_prefix, args.question,
                                    args.steps))
        print(text)
        return 0
    shapes = [profile_decode(loaded, config, 1, args.steps, args.context),
              profile_decode(loaded, config, args.batch, args.steps, args.context),
              profile_prefill(loaded, config, args.prefill_tokens, args.steps)]
    header = (f"## thrifty bench engine-profile\n\nmodel `{loaded.source.path.name}` ({args.dtype}, weights "
              f"{args.weights_dtype}, attention {args.attention_backend}), torch "
              f"{torch.__version__}, {torch.get_num_threads()} threads, CPU {_cpu_name() or platform.processor()}.\n")
    sections = [header, *(s.table() for s in shapes)]
    drafts = tuple(int(k) for k in args.drafts.split(",") if k.strip())
    if drafts:
        sections.append(verification_cost(loaded, config, args.context, drafts, max(args.steps, 10)))
    text = "\n".join([*sections, _memory_limit(loaded, config, args, shapes[0].wall_ms)])
    print(text)
    if args.output:
        from pathlib import Path

        Path(args.output).write_text(text + "\n")
    return 0


def _memory_limit(loaded: Any, config: Any, args: argparse.Namespace, ours_ms: float) -> str:
    """The memory-limit section for the batch-1 decode step just timed (its context: the prompt, the warm-up
    and profiled steps, and half the timed ones)."""
    import platform

    import torch

    from backend.engine.config import parse_kv_cache_dtype
    from benchmarks.engine.bandwidth import llama_cpp_step_ms, memory_limit_section

    context_len = args.context + _WARM_UP_STEPS + args.steps + args.steps // 2
    llama_ms, note = args.llama_step_ms, "--llama-step-ms"
    if llama_ms is None and loaded.source.kind != "gguf":
        note = "not measured: the model is not a GGUF file (pass --llama-step-ms)"
    elif llama_ms is None:
        llama_ms = llama_cpp_step_ms(loaded.source.path, torch.get_num_threads(), context_len, args.steps)
        note = (f"llama-cpp-python, n_threads={torch.get_num_threads()}" if llama_ms is not None
                else "not installed (pass --llama-step-ms)")
    return memory_limit_section(loaded, _cpu_name() or platform.processor(), ours_ms, context_len,
                                parse_kv_cache_dtype(config.kv_cache_dtype, loaded.dtype), args.bandwidth_repeats,
                                llama_ms, note)


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return ""


def main(argv: list[str] | None = None) -> int:
    """``thrifty bench engine-profile`` / ``python -m benchmarks.engine.step_profile``."""
    import os

    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before torch loads (see benchmarks.engine.bench)
    parser = argparse.ArgumentParser(prog="thrifty bench engine-profile", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run_from_args(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
