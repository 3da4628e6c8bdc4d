"""The Byzantium heuristic's pile redraw rule (issue 31): what it counts, what it decides,
that it never reads hidden information, and how ``easy`` specs pick a rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

from porphyra.bots import check_bot, make_bot, seat_view
from porphyra.bots.byzantium_redraw import (
    DEFAULT_REDRAW,
    pile_from_observation,
    pile_redraw,
    usable_pile,
)
from porphyra.bots.byzantium_search import candidate_actions, pile_candidate_actions
from porphyra.bots.heuristic_byzantium import HeuristicBot, Situation, _redraw, decide
from porphyra.core.registry import load_game
from porphyra.games.byzantium.game import ByzantiumGame
from porphyra.games.byzantium.melds import REDRAW_LIMIT
from porphyra.games.byzantium.state import ByzantiumState

GAME = ByzantiumGame()
CARDS = GAME.cardset


def kinds(*slugs: str) -> tuple[int, ...]:
    return tuple(sorted(CARDS.by_slug[s].index for s in slugs))


def slugs(cards: list[int]) -> list[str]:
    return sorted(CARDS.cards[k].slug for k in cards)


def redraw_states(seeds: range) -> list[tuple[ByzantiumState, int]]:
    """Every (state, seat) where a seat has a redraw to choose, in easy-vs-easy games."""
    out: list[tuple[ByzantiumState, int]] = []
    bots = [make_bot("easy:redraw=pile"), make_bot("easy")]
    for seed in seeds:
        state = GAME.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.phase.startswith("redraw"):
                out.extend((state.clone(), seat) for seat in state.active_players())
            player = state.current_player()
            state.apply_action(bots[player].choose(seat_view(state, player)), player)
    return out


def hidden_variants(state: ByzantiumState, seat: int) -> list[ByzantiumState]:
    """Three states ``seat`` cannot tell from ``state``: both piles shuffled, and one unknown
    card of the other hand swapped with a card of the other seat's pile (checked: the same
    observation)."""
    out = []
    for trial in range(3):
        hidden = state.clone()
        rng = random.Random(trial)
        for pile in hidden.draw:
            rng.shuffle(pile)
        other = 1 - seat
        deck = 0 if other == hidden.emperor else 1
        unknown = [k for k in hidden.hands[other] if k not in hidden.known[seat]]
        if unknown and hidden.draw[deck]:
            # Swap one unknown card of the other hand with a card of its pile.
            i = hidden.hands[other].index(unknown[0])
            j = rng.randrange(len(hidden.draw[deck]))
            hand_card, pile_card = hidden.hands[other][i], hidden.draw[deck][j]
            if CARDS.cards[pile_card].usable_in(hidden.age):
                hidden.hands[other][i], hidden.draw[deck][j] = pile_card, hand_card
        assert hidden.observation(seat) == state.observation(seat)
        out.append(hidden)
    return out


def test_the_pile_counted_from_the_observation_is_the_true_pile() -> None:
    found = redraw_states(range(4))
    assert len(found) > 80
    for state, seat in found:
        deck = 0 if seat == state.emperor else 1
        counted = pile_from_observation(state.observation(seat), CARDS)
        assert counted == tuple(sorted(state.draw[deck])), (state.turn, seat)


def test_usable_pile_keeps_the_cards_of_the_age() -> None:
    pile = kinds("constantine-the-great", "leo-iii", "cavalry")
    assert usable_pile(pile, CARDS, turn=1) == kinds("constantine-the-great", "cavalry")
    assert usable_pile(pile, CARDS, turn=5) == kinds("leo-iii", "cavalry")


# A full Early Byzantine meld: every card has a slot, the weakest is a force-1 Recovery.
HAND = kinds(
    "justinian-i",
    "rebuild-fortifications",
    "resettle-the-frontier",
    "imperial-fleet",
    "cavalry",
    "archers",
    "infantry",
    "embassy",
    "hagia-sophia",
)


def test_a_pile_of_strong_recovery_cards_is_worth_a_redraw() -> None:
    pile = kinds("rebuild-fortifications", "reconquest-of-africa", "reconquest-of-italy")
    chosen = pile_redraw(HAND, pile, CARDS, byzantine=True, turn=1)
    assert slugs(chosen) == ["resettle-the-frontier"]


def test_a_pile_that_brings_nothing_better_keeps_the_hand() -> None:
    pile = kinds("tribute", "tribute", "tribute")
    assert pile_redraw(HAND, pile, CARDS, byzantine=True, turn=1) == []
    # The surplus rule redraws the force-1 Recovery card whatever the pile holds.
    s = Situation(
        verb="redraw", byzantine=True, hand=HAND, turn=1, territory=10, my_lt=10, their_lt=10
    )
    assert slugs(_redraw(s, CARDS)) == ["resettle-the-frontier"]


def test_cards_outside_the_best_meld_go_first() -> None:
    hand = kinds("justinian-i", "heraclius", "cavalry", "archers", "infantry")
    pile = kinds("imperial-fleet", "imperial-fleet", "cavalry", "rebuild-fortifications")
    chosen = pile_redraw(hand, pile, CARDS, byzantine=True, turn=1)
    # Two Leaders of force 5 for one slot: one of them is redrawn, and the other kept.
    assert len({"justinian-i", "heraclius"} & set(slugs(chosen))) == 1


def test_redraws_are_legal_deterministic_and_empty_without_a_pile() -> None:
    rng = random.Random(7)
    byzantine = [c.index for c in CARDS.cards if c.deck == "byzantine" and c.usable_in(0)]
    for _ in range(200):
        hand = tuple(sorted(rng.sample(byzantine, 9)))
        pile = tuple(sorted(rng.sample(byzantine, rng.randrange(1, 20))))
        chosen = pile_redraw(hand, pile, CARDS, byzantine=True, turn=1)
        assert len(chosen) <= REDRAW_LIMIT
        rest = list(hand)
        for k in chosen:
            rest.remove(k)  # every card redrawn is in hand (raises if not)
        assert pile_redraw(hand, pile, CARDS, byzantine=True, turn=1) == chosen
        assert pile_redraw(hand, (), CARDS, byzantine=True, turn=1) == []


def test_the_bot_never_reads_the_piles_order_nor_the_other_hand() -> None:
    # The same view, whatever the hidden order of both piles and the other seat's hand.
    for state, seat in redraw_states(range(2))[::7]:
        expected = str(make_bot("easy:redraw=pile").choose(seat_view(state, seat)))
        for hidden in hidden_variants(state, seat):
            assert str(make_bot("easy:redraw=pile").choose(seat_view(hidden, seat))) == expected


def test_the_pile_rule_is_an_option_and_easy_and_the_search_keep_the_surplus_rule() -> None:
    # easy stays on the surplus rule while the search uses it (DEFAULT_REDRAW's comment).
    assert DEFAULT_REDRAW == "surplus"
    assert HeuristicBot().redraw == "surplus"
    differ = 0
    for state, seat in redraw_states(range(3)):
        obs = state.observation(seat)
        new = str(make_bot("easy:redraw=pile").choose(seat_view(state, seat)))
        old = str(make_bot("easy").choose(seat_view(state, seat)))
        assert old == str(make_bot("easy:redraw=surplus").choose(seat_view(state, seat)))
        differ += new != old
        # A situation without the pile (the search's) follows the surplus rule.
        hand = tuple(sorted(CARDS.by_slug[s].index for s in obs["hand"]))
        s = Situation(
            verb="redraw",
            byzantine=seat == state.emperor,
            hand=hand,
            turn=state.turn,
            territory=state.tt,
            my_lt=10,
            their_lt=10,
        )
        assert decide(s, CARDS)[1] == _redraw(s, CARDS)
    assert differ > 0


def test_easy_specs_pick_a_redraw_rule() -> None:
    assert make_bot("easy").name == "easy"
    assert make_bot("easy:redraw=surplus").name == "easy:redraw=surplus"
    assert make_bot("easy:redraw=pile").name == "easy:redraw=pile"
    with pytest.raises(ValueError, match="unknown redraw rule 'sideways'"):
        make_bot("easy:redraw=sideways")
    with pytest.raises(ValueError, match="not both"):
        make_bot("easy:style=legacy,redraw=pile")
    conspiracy = load_game("conspiracy")
    state = conspiracy.new_initial_state(seed=1)
    with pytest.raises(ValueError, match="redraw rules are for byzantium, not conspiracy"):
        make_bot("easy:redraw=pile").choose(seat_view(state))


def test_search_candidates_pile_put_the_pile_rules_redraw_first() -> None:
    # ISMCTS candidates=pile: the same candidates, the pile rule's redraw first (the anchor),
    # read from the sampled state's own pile, which matches what the seat's view counts.
    checked = 0
    for state, seat in redraw_states(range(3)):
        if state.current_player() != seat:
            continue
        options = pile_candidate_actions(state)
        expected = str(make_bot("easy:redraw=pile").choose(seat_view(state, seat)))
        assert str(options[0]) == expected
        plain = candidate_actions(state)
        assert {str(a) for a in options} == {str(a) for a in plain} | {expected}
        assert len(options) == len({str(a) for a in options})
        checked += 1
    assert checked > 40
    state = GAME.new_initial_state(seed=5)
    while state.phase.startswith("redraw"):
        state.apply_action(make_bot("easy").choose(seat_view(state)))
    assert [str(a) for a in pile_candidate_actions(state)] == [
        str(a) for a in candidate_actions(state)
    ]


def test_search_candidate_names_are_checked_per_game() -> None:
    state = GAME.new_initial_state(seed=2)
    bot = make_bot("ismcts:iterations=30,candidates=pile,rollout=heuristic")
    assert str(bot.choose(seat_view(state))) in {str(a) for a in state.legal_actions()}
    with pytest.raises(ValueError, match="unknown candidates 'sideways' for byzantium"):
        make_bot("ismcts:iterations=30,candidates=sideways").choose(seat_view(state))
    conspiracy = load_game("conspiracy").new_initial_state(seed=1)
    with pytest.raises(ValueError, match="unknown candidates 'pile' for conspiracy"):
        make_bot("ismcts:iterations=30,candidates=pile").choose(seat_view(conspiracy))
    with pytest.raises(ValueError, match="candidates must be a name"):
        make_bot("ismcts:candidates=a b")


def test_a_candidate_variant_orders_the_root_decision_only() -> None:
    # The variant is asked at the root decision only (the tree below keeps the game's own
    # candidates, where every sampled hand would cost the pile rule's full count), and its
    # first candidate is the anchor.
    from porphyra.bots.byzantium_search import HEURISTICS

    state = GAME.new_initial_state(seed=4)
    root = (state.turn, state.phase, state.current_player())
    seen: list[tuple[int, str, int]] = []

    def probe(world: ByzantiumState) -> list[Any]:
        seen.append((world.turn, world.phase, world.current_player()))
        return list(reversed(candidate_actions(world)))

    HEURISTICS.candidate_variants["probe"] = probe  # type: ignore[index]
    try:
        bot = make_bot("ismcts:iterations=200,candidates=probe,rollout=heuristic,anchor_z=9")
        chosen = bot.choose(seat_view(state))
    finally:
        del HEURISTICS.candidate_variants["probe"]  # type: ignore[attr-defined]
    assert len(seen) >= 200 and set(seen) == {root}
    # anchor_z=9: the variant's first candidate (here the game's last) is the anchor.
    assert str(chosen) == str(candidate_actions(state)[-1])


def test_check_bot_refuses_an_option_the_game_does_not_have() -> None:
    # Commands check a bot against the game before it plays (porphyra.bots.check_bot).
    check_bot("ismcts:candidates=pile", "byzantium")
    check_bot("easy:redraw=pile", "byzantium")
    check_bot("ismcts:candidates=heuristic", "conspiracy")
    with pytest.raises(ValueError, match="unknown candidates 'pile' for conspiracy"):
        check_bot("ismcts:candidates=pile", "conspiracy")
    with pytest.raises(ValueError, match="redraw rules are for byzantium, not conspiracy"):
        check_bot("easy:redraw=pile", "conspiracy")
    with pytest.raises(ValueError, match="play styles are for byzantium, not conspiracy"):
        check_bot("easy:style=legacy", "conspiracy")


@pytest.mark.parametrize("paired", ["off", "on"])
def test_the_search_with_candidates_pile_never_reads_hidden_cards(paired: str) -> None:
    # The variant reads a SAMPLED world's pile: the search's move must still depend on the
    # seat's view only, whatever the hidden order of both piles and the other hand.
    spec = f"ismcts:iterations=40,candidates=pile,rollout=heuristic,paired={paired}"
    for state, seat in redraw_states(range(2))[::7]:
        expected = str(make_bot(spec).choose(seat_view(state, seat)))
        for hidden in hidden_variants(state, seat):
            assert str(make_bot(spec).choose(seat_view(hidden, seat))) == expected
