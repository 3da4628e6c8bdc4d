"""Bots play the Conspiracy solo mode (one deciding seat against a Legendary Opponent)."""

from __future__ import annotations

import random

import pytest

import porphyra
from porphyra.bots import make_bot, seat_view
from porphyra.bots.heuristic_conspiracy import evaluate
from porphyra.games.conspiracy.state import ConspiracyState


@pytest.mark.parametrize("spec", ["easy", "ismcts:iterations=15"])
def test_bot_finishes_a_solo_game_with_legal_moves(spec: str) -> None:
    game = porphyra.load_game("conspiracy", players=1, opponent="military")
    state = game.new_initial_state(seed=3)
    bot = make_bot(spec, seed=1)
    while not state.is_terminal():
        view = seat_view(state)
        action = bot.choose(view)
        assert action in list(view.legal_actions)
        state.apply_action(action)
    assert len(state.returns()) == 1


def test_evaluation_counts_the_legendary_opponent() -> None:
    game = porphyra.load_game("conspiracy", players=1, opponent="farmer")
    state = game.new_initial_state(seed=4)
    rng = random.Random(0)
    for _ in range(12):
        acts = state.legal_actions()
        state.apply_action(acts[rng.randrange(len(acts))])
    assert isinstance(state, ConspiracyState)
    value = evaluate(state, 0)
    assert 0.0 <= value <= 1.0
