"""No import circle between modules: the import graph of ``engine``, ``recorder``, ``web``,
``cli`` and ``gameindex`` has no cycle.  (The layers themselves are import-linter's contracts in
pyproject.toml, which ``make test`` runs as ``lint-imports``.)

The graph is grimp's reading of the source, the same one import-linter checks.  What counts
as an edge from module A to module B:

* every import statement in A that names B, at the top of the module or inside a function:
  an import a command makes only when it runs (to keep ``tablelog --help`` fast) still
  runs, so it must not close a circle either;
* not an import under ``if TYPE_CHECKING:``, which never runs;
* ``from . import x`` (``from .. import x``): an edge to the submodule ``x`` when ``x`` is
  a module, else to the package's ``__init__``, which defines the name ``x``;
* a package's ``__init__`` importing its own submodules, and a submodule importing a
  sibling or its package's ``__init__``, are edges like any other.  Importing
  ``a.b.c`` is an edge to ``a.b.c`` alone: that Python runs ``a/__init__`` and
  ``a/b/__init__`` first is not a dependency the importer states.
"""

from __future__ import annotations

import grimp

PACKAGES = ("engine", "recorder", "web", "cli", "gameindex")


def import_graph() -> grimp.ImportGraph:
    return grimp.build_graph(
        *PACKAGES,
        include_external_packages=False,
        exclude_type_checking_imports=True,
        cache_dir=None,
    )


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that reach one another (Tarjan's algorithm, without
    recursion); only the groups of two or more, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(edges[succ]))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def shortest_cycle(graph: grimp.ImportGraph, group: list[str]) -> list[str]:
    """A shortest circle through the group's first module: A, B, ..., A."""
    start = group[0]
    best: tuple[str, ...] | None = None
    for succ in sorted(graph.find_modules_directly_imported_by(start)):
        if succ not in group:
            continue
        back = graph.find_shortest_chain(importer=succ, imported=start)
        if back is not None and (best is None or len(back) < len(best)):
            best = back
    assert best is not None
    return [start, *best]


def describe(graph: grimp.ImportGraph, cycle: list[str]) -> str:
    """The circle, each step with the line that imports."""
    lines = []
    for importer, imported in zip(cycle, cycle[1:], strict=False):
        details = graph.get_import_details(importer=importer, imported=imported)
        where = "; ".join(f"line {d['line_number']}: {d['line_contents']}" for d in details)
        lines.append(f"  {importer} -> {imported}  ({where})")
    return "\n".join(lines)


def test_circles_are_found() -> None:
    """The search finds a circle it is shown (so a clean result means something)."""
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert strongly_connected(edges) == [["a", "b", "c"]]


def test_no_import_circle_between_modules() -> None:
    graph = import_graph()
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    circles = [
        f"{len(group)} modules reach one another ({', '.join(group)}); a shortest circle:\n"
        + describe(graph, shortest_cycle(graph, group))
        for group in strongly_connected(edges)
    ]
    assert not circles, "import circles between modules:\n" + "\n\n".join(circles)
