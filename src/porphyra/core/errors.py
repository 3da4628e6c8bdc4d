"""Typed errors of the engine contract (see ``shared/DESIGN.md``, "The game contract").

Every error a caller can provoke with bad input is a ``ValueError`` subclass whose message
names the problem; an operation that raises leaves the state it was called on unchanged.
"""

from __future__ import annotations


class PorphyraError(Exception):
    """Base class of every error raised by porphyra on purpose."""


class InvalidActionError(PorphyraError, ValueError):
    """Action text that is not well formed in the game's notation (bad syntax, unknown card)."""


class IllegalActionError(PorphyraError, ValueError):
    """A well-formed action that is not legal now (wrong phase, not your turn, over a limit)."""


class SeatError(PorphyraError, ValueError):
    """A seat argument that is not a seat number (``"1"``, ``True``, ``None``, ``1.5``) or is
    not a seat of this game."""


class CardDataError(PorphyraError, ValueError):
    """A card-data file that cannot be loaded; the message names the file and the entry."""


class RecordError(PorphyraError, ValueError):
    """A game record (saved game) that is corrupt, of another game, or does not replay."""


class UnknownGameError(PorphyraError, ValueError):
    """``load_game`` was asked for a game that is not registered, or with a bad option."""
