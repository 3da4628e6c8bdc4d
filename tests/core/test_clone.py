"""``clone()`` copies every attribute of a state, compiled or not.

The engine modules may be compiled with mypyc (``setup.py``), whose native classes have no
``__dict__``: ``clone`` copies the attributes named in each state module's ``STATE_FIELDS``
one by one.  A field added to a state but not to that list would be missing from every
clone (compiled: reading it raises ``AttributeError``; interpreted: it is absent), so these
tests walk random games and compare every attribute of each clone with its original.
"""

from __future__ import annotations

import copy as copy_module
import pickle
import random
from typing import Any

import pytest

import porphyra
from porphyra.core.conformance import fingerprint
from porphyra.core.errors import IllegalActionError
from porphyra.core.game import State
from porphyra.games.byzantium import state as byzantium_state
from porphyra.games.conspiracy import state as conspiracy_state

#: Caches that a clone starts afresh (a copy of the log cache, no offered-actions list).
_CACHES = {"_offered", "_log_cache"}

GAMES: list[tuple[str, dict[str, Any], tuple[str, ...]]] = [
    ("byzantium", {}, byzantium_state.STATE_FIELDS),
    ("conspiracy", {"players": 2}, conspiracy_state.STATE_FIELDS),
    ("conspiracy", {"players": 4}, conspiracy_state.STATE_FIELDS),
    ("conspiracy", {"players": 1}, conspiracy_state.STATE_FIELDS),
]


def _attributes(state: State) -> set[str]:
    """The instance attributes of ``state``: its ``__dict__`` (interpreted), or every
    attribute slot of its class (compiled: properties show up too; they are read alike)."""
    if hasattr(state, "__dict__"):
        return set(vars(state))
    return {
        name
        for cls in type(state).__mro__
        for name, value in vars(cls).items()
        if type(value).__name__ == "getset_descriptor" and not name.startswith("__")
    }


def _positions(name: str, options: dict[str, Any], seed: int) -> list[State]:
    game = porphyra.load_game(name, **options)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    seen = [state.clone()]
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        seen.append(state.clone())
    return seen


def _differences(original: State, copy: State) -> list[str]:
    """The attributes (caches aside) on which ``copy`` disagrees with ``original``, or
    which it lacks."""
    return [
        attribute
        for attribute in sorted(_attributes(original) - _CACHES)
        if not hasattr(copy, attribute) or getattr(copy, attribute) != getattr(original, attribute)
    ]


@pytest.mark.parametrize(("name", "options", "fields"), GAMES)
def test_clone_copies_every_attribute(
    name: str, options: dict[str, Any], fields: tuple[str, ...]
) -> None:
    for seed in range(4):
        for original in _positions(name, options, seed):
            copy = original.clone()
            if hasattr(original, "__dict__"):
                assert set(vars(original)) == set(fields), "STATE_FIELDS must name them all"
            assert _differences(original, copy) == []
            for seat in range(len(original.returns())):
                assert copy.observation(seat) == original.observation(seat)


@pytest.mark.parametrize(("name", "options"), [("byzantium", {}), ("conspiracy", {"players": 2})])
def test_a_field_left_out_of_state_fields_is_caught(
    name: str, options: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    module = byzantium_state if name == "byzantium" else conspiracy_state
    late = _positions(name, options, 0)[-1]
    left_out = tuple(f for f in module.STATE_FIELDS if f != "turn")
    monkeypatch.setattr(module, "STATE_FIELDS", left_out)
    assert "turn" in _differences(late, late.clone())


def _same_game_on(original: State, copy: State) -> None:
    """``copy`` shows what ``original`` shows and plays on exactly like it."""
    assert fingerprint(copy) == fingerprint(original)
    mirror = original.clone()
    while not copy.is_terminal():
        assert [str(a) for a in copy.legal_actions()] == [str(a) for a in mirror.legal_actions()]
        copy.apply_action(copy.legal_actions()[0])
        mirror.apply_action(mirror.legal_actions()[0])
    assert copy.returns() == mirror.returns()


@pytest.mark.parametrize(("name", "options", "fields"), GAMES)
@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_copy_deepcopy_and_pickle_give_the_same_position(
    name: str, options: dict[str, Any], fields: tuple[str, ...], how: str
) -> None:
    def make(state: State) -> State:
        if how == "copy":
            return copy_module.copy(state)
        if how == "deepcopy":
            return copy_module.deepcopy(state)
        restored: State = pickle.loads(pickle.dumps(state))
        return restored

    for seed in range(2):
        positions = _positions(name, options, seed)
        for original in positions[:: max(1, len(positions) // 5)]:
            before = fingerprint(original)
            _same_game_on(original, make(original))
            assert fingerprint(original) == before


@pytest.mark.parametrize(("name", "options"), [(n, o) for n, o, _ in GAMES])
def test_a_game_pickles_by_its_options(name: str, options: dict[str, Any]) -> None:
    game = porphyra.load_game(name, **options)
    game.new_initial_state(seed=1).legal_actions()  # (caches filled)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and again.record_options() == game.record_options()
    assert fingerprint(again.new_initial_state(seed=4)) == fingerprint(game.new_initial_state(4))


def test_changing_a_handed_out_legal_list_changes_nothing() -> None:
    state = porphyra.load_game("conspiracy", players=2).new_initial_state(seed=2)
    legal = state.legal_actions()
    other = porphyra.load_game("conspiracy", players=2).new_initial_state(seed=3)
    rng = random.Random(0)
    while (foreign := other.legal_actions()[0]) in legal:  # an action not legal here
        actions = other.legal_actions()
        other.apply_action(actions[rng.randrange(len(actions))])
    assert isinstance(legal, list)
    legal.append(foreign)  # the caller's list: the state does not trust what it holds now
    before = fingerprint(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(foreign)
    assert fingerprint(state) == before


def test_a_legal_action_list_pickles_as_the_list_of_its_actions() -> None:
    state = porphyra.load_game("byzantium").new_initial_state(seed=1)
    legal = state.legal_actions()
    restored = pickle.loads(pickle.dumps(legal))
    assert isinstance(restored, list) and restored == list(legal)
    assert [str(a) for a in copy_module.deepcopy(legal)] == [str(a) for a in legal]
