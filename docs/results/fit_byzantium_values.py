"""Fit the Byzantium value table of ISMCTS's evaluation from easy-vs-easy self-play.

Writes ``src/porphyra/bots/data/byzantium_values-<deck>.json`` (see
:mod:`porphyra.bots.byzantium_values`; each shipped deck ships its table) and prints how
many turn starts each turn had.  Run from the repository root:
``.venv/bin/python docs/results/fit_byzantium_values.py --deck v2 --games 100000 --seed 0``.
"""

from __future__ import annotations

import argparse
import collections
import time

from porphyra.bots import byzantium_values as bv
from porphyra.games.byzantium.cards import DECKS_SHIPPED, DEFAULT_DECK


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deck", default=DEFAULT_DECK, choices=DECKS_SHIPPED)
    parser.add_argument("--out", default=None, help="default: the deck's shipped table")
    args = parser.parse_args()
    out = args.out or f"src/porphyra/bots/data/{bv.DATA_FILE.format(deck=args.deck)}"
    start = time.perf_counter()
    data = bv.samples(args.games, args.seed, args.deck)
    per_turn = collections.Counter(t for t, _, _, _ in data)
    print(f"{args.games} games, {len(data)} turn starts in {time.perf_counter() - start:.0f} s")
    print("turn starts per turn:", dict(sorted(per_turn.items())))
    bv.save(bv.fit(data), out, args.games, args.seed, args.deck)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
