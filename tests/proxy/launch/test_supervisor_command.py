"""The bundled backend's command line carries the [backend] settings the child cannot read itself."""

from __future__ import annotations

from dataclasses import replace

from backend.cli import serve_parser
from proxy.config.settings import Settings
from proxy.launch.supervisor import backend_command


def test_weights_dtype_reaches_the_backend_child() -> None:
    settings = Settings()
    settings = replace(settings, backend=replace(settings.backend, weights_dtype="int4"))
    cmd = backend_command(settings, 1234)
    assert cmd[1:5] == ["-m", "proxy.cli", "backend", "serve"]
    args = serve_parser().parse_args(cmd[5:])
    assert args.weights_dtype == "int4" and args.port == 1234


def test_every_engine_option_reaches_the_backend_child() -> None:
    """`thrifty serve` with [backend] engine options: the child gets each one (it reads no config file)."""
    settings = Settings()
    engine = {"block_size": 32, "kv_cache_memory": "512MiB", "gpu_memory_utilization": 0.5, "max_num_seqs": 7,
              "max_num_batched_tokens": 256, "enable_prefix_caching": False, "enable_chunked_prefill": False,
              "kv_cache_dtype": "int8", "cuda_graphs": "off", "speculative": "self", "num_speculative_tokens": 3,
              "speculative_draft_layers": 5, "num_threads": 2, "batch_invariant": False,
              "grammar_compile_timeout_s": 2.5, "grammar_cache_size": 9}
    settings = replace(settings, backend=replace(settings.backend, **engine))
    args = serve_parser().parse_args(backend_command(settings, 1234)[5:])
    assert (args.block_size, args.kv_cache_memory, args.gpu_memory_utilization, args.max_num_seqs,
            args.max_num_batched_tokens, args.prefix_caching, args.chunked_prefill, args.kv_cache_dtype,
            args.cuda_graphs, args.speculative, args.num_speculative_tokens,
            args.speculative_draft_layers, args.num_threads, args.batch_invariant, args.grammar_compile_timeout,
            args.grammar_cache_size) == tuple(engine.values())
    draft = replace(settings.backend, speculative="draft", speculative_model="/models/draft.gguf")
    args = serve_parser().parse_args(backend_command(replace(settings, backend=draft), 1234)[5:])
    assert (args.speculative_model, args.num_speculative_tokens, args.speculative_draft_layers) == \
        ("/models/draft.gguf", 3, None)
    defaults = serve_parser().parse_args(backend_command(Settings(), 1234)[5:])
    assert defaults.kv_cache_memory is None and defaults.prefix_caching is True and defaults.speculative == "ngram"
    assert defaults.batch_invariant is True


def test_the_childs_command_passes_its_own_speculative_checks() -> None:
    """The child refuses speculative flags that would do nothing: the supervisor sends only those that apply."""
    from backend.cli import _unused_speculative_flags

    for method in ("off", "ngram", "self", "draft"):
        settings = Settings()
        settings = replace(settings, backend=replace(settings.backend, speculative=method,
                                                     speculative_model="/m.gguf" if method == "draft" else None))
        args = serve_parser().parse_args(backend_command(settings, 1234)[5:])
        assert _unused_speculative_flags(args, method) is None, method
