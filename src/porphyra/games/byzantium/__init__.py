"""Byzantium: a 2-player card game of the Byzantine Empire and its Foes (rules:
``shared/rules/byzantium.md``; the default card set is designed for this project)."""

from porphyra.games.byzantium.actions import ByzantiumAction
from porphyra.games.byzantium.cards import Card, CardSet, load_cards
from porphyra.games.byzantium.game import ByzantiumGame
from porphyra.games.byzantium.state import ByzantiumState

__all__ = ["ByzantiumAction", "ByzantiumGame", "ByzantiumState", "Card", "CardSet", "load_cards"]
