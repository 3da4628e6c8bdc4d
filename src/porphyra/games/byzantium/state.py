"""The Byzantium state: a position, and the OpenSpiel-style contract on it.

Implements ``shared/rules/byzantium.md`` sections 1-5 and rulings B-R1 … B-R10.  Decisions
(redraw, meld, negotiation target and replacement, the card to pass) are asked one seat at a
time, the Byzantine player first (B-R3); a seat's pending choice stays hidden from the other
seat until both have chosen.  Everything else (drawing, the Age phase, resolving melds, the
Legacy phase, passing cards, age shuffles) happens automatically between decisions.

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
from typing import TYPE_CHECKING, Any

from porphyra.core.errors import IllegalActionError
from porphyra.core.game import TERMINAL_PLAYER, Action, State
from porphyra.games.byzantium import melds as M
from porphyra.games.byzantium import turn, view
from porphyra.games.byzantium.actions import ByzantiumAction
from porphyra.games.byzantium.cards import Card
from porphyra.games.byzantium.legal import LegalActions
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


@lru_cache(maxsize=64)
def _singles(n: int, with_none: bool) -> tuple[tuple[int, ...], ...]:
    """Options ``-`` (if ``with_none``) and each of ``n`` single cards, as positions."""
    return (((),) if with_none else ()) + tuple((i,) for i in range(n))


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
        self.events: list[tuple[int, str]] = []
        self._history: list[tuple[int, Action]] = []
        self.result: dict[str, Any] | None = None

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

    def _log(self, who: int, text: str) -> None:
        self.events.append((who, text))

    def _role(self, seat: int) -> str:
        return "Byzantine" if seat == self.emperor else "Foe"

    # ----------------------------------------------------------------- contract
    def current_player(self) -> int:
        """The seat to decide now, or ``TERMINAL_PLAYER`` once the game is over."""
        if self.phase == "over":
            return TERMINAL_PLAYER
        return self._seat_of(PHASES[self.phase][1])

    def is_terminal(self) -> bool:
        """True after turn 12 or a collapse (TT ≤ 0)."""
        return self.phase == "over"

    def _table(self) -> tuple[list[int], Sequence[tuple[int, ...]]]:
        """The current decision's options: distinct card kinds, and each option as a tuple
        of positions into them (the empty tuple is ``-``)."""
        phase, seat = self.phase, self.current_player()
        hand = self.hands[seat]
        cards = self._cs.cards
        if phase.startswith("redraw"):
            kinds, counts = M.hand_shape(hand)
            return kinds, M.redraw_table(counts)
        if phase.startswith("meld"):
            kinds, counts = M.hand_shape(hand)
            shape = tuple(
                (n, cards[k].type, cards[k].natural) for k, n in zip(kinds, counts, strict=True)
            )
            return kinds, M.meld_table(shape, DECK_NAMES[self._deck_of_seat(seat)])
        if phase == "target":
            kinds = sorted({k for k in self.melds[FOE] if cards[k].type in M.FOE_PEOPLES})
            return kinds, _singles(len(kinds), True)
        if phase == "replace":
            kinds = M.replacement_options(self.melds[FOE], hand, self._cs)
            return kinds, _singles(len(kinds), True)
        kinds = sorted(set(hand))  # pass
        return kinds, _singles(len(kinds), False)

    def legal_actions(self, player: int | None = None) -> Sequence[Action]:
        """Legal actions of ``player`` (default: the current player), in a fixed order:
        ``-`` first, then fewer cards first, then card-list order.  Empty off turn and at
        the end.  The result is a lazy :class:`~porphyra.games.byzantium.legal.LegalActions`
        sequence (index, ``len`` and iterate it like a list)."""
        if self.phase == "over" or (player is not None and player != self.current_player()):
            return []
        kinds, table = self._table()
        return LegalActions(self.game.action_builder(PHASES[self.phase][0]), kinds, table)

    def illegal_reason(self, action: Action, player: int | None = None) -> str | None:
        """Why ``action`` is not legal now for ``player`` (default: current), or ``None``."""
        if self.phase == "over":
            return "the game is over"
        if player is not None and player != self.current_player():
            return (
                f"not your turn: seat {self.current_player()} decides now "
                f"({PHASES[self.phase][0]} phase)"
            )
        if not isinstance(action, ByzantiumAction):
            return f"{action!r} is not a Byzantium action"
        verb = PHASES[self.phase][0]
        if action.verb != verb:
            return f"wrong phase: it is the {verb} phase, not {action.verb}"
        by_slug = self._cs.by_slug
        unknown = [s for s in action.cards if s not in by_slug]
        if unknown:
            return f"unknown card {unknown[0]!r}"
        kinds = sorted(by_slug[s].index for s in action.cards)
        cards = [self._cs.cards[k] for k in kinds]
        seat = self.current_player()
        if verb in ("redraw", "meld", "pass", "replace"):
            missing = Counter(kinds) - Counter(self.hands[seat])
            if missing:
                return f"card not in hand: {', '.join(self._cs.cards[k].slug for k in missing)}"
        if verb == "redraw":
            if len(kinds) > M.REDRAW_LIMIT:
                return f"redraw at most {M.REDRAW_LIMIT} cards, not {len(kinds)} (B-R10)"
            return None
        if verb == "meld":
            problem = M.meld_problem(cards, DECK_NAMES[self._deck_of_seat(seat)])
            return None if problem is None else f"meld over a limit: {problem}"
        if len(kinds) > 1:
            return f"{verb} takes a single card"
        if verb == "pass":
            return None if kinds else "pass needs the card to pass"
        if not kinds:
            return None  # "target -" / "replace -"
        if verb == "target":
            if cards[0].type in M.FOE_PEOPLES and kinds[0] in self.melds[FOE]:
                return None
            return (
                f"{cards[0].slug!r} is not a Northern or Southern Foe card in the Foe meld (B-R4)"
            )
        if kinds[0] in M.replacement_options(self.melds[FOE], self.hands[seat], self._cs):
            return None
        return (
            f"{cards[0].slug!r} cannot replace: it must be a Northern or Southern Foe "
            f"card that keeps the Foe meld within its limits (B-R4)"
        )

    def apply_action(self, action: Action) -> None:
        """Apply the current player's decision and run the game on to the next decision.

        Raises:
            IllegalActionError: not legal now (the message says why); the state is unchanged.
        """
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(reason)
        assert isinstance(action, ByzantiumAction)
        seat = self.current_player()
        kinds = tuple(sorted(self._cs.by_slug[s].index for s in action.cards))
        self._history.append((seat, action))
        phase = self.phase
        if phase == "redraw_byz":
            self.pending[seat] = kinds
            self.phase = "redraw_foe"
        elif phase == "redraw_foe":
            self.pending[seat] = kinds
            turn.finish_redraw(self)
        elif phase == "meld_byz":
            self.pending[seat] = kinds
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
            if len(self.hands[self.foe]) >= 2:
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
    def public_observation(self) -> dict[str, Any]:
        """What everyone sees (section 4), built by
        :func:`porphyra.games.byzantium.view.public`."""
        return view.public(self)

    def observation(self, player: int) -> dict[str, Any]:
        """``public_observation`` plus what seat ``player`` alone knows: its hand, its own
        pending choice, the cards it knows in the other hand, and its private log."""
        return view.seat(self, player)

    # ----------------------------------------------------------------- search support
    def clone(self) -> ByzantiumState:
        """An independent copy (shallow copies of the small int lists; cheap)."""
        new = object.__new__(ByzantiumState)
        new.__dict__.update(self.__dict__)
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
        new._history = list(self._history)
        new.result = None if self.result is None else dict(self.result)
        return new

    def resample(self, player: int, rng: random.Random) -> ByzantiumState:
        """A state consistent with ``observation(player)``: the other hand (beyond the cards
        ``player`` knows in it), both draw-pile orders, the other seat's pending hidden
        choice and the generator's future are redrawn with ``rng`` (see
        :func:`porphyra.games.byzantium.view.resample`)."""
        return view.resample(self, player, rng)

    def hidden_from(self, player: int) -> Hashable:
        """Fingerprint of what ``player`` cannot see: the other hand, the draw-pile orders,
        the other seat's pending choice and the generator key."""
        return view.hidden_from(self, player)

    def card(self, slug: str) -> Card:
        """The card ``slug`` of this game's card set."""
        return self._cs.by_slug[slug]
