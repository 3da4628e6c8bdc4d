"""Tournament output files: ``games.csv`` (one row per game), ``summary.json`` and
optional game records; reading ``games.csv`` back and combining the results of several runs.

``games.csv`` columns: ``game_id, game, options, table, deal, rotation, seed, seats,
opponent, returns, scores, score_totals, winners, actions, duration_s, bots_version``.
List and object cells (``options``, ``seats``, ``returns``, ``scores``, ``score_totals``,
``winners``) are JSON text; ``winners`` lists the entrants with the top outcome (empty when
everyone draws); ``duration_s`` is wall-clock seconds; ``bots_version`` the bots' behaviour version
(:mod:`porphyra.bots.version`), empty in a file written before it was recorded (a file
without the column reads as such).
"""

from __future__ import annotations

import csv
import dataclasses
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from porphyra.tournament.runner import GameResult
from porphyra.tournament.schedule import Match
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
    "bots_version",
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
        "bots_version": "" if result.bots_version is None else result.bots_version,
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


def read_csv(path: Path) -> list[GameResult]:
    """Read the results back from a ``games.csv`` written by :func:`write_csv` (records are
    not in the CSV: ``record`` is ``None``).

    Raises:
        OSError: the file cannot be read.
        ValueError: the file is empty, not UTF-8 or not CSV, or a row is malformed (the
            message names the file and the row).
    """
    try:
        return _read_rows(path)
    except (UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"{path}: not a games.csv ({exc})") from None


def _read_rows(path: Path) -> list[GameResult]:
    """:func:`read_csv`'s rows (a decoding or CSV error is the caller's to name)."""
    results: list[GameResult] = []
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None:
            raise ValueError(f"{path}: empty, not a games.csv")
        for number, row in enumerate(reader, start=2):
            try:
                match = Match(
                    game_id=int(row["game_id"]),
                    game=row["game"],
                    options=json.loads(row["options"]),
                    table=int(row["table"]),
                    deal=int(row["deal"]),
                    rotation=int(row["rotation"]),
                    seats=tuple(json.loads(row["seats"])),
                    seed=int(row["seed"]),
                    opponent=row["opponent"] or None,
                )
                results.append(
                    GameResult(
                        match=match,
                        returns=tuple(float(r) for r in json.loads(row["returns"])),
                        scores=tuple(json.loads(row["scores"])),
                        actions=int(row["actions"]),
                        duration=float(row["duration_s"]),
                        bots_version=_version(row.get("bots_version")),
                    )
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise ValueError(f"{path}, line {number}: malformed row ({exc})") from None
    return results


def _version(cell: str | None) -> int | None:
    """A ``bots_version`` cell: ``None`` when empty or absent (an older file).

    Raises:
        ValueError: not a positive integer.
    """
    if not cell:
        return None
    version = int(cell)
    if version < 1:
        raise ValueError(f"bots_version {version} is not a positive integer")
    return version


def bots_versions(results: Sequence[GameResult]) -> set[int]:
    """The bots versions that played ``results`` (those that record one)."""
    return {r.bots_version for r in results if r.bots_version is not None}


def combine(runs: Sequence[Sequence[GameResult]]) -> list[GameResult]:
    """Merge the results of several runs of one tournament that differ only in ``--seed``
    and ``--games`` (same game, options and bots), e.g. a long tournament run in chunks of
    consecutive seed ranges so that a stopped run loses at most one chunk.

    Games are ordered by table, seed and rotation; ``deal`` becomes ``seed`` minus the
    smallest seed and ``game_id`` the new position.  For chunks covering consecutive seed
    ranges this gives exactly the results of one run from the smallest seed.

    Raises:
        ValueError: the same game (table, seed, rotation) appears twice, or the runs were
            played by different bots versions (:mod:`porphyra.bots.version`).
    """
    merged = [result for run in runs for result in run]
    versions = bots_versions(merged)
    if len(versions) > 1:
        raise ValueError(
            "the runs were played by different bots versions "
            f"({', '.join(map(str, sorted(versions)))}): they are different experiments"
        )
    merged.sort(key=lambda r: (r.match.table, r.match.seed, r.match.rotation))
    keys = [(r.match.table, r.match.seed, r.match.rotation) for r in merged]
    if len(set(keys)) != len(keys):
        raise ValueError("the runs overlap: a game (table, seed, rotation) appears twice")
    if not merged:
        return []
    base = min(r.match.seed for r in merged)
    return [
        dataclasses.replace(
            r,
            match=dataclasses.replace(r.match, game_id=i, deal=r.match.seed - base),
        )
        for i, r in enumerate(merged)
    ]
