"""Terminal client, game-independent parts, tested on the fake game (``cli_fake_game``)."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.console import Console, RenderableType
from typer.testing import CliRunner

from porphyra import record as records
from porphyra.cli import app
from porphyra.cli.common import CliError, Seat, make_seats, parse_seat_kinds
from porphyra.cli.play import PASS_DEVICE, Outcome, PlaySession
from porphyra.cli.views import GameView, Obs, view_for
from porphyra.core.game import Game, State
from porphyra.core.registry import load_game

runner = CliRunner()


# ---------------------------------------------------------------- seats
def test_default_seats_are_one_human_and_bots() -> None:
    kinds = parse_seat_kinds(None, 3)
    assert kinds[0] == "human"
    assert len(kinds) == 3
    assert "human" not in kinds[1:]


def test_seat_errors_name_the_problem() -> None:
    with pytest.raises(CliError, match="unknown seat 'robot'"):
        parse_seat_kinds("human,robot", 2)
    with pytest.raises(CliError, match="names 3 seats but the game has 2"):
        parse_seat_kinds("human,random,random", 2)


def test_bot_options_with_commas_stay_one_seat() -> None:
    assert parse_seat_kinds("human,ismcts:iterations=20,exploration=0.5", None) == [
        "human",
        "ismcts:iterations=20,exploration=0.5",
    ]


# ---------------------------------------------------------------- human input
def test_scripted_human_game_explains_bad_input(fake_game: str, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    # The fake game deals seat 0 birch, heron, kelp with seed 3 (see the record below).
    script = "xyzzy\nplay nope\n99\nplay apple\nplay kelp\nhelp\nlog\n1\nmenu\n1\n"
    result = runner.invoke(
        app,
        ["play", fake_game, "--seed", "3", "--seats", "human,random", "--save", str(save)],
        input=script,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "expected 'play <card>', got 'xyzzy'" in out
    assert "unknown card 'nope'" in out
    assert "there is no menu entry 99" in out
    assert "card 'apple' is not in your hand" in out
    assert "At the prompt you can type" in out  # help
    assert "You were dealt birch, heron, kelp." in out  # log
    assert "Record saved" in out
    rec = records.load(save)
    assert rec["result"] is not None
    human = [a["action"] for a in rec["actions"] if a["player"] == 0]
    # typed notation, then menu number 1 twice (the first card left in hand, sorted)
    assert human == ["play kelp", "play birch", "play heron"]


def test_quit_saves_an_unfinished_game_and_resume_finishes_it(
    fake_game: str, tmp_path: Path
) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(
        app,
        ["play", fake_game, "--seed", "5", "--seats", "human,random", "--save", str(save)],
        input="1\nquit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Unfinished game saved" in result.output
    rec = records.load(save)
    assert rec["result"] is None
    assert len(rec["actions"]) == 2  # the human's move and the bot's reply
    result = runner.invoke(app, ["resume", str(save), "--seats", "human,random"], input="1\n1\n")
    assert result.exit_code == 0, result.output
    done = records.load(save)
    assert done["result"] is not None
    assert done["actions"][:2] == rec["actions"]
    assert len(done["actions"]) == 6
    again = runner.invoke(app, ["play", "--resume", str(save)])
    assert again.exit_code == 0
    assert "already over" in " ".join(again.output.split())  # however Rich wraps the path


def test_end_of_input_saves_like_quit(fake_game: str, tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(
        app,
        ["play", fake_game, "--seed", "5", "--seats", "human,human", "--save", str(save)],
        input="\n1\n",
    )
    assert result.exit_code == 0
    assert records.load(save)["actions"][0]["player"] == 0
    assert records.load(save)["result"] is None


def test_ctrl_c_saves_and_exits_130(fake_game: str, tmp_path: Path) -> None:
    game = load_game(fake_game)
    state = game.new_initial_state(seed=1)
    save = tmp_path / "g.json"

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    console = Console(file=io.StringIO(), width=100)
    session = PlaySession(
        state, make_seats(["human", "random"], 1), console, GameView(), save, interrupt
    )
    assert session.run() is Outcome.INTERRUPTED
    assert records.load(save)["result"] is None


# ---------------------------------------------------------------- hidden information
def _check_no_leak(
    game_name: str, kinds: list[str], seed: int, view: GameView | None = None
) -> int:
    """Play with random human inputs; before each human input, check the text shown since
    the last "pass the device" screen names no card of another seat's hand that this seat
    cannot know.  Returns the number of human inputs checked."""
    game = load_game(game_name)
    state = game.new_initial_state(seed=seed)
    buf = io.StringIO()
    console = Console(file=buf, width=100, color_system=None)
    rng = random.Random(seed)
    seen = 0
    checked = 0

    def name_of(slug: str) -> str:
        card = getattr(game, "card", None)
        return str(card(slug).name) if card is not None else slug

    def read_line(prompt: str) -> str:
        nonlocal seen, checked
        text = buf.getvalue()
        segment = text[seen:]
        if prompt == "":  # the pass-the-device screen: the next segment starts here
            assert PASS_DEVICE in segment
            seen = len(text)
            return ""
        player = state.current_player()
        knows = json.dumps(state.observation(player))
        for other in range(game.num_players):
            if other == player:
                continue
            for slug in state.observation(other).get("hand", []):
                name = name_of(slug)
                if slug in knows or name in knows:
                    continue  # public or known to this seat (e.g. a passed card)
                assert name not in segment, f"seat {player} was shown {name} of seat {other}"
        checked += 1
        actions = state.legal_actions()
        return str(actions[rng.randrange(len(actions))])

    seats: list[Seat] = make_seats(kinds, seed)
    session = PlaySession(state, seats, console, view or view_for(game_name), None, read_line)
    assert session.run() is Outcome.FINISHED
    return checked


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hot_seat_never_shows_the_other_hand_fake(fake_game: str, seed: int) -> None:
    assert _check_no_leak(fake_game, ["human", "human"], seed) == 6


def test_leak_check_can_fail(fake_game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above does catch a view that prints every seat's hand."""

    class LeakyView(GameView):
        def board(self, game: Game, obs: Obs, labels: Sequence[str]) -> RenderableType:
            return repr(current[0].observation(1 - obs["seat"])["hand"])

    current: list[State] = []
    fake_cls = type(load_game(fake_game))
    original = fake_cls.new_initial_state

    def remember(self: Game, seed: int = 0) -> State:
        state = original(self, seed)
        current.append(state)
        return state

    monkeypatch.setattr(fake_cls, "new_initial_state", remember)
    with pytest.raises(AssertionError, match="was shown"):
        _check_no_leak(fake_game, ["human", "human"], 1, LeakyView())


def test_hot_seat_prompts_pass_the_device(fake_game: str) -> None:
    result = runner.invoke(
        app, ["play", fake_game, "--seed", "2", "--seats", "human,human"], input="\n1\n" * 6
    )
    assert result.exit_code == 0, result.output
    assert result.output.count(PASS_DEVICE) == 6


# ---------------------------------------------------------------- replay
def _bot_record(tmp_path: Path, game: str, seed: int = 4) -> Path:
    save = tmp_path / "rec.json"
    result = runner.invoke(
        app,
        ["play", game, "--seed", str(seed), "--seats", "random,random", "--save", str(save)],
    )
    assert result.exit_code == 0, result.output
    return save


def test_replay_prints_every_action_in_order(fake_game: str, tmp_path: Path) -> None:
    save = _bot_record(tmp_path, fake_game)
    rec = records.load(save)
    result = runner.invoke(app, ["replay", str(save), "--no-pause"])
    assert result.exit_code == 0, result.output
    positions = [result.output.index(f"{i + 1:>3}. ") for i in range(len(rec["actions"]))]
    assert positions == sorted(positions)
    for entry in rec["actions"]:
        assert entry["action"] in result.output
    assert "Result" in result.output


def test_replay_steps_back_and_jumps(fake_game: str, tmp_path: Path) -> None:
    save = _bot_record(tmp_path, fake_game)
    result = runner.invoke(app, ["replay", str(save)], input="\n\nb\n5\nzz\nq\n")
    assert result.exit_code == 0, result.output
    assert "At action 1 of 6" in result.output
    assert "At action 5 of 6" in result.output
    assert "unknown key 'zz'" in result.output
    assert "  6. " not in result.output  # quit before the last action


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "record is not valid JSON"),
        ('{"format": "other"}', "not a porphyra record"),
    ],
)
def test_corrupt_save_file_exits_2_with_one_line(
    tmp_path: Path, content: str, message: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    for args in (["replay", str(bad)], ["resume", str(bad)], ["play", "--resume", str(bad)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output
        assert "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_record_with_a_bad_action_exits_2(fake_game: str, tmp_path: Path) -> None:
    save = _bot_record(tmp_path, fake_game)
    rec = json.loads(save.read_text())
    rec["actions"][1]["action"] = "play nothing"
    save.write_text(json.dumps(rec))
    result = runner.invoke(app, ["replay", str(save), "--no-pause"])
    assert result.exit_code == 2
    assert "action #2 'play nothing' does not apply" in result.output


def test_missing_file_and_unknown_game_exit_2(tmp_path: Path) -> None:
    result = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert result.exit_code == 2
    assert "nope.json" in result.output
    result = runner.invoke(app, ["play", "chess"])
    assert result.exit_code == 2
    assert "unknown game 'chess'" in result.output
    result = runner.invoke(app, ["simulate", "chess"])
    assert result.exit_code == 2


def test_option_of_another_game_is_refused(fake_game: str) -> None:
    result = runner.invoke(app, ["play", "byzantium", "--players", "3"])
    assert result.exit_code == 2
    assert "--players applies to conspiracy, not to byzantium" in result.output
    result = runner.invoke(app, ["play", "byzantium", "--seats", "human,wizard"])
    assert result.exit_code == 2
    assert "unknown seat 'wizard'" in result.output


# ---------------------------------------------------------------- simulate
def test_simulate_json_summary(fake_game: str) -> None:
    args = ["simulate", fake_game, "--games", "12", "--seed", "7", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["games"] == 12
    assert sum(summary["wins"]) + summary["draws"] == 12
    assert summary["bots"] == ["random", "random"]
    assert json.loads(runner.invoke(app, args).stdout) == summary  # same seed, same games
    other = json.loads(runner.invoke(app, [*args[:-2], "8", "--json"]).stdout)
    assert other["seed"] == 8


def test_simulate_table_and_bot_count(fake_game: str) -> None:
    result = runner.invoke(app, ["simulate", fake_game, "--games", "3"])
    assert result.exit_code == 0, result.output
    assert "draws / shared" in result.output
    result = runner.invoke(app, ["simulate", fake_game, "--bots", "random"])
    assert result.exit_code == 2
    assert "1 seats but the game has 2" in result.output
    result = runner.invoke(app, ["simulate", fake_game, "--bots", "human,random"])
    assert result.exit_code == 2


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("play", "resume", "replay", "cards", "simulate"):
        assert command in result.output


def test_hint_asks_a_bot_for_a_legal_suggestion(fake_game: str) -> None:
    hint_bot = ["--hint-bot", "ismcts:iterations=40"]
    result = runner.invoke(
        app,
        ["play", fake_game, "--seed", "3", "--seats", "human,random", *hint_bot],
        input="hint\nquit\n",
    )
    assert result.exit_code == 0, result.output
    hint = re.search(r"Hint \(ismcts:iterations=40\): (play \w+) \(estimated chance", result.output)
    assert hint is not None, result.output
    assert hint.group(1) in ("play birch", "play heron", "play kelp")  # seat 0's hand


def test_unknown_hint_bot_exits_2(fake_game: str) -> None:
    result = runner.invoke(app, ["play", fake_game, "--hint-bot", "oracle"], input="")
    assert result.exit_code == 2
    assert "unknown bot 'oracle'" in result.output


def test_bots_command_lists_every_bot_with_a_description_and_the_options() -> None:
    from porphyra.bots import bot_names, describe_bots, option_names

    assert [name for name, _ in describe_bots()] == bot_names()
    assert all(text for _, text in describe_bots())
    result = runner.invoke(app, ["bots"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for name in ["human", *bot_names()]:
        assert re.search(rf"\b{name}\b", result.output)
    for key in option_names():
        assert key in result.output
