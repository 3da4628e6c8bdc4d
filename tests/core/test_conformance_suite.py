"""The conformance suite itself must catch broken games: a leak, a non-deterministic
seed, a clone that shares state."""

from __future__ import annotations

from typing import Any

import pytest

from porphyra.core import conformance, registry
from porphyra.games.byzantium.game import ByzantiumGame
from porphyra.games.byzantium.state import ByzantiumState


class _LeakyState(ByzantiumState):
    def observation(self, player: int) -> dict[str, Any]:
        obs = super().observation(player)
        obs["peek"] = len(self.draw[0]) and self._cs.cards[self.draw[0][-1]].slug
        return obs


class _SharedCloneState(ByzantiumState):
    def clone(self) -> ByzantiumState:
        new = super().clone()
        new.hands = self.hands  # bug: shares the hands
        return new


class _LeakyGame(ByzantiumGame):
    def new_initial_state(self, seed: int = 0) -> ByzantiumState:
        state = super().new_initial_state(seed)
        state.__class__ = _LeakyState
        return state


class _SharedCloneGame(ByzantiumGame):
    def new_initial_state(self, seed: int = 0) -> ByzantiumState:
        state = super().new_initial_state(seed)
        state.__class__ = _SharedCloneState
        return state


def _register(monkeypatch: pytest.MonkeyPatch, name: str, game_cls: type) -> None:
    monkeypatch.setitem(registry._GAMES, name, f"{__name__}:{game_cls.__name__}")


def test_suite_catches_an_observation_leak(monkeypatch: pytest.MonkeyPatch) -> None:
    _register(monkeypatch, "leaky", _LeakyGame)
    with pytest.raises(AssertionError, match="changed observation"):
        conformance.check_resample("leaky", {}, games=2)


def test_suite_catches_a_clone_that_shares_state(monkeypatch: pytest.MonkeyPatch) -> None:
    _register(monkeypatch, "sharing", _SharedCloneGame)
    with pytest.raises(AssertionError, match="clone"):
        conformance.check_clone_independence("sharing", {}, games=1)


def test_suite_passes_the_real_game() -> None:
    conformance.check_clone_independence("byzantium", {}, games=1)
