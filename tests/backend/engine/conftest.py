"""Engine tests that run the Triton kernels on CPU through the Triton interpreter.

``TRITON_INTERPRET`` must be set before the kernels' Triton modules are imported (``@triton.jit``
picks the interpreter at decoration time). :mod:`kernels` imports them lazily, on the first op that
runs Triton, so setting the variable here, when pytest collects this folder, is early enough; the
tests skip (see :func:`tests.kernels.helpers.requires_triton`) if it is not in effect.
"""

from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")
