"""OpenSpiel's RL loop on porphyra's games, against OpenSpiel's own C++ gin rummy.

Each game is played through ``open_spiel.python.rl_environment.Environment`` (what
OpenSpiel's DQN, NFSP and policy-gradient examples train on: every step hands out each
seat's information-state tensor and legal actions) by uniformly random agents, on one
pinned core, in alternating rounds (the order rotated each round).  Time is the process's
CPU time by default (``--clock cpu``: on a shared machine the time spent waiting for the
core is not the loop's; ``--clock wall`` counts it).  Reported: environment steps per
second, and each porphyra game's rate as a fraction of gin rummy's *in the same
round* (seconds apart, so the load of a shared machine mostly cancels out of the ratio):
the median of the rounds' ratios, their range, and that median over the ratio issue 34
started from (Byzantium 465 steps/s and Conspiracy 844 while gin rummy ran 2,617 in one
run; its target is 3x).  The load averages before and after are printed too.

Usage::

    .venv/bin/python bench/bench_openspiel_rl.py [--rounds 3] [--seconds 2.0] [--cpu N]
        [--clock cpu|wall]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

from open_spiel.python import rl_environment

import porphyra.envs.openspiel  # noqa: F401 (registers the games)

GAMES: list[tuple[str, str, dict[str, int]]] = [
    ("Byzantium", "porphyra_byzantium", {"seed": 1}),
    ("Conspiracy 2p", "porphyra_conspiracy", {"players": 2, "seed": 1}),
    ("gin rummy (C++)", "gin_rummy", {}),
]
GIN = "gin rummy (C++)"
#: Issue 34's starting point: each game's steps per second over gin rummy's, in one run.
ISSUE_RATIOS = {"Byzantium": 465 / 2617, "Conspiracy 2p": 844 / 2617}


def steps_per_second(
    env: rl_environment.Environment,
    seconds: float,
    rng: random.Random,
    clock: Callable[[], float] = time.perf_counter,
) -> float:
    """Random episodes for about ``seconds`` of ``clock``; the environment steps per
    second of it."""
    steps = 0
    start = clock()
    end = start + seconds
    while True:
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            step = env.step([legal[rng.randrange(len(legal))]])
            steps += 1
        now = clock()
        if now >= end:
            return steps / (now - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--cpu", type=int, default=None, help="core to pin to (default: first)")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        cpu = args.cpu if args.cpu is not None else min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    load = os.getloadavg()
    envs = {label: rl_environment.Environment(name, **params) for label, name, params in GAMES}
    rates: dict[str, list[float]] = {label: [] for label in envs}
    rng = random.Random(0)
    labels = list(envs)
    for r in range(args.rounds):
        order = labels[r % len(labels) :] + labels[: r % len(labels)]
        for label in order:
            rates[label].append(steps_per_second(envs[label], args.seconds, rng, clock))
    before, after = (" ".join(f"{x:.1f}" for x in avg) for avg in (load, os.getloadavg()))
    print(f"{args.clock} time; load averages: before {before}, after {after}")
    print(
        f"{'game':<16} {'steps/s: median':>16} {'of gin rummy, by round':>23} {'range':>12}", end=""
    )
    print(f" {'issue start':>11} {'gain':>6}")
    for label in labels:
        median = statistics.median(rates[label])
        ratios = [a / g for a, g in zip(rates[label], rates[GIN], strict=True)]
        mid = statistics.median(ratios)
        line = f"{label:<16} {median:>16,.0f} {mid:>22.2f}x {min(ratios):>5.2f}-{max(ratios):.2f}x"
        if label in ISSUE_RATIOS:
            line += f" {ISSUE_RATIOS[label]:>10.3f}x {mid / ISSUE_RATIOS[label]:>5.1f}x"
        print(line)


if __name__ == "__main__":
    main()
