"""``thrifty bench replicas`` on the real PostgreSQL: one and two real proxy replicas before the stub, every
answered request logged once in the shared database."""

from __future__ import annotations

from benchmarks.proxy.replicas import main


def test_one_and_two_replicas_answer_and_log_every_request(capsys) -> None:
    assert main(["--duration", "1", "--runs", "1", "--concurrency", "4"]) == 0
    out = capsys.readouterr().out
    table = out[out.rindex("| run | replicas"):]  # the final table (rows are also printed as they finish)
    rows = [line.split("|")[1:-1] for line in table.splitlines() if line.startswith("| 1 |")]
    assert sorted(int(r[1]) for r in rows) == [1, 2]
    for _, _, rps, p50, p99, errors, missing in rows:
        assert float(rps) > 0 and 0 < float(p50) <= float(p99)
        assert int(errors) == 0 and int(missing) == 0
    assert "two replicas / one:" in out
