"""The plain agent protocol: any program plays a seat over JSON lines.

For each decision of its seat the program gets one line on stdin::

    {"type": "decision", "game": "byzantium", "seat": 0, "observation": {...},
     "legal_actions": ["redraw -", "redraw infantry", ...], "error": null, "attempt": 1}

``observation`` is the seat's own JSON observation (never more), ``legal_actions`` the
seat's legal actions in the game's notation.  The program answers with one line: an
action text (any notation the game parses, e.g. ``meld cavalry,justinian-i``).  A bad
answer (unparsable or illegal) is answered with the same decision, ``error`` saying what
was wrong and ``attempt`` counting up; after ``retries`` bad answers in a row, or if the
program exits, writes nothing for ``timeout`` seconds or closes its output, the seat goes
to a fallback bot for the rest of the game and the reason is logged.  At the end the
program gets ``{"type": "end", "seat", "returns", "scores"}`` and its stdin is closed.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

from porphyra.bots import make_bot, seat_view
from porphyra.bots.selfplay import seat_seed
from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.game import Action, State

#: Longest answer line read from a program (characters).
MAX_LINE = 4096


class ProgramGone(Exception):
    """The program died, stalled or closed its output (the message says which)."""


class Program:
    """A running program that answers decisions on stdout.

    Args:
        command: the command line (split like a POSIX shell, no shell involved).
        timeout: seconds to wait for each answer.

    Raises:
        OSError: the program cannot be started.
        ValueError: an empty command.
    """

    def __init__(self, command: str, timeout: float) -> None:
        argv = shlex.split(command)
        if not argv:
            raise ValueError("--command is empty")
        self.command = command
        self.timeout = timeout
        self.proc = subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert self.proc.stdout is not None
        threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True).start()

    def _read(self, out: IO[str]) -> None:
        for line in out:
            self._lines.put(line[:MAX_LINE])
        self._lines.put(None)

    def ask(self, message: dict[str, Any]) -> str:
        """Send ``message`` as one JSON line and return the answer line, stripped.

        Raises:
            ProgramGone: the program exited, closed stdout or did not answer in time.
        """
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise ProgramGone(f"the program exited (code {self.proc.poll()})") from None
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise ProgramGone(f"no answer within {self.timeout:g} s") from None
        if line is None:
            code = self.proc.wait(timeout=5)
            raise ProgramGone(f"the program closed its output (exit code {code})")
        return line.strip()

    def finish(self, message: dict[str, Any] | None, grace: float = 2.0) -> None:
        """Send the last ``message`` (if any) and close stdin; a program still running
        ``grace`` seconds later is killed."""
        try:
            assert self.proc.stdin is not None
            if message is not None and self.proc.poll() is None:
                self.proc.stdin.write(json.dumps(message) + "\n")
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


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
    _bots: dict[int, Any] = field(default_factory=dict)

    def _bot(self, player: int) -> Any:
        if player not in self._bots:
            self._bots[player] = make_bot(self.bots[player], seat_seed(self.state.seed, player))
        return self._bots[player]

    def _program_action(self, program: Program) -> Action | None:
        state, seat = self.state, self.seat
        legal = state.legal_actions(seat)
        message: dict[str, Any] = {
            "type": "decision",
            "game": state.game.info.name,
            "seat": seat,
            "observation": state.observation(seat),
            "legal_actions": [str(a) for a in legal],
            "error": None,
            "attempt": 1,
        }
        for attempt in range(1, self.retries + 1):
            message["attempt"] = attempt
            answer = program.ask(message)
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

    def _lose(self, reason: str) -> None:
        self.lost = reason
        self.log(f"seat {self.seat} goes to the bot {self.bots[self.seat]!r}: {reason}")
        if self.program is not None:
            self.program.finish(None, grace=0.2)
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
