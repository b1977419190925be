"""The custom import-linter contract (tests/import_rules.py) finds module cycles, including one
closed by a function-local import, and passes a package without one."""

from __future__ import annotations

from pathlib import Path

import grimp
import pytest

from tests.import_rules import ModuleAcyclicContract, _cycles


def test_cycles_are_the_strongly_connected_components() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": set()}
    assert _cycles(edges) == [["a", "b", "c"]]
    assert _cycles({"x": {"y"}, "y": set()}) == []


def _package(root: Path, name: str, files: dict[str, str]) -> None:
    (root / name).mkdir()
    for module, source in {"__init__": "", **files}.items():
        (root / name / f"{module}.py").write_text(source)


@pytest.mark.parametrize(("files", "kept"), [
    ({"a": "from pkg_cycle.b import f\n", "b": "def f():\n    from pkg_cycle import a\n    return a\n"}, False),
    ({"a": "from pkg_cycle.b import f\n", "b": "def f():\n    return 1\n"}, True),
])
def test_the_contract_sees_function_local_imports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  files: dict[str, str], kept: bool) -> None:
    _package(tmp_path, "pkg_cycle", files)
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("pkg_cycle", cache_dir=None)
    contract = ModuleAcyclicContract(name="t", session_options={}, contract_options={"packages": ["pkg_cycle"]})
    check = contract.check(graph, verbose=False)
    assert check.kept is kept
    if not kept:
        assert check.metadata["cycles"][0]["modules"] == ["pkg_cycle.a", "pkg_cycle.b"]
