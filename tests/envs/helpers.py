"""Shared helpers of the research-environment tests."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from porphyra.core.registry import load_game
from porphyra.envs.codecs import codec_for
from porphyra.envs.encoding import EnvCore

#: (game, options) of every encoded configuration.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("byzantium", {}),
    ("conspiracy", {}),
    ("conspiracy", {"players": 3}),
    ("conspiracy", {"players": 4}),
    ("conspiracy", {"players": 1}),
]


def new_core(game: str, options: dict[str, Any], seed: int) -> EnvCore:
    """A fresh core of ``game`` for engine seed ``seed``."""
    g = load_game(game, **options)
    return EnvCore(codec_for(g), g.new_initial_state(seed=seed))


def random_walk(core: EnvCore, rng: random.Random) -> Iterator[EnvCore]:
    """Play random legal ids (one seat at a time, a random active seat) to the end,
    yielding the core before every id (selections in progress included)."""
    while not core.state.is_terminal():
        yield core
        active = core.active()
        seat = active[rng.randrange(len(active))]
        ids = core.legal_ids(seat)
        core.step(seat, ids[rng.randrange(len(ids))])
