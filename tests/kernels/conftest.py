"""Kernel tests run the Triton kernels on CPU through the Triton interpreter.

``TRITON_INTERPRET`` must be set before any Triton kernel module is imported (the ``@triton.jit``
decorator picks the interpreter at decoration time). The kernels package imports its Triton modules
lazily, so setting it here, at collection time, is early enough. Other test packages never import
Triton, so the variable does not affect them.
"""

from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")


import pytest  # noqa: E402 - after TRITON_INTERPRET is set

from tests.kernels.helpers import fail_unless_triton_runs  # noqa: E402


@pytest.fixture(autouse=True)
def _triton_must_run(request: pytest.FixtureRequest) -> None:
    fail_unless_triton_runs(request)
