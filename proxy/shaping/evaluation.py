"""``thrifty eval shaping``: measurements behind prompt shaping and output capping.

``--part lengths``: the bundled model's answer lengths on ordinary chat prompts (greedy and at
temperature 1), which the out-of-the-box ``default_max_tokens`` is chosen from. The backend runs as
a child process (``thrifty backend serve``) on a free local port.

``--part caps``: from the configured database's request log, how often each kind of cap
(default, learned, clamped, the caller's own) ended an answer that would have gone on.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from collections.abc import Sequence

from proxy.shaping.lengths import CHAT_PROMPTS, ask_lengths, length_table

MODEL = "smollm2-135m-instruct"


def cpu_name() -> str:
    """The CPU model (``lscpu``), for the table's header."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return platform.processor() or "unknown CPU"
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    return f"{fields.get('Model name', '?').strip()}, {fields.get('CPU(s)', '?').strip()} CPUs"


def run_lengths(args: argparse.Namespace) -> int:
    from proxy.settings import load_settings
    from proxy.supervisor import BackendProcess

    settings = load_settings(None, {k: v for k, v in os.environ.items() if k == "THRIFTY_DATA_DIR"})
    backend = BackendProcess(settings)
    print(f"starting the bundled backend ({MODEL}) ...", flush=True)
    backend.start()
    try:
        backend.wait_ready()
        started = time.perf_counter()
        prompts = CHAT_PROMPTS[: args.prompts]
        answers = ask_lengths(backend.base_url + "/v1", MODEL, prompts, temperature=0.0, max_tokens=args.max_tokens,
                              concurrency=args.concurrency)
        answers += ask_lengths(backend.base_url + "/v1", MODEL, prompts, temperature=1.0,
                               max_tokens=args.max_tokens, concurrency=args.concurrency, seed=args.seed)
    finally:
        backend.stop()
    print(f"\n{len(prompts)} chat prompts, max_tokens={args.max_tokens}, seed {args.seed} for temperature 1; "
          f"{time.perf_counter() - started:.0f} s on {cpu_name()}\n")
    print("\n".join(length_table(answers, args.max_tokens)))
    for temperature in (0.0, 1.0):
        group = [a for a in answers if a.temperature == temperature]
        total = sum(a.completion_tokens for a in group)
        for cap in args.caps:
            kept = sum(1 for a in group if a.finish_reason == "stop" and a.completion_tokens <= cap)
            natural = sum(1 for a in group if a.finish_reason == "stop")
            capped = sum(min(a.completion_tokens, cap) for a in group)
            print(f"temperature {temperature:g}, cap {cap}: {kept}/{natural} natural answers whole, output tokens "
                  f"{capped} vs {total} under max_tokens={args.max_tokens} ({1 - capped / max(total, 1):.0%} fewer)")
    return 0


def run_caps(args: argparse.Namespace) -> int:
    import asyncio

    from sqlalchemy.ext.asyncio import create_async_engine

    from proxy.settings import load_settings
    from proxy.shaping.learned import cap_report

    settings = load_settings(args.config)

    async def report() -> list[tuple[str, int, int]]:
        engine = create_async_engine(settings.database_url)
        try:
            return await cap_report(engine)
        finally:
            await engine.dispose()

    try:
        rows = asyncio.run(report())
    except Exception as exc:  # noqa: BLE001 - a CLI reports, it does not dump a traceback
        print(f"thrifty: cannot read the request log at {settings.database_url}: {exc}", file=sys.stderr)
        return 1
    print("| cap | answers | cut by the limit (finish_reason length) | share cut |\n|---|---|---|---|")
    for kind, n, cut in rows:
        print(f"| {kind} | {n} | {cut} | {cut / max(n, 1):.1%} |")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="thrifty eval shaping", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--part", choices=("lengths", "caps"), default="lengths",
                        help="lengths: the bundled model's answer lengths (the default cap's evidence); "
                        "caps: how often each cap cut an answer, from the request log")
    parser.add_argument("--config", help="caps: the TOML configuration naming the database")
    parser.add_argument("--prompts", type=int, default=len(CHAT_PROMPTS), help="how many of the chat prompts")
    parser.add_argument("--max-tokens", type=int, default=1024, help="bound of each answer while measuring")
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--caps", type=int, nargs="*", default=[256, 384, 512, 768])
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.prompts < 1 or args.max_tokens < 1:
        parser.error("--prompts and --max-tokens must be at least 1")
    return run_caps(args) if args.part == "caps" else run_lengths(args)


if __name__ == "__main__":
    sys.exit(main())
