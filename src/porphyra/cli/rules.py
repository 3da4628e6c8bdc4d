"""How-to-play texts in the terminal: ``porphyra rules GAME`` and ``rules`` at the game
prompt, rendered with Rich's Markdown support (the texts: :mod:`porphyra.games.rules_text`).
"""

from __future__ import annotations

from rich.markdown import Markdown

from porphyra.games.rules_text import rules_text
from porphyra.i18n import DEFAULT


def rules_markdown(game: str, lang: str = DEFAULT) -> Markdown:
    """:func:`~porphyra.games.rules_text.rules_text` as a Rich renderable.

    Raises:
        UnknownGameError: ``game`` is not a registered game.
        ValueError: ``lang`` is not a supported language.
    """
    return Markdown(rules_text(game, lang))
