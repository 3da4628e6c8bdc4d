"""Draw the web server's modules and their imports as text (for ``docs/architecture.md``).

Usage::

    python docs/server_imports.py            # print the drawing
    python docs/server_imports.py --check    # exit 1 if docs/architecture.md's copy is stale
    python docs/server_imports.py --write    # replace docs/architecture.md's copy

The imports are read from the source with :mod:`ast` (every ``import`` and ``from ...
import`` of a module inside ``porphyra.server``, also those inside functions and under
``TYPE_CHECKING``: a lazy import is a dependency too), nothing is imported or run.  The
drawing lists the modules by level: level 0 imports no other server module, a module of
level N imports only modules of lower levels.  A circle has no level: :func:`levels`
raises ``graphlib.CycleError`` naming it (``tests/server/test_server_imports.py`` fails
on one).
"""

from __future__ import annotations

import ast
import graphlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "src" / "porphyra" / "server"
PACKAGE = "porphyra.server"
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- server imports: begin (python docs/server_imports.py --write) -->"
END = "<!-- server imports: end -->"


def module_name(path: Path, server: Path = SERVER) -> str:
    """``porphyra.server.routes.play`` for ``server/routes/play.py`` (a package's
    ``__init__.py`` is the package)."""
    parts = list(path.relative_to(server).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([PACKAGE, *parts])


def _targets(node: ast.AST, here: str, is_package: bool, modules: set[str]) -> set[str]:
    """The server modules one import statement names (relative imports resolved)."""
    found: set[str] = set()
    if isinstance(node, ast.Import):
        for alias in node.names:
            found.add(alias.name)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            parent = here.split(".")
            if not is_package:
                parent = parent[:-1]
            parent = parent[: len(parent) - (node.level - 1)]
            base = ".".join([*parent, base] if base else parent)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            found.add(sub if sub in modules else base)
    out = set()
    for name in found:
        while name and name not in modules:  # porphyra.server.x.Name -> porphyra.server.x
            name = name.rpartition(".")[0]
        if name.startswith(PACKAGE):
            out.add(name)
    return out


def import_graph(server: Path = SERVER) -> dict[str, set[str]]:
    """``{module: the server modules it imports}`` for every ``.py`` under ``server``
    (the package ``porphyra.server`` itself is left out as a target: importing any of its
    modules loads it, so it is no dependency of one in particular)."""
    files = {module_name(p, server): p for p in sorted(server.rglob("*.py"))}
    modules = set(files)
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                targets |= _targets(node, name, is_package, modules)
        targets.discard(name)
        if name != PACKAGE:
            targets.discard(PACKAGE)
        graph[name] = targets
    return graph


def levels(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each module's level: 0 for one that imports no server module, else one more than
    the highest level it imports.

    Raises:
        graphlib.CycleError: the modules import each other in a circle (its ``args[1]``
            lists it).
    """
    order = list(graphlib.TopologicalSorter(graph).static_order())
    level: dict[str, int] = {}
    for name in order:
        level[name] = 1 + max((level[t] for t in graph.get(name, ())), default=-1)
    return level


def _short(name: str) -> str:
    return name.removeprefix(PACKAGE + ".") if name != PACKAGE else "(package)"


def drawing(graph: dict[str, set[str]] | None = None) -> str:
    """The text drawing: one line per module, from the top level down, with the server
    modules it imports (``routes.play -> client, deps, errors, ...``)."""
    graph = import_graph() if graph is None else graph
    level = levels(graph)
    lines = []
    for n in range(max(level.values()), -1, -1):
        names = sorted(m for m in graph if level[m] == n)
        lines.append(f"level {n}")
        for name in names:
            uses = ", ".join(sorted(_short(t) for t in graph[name]))
            lines.append(f"  {_short(name):<20} -> {uses}" if uses else f"  {_short(name)}")
    return "\n".join(lines) + "\n"


def _doc_block(text: str) -> str:
    """The drawing's block in ``docs/architecture.md`` (between the markers)."""
    start = text.index(BEGIN) + len(BEGIN)
    return text[start : text.index(END)]


def _fenced(drawing_text: str) -> str:
    return "\n```text\n" + drawing_text + "```\n"


def main(argv: list[str]) -> int:
    """Print, check or write the drawing (see the module docstring); the exit status."""
    text = drawing()
    if "--check" in argv:
        if _doc_block(DOC.read_text(encoding="utf-8")) != _fenced(text):
            print("docs/architecture.md: stale; run python docs/server_imports.py --write")
            return 1
        return 0
    if "--write" in argv:
        doc = DOC.read_text(encoding="utf-8")
        old = _doc_block(doc)
        DOC.write_text(doc.replace(BEGIN + old + END, BEGIN + _fenced(text) + END), "utf-8")
        return 0
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
