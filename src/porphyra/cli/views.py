"""How the terminal shows a game: the :class:`GameView` base and the view registry.

A view turns an **observation** (``state.observation(seat)`` or
``state.public_observation()``) into Rich renderables.  It never receives private state
while a game runs, so it cannot show what the viewing seat may not know.  Views for
Byzantium and Conspiracy live in their own modules; any other game gets the generic view,
which prints the observation's fields as they are.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.pretty import Pretty
from rich.table import Table
from rich.text import Text

from porphyra.cli.lang import log as translated_log
from porphyra.cli.lang import log_messages as rendered_log
from porphyra.cli.lang import people
from porphyra.core.game import Action, Game, State
from porphyra.core.messages import Message, from_wire
from porphyra.core.registry import adapter, registered_games

Obs = dict[str, Any]


class GameView:
    """Rendering of one game; subclass per game.  The base class works for any game.

    Attributes:
        hidden_hands: True if seats hold secrets from each other, so a hot-seat game must
            hide the screen ("pass the device") between two different seats' inputs.
    """

    hidden_hands: bool = True

    def board(self, game: Game, obs: Obs, labels: Sequence[str]) -> RenderableType:
        """The whole table as ``obs`` shows it (a seat's view if ``obs`` has ``seat``).

        Args:
            game: the game (card data, options).
            obs: an observation dict.
            labels: display name per seat.
        """
        shown = {k: v for k, v in obs.items() if k != "log"}
        return Panel(Pretty(shown), title="Game", expand=False)

    def compact_board(self, game: Game, obs: Obs, labels: Sequence[str]) -> RenderableType:
        """The table for a seat deciding again right after its own last decision (e.g.
        placing the next lord of a pile); default: the full :meth:`board`."""
        return self.board(game, obs, labels)

    def legend(self) -> str | None:
        """What the board's symbols mean (Rich markup), for ``help``; None: nothing to
        explain."""
        return None

    def status(self, game: Game, obs: Obs) -> str:
        """A one-line summary (turn, phase, scores) for bot-vs-bot progress output."""
        parts = [f"{k} {obs[k]}" for k in ("turn", "phase") if k in obs]
        return " · ".join(parts)

    def hint(self, game: Game, obs: Obs) -> str:
        """One line telling the seat to act what to type in the current phase."""
        return "Type a number from the menu or an action in the game's notation."

    def replay_text(self, player: int, action: str, seat: int | None) -> str:
        """How a replay prints ``player``'s recorded ``action`` to ``seat`` (``None``: the
        public); a view hides what that viewer could not see.  Default: the action."""
        return action

    def order_actions(self, actions: list[Action], obs: Obs) -> list[Action]:
        """The legal actions in the order the menu numbers them (default: the engine's);
        a view may reorder so that menu numbers match its :meth:`expand_input` numbers."""
        return actions

    def menu_groups(
        self, game: Game, actions: Sequence[Action], obs: Obs
    ) -> list[tuple[str, list[int]]]:
        """The full menu (``menu``) in groups: ``[(heading, positions in actions)]``, the
        positions ascending; default one group without a heading."""
        return [("", list(range(len(actions))))]

    def secret_choice(self, obs: Obs) -> bool:
        """True if the decision of ``obs`` (the deciding seat's view) is a secret choice,
        made at the same time as another seat's and hidden until both have chosen
        (default: none)."""
        return False

    def menu_label(self, game: Game, action: Action, obs: Obs) -> str:
        """How the full menu shows ``action`` (default: its notation)."""
        return str(action)

    def move_words(self, game: Game, action: str) -> str:
        """A move in words for people, in the terminal's language: the verb as typed and
        what it names (cards, lords, Locations) by name, never by slug (the review's
        moves).  Default: the notation itself."""
        return action

    def expand_input(self, text: str, obs: Obs) -> str:
        """Rewrite convenient input (e.g. hand positions) into the game's notation.

        Returns ``text`` unchanged when there is nothing to rewrite.
        """
        return text

    def result(self, game: Game, state: State, labels: Sequence[str]) -> RenderableType:
        """The final result (only called once ``state.is_terminal()``; everything shown is
        public at the end: returns and scores)."""
        table = Table(title="Result")
        table.add_column("seat")
        table.add_column("return", justify="right")
        table.add_column("score")
        returns = state.returns()
        scores = state.scores()
        for seat, label in enumerate(labels):
            table.add_row(label, f"{returns[seat]:+g}", json.dumps(scores[seat], default=str))
        return table

    def game_stats(self, state: State) -> Obs:
        """Per-game numbers of a finished game that :meth:`summarize` averages."""
        return {}

    def summarize(self, stats: Sequence[Obs], players: int) -> Obs:
        """Aggregate :meth:`game_stats` of many games into the simulate summary."""
        return {}

    def summary_tables(self, summary: Obs, labels: Sequence[str]) -> list[RenderableType]:
        """Extra Rich tables for the game-specific part of a simulate summary."""
        return []

    def cards(self, game: Game) -> list[RenderableType]:
        """The card listing of ``porphyra cards`` (tables with totals)."""
        return [Text(f"{game.info.long_name} has no card listing.")]


def ascii_number(text: str) -> int | None:
    """The number ``text`` spells in ASCII digits only, else ``None``.

    ``str.isdigit()`` is also true for ``"²"`` or ``"١"``, which ``int()`` rejects or
    reads unexpectedly; input numbers must be plain ``0-9``, and at most 9 digits (no menu
    is longer; Python refuses to read a number of thousands of digits).
    """
    if text and len(text) <= 9 and text.isascii() and text.isdigit():
        return int(text)
    return None


def log_lines(obs: Obs) -> list[str]:
    """The observation's readable log in the terminal's language: its messages
    (``obs["log_messages"]``, :class:`~porphyra.core.messages.Message` values or their
    wire form, one per line, which the terminal adds with :func:`with_log_messages`)
    rendered from their ids and arguments; an observation without them (a saved or
    foreign one) has its English lines ``obs["log"]`` translated by matching them
    (:func:`porphyra.cli.lang.log`, the compatibility path)."""
    log = obs.get("log") or []
    messages = obs.get("log_messages")
    if isinstance(messages, list) and len(messages) == len(log):
        return rendered_log([m if isinstance(m, Message) else from_wire(m) for m in messages])
    return translated_log([str(line) for line in log])


def with_log_messages(obs: Obs, state: State, viewer: int | None) -> Obs:
    """``obs`` (``viewer``'s observation of ``state``, None: a spectator's) with its log
    as messages added (``"log_messages"``, :meth:`porphyra.core.game.State.log_messages`)
    for :func:`log_lines`; changes ``obs`` and returns it."""
    obs["log_messages"] = state.log_messages(viewer)
    return obs


def log_entry(line: str, style: str = "", names: Sequence[str] | None = None) -> Table:
    """One log line (already in the terminal's language, :func:`log_lines`) as a bullet
    with a hanging indent (wrapped lines align); the engine's ``seat N`` (from 0) reads as
    people count seats (``names[N]``, else ``Seat N+1``)."""
    grid = Table.grid()
    grid.add_column(width=4, no_wrap=True)
    grid.add_column(overflow="fold")
    grid.add_row(Text("  • ", style="dim"), Text(people(line, names), style=style))
    return grid


def view_for(name: str) -> GameView:
    """The view of the game ``name``: the ``terminal_view`` it registers (see
    :mod:`porphyra.core.registry`), else the generic view (also for a name the registry
    does not know)."""
    view = adapter(name, "terminal_view") if name in registered_games() else None
    return GameView() if view is None else cast(GameView, view())


def group(*items: RenderableType | None) -> Group:
    """A Rich group of the non-``None`` items."""
    return Group(*(item for item in items if item is not None))
