"""Every test that starts a live server or drives a browser carries its marker (``live``,
``browser``; registered in pyproject.toml), so that ``pytest -m "not browser and not live"``
really leaves them out.  Found by reading the tests: a test that names the live server
(``LiveServer``, ``uvicorn.Server``, a ``subprocess.Popen`` server), Playwright, or the
``server`` / ``pair`` / ``live`` / ``browser`` fixtures, itself or through a helper or
fixture of its module."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
#: Names whose use means a live server (uvicorn in a thread or a server process).
LIVE = {"LiveServer", "_live", "Popen", "Server", "uvicorn"}
#: Names whose use means a browser.
BROWSER = {"sync_playwright", "async_playwright"}
#: Fixtures (of tests/server/conftest.py) that start a live server.
LIVE_FIXTURES = {"server", "pair", "live"}
#: Fixtures (of tests/server/conftest.py) that start a browser.
BROWSER_FIXTURES = {"browser"}


def _marks(decorators: list[ast.expr]) -> set[str]:
    """The ``pytest.mark.NAME`` names among decorators or a ``pytestmark`` value."""
    found = set()
    for node in decorators:
        for sub in ast.walk(node):
            if (
                isinstance(sub, ast.Attribute)
                and isinstance(sub.value, ast.Attribute)
                and sub.value.attr == "mark"
            ):
                found.add(sub.attr)
    return found


def _assigned(tree: ast.Module, name: str) -> ast.expr | None:
    """The value a module assigns to ``name`` at its top level, if any."""
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return node.value
    return None


#: The shared marks of the browser test modules (``pytestmark = BROWSER_MARKS``).
SHARED_MARKS = {"BROWSER_MARKS": TESTS / "server" / "browser.py"}


def _unmarked(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_marks: set[str] = set()
    value = _assigned(tree, "pytestmark")
    if isinstance(value, ast.Name) and value.id in SHARED_MARKS:
        home = ast.parse(SHARED_MARKS[value.id].read_text(encoding="utf-8"))
        value = _assigned(home, value.id)
    if value is not None:
        module_marks |= _marks([value])
    functions = {
        n.name: n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
    }

    def needs(node: ast.FunctionDef | ast.AsyncFunctionDef, seen: frozenset[str]) -> set[str]:
        names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}
        args = {a.arg for a in node.args.args}
        kinds = set()
        if names & LIVE or args & LIVE_FIXTURES:
            kinds.add("live")
        if names & BROWSER or args & BROWSER_FIXTURES:
            kinds.add("browser")
        for name in (names | args) & set(functions):
            if name not in seen and name != node.name:
                kinds |= needs(functions[name], seen | {node.name})
        return kinds

    missing = []
    for name, node in functions.items():
        if name.startswith("test"):
            lacking = needs(node, frozenset()) - module_marks - _marks(node.decorator_list)
            if lacking:
                where = path.relative_to(TESTS) if path.is_relative_to(TESTS) else path.name
                missing.append(f"{where}::{name} lacks {sorted(lacking)}")
    return missing


def test_the_scan_finds_live_and_browser_tests(tmp_path: Path) -> None:
    """With their markers taken away, the live and browser tests are reported."""
    for name, kind in (("test_server_ws.py", "live"), ("test_e2e_ui.py", "browser")):
        text = (TESTS / "server" / name).read_text(encoding="utf-8")
        text = text.replace("@pytest.mark.live\n", "").replace("pytest.mark.browser,", "")
        text = text.replace("pytest.mark.live,", "").replace("= BROWSER_MARKS", "= []")
        probe = tmp_path / name
        probe.write_text(text, encoding="utf-8")
        reported = _unmarked(probe)
        assert len(reported) >= 5 and all(kind in line for line in reported), reported


@pytest.mark.parametrize("path", sorted(TESTS.rglob("test_*.py")), ids=lambda p: p.name)
def test_live_and_browser_tests_carry_their_markers(path: Path) -> None:
    assert _unmarked(path) == []
