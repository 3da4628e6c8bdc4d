"""The bots' fixed ratings (issue 32 §3): the anchors of the rating scale, read from the
bot ladder's measured results (issue 31), ``porphyra/bots/data/ladder.json``.

The file (format 1)::

    {"format": 1, "command": "...", "measured": "<date and machine>",
     "model": "openskill PlackettLuce (mu 25, sigma 25/3)",
     "tables": [{"game": "<game id>", "players": 2,
                 "ratings": {"easy": {"mu": 21.0, "sigma": 0.8, "games": 400}, ...}},
                ...]}

A rating's key is the server's bot seat name (``SeatIn.bot``: ``random``, ``easy``,
``medium``, ``hard``) or, at a solo table, ``legendary:<opponent>`` for the Legendary
Opponent of the game's ``opponent`` option.  The bots' ratings never change with games
against people: they are what the bots measured against each other.

``$PORPHYRA_BOT_LADDER`` names another file (tests, or a ladder measured elsewhere).  An
absent file means no anchors: bots are unrated and a table with a bot seat cannot be
rated.  A file that is present but malformed is reported once in the log and treated as
absent (the server keeps running).
"""

from __future__ import annotations

import json
import logging
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The environment variable naming the ladder file instead of the shipped one.
LADDER_VARIABLE = "PORPHYRA_BOT_LADDER"
#: The shipped ladder file (written by the bot ladder, issue 31).
SHIPPED = Path(__file__).resolve().parents[1] / "bots" / "data" / "ladder.json"
#: The key of a Legendary Opponent's rating at a solo table.
LEGENDARY_PREFIX = "legendary:"

log = logging.getLogger("porphyra.server")


@dataclass(frozen=True)
class Anchor:
    """One bot's fixed rating: ``mu``, ``sigma`` (openskill units) and the number of
    bot-vs-bot games it was measured on."""

    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class Below:
    """Bot level ``level`` against the level below it, ``against``, over paired deals (the
    ladder's ``pairs``): ``score`` and its 95% interval ``low``-``high`` (fractions) over
    ``deals`` deals; in solo ``against_score`` (the lower level's wins on the same deals)
    and ``difference`` (``score - against_score``; then ``low``-``high`` bound the
    difference)."""

    level: str
    against: str
    deals: int
    score: float
    low: float
    high: float
    against_score: float | None = None
    difference: float | None = None


@dataclass(frozen=True)
class Ladder:
    """The anchors of every game and player count, and how they were measured.

    Attributes:
        tables: ``(game, players) -> {bot seat name: Anchor}``.
        below: ``(game, players) -> {bot seat name: Below}`` (each level against the one
            below it, where the file has ``pairs``).
        command / measured / model: the file's fields (the command that measured them,
            when and on what machine, the rating model), shown by the leaderboard.
    """

    tables: dict[tuple[str, int], dict[str, Anchor]] = field(default_factory=dict)
    below: dict[tuple[str, int], dict[str, Below]] = field(default_factory=dict)
    command: str = ""
    measured: str = ""
    model: str = ""


class LadderError(ValueError):
    """A ladder file that does not have the format above (the message says where)."""


def ladder_path() -> Path:
    """The ladder file read: ``$PORPHYRA_BOT_LADDER`` if set, else :data:`SHIPPED`."""
    configured = os.environ.get(LADDER_VARIABLE)
    return Path(configured) if configured else SHIPPED


def parse_ladder(data: Any) -> Ladder:
    """The :class:`Ladder` of a parsed ladder file.

    Raises:
        LadderError: not format 1, or a table or rating of the wrong shape (a mu or
            sigma that is not a finite number, a sigma not above 0).
    """
    if not isinstance(data, dict) or data.get("format") != 1:
        raise LadderError("the bot ladder is not a format 1 file")
    tables: dict[tuple[str, int], dict[str, Anchor]] = {}
    below: dict[tuple[str, int], dict[str, Below]] = {}
    raw_tables = data.get("tables")
    if not isinstance(raw_tables, list):
        raise LadderError("the bot ladder has no list of tables")
    for i, table in enumerate(raw_tables):
        if not isinstance(table, dict):
            raise LadderError(f"table {i} is not an object")
        game, players, ratings = table.get("game"), table.get("players"), table.get("ratings")
        if not isinstance(game, str) or type(players) is not int or not isinstance(ratings, dict):
            raise LadderError(f"table {i} needs a game, a player count and ratings")
        anchors: dict[str, Anchor] = {}
        for name, rating in ratings.items():
            anchors[str(name)] = _anchor(rating, f"table {i}, {name}")
        tables[(game, players)] = anchors
        pairs = table.get("pairs", [])
        if not isinstance(pairs, list):
            raise LadderError(f"table {i}: pairs must be a list")
        read = [_below(pair, f"table {i}, pair {j}") for j, pair in enumerate(pairs)]
        below[(game, players)] = {b.level: b for b in read}
    return Ladder(
        tables=tables,
        below=below,
        command=str(data.get("command", "")),
        measured=str(data.get("measured", "")),
        model=str(data.get("model", "")),
    )


def _anchor(rating: Any, where: str) -> Anchor:
    if not isinstance(rating, dict):
        raise LadderError(f"{where}: not an object")
    mu: Any = rating.get("mu")
    sigma: Any = rating.get("sigma")
    games: Any = rating.get("games", 0)
    if not (_number(mu) and _number(sigma)) or sigma <= 0:
        raise LadderError(f"{where}: mu and sigma must be finite numbers, sigma above 0")
    if type(games) is not int or games < 0:
        raise LadderError(f"{where}: games must be a count")
    return Anchor(float(mu), float(sigma), games)


def _below(pair: Any, where: str) -> Below:
    if not isinstance(pair, dict):
        raise LadderError(f"{where}: not an object")
    level, against, deals = pair.get("level"), pair.get("against"), pair.get("deals")
    figures: list[Any] = [pair.get(k) for k in ("score", "low", "high")]
    solo: list[Any] = [pair.get(k) for k in ("against_score", "difference")]
    if not isinstance(level, str) or not isinstance(against, str):
        raise LadderError(f"{where}: level and against must be bot names")
    if type(deals) is not int or deals < 1 or not all(_number(f) for f in figures):
        raise LadderError(f"{where}: deals must be a count, score, low and high numbers")
    if any(v is not None and not _number(v) for v in solo):
        raise LadderError(f"{where}: against_score and difference must be numbers")
    score, low, high = (float(f) for f in figures)
    against_score, difference = (None if v is None else float(v) for v in solo)
    return Below(level, against, deals, score, low, high, against_score, difference)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


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
