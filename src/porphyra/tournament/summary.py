"""Summaries of a tournament: per-entrant and per-table tallies, seat balance, ratings.

Everything is computed from the list of :class:`~porphyra.tournament.runner.GameResult`
in schedule order, so the summary is a pure function of the results.

Ratings use openskill's Plackett-Luce model (Weng and Lin, "A Bayesian approximation
method for online ranking", JMLR 12, 2011): every entrant starts at mu 25, sigma 25/3;
each game updates the ratings of its entrants from their ranks (by returns; equal returns
share a rank), games taken in schedule order.  The ordinal ``mu - 3 sigma`` is a
conservative skill estimate used to order the table.  In the solo mode the Legendary
Opponents are rated as entrants too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from porphyra.tournament.runner import GameResult
from porphyra.tournament.stats import Tally, outcomes, ranks, score_total


def rate(results: Sequence[GameResult]) -> list[dict[str, Any]]:
    """openskill Plackett-Luce ratings of every entrant.

    Args:
        results: game results, in schedule order (the order matters a little: openskill
            updates online).

    Returns:
        ``[{"entrant", "mu", "sigma", "ordinal", "games"}]`` sorted by ordinal, best first
        (ties by name).
    """
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    games: dict[str, int] = {}
    for result in results:
        entrants = result.match.entrants
        for name in entrants:
            if name not in ratings:
                ratings[name] = model.rating(name=name)
                games[name] = 0
            games[name] += 1
        teams = [[ratings[name]] for name in entrants]
        updated = model.rate(teams, ranks=[float(r) for r in ranks(result.entrant_returns)])
        for name, team in zip(entrants, updated, strict=True):
            ratings[name] = team[0]
    rows: list[dict[str, Any]] = [
        {
            "entrant": name,
            "mu": round(float(r.mu), 4),
            "sigma": round(float(r.sigma), 4),
            "ordinal": round(float(r.ordinal()), 4),
            "games": games[name],
        }
        for name, r in ratings.items()
    ]
    rows.sort(key=lambda row: (-float(row["ordinal"]), str(row["entrant"])))
    return rows


def _table_key(result: GameResult) -> tuple[str, ...]:
    """The entrants of a game's table in schedule order (rotation 0 seat order)."""
    entrants = result.match.entrants
    seats = len(result.match.seats)
    r = result.match.rotation
    # Undo the rotation: rotation r seats entrant (s + r) % n in seat s.
    original = [""] * seats
    for s in range(seats):
        original[(s + r) % seats] = entrants[s]
    return (*original, *entrants[seats:])


def summarize(results: Sequence[GameResult]) -> dict[str, Any]:
    """Tables of a tournament.

    Args:
        results: the game results in schedule order.

    Returns:
        ``{"games", "entrants": {name: tally}, "tables": [{"entrants": [...],
        "games", "results": {name: tally}}], "seats": {name: [tally per seat]},
        "ratings": [...], "mean_actions", "mean_duration_s"}``; a tally is
        :meth:`~porphyra.tournament.stats.Tally.to_dict` (win rate with draws counting
        half, Wilson 95% interval, mean score).  ``seats`` covers the bots only.
    """
    overall: dict[str, Tally] = {}
    tables: dict[tuple[str, ...], dict[str, Tally]] = {}
    seats: dict[str, list[Tally]] = {}
    actions = 0
    duration = 0.0
    for result in results:
        entrants = result.match.entrants
        points = outcomes(result.entrant_returns)
        scores = [score_total(s) for s in result.entrant_scores]
        table = tables.setdefault(_table_key(result), {})
        for i, name in enumerate(entrants):
            overall.setdefault(name, Tally()).add(points[i], scores[i])
            table.setdefault(name, Tally()).add(points[i], scores[i])
            if i < len(result.match.seats):
                per_seat = seats.setdefault(name, [Tally() for _ in range(len(result.match.seats))])
                per_seat[i].add(points[i], scores[i])
        actions += result.actions
        duration += result.duration
    count = len(results)
    return {
        "games": count,
        "entrants": {name: tally.to_dict() for name, tally in overall.items()},
        "tables": [
            {
                "entrants": list(key),
                "games": next(iter(tallies.values())).games,
                "results": {name: tally.to_dict() for name, tally in tallies.items()},
            }
            for key, tallies in tables.items()
        ],
        "seats": {name: [t.to_dict() for t in per_seat] for name, per_seat in seats.items()},
        "ratings": rate(results),
        "mean_actions": round(actions / count, 2) if count else 0.0,
        "mean_duration_s": round(duration / count, 4) if count else 0.0,
    }
