"""Seat arguments of the engine API: what counts as a seat number.

The engines number seats from 0 (``shared/DESIGN.md``).  A seat argument may be an ``int``
or any integer type that supports ``__index__`` (numpy's integers, which RL code hands in
all the time); anything else (``bool``, ``str``, ``float``, ``None`` where a seat is
required) is refused with :class:`~porphyra.core.errors.SeatError`.  The engine modules
are compiled (``porphyra.core.build``), whose typed arguments would otherwise refuse a
numpy integer with a raw ``TypeError``, so their public methods take ``SupportsIndex``
and pass it through here.
"""

from __future__ import annotations

import operator
from typing import SupportsIndex

from porphyra.core.errors import SeatError


def as_integer(value: object) -> int | None:
    """``value`` as an ``int`` if it is one of any integer type (numpy's too: anything with
    ``__index__``), else None: a ``bool``, ``None``, ``str``, ``float``... (the rule of seat
    arguments, also for the research environments' action ids)."""
    if type(value) is int:
        return value
    if value is not None and not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except (TypeError, ValueError):  # no __index__, or e.g. an array of floats
            pass
    return None


def as_seat(player: SupportsIndex | None) -> int:
    """``player`` as a seat number.

    Raises:
        SeatError: ``player`` is not an integer (a ``bool``, ``None``, ``str``, ``float``...).
    """
    seat = as_integer(player)
    if seat is None:
        raise SeatError(f"{player!r} is not a seat: seats are numbered 0, 1, ...")
    return seat


def seat_of(player: SupportsIndex, seats: int) -> int:
    """``player`` as one of ``seats`` seats (``0`` to ``seats - 1``).

    Raises:
        SeatError: not a seat number (:func:`as_seat`), or not one of the game's seats.
    """
    seat = as_seat(player)
    if not 0 <= seat < seats:
        raise SeatError(f"no seat {seat} in this game: its seats are 0 to {seats - 1}")
    return seat


def as_optional_seat(player: SupportsIndex | None) -> int | None:
    """``player`` as a seat number, or None (the default seat) for None.

    Raises:
        SeatError: as :func:`as_seat`.
    """
    return None if player is None else as_seat(player)


def optional_seat_of(player: SupportsIndex | None, seats: int) -> int | None:
    """``player`` as one of ``seats`` seats, or None (the default seat) for None.

    Raises:
        SeatError: as :func:`seat_of` (not a seat number, or not one of the game's).
    """
    return None if player is None else seat_of(player, seats)
