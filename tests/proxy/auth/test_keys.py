"""[auth] mode = "keys": issued keys, model lists, RPM/TPM, budgets reserved before and settled
after, revocation seen at once by every replica, counters shared through Redis."""

from __future__ import annotations

import asyncio
import io
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import httpx
import openai
import pytest
from openai import OpenAI

from proxy.auth.cli import main as keys_main
from proxy.config.sections import AdminConfig, AuthSettings, DatabaseConfig
from proxy.http.app import create_app
from proxy.identity import key_id_from_authorization
from proxy.pricing import ModelPrice
from tests.support.request_log import wait_for_log_rows
from tests.support.servers import ScriptedUpstream, serve_in_thread

ADMIN = {"authorization": "Bearer admin-secret"}
CHAT = {"model": "gpt-test", "messages": [{"role": "user", "content": "hello there"}], "max_tokens": 10}


@pytest.fixture
def upstream():
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as url:
        script.url = url
        yield script


def _settings(make_settings, upstream_url: str, **auth):
    settings = make_settings(upstream_url)
    return replace(settings, auth=AuthSettings(mode="keys", **auth), admin=AdminConfig(api_key="admin-secret"),
                   prices=(ModelPrice("gpt-test", input_per_mtok=1000.0, output_per_mtok=2000.0),))


def _create(proxy: str, **spec) -> str:
    response = httpx.post(f"{proxy}/admin/keys", headers=ADMIN, json=spec)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["key"].startswith("sk-thrifty-") and body["prefix"] == body["key"][:15]
    return body["key"]


def test_only_issued_live_keys_pass_and_revocation_is_seen_by_every_replica(make_settings, upstream, tmp_path):
    settings = _settings(make_settings, upstream.url)
    with serve_in_thread(create_app(settings)) as first, serve_in_thread(create_app(settings)) as second:
        token = _create(first, name="alice", models=["gpt-test"])
        good = OpenAI(base_url=second + "/v1", api_key=token, max_retries=0)
        assert good.chat.completions.create(**CHAT).choices[0].message.content == "echo: hello there"
        with pytest.raises(openai.AuthenticationError):
            OpenAI(base_url=first + "/v1", api_key="sk-made-up", max_retries=0).chat.completions.create(**CHAT)
        missing = httpx.post(f"{first}/v1/chat/completions", json=CHAT)
        assert missing.status_code == 401 and missing.json()["error"]["code"] == "missing_api_key"
        listed = httpx.get(f"{second}/admin/keys", headers=ADMIN).json()["data"]
        assert [k["name"] for k in listed] == ["alice"] and "key" not in listed[0]
        assert token not in httpx.get(f"{second}/admin/keys", headers=ADMIN).text  # only the hash is kept
        revoked = httpx.post(f"{first}/admin/keys/{listed[0]['id']}/revoke", headers=ADMIN)
        assert revoked.status_code == 200 and revoked.json()["revoked_at"]
        with pytest.raises(openai.AuthenticationError):
            good.chat.completions.create(**CHAT)  # on the other replica, at once
        # the Files API needs a live key too
        with pytest.raises(openai.AuthenticationError):
            good.files.create(file=("a.jsonl", io.BytesIO(b"{}\n")), purpose="batch")
    rows = wait_for_log_rows(tmp_path / "proxy.db", "key_id, status_code", 1)
    assert rows[0] == (listed[0]["id"], 200)  # the log names the key by its id


def test_a_key_may_use_only_its_models(make_settings, upstream):
    with serve_in_thread(create_app(_settings(make_settings, upstream.url))) as proxy:
        token = _create(proxy, models=["some-other-model"])
        with pytest.raises(openai.PermissionDeniedError, match="may not use model 'gpt-test'"):
            OpenAI(base_url=proxy + "/v1", api_key=token, max_retries=0).chat.completions.create(**CHAT)
        bad = httpx.post(f"{proxy}/admin/keys", headers=ADMIN, json={"budget": "5/week"})
        assert bad.status_code == 400 and "5/day" in bad.json()["error"]["message"]


def test_rpm_and_tpm_limits_answer_429_with_retry_after(make_settings, upstream):
    noon = datetime(2026, 6, 1, 12, 0, 30, tzinfo=UTC)  # a fixed clock: no minute boundary mid-test
    with serve_in_thread(create_app(_settings(make_settings, upstream.url), clock=lambda: noon)) as proxy:
        rpm_key, tpm_key = _create(proxy, rpm=2), _create(proxy, tpm=120)
        codes = [httpx.post(f"{proxy}/v1/chat/completions", json=CHAT,
                            headers={"authorization": f"Bearer {rpm_key}"}) for _ in range(3)]
        assert [r.status_code for r in codes] == [200, 200, 429]
        assert codes[2].json()["error"]["code"] == "rate_limit_exceeded"
        assert int(codes[2].headers["retry-after"]) == 30  # to the next minute of the clock
        # tpm 120: each request reserves its prompt estimate + 10, and settles to the real 6 tokens
        answered = 0
        for _ in range(40):
            reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, headers={"authorization": f"Bearer {tpm_key}"})
            if reply.status_code != 200:
                assert reply.status_code == 429 and reply.json()["error"]["type"] == "tokens"
                break
            answered += 1
        assert 10 <= answered < 40  # settling gave back what the worst case over-reserved
        too_big = httpx.post(f"{proxy}/v1/chat/completions", json={**CHAT, "max_tokens": 500},
                             headers={"authorization": f"Bearer {tpm_key}"})
        assert too_big.status_code == 400 and too_big.json()["error"]["code"] == "tokens_over_limit"


def test_budget_is_reserved_before_and_settled_after(make_settings, upstream, tmp_path):
    with serve_in_thread(create_app(_settings(make_settings, upstream.url))) as proxy:
        token = _create(proxy, budget="0.1/day")
        statuses = []
        for _ in range(20):
            reply = httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, headers={"authorization": f"Bearer {token}"})
            statuses.append(reply.status_code)
            if reply.status_code != 200:
                assert reply.status_code == 429
                assert reply.json()["error"]["type"] == "insufficient_quota"
                assert reply.json()["error"]["code"] == "insufficient_quota"
                break
    answered = statuses.count(200)
    # each answer costs 0.007 (5 prompt + 1 completion tokens); the worst case reserved is larger
    assert 2 <= answered <= 14 and statuses[-1] == 429
    rows = wait_for_log_rows(tmp_path / "proxy.db", "cost_usd", answered + 1)
    assert sum(r[0] or 0 for r in rows) <= 0.1


def test_two_replicas_sharing_redis_never_overspend(make_settings, pg_database):
    script = ScriptedUpstream(echo=True, delay_s=0.05)
    namespace = f"thrifty-test-{uuid.uuid4().hex[:8]}"
    with serve_in_thread(script) as up:
        settings = _settings(make_settings, up, redis_url="redis://127.0.0.1:6379/0", redis_namespace=namespace)
        settings = replace(settings, database=DatabaseConfig(url=pg_database))
        with serve_in_thread(create_app(settings)) as first, serve_in_thread(create_app(settings)) as second:
            token = _create(first, budget="0.1/day")

            async def burst() -> list[int]:
                async with httpx.AsyncClient(timeout=30, headers={"authorization": f"Bearer {token}"}) as client:
                    replies = await asyncio.gather(*(client.post(f"{(first, second)[i % 2]}/v1/chat/completions",
                                                                 json=CHAT) for i in range(30)))
                return [r.status_code for r in replies]

            statuses = asyncio.run(burst()) + asyncio.run(burst())
    answered = statuses.count(200)
    assert set(statuses) <= {200, 429} and answered >= 2
    assert answered * 0.007 <= 0.1 + 1e-9  # never more spent than the budget, across both replicas
    import redis

    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    keys = list(client.scan_iter(f"{namespace}:*"))
    assert keys, "the counters live in Redis"
    client.delete(*keys)


def test_keys_cli_create_list_revoke(tmp_path, capsys):
    url = f"sqlite+aiosqlite:///{tmp_path / 'keys.db'}"
    assert keys_main(["--database-url", url, "create", "--name", "ci", "--models", "a", "b", "--budget-usd",
                      "5/month", "--rpm", "7"]) == 0
    out = capsys.readouterr()
    token = out.out.strip()
    assert token.startswith("sk-thrifty-") and "cannot be shown again" in out.err
    assert keys_main(["--database-url", url, "list"]) == 0
    listed = capsys.readouterr().out
    assert "ci" in listed and "budget $5/month" in listed and "7 rpm" in listed and token not in listed
    assert keys_main(["--database-url", url, "revoke", token[:15]]) == 0
    assert "REVOKED" in capsys.readouterr().out
    assert keys_main(["--database-url", url, "create", "--budget-usd", "lots"]) == 1
    assert "5/day" in capsys.readouterr().err


def test_out_of_range_limits_and_budgets_are_refused_with_a_clear_error(make_settings, upstream, tmp_path, capsys):
    url = f"sqlite+aiosqlite:///{tmp_path / 'keys.db'}"
    assert keys_main(["--database-url", url, "create", "--rpm", str(2**31)]) == 1
    assert "rpm must be between 1 and 2147483647" in capsys.readouterr().err
    with serve_in_thread(create_app(_settings(make_settings, upstream.url))) as proxy:
        for spec in ({"rpm": 2**63}, {"tpm": 0}, {"budget": "1e400/day"}, {"budget": "nan/month"}):
            response = httpx.post(f"{proxy}/admin/keys", headers=ADMIN, json=spec)
            assert response.status_code == 400, (spec, response.text)
            assert response.json()["error"]["type"] == "invalid_request_error"
        assert httpx.get(f"{proxy}/admin/keys", headers=ADMIN).json()["data"] == []  # nothing half-made
        _create(proxy, rpm=2**31 - 1, budget="5/day")  # the largest limit is still accepted


def _batch_settings(make_settings, upstream_url: str):
    from proxy.config.sections import BatchSettings

    return replace(_settings(make_settings, upstream_url), batch=BatchSettings(poll_interval_s=0.05))


def _submit_batch(client: OpenAI, count: int) -> str:
    import json

    lines = b"".join(json.dumps({"custom_id": f"line-{i}", "method": "POST", "url": "/v1/chat/completions",
                                 "body": {**CHAT, "messages": [{"role": "user", "content": f"question {i}"}]}}
                                ).encode() + b"\n" for i in range(count))
    uploaded = client.files.create(file=("in.jsonl", io.BytesIO(lines)), purpose="batch")
    return client.batches.create(input_file_id=uploaded.id, endpoint="/v1/chat/completions",
                                 completion_window="24h").id


def _wait_batch(client: OpenAI, batch_id: str, done=lambda b: b.status in ("completed", "failed"), timeout=30.0):
    import time

    deadline = time.monotonic() + timeout
    while True:
        batch = client.batches.retrieve(batch_id)
        if done(batch) or time.monotonic() > deadline:
            return batch
        time.sleep(0.05)


def test_batch_lines_spend_the_budget_of_the_key_that_created_the_batch(make_settings, upstream, tmp_path):
    import json

    with serve_in_thread(create_app(_batch_settings(make_settings, upstream.url))) as proxy:
        token = _create(proxy, budget="0.05/day")
        client = OpenAI(base_url=proxy + "/v1", api_key=token, max_retries=0)
        done = _wait_batch(client, _submit_batch(client, 20))
        assert done.status == "completed", done
        counts = done.request_counts
        assert counts.total == 20 and counts.completed >= 1 and counts.failed >= 1  # the budget ran out mid-batch
        errors = [json.loads(x) for x in client.files.content(done.error_file_id).text.splitlines()]
        assert len(errors) == counts.failed
        assert {e["response"]["body"]["error"]["code"] for e in errors} == {"insufficient_quota"}
        assert {e["response"]["status_code"] for e in errors} == {429}
    rows = wait_for_log_rows(tmp_path / "proxy.db", "cost_usd, status_code", 20)
    assert sum(r[0] or 0 for r in rows) <= 0.05  # batch lines never spend past the key's budget
    assert sum(1 for r in rows if r[1] == 429) == counts.failed  # refused lines are in the log too


def test_rate_limited_batch_lines_wait_for_the_next_minute_instead_of_failing(make_settings, upstream):
    clock = [datetime(2026, 6, 1, 12, 0, 30, tzinfo=UTC)]
    app = create_app(_batch_settings(make_settings, upstream.url), clock=lambda: clock[0])
    with serve_in_thread(app) as proxy:
        token = _create(proxy, rpm=2)
        client = OpenAI(base_url=proxy + "/v1", api_key=token, max_retries=0)
        batch_id = _submit_batch(client, 5)
        first = _wait_batch(client, batch_id, done=lambda b: b.request_counts.completed >= 2)
        assert (first.request_counts.completed, first.request_counts.failed) == (2, 0)
        import time

        time.sleep(0.5)  # many worker ticks at the frozen clock: the other lines wait, none fails
        waiting = client.batches.retrieve(batch_id)
        assert waiting.status == "in_progress" and waiting.request_counts.failed == 0
        assert waiting.request_counts.completed == 2
        counts = [2]
        while counts[-1] < 5 and len(counts) < 12:  # each new minute admits at most two more lines
            clock[0] = clock[0] + timedelta(minutes=1)
            # a minute may admit fewer than two (a line's retry, jittered, can fall after it): then the next
            # minute takes it, so a short wait per minute suffices (30 s here once cost the suite 30 s)
            reached = _wait_batch(client, batch_id, timeout=5.0,
                                  done=lambda b, n=counts[-1] + 2: b.request_counts.completed >= min(n, 5))
            assert reached.request_counts.failed == 0
            counts.append(reached.request_counts.completed)
        assert all(b - a <= 2 for a, b in zip(counts, counts[1:], strict=False)), counts  # the key's RPM held
        done = _wait_batch(client, batch_id)
        assert done.status == "completed" and (done.request_counts.completed, done.request_counts.failed) == (5, 0)


def test_keys_cli_revokes_by_full_key_or_listed_prefix_and_never_echoes_a_secret(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'keys.db'}"  # a plain URL is given its async driver
    tokens = []
    for name in ("one", "two"):
        assert keys_main(["--database-url", url, "create", "--name", name]) == 0
        tokens.append(capsys.readouterr().out.strip())
    assert keys_main(["--database-url", url, "revoke", tokens[0]]) == 0
    out = capsys.readouterr().out
    assert "REVOKED" in out and "one" in out and tokens[0] not in out
    assert keys_main(["--database-url", url, "list"]) == 0
    listed = next(line for line in capsys.readouterr().out.splitlines() if "two" in line)
    shown = listed.split()[1]
    assert shown.endswith("...") and shown == tokens[1][:15] + "..."
    assert keys_main(["--database-url", url, "revoke", shown]) == 0
    assert "REVOKED" in capsys.readouterr().out
    unknown = "sk-thrifty-" + "Z" * 43
    assert keys_main(["--database-url", url, "revoke", unknown]) == 1
    err = capsys.readouterr().err
    assert "no key" in err and unknown not in err and "Z" * 10 not in err


def test_keys_cli_refuses_unusable_database_urls_plainly(tmp_path, capsys):
    for url, message in ((str(tmp_path / "k.db"), "not a URL"),
                         (f"sqlite:///{tmp_path / 'no-such' / 'k.db'}", "no folder"),
                         ("postgresql+asyncpg://root:s3cretpw@127.0.0.1:1/x", "cannot open the database")):
        assert keys_main(["--database-url", url, "list"]) == 2
        err = capsys.readouterr().err
        assert message in err and "s3cretpw" not in err and "Traceback" not in err
    assert not (tmp_path / "no-such").exists()


def test_without_redis_a_restart_refuses_what_it_refused_before(make_settings, upstream, tmp_path):
    """Spend and RPM windows live in the database: a new proxy on the same database (a restart, or
    another replica) keeps refusing a key at its budget and a key at its RPM limit."""
    noon = datetime(2026, 6, 1, 12, 0, 30, tzinfo=UTC)
    settings = _settings(make_settings, upstream.url)

    def ask(proxy: str, token: str) -> httpx.Response:
        return httpx.post(f"{proxy}/v1/chat/completions", json=CHAT, headers={"authorization": f"Bearer {token}"})

    with serve_in_thread(create_app(settings, clock=lambda: noon)) as proxy:
        spender, rpm_key = _create(proxy, budget="0.05/day"), _create(proxy, rpm=2)
        statuses = [ask(proxy, spender).status_code for _ in range(15)]
        assert 200 in statuses and statuses[-1] == 429  # the budget ran out
        assert [ask(proxy, rpm_key).status_code for _ in range(3)] == [200, 200, 429]
    with serve_in_thread(create_app(settings, clock=lambda: noon)) as restarted:
        refused = ask(restarted, spender)
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "insufficient_quota"
        limited = ask(restarted, rpm_key)
        assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limit_exceeded"
    later = datetime(2026, 6, 1, 12, 1, 30, tzinfo=UTC)  # the next minute: a new RPM window, the same day's budget
    with serve_in_thread(create_app(settings, clock=lambda: later)) as restarted:
        assert ask(restarted, rpm_key).status_code == 200
        assert ask(restarted, spender).status_code == 429
    rows = wait_for_log_rows(tmp_path / "proxy.db", "key_id, cost_usd, status_code", statuses.count(200))
    spent = [(cost or 0) for key_id, cost, status in rows
             if key_id == key_id_from_authorization(f"Bearer {spender}") and status == 200]
    assert len(spent) == statuses.count(200)  # every answer of the spender is in the log
    assert sum(spent) <= 0.05 + 1e-9  # never more spent than the budget, restarts included


def test_database_counters_on_postgresql_settle_and_expire(pg_database):
    """The same counters on PostgreSQL (rows locked FOR UPDATE): a settle gives back what the worst
    case over-reserved, and a past minute's window rows are deleted."""
    from sqlalchemy import select

    from proxy.auth.limits import DatabaseCounters, KeyLimits, Refusal
    from proxy.storage.db import UsageCounter, create_engine
    from proxy.storage.migrate import upgrade

    async def run() -> tuple[list, list[str]]:
        engine = create_engine(pg_database)
        counters = DatabaseCounters(engine)
        noon = datetime(2026, 6, 1, 12, 0, 30, tzinfo=UTC)
        limits = KeyLimits(tpm=100, budget_usd=1.0, budget_period="day")
        first = await counters.reserve("k", limits, 80, 0.5, noon)
        refused = await counters.reserve("k", limits, 80, 0.1, noon)  # 160 tokens > 100
        await counters.settle(first, 10, 0.2)  # it used only 10 tokens and $0.2
        second = await counters.reserve("k", limits, 80, 0.5, noon)
        over_budget = await counters.reserve("k", limits, 10, 0.5, noon)  # 0.2 + 0.5 + 0.5 > 1.0
        much_later = datetime(2026, 6, 1, 12, 10, 0, tzinfo=UTC)
        await counters.reserve("k", limits, 1, 0.0, much_later)
        async with engine.connect() as conn:
            names = sorted((await conn.execute(select(UsageCounter.name))).scalars())
        await engine.dispose()
        return [first, refused, second, over_budget], names

    upgrade(pg_database)
    (first, refused, second, over_budget), names = asyncio.run(run())
    assert not isinstance(first, Refusal) and refused == Refusal("tpm", 30)
    assert not isinstance(second, Refusal) and over_budget == Refusal("budget", 0)
    minute = int(datetime(2026, 6, 1, 12, 10, 0, tzinfo=UTC).timestamp() // 60)
    assert names == ["budget:k:2026-06-01", f"tpm:k:{minute}"]  # the 12:00 window is gone
