"""The deck zones of a Byzantium state: seeded shuffles, drawing (with the reshuffle of an
empty draw pile [page] and the B-R1 replacement of unusable draws) and discarding (with the
removal of cards from past ages, section 3 phase 2).

Zones hold card kinds (``Card.index``); deck 0 is the Byzantine deck, deck 1 the Foe deck.
A draw pile's top card is the last element of its list.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from porphyra.core.messages import Term
from porphyra.core.randomness import shuffle as shuffle_with
from porphyra.games.byzantium.cards import Cards
from porphyra.games.byzantium.rules import DECK_NAMES, PUBLIC

if TYPE_CHECKING:
    from porphyra.games.byzantium.state import ByzantiumState


def shuffle(s: ByzantiumState, cards: list[int]) -> None:
    """Shuffle ``cards`` in place with the state's seeded generator (one event each)."""
    s._shuffles += 1
    shuffle_with(random.Random(s._rng_key * 1_000_003 + s._shuffles), cards)


def draw_one(s: ByzantiumState, deck: int) -> int | None:
    """Top card of ``deck``'s draw pile, reshuffling its discard pile if empty [page]."""
    pile = s.draw[deck]
    if not pile:
        if not s.discard[deck]:
            return None
        pile.extend(s.discard[deck])
        s.discard[deck].clear()
        shuffle(s, pile)
        s._log(
            PUBLIC,
            "The {} draw pile ran out: its discard pile ({} cards) was shuffled into a "
            "new draw pile.",
            Term(DECK_NAMES[deck]),
            len(pile),
        )
    return pile.pop()


def discard_card(s: ByzantiumState, deck: int, kind: int) -> bool:
    """Discard ``kind``; a card whose ages all lie before the current age is removed
    from the game instead (section 3 phase 2).  Returns True if removed."""
    if s._cs.cards[kind].last_age < s.age:
        s.removed.append(kind)
        return True
    s.discard[deck].append(kind)
    return False


def draw(s: ByzantiumState, seat: int, n: int, usable_only: bool) -> list[int]:
    """Draw ``n`` cards into ``seat``'s hand from its role's deck.

    With ``usable_only`` (after the Age phase, B-R1) an unusable card drawn is discarded
    or removed at once and replaced.  Returns the kinds kept.
    """
    deck = s._deck_of_seat(seat)
    pile = s.draw[deck]
    usable = s.game.usable_in_age[s.age]
    if n <= len(pile):  # the usual case: the top n cards, each usable (or no check)
        kept = pile[len(pile) - n :]
        kept.reverse()  # drawn one by one from the top
        if not usable_only or all([usable[k] for k in kept]):
            del pile[len(pile) - n :]
            if kept:
                hand = s.hands[seat]
                hand.extend(kept)
                hand.sort()
            return kept
    kept = []
    dropped: list[int] = []
    while len(kept) < n:
        kind = pile.pop() if pile else draw_one(s, deck)
        if kind is None:
            break
        if usable_only and not usable[kind]:
            discard_card(s, deck, kind)
            dropped.append(kind)
            continue
        kept.append(kind)
    if kept:
        hand = s.hands[seat]
        hand.extend(kept)
        hand.sort()
    if dropped:
        s._log(
            PUBLIC,
            "Seat {} drew unusable {}: discarded and replaced at once (B-R1).",
            seat,
            Cards(dropped),
        )
    if len(kept) < n:
        s._log(
            PUBLIC,
            "The {} deck is exhausted: seat {} drew {} of {}.",
            Term(DECK_NAMES[deck]),
            seat,
            len(kept),
            n,
        )
    return kept
