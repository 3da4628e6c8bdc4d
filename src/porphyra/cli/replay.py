"""Stepping through a saved game (``porphyra replay FILE``).

The record is replayed action by action from its seed.  Each step prints who did what and
the new log lines of the chosen point of view: the spectators' ``public_observation`` by
default, or one seat's ``observation`` (``--seat``).  Interactive keys: Enter (next), a
number (jump to that action), ``b`` (back one), ``s`` (show the table), ``a`` (play to the
end without stopping), ``q`` (quit).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from porphyra import record as records
from porphyra.cli.lang import log as translated_log
from porphyra.cli.lang import people, seat_label, styled, term, tr
from porphyra.cli.views import (
    GameView,
    Obs,
    ascii_number,
    log_entry,
    log_lines,
    with_log_messages,
)
from porphyra.clocks import ClockError, ClockSettings, event_text
from porphyra.core.errors import RecordError
from porphyra.core.game import State
from porphyra.core.seats import hidden_character, is_default_name
from porphyra.i18n import N_

ReadLine = Callable[[str], str]


KEYS = N_("Enter next · number: go to action · b back · s table · a run to end · q quit")


class Replayer:
    """Walks a record forward and backward.

    Args:
        record: a validated record (:func:`porphyra.record.load`).
        seat: the seat whose view is shown, or ``None`` for the public view.

    Raises:
        RecordError: the record does not replay (bad game, version or action).
    """

    def __init__(self, record: dict[str, Any], seat: int | None = None) -> None:
        self.record = record
        self.total = len(record["actions"])
        self.state: State = records.replay(record, upto=0)
        players = self.state.game.num_players
        if seat is not None and not 0 <= seat < players:
            raise RecordError(f"--seat must be between 1 and {players} (Seat 1 is the first seat)")
        self.seat = seat
        self.position = 0
        # Check the whole record replays before stepping (errors name the bad action).
        records.replay(record)

    def obs(self) -> Obs:
        """The observation shown at the current position (with its log as messages)."""
        if self.seat is None:
            obs = self.state.public_observation()
        else:
            obs = self.state.observation(self.seat)
        return with_log_messages(obs, self.state, self.seat)

    def step(self) -> tuple[int, str]:
        """Apply the next action; returns ``(player, action text)``.

        Raises:
            IndexError: already at the end.
        """
        if self.position >= self.total:
            raise IndexError("at the end of the record")
        entry = self.record["actions"][self.position]
        game = self.state.game
        player = int(entry["player"])
        self.state.apply_action(game.parse_action(self.state, entry["action"], player), player)
        self.position += 1
        return int(entry["player"]), str(entry["action"])

    def go_to(self, position: int) -> None:
        """Jump to just after action ``position`` (0 = the initial state)."""
        position = max(0, min(self.total, position))
        self.state = records.replay(self.record, upto=position)
        self.position = position


def label_of(labels: list[str], player: int) -> str:
    """``labels[player]``, or the label of a player outside them (e.g. the rules' own
    Legendary Opponent)."""
    return labels[player] if 0 <= player < len(labels) else seat_label(player)


def record_labels(record: dict[str, Any], players: int) -> list[str]:
    """Seat labels for people, in the terminal's language: ``Seat 1``, ``Seat 2``... and,
    for a web game's record (its ``seats`` list), each seat's name: ``Seat 1 (Theodora)``."""
    named = record.get("seats")
    labels = []
    for i in range(players):
        entry = named[i] if isinstance(named, list) and i < len(named) else None
        name = _shown_name(entry.get("name") if isinstance(entry, dict) else None)
        labels.append(f"{seat_label(i)} ({name})" if name else seat_label(i))
    return labels


def _shown_name(name: object) -> str | None:
    """A record's seat name as the terminal may show it: None for no name or the web
    server's default one (the label says it already), else the name without the
    characters a name may not show (a record file may hold anything) and cut to 40."""
    if not isinstance(name, str):
        return None
    clean = "".join(c for c in name if not hidden_character(c)).strip()[:40]
    return None if not clean or is_default_name(clean) else clean


def describe_clock(clock: dict[str, Any]) -> str:
    """A record's ``clock`` settings in words (:meth:`ClockSettings.describe`)."""
    try:
        return ClockSettings.from_json(clock).describe(tr, term)
    except ClockError:
        return f"{clock.get('kind')} (settings unreadable)"


def clock_event_lines(record: dict[str, Any], labels: list[str]) -> dict[int, list[str]]:
    """A record's ``clock_events`` as log lines in the terminal's language, seats named
    by ``labels``, by the index of the action they come before (:func:`event_text`)."""
    out: dict[int, list[str]] = {}
    for e in record.get("clock_events") or []:
        line = translated_log([event_text(e)])[0]
        out.setdefault(e["action"], []).append(people(line, labels))
    return out


def run_replay(
    record: dict[str, Any],
    console: Console,
    view: GameView,
    seat: int | None = None,
    pause: bool = True,
    read_line: ReadLine | None = None,
    reveal: bool = False,
) -> None:
    """Show the game of ``record`` step by step.

    Args:
        record: a validated record.
        console: where to print.
        view: the game's view.
        seat: show that seat's view instead of the public one (a player index, from 0).
        pause: wait for a key after each step; ``False`` prints the whole game.
        read_line: input function (default ``console.input``); EOF stops the replay.
        reveal: print every action as recorded, even those private to other seats (the
            Byzantium pass); by default they read as the viewer could see them.

    Raises:
        RecordError: the record does not replay.
    """
    reader: ReadLine = read_line or (lambda prompt: console.input(prompt))
    rep = Replayer(record, seat)
    game = rep.state.game
    labels = record_labels(record, game.num_players)
    done = tr("finished") if record.get("result") is not None else tr("unfinished")
    console.print(
        Rule(
            styled("bold", "Replay of {0}", tr(game.info.long_name))
            + "  "
            + escape(tr("seed {0}, {1} actions ({2})", record["seed"], rep.total, done))
        )
    )
    clock = record.get("clock")
    if isinstance(clock, dict):
        console.print(styled("dim", "Clock: {0}", describe_clock(clock)))
    events = clock_event_lines(record, labels)
    shown = 0
    if pause:
        console.print(styled("dim", KEYS))

    def show_new_log() -> None:
        nonlocal shown
        lines = log_lines(rep.obs())
        if shown > len(lines):
            shown = 0
        for line in lines[shown:]:
            console.print(log_entry(line, names=labels))
        shown = len(lines)

    show_new_log()
    while rep.position < rep.total:
        if pause:
            try:
                key = reader(f"[{rep.position}/{rep.total}] > ").strip().lower()
            except EOFError:
                return
            if key in ("q", "quit"):
                return
            if key in ("a", "all"):
                pause = False
            elif key in ("s", "show", "board"):
                console.print(view.board(game, rep.obs(), labels))
                continue
            elif key in ("b", "back") or ascii_number(key) is not None:
                target = rep.position - 1 if key in ("b", "back") else int(key)
                if target > rep.total:  # refused, the replay goes on where it was
                    beyond = styled(
                        "red", "there is no action {0}: this record has 0 to {1}.", key, rep.total
                    )
                    console.print("[red]✗ [/]" + beyond, highlight=False)
                    continue
                rep.go_to(target)
                shown = len(log_lines(rep.obs()))
                console.print(styled("yellow", "At action {0} of {1}.", rep.position, rep.total))
                console.print(view.board(game, rep.obs(), labels))
                continue
            elif key:
                unknown = styled("red", "unknown key {0!r}", key)
                console.print("[red]✗ [/]" + unknown + "  " + styled("dim", KEYS))
                continue
        for line in events.get(rep.position, []):
            console.print(f"[yellow]{escape(line)}[/]", highlight=False)
        player, text = rep.step()
        if not reveal:
            text = view.replay_text(player, text, seat)
        console.print(
            f"[cyan]{rep.position:>3}.[/] {escape(label_of(labels, player))}: "
            f"[bold]{escape(text)}[/]",
            highlight=False,
            soft_wrap=True,
        )
        show_new_log()
    for line in events.get(rep.total, []):
        console.print(f"[yellow]{escape(line)}[/]", highlight=False)
    console.print(Rule(escape(tr("End of record"))))
    console.print(view.board(game, rep.obs(), labels))
    if rep.state.is_terminal():
        console.print(view.result(game, rep.state, labels))
