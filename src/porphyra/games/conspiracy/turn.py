"""The Conspiracy turn: applying actions, recruit, placement and the end of the game.

Rules sections 3.1 (recruit: C-R1, C-R4, C-R7), 3.2 (placement: C-R3 to C-R6, overflow),
3.5 and C-R2 (end of game); solo turns of the LO (section 4.2) and the Replay token
(section 4.3, S-R3, S-R4) hook in here, their logic lives in
:mod:`~porphyra.games.conspiracy.solo` and :mod:`~porphyra.games.conspiracy.replay_token`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, SupportsIndex, cast

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import Action
from porphyra.core.messages import Joined, Message, Named, Term, msg
from porphyra.games.conspiracy import replay_token, solo
from porphyra.games.conspiracy.base import named
from porphyra.games.conspiracy.cards import COLOURS, EFFECT_REVEAL, EFFECT_SWAP
from porphyra.games.conspiracy.chamber import SLOTS
from porphyra.games.conspiracy.locations import LocationsMixin
from porphyra.games.conspiracy.notation import (
    DRAW,
    KEEP,
    LOCDRAW,
    LOCKEEP,
    LOCPICK,
    LOCTAKE,
    LOPILE,
    LOPLACE,
    PLACE,
    REPLAY,
    SWAP,
    TAKE,
    ConspiracyAction,
)
from porphyra.games.conspiracy.tables import (
    KEEP_PHASE,
    LOPLACE_PHASE,
    OVER,
    PLACE_PHASE,
    RECRUIT,
    REPLAY_PHASE,
    SWAP_PHASE,
)

if TYPE_CHECKING:
    from porphyra.games.conspiracy.state import ConspiracyState


class TurnMixin(LocationsMixin):
    """``apply_action`` and the turn machinery of :class:`~.state.ConspiracyState`."""

    # ------------------------------------------------------------------------- applying
    def apply_action(self, action: Action, player: SupportsIndex | None = None) -> None:
        """Apply ``action`` of ``player`` (default and only choice: the current seat;
        Conspiracy is sequential), then every automatic step after it.

        Raises:
            IllegalActionError: ``action`` is not legal now or ``player`` does not decide
                now; nothing changes.
            SeatError: ``player`` is not a seat number, or not a seat of this game.
        """
        if player is not None and self._seat(player) != self.current_player():
            raise IllegalActionError(
                msg("not your turn: seat {0} decides now", self.current_player())
            )
        self.check_legal(action)
        assert isinstance(action, ConspiracyAction)
        self._offered = None
        self._history.append((self.current_player(), action))
        verb, a = action.verb, action.a
        if verb == DRAW:
            self._draw(a)
        elif verb == KEEP:
            self._keep(a)
        elif verb == TAKE:
            self._take(a)
        elif verb in (PLACE, LOPLACE):
            self.pending.remove(a)
            if not self._place(a):
                self._run()
        elif verb == LOPILE:
            solo.take(cast("ConspiracyState", self), a, self.lo_reason)
        elif verb == REPLAY:
            if a:
                self.replay_token = False
                self._events.append(
                    ("{} spends the Replay token: one extra turn at once (4.3)", (self.who[0],))
                )
                self._start_turn(0)
            else:
                self._events.append(("{} keeps the Replay token", (self.who[0],)))
                self._next_turn()
        elif verb == SWAP:
            self._swap(a, action.b)
        elif verb == LOCDRAW:
            self._locdraw(a)
        elif verb == LOCKEEP:
            rest = [i for i in self.drawn_locs if i != a]
            self.face_up.extend(rest)
            self.drawn_locs = []
            slug = self.t.slug
            self._say(
                "keeps Location {}; face up: {}", Named(slug[a]), named(slug[i] for i in rest)
            )
            self._acquire(a)
        elif verb == LOCTAKE:
            self.face_up.remove(a)
            self._say("takes the face-up Location {}", Named(self.t.slug[a]))
            self._acquire(a)
        elif verb == LOCPICK:  # C-R9
            self.loc_deck.remove(a)
            self._rng().shuffle(self.loc_deck)
            self._say("searches the Location deck, takes {}; deck shuffled", Named(self.t.slug[a]))
            self._acquire(a)

    def _start_turn(self, p: int) -> None:
        self.current = p
        self.phase = RECRUIT
        self.turn += 1
        self._events.append(("turn {}: {}", (self.turn, self.who[p])))
        if self.restr_owner == p:  # C-R7
            self._events.append(("the {} restriction ends", (Named(self.t.slug[self.restr_loc]),)))
            self.restr_owner = -1
        if not self.deck and not any(self.piles):  # C-R2: nobody can recruit
            self._events.append("no lord can be recruited by anyone: the game ends (C-R2)")
            self._finish()
        elif self.solo and p == solo.LO_SEAT:
            solo.start_turn(cast("ConspiracyState", self))
        elif self.force_draw:
            if self.deck:
                self._events.append(
                    (
                        "{} placed a red lord: {} must draw exactly 1 (S-R3)",
                        (self.who[solo.LO_SEAT], self.who[0]),
                    )
                )
            else:
                self._events.append(
                    ("the lord deck is empty: {}'s draw-1 lapses (C-R1)", (self.who[solo.LO_SEAT],))
                )

    def _end_turn(self) -> None:
        """End the current turn; solo: first offer the Replay token (section 4.3, S-R4)."""
        if (
            self.solo
            and self.current == 0
            and self.replay_token
            and len(self.chambers[0]) < SLOTS
            and self.end_trigger < 0
        ):
            self.phase = REPLAY_PHASE
            return
        self._next_turn()

    def _next_turn(self) -> None:
        nxt = (self.current + 1) % self.n
        if nxt == self.end_trigger:  # section 3.5: every other seat has played once more
            self._finish()
        else:
            self._start_turn(nxt)

    def _finish(self) -> None:
        self.phase = OVER
        sc = self.scores()
        totals = tuple(Message("{0} {1} IP", (self.who[p], s["total"])) for p, s in enumerate(sc))
        self._events.append(("game over: {}", (Joined("; ", totals),)))

    # --------------------------------------------------------------- recruit (3.1)
    def _draw(self, n: int) -> None:
        self.force_draw = False  # S-R3: spent by this recruit
        deck = self.deck
        drawn = [deck.pop() for _ in range(n)]
        self.drawn = drawn
        self._say("draws {}: {}", n, named(self.t.name[k] for k in drawn))
        if n == 1 or drawn.count(drawn[0]) == n:
            self._keep(drawn[0])
        else:
            self.phase = KEEP_PHASE

    def _keep(self, kind: int) -> None:
        """Keep ``kind``; the other drawn lords reach their piles first (C-R4)."""
        rest = list(self.drawn)
        rest.remove(kind)
        colour = self.t.colour
        for k in rest:
            self.piles[colour[k]].append(k)
        self.drawn = []
        name = self.t.name
        if rest:
            self._say("keeps {}; to the piles: {}", Named(name[kind]), named(name[k] for k in rest))
        else:
            self._say("keeps {}", Named(name[kind]))
        self.pending = [kind]
        self._run()

    def _take(self, c: int) -> None:
        self.force_draw = False  # lapsed with an empty deck (C-R1)
        pile = self.piles[c]
        self.piles[c] = []
        self.pending = pile
        self._say("takes the {} pile: {}", Term(COLOURS[c]), named(self.t.name[k] for k in pile))
        self._run()

    # ------------------------------------------------------------- placement (3.2)
    def run_placements(self) -> None:
        """Place the pending lords of the current seat (public alias of :meth:`_run`)."""
        self._run()

    def _run(self) -> None:
        """Place pending lords until a decision is needed, else end the turn (C-R5)."""
        ch = self.chambers[self.current]
        pending = self.pending
        while pending:
            if len(ch) >= SLOTS:  # overflow back to the piles (section 3.2)
                colour = self.t.colour
                for k in pending:
                    self.piles[colour[k]].append(k)
                name = self.t.name
                self._say(
                    "has a full chamber: back to the piles: {}", named(name[k] for k in pending)
                )
                pending.clear()
                break
            first = pending[0]
            if any(k != first for k in pending):
                lo_turn = self.solo and self.current == solo.LO_SEAT
                self.phase = LOPLACE_PHASE if lo_turn else PLACE_PHASE
                return
            kind = pending.pop()
            if self._place(kind):
                return
        self._end_turn()

    def _place(self, kind: int) -> bool:
        """Place ``kind`` in the next slot and resolve it (C-R4: pearls, then swap or
        reveal, then the key check).  Returns True when a decision is now pending."""
        p = self.current
        ch = self.chambers[p]
        ch.append(kind)
        t = self.t
        self._say("places {} in slot {}", Named(t.name[kind]), len(ch))
        if len(ch) == SLOTS and self.end_trigger < 0:
            self.end_trigger = p
            self._events.append(
                ("{} filled the chamber: every other seat plays one more turn", (self.who[p],))
            )
        lo = self.solo and p == solo.LO_SEAT
        if self.solo and not lo:
            self._replay_check([*range(len(ch) - 1), -1], ch[:-1], [len(ch) - 1])
        opp = self.opponent
        if (
            lo
            and opp.ability == "force-draw-one"
            and t.colour[kind] == COLOURS.index(opp.param("colour"))
        ):
            self.force_draw = True
            self._events.append(
                (
                    "{}'s ability: {} must draw exactly 1 lord on its next turn (S-R3)",
                    (Term(opp.name), self.who[0]),
                )
            )
        if t.pearls[kind]:
            self._gain(p, t.pearls[kind])
        effect = t.effect[kind]
        if lo and effect == EFFECT_SWAP:
            self._events.append("the LO's 0-IP lord has no effect (section 4.2)")
        elif effect == EFFECT_SWAP:
            if len(self._swappable()) >= 2:  # C-R6
                self.phase = SWAP_PHASE
                self.placed = kind
                return True
            self._events.append("fewer than two keyless lords: no swap (C-R6)")
        elif effect == EFFECT_REVEAL:
            if self.deck:
                top = self.deck.pop()
                self.piles[t.colour[top]].append(top)
                self._events.append(
                    (
                        "{} revealed onto the {} pile",
                        (Named(t.name[top]), Term(COLOURS[t.colour[top]])),
                    )
                )
            else:
                self._events.append("the lord deck is empty: no reveal (C-R3)")
        return self._key_check(kind)

    def _swap(self, i: int, j: int) -> None:
        ch = self.chambers[self.current]
        if i < 0:
            self._say("does not swap")
        else:
            before = ch[:]
            ch[i], ch[j] = ch[j], ch[i]
            name = self.t.name
            self._say(
                "swaps slots {} and {} ({} <-> {})",
                i + 1,
                j + 1,
                Named(name[ch[j]]),
                Named(name[ch[i]]),
            )
            if self.solo:
                origin = list(range(len(ch)))
                origin[i], origin[j] = j, i
                self._replay_check(origin, before, [i, j])
        if not self._key_check(self.placed):
            self._run()

    def _replay_check(self, origin: list[int], before: list[int], changed: list[int]) -> None:
        """Solo: the Replay token check (see :func:`replay_token.check`)."""
        replay_token.check(cast("ConspiracyState", self), origin, before, changed)
