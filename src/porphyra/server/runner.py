"""The match runner and the hub of all games: the names of the server's game authority.

This module gathers the pieces, which live in focused modules:

- :mod:`porphyra.server.match`: :class:`MatchRunner`, the single authority over one web
  game (seats, the views — its choke point, the only place state becomes outgoing data —
  submissions, undo, bot turns) and :class:`SubmitError`;
- :mod:`porphyra.server.hub`: :class:`Hub`, every game of the server (registry, creation,
  resuming unfinished games on restart, the database thread with group commit) and
  :class:`CreateError`;
- :mod:`porphyra.server.client`: :class:`Client`, one websocket connection and its outbox;
- :mod:`porphyra.server.botpool`: :class:`BotPool` (bots decide in a process pool under
  ``porphyra serve``) and the bot-move helpers;
- :mod:`porphyra.server.replay`: shared game objects, :func:`replay` and the undo rule
  :func:`undo_target`.
"""

from __future__ import annotations

from porphyra.server.botpool import BotPool, bot_seed, choose_from_record, choose_on_state
from porphyra.server.client import MAX_OUTBOX, Client
from porphyra.server.hub import CreateError, Hub
from porphyra.server.match import MatchRunner, SubmitError
from porphyra.server.replay import UNDO_RESAMPLES, replay, shared_game, undo_target

__all__ = [
    "MAX_OUTBOX",
    "UNDO_RESAMPLES",
    "BotPool",
    "Client",
    "CreateError",
    "Hub",
    "MatchRunner",
    "SubmitError",
    "bot_seed",
    "choose_from_record",
    "choose_on_state",
    "replay",
    "shared_game",
    "undo_target",
]
