"""The bots' fixed ratings (issue 32 §3): the anchors of the rating scale, read from the
bot ladder's measured results (issue 31), ``porphyra/bots/data/ladder.json``.

The file's format and its reader are :mod:`porphyra.bots.ladder_file`.  A rating's key is
the server's bot seat name (``SeatIn.bot``: ``random``, ``easy``, ``medium``, ``hard``)
or, at a solo table, ``legendary:<opponent>`` for the Legendary Opponent of the game's
``opponent`` option.  The bots' ratings never change with games against people: they are
what the bots measured against each other.

``$PORPHYRA_BOT_LADDER`` names another file (tests, or a ladder measured elsewhere).  An
absent file means no anchors: bots are unrated and a table with a bot seat cannot be
rated.  A file that is present but malformed is reported once in the log and treated as
absent (the server keeps running).
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from porphyra.bots.ladder_file import (
    LEGENDARY_PREFIX,
    SHIPPED,
    Anchor,
    Below,
    Ladder,
    LadderError,
    parse_ladder,
)

#: The environment variable naming the ladder file instead of the shipped one.
LADDER_VARIABLE = "PORPHYRA_BOT_LADDER"

log = logging.getLogger("porphyra.server")

# The file's format and its reader live with the file (one home); their names stay
# importable from here.
__all__ = [
    "LADDER_VARIABLE",
    "LEGENDARY_PREFIX",
    "SHIPPED",
    "Anchor",
    "Below",
    "Ladder",
    "LadderError",
    "bot_anchors",
    "ladder_path",
    "load_ladder",
    "opponent_key",
    "parse_ladder",
]


def ladder_path() -> Path:
    """The ladder file read: ``$PORPHYRA_BOT_LADDER`` if set, else :data:`SHIPPED`."""
    configured = os.environ.get(LADDER_VARIABLE)
    return Path(configured) if configured else SHIPPED


_cache: dict[tuple[str, float], Ladder] = {}


def load_ladder() -> Ladder:
    """The ladder of :func:`ladder_path` (read again when the file changes); an empty
    :class:`Ladder` when the file is absent or malformed (logged)."""
    path = ladder_path()
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return Ladder()
    key = (str(path), stamp)
    if key not in _cache:
        try:
            ladder = parse_ladder(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError) as exc:
            log.error("bot ladder %s cannot be read (bots are unrated): %s", path, exc)
            ladder = Ladder()
        _cache.clear()
        _cache[key] = ladder
    return _cache[key]


def bot_anchors(game: str, players: int) -> dict[str, tuple[float, float]]:
    """The bots' fixed ratings at ``game`` with ``players`` seats.

    Returns:
        ``{bot seat name (or "legendary:<opponent>"): (mu, sigma)}``; ``{}`` when the
        ladder has none (no file, or not measured for that game and player count).
    """
    anchors = load_ladder().tables.get((game, players), {})
    return {name: (a.mu, a.sigma) for name, a in anchors.items()}


def opponent_key(options: dict[str, Any]) -> str | None:
    """The anchor key of a solo table's Legendary Opponent (``legendary:<opponent>``),
    from the game's ``opponent`` option; None when the option names none (or is
    ``random``: drawn from the seed, so not known when the table is made)."""
    opponent = options.get("opponent")
    if not isinstance(opponent, str) or opponent == "random":
        return None
    return LEGENDARY_PREFIX + opponent
