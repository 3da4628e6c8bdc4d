"""Combine the finished chunks of ``run_chunks.sh`` into one tournament's results.

Reads ``OUT/chunk-*/games.csv`` of the chunks that finished (their ``summary.json``
exists), merges them with :func:`porphyra.tournament.output.combine` (exactly the results of
one run from the smallest seed, for consecutive seed ranges), and writes ``OUT/games.csv``
and ``OUT/summary.json`` with the summary tables, ratings, the bots version (``null`` when
the chunks record none) and the given notes, then prints the tables.  Chunks of two bots
versions are refused (they are two experiments).

usage: ``python docs/results/combine_chunks.py OUT 'how it was run' ['note' ...]``
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from porphyra.cli.tournament import summary_tables
from porphyra.tournament import summarize
from porphyra.tournament.output import bots_versions, combine, read_csv, write_outputs


def main() -> None:
    out = Path(sys.argv[1])
    chunks = sorted(p for p in out.glob("chunk-*") if (p / "summary.json").exists())
    if not chunks:
        raise SystemExit(f"no finished chunk in {out}")
    first: dict[str, Any] = json.loads((chunks[0] / "summary.json").read_text())
    results = combine([read_csv(p / "games.csv") for p in chunks])
    summary = summarize(results)
    params = dict(first["parameters"])
    params["games"] = len(results) // max(1, len(summary["tables"]))
    params["seed"] = min(r.match.seed for r in results)
    params["command"] = sys.argv[2] if len(sys.argv) > 2 else ""
    params["chunks"] = [p.name for p in chunks]
    summary["parameters"] = params
    summary["notes"] = sys.argv[3:]
    versions = bots_versions(results)
    summary["bots_version"] = versions.pop() if versions else None
    summary["elapsed_s"] = round(
        sum(json.loads((p / "summary.json").read_text())["elapsed_s"] for p in chunks), 2
    )
    write_outputs(results, summary, out)
    console = Console(highlight=False, width=100)
    for table in summary_tables(summary):
        console.print(table)


if __name__ == "__main__":
    main()
