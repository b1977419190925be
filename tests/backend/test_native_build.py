"""Building the native CPU operators (:mod:`backend.native_build`): the switch-off variables and the
``THRIFTY_NATIVE_MARCH`` override (what an AVX2-only CPU is measured with on a newer one). The compiler itself
is not what these tests are about, so ``torch.utils.cpp_extension.load`` is replaced by a recorder."""

from __future__ import annotations

from pathlib import Path

import pytest
from torch.utils import cpp_extension

from backend.native_build import CPU_BUILDS, MARCH_PARTS, build_cpu_extension, load_cpu_part

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


def test_parts_that_share_flags_are_one_build_and_each_part_keeps_its_own_namespace(builds, monkeypatch) -> None:
    monkeypatch.delenv("THRIFTY_NATIVE_MARCH", raising=False)
    ops = next(build for build in CPU_BUILDS if "panel_mm" in build.parts)
    for part in ops.parts:  # every part of a build asks for the same extension
        assert load_cpu_part(part, "THRIFTY_PROBE", "a probe", "nothing")
    assert len({call["name"] for call in builds}) == 1
    source = Path(builds[0]["sources"][0]).read_text()
    body_starts = [source.index(f"namespace thrifty_{part} {{") for part in ops.parts]
    assert source.rindex("#include <") < min(body_starts)  # every #include before any body
    assert source.count("namespace thrifty_abi {") == sum("kernel_abi.h" in _part_text(p) for p in ops.parts)
    assert "NAMESPACE" not in source and "TORCH_LIBRARY(thrifty_panel_mm, m)" in source
    assert "-ffp-contract=off" in builds[0]["extra_cflags"] and "-march=native" in builds[0]["extra_cflags"]


def test_another_instruction_set_builds_only_the_parts_whose_paths_depend_on_it(builds) -> None:
    assert load_cpu_part("block_mm", "THRIFTY_PROBE", "a probe", "nothing", march="x86-64")
    source = Path(builds[0]["sources"][0]).read_text()
    assert builds[0]["name"].startswith("thrifty_cpu_ops_v1_x86_64_")
    assert {part for part in ("panel_mm", "block_mm", "layer_ops", "fused_layers")
            if f"namespace thrifty_{part} {{" in source} == set(MARCH_PARTS)
    assert "TORCH_LIBRARY(thrifty_block_mm_x86_64, m)" in source and "-march=x86-64" in builds[0]["extra_cflags"]
    with pytest.raises(ValueError, match="this CPU only"):
        load_cpu_part("layer_ops", "THRIFTY_PROBE", "a probe", "nothing", march="x86-64")


def _part_text(part: str) -> str:
    import backend.native_build

    return (Path(backend.native_build.__file__).with_name("native") / f"{part}.cpp").read_text()


def test_threads_of_one_process_write_the_same_source_at_once_without_failing(builds) -> None:
    """The start-up loads an extension's parts on several threads at once (:mod:`backend.native_prebuild`), and on
    a machine's first start each finds the source file missing and writes it: no writer may lose its temporary file
    to another (that made the first start fall back to the slow kernels), and the file ends whole."""
    import threading

    source = "// a long translation unit\n" * 20_000
    failures: list[BaseException] = []
    for round_ in range(20):
        start = threading.Barrier(6)

        def write(name: str = f"probe_ext{round_}", barrier: threading.Barrier = start) -> None:
            barrier.wait()
            try:
                build_cpu_extension(name, source, "THRIFTY_PROBE", "a probe", "nothing", cflags=("-O3",))
            except BaseException as exc:  # noqa: BLE001 - collected for the assertion below
                failures.append(exc)

        threads = [threading.Thread(target=write) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert not failures
    assert len(builds) == 20 * 6  # every thread went on to the (recorded) build: none fell back
    written = {Path(call["sources"][0]) for call in builds}
    assert all(path.read_text(encoding="utf-8") == source for path in written)
