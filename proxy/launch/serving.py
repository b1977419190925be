"""Serving the proxy in this process: the app under uvicorn, until interrupted (``thrifty proxy serve``
and the proxy half of ``thrifty serve``, :mod:`proxy.launch.supervisor`)."""

from __future__ import annotations

import logging
import threading

from proxy.config.settings import Settings
from proxy.launch.health import wait_until_healthy


def run_proxy(settings: Settings) -> None:
    """Serve the proxy with uvicorn until interrupted."""
    import uvicorn

    from proxy.http.app import create_app
    from proxy.launch.slow_clients import header_deadline_protocol
    from proxy.logs import configure_logging

    configure_logging(settings.proxy.log_format, logging.getLogger().level or logging.INFO)
    app = create_app(settings)
    base = f"http://{settings.proxy.host}:{settings.proxy.port}"
    logging.getLogger(__name__).info("proxy starting on %s/v1", base)
    announce_when_ready(base + "/health", f"proxy on {base}/v1")
    # keep idle connections longer than clients do (httpx and the openai SDK: 5 s), so a client never
    # reuses a connection the server is closing at that moment (a sporadic ReadError under load)
    http = header_deadline_protocol(settings.proxy.header_timeout_s)
    uvicorn.run(app, host=settings.proxy.host, port=settings.proxy.port, log_level="warning", timeout_keep_alive=75,
                timeout_graceful_shutdown=10, log_config=None, **({"http": http} if http else {}))


def announce_when_ready(url: str, what: str, timeout_s: float = 300.0) -> threading.Thread:
    """Log ``ready`` once ``url`` (a /health endpoint) really answers, from a background thread."""
    def wait() -> None:
        if wait_until_healthy(url, timeout_s=timeout_s, poll_s=0.1, probe_timeout_s=1.0):
            logging.getLogger("thrifty").info("%s ready", what)
        else:
            logging.getLogger("thrifty").error("%s did not answer %s within %.0f s", what, url, timeout_s)

    thread = threading.Thread(target=wait, daemon=True, name="ready-announcer")
    thread.start()
    return thread
