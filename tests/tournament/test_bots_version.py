"""The bots' behaviour version travels with their results (:mod:`porphyra.bots.version`):
each game of ``games.csv``, each ``summary.json`` and the shipped ladder name it, and the
results of two versions are never merged into one figure."""

from __future__ import annotations

import csv
import dataclasses
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from porphyra.bots.ladder_file import SHIPPED, parse_ladder
from porphyra.bots.version import BOTS_VERSION
from porphyra.cli import app
from porphyra.tournament import TournamentConfig, tournament
from porphyra.tournament.ladder import LadderConfig, run_ladder
from porphyra.tournament.output import combine, read_csv, write_csv
from porphyra.tournament.runner import GameResult

runner = CliRunner()


@pytest.fixture(scope="module")
def played() -> tuple[dict[str, object], list[GameResult]]:
    summary, results = tournament(TournamentConfig("conspiracy", ["random", "easy"], 2, seed=5))
    return summary, results


def _without_column(source: Path, target: Path, cell: str | None = None) -> None:
    """``source`` with its ``bots_version`` column removed (``cell`` None) or set to ``cell``."""
    with source.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    names = [n for n in rows[0] if cell is not None or n != "bots_version"]
    with target.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=names, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({**row, "bots_version": cell} if cell is not None else row)


def test_games_csv_and_summary_record_the_bots_version(
    played: tuple[dict[str, object], list[GameResult]], tmp_path: Path
) -> None:
    summary, results = played
    assert summary["bots_version"] == BOTS_VERSION
    write_csv(results, tmp_path / "games.csv")
    header = (tmp_path / "games.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.split(",")[-1] == "bots_version"
    back = read_csv(tmp_path / "games.csv")
    assert [r.bots_version for r in back] == [BOTS_VERSION] * len(results)


@pytest.mark.parametrize("cell", [None, ""])
def test_a_file_written_before_the_column_reads_as_unrecorded(
    played: tuple[dict[str, object], list[GameResult]], tmp_path: Path, cell: str | None
) -> None:
    write_csv(played[1], tmp_path / "new.csv")
    _without_column(tmp_path / "new.csv", tmp_path / "old.csv", cell)
    old = read_csv(tmp_path / "old.csv")
    assert [r.bots_version for r in old] == [None] * len(old)
    assert [r.returns for r in old] == [r.returns for r in played[1]]
    # Written again, it stays unrecorded: a file never claims a version it did not have.
    write_csv(old, tmp_path / "again.csv")
    assert {r.bots_version for r in read_csv(tmp_path / "again.csv")} == {None}


@pytest.mark.parametrize("cell", ["0", "two", "-1"])
def test_a_bad_bots_version_is_a_malformed_row(
    played: tuple[dict[str, object], list[GameResult]], tmp_path: Path, cell: str
) -> None:
    write_csv(played[1], tmp_path / "new.csv")
    _without_column(tmp_path / "new.csv", tmp_path / "bad.csv", cell)
    with pytest.raises(ValueError, match="line 2: malformed row"):
        read_csv(tmp_path / "bad.csv")


def test_chunks_of_two_bots_versions_are_not_combined(
    played: tuple[dict[str, object], list[GameResult]],
) -> None:
    first, second = played[1][:1], played[1][1:]
    later = [dataclasses.replace(r, bots_version=BOTS_VERSION + 1) for r in second]
    with pytest.raises(ValueError, match="different bots versions"):
        combine([first, later])
    unrecorded = [dataclasses.replace(r, bots_version=None) for r in second]
    assert len(combine([first, unrecorded])) == len(played[1])


def test_the_ladder_refuses_to_reuse_games_of_another_bots_version(
    played: tuple[dict[str, object], list[GameResult]], tmp_path: Path
) -> None:
    other = [dataclasses.replace(r, bots_version=BOTS_VERSION + 1) for r in played[1]]
    with pytest.raises(ValueError, match=f"bots version {BOTS_VERSION + 1}"):
        run_ladder(LadderConfig(tables=("conspiracy",), deals=1, workers=1), reuse=other)
    write_csv(other, tmp_path / "games.csv")
    out = tmp_path / "out"
    args = ["bots", "ladder", "--tables", "conspiracy", "--deals", "1", "--workers", "1"]
    result = runner.invoke(app, [*args, "--out", str(out), "--reuse", str(tmp_path / "games.csv")])
    assert result.exit_code == 2, result.output
    assert "mix two different bots" in " ".join(result.output.split())
    assert "Traceback" not in result.output and not out.exists()


def test_the_shipped_ladder_rates_the_bots_of_this_version() -> None:
    ladder = parse_ladder(json.loads(SHIPPED.read_text(encoding="utf-8")))
    assert ladder.bots_version == BOTS_VERSION, (
        "the bots changed version since the shipped ladder was measured: run the ladder "
        "again (docs/bots.md gives the command)"
    )
