"""The end screen's course (``porphyra.server.summary.state_summary``): built from the
finished state's own actions, it is the course that replaying the game's record gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from porphyra import record as records
from porphyra.core.game import State
from porphyra.core.registry import load_game, web_hooks
from porphyra.server.summary import _states, state_summary


def _finished(name: str, options: dict[str, Any], seed: int) -> State:
    state = load_game(name, **options).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = rng.choice(state.active_players())
        legal = state.legal_actions(seat)
        state.apply_action(legal[rng.randrange(len(legal))], seat)
    return state


@pytest.mark.parametrize("seed", range(6))
def test_course_of_a_state_is_the_course_of_its_record(seed: int) -> None:
    # The oracle: the record written and read back, every action parsed from its text,
    # and the public observations with their logs.
    state = _finished("byzantium", {}, seed)
    hook = web_hooks("byzantium").summary
    assert hook is not None
    rec = records.to_record(state)
    expected = hook(state.game, (s.public_observation() for _, _, s in _states(rec)))
    course = state_summary(state)
    assert course == expected
    assert len(course["turns"]) == state.public_observation()["turn"]


def test_a_game_without_a_course_has_none() -> None:
    assert state_summary(_finished("conspiracy", {"players": 2}, 1)) == {}
