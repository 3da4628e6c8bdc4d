"""Iterations per CPU second of ISMCTS settings on 2-player Conspiracy decisions.

Used to give each variant of the screen the CPU time a move that the current search
(``ismcts`` settings) spends at 560 iterations.  Positions: decisions reached by seeded
random play (as ``bench/bench_ismcts.py`` reaches them); each search runs 300 iterations
with ``early_stop`` off, and the rate is iterations over ``time.process_time`` (CPU, so
other jobs on the machine do not change it much).

usage (from the repository root)::

    python docs/results/bots/conspiracy-hard/rate.py SEED base candidates=all depth=16
"""

from __future__ import annotations

import random
import sys
import time

from porphyra.bots import ISMCTS_PRESETS, ISMCTSBot, parse_spec, seat_view
from porphyra.core.game import State
from porphyra.core.registry import load_game

#: Random actions played before each position (5 positions at seed 7 in the first run).
STEPS = [3, 12, 24, 36, 48, 60, 6, 18, 30, 42]


def positions(steps: list[int], seed: int) -> list[State]:
    """Non-terminal 2-player Conspiracy states with at least 2 legal actions, about
    ``steps`` uniformly random actions in (game ``i`` seeded ``seed + i``)."""
    game = load_game("conspiracy", players=2)
    out: list[State] = []
    for i, target in enumerate(steps):
        state = game.new_initial_state(seed=seed + i)
        rng = random.Random(seed + i)
        done = 0
        while not state.is_terminal() and (done < target or len(state.legal_actions()) < 2):
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            done += 1
        if not state.is_terminal():
            out.append(state)
    return out


def rate(config: str, seed: int) -> float:
    """Iterations per CPU second of ``ismcts`` with ``config`` (``base``: unchanged)."""
    settings = ISMCTS_PRESETS["ismcts"].with_options(early_stop=False, iterations=300)
    if config != "base":
        settings = settings.with_options(**parse_spec(f"ismcts:{config}")[1])
    states = positions(STEPS, seed)
    start, done = time.process_time(), 0
    for i, state in enumerate(states):
        done += ISMCTSBot(i, settings).search(seat_view(state)).iterations
    return done / (time.process_time() - start)


def main() -> None:
    seed = int(sys.argv[1])
    for config in sys.argv[2:]:
        print(f"{config:40} {rate(config, seed):7.0f} it/CPU-s", flush=True)


if __name__ == "__main__":
    main()
