"""UI pages over HTTP: the upstreams page reads the bundled engine's /metrics, and the page
registry takes a new page as one entry."""

from __future__ import annotations

import re
from dataclasses import replace

import httpx
from litestar import Litestar

from backend.engine.engine import EngineMetrics
from backend.metrics import BackendMetrics
from proxy.config.sections import UpstreamConfig
from proxy.http.app import create_app
from proxy.launch.supervisor import free_port
from proxy.ui import Page, default_pages, ui_handlers
from tests.proxy.ui.conftest import ui_settings
from tests.proxy.ui.test_routes import login
from tests.support.servers import ScriptedUpstream, serve_in_thread

ENGINE = EngineMetrics(running=3, waiting=7, blocks_total=200, blocks_used=50, blocks_cached=20, blocks_free=130,
                       prefix_cache_hit_rate=0.625, generation_tokens_per_s=41.5, preemptions=2)


async def backend_like(scope, receive, send):
    """Answers /v1/models, and /metrics with the bundled backend's own exposition of ``ENGINE``."""
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    if scope["path"] == "/metrics":
        body = BackendMetrics("smollm2-135m-instruct", engine_snapshot=lambda: ENGINE).render()
        kind = b"text/plain"
    else:
        body, kind = b'{"object": "list", "data": []}', b"application/json"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", kind)]})
    await send({"type": "http.response.body", "body": body})


def test_upstreams_page_shows_health_and_the_engine_gauges(tmp_path):
    script = ScriptedUpstream()
    with serve_in_thread(script) as up, serve_in_thread(backend_like) as backend:
        settings = ui_settings(up, tmp_path, semantic=False)
        down = f"http://127.0.0.1:{free_port('127.0.0.1')}/v1"
        settings = replace(settings, upstreams=(*settings.upstreams, UpstreamConfig("local", backend + "/v1"),
                                                UpstreamConfig("gone", down)))
        with serve_in_thread(create_app(settings)) as url, httpx.Client(base_url=url) as client:
            httpx.post(f"{url}/v1/chat/completions",
                       json={"model": "small-m", "messages": [{"role": "user", "content": "hi"}]})
            login(client)
            page = client.get("/ui/upstreams")
    assert page.status_code == 200
    text = re.sub(r"<[^>]+>", " ", page.text)
    text = re.sub(r"\s+", " ", text)
    assert re.search(r"local .*? up \(\d+ ms\)", text) and re.search(r"gone .*? down", text)
    engine = page.text[page.text.index('id="engine-local"'):]
    for shown in ("Running seqs</span><span class=\"v\">3<", "Waiting seqs</span><span class=\"v\">7<",
                  "KV-cache usage</span><span class=\"v\">25.0%<", "Prefix-cache hit rate</span><span class=\"v\">62.5%<"):
        assert shown in engine, shown
    assert 'id="engine-fake"' not in page.text  # the scripted upstream has no engine metrics


def test_a_page_is_one_registry_entry(tmp_path):
    async def load_queue(ctx):
        return {"sections": [("queue", [("queued", "4")])]}

    pages = [*default_pages(), Page("Queue", "/ui/queue", "settings.html", load_queue)]
    settings = ui_settings("http://127.0.0.1:9", tmp_path, semantic=False)
    app = create_app(settings)
    ui_app = Litestar(route_handlers=ui_handlers(settings, app.state.thrifty, pages=pages))
    # the proxy app starts too: its start-up creates the tables the login's throttle and sessions use
    with serve_in_thread(app), serve_in_thread(ui_app) as url, httpx.Client(base_url=url) as client:
        assert client.get("/ui/queue").status_code == 303  # behind the login like every page
        login(client)
        page = client.get("/ui/queue")
    assert page.status_code == 200 and '<a href="/ui/queue" class="active"' in page.text
    assert "queued" in page.text


def test_vllm_metrics_are_read_too():
    from proxy.ui.pages import _engine_metrics, parse_prometheus

    text = """# HELP vllm:num_requests_running Number of requests running.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{model_name="a"} 2.0
vllm:num_requests_running{model_name="b"} 1.0
vllm:num_requests_waiting{model_name="a"} 4.0
vllm:kv_cache_usage_perc{model_name="a"} 0.5
vllm:prefix_cache_queries_total{model_name="a"} 200.0
vllm:prefix_cache_hits_total{model_name="a"} 50.0
"""
    m = _engine_metrics(parse_prometheus(text))
    assert (m["running"], m["waiting"], m["kv_usage"], m["prefix_hit_rate"]) == (3.0, 4.0, 0.5, 0.25)
    assert _engine_metrics(parse_prometheus("http_requests_total 5\n")) is None
