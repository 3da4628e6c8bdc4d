"""Conspiracy's board for a small terminal: four chambers and the table in 80x24.

The full board (:meth:`porphyra.cli.conspiracy_view.ConspiracyView.board`) stacks a
bordered pyramid per seat, the piles, every Location's effect and a score table: about 70
lines for four players.  :class:`FitToScreen` shows it when it fits the terminal's height
and this compact layout otherwise: the chambers two by two, each a title line (seat, live
IP), five pyramid lines (a lord a Location lies on is shown reversed and marked ``▪``) and
one line of pearls, keys and Locations held; the piles on one line; the face-up Locations
by name (with their effects when a Location is being chosen).  It shows what the
observation shows, nothing more: every Conspiracy fact is public but the deck orders
(C-R12).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from porphyra.cli.conspiracy_parts import (
    COLOURS,
    ROWS,
    STYLE,
    crest_slots,
    located,
    lord_text,
    split_lord,
)
from porphyra.cli.lang import language, term, tr
from porphyra.cli.views import Obs
from porphyra.core.game import Game
from porphyra.i18n.names import location_name

#: Columns of one slot in the compact pyramid (``Y3●●◆▪`` and a space).
CELL = 7
#: Columns of one chamber block (two side by side fit 80 columns).
BLOCK = 38
#: Lines kept free under the board for what follows it at a decision (the menu of legal
#: actions, the hint and the prompt): the compact board's legend is shown only when it
#: fits with them.
RESERVE = 6
#: The phases in which a Location is chosen: its effects are shown, and only the
#: deciding seat's chamber is drawn (the others in a line each).
CHOOSING = ("location", "lockeep")


class FitToScreen:
    """A renderable that is ``full`` when it fits the terminal's height, else
    ``compact()``, followed by ``legend`` (its key) where that fits too.  Only a terminal
    has a height to fit: redirected output gets ``full``.

    Args:
        full: the full layout.
        compact: builds the small layout (called only when it is needed).
        legend: what the small layout's symbols mean (Rich markup), shown under it when
            both fit the terminal's height with :data:`RESERVE` lines to spare (the
            decision's menu comes first; ``help`` shows the legend too).
    """

    def __init__(
        self, full: RenderableType, compact: Callable[[], RenderableType], legend: str = ""
    ) -> None:
        self.full = full
        self.compact = compact
        self.legend = legend

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if console.is_terminal:
            unbounded = options.update(height=None)
            lines = console.render_lines(self.full, unbounded, pad=False)
            if len(lines) > console.height:
                small = self.compact()
                if self.legend:
                    keyed = Group(small, Text.from_markup(self.legend, style="dim"))
                    needed = len(console.render_lines(keyed, unbounded, pad=False)) + RESERVE
                    if needed <= console.height:
                        yield keyed
                        return
                yield small
                return
        yield self.full


def compact_pyramid(chamber: Sequence[Any]) -> list[Text]:
    """The chamber's slots 1-15 as five lines (5-4-3-2-1 slots), each lord as
    :func:`~porphyra.cli.conspiracy_parts.lord_text`, reversed and marked ``▪`` where a
    Location lies on it, an empty slot as ``·N``."""
    crests = crest_slots(chamber)
    lines = []
    slot = 0
    for r, width in enumerate(ROWS):
        line = Text(" " * (r * CELL // 2))
        for _ in range(width):
            cell = chamber[slot] if slot < len(chamber) else None
            if cell:
                label = lord_text(cell["lord"], slot in crests)
                if cell.get("location"):
                    label.stylize("reverse")
                    label.append("▪")
            else:
                label = Text(f"·{slot + 1}", style="dim")
            label.pad_right(CELL - label.cell_len)
            line.append_text(label)
            slot += 1
        line.rstrip()
        lines.append(line)
    return lines


def _chamber_block(
    obs: Obs, seat: int, labels: Sequence[str], scores: list[dict[str, int]] | None
) -> Group:
    player = obs["players"][seat]
    keys = player.get("unspent_keys") or {}
    title = Text(labels[seat], style="bold" if obs.get("current_player") == seat else "")
    if obs.get("seat") == seat:
        title.append(tr(" — you"))
    if scores is not None:
        title.append(" · " + tr("{0} IP", scores[seat]["total"]), style="bold")
    facts = [
        f"●{player['pearls']}",
        f"{keys.get('silver', 0)}sk {keys.get('gold', 0)}gk",
    ]
    if obs.get("pearl_master") == seat:
        facts.append(tr("Pearl Master"))
    facts += [_name(flag) for flag in ("any-keys", "deck-search") if player.get(flag)]
    if player["locations"]:
        held = ", ".join(
            "?" if slug == "face-down" else _name(slug) for slug in player["locations"]
        )
        if player.get("legendary_opponent"):  # solo: no effect, 5 IP each (S-R2)
            held += " " + tr("(face down, 5 IP each)")
        facts.append(held)
    return Group(
        title,
        *compact_pyramid(player["chamber"]),
        Text(" · ".join(facts), overflow="fold"),
    )


def _piles_line(obs: Obs) -> Text:
    line = Text()
    for colour in COLOURS:
        pile = obs.get("piles", {}).get(colour, [])
        if line:
            line.append(" · ")
        line.append(f"{term(colour)}: ", style=STYLE[colour])
        if not pile:
            line.append("—")
        for i, name in enumerate(sorted(pile, key=lambda n: split_lord(n)[1])):
            line.append(" " if i else "")
            line.append_text(lord_text(name))
    return line


def _name(slug: str) -> str:
    """A Location's name in the terminal's language (people see names, never slugs)."""
    return location_name(slug, language())


def _choosing_location(obs: Obs) -> bool:
    return obs.get("phase") in CHOOSING


def _locations_lines(game: Game, obs: Obs) -> list[Text]:
    """The face-up Locations by name; while a Location is chosen, with their effects,
    and the drawn ones (or the deck, with deck-search) too."""
    choosing = _choosing_location(obs)
    lists = [
        (
            tr("face-up Locations ({0})", len(obs.get("face_up_locations") or [])),
            "face_up_locations",
        )
    ]
    if choosing:
        lists = [
            (tr("drawn Locations"), "drawn_locations"),
            (tr("Location deck"), "location_deck"),
            *lists,
        ]
    out = []
    for title, key in lists:
        slugs = obs.get(key) or []
        if not slugs and key != "face_up_locations":
            continue
        # The searched deck (deck-search: up to the whole deck) by name only.
        effects = choosing and key != "location_deck"
        # Names for people; the notation (the slug) beside it where one is typed now.
        names = [located(game, s) if effects else _name(s) for s in slugs]
        line = Text(title + ": ", style="bold")
        line.append("; ".join(names) or "—", style="")
        out.append(line)
    return out


def _summary_line(
    obs: Obs, seat: int, labels: Sequence[str], scores: list[dict[str, int]] | None
) -> Text:
    """A chamber in one line (its title and facts), for the seats not deciding while a
    Location is chosen."""
    block = _chamber_block(obs, seat, labels, scores)
    first, *_, last = block.renderables
    assert isinstance(first, Text) and isinstance(last, Text)
    return Text(" · ").join([first, last])


def compact_lo(obs: Obs) -> Text:
    """The Legendary Opponent's card in a few lines: its conditions in order (their names:
    ``help`` and the full board explain them), its end-game bonus and its ability."""
    card = obs["legendary_opponent"]
    line = Text(tr("Legendary Opponent: {0}", term(card["title"])), style="bold")
    line.append(" · " + " › ".join(str(c["name"]) for c in card["conditions"]))
    line.append(" · " + tr("End-game bonus:") + " " + term(card["bonus"]))
    line.append(" · " + tr("Ability:") + " " + term(card["ability"]))
    return line


def compact_board(
    game: Game,
    obs: Obs,
    labels: Sequence[str],
    scores: list[dict[str, int]] | None,
    header: Sequence[str],
    extra: Sequence[RenderableType] = (),
) -> RenderableType:
    """The whole table in few lines (see the module docstring).

    Args:
        game: the game (Location texts).
        obs: a seat's or the public observation.
        labels: one label per observed player (solo: the LO's too).
        scores: the live scores per player (:func:`~porphyra.cli.conspiracy_parts.live_scores`).
        header: the header's lines (Rich markup), shown without a border.
        extra: shown after the header (solo: the Legendary Opponent's card).
    """
    seats = range(len(obs["players"]))
    deciding = obs.get("seat", obs.get("current_player"))
    parts: list[RenderableType] = [Text.from_markup(line) for line in header]
    parts += extra
    if _choosing_location(obs) and isinstance(deciding, int) and deciding in seats:
        parts.append(_chamber_block(obs, deciding, labels, scores))
        parts += [_summary_line(obs, seat, labels, scores) for seat in seats if seat != deciding]
    else:
        grid = Table.grid(padding=(0, 2))
        grid.add_column(width=BLOCK, overflow="fold")
        grid.add_column(width=BLOCK, overflow="fold")
        blocks = [_chamber_block(obs, seat, labels, scores) for seat in seats]
        for i in range(0, len(blocks), 2):
            grid.add_row(*blocks[i : i + 2])
        parts.append(grid)
    parts += [_piles_line(obs), *_locations_lines(game, obs)]
    return Group(*parts)
