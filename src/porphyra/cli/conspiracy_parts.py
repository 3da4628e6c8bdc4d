"""Pieces of the Conspiracy terminal view: colours, icons, the pyramid, Location texts, the
Legendary Opponent's card and the live score breakdown (used by
:class:`porphyra.cli.conspiracy_view.ConspiracyView`; rules: ``shared/rules/conspiracy.md``).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.cells import set_cell_size
from rich.console import RenderableType
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

from porphyra.cli.lang import language, seat_label, styled, term, tr
from porphyra.cli.views import Obs
from porphyra.core.game import Game
from porphyra.i18n import N_
from porphyra.i18n.names import LOCATION_NAMES, location_name

COLOURS = ("yellow", "red", "green", "blue", "purple")
#: Rich style per guild colour (purple is shown as magenta).
STYLE = {
    "yellow": "bold yellow",
    "red": "bold red",
    "green": "bold green",
    "blue": "bold blue",
    "purple": "bold magenta",
}
GUILD = {
    "yellow": N_("Farmers"),
    "red": N_("Military"),
    "green": N_("Merchants"),
    "blue": N_("Politicians"),
    "purple": N_("Mages"),
}
#: Icon per lord IP (rules section 1): keys, pearls, swap, reveal.
ICON = {0: "⇄", 1: "sk", 2: "gk", 3: "●●", 4: "●", 6: "↑"}
ICON_STYLE = {1: "grey70", 2: "gold1", 3: "white", 4: "white", 0: "cyan", 6: "cyan"}
FEATURE = {
    0: N_("swap two keyless lords"),
    1: N_("silver key"),
    2: N_("gold key"),
    3: N_("2 pearls"),
    4: N_("1 pearl"),
    6: N_("reveal the top lord"),
}
ROWS = (5, 4, 3, 2, 1)
CELL = 9
CATEGORIES = ("lords", "locations", "coalition", "pearl_master")


def legend() -> str:
    """The icons' key, in the terminal's language (Rich markup)."""
    return (
        f"[grey70]sk[/] {escape(tr('silver key'))} · [gold1]gk[/] {escape(tr('gold key'))} · "
        f"● {escape(tr('pearl'))} · [cyan]⇄[/] {escape(tr('swap'))} · "
        f"[cyan]↑[/] {escape(tr('reveal'))} · ◆ {escape(tr('coat of arms'))} · "
        f"[reverse]name[/] {escape(tr('a Location on the slot'))}"
    )


def compact_legend() -> str:
    """The compact board's key, in the terminal's language (Rich markup): the colours'
    initials (``Y``, ``R``...: the compact pyramid's lords read ``R4●``), the icons, and
    ``▪`` for a Location on the slot."""
    colours = " · ".join(f"[{STYLE[c]}]{c[0].upper()}[/] {escape(term(c))}" for c in STYLE)
    return (
        f"{colours} · [grey70]sk[/] {escape(tr('silver key'))} · [gold1]gk[/] "
        f"{escape(tr('gold key'))} · ● {escape(tr('pearl'))} · [cyan]⇄[/] {escape(tr('swap'))}"
        f" · [cyan]↑[/] {escape(tr('reveal'))} · ◆ {escape(tr('coat of arms'))} · "
        f"▪ {escape(tr('a Location on the slot'))}"
    )


HINTS = {
    "recruit": N_(
        "Recruit: 'draw 1', 'draw 2', 'draw 3' (keep one) or 'take <colour>' (whole pile)."
    ),
    "keep": N_(
        "Keep one drawn lord: 'keep red4', or 'keep 2' for the 2nd drawn (= menu entry 2); "
        "the rest go to piles."
    ),
    "place": N_("Choose the next lord from the pile to place: 'place blue1'."),
    "swap": N_("Swap two keyless lords: 'swap 3 7' (slots), or 'swap -' to skip."),
    "location": N_(
        "Take a Location: 'locdraw 1'..'locdraw 3' (keep one), 'loctake <slug>' (face up), "
        "or with the Scouts' Camp 'locpick <slug>'."
    ),
    "lockeep": N_("Keep one drawn Location: 'lockeep <slug>'; the others are put face up."),
    "lopile": N_(
        "Several piles qualify: choose the one the Legendary Opponent takes: 'lopile red'."
    ),
    "loplace": N_("Choose the next lord the Legendary Opponent places: 'loplace blue1'."),
    "replay": N_(
        "Spend the Replay token for one extra turn now ('replay') or keep it ('replay -')."
    ),
}


def split_lord(name: str) -> tuple[str, int]:
    """``"red4"`` → ``("red", 4)``.

    Raises:
        ValueError: not a lord name.
    """
    colour = name.rstrip("0123456789")
    if colour not in COLOURS or colour == name:
        raise ValueError(f"not a lord name: {name!r}")
    return colour, int(name[len(colour) :])


def lord_text(name: str, crest: bool = False) -> Text:
    """A lord as coloured text: ``R4●`` with its icon, ``◆`` for the coat of arms."""
    colour, ip = split_lord(name)
    text = Text(f"{colour[0].upper()}{ip}", style=STYLE[colour])
    icon = ICON.get(ip)
    if icon:
        text.append(icon, style=ICON_STYLE.get(ip, ""))
    if crest:
        text.append("◆", style=STYLE[colour])
    return text


def location_effect(game: Game, slug: str) -> str:
    """A short description of a Location from the game's card data (``"3 IP; others must
    draw exactly 1 until your turn"``); ``slug`` itself for an unknown Location."""
    card = game.card_data().get("locations", {}).get(slug)
    if card is None:
        return slug
    return tr("{0} IP", card["ip"]) + (f"; {term(card['text'])}" if card["text"] else "")


def located(game: Game, slug: str) -> str:
    """A Location a player may name in an action: its name in the terminal's language,
    the slug to type, its IP and effect (``大荘園 [l7] (7影響点)``)."""
    return f"{location_name(slug, language())} [{slug}] ({location_effect(game, slug)})"


def numbered_choices(verb: str, obs: Obs) -> list[str]:
    """What ``keep N`` / ``place N`` / ``lockeep N`` / ``loplace N`` number: the drawn
    cards (or the pile to place) in drawn order, each name once; the menu uses the same
    order.  Empty for other verbs."""
    source = {
        "keep": "drawn_lords",
        "place": "to_place",
        "lockeep": "drawn_locations",
        "loplace": "to_place",
    }.get(verb)
    if source is None:
        return []
    return list(dict.fromkeys(obs.get(source) or []))


def crest_slots(chamber: Sequence[Any]) -> set[int]:
    """Slots (0-based) holding each colour's most influential lord (first one on ties)."""
    best: dict[str, tuple[int, int]] = {}
    for i, cell in enumerate(chamber):
        if not cell:
            continue
        colour, ip = split_lord(cell["lord"])
        if colour not in best or ip > best[colour][0]:
            best[colour] = (ip, i)
    return {slot for _, slot in best.values()}


def solo_labels(obs: Obs, labels: Sequence[str]) -> list[str]:
    """``labels`` plus a label for every observed player without one: in solo, the
    Legendary Opponent (``"The Military (LO)"``)."""
    out = list(labels)
    card = obs.get("legendary_opponent") or {}
    while len(out) < len(obs.get("players", [])):
        out.append(
            tr("{0} (LO)", term(card.get("title", "the LO"))) if card else seat_label(len(out))
        )
    return out


def short_location(slug: str) -> str:
    """A Location's label in a chamber cell: its name in the terminal's language cut to fit
    (``Trade Qu``, ``商業地区``), or, where that cut would read like another Location's,
    its slug cut to fit (``count-Y``); ``?`` for a face-down one."""
    if slug == "face-down":
        return "?"
    names = _short_names(language())
    return names.get(slug) or _short_slug(slug)


@functools.cache
def _short_names(lang: str) -> dict[str, str]:
    """Each Location's name in ``lang`` cut to ``CELL - 1`` columns, for the slugs whose
    cut names are all different (the others keep their slugs)."""
    cut = {
        slug: set_cell_size(location_name(slug, lang), CELL - 1).rstrip() for slug in LOCATION_NAMES
    }
    counts = Counter(cut.values())
    return {slug: label for slug, label in cut.items() if counts[label] == 1}


def _short_slug(slug: str) -> str:
    """A Location slug cut to fit a chamber cell (``count-yellow`` → ``count-Y``)."""
    if len(slug) < CELL:
        return slug
    head, _, tail = slug.rpartition("-")
    if tail in COLOURS:
        return f"{head}-{tail[0].upper()}"
    # Each label fits CELL - 1 characters (one blank before the next) and differs from
    # every other Location's: "l4-pearl" read as l5-pearl's cousin, "alliance" was 4 cards.
    head, _, tail = slug.rpartition("-")
    if head == "alliance":
        return f"allian-{tail}"
    return {
        "reshuffle-lords": "reshuf-L",
        "reshuffle-locations": "reshufLc",
        "deck-search": "search",
        "pearl-pairs": "prl-pair",
        "silver-keys": "silver-k",
        "gold-keys": "gold-k",
        "l4-pearls": "l4-prls",
        "l3-pearls": "l3-prls",
    }.get(slug, slug[: CELL - 1])


def pyramid(chamber: Sequence[Any]) -> Text:
    """The chamber as an inverted pyramid of slots 1-15: one line per row, plus a line
    under a row naming the Locations that lie on its slots."""
    crests = crest_slots(chamber)
    lines: list[Text] = []
    slot = 0
    for r, width in enumerate(ROWS):
        indent = " " * (r * CELL // 2)
        top = Text(indent)
        bottom = Text(indent)
        covered = False
        for _ in range(width):
            cell = chamber[slot] if slot < len(chamber) else None
            if cell:
                label = lord_text(cell["lord"], slot in crests)
                label.pad_right(CELL - label.cell_len)
                top.append_text(label)
                loc = cell.get("location")
                below = Text(" " * CELL)
                if loc:
                    covered = True
                    short = short_location(loc)
                    if cell.get("face_down"):  # solo: the LO's face-down Location
                        short = "▼" + set_cell_size(short, CELL - 2).rstrip()
                    below = Text(short, style="reverse")
                    below.pad_right(CELL - below.cell_len)
                bottom.append_text(below)
            else:
                top.append(f"·{slot + 1}".ljust(CELL), style="dim")
                bottom.append(" " * CELL)
            slot += 1
        lines.append(top)
        if covered:
            lines.append(bottom)
    return Text("\n").join(lines)


def live_scores(game: Game, obs: Obs) -> list[dict[str, int]] | None:
    """Each seat's score by category, computed from ``obs`` with the engine's scoring
    (:func:`porphyra.games.conspiracy.live.live_scores`); ``None`` without card data."""
    from porphyra.games.conspiracy.live import live_scores as engine_live_scores

    cards = getattr(game, "cards", None)
    if cards is None:
        return None
    return engine_live_scores(cards, obs)


def lo_card(obs: Obs) -> RenderableType:
    """The Legendary Opponent's card (section 4.1): its conditions in the order they are
    checked, its end-game bonus and its permanent ability."""
    card = obs["legendary_opponent"]
    lines = [styled("bold", "Takes the first pile meeting, checked left to right:")]
    for i, cond in enumerate(card["conditions"], 1):
        lines.append(f"  {i}. [bold]{escape(cond['name'])}[/] {escape(term(cond['text']))}")
    lines.append(
        "  "
        + escape(
            tr("none: reveal deck lords until one's pile qualifies; empty deck: the largest pile")
        )
    )
    lines.append(styled("bold", "End-game bonus:") + f" {escape(term(card['bonus']))}")
    lines.append(styled("bold", "Ability:") + f" {escape(term(card['ability']))}")
    lines.append(
        styled(
            "dim",
            "Its Locations lie face down: no effect, 5 IP each.  You choose among equal "
            "piles (lopile) and the order of its lords (loplace).",
        )
    )
    title = tr("Legendary Opponent: {0}", term(card["title"]))
    return Panel("\n".join(lines), title=escape(title), expand=False)


def solo_status(obs: Obs) -> list[str]:
    """Header lines of a solo game: Replay token, forced draw, pending LO choice."""
    lines = [
        escape(tr("Replay token: "))
        + (
            styled("bold green", "held") + " " + escape(tr("(spend it at the end of a turn)"))
            if obs.get("replay_token")
            else "—"
        )
    ]
    if obs.get("forced_draw_one"):
        lines.append(styled("yellow", "The LO placed a Military lord: you must draw exactly 1."))
    choice = obs.get("lo_choice")
    if choice:
        piles = ", ".join(term(p) for p in choice["piles"])
        lines.append(
            styled("bold", "The LO takes one of: {0}", piles)
            + " "
            + escape(tr("({0}); you choose.", term(choice["reason"])))
        )
    return lines
