"""The UI over HTTP (no browser): access control, CSRF, bad input, escaping, masked settings."""

from __future__ import annotations

import re

import httpx
import pytest

from proxy.config.sections import AdminConfig
from proxy.http.app import create_app
from tests.proxy.ui.conftest import ADMIN_KEY, UPSTREAM_KEY, ui_settings
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread

PAGES = ["/ui/overview", "/ui/cache", "/ui/routing", "/ui/requests", "/ui/upstreams", "/ui/batches", "/ui/keys",
         "/ui/settings"]
XSS = "<script>window.__pwned = 1</script>"


def _csrf(html: str) -> str:
    return re.search(r'name="csrf" value="([^"]+)"', html).group(1)


def login(client: httpx.Client, key: str = ADMIN_KEY) -> httpx.Response:
    form = client.get("/ui/login")
    return client.post("/ui/login", data={"api_key": key, "csrf": _csrf(form.text)})


def test_every_page_needs_a_session(ui_proxy):
    with httpx.Client(base_url=ui_proxy.url) as client:
        for path in [*PAGES, "/ui/requests/req-1", "/ui"]:
            response = client.get(path)
            assert response.status_code == 303 and response.headers["location"] == "/ui/login", path
    with httpx.Client(base_url=ui_proxy.url, cookies={"thrifty_ui_session": "9999999999.abc.deadbeef"}) as forged:
        assert forged.get("/ui/overview").status_code == 303
    with httpx.Client(base_url=ui_proxy.url) as client:
        assert client.post("/ui/cache/invalidate", data={"target": "all", "confirm": "yes"}).status_code == 303


def test_login_sets_a_strict_httponly_cookie_and_logout_ends_the_session(ui_proxy):
    with httpx.Client(base_url=ui_proxy.url) as client:
        response = login(client)
        assert response.status_code == 303 and response.headers["location"] == "/ui/overview"
        cookie = next(c for c in response.headers.get_list("set-cookie") if c.startswith("thrifty_ui_session="))
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie and "Max-Age=28800" in cookie
        assert ADMIN_KEY not in cookie
        page = client.get("/ui/overview")
        assert page.status_code == 200 and "Log out" in page.text
        token = client.cookies["thrifty_ui_session"]
        assert client.post("/ui/logout", data={"csrf": _csrf(page.text)}).status_code == 303
    # the old token no longer works, even if a client kept it
    with httpx.Client(base_url=ui_proxy.url, cookies={"thrifty_ui_session": token}) as kept:
        assert kept.get("/ui/overview").status_code == 303


def test_wrong_key_and_missing_login_csrf_are_refused(ui_proxy):
    with httpx.Client(base_url=ui_proxy.url) as client:
        wrong = login(client, "not-the-key")
        assert wrong.status_code == 401 and "Wrong admin key" in wrong.text
        assert "thrifty_ui_session" not in client.cookies
        client.get("/ui/login")
        no_csrf = client.post("/ui/login", data={"api_key": ADMIN_KEY})
        assert no_csrf.status_code == 403 and "thrifty_ui_session" not in client.cookies


def test_state_changing_posts_without_csrf_are_refused(ui_proxy):
    with httpx.Client(base_url=ui_proxy.url) as client:
        login(client)
        for path, data in [("/ui/cache/invalidate", {"target": "all", "confirm": "yes"}), ("/ui/logout", {})]:
            response = client.post(path, data=data)
            assert response.status_code == 403 and "CSRF" in response.text, path
            wrong = client.post(path, data={**data, "csrf": "0" * 64})
            assert wrong.status_code == 403, path
        page = client.get("/ui/cache")
        cross_site = client.post("/ui/logout", data={"csrf": _csrf(page.text)},
                                 headers={"origin": "https://evil.example"})
        assert cross_site.status_code == 403
        assert client.get("/ui/overview").status_code == 200  # still logged in


def test_invalidation_asks_for_confirmation_first(ui_proxy):
    body = {"model": "small-m", "temperature": 0, "messages": [{"role": "user", "content": "capital of France?"}]}
    assert httpx.post(f"{ui_proxy.url}/v1/chat/completions", json=body).headers["x-thrifty-cache"] == "miss"
    wait_for_log_rows(ui_proxy.db_path, "id", 1)
    with httpx.Client(base_url=ui_proxy.url) as client:
        login(client)
        csrf = _csrf(client.get("/ui/cache").text)
        deadline_hit = None
        for _ in range(100):  # the write-back happens after the answer
            deadline_hit = httpx.post(f"{ui_proxy.url}/v1/chat/completions", json=body).headers["x-thrifty-cache"]
            if deadline_hit == "exact":
                break
        assert deadline_hit == "exact"
        ask = client.post("/ui/cache/invalidate", data={"csrf": csrf, "target": "model", "model": "small-m"})
        assert ask.status_code == 200 and "Yes, delete" in ask.text
        assert httpx.post(f"{ui_proxy.url}/v1/chat/completions", json=body).headers["x-thrifty-cache"] == "exact"
        done = client.post("/ui/cache/invalidate", data={"csrf": csrf, "target": "model", "model": "small-m",
                                                         "confirm": "yes"})
        assert done.status_code == 303 and done.headers["location"] == "/ui/cache?removed=1"
        assert "Removed 1 cache entry" in client.get(done.headers["location"]).text
    assert httpx.post(f"{ui_proxy.url}/v1/chat/completions", json=body).headers["x-thrifty-cache"] == "miss"


@pytest.mark.parametrize("path, message", [
    ("/ui/overview?range=1y", "range must be one of"),
    ("/ui/overview?start=yesterday", "start must be a date or time"),
    ("/ui/overview?start=2026-02-02&end=2026-02-01", "start must be before end"),
    ("/ui/routing?range=90d&bucket=hour", "hour buckets cover at most"),
    ("/ui/cache?bucket=minute", "bucket must be auto, hour or day"),
    ("/ui/requests?status=teapot", "status must be ok, error or an HTTP status code"),
    ("/ui/requests?cache=maybe", "cache must be one of"),
    ("/ui/requests?before=%00", "before must look like"),
    ("/ui/requests?q=" + "x" * 300, "limited to 200 characters"),
    ("/ui/cache?removed=lots", "removed must be a count"),
    # datetime's edges and Unicode digits: once an OverflowError or ValueError, a 500
    ("/ui/overview?end=9999-12-31", "end must be between 1970-01-01 and 9998-12-31"),
    ("/ui/overview?end=0001-01-01", "end must be between"),
    ("/ui/overview?start=0001-01-01T00:00%2B14:00", "start must be between"),
    ("/ui/requests?end=9999-12-31", "end must be between"),
    ("/ui/requests?before=9999-12-31T23:59:59~x", "before must be between"),
    ("/ui/requests?status=%C2%B2", "status must be ok, error or an HTTP status code"),
    ("/ui/requests?status=99999999999999999999999", "status must be ok, error or an HTTP status code"),
    ("/ui/cache?removed=%C2%B2", "removed must be a count"),
])
def test_malformed_parameters_get_a_clear_400_page(shared_ui_proxy, path, message):
    with httpx.Client(base_url=shared_ui_proxy.url) as client:
        login(client)
        response = client.get(path)
    assert response.status_code == 400, response.text
    assert response.headers["content-type"].startswith("text/html")
    assert message in response.text.replace("&#39;", "'")


def test_unknown_ui_routes_and_requests_get_a_404_page(ui_proxy):
    with httpx.Client(base_url=ui_proxy.url) as client:
        assert client.get("/ui/no-such-page").status_code == 404  # without a session too
        login(client)
        for path in ["/ui/no-such-page", "/ui/cache/deeper/still", "/ui/requests/req-unknown"]:
            response = client.get(path)
            assert response.status_code == 404 and response.headers["content-type"].startswith("text/html")
            assert "Not found" in response.text


def test_database_values_are_escaped(ui_proxy):
    routed = {"model": "thrifty-auto", "messages": [{"role": "user", "content": XSS}]}
    answered = httpx.post(f"{ui_proxy.url}/v1/chat/completions", json=routed)
    assert answered.status_code == 200
    refused = httpx.post(f"{ui_proxy.url}/v1/chat/completions",
                         json={"model": XSS, "messages": [{"role": "user", "content": "hi"}]})
    assert refused.status_code >= 400
    wait_for_log_rows(ui_proxy.db_path, "id", 2)
    with httpx.Client(base_url=ui_proxy.url) as client:
        login(client)
        listing = client.get("/ui/requests").text
        detail = client.get(f"/ui/requests/{answered.headers['x-request-id']}").text
    assert "<script>" not in listing and "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in listing
    assert "<script>" not in detail and "&lt;script&gt;window.__pwned = 1&lt;/script&gt;" in detail


def test_settings_page_masks_secrets(ui_proxy):
    with httpx.Client(base_url=ui_proxy.url) as client:
        login(client)
        page = client.get("/ui/settings").text
    assert ADMIN_KEY not in page and UPSTREAM_KEY not in page
    assert page.count("••••••") >= 2 and "fixed_threshold" in page


def test_pages_render_with_data_and_send_no_scripts(ui_proxy):
    for content in ["hi", "Prove that every prime p > 3 has p^2 - 1 divisible by 24, with a Python check."]:
        httpx.post(f"{ui_proxy.url}/v1/chat/completions",
                   json={"model": "thrifty-auto", "messages": [{"role": "user", "content": content}]})
    wait_for_log_rows(ui_proxy.db_path, "id", 2)
    with httpx.Client(base_url=ui_proxy.url) as client:
        login(client)
        for path in PAGES:
            response = client.get(path)
            assert response.status_code == 200, path
            assert "<script" not in response.text.lower(), path
            assert "script-src" not in response.headers["content-security-policy"]  # default-src 'none' covers it
            assert "default-src 'none'" in response.headers["content-security-policy"]
        routing = client.get("/ui/routing").text
    assert re.search(r'id="routed">2<', routing)
    assert "heuristic" in routing


def test_disabled_without_an_admin_key(tmp_path):
    from dataclasses import replace

    script = ScriptedUpstream()
    with serve_in_thread(script) as up:
        settings = replace(ui_settings(up, tmp_path, semantic=False), admin=AdminConfig(api_key=""))
        with serve_in_thread(create_app(settings)) as url:
            page = httpx.get(f"{url}/ui/login")
            refused = httpx.post(f"{url}/ui/login", data={"api_key": "", "csrf": ""})
            overview = httpx.get(f"{url}/ui/overview")
    assert page.status_code == 503 and "admin UI is disabled" in page.text
    assert refused.status_code == 503 and "thrifty_ui_session" not in refused.cookies
    assert overview.status_code == 303


def test_request_search_finds_an_id_and_says_how_far_back_it_looks(ui_proxy):
    answered = httpx.post(f"{ui_proxy.url}/v1/chat/completions",
                          json={"model": "small-m", "messages": [{"role": "user", "content": "hi"}]})
    request_id = answered.headers["x-request-id"]
    wait_for_log_rows(ui_proxy.db_path, "id", 1)
    with httpx.Client(base_url=ui_proxy.url) as client:
        login(client)
        by_id = client.get("/ui/requests", params={"q": request_id}).text
        by_text = client.get("/ui/requests", params={"q": "small"}).text
        nothing = client.get("/ui/requests", params={"q": "no-such-thing", "start": "2020-01-01"}).text
        everything = client.get("/ui/requests").text
    assert f">{request_id}</a>" in by_id and 'id="search-window"' in by_id
    assert f">{request_id}</a>" in by_text
    assert "No request matches" in nothing and 'id="search-window"' not in nothing
    assert 'id="search-window"' not in everything and f">{request_id}</a>" in everything


def _invalidate(client: httpx.Client, csrf: str, **fields: str) -> httpx.Response:
    return client.post("/ui/cache/invalidate", data={"csrf": csrf, "target": "entry", **fields})


@pytest.mark.parametrize("kind, entry_id", [
    ("semantic", "²"), ("semantic", "99999999999999999999999999"), ("semantic", str(2**63)), ("semantic", "-1"),
    ("semantic", "1e3"), ("semantic", "٣"), ("exact", "k" * 65), ("other", "1"), ("exact", ""),
])
def test_invalidating_a_malformed_entry_id_gets_a_400_page(shared_ui_proxy, kind, entry_id):
    with httpx.Client(base_url=shared_ui_proxy.url, timeout=60) as client:  # httpx's 5 s default timed out once in the full suite
        login(client)
        csrf = _csrf(client.get("/ui/cache").text)
        for confirm in ("", "yes"):
            response = _invalidate(client, csrf, kind=kind, entry_id=entry_id, confirm=confirm)
            assert response.status_code == 400, response.text
            assert "Bad parameter" in response.text and "ValueError" not in response.text
            assert "too large" not in response.text


def test_invalidating_a_well_formed_entry_id_asks_then_deletes(ui_proxy):
    with httpx.Client(base_url=ui_proxy.url) as client:
        login(client)
        csrf = _csrf(client.get("/ui/cache").text)
        for kind, entry_id in [("semantic", str(2**63 - 1)), ("exact", "k" * 64)]:
            ask = _invalidate(client, csrf, kind=kind, entry_id=entry_id)
            assert ask.status_code == 200 and "Yes, delete" in ask.text and entry_id in ask.text
            done = _invalidate(client, csrf, kind=kind, entry_id=entry_id, confirm="yes")
            assert done.status_code == 303 and done.headers["location"] == "/ui/cache?removed=0"


@pytest.mark.parametrize("error", [OverflowError("date value out of range"), ValueError("year 0 is out of range")])
def test_a_loader_overflow_is_a_400_page_not_a_500(tmp_path, error):
    from litestar import Litestar

    from proxy.storage.migrate import upgrade
    from proxy.ui import Page, default_pages, ui_handlers

    async def load_broken(ctx):
        raise error

    pages = [*default_pages(), Page("Broken", "/ui/broken", "settings.html", load_broken)]
    settings = ui_settings("http://127.0.0.1:9", tmp_path, semantic=False)
    app = create_app(settings)
    upgrade(settings.database_url)  # no proxy start-up here: the sessions' table must exist
    ui_app = Litestar(route_handlers=ui_handlers(settings, app.state.thrifty, pages=pages))
    with serve_in_thread(ui_app) as url, httpx.Client(base_url=url) as client:
        login(client)
        response = client.get("/ui/broken")
    assert response.status_code == 400 and response.headers["content-type"].startswith("text/html")
    assert "Bad parameter" in response.text and "out of range" in response.text
    assert str(error) not in response.text  # internal text stays in the log
