"""Dispatch rules: explicit argument > force_triton context > device."""

from __future__ import annotations

import threading

import pytest
import torch

import kernels
from kernels import reference
from tests.kernels.helpers import requires_triton

CPU, CUDA = torch.device("cpu"), torch.device("cuda")


def test_default_follows_device():
    assert kernels.should_use_triton(CPU) is False
    assert kernels.should_use_triton(CUDA) is kernels.triton_available()


def test_explicit_argument_wins_over_context():
    with kernels.force_triton(True):
        assert kernels.should_use_triton(CPU, use_triton=False) is False
    with kernels.force_triton(False):
        assert kernels.should_use_triton(CUDA, use_triton=True) is True


def test_force_triton_nests_and_resets():
    with kernels.force_triton():
        assert kernels.should_use_triton(CPU)
        with kernels.force_triton(False):
            assert not kernels.should_use_triton(CUDA)
        assert kernels.should_use_triton(CPU)
    assert not kernels.should_use_triton(CPU)


def test_force_triton_does_not_leak_into_other_threads():
    seen: list[bool] = []
    with kernels.force_triton(True):
        t = threading.Thread(target=lambda: seen.append(kernels.should_use_triton(CPU)))
        t.start()
        t.join()
    assert seen == [False]


def test_cpu_default_runs_reference(monkeypatch):
    calls: list[str] = []
    real = reference.silu_and_mul
    monkeypatch.setattr(reference, "silu_and_mul", lambda x: calls.append("ref") or real(x))
    kernels.silu_and_mul(torch.randn(2, 8))
    assert calls == ["ref"]


@requires_triton
def test_forced_runs_triton_launcher(monkeypatch):
    from kernels import activation

    calls: list[str] = []
    real = activation.silu_and_mul
    monkeypatch.setattr(activation, "silu_and_mul", lambda x: calls.append("triton") or real(x))
    with kernels.force_triton():
        kernels.silu_and_mul(torch.randn(2, 8))
    kernels.silu_and_mul(torch.randn(2, 8))
    assert calls == ["triton"]


@requires_triton
def test_compiled_kernel_rejects_cpu_tensors_clearly():
    from kernels._triton_utils import check_launchable

    with pytest.raises(ValueError, match="^q: Triton kernels need CUDA tensors"):
        check_launchable(object(), CPU, "q")


def test_public_api_is_complete():
    for name in kernels.__all__:
        assert callable(getattr(kernels, name)), name
