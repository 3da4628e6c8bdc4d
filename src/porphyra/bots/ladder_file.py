"""The bot ladder's file (issue 31): its format, and the one reader that checks it.

The ladder (``porphyra bots ladder``, :mod:`porphyra.tournament.ladder_output`) writes it;
the server reads its ratings as the bots' fixed anchors
(:mod:`porphyra.server.botladder`) and ``porphyra bots`` shows it.  Format 1::

    {"format": 1, "command": "...", "measured": "<date and machine>",
     "model": "openskill PlackettLuce (mu 25, sigma 25/3)", "bots_version": 1,
     "tables": [{"game": "<game id>", "players": 2,
                 "ratings": {"easy": {"mu": 21.0, "sigma": 0.8, "low": 19.5,
                                      "high": 22.6, "games": 400}, ...},
                 "pairs": [{"level": "medium", "against": "easy", "deals": 200,
                            "score": 0.59, "low": 0.55, "high": 0.63}, ...]},
                ...]}

A rating's key is a bot level (``random``, ``easy``, ``medium``, ``hard``) or, at a solo
table, ``legendary:<opponent>`` for a Legendary Opponent.  A solo pair also has
``against_score`` and ``difference``.  ``bots_version`` (absent in a ladder made before it
was recorded) is the :data:`~porphyra.bots.version.BOTS_VERSION` whose games it rates.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

#: The format this module reads and the ladder writes.
FORMAT = 1
#: Prefix of a Legendary Opponent's key in the ladder (``legendary:farmer``).
LEGENDARY_PREFIX = "legendary:"
#: The shipped ladder file (written by the bot ladder).
SHIPPED = Path(__file__).resolve().parent / "data" / "ladder.json"


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
        bots_version: the bots' behaviour version the ladder rates (``None``: not
            recorded).
    """

    tables: dict[tuple[str, int], dict[str, Anchor]] = field(default_factory=dict)
    below: dict[tuple[str, int], dict[str, Below]] = field(default_factory=dict)
    command: str = ""
    measured: str = ""
    model: str = ""
    bots_version: int | None = None


class LadderError(ValueError):
    """A ladder file that does not have the format above (the message says where)."""


def parse_ladder(data: Any) -> Ladder:
    """The :class:`Ladder` of a parsed ladder file.

    Raises:
        LadderError: not format 1, or a table or rating of the wrong shape (a mu or
            sigma that is not a finite number, a sigma not above 0, a bots version that
            is not a positive integer).
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise LadderError(f"the bot ladder is not a format {FORMAT} file")
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
    version = data.get("bots_version")
    if version is not None and (type(version) is not int or version < 1):
        raise LadderError(f"bots_version must be a positive integer, not {version!r}")
    return Ladder(
        tables=tables,
        below=below,
        command=str(data.get("command", "")),
        measured=str(data.get("measured", "")),
        model=str(data.get("model", "")),
        bots_version=version,
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
