"""The house's rules, read from the code itself (issue 20; docs/architecture.md): no import circle
among ragdx's modules, counting imports made inside functions too (a lazy import is still a
dependency a reader must follow), and no private name imported from another module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "ragdx"


def _module_name(path: Path) -> str:
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _imports(path: Path, modules: dict[str, Path]) -> list[tuple[str, str | None, int]]:
    """(module imported, name taken from it or None, line) for every ragdx import in ``path``."""
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(a.name, None, node.lineno) for a in node.names if a.name.split(".")[0] == "ragdx"]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if base.split(".")[0] != "ragdx":
                continue
            for alias in node.names:
                # "from ragdx.gen import naming" imports a module; anything else is a name of base
                sub = f"{base}.{alias.name}"
                out.append((sub, None, node.lineno) if sub in modules else (base, alias.name, node.lineno))
    return out


def _faces(modules: dict[str, Path]) -> dict[str, dict[str, str]]:
    """Per package face (an ``__init__``): which module each name it re-exports comes from."""
    faces = {}
    for name, path in modules.items():
        if path.name == "__init__.py":
            faces[name] = {taken: target for target, taken, _ in _imports(path, modules) if taken}
    return faces


def _graph() -> dict[str, set[str]]:
    """Module -> the modules it imports. A package's face re-exports its modules (ragdx/__init__
    the whole API): a name imported from a face is an import of the module that defines it, and a
    name the face defines itself (``__version__``) an import of nothing else."""
    modules = _modules()
    faces = _faces(modules)

    def source(target: str, taken: str | None, depth: int = 0) -> str | None:
        if target not in faces or taken is None or depth > 5:
            return None if target in faces else target
        origin = faces[target].get(taken)
        return None if origin is None else source(origin, taken, depth + 1)

    graph: dict[str, set[str]] = {m: set() for m in modules if m not in faces}
    for name in graph:
        for target, taken, _ in _imports(modules[name], modules):
            found = source(target, taken)
            if found in graph and found != name:
                graph[name].add(found)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_graph_reader_sees_a_circle():
    # the check below can fail: a made-up pair that imports each other is found
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def test_no_import_circle():
    graph = _graph()
    assert len(graph) > 80 and sum(map(len, graph.values())) > 200  # the reader sees the house
    assert _cycles(graph) == []


def test_no_private_name_imported_from_another_module():
    modules = _modules()
    private = []
    for name, path in modules.items():
        for target, taken, line in _imports(path, modules):
            if taken and taken.startswith("_") and not taken.startswith("__") and target != name:
                private.append(f"{path.relative_to(SRC)}:{line}: {taken} from {target}")
    assert private == []


def test_no_circle_between_rooms():
    # a room is a subpackage (ragdx.gen, ragdx.rag, ...) or a top-level module: rooms form layers,
    # so no room may import, through any of its modules, a room that imports it back
    def room(module: str) -> str:
        parts = module.split(".")
        return ".".join(parts[:2]) if len(parts) > 2 else module

    rooms: dict[str, set[str]] = {}
    for module, targets in _graph().items():
        here = rooms.setdefault(room(module), set())
        here |= {room(t) for t in targets} - {room(module)}
    for targets in list(rooms.values()):
        for t in targets:
            rooms.setdefault(t, set())
    assert len(rooms) > 20
    assert _cycles(rooms) == []


DOC = SRC.parent / "docs" / "architecture.md"


def _floors() -> list[tuple[str, list[str]]]:
    """The floor table of docs/architecture.md, bottom up: (floor, module patterns such as
    ``gen/qa`` or ``rag/adapters/*``)."""
    section = DOC.read_text(encoding="utf-8").split("## Floors, bottom up")[1].split("\n## ")[0]
    floors = []
    for line in section.splitlines():
        cells = line.split("|")
        if len(cells) > 3 and "`" in cells[2] and cells[1].strip() != "floor":
            floors.append((cells[1].strip(), re.findall(r"`([^`]+)`", cells[2])))
    return floors


def _floor_of(module: str, floors: list[tuple[str, list[str]]]) -> int | None:
    rel = module.removeprefix("ragdx").lstrip(".").replace(".", "/")
    for i, (_, patterns) in enumerate(floors):
        for p in patterns:
            if rel == p or (p.endswith("/*") and rel.startswith(p[:-1])):
                return i
    return None


def _upward(graph: dict[str, set[str]], floors: list[tuple[str, list[str]]]) -> list[str]:
    return sorted(
        f"{m} ({floors[fm][0]}) imports {t} ({floors[ft][0]})"
        for m, targets in graph.items()
        if (fm := _floor_of(m, floors)) is not None
        for t in targets
        if (ft := _floor_of(t, floors)) is not None and ft > fm
    )


def test_the_layer_check_sees_an_import_up_the_floors():
    floors = [("low", ["a"]), ("high", ["b/*"])]
    assert _upward({"ragdx.a": {"ragdx.b.c"}, "ragdx.b.c": {"ragdx.a"}}, floors) == [
        "ragdx.a (low) imports ragdx.b.c (high)"
    ]


def test_every_module_sits_on_a_floor_of_the_architecture_doc_and_imports_none_above_it():
    # the doc's floor table is the layering a newcomer reads; a module it does not place, or an
    # import that runs back up the floors, means the doc or the code has drifted
    floors = _floors()
    assert [name for name, _ in floors][:2] == ["leaves", "storage"] and len(floors) >= 8
    graph = _graph()
    assert [m for m in sorted(graph) if _floor_of(m, floors) is None] == []
    assert _upward(graph, floors) == []
