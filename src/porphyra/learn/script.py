"""The tutorials' data model and the runner that plays a lesson on a real engine state.

A :class:`Lesson` is a scripted deal: a game, its options and a fixed seed, the seat the
learner plays, the bots of the other seats, and its :class:`Step` list.  An *info* step
only explains (the learner continues); an *action* step explains one rule and expects one
move, given as its action notation.  :class:`Tutorial` drives the deal: it checks the
learner's move with the engine (``Game.parse_action``: an illegal move is refused with the
engine's own message) and then with the script (a legal move that is not the lesson's is
refused with the step's ``why``), applies it, and lets the bots play until the learner
decides again.  It uses only the game contract (:mod:`porphyra.core.game`) and the bots, so
it knows no rule itself.  The texts are English ``msgid``s, translated at the edge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from porphyra.bots import make_bot
from porphyra.bots.base import Bot, seat_view
from porphyra.bots.selfplay import seat_seed
from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.game import Action, State
from porphyra.core.messages import Message
from porphyra.core.registry import load_game


@dataclass(frozen=True)
class Step:
    """One step of a lesson.

    Attributes:
        key: a stable name of the step (``"redraw"``), unique in its lesson.
        text: what the step explains (an English msgid, may use Markdown-free plain text).
        expect: the move the step asks for, in the game's action notation; ``None`` for an
            info step (nothing to play, the learner continues).
        why: why another *legal* move is refused at this step (msgid); illegal moves are
            refused with the engine's own message instead.
    """

    key: str
    text: str
    expect: str | None = None
    why: str = ""


@dataclass(frozen=True)
class Lesson:
    """A scripted deal (see the module docstring).

    Attributes:
        name: the tutorial's name (``byzantium``, ``conspiracy``, ``solo``).
        game: the registered game it plays.
        options: the game's options.
        seed: the deal's seed (found by :mod:`porphyra.learn.find_seed`).
        seat: the learner's seat (from 0).
        bots: the bot of every other seat, by seat (``{1: "easy"}``).
        title: the tutorial's title (msgid).
        steps: the steps, in order.
        play_seats: the ``--seats`` of the first real game it offers (``human,easy``).
        play_options: the game options of that game (``{"players": 1}`` for solo).
        play_flags: the ``porphyra play`` flags that start it (``--solo`` for solo).
    """

    name: str
    game: str
    options: dict[str, Any]
    seed: int
    seat: int
    bots: dict[int, str]
    title: str
    steps: tuple[Step, ...]
    play_seats: str = "human,easy"
    play_options: dict[str, Any] = field(default_factory=dict)
    play_flags: str = ""

    @property
    def play_command(self) -> str:
        """The command line of the first real game: ``porphyra play GAME --seats ...``."""
        flags = f" {self.play_flags}" if self.play_flags else ""
        return f"porphyra play {self.game}{flags} --seats {self.play_seats}"


@dataclass(frozen=True)
class Verdict:
    """The answer to a move the learner tried.

    Attributes:
        ok: the move was the lesson's and has been played.
        kind: ``"ok"``, ``"illegal"`` (the engine refused it: ``message`` is the engine's
            English refusal, translated at the edge as an error) or ``"lesson"`` (legal,
            but not this step's lesson: ``message`` is the step's ``why`` msgid).
        message: see ``kind`` (empty when ``ok``).
    """

    ok: bool
    kind: str
    message: str = ""


class Tutorial:
    """A lesson being played: a real engine state from the lesson's seed.

    Args:
        lesson: the script.
        upto: play the first ``upto`` steps at once, as scripted (a server rebuilds a
            learner's tutorial from the step index it reached).

    Raises:
        ValueError: ``upto`` is outside ``0..len(steps)``, or the script does not fit the
            deal (a scripted move refused): a broken script, caught by the tests.
    """

    def __init__(self, lesson: Lesson, upto: int = 0) -> None:
        if not 0 <= upto <= len(lesson.steps):
            raise ValueError(f"step {upto} is outside 0..{len(lesson.steps)}")
        self.lesson = lesson
        self.game = load_game(lesson.game, **lesson.options)
        self.state: State = self.game.new_initial_state(seed=lesson.seed)
        self.bots: dict[int, Bot] = {
            seat: make_bot(kind, seed=seat_seed(lesson.seed, seat))
            for seat, kind in lesson.bots.items()
        }
        self.index = 0
        self._log_seen = 0
        self._settle()
        for _ in range(upto):
            self._play_scripted()

    # -- what the learner sees -------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        """The current step, or ``None`` once the lesson is over."""
        if self.index >= len(self.lesson.steps):
            return None
        return self.lesson.steps[self.index]

    @property
    def finished(self) -> bool:
        """True once every step is done."""
        return self.step is None

    def observation(self) -> dict[str, Any]:
        """The learner's seat's observation (only what that seat may know)."""
        return self.state.observation(self.lesson.seat)

    def new_log(self) -> list[Message]:
        """The learner's log not returned before, as messages (an id plus arguments each,
        ``str()`` the English line): the engine's lines since the last call, what the bots
        and the deal did."""
        log = self.state.log_messages(self.lesson.seat)
        fresh = log[self._log_seen :]
        self._log_seen = len(log)
        return fresh

    def legal_actions(self) -> list[Action]:
        """The learner's legal moves now (empty when the learner does not decide)."""
        if self.state.is_terminal() or self.lesson.seat not in self.state.active_players():
            return []
        return list(self.state.legal_actions(self.lesson.seat))

    # -- playing ---------------------------------------------------------------------------

    def attempt(self, text: str) -> Verdict:
        """Try the learner's move ``text`` (action notation) at the current action step.

        Returns:
            The :class:`Verdict`; the move is played only when ``ok``.

        Raises:
            ValueError: the current step is an info step or the lesson is over.
        """
        step = self.step
        if step is None or step.expect is None:
            raise ValueError("this step expects no move: continue instead")
        try:
            action = self.game.parse_action(self.state, text.strip(), self.lesson.seat)
        except (InvalidActionError, IllegalActionError) as exc:
            return Verdict(False, "illegal", str(exc))
        expected = self.game.parse_action(self.state, step.expect, self.lesson.seat)
        if str(action) != str(expected):
            return Verdict(False, "lesson", step.why)
        self._apply(action)
        return Verdict(True, "ok")

    def proceed(self) -> None:
        """Finish the current info step.

        Raises:
            ValueError: the current step expects a move, or the lesson is over.
        """
        step = self.step
        if step is None or step.expect is not None:
            raise ValueError("this step expects a move")
        self.index += 1

    def play(self, text: str) -> None:
        """Play the learner's move ``text`` at the current action step, whatever the
        script expects (for the tools that write scripts, :mod:`porphyra.learn.find_seed`).

        Raises:
            InvalidActionError, IllegalActionError: the engine refuses ``text``.
            ValueError: the current step expects no move.
        """
        step = self.step
        if step is None or step.expect is None:
            raise ValueError("this step expects no move")
        self._apply(self.game.parse_action(self.state, text.strip(), self.lesson.seat))

    def _play_scripted(self) -> None:
        step = self.step
        assert step is not None
        if step.expect is None:
            self.proceed()
            return
        verdict = self.attempt(step.expect)
        if not verdict.ok:
            raise ValueError(f"step {step.key!r}: the script's move is refused: {verdict.message}")

    def _apply(self, action: Action) -> None:
        self.state.apply_action(action, self.lesson.seat)
        self.index += 1
        self._settle()

    def _settle(self) -> None:
        """Let the bots play until the learner decides or the game ends."""
        while not self.state.is_terminal():
            active = self.state.active_players()
            if self.lesson.seat in active:
                return
            seat = active[0]
            choice = self.bots[seat].choose(seat_view(self.state, seat))
            self.state.apply_action(choice, seat)
