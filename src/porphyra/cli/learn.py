"""``porphyra learn GAME``: a tutorial at the terminal (the runner is
:mod:`porphyra.learn`; this module only shows it and reads the learner's moves).

Each step shows the new log lines, the table (the game's own terminal view) and what the
step explains; an action step asks for the lesson's move (``quit`` leaves), refusing an
illegal move with the engine's reason and a legal move that is not the lesson's with the
script's reason.  At the end it offers the first real game against ``easy``.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

from porphyra.cli.lang import error_text, people, seat_label, styled, tr
from porphyra.cli.views import ascii_number, log_entry, log_lines, view_for
from porphyra.core.errors import InvalidActionError
from porphyra.learn import LESSONS, Tutorial

#: Reads one line of input after showing a prompt; raises EOFError at the end of input.
ReadLine = Callable[[str], str]

#: The most legal moves shown as a numbered menu (a Byzantium meld has hundreds: there the
#: learner types the move, with hand numbers as in ``play``).
MAX_MENU = 12

#: What the learner may type instead of a move.
QUIT = ("quit", "q", "exit")


def lesson_names() -> list[str]:
    """The tutorials' names (``byzantium``, ...)."""
    return sorted(LESSONS)


def run_learn(console: Console, name: str, read_line: ReadLine) -> bool:
    """Play the tutorial ``name`` at the terminal.

    Args:
        console: where to draw.
        name: a tutorial of :data:`porphyra.learn.LESSONS`.
        read_line: reads the learner's input (``console.input`` at a terminal).

    Returns:
        True if the learner finished it and asked for the first game against ``easy``.

    Raises:
        KeyError: no tutorial ``name``.
    """
    tutorial = Tutorial(LESSONS[name])
    lesson = tutorial.lesson
    view = view_for(lesson.game)
    labels = [seat_label(seat) for seat in range(tutorial.game.num_players)]
    total = len(lesson.steps)
    console.print(styled("bold", lesson.title))
    console.print(tr("Type quit to leave the tutorial."))
    while (step := tutorial.step) is not None:
        fresh = tutorial.new_log()
        for line in log_lines({"log": [str(m) for m in fresh], "log_messages": fresh}):
            console.print(log_entry(line))
        if step.expect is not None:
            console.print(view.board(tutorial.game, tutorial.observation(), labels))
        title = tr("Step {0} of {1}", tutorial.index + 1, total)
        console.print(Panel(escape(tr(step.text)), title=title, expand=False))
        try:
            if step.expect is None:
                if read_line(tr("Press Enter to continue: ")).strip().lower() in QUIT:
                    return False
                tutorial.proceed()
                continue
            console.print(tr("The lesson's move: {0}", _move_label(tutorial, step.expect)))
            if not _ask_move(console, tutorial, read_line):
                return False
        except (EOFError, KeyboardInterrupt):  # end of input, Ctrl-C: leave quietly
            console.print()
            return False
    console.print(styled("bold green", "Tutorial complete."))
    console.print(tr("Your first game: {0}", lesson.play_command))
    answer = _read(read_line, tr("Play a first game against the easy bot now? [Y/n] "))
    return answer is not None and answer.strip().lower() in ("", "y", "yes")


def _ask_move(console: Console, tutorial: Tutorial, read_line: ReadLine) -> bool:
    """Read moves until the step's move is played (True) or the learner quits (False).

    Raises:
        EOFError: the input ended.
    """
    view = view_for(tutorial.lesson.game)
    step = tutorial.step
    assert step is not None and step.expect is not None
    menu = [str(action) for action in tutorial.legal_actions()]
    if len(menu) > MAX_MENU:
        menu = []
    if menu:
        labels = [_move_label(tutorial, move) for move in menu]
        console.print(
            "  ".join(f"[cyan]{i}[/] {escape(label)}" for i, label in enumerate(labels, 1))
        )
    while True:
        text = read_line("> ").strip()
        if text.lower() in QUIT:
            return False
        if not text:
            continue
        number = ascii_number(text)
        if menu and number is not None and 1 <= number <= len(menu):
            text = menu[number - 1]
        try:
            text = view.expand_input(text, tutorial.observation())
        except InvalidActionError as exc:
            console.print(styled("red", "Refused: {0}", people(error_text(str(exc)))))
            continue
        verdict = tutorial.attempt(text)
        if verdict.ok:
            console.print(styled("green", "Right."))
            return True
        if verdict.kind == "illegal":
            reason = people(error_text(verdict.message))
            console.print(styled("red", "The rules refuse that move: {0}", reason))
        else:
            console.print(f"[yellow]{escape(tr(verdict.message))}[/]")
        console.print(tr("The lesson's move: {0}", _move_label(tutorial, step.expect)))


def _move_label(tutorial: Tutorial, text: str) -> str:
    """A move as the terminal's menus show it (cards, lords and Locations by name, in the
    terminal's language), with its notation, which the learner may type, in brackets."""
    view = view_for(tutorial.lesson.game)
    obs = tutorial.observation()
    for action in tutorial.legal_actions():
        if str(action) == text:
            label = view.menu_label(tutorial.game, action, obs)
            return label if label == text else f"{label} [{text}]"
    return text


def _read(read_line: ReadLine, prompt: str) -> str | None:
    try:
        return read_line(prompt)
    except (EOFError, KeyboardInterrupt):
        return None
