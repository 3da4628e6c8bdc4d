"""Setup, recruiting and the chamber (rules sections 2, 3.1, 3.2; C-R1 ... C-R6)."""

from __future__ import annotations

import pytest

import porphyra
from porphyra.core.errors import IllegalActionError, UnknownGameError
from tests.conspiracy.helpers import act, chamber, legal, new, pile, set_chamber


# ----------------------------------------------------------------------- setup (2)
def test_setup_decks_one_face_up_location_nobody_has_cards() -> None:
    s = new()
    obs = s.public_observation()
    assert obs["lord_deck_size"] == 60
    assert obs["location_deck_size"] == 23
    assert len(obs["face_up_locations"]) == 1
    assert all(not p for p in obs["piles"].values())
    assert all(all(x is None for x in p["chamber"]) for p in obs["players"])
    assert obs["pearl_master"] is None


def test_setup_bonus_locations_are_shuffled_in() -> None:
    s = new(bonus_locations=True)
    assert len(s.loc_deck) + len(s.face_up) == 29
    slugs = {s.t.slug[i] for i in s.loc_deck + s.face_up}
    assert {"alliance-1", "alliance-4", "extremes"} <= slugs
    assert "extremes" not in {s.t.slug[i] for i in new().loc_deck}


def test_setup_first_player_option_and_seeded_draw() -> None:
    assert new(first=1).current_player() == 1
    game = porphyra.load_game("conspiracy", players=3)
    firsts = {game.new_initial_state(seed=x).current_player() for x in range(30)}
    assert firsts == {0, 1, 2}
    assert (
        game.new_initial_state(seed=5).current_player()
        == game.new_initial_state(seed=5).current_player()
    )


def test_stacked_cards_on_top_first_location_face_up() -> None:
    s = new(lords=["red4", "blue1", "green3"], locations=["l7", "domains"])
    assert s.public_observation()["face_up_locations"] == ["l7"]
    assert [s.t.name[k] for k in s.deck[-3:]] == ["green3", "blue1", "red4"]
    assert s.t.slug[s.loc_deck[-1]] == "domains"


@pytest.mark.parametrize(
    "options",
    [
        {"players": 0},
        {"players": 5},
        {"players": 2, "opponent": "farmer"},
        {"players": 1, "opponent": "pirate"},
        {"players": 1, "first_player": 1},
        {"players": "2"},
        {"colour": 1},
        {"first_player": 2},
        {"bonus_locations": 1},
        {"stacked": {"lords": ["red5"]}},
        {"stacked": {"lords": ["red6", "red6"]}},
        {"stacked": {"locations": ["extremes"]}},
        {"stacked": {"locations": ["l7", "l7"]}},
        {"stacked": {"cards": []}},
    ],
)
def test_bad_options_raise_unknown_game_error(options: dict[str, object]) -> None:
    with pytest.raises(UnknownGameError):
        porphyra.load_game("conspiracy", **options)


def test_record_options_rebuild_the_same_game() -> None:
    game = porphyra.load_game("conspiracy", players=3, first_player=2, stacked={"lords": ["red4"]})
    again = porphyra.load_game("conspiracy", **game.record_options())
    a, b = game.new_initial_state(seed=3), again.new_initial_state(seed=3)
    assert a.public_observation() == b.public_observation()
    assert a.hidden_from(0) == b.hidden_from(0)


# -------------------------------------------------------------------- recruit (3.1)
def test_recruit_options_draw_then_take_in_colour_order() -> None:
    s = new(lords=["blue1", "red4", "green3"])
    assert legal(s) == ["draw 1", "draw 2", "draw 3"]
    act(s, "draw 3", "keep blue1")
    assert legal(s) == ["draw 1", "draw 2", "draw 3", "take red", "take green"]


def test_draw_three_keep_one_others_face_up_on_their_piles() -> None:
    s = new(lords=["red4", "blue1", "green3"])
    act(s, "draw 3")
    assert s.phase_name == "keep"
    assert s.public_observation()["drawn_lords"] == ["red4", "blue1", "green3"]
    assert legal(s) == ["keep red4", "keep green3", "keep blue1"]
    act(s, "keep blue1")
    assert chamber(s, 0) == ["blue1"]
    assert pile(s, "red") == ["red4"] and pile(s, "green") == ["green3"]
    assert s.current_player() == 1 and s.public_observation()["lord_deck_size"] == 57


def test_draw_one_is_kept_without_a_decision() -> None:
    s = new(lords=["purple2"])
    act(s, "draw 1")
    assert chamber(s, 0) == ["purple2"] and s.current_player() == 1


def test_identical_drawn_lords_are_kept_without_a_decision() -> None:
    s = new(lords=["red1", "red1"])
    act(s, "draw 2")
    assert chamber(s, 0) == ["red1"] and pile(s, "red") == ["red1"]
    assert s.current_player() == 1


def test_take_pile_takes_every_lord_of_the_colour() -> None:
    s = new(lords=["blue1", "red4", "red3", "green2"])
    act(s, "draw 3", "keep blue1")  # red4, red3 -> red pile
    act(s, "take red")
    assert pile(s, "red") == []
    assert s.phase_name == "place" and legal(s) == ["place red3", "place red4"]
    act(s, "place red4")
    assert chamber(s, 1) == ["red4", "red3"]


def test_keep_of_an_undrawn_lord_is_illegal_and_changes_nothing() -> None:
    s = new(lords=["red4", "blue1"])
    act(s, "draw 2")
    before = s.public_observation()
    with pytest.raises(IllegalActionError, match="keep"):
        act(s, "keep green3")
    with pytest.raises(IllegalActionError):
        act(s, "take red")
    assert s.public_observation() == before


def test_c_r1_draw_at_most_the_deck_size() -> None:
    s = new()
    s.deck = s.deck[-2:]
    assert legal(s) == ["draw 1", "draw 2"]
    with pytest.raises(IllegalActionError):
        act(s, "draw 3")


def test_c_r1_empty_deck_only_piles_and_restrictions_lapse() -> None:
    s = new(lords=["blue1", "red4", "red3"])
    act(s, "draw 3", "keep blue1")
    s.restr_owner, s.restr_count, s.restr_loc = 0, 1, s.cards.location_index["draw-one"]
    s.deck = []
    assert legal(s) == ["take red"]


def test_c_r1_draw_two_with_one_card_left_becomes_draw_one() -> None:
    s = new()
    s.restr_owner, s.restr_count, s.restr_loc = 1, 2, s.cards.location_index["draw-two"]
    assert legal(s) == ["draw 2"]
    s.deck = s.deck[-1:]
    assert legal(s) == ["draw 1"]


def test_c_r2_no_lord_to_recruit_ends_the_game() -> None:
    s = new(lords=["red4"])
    s.deck = s.deck[-1:]
    act(s, "draw 1")
    assert s.is_terminal()
    assert "C-R2" in s.log[-2]
    # seat 0: red4 (4) + coalition of one (3) + Pearl Master (5)
    assert [sc["total"] for sc in s.scores()] == [12, 0]
    assert s.returns() == [1.0, -1.0]


# --------------------------------------------------------------------- chamber (3.2)
def test_lords_fill_slots_in_order() -> None:
    s = new(lords=["red4", "blue3", "green4", "blue4", "purple3"])
    act(s, "draw 1", "draw 1", "draw 1", "draw 1", "draw 1")
    assert chamber(s, 0) == ["red4", "green4", "purple3"]
    obs = s.public_observation()["players"][0]["chamber"]
    assert obs[:4] == [
        {"lord": "red4", "location": None},
        {"lord": "green4", "location": None},
        {"lord": "purple3", "location": None},
        None,
    ]
    assert len(obs) == 15


def test_c_r5_pile_lords_placed_one_by_one_in_chosen_order() -> None:
    s = new(lords=["blue4", "red4", "red3", "blue1", "red1", "green2"])
    act(s, "draw 3", "keep blue4")  # red pile: red4, red3
    act(s, "draw 3", "keep blue1")  # seat 1; red pile: red4, red3, red1
    act(s, "take red")
    assert legal(s) == ["place red1", "place red3", "place red4"]
    act(s, "place red3")
    assert chamber(s, 0) == ["blue4", "red3"]
    assert s.pearls[0] == 3  # resolved before the next choice
    assert legal(s) == ["place red1", "place red4"]
    act(s, "place red1")
    assert chamber(s, 0) == ["blue4", "red3", "red1", "red4"]  # last one automatic
    assert s.current_player() == 1


def test_c_r5_identical_pile_lords_need_no_choice() -> None:
    s = new(lords=["blue4", "red1", "red1"])
    act(s, "draw 3", "keep blue4")
    act(s, "take red")
    assert chamber(s, 1) == ["red1", "red1"]
    assert s.phase_name == "location"  # two silver keys, resolved after the second


def test_overflow_back_to_the_pile() -> None:
    s = new(lords=["green4", "red4", "red3", "red0"])
    set_chamber(s, 1, *["yellow3"] * 2, *["blue3"] * 2, *["purple3"] * 2, "yellow4", "yellow4")
    set_chamber(s, 1, "blue4", "blue4", "purple4", "purple4", "green3")  # 13 lords
    act(s, "draw 3", "keep green4")  # red4, red3 -> red pile
    s.piles[1].append(s.cards.lord_index["red0"])
    s.deck.remove(s.cards.lord_index["red0"])
    act(s, "take red", "place red4", "place red3")
    assert len(s.chambers[1]) == 15
    assert pile(s, "red") == ["red0"]
    assert "back to the piles: red0" in " ".join(s.log)


def test_c_r6_swap_offered_only_between_keyless_lords() -> None:
    s2 = new(lords=["blue0"])
    set_chamber(s2, 0, "yellow4", "green1", "blue4")
    act(s2, "draw 1")
    assert s2.phase_name == "swap"
    assert legal(s2) == ["swap -", "swap 1 3", "swap 1 4", "swap 3 4"]
    act(s2, "swap 1 4")
    assert chamber(s2, 0) == ["blue0", "green1", "blue4", "yellow4"]
    assert s2.current_player() == 1


def test_c_r6_swap_is_optional() -> None:
    s = new(lords=["blue0"])
    set_chamber(s, 0, "yellow4")
    act(s, "draw 1", "swap -")
    assert chamber(s, 0) == ["yellow4", "blue0"] and s.current_player() == 1


def test_c_r6_swap_skipped_with_fewer_than_two_keyless_lords() -> None:
    s = new(lords=["blue0"])
    set_chamber(s, 0, "yellow1", "red2")
    act(s, "draw 1")
    assert chamber(s, 0) == ["yellow1", "red2", "blue0"]
    assert s.current_player() == 1 and "C-R6" in " ".join(s.log)


def test_c_r6_swap_notation_normalised_and_bad_slots_refused() -> None:
    s = new(lords=["blue0"])
    set_chamber(s, 0, "yellow4", "red3")
    act(s, "draw 1")
    assert str(s.game.parse_action(s, "swap 3 1")) == "swap 1 3"
    with pytest.raises(IllegalActionError):
        act(s, "swap 1 9")  # well formed, but slot 9 is empty


def test_six_ip_lord_reveals_the_top_lord_onto_its_pile() -> None:
    s = new(lords=["red6", "green3"])
    act(s, "draw 1")
    assert pile(s, "green") == ["green3"] and s.public_observation()["lord_deck_size"] == 58


def test_c_r3_reveal_skipped_when_the_deck_is_empty() -> None:
    s = new(lords=["red6"])
    s.deck = s.deck[-1:]
    s.piles[3].append(s.cards.lord_index["blue1"])  # keeps the game going
    act(s, "draw 1")
    assert "C-R3" in " ".join(s.log)
    assert s.current_player() == 1


def test_c_r4_unchosen_lords_reach_piles_before_the_kept_lord_acts() -> None:
    s = new(lords=["red6", "red3", "red1"])
    act(s, "draw 2", "keep red6")
    assert pile(s, "red") == ["red3", "red1"]  # red3 (unchosen) first, then the reveal


def test_c_r4_location_resolved_before_the_next_pile_lord() -> None:
    s = new(lords=["blue1", "red1", "red4", "yellow4"], locations=["l7"])
    act(s, "draw 3", "keep blue1")  # red pile: red1, red4
    act(s, "draw 1")  # seat 1: yellow4
    act(s, "take red", "place red1")
    assert s.phase_name == "location" and s.pending == [s.cards.lord_index["red4"]]
    act(s, "loctake l7")
    slots = s.public_observation()["players"][0]["chamber"]
    assert slots[1] == {"lord": "red1", "location": "l7"}
    assert slots[2] == {"lord": "red4", "location": None}
    assert s.current_player() == 1
