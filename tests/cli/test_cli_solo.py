"""Terminal client for the Conspiracy solo mode (rules section 4): ``play --solo``,
``simulate --solo --opponent all``, and the view of the Legendary Opponent."""

from __future__ import annotations

import io
import json
import random
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from porphyra import record as records
from porphyra.cli import app
from porphyra.cli.conspiracy_parts import live_scores, solo_labels
from porphyra.cli.conspiracy_view import ConspiracyView
from porphyra.cli.lang import set_language
from porphyra.core.registry import load_game
from porphyra.games.conspiracy.solo import opponent_names

runner = CliRunner()


def _invoke(args: list[str], stdin: str | None = None) -> str:
    result = runner.invoke(app, args, input=stdin)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


def _render(renderable: object, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_play_solo_bot_game_shows_the_lo_card_and_explains_its_turns(tmp_path: Path) -> None:
    save = tmp_path / "solo.json"
    args = ["play", "conspiracy", "--solo", "--opponent", "military", "--seats", "random"]
    out = _invoke([*args, "--seed", "5", "--save", str(save)])
    assert "Legendary Opponent: The Military" in out
    for text in ("MIL", "SIX", "COAL", "STACK", "End-game bonus", "2 IP per red lord"):
        assert text in out, text
    assert "Ability:" in out and "exactly 1 lord" in out
    assert "the LO checks the piles against its card" in out
    assert "the LO takes the" in out and "Game over" in out
    assert "The Military (LO)" in out
    rec = records.load(save)
    assert rec["options"]["players"] == 1 and rec["options"]["opponent"] == "military"
    assert records.replay(rec).is_terminal()


def test_play_solo_human_game_with_lo_choices_to_the_end() -> None:
    out = _invoke(
        ["play", "conspiracy", "--solo", "--opponent", "random", "--seed", "8"], "1\n" * 600
    )
    assert "Legendary Opponent:" in out
    assert "loplace" in out  # a choice for the LO was asked and answered
    assert "Final scores" in out and "bonus" in out
    assert "wins." in out or "share the victory" in out


def test_play_solo_face_down_locations_never_name_an_unseen_card() -> None:
    game = load_game("conspiracy", players=1, opponent="mage")
    state = game.new_initial_state(seed=8)
    rng = random.Random(2)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    lo = 1
    unseen = [
        state.t.slug[loc]  # type: ignore[attr-defined]
        for loc, hidden in zip(state.locs[lo], state.lo_hidden, strict=True)  # type: ignore[attr-defined]
        if hidden
    ]
    obs = state.observation(0)
    assert obs["players"][lo]["locations"].count("face-down") == len(unseen)
    text = _render(ConspiracyView().board(game, obs, ["Seat 0 (human)"]))
    assert "▼" in text
    assert live_scores(game, obs) == state.scores()


def test_solo_live_scores_match_the_engine_for_each_lo() -> None:
    for name in opponent_names():
        game = load_game("conspiracy", players=1, opponent=name)
        state = game.new_initial_state(seed=3)
        rng = random.Random(3)
        while not state.is_terminal():
            if rng.random() < 0.3:
                assert live_scores(game, state.observation(0)) == state.scores(), name
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
        assert live_scores(game, state.public_observation()) == state.scores(), name


def test_solo_labels_add_the_lo() -> None:
    game = load_game("conspiracy", players=1, opponent="merchant")
    obs = game.new_initial_state(seed=1).public_observation()
    assert solo_labels(obs, ["Seat 0 (human)"]) == ["Seat 0 (human)", "The Merchant (LO)"]
    two = load_game("conspiracy").new_initial_state(seed=1).public_observation()
    assert solo_labels(two, ["a", "b"]) == ["a", "b"]


def test_solo_board_fits_80_columns() -> None:
    game = load_game("conspiracy", players=1, opponent="politician")
    state = game.new_initial_state(seed=4)
    text = _render(ConspiracyView().board(game, state.observation(0), ["Seat 0 (human)"]), 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert "Legendary Opponent: The Politician" in text and "Replay token" in text


def test_simulate_solo_all_opponents_json() -> None:
    args = ["simulate", "conspiracy", "--solo", "--opponent", "all", "--games", "3"]
    result = runner.invoke(app, [*args, "--seed", "1", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert sorted(summary["opponents"]) == sorted(opponent_names())
    for row in summary["opponents"].values():
        assert row["wins"] + row["losses"] + row["shared"] == 3
        assert row["win_rate"] == pytest.approx((row["wins"] + row["shared"] / 2) / 3, abs=1e-4)
        assert row["mean_margin"] == pytest.approx(
            row["mean_score"] - row["mean_lo_score"], abs=0.01
        )


def test_simulate_solo_table_for_one_opponent() -> None:
    out = _invoke(
        ["simulate", "conspiracy", "--opponent", "farmer", "--games", "2", "--bots", "random"]
    )
    # The Opponent by its name, as people call it (not the option's id).
    assert "Farmer" in out and "win %" in out and "Military" not in out


@pytest.mark.parametrize(
    ("lang", "words", "english"),
    [
        ("ja", ["ソロ", "農民", "勝率 %", "伝説の対戦相手"], ["Farmer", "win %", "margin"]),
        ("ko", ["솔로", "농부", "승률 %", "차이"], ["Farmer", "win %", "margin"]),
    ],
)
def test_simulate_speaks_the_language_of_lang(
    lang: str, words: list[str], english: list[str]
) -> None:
    args = ["simulate", "conspiracy", "--opponent", "farmer", "--games", "1", "--lang", lang]
    try:
        result = runner.invoke(app, args, env={"COLUMNS": "200"})
        two = runner.invoke(
            app,
            ["simulate", "byzantium", "--games", "1", "--lang", lang],
            env={"COLUMNS": "200"},
        )
    finally:
        set_language("en")
    assert result.exit_code == 0 and two.exit_code == 0, result.output + two.output
    assert all(w in result.output for w in words), result.output
    assert not any(w in result.output for w in english), result.output
    # Byzantium's own statistics too (TT and LT are the game's printed abbreviations).
    assert "TT" in two.output and "Byzantium statistics" not in two.output
    assert "draws / shared" not in two.output and "mean return" not in two.output


@pytest.mark.parametrize(
    "args",
    [
        ["play", "byzantium", "--solo"],
        ["play", "conspiracy", "--solo", "--players", "3"],
        ["play", "conspiracy", "--opponent", "all"],
        ["play", "conspiracy", "--opponent", "pirate"],
        ["simulate", "conspiracy", "--solo", "--opponent", "pirate", "--games", "1"],
        ["simulate", "conspiracy", "--solo", "--bots", "human", "--games", "1"],
    ],
)
def test_solo_flag_errors_exit_2(args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "error:" in result.output and "Traceback" not in result.output


def test_a_failing_hint_bot_does_not_end_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken:
        name = "broken"

        def choose(self, view: object) -> object:
            raise ValueError("max() arg is an empty sequence")

    play_module = sys.modules["porphyra.cli.play"]  # ``porphyra.cli.play`` is the command
    monkeypatch.setattr(play_module, "make_bot", lambda spec, seed=0: Broken())
    out = _invoke(["play", "conspiracy", "--solo", "--seed", "3"], "hint\n1\nquit\n")
    assert "no hint" in out and "empty sequence" in out
    assert "✓ Seat 1 (human): draw 1" in out  # the game went on
