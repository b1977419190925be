"""A custom import-linter contract (``pyproject.toml`` ``[tool.importlinter]``): no import cycle
between the modules of a package.

import-linter's own ``acyclic_siblings`` compares subpackages as wholes; this one works at module
granularity, which is what a reader follows (``a.py`` imports ``b.py`` imports ``a.py``). Every import
statement counts, function-local and ``TYPE_CHECKING`` ones included, so a cycle cannot be hidden by
moving an import into a function.
"""

from __future__ import annotations

from importlinter import Contract, ContractCheck, fields, output


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


class ModuleAcyclicContract(Contract):
    """``packages``: top-level packages none of whose modules may take part in an import cycle with
    other modules of the same package."""

    type_name = "module_acyclic"
    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph, verbose: bool) -> ContractCheck:
        cycles: list[dict[str, object]] = []
        for package in self.packages:  # type: ignore[attr-defined]
            modules = {m for m in graph.modules if m == package or m.startswith(package + ".")}
            edges = {m: {i for i in graph.find_modules_directly_imported_by(m) if i in modules} for m in modules}
            for component in _cycles(edges):
                members = set(component)
                links = sorted((a, b, [d["line_number"] for d in graph.get_import_details(importer=a, imported=b)])
                               for a in component for b in edges[a] if b in members)
                cycles.append({"modules": component, "links": links})
        return ContractCheck(kept=not cycles, warnings=None, metadata={"cycles": cycles})

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle in check.metadata["cycles"]:
            output.print_error(f"Import cycle between {', '.join(cycle['modules'])}:", bold=True)
            for importer, imported, lines in cycle["links"]:
                output.print(f"-   {importer} -> {imported} (l.{', l.'.join(map(str, lines))})")
            output.new_line()
