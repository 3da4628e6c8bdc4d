"""``porphyra rules GAME`` and ``rules`` at the prompt explain how to play."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from porphyra.cli import app


@pytest.mark.parametrize(
    ("game", "phrase"),
    [
        ("byzantium", "Legacy Tokens"),
        ("conspiracy", "Pearl Master"),
    ],
)
def test_rules_command_prints_the_how_to_play_text(game: str, phrase: str) -> None:
    result = CliRunner().invoke(app, ["rules", game])
    assert result.exit_code == 0
    assert phrase in result.output and "how to play" in result.output


def test_rules_command_unknown_game_exits_2() -> None:
    result = CliRunner().invoke(app, ["rules", "chess"])
    assert result.exit_code == 2 and "unknown game" in result.output


def test_rules_at_the_prompt() -> None:
    result = CliRunner().invoke(
        app,
        ["play", "byzantium", "--seats", "human,random", "--seed", "1"],
        input="rules\nquit\n",
    )
    assert "Territory Tokens" in result.output
