"""Where the public training data is found."""

from __future__ import annotations

from pathlib import Path

import pytest

from router.errors import RouterDataError
from router.training.public_data import resolve_data_dir


def test_default_data_dir_is_relative_to_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clone = tmp_path / "clone"  # a checkout inside this test's own folder: its ../shared is the test's alone
    clone.mkdir()
    monkeypatch.chdir(clone)
    with pytest.raises(RouterDataError, match="../shared/data"):
        resolve_data_dir(None)
    (tmp_path / "shared" / "data").mkdir(parents=True)
    assert resolve_data_dir(None).resolve() == (tmp_path / "shared" / "data").resolve()
