"""The ``porphyra review`` command: a review of one seat's decisions in a saved game.

Computes (or reads from the cache beside the record, :mod:`porphyra.review.cache`) the
seat's estimated chance to win before and after each of its decisions, from its own view
only (:mod:`porphyra.review.engine`), with a progress bar while it works, then prints the
win-chance curve as a sparkline, a table of the decisions with their marks, and the three
moments that changed the game most.  Every text is translated (``--lang``); the moves are
shown in words, their cards, lords and Locations by name (the game view's
``move_words``), as the browser's review shows them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from porphyra import record as records
from porphyra.cli.common import CliError, handle_errors, progress_bar
from porphyra.cli.lang import fitted, seat_label, set_language, styled, tr
from porphyra.cli.views import view_for
from porphyra.core.messages import Message
from porphyra.i18n import N_
from porphyra.review import DEFAULT_ITERATIONS, ReviewSettings, cached_review, default_seat

#: Sparkline blocks, lowest to highest win chance.
BLOCKS = "▁▂▃▄▅▆▇█"

#: The marks as people read them (translated at the edge).
MARK_TEXT = {
    "inaccuracy": N_("inaccuracy"),
    "mistake": N_("mistake"),
    "blunder": N_("blunder"),
}
WIN_CHANCE = N_("Win chance")
MARK_STYLE = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def sparkline(values: list[float]) -> str:
    """``values`` (win chances in 0..1) as one block character each (``▁`` 0 .. ``█`` 1)."""
    top = len(BLOCKS) - 1
    return "".join(BLOCKS[min(top, max(0, round(v * top)))] for v in values)


def percent(value: float) -> str:
    """A win chance 0..1 as a whole percentage (``0.534`` → ``53%``)."""
    return f"{value * 100:.0f}%"


def curve(review: dict[str, Any]) -> list[float]:
    """The win-chance curve of a review: before and after each decision, then the result
    (when the game ended)."""
    points = [v for d in review["decisions"] for v in (d["before"], d["after"])]
    if review["result"] is not None:
        points.append(review["result"])
    return points


def decisions_table(review: dict[str, Any], words: Callable[[str], str] = str) -> Table:
    """One row per reviewed decision: move number, win chances, cost, mark, the chosen move
    and (when it differs) the search's preferred one, each as ``words`` gives it (default:
    the notation)."""
    table = Table(box=box.SIMPLE, show_edge=False, pad_edge=False)
    for title, justify in (
        (N_("Move"), "right"),
        (N_("Before"), "right"),
        (N_("After"), "right"),
        (N_("Cost"), "right"),
        (N_("Mark"), "left"),
        (N_("Chosen"), "left"),
        (N_("Search prefers"), "left"),
    ):
        table.add_column(tr(title), justify=justify)  # type: ignore[arg-type]
    for d in review["decisions"]:
        mark = d["mark"]
        table.add_row(
            str(d["move"]),
            percent(d["before"]),
            percent(d["after"]),
            "" if d["cost"] < 0.005 else f"-{d['cost'] * 100:.0f}",
            "" if mark is None else styled(MARK_STYLE[mark], MARK_TEXT[mark]),
            escape(words(d["chosen"])),
            "" if d["best"] == d["chosen"] else escape(words(d["best"])),
        )
    return table


def moment_lines(review: dict[str, Any]) -> list[str]:
    """The three moments that changed the game most, one translated line each."""
    lines = []
    for m in review["moments"]:
        template = (
            N_("Move {0}: your move, {1} → {2}")
            if m["kind"] == "own"
            else N_("Up to move {0}: the other moves and draws since your decision, {1} → {2}")
        )
        lines.append(tr(template, m["move"], percent(m["from"]), percent(m["to"])))
    return lines


def print_review(
    console: Console, review: dict[str, Any], words: Callable[[str], str] = str
) -> None:
    """Print a review: heading, curve, the decisions' table (moves as ``words`` gives
    them), mark counts and moments."""
    seat = seat_label(review["seat"])
    console.print(
        styled("bold", "Review of {0}: {1} decisions", seat, len(review["decisions"])),
        soft_wrap=True,
    )
    points = curve(review)
    if points:
        console.print(
            f"{escape(tr(WIN_CHANCE))}  {sparkline(points)}  "
            f"{percent(points[0])} → {percent(points[-1])}",
            soft_wrap=True,
        )
    console.print(decisions_table(review, words))
    counts = {m: sum(1 for d in review["decisions"] if d["mark"] == m) for m in MARK_TEXT}
    console.print(
        escape(
            fitted(
                tr(
                    "Inaccuracies: {0} · mistakes: {1} · blunders: {2}",
                    counts["inaccuracy"],
                    counts["mistake"],
                    counts["blunder"],
                )
            )
        ),
        soft_wrap=True,
    )
    if review["moments"]:
        console.print(styled("bold", "The three moments that changed the game most"))
        for line in moment_lines(review):
            console.print(f"  {escape(fitted(line))}", soft_wrap=True)


def review_command(
    file: Annotated[Path, typer.Argument(help=N_("A record saved with --save."))],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            help=N_("The seat to review: 1 is the first seat (default: the first person's)."),
        ),
    ] = None,
    iterations: Annotated[
        int,
        typer.Option(
            "--iterations", min=2, help=N_("Search iterations per decision (reproducible).")
        ),
    ] = DEFAULT_ITERATIONS,
    seed: Annotated[int, typer.Option("--seed", help=N_("Seed of the searches."))] = 0,
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the review as JSON instead."))
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            help=N_("Language of the screen: en, ja or ko (default: from LANG, else English)."),
            show_default=False,
        ),
    ] = None,
) -> None:
    """Review one seat's decisions in a saved game: its chance to win before and after
    each, from its own view only, with inaccuracies, mistakes and blunders marked."""
    console = Console(highlight=False)
    with handle_errors(console):
        set_language(lang)
        record = records.load(file)
        game = records.replay(record, upto=0).game  # (with the record's options: its deck)
        players = game.num_players
        if seat is not None and not 1 <= seat <= players:
            raise CliError(f"--seat must be between 1 and {players} (Seat 1 is the first seat)")
        index = default_seat(record) if seat is None else seat - 1

        def notice(message: Message) -> None:
            console.print(f"[yellow]{escape(tr(message.msgid, *message.args))}[/]")

        with progress_bar(tr("Reviewing"), transient=True) as bar:
            task = bar.add_task("review", total=None)
            review, _ = cached_review(
                record,
                file,
                index,
                ReviewSettings(iterations=iterations, seed=seed),
                progress=lambda done, total: bar.update(task, completed=done, total=total),
                notice=notice,
            )
        if as_json:
            print(json.dumps(review, indent=1, sort_keys=True))
            return
        view = view_for(game.info.name)
        print_review(console, review, lambda move: view.move_words(game, move))
