"""``porphyra agent`` and the plain agent protocol (:mod:`porphyra.agent`)."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from porphyra import record as records
from porphyra.agent import AgentMatch, Program
from porphyra.cli import app
from porphyra.core.registry import load_game

runner = CliRunner()
EXAMPLE = Path(__file__).parents[2] / "examples" / "first_legal_agent.py"
PY = sys.executable


def _match(game: str, code: str, seat: int = 0, timeout: float = 5.0, **opts: Any) -> AgentMatch:
    state = load_game(game, **opts).new_initial_state(seed=4)
    lines: list[str] = []
    bots = ["random"] * state.game.num_players
    program = Program(f"{PY} -c {shlex.quote(code)}", timeout)
    match = AgentMatch(state, seat, program, bots, retries=2, log=lines.append)
    match.log_lines = lines  # type: ignore[attr-defined]
    return match


def test_example_agent_plays_a_whole_game_through_the_cli(tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    result = runner.invoke(
        app,
        ["agent", "byzantium", "--seat", "1", "--command", f"{PY} {EXAMPLE}",
         "--bots", "random", "--seed", "5", "--save", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "seat 1 played by the program" in result.output
    state = records.replay(records.load(out))
    assert state.is_terminal() and state.seed == 5


class Recorder(Program):
    """A Program stand-in that answers the first legal action and keeps every message."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []
        self.timeout = 1.0

    def ask(self, message: dict[str, Any]) -> str:
        self.messages.append(json.loads(json.dumps(message)))
        return str(message["legal_actions"][-1])

    def finish(self, message: dict[str, Any] | None, grace: float = 2.0) -> None:
        if message is not None:
            self.messages.append(message)


def test_each_decision_gets_exactly_the_seat_observation_and_legal_texts() -> None:
    game = load_game("byzantium")
    state = game.new_initial_state(seed=2)
    recorder = Recorder()
    seen: list[tuple[dict[str, Any], list[str]]] = []
    real_ask = recorder.ask

    def ask(message: dict[str, Any]) -> str:
        seen.append((state.observation(1), [str(a) for a in state.legal_actions(1)]))
        return real_ask(message)

    recorder.ask = ask  # type: ignore[method-assign]
    AgentMatch(state, 1, recorder, ["random", "random"]).play()
    decisions = [m for m in recorder.messages if m["type"] == "decision"]
    assert len(decisions) == len(seen) > 10
    for message, (obs, legal) in zip(decisions, seen, strict=True):
        assert message["seat"] == 1 and message["observation"] == obs
        assert message["legal_actions"] == legal
    assert recorder.messages[-1]["type"] == "end"


def test_bad_answers_get_an_error_then_the_seat_goes_to_the_bot() -> None:
    code = (
        "import sys, json\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    print('err', json.dumps(m['error']), file=sys.stderr)\n"
        "    print('meld nonsense', flush=True)\n"
    )
    match = _match("byzantium", code)
    final = match.play()
    assert final.is_terminal() and match.program is None
    lines = match.log_lines  # type: ignore[attr-defined]
    assert "bad answer 'meld nonsense': unknown card 'nonsense'" in lines[0]
    assert match.bad_answers == 2 and "2 bad answers in a row" in (match.lost or "")


def test_a_program_that_dies_or_stalls_loses_its_seat_with_the_reason() -> None:
    dies = _match("conspiracy", "import sys; sys.exit(3)")
    assert dies.play().is_terminal()
    assert "exit" in (dies.lost or "")
    stalls = _match("conspiracy", "import time; time.sleep(20)", timeout=0.3)
    assert stalls.play().is_terminal()
    assert stalls.lost == "no answer within 0.3 s"


def test_cli_errors_are_one_line_and_exit_2() -> None:
    for args, message in [
        (["byzantium", "--seat", "2"], "out of range"),
        (["byzantium", "--bots", "human"], "not 'human'"),
        (["byzantium", "--bots", "nobody"], "unknown seat"),
        (["chess"], "unknown game"),
        (["byzantium", "--retries", "0"], "--retries"),
    ]:
        result = runner.invoke(app, ["agent", *args, "--command", "true"])
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output


def test_a_program_that_cannot_start_is_a_one_line_error() -> None:
    for command, message in [("no-such-program-xyz", "cannot access"), ("", "--command is empty")]:
        result = runner.invoke(app, ["agent", "byzantium", "--command", command])
        assert result.exit_code == 2 and message in result.output, result.output
