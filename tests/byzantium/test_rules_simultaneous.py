"""Ruling B-R3 (order of decisions): the Redraw, Meld and End choices are simultaneous and
secret, so either seat may choose first with the same game, view and record."""

from __future__ import annotations

import random

import pytest

from porphyra import record as records
from porphyra.core.conformance import fingerprint
from porphyra.core.errors import IllegalActionError
from porphyra.games.byzantium import ByzantiumState
from tests.byzantium.helpers import new_state, to_meld


def _foe_first(state: ByzantiumState, rng: random.Random) -> None:
    """Play one decision, the Foe's secret choice first whenever both seats are active."""
    active = state.active_players()
    if len(active) == 2:
        foe = active[1]
        choice = rng.choice(list(state.legal_actions(foe)))
        state.apply_action(choice, foe)
    else:
        state.apply_action(rng.choice(list(state.legal_actions())))


def test_b_r3_both_seats_are_active_in_redraw_meld_and_end() -> None:
    s = new_state()
    assert s.active_players() == [s.emperor, s.foe] and s.current_player() == s.emperor
    s.apply_action(s.game.parse_action(s, "redraw -", player=s.foe), s.foe)
    assert s.active_players() == [s.emperor]
    assert s.legal_actions(s.foe) == []
    s.apply_action(s.game.parse_action(s, "redraw -"))
    assert s.phase == "meld_byz" and s.active_players() == [s.emperor, s.foe]


def test_b_r3_foe_first_gives_the_same_game_view_and_record() -> None:
    s = new_state(seed=4)
    to_meld(s, ["justinian-i", "cavalry", "tribute"], ["huns", "raiders", "famine"])
    a, b = s.clone(), s.clone()
    emperor, foe = s.emperor, s.foe
    emperor_meld = a.game.parse_action(a, "meld justinian-i,cavalry")
    foe_meld = a.game.parse_action(a, "meld huns,raiders", player=a.foe)
    a.apply_action(emperor_meld)
    a.apply_action(foe_meld, a.foe)
    b.apply_action(foe_meld, b.foe)
    b.apply_action(emperor_meld, b.emperor)
    assert fingerprint(a) == fingerprint(b)
    assert records.dumps(a) == records.dumps(b)
    # The canonical order: the Emperor's choice comes first in the history.
    assert [p for p, _ in b.history[-2:]] == [emperor, foe]


def test_b_r3_the_foes_early_choice_is_hidden_from_the_emperor() -> None:
    s = new_state(seed=5)
    to_meld(s, ["justinian-i", "cavalry"], ["huns", "raiders"])
    before = (s.observation(s.emperor), s.public_observation(), s.active_players())
    s.apply_action(s.game.parse_action(s, "meld huns,raiders", player=s.foe), s.foe)
    assert (s.observation(s.emperor), s.public_observation()) == before[:2]
    assert sorted(s.observation(s.foe)["pending_meld"]) == ["huns", "raiders"]
    with pytest.raises(IllegalActionError, match="already chosen"):
        s.apply_action(s.game.parse_action(s, "meld -", player=s.emperor), s.foe)


def test_b_r3_a_record_holding_an_early_choice_replays_to_the_same_position() -> None:
    rng = random.Random(3)
    s = new_state(seed=9)
    for _ in range(60):
        if s.is_terminal():
            break
        _foe_first(s, rng)
        again = records.replay(records.loads(records.dumps(s)))
        assert fingerprint(again) == fingerprint(s)
        assert again.active_players() == s.active_players()
