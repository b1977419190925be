"""The test conftests switch the Triton interpreter on only where there is no GPU, so that a GPU run
compiles real kernels whichever test folder pytest collects first."""

from __future__ import annotations

import os

import pytest
import torch

from tests.kernels.helpers import interpret_triton_without_cuda


def test_the_interpreter_is_left_off_on_a_gpu_and_switched_on_without_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    interpret_triton_without_cuda()
    assert "TRITON_INTERPRET" not in os.environ
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    interpret_triton_without_cuda()
    assert os.environ["TRITON_INTERPRET"] == "1"

