"""Issue 32 §3, without a server: the places of a rated game (returns, an abandoned seat
last, a solo game against the Legendary Opponent), the openskill update with the bots'
fixed anchors, who may sit at a rated table, and the bot ladder file's reader."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from porphyra.server.botladder import (
    LADDER_VARIABLE,
    Below,
    LadderError,
    bot_anchors,
    load_ladder,
    parse_ladder,
)
from porphyra.server.ratings import (
    SeatOf,
    Standing,
    new_ratings,
    ordinal,
    player_rating,
    standing,
    table_refusal,
)

ANNA, BORIS = SeatOf("human", None, 1), SeatOf("human", None, 2)
EASY = SeatOf("bot", "easy", None)
PAIR = {"level": "easy", "against": "random", "deals": 9, "score": 0.8, "low": 0.6, "high": 1.0}
SOLO_PAIR = {**PAIR, "against_score": 0.5, "difference": 0.3, "low": 0.1, "high": 0.5}
LADDER = {
    "format": 1,
    "command": "porphyra ladder",
    "measured": "today",
    "model": "openskill PlackettLuce (mu 25, sigma 25/3)",
    "tables": [
        {
            "game": "g2",
            "players": 2,
            "ratings": {"easy": {"mu": 20.0, "sigma": 1.0, "games": 9}},
            "pairs": [PAIR],
        },
        {"game": "g1", "players": 1, "ratings": {"legendary:farmer": {"mu": 30.0, "sigma": 2.0}}},
    ],
}


@pytest.fixture(autouse=True)
def ladder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "ladder.json"
    path.write_text(json.dumps(LADDER), encoding="utf-8")
    monkeypatch.setenv(LADDER_VARIABLE, str(path))
    return path


def clock(*takeovers: str | None) -> str:
    return json.dumps({"seats": [{"takeover": t} for t in takeovers]})


def result(*returns: float) -> str:
    return json.dumps({"returns": list(returns)})


def test_places_follow_the_returns_and_an_abandoned_seat_is_last() -> None:
    seats = [ANNA, BORIS, EASY]
    played = standing({}, seats, result(-1, 1, -1), clock(None, None, None))
    assert played == Standing([("account", 1), ("account", 2), ("bot", "easy")], [2, 1, 2])
    # Boris had the best score, but a bot finished his seat: he is last.
    left = standing({}, seats, result(-1, 1, -1), clock(None, "left", None))
    assert left is not None and left.ranks == [1, 2, 1]
    timed_out = standing({}, seats, result(1, -1, -1), clock("timeouts", None, None))
    assert timed_out is not None and timed_out.ranks == [2, 1, 1]
    assert standing({}, seats, "not json", None) is None
    assert standing({}, seats, result(1, 2), None) is None  # not one return per seat


def test_a_solo_game_is_played_against_the_legendary_opponent() -> None:
    options = {"opponent": "farmer"}
    won = standing(options, [ANNA], result(1), None)
    assert won == Standing([("account", 1), ("bot", "legendary:farmer")], [1, 2])
    assert won is not None
    assert standing(options, [ANNA], result(-1), None) == Standing(won.entries, [2, 1])
    assert standing(options, [ANNA], result(0), None) == Standing(won.entries, [1, 1])
    assert standing(options, [ANNA], result(1), clock("left")) == Standing(won.entries, [2, 1])


def test_the_bots_take_part_with_fixed_ratings_that_count() -> None:
    anchors = {"easy": (20.0, 1.0), "strong": (35.0, 1.0)}
    beat_easy = Standing([("account", 1), ("bot", "easy")], [1, 2])
    beat_strong = Standing([("account", 1), ("bot", "strong")], [1, 2])
    easy = new_ratings(beat_easy, {}, anchors)
    strong = new_ratings(beat_strong, {}, anchors)
    assert set(easy) == {1}  # only accounts come back: the bots do not change
    assert 25.0 < easy[1][0] < strong[1][0]  # beating a stronger bot counts more
    assert easy[1][1] < 25 / 3
    lost = new_ratings(Standing([("account", 1), ("bot", "easy")], [2, 1]), {1: easy[1]}, anchors)
    assert lost[1][0] < easy[1][0]
    assert ordinal(30.0, 2.0) == 24.0


def test_who_may_sit_at_a_rated_table() -> None:
    assert table_refusal("g2", 2, {}, [ANNA, BORIS], secret=True) is None
    assert table_refusal("g2", 2, {}, [ANNA, EASY], secret=True) is None
    assert table_refusal("g2", 2, {}, [ANNA, BORIS], secret=False) == "chosen seed"
    guest = SeatOf("human", None, None)
    assert table_refusal("g2", 2, {}, [ANNA, guest], secret=True) == "guest seat"
    assert table_refusal("g2", 2, {}, [ANNA, ANNA], secret=True) == "seated twice"
    hard = SeatOf("bot", "hard", None)
    assert table_refusal("g2", 2, {}, [ANNA, hard], secret=True) == "unrated bot"
    assert table_refusal("g3", 2, {}, [ANNA, EASY], secret=True) == "unrated bot"
    assert table_refusal("g1", 1, {"opponent": "farmer"}, [ANNA], secret=True) is None
    for options in ({}, {"opponent": "random"}, {"opponent": "queen"}):
        assert table_refusal("g1", 1, options, [ANNA], secret=True) == "unrated opponent"


def test_the_ladder_file_is_read_and_checked(ladder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert bot_anchors("g2", 2) == {"easy": (20.0, 1.0)}
    assert bot_anchors("g2", 3) == {}
    assert load_ladder().command == "porphyra ladder"
    assert load_ladder().below[("g2", 2)] == {"easy": Below("easy", "random", 9, 0.8, 0.6, 1.0)}
    table: dict[str, Any] = LADDER["tables"][0]  # type: ignore[index]
    solo = parse_ladder({**LADDER, "tables": [{**table, "pairs": [SOLO_PAIR]}]})
    assert solo.below[("g2", 2)]["easy"].difference == 0.3
    pairs: Any
    for pairs in (
        {},
        ["easy"],
        [{**PAIR, "level": 3}],
        [{**PAIR, "deals": 0}],
        [{**PAIR, "score": float("nan")}],
        [{**PAIR, "high": None}],
        [{**SOLO_PAIR, "difference": "0.3"}],
    ):
        with pytest.raises(LadderError):
            parse_ladder({**LADDER, "tables": [{**table, "pairs": pairs}]})
    for bad in (
        {"format": 2, "tables": []},
        {"format": 1},
        {"format": 1, "tables": [{"game": "g", "players": "2", "ratings": {}}]},
        {"format": 1, "tables": [{"game": "g", "players": 2, "ratings": {"x": {"mu": 1}}}]},
        {
            "format": 1,
            "tables": [{"game": "g", "players": 2, "ratings": {"x": {"mu": 1, "sigma": 0}}}],
        },
        {
            "format": 1,
            "tables": [{"game": "g", "players": 2, "ratings": {"x": {"mu": True, "sigma": 1}}}],
        },
    ):
        with pytest.raises(LadderError):
            parse_ladder(bad)
    # A damaged file, or none: no anchors (a table with a bot cannot be rated).
    broken = ladder.parent / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    monkeypatch.setenv(LADDER_VARIABLE, str(broken))
    assert bot_anchors("g2", 2) == {}
    monkeypatch.setenv(LADDER_VARIABLE, str(ladder.parent / "absent.json"))
    assert bot_anchors("g2", 2) == {} and load_ladder().tables == {}


def test_player_rating_reads_the_store(tmp_path: Path) -> None:
    from porphyra.server.storage import Storage

    storage = Storage(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    try:
        assert player_rating(storage.engine, 1, "g2", 2) is None
    finally:
        storage.close()
