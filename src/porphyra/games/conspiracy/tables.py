"""Phase codes, Location-effect codes and per-card lookup tables of the Conspiracy state.

Shared by the modules of the state machine (:mod:`porphyra.games.conspiracy.state`, which
documents the phases, and its parts ``base``, ``legal``, ``locations`` and ``turn``).
"""

from __future__ import annotations

import functools

from porphyra.games.conspiracy.cards import CardSet

RECRUIT, KEEP_PHASE, PLACE_PHASE, SWAP_PHASE, LOCATION, LOCKEEP_PHASE, OVER = range(7)
LOPILE_PHASE, LOPLACE_PHASE, REPLAY_PHASE = 7, 8, 9
PHASES = (
    "recruit",
    "keep",
    "place",
    "swap",
    "location",
    "lockeep",
    "over",
    "lopile",
    "loplace",
    "replay",
)

# Location effects that act when the Location is taken (the others score at the end).
LE_NONE, LE_PEARLS, LE_RESTRICT, LE_RESHUFFLE_LORDS, LE_RESHUFFLE_LOCS = range(5)
LE_ANY_KEYS, LE_DECK_SEARCH = 5, 6
_LE_CODES = {
    "pearls": LE_PEARLS,
    "restrict-draw": LE_RESTRICT,
    "reshuffle-lords": LE_RESHUFFLE_LORDS,
    "reshuffle-locations": LE_RESHUFFLE_LOCS,
    "any-keys": LE_ANY_KEYS,
    "deck-search": LE_DECK_SEARCH,
}


class Tables:
    """Per-kind and per-Location lookup tuples of a card set, for the hot paths."""

    def __init__(self, cards: CardSet) -> None:
        lords = cards.lords
        self.colour = tuple(k.colour for k in lords)
        self.ip = tuple(k.ip for k in lords)
        self.key = tuple(k.key for k in lords)
        self.pearls = tuple(k.pearls for k in lords)
        self.effect = tuple(k.effect for k in lords)
        self.name = tuple(k.name for k in lords)
        locs = cards.locations
        self.slug = tuple(c.slug for c in locs)
        self.le = tuple(_LE_CODES.get(c.effect, LE_NONE) for c in locs)
        self.le_amount = tuple(
            c.param("amount") if c.effect == "pearls" else dict(c.params).get("count", 0)
            for c in locs
        )


@functools.cache
def tables(cards: CardSet) -> Tables:
    """The shared :class:`Tables` of ``cards``."""
    return Tables(cards)
