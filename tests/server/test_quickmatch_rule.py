"""Issue 32 §2: quick match's pairing rule, pure, on a fake clock (the times are numbers
given to it): the window widens as a player waits, the longest waiter is served first
with the closest ratings, and after a minute alone the bot of about their rating is
offered."""

from __future__ import annotations

import pytest

from porphyra.server.quickmatch import (
    BASE_WINDOW,
    BOT_OFFER_AFTER_S,
    DEFAULT_RATING,
    MAX_WINDOW,
    WIDEN_PER_S,
    RatingSource,
    Waiter,
    bot_offer,
    form_matches,
    pick_bot,
    window,
)

T0 = 1_000_000.0


def ids(groups: list[list[Waiter]]) -> list[list[int]]:
    return [[w.account_id for w in g] for g in groups]


def test_the_window_widens_with_the_wait_up_to_its_widest() -> None:
    assert window(0) == BASE_WINDOW
    assert window(10) == pytest.approx(BASE_WINDOW + 10 * WIDEN_PER_S)
    assert window(60) > window(30) > window(0)
    assert window(10_000) == MAX_WINDOW
    assert window(-5) == BASE_WINDOW  # a clock step back is no wait


def test_close_ratings_pair_at_once_distant_ones_after_a_wait() -> None:
    near = [Waiter(1, 25.0, T0), Waiter(2, 26.0, T0)]
    assert ids(form_matches(near, 2, T0)) == [[1, 2]]
    far = [Waiter(1, 20.0, T0), Waiter(2, 30.0, T0 + 1)]
    assert form_matches(far, 2, T0 + 1) == []  # 10 apart: beyond 2 at once
    gap_at = (10.0 - BASE_WINDOW) / WIDEN_PER_S  # the first player's window reaches 10
    assert form_matches(far, 2, T0 + gap_at - 1) == []
    assert ids(form_matches(far, 2, T0 + gap_at)) == [[1, 2]]


def test_the_longest_waiter_is_served_first_with_the_closest_rating() -> None:
    now = T0 + 40  # the first waiter's window: 2 + 40 * 0.25 = 12
    waiting = [
        Waiter(7, 25.0, T0 + 39),  # arrived last, close to everyone
        Waiter(3, 30.0, T0),  # waited longest
        Waiter(5, 36.0, T0 + 10),
        Waiter(9, 31.0, T0 + 20),
    ]
    # 3 takes 9 (1 point away) before 7 (5) and 5 (6); 7 and 5 are 11 apart, beyond
    # 5's window (2 + 30 * 0.25 = 9.5) and 7's (2.25): they stay waiting.
    assert ids(form_matches(waiting, 2, now)) == [[3, 9]]


def test_a_player_is_in_one_table_at_most_and_tables_fill_to_the_count() -> None:
    waiting = [Waiter(i, 25.0 + i / 10, T0 + i) for i in range(1, 8)]
    groups = form_matches(waiting, 3, T0 + 8)
    assert [len(g) for g in groups] == [3, 3]
    seated = [w.account_id for g in groups for w in g]
    assert len(seated) == len(set(seated)) == 6
    assert groups[0][0].account_id == 1  # the longest waiter first
    with pytest.raises(ValueError):
        form_matches(waiting, 1, T0)


def test_a_bot_of_about_ones_rating_is_offered_after_a_minute() -> None:
    bots = {"easy": (12.0, 1.0), "medium": (22.0, 1.0), "hard": (31.0, 1.0)}
    assert pick_bot(25.0, bots) == "medium"
    assert pick_bot(28.0, bots) == "hard"
    assert pick_bot(-3.0, bots) == "easy"
    assert pick_bot(17.0, bots) == "easy"  # a tie (5 and 5): the name sorting first
    assert pick_bot(25.0, {}) is None
    assert bot_offer(BOT_OFFER_AFTER_S - 1, 25.0, bots) is None
    assert bot_offer(BOT_OFFER_AFTER_S, 25.0, bots) == "medium"


def test_without_ratings_everyone_is_unrated_and_no_bot_is_offered() -> None:
    plain = RatingSource()
    assert plain.player(None, 1, "g", 2) == DEFAULT_RATING == (25.0, 25.0 / 3.0)
    assert plain.bot_ratings("g", 2) == {}
    calls: list[tuple[int, str, int]] = []

    def rating_of(
        store: object, account_id: int, game: str, players: int
    ) -> tuple[float, float] | None:
        calls.append((account_id, game, players))
        return (30.0, 2.0) if account_id == 1 else None

    given = RatingSource(rating_of, lambda game, players: {"hard": (31.0, 1.0)})
    assert given.player("engine", 1, "g", 3) == (30.0, 2.0)
    assert given.player("engine", 2, "g", 3) == DEFAULT_RATING
    assert calls == [(1, "g", 3), (2, "g", 3)]
    assert given.bot_ratings("g", 3) == {"hard": (31.0, 1.0)}
