"""The bundled backend's own commands, ``thrifty backend serve`` and ``thrifty kv-size``: their flags,
checks and start-up. The ``thrifty`` CLI (:mod:`proxy.cli`) loads this module by name when one of them
runs and hands it a reader of the configuration file, so the backend imports nothing of the proxy."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from backend import cli_args
from backend.config import CUDA_GRAPH_MODES, KV_CACHE_DTYPE_NAMES, BackendConfig
from backend.speculative.config import SPECULATIVE_METHODS

#: ``--config`` path (or None) -> the [backend] settings and the data folder
ConfigLoader = Callable[[str | None], tuple[BackendConfig, Path]]


def serve_parser() -> argparse.ArgumentParser:
    """The flags of ``thrifty backend serve``."""
    bserve = argparse.ArgumentParser(prog="thrifty backend serve", description="serve a model over the OpenAI API")
    bserve.add_argument("--config", help="TOML configuration file (see thrifty.example.toml); optional")
    bserve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    bserve.add_argument("--port", type=cli_args.port, default=8001, help="port to listen on (default 8001)")
    bserve.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    bserve.add_argument("--served-model-name", help="model name the API reports and accepts")
    bserve.add_argument("--dtype", type=cli_args.dtype, help="float32 | bfloat16 | float16")
    bserve.add_argument("--weights-dtype", type=str.lower, choices=("auto", "fp32", "bf16", "int8", "int4"),
                        help="how linear layers hold weights (default auto; see docs/engine-flags.md)")
    bserve.add_argument("--device", type=cli_args.device, help="cpu | cuda | cuda:N")
    bserve.add_argument("--grammar-compile-timeout", type=float,
                        help="seconds a structured-output grammar may compile before a 400 (default 10)")
    bserve.add_argument("--grammar-cache-size", type=cli_args.at_least(1),
                        help="compiled grammars kept, by grammar text (default 256)")
    bserve.add_argument("--batch-invariant", type=cli_args.on_off,
                        help="on (default): answers do not depend on the batch; off: faster prefill")
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
    return bserve


def kv_size_parser() -> argparse.ArgumentParser:
    """The flags of ``thrifty kv-size``."""
    kvsize = argparse.ArgumentParser(prog="thrifty kv-size", description="KV-cache bytes for a model, sequence length and batch")
    kvsize.add_argument("--model", help="GGUF file or safetensors folder (default: SmolLM2-135M-Instruct)")
    kvsize.add_argument("--seq-len", type=cli_args.at_least(1), required=True, help="tokens per sequence")
    kvsize.add_argument("--batch", type=cli_args.at_least(1), default=1, help="sequences (default 1)")
    kvsize.add_argument("--dtype", default="float32", type=str.lower, choices=KV_CACHE_DTYPE_NAMES[1:],
                        help="KV element type (int8 adds a 4-byte scale per token and head)")
    return kvsize


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


def serve(argv: list[str], load_config: ConfigLoader) -> int:
    """``thrifty backend serve``: parse ``argv``, load the model and serve it until interrupted.
    ``load_config`` reads ``--config`` into the [backend] section and the data folder (the CLI
    passes the proxy's configuration loader; the backend reads no configuration file itself)."""
    args = serve_parser().parse_args(argv)
    import uvicorn

    from backend.engine import EngineConfig
    from backend.main_thread import run_on_short_lived_thread
    from backend.runtime import load_model
    from backend.server import create_backend_app

    base, data_path = load_config(args.config)
    overrides = {k: v for k, v in {
        "model_path": args.model, "served_model_name": args.served_model_name, "dtype": args.dtype,
        "device": args.device, "max_model_len": args.max_model_len, "max_n": args.max_n,
        "num_threads": args.num_threads, "data_dir": args.data_dir,
        "block_size": args.block_size, "kv_cache_memory": args.kv_cache_memory,
        "gpu_memory_utilization": args.gpu_memory_utilization, "max_num_seqs": args.max_num_seqs,
        "max_num_batched_tokens": args.max_num_batched_tokens, "enable_prefix_caching": args.prefix_caching,
        "enable_chunked_prefill": args.chunked_prefill, "kv_cache_dtype": args.kv_cache_dtype,
        "cuda_graphs": args.cuda_graphs, "weights_dtype": args.weights_dtype,
        "batch_invariant": args.batch_invariant, "grammar_compile_timeout_s": args.grammar_compile_timeout,
        "grammar_cache_size": args.grammar_cache_size,
        "speculative": args.speculative, "num_speculative_tokens": args.num_speculative_tokens,
        "speculative_model": args.speculative_model, "speculative_draft_layers": args.speculative_draft_layers,
        "speculative_max_step_rows": args.speculative_max_step_rows,
    }.items() if v is not None}
    config = replace(base, **overrides)
    if config.data_dir is None:
        config = replace(config, data_dir=str(data_path))
    if args.engine == "serial" and args.speculative is None:  # the default n-gram drafting needs the paged engine
        config = replace(config, speculative="off")
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


def kv_size(argv: list[str]) -> int:
    """``thrifty kv-size``: the KV-cache bytes of a model for a sequence length and batch."""
    args = kv_size_parser().parse_args(argv)
    import torch

    from backend.engine.config import parse_kv_cache_dtype
    from backend.engine.kvsize import kv_size as size_of
    from backend.engine.kvsize import read_model_config

    model = read_model_config(args.model)
    print(size_of(model, args.seq_len, args.batch, parse_kv_cache_dtype(args.dtype, torch.float32)).render())
    return 0
