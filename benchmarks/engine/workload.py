"""The engine benchmark's workload and runs: a seeded request mix, per-request timings, and one run
per peer (Thrifty's engine in-process, transformers, llama-cpp-python); ``thrifty bench engine``
(:mod:`benchmarks.engine.bench`) and its matrix and HTTP variants build on them."""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

# --------------------------------------------------------------------------------------------------
# Workload
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WorkloadSpec:
    """A seeded synthetic workload: log-uniform (long-tailed) prompt and output lengths."""

    num_requests: int = 128
    min_prompt: int = 16
    max_prompt: int = 1024
    min_output: int = 8
    max_output: int = 512
    rate: float | None = None  # Poisson arrivals per second; None: all at once
    seed: int = 0

    def describe(self) -> str:
        arrivals = "all at once" if self.rate is None else f"Poisson at {self.rate:g} req/s"
        return (f"{self.num_requests} requests, prompt {self.min_prompt}-{self.max_prompt} tokens, output "
                f"{self.min_output}-{self.max_output} tokens (log-uniform), arrivals {arrivals}, seed {self.seed}")


@dataclass(frozen=True, slots=True)
class BenchRequest:
    prompt_ids: tuple[int, ...]
    output_len: int  # exact output length with ignore_eos, else the max_tokens cap
    arrival: float  # seconds after the start of the replay
    ignore_eos: bool = True  # False: the answer stops at the model's EOS (as chat traffic does)
    # the chat these ids template (role/content dicts): replayed over HTTP as /v1/chat/completions, the
    # path users take; None: token-id prompts on /v1/completions
    messages: tuple[dict, ...] | None = None


def _log_uniform(rng: random.Random, low: int, high: int) -> int:
    return min(high, max(low, int(math.exp(rng.uniform(math.log(low), math.log(high + 1))))))


def make_workload(spec: WorkloadSpec, token_low: int = 1000, token_high: int = 40000) -> list[BenchRequest]:
    """The fixed request list of ``spec`` (random token ids in ``[token_low, token_high)``)."""
    rng = random.Random(spec.seed)
    clock = 0.0
    requests = []
    for _ in range(spec.num_requests):
        prompt_len = _log_uniform(rng, spec.min_prompt, spec.max_prompt)
        output_len = _log_uniform(rng, spec.min_output, spec.max_output)
        prompt = tuple(rng.randrange(token_low, token_high) for _ in range(prompt_len))
        if spec.rate is not None:
            clock += rng.expovariate(spec.rate)
        requests.append(BenchRequest(prompt, output_len, clock))
    return requests


# --------------------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------------------


@dataclass(slots=True)
class RequestTiming:
    arrival: float  # absolute perf_counter time
    output_len: int
    first_token: float | None = None
    finish: float | None = None
    tokens: int = 0


@dataclass(slots=True)
class BenchResult:
    name: str
    timings: list[RequestTiming]
    wall: float
    note: str = ""
    cpu: float = 0.0  # process CPU seconds of the replay (all threads), when measured

    @property
    def cpu_throughput(self) -> float:
        """Output tokens per process-CPU second: less sensitive than wall time to other load on the box."""
        return self.output_tokens / self.cpu if self.cpu > 0 else 0.0

    @property
    def output_tokens(self) -> int:
        return sum(t.tokens for t in self.timings)

    @property
    def throughput(self) -> float:
        return self.output_tokens / self.wall if self.wall > 0 else 0.0

    def ttfts(self) -> list[float]:
        return [t.first_token - t.arrival for t in self.timings if t.first_token is not None]

    def tpots(self) -> list[float]:
        return [(t.finish - t.first_token) / (t.tokens - 1) for t in self.timings
                if t.first_token is not None and t.finish is not None and t.tokens > 1]


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in [0, 100]); NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100.0
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


def _ms(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value * 1000:.0f}"


def results_table(results: Sequence[BenchResult]) -> str:
    lines = ["| system | requests | output tokens | wall s | output tok/s | TTFT p50 ms | TTFT p99 ms | "
             "TPOT p50 ms | TPOT p99 ms |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        ttft, tpot = r.ttfts(), r.tpots()
        lines.append(f"| {r.name} | {len(r.timings)} | {r.output_tokens} | {r.wall:.1f} | {r.throughput:.1f} | "
                     f"{_ms(percentile(ttft, 50))} | {_ms(percentile(ttft, 99))} | {_ms(percentile(tpot, 50))} | "
                     f"{_ms(percentile(tpot, 99))} |")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------------
# Progress
# --------------------------------------------------------------------------------------------------


def _progress(total: int, desc: str):
    from tqdm import tqdm

    return tqdm(total=total, desc=desc, file=sys.stderr, unit="req", dynamic_ncols=True, leave=True)


def _wait_until(deadline: float) -> None:
    delay = deadline - time.perf_counter()
    if delay > 0:
        time.sleep(delay)


# --------------------------------------------------------------------------------------------------
# Thrifty
# --------------------------------------------------------------------------------------------------


def run_thrifty(loaded: Any, workload: Sequence[BenchRequest], engine_config: Any, name: str = "thrifty",
                progress: bool = True, one_at_a_time: bool = False) -> BenchResult:
    """Replay ``workload`` through a fresh :class:`~backend.engine.Engine` (arrivals honoured).

    ``one_at_a_time``: a request is added only when the previous one has finished (a single stream)."""
    from backend.engine import Engine
    from backend.sampling import SamplingParams

    engine = Engine(loaded, engine_config)
    _warm_up(engine)
    order = sorted(range(len(workload)), key=lambda i: workload[i].arrival)
    start, cpu_start = time.perf_counter(), time.process_time()
    timings = [RequestTiming(start + r.arrival, r.output_len) for r in workload]
    bar = _progress(len(workload), name) if progress else None
    next_i = 0
    while next_i < len(order) or engine.has_unfinished():
        now = time.perf_counter()
        while (next_i < len(order) and timings[order[next_i]].arrival <= now
               and not (one_at_a_time and engine.has_unfinished())):
            i = order[next_i]
            req = workload[i]
            if one_at_a_time:  # the stream's next request starts now, not at its nominal arrival
                timings[i].arrival = max(now, timings[i].arrival)
            params = SamplingParams(max_tokens=req.output_len, temperature=0.0, ignore_eos=req.ignore_eos)
            engine.add(str(i), req.prompt_ids, params, arrival=timings[i].arrival)
            next_i += 1
        if not engine.has_unfinished():
            _wait_until(timings[order[next_i]].arrival)
            continue
        outputs = engine.step()
        now = time.perf_counter()
        for out in outputs:
            if out.error is not None:
                raise RuntimeError(f"thrifty request {out.request_id} failed") from out.error
            timing = timings[int(out.request_id)]
            for event in out.events:
                if event.token_id is not None:
                    timing.tokens += 1
                    if timing.first_token is None:
                        timing.first_token = now
            if out.finished:
                timing.finish = now
                if bar is not None:
                    bar.update(1)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    if bar is not None:
        bar.close()
    metrics = engine.metrics()
    note = (f"preemptions {metrics.preemptions}, prefix-cache hit rate {metrics.prefix_cache_hit_rate:.1%}, "
            f"steps {metrics.steps}")
    return BenchResult(name, timings, wall, note, cpu)


def _warm_up(engine: Any) -> None:
    from backend.sampling import SamplingParams

    vocab = engine.loaded.model.config.vocab_size
    prompt = [2 + i % (vocab - 2) for i in range(40)]
    engine.add("warm-up", prompt, SamplingParams(max_tokens=4, temperature=0.0, ignore_eos=True), extra_key="warm-up")
    while engine.has_unfinished():
        engine.step()


def prefix_cache_ttft(loaded: Any, engine_config: Any, prefix_len: int = 1000, suffix_len: int = 16,
                      repeats: int = 3, seed: int = 1) -> tuple[float, float]:
    """Median TTFT (s) of a request whose ``prefix_len``-token prefix is uncached, and cached."""
    from backend.engine import Engine
    from backend.sampling import SamplingParams

    rng = random.Random(seed)
    engine = Engine(loaded, replace(engine_config, enable_prefix_caching=True))
    _warm_up(engine)
    params = SamplingParams(max_tokens=1, temperature=0.0, ignore_eos=True)

    def ttft(prompt: list[int]) -> float:
        start = time.perf_counter()
        engine.add("probe", prompt, params, arrival=start)
        first = None
        while engine.has_unfinished():
            for out in engine.step():
                if first is None and any(e.token_id is not None for e in out.events):
                    first = time.perf_counter()
        assert first is not None
        return first - start

    uncached, cached = [], []
    for _ in range(repeats):
        prefix = [rng.randrange(1000, 40000) for _ in range(prefix_len)]
        uncached.append(ttft(prefix + [rng.randrange(1000, 40000) for _ in range(suffix_len)]))
        cached.append(ttft(prefix + [rng.randrange(1000, 40000) for _ in range(suffix_len)]))
    return statistics.median(uncached), statistics.median(cached)


# --------------------------------------------------------------------------------------------------
# transformers (static batching)
# --------------------------------------------------------------------------------------------------


def run_transformers(gguf_path: Path, workload: Sequence[BenchRequest], batch_size: int, dtype: Any,
                     progress: bool = True) -> BenchResult:
    """Static batching with ``generate()``: batches of arrived requests, each run to its longest output."""
    import torch
    from transformers import AutoModelForCausalLM, StoppingCriteria, StoppingCriteriaList

    model = AutoModelForCausalLM.from_pretrained(str(gguf_path.parent), gguf_file=gguf_path.name, dtype=dtype)
    model.eval()
    eos = model.generation_config.eos_token_id
    eos = eos[0] if isinstance(eos, list) else eos
    pad = model.generation_config.pad_token_id
    pad = eos if pad is None else (pad[0] if isinstance(pad, list) else pad)

    class StepClock(StoppingCriteria):
        def __init__(self) -> None:
            self.times: list[float] = []

        def __call__(self, input_ids, scores, **kwargs):  # noqa: ANN001 - transformers' signature
            self.times.append(time.perf_counter())
            return torch.zeros(input_ids.shape[0], dtype=torch.bool, device=input_ids.device)

    def generate(batch: list[BenchRequest]) -> list[float]:
        longest = max(len(r.prompt_ids) for r in batch)
        ids = torch.full((len(batch), longest), pad, dtype=torch.long)
        mask = torch.zeros((len(batch), longest), dtype=torch.long)
        for row, r in enumerate(batch):  # left padding
            ids[row, longest - len(r.prompt_ids):] = torch.tensor(r.prompt_ids)
            mask[row, longest - len(r.prompt_ids):] = 1
        new = max(r.output_len for r in batch)
        clock = StepClock()
        with torch.inference_mode():
            model.generate(input_ids=ids, attention_mask=mask, max_new_tokens=new, min_new_tokens=new,
                           do_sample=False, pad_token_id=pad, eos_token_id=eos,
                           stopping_criteria=StoppingCriteriaList([clock]))
        return clock.times

    generate([BenchRequest(tuple(range(1000, 1016)), 2, 0.0)])  # warm-up
    order = sorted(range(len(workload)), key=lambda i: workload[i].arrival)
    start = time.perf_counter()
    timings = [RequestTiming(start + r.arrival, r.output_len) for r in workload]
    bar = _progress(len(workload), "transformers") if progress else None
    next_i = 0
    while next_i < len(order):
        _wait_until(timings[order[next_i]].arrival)
        now = time.perf_counter()
        batch_ids = []
        while next_i < len(order) and len(batch_ids) < batch_size and timings[order[next_i]].arrival <= now:
            batch_ids.append(order[next_i])
            next_i += 1
        times = generate([workload[i] for i in batch_ids])
        for i in batch_ids:
            t = timings[i]
            t.tokens = min(t.output_len, len(times))
            t.first_token = times[0]
            t.finish = times[t.tokens - 1]
        if bar is not None:
            bar.update(len(batch_ids))
    wall = time.perf_counter() - start
    if bar is not None:
        bar.close()
    return BenchResult("transformers", timings, wall, f"static batches of {batch_size}, left-padded")


# --------------------------------------------------------------------------------------------------
# llama-cpp-python (optional)
# --------------------------------------------------------------------------------------------------


def llama_cpp_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("llama_cpp") is not None


def run_llama_cpp(gguf_path: Path, workload: Sequence[BenchRequest], n_threads: int, n_ctx: int,
                  progress: bool = True, eos_ids: frozenset[int] = frozenset(),
                  one_at_a_time: bool = False) -> BenchResult:
    """One request at a time through ``llama_cpp.Llama.generate`` (greedy), in arrival order.

    ``generate(reset=True)`` keeps the longest prefix shared with the previous request's tokens in
    llama.cpp's KV cache (what llama-server's prompt caching does), so a shared system prompt is not
    recomputed. A request with ``ignore_eos=False`` stops at a token of ``eos_ids`` (counted, as Thrifty
    counts it) or the model's own EOS."""
    from llama_cpp import Llama

    llm = Llama(model_path=str(gguf_path), n_ctx=n_ctx, n_batch=512, n_threads=n_threads,
                n_threads_batch=n_threads, verbose=False)
    stops = frozenset(eos_ids) | {llm.token_eos()}

    def generate(prompt: Sequence[int], count: int, on_token: Callable[[], None], ignore_eos: bool = True) -> None:
        produced = 0
        for token in llm.generate(list(prompt), top_k=1, top_p=1.0, temp=0.0, repeat_penalty=1.0, reset=True):
            on_token()
            produced += 1
            if produced >= count or (not ignore_eos and token in stops):
                break

    generate(list(range(1000, 1016)), 2, lambda: None)  # warm-up
    order = sorted(range(len(workload)), key=lambda i: workload[i].arrival)
    start = time.perf_counter()
    timings = [RequestTiming(start + r.arrival, r.output_len) for r in workload]
    bar = _progress(len(workload), "llama-cpp") if progress else None
    for i in order:
        t = timings[i]
        _wait_until(t.arrival)
        if one_at_a_time:  # a single stream: TTFT counts from when the request could start
            t.arrival = max(t.arrival, time.perf_counter())

        def on_token(t: RequestTiming = t) -> None:
            now = time.perf_counter()
            t.tokens += 1
            if t.first_token is None:
                t.first_token = now
            t.finish = now

        generate(workload[i].prompt_ids, t.output_len, on_token, workload[i].ignore_eos)
        if bar is not None:
            bar.update(1)
    wall = time.perf_counter() - start
    if bar is not None:
        bar.close()
    return BenchResult("llama-cpp-python", timings, wall, f"sequential, n_threads={n_threads}")
