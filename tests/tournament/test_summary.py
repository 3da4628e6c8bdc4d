"""Aggregation and ratings from synthetic results (no game is played here)."""

from __future__ import annotations

from typing import Any

import pytest

from porphyra.tournament import GameResult, Match, rate, round_robin, solo_schedule, summarize
from porphyra.tournament.output import csv_row, winners


def _result(match: Match, returns: list[float], scores: list[Any] | None = None) -> GameResult:
    return GameResult(
        match=match,
        returns=tuple(returns),
        scores=tuple(scores if scores is not None else [0] * len(returns)),
        actions=10,
        duration=0.5,
    )


def _always_wins(matches: list[Match], champion: str) -> list[GameResult]:
    results = []
    for m in matches:
        if champion in m.seats:
            returns = [1.0 if bot == champion else -1.0 for bot in m.seats]
        else:
            returns = [1.0 if s == 0 else -1.0 for s in range(len(m.seats))]  # seat 0 wins
        results.append(_result(m, returns, [3 if r > 0 else 1 for r in returns]))
    return results


def test_summary_counts_from_synthetic_results() -> None:
    matches = round_robin("byzantium", {}, ["a", "b", "c"], 2, 4, seed=0)
    summary = summarize(_always_wins(matches, "c"))
    assert summary["games"] == 12
    c, a, b = (summary["entrants"][x] for x in "cab")
    assert (c["games"], c["wins"], c["losses"], c["win_rate"]) == (8, 8, 0, 1.0)
    # a-b: seat 0 wins each game, seats are swapped: 2 wins each.
    assert (a["wins"], a["losses"], b["wins"], b["losses"]) == (2, 6, 2, 6)
    assert a["win_rate"] == pytest.approx(0.25)
    assert c["mean_score"] == 3.0 and a["mean_score"] == pytest.approx(1.5)
    tables = {tuple(t["entrants"]): t for t in summary["tables"]}
    assert set(tables) == {("a", "b"), ("a", "c"), ("b", "c")}
    assert tables[("a", "b")]["results"]["a"]["win_rate"] == 0.5
    assert tables[("a", "c")]["results"]["c"]["wins"] == 4
    # By seat: a wins only from seat 0 against b.
    assert [t["wins"] for t in summary["seats"]["a"]] == [2, 0]
    assert summary["mean_actions"] == 10 and summary["mean_duration_s"] == 0.5


def test_draws_count_half() -> None:
    matches = round_robin("byzantium", {}, ["a", "b"], 2, 4, seed=0)
    results = [_result(m, [0.0, 0.0]) for m in matches[:2]]
    results += [_result(m, [1.0, -1.0]) for m in matches[2:]]
    summary = summarize(results)
    a, b = summary["entrants"]["a"], summary["entrants"]["b"]
    assert (a["wins"], a["draws"], a["losses"]) == (1, 2, 1)
    assert a["win_rate"] == b["win_rate"] == 0.5
    assert winners(results[0]) == []
    assert winners(results[2]) == [matches[2].seats[0]]


def test_ratings_rank_the_bot_that_always_wins_first() -> None:
    matches = round_robin("conspiracy", {"players": 3}, ["a", "b", "c", "d"], 3, 6, seed=0)
    ratings = rate(_always_wins(matches, "d"))
    assert ratings[0]["entrant"] == "d"
    assert ratings[0]["ordinal"] > ratings[1]["ordinal"]
    assert ratings[0]["mu"] > 25 > ratings[-1]["mu"]
    assert {r["entrant"] for r in ratings} == set("abcd")
    assert all(r["games"] == 18 for r in ratings)
    assert all(r["ordinal"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=1e-3) for r in ratings)


def test_equal_bots_rate_equally_by_symmetry() -> None:
    matches = round_robin("byzantium", {}, ["a", "b"], 2, 2, seed=0)
    results = [_result(matches[0], [1.0, -1.0]), _result(matches[1], [-1.0, 1.0])]
    ratings = {r["entrant"]: r for r in rate(results)}
    # a wins then loses; b loses then wins: both end near the start, mu sum preserved.
    assert ratings["a"]["mu"] + ratings["b"]["mu"] == pytest.approx(50.0, abs=1e-3)


def test_solo_summary_rates_bots_against_legendary_opponents() -> None:
    matches = solo_schedule("conspiracy", {}, ["easy", "random"], ["farmer", "mage"], 4, 0)
    results = []
    for m in matches:
        won = m.seats[0] == "easy" or (m.opponent == "farmer" and m.deal == 0)
        scores = [{"total": 50 if won else 30}, {"total": 40}]
        results.append(_result(m, [1.0 if won else -1.0], scores))
    summary = summarize(results)
    tables = {tuple(t["entrants"]): t["results"] for t in summary["tables"]}
    assert set(tables) == {
        ("easy", "lo:farmer"),
        ("random", "lo:farmer"),
        ("easy", "lo:mage"),
        ("random", "lo:mage"),
    }
    assert tables[("easy", "lo:mage")]["easy"]["win_rate"] == 1.0
    assert tables[("random", "lo:farmer")]["random"]["wins"] == 1
    assert tables[("random", "lo:farmer")]["lo:farmer"]["wins"] == 3
    assert summary["entrants"]["lo:mage"]["mean_score"] == 40.0
    assert summary["ratings"][0]["entrant"] == "easy"
    assert set(summary["seats"]) == {"easy", "random"}
    row = csv_row(results[0])
    assert row["opponent"] == "farmer" and row["winners"] == '["easy"]'
