"""Unexpected failures: the details go to the server log under a short error id, and the
player gets only a short message with that id (never SQL text, parameters, hosts or
tracebacks; issue 13, item 2)."""

from __future__ import annotations

import logging
import secrets

log = logging.getLogger("porphyra.server")


def new_error_id() -> str:
    """A fresh error id: 8 lowercase hex digits, e.g. ``"3fa9c01e"``."""
    return secrets.token_hex(4)


def report(what: str, *args: object) -> str:
    """Log the exception being handled (with its traceback) as ``[error ID] what % args``
    and return ID.  Call from an ``except`` block."""
    error_id = new_error_id()
    log.exception("[error %s] " + what, error_id, *args)
    return error_id


def player_message(error_id: str, what: str = "something went wrong on the server") -> str:
    """The text a player sees for error ``error_id``: ``what`` plus the id to quote."""
    return f"{what} (error id {error_id}; the details are in the server log)"


def damaged_game(game_id: str, detail: str) -> str:
    """Log why game ``game_id`` cannot be loaded (``detail``: may name SQL text or hidden
    cards, so it goes to the server log only) under a fresh error id, and return the short
    public problem shown in the lobby and on the game's links (``str``)."""
    error_id = new_error_id()
    log.error("[error %s] game %s is damaged and listed as broken: %s", error_id, game_id, detail)
    return (
        f"this game's stored data is damaged and it cannot be opened (error id {error_id}; "
        "the details are in the server log)"
    )
