"""Byzantium's cards in words at the terminal: names with their slugs, flags, Ages, and
the ``porphyra cards`` tables (deck by deck, with the totals per Age)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rich import box
from rich.console import RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from porphyra.cli.lang import language, term, tr
from porphyra.core.game import Game

#: The Ages in words (the data's letters are never shown).
AGE_WORD = {"E": "early", "M": "middle", "L": "late"}
#: Each deck's colour.
DECK_STYLE = {"byzantine": "bold magenta", "foe": "bold red"}


def card_tables(game: Game) -> list[RenderableType]:
    """``porphyra cards byzantium``: the card set's name and design notes, one table per
    deck, then the totals per deck and age (entry age; "all" for cards usable in every
    age), in the terminal's language.

    Args:
        game: a loaded Byzantium game (its ``cards()`` and ``cardset``).
    """
    all_cards = list(getattr(game, "cards")())  # noqa: B009 - not in the Game ABC
    cardset = getattr(game, "cardset", None)
    out: list[RenderableType] = []
    if cardset is not None:
        deck = f" (--deck {cardset.version})" if cardset.version else ""
        out.append(Text(f"{term(cardset.name)}{deck}", style="bold"))
        if cardset.about:
            # The provenance is design history written in English: labelled as such
            # where the terminal speaks another language (docs/i18n.md).
            if language() != "en":
                out.append(Text(tr("Design notes (in English):"), style="dim italic"))
            out.append(Text(cardset.about, style="dim"))
    totals: dict[str, Counter[str]] = {}
    for deck in ("byzantine", "foe"):
        table = Table(
            title=tr("{0} deck", term(deck)),
            box=box.SIMPLE_HEAD,
            title_style=DECK_STYLE[deck],
            pad_edge=False,
        )
        table.add_column(tr("card (slug)"), overflow="fold")
        table.add_column(tr("type"), no_wrap=True)
        table.add_column(tr("force"), justify="right", no_wrap=True)
        table.add_column(tr("ages"), no_wrap=True)
        table.add_column(tr("notes"), max_width=7, overflow="fold")  # room for the slugs
        table.add_column(tr("qty"), justify="right", no_wrap=True)
        counts: Counter[str] = Counter()
        for card in all_cards:
            if card.deck != deck:
                continue
            counts[age_bucket(card)] += card.copies
            table.add_row(
                card_label(card, always_slug=True),
                term(card.type),
                str(card.force),
                ages_text(card.ages).replace("–", "\n"),  # narrow: one Age a line
                card_notes(card),
                str(card.copies),
            )
        totals[deck] = counts
        out.append(table)
    out.append(
        Text(
            tr(
                "In actions, name a card by its slug, shown in brackets where it differs "
                "from the name (Rus' → rus), or by its number in your hand.  At the prompt "
                "a name as printed works too: 'meld Basil II, Rus''."
            ),
            style="dim",
        )
    )
    summary = Table(title=tr("Totals (cards, by the age they enter)"), box=box.ROUNDED)
    columns = (tr("deck"), tr("all Ages"), term("Early"), term("Middle"), term("Late"))
    for i, col in enumerate((*columns, tr("total"))):
        summary.add_column(col, justify="left" if i == 0 else "right")
    for deck, counts in totals.items():
        summary.add_row(
            term(deck.capitalize()),
            *(str(counts[b]) for b in ("all", "E", "M", "L")),
            str(sum(counts.values())),
        )
    out.append(summary)
    return out


def ages_text(ages: str) -> str:
    """A card's Ages (``all``, ``E``, ``M-L``...) in words of the terminal's language
    (``middle–late``, ``中期–後期``), never the data's letters."""
    if ages == "all":
        return tr("all")
    return "–".join(term(AGE_WORD.get(a, a)) for a in ages.split("-"))


def slugify(name: str) -> str:
    """The slug a name would get by the notation's convention (``Basil II`` → ``basil-ii``)."""
    return "-".join("".join(ch if ch.isalnum() else " " for ch in name.lower()).split())


def card_label(card: Any, always_slug: bool = False) -> str:
    """The card's name, plus its slug in brackets when the slug is not the obvious one
    (``always_slug``: whenever it differs from the lower-case name, as ``cards`` lists)."""
    label = escape(term(card.name))
    differs = card.name.lower() != card.slug if always_slug else slugify(card.name) != card.slug
    differs = differs or term(card.name) != card.name  # translated: the slug is the notation
    if differs:
        label += ("\n" if always_slug else " ") + f"[dim]({card.slug})[/]"
    return label


def card_notes(card: Any) -> str:
    """``"unique, +2 LT"``, ``"natural"``…: the card's flags in words."""
    notes = []
    if card.unique:
        notes.append(tr("unique"))
    if getattr(card, "legacy", 0):
        notes.append(f"+{card.legacy} LT")
    if getattr(card, "natural", False):
        notes.append(term("natural"))
    return ", ".join(notes)


def age_bucket(card: Any) -> str:
    """``"all"`` for a card usable in every age, else the letter of its entry age."""
    if card.ages == "all":
        return "all"
    first = card.first_age
    if isinstance(first, int):
        return "EML"[first]
    return str(first)[:1].upper()
