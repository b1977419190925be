"""``thrifty bench structured``'s command line: bad options get a one-line message and exit 2 before any model
loads (the parts themselves run on the real model in ``tests/backend/test_structured_real.py``'s engine)."""

from __future__ import annotations

import pytest

from benchmarks.engine.structured import main


@pytest.mark.parametrize(("argv", "needle"), [
    (["--parts", "speed"], "--parts: use mask, coverage and/or speculation"),
    (["--parts", "speculation", "--repeats", "0"], "--repeats must be at least 1"),
    (["--batch", "0"], "--batch must be a comma-separated list of positive integers"),
    (["--batch", "one"], "--batch must be a comma-separated list of positive integers"),
    (["--schemas", "/nonexistent/folder"], "is not a folder"),
])
def test_bad_options_are_refused_with_one_line(argv: list[str], needle: str, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1
