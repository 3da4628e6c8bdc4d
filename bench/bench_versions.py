"""Side-by-side speed of this tree's engines and bots against another checkout of porphyra.

Issue 12's ISMCTS target ("Byzantium ISMCTS iterations/s doubled, at medium's settings") is
a ratio against the code before the change, so both versions run in one session: each
round runs the same workload once per tree, in a fresh interpreter pinned to the same core,
in alternating order, and the script prints each tree's median CPU time and the ratio.

Workloads (``--workload``):

- ``ismcts``: ISMCTS searches with ``medium``'s settings at a fixed iteration budget
  (``--iterations``, 300 by default) on the same Byzantium positions (deck v1, which every
  version ships; seeded random play, a few steps in, mid-game and late);
- ``playout``: random Byzantium playouts (``legal_actions`` / ``apply_action``), deck v1.

Each tree is a checkout (its ``src`` is imported) or an install directory: to measure the
compiled engine (``setup.py``), install it with ``pip install --no-deps --target DIR .`` and
pass ``--tree DIR``.

Usage::

    git worktree add /tmp/porphyra-before c4feeb8   # the commit before engine v2
    .venv/bin/python bench/bench_versions.py --baseline /tmp/porphyra-before [--rounds 5]
    .venv/bin/pip install -q --no-deps --target /tmp/porphyra-compiled .
    .venv/bin/python bench/bench_versions.py --tree /tmp/porphyra-compiled \
        --baseline /tmp/porphyra-before
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

#: Runs in the tree under test (``PYTHONPATH`` = its ``src``); prints CPU seconds.
WORKLOADS = {
    "ismcts": """
import random, time
import porphyra
from porphyra.bots import make_bot, seat_view
game = porphyra.load_game("byzantium", deck="v1")
states = []
for seed in range(6):
    s = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not s.is_terminal():
        if step in (3, 12, 24, 36) and len(s.legal_actions()) > 1:
            states.append(s.clone())
        a = s.legal_actions()
        s.apply_action(a[rng.randrange(len(a))])
        step += 1
start = time.process_time()
for st in states:
    bot = make_bot("medium:iterations=ITERATIONS,seconds=60,early_stop=off", seed=1)
    bot.search(seat_view(st))
print(time.process_time() - start)
""",
    "playout": """
import random, time
import porphyra
game = porphyra.load_game("byzantium", deck="v1")
start = time.process_time()
for seed in range(GAMES):
    s = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        a = s.legal_actions()
        s.apply_action(a[rng.randrange(len(a))])
print(time.process_time() - start)
""",
}


def run(tree: Path, code: str, cpu: int) -> float:
    """CPU seconds of ``code`` run with ``tree``'s package (its ``src``, if it is a
    checkout), pinned to ``cpu``."""
    path = tree / "src" if (tree / "src").is_dir() else tree
    env = {**os.environ, "PYTHONPATH": str(path)}
    out = subprocess.run(
        ["taskset", "-c", str(cpu), sys.executable, "-c", code],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, required=True, help="another porphyra tree")
    parser.add_argument("--tree", type=Path, default=HERE, help="the tree under test")
    parser.add_argument("--workload", choices=sorted(WORKLOADS), default="ismcts")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=300, help="ismcts: per search")
    parser.add_argument("--games", type=int, default=300, help="playout: games per run")
    parser.add_argument("--cpu", type=int, default=max(os.sched_getaffinity(0)))
    args = parser.parse_args()
    code = (
        WORKLOADS[args.workload]
        .replace("ITERATIONS", str(args.iterations))
        .replace("GAMES", str(args.games))
    )
    trees = {"this tree": args.tree.resolve(), "baseline": args.baseline.resolve()}
    times: dict[str, list[float]] = {name: [] for name in trees}
    for r in range(args.rounds):
        order = list(trees) if r % 2 == 0 else list(reversed(trees))
        for name in order:
            times[name].append(run(trees[name], code, args.cpu))
    print(f"{args.workload}: {args.rounds} alternating rounds pinned to CPU {args.cpu}")
    for name, tree in trees.items():
        print(f"  {name:>9}: median {statistics.median(times[name]):.3f} CPU s  ({tree})")
    ratio = statistics.median(times["baseline"]) / statistics.median(times["this tree"])
    print(f"  speed-up: {ratio:.2f}x")


if __name__ == "__main__":
    main()
