"""The balance lab's statistics: rates with intervals, sign tests, win-rate differences.

Every rate comes with its Wilson 95% interval (:func:`porphyra.tournament.stats.wilson_interval`);
a seat or role advantage also gets a two-sided exact binomial test of "no advantage" on the
decided games (draws left out: a sign test, :func:`scipy.stats.binomtest`).

Win-rate difference of a card (or a Location, a lord value): the seats of one game are not
independent (in a two-seat game their results sum to 1), so the difference is measured
**within games** (a paired design, one value per game): in each game where some seats
melded the card (owned, held) and some did not, ``d`` = the mean result of the seats that
did minus that of the seats that did not (win 1, draw ½, loss 0), so ``d`` is in [-1, 1]
(in Byzantium -1, 0 or +1).  The figure is the mean of ``d`` over those games, in points
of win rate (×100 in the report), with the Wilson interval of the share ``(d + 1) / 2``
mapped back (the share of a variable in [0, 1] has at most the variance of a Bernoulli one
of the same mean, so the interval is valid, and it widens as the games behind it become
few: 6 games all won give [+22, +100] points); ``p_value`` is the sign test of the games
with ``d > 0`` against those with ``d < 0``.  Games where every seat or no seat melded the
card tell nothing within the game and are left out; ``games`` says how many are behind the
figure.  Nothing is shrunk.  In the Conspiracy solo mode (one seat) games are compared with
each other: the difference of mean results with and without, with the Agresti-Caffo
interval (one success and one failure added to each side, so it too is wide for few games).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

from porphyra.core.outcome import top_seats
from porphyra.tournament.stats import Z95, wilson_interval


def rate(successes: float, trials: int) -> dict[str, Any]:
    """``{"rate", "ci95": [low, high], "n"}`` of a proportion (draws may count ½)."""
    low, high = wilson_interval(successes, trials)
    return {
        "rate": round(successes / trials, 4) if trials else None,
        "ci95": [round(low, 4), round(high, 4)],
        "n": trials,
    }


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact binomial test of ``wins`` against ``losses`` (½ each), 4 digits."""
    from scipy.stats import binomtest  # type: ignore[import-untyped]

    decided = wins + losses
    return float(f"{binomtest(wins, decided, 0.5).pvalue:.4g}") if decided else 1.0


def advantage(wins: int, draws: int, losses: int, points: float | None = None) -> dict[str, Any]:
    """A seat's or role's share of results (win 1, draw ½) with its interval, and the
    p-value of an exact binomial test of wins against losses (no advantage: ½).

    Args:
        wins / draws / losses: games (one observation per game).
        points: the sum of the per-game shares when they are not only 0, ½ and 1 (default:
            ``wins + draws / 2``).
    """
    n = wins + draws + losses
    return {
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "share": rate(wins + draws / 2 if points is None else points, n),
        "p_value": sign_test(wins, losses),
    }


def outcome(returns: Sequence[float], seat: int) -> float:
    """1 for a win, ½ for a draw (equal best returns), 0 for a loss, of ``seat``."""
    top = top_seats(returns)
    if seat not in top:
        return 0.0
    return 1.0 if len(top) == 1 else 0.5


def within_game_difference(diffs: Sequence[float]) -> dict[str, Any]:
    """The within-game difference of results (see the module docstring).

    Args:
        diffs: one ``d`` in [-1, 1] per game in which some seats had the thing and some
            did not.

    Returns:
        ``{"diff", "ci95": [low, high], "games", "p_value"}``; ``diff`` and the interval
        in win rate (fractions, -1 to 1), ``None`` when no game is behind it.
    """
    n = len(diffs)
    if n == 0:
        return {"diff": None, "ci95": None, "games": 0, "p_value": None}
    share = sum((d + 1) / 2 for d in diffs)
    low, high = wilson_interval(share, n)
    return {
        "diff": round(2 * share / n - 1, 4),
        "ci95": [round(2 * low - 1, 4), round(2 * high - 1, 4)],
        "games": n,
        "p_value": sign_test(sum(d > 0 for d in diffs), sum(d < 0 for d in diffs)),
    }


def unpaired_difference(with_: Sequence[float], without: Sequence[float]) -> dict[str, Any]:
    """Difference of mean results (each in [0, 1]) of independent games with and without a
    thing, with the Agresti-Caffo 95% interval (one success and one failure added to each
    side: wide when either side has few games).

    Returns:
        ``{"diff", "ci95", "games", "n_with", "n_without", "p_value": None}``; ``diff``
        ``None`` when either side is empty.
    """
    n1, n2 = len(with_), len(without)
    out: dict[str, Any] = {"games": n1 + n2, "n_with": n1, "n_without": n2, "p_value": None}
    if not n1 or not n2:
        return {**out, "diff": None, "ci95": None}
    a1, a2 = (sum(with_) + 1) / (n1 + 2), (sum(without) + 1) / (n2 + 2)
    half = Z95 * math.sqrt(a1 * (1 - a1) / (n1 + 2) + a2 * (1 - a2) / (n2 + 2))
    return {
        **out,
        "diff": round(statistics.fmean(with_) - statistics.fmean(without), 4),
        "ci95": [round(max(-1.0, a1 - a2 - half), 4), round(min(1.0, a1 - a2 + half), 4)],
    }


def within_game(outcomes: Sequence[float], has: Sequence[bool]) -> float | None:
    """``d`` of one game: the mean result of the seats with the thing minus that of the
    seats without (``None`` when every seat or none has it)."""
    yes = [o for o, h in zip(outcomes, has, strict=True) if h]
    no = [o for o, h in zip(outcomes, has, strict=True) if not h]
    if not yes or not no:
        return None
    return statistics.fmean(yes) - statistics.fmean(no)


def quartiles(values: Iterable[float]) -> list[float] | None:
    """``[q1, median, q3]`` of ``values`` (``None`` if empty)."""
    data = sorted(values)
    if not data:
        return None
    if len(data) == 1:
        return [data[0]] * 3
    q = statistics.quantiles(data, n=4, method="inclusive")
    return [round(q[0], 2), round(q[1], 2), round(q[2], 2)]
