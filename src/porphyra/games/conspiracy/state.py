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

Modules: this one holds the contract (setup, scores, returns, copies, ``resample`` and
observations); the rules code is split into layers, each a base class of
:class:`ConspiracyState` over :class:`~porphyra.games.conspiracy.base.StateBase` (the
fields): :mod:`~porphyra.games.conspiracy.legal` (legal actions),
:mod:`~porphyra.games.conspiracy.locations` (keys and Locations, section 3.3) and
:mod:`~porphyra.games.conspiracy.turn` (``apply_action``, recruit, placement, end of game).
Phase codes and lookup tables are in :mod:`~porphyra.games.conspiracy.tables` (re-exported
here).
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, SupportsIndex

from porphyra.core.game import TERMINAL_PLAYER, Action, JSONDict
from porphyra.core.logcache import carry
from porphyra.core.messages import Joined, Named, Term
from porphyra.core.randomness import shuffle
from porphyra.games.conspiracy import solo, view
from porphyra.games.conspiracy.scoring import ScoreDict, returns_for, score_player
from porphyra.games.conspiracy.tables import (
    KEEP_PHASE,
    LE_ANY_KEYS,
    LE_DECK_SEARCH,
    LE_NONE,
    LE_PEARLS,
    LE_RESHUFFLE_LOCS,
    LE_RESHUFFLE_LORDS,
    LE_RESTRICT,
    LOCATION,
    LOCKEEP_PHASE,
    LOPILE_PHASE,
    LOPLACE_PHASE,
    OVER,
    PHASES,
    PLACE_PHASE,
    RECRUIT,
    REPLAY_PHASE,
    SWAP_PHASE,
    Tables,
    tables,
)
from porphyra.games.conspiracy.turn import TurnMixin

if TYPE_CHECKING:
    from porphyra.games.conspiracy.game import ConspiracyGame

__all__ = [
    "KEEP_PHASE",
    "LE_ANY_KEYS",
    "LE_DECK_SEARCH",
    "LE_NONE",
    "LE_PEARLS",
    "LE_RESHUFFLE_LOCS",
    "LE_RESHUFFLE_LORDS",
    "LE_RESTRICT",
    "LOCATION",
    "LOCKEEP_PHASE",
    "LOPILE_PHASE",
    "LOPLACE_PHASE",
    "OVER",
    "PHASES",
    "PLACE_PHASE",
    "RECRUIT",
    "REPLAY_PHASE",
    "SWAP_PHASE",
    "ConspiracyState",
    "Tables",
    "tables",
]


#: Every attribute of a :class:`ConspiracyState`, which :meth:`~ConspiracyState.clone`
#: copies one by one (the engine may be compiled with mypyc, whose native classes have no
#: ``__dict__``; test ``test_clone_copies_every_attribute`` keeps this list complete).
STATE_FIELDS: tuple[str, ...] = (
    "_events",
    "_history",
    "_log_cache",
    "_message_cache",
    "_offered",
    "_seed",
    "acts",
    "any_keys",
    "cards",
    "chambers",
    "current",
    "deck",
    "deck_search",
    "drawn",
    "drawn_locs",
    "end_trigger",
    "face_up",
    "first",
    "force_draw",
    "game",
    "lo_candidates",
    "lo_hidden",
    "lo_reason",
    "loc_deck",
    "loc_slots",
    "locs",
    "n",
    "opponent",
    "pearls",
    "pending",
    "phase",
    "piles",
    "placed",
    "pm",
    "replay_token",
    "restr_count",
    "restr_loc",
    "restr_owner",
    "rng_base",
    "rng_counter",
    "solo",
    "t",
    "turn",
    "who",
)


#: The fields a state takes from its game when made (not pickled: the game is) and its
#: caches (a restored state starts them afresh).
_FROM_GAME = frozenset(
    {"game", "cards", "t", "acts", "n", "solo", "_offered", "_log_cache", "_message_cache"}
)


def _restore(game: ConspiracyGame, fields: dict[str, Any]) -> Any:
    """The state ``ConspiracyState.__reduce__`` pickled (for ``pickle``)."""
    state = ConspiracyState(game)
    for name, value in fields.items():
        setattr(state, name, value)
    return state


class ConspiracyState(TurnMixin):
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
        shuffle(rng, deck)
        for kind in game.stacked_lords:
            deck.remove(kind)
        deck.extend(reversed(game.stacked_lords))
        loc_deck = list(game.location_ids)
        shuffle(rng, loc_deck)
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
        s._events.append(
            ("setup: Location {} face up; seat {} starts", (Named(s.t.slug[s.face_up[0]]), first))
        )
        if s.solo:
            opp = s.opponent
            s._events.append(
                (
                    "solo against the Legendary Opponent {} (the LO, seat 1): conditions {}; "
                    "bonus: {}; ability: {}",
                    (
                        Term(opp.name),
                        Joined(", ", tuple(opp.conditions)),
                        Term(opp.bonus_text),
                        Term(opp.ability_text),
                    ),
                )
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

    # ------------------------------------------------------- copies and hidden info
    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled field by field (a compiled state has no __dict__); the game is pickled by
        # its options (Game.__reduce__), and what the state takes from it is taken again.
        fields = {n: getattr(self, n) for n in STATE_FIELDS if n not in _FROM_GAME}
        return (_restore, (self.game, fields))

    def clone(self) -> ConspiracyState:
        """An independent copy (lists copied shallowly; ints and tuples shared)."""
        c = ConspiracyState(self.game)  # (a native class has no bare __new__)
        for name in STATE_FIELDS:
            setattr(c, name, getattr(self, name))
        c.deck = self.deck[:]
        c.loc_deck = self.loc_deck[:]
        c.piles = [p[:] for p in self.piles]
        c.face_up = self.face_up[:]
        c.chambers = [x[:] for x in self.chambers]
        c.locs = [x[:] for x in self.locs]
        c.loc_slots = [x[:] for x in self.loc_slots]
        c.pearls = self.pearls[:]
        c.any_keys = self.any_keys[:]
        c.deck_search = self.deck_search[:]
        c.drawn = self.drawn[:]
        c.pending = self.pending[:]
        c.drawn_locs = self.drawn_locs[:]
        c.lo_candidates = self.lo_candidates[:]
        c.lo_hidden = self.lo_hidden[:]
        c._history = self._history[:]
        c._events = self._events[:]
        c._log_cache = carry(self._log_cache, self._events, c._events)
        c._message_cache = carry(self._message_cache, self._events, c._events)
        c._offered = None
        return c

    def resample(self, player: SupportsIndex, rng: random.Random) -> ConspiracyState:
        """A copy with both deck orders reshuffled and the future generator reseeded from
        ``rng`` (C-R12: only the deck orders are hidden, from every seat alike).

        The decks are sorted before shuffling, so the result depends only on what the seat
        sees and on ``rng``, never on the true order (a seeded search bot cannot peek).

        Solo (S-R2): the LO's unseen face-down Locations are redrawn together with the
        Location deck (pooled and sorted), except while a deck-search pick shows the
        deck's contents: then only the deck order and the unseen ones' order vary.

        Raises:
            SeatError: ``player`` is not a seat of this game.
        """
        seat = self._seat(player)
        c = self.clone()
        c.deck.sort()
        rng.shuffle(c.deck)
        if any(self.lo_hidden):
            solo.redraw_unseen(c, self._deck_shown(seat), rng)
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

    def hidden_from(self, player: SupportsIndex) -> Hashable:
        """Deck orders, the LO's unseen Locations (solo, S-R2) and generator state (the
        same for every seat, C-R12).

        Raises:
            SeatError: ``player`` is not a seat of this game.
        """
        self._seat(player)
        unseen = tuple(loc for loc, h in zip(self.locs[-1], self.lo_hidden, strict=False) if h)
        return (tuple(self.deck), tuple(self.loc_deck), unseen, self.rng_base, self.rng_counter)

    # ------------------------------------------------------------------ observations
    def public_observation(self, log: bool = True) -> JSONDict:
        """The spectator view (see :func:`porphyra.games.conspiracy.view.public`;
        ``log=False``: ``"log"`` empty)."""
        return view.public(self, log)

    def observation(self, player: SupportsIndex, log: bool = True) -> JSONDict:
        """Seat ``player``'s view (see :func:`porphyra.games.conspiracy.view.seat`).

        For readers that need only the other fields (the research tensors): ``log=False``
        leaves ``"log"`` empty (formatting the lines is much of an observation's cost).

        Raises:
            SeatError: no such seat (solo: seat 1 is the Legendary Opponent).
        """
        return view.seat(self, self._seat(player), log)

    def observations_sharing(self) -> list[JSONDict]:
        """Every seat's view without the log, each :meth:`observation` ``(p, log=False)``
        (solo: yours, then the Legendary Opponent's), built from one public view: each
        seat's dict is a shallow copy of it, so the seats' values are the same objects and
        must only be read (the research tensors encode all seats' views of one state; the
        public part is most of their cost).
        """
        shared = view.public(self, False)
        return [view.add_seat(self, dict(shared), p) for p in range(self.n)]
