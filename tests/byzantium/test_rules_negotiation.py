"""Ruling B-R4 (Negotiation) and the meld limits of rules section 3, phase 4."""

from __future__ import annotations

import pytest

from porphyra.core.errors import IllegalActionError
from tests.byzantium.helpers import act, meld, new_state, to_meld


def test_b_r4_negotiation_target_must_be_a_northern_or_southern_foe() -> None:
    s = new_state()
    to_meld(s, ["tribute", "cavalry"], ["huns", "earthquake", "raiders"])
    meld(s, "tribute,cavalry", "huns,earthquake,raiders")
    assert s.phase == "target"
    assert {str(a) for a in s.legal_actions()} == {"target -", "target huns"}
    for bad in ("target earthquake", "target raiders"):
        with pytest.raises(IllegalActionError, match="B-R4"):
            s.game.parse_action(s, bad)


def test_b_r4_target_goes_to_the_foe_discard_or_removed_if_unique() -> None:
    s = new_state()
    to_meld(s, ["tribute"], ["slavs", "raiders"])
    meld(s, "tribute", "slavs,raiders")
    act(s, "target slavs")  # not unique; the Foe has no replacement but is asked (B-R11)
    act(s, "replace -")
    obs = s.public_observation()
    assert "slavs" in obs["discards"]["foe"]
    assert obs["negotiation"] == {"target": "slavs", "replacement": None}
    assert s.tt == 10 - 1  # 0 vs raiders 1
    s2 = new_state()
    to_meld(s2, ["tribute"], ["huns"])
    meld(s2, "tribute", "huns")
    act(s2, "target huns")
    assert "huns" in s2.public_observation()["removed"]


def test_b_r11_foe_is_asked_to_replace_even_with_no_fitting_card() -> None:
    s = new_state()
    to_meld(s, ["tribute"], ["slavs", "raiders", "earthquake"])
    meld(s, "tribute", "slavs,raiders")
    act(s, "target slavs")
    assert s.phase == "replace" and s.current_player() == s.foe
    assert [str(a) for a in s.legal_actions()] == ["replace -"]
    with pytest.raises(IllegalActionError, match="B-R4"):
        s.game.parse_action(s, "replace earthquake")
    act(s, "replace -")
    assert s.tt == 10 - 1  # tribute 0 vs raiders 1


def test_b_r11_the_log_is_the_same_whether_or_not_the_foe_could_replace() -> None:
    """Declining with a fitting card and having none read the same in the public log."""

    def public_log_after_declining(foe_hand: list[str]) -> list[str]:
        s = new_state()
        to_meld(s, ["tribute"], foe_hand)
        meld(s, "tribute", "huns")
        seen = len(s.public_observation()["log"])
        act(s, "target huns")
        act(s, "replace -")
        return list(s.public_observation()["log"][seen:])

    assert public_log_after_declining(["huns", "avars"]) == public_log_after_declining(
        ["huns", "raiders"]
    )


def test_b_r11_rules_version_1_records_replay_without_the_question() -> None:
    """Records made before B-R11 (rules version 1) skipped the question when nothing fit."""
    s = new_state(version="1")
    assert s.game.rules_version == "1" and s.game.cardset.version == "v1"
    to_meld(s, ["tribute"], ["slavs", "raiders"])
    meld(s, "tribute", "slavs,raiders")
    act(s, "target slavs")
    assert s.phase != "replace"
    assert any("has no card that can replace it" in line for line in s.public_observation()["log"])


def test_b_r4_foe_may_replace_with_a_people_card_within_limits() -> None:
    s = new_state()
    to_meld(s, ["tribute"], ["huns", "sassanid-persia", "avars", "vandals", "famine"])
    meld(s, "tribute", "huns,sassanid-persia")  # 0 vs 11
    act(s, "target huns")
    assert s.phase == "replace"
    # Avars (Northern) refills the Northern slot; Vandals (Southern) would make 2 Southern.
    assert {str(a) for a in s.legal_actions()} == {"replace -", "replace avars"}
    with pytest.raises(IllegalActionError, match="B-R4"):
        s.game.parse_action(s, "replace vandals")
    with pytest.raises(IllegalActionError, match="B-R4"):
        s.game.parse_action(s, "replace famine")
    act(s, "replace avars")
    obs = s.public_observation()
    assert obs["negotiation"] == {"target": "huns", "replacement": "avars"}
    assert sorted(obs["melds"]["foe"]) == ["avars", "sassanid-persia"]
    assert s.tt == 10 - 11  # avars 5 + persia 6 → collapse
    assert s.is_terminal()


def test_b_r4_byzantine_may_decline_and_foe_may_decline() -> None:
    s = new_state()
    to_meld(s, ["tribute"], ["huns", "avars"])
    meld(s, "tribute", "huns")
    act(s, "target -")
    assert s.tt == 5
    s2 = new_state()
    to_meld(s2, ["embassy"], ["huns", "avars"])
    meld(s2, "embassy", "huns")
    act(s2, "target huns")
    act(s2, "replace -")
    assert s2.tt == 11  # embassy 1 vs nothing: the Byzantine meld wins by 1
    assert s2.public_observation()["negotiation"] == {"target": "huns", "replacement": None}


def test_b_r4_no_target_decision_without_a_people_card_in_the_foe_meld() -> None:
    s = new_state()
    to_meld(s, ["tribute"], ["earthquake"])
    meld(s, "tribute", "earthquake")
    assert s.phase != "target"


def test_b_r4_only_one_negotiation_card_can_be_melded() -> None:
    s = new_state()
    to_meld(s, ["tribute", "embassy"], [])
    with pytest.raises(IllegalActionError, match="Negotiation"):
        s.game.parse_action(s, "meld tribute,embassy")


@pytest.mark.parametrize(
    ("hand", "text", "problem"),
    [
        (["justinian-i", "heraclius"], "meld justinian-i,heraclius", "2 Leader cards (limit 1)"),
        (
            ["rebuild-fortifications"] * 3,
            "meld rebuild-fortifications,rebuild-fortifications,rebuild-fortifications",
            "3 Recovery cards (limit 2)",
        ),
        (
            ["infantry"] * 5,
            "meld infantry,infantry,infantry,infantry,infantry",
            "5 Troop cards (limit 4)",
        ),
        (["chronicle"] * 3, "meld chronicle,chronicle,chronicle", "3 Legacy cards (limit 2)"),
    ],
)
def test_rule_byzantine_meld_limits(hand: list[str], text: str, problem: str) -> None:
    s = new_state()
    to_meld(s, hand, [])
    with pytest.raises(IllegalActionError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        s.game.parse_action(s, text)


def test_rule_byzantine_meld_at_the_limits_is_legal() -> None:
    s = new_state()
    hand = [
        "justinian-i",
        "rebuild-fortifications",
        "resettle-the-frontier",
        "infantry",
        "archers",
        "cavalry",
        "imperial-fleet",
        "tribute",
        "chronicle",
        "hagia-sophia",
    ]
    to_meld(s, hand, [])
    act(s, "meld " + ",".join(hand))
    assert s.phase == "meld_foe"


@pytest.mark.parametrize(
    ("hand", "text", "problem"),
    [
        (["huns", "goths"], "meld huns,goths", "2 Northern Foe cards"),
        (["vandals", "sassanid-persia"], "meld vandals,sassanid-persia", "2 Southern Foe cards"),
        (
            ["civil-war", "palace-intrigue", "usurper"],
            "meld civil-war,palace-intrigue,usurper",
            "3 Disaster cards",
        ),
        (["earthquake", "famine"], "meld earthquake,famine", "2 natural Disaster cards"),
        (["raiders"] * 5, "meld raiders,raiders,raiders,raiders,raiders", "5 Troop cards"),
    ],
)
def test_rule_foe_meld_limits(hand: list[str], text: str, problem: str) -> None:
    s = new_state()
    to_meld(s, [], hand)
    act(s, "meld -")
    with pytest.raises(IllegalActionError, match=problem):
        s.game.parse_action(s, text)


def test_rule_foe_meld_one_natural_and_one_other_disaster_is_legal() -> None:
    s = new_state()
    to_meld(s, [], ["earthquake", "civil-war", "huns", "vandals", "raiders"])
    meld(s, "-", "earthquake,civil-war,huns,vandals,raiders")
    assert s.tt == 10 - (3 + 3 + 5 + 3 + 1)


def test_rule_meld_of_a_card_not_in_hand_is_refused() -> None:
    s = new_state()
    to_meld(s, ["infantry"], [])
    with pytest.raises(IllegalActionError, match=r"infantry is in hand 1 time\(s\), not 2"):
        s.game.parse_action(s, "meld infantry,infantry")
