"""The kernel benchmark's tests run under the kernel tests' rules (Triton interpreted without CUDA,
tensors on the kernel device): the same fixtures, imported from ``tests/kernels/conftest.py``."""

from __future__ import annotations

from tests.kernels.conftest import _tensors_on_the_kernel_device, _triton_must_run  # noqa: F401
