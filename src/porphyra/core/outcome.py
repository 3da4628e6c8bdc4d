"""The winner and draw rule shared by every game and every interface that reads a result.

A game ends with one comparable key per seat (Byzantium: Legacy Tokens, B-R8; Conspiracy:
total Influence Points, then pearls, C-R11).  The seats with the highest key win; if every
seat has it, nobody wins (a draw, or a victory shared by all).  ``State.returns()`` follows
this rule: winners +1, the others -1, and 0 for every seat in a draw.  Interfaces that read
returns (simulation summaries, tournament tallies) use :func:`top_seats` on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def top_seats(keys: Sequence[Any]) -> list[int]:
    """The seats whose key is the highest (ties share), in seat order.

    Args:
        keys: one comparable value per seat (numbers, or tuples compared in order).

    Returns:
        The indices of the highest keys; every index when all keys are equal.

    Raises:
        ValueError: ``keys`` is empty.
    """
    best = max(keys)
    return [i for i, key in enumerate(keys) if key == best]


def returns_from_keys(keys: Sequence[Any]) -> list[float]:
    """``returns()`` from final keys: the seats with the highest key +1, the others -1;
    0.0 for every seat if all share the highest key (a draw).

    Args:
        keys: one comparable value per seat (see :func:`top_seats`).

    Returns:
        One float per seat, each -1.0, 0.0 or +1.0.

    Raises:
        ValueError: ``keys`` is empty.
    """
    top = top_seats(keys)
    if len(top) == len(keys):
        return [0.0] * len(keys)
    return [1.0 if i in top else -1.0 for i in range(len(keys))]


def sole_winner(returns: Sequence[float]) -> int | None:
    """The single seat with the highest return, or ``None`` for a draw or a shared
    victory (two or more seats on top).

    Raises:
        ValueError: ``returns`` is empty.
    """
    top = top_seats(returns)
    if len(top) == 1 and len(returns) > 1:
        return top[0]
    return None
