"""The card art (issue 29): every card of both games has its picture in the sprite, the
sprite is what ``art.json`` and the vendored icons make, and the report's thumbnail is a
self-contained SVG."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from porphyra.server import cardart

BYZ_DATA = Path(cardart.__file__).parents[1] / "games" / "byzantium" / "data"
CONS_DATA = Path(cardart.__file__).parents[1] / "games" / "conspiracy" / "data"


def _byzantium_cards() -> dict[str, str]:
    """slug → type of every card of every Byzantium deck version."""
    cards: dict[str, str] = {}
    for path in sorted(BYZ_DATA.glob("deck-v*.json")):
        for card in json.loads(path.read_text("utf-8"))["cards"]:
            cards[card["slug"]] = card["type"]
    return cards


def test_every_byzantium_card_of_every_deck_version_has_its_own_motif() -> None:
    art = cardart.art_map()
    cards = _byzantium_cards()
    assert len(list(BYZ_DATA.glob("deck-v*.json"))) >= 3
    assert set(cards) <= set(art["motifs"]), set(cards) - set(art["motifs"])
    assert set(cards.values()) <= set(art["types"])
    # A motif tells a card kind at a glance: no two kinds of one type share a picture.
    for card_type in set(cards.values()):
        motifs = [art["motifs"][s] for s, t in cards.items() if t == card_type]
        assert len(motifs) == len(set(motifs)), card_type


def test_every_conspiracy_colour_location_and_opponent_has_a_picture() -> None:
    art = cardart.art_map()
    lords = json.loads((CONS_DATA / "lords.json").read_text("utf-8"))["lords"]
    assert {lord["colour"] for lord in lords} == set(art["colours"])
    locations = json.loads((CONS_DATA / "locations.json").read_text("utf-8"))["locations"]
    assert {loc["effect"] for loc in locations} <= set(art["locations"])
    opponents = json.loads((CONS_DATA / "legendary_opponents.json").read_text("utf-8"))
    for lo in opponents["opponents"]:
        assert art["legendary"][lo["name"]]["colour"] == lo["colour"]
    for piece in ("replay", "back-byzantium", "back-foe", "back-lord", "back-location"):
        assert piece in art["tokens"]


def test_the_sprite_holds_every_symbol_the_map_names_and_no_other() -> None:
    used = cardart.used_symbols(cardart.art_map())
    assert set(cardart.sprite_symbols()) == used
    drawn = cardart.symbols(cardart.DRAWN.read_text("utf-8"))
    for name in used:
        assert name.startswith("gi-") or name in drawn, name


def test_build_sprite_copies_only_the_named_icons_and_refuses_a_missing_one() -> None:
    art = {
        "types": {"Leader": {"icon": "gi-crown"}},
        "motifs": {"x": "gi-laurels"},
        "colours": {},
        "locations": {},
        "legendary": {},
        "tokens": {"back": "back-lord"},
    }
    icons: dict[str, Any] = {
        "width": 512,
        "height": 512,
        "icons": {
            "crown": {"body": '<path d="M1.23456 2"/>'},
            "laurels": {"body": "<circle r='3'/>"},
            "unused": {"body": "<rect/>"},
        },
    }
    sprite = cardart.build_sprite(icons, cardart.DRAWN.read_text("utf-8"), art)
    found = cardart.symbols(sprite)
    assert set(found) == {"gi-crown", "gi-laurels", "back-lord"}
    assert found["gi-crown"] == ("0 0 512 512", '<path d="M1.2 2"/>')
    del icons["icons"]["laurels"]
    with pytest.raises(KeyError):
        cardart.build_sprite(icons, cardart.DRAWN.read_text("utf-8"), art)


def test_a_byzantium_thumbnail_is_its_motif_on_its_type_colour() -> None:
    svg = cardart.byzantium_thumbnail("justinian-i", "Leader", size=20)
    leader = cardart.art_map()["types"]["Leader"]["colour"]
    assert svg.startswith("<svg") and 'width="20"' in svg and f'fill="{leader}"' in svg
    body = cardart.sprite_symbols()[cardart.art_map()["motifs"]["justinian-i"]][1]
    assert body.replace('fill="currentColor"', 'fill="#fff"') in svg
    assert "<use" not in svg and not re.search(r"href=", svg)  # no reference outside itself
    with pytest.raises(KeyError):
        cardart.byzantium_thumbnail("justinian-i", "Wizard")


def test_the_balance_reports_card_rows_start_with_the_cards_picture() -> None:
    from porphyra.balance import report
    from porphyra.balance.cardthumbs import with_thumbnails

    table = report._table([["huns", 3], ["no-such-card", 1], ["sum", 4]], ["card", "melded"])
    shown = with_thumbnails(table)
    huns = cardart.byzantium_thumbnail("huns", "Northern Foe", size=20)
    assert f'<tr><td><span class="thumb">{huns}</span> huns</td><td>3</td></tr>' in shown
    assert "<tr><td>no-such-card</td><td>1</td></tr>" in shown
    assert shown.count("<svg") == 1


def test_the_licence_file_names_every_vendored_icon() -> None:
    licence = (cardart.ART_DIR / "LICENSE.md").read_text("utf-8")
    vendored = sorted(name[3:] for name in cardart.sprite_symbols() if name.startswith("gi-"))
    listed = re.findall(r"^- `([a-z0-9-]+)`$", licence, re.M)
    assert listed == vendored
    assert f"The icons used ({len(vendored)})" in licence and "CC BY 3.0" in licence
