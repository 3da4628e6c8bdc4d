"""Layers point inward: outer interfaces are not loaded by the inner ones that do not use
them (each check runs in a fresh interpreter, so earlier tests' imports do not count)."""

from __future__ import annotations

import json
import subprocess
import sys

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
