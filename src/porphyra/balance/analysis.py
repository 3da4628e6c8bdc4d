"""From a campaign's per-game statistics to the figures of ``summary.json``.

Every rate comes with its Wilson 95% interval (:func:`porphyra.tournament.stats.wilson_interval`);
a seat or role advantage also gets a two-sided exact binomial test of "no advantage" on the
decided games (draws left out: a sign test, :func:`scipy.stats.binomtest`).

Win-rate difference of a card (or a Location, a lord value): among the seat-games in which
the card was melded (owned, held) and those in which it was not, the difference of the mean
result (win 1, draw ½, loss 0) with a normal 95% interval, **shrunk toward zero** by the
factor ``n / (n + SHRINK_PRIOR)``, where ``n`` is the smaller of the two sample sizes: a
card seen in few games cannot show a large difference by chance alone.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from porphyra.core.outcome import top_seats
from porphyra.tournament.stats import Z95, wilson_interval

#: Pseudo-count of the shrinkage of win-rate differences (seat-games).
SHRINK_PRIOR = 100


def rate(successes: float, trials: int) -> dict[str, Any]:
    """``{"rate", "ci95": [low, high], "n"}`` of a proportion (draws may count ½)."""
    low, high = wilson_interval(successes, trials)
    return {
        "rate": round(successes / trials, 4) if trials else None,
        "ci95": [round(low, 4), round(high, 4)],
        "n": trials,
    }


def advantage(wins: int, draws: int, losses: int) -> dict[str, Any]:
    """A seat's or role's share of results (win 1, draw ½) with its interval, and the
    p-value of an exact binomial test of wins against losses (no advantage: ½)."""
    from scipy.stats import binomtest  # type: ignore[import-untyped]

    n = wins + draws + losses
    decided = wins + losses
    p_value = binomtest(wins, decided, 0.5).pvalue if decided else 1.0
    return {
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "share": rate(wins + draws / 2, n),
        "p_value": float(f"{p_value:.4g}"),
    }


def outcome(returns: Sequence[float], seat: int) -> float:
    """1 for a win, ½ for a draw (equal best returns), 0 for a loss, of ``seat``."""
    top = top_seats(returns)
    if seat not in top:
        return 0.0
    return 1.0 if len(top) == 1 else 0.5


def difference(with_: Sequence[float], without: Sequence[float]) -> dict[str, Any]:
    """Shrunk difference of mean results (see the module docstring) with its interval."""
    n1, n2 = len(with_), len(without)
    if n1 < 2 or n2 < 2:
        return {"diff": None, "ci95": None, "n_with": n1, "n_without": n2}
    m1, m2 = statistics.fmean(with_), statistics.fmean(without)
    se = math.sqrt(statistics.variance(with_) / n1 + statistics.variance(without) / n2)
    shrink = min(n1, n2) / (min(n1, n2) + SHRINK_PRIOR)
    d = (m1 - m2) * shrink
    return {
        "diff": round(d, 4),
        "ci95": [round(d - Z95 * se * shrink, 4), round(d + Z95 * se * shrink, 4)],
        "raw": round(m1 - m2, 4),
        "n_with": n1,
        "n_without": n2,
    }


def quartiles(values: Iterable[float]) -> list[float] | None:
    """``[q1, median, q3]`` of ``values`` (``None`` if empty)."""
    data = sorted(values)
    if not data:
        return None
    if len(data) == 1:
        return [data[0]] * 3
    q = statistics.quantiles(data, n=4, method="inclusive")
    return [round(q[0], 2), round(q[1], 2), round(q[2], 2)]


def skill_table(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Who beats whom: for each pair of different bot specs that met, the first one's share
    of results against the second, with its interval and sign test."""
    tally: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in results:
        seats = r["seats"]
        for a in range(len(seats)):
            for b in range(len(seats)):
                if seats[a] == seats[b]:
                    continue
                oa, ob = outcome(r["returns"], a), outcome(r["returns"], b)
                cell = tally[(seats[a], seats[b])]
                cell[0 if oa > ob else 1 if oa == ob else 2] += 1
    return [
        {"bot": a, "against": b, **advantage(*counts)}
        for (a, b), counts in sorted(tally.items())
        if a < b
    ]


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
        for turn, byz, foe in r["melds"]:
            age = (turn - 1) // 4
            force["byzantine"][age].append(byz)
            force["foe"][age].append(foe)
            meld_wins[turn].append(1 if byz > foe else 0)
    return {
        "games": n,
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
    }


def _byzantium_cards(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    slugs = sorted({s for r in results for s in r["cards"]})
    out: dict[str, Any] = {}
    n = len(results)
    for slug in slugs:
        totals = [0, 0, 0, 0]
        first_drawn = 0
        with_: list[float] = []
        without: list[float] = []
        for r in results:
            row = r["cards"].get(slug)
            for seat in (0, 1):
                o = outcome(r["returns"], seat)
                melded = bool(row and row[2][seat])
                (with_ if melded else without).append(o)
                if row:
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
            "win_rate_difference": difference(with_, without),
        }
    return out


# ----------------------------------------------------------------------------- Conspiracy
def conspiracy(results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Figures of Conspiracy games (one pairing): seat-order advantage (by position after
    the first player), solo win rates per Legendary Opponent, the end trigger, points by
    category, and win-rate differences per Location and per lord value."""
    n = len(results)
    out: dict[str, Any] = {"games": n}
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
    locations: dict[str, tuple[list[float], list[float]]] = {}
    values: dict[int, tuple[list[float], list[float]]] = {}
    all_locs = sorted({slug for r in results for locs in r["locations"] for slug in locs})
    all_values = sorted({v for r in results for ch in r["lord_values"] for v in ch})
    for r in results:
        seats = len(r["locations"])
        for seat in range(seats):
            score = r["scores"][seat]
            if isinstance(score, dict):
                for key, value in score.items():
                    if isinstance(value, int | float) and not isinstance(value, bool):
                        categories[key].append(float(value))
            o = outcome(r["returns"], seat) if len(r["returns"]) > 1 else float(r["returns"][0] > 0)
            for slug in all_locs:
                pair = locations.setdefault(slug, ([], []))
                pair[0 if slug in r["locations"][seat] else 1].append(o)
            for v in all_values:
                pair_v = values.setdefault(v, ([], []))
                pair_v[0 if v in r["lord_values"][seat] else 1].append(o)
    out["points_by_category"] = {
        k: round(statistics.fmean(v), 2) for k, v in sorted(categories.items())
    }
    out["locations"] = {slug: difference(*pair) for slug, pair in sorted(locations.items())}
    out["lord_values"] = {str(v): difference(*pair) for v, pair in sorted(values.items())}
    return out


def summarize(game: str, results: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one pairing's games for ``game``.

    Raises:
        ValueError: an unknown game or no results.
    """
    if not results:
        raise ValueError("no games to summarize")
    if game == "byzantium":
        return byzantium(results)
    if game == "conspiracy":
        return conspiracy(results)
    raise ValueError(f"the balance lab does not know the game {game!r}")
