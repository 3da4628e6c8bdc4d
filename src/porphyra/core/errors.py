"""Typed errors of the engine contract (see ``shared/DESIGN.md``, "The game contract").

Every error a caller can provoke with bad input is a ``ValueError`` subclass whose message
names the problem; an operation that raises leaves the state it was called on unchanged.
"""

from __future__ import annotations

from porphyra.core.messages import Arg, Message


class PorphyraError(Exception):
    """Base class of every error raised by porphyra on purpose.

    Args:
        message: the English text, or a :class:`~porphyra.core.messages.Message` (an id
            plus arguments) whose English text becomes the exception's text; the edges
            translate :attr:`message` (id and arguments), never the English text.

    Attributes:
        message: the structured message (a plain text becomes a message without
            arguments whose id is the text itself).
        msgid: the message's id (its English template).
        args: the exception's arguments (``(english_text,)``, as for any exception).
        msgargs: the message's arguments.
    """

    def __init__(self, message: str | Message = "") -> None:
        structured = message if isinstance(message, Message) else Message(message)
        super().__init__(str(structured))
        self.message: Message = structured

    def __reduce__(self) -> tuple[type[PorphyraError], tuple[Message]]:
        """Pickled with its structured message (a process pool's errors keep it)."""
        return (type(self), (self.message,))

    @property
    def msgid(self) -> str:
        """The message id (English template) of this error."""
        return self.message.msgid

    @property
    def msgargs(self) -> tuple[Arg, ...]:
        """The arguments of this error's message."""
        return self.message.args


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
