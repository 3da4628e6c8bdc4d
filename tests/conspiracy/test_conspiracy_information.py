"""Observations, hidden information (C-R12), determinism, clone and resample."""

from __future__ import annotations

import json
import random

import porphyra
from porphyra import record
from porphyra.core.playout import random_playout
from porphyra.games.conspiracy import ConspiracyState
from tests.conspiracy.helpers import act, new

PUBLIC_KEYS = {
    "game",
    "players",
    "pearl_master",
    "piles",
    "face_up_locations",
    "lord_deck_size",
    "location_deck_size",
    "phase",
    "current_player",
    "first_player",
    "turn",
    "restriction",
    "end_triggered",
    "end_trigger_player",
    "drawn_lords",
    "to_place",
    "drawn_locations",
    "scores",
    "winners",
    "log",
}


def midgame(seed: int = 4, players: int = 3, steps: int = 30) -> ConspiracyState:
    game = porphyra.load_game("conspiracy", players=players)
    s = game.new_initial_state(seed=seed)
    assert isinstance(s, ConspiracyState)
    rng = random.Random(seed)
    for _ in range(steps):
        actions = s.legal_actions()
        s.apply_action(actions[rng.randrange(len(actions))])
    return s


def test_public_observation_shape() -> None:
    s = midgame()
    obs = s.public_observation()
    assert set(obs) == PUBLIC_KEYS
    assert list(obs["piles"]) == ["yellow", "red", "green", "blue", "purple"]
    for p in obs["players"]:
        assert len(p["chamber"]) == 15
        assert {"chamber", "pearls", "locations"} <= set(p)
        for slot in p["chamber"]:
            assert slot is None or set(slot) == {"lord", "location"}
    json.dumps(obs)  # JSON-ready


def test_seat_observation_adds_seat_and_location_deck() -> None:
    s = midgame()
    obs = s.observation(1)
    assert obs["seat"] == 1 and obs["location_deck"] is None
    assert {k: v for k, v in obs.items() if k not in ("seat", "location_deck")} == (
        s.public_observation()
    )


def test_c_r12_only_deck_orders_are_hidden() -> None:
    s = midgame()
    shuffled = s.clone()
    random.Random(1).shuffle(shuffled.deck)
    random.Random(2).shuffle(shuffled.loc_deck)
    shuffled.rng_base += 1
    for p in range(3):
        assert shuffled.observation(p) == s.observation(p)
    assert shuffled.hidden_from(0) != s.hidden_from(0)
    text = json.dumps(s.public_observation())
    assert str(s.deck) not in text


def test_c_r12_resample_keeps_counts_and_contents_and_varies_order() -> None:
    s = midgame()
    r = s.resample(0, random.Random(7))
    assert sorted(r.deck) == sorted(s.deck) and sorted(r.loc_deck) == sorted(s.loc_deck)
    assert r.deck != s.deck
    assert r.rng_base != s.rng_base and r.observation(0) == s.observation(0)


def test_c_r12_resample_depends_only_on_the_observation_and_rng() -> None:
    s = midgame()
    other = s.clone()
    random.Random(3).shuffle(other.deck)
    random.Random(4).shuffle(other.loc_deck)
    other.rng_base += 5
    a, b = s.resample(1, random.Random(8)), other.resample(1, random.Random(8))
    assert a.hidden_from(1) == b.hidden_from(1)


def test_log_is_readable_and_names_the_events() -> None:
    s = new(lords=["red4", "blue1", "green6", "yellow3"], locations=["l7"])
    act(s, "draw 2", "keep red4", "draw 1")
    log = s.public_observation()["log"]
    assert log[0] == "setup: Location l7 face up; seat 0 starts"
    assert "seat 0 draws 2: red4, blue1" in log
    assert "seat 0 keeps red4; to the piles: blue1" in log
    assert "seat 0 places red4 in slot 1" in log
    assert "seat 0 takes the Pearl Master token" in log
    assert "yellow3 revealed onto the yellow pile" in log


def test_same_seed_and_actions_same_game_byte_for_byte() -> None:
    game = porphyra.load_game("conspiracy", players=4, bonus_locations=True)
    texts = []
    for _ in range(2):
        s = game.new_initial_state(seed=77)
        random_playout(s, random.Random(5))
        texts.append(record.dumps(s) + json.dumps(s.public_observation(), sort_keys=True))
    assert texts[0] == texts[1]
    other = game.new_initial_state(seed=78)
    random_playout(other, random.Random(5))
    assert record.dumps(other) != texts[0][: len(record.dumps(other))]


def test_clone_is_independent() -> None:
    s = midgame()
    before = json.dumps(s.public_observation()), s.hidden_from(0)
    c = s.clone()
    random_playout(c, random.Random(3))
    assert (json.dumps(s.public_observation()), s.hidden_from(0)) == before
    assert c.is_terminal() and not s.is_terminal()


def test_reshuffle_after_clone_follows_the_same_random_sequence() -> None:
    # clone() keeps the generator: the same actions on both give the same decks
    s = midgame(seed=9, steps=10)
    a, b = s.clone(), s.clone()
    random_playout(a, random.Random(1))
    random_playout(b, random.Random(1))
    assert record.dumps(a) == record.dumps(b)
    assert a.hidden_from(0) == b.hidden_from(0)


def test_observations_sharing_are_each_seat_s_view_without_the_log() -> None:
    # One public view shared by every seat's dict: the same values as asking each seat,
    # the deck-search seat's Location deck included (C-R12), in 2-4 players and solo.
    shown = 0
    for players in (1, 2, 3, 4):
        for seed in range(3):
            s = porphyra.load_game("conspiracy", players=players).new_initial_state(seed=seed)
            assert isinstance(s, ConspiracyState)
            rng = random.Random(seed)
            while True:
                views = s.observations_sharing()
                assert len(views) == max(players, 2)  # (solo: you, then the LO)
                assert views == [s.observation(p, log=False) for p in range(len(views))]
                shown += sum(v["location_deck"] is not None for v in views)
                if s.is_terminal():
                    break
                actions = s.legal_actions()
                s.apply_action(actions[rng.randrange(len(actions))])
    assert shown > 0
