"""`thrifty bench proxy`: its options refuse what cannot run (the runs themselves are benchmarks, not tests)."""

from __future__ import annotations

import pytest

from benchmarks.proxy.bench import main


def test_litellm_peer_needs_the_stub_mode(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--litellm", "litellm"])
    assert exit_info.value.code == 2 and "--litellm needs --stub" in capsys.readouterr().err


def test_litellm_peer_must_be_a_command(capsys, tmp_path):
    with pytest.raises(SystemExit) as exit_info:
        main(["--stub", "--litellm", str(tmp_path / "no-such-litellm")])
    assert exit_info.value.code == 2 and "no such command" in capsys.readouterr().err
