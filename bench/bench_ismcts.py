"""ISMCTS benchmark: iterations per second on Byzantium and 2-player Conspiracy decisions.

Each iteration is counted with the rollout or evaluation the ``hard`` bot uses (its settings
in ``porphyra.bots.ISMCTS_PRESETS``): determinization (``resample``), tree descent over the
candidate actions, the rollout and its evaluation, backpropagation.  The issue's target is
500 iterations per second, on one core.

Run by hand (not a test)::

    python bench/bench_ismcts.py                      # hard's settings, 3 s a position
    python bench/bench_ismcts.py --seconds 1 --config rollout=random,candidates=all
    taskset -c 0 python bench/bench_ismcts.py         # pin to one core explicitly

The script also pins itself to one core (``os.sched_setaffinity``) where the OS allows it.
Positions: decisions reached by seeded random play (a few steps in, mid-game, late game);
decisions with a single legal action are skipped (no bot searches them).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
from typing import Any

from porphyra.bots import ISMCTS_PRESETS, ISMCTSBot, ISMCTSSettings, parse_spec, seat_view
from porphyra.core.build import engine_build
from porphyra.core.game import State
from porphyra.core.registry import load_game

TARGET = 500.0
GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("Byzantium", "byzantium", {}),
    ("Conspiracy 2p", "conspiracy", {"players": 2}),
]


def positions(name: str, options: dict[str, Any], steps: list[int], seed: int) -> list[State]:
    """Non-terminal states with at least 2 legal actions, about ``steps`` random actions in."""
    game = load_game(name, **options)
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


def settings(preset: str, overrides: str) -> ISMCTSSettings:
    """The ISMCTS settings of ``preset`` with ``key=value,...`` overrides, minus budgets
    (early stop off unless the overrides turn it on)."""
    # Early stop off: time the whole budget, not a settled search's first part.
    result = ISMCTS_PRESETS[preset].with_options(early_stop=False)
    if overrides:
        result = result.with_options(**parse_spec(f"ismcts:{overrides}")[1])
    return result.with_options(seconds=None, iterations=None)


def pin_one_core() -> str:
    """Restrict this process to one CPU if possible; returns a note for the report."""
    if hasattr(os, "sched_setaffinity"):
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to CPU {cpu}"
    return "not pinned (no sched_setaffinity on this OS)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="hard", choices=sorted(ISMCTS_PRESETS))
    parser.add_argument(
        "--config", default="", help="overrides, e.g. rollout=random,depth=none,candidates=all"
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="search time per position")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    note = pin_one_core()
    config = settings(args.preset, args.config)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"ISMCTS benchmark ({note}, load average {load:.1f}); settings: {config}")
    print(f"porphyra engine: {engine_build()}")
    print(f"target: {TARGET:.0f} iterations/s per decision, {args.seconds:g} s per position")
    ok = True
    for label, name, options in GAMES:
        rates = []
        for i, state in enumerate(positions(name, options, [3, 12, 24, 36], args.seed)):
            bot = ISMCTSBot(args.seed + i, config, seconds=args.seconds)
            result = bot.search(seat_view(state))
            rate = result.iterations / result.seconds
            rates.append(rate)
            print(
                f"  {label:14} position {i} (step {len(state.history)}, "
                f"{len(state.legal_actions())} legal actions): {result.iterations} iterations "
                f"in {result.seconds:.2f} s = {rate:.0f} it/s"
            )
        median = statistics.median(rates)
        passed = min(rates) >= TARGET
        ok = ok and passed
        print(
            f"{label}: median {median:.0f} it/s, min {min(rates):.0f} it/s "
            f"-> {'meets' if passed else 'MISSES'} the {TARGET:.0f} it/s target"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
