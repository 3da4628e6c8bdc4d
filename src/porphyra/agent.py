"""The plain agent protocol: any program plays a seat over JSON lines.

For each decision of its seat the program gets one line on stdin::

    {"type": "decision", "id": 7, "game": "byzantium", "seat": 0, "observation": {...},
     "legal_actions": ["redraw -", "redraw infantry", ...], "error": null, "attempt": 1}

``observation`` is the seat's own JSON observation (never more), ``legal_actions`` the
seat's legal actions in the game's notation, ``id`` a number no other decision of the game
has.  The program answers with one line: an action text (any notation the game parses,
e.g. ``meld cavalry,justinian-i``), or ``{"id": 7, "action": "meld cavalry"}`` to say
which decision it answers.  An answer to an old decision is refused (logged, never
applied to the current one): a JSON answer whose ``id`` is not the current decision's,
and any line that arrived before the current decision was sent.  A bad answer
(unparsable or illegal) is answered with the same decision under a new ``id``, ``error``
saying what was wrong and ``attempt`` counting up; after ``retries`` bad answers in a row,
or if the program exits, writes nothing for ``timeout`` seconds or closes its output, the
seat goes to a fallback bot for the rest of the game and the reason is logged; the
program's stdin is then closed and, if it is still running 0.2 s later, it is killed.  The
first answer may take ``startup`` seconds more than ``timeout`` (the program's start-up).
At the end the program gets ``{"type": "end", "seat", "returns", "scores"}`` and its stdin
is closed; one still running 2 s later is killed.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from porphyra.bots import make_bot, seat_view
from porphyra.bots.selfplay import seat_seed
from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.game import Action, State

#: Longest answer line read from a program (characters).
MAX_LINE = 4096

#: Seconds a program that lost its seat has to end after its stdin is closed.
LOST_GRACE = 0.2


class ProgramGone(Exception):
    """The program died, stalled or closed its output (the message says which)."""


class Program:
    """A running program that answers decisions on stdout.

    Args:
        command: the command line (split like a POSIX shell, no shell involved).
        timeout: seconds to wait for each answer.
        startup: seconds the first answer may take on top of ``timeout`` (the program's
            start-up).

    Attributes:
        refused: answer lines refused as answers to old decisions, not yet logged (the
            caller logs and clears them).

    Raises:
        OSError: the program cannot be started.
        ValueError: an empty command.
    """

    def __init__(self, command: str, timeout: float, startup: float = 0.0) -> None:
        argv = shlex.split(command)
        if not argv:
            raise ValueError("--command is empty")
        self.command = command
        self.timeout = timeout
        self.startup = startup
        self.refused: list[str] = []
        self._asked = False
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, out: IO[str]) -> None:
        try:
            for line in out:
                self._lines.put(line[:MAX_LINE])
        except (OSError, ValueError):  # (the pipe closed under the reader)
            pass
        self._lines.put(None)

    def _closed(self) -> ProgramGone:
        try:  # (an exiting program closes its output a moment before it is gone)
            code = self.proc.wait(timeout=LOST_GRACE)
        except subprocess.TimeoutExpired:
            return ProgramGone("the program closed its output (still running)")
        return ProgramGone(f"the program closed its output (exit code {code})")

    def ask(self, message: dict[str, Any]) -> str:
        """Send ``message`` (a decision with its ``id``) as one JSON line and return the
        answer's action text, stripped.  Lines that arrived before it was sent, and JSON
        answers naming another ``id``, are refused (kept in :attr:`refused`).

        Raises:
            ProgramGone: the program exited, closed stdout or did not answer in time.
        """
        while True:  # whatever came before this decision answers none of it
            try:
                early = self._lines.get_nowait()
            except queue.Empty:
                break
            if early is None:
                raise self._closed()
            self.refused.append(early.strip())
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise ProgramGone(f"the program exited (code {self.proc.poll()})") from None
        limit = self.timeout + (0.0 if self._asked else self.startup)
        self._asked = True
        deadline = time.monotonic() + limit
        while True:
            try:
                line = self._lines.get(timeout=max(deadline - time.monotonic(), 0.0))
            except queue.Empty:
                raise ProgramGone(f"no answer within {limit:g} s") from None
            if line is None:
                raise self._closed()
            answer = _answer_text(line.strip(), message.get("id"))
            if answer is None:
                self.refused.append(line.strip())
                continue
            return answer

    def finish(self, message: dict[str, Any] | None, grace: float = 2.0) -> None:
        """Send the last ``message`` (if any) and close stdin; a program still running
        ``grace`` seconds later is killed."""
        try:
            assert self.proc.stdin is not None
            if message is not None and self.proc.poll() is None:
                self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _answer_text(line: str, current: object) -> str | None:
    """The action text of answer ``line`` to decision ``current``: the line itself, or
    the ``action`` of a JSON answer ``{"id", "action"}``; None if that JSON answer names
    another decision's id (an answer to an old decision)."""
    if not line.startswith("{"):
        return line
    try:
        answer = json.loads(line)
    except ValueError:
        return line  # (a bad answer, reported as such)
    if not isinstance(answer, dict) or not isinstance(answer.get("action"), str):
        return line
    if answer.get("id") != current:
        return None
    return str(answer["action"]).strip()


@dataclass
class AgentMatch:
    """One game with a program in seat ``seat`` and bots elsewhere.

    Attributes:
        state: the game state (played in place).
        seat: the program's seat.
        program: the program (None once it lost its seat).
        bots: a bot spec per seat (the program's entry is its fallback bot).
        retries: bad answers allowed in a row before the seat goes to the fallback bot.
        log: called with each line worth logging (bad answers, the seat's loss).
    """

    state: State
    seat: int
    program: Program | None
    bots: list[str]
    retries: int = 3
    log: Callable[[str], None] = print
    lost: str | None = None
    bad_answers: int = 0
    refused: int = 0
    _bots: dict[int, Any] = field(default_factory=dict)
    _last_id: int = 0

    def _bot(self, player: int) -> Any:
        if player not in self._bots:
            self._bots[player] = make_bot(self.bots[player], seat_seed(self.state.seed, player))
        return self._bots[player]

    def _program_action(self, program: Program) -> Action | None:
        state, seat = self.state, self.seat
        legal = state.legal_actions(seat)
        message: dict[str, Any] = {
            "type": "decision",
            "id": 0,
            "game": state.game.info.name,
            "seat": seat,
            "observation": state.observation(seat),
            "legal_actions": [str(a) for a in legal],
            "error": None,
            "attempt": 1,
        }
        for attempt in range(1, self.retries + 1):
            message["attempt"] = attempt
            self._last_id += 1
            message["id"] = self._last_id
            try:
                answer = program.ask(message)
            finally:
                self._log_refused(program)
            try:
                action = state.game.parse_action(state, answer, seat)
                if action in legal:
                    return action
                raise IllegalActionError(f"{answer!r} is not legal now")
            except (InvalidActionError, IllegalActionError) as exc:
                self.bad_answers += 1
                message["error"] = f"bad answer {answer[:80]!r}: {exc}"
                self.log(f"seat {seat}: {message['error']}")
        self._lose(f"{self.retries} bad answers in a row (last: {message['error']})")
        return None

    def _log_refused(self, program: Program) -> None:
        for line in program.refused:
            self.refused += 1
            self.log(f"seat {self.seat}: refused {line[:80]!r}: an answer to an old decision")
        program.refused.clear()

    def _lose(self, reason: str) -> None:
        self.lost = reason
        self.log(f"seat {self.seat} goes to the bot {self.bots[self.seat]!r}: {reason}")
        if self.program is not None:
            self.program.finish(None, grace=LOST_GRACE)
        self.program = None

    def play(self) -> State:
        """Play to the end and return the final state."""
        state = self.state
        while not state.is_terminal():
            for player in state.active_players():
                action = None
                if player == self.seat and self.program is not None:
                    try:
                        action = self._program_action(self.program)
                    except ProgramGone as gone:
                        self._lose(str(gone))
                if action is None:
                    action = self._bot(player).choose(seat_view(state, player))
                state.apply_action(action, player)
        if self.program is not None:
            end = {
                "type": "end",
                "seat": self.seat,
                "returns": state.returns(),
                "scores": state.scores(),
            }
            self.program.finish(end)
        return state
