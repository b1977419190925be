"""The bound ``thrifty eval shaping --part bound`` reports: the prompt tokens a perfect prefix cache
could serve, per token and per whole block."""

from __future__ import annotations

from benchmarks.shaping.evaluation import prefix_bounds, trace_runs


def test_prefix_bounds_count_the_longest_earlier_prefix_per_token_and_per_block() -> None:
    prompts = [[1, 2, 3, 4, 5, 6], [1, 2, 3, 4, 9, 9, 9], [1, 2, 7], [1, 2, 3, 4, 5, 6]]
    # second: 4 shared with the first; third: 2; fourth: 5 (its last token is always computed)
    assert prefix_bounds(prompts, block_size=1) == (11, 11)
    assert prefix_bounds(prompts, block_size=4) == (11, 8)
    assert prefix_bounds([[5, 6, 7]], block_size=2) == (0, 0)


def test_the_trace_runs_compare_off_safe_and_replica_choice() -> None:
    labels = [r.label for r in trace_runs(2)]
    assert labels[:3] == ["off", "safe", "safe, note in system prompt"]
    assert [r.replica_choice for r in trace_runs(2)[3:]] == ["random", "prefix"]
    assert [r.note_position for r in trace_runs(1)] == ["auto", "auto", "system"]


def _log_row(request_id: str, key: str, cluster: str | None, cap: str | None, finish: str, tokens: int) -> dict:
    return {"id": request_id, "created_at": "2026-12-02 10:00:00.000000", "key_id": key, "endpoint": "chat",
            "model_requested": "m", "stream": False, "status_code": 200, "latency_ms": 1.0, "prompt_cluster": cluster, "cap": cap,
            "finish_reason": finish, "completion_tokens": tokens, "max_tokens": 64}


def test_caps_report_lists_cut_answers_per_key_and_cluster(tmp_path, capsys) -> None:
    import sqlite3

    from benchmarks.shaping.evaluation import main
    from proxy.storage.db import RequestLog
    from proxy.storage.migrate import upgrade

    database = tmp_path / "log.db"
    upgrade(f"sqlite+aiosqlite:///{database}")
    rows = [_log_row("a1", "key-a", "c1", "default", "length", 64), _log_row("a2", "key-a", "c1", "default", "length", 64),
            _log_row("a3", "key-a", "c1", "default", "stop", 10), _log_row("b1", "key-b", "c2", "learned", "stop", 5),
            _log_row("b2", "key-b", None, None, "length", 64)]
    with sqlite3.connect(database) as conn:
        for row in rows:
            columns = [c for c in row if c in RequestLog.__table__.columns]
            conn.execute(f"INSERT INTO request_log ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
                         [row[c] for c in columns])
    config = tmp_path / "t.toml"
    config.write_text(f'[database]\nurl = "sqlite+aiosqlite:///{database}"\n')
    assert main(["--part", "caps", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "| default | 3 | 2 | 66.7% |" in out
    lines = [line for line in out.splitlines() if line.startswith("| key-")]
    assert lines[0] == "| key-a | c1 | default | 3 | 2 | 66.7% |"  # most cut first
    assert "| key-b | - | none | 1 | 1 | 100.0% |" in lines and "| key-b | c2 | learned | 1 | 0 | 0.0% |" in lines
    assert main(["--part", "caps", "--config", str(config), "--top", "0"]) == 2
    assert "--top must be at least 1" in capsys.readouterr().err
