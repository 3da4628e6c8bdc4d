"""The one winner and draw rule (porphyra.core.outcome) and the bot seeds (bots.selfplay)."""

from __future__ import annotations

import pytest

from porphyra.bots.selfplay import decision_seed, seat_seed
from porphyra.core.outcome import returns_from_keys, sole_winner, top_seats


def test_top_seats_share_ties_and_compare_tuples_in_order() -> None:
    assert top_seats([3, 5, 5]) == [1, 2]
    assert top_seats([(40, 3), (40, 4), (41, 0)]) == [2]
    with pytest.raises(ValueError):
        top_seats([])


def test_returns_from_keys_winners_plus_one_others_minus_one_all_tied_zero() -> None:
    assert returns_from_keys([7, 4]) == [1.0, -1.0]
    assert returns_from_keys([4, 7]) == [-1.0, 1.0]
    assert returns_from_keys([5, 5]) == [0.0, 0.0]
    assert returns_from_keys([(40, 3), (40, 3), (39, 9)]) == [1.0, 1.0, -1.0]
    assert returns_from_keys([2, 2, 2]) == [0.0, 0.0, 0.0]


def test_sole_winner_counts_shared_victories_and_solo_games_as_none() -> None:
    assert sole_winner([1.0, -1.0]) == 0
    assert sole_winner([-1.0, 1.0, -1.0]) == 1
    assert sole_winner([0.0, 0.0]) is None
    assert sole_winner([1.0, 1.0, -1.0]) is None
    assert sole_winner([1.0]) is None


def test_bot_seeds_keep_their_formulas() -> None:
    # Changing either would change every bot move of saved simulations and web games.
    assert [seat_seed(7, s) for s in range(3)] == [
        7 * 101 + 7919,
        7 * 101 + 2 * 7919,
        7 * 101 + 3 * 7919,
    ]
    assert decision_seed(5, 1, 3) == 5 * 1_000_003 + 7_919 + 3 * 104_729
    assert 0 <= decision_seed(2**70, 3, 10) < 2**62
