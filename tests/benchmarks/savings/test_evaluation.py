"""``thrifty eval savings``: the generated proxy configuration, bad input, and one real run
(replay upstream + ``thrifty proxy serve`` child + Batches API) on a tiny trace."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import httpx
import pytest

from benchmarks.harness import serve_in_thread
from benchmarks.savings import evaluation, runs
from benchmarks.savings.accounting import Report, account
from benchmarks.savings.evaluation import main
from benchmarks.savings.replay import ReplayBook, make_app
from benchmarks.savings.report_text import format_report
from benchmarks.savings.runs import RunSpec, proxy_config, replay_trace, run_batch
from benchmarks.savings.trace import ParsedTrace, TraceLine
from proxy.config.settings import load_settings
from proxy.pricing import ModelPrice
from tests.benchmarks.savings.conftest import GSM_ROWS, STRONG, WEAK


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
    outcomes = {o.line.line_no: o for o in run_batch("http://batch.test", lines, "p", timeout_s=5.0,
                                                     transport=_batch_api(fail_key="sk-bad"))}
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


def test_the_report_of_a_real_run_matches_what_the_upstream_served(data_dir: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """The summary's cost, cost reduction, quality, strong share and verdict come from a real run (replay
    upstream, ``thrifty proxy serve`` child, request log): they equal what the test computes from the calls
    the upstream actually answered."""
    from benchmarks.savings import replay
    from benchmarks.savings.runs import STRONG_MODEL, WEAK_MODEL

    served: list[tuple[str, str, dict]] = []  # (model, question, usage) of each chat call the upstream answered
    real_handle = replay.handle

    def recording(book, method, path, raw):
        status, payload, kind = real_handle(book, method, path, raw)
        if method == "POST" and status == 200:
            body = json.loads(raw)
            served.append((body["model"], body["messages"][-1]["content"], json.loads(payload)["usage"]))
        return status, payload, kind

    monkeypatch.setattr(replay, "handle", recording)
    trace = tmp_path / "t.jsonl"
    trace.write_text("\n".join(_line(0.1 * n, n) for n in range(len(GSM_ROWS))) + "\n")
    code = main(["--trace", str(trace), "--data-dir", str(data_dir), "--runs", "caches-off", "--concurrency", "1",
                 "--weak-price", "1", "1", "--strong-price", "10", "30"])
    out = capsys.readouterr().out
    assert code == 0, out
    prices = {WEAK_MODEL: (1.0, 1.0), STRONG_MODEL: (10.0, 30.0)}
    rows = {row[0]: row for row in GSM_ROWS}
    assert sorted(question for _, question, _ in served) == sorted(rows)  # one call per line, no cache
    cost = sum((u["prompt_tokens"] * prices[m][0] + u["completion_tokens"] * prices[m][1]) / 1e6 for m, _, u in served)
    right = sum(rows[q][2 if m == STRONG_MODEL else 1] == "True" for m, q, _ in served)
    strong = sum(m == STRONG_MODEL for m, _, _ in served)
    baseline = len(GSM_ROWS) * (9 * 10 + 4 * 30) / 1e6  # all strong: 9 prompt tokens, 4 answer tokens per line

    def cell(name: str) -> str:
        return re.search(rf"^\| {re.escape(name)} \| [^|]+ \| ([^|]+) \|$", out, re.MULTILINE).group(1)

    assert re.search(rf"^\| cost USD \| {baseline:.6f} \|", out, re.MULTILINE)
    assert float(cell("cost USD")) == pytest.approx(cost, abs=1e-6)
    reduction = 100 * (1 - cost / baseline)
    assert float(cell("cost reduction").removesuffix(" %")) == pytest.approx(reduction, abs=0.06)
    assert cell("quality (right answers)").startswith(f"{right}/{len(GSM_ROWS)} ")
    assert cell("strong model's share of routed calls").startswith(f"{strong}/{len(GSM_ROWS)} ")
    assert cell("errors / rows missing from the log") == "0 / 0"
    loss = 100 * (len(GSM_ROWS) - right) / len(GSM_ROWS)
    met = "MET" if reduction >= 60 and loss <= 1 else "NOT met"
    assert f"thrifty, caches off (routing alone): target >= 60 % cost reduction at <= 1 point quality loss: {met} " \
           f"({cell('cost reduction')}, {loss:+.1f} points)" in out


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


# --- audit fixes ---------------------------------------------------------------------------------------------------


def test_a_batch_job_that_fails_as_a_whole_prints_its_errors(capsys: pytest.CaptureFixture[str]) -> None:
    def handle(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/v1/files":
            return httpx.Response(200, json={"id": "in-1"})
        if request.url.path == "/v1/batches":
            return httpx.Response(200, json={"id": "batch-1"})
        return httpx.Response(200, json={"status": "failed", "errors": {"object": "list", "data": [
            {"code": "invalid_body", "message": "stream is not supported in a batch", "param": "body.stream",
             "line": 2}]}})

    lines = [_trace_line(1, 0, batch=True), _trace_line(2, 1, batch=True)]
    outcomes = run_batch("http://batch.test", lines, "p", timeout_s=5.0, transport=httpx.MockTransport(handle))
    out = capsys.readouterr().out
    assert "batch batch-1 (2 lines) failed: 1 error(s): line 2: stream is not supported in a batch" in out
    assert all(o.status == 599 and "line 2: stream is not supported" in o.error for o in outcomes)


def test_a_line_answered_with_an_error_in_a_batch_keeps_its_status_and_message() -> None:
    output = {"custom_id": "1", "response": {"status_code": 200, "request_id": "r1", "body": {
        "choices": [{"message": {"content": "ok \u2028 still ok"}}]}}, "error": None}
    refused = {"custom_id": "2", "response": {"status_code": 400, "request_id": "r2", "body": {
        "error": {"message": "'n' must be between 1 and 128"}}}, "error": None}
    expired = {"custom_id": "3", "response": None, "error": {"code": "batch_expired", "message": "expired"}}

    def handle(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/v1/files":
            return httpx.Response(200, json={"id": "in-1"})
        if path == "/v1/batches":
            return httpx.Response(200, json={"id": "batch-1"})
        if path.startswith("/v1/batches/"):
            return httpx.Response(200, json={"status": "completed", "output_file_id": "out", "error_file_id": "err"})
        items = [output, refused] if "/out/" in path else [expired]
        return httpx.Response(200, text="".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items))

    lines = [_trace_line(n, n - 1, batch=True) for n in (1, 2, 3)]
    outcomes = {o.line.line_no: o for o in run_batch("http://batch.test", lines, "p", timeout_s=5.0,
                                                     transport=httpx.MockTransport(handle))}
    assert (outcomes[1].status, outcomes[1].answer) == (200, "ok \u2028 still ok")  # one line despite U+2028
    assert (outcomes[2].status, outcomes[2].request_id, outcomes[2].error) == (400, "r2", "'n' must be between 1 and 128")
    assert (outcomes[3].status, outcomes[3].request_id, outcomes[3].error) == (599, "p-missing-3", "expired")


def test_the_report_counts_failed_requests_and_quotes_their_first_messages() -> None:
    report = Report(requests=3, baseline_usd=1.0, cost_usd=1.0, baseline_right=3, right=1,
                    failed_by_status={400: 1, 599: 1}, failed_lost=2,
                    failure_samples=["line 2: status 400: 'max_tokens' must be ...", "line 3: status 599: boom"])
    text = format_report(ParsedTrace(), [(RunSpec("run", True), report, 1.0)])
    assert "| failed requests (HTTP error); right answers they lost | - | 2; 2 |" in text
    assert "[run] 2 failed requests (400 x1, 599 x1), 2 of them right under all strong" in text
    assert "  line 2: status 400: 'max_tokens' must be ..." in text


def test_cosmetics_of_the_report() -> None:
    # the stages' sum and the total differ by float rounding only, across a rounding boundary of the 6th decimal:
    # one value, printed twice (never "0.012473 = 0.012474")
    low, high = 0.0124734, 0.0124736  # two neighbouring floats that round apart, by bisection
    while math.nextafter(low, 1) < high:
        middle = (low + high) / 2
        low, high = (middle, high) if f"{middle:.6f}" == f"{low:.6f}" else (low, middle)
    assert f"{low:.6f} = {high:.6f}" == "0.012473 = 0.012474"  # what the row used to print
    report = Report(requests=1, baseline_usd=high, cost_usd=0.0)
    report.saved_by["routing"] = low
    text = format_report(ParsedTrace(), [(RunSpec("run", True), report, 1.0)])
    first, second = re.search(r"\| sum of the stages = total saving \| - \| (\S+) = (\S+) \|", text).groups()
    assert first == second
    assert "| latency p50 / p95 ms (interactive, client) | - | - |" in text  # every line a batch line
    report.saved_by["other"] = 0.001  # a real mismatch shows both
    text = format_report(ParsedTrace(), [(RunSpec("run", True), report, 1.0)])
    assert re.search(r"\| sum of the stages = total saving \| - \| 0\.01347\d != 0\.01247\d \|", text)
    empty = format_report(ParsedTrace(problems=["line 1: not JSON (x)"]), [])
    assert empty.splitlines()[1] == "  skipped line 1: not JSON (x)"  # no blank composition line


def test_a_trace_that_is_not_utf8_is_a_plain_error(data_dir: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "latin.jsonl"
    trace.write_bytes(b'\xff\xfe{"t":0}\n')  # a UTF-16 byte-order mark
    assert main(["--trace", str(trace), "--data-dir", str(data_dir)]) == 2
    assert "is not UTF-8 text (byte 0xff at offset 0)" in capsys.readouterr().err


@pytest.mark.parametrize("option", ["--details", "--write-trace"])
def test_an_unwritable_output_path_is_refused_before_any_run(data_dir: Path, tmp_path: Path, option: str,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    def no_run(*args, **kwargs):
        raise AssertionError("a run started")

    monkeypatch.setattr(evaluation, "run_once", no_run)
    trace = tmp_path / "t.jsonl"
    trace.write_text(_line(0.0, 0) + "\n")
    for path, why in ((tmp_path / "nowhere" / "d.jsonl", "does not exist"), (tmp_path, "is a folder")):
        target = path if option == "--write-trace" or why != "is a folder" else tmp_path / "d"
        if why == "is a folder" and option == "--details":
            (tmp_path / "d-thrifty--every-stage").mkdir()
        assert main(["--trace", str(trace), "--data-dir", str(data_dir), option, str(target)]) == 2
        err = capsys.readouterr().err
        assert f"thrifty eval savings: {option}: " in err and why in err and "Traceback" not in err


def test_a_failure_to_write_the_details_keeps_the_run(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "gone" / "d.jsonl"
    evaluation._write_details(path, [{"line": 1}], "run")  # the folder vanished during the run: no exception
    assert "[run] cannot write the per-request details to" in capsys.readouterr().err


def test_write_trace_round_trips_raw_line_separators_and_runs_none_exits_0(
        data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    odd = {"t": 0.25, "key": "sk-u", "body": {"model": "thrifty-auto", "messages": [
        {"role": "user", "content": "one\u2028two\u2029three\u0085four\x1cfive \u00e9"}]}, "ref": {"expected": "one"},
           "kind": "odd"}
    trace = tmp_path / "t.jsonl"
    trace.write_text("\ufeff" + _line(0.0, 0) + "\r\n" + json.dumps(odd, ensure_ascii=False) + "\n", encoding="utf-8")
    written = tmp_path / "again.jsonl"
    assert main(["--trace", str(trace), "--data-dir", str(data_dir), "--runs", "none",
                 "--write-trace", str(written)]) == 0
    captured = capsys.readouterr()
    assert "2 requests" in captured.out and "no run asked (--runs none)" in captured.out and not captured.err
    assert "\u2028" in written.read_text(encoding="utf-8")  # written raw (ensure_ascii=False) ...
    again = tmp_path / "third.jsonl"
    assert main(["--trace", str(written), "--data-dir", str(data_dir), "--runs", "none",
                 "--write-trace", str(again)]) == 0  # ... and read back as the same two lines
    assert again.read_text(encoding="utf-8") == written.read_text(encoding="utf-8")
    assert len(written.read_text(encoding="utf-8").split("\n")) == 3 and "skipped lines: 0" in capsys.readouterr().out


@pytest.mark.parametrize(("options", "fragment"), [
    (["--target-large-share", "5"], "--target-large-share must lie in [0, 1]"),
    (["--target-large-share", "nan"], "--target-large-share must lie in [0, 1]"),
    (["--weak-price", "-1", "-1"], "--weak-price takes two finite numbers >= 0"),
    (["--strong-price", "10", "inf"], "--strong-price takes two finite numbers >= 0"),
    (["--batch-discount", "2"], "--batch-discount must lie in [0, 1)"),
    (["--batch-discount", "1"], "--batch-discount must lie in [0, 1)"),
    (["--concurrency", "0"], "--concurrency must be at least 1"),
    (["--time-scale", "-1"], "--time-scale must be a finite number >= 0"),
    (["--batch-timeout", "0"], "--batch-timeout must be a finite number of seconds > 0"),
])
def test_bad_option_values_are_refused_up_front(tmp_path: Path, options: list[str], fragment: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    (data / "router").mkdir(parents=True)
    assert main(["--data-dir", str(data), *options]) == 2
    assert f"thrifty eval savings: {fragment}" in capsys.readouterr().err


def test_a_child_proxy_that_does_not_start_has_its_log_quoted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import contextlib

    @contextlib.contextmanager
    def failing_child(command, port, what, timeout_s, env, stdout):
        stdout.write("thrifty: configuration error: [batch] discount must be in [0, 1)\n")
        stdout.flush()
        raise RuntimeError(f"{what} exited with status 2 during start-up")
        yield  # pragma: no cover

    monkeypatch.setattr(runs, "child_server", failing_child)
    with pytest.raises(RuntimeError) as info, runs.running_proxy(RunSpec("x", False), tmp_path,
                                                                         "http://127.0.0.1:9", {}, 0.5):
        pass
    assert "exited with status 2 during start-up; the end of its log:" in str(info.value)
    assert "[batch] discount must be in [0, 1)" in str(info.value)


def _ordered_app(events: list[tuple[str, str]], hold: dict[str, str] | None = None):
    """An upstream that records, in order, when each request (by x-request-id) starts and ends. A request
    named in ``hold`` is answered only once the request it names has started; if that never happens
    within 30 s it is answered anyway and ``("gave up", request_id)`` is recorded."""
    import asyncio
    from collections import defaultdict

    from benchmarks.harness import read_body, serve_lifespan

    started: defaultdict[str, asyncio.Event] = defaultdict(asyncio.Event)
    hold = hold or {}

    async def app(scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            await serve_lifespan(receive, send)
            return
        await read_body(receive)
        request_id = dict(scope["headers"]).get(b"x-request-id", b"").decode()
        events.append(("start", request_id))
        started[request_id].set()
        if request_id in hold:
            try:
                await asyncio.wait_for(started[hold[request_id]].wait(), 30)
            except TimeoutError:
                events.append(("gave up", request_id))
        events.append(("end", request_id))
        body = json.dumps({"choices": [{"message": {"role": "assistant", "content": "ok"}}]}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": body})

    return app


def test_an_identical_request_waits_for_the_one_in_flight() -> None:
    # three identical requests (same key and body) and one other, all due at once: the identical ones go one
    # after the other, in trace order, so which misses the exact cache never depends on thread timing. The
    # first is answered only once the other has started: the other is not held back behind it
    events: list[tuple[str, str]] = []
    lines = [_trace_line(n, 0) for n in (1, 2, 3)] + [_trace_line(4, 0, key="sk-other")]
    with serve_in_thread(_ordered_app(events, hold={"p-1": "p-4"})) as base:
        outcomes = replay_trace(base, lines, "p", concurrency=4, time_scale=1.0, batch_timeout_s=1.0)
    assert [o.status for o in outcomes] == [200] * 4
    assert ("gave up", "p-1") not in events, events  # p-4 started while p-1 was in flight
    at = {event: position for position, event in enumerate(events)}
    assert at[("end", "p-1")] < at[("start", "p-2")] and at[("end", "p-2")] < at[("start", "p-3")], events
    assert at[("start", "p-4")] < at[("end", "p-1")]


@pytest.mark.timeout(120)  # a replay that waited for its lines would run an hour: the timeout fails it
def test_ctrl_c_stops_the_replay_at_once(book: ReplayBook) -> None:
    import signal
    import threading

    lines = [_trace_line(n, n - 1, t=3600.0) for n in (1, 2, 3)]  # due in an hour
    timer = threading.Timer(0.5, signal.pthread_kill, (threading.main_thread().ident, signal.SIGINT))
    # Python's own Ctrl-C handler: a server run earlier in the same process (uvicorn) may have left its own
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with serve_in_thread(make_app(book)) as upstream:
            timer.start()
            with pytest.raises(runs.Interrupted) as info:
                replay_trace(upstream, lines, "p", concurrency=2, time_scale=1.0, batch_timeout_s=1.0)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert info.value.where == "0 of 3 requests had been answered"


def test_ctrl_c_prints_the_summary_of_the_completed_runs_and_exits_130(
        data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def fake_run(spec: RunSpec, *args, **kwargs) -> tuple[Report, float]:
        if not spec.caches:
            raise runs.Interrupted("2 of 5 requests had been answered")
        return Report(requests=1, baseline_usd=1.0, cost_usd=0.25, baseline_right=1, right=1), 2.0

    monkeypatch.setattr(evaluation, "run_once", fake_run)
    trace = tmp_path / "t.jsonl"
    trace.write_text(_line(0.0, 0) + "\n")
    assert main(["--trace", str(trace), "--data-dir", str(data_dir), "--curve", "0.5"]) == 130
    captured = capsys.readouterr()
    assert "| cost reduction | 0 % | 75.0 % |" in captured.out  # the completed run
    assert ("interrupted (Ctrl-C) during the run [thrifty, caches off (routing alone)]: 2 of 5 requests had been "
            "answered; 1 of 3 runs had completed") in captured.err


def test_an_identical_request_also_waits_for_the_settle_of_the_answer_it_repeats() -> None:
    import time

    events: list[tuple[str, str]] = []

    def settle(outcome) -> None:  # e.g. the proxy's cache write-back, which runs after the response
        time.sleep(0.2)  # a replay that did not wait for the settle would send p-2 meanwhile
        events.append(("settled", outcome.request_id))

    lines = [_trace_line(1, 0), _trace_line(2, 0), _trace_line(3, 1)]
    with serve_in_thread(_ordered_app(events)) as base:
        replay_trace(base, lines, "p", concurrency=3, time_scale=1.0, batch_timeout_s=1.0, settle=settle)
    assert [request_id for kind, request_id in events if kind == "settled"] == ["p-1"]  # only an awaited answer
    at = {event: position for position, event in enumerate(events)}
    assert at[("end", "p-1")] < at[("settled", "p-1")] < at[("start", "p-2")], events


def test_exact_cache_settle_waits_for_the_write_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import contextlib
    import sqlite3
    import threading

    from benchmarks.savings.accounting import Outcome

    database = tmp_path / "thrifty.db"
    with contextlib.closing(sqlite3.connect(database)) as conn:
        conn.execute("CREATE TABLE thrifty_exact_cache (key TEXT, response BLOB)")
        conn.commit()
    writing = threading.Event()

    def write_back() -> None:
        writing.set()  # before the row exists: a settle that returned early finds this unset
        with contextlib.closing(sqlite3.connect(database)) as conn:
            conn.execute("INSERT INTO thrifty_exact_cache VALUES ('k', ?)", (b'{"id": "chatcmpl-1", "choices": []}',))
            conn.commit()

    line = _trace_line(1, 0)
    settle = runs.exact_cache_settle(database, timeout_s=60.0)
    threading.Timer(0.3, write_back).start()
    settle(Outcome(line, "r1", 200, "ok", cache="miss", response_id="chatcmpl-1"))
    assert writing.is_set() and runs._in_exact_cache(database, "chatcmpl-1")
    looked: list[str] = []
    real_lookup = runs._in_exact_cache
    monkeypatch.setattr(runs, "_in_exact_cache", lambda db, rid: looked.append(rid) or real_lookup(db, rid))
    settle(Outcome(line, "r2", 200, "ok", cache="exact", response_id="chatcmpl-2"))  # a hit: nothing to wait for
    assert looked == []
    runs.exact_cache_settle(database, timeout_s=0.2)(Outcome(line, "r3", 200, "ok", cache="miss",
                                                                    response_id="chatcmpl-3"))  # never stored
    assert set(looked) == {"chatcmpl-3"}  # polled until its timeout, then returned
    runs.exact_cache_settle(tmp_path / "none.db", timeout_s=0.1)(Outcome(line, "r4", 200, "ok", cache="miss",
                                                                               response_id="x"))  # no database yet
    assert not (tmp_path / "none.db").exists()
