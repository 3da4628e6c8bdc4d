"""The engines keep the log lines they have formatted (the log only grows): whatever the
order of the calls, an observation's log must equal one formatted from scratch."""

from __future__ import annotations

import random

import pytest

import porphyra


@pytest.mark.parametrize(
    ("name", "options"),
    [("byzantium", {}), ("conspiracy", {"players": 3}), ("conspiracy", {"players": 1})],
)
def test_cached_log_lines_equal_freshly_formatted_ones(name: str, options: dict[str, int]) -> None:
    game = porphyra.load_game(name, **options)
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        seats = list(range(game.num_players))
        while not state.is_terminal():
            for seat in rng.sample(seats, rng.randrange(len(seats) + 1)):  # ask in any order
                assert state.observation(seat) == state.clone().observation(seat)
            public = state.public_observation()
            assert public == state.clone().public_observation()
            public["log"].append("a caller's own line")  # handed-out lists are copies
            assert state.public_observation()["log"] == state.clone().public_observation()["log"]
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
