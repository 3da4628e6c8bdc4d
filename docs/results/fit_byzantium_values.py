"""Fit the Byzantium value table of ISMCTS's evaluation from easy-vs-easy self-play.

Writes ``src/porphyra/bots/data/byzantium_values.json`` (see
:mod:`porphyra.bots.byzantium_values`) and prints how many turn starts each turn had.
Run from the repository root:
``.venv/bin/python docs/results/fit_byzantium_values.py --games 100000 --seed 0``.
"""

from __future__ import annotations

import argparse
import collections
import time

from porphyra.bots import byzantium_values as bv


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=f"src/porphyra/bots/data/{bv.DATA_FILE}")
    args = parser.parse_args()
    start = time.perf_counter()
    data = bv.samples(args.games, args.seed)
    per_turn = collections.Counter(t for t, _, _, _ in data)
    print(f"{args.games} games, {len(data)} turn starts in {time.perf_counter() - start:.0f} s")
    print("turn starts per turn:", dict(sorted(per_turn.items())))
    bv.save(bv.fit(data), args.out, args.games, args.seed)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
