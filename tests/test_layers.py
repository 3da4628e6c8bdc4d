"""Layers point inward: outer interfaces are not loaded by the inner ones that do not use
them (each check runs in a fresh interpreter, so earlier tests' imports do not count)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

#: The package's source.
SRC = Path(__file__).resolve().parent.parent / "src" / "porphyra"

#: Top-level packages of the web server stack.
WEB_STACK = ("fastapi", "sqlalchemy", "starlette", "uvicorn")


def _modules_after(code: str) -> list[str]:
    """Run ``code`` in a fresh interpreter; the module names loaded at its end."""
    script = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    modules: list[str] = json.loads(out.stdout.strip().splitlines()[-1])
    return modules


def test_porphyra_play_loads_neither_fastapi_nor_sqlalchemy() -> None:
    modules = _modules_after(
        "from typer.testing import CliRunner\n"
        "from porphyra.cli import app\n"
        "result = CliRunner().invoke(app, ['play', 'byzantium', '--seats', 'random,random',"
        " '--seed', '3', '--delay', '0'])\n"
        "assert result.exit_code == 0, result.output\n"
        "assert 'Game over' in result.output or 'wins' in result.output, result.output\n"
    )
    loaded = [m for m in modules if m.split(".")[0] in WEB_STACK]
    assert loaded == []
    # The command's declaration and its defaults (a dataclass), nothing of the server.
    server = [m for m in modules if m.startswith("porphyra.server.")]
    assert server == ["porphyra.server.cli", "porphyra.server.settings"]


def test_tournament_does_not_import_the_cli() -> None:
    modules = _modules_after(
        "from porphyra.tournament import TournamentConfig, tournament\n"
        "summary, _ = tournament(TournamentConfig('byzantium', ['random', 'easy'], games=2))\n"
        "assert summary['games'] == 2\n"
    )
    assert [m for m in modules if m.startswith("porphyra.cli")] == []
    assert [m for m in modules if m.split(".")[0] in WEB_STACK] == []


def _imports(package: str) -> dict[str, set[str]]:
    """``{module: the porphyra modules it imports}`` for every module of ``package``
    (``"core"``, ``"server"``, ...), read from the source with :mod:`ast`: imports inside
    functions and under ``TYPE_CHECKING`` count too (a lazy import is a dependency)."""
    out: dict[str, set[str]] = {}
    for path in sorted((SRC / package).rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found |= {f"{node.module}.{a.name}" for a in node.names}
        out[name] = {m for m in found if m.split(".")[0] == "porphyra"}
    return out


def _crossing(package: str, forbidden: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """``"module -> import"`` for each import of ``porphyra.<forbidden>`` (or, when
    ``forbidden`` is ``"!core"``, of anything outside ``porphyra.core``) by a module of
    ``porphyra.<package>``, leaving out imports of the ``allowed`` modules."""
    bad = []
    for module, imported in _imports(package).items():
        for name in sorted(imported):
            if any(name == a or name.startswith(a + ".") for a in allowed):
                continue
            if forbidden == "!core":
                hit = not name.startswith("porphyra.core.") and name != "porphyra.core"
            else:
                hit = name.startswith(f"porphyra.{forbidden}.") or name == f"porphyra.{forbidden}"
            if hit:
                bad.append(f"{module} -> {name}")
    return bad


def test_the_core_imports_nothing_outside_the_core() -> None:
    # (conformance.py imported porphyra.record: records now live in porphyra.core.record)
    assert _crossing("core", "!core") == []


def test_the_web_server_does_not_import_the_terminal() -> None:
    # (the rules panel imported porphyra.cli.rules: the texts are porphyra.games.rules_text)
    assert _crossing("server", "cli") == []


def test_the_terminal_imports_of_the_web_server_only_its_command() -> None:
    # (porphyra play imported the server's undo rule: it is porphyra.core.undo now)
    allowed = ("porphyra.server.cli", "porphyra.server.settings")
    assert _crossing("cli", "server", allowed) == []


@pytest.mark.parametrize(
    ("package", "source", "forbidden"),
    [
        ("core", "from porphyra import record as records\n", "!core"),
        ("server", "def f():\n    from porphyra.cli.rules import rules_text\n", "cli"),
        ("cli", "from porphyra.server.replay import replay\n", "server"),
    ],
)
def test_the_layer_checks_see_a_wrong_way_import(
    package: str, source: str, forbidden: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / package).mkdir()
    (tmp_path / package / "wrong.py").write_text(source)
    monkeypatch.setattr(__import__(__name__, fromlist=["SRC"]), "SRC", tmp_path)
    assert _crossing(package, forbidden, ("porphyra.server.cli",)) != []
