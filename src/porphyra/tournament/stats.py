"""Tournament statistics: outcomes, win rates with Wilson 95% intervals, tallies.

A game gives each entrant an outcome in points: 1 for a sole win, ½ for a draw or a shared
victory, 0 for a loss.  A win rate is points / games (draws count half), and its 95%
confidence interval is the Wilson score interval (E. B. Wilson, "Probable inference, the law
of succession, and statistical inference", JASA 22, 1927), which stays inside [0, 1] and
behaves well near 0 and 1 and for small samples, unlike the normal ("Wald") interval.
With draws the points are not strictly binomial; counting a draw as half a win in the
Wilson formula is the usual approximation (slightly conservative).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from porphyra.core.outcome import top_seats

#: The two-sided 95% quantile of the standard normal distribution.
Z95 = 1.959963984540054

WIN = 1.0
DRAW = 0.5
LOSS = 0.0


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion.

    Args:
        successes: number of successes (may be fractional: draws count ½), 0..trials.
        trials: number of trials (≥ 0).
        z: normal quantile; the default gives a two-sided 95% interval.

    Returns:
        ``(low, high)`` within [0, 1]; ``(0.0, 1.0)`` when ``trials == 0``.

    Raises:
        ValueError: ``trials`` < 0 or ``successes`` outside ``[0, trials]``.

    Example: ``wilson_interval(5, 10)`` is about ``(0.2366, 0.7634)``.
    """
    if trials < 0:
        raise ValueError(f"trials must be non-negative, not {trials}")
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must lie in [0, {trials}], not {successes}")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))


def outcomes(returns: Sequence[float]) -> list[float]:
    """Points of each entrant of one game from its returns.

    Args:
        returns: one entry per entrant (``State.returns()``, +1 win / -1 loss / 0 draw).

    Returns:
        Per entrant :data:`WIN` (the only one with the highest return), :data:`DRAW` (tied
        for the highest return, or everyone equal) or :data:`LOSS`.  A single entrant (a
        solo game scored alone) wins with a positive return, draws with 0 and loses with a
        negative one.
    """
    if len(returns) == 1:
        r = returns[0]
        return [WIN if r > 0 else LOSS if r < 0 else DRAW]
    top = top_seats(returns)
    if len(top) == 1:
        return [WIN if i == top[0] else LOSS for i in range(len(returns))]
    return [DRAW if i in top else LOSS for i in range(len(returns))]


def ranks(returns: Sequence[float]) -> list[int]:
    """Competition ranks from returns (0 = best; equal returns share a rank): the number
    of entrants with a strictly higher return."""
    return [sum(1 for other in returns if other > r) for r in returns]


def score_total(score: Any) -> float | None:
    """A game score as one number: a number itself, or the ``"total"`` of a score
    breakdown (Conspiracy); ``None`` if it has neither."""
    if isinstance(score, bool):
        return None
    if isinstance(score, int | float):
        return float(score)
    if isinstance(score, dict):
        total = score.get("total")
        if isinstance(total, int | float) and not isinstance(total, bool):
            return float(total)
    return None


@dataclass
class Tally:
    """Results of one entrant over some games.

    Attributes:
        games / wins / draws / losses: counts (``wins + draws + losses == games``).
        score_sum / scored: sum and count of the game scores that were numbers (for the
            mean score).
    """

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score_sum: float = 0.0
    scored: int = 0

    def add(self, outcome: float, score: float | None) -> None:
        """Count one game with ``outcome`` (:data:`WIN`, :data:`DRAW`, :data:`LOSS`) and
        its score (``None``: no numeric score)."""
        self.games += 1
        if outcome == WIN:
            self.wins += 1
        elif outcome == DRAW:
            self.draws += 1
        else:
            self.losses += 1
        if score is not None:
            self.score_sum += score
            self.scored += 1

    @property
    def points(self) -> float:
        """Wins plus half the draws."""
        return self.wins + self.draws / 2

    @property
    def win_rate(self) -> float:
        """Points per game in [0, 1] (0.0 with no games)."""
        return self.points / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """Wilson 95% interval of the win rate."""
        return wilson_interval(self.points, self.games)

    @property
    def mean_score(self) -> float | None:
        """Mean game score (``None`` if no game had a numeric score)."""
        return self.score_sum / self.scored if self.scored else None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: counts, ``win_rate``, ``ci95`` ``[low, high]``, ``mean_score``."""
        low, high = self.interval
        mean = self.mean_score
        return {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "win_rate": round(self.win_rate, 6),
            "ci95": [round(low, 6), round(high, 6)],
            "mean_score": None if mean is None else round(mean, 4),
        }
