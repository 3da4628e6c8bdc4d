"""From a campaign's per-game statistics to the figures of ``summary.json``.

Every figure is computed on **distinct games**, one observation per game: a campaign plays
each distinct game once (:mod:`porphyra.balance.campaign`), and each pairing's figures say
how many distinct games they hold (``distinct_games``, the number of different history
digests, beside ``games``).  The rates, tests and win-rate differences (measured within
games, never shrunk) are :mod:`porphyra.balance.stats`'s; see there for the methods.
"""

from __future__ import annotations

import itertools
import statistics
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any, TypeVar

from porphyra.balance import shape
from porphyra.balance.stats import (
    advantage,
    outcome,
    quartiles,
    rate,
    unpaired_difference,
    within_game,
    within_game_difference,
)


def skill_table(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Who beats whom: for each pair of different bot specs that met, the first one's share
    of results against the second, with its interval and sign test.

    One observation per game: a game's share is the mean, over every seat of the first
    spec and every seat of the second, of 1 (better result), ½ (equal) or 0; it counts as
    a win above ½, a draw at ½ and a loss below, and the share's interval is the Wilson
    interval of the summed shares.
    """
    tally: dict[tuple[str, str], list[float]] = defaultdict(list)
    for r in results:
        seats = r["seats"]
        out = [outcome(r["returns"], s) for s in range(len(seats))]
        for a_spec in sorted(set(seats)):
            for b_spec in sorted(set(seats)):
                if a_spec >= b_spec:
                    continue
                cells = [
                    1.0 if out[a] > out[b] else 0.5 if out[a] == out[b] else 0.0
                    for a in range(len(seats))
                    for b in range(len(seats))
                    if seats[a] == a_spec and seats[b] == b_spec
                ]
                tally[(a_spec, b_spec)].append(statistics.fmean(cells))
    return [
        {
            "bot": a,
            "against": b,
            **advantage(
                sum(v > 0.5 for v in values),
                sum(v == 0.5 for v in values),
                sum(v < 0.5 for v in values),
                points=sum(values),
            ),
        }
        for (a, b), values in sorted(tally.items())
    ]


def distinct_games(results: Sequence[dict[str, Any]]) -> int:
    """How many different games ``results`` holds (different ``digest`` values; a result
    without a digest counts as distinct)."""
    digests = [r.get("digest") for r in results]
    return len({d for d in digests if d is not None}) + sum(d is None for d in digests)


# ----------------------------------------------------------------------------- Byzantium
def byzantium(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Figures of Byzantium games (one pairing): first-Emperor advantage, collapses, curves,
    meld forces and the per-card table."""
    n = len(results)
    first = Counter(outcome(r["returns"], r["first"]) for r in results)
    collapses = [r for r in results if r["collapse"]]
    by_turn = Counter(r["end_turn"] for r in collapses)
    early = sum(1 for r in collapses if r["end_turn"] <= 3)
    tt: dict[int, list[float]] = defaultdict(list)
    lt_first: dict[int, list[float]] = defaultdict(list)
    lt_second: dict[int, list[float]] = defaultdict(list)
    lt_gain: dict[int, list[int]] = defaultdict(list)  # by turn, the Emperor's LT change
    for r in results:
        f = r["first"]
        points = [*r["turns"], {"turn": 13, "tt": r["final"]["tt"], "lt": r["final"]["lt"]}]
        for start, end in itertools.pairwise(points):
            emperor = f if start["turn"] % 2 else 1 - f  # odd turns: the first Emperor's
            lt_gain[start["turn"]].append(end["lt"][emperor] - start["lt"][emperor])
        for point in points:
            if point["turn"] == 13 and r["collapse"]:
                continue
            tt[point["turn"]].append(point["tt"])
            lt_first[point["turn"]].append(point["lt"][f])
            lt_second[point["turn"]].append(point["lt"][1 - f])
    force: dict[str, dict[int, list[int]]] = {
        "byzantine": defaultdict(list),
        "foe": defaultdict(list),
    }
    meld_wins: dict[int, list[int]] = defaultdict(list)
    for r in results:
        for turn, byz, foe, *_ in r["melds"]:
            age = (turn - 1) // 4
            force["byzantine"][age].append(byz)
            force["foe"][age].append(foe)
            meld_wins[turn].append(1 if byz > foe else 0)
    return {
        "games": n,
        "distinct_games": distinct_games(results),
        "first_emperor": advantage(first[1.0], first[0.5], first[0.0]),
        "collapse": rate(len(collapses), n),
        "collapse_by_turn_3": rate(early, n),
        "collapses_by_turn": {str(t): by_turn.get(t, 0) for t in range(1, 13)},
        "full_games": n - len(collapses),
        "mean_actions": round(statistics.fmean(r["actions"] for r in results), 2),
        "curves": {
            "turns": sorted(tt),
            "territory": {str(t): quartiles(v) for t, v in sorted(tt.items())},
            "legacy_first_emperor": {str(t): quartiles(v) for t, v in sorted(lt_first.items())},
            "legacy_second_emperor": {str(t): quartiles(v) for t, v in sorted(lt_second.items())},
        },
        "meld_force": {
            side: {
                age: round(statistics.fmean(v), 2) if v else None
                for age, v in (
                    (a, by_age.get(i, [])) for i, a in enumerate(("early", "middle", "late"))
                )
            }
            for side, by_age in force.items()
        },
        "emperor_wins_meld_by_turn": {
            str(t): rate(sum(v), len(v)) for t, v in sorted(meld_wins.items())
        },
        "emperor_legacy_gain_by_turn": {
            str(t): round(statistics.fmean(v), 3) for t, v in sorted(lt_gain.items())
        },
        "cards": _byzantium_cards(results),
        "shape": shape.shape(results),
    }


def _byzantium_cards(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    slugs = sorted({s for r in results for s in r["cards"]})
    out: dict[str, Any] = {}
    n = len(results)
    for slug in slugs:
        totals = [0, 0, 0, 0]
        first_drawn = 0
        diffs: list[float] = []
        for r in results:
            row = r["cards"].get(slug)
            outcomes = [outcome(r["returns"], seat) for seat in (0, 1)]
            d = within_game(outcomes, [bool(row and row[2][seat]) for seat in (0, 1)])
            if d is not None:
                diffs.append(d)
            if row:
                for seat in (0, 1):
                    for i in range(4):
                        totals[i] += row[i][seat]
                    if seat == r["first"]:
                        first_drawn += row[0][seat]
        out[slug] = {
            "entered_hand": round(totals[0] / n, 3),
            "first_emperor_share": round(first_drawn / totals[0], 3) if totals[0] else None,
            "redrawn": round(totals[1] / n, 3),
            "melded": round(totals[2] / n, 3),
            "passed": round(totals[3] / n, 3),
            "win_rate_difference": within_game_difference(diffs),
        }
    return out


# ----------------------------------------------------------------------------- Conspiracy
def conspiracy(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Figures of Conspiracy games (one pairing): seat-order advantage (by position after
    the first player), solo win rates per Legendary Opponent, the end trigger, points by
    category, and win-rate differences per Location and per lord value."""
    n = len(results)
    out: dict[str, Any] = {"games": n, "distinct_games": distinct_games(results)}
    if results and results[0]["solo"]:
        per_lo: dict[str, list[float]] = defaultdict(list)
        for r in results:
            per_lo[r["opponent"]].append(
                outcome(r["returns"], 0)
                if len(r["returns"]) > 1
                else (1.0 if r["returns"][0] > 0 else 0.0)
            )
        out["solo"] = {lo: rate(sum(v), len(v)) for lo, v in sorted(per_lo.items())}
    else:
        players = results[0]["players"] if results else 0
        position: dict[int, Counter[float]] = defaultdict(Counter)
        for r in results:
            for seat in range(players):
                position[(seat - r["first"]) % players][outcome(r["returns"], seat)] += 1
        out["seat_order"] = {
            str(pos + 1): advantage(c[1.0], c[0.5], c[0.0]) for pos, c in sorted(position.items())
        }
        out["seat_order_note"] = (
            f"position 1 plays first; with {players} players a fair share is "
            f"{round(1 / players, 4) if players else None}"
        )
    out["end_turn"] = {
        str(t): c for t, c in sorted(Counter(r["end_turn"] for r in results).items())
    }
    categories: dict[str, list[float]] = defaultdict(list)
    all_locs = sorted({slug for r in results for locs in r["locations"] for slug in locs})
    all_values = sorted({v for r in results for ch in r["lord_values"] for v in ch})
    solo = bool(results and results[0]["solo"])
    # solo: (results with, results without) over games; else: within-game d per game
    loc_pairs: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k in all_locs}
    value_pairs: dict[int, tuple[list[float], list[float]]] = {v: ([], []) for v in all_values}
    loc_diffs: dict[str, list[float]] = {k: [] for k in all_locs}
    value_diffs: dict[int, list[float]] = {v: [] for v in all_values}
    for r in results:
        seats = len(r["locations"])
        outcomes = []
        for seat in range(seats):
            score = r["scores"][seat]
            if isinstance(score, dict):
                for key, value in score.items():
                    if isinstance(value, int | float) and not isinstance(value, bool):
                        categories[key].append(float(value))
            o = outcome(r["returns"], seat) if len(r["returns"]) > 1 else float(r["returns"][0] > 0)
            outcomes.append(o)
        _tally(all_locs, r["locations"], outcomes, solo, loc_pairs, loc_diffs)
        _tally(all_values, r["lord_values"], outcomes, solo, value_pairs, value_diffs)
    out["points_by_category"] = {
        k: round(statistics.fmean(v), 2) for k, v in sorted(categories.items())
    }
    if solo:
        out["locations"] = {k: unpaired_difference(*p) for k, p in loc_pairs.items()}
        out["lord_values"] = {str(v): unpaired_difference(*p) for v, p in value_pairs.items()}
    else:
        out["locations"] = {k: within_game_difference(d) for k, d in loc_diffs.items()}
        out["lord_values"] = {str(v): within_game_difference(d) for v, d in value_diffs.items()}
    return out


K = TypeVar("K")


def _tally(
    keys: Sequence[K],
    held: Sequence[Sequence[K]],
    outcomes: Sequence[float],
    solo: bool,
    pairs: dict[K, tuple[list[float], list[float]]],
    diffs: dict[K, list[float]],
) -> None:
    """Add one game to the with/without results (solo) or the within-game ``d`` of each
    key; ``held[seat]`` lists the keys a seat holds."""
    for key in keys:
        has = [key in held[seat] for seat in range(len(outcomes))]
        if solo:
            pairs[key][0 if has[0] else 1].append(outcomes[0])
        elif (d := within_game(outcomes, has)) is not None:
            diffs[key].append(d)


def summarize(game: str, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one pairing's games for ``game``.

    Raises:
        ValueError: an unknown game or no results.
    """
    if not results:
        raise ValueError("no games to summarize")
    from porphyra.balance.hooks import balance_hooks

    return balance_hooks(game).summarize(results)
