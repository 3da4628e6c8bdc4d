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
from collections.abc import Sequence

#: The English form of a seat in the engines' texts (N: the player index, from 0).
ENGLISH_SEAT = "seat {0}"


def seat_label(player: int) -> str:
    """The people's name of player index ``player``: ``"Seat 1"`` for player 0."""
    return f"Seat {player + 1}"


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
