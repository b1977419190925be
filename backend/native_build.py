"""Building our small C++ CPU operators at run time (``torch.utils.cpp_extension.load``), shared by
:mod:`backend.attention_cpu`, :mod:`backend.layer_ops_cpu` and :mod:`backend.quant.native_mm`: one build per CPU (the code is compiled with
``-march=native``), cached by PyTorch under ``TORCH_EXTENSIONS_DIR`` (default ``~/.cache/torch_extensions``),
and any failure (no compiler, no ninja) a logged fallback rather than an error. Every build gets OpenMP:
the operators split their rows with ``at::parallel_for``, whose pragma is compiled out without it (the
block matmul and the layer ops ran on one thread until they had it).

The sources register their operators with ``TORCH_LIBRARY`` and include only the ATen headers they use:
``load_inline`` would prepend ``<torch/extension.h>`` (pybind11 and the whole C++ frontend), which made
each build take ~35 s instead of ~10 s. So the source is written to a file of its own in the build
directory (rewritten only when it changed, since ninja rebuilds on a newer file) and built with ``load``."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


NATIVE_MARCH_ENV = "THRIFTY_NATIVE_MARCH"


def cpu_fingerprint() -> str:
    """A short hash of this CPU's feature flags: the build uses ``-march=native``, so a cached build must
    not be reused on a CPU with other instructions (a shared home directory, a copied cache)."""
    import hashlib
    import platform

    flags = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            flags += next((line for line in f if line.startswith(("flags", "Features"))), "")
    except OSError:
        pass
    return hashlib.sha256(flags.encode()).hexdigest()[:10]


def build_cpu_extension(name: str, source: str, disable_env: str, what: str, fallback: str, *,
                        cflags: Sequence[str]) -> bool:
    """Compile (first time on this CPU) and load the operators that ``source`` registers, as extension
    ``name`` (end it with :func:`cpu_fingerprint`); True when they are loaded. False, with a warning naming
    ``fallback``, where they cannot be built, or when the environment sets ``disable_env=0``.

    ``THRIFTY_NATIVE_MARCH`` (e.g. ``haswell``: AVX2 without AVX-512) builds what would be ``-march=native`` for
    that older instruction set instead, as a build of its own: how an AVX2-only CPU is measured on a newer one
    (with ``ATEN_CPU_CAPABILITY=avx2`` for PyTorch's own kernels)."""
    if os.environ.get(disable_env, "1") == "0":
        return False
    march = os.environ.get(NATIVE_MARCH_ENV, "").strip()
    if march and "-march=native" in cflags:  # an older instruction set than this CPU's, for measuring one
        cflags = [f"-march={march}" if flag == "-march=native" else flag for flag in cflags]
        name += "_" + "".join(c if c.isalnum() else "_" for c in march)
    try:
        from torch.utils.cpp_extension import load

        log.info("loading %s (the first start on a machine compiles it, ~10 s)", what)
        directory = _build_dir(name)
        load(name=name, sources=[str(_source_file(directory / f"{name}.cpp", source))], is_python_module=False,
             extra_cflags=[*cflags, "-fopenmp"], extra_ldflags=["-fopenmp"], build_directory=str(directory))
        return True
    except Exception as exc:  # noqa: BLE001 - any build failure means: the caller's fallback
        log.warning("%s unavailable (%s); using %s", what, exc, fallback)
        return False


def load_for_march(extension: str, namespace: str, source: str, march: str, disable_env: str, what: str,
                   fallback: str, *, cflags: Sequence[str] = ("-O3",)) -> Any | None:
    """Build ``source`` (whose ``TORCH_LIBRARY`` names its namespace ``NAMESPACE``) for gcc's ``-march=march``
    and load it: its ``torch.ops`` namespace, or None where it cannot be built (see :func:`build_cpu_extension`).
    Each ``march`` other than ``native`` gets a namespace and build of its own (``haswell``: the AVX2 paths,
    ``x86-64``: the portable ones), so that one process can run and compare every path this CPU can."""
    import torch

    suffix = "" if march == "native" else "_" + "".join(c if c.isalnum() else "_" for c in march)
    built = build_cpu_extension(f"{extension}{suffix}_{cpu_fingerprint()}", source.replace("NAMESPACE", namespace + suffix),
                                disable_env, what, fallback, cflags=(*cflags, f"-march={march}"))
    return getattr(torch.ops, namespace + suffix) if built else None


def _build_dir(name: str) -> Path:
    """Where PyTorch keeps extension ``name``'s build (``$TORCH_EXTENSIONS_DIR/name``; without the variable,
    under ``~/.cache/torch_extensions/<python>_<cuda>``): PyTorch's own rule, so that the first start and
    later ones agree."""
    from torch.utils import cpp_extension

    path = Path(cpp_extension._get_build_directory(name, verbose=False))  # noqa: SLF001 - the rule load() uses
    path.mkdir(parents=True, exist_ok=True)
    return path


def _source_file(path: Path, source: str) -> Path:
    """``source`` written to ``path`` (atomically) only when missing or different: a rewritten file would be
    newer than the build and make ninja compile again."""
    try:
        if path.read_text(encoding="utf-8") == source:
            return path
    except (OSError, UnicodeDecodeError):
        pass
    temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(source, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path
