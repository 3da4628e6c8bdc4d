"""Live scores from an observation equal the engine's scores (terminal and browser)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import porphyra
from porphyra.games.conspiracy.live import live_scores


@pytest.mark.parametrize("options", [{"players": 3}, {"players": 1, "opponent": "politician"}])
def test_live_scores_match_the_engine_all_game_long(options: dict[str, Any]) -> None:
    game = porphyra.load_game("conspiracy", **options)
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while True:
            assert live_scores(game.cards, state.public_observation()) == [  # type: ignore[attr-defined]
                dict(s) for s in state.scores()
            ]
            if state.is_terminal():
                break
            acts = state.legal_actions()
            state.apply_action(acts[rng.randrange(len(acts))])
