"""Deck v5's candidates after the tuner, each measured on the design deals.

The tuner (``porphyra balance byzantium --deck v4 --tune --knobs legacy --trials 60
--games 2000 --seed 21000000 --workers 2 --out docs/results/balance/tune-v5``) found
``cards.json`` here (candidate A).  A left four Byzantine cards blank (no force, no legacy
value), so the candidates below start from it:

- ``B``: A with Chronicle, Mission to the Slavs, Macedonian Renaissance and The Alexiad at
  force 1 (none blank);
- ``B5`` / ``B6``: B with the Middle and Late disasters one stronger / the Late ones back
  to v4 (collapses: the easy-vs-ISMCTS window);
- ``B8``: B with Preserve the Classics at 2;
- ``B10`` / ``B11`` / ``B13``: B with two / three / one of the Middle Legacy cards back at
  legacy 1 and force 0 (the first Emperor's share);
- ``B12``: B10 with Preserve the Classics at 2.

B13 became deck v5.  Usage, from the repository root (easy against easy, or a search
pairing with ``--bots``)::

    python docs/results/balance/tune-v5/candidates.py B13 --games 4000
    python docs/results/balance/tune-v5/candidates.py B --bots ismcts:iterations=100 --games 400
"""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path
from typing import Any

from porphyra.balance import tune

HERE = Path(__file__).parent
MIDDLE = ("mission-to-the-slavs", "macedonian-renaissance", "the-alexiad")
LATE_DISASTERS = ("black-death", "zealot-revolt", "bankruptcy")
MIDDLE_LATE_DISASTERS = ("iconoclasm", "rout-at-manzikert", *LATE_DISASTERS)


def candidate(name: str) -> dict[str, Any]:
    """The card list of candidate ``name`` (module docstring)."""
    deck: dict[str, Any] = json.loads((HERE / "cards.json").read_text())
    if name == "A":
        return deck
    deck = copy.deepcopy(deck)
    by_slug = {c["slug"]: c for c in deck["cards"]}
    for slug in (*MIDDLE, "chronicle"):
        by_slug[slug]["force"] = 1  # B: no blank card
    restore = {
        "B10": MIDDLE[:2],
        "B11": MIDDLE,
        "B12": MIDDLE[:2],
        "B13": ("macedonian-renaissance",),
    }.get(name, ())
    for slug in restore:
        by_slug[slug]["force"], by_slug[slug]["legacy"] = 0, 1
    if name in ("B8", "B12"):
        by_slug["preserve-the-classics"]["legacy"] = 2
    if name == "B5":
        for slug in MIDDLE_LATE_DISASTERS:
            by_slug[slug]["force"] += 1
    if name == "B6":
        for slug in LATE_DISASTERS:
            by_slug[slug]["force"] -= 1
    return deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", choices=["A", "B", "B5", "B6", "B8", "B10", "B11", "B12", "B13"])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=21_000_000)
    parser.add_argument("--bots", default="easy")
    parser.add_argument("--workers", type=int, default=2)
    a = parser.parse_args()
    m = tune.measure(candidate(a.name), a.games, a.seed, a.workers, (a.bots, a.bots))
    print(a.name, m, f"loss {tune.loss(m, 0):.2f}")


if __name__ == "__main__":
    main()
