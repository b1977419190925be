"""Building the native CPU operators (:mod:`backend.native_build`): the switch-off variables and the
``THRIFTY_NATIVE_MARCH`` override (what an AVX2-only CPU is measured with on a newer one). The compiler itself
is not what these tests are about, so ``torch.utils.cpp_extension.load`` is replaced by a recorder."""

from __future__ import annotations

import pytest
from torch.utils import cpp_extension

from backend.native_build import build_cpu_extension

SOURCE = "// an empty operator library\n"


@pytest.fixture
def builds(monkeypatch, tmp_path) -> list[dict]:
    calls: list[dict] = []
    monkeypatch.setenv("TORCH_EXTENSIONS_DIR", str(tmp_path))
    monkeypatch.setattr(cpp_extension, "load", lambda **kwargs: calls.append(kwargs))
    return calls


def test_native_builds_for_this_cpu_by_default(builds, monkeypatch) -> None:
    monkeypatch.delenv("THRIFTY_NATIVE_MARCH", raising=False)
    assert build_cpu_extension("probe_ext", SOURCE, "THRIFTY_PROBE", "a probe", "nothing", cflags=("-O3", "-march=native"))
    assert builds[0]["name"] == "probe_ext"
    assert "-march=native" in builds[0]["extra_cflags"]


def test_the_march_override_builds_a_separate_extension_for_that_instruction_set(builds, monkeypatch) -> None:
    monkeypatch.setenv("THRIFTY_NATIVE_MARCH", "haswell")
    assert build_cpu_extension("probe_ext", SOURCE, "THRIFTY_PROBE", "a probe", "nothing", cflags=("-O3", "-march=native"))
    flags = builds[0]["extra_cflags"]
    assert "-march=haswell" in flags and "-march=native" not in flags
    assert builds[0]["name"] == "probe_ext_haswell"  # never mistaken for (or overwriting) the native build
    # an explicit -march (the per-instruction-set test builds) is left alone
    assert build_cpu_extension("probe_x86", SOURCE, "THRIFTY_PROBE", "a probe", "nothing", cflags=("-march=x86-64",))
    assert builds[1]["name"] == "probe_x86" and "-march=x86-64" in builds[1]["extra_cflags"]


def test_the_switch_off_variable_builds_nothing(builds, monkeypatch) -> None:
    monkeypatch.setenv("THRIFTY_PROBE", "0")
    assert not build_cpu_extension("probe_ext", SOURCE, "THRIFTY_PROBE", "a probe", "nothing", cflags=("-O3",))
    assert builds == []
