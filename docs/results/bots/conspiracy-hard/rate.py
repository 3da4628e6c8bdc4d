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

import sys
import time
from pathlib import Path

from porphyra.bots import ISMCTS_PRESETS, ISMCTSBot, parse_spec, seat_view

# The positions are bench/bench_ismcts.py's own (the same seeded random play).
sys.path.insert(0, str(Path(__file__).resolve().parents[4] / "bench"))
from bench_ismcts import positions

#: Random actions played before each position (5 positions at seed 7 in the first run).
STEPS = [3, 12, 24, 36, 48, 60, 6, 18, 30, 42]


def rate(config: str, seed: int) -> float:
    """Iterations per CPU second of ``ismcts`` with ``config`` (``base``: unchanged)."""
    settings = ISMCTS_PRESETS["ismcts"].with_options(early_stop=False, iterations=300)
    if config != "base":
        settings = settings.with_options(**parse_spec(f"ismcts:{config}")[1])
    states = positions("conspiracy", {"players": 2}, STEPS, seed)
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
