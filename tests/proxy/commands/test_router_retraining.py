"""Retraining the router from the proxy's own logs, end to end over HTTP:
routed requests (bodies stored) → feedback (explicit and automatic) → ``thrifty router export-logs``
→ ``thrifty router train --logs`` → the new artifact serves ``thrifty-auto``."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx

from proxy.cli import main as thrifty
from proxy.config.sections import ModelAlias, RouterSettings
from proxy.http.app import create_app
from router.training.cli import main as train
from tests.support.servers import ScriptedUpstream, serve_in_thread

HARD = [f"Prove that the sum of the first {n} odd cubes equals n^2(2n^2 - 1) and derive the closed form of "
        f"sum_k k^{n % 4 + 2} by induction." for n in range(3, 15)]
EASY = [f"Say hello to my friend number {n}, please." for n in range(3, 15)]
KEY = {"authorization": "Bearer sk-tenant-a"}


def _settings(make_settings, up, tmp_path, **router):
    router = RouterSettings(enabled=True, small_model="small-m", large_model="large-m", **router)
    settings = make_settings(up, router=router)
    return replace(settings, models=(ModelAlias("small-m", "fake", "tiny-upstream"),
                                     ModelAlias("large-m", "fake", "huge-upstream")))


def _ask(proxy: str, text: str, **extra) -> httpx.Response:
    response = httpx.post(f"{proxy}/v1/chat/completions", timeout=60, headers=KEY,
                          json={"model": "thrifty-auto", "messages": [{"role": "user", "content": text}], **extra})
    assert response.status_code == 200, response.text
    return response


def _feedback(proxy: str, response: httpx.Response, score: float) -> None:
    reply = httpx.post(f"{proxy}/v1/feedback", headers=KEY, timeout=30,
                       json={"request_id": response.headers["x-request-id"], "score": score})
    assert reply.status_code == 200


def test_export_train_and_route_from_the_proxys_own_logs(make_settings, embedder, tmp_path):
    script = ScriptedUpstream(content="not json at all")
    with serve_in_thread(script) as up:
        # phase 1: everything to the small tier (heuristic, threshold 1.0), bodies stored
        small_only = _settings(make_settings, up, tmp_path, kind="heuristic", threshold_mode="fixed",
                               fixed_threshold=1.0, store_requests=True)
        with serve_in_thread(create_app(small_only)) as proxy:
            for text in EASY[:10]:
                _feedback(proxy, _ask(proxy, text), 1.0)
            for text in HARD[:6]:
                _feedback(proxy, _ask(proxy, text), 0.0)
            for text in HARD[6:10]:  # JSON asked, the upstream answers prose: the automatic check says 0
                _ask(proxy, text, response_format={"type": "json_object"})
            overruled = _ask(proxy, EASY[10], response_format={"type": "json_object"})
            _feedback(proxy, overruled, 1.0)  # a person's score outranks the automatic check
            _ask(proxy, EASY[11])  # no feedback: not exported
            explicit = httpx.post(f"{proxy}/v1/chat/completions", headers=KEY, timeout=60, json={
                "model": "small-m", "messages": [{"role": "user", "content": HARD[10]}]})
            _feedback(proxy, explicit, 0.0)  # not routed: not exported
        # phase 2: everything to the large tier; the trainer skips these rows
        large_only = _settings(make_settings, up, tmp_path, kind="heuristic", threshold_mode="fixed",
                               fixed_threshold=0.0, store_requests=True)
        with serve_in_thread(create_app(large_only)) as proxy:
            for text in HARD[10:12]:
                assert _ask(proxy, text).headers["x-thrifty-route"] == "large"
                _feedback(proxy, _ask(proxy, text + " Show every step."), 1.0)
        # phase 3: bodies not stored when the privacy switch is off (the default)
        not_stored = _settings(make_settings, up, tmp_path, kind="heuristic", threshold_mode="fixed",
                               fixed_threshold=1.0)
        with serve_in_thread(create_app(not_stored)) as proxy:
            _feedback(proxy, _ask(proxy, EASY[0] + " again"), 1.0)

    exported = tmp_path / "feedback.jsonl"
    db_url = f"sqlite+aiosqlite:///{tmp_path / 'proxy.db'}"
    assert thrifty(["router", "export-logs", "--database-url", db_url, "--since", "1d",
                    "--out", str(exported)]) == 0
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    tiers = [x["served_tier"] for x in lines]
    assert (tiers.count("small"), tiers.count("large")) == (21, 2)
    by_text = {x["request"]["messages"][0]["content"]: x for x in lines}
    assert by_text[EASY[0]]["score"] == 1.0 and by_text[HARD[0]]["score"] == 0.0
    assert by_text[HARD[7]]["feedback"] == "json_check" and by_text[HARD[7]]["score"] == 0.0
    assert by_text[HARD[7]]["request"]["response_format"] == {"type": "json_object"}
    assert by_text[EASY[10]]["feedback"] == "user" and by_text[EASY[10]]["score"] == 1.0
    assert EASY[11] not in by_text and EASY[0] + " again" not in by_text
    assert not any(x["request"]["messages"][0]["content"] == HARD[10] for x in lines if x["served_tier"] == "small")
    assert all("model" not in x["request"] for x in lines)

    artifact = tmp_path / "retrained.joblib"
    said: list[str] = []
    assert train(["--sources", "", "--logs", str(exported), "--out", str(artifact), "--quiet"],
                 embedder=embedder, out=said.append) == 0
    assert any("21 small-tier rows used, 2 large-tier rows skipped" in line for line in said)

    with serve_in_thread(ScriptedUpstream()) as up:
        learned = _settings(make_settings, up, tmp_path, kind="learned", artifact_path=str(artifact),
                            threshold_mode="fixed", fixed_threshold=0.5)
        with serve_in_thread(create_app(learned, embedder=embedder)) as proxy:
            hard = _ask(proxy, "Prove that the sum of the first 20 odd cubes equals n^2(2n^2 - 1) by induction.")
            easy = _ask(proxy, "Say hello to my neighbour, please.")
    for response in (hard, easy):
        assert not response.headers["x-thrifty-route-reason"].startswith("error")
        assert response.headers["x-thrifty-route"] in ("small", "large")
    assert float(hard.headers["x-thrifty-route-score"]) > float(easy.headers["x-thrifty-route-score"])
    assert hard.headers["x-thrifty-route"] == "large" and easy.headers["x-thrifty-route"] == "small"
