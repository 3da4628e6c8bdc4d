"""What a game brings to the web server (its end-screen course, replay extras, derived
figures, solo table) comes through the registry's :func:`~porphyra.core.registry.web_hooks`,
so a third game is a new package, not an edit of the server (that no module outside
``games/`` names a game is tests/test_game_names.py's check)."""

from __future__ import annotations

import pytest

from porphyra.core.errors import UnknownGameError
from porphyra.core.registry import registered_games, web_hooks


def test_every_game_registers_its_web_hooks() -> None:
    for name in registered_games():
        assert web_hooks(name) is web_hooks(name)  # loaded once
    byzantium, conspiracy = (web_hooks(n) for n in ("byzantium", "conspiracy"))
    assert byzantium.summary is not None and byzantium.derived is None
    assert conspiracy.derived is not None and conspiracy.solo_options is not None
    assert byzantium.hidden is not None and conspiracy.hidden is not None
    with pytest.raises(UnknownGameError, match="unknown game"):
        web_hooks("chess")
