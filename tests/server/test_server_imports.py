"""The server's modules import one another without a circle, and ``docs/architecture.md``
draws them as they are (``python docs/server_imports.py --write`` redraws it)."""

from __future__ import annotations

import graphlib
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import ROOT, load_script

SCRIPT = ROOT / "docs" / "server_imports.py"


def _script() -> ModuleType:
    return load_script(SCRIPT)


def test_no_module_of_the_server_imports_itself_through_others() -> None:
    script = _script()
    graph = script.import_graph()
    assert "porphyra.server.routes.play" in graph and "porphyra.server.match" in graph
    try:
        script.levels(graph)
    except graphlib.CycleError as exc:
        pytest.fail(f"an import circle inside porphyra.server: {' -> '.join(exc.args[1])}")


def test_the_cycle_check_sees_a_circle_also_through_a_lazy_import(tmp_path: Path) -> None:
    # (a circle closed by an import inside a function, or under TYPE_CHECKING, still ties
    # the two modules together: the check must see it)
    script = _script()
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("from porphyra.server.b import x\n")
    (tmp_path / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from porphyra.server import a\n"
        "def f():\n    from . import a\n"
    )
    graph = script.import_graph(tmp_path)
    assert graph["porphyra.server.a"] == {"porphyra.server.b"}
    assert graph["porphyra.server.b"] == {"porphyra.server.a"}
    with pytest.raises(graphlib.CycleError):
        script.levels(graph)


def test_the_architecture_page_draws_the_server_as_it_is() -> None:
    assert _script().main(["--check"]) == 0


#: The most lines a module of the server may have (issue 33: each readable at one sitting).
MAX_LINES = 500


def test_no_module_of_the_server_is_over_500_lines() -> None:
    server = SCRIPT.parent.parent / "src" / "porphyra" / "server"
    lines = {
        str(path.relative_to(server)): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(server.rglob("*.py"))
    }
    assert len(lines) > 30
    assert {name: n for name, n in lines.items() if n > MAX_LINES} == {}
