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

Solo (section 4, not implemented): per-seat data are lists, so the Legendary Opponent can be
seat 1; its turn would run from ``_start_turn`` with the human seat answering ``lopile`` /
``loplace``; its face-down Locations need a per-seat list of face-down ids (5 IP, no
effect), and the Replay token a per-seat flag checked in ``_end_turn``.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import TERMINAL_PLAYER, Action, JSONDict, State
from porphyra.games.conspiracy import view
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
    PLACE,
    SWAP,
    TAKE,
    ConspiracyAction,
    action_table,
)
from porphyra.games.conspiracy.scoring import ScoreDict, returns_for, score_player

if TYPE_CHECKING:
    from porphyra.games.conspiracy.game import ConspiracyGame

RECRUIT, KEEP_PHASE, PLACE_PHASE, SWAP_PHASE, LOCATION, LOCKEEP_PHASE, OVER = range(7)
PHASES = ("recruit", "keep", "place", "swap", "location", "lockeep", "over")

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
    """

    game: ConspiracyGame

    def __init__(self, game: ConspiracyGame) -> None:
        self.game = game
        self.cards = game.cards
        self.t = tables(game.cards)
        self.acts = action_table(game.cards)
        self.n = game.num_players
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
        rng = random.Random(seed)
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
        first = rng.randrange(s.n) if game.first_player is None else game.first_player
        s.rng_base = rng.getrandbits(64)
        s.deck, s.loc_deck = deck, loc_deck
        s.face_up = [loc_deck.pop()]
        s.first = first
        s.log.append(f"setup: Location {s.t.slug[s.face_up[0]]} face up; seat {first} starts")
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
        return TERMINAL_PLAYER if self.phase == OVER else self.current

    def is_terminal(self) -> bool:
        return self.phase == OVER

    @property
    def phase_name(self) -> str:
        """The pending decision: one of :data:`PHASES`."""
        return PHASES[self.phase]

    def scores(self) -> list[ScoreDict]:
        """Per seat ``{"lords", "locations", "coalition", "pearl_master", "total",
        "pearls"}`` in IP (pearls: count), final once terminal (section 3.5)."""
        return [
            score_player(self.cards, self.chambers[p], self.locs[p], self.pearls[p], self.pm == p)
            for p in range(self.n)
        ]

    def returns(self) -> list[float]:
        """Winners +1, others -1, all 0 if every seat shares the victory (C-R11); zeros
        before the end."""
        if self.phase != OVER:
            return [0.0] * self.n
        return returns_for(self.scores())

    # ------------------------------------------------------------------- legal actions
    def legal_actions(self, player: int | None = None) -> list[ConspiracyAction]:
        """The legal actions of ``player`` (default: current) in a fixed order; [] off turn.

        Order: recruit ``draw 1..3`` then ``take`` by colour order; ``keep``/``place``/
        ``lockeep``/``locpick`` by card order; ``swap -`` then pairs by slot;
        ``locdraw 1..3`` then ``loctake`` by card order.
        """
        phase = self.phase
        if phase == OVER or (player is not None and player != self.current):
            return []
        acts = self.acts
        if phase == RECRUIT:
            dl = len(self.deck)
            if 0 <= self.restr_owner != self.current and dl:
                return [acts.draw[min(self.restr_count, dl)]]  # C-R1, C-R7
            out = acts.draw[1 : min(3, dl) + 1]
            take = acts.take
            for c, pile in enumerate(self.piles):
                if pile:
                    out.append(take[c])
            return out
        if phase == KEEP_PHASE:
            keep = acts.keep
            return [keep[k] for k in sorted(set(self.drawn))]
        if phase == PLACE_PHASE:
            place = acts.place
            return [place[k] for k in sorted(set(self.pending))]
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
        if self.phase == OVER:
            raise IllegalActionError(f"{action}: the game is over")
        legal = self.legal_actions()
        if action not in legal:
            offered = ", ".join(str(a) for a in legal[:8]) + (", ..." if len(legal) > 8 else "")
            raise IllegalActionError(
                f"{action} is not legal now: seat {self.current} must decide "
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
        self._history.append((self.current, action))
        verb, a = action.verb, action.a
        if verb == DRAW:
            self._draw(a)
        elif verb == KEEP:
            self._keep(a)
        elif verb == TAKE:
            self._take(a)
        elif verb == PLACE:
            self.pending.remove(a)
            if not self._place(a):
                self._run()
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
        self.log.append(f"seat {self.current} {text}")

    def _rng(self) -> random.Random:
        self.rng_counter += 1
        return random.Random((self.rng_base << 24) + self.rng_counter)

    def _start_turn(self, p: int) -> None:
        self.current = p
        self.phase = RECRUIT
        self.turn += 1
        self.log.append(f"turn {self.turn}: seat {p}")
        if self.restr_owner == p:  # C-R7
            self.log.append(f"the {self.t.slug[self.restr_loc]} restriction ends")
            self.restr_owner = -1
        if not self.deck and not any(self.piles):  # C-R2: nobody can recruit
            self.log.append("no lord can be recruited by anyone: the game ends (C-R2)")
            self._finish()

    def _end_turn(self) -> None:
        nxt = (self.current + 1) % self.n
        if nxt == self.end_trigger:  # section 3.5: every other seat has played once more
            self._finish()
        else:
            self._start_turn(nxt)

    def _finish(self) -> None:
        self.phase = OVER
        sc = self.scores()
        self.log.append(
            "game over: " + "; ".join(f"seat {p} {s['total']} IP" for p, s in enumerate(sc))
        )

    # --------------------------------------------------------------- recruit (3.1)
    def _draw(self, n: int) -> None:
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
        pile = self.piles[c]
        self.piles[c] = []
        self.pending = pile
        self._say(f"takes the {COLOURS[c]} pile: {', '.join(self.t.name[k] for k in pile)}")
        self._run()

    # ------------------------------------------------------------- placement (3.2)
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
                self.phase = PLACE_PHASE
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
            self.log.append(f"seat {p} filled the chamber: every other seat plays one more turn")
        if t.pearls[kind]:
            self._gain(p, t.pearls[kind])
        effect = t.effect[kind]
        if effect == EFFECT_SWAP:
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
            ch[i], ch[j] = ch[j], ch[i]
            name = self.t.name
            self._say(f"swaps slots {i + 1} and {j + 1} ({name[ch[j]]} <-> {name[ch[i]]})")
        if not self._key_check(self.placed):
            self._run()

    def _gain(self, p: int, n: int) -> None:
        """Gain ``n`` pearls; the Pearl Master moves on a tie too (section 3.4, C-R10)."""
        self.pearls[p] += n
        self.log.append(f"seat {p} gains {n} pearl{'s' if n > 1 else ''} (now {self.pearls[p]})")
        pm = self.pm
        if pm != p and (pm < 0 or self.pearls[p] >= self.pearls[pm]):
            self.pm = p
            self.log.append(f"seat {p} takes the Pearl Master token")

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
        d["_history"] = self._history[:]
        d["log"] = self.log[:]
        return c

    def resample(self, player: int, rng: random.Random) -> ConspiracyState:
        """A copy with both deck orders reshuffled and the future generator reseeded from
        ``rng`` (C-R12: only the deck orders are hidden, from every seat alike).

        The decks are sorted before shuffling, so the result depends only on what the seat
        sees and on ``rng``, never on the true order (a seeded search bot cannot peek)."""
        c = self.clone()
        c.deck.sort()
        rng.shuffle(c.deck)
        c.loc_deck.sort()
        rng.shuffle(c.loc_deck)
        c.rng_base = rng.getrandbits(64)
        c.rng_counter = 0
        return c

    def hidden_from(self, player: int) -> Hashable:
        """Deck orders and generator state (the same for every seat, C-R12)."""
        return (tuple(self.deck), tuple(self.loc_deck), self.rng_base, self.rng_counter)

    # ------------------------------------------------------------------ observations
    def public_observation(self) -> JSONDict:
        """The spectator view (see :func:`porphyra.games.conspiracy.view.public`)."""
        return view.public(self)

    def observation(self, player: int) -> JSONDict:
        """Seat ``player``'s view (see :func:`porphyra.games.conspiracy.view.seat`)."""
        return view.seat(self, player)

    def to_json(self) -> dict[str, Any]:
        """Alias of :meth:`public_observation`."""
        return self.public_observation()
