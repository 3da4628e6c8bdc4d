"""``clone()`` copies every attribute of a state, compiled or not.

The engine modules may be compiled with mypyc (``setup.py``), whose native classes have no
``__dict__``: ``clone`` copies the attributes named in each state module's ``STATE_FIELDS``
one by one.  A field added to a state but not to that list would be missing from every
clone (compiled: reading it raises ``AttributeError``; interpreted: it is absent), so these
tests walk random games and compare every attribute of each clone with its original.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import porphyra
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
