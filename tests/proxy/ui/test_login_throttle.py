"""Admin-key guessing is throttled (per client address and key prefix, in the database), and UI
sessions and logouts live in the database: they hold across restarts and replicas."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx

from proxy.auth.throttle import FREE_FAILURES
from proxy.http.app import create_app
from tests.proxy.ui.conftest import ADMIN_KEY, ui_settings
from tests.proxy.ui.test_routes import _csrf, login
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread

NOON = datetime(2026, 6, 1, 12, 0, 0, tzinfo=UTC)


def _metric(text: str, surface: str, status: int) -> float:
    line = f'thrifty_auth_failures_total{{status="{status}",surface="{surface}"}} '
    return next((float(row.split()[-1]) for row in text.splitlines() if row.startswith(line)), 0.0)


def test_admin_api_guessing_is_locked_out_after_a_few_failures_across_a_restart(tmp_path):
    now = [NOON]
    with serve_in_thread(ScriptedUpstream()) as up:
        settings = ui_settings(up, tmp_path, semantic=False)
        with serve_in_thread(create_app(settings, clock=lambda: now[0])) as proxy:
            wrong = [httpx.get(f"{proxy}/admin/stats", headers={"authorization": f"Bearer guess-{i}"})
                     for i in range(FREE_FAILURES)]
            locked = httpx.get(f"{proxy}/admin/stats", headers={"authorization": f"Bearer {ADMIN_KEY}"})
            metrics = httpx.get(f"{proxy}/metrics").text
        assert [r.status_code for r in wrong] == [401] * FREE_FAILURES
        assert locked.status_code == 429 and int(locked.headers["retry-after"]) >= 1  # even the right key waits
        assert locked.json()["error"]["code"] == "too_many_failed_logins"
        assert _metric(metrics, "admin_api", 401) == FREE_FAILURES and _metric(metrics, "admin_api", 429) == 1
        with serve_in_thread(create_app(settings, clock=lambda: now[0])) as restarted:
            still = httpx.get(f"{restarted}/admin/stats", headers={"authorization": f"Bearer {ADMIN_KEY}"})
            now[0] = NOON + timedelta(minutes=20)  # past the longest lockout
            allowed = httpx.get(f"{restarted}/admin/stats", headers={"authorization": f"Bearer {ADMIN_KEY}"})
    assert still.status_code == 429 and allowed.status_code == 200
    rows = wait_for_log_rows(tmp_path / "proxy.db", "endpoint, status_code, error", FREE_FAILURES + 2)
    failures = [r for r in rows if r[0] == "admin_api"]
    assert sorted(r[1] for r in failures) == [401] * FREE_FAILURES + [429, 429]
    assert all("127.0.0.1" in r[2] for r in failures)


def test_ui_login_guessing_gets_429_with_retry_after_and_the_lockout_grows(tmp_path):
    now = [NOON]
    with serve_in_thread(ScriptedUpstream()) as up:
        app = create_app(ui_settings(up, tmp_path, semantic=False), clock=lambda: now[0])
        with serve_in_thread(app) as proxy, httpx.Client(base_url=proxy) as client:
            statuses = [login(client, f"guess-{i}").status_code for i in range(FREE_FAILURES)]
            first = login(client)  # the right key, but locked out
            now[0] += timedelta(seconds=2)  # the first lockout (1 s) is over
            again = login(client, "guess-again")  # one more failure: locked for 2 s now
            now[0] += timedelta(seconds=1)
            second = login(client)
            now[0] += timedelta(seconds=2)
            finally_in = login(client)
            metrics = httpx.get(f"{proxy}/metrics").text
    assert statuses == [401] * FREE_FAILURES
    assert first.status_code == 429 and first.headers["retry-after"] == "1" and "retry after" in first.text
    assert again.status_code == 401 and second.status_code == 429 and second.headers["retry-after"] == "1"
    assert finally_in.status_code == 303 and finally_in.headers["location"] == "/ui/overview"
    assert _metric(metrics, "ui_login", 401) == FREE_FAILURES + 1 and _metric(metrics, "ui_login", 429) == 2


def test_a_logged_out_session_is_refused_by_another_replica_and_after_a_restart(tmp_path):
    with serve_in_thread(ScriptedUpstream()) as up:
        settings = ui_settings(up, tmp_path, semantic=False)
        with serve_in_thread(create_app(settings)) as first, serve_in_thread(create_app(settings)) as second:
            with httpx.Client(base_url=first) as client:
                assert login(client).status_code == 303
                token = client.cookies["thrifty_ui_session"]
                page = client.get("/ui/overview")
            with httpx.Client(base_url=second, cookies={"thrifty_ui_session": token}) as other:
                assert other.get("/ui/overview").status_code == 200  # a session holds on every replica
                assert other.post("/ui/logout", data={"csrf": _csrf(page.text)}).status_code == 303
            with httpx.Client(base_url=first, cookies={"thrifty_ui_session": token}) as kept:
                assert kept.get("/ui/overview").status_code == 303  # logged out on the other replica
        with serve_in_thread(create_app(settings)) as restarted, \
                httpx.Client(base_url=restarted, cookies={"thrifty_ui_session": token}) as kept:
            refused = kept.get("/ui/overview")
    assert refused.status_code == 303 and refused.headers["location"] == "/ui/login"
