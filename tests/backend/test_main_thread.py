"""run_on_short_lived_thread: the result or the exception comes back; the work ran on another thread."""

from __future__ import annotations

import threading

import pytest

from backend.main_thread import run_on_short_lived_thread


def test_the_result_comes_back_from_another_thread() -> None:
    caller = threading.get_ident()
    assert run_on_short_lived_thread(lambda: threading.get_ident()) != caller
    assert run_on_short_lived_thread(lambda: [1, 2]) == [1, 2]
    assert run_on_short_lived_thread(lambda: None) is None


def test_the_exception_is_raised_on_the_caller() -> None:
    def fail() -> None:
        raise ValueError("no such model")

    with pytest.raises(ValueError, match="no such model"):
        run_on_short_lived_thread(fail)
    assert not [t for t in threading.enumerate() if t.name.startswith("thrifty-load")]  # the thread has ended
