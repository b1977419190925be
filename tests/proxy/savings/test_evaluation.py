"""``thrifty eval savings``: the generated proxy configuration, bad input, and one real run
(replay upstream + ``thrifty proxy serve`` child + Batches API) on a tiny trace."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest

from proxy.localserver import serve_in_thread
from proxy.pricing import ModelPrice
from proxy.savings import evaluation
from proxy.savings.accounting import Report, account
from proxy.savings.evaluation import RunSpec, main, proxy_config, replay_trace, run_batch
from proxy.savings.replay import ReplayBook, make_app
from proxy.savings.trace import TraceLine
from proxy.settings import load_settings
from tests.proxy.savings.conftest import GSM_ROWS, STRONG, WEAK


def _line(t: float, n: int, **extra) -> str:
    body = {"model": "thrifty-auto", "messages": [{"role": "user", "content": GSM_ROWS[n][0]}], "temperature": 0}
    return json.dumps({"t": t, "key": "sk-test", "body": body, "ref": {"source": "gsm8k", "id": str(n)}, **extra})


def test_generated_config_is_a_valid_thrifty_config(tmp_path: Path) -> None:
    text = proxy_config(RunSpec("x", caches=False, target_large_share=0.4), port=8123,
                        upstream="http://127.0.0.1:9", prices={"mixtral-8x7b-instruct": (0.6, 0.6),
                                                               "gpt-4-1106-preview": (10.0, 30.0)}, discount=0.5)
    (tmp_path / "c.toml").write_text(text)
    settings = load_settings(tmp_path / "c.toml", {})
    assert settings.router.small_model == "mixtral-8x7b-instruct"
    assert settings.router.large_model == "gpt-4-1106-preview"
    assert settings.router.target_large_share == 0.4
    assert not settings.cache.enabled and not settings.bundled.enabled
    assert {m.name for m in settings.models} == {"mixtral-8x7b-instruct", "gpt-4-1106-preview"}


def test_combined_mode_config_carries_both_thresholds(tmp_path: Path) -> None:
    spec = RunSpec("x", caches=True, router_mode="combined", direct_threshold=0.35, escalation_threshold=0.6,
                   escalation_path=str(tmp_path / "e.json"), router_path=str(tmp_path / "d.joblib"))
    text = proxy_config(spec, port=8123, upstream="http://127.0.0.1:9",
                        prices={"mixtral-8x7b-instruct": (0.6, 0.6), "gpt-4-1106-preview": (10.0, 30.0)},
                        discount=0.5)
    (tmp_path / "c.toml").write_text(text)
    router = load_settings(tmp_path / "c.toml", {}).router
    assert (router.mode, router.direct_threshold, router.threshold_mode, router.fixed_threshold) == (
        "combined", 0.35, "fixed", 0.6)
    # the learned artifacts: the escalation model and the direct route's prompt router
    assert (router.escalation_path, router.artifact_path) == (str(tmp_path / "e.json"), str(tmp_path / "d.joblib"))


def test_bad_thresholds_and_curve_points_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    (data / "router").mkdir(parents=True)
    assert main(["--data-dir", str(data), "--router-mode", "combined", "--direct-threshold", "1.5"]) == 2
    assert "must lie in [0, 1]" in capsys.readouterr().err
    assert main(["--data-dir", str(data), "--curve", "0.2:0.5"]) == 2  # pairs only in combined mode
    assert main(["--data-dir", str(data), "--router-mode", "combined", "--curve", "0.2:x"]) == 2
    assert "--curve takes numbers" in capsys.readouterr().err


def test_missing_data_dir_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(tmp_path / "nowhere")]) == 2
    assert "no public data at" in capsys.readouterr().err


def test_too_little_data_for_the_default_trace_is_a_clear_error(data_dir: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--data-dir", str(data_dir)]) == 2  # the fixture has 3 MMLU rows, the default trace wants 130
    assert "cannot build the default trace" in capsys.readouterr().err


def test_a_trace_of_only_bad_lines_ends_with_a_summary_and_an_error(data_dir: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "bad.jsonl"
    trace.write_text("\n".join(["[1, 2]", _line(1.0, 0).replace('"key"', '"kee"'),
                                json.dumps({"t": 1, "key": "k", "body": {}, "ref": {"expected": "1"}}),
                                _line(1.0, 0).replace('"t": 1.0', '"t": Infinity'),
                                _line(1.0, 0).replace("sk-test", "sk-t\u00e9st"),
                                _line(1.0, 0).replace('"id": "0"', '"id": "1"'),
                                _line(1.0, 0).replace('{"source": "gsm8k", "id": "0"}', '{"expected": ""}')]))
    assert main(["--trace", str(trace), "--data-dir", str(data_dir)]) == 2  # nothing to replay is an error
    captured = capsys.readouterr()
    assert "skipped lines: 7" in captured.out and "nothing to replay" in captured.err
    assert "line 1: not a JSON object" in captured.err and "line 2: missing field 'key'" in captured.err
    assert "line 3: invalid body" in captured.err
    assert "line 4: 't' must be a finite number" in captured.err and "line 5: 'key' must be printable" in captured.err
    assert "line 6: the body does not ask the referenced question" in captured.err
    assert "line 7: 'ref.expected' must not be empty" in captured.err


def _trace_line(n: int, row: int, *, t: float = 0.0, key: str = "sk-test", batch: bool = False) -> TraceLine:
    body = {"model": WEAK, "messages": [{"role": "user", "content": GSM_ROWS[row][0]}]}
    return TraceLine(n, t, key, body, {"source": "gsm8k", "id": str(row)}, batch)


def test_any_exception_while_sending_one_request_is_a_failed_outcome(book: ReplayBook) -> None:
    # lines that bypass the parser: delays time.sleep cannot take, a header httpx cannot encode
    lines = [_trace_line(1, 0), _trace_line(2, 1, t=float("inf")), _trace_line(3, 2, t=1e300),
             _trace_line(4, 3, key="sk-cl\u00e9")]
    with serve_in_thread(make_app(book)) as upstream:  # the replay upstream answers WEAK directly
        outcomes = replay_trace(upstream, lines, "p", concurrency=2, time_scale=1.0, batch_timeout_s=1.0)
    assert [o.line.line_no for o in outcomes] == [1, 2, 3, 4]
    assert (outcomes[0].status, outcomes[0].answer) == (200, GSM_ROWS[0][3])
    assert all(o.status == 599 and o.answer is None and o.error.startswith("client: ") for o in outcomes[1:])
    assert "OverflowError" in outcomes[1].error and "OverflowError" in outcomes[2].error and "UnicodeEncodeError" in outcomes[3].error
    report = account(book, outcomes, {}, {STRONG: ModelPrice(STRONG, 10.0, 30.0)})
    assert (report.requests, report.errors) == (4, 3)


def _batch_api(fail_key: str) -> httpx.MockTransport:
    """A fake Files/Batches API: every job completes and answers each line, except that creating
    the job of ``fail_key`` answers 500."""
    files: dict[str, str] = {}

    def handle(request: httpx.Request) -> httpx.Response:
        key = request.headers["authorization"].removeprefix("Bearer ")
        path = request.url.path
        if path == "/v1/files":
            body = request.read().decode()
            files[f"in-{key}"] = body[body.index("{"):body.rindex("}") + 1]
            return httpx.Response(200, json={"id": f"in-{key}"})
        if path == "/v1/batches":
            if key == fail_key:
                return httpx.Response(500, json={"error": {"message": "boom"}})
            return httpx.Response(200, json={"id": f"batch-{key}"})
        if path.startswith("/v1/batches/"):
            return httpx.Response(200, json={"status": "completed", "output_file_id": f"in-{key}"})
        requests = [json.loads(raw) for raw in files[path.split("/")[3]].splitlines()]
        out = [{"custom_id": r["custom_id"], "response": {"status_code": 200, "request_id": f"r{r['custom_id']}",
                                                          "body": {"choices": [{"message": {"content": "ok"}}]}}}
               for r in requests]
        return httpx.Response(200, text="".join(json.dumps(o) + "\n" for o in out))

    return httpx.MockTransport(handle)


def test_one_failed_batch_job_marks_only_its_own_lines_missing() -> None:
    lines = [_trace_line(1, 0, key="sk-good", batch=True), _trace_line(2, 1, key="sk-bad", batch=True),
             _trace_line(3, 2, key="sk-good", batch=True), _trace_line(4, 3, key="sk-bad", batch=True)]
    with httpx.Client(transport=_batch_api(fail_key="sk-bad"), base_url="http://batch.test") as client:
        outcomes = {o.line.line_no: o for o in run_batch(client, lines, "p", timeout_s=5.0)}
    assert sorted(outcomes) == [1, 2, 3, 4]
    assert [(outcomes[n].status, outcomes[n].answer, outcomes[n].request_id) for n in (1, 3)] == [
        (200, "ok", "r1"), (200, "ok", "r3")]
    assert all(outcomes[n].status == 599 and outcomes[n].answer is None for n in (2, 4))
    assert outcomes[2].request_id == "p-missing-2" and "500" in outcomes[2].error


def test_an_unexpected_failure_of_one_run_still_prints_the_summary(
        data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def fake_run(spec: RunSpec, *args, **kwargs) -> tuple[Report, float]:
        if not spec.caches:
            raise KeyError("unexpected")
        return Report(requests=1, baseline_usd=1.0, cost_usd=0.25, baseline_right=1, right=1), 2.0

    monkeypatch.setattr(evaluation, "run_once", fake_run)
    trace = tmp_path / "t.jsonl"
    trace.write_text(_line(0.0, 0) + "\n")
    assert main(["--trace", str(trace), "--data-dir", str(data_dir), "--curve", "0.5"]) == 0
    captured = capsys.readouterr()
    assert "[thrifty, caches off (routing alone)] failed: KeyError: 'unexpected'" in captured.err
    assert "| cost reduction | 0 % | 75.0 % |" in captured.out  # the completed run's column only
    assert "| 0.5 | 0/0 | 75.0 % | +0.0 |" in captured.out
    assert "thrifty, every stage: target >= 60 % cost reduction at <= 1 point quality loss: MET" in captured.out


def test_real_proxy_run_on_a_tiny_trace(data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "t.jsonl"
    trace.write_text("\n".join([
        _line(0.0, 0), _line(0.1, 1), _line(0.2, 2), _line(0.3, 3, batch=True),
        _line(0.4, 4).replace('"temperature": 0', '"temperature": 0, "stream": true'),  # streamed
        _line(1.5, 0),  # the first question again: an exact-cache hit
        json.dumps({"t": 2.0, "key": "sk-test", "body": {"model": "thrifty-auto", "messages": [{"role": "user"}]},
                    "ref": {"source": "gsm8k", "id": "77"}}),  # unknown reference
    ]) + "\n")
    code = main(["--trace", str(trace), "--data-dir", str(data_dir), "--runs", "all-stages", "--concurrency", "1",
                 "--weak-price", "1", "1", "--strong-price", "10", "30", "--batch-discount", "0.5"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "6 requests" in out and "skipped lines: 1" in out and "1 batch lines" in out
    # all strong by hand: 9 prompt tokens x 10 + 4 output tokens x 30 = 210e-6 USD per request, six requests
    assert "| cost USD | 0.001260 |" in out
    assert "errors / rows missing from the log | - | 0 / 0 |" in out

    def saved(label: str) -> float:
        return float(re.search(rf"saved by {label} \(.*?\| - \| (-?[\d.]+)", out).group(1))

    assert saved("exact cache") == pytest.approx(0.000210, abs=1e-6)  # the repeat cost nothing
    batch = saved("batch discount")
    assert batch in (pytest.approx(5.5e-6, abs=1e-6), pytest.approx(105e-6, abs=1e-6))  # half of weak or strong
    assert "1 discounted (counted under their stage above)" in out  # the batch line
    total = re.search(r"sum of the stages = total saving \| - \| (-?[\d.]+) = (-?[\d.]+)", out)
    assert total and float(total.group(1)) == pytest.approx(float(total.group(2)), abs=2e-6)


def test_the_all_strong_baseline_can_be_replayed_for_its_latency(data_dir: Path, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "t.jsonl"
    trace.write_text("\n".join([_line(0.0, 0), _line(0.1, 2), _line(0.2, 3, batch=True)]) + "\n")
    code = main(["--trace", str(trace), "--data-dir", str(data_dir), "--runs", "none", "--baseline-latency",
                 "--weak-price", "1", "1", "--strong-price", "10", "30"])
    out = capsys.readouterr().out
    assert code == 0, out
    # replayed straight to the strong model (the batch line too, interactively): the computed baseline's cost
    # and quality, with a measured latency
    assert "| cost USD | 0.000630 | 0.000630 |" in out
    assert "| cost reduction | 0 % | 0.0 % |" in out
    assert re.search(r"\| quality \(right answers\) \| (\d+)/3 \(.*?\) \| \1/3 ", out)
    latency = re.search(r"\| latency p50 / p95 ms \(interactive, client\) \| - \| (\d+) / (\d+) \|", out)
    assert latency and int(latency.group(1)) >= 0
    assert "all strong, replayed: target" not in out  # no verdict for the baseline itself


def test_an_empty_trace_is_an_error(data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "empty.jsonl"
    trace.write_text("\n  \n")
    assert main(["--trace", str(trace), "--data-dir", str(data_dir)]) == 2
    assert "nothing to replay: the trace has no usable line (0 skipped" in capsys.readouterr().err
