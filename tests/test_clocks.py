"""The clock accounting of :mod:`porphyra.clocks`, on real engine states: each
seat's clock runs exactly while its own choice is pending (``state.active_players()``), in
sequential turns and in Byzantium's simultaneous decisions (B-R3); increments, turn-based
resets, timeouts and takeovers, downtime after a restart, and the stored form."""

from __future__ import annotations

import json

import pytest

import porphyra
from porphyra.clocks import (
    ClockError,
    ClockSettings,
    TableClock,
    event_text,
    record_fields,
    with_notes,
)
from porphyra.core.game import State

REALTIME = ClockSettings("realtime", base_s=300, increment_s=10)


def _act(state: State, clock: TableClock, seat: int, now: float) -> None:
    """``seat`` plays its first legal action at ``now``; the clock is told."""
    state.apply_action(state.legal_actions(seat)[0], seat)
    clock.update(set(state.active_players()) if not state.is_terminal() else set(), seat, now)


def test_sequential_turns_charge_only_the_seat_to_act_and_add_the_increment() -> None:
    state = porphyra.load_game("conspiracy", players=2).new_initial_state(seed=4)
    clock = TableClock.new(REALTIME, 2)
    first = state.current_player()
    other = 1 - first
    clock.update(set(state.active_players()), None, 1000.0)
    assert state.active_players() == [first]
    assert clock.seats[first].since == 1000.0 and clock.seats[other].since is None
    assert clock.seats[first].left(1030.0) == 270.0
    assert clock.seats[other].left(1030.0) == 300.0  # not its turn: not charged
    while state.current_player() == first:
        _act(state, clock, first, 1030.0)  # every action of the turn adds the increment
        if state.current_player() == first:
            # Still its decision: its clock runs on from the charged remainder.
            assert clock.seats[first].since == 1030.0
    actions = sum(1 for p, _ in state.history if p == first)
    assert clock.seats[first].remaining_s == 270.0 + 10 * actions
    assert clock.seats[first].since is None
    assert clock.seats[other].since == 1030.0  # its turn began when the first one's ended


def test_simultaneous_decision_runs_both_clocks_until_each_chose() -> None:
    state = porphyra.load_game("byzantium", first_emperor=0).new_initial_state(seed=5)
    clock = TableClock.new(REALTIME, 2)
    assert sorted(state.active_players()) == [0, 1]  # the secret Redraw (B-R3)
    clock.update({0, 1}, None, 0.0)
    assert clock.seats[0].since == clock.seats[1].since == 0.0
    _act(state, clock, 1, 20.0)  # the Foe chooses first
    assert state.active_players() == [0]
    assert clock.seats[1].since is None and clock.seats[1].remaining_s == 290.0
    assert clock.seats[0].left(50.0) == 250.0  # the Emperor's still runs
    _act(state, clock, 0, 60.0)
    assert clock.seats[0].remaining_s == 250.0  # 300 - 60 + 10
    assert clock.seats[1].remaining_s == 290.0
    # The next decision (both meld, B-R3) starts both clocks at once again.
    assert sorted(state.active_players()) == [0, 1]
    assert clock.seats[0].since == clock.seats[1].since == 60.0


def test_turn_clock_gives_each_decision_its_time_afresh() -> None:
    state = porphyra.load_game("byzantium", first_emperor=0).new_initial_state(seed=5)
    clock = TableClock.new(ClockSettings("turn", per_move_s=3600), 2)
    clock.update({0, 1}, None, 0.0)
    assert clock.deadline(0) == 3600.0
    _act(state, clock, 0, 3000.0)
    _act(state, clock, 1, 3500.0)
    assert clock.seats[0].remaining_s == clock.seats[1].remaining_s == 3600.0
    assert clock.deadline(0) == clock.deadline(1) == 7100.0
    assert clock.due(7099.9) == [] and clock.due(7100.0) == [0, 1]
    assert clock.next_deadline() == 7100.0


def test_leaving_and_coming_back_never_gives_a_turn_clock_more_time() -> None:
    """A turn clock stopped within a decision (the seat left, no bot moved for it) goes on
    from where it stopped; a decision made (by the seat or its bot) starts the next one
    with its whole time."""
    clock = TableClock.new(ClockSettings("turn", per_move_s=60), 2)
    clock.update({0}, None, 0.0)
    clock.update(set(), None, 50.0)  # seat 0 leaves: its clock stops with 10 s left
    assert clock.seats[0].remaining_s == 10.0 and clock.seats[0].paused
    clock.update({0}, None, 80.0)  # ... and comes back before the bot moved
    assert clock.deadline(0) == 90.0
    clock.update({0}, 0, 85.0)  # it decides; its next decision has the whole minute
    assert clock.deadline(0) == 145.0 and not clock.seats[0].paused
    clock.update(set(), None, 100.0)  # leaves again; the bot decides for it
    clock.update(set(), 0, 101.0)
    clock.update({0}, None, 200.0)
    assert clock.deadline(0) == 260.0
    again = TableClock.loads(clock.dumps(), 2)
    assert [c.paused for c in again.seats] == [c.paused for c in clock.seats]


def test_no_clock_never_runs() -> None:
    clock = TableClock.new(ClockSettings(), 2)
    clock.update({0, 1}, None, 5.0)
    assert clock.next_deadline() is None and clock.due(1e12) == []
    assert clock.public(10.0)["seats"][0]["remaining_s"] is None


def test_timeouts_hand_the_seat_over_after_the_table_count_and_back() -> None:
    clock = TableClock.new(ClockSettings("turn", per_move_s=60, takeover_after=2), 2)
    assert clock.timed_out(1, 4) is False
    assert clock.seats[1].timeouts == 1 and clock.seats[1].takeover is None
    assert clock.timed_out(1, 5) is True
    assert clock.seats[1].takeover == "timeouts"
    assert [e["event"] for e in clock.events] == ["timeout", "timeout", "takeover"]
    clock.give_back(1, 9)
    assert clock.seats[1].takeover is None and clock.seats[1].timeouts == 0
    assert event_text(clock.events[0]) == "⏱ seat 1 ran out of time: the easy bot moves for them."
    assert "kept running out of time" in event_text(clock.events[2])
    assert "is back" in event_text(clock.events[3])


def test_never_taken_over_when_the_table_says_0() -> None:
    clock = TableClock.new(ClockSettings("turn", per_move_s=60), 2)
    for move in range(5):
        assert clock.timed_out(0, move) is False
    assert clock.seats[0].takeover is None and clock.seats[0].timeouts == 5


def test_downtime_after_the_last_heartbeat_is_not_charged() -> None:
    clock = TableClock.new(REALTIME, 2)
    clock.update({0}, None, 100.0)
    # The server beat last at 150 and started again at 1000: 50 s are charged, not 900.
    assert clock.resume(alive_at=150.0, started=1000.0) is True
    assert clock.seats[0].left(1000.0) == 250.0
    assert clock.seats[1].since is None
    # Once per start: loading the game again in the same server life changes nothing.
    assert clock.resume(alive_at=150.0, started=1000.0) is False
    assert clock.seats[0].left(1000.0) == 250.0
    # A clock started after the last heartbeat is charged nothing of the gap.
    late = TableClock.new(REALTIME, 2)
    late.update({1}, None, 170.0)
    late.resume(alive_at=150.0, started=1000.0)
    assert late.seats[1].left(1000.0) == 300.0
    # No heartbeat stored (a database from before clocks): nothing charged either.
    unknown = TableClock.new(REALTIME, 2)
    unknown.update({0}, None, 100.0)
    unknown.resume(alive_at=None, started=1000.0)
    assert unknown.seats[0].left(1000.0) == 300.0


def test_stored_form_round_trips_and_damage_is_named() -> None:
    clock = TableClock.new(ClockSettings("realtime", 60, 5, timeout_bot="medium"), 3)
    clock.update({2}, None, 12.5)
    clock.take_over(0, 3, "left")
    again = TableClock.loads(clock.dumps(), 3)
    assert again == clock
    with pytest.raises(ClockError, match="list of 2 seats"):
        TableClock.loads(clock.dumps(), 2)
    with pytest.raises(ClockError, match="not valid JSON"):
        TableClock.loads("{", 3)
    # An event's "at" (where each of the 3 seats' and the spectators' logs stood) must
    # have one count per view: a short one would fail every later view of the game.
    stored = json.loads(clock.dumps())
    for at in ([0], [0, 1, 2, -1], [0, 1, 2, "3"], "0123", [0, 1, 2, True]):
        stored["events"][0]["at"] = at
        with pytest.raises(ClockError, match="events"):
            TableClock.loads(json.dumps(stored), 3)
    stored["events"][0]["at"] = [0, 1, 2, 3]
    assert TableClock.loads(json.dumps(stored), 3).events[0]["at"] == [0, 1, 2, 3]
    with pytest.raises(ClockError, match="kind 'blitz'"):
        TableClock.loads('{"settings": {"kind": "blitz"}, "seats": []}', 0)
    with pytest.raises(ClockError, match="base_s"):
        ClockSettings.from_json({"kind": "realtime", "base_s": 0})
    with pytest.raises(ClockError, match="per_move_s"):
        ClockSettings.from_json({"kind": "turn", "per_move_s": True})


def test_record_fields_name_the_actions_the_events_concern() -> None:
    clock = TableClock.new(ClockSettings("turn", per_move_s=60, takeover_after=1), 2)
    history = [(0, "a"), (1, "b"), (1, "c"), (0, "d")]
    clock.timed_out(1, 1)  # seat 1's second action (index 2) was the bot's, then takeover
    clock.give_back(1, 2)  # from seat 1's third action on (none yet: the end)
    fields = record_fields(clock, history)
    assert fields["clock"] == {
        "kind": "turn",
        "per_move_s": 60,
        "timeout_bot": "easy",
        "takeover_after": 1,
    }
    assert [(e["event"], e["action"]) for e in fields["clock_events"]] == [
        ("timeout", 2),
        ("takeover", 2),
        ("return", 4),
    ]
    # A table without clock and events adds nothing: its record is as before.
    assert record_fields(TableClock.new(ClockSettings(), 2), history) == {}


def test_notes_go_where_the_log_stood() -> None:
    log = ["a", "b", "c"]
    assert with_notes(log, [(1, "x"), (3, "y"), (1, "z")]) == ["a", "x", "z", "b", "c", "y"]
    assert with_notes(log, [(9, "late")]) == ["a", "b", "c", "late"]
    assert with_notes(log, []) == log


def test_a_seat_whose_clock_did_not_run_gains_no_increment() -> None:
    clock = TableClock.new(REALTIME, 2)
    clock.update(set(), 1, 50.0)  # e.g. a bot seat, or one a bot plays, moved
    assert clock.seats[1].remaining_s == 300.0


def test_a_copy_changes_independently() -> None:
    clock = TableClock.new(REALTIME, 2)
    clock.update({0}, None, 0.0)
    copy = clock.copy()
    copy.update({1}, 0, 30.0)
    copy.timed_out(1, 0)
    assert clock.seats[0].since == 0.0 and clock.seats[1].since is None
    assert clock.events == [] and clock.seats[1].timeouts == 0
    assert copy.seats[0].remaining_s == 280.0 and copy.seats[1].since == 30.0


def test_an_undo_forgets_the_events_of_moves_taken_back() -> None:
    clock = TableClock.new(ClockSettings("turn", per_move_s=60), 2)
    clock.timed_out(0, 2)  # seat 0's third action was the bot's
    clock.timed_out(1, 0)
    clock.drop_events_after([2, 3])  # seat 0 has 2 actions left: its third is undone
    assert [(e["player"], e["move"]) for e in clock.events] == [(1, 0)]
    clock.take_over(1, 3, "left")  # from seat 1's fourth action on: kept while it has 3
    clock.drop_events_after([2, 3])
    assert [e["event"] for e in clock.events] == ["timeout", "takeover"]
