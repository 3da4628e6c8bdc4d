"""How-to-play texts: ``porphyra rules GAME`` and ``rules`` at the game prompt.

The texts ship with each game as ``RULES.md`` (package data) and are rendered with Rich's
Markdown support.
"""

from __future__ import annotations

from importlib import resources

from rich.markdown import Markdown

from porphyra.core.errors import UnknownGameError
from porphyra.core.registry import registered_games


def rules_text(game: str) -> str:
    """The Markdown how-to-play text of ``game``.

    Raises:
        UnknownGameError: ``game`` is not a registered game.
    """
    if game not in registered_games():
        raise UnknownGameError(
            f"unknown game {game!r}; known games: {', '.join(registered_games())}"
        )
    return (resources.files(f"porphyra.games.{game}") / "RULES.md").read_text(encoding="utf-8")


def rules_markdown(game: str) -> Markdown:
    """:func:`rules_text` as a Rich renderable."""
    return Markdown(rules_text(game))
