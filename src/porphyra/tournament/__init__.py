"""Round-robin bot tournaments: schedule, parallel play, win rates with 95% intervals,
openskill ratings and results files.

The pieces, each usable alone:

- :mod:`porphyra.tournament.schedule` (module): which bots meet, seats rotated, mirrored deals;
- :mod:`~porphyra.tournament.runner`: play the games in this process or over workers;
- :mod:`~porphyra.tournament.stats`: outcomes, Wilson intervals, tallies;
- :mod:`~porphyra.tournament.summary`: per-bot and per-table tables, openskill ratings;
- :mod:`~porphyra.tournament.output`: ``games.csv``, ``summary.json`` and records.

:func:`tournament` ties them together (the ``porphyra tournament`` command uses it).

Example (two random bots, Byzantium, 4 games: 2 deals × 2 seat orders)::

    >>> from porphyra.tournament import TournamentConfig, tournament
    >>> summary, results = tournament(TournamentConfig("byzantium", ["random", "bot"], games=4))
    >>> summary["games"], [m.match.seats for m in results[:2]]
    (4, [('random', 'bot'), ('bot', 'random')])
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from porphyra.bots.version import BOTS_VERSION
from porphyra.core.registry import load_game
from porphyra.tournament.runner import GameResult, ProgressCallback, play_match, run_matches
from porphyra.tournament.schedule import (
    LEGENDARY_OPPONENTS,
    LO_PREFIX,
    Match,
    rotations,
    round_robin,
    solo_schedule,
)
from porphyra.tournament.stats import Tally, outcomes, ranks, score_total, wilson_interval
from porphyra.tournament.summary import rate, summarize


@dataclass
class TournamentConfig:
    """What to play.

    Attributes:
        game: registry name.
        bots: distinct bot specs (``"random"``, ``"ismcts:iterations=200"``).
        games: games per table (each pair or combination of bots; in the solo mode each
            bot against each LO); a multiple of the seat count outside the solo mode.
        seed: seed of the first deal.
        workers: processes (≥ 1).
        options: ``load_game`` options (``players`` for Conspiracy; the solo mode sets
            ``players=1`` and ``opponent`` itself).
        opponents: the solo mode's Legendary Opponents, or ``None`` for a normal
            round robin.
        records: keep each game's record.
        ray: run on Ray instead of local processes: ``"local"`` or a cluster address
            (the ``scale`` extra); the results are those of a local run.
    """

    game: str
    bots: list[str]
    games: int = 100
    seed: int = 0
    workers: int = 1
    options: dict[str, Any] = field(default_factory=dict)
    opponents: list[str] | None = None
    records: bool = False
    ray: str | None = None


def build_schedule(config: TournamentConfig) -> list[Match]:
    """The matches of ``config``.

    Raises:
        ValueError: bad bot list or game count (see :func:`round_robin`,
            :func:`solo_schedule`).
        UnknownGameError: the game or an option is unknown (in the solo mode: the solo
            mode does not exist in this version, or an unknown LO).
    """
    if config.opponents is not None:
        for lo in config.opponents:
            load_game(config.game, **{**config.options, "players": 1, "opponent": lo})
        return solo_schedule(
            config.game, config.options, config.bots, config.opponents, config.games, config.seed
        )
    game = load_game(config.game, **config.options)
    return round_robin(
        config.game,
        game.record_options(),
        config.bots,
        game.num_players,
        config.games,
        config.seed,
    )


def tournament(
    config: TournamentConfig,
    progress: ProgressCallback | None = None,
    matches: list[Match] | None = None,
) -> tuple[dict[str, Any], list[GameResult]]:
    """Play a tournament and summarize it.

    Args:
        config: what to play.
        progress: called with the number of finished games after each one.
        matches: the schedule if already built (default: :func:`build_schedule` of ``config``).

    Returns:
        ``(summary, results)``: the :func:`summarize` tables plus ``"parameters"`` (the
        config), ``"bots_version"`` (:data:`~porphyra.bots.version.BOTS_VERSION`) and
        ``"elapsed_s"`` (wall-clock seconds), and the results in schedule order.

    Raises:
        ValueError / UnknownGameError: as :func:`build_schedule`.
        RuntimeError: a game failed.
    """
    if matches is None:
        matches = build_schedule(config)
    start = time.perf_counter()
    results = run_matches(matches, config.workers, progress, config.records, config.ray)
    summary = summarize(results)
    summary["parameters"] = asdict(config)
    summary["bots_version"] = BOTS_VERSION
    summary["elapsed_s"] = round(time.perf_counter() - start, 2)
    return summary, results


__all__ = [
    "LEGENDARY_OPPONENTS",
    "LO_PREFIX",
    "GameResult",
    "Match",
    "Tally",
    "TournamentConfig",
    "build_schedule",
    "outcomes",
    "play_match",
    "ranks",
    "rate",
    "rotations",
    "round_robin",
    "run_matches",
    "score_total",
    "solo_schedule",
    "summarize",
    "tournament",
    "wilson_interval",
]
