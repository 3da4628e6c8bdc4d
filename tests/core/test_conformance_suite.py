"""The conformance suite itself must catch broken games: a leak, a non-deterministic
seed, a clone that shares state, an action accepted but not listed, a simultaneous choice
whose order matters."""

from __future__ import annotations

from collections import Counter
from typing import Any, SupportsIndex

import pytest

from porphyra.core import conformance, registry
from porphyra.core.game import Action
from porphyra.core.messages import Message, numbered
from porphyra.games.byzantium.actions import ByzantiumAction
from porphyra.games.byzantium.game import ByzantiumGame
from porphyra.games.byzantium.state import ByzantiumState


class _LeakyState(ByzantiumState):
    def observation(
        self, player: SupportsIndex, log: bool = True, by_kind: bool = False
    ) -> dict[str, Any]:
        obs = super().observation(player, log, by_kind)
        obs["peek"] = len(self.draw[0]) and self._cs.cards[self.draw[0][-1]].slug
        return obs


class _SharedCloneState(ByzantiumState):
    def clone(self) -> ByzantiumState:
        new = super().clone()
        new.hands = self.hands  # bug: shares the hands
        return new


#: A list that outlives every observation (as a state's own list would).
_KEPT: list[int] = [0]


class _SharingViewState(ByzantiumState):
    def observation(
        self, player: SupportsIndex, log: bool = True, by_kind: bool = False
    ) -> dict[str, Any]:
        obs = super().observation(player, log, by_kind)
        obs["tokens"] = _KEPT  # bug: kept data in the view, not a new list
        return obs


class _LooseState(ByzantiumState):
    def _listed(self, action: Action, seat: int) -> tuple[int, ...] | None:
        # bug: accepts any cards in hand, whatever the meld limits, B-R10 or the phase
        if not isinstance(action, ByzantiumAction):
            return None
        try:
            chosen = tuple(sorted(self._cs.by_slug[s].index for s in action.cards))
        except KeyError:
            return None
        return None if Counter(chosen) - Counter(self.hands[seat]) else chosen


def _game_playing(state_class: type[ByzantiumState]) -> type[ByzantiumGame]:
    """Byzantium whose states are ``state_class`` (an engine with a bug for the suite to
    catch), named after it (``_LeakyState``: ``_LeakyGame``) for :func:`_register`."""

    class Game(ByzantiumGame):
        def new_initial_state(self, seed: int = 0) -> ByzantiumState:
            state = super().new_initial_state(seed)
            state.__class__ = state_class
            return state

    Game.__name__ = Game.__qualname__ = state_class.__name__.removesuffix("State") + "Game"
    return Game


class _MislabelledState(ByzantiumState):
    def legal_action_texts(self, player: SupportsIndex | None = None) -> list[str]:
        texts = super().legal_action_texts(player)
        return texts[::-1]  # bug: not in legal_actions' order


_MislabelledGame = _game_playing(_MislabelledState)


_LeakyGame = _game_playing(_LeakyState)


_SharedCloneGame = _game_playing(_SharedCloneState)


_SharingViewGame = _game_playing(_SharingViewState)


_LooseGame = _game_playing(_LooseState)


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


def test_suite_catches_legal_texts_out_of_order(monkeypatch: pytest.MonkeyPatch) -> None:
    _register(monkeypatch, "mislabelled", _MislabelledGame)
    with pytest.raises(AssertionError, match="legal_action_texts"):
        conformance.check_actions("mislabelled", {}, games=1)


def test_suite_passes_the_real_game() -> None:
    conformance.check_clone_independence("byzantium", {}, games=1)
    conformance.check_observations_are_owned("byzantium", {}, games=1)


def test_suite_catches_an_observation_that_shares_the_states_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _register(monkeypatch, "sharing-view", _SharingViewGame)
    with pytest.raises(AssertionError, match=r"an observation (shares|changed)"):
        conformance.check_observations_are_owned("sharing-view", {}, games=1)


def test_suite_catches_an_accepted_action_that_is_not_listed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _register(monkeypatch, "loose", _LooseGame)
    with pytest.raises(AssertionError, match="not among its legal actions"):
        conformance.check_accepted_are_listed("loose", {}, games=1)


def test_suite_catches_a_simultaneous_choice_whose_order_matters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = ByzantiumState.apply_action

    def ordered(self: ByzantiumState, action: Action, player: int | None = None) -> None:
        if player is not None and player != self.current_player():
            self.lt[0] += 1  # bug: the Foe choosing first changes the game
        original(self, action, player)

    monkeypatch.setattr(ByzantiumState, "apply_action", ordered)
    with pytest.raises(AssertionError, match="order of the simultaneous choices"):
        conformance.check_simultaneous("byzantium", {}, games=1)


@pytest.mark.parametrize(("name", "options"), [("byzantium", {}), ("conspiracy", {"players": 2})])
def test_the_seat_after_the_last_is_refused(name: str, options: dict[str, Any]) -> None:
    # Seat 2 of a two-seat game is no seat: SeatError, not an empty list or "not your turn".
    from porphyra.core.errors import SeatError
    from porphyra.core.registry import load_game

    state = load_game(name, **options).new_initial_state(seed=1)
    action = state.legal_actions()[0]
    for call in (
        lambda: state.legal_actions(2),
        lambda: state.apply_action(action, 2),
        lambda: state.legal_action_texts(2),
    ):
        with pytest.raises(SeatError, match="no seat 2"):
            call()
    assert state.legal_actions(0) or state.legal_actions(1)


class _TellingLogState(ByzantiumState):
    """Its log messages are every event, whoever it was meant for (a seat would read the
    other hand's draws in the translated log)."""

    def log_messages(self, player: SupportsIndex | None = None, start: int = 0) -> list[Message]:
        return [
            Message(numbered(text), tuple(self._arg(a) for a in args))
            for _, text, args in self.events
        ][start:]


_TellingLogGame = _game_playing(_TellingLogState)


def test_suite_catches_log_messages_that_say_more_than_the_log(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conformance.check_log_messages("byzantium", {}, games=1)
    _register(monkeypatch, "telling", _TellingLogGame)
    with pytest.raises(AssertionError, match="is not its log"):
        conformance.check_log_messages("telling", {}, games=1)


class _ForgetfulState(ByzantiumState):
    """Without its log, its public view forgets the turn too."""

    def public_observation(self, log: bool = True) -> dict[str, Any]:
        obs = super().public_observation(log)
        if not log:
            obs["turn"] = 0
        return obs


_ForgetfulGame = _game_playing(_ForgetfulState)


def test_suite_catches_a_public_view_without_log_that_drops_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    conformance.check_views_without_log("byzantium", {}, games=1)
    _register(monkeypatch, "forgetful", _ForgetfulGame)
    with pytest.raises(AssertionError, match="differs beyond the log"):
        conformance.check_views_without_log("forgetful", {}, games=1)


class _FromTheStartState(ByzantiumState):
    """Its log messages always start at the first line, whatever line was asked for."""

    def log_messages(self, player: SupportsIndex | None = None, start: int = 0) -> list[Message]:
        return super().log_messages(player)


_FromTheStartGame = _game_playing(_FromTheStartState)


def test_suite_catches_log_messages_that_ignore_where_to_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _register(monkeypatch, "from_the_start", _FromTheStartGame)
    with pytest.raises(AssertionError, match="is not the log from line"):
        conformance.check_views_without_log("from_the_start", {}, games=1)
