"""The prompt's menus and help at the terminal (:class:`porphyra.cli.play.PlaySession`):
the numbered menu of the legal actions, long menus by groups, and what can be typed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from porphyra.cli.lang import styled, tr
from porphyra.cli.views import GameView, Obs
from porphyra.core.game import Action, Game

#: Menus longer than this are not printed in full unless asked (``menu``): the prompt shows
#: the number range of each group instead (its numbers work all the same).
MENU_LIMIT = 40


def help_text() -> str:
    """What can be typed at the prompt, in the terminal's language (the command words
    themselves are the same in every language)."""
    rows = [
        (tr("a number"), tr("choose that entry of the menu of legal actions")),
        (
            tr("an action"),
            tr(
                "in the game's notation (examples for now: below); spaces between cards "
                "work as well as commas"
            ),
        ),
        ("menu", tr("list every legal action with its number")),
        ("menu <text>", tr("list only the actions containing the text")),
        ("board", tr("show the table again")),
        ("log", tr("show the whole game log you are allowed to see")),
        ("rules", tr("how to play this game")),
        ("hint", tr("ask a bot (seeing only what you see) for a suggestion")),
        (
            "undo",
            tr(
                "take back your last decision (only when every other seat is a bot, and "
                "only if nothing was drawn or revealed since)"
            ),
        ),
        ("help", tr("this text")),
        ("quit", tr("stop; the game is kept, and porphyra resume continues it")),
    ]
    lines = [styled("bold", "At the prompt you can type")]
    lines += [f"  [cyan]{escape(word)}[/]  {escape(meaning)}" for word, meaning in rows]
    return "\n".join(lines)


def print_menu(
    console: Console,
    view: GameView,
    game: Game,
    actions: Sequence[Action],
    obs: Obs,
    full: bool,
    contains: str | None = None,
) -> None:
    """Print the numbered menu of ``actions`` (the legal actions of the seat whose
    observation is ``obs``): in columns when short, by groups with their number ranges
    when longer than :data:`MENU_LIMIT`; ``full`` (the ``menu`` command) lists one
    action per line, never cut, only those containing ``contains`` if given."""
    if len(actions) > MENU_LIMIT and not full:
        print_menu_ranges(console, view, game, actions, obs)
        return
    if full:
        needle = (contains or "").strip().lower()
        shown = 0
        for heading, positions in view.menu_groups(game, actions, obs):
            chosen = [i for i in positions if not needle or needle in str(actions[i]).lower()]
            if heading and chosen:
                console.print(f"[bold]{escape(heading)}[/]", highlight=False)
            for i in chosen:
                text = view.menu_label(game, actions[i], obs)
                console.print(
                    f"[cyan]{i + 1:>4}[/] {escape(text)}", highlight=False, soft_wrap=True
                )
                shown += 1
        if needle and not shown:
            console.print(
                "[red]✗ [/]" + styled("red", "no legal action contains {0!r}.", needle),
                highlight=False,
            )
        elif needle:
            console.print(styled("dim", "{0} of {1} actions.", shown, len(actions)))
        return
    table = Table.grid(padding=(0, 2))
    columns = 1 if len(actions) <= 8 else 2 if len(actions) <= 24 else 3
    for _ in range(columns):
        table.add_column(overflow="fold")
    rows = (len(actions) + columns - 1) // columns
    for r in range(rows):
        cells = []
        for c in range(columns):
            i = c * rows + r
            if i < len(actions):
                cells.append(f"[cyan]{i + 1:>3}[/] {escape(str(actions[i]))}")
            else:
                cells.append("")
        table.add_row(*cells)
    console.print(table)


def print_menu_ranges(
    console: Console, view: GameView, game: Game, actions: Sequence[Action], obs: Obs
) -> None:
    """Print a long menu in one line per group: the numbers of each group (as ``menu``
    lists them) and its heading, so that a number can be typed at once."""
    table = Table.grid(padding=(0, 1))
    table.add_column(justify="right", style="cyan", no_wrap=True)
    table.add_column(overflow="fold")
    for heading, positions in view.menu_groups(game, actions, obs):
        first, last = positions[0] + 1, positions[-1] + 1
        numbers = str(first) if first == last else f"{first}-{last}"
        label = heading or tr("{0} legal actions", len(positions))
        if first == last:
            label += "  " + view.menu_label(game, actions[first - 1], obs)
        table.add_row(numbers, escape(label))
    console.print(table)
    console.print(
        styled(
            "dim",
            "menu: every action with its number; menu <text>: those containing the text "
            "(e.g. menu {0}).",
            sample_word(actions),
        ),
        highlight=False,
    )


def sample_word(actions: Sequence[Action]) -> str:
    """A word of the last action's argument, to show how ``menu <text>`` works."""
    words = str(actions[-1]).replace(",", " ").split()
    return words[1] if len(words) > 1 else words[0]
