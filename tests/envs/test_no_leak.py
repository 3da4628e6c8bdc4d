"""No leak in tensors or masks: states that differ only in what a seat cannot see (made
with ``resample``) give that seat identical tensors, masks and JSON, over many random
games, selections in progress included."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tests.envs.helpers import CONFIGS, new_core, random_walk


@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_twins_give_the_seat_identical_tensors_and_masks(
    game: str, options: dict[str, Any]
) -> None:
    games = 16 if game == "byzantium" else 8
    varied = compared = sensitive = 0
    for seed in range(games):
        rng = random.Random(100 + seed)
        core = new_core(game, options, seed=seed)
        for at in random_walk(core, rng):
            if rng.random() > 0.35:
                continue
            for seat in range(len(at.selections)):
                twin = at.resample(seat, random.Random(rng.getrandbits(32)))
                assert np.array_equal(at.tensor(seat), twin.tensor(seat))
                assert np.array_equal(at.mask(seat), twin.mask(seat))
                assert at.observation(seat) == twin.observation(seat)
                compared += 1
                varied += at.state.hidden_from(seat) != twin.state.hidden_from(seat)
                # The comparison is sharp: what another seat sees does change in twins.
                other = (seat + 1) % len(at.selections)
                sensitive += not np.array_equal(at.tensor(other), twin.tensor(other))
    assert compared > 80 and varied > compared // 2
    if game == "byzantium":
        assert sensitive > compared // 4
