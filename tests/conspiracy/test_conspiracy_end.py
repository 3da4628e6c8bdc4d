"""End of the game: the trigger gives every other seat exactly one more turn (section 3.5)."""

from __future__ import annotations

import pytest

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import TERMINAL_PLAYER
from porphyra.games.conspiracy import ConspiracyState
from tests.conspiracy.helpers import act, new, set_chamber

# 14 keyless lords without side effects worth noticing (3- and 4-IP, no blue, no purple)
FOURTEEN = [f"{c}{ip}" for c in ("yellow", "red", "green") for ip in (3, 3, 4, 4)] + [
    "blue3",
    "blue3",
]


def turn_owners(state: ConspiracyState) -> list[int]:
    """Seat of each turn, from the log's turn headers."""
    return [int(line.split("seat ")[1]) for line in state.log if line.startswith("turn ")]


@pytest.mark.parametrize(("players", "trigger"), [(2, 0), (2, 1), (3, 1), (4, 2), (4, 0)])
def test_end_trigger_every_other_seat_plays_exactly_one_more_turn(
    players: int, trigger: int
) -> None:
    s = new(players=players, lords=["purple3", "purple4"] * 2 + ["blue4", "blue4"])
    set_chamber(s, trigger, *FOURTEEN)
    while not s.is_terminal():
        assert len(s.chambers[trigger]) < 15 or s.end_trigger == trigger
        act(s, "draw 1")
    turns = turn_owners(s)
    first_full = turns.index(trigger)
    after = turns[first_full + 1 :]
    assert sorted(after) == sorted(p for p in range(players) if p != trigger)
    assert after == [(trigger + i) % players for i in range(1, players)]
    assert s.public_observation()["end_triggered"]
    assert s.public_observation()["end_trigger_player"] == trigger


def test_the_trigger_turn_finishes_before_the_last_round() -> None:
    # the 15th lord completes two silver keys: the Location is still taken
    s = new(lords=["red1"], locations=["l7"])
    set_chamber(s, 0, *FOURTEEN[:13], "yellow1")
    act(s, "draw 1")
    assert s.end_trigger == 0 and s.phase_name == "location" and s.current_player() == 0
    act(s, "loctake l7")
    assert s.current_player() == 1
    act(s, "draw 1")
    while not s.is_terminal():  # seat 1 may have a decision left in its last turn
        assert s.current_player() == 1
        act(s, str(s.legal_actions()[0]))
    assert turn_owners(s)[-2:] == [0, 1]


def test_terminal_state_refuses_actions_and_reports_results() -> None:
    s = new(lords=["red4"])
    s.deck = s.deck[-1:]
    act(s, "draw 1")
    assert s.is_terminal() and s.current_player() == TERMINAL_PLAYER
    assert s.legal_actions() == [] and s.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="over"):
        s.apply_action(s.history[-1][1])
    obs = s.public_observation()
    assert obs["phase"] == "over" and obs["scores"] == s.scores()
    assert obs["winners"] == [0]
    assert s.returns() == [1.0, -1.0]


def test_returns_are_zero_before_the_end() -> None:
    s = new()
    assert s.returns() == [0.0, 0.0]
    assert s.public_observation()["scores"] is None
