"""Compiling the native CPU kernels side by side, while the weights load.

The kernels are two C++ extensions (:data:`backend.native_build.CPU_BUILDS`), compiled the first time a machine
(or a new ``TORCH_EXTENSIONS_DIR``) loads them. Each kernel's loader is started at once on a thread of its own
(each thread only waits on a compiler, and the loaders of one extension wait for its single build), so the two
compilers run side by side and overlap reading the weights: ~23 s on a 2-core AVX2 EPYC, against ~51 s for the five
separate builds of before taken one after another. Later starts load them from the extension cache in milliseconds.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

log = logging.getLogger(__name__)


def _kernel_loaders() -> list[Callable[[], object]]:
    """Every native CPU kernel's loader (each cached after its first call)."""
    from backend.attention_cpu import load_paged_attention
    from backend.fused_layers_cpu import load_fused_layers
    from backend.layer_ops_cpu import load_layer_ops
    from backend.quant.native_mm import load_block_mm
    from backend.quant.panel_mm import load_panel_mm

    return [load_fused_layers, load_panel_mm, load_paged_attention, load_layer_ops, load_block_mm]


def start_native_kernel_builds() -> Callable[[], None]:
    """Start building (or loading) every native CPU kernel at once, each on its own thread, and return a
    function that waits until all are done. Call that before anything else calls a kernel's loader: the
    loaders are cached but not locked, so a second caller meanwhile would build its kernel twice. A kernel
    that fails to build is left to its loader's own fallback and warning."""
    loaders = _kernel_loaders()
    # Imported here, on the calling thread, before any loader thread starts: its first import imports setuptools,
    # whose distutils shim inserts a finder into sys.meta_path and removes it again. A thread importing at that
    # moment (the weights' reader: gguf, numpy.typing) iterates the same list, skips the finder after the removed
    # one, PathFinder, and fails with ModuleNotFoundError for an installed package (two `thrifty serve` starts
    # in a benchmark run did). Where it cannot be imported, each loader reports that and falls back.
    try:
        import torch.utils.cpp_extension  # noqa: F401
    except ImportError:
        log.debug("torch.utils.cpp_extension does not import here; the kernels' loaders will say why")

    pool = ThreadPoolExecutor(max_workers=len(loaders), thread_name_prefix="thrifty-kernel-build")
    futures = [pool.submit(loader) for loader in loaders]
    pool.shutdown(wait=False)

    def wait() -> None:
        for loader, future in zip(loaders, futures, strict=True):
            try:
                future.result()
            except Exception:  # noqa: BLE001 - the loader called again later reports and falls back
                log.exception("building %s failed", getattr(loader, "__name__", loader))

    return wait
