"""How-to-play texts: ``porphyra rules GAME`` and ``rules`` at the game prompt.

The texts ship with each game as ``RULES.md`` (English), ``RULES.ja.md`` and ``RULES.ko.md``
(package data) and are rendered with Rich's Markdown support.
"""

from __future__ import annotations

from importlib import resources

from rich.markdown import Markdown

from porphyra.core.errors import UnknownGameError
from porphyra.core.registry import registered_games
from porphyra.i18n import DEFAULT, LANGUAGES


def rules_text(game: str, lang: str = DEFAULT) -> str:
    """The Markdown how-to-play text of ``game`` in ``lang`` (``"en"``, ``"ja"``, ``"ko"``).

    Raises:
        UnknownGameError: ``game`` is not a registered game.
        ValueError: ``lang`` is not a supported language.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if game not in registered_games():
        raise UnknownGameError(
            f"unknown game {game!r}; known games: {', '.join(registered_games())}"
        )
    name = "RULES.md" if lang == DEFAULT else f"RULES.{lang}.md"
    return (resources.files(f"porphyra.games.{game}") / name).read_text(encoding="utf-8")


def rules_markdown(game: str, lang: str = DEFAULT) -> Markdown:
    """:func:`rules_text` as a Rich renderable."""
    return Markdown(rules_text(game, lang))
