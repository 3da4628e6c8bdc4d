"""Screen deck candidates (deck v6's second screen): v5 plus edits, easy and ISMCTS(100)
on fresh design seeds (39,000,000 easy, 39,100,000 ISMCTS).

usage: screen.py NAME "edit;edit" EASY_GAMES ISMCTS_GAMES WORKERS
Writes /work/v7/res-NAME-{easy,ismcts}.json (per-game results) and prints the metrics.
"""

import json
import sys
import tempfile
import time
from pathlib import Path

from porphyra.balance.campaign import Campaign, run_tasks
from porphyra.balance.edits import apply_edits, base_deck, parse_edit
from porphyra.balance.tune import metrics_of


def main() -> None:
    name, edits, ne, ni, workers = (
        sys.argv[1],
        sys.argv[2],
        int(sys.argv[3]),
        int(sys.argv[4]),
        int(sys.argv[5]),
    )
    _, base = base_deck({"deck": "v5"})
    deck = (
        apply_edits(base, [parse_edit(e) for e in edits.split(";") if e], "v5") if edits else base
    )
    tmp = Path(tempfile.mkdtemp()) / "deck.json"
    tmp.write_text(json.dumps(deck))
    for label, bots, games, seed in (
        ("easy", ("easy", "easy"), ne, 39_000_000),
        ("ismcts", ("ismcts:iterations=100",) * 2, ni, 39_100_000),
    ):
        if not games:
            continue
        t = time.time()
        c = Campaign("byzantium", {"cards": str(tmp)}, (bots,), games, seed)
        res = run_tasks(c.tasks(), workers=workers, chunk=10)
        with open(f"/work/v7/res-{name}-{label}.json", "w") as out:
            json.dump(res, out)
        m = metrics_of(res)
        print(
            name,
            label,
            f"{time.time() - t:.0f}s",
            {k: (round(v, 4) if isinstance(v, float) else v) for k, v in m.__dict__.items()},
            flush=True,
        )


if __name__ == "__main__":
    main()
