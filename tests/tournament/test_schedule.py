"""Tournament schedules: every table meets, seats rotate evenly, deals are mirrored."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from porphyra.tournament import LEGENDARY_OPPONENTS, rotations, round_robin, solo_schedule

BOTS = ["random", "easy", "ismcts:iterations=10", "greedy"]


def test_rotations_are_cyclic_and_cover_every_seat() -> None:
    assert rotations(2) == [(0, 1), (1, 0)]
    assert rotations(3) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for n in (2, 3, 4):
        for seat in range(n):
            assert sorted(order[seat] for order in rotations(n)) == list(range(n))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_combination_meets_with_balanced_seats(players: int) -> None:
    games = 2 * players
    matches = round_robin("conspiracy", {"players": players}, BOTS, players, games, seed=100)
    tables = Counter(frozenset(m.seats) for m in matches)
    expected = {frozenset(c) for c in itertools.combinations(BOTS, players)}
    assert set(tables) == expected
    assert all(count == games for count in tables.values())
    # Each bot sits in each seat equally often within each table.
    for table in expected:
        seat_counts = Counter(
            (bot, s) for m in matches if set(m.seats) == table for s, bot in enumerate(m.seats)
        )
        assert set(seat_counts.values()) == {games // players}
        assert len(seat_counts) == players * players
    assert [m.game_id for m in matches] == list(range(len(matches)))
    assert all(m.options == {"players": players} for m in matches)


def test_seeds_are_mirrored_across_seat_orders_and_tables() -> None:
    matches = round_robin("byzantium", {}, BOTS[:3], 2, 6, seed=7)
    for table in range(3):
        games = [m for m in matches if m.table == table]
        by_deal: dict[int, list[tuple[str, ...]]] = {}
        for m in games:
            assert m.seed == 7 + m.deal
            by_deal.setdefault(m.deal, []).append(m.seats)
        assert sorted(by_deal) == [0, 1, 2]
        for seat_orders in by_deal.values():
            # Both seat orders play the same deal.
            assert len(seat_orders) == 2
            assert seat_orders[0] == tuple(reversed(seat_orders[1]))


def test_solo_schedule_plays_each_bot_against_each_lo_on_the_same_deals() -> None:
    matches = solo_schedule("conspiracy", {}, ["easy", "random"], LEGENDARY_OPPONENTS, 3, 50)
    assert len(matches) == 2 * 5 * 3
    pairs = Counter((m.seats, m.opponent) for m in matches)
    assert set(pairs.values()) == {3}
    assert len(pairs) == 10
    for m in matches:
        assert m.options == {"players": 1, "opponent": m.opponent}
        assert m.seed == 50 + m.deal
        assert m.entrants == (*m.seats, "lo:" + str(m.opponent))


@pytest.mark.parametrize(
    ("bots", "players", "games", "message"),
    [
        (["random", "random"], 2, 2, "named twice"),
        (["random"], 2, 2, "at least 2 different bots"),
        (["random", "easy"], 3, 3, "at least 3 different bots"),
        (["random", "easy"], 2, 3, "multiple of 2"),
        (["random", "easy", "greedy"], 3, 0, "multiple of 3"),
    ],
)
def test_bad_round_robins_are_refused(
    bots: list[str], players: int, games: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        round_robin("conspiracy", {}, bots, players, games, 0)


def test_bad_solo_schedules_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one Legendary Opponent"):
        solo_schedule("conspiracy", {}, ["easy"], [], 1, 0)
    with pytest.raises(ValueError, match="at least 1"):
        solo_schedule("conspiracy", {}, ["easy"], ["farmer"], 0, 0)
    with pytest.raises(ValueError, match="named twice"):
        solo_schedule("conspiracy", {}, ["easy"], ["mage", "mage"], 1, 0)
