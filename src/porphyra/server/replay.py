"""Replaying web games: a record replayed on the shared game object of its options
(:func:`porphyra.core.registry.shared_game`).

Undo history never leaves the server: an undo replays a record prefix (the length given by
the undo rule, :func:`porphyra.core.undo.undo_target`) and the runner sends fresh
snapshots.
"""

from __future__ import annotations

from typing import Any

from porphyra import record as records
from porphyra.core.errors import RecordError
from porphyra.core.game import State
from porphyra.core.registry import shared_game


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
