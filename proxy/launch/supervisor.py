"""``thrifty serve``: the bundled backend as a child process, then the proxy in this process.

The child is started on a free local port (unless configured), asked to die with its parent
(``PR_SET_PDEATHSIG`` on Linux), waited for until ``/health`` answers, and terminated when the
proxy stops, so no orphan process is left behind.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import replace

from proxy.config.settings import Settings
from proxy.launch.health import ExitedEarly, wait_until_healthy
from proxy.launch.serving import run_proxy

log = logging.getLogger(__name__)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def backend_command(settings: Settings, port: int) -> list[str]:
    """The command line that runs the bundled backend with this configuration."""
    b = settings.backend
    cmd = [sys.executable, "-m", "proxy.cli", "backend", "serve", "--host", settings.bundled.host,
           "--port", str(port), "--served-model-name", b.served_model_name, "--dtype", b.dtype,
           "--device", b.device, "--max-model-len", str(b.max_model_len), "--max-n", str(b.max_n),
           "--data-dir", str(settings.data_path), "--weights-dtype", b.weights_dtype,
           "--batch-invariant", "on" if b.batch_invariant else "off",
           "--grammar-compile-timeout", str(b.grammar_compile_timeout_s),
           "--grammar-cache-size", str(b.grammar_cache_size)]
    if b.model_path:
        cmd += ["--model", b.model_path]
    if b.num_threads:
        cmd += ["--num-threads", str(b.num_threads)]
    # the engine's options: the child reads no configuration file, so each one travels as its flag
    cmd += ["--block-size", str(b.block_size), "--gpu-memory-utilization", str(b.gpu_memory_utilization),
            "--max-num-seqs", str(b.max_num_seqs), "--max-num-batched-tokens", str(b.max_num_batched_tokens),
            "--prefix-caching" if b.enable_prefix_caching else "--no-prefix-caching",
            "--chunked-prefill" if b.enable_chunked_prefill else "--no-chunked-prefill",
            "--kv-cache-dtype", b.kv_cache_dtype, "--cuda-graphs", b.cuda_graphs, "--speculative", b.speculative]
    if b.speculative != "off":  # the child refuses speculative flags that would do nothing
        cmd += ["--num-speculative-tokens", str(b.num_speculative_tokens),
                "--speculative-max-step-rows", str(b.speculative_max_step_rows)]
    if b.speculative == "self":
        cmd += ["--speculative-draft-layers", str(b.speculative_draft_layers)]
    if b.kv_cache_memory:
        cmd += ["--kv-cache-memory", str(b.kv_cache_memory)]
    if b.speculative_model:
        cmd += ["--speculative-model", b.speculative_model]
    return cmd


class BackendProcess:
    """The bundled backend child process."""

    def __init__(self, settings: Settings, shares_cores: bool = False) -> None:
        """``shares_cores``: other busy backends run on the same cores (replicas), so the child's idle
        OpenMP workers sleep at once instead of spinning (unless the user set ``OMP_WAIT_POLICY``):
        two decoding processes on 2 vCPUs ran at 10-18 tokens/s each with libgomp's spinning
        default and 48 with ``PASSIVE`` (BENCHMARKS.md, "OpenMP wait policy")."""
        self.settings = settings
        self.shares_cores = shares_cores
        self.port = settings.bundled.port or free_port(settings.bundled.host)
        self.base_url = f"http://{settings.bundled.host}:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        cmd = backend_command(self.settings, self.port)
        log.info("starting bundled backend on %s", self.base_url)
        env = None
        if self.shares_cores and not os.environ.get("OMP_WAIT_POLICY"):
            env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}
        self.process = subprocess.Popen(cmd, env=env, preexec_fn=_die_with_parent if sys.platform == "linux" else None)

    def wait_ready(self) -> None:
        """Block until the backend answers /health; raise if it exits or takes too long."""
        assert self.process is not None
        last_note = [0.0]

        def note() -> None:
            if time.monotonic() - last_note[0] > 10:
                last_note[0] = time.monotonic()
                log.info("waiting for the bundled backend to load its model...")

        try:
            ready = wait_until_healthy(self.base_url + "/health", timeout_s=self.settings.bundled.startup_timeout_s,
                                       poll_s=0.25, process=self.process, on_poll=note)
        except ExitedEarly as exc:
            raise RuntimeError(f"the bundled backend exited with status {exc.returncode} before becoming ready") from None
        if not ready:
            raise RuntimeError(f"the bundled backend did not become ready within "
                               f"{self.settings.bundled.startup_timeout_s:.0f}s")

    def stop(self, timeout: float = 15.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            log.warning("backend did not stop within %.0fs; killing it", timeout)
            self.process.kill()
            self.process.wait()


#: Set for the proxy process of ``thrifty serve`` (unless the user set them): its torch work (the
#: embedding model of the semantic cache and the router) and the shaping tokenizer then run on one
#: thread each and never spin-wait, leaving the cores to the bundled backend (docs/performance-tuning.md).
PROXY_THREAD_ENV = {"OMP_WAIT_POLICY": "PASSIVE", "TOKENIZERS_PARALLELISM": "false"}


def leave_cores_to_backend(settings: Settings) -> Settings:
    """The proxy side of ``thrifty serve``: its torch and tokenizer threads yield to the backend's.

    Sets :data:`PROXY_THREAD_ENV` in this process's environment (libgomp reads ``OMP_WAIT_POLICY``
    once, when torch first loads, which the proxy does lazily: call this before anything imports
    torch, and after the backend children started, so that they keep the user's environment), and
    one torch thread for the embedder when ``[cache] embed_threads`` is automatic (0)."""
    for name, value in PROXY_THREAD_ENV.items():
        os.environ.setdefault(name, value)
    if settings.cache.embed_threads == 0:
        settings = replace(settings, cache=replace(settings.cache, embed_threads=1))
    return settings


def preload_proxy_modules(settings: Settings | None = None) -> threading.Thread:
    """Import the proxy's heavy modules (the app, torch, the embedder's tokenizer library, and scikit-learn
    when ``settings`` route with a trained artifact) on a thread, so that they load while the bundled backend
    loads its model instead of after it (call it after :func:`leave_cores_to_backend`: libgomp reads its
    settings when torch first loads). A failure here is left for the proxy's own start to report."""
    learned_router = settings is not None and settings.router.enabled and settings.router.kind == "learned"

    def work() -> None:
        with contextlib.suppress(Exception):
            import tokenizers  # noqa: F401
            import torch  # noqa: F401

            import proxy.http.app  # noqa: F401

            if learned_router:  # the router's artifact unpickles scikit-learn estimators: ~1 s of imports
                import sklearn.base  # noqa: F401

    thread = threading.Thread(target=work, name="thrifty-preload", daemon=True)
    thread.start()
    return thread


def serve_all(settings: Settings) -> int:
    """Run backend child + proxy until SIGINT/SIGTERM; returns an exit status."""
    replicas = settings.bundled.replicas if settings.bundled.enabled else 0
    others = replace(settings, bundled=replace(settings.bundled, port=0))  # replicas 2.. on free ports
    backends = [BackendProcess(settings if i == 0 else others, shares_cores=replicas > 1) for i in range(replicas)]
    backend = backends[0] if backends else None

    def on_term(signum, _frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, on_term)
    try:
        if backend is not None:
            for child in backends:
                child.start()
            settings = leave_cores_to_backend(settings)  # after the children started: they keep the user's env
            preload = preload_proxy_modules(settings)  # the proxy's imports overlap the backends' model loads
            for child in backends:
                child.wait_ready()
            preload.join()
            settings = settings.with_bundled_backend(*(child.base_url + "/v1" for child in backends),
                                                     replica_choice=settings.bundled.replica_choice)
            settings = replace(settings, bundled=replace(settings.bundled, port=backend.port))
        # uvicorn restores this handler on exit and re-raises the signal it caught, which lands here
        run_proxy(settings)
        return 0
    except KeyboardInterrupt:
        return 0
    except RuntimeError as exc:
        print(f"thrifty: {exc}", file=sys.stderr)
        return 1
    finally:
        for child in backends:
            child.stop()
        signal.signal(signal.SIGTERM, previous)
