"""Rules section 7: the action notation, exactly, and its error messages."""

from __future__ import annotations

import random

import pytest

from porphyra.core.errors import IllegalActionError, InvalidActionError, SeatError
from porphyra.games.byzantium.actions import ByzantiumAction
from tests.byzantium.helpers import act, meld, new_state, to_meld


@pytest.mark.parametrize(
    "text",
    [
        "redraw infantry,chronicle",
        "redraw -",
        "meld justinian-i,cavalry,infantry,tribute",
        "meld -",
        "target huns",
        "target -",
        "replace avars",
        "replace -",
        "pass archers",
    ],
)
def test_section_7_examples_parse_and_print_back(text: str) -> None:
    from porphyra.games.byzantium.actions import parse

    s = new_state()
    action = parse(text, s.game.cardset)
    assert isinstance(action, ByzantiumAction)
    canonical = str(action)
    assert parse(canonical, s.game.cardset) == action
    assert sorted(canonical.split(" ")[1].split(",")) == sorted(text.split(" ")[1].split(","))


def test_section_7_card_order_does_not_matter() -> None:
    s = new_state()
    to_meld(s, ["justinian-i", "cavalry"], [])
    a = s.game.parse_action(s, "meld justinian-i,cavalry")
    b = s.game.parse_action(s, "meld cavalry,justinian-i")
    assert a == b and str(a) == str(b) == "meld cavalry,justinian-i"


def test_section_7_every_legal_action_round_trips() -> None:
    for seed in range(10):
        s = new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            acts = s.legal_actions()
            for a in acts:
                assert s.game.parse_action(s, str(a)) == a
            s.apply_action(acts[rng.randrange(len(acts))])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("attack huns", "unknown action 'attack'"),
        ("meld", "exactly one argument"),
        ("meld a b", "exactly one argument"),
        ("meld dragons", "unknown card 'dragons'"),
        ("meld infantry,,archers", "empty card name"),
        ("pass -", "needs the card"),
        ("target huns,avars", "single card"),
    ],
)
def test_section_7_malformed_text_names_the_problem(text: str, message: str) -> None:
    s = new_state()
    before = s.public_observation()
    with pytest.raises(InvalidActionError, match=message):
        s.game.parse_action(s, text)
    assert s.public_observation() == before


def test_section_7_wrong_phase_and_not_your_turn() -> None:
    s = new_state()
    with pytest.raises(IllegalActionError, match="wrong phase: it is the redraw phase"):
        s.game.parse_action(s, "meld -")
    # B-R3: both seats decide the Redraw; a seat that has chosen is told it waits.
    assert s.game.parse_action(s, "redraw -", player=s.foe) == ByzantiumAction("redraw", ())
    act(s, "redraw -")
    with pytest.raises(IllegalActionError, match="already chosen; waiting for seat"):
        s.game.parse_action(s, "redraw -", player=s.emperor)
    # A seat that is none of the game's is told so (it was "not your turn" before).
    with pytest.raises(SeatError, match="no seat 5 in this game"):
        s.game.parse_action(s, "redraw -", player=5)
    # The Emperor alone names the negotiation target (B-R4): the Foe is told to wait.
    t = new_state()
    to_meld(t, ["tribute", "cavalry"], ["huns", "earthquake", "raiders"])
    meld(t, "tribute,cavalry", "huns,earthquake,raiders")
    assert t.phase == "target"
    with pytest.raises(IllegalActionError, match=f"not your turn: seat {t.emperor} decides"):
        t.game.parse_action(t, "target huns", player=t.foe)


def test_illegal_apply_changes_nothing() -> None:
    s = new_state()
    before = (s.public_observation(), s.observation(0), s.observation(1), len(s.history))
    with pytest.raises(IllegalActionError):
        s.apply_action(ByzantiumAction("meld", ("infantry",)))
    with pytest.raises(IllegalActionError):
        s.apply_action(ByzantiumAction("redraw", ("dragons",)))
    assert before == (s.public_observation(), s.observation(0), s.observation(1), len(s.history))


def test_section_7_legal_texts_asked_again_are_the_same_and_owned_by_the_caller() -> None:
    # The texts of a hand's options are kept between calls (a server asks after every
    # change); each call hands out its own list, in legal_actions' order.
    import porphyra

    game = porphyra.load_game("byzantium")
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for seat in state.active_players():
                first = state.legal_action_texts(seat)
                first.append("meld nonsense")
                again = state.legal_action_texts(seat)
                assert again == [str(a) for a in state.legal_actions(seat)]
            seat = state.active_players()[0]
            legal = state.legal_actions(seat)
            state.apply_action(legal[rng.randrange(len(legal))], seat)
