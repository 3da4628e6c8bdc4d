"""Scores over paired deals (:mod:`porphyra.tournament.deals`): the unit of issue 31's bot
comparisons, shared by the ladder and ``bench/paired_deals.py``."""

from __future__ import annotations

import pytest

from porphyra.tournament.deals import (
    Game,
    deal_scores,
    ordered,
    outcome,
    paired_deal_difference,
    score_over_deals,
)


def games(bot: str, other: str, results: dict[int, tuple[float, float]]) -> list[Game]:
    """Per deal seed, ``bot``'s return in each seat order."""
    out: list[Game] = []
    for seed, (first, second) in results.items():
        out.append((seed, (bot, other), (first, -first)))
        out.append((seed, (other, bot), (-second, second)))
    return out


def test_a_deal_scores_the_mean_of_its_two_games() -> None:
    played = games("new", "easy", {5: (1, 1), 3: (1, -1), 9: (-1, -1), 4: (0, 1)})
    assert deal_scores(played, "new") == {5: 1.0, 3: 0.5, 9: 0.0, 4: 0.75}
    assert deal_scores(played, "easy") == {5: 0.0, 3: 0.5, 9: 1.0, 4: 0.25}
    assert [outcome(v) for v in (2.0, 0.0, -0.5)] == [1.0, 0.5, 0.0]


def test_a_deal_without_its_seat_swap_or_counted_twice_is_refused() -> None:
    played = games("new", "easy", {1: (1, 1)})
    with pytest.raises(ValueError, match="deal 1 has 1"):
        deal_scores(played[:1], "new")
    with pytest.raises(ValueError, match="deal 1 has 4"):
        deal_scores(played + played, "new")
    with pytest.raises(ValueError, match="'hard' plays no game"):
        deal_scores(played, "hard")
    # Solo: one game a deal.
    assert deal_scores([(("farmer", 1), ("easy",), (1.0,))], "easy", per_deal=1) == {
        ("farmer", 1): 1.0
    }


def test_the_score_over_deals_and_its_intervals() -> None:
    scores = [1.0, 0.5, 0.5, 0.0, 1.0, 1.0, 0.5, 0.5]
    summary = score_over_deals(scores, seed=4)
    assert summary["deals"] == 8 and summary["games"] == 16
    assert summary["score"] == pytest.approx(0.625)
    lo, hi = summary["normal_ci95"]
    assert lo < 0.625 < hi
    blo, bhi = summary["bootstrap_ci95"]
    assert 0 <= blo < 0.625 < bhi <= 1
    assert score_over_deals(scores, seed=4) == summary  # seeded
    counts = [summary[k] for k in ("deals_won_both", "deals_net_win", "deals_even")]
    assert counts == [3, 3, 4]
    assert (summary["deals_net_loss"], summary["deals_lost_both"]) == (1, 1)
    with pytest.raises(ValueError, match="no deal"):
        score_over_deals([])


def test_two_arms_are_compared_on_the_deals_both_played() -> None:
    mine = {1: 1.0, 2: 0.5, 3: 0.0, 7: 1.0}
    theirs = {1: 0.5, 2: 0.5, 3: 0.5, 8: 0.0}
    diff = paired_deal_difference(mine, theirs, seed=2)
    assert diff["deals"] == 3
    assert diff["difference"] == pytest.approx(0.0)
    assert (diff["deals_better"], diff["deals_same"], diff["deals_worse"]) == (1, 1, 1)
    # The deals' order does not change the bootstrap: they are drawn in seed order.
    shuffled = dict(reversed(list(mine.items())))
    assert paired_deal_difference(shuffled, theirs, seed=2) == diff
    with pytest.raises(ValueError, match="share 1 deals"):
        paired_deal_difference({1: 1.0}, {1: 0.0})


def test_deal_keys_that_do_not_compare_are_ordered_by_their_text() -> None:
    assert ordered([3, 1, 2]) == [1, 2, 3]
    assert ordered([("b", 1), ("a", 2)]) == [("a", 2), ("b", 1)]
    assert ordered([1, "x"]) == ordered(["x", 1]) == ["x", 1]  # (by repr: "'x'" < "1")
