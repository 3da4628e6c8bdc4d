"""Seat arguments of the engine API (``porphyra.core.seatarg``): any integer type is a seat
number (numpy's too, as RL code passes them), anything else is refused with ``SeatError``
and changes nothing, in the interpreted and the compiled engine alike."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import porphyra
from porphyra.bots import make_bot, seat_view
from porphyra.core.conformance import fingerprint
from porphyra.core.errors import SeatError
from porphyra.core.game import State
from porphyra.games.byzantium.state import ByzantiumState

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("byzantium", {}),
    ("conspiracy", {"players": 2}),
    ("conspiracy", {"players": 1}),
    ("conspiracy", {"players": 4}),
]
NOT_SEATS: list[Any] = [
    "0",
    "1",
    0.0,
    1.5,
    True,
    False,
    [0],
    b"0",
    object(),
    np.bool_(True),
    np.float64(1.0),
    np.array(1.0),
    np.array([1]),
]


def _positions(name: str, options: dict[str, Any], games: int = 3) -> list[State]:
    out = []
    game = porphyra.load_game(name, **options)
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if rng.random() < 0.2:
                out.append(state.clone())
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
    return out


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_numpy_integers_are_seats(name: str, options: dict[str, Any]) -> None:
    for state in _positions(name, options):
        for seat in range(len(state.returns())):
            for kind in (np.int64, np.int32, np.uint8):
                s = kind(seat)
                texts = [str(a) for a in state.legal_actions(s)]
                assert texts == [str(a) for a in state.legal_actions(seat)]
                assert state.legal_action_texts(s) == texts
                assert state.observation(s) == state.observation(seat)
                assert state.hidden_from(s) == state.hidden_from(seat)
                copy = state.resample(s, random.Random(1))
                assert copy.observation(seat) == state.resample(seat, random.Random(1)).observation(
                    seat
                )
            for seat in state.active_players():
                played = state.clone()
                played.apply_action(played.legal_actions(seat)[0], np.int64(seat))
                expected = state.clone()
                expected.apply_action(expected.legal_actions(seat)[0], seat)
                assert fingerprint(played) == fingerprint(expected)


def _calls(state: State, seat: Any, with_actions: bool) -> list[tuple[str, tuple[Any, ...]]]:
    """``(method, arguments)`` of the seat-taking methods, with ``seat`` as the seat."""
    calls: list[tuple[str, tuple[Any, ...]]] = [
        ("observation", (seat,)),
        ("resample", (seat, random.Random(0))),
        ("hidden_from", (seat,)),
    ]
    if with_actions:
        action = state.legal_actions()[0]
        calls += [
            ("legal_actions", (seat,)),
            ("legal_action_texts", (seat,)),
            ("apply_action", (action, seat)),
            ("parse_action", (str(action), seat)),
        ]
    return calls


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_what_is_not_a_seat_is_refused_and_changes_nothing(
    name: str, options: dict[str, Any]
) -> None:
    for state in _positions(name, options, games=1)[:6]:
        before = fingerprint(state)
        for bad in NOT_SEATS:
            for method, args in _calls(state, bad, with_actions=True):
                owner = state.game if method == "parse_action" else state
                call = getattr(owner, method)
                with pytest.raises(SeatError, match="not a seat"):
                    call(state, *args) if method == "parse_action" else call(*args)
        for missing in (None, len(state.returns()) + 1, -1, 2**70):
            for method, args in _calls(state, missing, with_actions=False):
                with pytest.raises(SeatError):
                    getattr(state, method)(*args)
        assert fingerprint(state) == before


def test_a_seat_error_is_a_value_error_with_the_seat_in_its_message() -> None:
    state = porphyra.load_game("conspiracy", players=2).new_initial_state(seed=1)
    with pytest.raises(ValueError, match="no seat 5 in this game: its seats are 0 to 1"):
        state.observation(5)


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_a_finished_game_refuses_what_is_not_a_seat_too(name: str, options: dict[str, Any]) -> None:
    game = porphyra.load_game(name, **options)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert list(state.legal_actions(0)) == [] and state.legal_action_texts(np.int64(0)) == []
    for bad in NOT_SEATS:
        with pytest.raises(SeatError):
            state.legal_actions(bad)


@pytest.mark.parametrize(("name", "options"), GAMES[:2])
@pytest.mark.parametrize("spec", ["easy", "ismcts:iterations=20"])
def test_bots_take_a_numpy_seat(name: str, options: dict[str, Any], spec: str) -> None:
    state = porphyra.load_game(name, **options).new_initial_state(seed=11)
    seat = state.current_player()
    chosen = make_bot(spec, seed=1).choose(seat_view(state, np.int64(seat)))
    assert chosen == make_bot(spec, seed=1).choose(seat_view(state, seat))


def test_a_pending_choice_is_read_for_a_numpy_seat_and_refused_for_a_bad_one() -> None:
    state = porphyra.load_game("byzantium").new_initial_state(seed=11)
    assert isinstance(state, ByzantiumState)
    state.apply_action(state.legal_actions(1)[0], 1)  # the Foe's secret choice first (B-R3)
    assert state.pending_choice(np.int64(1)) == state.pending_choice(1) is not None
    bad: Any
    for bad in (None, 1.0, "1", 2, -1):
        with pytest.raises(SeatError):
            state.pending_choice(bad)
