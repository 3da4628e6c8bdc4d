"""Scenario builders for the Byzantium rule tests."""

from __future__ import annotations

from typing import Any

import porphyra
from porphyra.core.registry import load_game_version
from porphyra.games.byzantium import ByzantiumGame, ByzantiumState


def new_state(seed: int = 1, **options: Any) -> ByzantiumState:
    """A fresh state; the rule tests play deck ``v1`` (their forces are v1's) unless the
    options name a deck, a card file or an old rules version."""
    version = options.pop("version", None)
    if not {"deck", "cards"} & set(options) and version is None:
        options = {**options, "deck": "v1"}
    game = (
        porphyra.load_game("byzantium", **options)
        if version is None
        else load_game_version("byzantium", version, options)
    )
    assert isinstance(game, ByzantiumGame)
    return game.new_initial_state(seed=seed)


def kinds(state: ByzantiumState, *slugs: str) -> list[int]:
    return sorted(state.card(s).index for s in slugs)


def act(state: ByzantiumState, text: str) -> None:
    state.apply_action(state.game.parse_action(state, text))


def set_hands(state: ByzantiumState, byz: list[str], foe: list[str]) -> None:
    """Replace both hands (Byzantine = the Emperor's) at the start of the Redraw phase."""
    state.hands[state.emperor] = kinds(state, *byz)
    state.hands[state.foe] = kinds(state, *foe)


def to_meld(state: ByzantiumState, byz: list[str], foe: list[str]) -> None:
    """Set both hands, skip the redraws: the Emperor's meld decision is next."""
    set_hands(state, byz, foe)
    act(state, "redraw -")
    act(state, "redraw -")
    assert state.phase == "meld_byz"


def meld(state: ByzantiumState, byz: str, foe: str) -> None:
    act(state, f"meld {byz}")
    act(state, f"meld {foe}")
