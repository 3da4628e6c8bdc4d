"""OpenSpiel's RL loop on porphyra's games, against OpenSpiel's own C++ gin rummy.

Each game is played through ``open_spiel.python.rl_environment.Environment`` (what
OpenSpiel's DQN, NFSP and policy-gradient examples train on: every step hands out each
seat's information-state tensor and legal actions) by uniformly random agents, on one
pinned core, in alternating rounds (the order rotated each round).  Reported: environment
steps per second, and each porphyra game's rate as a fraction of gin rummy's in the same
run (the machine's speed cancels out of the ratio).

Usage::

    .venv/bin/python bench/bench_openspiel_rl.py [--rounds 3] [--seconds 2.0] [--cpu N]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from open_spiel.python import rl_environment

import porphyra.envs.openspiel  # noqa: F401 (registers the games)

GAMES: list[tuple[str, str, dict[str, int]]] = [
    ("Byzantium", "porphyra_byzantium", {"seed": 1}),
    ("Conspiracy 2p", "porphyra_conspiracy", {"players": 2, "seed": 1}),
    ("gin rummy (C++)", "gin_rummy", {}),
]


def steps_per_second(env: rl_environment.Environment, seconds: float, rng: random.Random) -> float:
    """Random episodes for about ``seconds``; the environment steps per second."""
    steps = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([legal[rng.randrange(len(legal))]])
            steps += 1
        now = time.perf_counter()
        if now >= end:
            return steps / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--cpu", type=int, default=None, help="core to pin to (default: first)")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    envs = {label: rl_environment.Environment(name, **params) for label, name, params in GAMES}
    rates: dict[str, list[float]] = {label: [] for label in envs}
    rng = random.Random(0)
    labels = list(envs)
    for r in range(args.rounds):
        order = labels[r % len(labels) :] + labels[: r % len(labels)]
        for label in order:
            rates[label].append(steps_per_second(envs[label], args.seconds, rng))
    gin = max(rates["gin rummy (C++)"])
    print(f"{'game':<18} {'steps/s (best)':>15} {'rounds':>28} {'of gin rummy':>13}")
    for label in labels:
        best = max(rates[label])
        each = ", ".join(f"{x:,.0f}" for x in rates[label])
        print(f"{label:<18} {best:>15,.0f} {each:>28} {best / gin:>12.2f}x")


if __name__ == "__main__":
    main()
