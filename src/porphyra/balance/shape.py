"""Game-shape figures of Byzantium games: does the game stay open to the end?

From the per-game statistics of :mod:`porphyra.balance.collect`, for one pairing's games:

- ``turns_played``: the turn each game ended on (12 for a full game), mean and quartiles;
- ``leader_wins``: among the games still running after turn 4 (8) in which one seat had
  more Legacy Tokens (LT) than the other, the share the leader won (draws ½), and the same
  for a lead of 3 LT or more after turn 8; Wilson intervals, one game one observation;
- ``lead_changes``: per game, how often the LT leader (ties skipped) changed between the
  start of one turn and the next (the end of the game included), mean with a normal 95%
  interval;
- ``legacy_sources``: per game, the LT the Emperors gained from melded Legacy cards and
  the net LT meld results gave each seat (its +1 for Territory gained and -1 for Territory
  lost, B-R5/B-R6, summed over the game and taken in absolute value), both seats added;
  means with normal intervals, and the ratio of the two means (results over Legacy cards).
  A turn's results are read off the Emperor's LT change over the turn less the turn's
  melded legacy values; a collapse's penalty (B-R7) is neither;
- ``emperor_meld_wins_by_age``: the share of melds the Byzantine meld won, per Age
  (decisions of one game are not independent: the interval is indicative);
- ``collapse_timing``: the share of games that collapsed in each Age;
- ``decisions``: per decision type, the number of decisions, the mean number of legal
  options and the share of choices other than the obvious one (defined in
  :mod:`porphyra.balance.collect`; descriptive, no interval: decisions of a game are not
  independent).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from porphyra.balance.stats import outcome, quartiles, rate
from porphyra.tournament.stats import Z95

AGES = ("early", "middle", "late")


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """``{"mean", "ci95", "n"}``: the mean with its normal 95% interval (``None``s if
    empty)."""
    n = len(values)
    if n == 0:
        return {"mean": None, "ci95": None, "n": 0}
    m = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(n) if n > 1 else math.inf
    lo, hi = (m - half, m + half) if math.isfinite(half) else (None, None)
    return {
        "mean": round(m, 3),
        "ci95": None if lo is None or hi is None else [round(lo, 3), round(hi, 3)],
        "n": n,
    }


def _points(r: dict[str, Any]) -> list[dict[str, Any]]:
    """LT at the start of each turn and at the end (turn 13 for a full game)."""
    end = r["end_turn"] + 1
    return [*r["turns"], {"turn": end, "tt": r["final"]["tt"], "lt": r["final"]["lt"]}]


def _leader(lt: Sequence[int], by: int = 1) -> int | None:
    if lt[0] - lt[1] >= by:
        return 0
    if lt[1] - lt[0] >= by:
        return 1
    return None


def _lt_at(r: dict[str, Any], turn: int) -> list[int] | None:
    """LT at the start of ``turn`` (after turn ``turn - 1``), ``None`` if it never began."""
    for point in r["turns"]:
        if point["turn"] == turn:
            return list(point["lt"])
    if not r["collapse"] and turn == 13:
        return list(r["final"]["lt"])
    return None


def _leader_rate(results: Sequence[dict[str, Any]], after: int, by: int) -> dict[str, Any]:
    won = []
    for r in results:
        lt = _lt_at(r, after + 1)
        leader = None if lt is None else _leader(lt, by)
        if leader is not None:
            won.append(outcome(r["returns"], leader))
    return rate(sum(won), len(won))


def lead_changes(r: dict[str, Any]) -> int:
    """How often the LT leader (ties skipped) changed over one game."""
    leaders = [x for x in (_leader(p["lt"]) for p in _points(r)) if x is not None]
    return sum(1 for a, b in itertools.pairwise(leaders) if a != b)


def legacy_sources(r: dict[str, Any]) -> tuple[int, int]:
    """(LT from melded Legacy cards, |net LT from meld results| per seat, summed) of a
    game."""
    legacy_of = {m[0]: (m[3] if len(m) > 3 else 0) for m in r["melds"]}
    cards = 0
    net = [0, 0]
    for start, end in itertools.pairwise(_points(r)):
        turn = start["turn"]
        if r["collapse"] and turn == r["end_turn"]:
            continue  # no Legacy phase; the collapse penalty is neither source
        emperor = r["first"] if turn % 2 else 1 - r["first"]
        legacy = legacy_of.get(turn, 0)
        cards += legacy
        net[emperor] += end["lt"][emperor] - start["lt"][emperor] - legacy
    return cards, abs(net[0]) + abs(net[1])


def shape(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The game-shape figures of one pairing's Byzantium games (module docstring)."""
    sources = [legacy_sources(r) for r in results]
    from_cards = mean_ci([float(c) for c, _ in sources])
    from_results = mean_ci([float(n) for _, n in sources])
    meld_wins: dict[str, list[int]] = defaultdict(list)
    for r in results:
        for m in r["melds"]:
            meld_wins[AGES[min(2, (m[0] - 1) // 4)]].append(1 if m[1] > m[2] else 0)
    collapse_age: dict[str, int] = defaultdict(int)
    for r in results:
        if r["collapse"]:
            collapse_age[AGES[min(2, (r["end_turn"] - 1) // 4)]] += 1
    decisions: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in results:
        for key, row in r.get("decisions", {}).items():
            for i in range(3):
                decisions[key][i] += row[i]
    n = len(results)
    return {
        "turns_played": {
            "mean": round(statistics.fmean(r["end_turn"] for r in results), 3) if n else None,
            "quartiles": quartiles(float(r["end_turn"]) for r in results),
        },
        "leader_wins": {
            "after_turn_4": _leader_rate(results, 4, 1),
            "after_turn_8": _leader_rate(results, 8, 1),
            "after_turn_8_by_3": _leader_rate(results, 8, 3),
        },
        "lead_changes": mean_ci([float(lead_changes(r)) for r in results]),
        "legacy_sources": {
            "melded_legacy_cards": from_cards,
            "meld_results_net": from_results,
            "ratio": (
                round(from_results["mean"] / from_cards["mean"], 3) if from_cards["mean"] else None
            ),
        },
        "emperor_meld_wins_by_age": {
            age: rate(sum(meld_wins[age]), len(meld_wins[age])) for age in AGES
        },
        "collapse_timing": {age: rate(collapse_age[age], n) for age in AGES},
        "decisions": {
            key: {
                "decisions": d,
                "mean_options": round(o / d, 2) if d else None,
                "not_obvious": round(x / d, 4) if d else None,
            }
            for key, (d, o, x) in sorted(decisions.items())
        },
    }
