"""Episode lengths of the research environments under uniformly random legal ids.

For each encoded configuration, plays ``--games`` games (seeds 0, 1, ...) choosing a
uniformly random legal id for a random active seat at each step, and prints the mean and
maximum number of environment steps (ids: a Byzantium card list is one id per card plus
END) and of engine actions per game (the table in ``docs/envs.md``).

Usage::

    .venv/bin/python bench/env_lengths.py [--games 200]
"""

from __future__ import annotations

import argparse
import random
import statistics

from porphyra.core.registry import load_game
from porphyra.envs.codecs import codec_for
from porphyra.envs.docs import CONFIGS
from porphyra.envs.encoding import EnvCore


def lengths(name: str, options: dict[str, int], seed: int) -> tuple[int, int]:
    """``(environment steps, engine actions)`` of one random game of seed ``seed``."""
    game = load_game(name, **options)
    core = EnvCore(codec_for(game), game.new_initial_state(seed=seed))
    rng = random.Random(seed)
    steps = 0
    while not core.state.is_terminal():
        active = core.active()
        seat = active[rng.randrange(len(active))]
        ids = core.legal_ids(seat)
        core.step(seat, ids[rng.randrange(len(ids))])
        steps += 1
    return steps, len(core.state.history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    print("| configuration | steps (ids): mean | max | engine actions: mean | max |")
    print("|---|---:|---:|---:|---:|")
    for label, name, options in CONFIGS:
        runs = [lengths(name, options, seed) for seed in range(args.games)]
        steps = [s for s, _ in runs]
        actions = [a for _, a in runs]
        print(
            f"| {label} | {statistics.mean(steps):.0f} | {max(steps)} "
            f"| {statistics.mean(actions):.0f} | {max(actions)} |"
        )


if __name__ == "__main__":
    main()
