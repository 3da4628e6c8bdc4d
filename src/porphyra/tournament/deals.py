"""Scores over paired deals: the unit of a bot comparison (issue 31).

A paired tournament plays each deal twice, seats swapped (``porphyra tournament GAME --bots
A,B --games 2N``: the two games of a deal share its seed).  The two games of a deal are not
independent (the same cards), so an interval that counts games is too narrow or too wide
depending on how much the deal decides.  These functions count **deals**: each deal gives a
bot a score, the mean of its games there (win 1, draw 1/2, loss 0), and the 95% interval of
the mean score is

- ``normal``: mean ± 1.96 × the standard error over deals (deals are independent), and
- ``bootstrap``: the 2.5th and 97.5th percentiles of the mean over ``resamples`` resamples
  of the deals with replacement (seeded, so it reproduces).

Two arms on the same deals (two versions of a bot against one opponent, or two levels
against the same Legendary Opponents in solo) are compared deal by deal
(:func:`paired_deal_difference`): the deal's luck cancels.

Used by the ladder (:mod:`porphyra.tournament.ladder`: each level against the one below)
and by ``bench/paired_deals.py`` (a tournament's ``games.csv``).
"""

from __future__ import annotations

import math
import random
import statistics
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from porphyra.tournament.stats import Z95

#: Bootstrap resamples of the deals.
RESAMPLES = 4000

#: A deal's key: its seed, or any key that the games of one deal share.
K = TypeVar("K", bound=Hashable)

#: One game as these functions read it: the deal (its seed, or any key that the games of
#: one deal share), the seats' bot specs, the seats' returns.
Game = tuple[Hashable, Sequence[str], Sequence[float]]


def outcome(value: float) -> float:
    """A seat's return as a game score: win (> 0) 1, draw 1/2, loss (< 0) 0."""
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def deal_scores(
    games: Iterable[tuple[K, Sequence[str], Sequence[float]]], bot: str, per_deal: int = 2
) -> dict[K, float]:
    """``bot``'s mean score on each deal, by deal key.

    Args:
        games: the games (deal key, seats, returns); the games without ``bot`` are skipped.
        bot: the bot spec to score (a seat's name, exactly).
        per_deal: the games each deal must have (2: seats swapped; 1 in solo).

    Raises:
        ValueError: ``bot`` sits at no game, or a deal has another number of games than
            ``per_deal`` (a missing seat swap, or a deal counted twice).
    """
    by_deal: dict[K, list[float]] = defaultdict(list)
    for deal, seats, returns in games:
        if bot in seats:
            by_deal[deal].append(outcome(returns[list(seats).index(bot)]))
    if not by_deal:
        raise ValueError(f"{bot!r} plays no game here")
    odd = [deal for deal, scores in by_deal.items() if len(scores) != per_deal]
    if odd:
        raise ValueError(
            f"every deal must have {per_deal} game(s) of {bot!r}; deal {odd[0]!r} has "
            f"{len(by_deal[odd[0]])}"
        )
    return {deal: sum(scores) / per_deal for deal, scores in by_deal.items()}


def ordered(deals: Iterable[K]) -> list[K]:
    """``deals`` in their natural order (seeds ascending; keys that do not compare: by
    their text), the order in which the bootstrap draws them (so that it reproduces)."""
    keys = list(deals)
    try:
        return sorted(keys)  # type: ignore[type-var]
    except TypeError:
        return sorted(keys, key=repr)


def _normal(values: Sequence[float]) -> tuple[float, list[float]]:
    """The mean of ``values`` and its normal 95% interval (mean ± 1.96 standard errors;
    the mean itself for one value), rounded to 4 places."""
    n = len(values)
    mean = statistics.fmean(values)
    se = statistics.stdev(values) / math.sqrt(n) if n > 1 else 0.0
    return mean, [round(mean - Z95 * se, 4), round(mean + Z95 * se, 4)]


def _bootstrap(values: Sequence[float], seed: int, resamples: int) -> list[float]:
    """The 2.5th and 97.5th percentiles of the mean of ``values`` over ``resamples``
    resamples with replacement.

    Raises:
        ValueError: ``resamples`` < 1.
    """
    if resamples < 1:
        raise ValueError(f"resamples must be at least 1, not {resamples}")
    rng = random.Random(seed)
    n = len(values)
    means = sorted(statistics.fmean(rng.choices(values, k=n)) for _ in range(resamples))
    return [round(means[int(0.025 * resamples)], 4), round(means[int(0.975 * resamples) - 1], 4)]


def score_over_deals(
    scores: Sequence[float], seed: int = 0, resamples: int = RESAMPLES, per_deal: int = 2
) -> dict[str, Any]:
    """The mean score over deals with its normal and bootstrap 95% intervals.

    Args:
        scores: one score per deal (0..1; :func:`deal_scores`' values).
        seed: the bootstrap's seed.
        resamples: bootstrap resamples (≥ 1).
        per_deal: games a deal (for ``games``).

    Returns:
        ``{"deals", "games", "score", "normal_ci95", "bootstrap_ci95", "deals_won_both",
        "deals_net_win", "deals_even", "deals_net_loss", "deals_lost_both"}`` (fractions,
        rounded to 4 places).

    Raises:
        ValueError: no score, or ``resamples`` < 1.
    """
    if not scores:
        raise ValueError("no deal to score")
    bootstrap = _bootstrap(scores, seed, resamples)
    mean, normal = _normal(scores)
    return {
        "deals": len(scores),
        "games": per_deal * len(scores),
        "score": round(mean, 4),
        "normal_ci95": normal,
        "bootstrap_ci95": bootstrap,
        "deals_won_both": sum(s == 1.0 for s in scores),
        "deals_net_win": sum(s > 0.5 for s in scores),
        "deals_even": sum(s == 0.5 for s in scores),
        "deals_net_loss": sum(s < 0.5 for s in scores),
        "deals_lost_both": sum(s == 0.0 for s in scores),
    }


def paired_deal_difference(
    mine: Mapping[K, float],
    theirs: Mapping[K, float],
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> dict[str, Any]:
    """Two arms on the same deals: the per-deal difference ``mine - theirs`` over the deals
    both have (a paired design: the deal's luck cancels).

    Args:
        mine / theirs: per-deal scores by deal key (:func:`deal_scores`).
        seed: the bootstrap's seed.
        resamples: bootstrap resamples (≥ 1).

    Returns:
        ``{"deals", "difference", "normal_ci95", "bootstrap_ci95", "deals_better",
        "deals_same", "deals_worse"}`` (differences in score points, 0..1 scale).

    Raises:
        ValueError: the arms share fewer than two deals, or ``resamples`` < 1.
    """
    common = ordered([deal for deal in mine if deal in theirs])
    if len(common) < 2:
        raise ValueError(f"the two arms share {len(common)} deals; at least 2 are needed")
    diffs = [mine[deal] - theirs[deal] for deal in common]
    bootstrap = _bootstrap(diffs, seed, resamples)
    mean, normal = _normal(diffs)
    return {
        "deals": len(diffs),
        "difference": round(mean, 4),
        "normal_ci95": normal,
        "bootstrap_ci95": bootstrap,
        "deals_better": sum(d > 0 for d in diffs),
        "deals_same": sum(d == 0 for d in diffs),
        "deals_worse": sum(d < 0 for d in diffs),
    }
