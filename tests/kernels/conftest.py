"""Kernel tests run the Triton kernels compiled on CUDA where there is a GPU, and on CPU through the
Triton interpreter everywhere else (CI).

``TRITON_INTERPRET`` must be set before any Triton kernel module is imported (the ``@triton.jit``
decorator picks the interpreter at decoration time). The kernels package imports its Triton modules
lazily, so setting it here, at collection time, is early enough; it is left unset on a CUDA machine so
that the kernels compile. Other test packages never import Triton, so the variable does not affect them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import torch

from tests.kernels.helpers import fail_unless_triton_runs, interpret_triton_without_cuda, kernel_device

interpret_triton_without_cuda()


@pytest.fixture(autouse=True)
def _triton_must_run(request: pytest.FixtureRequest) -> None:
    fail_unless_triton_runs(request)


@pytest.fixture(autouse=True)
def _tensors_on_the_kernel_device() -> Iterator[None]:
    """Factory calls without a device create tensors on CUDA where the kernels are compiled."""
    with torch.device(kernel_device()):
        yield
