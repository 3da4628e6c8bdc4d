"""The per-game heuristics: decisions, candidates, evaluations, and strength against random."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest

from porphyra.bots import make_bot, seat_view
from porphyra.bots.base import Bot
from porphyra.core.errors import UnknownGameError
from porphyra.core.game import Game, State
from porphyra.core.registry import load_game
from porphyra.games.byzantium.state import ByzantiumState
from porphyra.games.conspiracy.state import ConspiracyState


def load_or_skip(name: str, **options: object) -> Game:
    try:
        return load_game(name, **options)
    except (ImportError, UnknownGameError) as exc:
        pytest.skip(f"game {name!r} not available yet: {exc}")


def states_along(game: Game, seed: int) -> list[State]:
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        out.append(state.clone())
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    return out


def win_rate(game: Game, spec: str, opponent: str, games: int) -> float:
    """Share of games won by ``spec`` (draws count half), seats rotated."""
    n = game.num_players
    score = 0.0
    for g in range(games):
        seat = g % n
        bots: list[Bot] = [
            make_bot(spec if p == seat else opponent, 1000 * g + p) for p in range(n)
        ]
        state = game.new_initial_state(seed=g)
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(bots[player].choose(seat_view(state)))
        r = state.returns()[seat]
        score += 1.0 if r > 0 else (0.5 if r == 0 else 0.0)
    return score / games


# -- Byzantium ------------------------------------------------------------------------------


def byz(**options: object) -> Game:
    load_or_skip("byzantium")
    return load_game("byzantium", **options)


def test_byzantium_best_meld_is_a_strongest_legal_meld() -> None:
    from porphyra.bots import heuristic_byzantium as hb

    game = byz()
    cardset = game.cardset  # type: ignore[attr-defined]
    by_slug = cardset.by_slug
    checked = 0
    for seed in range(4):
        for state in states_along(game, seed):
            if state.observation(state.current_player())["phase"] != "meld":
                continue
            obs = state.observation(state.current_player())
            hand = [by_slug[s].index for s in obs["hand"]]
            meld = hb.best_meld(hand, cardset, obs["role"] == "byzantine")
            legal = {str(a): a for a in state.legal_actions()}
            slugs = ",".join(cardset.cards[k].slug for k in meld) or "-"
            assert f"meld {slugs}" in legal

            # Legacy value first, then force (``_sort_key``): from deck v5 on a Legacy card
            # may trade LT for force, and the heuristic takes the LT.
            def worth(slugs: list[str]) -> tuple[int, int]:
                return (sum(by_slug[c].legacy for c in slugs), sum(by_slug[c].force for c in slugs))

            best = max(worth([c for c in t.split()[1].split(",") if c != "-"]) for t in legal)
            assert worth([cardset.cards[k].slug for k in meld]) == best
            checked += 1
    assert checked >= 8


def _situation(game: Game, **fields: object) -> object:
    from porphyra.bots import heuristic_byzantium as hb

    by_slug = game.cardset.by_slug  # type: ignore[attr-defined]
    hand = fields.pop("hand")
    assert isinstance(hand, list)
    for name in ("byz_meld", "foe_meld"):
        melded = fields.get(name, [])
        assert isinstance(melded, list)
        fields[name] = tuple(sorted(by_slug[s].index for s in melded))
    defaults: dict[str, object] = {"turn": 2, "territory": 10, "my_lt": 10, "their_lt": 10}
    defaults.update(fields)
    return hb.Situation(
        hand=tuple(sorted(by_slug[s].index for s in hand)),
        **defaults,  # type: ignore[arg-type]
    )


def _decide(game: Game, **fields: object) -> tuple[str, list[str]]:
    from porphyra.bots import heuristic_byzantium as hb

    cardset = game.cardset  # type: ignore[attr-defined]
    verb, kinds = hb.decide(_situation(game, **fields), cardset)  # type: ignore[arg-type]
    return verb, sorted(cardset.cards[k].slug for k in kinds)


FOE_HAND = ["huns", "sassanid-persia", "earthquake", "civil-war", "siege-train", "raiders"]


def test_byzantium_foe_avoids_a_collapse_it_would_lose_but_seeks_one_it_wins() -> None:
    game = byz()
    force = {c.slug: c.force for c in game.cardset.cards}  # type: ignore[attr-defined]
    full = sum(force[s] for s in FOE_HAND)
    behind = _decide(
        game, verb="meld", byzantine=False, hand=FOE_HAND, territory=2, my_lt=6, their_lt=12
    )
    assert sum(force[s] for s in behind[1]) < full  # 12 - 3 > 6: a collapse loses
    from porphyra.bots.heuristic_byzantium import expected_emperor_force

    cap = 2 - 1 + expected_emperor_force(game.cardset, 0)  # type: ignore[attr-defined]
    assert sum(force[s] for s in behind[1]) <= cap
    ahead = _decide(
        game, verb="meld", byzantine=False, hand=FOE_HAND, territory=2, my_lt=10, their_lt=11
    )
    assert sorted(ahead[1]) == sorted(FOE_HAND)  # 11 - 3 < 10: a collapse wins


def test_byzantium_passes_a_card_the_next_age_discards() -> None:
    game = byz()
    # Turn 4 is the last Early turn: an Early-only Leader is worthless to the receiver.
    verb, cards = _decide(
        game, verb="pass", byzantine=True, hand=["infantry", "justinian-i"], turn=4
    )
    assert (verb, cards) == ("pass", ["justinian-i"])
    verb, cards = _decide(
        game, verb="pass", byzantine=True, hand=["infantry", "justinian-i"], turn=2
    )
    assert (verb, cards) == ("pass", ["infantry"])


def test_byzantium_redraws_cards_that_cannot_be_melded() -> None:
    game = byz()
    hand = ["justinian-i", "heraclius", "constantine-the-great", "cavalry", "archers", "tribute"]
    verb, cards = _decide(game, verb="redraw", byzantine=True, hand=hand)
    assert verb == "redraw"
    leaders = {"justinian-i", "heraclius", "constantine-the-great"}
    assert len(leaders - set(cards)) == 1  # keeps exactly one Leader
    assert "cavalry" not in cards and "archers" not in cards


def test_byzantium_negotiation_targets_the_strongest_and_replaces_to_win() -> None:
    # Deck v4's forces: on v5 the Vandals have 0 force, so replacing with them gains nothing.
    game = byz(deck="v4")
    verb, cards = _decide(
        game,
        verb="target",
        byzantine=True,
        hand=[],
        byz_meld=["justinian-i", "tribute"],
        foe_meld=["slavs", "sassanid-persia", "raiders"],
    )
    assert (verb, cards) == ("target", ["sassanid-persia"])
    # Foe meld after the target: slavs (1) + raiders (1) against 5; the Vandals (1) add
    # force, so the Foe puts them in.
    verb, cards = _decide(
        game,
        verb="replace",
        byzantine=False,
        hand=["vandals", "raiders"],
        byz_meld=["justinian-i", "tribute"],
        foe_meld=["slavs", "raiders"],
    )
    assert (verb, cards) == ("replace", ["vandals"])


def test_byzantium_candidates_are_legal_and_hold_the_heuristic_choice() -> None:
    from porphyra.bots import byzantium_search as search

    game = byz()
    for seed in range(3):
        for state in states_along(game, seed)[::3]:
            assert isinstance(state, ByzantiumState)
            legal = {str(a) for a in state.legal_actions()}
            candidates = [str(a) for a in search.candidate_actions(state)]
            assert candidates and set(candidates) <= legal
            assert len(candidates) == len(set(candidates))
            # The default move (ISMCTS anchor_z): the heuristic's with the search's cheap
            # redraw rule (easy itself redraws by the pile's contents, issue 31).
            easy = str(make_bot("easy:redraw=surplus", 0).choose(seat_view(state)))
            assert easy == candidates[0]
            assert str(search.rollout_policy(state, random.Random(1))) in legal


# -- Conspiracy -----------------------------------------------------------------------------


def test_expected_best_matches_enumeration() -> None:
    from porphyra.bots.heuristic_conspiracy import _expected_best

    values = [3.0, -1.0, 2.5, 2.5, 0.0, 7.0]
    for n in (1, 2, 3):
        combos = list(itertools.combinations(values, n))
        brute = sum(max(c) for c in combos) / len(combos)
        assert _expected_best(values, n) == pytest.approx(brute)
    assert _expected_best(values, 9) == 7.0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_conspiracy_candidates_are_legal_and_hold_the_heuristic_choice(players: int) -> None:
    from porphyra.bots import heuristic_conspiracy as hc

    game = load_or_skip("conspiracy", players=players)
    for seed in range(2):
        for state in states_along(game, seed)[::2]:
            assert isinstance(state, ConspiracyState)
            legal = {str(a) for a in state.legal_actions()}
            candidates = [str(a) for a in hc.candidate_actions(state)]
            assert candidates and set(candidates) <= legal
            assert len(candidates) <= hc.CANDIDATES
            assert str(hc.best_action(state)) == candidates[0]
            assert str(make_bot("easy", 0).choose(seat_view(state))) == candidates[0]


def test_conspiracy_takes_the_pile_that_grows_its_coalition() -> None:
    from porphyra.bots import heuristic_conspiracy as hc

    game = load_or_skip("conspiracy", players=2)
    # Find a recruit decision, then make the red pile two lords that extend a red coalition
    # of 4 to 6, and check that the heuristic takes it.
    for state in states_along(game, 3):
        assert isinstance(state, ConspiracyState)
        if state.legal_actions() and str(state.legal_actions()[0]).startswith("draw"):
            p = state.current_player()
            if len(state.chambers[p]) == 4:
                break
    else:
        pytest.skip("no suitable position")
    index = state.cards.lord_index
    red1, yellow2 = index["red1"], index["yellow2"]
    state.chambers[p][:] = [red1, red1, red1, red1]
    state.piles[1][:] = [index["red2"], index["red3"]]
    state.piles[0][:] = [yellow2]
    assert str(hc.best_action(state)) == "take red"


@pytest.mark.parametrize("name", ["byzantium", "conspiracy"])
def test_evaluations_lie_in_the_unit_interval(name: str) -> None:
    from porphyra.bots.heuristic import heuristics_for

    game = load_or_skip(name)
    hooks = heuristics_for(name)
    assert hooks is not None and hooks.evaluate is not None
    evaluate = hooks.evaluate
    for state in states_along(game, 5)[::4]:
        values = [evaluate(state, p) for p in range(game.num_players)]
        assert all(0.0 <= v <= 1.0 for v in values)


# -- strength ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "games", "target"),
    [
        ("byzantium", {}, 60, 0.9),
        ("conspiracy", {"players": 2}, 60, 0.9),
        ("conspiracy", {"players": 3}, 30, 0.8),
    ],
)
def test_easy_beats_random(
    name: str, options: dict[str, object], games: int, target: float
) -> None:
    game = load_or_skip(name, **options)
    assert win_rate(game, "easy", "random", games) >= target


def test_byzantium_refine_keeps_the_observation_and_models_the_emperor() -> None:
    from porphyra.bots import byzantium_search as search
    from porphyra.bots.heuristic_byzantium import best_meld

    game = byz()
    cardset = game.cardset  # type: ignore[attr-defined]
    rng = random.Random(0)
    refined = 0
    for seed in range(6):
        for state in states_along(game, seed):
            player = state.current_player()
            sample = state.resample(player, rng)
            assert isinstance(sample, ByzantiumState)
            before = sample.observation(player)
            search.refine_sample(sample, player, rng)
            assert sample.observation(player) == before
            pending = sample.pending[1 - player]
            if sample.phase == "meld_foe":
                emperor = 1 - player
                strongest = best_meld(
                    sample.hands[emperor],
                    cardset,
                    byzantine=True,
                )
                assert pending == tuple(strongest)
                refined += 1
    assert refined >= 5


def test_easy_foe_restraint_follows_the_deck_not_a_constant(tmp_path: Path) -> None:
    """The force the Foe counts on from the Emperor is derived from the card data: a deck
    whose Byzantine cards are all one force stronger gives a higher figure in every Age."""
    from porphyra.bots.heuristic_byzantium import expected_emperor_force
    from porphyra.games.byzantium.cards import deck_path, load_cards

    data = json.loads(deck_path("v1").read_text())
    for card in data["cards"]:
        if card["deck"] == "byzantine":
            card["force"] += 1
    stronger = tmp_path / "stronger.json"
    stronger.write_text(json.dumps(data))
    base, strong = load_cards(deck_path("v1")), load_cards(stronger)
    for age in range(3):
        assert expected_emperor_force(strong, age) > expected_emperor_force(base, age) > 0
    assert expected_emperor_force(base, 0) == expected_emperor_force(base, 0)  # cached, stable
