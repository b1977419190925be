"""The admin UI in a real browser (Debian's Chromium driven by Playwright) in front of a live proxy
that the ``openai`` SDK sends requests through.

One browser and one proxy serve the whole module. Every page load is recorded: no request may
leave the proxy's origin and no console error may appear. Screenshots go to
``$THRIFTY_UI_SCREENSHOTS`` (default: a pytest temporary folder, printed at the end).
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import openai
import pytest
from playwright.sync_api import sync_playwright

from proxy.http.app import create_app
from tests.proxy.ui.conftest import ADMIN_KEY, ui_settings
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
QUESTION = "What is the capital city of France?"
PARAPHRASE = "What's the capital city of France?"


@dataclass
class UI:
    url: str
    db_path: Path
    client: openai.OpenAI
    page: object  # playwright Page
    shots: Path
    outside: list[str] = field(default_factory=list)  # requests to anywhere but the proxy
    console_errors: list[str] = field(default_factory=list)
    failed_assets: list[str] = field(default_factory=list)  # non-document responses >= 400

    def script_errors(self) -> list[str]:
        """Console errors, except Chromium's note on the error pages the tests ask for on purpose
        (a failing asset is caught by ``failed_assets`` instead)."""
        return [m for m in self.console_errors
                if not re.match(r"Failed to load resource: the server responded with a status of (400|401|403|404) ", m)]

    def goto(self, path: str):
        response = self.page.goto(self.url + path)
        return response

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.shots / f"{name}.png"), full_page=True)

    def chat(self, content: str, model: str = "small-m", extra: dict | None = None):
        raw = self.client.chat.completions.with_raw_response.create(
            model=model, temperature=0, messages=[{"role": "user", "content": content}], extra_body=extra)
        return raw.headers, raw.parse()

    def logged_rows(self) -> int:
        return len(wait_for_log_rows(self.db_path, "id", 0, timeout=0))


@pytest.fixture(scope="module")
def ui(tmp_path_factory, embedder) -> Iterator[UI]:
    data_dir = tmp_path_factory.mktemp("ui-proxy")
    shots = Path(os.environ.get("THRIFTY_UI_SCREENSHOTS") or tmp_path_factory.mktemp("ui-screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    script = ScriptedUpstream(content="Paris.")
    with serve_in_thread(script) as up:
        app = create_app(ui_settings(up, data_dir, semantic=True), embedder=embedder)
        with serve_in_thread(app) as url, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1360, "height": 900})
            page.set_default_timeout(10_000)
            ui = UI(url, data_dir / "proxy.db", openai.OpenAI(base_url=f"{url}/v1", api_key="sk-tenant-a"), page,
                    shots)
            page.on("request", lambda r: None if r.url.startswith(url) else ui.outside.append(r.url))
            page.on("console", lambda m: ui.console_errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: ui.console_errors.append(str(e)))
            page.on("response", lambda r: ui.failed_assets.append(f"{r.status} {r.url}")
                    if r.status >= 400 and r.request.resource_type != "document" else None)
            try:
                yield ui
            finally:
                browser.close()
                print(f"\nUI screenshots in {shots}")


def _log_in(ui: UI, key: str = ADMIN_KEY):
    ui.goto("/ui/login")
    ui.page.fill("input[name=api_key]", key)
    with ui.page.expect_navigation() as nav:
        ui.page.click("button[type=submit]")
    return nav.value


def _wait_logged(ui: UI, n: int) -> None:
    wait_for_log_rows(ui.db_path, "id", n)


def test_wrong_key_is_refused(ui):
    response = ui.goto("/ui/overview")
    assert ui.page.url.endswith("/ui/login") and response.status == 200
    refused = _log_in(ui, "wrong-key")
    assert refused.status == 401
    assert "Wrong admin key" in ui.page.inner_text("[role=alert]")
    assert ui.page.url.endswith("/ui/login")
    assert not [c for c in ui.page.context.cookies() if c["name"] == "thrifty_ui_session"]
    ui.shot("login-refused")


def test_requests_sent_with_the_sdk_are_counted_on_overview_and_requests_pages(ui):
    before = ui.logged_rows()
    sent = [ui.chat(f"Name a colour of the rainbow, number {i}.")[0]["x-request-id"] for i in range(3)]
    sent.append(ui.chat("hi", model="thrifty-auto")[0]["x-request-id"])
    _wait_logged(ui, before + 4)
    assert _log_in(ui).status == 200 and ui.page.url.endswith("/ui/overview")
    cookie = next(c for c in ui.page.context.cookies() if c["name"] == "thrifty_ui_session")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert ui.page.inner_text("#total-requests") == str(before + 4)
    assert ui.page.locator("#latency tbody tr", has_text="upstream-model").count() >= 1  # the model that answered
    ui.shot("overview")
    ui.goto("/ui/requests")
    listed = ui.page.locator("#requests tbody tr")
    assert listed.count() == before + 4
    for request_id in sent:
        assert ui.page.locator(f"#requests a:text-is('{request_id}')").count() == 1
    ui.page.click(f"#requests a:text-is('{sent[-1]}')")
    assert ui.page.url.endswith(f"/ui/requests/{sent[-1]}")
    assert ui.page.inner_text("#prompt") .strip().endswith("hi")  # stored: [router] store_requests is on
    ui.shot("request-detail")


def test_semantic_hit_shows_on_the_cache_page_and_invalidating_it_makes_the_next_request_miss(ui):
    headers, _ = ui.chat(QUESTION)
    assert headers["x-thrifty-cache"] == "miss"
    # the write-back lands just after the first answer, and its row is committed a moment before its vector is
    # searchable: ask the paraphrase without storing it (the body's thrifty.cache.store false) until it hits; a miss
    # stores nothing and counts no hit
    deadline = time.monotonic() + 10
    no_store = {"thrifty": {"cache": {"store": False}}}
    while (hit := ui.chat(PARAPHRASE, extra=no_store)[0]["x-thrifty-cache"]) != "semantic" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hit == "semantic"
    row = ui.page.locator("#most-hit tbody tr", has_text=QUESTION)
    deadline = time.monotonic() + 10
    while True:  # hit counts reach the table at the next cache maintenance (every 0.2 s here), the
        ui.goto("/ui/cache")  # hit rate once the request log is flushed
        if (row.count() and int(ui.page.inner_text("#semantic-hits")) >= 1) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert int(ui.page.inner_text("#semantic-hits")) >= 1
    assert row.count() == 1 and row.locator("td").nth(3).inner_text() == "1"
    ui.shot("cache-semantic-hit")
    with ui.page.expect_navigation():
        row.locator("button", has_text="Delete").click()
    assert "Confirm cache invalidation" in ui.page.inner_text("h1")
    assert ui.chat(PARAPHRASE)[0]["x-thrifty-cache"] == "semantic"  # nothing deleted before confirming
    with ui.page.expect_navigation():
        ui.page.click("button:has-text('Yes, delete')")
    assert ui.page.url.endswith("/ui/cache?removed=1")
    assert "Removed 1 cache entry" in ui.page.inner_text("[role=status]")
    assert ui.page.locator("#most-hit tbody tr", has_text=QUESTION).count() == 0
    assert ui.chat(PARAPHRASE)[0]["x-thrifty-cache"] == "miss"


def test_a_post_without_the_csrf_token_is_refused(ui):
    ui.goto("/ui/overview")
    refused = ui.page.request.post(ui.url + "/ui/cache/invalidate", form={"target": "all", "confirm": "yes"})
    assert refused.status == 403
    ui.goto("/ui/overview")
    assert ui.page.url.endswith("/ui/overview")  # the session still stands


def test_a_script_prompt_is_shown_as_text(ui):
    before = ui.logged_rows()
    headers, _ = ui.chat("<script>window.__pwned = 1</script> what is 2+2?", model="thrifty-auto")
    _wait_logged(ui, before + 1)
    ui.goto(f"/ui/requests/{headers['x-request-id']}")
    assert "<script>window.__pwned = 1</script>" in ui.page.inner_text("#prompt")
    assert ui.page.evaluate("window.__pwned") is None
    assert ui.page.locator("#prompt script").count() == 0


def test_every_page_renders_from_this_server_only_without_console_errors(ui):
    ui.goto("/ui/overview")
    links = [a.get_attribute("href") for a in ui.page.locator("header nav a").all()]
    assert links == ["/ui/overview", "/ui/cache", "/ui/routing", "/ui/requests", "/ui/upstreams", "/ui/batches",
                     "/ui/keys", "/ui/settings"]
    for path in links:
        response = ui.goto(path)
        assert response.status == 200, path
        assert ui.page.locator("svg, table").count() > 0, path
        ui.shot(path.rsplit("/", 1)[-1])
    assert ui.goto("/ui/definitely-not-a-page").status == 404
    assert "Not found" in ui.page.inner_text("h1")
    assert ui.goto("/ui/overview?range=forever").status == 400
    assert re.search("range must be one of", ui.page.inner_text("[role=alert]"))
    with ui.page.expect_navigation():
        ui.page.click("header .logout button")
    assert ui.page.url.endswith("/ui/login")
    ui.goto("/ui/overview")
    assert ui.page.url.endswith("/ui/login")
    assert ui.outside == []
    assert ui.failed_assets == []
    assert ui.script_errors() == []
