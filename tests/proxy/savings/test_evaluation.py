"""``thrifty eval savings``: the generated proxy configuration, bad input, and one real run
(replay upstream + ``thrifty proxy serve`` child + Batches API) on a tiny trace."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from proxy.savings.evaluation import RunSpec, main, proxy_config
from proxy.settings import load_settings
from tests.proxy.savings.conftest import GSM_ROWS


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
    spec = RunSpec("x", caches=True, router_mode="combined", direct_threshold=0.35, escalation_threshold=0.6)
    text = proxy_config(spec, port=8123, upstream="http://127.0.0.1:9",
                        prices={"mixtral-8x7b-instruct": (0.6, 0.6), "gpt-4-1106-preview": (10.0, 30.0)},
                        discount=0.5)
    (tmp_path / "c.toml").write_text(text)
    router = load_settings(tmp_path / "c.toml", {}).router
    assert (router.mode, router.direct_threshold, router.threshold_mode, router.fixed_threshold) == (
        "combined", 0.35, "fixed", 0.6)


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


def test_a_trace_of_only_bad_lines_still_ends_with_a_summary(data_dir: Path, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "bad.jsonl"
    trace.write_text("\n".join(["[1, 2]", _line(1.0, 0).replace('"key"', '"kee"'),
                                json.dumps({"t": 1, "key": "k", "body": {}, "ref": {"expected": "1"}})]))
    assert main(["--trace", str(trace), "--data-dir", str(data_dir)]) == 0
    captured = capsys.readouterr()
    assert "skipped lines: 3" in captured.out
    assert "line 1: not a JSON object" in captured.err and "line 2: missing field 'key'" in captured.err
    assert "line 3: invalid body" in captured.err


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
    total = re.search(r"sum of the stages = total saving \| - \| (-?[\d.]+) = (-?[\d.]+)", out)
    assert total and float(total.group(1)) == pytest.approx(float(total.group(2)), abs=2e-6)
