"""The C signatures by which our native CPU operators share their serial kernels with the fused decoder layers.

Each of :mod:`backend.quant.panel_mm`, :mod:`backend.layer_ops_cpu` and :mod:`backend.attention_cpu` compiles its
arithmetic into plain functions over a range of rows (or panels, or attention tasks) and calls them from its own
operators' ``at::parallel_for``. Its ``kernel_addresses()`` operator returns their addresses, and
:mod:`backend.fused_layers_cpu` calls the very same machine code from one thread team. So a row computes the
same bits whichever path runs it (batch invariance), with no second copy of any kernel to keep in step.

``backend/native/kernel_abi.h`` is the C++ that every one of those sources includes: its typedefs are the
contract, and each exporting source assigns its functions to them, so a changed signature fails to compile on both
sides.
The order of the addresses each operator returns is :data:`PANEL_KERNELS`, :data:`LAYER_KERNELS` and
:data:`ATTENTION_KERNELS`.
"""

from __future__ import annotations

PANEL_KERNELS = ("quantize_range", "q4_panels")
LAYER_KERNELS = ("norm_rows", "rotary_rows", "silu_rows")
ATTENTION_KERNELS = ("attend_tasks_f32", "attend_tasks_bf16")
