"""Card pictures in the balance report (issue 29): each Byzantium card row of a report
table starts with the card's picture, the same art as the browser's (see
:mod:`porphyra.server.cardart`), inlined so that the report stays one self-contained file.
"""

from __future__ import annotations

import html
import json
from functools import cache

from porphyra.games.byzantium.cards import default_cards_path
from porphyra.server.cardart import byzantium_thumbnail

#: Where Byzantium's shipped decks are (beside its default deck).
_DECKS = default_cards_path().parent


@cache
def _cards() -> dict[str, tuple[str, str]]:
    """Byzantium card slug → (name, type), over every deck version's file."""
    cards: dict[str, tuple[str, str]] = {}
    for path in sorted(_DECKS.glob("deck-v*.json")):
        for card in json.loads(path.read_text("utf-8"))["cards"]:
            cards[card["slug"]] = (card["name"], card["type"])
    return cards


def with_thumbnails(table_html: str) -> str:
    """``table_html`` (a report table whose rows start with a card's slug, or with its name
    in a sortable cell ``<td data-v="NAME">NAME</td>``) with the card's picture before each
    known card; other rows are left as they are."""
    for slug, (name, card_type) in _cards().items():
        for shown, cell in (
            (slug, f"<tr><td>{html.escape(slug)}</td>"),
            (name, f'<tr><td data-v="{html.escape(name)}">{html.escape(name)}</td>'),
        ):
            if cell in table_html:
                thumb = byzantium_thumbnail(slug, card_type, size=20)
                table_html = table_html.replace(
                    cell,
                    cell[: -len(html.escape(shown)) - 5]
                    + f'<span class="thumb">{thumb}</span> {html.escape(shown)}</td>',
                )
    return table_html
