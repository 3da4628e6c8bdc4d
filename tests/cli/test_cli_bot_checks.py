"""Bot options that a game does not have (ISMCTS ``candidates=NAME``, ``easy``'s redraw
rule) are refused by ``porphyra play`` and ``porphyra tournament`` before anything starts:
one clear line, exit code 2, no game file, no output folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from porphyra.cli import app

runner = CliRunner()


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (
            ["byzantium", "--seats", "ismcts:iterations=10,candidates=nope,easy"],
            "unknown candidates 'nope' for byzantium",
        ),
        (
            ["conspiracy", "--seats", "human,ismcts:iterations=10,candidates=pile"],
            "unknown candidates 'pile' for conspiracy",
        ),
        (["conspiracy", "--seats", "human,easy:redraw=pile"], "redraw rules are for byzantium"),
        (
            ["conspiracy", "--seats", "human,easy", "--hint-bot", "ismcts:candidates=pile"],
            "unknown candidates 'pile' for conspiracy",
        ),
    ],
)
def test_play_refuses_a_bot_option_of_another_game_before_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], text: str
) -> None:
    monkeypatch.setenv("PORPHYRA_DATA_DIR", str(tmp_path))
    result = runner.invoke(app, ["play", *args, "--seed", "1"], input="")
    assert result.exit_code == 2, result.output
    assert text in result.output and "Traceback" not in result.output
    assert "Turn 1" not in result.output  # refused before the first move
    games = tmp_path / "games"
    assert not games.exists() or not list(games.iterdir())  # no (empty) game file


@pytest.mark.parametrize(
    ("game", "bot", "text"),
    [
        ("conspiracy", "ismcts:iterations=20,candidates=pile", "'pile' for conspiracy"),
        ("byzantium", "ismcts:iterations=20,candidates=nope", "'nope' for byzantium"),
    ],
)
def test_tournament_refuses_a_bot_option_of_another_game_before_playing(
    tmp_path: Path, game: str, bot: str, text: str
) -> None:
    out = tmp_path / "out"
    args = ["tournament", game, "--bots", f"{bot},easy", "--games", "2", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert text in result.output and "failed" not in result.output
    assert "Traceback" not in result.output and not out.exists()
