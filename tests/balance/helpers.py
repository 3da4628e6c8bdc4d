"""Shared fixtures of the balance lab's tests: a small campaign, a hand-made game's
statistics, an edited deck."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from porphyra.balance.campaign import Campaign
from porphyra.games.byzantium.cards import deck_path

SMALL = Campaign("byzantium", {"deck": "v1"}, (("random", "easy"),), 6, 3)


def hand_made_game(
    first: int, turns: list[list[int]], final: list[int], cards: dict[str, Any]
) -> dict[str, Any]:
    return {
        "returns": [1.0, -1.0],
        "first": first,
        "collapse": False,
        "end_turn": len(turns),
        "actions": 10,
        "final": {"tt": 10, "lt": final},
        "turns": [{"turn": i + 1, "tt": 10, "lt": lt} for i, lt in enumerate(turns)],
        "melds": [],
        "cards": cards,
    }


def edited_v3(tmp_path: Path, slug: str, force: int) -> Path:
    deck = json.loads(deck_path("v3").read_text())
    for card in deck["cards"]:
        if card["slug"] == slug:
            card["force"] = force
    deck["version"] = None
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(deck))
    return path
