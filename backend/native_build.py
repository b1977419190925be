"""Building our small C++ CPU operators at run time (``torch.utils.cpp_extension.load``), shared by
:mod:`backend.attention_cpu`, :mod:`backend.layer_ops_cpu`, :mod:`backend.fused_layers_cpu`, :mod:`backend.quant.panel_mm`
and :mod:`backend.quant.native_mm`: one build per CPU (the code is compiled with
``-march=native``), cached by PyTorch under ``TORCH_EXTENSIONS_DIR`` (default ``~/.cache/torch_extensions``),
and any failure (no compiler, no ninja) a logged fallback rather than an error. Every build gets OpenMP:
the operators split their rows with ``at::parallel_for``, whose pragma is compiled out without it (the
block matmul and the layer ops ran on one thread until they had it).

The sources register their operators with ``TORCH_LIBRARY`` and include only the ATen headers they use:
``load_inline`` would prepend ``<torch/extension.h>`` (pybind11 and the whole C++ frontend), which made
each build take ~35 s instead of ~10 s. So the source is written to a file of its own in the build
directory (rewritten only when it changed, since ninja rebuilds on a newer file) and built with ``load``.

The operators' C++ lives in ``backend/native/*.cpp``, a file per part, and the parts that take the same compiler flags
are built together as one translation unit (:data:`CPU_BUILDS`): a build parses the ATen and ``torch/library.h``
headers once, ~8 s of the ~10.5 s each part took as a build of its own on a 2-core AVX2 EPYC. Each part's body
(below its ``// --- part body`` line) goes into a C++ namespace of its own, so their internal names never meet;
their ``#include`` lines go first."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
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
        name += _march_suffix(march)
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


@dataclass(frozen=True)
class CpuBuild:
    """Parts (``backend/native/<part>.cpp``) compiled as one extension, with the flags they all take."""

    name: str
    parts: tuple[str, ...]
    cflags: tuple[str, ...]


# -ffp-contract=off: the panel matmul gives the same bits on every instruction set (no fused multiply-adds where one
# build has FMA and another has not); the other parts of that build are float32 glue and elementwise rows, and the
# block matmul's tests hold it to its formula within a tolerance. -ffast-math: the attention's softmax vectorises
# exp (glibc's vector math needs it); its reductions are written with ``omp simd``.
CPU_BUILDS = (
    CpuBuild("thrifty_cpu_ops_v1", ("panel_mm", "block_mm", "layer_ops", "fused_layers"), ("-O3", "-ffp-contract=off")),
    CpuBuild("thrifty_cpu_attention_v1", ("paged_attention",), ("-O3", "-ffast-math")),
)
# Parts whose code paths depend on the instruction set: also built for another ``-march`` (a build of their own,
# with their ``TORCH_LIBRARY`` namespace ``NAMESPACE`` suffixed by it), so that one machine runs every path.
MARCH_PARTS = MappingProxyType({"panel_mm": "thrifty_panel_mm", "block_mm": "thrifty_block_mm"})
_BODY_MARK = "// --- part body"


def native_source(parts: Sequence[str], namespace_suffix: str = "") -> str:
    """The C++ translation unit of ``parts``: every part's ``#include`` lines, then each part's body in
    ``namespace thrifty_<part>``, with the local headers it includes (``#include "name.h"``: the kernel ABI, the
    shared block scan) inlined there and ``NAMESPACE`` replaced (the :data:`MARCH_PARTS` namespace plus
    ``namespace_suffix``)."""
    folder = Path(__file__).with_name("native")
    headers = {f'#include "{header.name}"': "\n".join(line for line in header.read_text(encoding="utf-8").splitlines()
                                                     if line.strip() != "#pragma once")
               for header in sorted(folder.glob("*.h"))}

    def inline_headers(body: str) -> str:
        for include, text in headers.items():
            body = body.replace(include, text)
        return body

    heads, bodies = [], []
    for part in parts:
        text = (folder / f"{part}.cpp").read_text(encoding="utf-8")
        head, mark, body = text.partition(_BODY_MARK)
        if not mark:
            raise ValueError(f"backend/native/{part}.cpp has no '{_BODY_MARK}' line")
        body = inline_headers(body.split("\n", 1)[1])
        if part in MARCH_PARTS:
            body = body.replace("NAMESPACE", MARCH_PARTS[part] + namespace_suffix)
        heads.append(head)
        bodies.append(f"namespace thrifty_{part} {{\n{body}}}  // namespace thrifty_{part}\n")
    return "".join(heads) + "\n" + "".join(bodies)


def load_cpu_part(part: str, disable_env: str, what: str, fallback: str, *, march: str = "native") -> bool:
    """Build (the first time on this CPU) and load the extension holding ``part`` (:data:`CPU_BUILDS`); True when
    its operators are registered. ``march`` other than ``native`` builds that extension's :data:`MARCH_PARTS` for
    gcc's ``-march=march`` instead (``haswell``: the AVX2 paths, ``x86-64``: the portable ones). False, with a
    warning naming ``fallback``, where it cannot be built or ``disable_env=0`` (see :func:`build_cpu_extension`)."""
    build = next((b for b in CPU_BUILDS if part in b.parts), None)
    if build is None:
        raise ValueError(f"no native CPU build holds the part {part!r}")
    if march == "native":
        parts = build.parts
    elif part in MARCH_PARTS:
        parts = tuple(p for p in build.parts if p in MARCH_PARTS)
    else:
        raise ValueError(f"the native part {part!r} is built for this CPU only, not for -march={march}")
    suffix = _march_suffix(march)
    return build_cpu_extension(f"{build.name}{suffix}_{cpu_fingerprint()}", native_source(parts, suffix), disable_env,
                               what, fallback, cflags=(*build.cflags, f"-march={march}"))


def load_for_march(part: str, march: str, disable_env: str, what: str, fallback: str) -> Any | None:
    """The ``torch.ops`` namespace of :data:`MARCH_PARTS` ``part`` built for gcc's ``-march=march``, or None where it
    cannot be built (see :func:`load_cpu_part`). Each ``march`` other than ``native`` gets a namespace and build of
    its own, so that one process can run and compare every path this CPU can."""
    import torch

    built = load_cpu_part(part, disable_env, what, fallback, march=march)
    return getattr(torch.ops, MARCH_PARTS[part] + _march_suffix(march)) if built else None


def _march_suffix(march: str) -> str:
    """What a build for ``march`` adds to its extension and namespace names: nothing for ``native``."""
    return "" if march == "native" else "_" + "".join(c if c.isalnum() else "_" for c in march)


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
    # one temporary file per writer: the start-up loads one extension's parts on several threads at once
    # (backend.native_prebuild), and on a machine's first start each of them writes the source
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        temporary.write_text(source, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return path
