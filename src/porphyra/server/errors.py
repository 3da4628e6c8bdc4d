"""Refusals of the match runner (a submission, an undo, a leave or return)."""

from __future__ import annotations

from porphyra.server.incidents import player_message


class SubmitError(Exception):
    """A submission refused by the runner; ``code`` and ``message`` go to the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def unavailable_message(error_id: str) -> str:
    """The player's text when the database did not take a write."""
    return player_message(
        error_id, "the server could not save this just now; nothing changed: try again"
    )


#: The player's text when another server took the game over (several servers share the
#: database; the game's page reconnects, and the servers' router sends it there).
MOVED_MESSAGE = "another server runs this game: connect again to reach it"
