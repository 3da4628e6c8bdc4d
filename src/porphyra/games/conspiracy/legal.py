"""Legal actions of a Conspiracy position: generation and checking.

The order of the actions is fixed (see :meth:`LegalMixin.legal_actions`); recruit
restrictions come from Locations (C-R1, C-R7) and, in solo, Military's ability (S-R3); the
0-IP swap moves only keyless, uncovered lords (C-R6); ``deck-search`` replaces the Location
choice by a pick from the deck (C-R9).
"""

from __future__ import annotations

from typing import SupportsIndex

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import Action
from porphyra.core.messages import msg
from porphyra.core.seatarg import optional_seat_of
from porphyra.games.conspiracy.base import StateBase
from porphyra.games.conspiracy.notation import ConspiracyAction
from porphyra.games.conspiracy.tables import (
    KEEP_PHASE,
    LOCATION,
    LOPILE_PHASE,
    LOPLACE_PHASE,
    OVER,
    PHASES,
    PLACE_PHASE,
    RECRUIT,
    REPLAY_PHASE,
    SWAP_PHASE,
)


class LegalMixin(StateBase):
    """``legal_actions`` and ``check_legal`` of :class:`~.state.ConspiracyState`."""

    def legal_actions(self, player: SupportsIndex | None = None) -> list[ConspiracyAction]:
        """The legal actions of ``player`` (default: current) in a fixed order; [] off turn.

        Order: recruit ``draw 1..3`` then ``take`` by colour order; ``keep``/``place``/
        ``lockeep``/``locpick`` by card order; ``swap -`` then pairs by slot;
        ``locdraw 1..3`` then ``loctake`` by card order.  The list is the caller's own
        (changing it changes nothing here).

        Raises:
            SeatError: ``player`` is not a seat number, or not a seat of this game.
        """
        seat = optional_seat_of(player, len(self.chambers))
        if self.phase == OVER or (seat is not None and seat != self.current_player()):
            return []
        offered = self._options()
        self._offered = offered
        return offered[:]  # (the state trusts its own copy's actions by identity)

    def _options(self) -> list[ConspiracyAction]:
        """The current seat's legal actions (see :meth:`legal_actions`)."""
        phase = self.phase
        acts = self.acts
        if phase == RECRUIT:
            dl = len(self.deck)
            if 0 <= self.restr_owner != self.current and dl:
                return [acts.draw[min(self.restr_count, dl)]]  # C-R1, C-R7
            if self.force_draw and dl:  # S-R3: Military's ability (C-R1 lapses it)
                return [acts.draw[1]]
            out = acts.draw[1 : min(3, dl) + 1]
            take = acts.take
            for c, pile in enumerate(self.piles):
                if pile:
                    out.append(take[c])
            return out
        if phase == KEEP_PHASE:
            keep = acts.keep
            return [keep[k] for k in sorted(set(self.drawn))]
        if phase in (PLACE_PHASE, LOPLACE_PHASE):
            place = acts.place if phase == PLACE_PHASE else acts.loplace
            return [place[k] for k in sorted(set(self.pending))]
        if phase == LOPILE_PHASE:
            lopile = acts.lopile
            return [lopile[c] for c in self.lo_candidates]
        if phase == REPLAY_PHASE:
            return [acts.replay, acts.replay_none]
        if phase == SWAP_PHASE:
            free = self._swappable()
            swap = acts.swap
            out = [acts.swap_none]
            for x, i in enumerate(free):
                row = swap[i]
                out.extend(row[j] for j in free[x + 1 :])
            return out
        if phase == LOCATION:
            p = self.current
            if self.deck_search[p] and self.loc_deck:  # C-R9
                pick = acts.locpick
                return [pick[i] for i in sorted(self.loc_deck)]
            out = [] if self.deck_search[p] or not self.loc_deck else acts.locdraw[1:]
            take = acts.loctake
            out.extend(take[i] for i in sorted(self.face_up))
            return out
        lockeep = acts.lockeep
        return [lockeep[i] for i in sorted(self.drawn_locs)]

    def _swappable(self) -> list[int]:
        """0-based slots whose lord may move in a swap: keyless and uncovered (C-R6)."""
        key = self.t.key
        covered = self.loc_slots[self.current]
        return [
            i for i, k in enumerate(self.chambers[self.current]) if not key[k] and i not in covered
        ]

    def check_legal(self, action: Action) -> None:
        """Raise unless ``action`` is legal now, i.e. listed by :meth:`legal_actions`.

        An action object of the list this state handed out last (while nothing has changed
        since) is trusted by identity, without rebuilding the list; any other action, such
        as one parsed from text, is looked up in a fresh list.

        Raises:
            IllegalActionError: the game is over, or ``action`` is not among the legal
                actions of the pending decision (the message names the phase).
        """
        offered = self._offered
        if offered is not None:
            for listed in offered:
                if listed is action:
                    return
        if not isinstance(action, ConspiracyAction):
            raise IllegalActionError(
                msg(
                    "{0} is not a Conspiracy action (parse text with game.parse_action)",
                    repr(action),
                )
            )
        if self.phase == OVER:
            raise IllegalActionError(msg("{0}: the game is over", str(action)))
        legal = self._options()
        if action not in legal:
            shown = ", ".join(str(a) for a in legal[:8]) + (", ..." if len(legal) > 8 else "")
            raise IllegalActionError(
                msg(
                    "{0} is not legal now: seat {1} must decide '{2}' (legal: {3})",
                    str(action),
                    self.current_player(),
                    PHASES[self.phase],
                    shown,
                )
            )
