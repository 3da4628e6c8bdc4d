"""The Byzantium state machine: the six phases of a turn over 12 turns and 3 Ages.

Implements ``shared/rules/byzantium.md`` sections 1-5 and rulings B-R1 … B-R10.  Decisions
(redraw, meld, negotiation target and replacement, the card to pass) are asked one seat at a
time, the Byzantine player first (B-R3); a seat's pending choice stays hidden from the other
seat until both have chosen.  Everything else (drawing, the Age phase, resolving melds, the
Legacy phase, passing cards, age shuffles) happens automatically between decisions.

Zones hold card kinds (``Card.index``); deck 0 is the Byzantine deck, deck 1 the Foe deck.
A draw pile's top card is the last element of its list.
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
from porphyra.games.byzantium.actions import ByzantiumAction
from porphyra.games.byzantium.cards import AGES, Card
from porphyra.games.byzantium.legal import LegalActions

if TYPE_CHECKING:
    from porphyra.games.byzantium.game import ByzantiumGame

BYZ, FOE = 0, 1
DECK_NAMES = ("byzantine", "foe")
TURNS = 12
START_LT, START_TT, MAX_TT = 10, 10, 20
COLLAPSE_PENALTY = 3
FOE_HAND = 8
BYZ_HAND = (9, 8, 7)  # by age (section 3, phase 1)
REVEALED_DRAWS = 4
PUBLIC = -1

# Decision phases: (public phase name, who decides: BYZ = Emperor, FOE = the Foe player)
PHASES: dict[str, tuple[str, int]] = {
    "redraw_byz": ("redraw", BYZ),
    "redraw_foe": ("redraw", FOE),
    "meld_byz": ("meld", BYZ),
    "meld_foe": ("meld", FOE),
    "target": ("target", BYZ),
    "replace": ("replace", FOE),
    "pass_byz": ("pass", BYZ),
    "pass_foe": ("pass", FOE),
}
VERB_OF = {
    "redraw": "redraw",
    "meld": "meld",
    "target": "target",
    "replace": "replace",
    "pass": "pass",
}


@lru_cache(maxsize=64)
def _singles(n: int, with_none: bool) -> tuple[tuple[int, ...], ...]:
    """Options ``-`` (if ``with_none``) and each of ``n`` single cards, as positions."""
    return (((),) if with_none else ()) + tuple((i,) for i in range(n))


def _minus(items: list[int], remove: Sequence[int]) -> list[int]:
    """Multiset difference ``items - remove`` (missing items are ignored)."""
    out = list(items)
    for k in remove:
        if k in out:
            out.remove(k)
    return out


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
        cs = self._cs
        for card in cs.cards:
            deck = DECK_NAMES.index(card.deck)
            for _ in range(card.copies):
                if card.first_age == 0:
                    self.draw[deck].append(card.index)
                else:
                    self.set_aside[deck][card.first_age - 1].append(card.index)
        for deck, name in enumerate(DECK_NAMES):
            self._shuffle(self.draw[deck])
            top = [cs.by_slug[s].index for s in stacked.get(name, [])]
            rest = _minus(self.draw[deck], top)
            self.draw[deck] = rest + top[::-1]
        self.emperor = first_emperor
        self._log(
            PUBLIC,
            f"Game start: seat {first_emperor} is the first Emperor; "
            f"the Empire holds {START_TT} TT, each player {START_LT} LT.",
        )
        self._start_turn()

    def _shuffle(self, cards: list[int]) -> None:
        """Shuffle ``cards`` in place with the state's seeded generator (one event each)."""
        self._shuffles += 1
        random.Random(self._rng_key * 1_000_003 + self._shuffles).shuffle(cards)

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

    def _draw_one(self, deck: int) -> int | None:
        """Top card of ``deck``'s draw pile, reshuffling its discard pile if empty [page]."""
        pile = self.draw[deck]
        if not pile:
            if not self.discard[deck]:
                return None
            pile.extend(self.discard[deck])
            self.discard[deck].clear()
            self._shuffle(pile)
            self._log(
                PUBLIC,
                f"The {DECK_NAMES[deck]} draw pile ran out: its discard pile "
                f"({len(pile)} cards) was shuffled into a new draw pile.",
            )
        return pile.pop()

    def _discard_card(self, deck: int, kind: int) -> bool:
        """Discard ``kind``; a card whose ages all lie before the current age is removed
        from the game instead (section 3 phase 2).  Returns True if removed."""
        if self._cs.cards[kind].last_age < self.age:
            self.removed.append(kind)
            return True
        self.discard[deck].append(kind)
        return False

    def _draw(self, seat: int, n: int, usable_only: bool) -> list[int]:
        """Draw ``n`` cards into ``seat``'s hand from its role's deck.

        With ``usable_only`` (after the Age phase, B-R1) an unusable card drawn is discarded
        or removed at once and replaced.  Returns the kinds kept.
        """
        deck = self._deck_of_seat(seat)
        kept: list[int] = []
        dropped: list[int] = []
        cards = self._cs.cards
        while len(kept) < n:
            kind = self._draw_one(deck)
            if kind is None:
                break
            if usable_only and not cards[kind].usable_in(self.age):
                self._discard_card(deck, kind)
                dropped.append(kind)
                continue
            kept.append(kind)
        self.hands[seat].extend(kept)
        self.hands[seat].sort()
        if dropped:
            self._log(
                PUBLIC,
                f"Seat {seat} drew unusable {self._names(dropped)}: discarded "
                f"and replaced at once (B-R1).",
            )
        if len(kept) < n:
            self._log(
                PUBLIC,
                f"The {DECK_NAMES[deck]} deck is exhausted: seat {seat} drew {len(kept)} of {n}.",
            )
        return kept

    # ----------------------------------------------------------------- turn flow
    def _start_turn(self) -> None:
        age = self.age
        self._log(
            PUBLIC,
            f"— Turn {self.turn} ({AGES[age].capitalize()} Age): seat "
            f"{self.emperor} is the Byzantine Emperor, seat {self.foe} the Foe.",
        )
        if self.turn in (5, 9):
            counts = []
            for deck in (BYZ, FOE):
                incoming = self.set_aside[deck][age - 1]
                counts.append(len(incoming))
                self.draw[deck].extend(incoming)  # B-R2: into the draw pile only
                incoming.clear()
                self._shuffle(self.draw[deck])
            self._log(
                PUBLIC,
                f"The {AGES[age].capitalize()} Age begins: {counts[0]} "
                f"Byzantine and {counts[1]} Foe cards are shuffled into the "
                f"draw piles (B-R2).",
            )
        # Phase 1: Draw.  The Foe player first, then the Byzantine player.
        for seat, size in ((self.foe, FOE_HAND), (self.emperor, BYZ_HAND[age])):
            need = max(0, size - len(self.hands[seat]))
            drawn = self._draw(seat, need, usable_only=False)
            self._log(PUBLIC, f"Draw: seat {seat} ({self._role(seat)}) draws {len(drawn)}.")
            self._log(seat, f"You drew: {self._names(drawn)}.")
            if self.game.reveal_first_draws and drawn:
                shown = drawn[:REVEALED_DRAWS]
                self.known[1 - seat].extend(shown)
                self._log(
                    PUBLIC,
                    f"Seat {seat}'s first draws are shown (reveal_first_draws):"
                    f" {self._names(shown)}.",
                )
        # Phase 2: Age.
        for seat in (self.emperor, self.foe):
            deck = self._deck_of_seat(seat)
            bad = [k for k in self.hands[seat] if not self._cs.cards[k].usable_in(age)]
            if not bad:
                continue
            self.hands[seat] = _minus(self.hands[seat], bad)
            self.known[1 - seat] = _minus(self.known[1 - seat], bad)
            removed = [k for k in bad if self._discard_card(deck, k)]
            note = f" ({self._names(removed)} removed from the game)" if removed else ""
            self._log(
                PUBLIC,
                f"Age: seat {seat} discards {len(bad)} card(s) not usable in "
                f"the {AGES[age].capitalize()} Age: {self._names(bad)}{note}.",
            )
            drawn = self._draw(seat, len(bad), usable_only=True)
            self._log(seat, f"You drew: {self._names(drawn)}.")
        self.redrawn = None
        self.phase = "redraw_byz"

    def _finish_redraw(self) -> None:
        """Both seats chose their redraws (B-R3): discard, then draw replacements (B-R1)."""
        counts = [0, 0]
        for seat in (self.emperor, self.foe):
            chosen = list(self.pending[seat] or ())
            self.pending[seat] = None
            counts[seat] = len(chosen)
            deck = self._deck_of_seat(seat)
            self.hands[seat] = _minus(self.hands[seat], chosen)
            self.known[1 - seat] = _minus(self.known[1 - seat], chosen)
            for k in chosen:
                self.discard[deck].append(k)
            drawn = self._draw(seat, len(chosen), usable_only=True)
            self._log(
                PUBLIC,
                f"Redraw: seat {seat} ({self._role(seat)}) redraws "
                f"{len(chosen)}: {self._names(chosen)}.",
            )
            if chosen:
                self._log(seat, f"You drew: {self._names(drawn)}.")
        self.redrawn = counts
        self.phase = "meld_byz"

    def _reveal_melds(self) -> None:
        """Both melds committed: reveal them together, then negotiation or resolution."""
        self.tt_before = self.tt
        self.negotiation = None
        self.melds_turn = self.turn
        for seat in (self.emperor, self.foe):
            meld = list(self.pending[seat] or ())
            self.pending[seat] = None
            self.hands[seat] = _minus(self.hands[seat], meld)
            self.known[1 - seat] = _minus(self.known[1 - seat], meld)
            self.melds[self._deck_of_seat(seat)] = meld
        byz, foe = self.melds
        self._log(
            PUBLIC,
            f"Melds revealed: Byzantine (seat {self.emperor}) "
            f"{self._names(byz)} = {M.meld_force(byz, self._cs)}; Foe (seat "
            f"{self.foe}) {self._names(foe)} = {M.meld_force(foe, self._cs)}.",
        )
        cards = self._cs.cards
        has_negotiation = any(cards[k].type == "Negotiation" for k in byz)
        if has_negotiation and any(cards[k].type in M.FOE_PEOPLES for k in foe):
            self.negotiation = [None, None]
            self.phase = "target"
        else:
            self._resolve_melds()

    def _resolve_melds(self) -> None:
        """Compare forces (ties go to the Foe), move TT (cap 20, B-R5), discard the melds,
        then the collapse check (B-R7) or the Legacy and End phases."""
        cs = self._cs
        byz, foe = self.melds
        fb, ff = M.meld_force(byz, cs), M.meld_force(foe, cs)
        before = self.tt
        if fb > ff:
            self.tt = min(MAX_TT, self.tt + (fb - ff))
            self._log(
                PUBLIC,
                f"The Byzantine meld wins {fb} to {ff}: TT {before} → "
                f"{self.tt}" + (" (capped at 20)" if before + fb - ff > MAX_TT else "") + ".",
            )
        else:
            self.tt -= ff - fb
            outcome = "ties" if fb == ff else "wins"
            self._log(
                PUBLIC,
                f"The Foe meld {outcome} {ff} to {fb}"
                f"{' (ties go to the Foe)' if fb == ff else ''}: TT {before} → "
                f"{self.tt}.",
            )
        unique_removed = []
        for deck, meld in enumerate(self.melds):
            for k in meld:
                if cs.cards[k].unique:
                    self.removed.append(k)
                    unique_removed.append(k)
                else:
                    self.discard[deck].append(k)
        if unique_removed:
            self._log(PUBLIC, f"Unique cards leave play: {self._names(unique_removed)}.")
        if self.tt <= 0:
            self._collapse()
            return
        self._legacy_phase(byz)
        self._start_end_phase()

    def _collapse(self) -> None:
        """TT ≤ 0: the game ends at once; the Emperor loses 3 LT (B-R6, B-R7)."""
        seat = self.emperor
        lost = min(COLLAPSE_PENALTY, self.lt[seat])
        self.lt[seat] -= lost
        self._log(
            PUBLIC,
            f"The Empire collapses (TT {self.tt})! Seat {seat}, the Emperor, "
            f"loses {lost} LT; the game ends at once (B-R7).",
        )
        self._end_game(collapse=True)

    def _legacy_phase(self, byz_meld: list[int]) -> None:
        """Phase 5 (B-R5, B-R6): ±1 LT for TT gained/lost, plus melded legacy values."""
        seat = self.emperor
        parts = []
        if self.tt > self.tt_before:
            self.lt[seat] += 1
            parts.append("+1 (TT gained)")
        elif self.tt < self.tt_before:
            if self.lt[seat] > 0:
                self.lt[seat] -= 1
                parts.append("-1 (TT lost)")
            else:
                parts.append("-0 (TT lost, no LT left, B-R6)")
        cards = self._cs.cards
        for k in byz_meld:
            if cards[k].legacy:
                self.lt[seat] += cards[k].legacy
                parts.append(f"+{cards[k].legacy} ({cards[k].name})")
        if parts:
            self._log(PUBLIC, f"Legacy: seat {seat} {' '.join(parts)} → {self.lt[seat]} LT.")

    def _start_end_phase(self) -> None:
        if self.turn == TURNS:
            # Passing after the last turn could change nothing: no decision is asked.
            self._log(PUBLIC, "After turn 12 no card is passed: the game ends.")
            self._end_game(collapse=False)
            return
        if len(self.hands[self.emperor]) >= 2:
            self.phase = "pass_byz"
        elif len(self.hands[self.foe]) >= 2:
            self.phase = "pass_foe"
        else:
            self._finish_end_phase()

    def _finish_end_phase(self) -> None:
        """Phase 6: discard down to 1 card, pass it, switch the Emperor token (B-R9)."""
        passed: list[int | None] = [None, None]
        for seat in (self.emperor, self.foe):
            hand = self.hands[seat]
            choice = self.pending[seat]
            self.pending[seat] = None
            if not hand:
                self._log(PUBLIC, f"End: seat {seat} has no card left and passes nothing.")
                continue
            keep = choice[0] if choice else hand[0]
            rest = _minus(hand, [keep])
            deck = self._deck_of_seat(seat)
            self.discard[deck].extend(rest)
            passed[seat] = keep
            self._log(
                PUBLIC,
                f"End: seat {seat} discards {self._names(rest)} and passes one "
                f"card to seat {1 - seat}.",
            )
            self._log(seat, f"You passed {self._cs.cards[keep].name} to seat {1 - seat}.")
            self._log(1 - seat, f"You received {self._cs.cards[keep].name} from seat {seat}.")
        for seat in (0, 1):
            given = passed[1 - seat]
            self.hands[seat] = [given] if given is not None else []
            mine = passed[seat]
            self.known[seat] = [mine] if mine is not None else []
        self.turn += 1
        self.emperor = 1 - self.emperor
        self._start_turn()

    def _end_game(self, collapse: bool) -> None:
        self.phase = "over"
        a, b = self.lt
        returns = [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])
        self.result = {
            "returns": returns,
            "legacy": list(self.lt),
            "collapse": collapse,
            "territory": self.tt,
            "turn": self.turn,
        }
        verdict = "a draw" if a == b else f"seat {0 if a > b else 1} wins"
        self._log(PUBLIC, f"Game over after turn {self.turn}: LT {a} – {b}, {verdict} (B-R8).")

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
            self._finish_redraw()
        elif phase == "meld_byz":
            self.pending[seat] = kinds
            self.phase = "meld_foe"
        elif phase == "meld_foe":
            self.pending[seat] = kinds
            self._reveal_melds()
        elif phase == "target":
            self._apply_target(kinds)
        elif phase == "replace":
            self._apply_replace(kinds)
        elif phase == "pass_byz":
            self.pending[seat] = kinds
            if len(self.hands[self.foe]) >= 2:
                self.phase = "pass_foe"
            else:
                self._finish_end_phase()
        else:  # pass_foe
            self.pending[seat] = kinds
            self._finish_end_phase()

    def _apply_target(self, kinds: tuple[int, ...]) -> None:
        assert self.negotiation is not None
        if not kinds:
            self._log(PUBLIC, f"Negotiation: seat {self.emperor} declines to target.")
            self._resolve_melds()
            return
        target = kinds[0]
        card = self._cs.cards[target]
        self.negotiation[0] = target
        self.melds[FOE] = _minus(self.melds[FOE], [target])
        if card.unique:
            self.removed.append(target)
        else:
            self.discard[FOE].append(target)
        self._log(
            PUBLIC,
            f"Negotiation: seat {self.emperor} targets {card.name}, which "
            f"leaves the Foe meld{' and play (unique)' if card.unique else ''}.",
        )
        if M.replacement_options(self.melds[FOE], self.hands[self.foe], self._cs):
            self.phase = "replace"
        else:
            self._log(PUBLIC, f"Seat {self.foe} has no card that can replace it.")
            self._resolve_melds()

    def _apply_replace(self, kinds: tuple[int, ...]) -> None:
        assert self.negotiation is not None
        if kinds:
            k = kinds[0]
            self.negotiation[1] = k
            self.hands[self.foe] = _minus(self.hands[self.foe], [k])
            self.known[self.emperor] = _minus(self.known[self.emperor], [k])
            self.melds[FOE].append(k)
            self._log(PUBLIC, f"Seat {self.foe} replaces it with {self._cs.cards[k].name}.")
        else:
            self._log(PUBLIC, f"Seat {self.foe} declines to replace it.")
        self._resolve_melds()

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
    def _slugs(self, kinds: Sequence[int]) -> list[str]:
        cards = self._cs.cards
        return [cards[k].slug for k in kinds]

    def public_observation(self) -> dict[str, Any]:
        """What everyone sees (section 4): see the module docs for the keys."""
        negotiation = None
        if self.negotiation is not None:
            t, r = self.negotiation
            negotiation = {
                "target": None if t is None else self._cs.cards[t].slug,
                "replacement": None if r is None else self._cs.cards[r].slug,
            }
        phase = "over" if self.phase == "over" else PHASES[self.phase][0]
        return {
            "game": "byzantium",
            "turn": self.turn,
            "age": AGES[self.age],
            "phase": phase,
            "emperor": self.emperor,
            "current_player": self.current_player(),
            "territory": self.tt,
            "legacy": list(self.lt),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_sizes": {n: len(self.draw[d]) for d, n in enumerate(DECK_NAMES)},
            "set_aside": {
                n: sorted(self._slugs(self.set_aside[d][0] + self.set_aside[d][1]))
                for d, n in enumerate(DECK_NAMES)
            },
            "discards": {n: self._slugs(self.discard[d]) for d, n in enumerate(DECK_NAMES)},
            "removed": self._slugs(self.removed),
            "melds": {n: self._slugs(sorted(self.melds[d])) for d, n in enumerate(DECK_NAMES)},
            "melds_turn": self.melds_turn,
            "negotiation": negotiation,
            "redrawn": None if self.redrawn is None else list(self.redrawn),
            "log": [text for who, text in self.events if who == PUBLIC],
            "result": None
            if self.result is None
            else {k: list(v) if isinstance(v, list) else v for k, v in self.result.items()},
        }

    def observation(self, player: int) -> dict[str, Any]:
        """``public_observation`` plus what seat ``player`` alone knows: its hand, its own
        pending choice, the cards it knows in the other hand, and its private log."""
        if player not in (0, 1):
            raise ValueError(f"no seat {player} in a 2-player game")
        obs = self.public_observation()
        pending = self.pending[player]
        obs.update(
            {
                "seat": player,
                "role": "byzantine" if player == self.emperor else "foe",
                "hand": self._slugs(self.hands[player]),
                "pending_meld": (
                    self._slugs(pending)
                    if pending is not None and self.phase == "meld_foe"
                    else None
                ),
                "pending_choice": None if pending is None else self._slugs(pending),
                "known_opponent_cards": self._slugs(sorted(self.known[player])),
                "log": [text for who, text in self.events if who in (PUBLIC, player)],
            }
        )
        return obs

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
        choice and the generator's future are redrawn with ``rng``.  The other seat's
        private log, the history and the seed are scrubbed (they would reveal the truth)."""
        s = self.clone()
        opp = 1 - player
        opp_deck = s._deck_of_seat(opp)
        hidden = _minus(s.hands[opp], s.known[player])
        # Hands hold only cards usable in this age (B-R1), so the unknown part of the other
        # hand is drawn from the usable cards among it and the draw pile.
        cards = s._cs.cards
        # Sorted first, so the result depends only on what ``player`` knows and on ``rng``
        # (never on the true order), which keeps seeded bots blind to hidden changes.
        pool = sorted(hidden + s.draw[opp_deck])
        usable = [k for k in pool if cards[k].usable_in(s.age)]
        rng.shuffle(usable)
        s.hands[opp] = sorted(s.known[player] + usable[: len(hidden)])
        rest = usable[len(hidden) :] + [k for k in pool if not cards[k].usable_in(s.age)]
        rng.shuffle(rest)
        s.draw[opp_deck] = rest
        own = s.draw[1 - opp_deck]
        own.sort()
        rng.shuffle(own)
        if s.pending[opp] is not None:
            # The other seat already chose, hidden: draw a random legal choice instead.
            s.pending[opp] = None
            keep_phase = s.phase
            s.phase = {"redraw_foe": "redraw_byz", "meld_foe": "meld_byz", "pass_foe": "pass_byz"}[
                keep_phase
            ]
            kinds, table = s._table()
            choice = table[rng.randrange(len(table))]
            s.pending[opp] = tuple(kinds[p] for p in choice)
            s.phase = keep_phase
        s._rng_key = rng.getrandbits(62)
        s._seed = -1
        s._history = []
        s.events = [(who, text) for who, text in s.events if who != opp]
        return s

    def hidden_from(self, player: int) -> Hashable:
        """Fingerprint of what ``player`` cannot see: the other hand, the draw-pile orders,
        the other seat's pending choice and the generator key."""
        opp = 1 - player
        return (
            tuple(self.hands[opp]),
            tuple(self.draw[0]),
            tuple(self.draw[1]),
            self.pending[opp],
            self._rng_key,
        )

    def card(self, slug: str) -> Card:
        """The card ``slug`` of this game's card set."""
        return self._cs.by_slug[slug]
