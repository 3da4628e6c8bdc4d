"""How seats are named to people: **Seat 1, Seat 2, ...** everywhere (the terminal, the
browser, ``porphyra replay``), while the engine, records, observations and the research
APIs count players from 0.

The engines' own texts (log lines, refusals) name players as ``seat 0``; :func:`for_people`
rewrites them for display, with seat names where they are known (a web game's names). It
works on a text already translated too: give it that language's form of ``"seat {0}"``
(the catalogues write a seat the same way in every line, a test checks it).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

#: The English form of a seat in the engines' texts (N: the player index, from 0).
ENGLISH_SEAT = "seat {0}"

#: Unicode categories never shown in a name or a chat line that other people read:
#: controls (NUL, line breaks), format characters (bidi overrides and isolates, zero-width
#: marks), separators of lines and paragraphs, surrogates, private use, unassigned.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"})
#: Allowed although a format character: it joins emoji sequences.
ZERO_WIDTH_JOINER = "\u200d"
#: The web server's default seat names (:func:`default_name`).
_DEFAULT_NAME = re.compile(r"(?:Seat|[A-Z][a-z]+ bot) \d+")


def seat_label(player: int) -> str:
    """The people's name of player index ``player``: ``"Seat 1"`` for player 0."""
    return f"Seat {player + 1}"


def hidden_character(ch: str) -> bool:
    """True if ``ch`` must not reach other people's screens (:data:`HIDDEN_CATEGORIES`,
    the zero-width joiner excepted)."""
    return ch != ZERO_WIDTH_JOINER and unicodedata.category(ch) in HIDDEN_CATEGORIES


def default_name(player: int, bot: str | None = None) -> str:
    """The name a seat gets when its player gives none: ``Seat 1`` for a person,
    ``Easy bot 2`` for a bot (the pages translate these, a record keeps them)."""
    return seat_label(player) if bot is None else f"{bot.capitalize()} bot {player + 1}"


def is_default_name(name: str) -> bool:
    """True if ``name`` has the form of a :func:`default_name` (it says nothing more than
    the seat's label)."""
    return _DEFAULT_NAME.fullmatch(name) is not None


@functools.cache
def _seat_pattern(template: str) -> re.Pattern[str]:
    before, _, after = template.partition("{0}")
    # A word boundary only before a Latin word ("seat"): 席 and 좌석 follow other letters
    # directly ("1枚を席1に").
    edge = r"\b" if before[:1].isascii() and before[:1].isalnum() else ""
    return re.compile(edge + re.escape(before) + r"(\d+)(?!\d)" + re.escape(after), re.IGNORECASE)


def for_people(text: str, names: Sequence[str] | None = None, template: str = ENGLISH_SEAT) -> str:
    """``text`` (an engine message or log line) with every seat (N from 0) as people say
    it: ``names[N]`` where given, else the same words with N+1.

    Args:
        text: the text, in English or already translated.
        names: the seats' names by player index, if known.
        template: how the text's language writes a seat, ``{0}`` the number
            (``"seat {0}"``; Japanese ``"席{0}"``); matched regardless of case.

    Returns:
        ``"Seat 1 melds"`` for ``"Seat 0 melds"``; ``"Theodora melds"`` with names.
    """

    def one(match: re.Match[str]) -> str:
        player = int(match.group(1))
        if names is not None and 0 <= player < len(names):
            return names[player]
        whole, start = match.group(0), match.start(1) - match.start(0)
        return whole[:start] + str(player + 1) + whole[start + len(match.group(1)) :]

    return _seat_pattern(template).sub(one, text)
