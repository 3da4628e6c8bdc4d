"""Conspiracy's cards at the terminal: the ``porphyra cards conspiracy`` tables."""

from __future__ import annotations

from collections import Counter

from rich import box
from rich.console import RenderableType
from rich.table import Table
from rich.text import Text

from porphyra.cli.conspiracy_parts import COLOURS, FEATURE, GUILD, STYLE, location_effect
from porphyra.cli.lang import language, term, tr
from porphyra.core.game import Game
from porphyra.i18n.names import location_name


def card_tables(game: Game) -> list[RenderableType]:
    """``porphyra cards conspiracy``: the lords (copies per guild and IP, with their
    features), the guilds' names, the Locations (name, slug, IP, effect, set) and the
    totals, in the terminal's language.

    Args:
        game: a loaded Conspiracy game (its ``cards``: lords and Locations).
    """
    cards = getattr(game, "cards", None)
    if cards is None:
        return [Text(tr("This Conspiracy engine exposes no card data."))]
    lords = Table(title=tr("Lords (copies per guild)"), box=box.SIMPLE_HEAD)
    lords.add_column("IP", justify="right")
    lords.add_column(tr("printed feature"), overflow="fold")
    for colour in COLOURS:
        lords.add_column(Text(term(colour), style=STYLE[colour]), justify="right")
    lords.add_column(tr("total"), justify="right")
    ips = sorted({k.ip for k in cards.lords})
    per_colour: Counter[int] = Counter()
    for ip in ips:
        row = []
        for c in range(len(COLOURS)):
            copies = sum(k.copies for k in cards.lords if k.colour == c and k.ip == ip)
            per_colour[c] += copies
            row.append(str(copies))
        feature = FEATURE.get(ip)
        lords.add_row(str(ip), tr(feature) if feature else "", *row, str(sum(int(x) for x in row)))
    total_lords = sum(per_colour.values())
    lords.add_section()
    lords.add_row(
        "",
        tr("total"),
        *(str(per_colour[c]) for c in range(len(COLOURS))),
        str(total_lords),
    )
    guilds = Text(
        " · ".join(f"{term(c)} = {tr(GUILD[c])}" for c in COLOURS)
        + " "
        + tr("(purple shown as magenta)"),
        style="dim",
    )
    locs = Table(title=tr("Locations"), box=box.SIMPLE_HEAD)
    locs.add_column(tr("name"), no_wrap=True)
    locs.add_column(tr("slug"), no_wrap=True)
    locs.add_column("IP", justify="right")
    locs.add_column(tr("effect"), overflow="fold")
    locs.add_column(tr("set"))
    base = bonus = 0
    for card in cards.locations:
        locs.add_row(
            location_name(card.slug, language()),
            card.slug,
            str(card.ip),
            location_effect(game, card.slug).partition("; ")[2],
            tr("bonus") if card.bonus else tr("base"),
        )
        if card.bonus:
            bonus += 1
        else:
            base += 1
    totals = Text(
        tr(
            "{0} lords in 5 guilds; {1} Locations, plus {2} bonus Locations with "
            "--bonus-locations.",
            total_lords,
            base,
            bonus,
        ),
        style="bold",
    )
    return [lords, guilds, locs, totals]
