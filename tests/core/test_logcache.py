"""The formatted log travels with copies of a state without ever mixing two histories:
a copy and its original each read exactly the lines of their own events."""

from __future__ import annotations

import random

import pytest

from porphyra import record as records
from porphyra.core.game import State
from porphyra.core.logcache import FormattedLog
from porphyra.core.registry import load_game


def test_a_copy_shares_the_lines_until_it_adds_its_own() -> None:
    events = ["a", "b"]
    original: FormattedLog[str] = FormattedLog(events)
    assert original.read(events, str.upper) == ["A", "B"]
    copied_events = list(events)
    copy = original.for_copy(copied_events)
    events.append("c")  # the original goes on ...
    assert original.read(events, str.upper) == ["A", "B", "C"]
    copied_events.append("x")  # ... and so does the copy, differently
    assert copy.read(copied_events, str.upper) == ["A", "B", "X"]
    assert original.read(events, str.upper) == ["A", "B", "C"]
    del events[1:]  # a list cut in place is formatted again
    assert original.read(events, str.upper) == ["A"]
    assert FormattedLog(["a", "b"]).read(["a", "b"], lambda e: None if e == "a" else e) == ["b"]


@pytest.mark.parametrize(("name", "options"), [("byzantium", {}), ("conspiracy", {"players": 3})])
def test_clones_read_their_own_log_after_diverging(name: str, options: dict[str, int]) -> None:
    game = load_game(name, **options)
    rng = random.Random(7)
    state = game.new_initial_state(seed=7)
    views = [*range(game.num_players), None]

    def logs(s: State) -> list[object]:
        return [
            s.public_observation()["log"] if v is None else s.observation(v)["log"] for v in views
        ]

    while not state.is_terminal():
        logs(state)  # the original has formatted its lines (the server reads every view)
        copy = state.clone()
        for s in (state, copy):  # both go on, with different choices
            for _ in range(3):
                if not s.is_terminal():
                    s.apply_action(rng.choice(s.legal_actions()))
        for s in (state, copy):
            fresh = records.replay(records.to_record(s))  # the same history, never cached
            assert logs(s) == logs(fresh)


def test_the_first_to_add_a_line_appends_in_place_and_the_other_copies() -> None:
    events = ["a", "b"]
    original: FormattedLog[str] = FormattedLog(events)
    original.read(events, str.upper)
    copied_events = list(events)
    copy = original.for_copy(copied_events)
    shared = original.lines
    copied_events.append("x")  # the copy goes on first: at the end of the shared list
    assert copy.read(copied_events, str.upper) == ["A", "B", "X"]
    assert copy.lines is shared  # (appended in place, nothing copied)
    assert original.read(events, str.upper) == ["A", "B"]  # never past its own lines
    events.append("c")  # the original goes on too: it copies its own lines first
    assert original.read(events, str.upper) == ["A", "B", "C"]
    assert original.lines is not shared
    assert copy.read(copied_events, str.upper) == ["A", "B", "X"]
    copied_events.append("y")  # the copy is still at the end of its list
    assert copy.read(copied_events, str.upper, start=2) == ["X", "Y"]
    assert copy.lines is shared
