"""The web server names no game: what a game brings to it (its end-screen course, replay
extras, derived figures, solo table) comes through the registry's
:func:`~porphyra.core.registry.web_hooks`, so a third game is a new package, not an edit
of the server."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from porphyra.core.errors import UnknownGameError
from porphyra.core.registry import registered_games, web_hooks

SERVER = Path(__file__).resolve().parents[2] / "src" / "porphyra" / "server"


def game_names_in(root: Path) -> list[str]:
    """``"file:line: 'name'"`` for each string constant under ``root`` that is exactly a
    registered game's name (prose that mentions a game, e.g. in a docstring, is not one)."""
    games = set(registered_games())
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in games:
                found.append(f"{path.relative_to(root)}:{node.lineno}: {node.value!r}")
    return found


def test_no_module_of_the_server_names_a_game() -> None:
    assert game_names_in(SERVER) == []


def test_the_check_finds_a_game_named_in_a_branch(tmp_path: Path) -> None:
    (tmp_path / "summary.py").write_text(
        '"""Mentions byzantium in prose."""\n'
        "def f(rec):\n    return rec['game'] == 'byzantium'\n"
    )
    assert game_names_in(tmp_path) == ["summary.py:3: 'byzantium'"]


def test_every_game_registers_its_web_hooks() -> None:
    for name in registered_games():
        assert web_hooks(name) is web_hooks(name)  # loaded once
    byzantium, conspiracy = (web_hooks(n) for n in ("byzantium", "conspiracy"))
    assert byzantium.summary is not None and byzantium.derived is None
    assert conspiracy.derived is not None and conspiracy.solo_options is not None
    assert byzantium.hidden is not None and conspiracy.hidden is not None
    with pytest.raises(UnknownGameError, match="unknown game"):
        web_hooks("chess")
