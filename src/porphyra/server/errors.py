"""Refusals of the match runner (a submission, an undo, a leave or return)."""

from __future__ import annotations

from fastapi import HTTPException

from porphyra.core.messages import Message
from porphyra.server.incidents import player_message


class SubmitError(Exception):
    """A submission refused by the runner; ``code`` and ``message`` go to the client.

    ``message`` is English text or a :class:`~porphyra.core.messages.Message` (an id plus
    arguments, e.g. an engine's refusal), translated per client from its id and arguments
    (:meth:`porphyra.server.client.Client.error_text`); ``str(error)`` is the English text.
    """

    def __init__(self, code: str, message: str | Message) -> None:
        super().__init__(str(message))
        self.code = code
        self.message = message


class RefusedRequest(HTTPException):
    """An HTTP refusal whose text is a message (an id plus arguments, e.g. an engine's
    refusal of a game's options), translated from them for each request's language;
    ``detail`` is its English text."""

    def __init__(self, status_code: int, message: Message) -> None:
        super().__init__(status_code, str(message))
        self.message = message


def unavailable_message(error_id: str) -> str:
    """The player's text when the database did not take a write."""
    return player_message(
        error_id, "the server could not save this just now; nothing changed: try again"
    )


#: The player's text when another server took the game over (several servers share the
#: database; the game's page reconnects, and the servers' router sends it there).
MOVED_MESSAGE = "another server runs this game: connect again to reach it"
