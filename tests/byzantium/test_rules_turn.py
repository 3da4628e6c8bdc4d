"""Rules sections 1 and 3 (the turn's six phases), one test per rule."""

from __future__ import annotations

import random

import pytest

from porphyra.core.errors import IllegalActionError
from porphyra.core.playout import random_playout
from porphyra.games.byzantium.turn import finish_end_phase
from tests.byzantium.helpers import act, meld, new_state, set_hands, to_meld


def test_rule_setup_10_lt_each_and_10_tt() -> None:
    s = new_state()
    obs = s.public_observation()
    assert obs["legacy"] == [10, 10] and obs["territory"] == 10
    assert obs["turn"] == 1 and obs["age"] == "early"


@pytest.mark.parametrize("first", [0, 1])
def test_rule_first_emperor_option_and_token_switches_each_turn(first: int) -> None:
    s = new_state(seed=5, first_emperor=first)
    assert s.emperor == first
    seen = []
    rng = random.Random(1)
    while not s.is_terminal():
        if s.phase == "redraw_byz":
            seen.append((s.turn, s.emperor))
        acts = s.legal_actions()
        # meld nothing as the Foe and everything strong as Byzantine to avoid a collapse
        s.apply_action(
            acts[-1]
            if s.phase == "meld_byz"
            else acts[0]
            if s.phase == "meld_foe"
            else acts[rng.randrange(len(acts))]
        )
    assert [t for t, _ in seen] == list(range(1, 13))
    assert [e for _, e in seen] == [(first + t - 1) % 2 for t in range(1, 13)]
    assert sum(1 for _, e in seen if e == 0) == 6


def test_rule_first_emperor_random_is_seeded() -> None:
    firsts = {new_state(seed=i, first_emperor="random").emperor for i in range(20)}
    assert firsts == {0, 1}
    assert (
        new_state(seed=3, first_emperor="random").emperor
        == new_state(seed=3, first_emperor="random").emperor
    )


def test_rule_ages_by_turn() -> None:
    s = new_state()
    for turn, age in [(1, 0), (4, 0), (5, 1), (8, 1), (9, 2), (12, 2)]:
        s.turn = turn
        assert s.age == age


def test_rule_draw_phase_foe_fills_to_8_byzantine_to_9_early() -> None:
    s = new_state()
    assert len(s.hands[s.foe]) == 8
    assert len(s.hands[s.emperor]) == 9


def test_rule_draw_phase_byzantine_hand_size_by_age() -> None:
    # Play to turns 5 and 9 with passive melds and check the Emperor's hand size.
    s = new_state(seed=2)
    sizes = {}
    while not s.is_terminal() and s.turn <= 9:
        if s.phase == "redraw_byz":
            sizes[s.turn] = (len(s.hands[s.emperor]), len(s.hands[s.foe]))
        acts = s.legal_actions()
        s.apply_action(acts[-1] if s.phase == "meld_byz" else acts[0])
    assert sizes[1] == (9, 8) and sizes[5] == (8, 8) and sizes[9] == (7, 8)


def test_rule_age_phase_hands_hold_only_usable_cards() -> None:
    for seed in range(15):
        s = new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.phase == "redraw_byz":
                for seat in (0, 1):
                    assert all(s.game.cardset.cards[k].usable_in(s.age) for k in s.hands[seat])
            acts = s.legal_actions()
            s.apply_action(acts[rng.randrange(len(acts))])


def test_rule_age_phase_removes_cards_from_an_earlier_age() -> None:
    # A passed Early-only card held into the Middle Age is removed, not discarded.
    s = new_state(seed=4)
    s.turn = 4
    s.hands = [[], []]
    s.pending = [None, None]
    justinian = s.card("justinian-i").index
    s.hands[s.foe] = [justinian]  # the next Emperor receives it
    infantry = s.card("infantry").index
    s.hands[s.emperor] = [infantry]
    finish_end_phase(s)
    assert s.turn == 5
    assert justinian in s.removed
    assert justinian not in s.hands[s.emperor] and justinian not in s.discard[0]
    assert infantry in s.hands[s.emperor] or infantry in s.discard[0]


def test_rule_redraw_discards_and_draws_replacements() -> None:
    s = new_state(seed=7)
    hand_before = list(s.hands[s.emperor])
    two = [s.game.cardset.cards[k].slug for k in hand_before[:2]]
    act(s, f"redraw {','.join(two)}")
    assert s.hands[s.emperor] == hand_before  # hidden until both chose (B-R3)
    assert s.public_observation()["redrawn"] is None
    act(s, "redraw -")
    obs = s.public_observation()
    assert obs["redrawn"] == [2, 0] if s.emperor == 0 else [0, 2]
    assert obs["discards"]["byzantine"][-2:] == sorted(two, key=lambda x: s.card(x).index)
    assert len(s.hands[s.emperor]) == 9


def test_b_r10_redraw_at_most_four_cards() -> None:
    s = new_state(seed=8)
    hand = [s.game.cardset.cards[k].slug for k in s.hands[s.emperor]]
    act_text = f"redraw {','.join(hand[:5])}"
    with pytest.raises(IllegalActionError, match="at most 4"):
        s.game.parse_action(s, act_text)
    assert max(len(a.cards) for a in s.legal_actions()) == 4  # type: ignore[attr-defined]
    act(s, "redraw -")  # 0 is allowed
    assert s.phase == "redraw_foe"


def test_b_r10_redraw_card_not_in_hand_is_refused() -> None:
    s = new_state(seed=8)
    set_hands(s, ["infantry"] * 3, ["raiders"])
    with pytest.raises(IllegalActionError, match="not in hand"):
        s.game.parse_action(s, "redraw archers")
    # A fourth copy of a card held three times: the message counts (issue 14).
    with pytest.raises(IllegalActionError, match=r"infantry is in hand 3 time\(s\), not 4"):
        s.game.parse_action(s, "redraw infantry,infantry,infantry,infantry")


def test_rule_meld_may_be_empty() -> None:
    s = new_state()
    to_meld(s, ["infantry", "archers"], ["raiders"])
    meld(s, "-", "-")
    assert s.public_observation()["melds"] == {"byzantine": [], "foe": []}


def test_rule_higher_total_wins_and_tt_moves_by_the_difference() -> None:
    s = new_state()
    to_meld(s, ["justinian-i", "cavalry", "infantry"], ["raiders", "horse-archers"])
    meld(s, "justinian-i,cavalry,infantry", "raiders,horse-archers")  # 8 vs 3
    assert s.tt == 15


def test_rule_foe_win_removes_tt() -> None:
    s = new_state()
    to_meld(s, ["infantry"], ["huns", "siege-train"])
    meld(s, "infantry", "huns,siege-train")  # 1 vs 8
    assert s.tt == 3


def test_rule_ties_go_to_the_foe_and_change_nothing() -> None:
    s = new_state()
    emperor = s.emperor
    lt = s.lt[emperor]
    to_meld(s, ["cavalry"], ["horse-archers"])
    meld(s, "cavalry", "horse-archers")  # 2 vs 2
    assert s.tt == 10
    assert s.lt[emperor] == lt  # B-R5: a tie costs no LT
    assert any("ties go to the Foe" in line for line in s.public_observation()["log"])


def test_b_r5_tt_capped_at_20_and_no_lt_gain_at_the_cap() -> None:
    s = new_state()
    s.tt = 20
    emperor = s.emperor
    lt = s.lt[emperor]
    to_meld(s, ["justinian-i", "cavalry"], ["raiders"])
    meld(s, "justinian-i,cavalry", "raiders")
    assert s.tt == 20
    assert s.lt[emperor] == lt


def test_b_r5_cap_partial_gain_still_counts_as_gained() -> None:
    s = new_state()
    s.tt = 18
    emperor = s.emperor
    lt = s.lt[emperor]
    to_meld(s, ["justinian-i"], [])
    meld(s, "justinian-i", "-")
    assert s.tt == 20
    assert s.lt[emperor] == lt + 1


def test_rule_legacy_phase_plus_one_when_tt_gained_minus_one_when_lost() -> None:
    s = new_state()
    emperor = s.emperor
    to_meld(s, ["cavalry"], ["raiders"])
    meld(s, "cavalry", "raiders")
    assert s.lt[emperor] == 11
    s2 = new_state()
    emperor = s2.emperor
    to_meld(s2, ["infantry"], ["horse-archers"])
    meld(s2, "infantry", "horse-archers")
    assert s2.lt[emperor] == 9


def test_rule_legacy_cards_score_their_value_even_when_the_meld_loses() -> None:
    s = new_state()
    emperor = s.emperor
    to_meld(s, ["hagia-sophia", "corpus-juris-civilis"], ["raiders"])
    meld(s, "hagia-sophia,corpus-juris-civilis", "raiders")  # 0 vs 1: lost
    assert s.tt == 9
    assert s.lt[emperor] == 10 - 1 + 3 + 2


def test_b_r6_lt_cannot_fall_below_zero() -> None:
    s = new_state()
    emperor = s.emperor
    s.lt[emperor] = 0
    to_meld(s, ["infantry"], ["horse-archers"])
    meld(s, "infantry", "horse-archers")
    assert s.tt == 9
    assert s.lt[emperor] == 0


def test_b_r7_collapse_ends_the_game_at_once_without_legacy_phase() -> None:
    s = new_state()
    emperor = s.emperor
    s.tt = 3
    to_meld(s, ["hagia-sophia"], ["huns"])
    meld(s, "hagia-sophia", "huns")  # 0 vs 5: TT -2
    assert s.is_terminal()
    assert s.lt[emperor] == 7  # -3, and Hagia Sophia's 3 LT are not scored
    assert s.public_observation()["result"]["collapse"] is True
    assert s.returns()[emperor] == -1.0
    assert s.turn == 1


def test_b_r6_collapse_penalty_takes_what_there_is() -> None:
    s = new_state()
    s.tt = 1
    s.lt[s.emperor] = 2
    to_meld(s, [], ["huns"])
    meld(s, "-", "huns")
    assert s.is_terminal() and s.lt[s.emperor] == 0


def test_rule_tt_exactly_zero_is_a_collapse() -> None:
    s = new_state()
    s.tt = 5
    to_meld(s, [], ["huns"])
    meld(s, "-", "huns")
    assert s.tt == 0 and s.is_terminal()


def test_rule_meld_cards_discarded_and_unique_cards_removed() -> None:
    s = new_state()
    to_meld(s, ["justinian-i", "cavalry"], ["huns", "raiders"])
    meld(s, "justinian-i,cavalry", "huns,raiders")
    obs = s.public_observation()
    assert "justinian-i" in obs["removed"] and "huns" in obs["removed"]
    assert "cavalry" in obs["discards"]["byzantine"] and "raiders" in obs["discards"]["foe"]
    assert "justinian-i" not in obs["discards"]["byzantine"]


def test_rule_end_phase_discard_down_to_one_and_pass_it() -> None:
    s = new_state()
    emperor, foe = s.emperor, s.foe
    to_meld(s, ["cavalry", "archers", "infantry"], ["raiders", "famine"])
    meld(s, "-", "-")
    assert s.phase == "pass_byz"
    act(s, "pass archers")
    assert s.phase == "pass_foe"
    act(s, "pass famine")
    assert s.turn == 2 and s.emperor == foe
    assert s.card("archers").index in s.hands[foe]
    assert s.card("famine").index in s.hands[emperor]
    assert {"cavalry", "infantry"} <= set(s.public_observation()["discards"]["byzantine"])
    assert "raiders" in s.public_observation()["discards"]["foe"]


def test_b_r9_single_card_passes_automatically_and_empty_hand_passes_nothing() -> None:
    s = new_state()
    emperor, foe = s.emperor, s.foe
    to_meld(s, ["cavalry"], [])
    meld(s, "-", "-")
    assert s.turn == 2  # no pass decision for either seat
    log = s.public_observation()["log"]
    assert f"End: seat {foe} has no card left and passes nothing." in log
    assert f"You received Cavalry from seat {emperor}." in s.observation(foe)["log"]
    assert f"You received Cavalry from seat {emperor}." not in s.observation(emperor)["log"]
    # turn 2: the old Emperor (now Foe) held nothing and draws a full 8
    assert f"Draw: seat {emperor} (Foe) draws 8." in log
    assert f"Draw: seat {foe} (Byzantine) draws 8." in log  # 1 held + 8 = 9


def test_b_r9_turn_one_nobody_holds_a_card_before_drawing() -> None:
    s = new_state()
    log = s.observation(s.emperor)["log"]
    drew = [line for line in log if line.startswith("Draw:")]
    assert drew[0].endswith("draws 8.") and drew[1].endswith("draws 9.")


def test_b_r9_pass_decision_only_for_a_card_in_hand() -> None:
    s = new_state()
    to_meld(s, ["cavalry", "archers"], ["raiders", "famine"])
    meld(s, "-", "-")
    with pytest.raises(IllegalActionError, match="not in hand"):
        s.game.parse_action(s, "pass infantry")
    assert {str(a) for a in s.legal_actions()} == {"pass archers", "pass cavalry"}


def test_rule_game_ends_after_12_turns_most_lt_wins() -> None:
    results = []
    for seed in range(40):
        s = new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            acts = s.legal_actions()
            # strong Byzantine melds, empty Foe melds: the Empire never collapses
            s.apply_action(
                acts[-1]
                if s.phase == "meld_byz"
                else acts[0]
                if s.phase in ("meld_foe", "target")
                else acts[rng.randrange(len(acts))]
            )
        assert not s.public_observation()["result"]["collapse"]
        assert s.turn == 12
        a, b = s.lt
        assert s.returns() == ([1.0, -1.0] if a > b else [-1.0, 1.0] if b > a else [0.0, 0.0])
        results.append(tuple(s.returns()))
    assert len(set(results)) >= 2


def test_b_r8_equal_lt_is_a_draw() -> None:
    s = new_state()
    s.turn = 12
    s.lt = [13, 13]
    to_meld(s, [], [])
    meld(s, "-", "-")
    assert s.is_terminal() and s.returns() == [0.0, 0.0] and s.scores() == [13, 13]


def test_rule_random_games_always_end() -> None:
    for seed in range(30):
        s = new_state(seed=seed)
        steps = random_playout(s, random.Random(seed))
        assert s.is_terminal() and steps <= s.game.info.max_game_length


def test_rule_after_turn_12_no_card_is_passed() -> None:
    s = new_state()
    s.turn = 12
    to_meld(s, ["cavalry", "archers", "infantry"], ["raiders", "famine"])
    meld(s, "-", "-")
    assert s.is_terminal() and s.turn == 12  # no pass decision on the last turn
    assert "After turn 12 no card is passed: the game ends." in s.public_observation()["log"]


def test_observation_is_a_copy_of_the_state() -> None:
    s = new_state()
    s.turn = 12
    to_meld(s, [], [])
    meld(s, "-", "-")
    obs = s.public_observation()
    obs["result"]["returns"][0] = 99.0
    obs["result"]["legacy"][0] = 99
    obs["legacy"][0] = 99
    assert s.returns() == [0.0, 0.0] and s.scores() == [10, 10]
