"""``Game.card_data()``: one JSON-ready card listing per game, used by the terminal client
and the browser alike."""

from __future__ import annotations

import copy
import json

import pytest

import porphyra
from porphyra.cli.conspiracy_parts import location_effect
from porphyra.core.registry import registered_games
from porphyra.i18n.names import LOCATION_NAMES
from porphyra.server.gamedata import card_data


@pytest.mark.parametrize("name", registered_games())
def test_card_data_is_json_ready_and_served_as_is(name: str) -> None:
    """Served as the engine gives it, each Conspiracy Location with its name (the page
    never shows a slug, issue 29)."""
    data = porphyra.load_game(name).card_data()
    assert data and json.loads(json.dumps(data)) == data
    served = copy.deepcopy(card_data(name))  # the served data is cached: not changed here
    locations = served.get("locations", {})
    assert all(info.pop("name") == LOCATION_NAMES[slug] for slug, info in locations.items())
    assert served == data


def test_location_texts_come_from_the_card_data() -> None:
    game = porphyra.load_game("conspiracy", bonus_locations=True)
    locations = game.card_data()["locations"]
    assert len(locations) == 29
    for slug, card in locations.items():
        assert (card["text"] == "") == (card["effect"] == "none")
        assert location_effect(game, slug) == f"{card['ip']} IP" + (
            f"; {card['text']}" if card["text"] else ""
        )
    assert locations["draw-one"]["text"] == "others must draw exactly 1 until your turn"
    assert location_effect(game, "no-such-place") == "no-such-place"
