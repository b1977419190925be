"""Engine tests that run the Triton kernels: compiled on CUDA where there is a GPU, and on CPU through
the Triton interpreter everywhere else (CI).

``TRITON_INTERPRET`` must be set before the kernels' Triton modules are imported (``@triton.jit``
picks the interpreter at decoration time). :mod:`kernels` imports them lazily, on the first op that
runs Triton, so setting it here, when pytest collects this folder, is early enough. It is set only
where there is no CUDA device: on a GPU this folder, collected first or not, leaves the variable
unset, so every Triton test of the run (here and in ``tests/kernels``) compiles real kernels.
"""

from __future__ import annotations

import pytest

from tests.kernels.helpers import fail_unless_triton_runs, interpret_triton_without_cuda

interpret_triton_without_cuda()


@pytest.fixture(autouse=True)
def _triton_must_run(request: pytest.FixtureRequest) -> None:
    """A test marked ``requires_triton`` that cannot run here fails; it never skips."""
    fail_unless_triton_runs(request)
