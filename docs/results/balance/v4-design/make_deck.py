"""Write a candidate deck: deck v3 with edits ``slug.field=value`` (force, copies, legacy)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

BASE = Path(__file__).parents[4] / "src/porphyra/games/byzantium/data/deck-v3.json"


def make(edits: list[str], out: str) -> None:
    deck = json.loads(BASE.read_text())
    by_slug = {c["slug"]: c for c in deck["cards"]}
    for e in edits:
        key, value = e.split("=")
        slug, field = key.split(".")
        assert field in ("force", "copies", "legacy"), e
        by_slug[slug][field] = int(value)
    deck["name"] = "candidate"
    deck.pop("version", None)
    Path(out).write_text(json.dumps(deck, indent=1))


if __name__ == "__main__":
    make(sys.argv[2:], sys.argv[1])
