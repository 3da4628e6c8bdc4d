"""Scoring by category, every Location kind, winners and returns (section 3.5, C-R11)."""

from __future__ import annotations

import pytest

from porphyra.games.conspiracy.cards import default_cards
from porphyra.games.conspiracy.scoring import ScoreDict, returns_for, score_player, winners
from tests.conspiracy.helpers import act, new, set_chamber


def score(
    lords: list[str], locations: tuple[str, ...] = (), pearls: int = 0, pm: bool = False
) -> ScoreDict:
    cards = default_cards()
    chamber = [cards.lord_index[n] for n in lords]
    locs = [cards.location_index[s] for s in locations]
    return score_player(cards, chamber, locs, pearls, pm)


def loc_ip(lords: list[str], slug: str, pearls: int = 0) -> int:
    return score(lords, (slug,), pearls)["locations"]


def test_lords_score_the_highest_lord_of_each_colour() -> None:
    s = score(["red1", "red4", "blue2", "blue0", "green6"])
    assert s["lords"] == 4 + 2 + 6


def test_coalition_is_three_ip_per_lord_of_the_largest_group() -> None:
    # red in 1, 2, 6 (connected), blue in 3, 4
    s = score(["red1", "red3", "blue1", "blue4", "green1", "red4"])
    assert s["coalition"] == 9


def test_a_single_lord_is_a_coalition_of_one() -> None:
    assert score(["red1"])["coalition"] == 3
    assert score([])["coalition"] == 0


def test_pearl_master_is_worth_5_and_total_adds_the_categories() -> None:
    s = score(["red4"], ("l7",), pearls=1, pm=True)
    assert s == {
        "lords": 4,
        "locations": 7,
        "coalition": 3,
        "pearl_master": 5,
        "total": 19,
        "pearls": 1,
    }


@pytest.mark.parametrize(
    ("slug", "ip"),
    [
        ("l7", 7),
        ("l5-pearl", 5),
        ("l4-pearls", 4),
        ("l3-pearls", 3),
        ("draw-one", 3),
        ("draw-two", 3),
        ("reshuffle-lords", 3),
        ("reshuffle-locations", 3),
        ("any-keys", 3),
        ("deck-search", 3),
    ],
)
def test_locations_with_a_fixed_value(slug: str, ip: int) -> None:
    assert loc_ip(["red1", "blue2", "green3"], slug, pearls=9) == ip


def test_silver_keys_one_ip_per_silver_key_spent_or_not() -> None:
    assert loc_ip(["red1", "blue1", "green2", "yellow1"], "silver-keys") == 3


def test_gold_keys_two_ip_per_gold_key() -> None:
    assert loc_ip(["red2", "blue2", "green1"], "gold-keys") == 4


def test_pearl_pairs_one_ip_per_two_pearls() -> None:
    assert loc_ip(["red1"], "pearl-pairs", pearls=7) == 3
    assert loc_ip(["red1"], "pearl-pairs", pearls=1) == 0


def test_domains_two_ip_per_location_this_one_included() -> None:
    s = score(["red1"], ("domains", "l7", "draw-one"))
    assert s["locations"] == 2 * 3 + 7 + 3


@pytest.mark.parametrize("colour", ["yellow", "red", "green", "blue", "purple"])
def test_max_colour_equals_the_most_influential_lord_of_that_colour(colour: str) -> None:
    lords = [f"{colour}1", f"{colour}4", "blue6" if colour != "blue" else "red6"]
    assert loc_ip(lords, f"max-{colour}") == 4
    assert loc_ip(["blue6" if colour != "blue" else "red6"], f"max-{colour}") == 0


@pytest.mark.parametrize("colour", ["yellow", "red", "green", "blue", "purple"])
def test_count_colour_one_plus_one_per_lord_of_that_colour(colour: str) -> None:
    other = "red1" if colour != "red" else "blue1"
    lords = [f"{colour}1", f"{colour}3", other, f"{colour}0"]
    assert loc_ip(lords, f"count-{colour}") == 1 + 3


def test_alliance_1_one_ip_per_lord_of_the_largest_adjacent_1_ip_group_any_colour() -> None:
    # 1-IP lords in slots 1, 2 (adjacent, two colours) and 5 (apart)
    lords = ["red1", "blue1", "green3", "yellow3", "purple1"]
    assert loc_ip(lords, "alliance-1") == 2


@pytest.mark.parametrize("ip", [2, 3, 4])
def test_alliance_2_3_4_two_ip_per_lord_of_the_largest_group(ip: int) -> None:
    # IP-`ip` lords in slots 1, 3, 6, 7: 1-6, 6-7 and 7-3 touch, so one group of four
    filler = "red0"
    lords = [f"red{ip}", filler, f"blue{ip}", "green6", "yellow6", f"green{ip}", f"yellow{ip}"]
    assert loc_ip(lords, f"alliance-{ip}") == 2 * 4
    assert loc_ip([f"red{ip}", filler, f"blue{ip}"], f"alliance-{ip}") == 2 * 1


def test_extremes_one_plus_one_per_0_and_6_ip_lord() -> None:
    assert loc_ip(["red0", "blue6", "green6", "yellow3"], "extremes") == 1 + 3


def test_every_location_kind_has_a_scoring_test() -> None:
    kinds = {c.effect for c in default_cards().locations}
    tested = {
        "none",
        "pearls",
        "silver-keys",
        "gold-keys",
        "pearl-pairs",
        "domains",
        "restrict-draw",
        "reshuffle-lords",
        "reshuffle-locations",
        "any-keys",
        "deck-search",
        "max-colour",
        "count-colour",
        "alliance",
        "extremes",
    }
    assert kinds == tested


def sd(total: int, pearls: int) -> ScoreDict:
    return {"total": total, "pearls": pearls}


def test_winner_has_the_highest_total() -> None:
    assert winners([sd(40, 0), sd(41, 0)]) == [1]
    assert returns_for([sd(40, 9), sd(41, 0)]) == [-1.0, 1.0]


def test_tie_break_by_pearls() -> None:
    assert winners([sd(40, 3), sd(40, 4), sd(12, 9)]) == [1]


def test_c_r11_full_tie_is_a_shared_victory() -> None:
    assert winners([sd(40, 3), sd(40, 3), sd(39, 9)]) == [0, 1]
    assert returns_for([sd(40, 3), sd(40, 3), sd(39, 9)]) == [1.0, 1.0, -1.0]
    assert returns_for([sd(40, 3), sd(40, 3)]) == [0.0, 0.0]


def test_c_r11_shared_victory_in_a_finished_game() -> None:
    s = new(lords=["red6"])
    set_chamber(s, 0, "red4")
    set_chamber(s, 1, "blue6", "blue4")
    s.deck = []
    s.piles[1] = [s.cards.lord_index["red6"]]
    act(s, "take red")  # seat 0: red4 red6 (12 IP); nothing left: C-R2 ends the game
    assert s.is_terminal()
    assert [x["total"] for x in s.scores()] == [12, 12]
    assert s.returns() == [0.0, 0.0]
    assert s.public_observation()["winners"] == [0, 1]
