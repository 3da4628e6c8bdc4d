"""Screen deck-v6 candidates: deck v5 plus card edits, on design deals, paired with v5.

Each candidate is v5 with ``--set``-style edits (``porphyra.balance.edits``), played on the
same deals as the base (seeds 37,000,000 for easy against easy, 37,100,000 for ISMCTS(100)
on both sides), so every game has a twin in the base run and the lab's paired statistics
(``porphyra.balance.paired``) give each difference.  Custom card files are valued by the
search with the default deck's value table (v5's at the time of the screen).

    python docs/results/balance/tune-v6/screen.py play NAME "EDIT;EDIT" --easy 2000 --ismcts 300
    python docs/results/balance/tune-v6/screen.py compare base NAME [NAME ...]

``play`` writes ``OUT/res-NAME-{easy,ismcts}.json`` (per-game statistics) and prints the
tuner's metrics; ``compare`` prints each candidate's paired difference from ``base``.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from porphyra.balance.campaign import Campaign, run_tasks
from porphyra.balance.edits import apply_edits, base_deck, parse_edit
from porphyra.balance.paired import compare_pairing
from porphyra.balance.tune import metrics_of

#: The design deals of each level: (label, bots, first seed).
LEVELS = (
    ("easy", ("easy", "easy"), 37_000_000),
    ("ismcts", ("ismcts:iterations=100", "ismcts:iterations=100"), 37_100_000),
)


def play(name: str, edits: str, games: dict[str, int], out: Path) -> None:
    """Play candidate ``name`` (v5 with ``edits``, ``;``-separated) at each level."""
    _, base = base_deck({"deck": "v5"})
    parsed = [parse_edit(e) for e in edits.split(";") if e]
    deck = apply_edits(base, parsed, "v5") if parsed else base
    path = Path(tempfile.mkdtemp()) / "deck.json"
    path.write_text(json.dumps(deck), encoding="utf-8")
    for label, bots, seed in LEVELS:
        if not games[label]:
            continue
        start = time.monotonic()
        campaign = Campaign("byzantium", {"cards": str(path)}, (bots,), games[label], seed)
        results = run_tasks(campaign.tasks(), workers=1, chunk=10)
        (out / f"res-{name}-{label}.json").write_text(json.dumps(results), encoding="utf-8")
        figures = {
            k: round(v, 4) if isinstance(v, float) else v
            for k, v in vars(metrics_of(results)).items()
        }
        print(name, label, f"{time.monotonic() - start:.0f}s", figures, flush=True)


def compare(base: str, names: list[str], out: Path) -> None:
    """Print the paired collapse and first-Emperor differences of ``names`` from ``base``."""
    for label, _, _ in LEVELS:
        a_path = out / f"res-{base}-{label}.json"
        if not a_path.exists():
            continue
        a: list[dict[str, Any]] = json.loads(a_path.read_text(encoding="utf-8"))
        for name in names:
            b_path = out / f"res-{name}-{label}.json"
            if not b_path.exists():
                continue
            figures = compare_pairing(a, json.loads(b_path.read_text(encoding="utf-8")))
            for key in ("collapse", "first_emperor"):
                p = figures[key]["paired"]
                low, high = p["ci95"]
                print(
                    f"{label:6} {name:16} {key:13} {p['diff'] * 100:+5.1f} points"
                    f" [{low * 100:+.1f}, {high * 100:+.1f}] p={p['p_value']:.3g}"
                    f" ({p['games']} twin games)"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("."))
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("name")
    p.add_argument("edits")
    p.add_argument("--easy", type=int, default=2000)
    p.add_argument("--ismcts", type=int, default=300)
    c = sub.add_parser("compare")
    c.add_argument("base")
    c.add_argument("names", nargs="+")
    args = parser.parse_args()
    if args.command == "play":
        play(args.name, args.edits, {"easy": args.easy, "ismcts": args.ismcts}, args.out)
    else:
        compare(args.base, args.names, args.out)


if __name__ == "__main__":
    main()
