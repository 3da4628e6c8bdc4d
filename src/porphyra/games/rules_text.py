"""The games' how-to-play texts, for every reader: ``porphyra rules GAME`` and ``rules`` at
the game prompt (:mod:`porphyra.cli.rules`, with Rich), and the browser's rules panel
(``GET /api/rules/{game}``).

The texts ship with each game as ``RULES.md`` (English), ``RULES.ja.md`` and ``RULES.ko.md``
(package data).  A passage for one medium only lies between the lines ``<!-- terminal -->``
and ``<!-- /terminal -->`` (commands and flags) or ``<!-- browser -->`` and
``<!-- /browser -->`` (the lobby's words): each reader gets its own passages and never the
other's (:func:`rules_text`).  Here, not in the CLI, because the terminal and the web
server both read them.
"""

from __future__ import annotations

import re
from importlib import resources
from typing import Literal

from porphyra.core.errors import UnknownGameError
from porphyra.core.registry import registered_games
from porphyra.i18n import DEFAULT, LANGUAGES

#: Who reads a rules text: the terminal (``porphyra rules``, ``rules`` at the prompt) or the
#: browser's rules panel (``GET /api/rules/{game}``).
Medium = Literal["terminal", "browser"]
MEDIA: tuple[Medium, ...] = ("terminal", "browser")


def _passages(text: str, medium: Medium) -> str:
    """``text`` with the passages of the other medium removed and the markers dropped."""
    for other in MEDIA:
        block = re.compile(rf"^<!-- {other} -->\n(.*?)^<!-- /{other} -->\n", re.S | re.M)
        text = block.sub(r"\1" if other == medium else "", text)
    return text


def rules_text(game: str, lang: str = DEFAULT, medium: Medium = "terminal") -> str:
    """The Markdown how-to-play text of ``game`` in ``lang`` (``"en"``, ``"ja"``, ``"ko"``),
    with the passages for ``medium`` only (the browser's have no terminal commands or
    flags).

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
    text = (resources.files(f"porphyra.games.{game}") / name).read_text(encoding="utf-8")
    return _passages(text, medium)
