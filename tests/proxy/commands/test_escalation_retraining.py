"""Retraining cascade mode's escalation model from the proxy's own traffic, end to end over HTTP:
cascaded requests (small answers stored) → feedback and automatic checks → ``thrifty router
train-escalation --logs DATABASE_URL`` (a real SQLite request log) → an artifact that learned them."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

from proxy.cli import main as thrifty
from proxy.config.sections import CacheSettings, ModelAlias, RouterSettings
from proxy.http.app import create_app
from router.classifier import load_artifact
from router.escalation import load_escalation
from router.features import extract_features, stats_matrix
from tests.proxy.commands.test_router_retraining import _ask, _feedback
from tests.support.servers import ScriptedUpstream, serve_in_thread

# the upstream echoes the question, so each question sets the shape of its small answer
WORKED = [f"Tom has {n} apples and buys {n + 3} more. {n} + {n + 3} = <<{n}+{n + 3}={2 * n + 3}>>{2 * n + 3} "
          f"apples.\n#### {2 * n + 3}" for n in range(2, 12)]
HEDGED = [f"I think maybe it is about {n} + 3, but I'm not sure; however, perhaps it is more, assuming it rains."
          for n in range(2, 12)]


def _settings(make_settings, up, **router):
    router = RouterSettings(enabled=True, small_model="small-m", large_model="large-m", mode="cascade",
                            threshold_mode="fixed", **router)
    settings = make_settings(up, router=router, cache=CacheSettings(enabled=False))
    return replace(settings, models=(ModelAlias("small-m", "fake", "tiny-upstream"),
                                     ModelAlias("large-m", "fake", "huge-upstream")))


def _score(artifact, text: str) -> float:
    return artifact.model.score({"messages": [{"role": "user", "content": text}]}, "echo: " + text)


def test_train_escalation_from_the_proxys_own_small_answers(make_settings, tmp_path, capsys, embedder):
    shipped = load_escalation()
    # the traffic contradicts the shipped model: worked answers turn out wrong, hedged ones right
    assert _score(shipped, WORKED[0]) < _score(shipped, HEDGED[0])
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as up:
        # phase 1: every small answer is kept (fixed threshold 1.0) and its feedback judges it
        with serve_in_thread(create_app(_settings(make_settings, up, fixed_threshold=1.0,
                                                  store_requests=True))) as proxy:
            for text in WORKED[:8]:
                response = _ask(proxy, text)
                assert response.headers["x-thrifty-cascade"] == "accepted"
                _feedback(proxy, response, 0.0)
            for text in HEDGED[:8]:
                _feedback(proxy, _ask(proxy, text), 1.0)
            _ask(proxy, HEDGED[8])  # no feedback: not a training row
        # phase 2: every small answer is escalated; JSON was asked and the small answer is prose, so
        # the automatic check on the dropped small answer judges it; a user's score judges the large one
        with serve_in_thread(create_app(_settings(make_settings, up, fixed_threshold=0.0,
                                                  store_requests=True))) as proxy:
            checked = _ask(proxy, WORKED[8], response_format={"type": "json_object"})
            assert checked.headers["x-thrifty-cascade"] == "escalated"
            _feedback(proxy, _ask(proxy, WORKED[9]), 1.0)  # judges the large answer: skipped
        # phase 3: the privacy switch off (the default): nothing stored
        with serve_in_thread(create_app(_settings(make_settings, up, fixed_threshold=1.0))) as proxy:
            _feedback(proxy, _ask(proxy, HEDGED[9]), 1.0)

    database = tmp_path / "proxy.db"
    with sqlite3.connect(database) as db:
        stored = dict(db.execute("SELECT request_id, small_answer FROM router_request").fetchall())
        sources = [row[0] for row in db.execute("SELECT source FROM feedback ORDER BY id")]
    assert len(stored) == 19 and all(answer.startswith("echo: ") for answer in stored.values())
    assert stored[checked.headers["x-request-id"]] == "echo: " + WORKED[8]
    assert sources.count("small_json_check") == 1

    artifact_path = tmp_path / "escalation.json"
    url = f"sqlite+aiosqlite:///{database}"
    capsys.readouterr()
    assert thrifty(["router", "train-escalation", "--logs", url, "--logs-only", "--since", "1d",
                    "--out", str(artifact_path)]) == 0
    said = capsys.readouterr().err
    assert "18 cascaded requests with a stored small answer and feedback: 17 judged, 1 escalated" in said
    assert "proxy logs, 17 judged small answers, 9 judged bad" in said
    retrained = load_escalation(artifact_path)
    assert all(_score(retrained, w) > _score(retrained, h) for w, h in zip(WORKED, HEDGED, strict=True))

    # the direct route from the same log: every stored cascaded request, feedback or not; of no use are the
    # 8 worked answers judged bad and the 2 escalated ones
    direct = tmp_path / "direct.joblib"
    assert thrifty(["router", "train-escalation", "--logs", url, "--logs-only", "--out", str(tmp_path / "e.json"),
                    "--direct-out", str(direct)]) == 0
    said = capsys.readouterr().err
    assert "fitting the direct route on 19 cascaded requests, 10 of whose small calls were of no use" in said
    assert f"wrote {direct} (out-of-fold AUROC" in said
    router = load_artifact(direct)
    assert router.training["rows"] == 19 and router.training["useless"] == 10

    def route(text: str) -> float:
        features = extract_features({"messages": [{"role": "user", "content": text}]})
        return router.predict_one(embedder.embed([features.text])[0], stats_matrix([features.stats])[0])

    assert min(route(w) for w in WORKED[:8]) > max(route(h) for h in HEDGED[:8])

    # with the public GSM8K rows as well (the default), the logged rows are added to them
    assert thrifty(["router", "train-escalation", "--logs", url, "--data-dir", str(tmp_path / "no-data"),
                    "--out", str(tmp_path / "both.json")]) == 2
    assert "error" in capsys.readouterr().err


def test_train_escalation_reports_a_bad_log_plainly(tmp_path, capsys):
    empty = tmp_path / "empty.db"
    sqlite3.connect(empty).close()
    assert thrifty(["router", "train-escalation", "--logs", f"sqlite+aiosqlite:///{empty}", "--logs-only",
                    "--out", str(tmp_path / "x.json")]) == 2
    said = capsys.readouterr().err
    assert "cannot read the request log" in said and "thrifty db upgrade" in said
    assert thrifty(["router", "train-escalation", "--logs-only", "--out", str(tmp_path / "x.json")]) == 2
    assert "--logs-only and --direct-out need --logs" in capsys.readouterr().err
    assert thrifty(["router", "train-escalation", "--direct-out", str(tmp_path / "d.joblib")]) == 2
    assert "--logs-only and --direct-out need --logs" in capsys.readouterr().err
    # the shipped model is never the silent target of a retrain on a log
    assert thrifty(["router", "train-escalation", "--logs", f"sqlite+aiosqlite:///{empty}", "--logs-only"]) == 2
    assert "--logs needs --out FILE" in capsys.readouterr().err
    # paths checked before any work; a bad URL or a missing file is a plain error, not a traceback
    for bad in (tmp_path, tmp_path / "no-such-folder" / "d.joblib"):
        assert thrifty(["router", "train-escalation", "--logs", f"sqlite+aiosqlite:///{empty}",
                        "--direct-out", str(bad)]) == 2
        assert "not a file in an existing folder" in capsys.readouterr().err
    assert thrifty(["router", "train-escalation", "--logs", "notaurl", "--direct-out", str(tmp_path / "d.joblib")]) == 2
    assert "cannot use database URL 'notaurl'" in capsys.readouterr().err
    assert thrifty(["router", "train-escalation", "--logs", f"sqlite+aiosqlite:///{tmp_path / 'none.db'}",
                    "--direct-out", str(tmp_path / "d.joblib")]) == 2
    assert "no database file at" in capsys.readouterr().err and not (tmp_path / "none.db").exists()


def test_direct_route_needs_no_feedback(make_settings, tmp_path, capsys):
    """A log of cascaded requests without any feedback: the escalation model cannot be retrained, the direct
    route still can (the cascade's own decisions label it) and is written alone."""
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as up:
        with serve_in_thread(create_app(_settings(make_settings, up, fixed_threshold=0.0,
                                                  store_requests=True))) as proxy:
            for text in WORKED[:5]:
                assert _ask(proxy, text).headers["x-thrifty-cascade"] == "escalated"
        with serve_in_thread(create_app(_settings(make_settings, up, fixed_threshold=1.0,
                                                  store_requests=True))) as proxy:
            for text in HEDGED[:5]:
                assert _ask(proxy, text).headers["x-thrifty-cascade"] == "accepted"
    url = f"sqlite+aiosqlite:///{tmp_path / 'proxy.db'}"
    direct, escalation = tmp_path / "direct.joblib", tmp_path / "escalation.json"
    capsys.readouterr()
    assert thrifty(["router", "train-escalation", "--logs", url, "--logs-only", "--out", str(escalation),
                    "--direct-out", str(direct)]) == 0
    said = capsys.readouterr().err
    assert "no judged small answers in the log: the escalation model is not retrained" in said
    assert "fitting the direct route on 10 cascaded requests, 5 of whose small calls were of no use" in said
    assert "warning: 10 cascaded requests are few for a router" in said
    assert direct.is_file() and not escalation.exists()
    assert load_artifact(direct).training["useless"] == 5
    # the direct route alone: no --out, no escalation model
    alone = tmp_path / "alone.joblib"
    assert thrifty(["router", "train-escalation", "--logs", url, "--direct-out", str(alone)]) == 0
    said = capsys.readouterr().err
    assert alone.is_file() and "no --out: the escalation model is not retrained" in said
    assert "reading judged small answers" not in said
    assert thrifty(["router", "train-escalation", "--logs", url, "--out", str(alone), "--direct-out", str(alone)]) == 2
    assert "--out and --direct-out name the same file" in capsys.readouterr().err


def test_direct_route_from_a_log_without_cascaded_requests_says_so(make_settings, tmp_path, capsys):
    script = ScriptedUpstream(echo=True)
    with serve_in_thread(script) as up:
        settings = make_settings(up, router=RouterSettings(enabled=True, small_model="small-m", large_model="large-m",
                                                           store_requests=True), cache=CacheSettings(enabled=False))
        settings = replace(settings, models=(ModelAlias("small-m", "fake", "tiny-upstream"),
                                             ModelAlias("large-m", "fake", "huge-upstream")))
        with serve_in_thread(create_app(settings)) as proxy:  # prompt mode: nothing is cascaded
            _ask(proxy, WORKED[0])
    assert thrifty(["router", "train-escalation", "--logs", f"sqlite+aiosqlite:///{tmp_path / 'proxy.db'}",
                    "--direct-out", str(tmp_path / "d.joblib")]) == 2
    assert "the log holds no cascaded request with its small answer" in capsys.readouterr().err
