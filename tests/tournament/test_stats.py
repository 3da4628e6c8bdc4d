"""Outcomes, ranks, score totals and the Wilson score interval against known values."""

from __future__ import annotations

import math

import pytest

from porphyra.tournament import outcomes, ranks, score_total, wilson_interval
from porphyra.tournament.stats import Tally


@pytest.mark.parametrize(
    ("successes", "trials", "low", "high"),
    [
        # From the closed form (2k + z² ∓ z sqrt(z² + 4k(n - k)/n)) / (2(n + z²)); 5/10
        # also matches statsmodels' proportion_confint(5, 10, method="wilson").
        (5, 10, 0.2365931, 0.7634069),
        (0, 10, 0.0, 0.2775328),
        (10, 10, 0.7224672, 1.0),
        (81, 263, 0.2552885, 0.3662096),
        (1, 2, 0.0945312, 0.9054688),
    ],
)
def test_wilson_known_values(successes: int, trials: int, low: float, high: float) -> None:
    got = wilson_interval(successes, trials)
    assert got[0] == pytest.approx(low, abs=1e-6)
    assert got[1] == pytest.approx(high, abs=1e-6)


def test_wilson_formula_and_edges() -> None:
    # The interval's bounds solve |p - x| = z sqrt(x (1 - x) / n) for x.
    n, k = 400, 240
    low, high = wilson_interval(k, n)
    for bound in (low, high):
        assert abs(k / n - bound) == pytest.approx(1.959964 * math.sqrt(bound * (1 - bound) / n))
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(2.5, 5)[0] < 0.5 < wilson_interval(2.5, 5)[1]
    with pytest.raises(ValueError, match="successes"):
        wilson_interval(6, 5)
    with pytest.raises(ValueError, match="trials"):
        wilson_interval(0, -1)


def test_outcomes_and_ranks() -> None:
    assert outcomes([1.0, -1.0]) == [1.0, 0.0]
    assert outcomes([0.0, 0.0]) == [0.5, 0.5]
    assert outcomes([-1.0, 1.0, -1.0]) == [0.0, 1.0, 0.0]
    assert outcomes([1.0, 1.0, -1.0, -1.0]) == [0.5, 0.5, 0.0, 0.0]  # shared victory
    assert outcomes([1.0]) == [1.0]
    assert outcomes([-1.0]) == [0.0]
    assert outcomes([0.0]) == [0.5]
    assert ranks([1.0, -1.0, -1.0]) == [0, 1, 1]
    assert ranks([0.0, 0.0]) == [0, 0]
    assert ranks([-1.0, 1.0, 1.0, -1.0]) == [2, 0, 0, 2]


def test_score_total() -> None:
    assert score_total(7) == 7.0
    assert score_total({"total": 41, "lords": 20}) == 41.0
    assert score_total({"lords": 20}) is None
    assert score_total(None) is None
    assert score_total(True) is None


def test_tally_counts_draws_half() -> None:
    tally = Tally()
    for outcome, score in ((1.0, 10.0), (0.5, 8.0), (0.0, None), (1.0, 12.0)):
        tally.add(outcome, score)
    assert (tally.games, tally.wins, tally.draws, tally.losses) == (4, 2, 1, 1)
    assert tally.win_rate == pytest.approx(2.5 / 4)
    assert tally.mean_score == pytest.approx(10.0)
    data = tally.to_dict()
    assert data["ci95"] == [round(x, 6) for x in wilson_interval(2.5, 4)]
    assert Tally().to_dict()["mean_score"] is None
