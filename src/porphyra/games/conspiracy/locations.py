"""Keys and Locations of a Conspiracy position (rules section 3.3).

Two unspent silver or gold keys (any two with ``any-keys``) oblige the seat to take a
Location (the LO takes one automatically, face down: section 4.2, S-R2); with none left it
takes none (C-R8).  A taken Location covers the lord just placed and resolves its immediate
effect: pearls, a draw restriction (C-R7), reshuffles (with the state's generator, C-R12),
``any-keys`` or ``deck-search`` (C-R9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from porphyra.core.messages import Named
from porphyra.core.randomness import shuffle
from porphyra.games.conspiracy import solo
from porphyra.games.conspiracy.base import named
from porphyra.games.conspiracy.cards import KEY_GOLD, KEY_SILVER
from porphyra.games.conspiracy.legal import LegalMixin
from porphyra.games.conspiracy.tables import (
    LE_ANY_KEYS,
    LE_DECK_SEARCH,
    LE_PEARLS,
    LE_RESHUFFLE_LOCS,
    LE_RESHUFFLE_LORDS,
    LE_RESTRICT,
    LOCATION,
    LOCKEEP_PHASE,
)

if TYPE_CHECKING:
    from porphyra.games.conspiracy.state import ConspiracyState


class LocationsMixin(LegalMixin):
    """Key checks and Locations of :class:`~.state.ConspiracyState`.

    The mixins form one chain (``StateBase`` < ``LegalMixin`` < ``LocationsMixin`` <
    ``TurnMixin``): the engine is compiled with mypyc, whose native classes take single
    inheritance only."""

    def _run(self) -> None:
        """Continue the placements (:meth:`~.turn.TurnMixin._run`, which overrides this).

        Raises:
            NotImplementedError: always; a state is always a ``TurnMixin``.
        """
        raise NotImplementedError

    def unspent_keys(self, p: int) -> tuple[int, int]:
        """``(silver, gold)`` unspent keys of seat ``p``: keys in slots after the latest
        Location (section 3.3)."""
        ls = self.loc_slots[p]
        start = ls[-1] + 1 if ls else 0
        key = self.t.key
        silver = gold = 0
        for k in self.chambers[p][start:]:
            if key[k] == KEY_SILVER:
                silver += 1
            elif key[k] == KEY_GOLD:
                gold += 1
        return silver, gold

    def _key_check(self, kind: int) -> bool:
        if not self.t.key[kind]:
            return False
        p = self.current
        silver, gold = self.unspent_keys(p)
        if silver >= 2 or gold >= 2 or (self.any_keys[p] and silver + gold >= 2):
            if self.solo and p == solo.LO_SEAT:
                # section 4.2 step 4: automatic, face down
                solo.take_location(cast("ConspiracyState", self))
                return False
            if self.loc_deck or self.face_up:
                self.phase = LOCATION
                return True
            self._events.append("no Location is left to take (C-R8)")
        return False

    def _locdraw(self, n: int) -> None:
        k = min(n, len(self.loc_deck))  # C-R8
        drawn = [self.loc_deck.pop() for _ in range(k)]
        self._say(
            "draws {} Locations: {}" if k > 1 else "draws {} Location: {}",
            k,
            named(self.t.slug[i] for i in drawn),
        )
        if k == 1:
            self._acquire(drawn[0])
        else:
            self.drawn_locs = drawn
            self.phase = LOCKEEP_PHASE

    def _acquire(self, loc: int) -> None:
        """Put ``loc`` on the lord just placed and resolve its immediate effect."""
        p = self.current
        slot = len(self.chambers[p]) - 1
        self.locs[p].append(loc)
        self.loc_slots[p].append(slot)
        t = self.t
        self._events.append(
            ("Location {} covers slot {} of seat {}", (Named(t.slug[loc]), slot + 1, p))
        )
        le = t.le[loc]
        if le == LE_PEARLS:
            self._gain(p, t.le_amount[loc])
        elif le == LE_RESTRICT:  # C-R7: the newer replaces the older
            self.restr_owner, self.restr_count, self.restr_loc = p, t.le_amount[loc], loc
            self._events.append(
                (
                    "until seat {}'s next turn, opponents must draw exactly {}"
                    + (" (the LO is never restricted, section 4.2)" if self.solo else ""),
                    (p, t.le_amount[loc]),
                )
            )
        elif le == LE_RESHUFFLE_LORDS:
            for c, pile in enumerate(self.piles):
                self.deck.extend(pile)
                self.piles[c] = []
            shuffle(self._rng(), self.deck)
            self._events.append(
                ("discarded lords shuffled into the lord deck ({})", (len(self.deck),))
            )
        elif le == LE_RESHUFFLE_LOCS:
            self.loc_deck.extend(self.face_up)
            self.face_up = []
            shuffle(self._rng(), self.loc_deck)
            self._events.append(
                ("face-up Locations shuffled into the deck ({})", (len(self.loc_deck),))
            )
        elif le == LE_ANY_KEYS:
            self.any_keys[p] = True
        elif le == LE_DECK_SEARCH:
            self.deck_search[p] = True
        self._run()
