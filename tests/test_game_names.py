"""No module outside ``games/`` names a game (issue 33 §1): what a game brings to the outer
layers (bots' hooks, terminal view, codec, balance figures, web hooks) is registered with
the registry (:func:`porphyra.core.registry.adapter`), so a third game or a variant is a
new package, not edits all over the house.

The check is ast-based: a string constant exactly equal to a registered game id counts
(prose that mentions a game, e.g. in a docstring, does not).  The registry's table is the
one registration point allowed to name them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from porphyra.core.adapters import ADAPTER_KINDS
from porphyra.core.errors import UnknownGameError
from porphyra.core.registry import adapter, games_with, registered_games

#: The package's source.
SRC = Path(__file__).resolve().parent.parent / "src" / "porphyra"

#: Where a game may be named: the games themselves and the registry's table.
ALLOWED = ("games/", "core/registry.py")


def game_names_in(root: Path, allowed: tuple[str, ...] = ()) -> list[str]:
    """``"file:line: 'name'"`` for each string constant under ``root`` (outside the
    ``allowed`` paths, relative to ``root``) that is exactly a registered game's id."""
    games = set(registered_games())
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).as_posix()
        if any(relative == a or relative.startswith(a) for a in allowed):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in games:
                found.append(f"{relative}:{node.lineno}: {node.value!r}")
    return sorted(found, key=lambda f: (f.split(":")[0], int(f.split(":")[1])))


def test_no_module_outside_games_names_a_game() -> None:
    assert game_names_in(SRC, ALLOWED) == []


def test_the_check_finds_a_game_named_in_a_branch_or_a_table(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "rules.py").write_text("NAME = 'byzantium'\n")
    (tmp_path / "report.py").write_text(
        '"""Mentions byzantium in prose."""\n'
        "def f(rec):\n    return rec['game'] == 'byzantium'\n"
        "TABLE = {'conspiracy': 1}\n"
    )
    assert game_names_in(tmp_path, ("games/",)) == [
        "report.py:3: 'byzantium'",
        "report.py:4: 'conspiracy'",
    ]


@pytest.mark.parametrize("kind", sorted(ADAPTER_KINDS))
def test_each_registered_adapter_loads(kind: str) -> None:
    for name in registered_games():
        found = adapter(name, kind)
        assert (found is not None) == (name in games_with(kind)), (name, kind)
        assert adapter(name, kind) is found  # imported once


def test_an_unknown_game_or_kind_is_refused() -> None:
    with pytest.raises(UnknownGameError, match="unknown game"):
        adapter("chess", "codec")
    with pytest.raises(ValueError, match="unknown adapter kind"):
        adapter(registered_games()[0], "art")
    with pytest.raises(ValueError, match="unknown adapter kind"):
        games_with("art")
