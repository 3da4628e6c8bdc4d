"""The Byzantium state: a position, and the OpenSpiel-style contract on it.

Implements ``shared/rules/byzantium.md`` sections 1-5 and rulings B-R1 … B-R10.  The
Redraw, Meld and End choices are simultaneous and secret (B-R3): both seats are active
(``active_players``) and may choose in either order, with the same result; the canonical
seat (``current_player``) is the Byzantine player, and the history keeps the Emperor's choice
first.  A seat's pending choice stays hidden from the other seat until both have chosen.
The Negotiation target and replacement are sequential.  Everything else (drawing, the Age
phase, resolving melds, the Legacy phase, passing cards, age shuffles) happens automatically
between decisions.

Zones hold card kinds (``Card.index``); deck 0 is the Byzantine deck, deck 1 the Foe deck.
A draw pile's top card is the last element of its list.

This module holds the state's fields (``__init__`` and ``clone``, which copies each mutable
one), the legal actions and their checks, and ``apply_action``.  The work is split by
concern into sibling modules:

- :mod:`~porphyra.games.byzantium.rules`: the fixed numbers and the decision phases
  (re-exported here);
- :mod:`~porphyra.games.byzantium.decks`: shuffling, drawing and discarding;
- :mod:`~porphyra.games.byzantium.turn`: setup and the automatic steps of a turn between
  decisions (Draw, Age, redraws, meld reveal, Negotiation, resolution and collapse, Legacy
  and End phases);
- :mod:`~porphyra.games.byzantium.view`: the observations, ``resample`` and
  ``hidden_from``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, SupportsIndex

from mypy_extensions import mypyc_attr

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import TERMINAL_PLAYER, Action, State
from porphyra.core.logcache import FormattedLog, carried
from porphyra.core.messages import Joined, Message, Term, msg, numbered
from porphyra.core.seatarg import optional_seat_of, seat_of
from porphyra.games.byzantium import melds as M
from porphyra.games.byzantium import turn, view
from porphyra.games.byzantium.actions import ByzantiumAction
from porphyra.games.byzantium.cards import Card, Cards
from porphyra.games.byzantium.legal import LegalActions, option_set
from porphyra.games.byzantium.ranked import meld_fits, melds_of_hand
from porphyra.games.byzantium.rules import (
    BYZ,
    BYZ_HAND,
    COLLAPSE_PENALTY,
    DECK_NAMES,
    FOE,
    FOE_HAND,
    MAX_TT,
    PHASES,
    PUBLIC,
    REVEALED_DRAWS,
    SIMULTANEOUS,
    START_LT,
    START_TT,
    TURNS,
)

if TYPE_CHECKING:
    from porphyra.games.byzantium.game import ByzantiumGame

__all__ = [
    "BYZ",
    "BYZ_HAND",
    "COLLAPSE_PENALTY",
    "DECK_NAMES",
    "FOE",
    "FOE_HAND",
    "MAX_TT",
    "PHASES",
    "PUBLIC",
    "REVEALED_DRAWS",
    "START_LT",
    "START_TT",
    "TURNS",
    "ByzantiumState",
]


#: Every attribute of a :class:`ByzantiumState`, which :meth:`~ByzantiumState.clone` copies
#: one by one (the engine may be compiled with mypyc, whose native classes have no
#: ``__dict__``; test ``test_clone_copies_every_attribute`` keeps this list complete).
STATE_FIELDS: tuple[str, ...] = (
    "_cs",
    "_history",
    "_log_cache",
    "_message_cache",
    "_offered",
    "_rng_key",
    "_seed",
    "_shuffles",
    "discard",
    "draw",
    "emperor",
    "events",
    "game",
    "hands",
    "known",
    "lt",
    "melds",
    "melds_turn",
    "negotiation",
    "pending",
    "phase",
    "redrawn",
    "removed",
    "result",
    "set_aside",
    "tt",
    "tt_before",
    "turn",
)


#: The fields a state takes from its game when made (not pickled: the game is) and its
#: caches (a restored state starts them afresh).
_FROM_GAME = frozenset({"game", "_cs", "_offered", "_log_cache", "_message_cache"})


def _restore(cls: type[ByzantiumState], game: ByzantiumGame, fields: dict[str, Any]) -> Any:
    """The state ``ByzantiumState.__reduce__`` pickled (for ``pickle``)."""
    state = cls(game, fields["_seed"])
    for name, value in fields.items():
        setattr(state, name, value)
    return state


@lru_cache(maxsize=64)
def _singles(n: int, with_none: bool) -> tuple[tuple[int, ...], ...]:
    """Options ``-`` (if ``with_none``) and each of ``n`` single cards, as positions."""
    return (((),) if with_none else ()) + tuple((i,) for i in range(n))


@mypyc_attr(allow_interpreted_subclasses=True)
class ByzantiumState(State):
    """A position of Byzantium.  Create it with ``ByzantiumGame.new_initial_state``."""

    def __init__(self, game: ByzantiumGame, seed: int) -> None:
        self.game: ByzantiumGame = game
        self._cs = game.cardset
        self._seed = seed
        self._rng_key = seed
        self._shuffles = 0
        self.turn = 1
        self.emperor = 0
        self.phase = "redraw_byz"
        self.tt = START_TT
        self.lt = [START_LT, START_LT]
        self.hands: list[list[int]] = [[], []]
        self.draw: list[list[int]] = [[], []]
        self.discard: list[list[int]] = [[], []]
        self.set_aside: list[list[list[int]]] = [[[], []], [[], []]]  # deck -> [middle, late]
        self.removed: list[int] = []
        self.pending: list[tuple[int, ...] | None] = [None, None]  # by seat, hidden choices
        self.melds: list[list[int]] = [[], []]  # the last revealed melds, by deck
        self.melds_turn = 0  # the turn they were revealed in (0: none yet)
        self.negotiation: list[int | None] | None = None  # [target, replacement]
        self.redrawn: list[int] | None = None
        self.known: list[list[int]] = [[], []]  # known[p]: cards p knows in the other hand
        self.tt_before = START_TT
        #: The log as data: ``(who, template, args)``, formatted only when viewed
        #: (:meth:`log_lines`); ``who`` is a seat or ``PUBLIC``.
        self.events: list[tuple[int, str, tuple[Any, ...]]] = []
        #: Per reader (a tuple of seats): the log lines formatted so far (see
        #: :meth:`log_lines`); a copy takes them along, a resampled state starts its own.
        self._log_cache: dict[tuple[int, ...], FormattedLog[str]] = {}
        #: The same per reader for the log as messages (:meth:`log_messages`).
        self._message_cache: dict[tuple[int, ...], FormattedLog[Message]] = {}
        self._history: list[tuple[int, Action]] = []
        self.result: dict[str, Any] | None = None
        #: The last legal actions handed out, and to which seat, while nothing changed
        #: since (see :meth:`check_legal`); cleared by every change and in copies.
        self._offered: tuple[int, LegalActions] | None = None

    # ----------------------------------------------------------------- setup
    def _setup(self, first_emperor: int, stacked: dict[str, list[str]]) -> None:
        """Deal and run turn 1 to its first decision (see
        :func:`porphyra.games.byzantium.turn.setup`)."""
        turn.setup(self, first_emperor, stacked)

    # ----------------------------------------------------------------- helpers
    @property
    def age(self) -> int:
        """Current age: 0 Early (turns 1-4), 1 Middle (5-8), 2 Late (9-12)."""
        return (self.turn - 1) // 4

    @property
    def foe(self) -> int:
        """Seat of the Foe player this turn."""
        return 1 - self.emperor

    def _seat_of(self, role: int) -> int:
        return self.emperor if role == BYZ else 1 - self.emperor

    def _deck_of_seat(self, seat: int) -> int:
        return BYZ if seat == self.emperor else FOE

    def _names(self, kinds: Sequence[int]) -> str:
        cards = self._cs.cards
        return ", ".join(cards[k].name for k in sorted(kinds)) if kinds else "nothing"

    def _log(self, who: int, text: str, *args: Any) -> None:
        """Log ``text`` for ``who``; with ``args``, ``text`` is a template whose ``{}``
        fields are filled when the line is viewed (a :class:`Cards` argument shows as the
        cards' names; a :class:`~porphyra.core.messages.Term` as its term), so playouts
        never build text nobody reads.  The template, its fields numbered, is the line's
        message id in the catalogue's ``log`` context (:meth:`log_messages`)."""
        self.events.append((who, text, args))

    def log_lines(self, seats: tuple[int, ...]) -> list[str]:
        """The log lines meant for any of ``seats`` (``PUBLIC`` for everyone), as text (a
        new list).  The log only grows, so the lines already formatted for ``seats`` are
        kept and only the events since are formatted (observations are asked for often)."""
        events = self.events
        cached = self._log_cache[seats] = FormattedLog.current(self._log_cache.get(seats), events)

        def line(event: tuple[int, str, tuple[Any, ...]]) -> str | None:
            who, text, args = event
            if who not in seats:
                return None
            if args:
                return text.format(*(self._names(a) if isinstance(a, Cards) else a for a in args))
            return text

        return cached.read(events, line)

    def log_messages(self, player: SupportsIndex | None = None, start: int = 0) -> list[Message]:
        """The log of ``player`` (None: a spectator) as messages from line ``start`` on:
        one per line of :meth:`log_lines` for the same reader, in the same order,
        ``str(message)`` the line (see :meth:`porphyra.core.game.State.log_messages`).
        Card names and card types, roles and Ages are terms; seats and numbers stay as
        they are."""
        seats = (PUBLIC,) if player is None else (PUBLIC, self._seat(player))
        events = self.events
        cache = self._message_cache
        cached = cache[seats] = FormattedLog.current(cache.get(seats), events)

        def message(event: tuple[int, str, tuple[Any, ...]]) -> Message | None:
            who, text, args = event
            if who not in seats:
                return None
            return Message(numbered(text), tuple(self._arg(a) for a in args))

        return cached.read(events, message, start)

    def _arg(self, value: Any) -> Any:
        """A log event's argument as a message argument (:class:`Cards`: their names)."""
        if not isinstance(value, Cards):
            return value
        if not value:
            return Term("nothing")
        cards = self._cs.cards
        return Joined(", ", tuple(Term(cards[k].name) for k in sorted(value)))

    def _role(self, seat: int) -> str:
        return "Byzantine" if seat == self.emperor else "Foe"

    # ----------------------------------------------------------------- contract
    def current_player(self) -> int:
        """The canonical seat to decide now (the Emperor first in a simultaneous phase,
        B-R3), or ``TERMINAL_PLAYER`` once the game is over."""
        if self.phase == "over":
            return TERMINAL_PLAYER
        return self._seat_of(PHASES[self.phase][1])

    def _foe_early(self) -> bool:
        """True if the Foe may decide now although the canonical seat is the Emperor: a
        simultaneous phase (Redraw, Meld, End, B-R3) in which the Foe has a decision and
        has not chosen yet."""
        phase = self.phase
        if phase not in SIMULTANEOUS or self.pending[1 - self.emperor] is not None:
            return False
        return phase != "pass_byz" or len(self.hands[1 - self.emperor]) >= 2

    def active_players(self) -> list[int]:
        """The seats whose decision the game waits for, canonical seat first: both seats
        in the secret simultaneous Redraw, Meld and End phases until each has chosen
        (B-R3), else the one seat that decides; ``[]`` at the end."""
        if self.phase == "over":
            return []
        current = self._seat_of(PHASES[self.phase][1])
        return [current, 1 - current] if self._foe_early() else [current]

    def is_terminal(self) -> bool:
        """True after turn 12 or a collapse (TT ≤ 0)."""
        return self.phase == "over"

    def _table(self, seat: int) -> tuple[list[int], Sequence[tuple[int, ...]]]:
        """``seat``'s options in the current decision: distinct card kinds, and each option
        as a tuple of positions into them (the empty tuple is ``-``).  Read-only: the
        redraw and meld tables are shared by every state whose hand is the same."""
        phase = self.phase
        hand = self.hands[seat]
        verb = PHASES[phase][0]
        # The tables are cached by hand shape (hands of one shape share one), not by hand:
        # random playouts rarely meet a hand twice, and a per-hand cache only fed the
        # garbage collector.
        if verb == "redraw":
            kinds, counts = M.hand_shape(hand)
            return kinds, M.redraw_table(counts)
        if verb == "meld":
            deck = self._deck_of_seat(seat)
            return melds_of_hand(hand, self.game.meld_traits[deck], DECK_NAMES[deck])
        cards = self._cs.cards
        if verb == "target":
            kinds = sorted({k for k in self.melds[FOE] if cards[k].type in M.FOE_PEOPLES})
            return kinds, _singles(len(kinds), True)
        if verb == "replace":
            kinds = M.replacement_options(self.melds[FOE], hand, self._cs)
            return kinds, _singles(len(kinds), True)
        kinds = sorted(set(hand))  # pass
        return kinds, _singles(len(kinds), False)

    def _decides(self, player: int | None) -> int | None:
        """The seat ``player`` (default: the canonical one) if it decides now, else None."""
        if self.phase == "over":
            return None
        current = self._seat_of(PHASES[self.phase][1])
        if player is None or player == current:
            return current
        return player if player == 1 - current and self._foe_early() else None

    def legal_actions(self, player: SupportsIndex | None = None) -> Sequence[Action]:
        """Legal actions of ``player`` (default: the current player), in a fixed order:
        ``-`` first, then fewer cards first, then card-list order.  Empty for a seat that
        is not active (:meth:`active_players`) and at the end.  The result is a lazy
        :class:`~porphyra.games.byzantium.legal.LegalActions` sequence (index, ``len`` and
        iterate it like a list).

        Raises:
            SeatError: ``player`` is not a seat number, or not 0 or 1.
        """
        seat = self._decides(optional_seat_of(player, 2))
        if seat is None:
            return []
        kinds, table = self._table(seat)
        offer = LegalActions(self.game.builders[PHASES[self.phase][0]], kinds, table)
        self._offered = (seat, offer)
        return offer

    def legal_action_texts(self, player: SupportsIndex | None = None) -> list[str]:
        """The texts of :meth:`legal_actions`, in its order, listed straight from the
        option table (no action objects: a meld decision has hundreds)."""
        offer = self.legal_actions(player)
        if not isinstance(offer, LegalActions):
            return [str(a) for a in offer]
        return offer.texts(PHASES[self.phase][0], self._cs.slugs)

    def legal_choices(self, player: SupportsIndex | None = None) -> dict[str, Any] | None:
        """A Redraw or Meld decision of ``player`` (default: the current player) as its
        option table (:mod:`porphyra.core.choices`): the hand's distinct cards and copies,
        and the limits an option keeps (B-R10: at most 4 cards redrawn; a meld: each
        type's limit, and at most one natural Disaster, section 3 phase 4); composed, the
        texts of :meth:`legal_action_texts`.  None for any other decision, a seat that
        does not decide now, and the end.

        Raises:
            SeatError: ``player`` is not a seat number, or not 0 or 1.
        """
        seat = self._decides(optional_seat_of(player, 2))
        if seat is None:
            return None
        verb = PHASES[self.phase][0]
        if verb != "redraw" and verb != "meld":
            return None
        kinds, copies = M.hand_shape(self.hands[seat])
        cards = self._cs.cards
        limits: list[tuple[int, tuple[int, ...]]] = []
        most: int | None = M.REDRAW_LIMIT
        if verb == "meld":
            most = None
            deck = DECK_NAMES[self._deck_of_seat(seat)]
            for typ, limit in M.LIMITS[deck].items():
                where = tuple([p for p, k in enumerate(kinds) if cards[k].type == typ])
                if where:
                    limits.append((limit, where))
            natural = tuple([p for p, k in enumerate(kinds) if cards[k].natural])
            if natural:
                limits.append((M.MAX_NATURAL_DISASTERS, natural))
        slugs = self._cs.slugs
        return {
            "verb": verb,
            "cards": tuple([slugs[k] for k in kinds]),
            "copies": copies,
            "limits": tuple(limits),
            "most": most,
        }

    def _listed(self, action: Action, seat: int) -> tuple[int, ...] | None:
        """The sorted card kinds of ``action`` if it is one of ``seat``'s options in the
        current decision's option table (the one source of legality), else None."""
        if not isinstance(action, ByzantiumAction) or action.verb != PHASES[self.phase][0]:
            return None
        chosen = self.game.kinds_of.get(id(action))
        if chosen is None:
            by_slug = self._cs.by_slug
            try:
                chosen = tuple(sorted(by_slug[s].index for s in action.cards))
            except KeyError:
                return None
        if action.verb == "meld":  # membership without building the table
            deck = self._deck_of_seat(seat)
            traits = self.game.meld_traits[deck]
            fits = meld_fits(chosen, self.hands[seat], traits, DECK_NAMES[deck])
            return chosen if fits else None
        kinds, table = self._table(seat)
        position = {k: i for i, k in enumerate(kinds)}
        try:
            option = tuple(position[k] for k in chosen)
        except KeyError:
            return None
        return chosen if option in option_set(table) else None

    def check_legal(
        self, action: Action, player: SupportsIndex | None = None
    ) -> tuple[int, tuple[int, ...]]:
        """Accept ``action`` of ``player`` (default: the current player) if and only if it
        is listed by :meth:`legal_actions` (the option table), and return ``(seat, sorted
        card kinds)``.

        An action object just handed out by this state's own ``legal_actions`` (the last
        one built, while nothing has changed since) is trusted without a lookup; any other
        action, such as one parsed from text, is looked up in the option table.

        Raises:
            IllegalActionError: not listed; the message says why (:meth:`illegal_reason`).
            SeatError: ``player`` is not a seat number, or not 0 or 1.
        """
        who = optional_seat_of(player, 2)
        seat = self._decides(who)
        if seat is not None:
            offered = self._offered
            if offered is not None and offered[0] == seat:
                trusted = offered[1].kinds_if_last(action)
                if trusted is not None:
                    return seat, trusted
            kinds = self._listed(action, seat)
            if kinds is not None:
                return seat, kinds
        reason = self.illegal_reason(action, who)
        raise IllegalActionError(reason or msg("{0} is not a legal choice now", str(action)))

    def _missing_text(self, kinds: Sequence[int], missing: Counter[int], seat: int) -> Message:
        """Why ``kinds`` are not all in ``seat``'s hand: ``card not in hand: x`` for a card
        not held at all, and for one held too few times how many are held (a fourth
        copy of a card held three times is not "not in hand")."""
        held = Counter(self.hands[seat])
        asked = Counter(kinds)
        parts: list[Message] = []
        for k in missing:
            card = self._cs.cards[k]
            name = Term(card.name, card.slug)
            if held[k]:
                parts.append(msg("{0} is in hand {1} time(s), not {2}", name, held[k], asked[k]))
            else:
                parts.append(msg("card not in hand: {0}", name))
        return parts[0] if len(parts) == 1 else msg("{0}", Joined("; ", tuple(parts)))

    def illegal_reason(self, action: Action, player: SupportsIndex | None = None) -> Message | None:
        """Why ``action`` is not legal now for ``player`` (default: current), or ``None``:
        a message (id and arguments; ``str()`` of it is the English text).

        Only explains a refusal: whether an action is legal is decided by the option table
        alone (:meth:`check_legal`).

        Raises:
            SeatError: ``player`` is not a seat number, or not 0 or 1.
        """
        who = optional_seat_of(player, 2)
        if self.phase == "over":
            return msg("the game is over")
        seat = self._decides(who)
        if seat is None:
            assert who is not None
            if who in (0, 1) and self.pending[who] is not None:
                return msg(
                    "you have already chosen; waiting for seat {0} ({1} phase)",
                    self.current_player(),
                    PHASES[self.phase][0],
                )
            return msg(
                "not your turn: seat {0} decides now ({1} phase)",
                self.current_player(),
                PHASES[self.phase][0],
            )
        if not isinstance(action, ByzantiumAction):
            return msg("{0} is not a Byzantium action", repr(action))
        verb = PHASES[self.phase][0]
        if action.verb != verb:
            return msg("wrong phase: it is the {0} phase, not {1}", verb, action.verb)
        by_slug = self._cs.by_slug
        unknown = [s for s in action.cards if s not in by_slug]
        if unknown:
            return msg("unknown card {0}", repr(unknown[0]))
        kinds = sorted(by_slug[s].index for s in action.cards)
        cards = [self._cs.cards[k] for k in kinds]
        if verb in ("redraw", "meld", "pass", "replace"):
            missing = Counter(kinds) - Counter(self.hands[seat])
            if missing:
                return self._missing_text(kinds, missing, seat)
        if verb == "redraw":
            if len(kinds) > M.REDRAW_LIMIT:
                return msg("redraw at most {0} cards, not {1} (B-R10)", M.REDRAW_LIMIT, len(kinds))
            return None
        if verb == "meld":
            problem = M.meld_problem(cards, DECK_NAMES[self._deck_of_seat(seat)])
            return None if problem is None else msg("meld over a limit: {0}", problem)
        if len(kinds) > 1:
            return msg("{0} takes a single card", verb)
        if verb == "pass":
            return None if kinds else msg("pass needs the card to pass")
        if not kinds:
            return None  # "target -" / "replace -"
        if verb == "target":
            if cards[0].type in M.FOE_PEOPLES and kinds[0] in self.melds[FOE]:
                return None
            return msg(
                "{0} is not a Northern or Southern Foe card in the Foe meld (B-R4)",
                Term(cards[0].name, repr(cards[0].slug)),
            )
        if kinds[0] in M.replacement_options(self.melds[FOE], self.hands[seat], self._cs):
            return None
        return msg(
            "{0} cannot replace: it must be a Northern or Southern Foe card that keeps the "
            "Foe meld within its limits (B-R4)",
            Term(cards[0].name, repr(cards[0].slug)),
        )

    def apply_action(self, action: Action, player: SupportsIndex | None = None) -> None:
        """Apply the decision of ``player`` (default: the current player), any seat of
        :meth:`active_players`, and run the game on to the next decision.

        In a simultaneous phase (B-R3) the two choices may come in either order with the
        same result: the Foe's early choice waits, hidden, until the Emperor's arrives,
        and the history keeps them in the canonical order (the Emperor's first).

        Raises:
            IllegalActionError: not legal now (the message says why); the state is unchanged.
            SeatError: ``player`` is not a seat number, or not 0 or 1.
        """
        seat, kinds = self.check_legal(action, player)
        self._offered = None
        phase = self.phase
        current = self._seat_of(PHASES[phase][1])
        if seat != current:  # the Foe's choice before the Emperor's (B-R3)
            self.pending[seat] = kinds
            self._history.append((seat, action))
            return
        foe_chose = phase in SIMULTANEOUS and self.pending[1 - seat] is not None
        if foe_chose:  # the canonical order: the Emperor's choice before the Foe's
            self._history.insert(len(self._history) - 1, (seat, action))
        else:
            self._history.append((seat, action))
        if phase == "redraw_byz":
            self.pending[seat] = kinds
            if foe_chose:
                turn.finish_redraw(self)
            else:
                self.phase = "redraw_foe"
        elif phase == "redraw_foe":
            self.pending[seat] = kinds
            turn.finish_redraw(self)
        elif phase == "meld_byz":
            self.pending[seat] = kinds
            if foe_chose:
                turn.reveal_melds(self)
            else:
                self.phase = "meld_foe"
        elif phase == "meld_foe":
            self.pending[seat] = kinds
            turn.reveal_melds(self)
        elif phase == "target":
            turn.apply_target(self, kinds)
        elif phase == "replace":
            turn.apply_replace(self, kinds)
        elif phase == "pass_byz":
            self.pending[seat] = kinds
            if len(self.hands[self.foe]) >= 2 and not foe_chose:
                self.phase = "pass_foe"
            else:
                turn.finish_end_phase(self)
        else:  # pass_foe
            self.pending[seat] = kinds
            turn.finish_end_phase(self)

    def returns(self) -> list[float]:
        """+1 / -1 / 0 per seat by final LT (B-R8); zeros before the end."""
        return list(self.result["returns"]) if self.result else [0.0, 0.0]

    def scores(self) -> list[int]:
        """Legacy Tokens per seat (final once terminal)."""
        return list(self.lt)

    @property
    def history(self) -> list[tuple[int, Action]]:
        """``(seat, action)`` of every decision so far."""
        return self._history

    @property
    def seed(self) -> int:
        """The seed of the game."""
        return self._seed

    # ----------------------------------------------------------------- views
    def public_observation(self, log: bool = True) -> dict[str, Any]:
        """What everyone sees (section 4), built by
        :func:`porphyra.games.byzantium.view.public` (``log=False``: ``"log"`` empty)."""
        return view.public(self, log=log)

    def _seat(self, player: SupportsIndex) -> int:
        """``player`` as one of this game's seats (0 or 1).

        Raises:
            SeatError: not a seat number, or not 0 or 1.
        """
        return seat_of(player, 2)

    def observation(
        self, player: SupportsIndex, log: bool = True, by_kind: bool = False
    ) -> dict[str, Any]:
        """``public_observation`` plus what seat ``player`` alone knows: its hand, its own
        pending choice, the cards it knows in the other hand, and its private log.

        For readers that need only the other fields (the research tensors): ``log=False``
        leaves ``"log"`` empty (formatting it is much of an observation's cost), and
        ``by_kind=True`` names cards by kind (``Card.index``) instead of slug.

        Raises:
            SeatError: ``player`` is not a seat of this game.
        """
        return view.seat(self, self._seat(player), log, by_kind)

    # ----------------------------------------------------------------- search support
    def clone(self) -> ByzantiumState:
        """An independent copy (shallow copies of the small int lists; cheap)."""
        new = type(self)(self.game, self._seed)  # (a native class has no bare __new__)
        for name in STATE_FIELDS:
            setattr(new, name, getattr(self, name))
        new.lt = list(self.lt)
        new.hands = [list(h) for h in self.hands]
        new.draw = [list(d) for d in self.draw]
        new.discard = [list(d) for d in self.discard]
        new.set_aside = [[list(a) for a in d] for d in self.set_aside]
        new.removed = list(self.removed)
        new.pending = list(self.pending)
        new.melds = [list(m) for m in self.melds]
        new.negotiation = None if self.negotiation is None else list(self.negotiation)
        new.redrawn = None if self.redrawn is None else list(self.redrawn)
        new.known = [list(k) for k in self.known]
        new.events = list(self.events)
        new._log_cache = carried(self._log_cache, self.events, new.events)
        new._message_cache = carried(self._message_cache, self.events, new.events)
        new._history = list(self._history)
        new.result = None if self.result is None else dict(self.result)
        new._offered = None
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled field by field (a compiled state has no __dict__); the game is pickled by
        # its options (Game.__reduce__) and the caches start afresh.
        fields = {n: getattr(self, n) for n in STATE_FIELDS if n not in _FROM_GAME}
        return (_restore, (type(self), self.game, fields))

    def resample(self, player: SupportsIndex, rng: random.Random) -> ByzantiumState:
        """A state consistent with ``observation(player)``: the other hand (beyond the cards
        ``player`` knows in it), both draw-pile orders, the other seat's pending hidden
        choice and the generator's future are redrawn with ``rng`` (see
        :func:`porphyra.games.byzantium.view.resample`).

        Raises:
            SeatError: ``player`` is not a seat of this game.
        """
        return view.resample(self, self._seat(player), rng)

    def pending_choice(self, seat: SupportsIndex) -> tuple[int, ...] | None:
        """``seat``'s secret choice (sorted card kinds) in the current simultaneous decision,
        once made and until every seat has chosen (B-R3); else None.  Hidden from the other
        seat: for search on determinized states (see :meth:`resample`).

        Raises:
            SeatError: ``seat`` is not a seat of this game.
        """
        return self.pending[self._seat(seat)]

    def redecide(self, seat: int, kinds: Sequence[int]) -> None:
        """Replace ``seat``'s pending secret choice with ``kinds`` (an opponent model on a
        determinized state, e.g. ``refine_sample`` of the Byzantium heuristic).

        Raises:
            IllegalActionError: ``seat`` has no pending choice, or ``kinds`` is not a legal
                choice of its decision from its hand (B-R10 and the meld limits).
        """
        if self.phase == "over" or self.pending[seat] is None:
            raise IllegalActionError(msg("seat {0} has no pending choice to replace", seat))
        choice = tuple(sorted(kinds))
        verb = PHASES[self.phase][0]
        cards = self._cs.cards
        problem: Message | None = None
        short = Counter(choice) - Counter(self.hands[seat])
        if short:
            problem = self._missing_text(list(choice), short, seat)
        elif verb == "redraw" and len(choice) > M.REDRAW_LIMIT:
            problem = msg("redraw at most {0} cards (B-R10)", M.REDRAW_LIMIT)
        elif verb == "meld":
            deck = DECK_NAMES[self._deck_of_seat(seat)]
            problem = M.meld_problem([cards[k] for k in choice], deck)
        elif verb == "pass" and len(choice) != 1:
            problem = msg("pass takes one card")
        if problem is not None:
            raise IllegalActionError(msg("cannot replace seat {0}'s {1}: {2}", seat, verb, problem))
        self.pending[seat] = choice
        self._offered = None

    def hidden_from(self, player: SupportsIndex) -> Hashable:
        """Fingerprint of what ``player`` cannot see: the other hand, the draw-pile orders,
        the other seat's pending choice and the generator key.

        Raises:
            SeatError: ``player`` is not a seat of this game.
        """
        return view.hidden_from(self, self._seat(player))

    def card(self, slug: str) -> Card:
        """The card ``slug`` of this game's card set."""
        return self._cs.by_slug[slug]
