"""Keys, Locations and their immediate effects, pearls (sections 3.3, 3.4; C-R7 ... C-R10)."""

from __future__ import annotations

import pytest

from porphyra.core.errors import IllegalActionError
from porphyra.games.conspiracy import ConspiracyState
from tests.conspiracy.helpers import act, chamber, legal, new, pile, set_chamber


def two_silver(locations: list[str], extra: list[str] | None = None) -> ConspiracyState:
    """Seat 0 places red1, seat 1 blue3, seat 0 blue1: seat 0 must take a Location."""
    s = new(lords=["red1", "blue3", "blue1", *(extra or [])], locations=locations)
    act(s, "draw 1", "draw 1", "draw 1")
    return s


def test_two_silver_keys_force_a_location() -> None:
    s = two_silver(["l7"])
    assert s.phase_name == "location" and s.current_player() == 0
    assert legal(s) == ["locdraw 1", "locdraw 2", "locdraw 3", "loctake l7"]


def test_two_gold_keys_force_a_location() -> None:
    s = new(lords=["red2", "blue3", "blue2"])
    act(s, "draw 1", "draw 1", "draw 1")
    assert s.phase_name == "location"


def test_one_silver_and_one_gold_do_not_force_a_location() -> None:
    s = new(lords=["red1", "blue3", "blue2"])
    act(s, "draw 1", "draw 1", "draw 1")
    assert s.current_player() == 1 and s.unspent_keys(0) == (1, 1)


def test_location_is_mandatory() -> None:
    s = two_silver(["l7"])
    with pytest.raises(IllegalActionError, match="location"):
        act(s, "draw 1")


def test_location_from_the_deck_keep_one_rest_face_up() -> None:
    s = two_silver(["l7", "l5-pearl", "l4-pearls", "l3-pearls"])
    act(s, "locdraw 3")
    assert s.phase_name == "lockeep"
    assert s.public_observation()["drawn_locations"] == ["l5-pearl", "l4-pearls", "l3-pearls"]
    assert legal(s) == ["lockeep l5-pearl", "lockeep l4-pearls", "lockeep l3-pearls"]
    act(s, "lockeep l4-pearls")
    obs = s.public_observation()
    assert obs["face_up_locations"] == ["l7", "l5-pearl", "l3-pearls"]
    assert obs["players"][0]["chamber"][1] == {"lord": "blue1", "location": "l4-pearls"}
    assert obs["players"][0]["locations"] == ["l4-pearls"]
    assert s.pearls[0] == 2 and obs["pearl_master"] == 0
    assert s.current_player() == 1


def test_location_draw_of_one_is_kept_without_a_decision() -> None:
    s = two_silver(["l7", "l5-pearl"])
    act(s, "locdraw 1")
    assert s.public_observation()["players"][0]["locations"] == ["l5-pearl"]
    assert s.pearls[0] == 1 and s.current_player() == 1


def test_location_taken_face_up_no_limit_on_face_up_count() -> None:
    s = two_silver(["l7", "l5-pearl", "l4-pearls", "l3-pearls"])
    act(s, "locdraw 3", "lockeep l3-pearls")
    assert len(s.face_up) == 3
    s2 = two_silver(["l7"])
    act(s2, "loctake l7")
    assert s2.face_up == [] and s2.public_observation()["players"][0]["locations"] == ["l7"]


def test_keys_at_or_before_the_latest_location_are_spent_both_metals() -> None:
    # seat 0: red2, red1, blue1 (2 silver: Location on slot 3 spends the gold too)
    lords = ["red2", "blue3", "red1", "green3", "blue1", "yellow3", "green2", "yellow4"]
    s = new(lords=[*lords, "purple3", "purple4", "yellow2"], locations=["l7", "domains"])
    act(s, "draw 1", "draw 1", "draw 1", "draw 1", "draw 1")
    assert s.unspent_keys(0) == (2, 1)
    act(s, "loctake l7")
    assert s.unspent_keys(0) == (0, 0)
    act(s, "draw 1", "draw 1", "draw 1", "draw 1")  # seat 0 adds green2 (gold)
    assert s.unspent_keys(0) == (0, 1) and s.current_player() == 1
    act(s, "draw 1", "draw 1")  # seat 1 purple4, seat 0 yellow2: 2 unspent gold
    assert s.phase_name == "location"
    act(s, "locdraw 1")
    assert s.public_observation()["players"][0]["chamber"][5]["location"] == "domains"


def test_any_keys_lets_any_two_keys_take_a_location() -> None:
    s = two_silver(["any-keys", "l7"], extra=["green3", "red2", "yellow3", "green1"])
    act(s, "loctake any-keys")
    assert s.any_keys[0] and s.public_observation()["players"][0]["any_keys"]
    act(s, "draw 1", "draw 1", "draw 1", "draw 1")  # seat 0: red2, green1 (mixed)
    assert s.phase_name == "location" and s.current_player() == 0
    assert legal(s) == ["locdraw 1", "locdraw 2", "locdraw 3"]


def test_c_r8_location_draw_beyond_the_deck_draws_what_is_left() -> None:
    s = two_silver(["l7", "l5-pearl", "l4-pearls"])
    s.loc_deck = s.loc_deck[-2:]
    assert legal(s) == ["locdraw 1", "locdraw 2", "locdraw 3", "loctake l7"]
    act(s, "locdraw 3")
    assert s.public_observation()["drawn_locations"] == ["l5-pearl", "l4-pearls"]
    assert s.public_observation()["location_deck_size"] == 0


def test_c_r8_no_location_left_none_is_taken() -> None:
    s = new(lords=["red1", "blue3", "blue1"])
    s.loc_deck, s.face_up = [], []
    act(s, "draw 1", "draw 1", "draw 1")
    assert s.current_player() == 1 and s.locs[0] == []
    assert "C-R8" in " ".join(s.log)


def deck_search_owner() -> ConspiracyState:
    lords = ["red1", "blue3", "blue1", "green3", "red2", "yellow3", "green2"]
    s = new(lords=lords, locations=["deck-search", "l7"])
    act(s, "draw 1", "draw 1", "draw 1", "loctake deck-search")
    act(s, "draw 1", "draw 1", "draw 1", "draw 1")  # seat 0: red2, green2
    assert s.phase_name == "location" and s.current_player() == 0
    return s


def test_c_r9_deck_search_picks_any_card_of_the_deck_then_shuffles() -> None:
    s = deck_search_owner()
    slugs = sorted(s.t.slug[i] for i in s.loc_deck)
    texts = legal(s)
    assert all(t.startswith("locpick ") for t in texts) and len(texts) == 23
    assert sorted(t.split()[1] for t in texts) == slugs
    counter = s.rng_counter
    act(s, "locpick count-red")
    assert s.locs[0][-1] == s.cards.location_index["count-red"]
    assert s.rng_counter == counter + 1 and len(s.loc_deck) == 22


def test_c_r9_and_c_r12_deck_contents_seen_only_by_the_searcher() -> None:
    s = deck_search_owner()
    mine = s.observation(0)["location_deck"]
    assert mine == sorted(s.t.slug[i] for i in s.loc_deck)
    assert s.observation(1)["location_deck"] is None
    assert "location_deck" not in s.public_observation()


def test_c_r9_deck_search_with_an_empty_deck_takes_face_up() -> None:
    s = deck_search_owner()
    s.loc_deck = []
    s.face_up = [s.cards.location_index["l7"]]
    assert legal(s) == ["loctake l7"]


def test_reshuffle_lords_shuffles_the_piles_into_the_deck() -> None:
    lords = ["red1", "green4", "yellow4", "blue3", "blue1"]
    s = new(lords=lords, locations=["reshuffle-lords"])
    act(s, "draw 3", "keep red1", "draw 1", "draw 1")
    assert pile(s, "green") == ["green4"]
    act(s, "loctake reshuffle-lords")
    assert all(not p for p in s.piles)
    assert len(s.deck) == 57


def test_reshuffle_locations_shuffles_face_up_locations_into_the_deck() -> None:
    s = two_silver(["l7", "reshuffle-locations", "domains", "l3-pearls"])
    act(s, "locdraw 3", "lockeep reshuffle-locations")
    assert s.face_up == [] and len(s.loc_deck) == 23


def test_c_r7_draw_one_until_the_owner_next_turn() -> None:
    s = two_silver(["draw-one"], extra=["green4", "red3", "yellow4", "purple3"])
    act(s, "loctake draw-one")
    obs = s.public_observation()
    assert obs["restriction"] == {"location": "draw-one", "owner": 0, "count": 1, "against": [1]}
    assert legal(s) == ["draw 1"]
    act(s, "draw 1")
    assert legal(s) == ["draw 1", "draw 2", "draw 3"]  # seat 0's turn: it ended
    assert s.public_observation()["restriction"] is None
    act(s, "draw 1")
    assert legal(s) == ["draw 1", "draw 2", "draw 3"]


def test_c_r7_draw_two_keep_one_discard_one() -> None:
    s = two_silver(["draw-two"], extra=["green4", "red3"])
    act(s, "loctake draw-two")
    assert legal(s) == ["draw 2"]
    act(s, "draw 2", "keep red3")
    assert chamber(s, 1) == ["blue3", "red3"] and pile(s, "green") == ["green4"]


def test_c_r7_a_newer_restriction_replaces_the_older() -> None:
    s = new(
        players=3,
        lords=["red1", "blue3", "green3", "blue1", "yellow1", "green4", "yellow4"],
        locations=["draw-one", "draw-two"],
    )
    set_chamber(s, 1, "purple1")
    act(s, "draw 1", "draw 1", "draw 1", "draw 1", "loctake draw-one")
    assert legal(s) == ["draw 1"]  # seat 1
    act(s, "draw 1", "locdraw 1")  # seat 1: yellow1 -> 2 silver -> draw-two
    assert s.public_observation()["restriction"]["owner"] == 1
    assert legal(s) == ["draw 2"]  # seat 2
    act(s, "draw 2", "keep green4")
    assert legal(s) == ["draw 2"]  # seat 0: seat 1's restriction, not its own
    act(s, "draw 2")
    if s.phase_name == "keep":
        act(s, legal(s)[0])
    assert s.current_player() == 1 and s.public_observation()["restriction"] is None


def test_pearl_master_goes_to_the_first_to_gain_a_pearl() -> None:
    s = new(lords=["yellow1", "red3"])
    act(s, "draw 1")
    assert s.public_observation()["pearl_master"] is None
    act(s, "draw 1")
    assert s.public_observation()["pearl_master"] == 1 and s.pearls == [0, 2]


def test_pearl_master_tie_goes_to_the_newcomer() -> None:
    s = new(lords=["red4", "blue4"])
    act(s, "draw 1")
    assert s.pm == 0
    act(s, "draw 1")
    assert s.pearls == [1, 1] and s.pm == 1


def test_c_r10_pearl_master_checked_only_for_the_gainer_when_gaining() -> None:
    s = new(lords=["red3", "blue4", "red1", "green4"])
    act(s, "draw 1", "draw 1")
    assert s.pearls == [2, 1] and s.pm == 0
    act(s, "draw 1")  # no pearls gained: nothing changes
    assert s.pm == 0
    act(s, "draw 1")  # seat 1 reaches 2: a tie, the token moves
    assert s.pearls == [2, 2] and s.pm == 1


def test_location_pearls_count_for_the_pearl_master() -> None:
    s = new(lords=["red1", "blue4", "blue1"], locations=["l3-pearls"])
    act(s, "draw 1", "draw 1", "draw 1")
    assert s.pm == 1
    act(s, "loctake l3-pearls")
    assert s.pearls == [3, 1] and s.pm == 0
