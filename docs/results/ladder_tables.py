"""Print the bot ladder's two tables as ``docs/bots.md`` and ``docs/results/README.md`` show
them: every rating by table, then each level against the one below.

usage: python docs/results/ladder_tables.py [LADDER_JSON]
  LADDER_JSON  a ladder file (default: the shipped src/porphyra/bots/data/ladder.json)

Prints Markdown on stdout; reads the file with the reader the server uses
(``porphyra.bots.ladder_file.parse_ladder``), so a malformed file stops it with its error.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from porphyra.bots.ladder_file import SHIPPED, parse_ladder

#: The tables' columns: (game, players) and their headings.
COLUMNS = (
    (("byzantium", 2), "Byzantium, 2 players"),
    (("conspiracy", 2), "Conspiracy, 2 players"),
    (("conspiracy", 1), "Conspiracy solo"),
)


def _tables(document: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    return {(t["game"], t["players"]): t for t in document["tables"]}


def _rating(rating: dict[str, Any] | None) -> str:
    if rating is None:
        return "—"
    return f"{rating['mu']:.1f} ({rating['low']:.1f}–{rating['high']:.1f}), {rating['games']} games"


def _pair(pair: dict[str, Any] | None) -> str:
    if pair is None:
        return "—"
    deals = f"{pair['deals']} deals"
    if "difference" in pair:  # solo: the two levels' wins on the same Opponents and seeds
        return (
            f"wins {100 * pair['score']:.1f}% where `{pair['against']}` wins "
            f"{100 * pair['against_score']:.1f}%: {100 * pair['difference']:+.1f} points "
            f"[{100 * pair['low']:+.1f}, {100 * pair['high']:+.1f}], {deals}"
        )
    return (
        f"**{100 * pair['score']:.1f}%** [{100 * pair['low']:.1f}–{100 * pair['high']:.1f}], "
        f"{deals}"
    )


def markdown(document: dict[str, Any]) -> str:
    """The two tables of ``document`` (a checked ladder file), as Markdown text."""
    tables = _tables(document)
    headings = [heading for _, heading in COLUMNS]
    lines = ["| | " + " | ".join(headings) + " |", "|---" * (len(COLUMNS) + 1) + "|"]
    keys: list[str] = []
    for key, _ in COLUMNS:
        for name in tables.get(key, {}).get("ratings", {}):
            if name not in keys:
                keys.append(name)
    for name in keys:
        cells = [_rating(tables.get(key, {}).get("ratings", {}).get(name)) for key, _ in COLUMNS]
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    lines += ["", "| level against the one below | " + " | ".join(headings) + " |"]
    lines.append("|---" * (len(COLUMNS) + 1) + "|")
    pairs: list[tuple[str, str]] = []
    for key, _ in COLUMNS:
        for pair in tables.get(key, {}).get("pairs", []):
            if (pair["level"], pair["against"]) not in pairs:
                pairs.append((pair["level"], pair["against"]))
    for level, against in pairs:
        cells = []
        for key, _ in COLUMNS:
            found = [
                p
                for p in tables.get(key, {}).get("pairs", [])
                if (p["level"], p["against"]) == (level, against)
            ]
            cells.append(_pair(found[0] if found else None))
        lines.append(f"| `{level}` against `{against}` | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    path = Path(argv[0]) if argv else SHIPPED
    document = json.loads(path.read_text(encoding="utf-8"))
    parse_ladder(document)
    sys.stdout.write(markdown(document))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
