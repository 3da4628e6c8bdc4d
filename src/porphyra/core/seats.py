"""How seats are named to people: **Seat 1, Seat 2, ...** everywhere (the terminal, the
browser, ``porphyra replay``), while the engine, records, observations and the research
APIs count players from 0.

The engines' own texts (log lines, refusals) name players as ``seat 0``; :func:`for_people`
rewrites them for display, with seat names where they are known (a web game's names).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

#: ``seat N`` / ``Seat N`` in an engine text (N: the player index, from 0).
_SEAT = re.compile(r"\b([Ss])eat (\d+)\b")


def seat_label(player: int) -> str:
    """The people's name of player index ``player``: ``"Seat 1"`` for player 0."""
    return f"Seat {player + 1}"


def for_people(text: str, names: Sequence[str] | None = None) -> str:
    """``text`` (an engine message or log line) with every ``seat N`` (N from 0) as people
    say it: ``names[N]`` where given, else ``Seat N+1``."""

    def one(match: re.Match[str]) -> str:
        player = int(match.group(2))
        if names is not None and 0 <= player < len(names):
            return names[player]
        return f"{match.group(1)}eat {player + 1}"

    return _SEAT.sub(one, text)
