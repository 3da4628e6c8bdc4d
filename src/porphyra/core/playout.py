"""Seeded random playouts, shared by the conformance suite, benchmarks and simulations."""

from __future__ import annotations

import random

from porphyra.core.game import State


def random_playout(state: State, rng: random.Random, max_steps: int = 100_000) -> int:
    """Play uniformly random legal actions on ``state`` (in place) until the end.

    Args:
        state: the state to advance; it is mutated.
        rng: the generator that picks the actions.
        max_steps: safety bound on the number of actions.

    Returns:
        The number of actions applied.

    Raises:
        RuntimeError: the game did not end within ``max_steps`` actions.
    """
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise RuntimeError(f"game did not end within {max_steps} actions")
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
        steps += 1
    return steps
