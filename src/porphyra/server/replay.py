"""Replaying web games: the shared game objects and record replay.

Undo history never leaves the server: an undo replays a record prefix (the length given by
the undo rule, :func:`porphyra.core.undo.undo_target`) and the runner sends fresh
snapshots.
"""

from __future__ import annotations

import json
from typing import Any

from porphyra import record as records
from porphyra.core.errors import RecordError
from porphyra.core.game import Game, State
from porphyra.core.registry import load_game, load_game_version

#: Game objects shared by every web game with the same options (their caches, e.g.
#: Byzantium's interned actions, then serve all games instead of starting cold).
_GAMES: dict[str, Game] = {}


def shared_game(name: str, options: dict[str, Any], version: str | None = None) -> Game:
    """The shared :class:`Game` for ``name`` with ``options`` under rules ``version``
    (default: the current rules), made by ``load_game`` once.

    Raises:
        UnknownGameError: unknown game, invalid options or an unknown rules version (as
            ``load_game``).
    """
    key = f"{name}:{version}:{json.dumps(options, sort_keys=True)}"
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = (
            load_game(name, **options)
            if version is None
            else load_game_version(name, version, options)
        )
    return game


def replay(rec: dict[str, Any], upto: int | None = None) -> State:
    """:func:`porphyra.record.replay` on the shared game object of the record's options.

    Raises:
        RecordError: invalid record, another rules version, or an action that does not
            apply.
    """
    rec = records.validate(rec)
    try:
        game = shared_game(rec["game"], rec["options"], rec["version"])
    except (ValueError, TypeError) as exc:
        raise RecordError(f"record cannot be loaded: {exc}") from None
    return records.replay(rec, upto, game=game)
