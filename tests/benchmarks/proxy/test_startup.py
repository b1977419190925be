"""`thrifty bench startup`: one real start of `thrifty proxy serve` with the semantic cache on, timed."""

from __future__ import annotations

import pytest

from benchmarks.proxy.startup import main, start_once


def test_one_start_is_timed_until_health_and_its_cpu_counted(tmp_path) -> None:
    ready_s, cpu_s = start_once("auto", tmp_path)
    assert ready_s > 0 and cpu_s > 0  # both measured
    assert (tmp_path / "thrifty.db").is_file()  # the proxy ran in the data directory it was given


def test_runs_below_one_are_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--runs", "0"])
    assert "--runs must be at least 1" in capsys.readouterr().err
