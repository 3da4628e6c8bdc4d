"""Tournament output files: ``games.csv`` (one row per game), ``summary.json`` and
optional game records.

``games.csv`` columns: ``game_id, game, options, table, deal, rotation, seed, seats,
opponent, returns, scores, score_totals, winners, actions, duration_s``.  List and object
cells (``options``, ``seats``, ``returns``, ``scores``, ``score_totals``, ``winners``) are
JSON text; ``winners`` lists the entrants with the top outcome (empty when everyone draws);
``duration_s`` is wall-clock seconds.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from porphyra.tournament.runner import GameResult
from porphyra.tournament.stats import DRAW, WIN, outcomes, score_total

CSV_COLUMNS = (
    "game_id",
    "game",
    "options",
    "table",
    "deal",
    "rotation",
    "seed",
    "seats",
    "opponent",
    "returns",
    "scores",
    "score_totals",
    "winners",
    "actions",
    "duration_s",
)


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def winners(result: GameResult) -> list[str]:
    """The entrants that won (alone) or shared the victory; ``[]`` if all drew."""
    points = outcomes(result.entrant_returns)
    if all(p == DRAW for p in points):
        return []
    best = WIN if WIN in points else DRAW
    return [name for name, p in zip(result.match.entrants, points, strict=True) if p == best]


def csv_row(result: GameResult) -> dict[str, Any]:
    """The ``games.csv`` row of one result (column -> cell value)."""
    match = result.match
    return {
        "game_id": match.game_id,
        "game": match.game,
        "options": _json(match.options),
        "table": match.table,
        "deal": match.deal,
        "rotation": match.rotation,
        "seed": match.seed,
        "seats": _json(list(match.seats)),
        "opponent": match.opponent or "",
        "returns": _json(list(result.returns)),
        "scores": _json(list(result.scores)),
        "score_totals": _json([score_total(s) for s in result.scores]),
        "winners": _json(winners(result)),
        "actions": result.actions,
        "duration_s": f"{result.duration:.4f}",
    }


def write_csv(results: Sequence[GameResult], path: Path) -> None:
    """Write ``games.csv`` to ``path``.

    Raises:
        OSError: the file cannot be written.
    """
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_COLUMNS)
        writer.writeheader()
        for result in results:
            writer.writerow(csv_row(result))


def write_outputs(
    results: Sequence[GameResult], summary: dict[str, Any], out: Path, records: bool = False
) -> list[Path]:
    """Write ``games.csv``, ``summary.json`` and, with ``records``, ``records/game-NNNNN.json``
    (each game's record, replayable with ``porphyra replay``) under directory ``out``
    (created if needed).

    Returns:
        The paths written (records' directory as one entry).

    Raises:
        OSError: a file or the directory cannot be written.
    """
    out.mkdir(parents=True, exist_ok=True)
    write_csv(results, out / "games.csv")
    (out / "summary.json").write_text(
        json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    written = [out / "games.csv", out / "summary.json"]
    if records:
        folder = out / "records"
        folder.mkdir(exist_ok=True)
        width = max(5, len(str(len(results))))
        for result in results:
            if result.record is None:
                continue
            name = f"game-{result.match.game_id:0{width}d}.json"
            (folder / name).write_text(
                json.dumps(result.record, indent=1, sort_keys=True) + "\n", encoding="utf-8"
            )
        written.append(folder)
    return written
