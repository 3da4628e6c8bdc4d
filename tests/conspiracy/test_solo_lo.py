"""Solo mode: the Legendary Opponent's card and turn (rules sections 4.1, 4.2; C-R13,
C-R14, C-R15; engine rulings S-R1 ... S-R5 in :mod:`porphyra.games.conspiracy.solo`)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import porphyra
from porphyra.core.errors import CardDataError, IllegalActionError, InvalidActionError
from porphyra.games.conspiracy import ConspiracyGame, ConspiracyState
from porphyra.games.conspiracy.cards import COLOURS
from porphyra.games.conspiracy.solo import (
    FACE_DOWN,
    default_opponents,
    load_opponents,
    pile_meets,
)
from porphyra.games.conspiracy.state import OVER
from tests.conspiracy.helpers import (
    act,
    chamber,
    legal,
    log_since,
    new,
    pile,
    put_pile,
    set_chamber,
    solo,
)

YELLOW, RED, GREEN, BLUE, PURPLE = range(5)


def _state(game: object, seed: int) -> ConspiracyState:
    assert isinstance(game, ConspiracyGame)
    return game.new_initial_state(seed=seed)


def _meets(s: ConspiracyState, condition: str) -> list[str]:
    return [COLOURS[c] for c in range(5) if pile_meets(s, condition, c)]


# ------------------------------------------------------------------- setup, seats
def test_solo_is_one_deciding_player_with_the_lo_as_seat_1() -> None:
    game = porphyra.load_game("conspiracy", players=1, opponent="military")
    assert game.num_players == 1
    s = game.new_initial_state(seed=4)
    obs = s.public_observation()
    assert len(obs["players"]) == 2 and len(s.scores()) == 2
    assert obs["legendary_opponent"]["name"] == "military"
    assert [c["name"] for c in obs["legendary_opponent"]["conditions"]] == [
        "MIL",
        "SIX",
        "COAL",
        "STACK",
    ]
    assert "2 IP per red lord" in obs["legendary_opponent"]["bonus"]
    assert "draw" in obs["legendary_opponent"]["ability"]
    assert s.returns() == [0.0]
    assert s.legal_actions(1) == []


def test_c_r15_you_take_the_first_turn() -> None:
    game = porphyra.load_game("conspiracy", players=1, opponent="farmer")
    for seed in range(10):
        s = _state(game, seed)
        assert s.current_player() == 0 and s.current == 0 and s.phase_name == "recruit"


def test_random_opponent_is_drawn_from_the_seed_and_replays() -> None:
    game = porphyra.load_game("conspiracy", players=1, opponent="random")
    assert game.record_options()["opponent"] == "random"
    names = {_state(game, x).opponent.name for x in range(40)}
    assert names == {"farmer", "military", "merchant", "politician", "mage"}
    again = porphyra.load_game("conspiracy", **game.record_options())
    assert _state(again, 7).opponent == _state(game, 7).opponent
    assert porphyra.load_game("conspiracy", players=1).record_options()["opponent"] == "random"


def test_lo_cards_match_section_4_1() -> None:
    cards = {o.name: o.conditions for o in default_opponents()}
    assert cards == {
        "farmer": ("STACK", "KEY", "COAL"),
        "military": ("MIL", "SIX", "COAL", "STACK"),
        "merchant": ("PEARL", "COAL", "STACK"),
        "politician": ("SIX", "KEY", "COAL", "STACK"),
        "mage": ("KEY", "COAL", "STACK"),
    }


def test_lo_card_file_is_validated(tmp_path: Path) -> None:
    bad = tmp_path / "lo.json"
    bad.write_text(
        '{"opponents": [{"name": "x", "title": "X", "colour": "red", "conditions": ["FOO"],'
        ' "bonus": {"kind": "none", "params": {}}, "ability": {"kind": "none", "params": {}}}]}'
    )
    with pytest.raises(CardDataError, match="conditions"):
        load_opponents(bad)
    bad.write_text(
        '{"opponents": [{"name": "x", "title": "X", "colour": "red", "conditions": ["KEY"],'
        ' "bonus": {"kind": "fame", "params": {}}, "ability": {"kind": "none", "params": {}}}]}'
    )
    with pytest.raises(CardDataError, match="unknown kind 'fame'"):
        load_opponents(bad)


def test_solo_verbs_parse_only_in_solo() -> None:
    s2 = new()
    with pytest.raises(InvalidActionError, match="solo"):
        s2.game.parse_action(s2, "lopile red")
    s = solo()
    with pytest.raises(IllegalActionError, match="recruit"):
        s.game.parse_action(s, "lopile red")
    with pytest.raises(InvalidActionError, match="replay"):
        s.game.parse_action(s, "replay now")


# --------------------------------------------------------------- conditions (4.1)
def test_condition_stack_needs_two_lords() -> None:
    s = solo()
    put_pile(s, "red1", "green1", "green3")
    assert _meets(s, "STACK") == ["green"]


def test_condition_key_needs_a_keyed_lord() -> None:
    s = solo()
    put_pile(s, "red3", "green2", "blue0", "blue4", "purple1")
    assert _meets(s, "KEY") == ["green", "purple"]


def test_condition_pearl_needs_a_lord_with_pearls() -> None:
    s = solo()
    put_pile(s, "red3", "green2", "blue4", "purple6")
    assert _meets(s, "PEARL") == ["red", "blue"]


def test_condition_mil_is_the_non_empty_red_pile() -> None:
    s = solo()
    put_pile(s, "green1")
    assert _meets(s, "MIL") == []
    put_pile(s, "red0")
    assert _meets(s, "MIL") == ["red"]


def test_condition_six_needs_a_6_ip_lord() -> None:
    s = solo()
    put_pile(s, "red4", "blue6", "blue1")
    assert _meets(s, "SIX") == ["blue"]


def test_c_r13_coal_uses_the_slots_the_pile_would_fill() -> None:
    s = solo()
    # LO slots 1-5; slot 6 touches 1, 2, 7, 10; slot 9 touches 4, 5, 8, 12.
    set_chamber(s, 1, "yellow1", "yellow2", "blue1", "green1", "red1")
    put_pile(s, "red3")
    assert _meets(s, "COAL") == []  # one red lord fills slot 6: no red neighbour
    put_pile(s, "red4", "red4", "red0")
    assert _meets(s, "COAL") == ["red"]  # four fill 6-9: slot 9 touches red slot 5
    put_pile(s, "yellow4")
    assert _meets(s, "COAL") == ["yellow", "red"]  # one yellow in slot 6 touches slots 1, 2


def test_c_r13_coal_with_overflow_counts_only_existing_slots() -> None:
    s = solo()
    lords = ["yellow1"] * 4 + ["red1"] * 4 + ["blue1"] * 4 + ["green1", "purple1"]
    set_chamber(s, 1, *lords)  # 14 lords: slot 15 touches 13 (green) and 14 (purple)
    put_pile(s, "red3", "red4")
    assert not pile_meets(s, "COAL", RED)
    put_pile(s, "purple3", "purple4")
    assert pile_meets(s, "COAL", PURPLE)


def test_an_empty_pile_meets_no_condition() -> None:
    s = solo()
    set_chamber(s, 1, "red1")
    assert all(not pile_meets(s, c, RED) for c in ("STACK", "KEY", "PEARL", "MIL", "SIX", "COAL"))


# ------------------------------------------------------------- the LO turn (4.2)
def test_priority_the_first_condition_met_decides() -> None:
    # Military: MIL, SIX, COAL, STACK.  blue meets SIX and STACK, red only MIL: red wins.
    s = solo("military", lords=["yellow4"])
    put_pile(s, "blue6", "blue2", "red1")
    start = len(s.log)
    act(s, "draw 1")
    assert "MIL: red" in log_since(s, start)
    assert chamber(s, 1) == ["red1"]
    assert sorted(pile(s, "blue")) == ["blue2", "blue6"]


def test_priority_falls_through_to_a_later_condition() -> None:
    # Farmer: STACK, KEY, COAL.  No pile of 2; green has a key: KEY decides.
    s = solo("farmer", lords=["yellow4"])
    put_pile(s, "red4", "green2", "blue3")
    start = len(s.log)
    act(s, "draw 1")
    text = log_since(s, start)
    assert "STACK: no pile; KEY: green" in text
    assert "takes the green pile [KEY" in text
    assert chamber(s, 1) == ["green2"]


def test_human_chooses_among_piles_meeting_the_deciding_condition() -> None:
    s = solo("farmer", lords=["yellow4"])
    put_pile(s, "green1", "green1", "blue3", "blue4", "red1")
    act(s, "draw 1")
    assert s.phase_name == "lopile" and s.current_player() == 0 and s.current == 1
    assert legal(s) == ["lopile green", "lopile blue"]
    assert s.public_observation()["lo_choice"]["piles"] == ["green", "blue"]
    act(s, "lopile blue")
    # distinct lords: you order them (C-R5 for the LO)
    assert s.phase_name == "loplace"
    assert legal(s) == ["loplace blue3", "loplace blue4"]
    act(s, "loplace blue4")
    assert chamber(s, 1) == ["blue4", "blue3"]
    assert pile(s, "green") == ["green1", "green1"]
    assert s.phase_name == "recruit" and s.current == 0


def test_identical_lords_need_no_placing_choice() -> None:
    s = solo("farmer", lords=["yellow4"])
    put_pile(s, "green1", "green1")
    act(s, "draw 1")
    assert chamber(s, 1) == ["green1", "green1"]
    assert s.current == 0 and s.phase_name == "recruit"


def test_s_r1_reveal_loop_until_the_pile_meets_a_condition() -> None:
    # Farmer, empty piles: green3 (no), blue4 (no), green0 -> green pile of 2 meets STACK.
    s = solo("farmer", lords=["yellow4", "green3", "blue4", "green0", "red1"])
    start = len(s.log)
    act(s, "draw 1")
    text = log_since(s, start)
    assert text.count("reveals") == 3
    assert "reveals green3 onto the green pile, which still meets none" in text
    assert "reveals green0 onto the green pile, which now meets STACK" in text
    act(s, "loplace green3")
    assert chamber(s, 1) == ["green3", "green0"]
    assert pile(s, "blue") == ["blue4"]
    assert s.deck[-1] == s.cards.lord_index["red1"]  # the loop stopped


def test_c_r14_fallback_takes_the_largest_pile() -> None:
    s = solo("farmer")
    put_pile(s, "red4", "purple3")
    s.deck.clear()
    act(s, "take purple")  # you take purple; the deck is empty and red4 meets nothing
    assert "takes the largest pile (C-R14)" in "\n".join(s.log)
    assert chamber(s, 1) == ["red4"]


def test_c_r14_fallback_tie_is_the_humans_choice() -> None:
    s = solo("farmer")
    put_pile(s, "red4", "yellow3", "purple3")
    s.deck.clear()
    act(s, "take purple")
    assert s.phase_name == "lopile"
    assert legal(s) == ["lopile yellow", "lopile red"]
    act(s, "lopile red")
    assert chamber(s, 1) == ["red4"] and pile(s, "yellow") == ["yellow3"]


def test_lo_six_reveals_and_its_zero_does_nothing() -> None:
    s = solo("farmer", lords=["yellow4", "blue1"])
    put_pile(s, "red6", "red0")
    start = len(s.log)
    act(s, "draw 1")
    act(s, "loplace red0")
    text = log_since(s, start)
    assert "0-IP lord has no effect" in text
    assert s.phase_name == "recruit"  # no swap was asked
    assert "blue1 revealed onto the blue pile" in text
    assert pile(s, "blue") == ["blue1"]


def test_lo_overflow_goes_back_to_the_pile() -> None:
    s = solo("farmer", lords=["yellow4"])
    set_chamber(s, 1, *(["yellow1"] * 3 + ["red1"] * 4 + ["blue1"] * 4 + ["purple1"] * 3))
    put_pile(s, "green4", "green4")
    act(s, "draw 1")
    assert len(s.chambers[1]) == 15
    assert pile(s, "green") == ["green4"]


def test_lo_pearls_and_the_pearl_master_c_r16() -> None:
    s = solo("farmer", lords=["yellow4"])
    put_pile(s, "green3", "green3")
    act(s, "draw 1")  # you: 1 pearl, Pearl Master; the LO: 4 pearls, takes it
    assert s.pearls == [1, 4] and s.pm == 1
    assert "the LO takes the Pearl Master token" in "\n".join(s.log)


# ------------------------------------------------------------- LO Locations (4.2.4)
def test_lo_takes_a_random_face_up_location_face_down() -> None:
    s = solo("farmer", lords=["yellow4"], locations=["l7"])
    put_pile(s, "green1", "green1")
    act(s, "draw 1")
    assert s.face_up == [] and [s.t.slug[i] for i in s.locs[1]] == ["l7"]
    cell = s.public_observation()["players"][1]["chamber"][1]
    assert cell == {"lord": "green1", "location": "l7", "face_down": True}
    assert s.pearls[1] == 0  # no effect
    assert s.scores()[1]["locations"] == 5


def test_lo_random_face_up_pick_comes_from_the_seeded_generator() -> None:
    picked = set()
    for seed in range(12):
        s = solo("farmer", lords=["yellow4"], locations=["l7"], seed=seed)
        s.face_up += [s.loc_deck.pop(), s.loc_deck.pop()]
        put_pile(s, "green1", "green1")
        twin = s.clone()
        act(s, "draw 1")
        act(twin, "draw 1")
        assert s.locs[1] == twin.locs[1]
        picked.add(s.locs[1][0])
    assert len(picked) > 1


def test_s_r2_location_from_the_deck_top_stays_hidden() -> None:
    s = solo("farmer", lords=["yellow4"], locations=["l7", "domains"])
    s.face_up.clear()
    put_pile(s, "green1", "green1")
    act(s, "draw 1")
    assert s.t.slug[s.locs[1][0]] == "domains"
    obs = s.observation(0)
    assert obs["players"][1]["locations"] == [FACE_DOWN]
    assert obs["players"][1]["chamber"][1]["location"] == FACE_DOWN
    assert "domains" not in "\n".join(obs["log"])
    assert s.scores()[1]["locations"] == 5
    rng = random.Random(3)
    identities = set()
    for _ in range(30):
        r = s.resample(0, rng)
        assert r.observation(0) == obs
        identities.add(r.locs[1][0])
        assert sorted(r.loc_deck + r.locs[1]) == sorted(s.loc_deck + s.locs[1])
    assert len(identities) > 1


def test_lo_keys_need_the_same_metal_except_the_mage() -> None:
    for name, expected in (("farmer", 0), ("mage", 1)):
        s = solo(name, lords=["yellow4"], locations=["l7"])
        put_pile(s, "green1", "green2")
        act(s, "draw 1")
        if s.phase_name == "loplace":
            act(s, "loplace green1")
        assert len(s.locs[1]) == expected, name
    mage = solo("mage")
    assert mage.public_observation()["players"][1]["any_keys"] is True


def test_lo_location_none_left_c_r8() -> None:
    s = solo("farmer", lords=["yellow4"])
    s.face_up.clear()
    s.loc_deck.clear()
    put_pile(s, "green1", "green1")
    act(s, "draw 1")
    assert s.locs[1] == [] and "no Location is left (C-R8)" in "\n".join(s.log)


# ------------------------------------------------------------- abilities (4.1)
def test_military_ability_forces_your_next_recruit_to_draw_one() -> None:
    s = solo("military", lords=["yellow4", "blue4", "green4"])
    put_pile(s, "red3")
    act(s, "draw 1")
    assert chamber(s, 1) == ["red3"]
    assert legal(s) == ["draw 1"]
    assert s.public_observation()["forced_draw_one"] is True
    put_pile(s, "purple1", "purple1")  # the LO's next pick (it has no red pile)
    act(s, "draw 1")
    assert s.current == 0 and "draw 3" in legal(s)  # spent by that turn (S-R3)


def test_military_forced_draw_lapses_with_an_empty_deck_c_r1() -> None:
    s = solo("military", lords=["yellow4"])
    put_pile(s, "red3", "blue1")
    act(s, "draw 1")
    s.deck.clear()
    assert legal(s) == ["take blue"]


def test_other_opponents_do_not_force_a_draw() -> None:
    s = solo("farmer", lords=["yellow4"])
    put_pile(s, "red3", "red3")
    act(s, "draw 1")
    assert "draw 3" in legal(s)


def test_your_draw_one_does_not_restrict_the_lo() -> None:
    s = solo("farmer", lords=["blue1"], locations=["draw-one"])
    set_chamber(s, 0, "red1")
    put_pile(s, "green3", "green3")
    start = len(s.log)
    act(s, "draw 1", "loctake draw-one")
    text = log_since(s, start)
    assert "the LO is never restricted" in text
    assert "takes the green pile [STACK" in text
    assert s.current == 0


# ------------------------------------------------------------- scoring the LO
@pytest.mark.parametrize(
    ("name", "bonus"),
    [("farmer", 0), ("military", 1 + 2 * 3), ("merchant", 2), ("politician", 6), ("mage", 2)],
)
def test_each_lo_bonus(name: str, bonus: int) -> None:
    s = solo(name)
    set_chamber(s, 1, "red1", "red4", "red0", "blue6", "green2")
    s.pearls[1] = 5
    s.locs[1] = [s.loc_deck.pop(), s.loc_deck.pop()]
    s.loc_slots[1] = [0, 4]
    s.lo_hidden = [True, False]
    sc = s.scores()[1]
    assert sc["lo_bonus"] == bonus
    assert sc["locations"] == 10  # face down: 5 IP each, never their own effects
    assert sc["lords"] == 4 + 6 + 2
    assert sc["total"] == sc["lords"] + 10 + sc["coalition"] + sc["pearl_master"] + bonus
    assert "lo_bonus" not in s.scores()[0]


def test_c_r16_tie_break_on_pearls_then_shared() -> None:
    s = solo("farmer")
    set_chamber(s, 0, "red4")
    set_chamber(s, 1, "blue4")
    s.phase = OVER
    s.pearls = [2, 1]
    assert s.returns() == [1.0]
    s.pearls = [1, 2]
    assert s.returns() == [-1.0]
    s.pearls = [1, 1]
    assert s.returns() == [0.0]
    assert s.public_observation()["winners"] == [0, 1]
