"""The ``porphyra tournament`` command: JSON output, results files, tables, errors."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from porphyra import record as records
from porphyra.cli import app
from porphyra.cli.tournament import command_line, parse_bots
from porphyra.core.errors import UnknownGameError
from porphyra.core.registry import load_game
from porphyra.tournament import TournamentConfig

runner = CliRunner()


def _solo_available() -> bool:
    try:
        load_game("conspiracy", players=1, opponent="farmer")
    except (UnknownGameError, TypeError):
        return False
    return True


def test_json_summary_and_result_files(tmp_path: Path) -> None:
    out = tmp_path / "results"
    result = runner.invoke(
        app,
        [
            "tournament",
            "byzantium",
            "--bots",
            "random,bot,ismcts:iterations=5,exploration=0.5",
            "--games",
            "2",
            "--seed",
            "4",
            "--workers",
            "1",
            "--json",
            "--out",
            str(out),
            "--records",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 6
    assert set(summary["entrants"]) == {"random", "bot", "ismcts:iterations=5,exploration=0.5"}
    assert summary["parameters"]["seed"] == 4
    assert summary["parameters"]["command"].startswith("porphyra tournament byzantium --bots")
    assert json.loads((out / "summary.json").read_text()) == summary
    with (out / "games.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 6
    assert [int(r["game_id"]) for r in rows] == list(range(6))
    for row in rows:
        seats = json.loads(row["seats"])
        returns = json.loads(row["returns"])
        assert len(seats) == len(returns) == 2
        assert int(row["seed"]) == 4 + int(row["deal"])
        assert set(json.loads(row["winners"])) <= set(seats)
        assert int(row["actions"]) > 0 and float(row["duration_s"]) >= 0
        assert json.loads(row["options"]) == {"deck": "v6"}  # the deck played is recorded
    recs = sorted((out / "records").iterdir())
    assert len(recs) == 6
    state = records.replay(records.load(recs[3]))
    assert state.is_terminal() and [float(r) for r in json.loads(rows[3]["returns"])] == list(
        state.returns()
    )


def test_tables_for_three_player_conspiracy() -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "conspiracy",
            "--players",
            "3",
            "--bots",
            "random,bot,easy",
            "--games",
            "3",
            "--workers",
            "1",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "conspiracy: 3 games" in result.stdout
    assert "openskill" in result.stdout
    assert "Seat 3" in result.stdout  # people count seats from 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess", "--bots", "random,bot"], "unknown game 'chess'"),
        (["byzantium", "--bots", "random,robot"], "unknown seat 'robot'"),
        (["byzantium", "--bots", "random,human"], "bot names only"),
        (["byzantium", "--bots", "random,ismcts:iterations=x"], "bad value 'x'"),
        (["byzantium", "--bots", "random,random"], "named twice"),
        (["byzantium", "--bots", "random"], "at least 2 different bots"),
        (["byzantium", "--bots", "random,bot", "--games", "3"], "multiple of 2"),
        (["byzantium", "--bots", "random,bot", "--games", "0"], "--games must be at least 1"),
        (["byzantium", "--bots", "random,bot", "--workers", "0"], "--workers must be at least"),
        (
            ["byzantium", "--bots", "random,bot", "--players", "3"],
            "--players applies to conspiracy",
        ),
        (["byzantium", "--bots", "random,bot", "--solo"], "--solo applies to conspiracy"),
        (["byzantium", "--bots", "random,bot", "--records"], "--records needs --out"),
        (["conspiracy", "--bots", "random,bot", "--opponents", "mage"], "--opponent needs"),
        (["conspiracy", "--bots", "random,bot", "--players", "5"], "players must be"),
        (["conspiracy", "--bots", "easy", "--solo", "--opponents", "dragon"], "unknown Legendary"),
    ],
)
def test_errors_print_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["tournament", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_solo_runs_or_says_it_is_not_available() -> None:
    result = runner.invoke(
        app,
        [
            "tournament",
            "conspiracy",
            "--solo",
            "--opponents",
            "farmer,mage",
            "--bots",
            "random,bot",
            "--games",
            "1",
            "--workers",
            "1",
            "--json",
        ],
    )
    if not _solo_available():
        assert result.exit_code == 2
        assert "solo mode is not available in this version" in result.output
        return
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 4
    assert {tuple(t["entrants"]) for t in summary["tables"]} == {
        ("random", "lo:farmer"),
        ("bot", "lo:farmer"),
        ("random", "lo:mage"),
        ("bot", "lo:mage"),
    }


def test_parse_bots_keeps_options_together() -> None:
    assert parse_bots("easy, ismcts:iterations=20,exploration=0.5 ,random") == [
        "easy",
        "ismcts:iterations=20,exploration=0.5",
        "random",
    ]


def test_command_line_reproduces_the_config(tmp_path: Path) -> None:
    config = TournamentConfig("conspiracy", ["easy", "random"], 10, 3, 2, {"players": 2})
    assert command_line(config, tmp_path) == (
        "porphyra tournament conspiracy --bots easy,random --games 10 --seed 3 --workers 2 "
        f"--players 2 --out {tmp_path}"
    )
