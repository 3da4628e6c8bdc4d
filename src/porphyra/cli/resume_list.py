"""``porphyra resume`` without a file: the unfinished games of the games folder
(:func:`porphyra.cli.saves.unfinished_games`), listed with their game, when they were last
saved and whose turn it is, and the one the player picks."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from porphyra.cli.common import HUMAN, seat_text
from porphyra.cli.lang import styled, tr
from porphyra.cli.saves import SavedGame, games_dir, unfinished_games
from porphyra.cli.views import ascii_number


def games_table(games: Sequence[SavedGame]) -> Table:
    """The numbered list of ``games`` (numbers from 1): game, last saved (local time),
    whose turn, the seats, the moves played and the file's name."""
    table = Table(box=None, padding=(0, 1), show_edge=False)
    table.add_column("", justify="right", style="cyan", no_wrap=True)
    for heading in (tr("game"), tr("saved"), tr("to play"), tr("seats")):
        table.add_column(heading, overflow="fold")
    table.add_column(tr("moves"), justify="right", no_wrap=True)
    table.add_column(tr("file"), overflow="fold")
    for number, game in enumerate(games, 1):
        table.add_row(
            str(number),
            escape(tr(game.title)),
            time.strftime("%Y-%m-%d %H:%M", time.localtime(game.saved)),
            escape(", ".join(seat_text(i, game.seats[i]) for i in game.to_play)),
            escape(", ".join(tr("human") if k == HUMAN else k for k in game.seats)),
            str(game.actions),
            escape(game.path.name),
        )
    return table


def pick_saved_game(
    console: Console, read_line: Callable[[str], str], folder: Path | None = None
) -> Path | None:
    """Find the unfinished games in ``folder`` (default: the games folder) and return the
    record to resume: the only one, or the one the player picks from the list.

    Args:
        console: where the list and the questions are printed.
        read_line: reads one answer after printing the prompt (``EOFError`` at the end of
            input: nothing is resumed).
        folder: the folder to look in.

    Returns:
        The record's path, or ``None`` when there is none or the player chose none
        (``q``, an empty line or the end of input).
    """
    folder = games_dir() if folder is None else folder
    games = unfinished_games(folder)
    if not games:
        console.print(escape(tr("No unfinished game is saved in {0}.", str(folder))))
        console.print(
            escape(tr("Start one with porphyra play GAME (every game is saved as it is played)."))
        )
        return None
    if len(games) == 1:
        console.print(escape(tr("Resuming {0}.", str(games[0].path))), highlight=False)
        return games[0].path
    console.print(styled("bold", "Unfinished games in {0}:", str(folder)), highlight=False)
    console.print(games_table(games))
    while True:
        try:
            answer = read_line(tr("Which game (1-{0}, q to stop)? ", len(games))).strip()
        except EOFError:
            return None
        if answer.lower() in ("", "q", "quit"):
            return None
        number = ascii_number(answer)
        if number is not None and 1 <= number <= len(games):
            return games[number - 1].path
        console.print(
            "[red]✗ " + escape(tr("choose a number from 1 to {0}.", len(games))) + "[/]",
            highlight=False,
        )
