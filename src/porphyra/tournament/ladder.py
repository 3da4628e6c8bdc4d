"""The bot ladder: one rating scale for the bot levels of each game (issue 31).

For each table (Byzantium 2 players, Conspiracy 2 players, Conspiracy solo) the levels
``random``, ``easy``, ``medium`` and ``hard`` play **paired games** and are rated with the
tournament's openskill Plackett-Luce code (:func:`porphyra.tournament.summary.rate`):

- **2 players**: each pair of levels at most ``max_gap`` steps apart on the ladder plays
  every deal twice, seats swapped (:func:`porphyra.tournament.schedule.round_robin` with the
  pair as its bots), so both see each deal from both sides.  Every pair plays the same
  deals: deal ``d`` has seed ``seed + d``.
- **Solo**: each level plays each Legendary Opponent on the same seeds
  (:func:`~porphyra.tournament.schedule.solo_schedule`); the Opponents are rated as entrants
  (``legendary:<opponent>``).

**Budgets.** ``medium`` and ``hard`` are searches with time budgets (0.5 s and 2 s a move):
on a busy machine they run fewer iterations and play weaker than on a player's.  The ladder
plays them at the iteration counts those seconds give on an idle core
(:data:`LADDER_BUDGETS`, measured with ``docs/results/calibrate_ismcts.py``), so a ladder is
reproducible: the same seeds and budgets give the same games on any machine and any number
of workers.

**Intervals.** openskill's sigma treats every game as independent news, so it shrinks with
the number of games whatever they say, and the two games of a deal are not independent (the
same cards).  The interval therefore comes from a bootstrap over deals: the deals are resampled with
replacement (all the games of a drawn deal kept together, within groups of deals that the
same tables played), the ratings are recomputed, and the 2.5th and 97.5th percentiles of
each entrant's ``mu`` bound it.  A group of one or two deals (``hard`` in a short ladder)
hardly varies when resampled, so the interval is the wider of that one and ``mu ± 2
sigma``: never narrower than the model's own uncertainty.  The bootstrap is seeded from the
ladder's seed, so the whole ladder reproduces.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from porphyra.bots.ladder_file import LEGENDARY_PREFIX
from porphyra.bots.version import BOTS_VERSION
from porphyra.core.registry import adapter, game_info, games_with, load_game
from porphyra.tournament.ladder_hooks import LadderHooks
from porphyra.tournament.ladder_pairs import entrant_level, solo_pairs, two_player_pairs
from porphyra.tournament.output import bots_versions
from porphyra.tournament.runner import GameResult, ProgressCallback, run_matches
from porphyra.tournament.schedule import (
    LEGENDARY_OPPONENTS,
    Match,
    round_robin,
    solo_schedule,
)
from porphyra.tournament.summary import rate, summarize

#: The bot levels, weakest first (the server's bot seat names).
LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard")


def _hooks(game: str) -> LadderHooks:
    """``game``'s ladder hooks (the registry's ``"ladder"`` adapter)."""
    hooks = adapter(game, "ladder")
    if not isinstance(hooks, LadderHooks):
        raise TypeError(f"{game}'s ladder adapter is {hooks!r}, not LadderHooks")
    return hooks


#: Iterations a move that stand for ``medium`` (0.5 s) and ``hard`` (2 s) in the ladder,
#: by game: what each game registers (:class:`~porphyra.tournament.ladder_hooks.LadderHooks`,
#: measured with ``calibrate_ismcts.py``; see docs/bots.md).
LADDER_BUDGETS: dict[str, dict[str, int]] = {
    game: dict(_hooks(game).budgets) for game in games_with("ladder")
}

#: The ladder's tables: ``(name, game, players)``; players 1 is the solo mode (its table is
#: called ``solo``), any other count the game's own name.
TABLES: tuple[tuple[str, str, int], ...] = tuple(
    ("solo" if players == 1 else game, game, players)
    for game in games_with("ladder")
    for players in _hooks(game).player_counts
)

#: The rating model, as the shipped file names it.
MODEL = "openskill PlackettLuce (mu 25, sigma 25/3)"


@dataclass(frozen=True)
class LadderConfig:
    """What a ladder plays.

    Attributes:
        seed: seed of deal 0; deal ``d`` of every table uses ``seed + d``.
        deals: deals of each pair of levels in a 2-player table (each played twice).
        solo_deals: deals of each level against each Legendary Opponent.
        hard_deals: deals of every 2-player pairing that includes ``hard`` (0: no ``hard``).
        solo_hard_deals: deals of ``hard`` against each Legendary Opponent (None: as
            ``hard_deals``; a search at ``hard``'s budget costs four times ``medium``).
        max_gap: 2-player pairs are levels at most this many steps apart (1: neighbours).
        budgets: iterations a move of ``medium`` and ``hard`` for each game.
        tables: the names of :data:`TABLES` to play.
        workers: processes (≥ 1).
        bootstrap: bootstrap resamples for the intervals (≥ 1).
    """

    seed: int = 41_000_000
    deals: int = 100
    solo_deals: int = 40
    hard_deals: int = 20
    solo_hard_deals: int | None = None
    max_gap: int = 1
    budgets: dict[str, dict[str, int]] = field(
        default_factory=lambda: {g: dict(b) for g, b in LADDER_BUDGETS.items()}
    )
    tables: tuple[str, ...] = tuple(name for name, _, _ in TABLES)
    workers: int = 1
    bootstrap: int = 200

    def __post_init__(self) -> None:
        for name, value in (("deals", self.deals), ("solo_deals", self.solo_deals)):
            if value < 1:
                raise ValueError(f"{name} must be at least 1, not {value}")
        if self.hard_deals < 0:
            raise ValueError(f"hard_deals must be at least 0, not {self.hard_deals}")
        if self.solo_hard_deals is not None and self.solo_hard_deals < 0:
            raise ValueError(f"solo_hard_deals must be at least 0, not {self.solo_hard_deals}")
        if self.max_gap < 1:
            raise ValueError(f"max_gap must be at least 1, not {self.max_gap}")
        if self.bootstrap < 1:
            raise ValueError(f"bootstrap must be at least 1, not {self.bootstrap}")
        known = [name for name, _, _ in TABLES]
        for table in self.tables:
            if table not in known:
                raise ValueError(f"unknown ladder table {table!r}; tables: {', '.join(known)}")


def level_spec(level: str, game: str, budgets: dict[str, dict[str, int]]) -> str:
    """The bot spec that plays ``level`` in ``game``: ``medium`` and ``hard`` at their
    iteration budget, time budget off (``medium:seconds=none,iterations=1500``).

    Raises:
        KeyError: no budget for a search level in ``game``.
    """
    if level in ("medium", "hard"):
        return f"{level}:seconds=none,iterations={budgets[game][level]}"
    return level


def _levels(config: LadderConfig) -> tuple[str, ...]:
    """The levels that play: ``hard`` only with ``hard_deals`` > 0."""
    return tuple(level for level in LEVELS if level != "hard" or config.hard_deals > 0)


def schedule(config: LadderConfig) -> list[Match]:
    """Every game of the ladder, table by table; ``game_id`` and ``table`` count over the
    whole ladder (each pairing is a table).

    Returns:
        The matches; a match's ``options`` hold ``players`` (and ``opponent`` in solo).
    """
    matches: list[Match] = []
    levels = _levels(config)
    for name, game, players in TABLES:
        if name not in config.tables:
            continue
        part: list[Match] = []
        if players == 1:
            for level in levels:
                deals = config.solo_deals
                if level == "hard":
                    deals = config.hard_deals
                    if config.solo_hard_deals is not None:
                        deals = config.solo_hard_deals
                if deals == 0:
                    continue
                spec = level_spec(level, game, config.budgets)
                part += solo_schedule(game, {}, [spec], LEGENDARY_OPPONENTS, deals, config.seed)
        else:
            for a, b in itertools.combinations(range(len(levels)), 2):
                if b - a > config.max_gap:
                    continue
                pair = [level_spec(levels[i], game, config.budgets) for i in (a, b)]
                hard = "hard" in (levels[a], levels[b])
                deals = config.hard_deals if hard else config.deals
                info = game_info(game)
                count = {"players": players} if info.min_players != info.max_players else {}
                options = load_game(game, **count)
                part += round_robin(game, options.record_options(), pair, 2, 2 * deals, config.seed)
        base = 1 + max((m.table for m in matches), default=-1)
        tables: dict[tuple[int, str | None, tuple[str, ...]], int] = {}
        for m in part:
            key = (m.table, m.opponent, tuple(sorted(m.seats)))
            table = tables.setdefault(key, base + len(tables))
            matches.append(dataclasses.replace(m, game_id=len(matches), table=table))
    return matches


def table_of(match: Match) -> str:
    """The ladder table (a name of :data:`TABLES`) a match belongs to."""
    if match.opponent is not None:
        return "solo"
    return match.game


def _order(key: str) -> int:
    """Where a ladder key is listed: the levels weakest first, then the Opponents."""
    order = [*LEVELS, *(LEGENDARY_PREFIX + lo for lo in LEGENDARY_OPPONENTS)]
    return order.index(key) if key in order else len(order)


def _in_order(games: Sequence[GameResult]) -> list[GameResult]:
    """``games`` in a canonical order (table, seed, seat rotation), whatever their order
    in the input: the ratings then depend on the games only."""
    return sorted(games, key=lambda r: (r.match.table, r.match.seed, r.match.rotation))


def _shuffled(results: Sequence[GameResult], rng: random.Random) -> list[GameResult]:
    """``results`` with the deals (of every table) in a random order, each deal's games
    together."""
    groups: dict[tuple[int, int], list[GameResult]] = {}
    for result in _in_order(results):
        groups.setdefault((result.match.table, result.match.seed), []).append(result)
    deals = list(groups.values())
    rng.shuffle(deals)
    return [game for deal in deals for game in deal]


def _resample(results: Sequence[GameResult], rng: random.Random) -> list[GameResult]:
    """One bootstrap sample over deals: the deals (seeds) are drawn with replacement within
    groups of deals played by the same tables, each drawn deal bringing all its games; the
    deals then in a random order (:data:`ORDERS`)."""
    by_seed: dict[int, list[GameResult]] = {}
    for result in _in_order(results):
        by_seed.setdefault(result.match.seed, []).append(result)
    groups: dict[tuple[int, ...], list[int]] = {}
    for seed in sorted(by_seed):
        tables = tuple(sorted({r.match.table for r in by_seed[seed]}))
        groups.setdefault(tables, []).append(seed)
    drawn: list[list[GameResult]] = []
    for _, seeds in sorted(groups.items()):
        for _ in seeds:
            drawn.append(by_seed[rng.choice(seeds)])
    rng.shuffle(drawn)
    return [game for deal in drawn for game in deal]


def _percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, linear between order statistics."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    low = int(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


#: Random orders of the deals whose openskill ratings are averaged (:func:`ladder_ratings`).
ORDERS = 50


def ladder_ratings(
    results: Sequence[GameResult], bootstrap: int, seed: int
) -> dict[str, dict[str, Any]]:
    """The ratings of one table's entrants, with bootstrap intervals over deals.

    openskill updates online, one game after the other, and its ratings depend on the
    order of the games: rated table after table (every ``random``-``easy`` game, then every
    ``easy``-``medium`` one), Byzantium's ``easy`` came out above ``medium`` although
    ``medium`` wins 59% of their games.  So the ratings are the mean over :data:`ORDERS`
    random orders of the deals (each deal's games together), and each bootstrap sample is
    rated in a random order too, so that the interval holds the order's noise.

    Args:
        results: the table's games.
        bootstrap: resamples (≥ 1).
        seed: seed of the orders' and the bootstrap's generator.

    Returns:
        ``{key: {"mu", "sigma", "low", "high", "games"}}`` (keys from
        :func:`entrant_level`, in the order of :data:`LEVELS`, then the Opponents): ``mu``
        and ``sigma`` the means over the orders; ``low``/``high`` the wider of
        ``mu ± 2 sigma`` and the 2.5th and 97.5th percentiles of ``mu`` over the resamples
        (the bootstrap sees deals kept together, sigma the few games of a rare pairing,
        whose group of deals may be too small to resample); ``games`` the number of
        distinct games the entrant played.
    """
    rng = random.Random(seed)
    runs: dict[str, list[dict[str, Any]]] = {}
    for _ in range(ORDERS):
        for row in rate(_shuffled(results, rng)):
            runs.setdefault(row["entrant"], []).append(row)
    full = {
        name: {
            "mu": statistics.fmean(float(r["mu"]) for r in rows),
            "sigma": statistics.fmean(float(r["sigma"]) for r in rows),
            "games": rows[0]["games"],
        }
        for name, rows in runs.items()
    }
    samples: dict[str, list[float]] = {name: [] for name in full}
    for _ in range(bootstrap):
        for row in rate(_resample(results, rng)):
            samples[row["entrant"]].append(float(row["mu"]))
    ratings: dict[str, dict[str, Any]] = {}
    for name, row in sorted(full.items(), key=lambda item: _order(entrant_level(item[0]))):
        mu, sigma = float(row["mu"]), float(row["sigma"])
        mus = samples[name] or [mu]
        ratings[entrant_level(name)] = {
            "mu": round(mu, 2),
            "sigma": round(sigma, 2),
            "low": round(min(_percentile(mus, 0.025), mu - 2 * sigma), 2),
            "high": round(max(_percentile(mus, 0.975), mu + 2 * sigma), 2),
            "games": int(row["games"]),
        }
    return ratings


def _game_key(match: Match) -> str:
    """What makes a game the same game in two runs: game, options, seats, seed."""
    return json.dumps(
        [match.game, match.options, list(match.seats), match.seed, match.opponent],
        sort_keys=True,
    )


def run_ladder(
    config: LadderConfig,
    progress: ProgressCallback | None = None,
    reuse: Sequence[GameResult] = (),
) -> tuple[list[dict[str, Any]], list[GameResult]]:
    """Play the ladder and rate each table.

    Args:
        config: what to play.
        progress: called with the number of newly finished games.
        reuse: results of an earlier run (its ``games.csv``, read back): a scheduled game
            with the same game, options, seats and seed is taken from there instead of
            played again.  Games at iteration budgets are deterministic, so the ladder is
            the one a full run gives; this extends a ladder with more deals at the cost of
            the new games only.  Only games of this :data:`BOTS_VERSION` (or of a file
            that records none) are reused.

    Returns:
        ``(tables, results)``: per table ``{"table", "game", "players", "ratings", "pairs",
        "summary"}`` (``ratings`` as :func:`ladder_ratings`, ``pairs`` each level against
        the one below over paired deals, :mod:`porphyra.tournament.ladder_pairs`,
        ``summary`` the tournament's :func:`~porphyra.tournament.summary.summarize` of its
        games), and every game's result in schedule order.

    Raises:
        RuntimeError: a game failed.
        ValueError: ``reuse`` holds games of another bots version.
    """
    other = bots_versions(reuse) - {BOTS_VERSION}
    if other:
        raise ValueError(
            f"the games to reuse were played by bots version "
            f"{', '.join(map(str, sorted(other)))}, these bots are version {BOTS_VERSION}: "
            "a ladder of both would mix two different bots under one name"
        )
    matches = schedule(config)
    known = {_game_key(r.match): r for r in reuse}
    fresh = [m for m in matches if _game_key(m) not in known]
    played = iter(run_matches(fresh, config.workers, progress))
    results = [
        dataclasses.replace(known[key], match=m) if key in known else next(played)
        for m in matches
        for key in [_game_key(m)]
    ]
    tables: list[dict[str, Any]] = []
    for index, (name, game, players) in enumerate(TABLES):
        part = [r for r in results if table_of(r.match) == name]
        if not part:
            continue
        tables.append(
            {
                "table": name,
                "game": game,
                "players": players,
                "ratings": ladder_ratings(part, config.bootstrap, config.seed + index),
                "pairs": (solo_pairs if players == 1 else two_player_pairs)(
                    part, LEVELS, config.seed + index
                ),
                "summary": summarize(part),
            }
        )
    return tables, results
