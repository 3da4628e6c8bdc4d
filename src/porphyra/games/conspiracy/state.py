"""The Conspiracy state machine (rules sections 2, 3 and 5).

A turn is a sequence of decisions of the same seat; the phase says which one is pending:

``recruit``  ``draw 1-3`` (section 3.1 A) or ``take <colour>`` (B); ``draw-one`` /
             ``draw-two`` restrict to exactly that draw (C-R1, C-R7).
``keep``     ``keep <lord>`` among the drawn lords.
``place``    ``place <lord>``: the next lord of a taken pile (C-R5).
``swap``     ``swap i j`` / ``swap -`` after a 0-IP lord (C-R6).
``location`` ``locdraw 1-3`` / ``loctake <slug>``, or ``locpick <slug>`` with deck-search
             (section 3.3, C-R8, C-R9).
``lockeep``  ``lockeep <slug>`` among the drawn Locations.
``lopile``   solo: ``lopile <colour>``, the pile the LO takes among equals (section 4.2).
``loplace``  solo: ``loplace <lord>``, the next lord the LO places (section 4.2, C-R5).
``replay``   solo: ``replay`` / ``replay -`` at the end of your turn (section 4.3).

Automatic steps (no decision is asked): keeping the only distinct drawn lord (one drawn, or
all drawn identical); placing pile lords once only one distinct lord is left (C-R5); the
swap when fewer than two keyless lords exist (C-R6); keeping a single drawn Location;
taking no Location when none is left (C-R8); passing / ending when no lord can be recruited
(C-R2).  Every other decision is asked even when it has one option (e.g. ``draw 1`` under
``draw-one``), so that the record shows it.

Decks are lists whose *end* is the top.  Randomness: the initial shuffles and first player
come from ``random.Random(seed)``; every later shuffle (reshuffles, deck-search) uses a
fresh ``random.Random`` seeded from ``(rng_base, rng_counter)``, so ``clone()`` copies two
integers and ``resample`` reseeds the future by replacing ``rng_base`` (C-R12).

Solo (section 4, :mod:`porphyra.games.conspiracy.solo`): the Legendary Opponent is seat 1
of the per-seat lists; ``current`` is the seat whose turn it is, while
``current_player()`` is always 0 (the human decides ``lopile`` / ``loplace`` during the
LO's turn).  The LO's turn starts in ``_start_turn``; its placements use the same code with
the LO's differences (0-IP lord inert, automatic face-down Locations, Military's flag); the
Replay token is checked after each of your placements and swaps and offered in
``_end_turn`` (:mod:`porphyra.games.conspiracy.replay_token`).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import TERMINAL_PLAYER, Action, JSONDict, State
from porphyra.games.conspiracy import replay_token, solo, view
from porphyra.games.conspiracy.cards import (
    COLOURS,
    EFFECT_REVEAL,
    EFFECT_SWAP,
    KEY_GOLD,
    KEY_SILVER,
    CardSet,
)
from porphyra.games.conspiracy.chamber import SLOTS
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
    action_table,
)
from porphyra.games.conspiracy.scoring import ScoreDict, returns_for, score_player

if TYPE_CHECKING:
    from porphyra.games.conspiracy.game import ConspiracyGame

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


class ConspiracyState(State):
    """A Conspiracy position (see the module docstring for phases and automation).

    Per seat (lists indexed by seat): ``chambers`` (lord kinds by slot), ``locs`` (Location
    ids in order taken), ``loc_slots`` (0-based slot of each), ``pearls``, ``any_keys``,
    ``deck_search``.  Shared: ``deck`` and ``loc_deck`` (hidden order, top = end),
    ``piles`` (per colour, arrival order), ``face_up`` Locations, ``pm`` (Pearl Master seat
    or -1), the restriction (``restr_owner``/``restr_count``/``restr_loc``), ``end_trigger``
    (seat that filled its chamber first, or -1).

    Solo (section 4): ``opponent`` (the LO card), ``lo_candidates``/``lo_reason`` (a
    pending ``lopile``), ``lo_hidden`` (per LO Location: identity unseen, S-R2),
    ``replay_token`` (held by you), ``force_draw`` (Military's ability pending, S-R3).
    """

    game: ConspiracyGame

    def __init__(self, game: ConspiracyGame) -> None:
        self.game = game
        self.cards = game.cards
        self.t = tables(game.cards)
        self.acts = action_table(game.cards)
        self.n = game.seats
        self.solo = game.solo
        self.who = ["seat 0", "the LO"] if self.solo else [f"seat {p}" for p in range(self.n)]
        self.opponent: solo.Opponent = game.opponents[max(game.opponent, 0)]
        self.lo_candidates: list[int] = []
        self.lo_reason = ""
        self.lo_hidden: list[bool] = []
        self.replay_token = False
        self.force_draw = False
        self._seed = 0
        self.deck: list[int] = []
        self.loc_deck: list[int] = []
        self.piles: list[list[int]] = [[] for _ in COLOURS]
        self.face_up: list[int] = []
        self.chambers: list[list[int]] = [[] for _ in range(self.n)]
        self.locs: list[list[int]] = [[] for _ in range(self.n)]
        self.loc_slots: list[list[int]] = [[] for _ in range(self.n)]
        self.pearls = [0] * self.n
        self.any_keys = [False] * self.n
        self.deck_search = [False] * self.n
        self.pm = -1
        self.current = 0
        self.first = 0
        self.turn = 0
        self.phase = RECRUIT
        self.drawn: list[int] = []
        self.pending: list[int] = []
        self.drawn_locs: list[int] = []
        self.placed = -1
        self.restr_owner = -1
        self.restr_count = 0
        self.restr_loc = -1
        self.end_trigger = -1
        self.rng_base = 0
        self.rng_counter = 0
        self._history: list[tuple[int, Action]] = []
        self.log: list[str] = []

    # ----------------------------------------------------------------- setup (section 2)
    @classmethod
    def initial(cls, game: ConspiracyGame, seed: int) -> ConspiracyState:
        """Section 2: shuffle both decks (``stacked`` cards on top), turn one Location face
        up, pick the first player (option or seeded draw)."""
        s = cls(game)
        s._seed = seed
        # random.Random ignores an int seed's sign; negative seeds are seeded by their text
        # so that n and -n are different games (non-negative seeds are unchanged).
        rng = random.Random(seed if seed >= 0 else str(seed))
        deck = [k for k, lord in enumerate(game.cards.lords) for _ in range(lord.copies)]
        rng.shuffle(deck)
        for kind in game.stacked_lords:
            deck.remove(kind)
        deck.extend(reversed(game.stacked_lords))
        loc_deck = list(game.location_ids)
        rng.shuffle(loc_deck)
        for loc in game.stacked_locations:
            loc_deck.remove(loc)
        loc_deck.extend(reversed(game.stacked_locations))
        if s.solo:  # C-R15: you start; the LO card is the option's or drawn (section 4)
            first = 0
            if game.opponent < 0:
                s.opponent = game.opponents[rng.randrange(len(game.opponents))]
            s.any_keys[solo.LO_SEAT] = s.opponent.ability == "any-keys"
        else:
            first = rng.randrange(s.n) if game.first_player is None else game.first_player
        s.rng_base = rng.getrandbits(64)
        s.deck, s.loc_deck = deck, loc_deck
        s.face_up = [loc_deck.pop()]
        s.first = first
        s.log.append(f"setup: Location {s.t.slug[s.face_up[0]]} face up; seat {first} starts")
        if s.solo:
            opp = s.opponent
            s.log.append(
                f"solo against the Legendary Opponent {opp.name} (the LO, seat 1): conditions "
                f"{', '.join(opp.conditions)}; bonus: {opp.bonus_text}; ability: "
                f"{opp.ability_text}"
            )
        s._start_turn(first)
        return s

    # ------------------------------------------------------------------ contract basics
    @property
    def seed(self) -> int:
        return self._seed

    @property
    def history(self) -> list[tuple[int, Action]]:
        return self._history

    def current_player(self) -> int:
        """The deciding seat: ``current``, or 0 in solo (S-R5); terminal at the end."""
        if self.phase == OVER:
            return TERMINAL_PLAYER
        return 0 if self.solo else self.current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """The pending decision: one of :data:`PHASES`."""
        return PHASES[self.phase]

    def scores(self) -> list[ScoreDict]:
        """Per seat ``{"lords", "locations", "coalition", "pearl_master", "total",
        "pearls"}`` in IP (pearls: count), final once terminal (section 3.5).

        Solo: two entries, you then the LO; the LO's ``locations`` are its face-down
        Locations at 5 IP each (no end-game effect) and its dict adds ``lo_bonus`` (its
        card's bonus, section 4.1), included in ``total``."""
        out = [
            score_player(self.cards, self.chambers[p], self.locs[p], self.pearls[p], self.pm == p)
            for p in range(self.n)
        ]
        if self.solo:
            out[solo.LO_SEAT] = solo.score(self)
        return out

    def returns(self) -> list[float]:
        """Winners +1, others -1, all 0 if every seat shares the victory (C-R11); zeros
        before the end.  Solo: ``[r]`` for you alone (+1 win, -1 loss, 0 shared; the LO
        counts for the tie-break, C-R16)."""
        if self.phase != OVER:
            return [0.0] * self.game.num_players
        result = returns_for(self.scores())
        return result[:1] if self.solo else result

    # ------------------------------------------------------------------- legal actions
    def legal_actions(self, player: int | None = None) -> list[ConspiracyAction]:
        """The legal actions of ``player`` (default: current) in a fixed order; [] off turn.

        Order: recruit ``draw 1..3`` then ``take`` by colour order; ``keep``/``place``/
        ``lockeep``/``locpick`` by card order; ``swap -`` then pairs by slot;
        ``locdraw 1..3`` then ``loctake`` by card order.
        """
        phase = self.phase
        if phase == OVER or (player is not None and player != self.current_player()):
            return []
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
        """Raise unless ``action`` is legal now.

        Raises:
            IllegalActionError: the game is over, or ``action`` is not among the legal
                actions of the pending decision (the message names the phase).
        """
        if not isinstance(action, ConspiracyAction):
            raise IllegalActionError(
                f"{action!r} is not a Conspiracy action (parse text with game.parse_action)"
            )
        if self.phase == OVER:
            raise IllegalActionError(f"{action}: the game is over")
        legal = self.legal_actions()
        if action not in legal:
            offered = ", ".join(str(a) for a in legal[:8]) + (", ..." if len(legal) > 8 else "")
            raise IllegalActionError(
                f"{action} is not legal now: seat {self.current_player()} must decide "
                f"'{PHASES[self.phase]}' (legal: {offered})"
            )

    # ------------------------------------------------------------------------- applying
    def apply_action(self, action: Action) -> None:
        """Apply the current seat's ``action``, then every automatic step after it.

        Raises:
            IllegalActionError: ``action`` is not legal now; nothing changes.
        """
        self.check_legal(action)
        assert isinstance(action, ConspiracyAction)
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
            solo.take(self, a, self.lo_reason)
        elif verb == REPLAY:
            if a:
                self.replay_token = False
                self.log.append("seat 0 spends the Replay token: one extra turn at once (4.3)")
                self._start_turn(0)
            else:
                self.log.append("seat 0 keeps the Replay token")
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
            self._say(f"keeps Location {slug[a]}; face up: {', '.join(slug[i] for i in rest)}")
            self._acquire(a)
        elif verb == LOCTAKE:
            self.face_up.remove(a)
            self._say(f"takes the face-up Location {self.t.slug[a]}")
            self._acquire(a)
        elif verb == LOCPICK:  # C-R9
            self.loc_deck.remove(a)
            self._rng().shuffle(self.loc_deck)
            self._say(f"searches the Location deck, takes {self.t.slug[a]}; deck shuffled")
            self._acquire(a)

    def _say(self, text: str) -> None:
        self.log.append(f"{self.who[self.current]} {text}")

    def draw_rng(self) -> random.Random:
        """A fresh generator for one random event (public alias of :meth:`_rng`)."""
        return self._rng()

    def _rng(self) -> random.Random:
        self.rng_counter += 1
        return random.Random((self.rng_base << 24) + self.rng_counter)

    def _start_turn(self, p: int) -> None:
        self.current = p
        self.phase = RECRUIT
        self.turn += 1
        self.log.append(f"turn {self.turn}: {self.who[p]}")
        if self.restr_owner == p:  # C-R7
            self.log.append(f"the {self.t.slug[self.restr_loc]} restriction ends")
            self.restr_owner = -1
        if not self.deck and not any(self.piles):  # C-R2: nobody can recruit
            self.log.append("no lord can be recruited by anyone: the game ends (C-R2)")
            self._finish()
        elif self.solo and p == solo.LO_SEAT:
            solo.start_turn(self)
        elif self.force_draw:
            if self.deck:
                self.log.append("the LO placed a red lord: seat 0 must draw exactly 1 (S-R3)")
            else:
                self.log.append("the lord deck is empty: the LO's draw-1 lapses (C-R1)")

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
        self.log.append(
            "game over: " + "; ".join(f"{self.who[p]} {s['total']} IP" for p, s in enumerate(sc))
        )

    # --------------------------------------------------------------- recruit (3.1)
    def _draw(self, n: int) -> None:
        self.force_draw = False  # S-R3: spent by this recruit
        deck = self.deck
        drawn = [deck.pop() for _ in range(n)]
        self.drawn = drawn
        self._say(f"draws {n}: {', '.join(self.t.name[k] for k in drawn)}")
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
        tail = f"; to the piles: {', '.join(name[k] for k in rest)}" if rest else ""
        self._say(f"keeps {name[kind]}{tail}")
        self.pending = [kind]
        self._run()

    def _take(self, c: int) -> None:
        self.force_draw = False  # lapsed with an empty deck (C-R1)
        pile = self.piles[c]
        self.piles[c] = []
        self.pending = pile
        self._say(f"takes the {COLOURS[c]} pile: {', '.join(self.t.name[k] for k in pile)}")
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
                    f"has a full chamber: back to the piles: {', '.join(name[k] for k in pending)}"
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
        self._say(f"places {t.name[kind]} in slot {len(ch)}")
        if len(ch) == SLOTS and self.end_trigger < 0:
            self.end_trigger = p
            self.log.append(
                f"{self.who[p]} filled the chamber: every other seat plays one more turn"
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
            self.log.append(
                f"{opp.name}'s ability: seat 0 must draw exactly 1 lord on its next turn (S-R3)"
            )
        if t.pearls[kind]:
            self._gain(p, t.pearls[kind])
        effect = t.effect[kind]
        if lo and effect == EFFECT_SWAP:
            self.log.append("the LO's 0-IP lord has no effect (section 4.2)")
        elif effect == EFFECT_SWAP:
            if len(self._swappable()) >= 2:  # C-R6
                self.phase = SWAP_PHASE
                self.placed = kind
                return True
            self.log.append("fewer than two keyless lords: no swap (C-R6)")
        elif effect == EFFECT_REVEAL:
            if self.deck:
                top = self.deck.pop()
                self.piles[t.colour[top]].append(top)
                self.log.append(f"{t.name[top]} revealed onto the {COLOURS[t.colour[top]]} pile")
            else:
                self.log.append("the lord deck is empty: no reveal (C-R3)")
        return self._key_check(kind)

    def _swap(self, i: int, j: int) -> None:
        ch = self.chambers[self.current]
        if i < 0:
            self._say("does not swap")
        else:
            before = ch[:]
            ch[i], ch[j] = ch[j], ch[i]
            name = self.t.name
            self._say(f"swaps slots {i + 1} and {j + 1} ({name[ch[j]]} <-> {name[ch[i]]})")
            if self.solo:
                origin = list(range(len(ch)))
                origin[i], origin[j] = j, i
                self._replay_check(origin, before, [i, j])
        if not self._key_check(self.placed):
            self._run()

    def _replay_check(self, origin: list[int], before: list[int], changed: list[int]) -> None:
        """Solo: the Replay token check (see :func:`replay_token.check`)."""
        replay_token.check(self, origin, before, changed)

    def _gain(self, p: int, n: int) -> None:
        """Gain ``n`` pearls; the Pearl Master moves on a tie too (section 3.4, C-R10)."""
        self.pearls[p] += n
        who = self.who[p]
        self.log.append(f"{who} gains {n} pearl{'s' if n > 1 else ''} (now {self.pearls[p]})")
        pm = self.pm
        if pm != p and (pm < 0 or self.pearls[p] >= self.pearls[pm]):
            self.pm = p
            self.log.append(f"{who} takes the Pearl Master token")

    # --------------------------------------------------------------- Locations (3.3)
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
                solo.take_location(self)  # section 4.2 step 4: automatic, face down
                return False
            if self.loc_deck or self.face_up:
                self.phase = LOCATION
                return True
            self.log.append("no Location is left to take (C-R8)")
        return False

    def _locdraw(self, n: int) -> None:
        k = min(n, len(self.loc_deck))  # C-R8
        drawn = [self.loc_deck.pop() for _ in range(k)]
        self._say(
            f"draws {k} Location{'s' if k > 1 else ''}: {', '.join(self.t.slug[i] for i in drawn)}"
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
        self.log.append(f"Location {t.slug[loc]} covers slot {slot + 1} of seat {p}")
        le = t.le[loc]
        if le == LE_PEARLS:
            self._gain(p, t.le_amount[loc])
        elif le == LE_RESTRICT:  # C-R7: the newer replaces the older
            self.restr_owner, self.restr_count, self.restr_loc = p, t.le_amount[loc], loc
            self.log.append(
                f"until seat {p}'s next turn, opponents must draw exactly {t.le_amount[loc]}"
                + (" (the LO is never restricted, section 4.2)" if self.solo else "")
            )
        elif le == LE_RESHUFFLE_LORDS:
            for c, pile in enumerate(self.piles):
                self.deck.extend(pile)
                self.piles[c] = []
            self._rng().shuffle(self.deck)
            self.log.append(f"discarded lords shuffled into the lord deck ({len(self.deck)})")
        elif le == LE_RESHUFFLE_LOCS:
            self.loc_deck.extend(self.face_up)
            self.face_up = []
            self._rng().shuffle(self.loc_deck)
            self.log.append(f"face-up Locations shuffled into the deck ({len(self.loc_deck)})")
        elif le == LE_ANY_KEYS:
            self.any_keys[p] = True
        elif le == LE_DECK_SEARCH:
            self.deck_search[p] = True
        self._run()

    # ------------------------------------------------------- copies and hidden info
    def clone(self) -> ConspiracyState:
        """An independent copy (lists copied shallowly; ints and tuples shared)."""
        c = object.__new__(ConspiracyState)
        d = self.__dict__.copy()
        c.__dict__ = d
        d["deck"] = self.deck[:]
        d["loc_deck"] = self.loc_deck[:]
        d["piles"] = [p[:] for p in self.piles]
        d["face_up"] = self.face_up[:]
        d["chambers"] = [x[:] for x in self.chambers]
        d["locs"] = [x[:] for x in self.locs]
        d["loc_slots"] = [x[:] for x in self.loc_slots]
        d["pearls"] = self.pearls[:]
        d["any_keys"] = self.any_keys[:]
        d["deck_search"] = self.deck_search[:]
        d["drawn"] = self.drawn[:]
        d["pending"] = self.pending[:]
        d["drawn_locs"] = self.drawn_locs[:]
        d["lo_candidates"] = self.lo_candidates[:]
        d["lo_hidden"] = self.lo_hidden[:]
        d["_history"] = self._history[:]
        d["log"] = self.log[:]
        return c

    def resample(self, player: int, rng: random.Random) -> ConspiracyState:
        """A copy with both deck orders reshuffled and the future generator reseeded from
        ``rng`` (C-R12: only the deck orders are hidden, from every seat alike).

        The decks are sorted before shuffling, so the result depends only on what the seat
        sees and on ``rng``, never on the true order (a seeded search bot cannot peek).

        Solo (S-R2): the LO's unseen face-down Locations are redrawn together with the
        Location deck (pooled and sorted), except while a deck-search pick shows the
        deck's contents: then only the deck order and the unseen ones' order vary."""
        c = self.clone()
        c.deck.sort()
        rng.shuffle(c.deck)
        if any(self.lo_hidden):
            solo.redraw_unseen(c, self._deck_shown(player), rng)
        else:
            c.loc_deck.sort()
            rng.shuffle(c.loc_deck)
        c.rng_base = rng.getrandbits(64)
        c.rng_counter = 0
        # The seed and the history would let a bot replay the true deck orders.
        c._seed = -1
        c._history = []
        return c

    def _deck_shown(self, player: int) -> bool:
        """Whether ``player`` sees the Location deck's contents now (C-R9, C-R12)."""
        return (
            self.phase == LOCATION
            and self.current == player
            and self.deck_search[player]
            and bool(self.loc_deck)
        )

    def hidden_from(self, player: int) -> Hashable:
        """Deck orders, the LO's unseen Locations (solo, S-R2) and generator state (the
        same for every seat, C-R12)."""
        unseen = tuple(loc for loc, h in zip(self.locs[-1], self.lo_hidden, strict=False) if h)
        return (tuple(self.deck), tuple(self.loc_deck), unseen, self.rng_base, self.rng_counter)

    # ------------------------------------------------------------------ observations
    def public_observation(self) -> JSONDict:
        """The spectator view (see :func:`porphyra.games.conspiracy.view.public`)."""
        return view.public(self)

    def observation(self, player: int) -> JSONDict:
        """Seat ``player``'s view (see :func:`porphyra.games.conspiracy.view.seat`).

        Raises:
            ValueError: no such seat (solo: seat 1 is the Legendary Opponent).
        """
        if type(player) is not int or not 0 <= player < len(self.chambers):
            raise ValueError(f"no seat {player!r} in this game")
        return view.seat(self, player)

    def to_json(self) -> dict[str, Any]:
        """Alias of :meth:`public_observation`."""
        return self.public_observation()
