"""``porphyra agent`` and the plain agent protocol (:mod:`porphyra.agent`)."""

from __future__ import annotations

import json
import shlex
import sys
import time
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
        self.refused: list[str] = []

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


def test_a_program_that_closes_its_output_but_runs_on_is_ended_and_replaced() -> None:
    code = "import os, sys, time\nsys.stdin.readline()\nos.close(1)\ntime.sleep(30)\n"
    match = _match("byzantium", code)
    program = match.program
    assert program is not None
    started = time.monotonic()
    assert match.play().is_terminal()
    assert time.monotonic() - started < 10  # not the 30 s the program would run
    assert match.lost == "the program closed its output (still running)"
    assert program.proc.poll() is not None  # ended, as documented
    result = runner.invoke(
        app,
        ["agent", "byzantium", "--command", f"{PY} -c {shlex.quote(code)}", "--seed", "3",
         "--bots", "random"],
    )  # fmt: skip
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert "the program lost its seat" in result.output


def test_decisions_carry_ids_and_answers_to_old_ones_are_refused() -> None:
    # A line that came before the decision was sent answers none of it: here one the
    # program writes before any decision (waited for, so the test has no race).
    early = (
        "import json, sys\n"
        "print('draw 1', flush=True)\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'end': break\n"
        "    print(m['legal_actions'][-1], flush=True)\n"
    )
    match = _match("conspiracy", early)
    program = match.program
    assert program is not None
    deadline = time.monotonic() + 10
    while program._lines.empty() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert match.play().is_terminal()
    assert match.lost is None and match.bad_answers == 0 and match.refused == 1
    lines = match.log_lines  # type: ignore[attr-defined]
    assert lines == ["seat 0: refused 'draw 1': an answer to an old decision"]
    # JSON answers name their decision: one naming another id is refused, whenever it
    # arrives.
    by_id = (
        "import json, sys\n"
        "ids = []\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'end': break\n"
        "    ids.append(m['id'])\n"
        "    a = m['legal_actions'][0]\n"
        "    print(json.dumps({'id': m['id'] - 1, 'action': 'nonsense'}), flush=True)\n"
        "    print(json.dumps({'id': m['id'], 'action': a}), flush=True)\n"
        "assert ids == list(range(1, len(ids) + 1)), ids\n"
    )
    match = _match("byzantium", by_id)
    program = match.program
    assert program is not None
    assert match.play().is_terminal()
    assert match.lost is None and match.bad_answers == 0
    assert match.refused == match._last_id > 3  # one refused per decision
    assert program.proc.wait(timeout=5) == 0  # the ids it saw were 1, 2, 3 ...


def test_start_up_has_its_own_limit() -> None:
    slow_start = (
        "import json, sys, time\n"
        "time.sleep(0.8)\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'end': break\n"
        "    print(m['legal_actions'][0], flush=True)\n"
    )
    state = load_game("conspiracy").new_initial_state(seed=4)
    cmd = f"{PY} -c {shlex.quote(slow_start)}"
    patient = AgentMatch(state, 0, Program(cmd, 0.5, startup=2.0), ["random"] * 2, log=print)
    assert patient.play().is_terminal() and patient.lost is None
    state = load_game("conspiracy").new_initial_state(seed=4)
    hasty = AgentMatch(state, 0, Program(cmd, 0.5), ["random"] * 2, log=print)
    assert hasty.play().is_terminal() and hasty.lost == "no answer within 0.5 s"


def test_a_match_alternates_seats_and_reports_json(tmp_path: Path) -> None:
    out = tmp_path / "g.json"
    result = runner.invoke(
        app,
        ["agent", "byzantium", "--command", f"{PY} {EXAMPLE}", "--bots", "random",
         "--seed", "40", "--games", "3", "--json", "--save", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    games = report["games"]
    assert [g["seat"] for g in games] == [0, 1, 0] and [g["seed"] for g in games] == [40, 41, 42]
    for g in games:
        assert g["program_return"] == g["returns"][g["seat"]] and g["lost"] is None
        replayed = records.replay(records.load(tmp_path / f"g-{g['seed'] - 39}.json"))
        assert replayed.seed == g["seed"] and replayed.returns() == g["returns"]
    mine = [g["program_return"] for g in games]
    summary = report["summary"]
    assert summary["games"] == 3 and summary["wins"] == sum(r > 0 for r in mine)
    assert summary["wins"] + summary["draws"] + summary["losses"] == 3
    assert summary["mean_return"] == sum(mine) / 3
    text = runner.invoke(
        app,
        ["agent", "conspiracy", "--command", f"{PY} {EXAMPLE}", "--bots", "random",
         "--seed", "7", "--games", "2"],
    )  # fmt: skip
    assert text.exit_code == 0, text.output
    assert "seed 7: seat 0 played by the program" in text.output
    assert "seed 8: seat 1 played by the program" in text.output
    assert "match: " in text.output and "mean return" in text.output
    bad = runner.invoke(app, ["agent", "byzantium", "--command", "true", "--games", "0"])
    assert bad.exit_code == 2 and "--games must be at least 1" in bad.output
