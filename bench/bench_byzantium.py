"""Byzantium engine benchmark: random-playout games/s and steps/s, and the cost of
``clone()`` and ``resample()``.

Run by hand (not a test): ``python bench/bench_byzantium.py --games 2000``.  Pin it to one
core for the issue's figure: ``taskset -c 0 python bench/bench_byzantium.py``.
"""

from __future__ import annotations

import argparse
import random
import time

import porphyra
from porphyra.core.build import engine_build
from porphyra.core.playout import random_playout


def playouts(games: int, seed: int) -> tuple[float, float]:
    """Play ``games`` random games; return (games per second, steps per second)."""
    game = porphyra.load_game("byzantium")
    steps = 0
    start = time.perf_counter()
    for i in range(games):
        state = game.new_initial_state(seed=seed + i)
        steps += random_playout(state, random.Random(seed + i))
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / elapsed


def per_call_us(kind: str, samples: int, seed: int) -> float:
    """Mean microseconds of one ``clone()`` or ``resample()`` on mid-game states."""
    game = porphyra.load_game("byzantium")
    states = []
    rng = random.Random(seed)
    for i in range(20):
        state = game.new_initial_state(seed=seed + i)
        for _ in range(rng.randrange(5, 25)):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
        if not state.is_terminal():
            states.append(state)
    start = time.perf_counter()
    for i in range(samples):
        s = states[i % len(states)]
        if kind == "clone":
            s.clone()
        else:
            s.resample(s.current_player(), rng)
    return (time.perf_counter() - start) / samples * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="random games to play")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=20000, help="clone/resample calls")
    args = parser.parse_args()
    print(f"porphyra engine: {engine_build()}")
    gps, sps = playouts(args.games, args.seed)
    print(f"random playouts: {gps:,.0f} games/s, {sps:,.0f} steps/s ({args.games} games)")
    print(f"clone():    {per_call_us('clone', args.samples, args.seed):7.1f} µs")
    print(f"resample(): {per_call_us('resample', args.samples, args.seed):7.1f} µs")


if __name__ == "__main__":
    main()
