"""Benchmark of the Conspiracy engine: random playouts, clone() and resample().

Usage::

    .venv/bin/python bench/bench_conspiracy.py [--seconds 5] [--players 1 2 4]

``--players 1`` is the solo mode against a Legendary Opponent drawn from each game's seed
(rules section 4; the LO's turns run inside ``apply_action``).  Prints, per seat count,
complete random games per second and actions per second on one core, then the cost of
``clone()`` and ``resample()`` in microseconds (mid-game states).  The issue's target is at
least 300 complete random 2-player games per second.
"""

from __future__ import annotations

import argparse
import random
import time

import porphyra
from porphyra.core.build import engine_build
from porphyra.core.game import State
from porphyra.core.playout import random_playout


def playouts(players: int, seconds: float) -> tuple[float, float]:
    """Random games for ``seconds``; returns ``(games/s, actions/s)``."""
    game = porphyra.load_game("conspiracy", players=players)
    rng = random.Random(players)
    games = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state(seed=games)
        steps += random_playout(state, rng)
        games += 1
    elapsed = time.perf_counter() - start
    return games / elapsed, steps / elapsed


def mid_game_states(players: int, count: int) -> list[State]:
    """``count`` states taken half-way through seeded random games."""
    game = porphyra.load_game("conspiracy", players=players)
    out: list[State] = []
    for g in range(count):
        state = game.new_initial_state(seed=g)
        rng = random.Random(g)
        for _ in range(25 * max(players, 2)):
            if state.is_terminal():
                break
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
        out.append(state)
    return out


def per_call_us(players: int, repeat: int = 200) -> tuple[float, float]:
    """Mean microseconds of ``clone()`` and of ``resample()`` on mid-game states."""
    states = mid_game_states(players, 20)
    rng = random.Random(0)
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            s.clone()
    clone_us = (time.perf_counter() - start) / (repeat * len(states)) * 1e6
    start = time.perf_counter()
    for _ in range(repeat):
        for s in states:
            s.resample(0, rng)
    resample_us = (time.perf_counter() - start) / (repeat * len(states)) * 1e6
    return clone_us, resample_us


def main() -> None:
    """Parse the arguments and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per seat count")
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    print(f"porphyra engine: {engine_build()}")
    for players in args.players:
        games, steps = playouts(players, args.seconds)
        clone_us, resample_us = per_call_us(players)
        print(
            f"{players} players: {games:8.1f} games/s  {steps:9.0f} actions/s  "
            f"clone {clone_us:5.1f} us  resample {resample_us:5.1f} us"
        )


if __name__ == "__main__":
    main()
