"""Rules section 2 (decks, ages, reshuffles) and rulings B-R1, B-R2."""

from __future__ import annotations

import pytest

from porphyra.games.byzantium import decks
from porphyra.games.byzantium.state import BYZ, FOE
from tests.byzantium.helpers import act, new_state


def _play_to_turn(s, turn: int) -> None:  # type: ignore[no-untyped-def]
    while s.turn < turn and not s.is_terminal():
        acts = s.legal_actions()
        s.apply_action(acts[-1] if s.phase == "meld_byz" else acts[0])


def test_rule_later_age_cards_set_aside_at_setup() -> None:
    s = new_state()
    cards = s.game.cardset.cards
    in_play = s.draw[BYZ] + s.draw[FOE] + s.hands[0] + s.hands[1]
    assert all(cards[k].first_age == 0 for k in in_play)
    aside = s.set_aside[BYZ][0] + s.set_aside[BYZ][1] + s.set_aside[FOE][0] + s.set_aside[FOE][1]
    assert len(aside) == 23 + 19 + 15 + 13
    assert all(cards[k].first_age == 1 for k in s.set_aside[BYZ][0] + s.set_aside[FOE][0])
    assert sorted(s.public_observation()["set_aside"]["foe"]) == sorted(
        cards[k].slug for k in s.set_aside[FOE][0] + s.set_aside[FOE][1]
    )


@pytest.mark.parametrize(("turn", "age", "byz", "foe"), [(5, 0, 23, 15), (9, 1, 19, 13)])
def test_b_r2_age_cards_are_shuffled_into_the_draw_pile_only(
    turn: int, age: int, byz: int, foe: int
) -> None:
    s = new_state(seed=11)
    _play_to_turn(s, turn - 1)
    # End of the previous turn: note the discard piles, then cross into the new Age.
    while s.turn < turn:
        discards_before = [list(d) for d in s.discard]
        aside = [list(s.set_aside[d][age]) for d in (BYZ, FOE)]
        acts = s.legal_actions()
        s.apply_action(acts[-1] if s.phase == "meld_byz" else acts[0])
    assert s.set_aside[BYZ][age] == [] and s.set_aside[FOE][age] == []
    assert len(aside[0]) == byz and len(aside[1]) == foe
    cards = s.game.cardset.cards
    for d in (BYZ, FOE):
        # no card of the new Age went to a discard pile, they all entered the draw pile/hands
        new_in_discard = [k for k in s.discard[d] if cards[k].first_age == age + 1]
        assert not new_in_discard
        assert all(k in discards_before[d] or cards[k].first_age <= age for k in s.discard[d])
    log = s.public_observation()["log"]
    assert any("Age begins" in line and "B-R2" in line for line in log)


def test_rule_empty_draw_pile_reshuffles_its_discard_pile() -> None:
    s = new_state(seed=3)
    foe = s.foe
    s.discard[FOE].extend(s.draw[FOE][:-2])
    s.draw[FOE] = s.draw[FOE][-2:]
    pool = sorted(s.discard[FOE] + s.draw[FOE])
    drawn = decks.draw(s, foe, 5, usable_only=True)
    assert len(drawn) == 5
    assert s.discard[FOE] == []
    assert sorted(s.draw[FOE] + drawn) == pool
    assert any("ran out" in line for line in s.public_observation()["log"])


def test_rule_both_piles_empty_draws_nothing() -> None:
    s = new_state(seed=3)
    foe = s.foe
    s.discard[FOE] = []
    s.draw[FOE] = [s.card("raiders").index]
    before = len(s.hands[foe])
    drawn = decks.draw(s, foe, 3, usable_only=True)
    assert len(drawn) == 1 and len(s.hands[foe]) == before + 1
    assert any("exhausted" in line for line in s.public_observation()["log"])


def test_b_r1_unusable_card_drawn_in_redraw_is_replaced_at_once() -> None:
    s = new_state(seed=5)
    s.turn = 5  # Middle Age
    emperor = s.emperor
    hagia = s.card("hagia-sophia").index  # Early only
    infantry = s.card("infantry").index
    s.hands[emperor] = [infantry] * 2
    s.hands[s.foe] = [s.card("raiders").index]
    s.draw[BYZ] = [infantry, hagia]  # top is the last element: Hagia Sophia first
    act(s, "redraw infantry")
    act(s, "redraw -")
    assert s.hands[emperor] == [infantry, infantry]
    assert hagia in s.removed  # its ages lie before the Middle Age
    assert any("B-R1" in line for line in s.public_observation()["log"])


def test_rule_stacked_option_puts_cards_on_top_first_is_top() -> None:
    ten = [
        "justinian-i",
        "hagia-sophia",
        "infantry",
        "archers",
        "cavalry",
        "imperial-fleet",
        "tribute",
        "embassy",
        "chronicle",
        "heraclius",
        "theodosius-i",
    ]
    s = new_state(seed=9, stacked={"byzantine": ten, "foe": ["huns"]}, first_emperor=0)
    # The Emperor (seat 0) drew the first 9; the 10th and 11th wait on top, 10th first.
    assert sorted(s.hands[0]) == sorted(s.card(x).index for x in ten[:9])
    assert s.draw[BYZ][-1] == s.card("heraclius").index
    assert s.draw[BYZ][-2] == s.card("theodosius-i").index
    assert s.card("huns").index in s.hands[1]
    assert len(s.draw[BYZ]) == 45 - 9


def test_shuffle_draws_the_same_permutation_as_random_shuffle() -> None:
    # Records replay only if every shuffle stays the same: the engine's own Fisher-Yates
    # must give random.shuffle's permutation and leave the generator in the same state.
    import random

    from porphyra.core.randomness import shuffle as shuffle_with

    for seed in range(300):
        cards = list(range(seed % 97))
        a, b = random.Random(seed), random.Random(seed)
        mine, theirs = list(cards), list(cards)
        shuffle_with(a, mine)
        b.shuffle(theirs)
        assert mine == theirs
        assert a.getrandbits(64) == b.getrandbits(64)
