"""The turn sequence of Byzantium: the automatic steps between decisions.

Setup, then each turn's six phases (``shared/rules/byzantium.md`` section 3): the age
shuffle (B-R2), Draw and Age, the redraws once both seats chose (B-R3, B-R1), the meld
reveal, Negotiation (B-R4), the resolution of the melds (B-R5) and the collapse (B-R6,
B-R7), the Legacy phase (B-R5, B-R6) and the End phase (B-R9), and the end of the game
(B-R8).  Decisions themselves are checked and recorded by
:meth:`~porphyra.games.byzantium.state.ByzantiumState.apply_action`, which calls in here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from porphyra.core.messages import Arg, Joined, Message, Term
from porphyra.core.outcome import returns_from_keys
from porphyra.games.byzantium import melds as M
from porphyra.games.byzantium.cards import AGES, Cards
from porphyra.games.byzantium.decks import discard_card, draw, shuffle
from porphyra.games.byzantium.rules import (
    BYZ,
    BYZ_HAND,
    COLLAPSE_PENALTY,
    DECK_NAMES,
    FOE,
    FOE_HAND,
    MAX_TT,
    PUBLIC,
    REVEALED_DRAWS,
    START_LT,
    START_TT,
    TURNS,
    minus,
)

if TYPE_CHECKING:
    from porphyra.games.byzantium.state import ByzantiumState

#: The Ages' names as the log writes them.
AGE_TITLES: Final = tuple(age.capitalize() for age in AGES)


def setup(s: ByzantiumState, first_emperor: int, stacked: dict[str, list[str]]) -> None:
    """Build the draw piles (later-age cards set aside, section 2), shuffle them with
    ``stacked`` cards on top, seat the first Emperor and run turn 1 to its first decision."""
    cs = s._cs
    for card in cs.cards:
        deck = DECK_NAMES.index(card.deck)
        for _ in range(card.copies):
            if card.first_age == 0:
                s.draw[deck].append(card.index)
            else:
                s.set_aside[deck][card.first_age - 1].append(card.index)
    for deck, name in enumerate(DECK_NAMES):
        shuffle(s, s.draw[deck])
        top = [cs.by_slug[slug].index for slug in stacked.get(name, [])]
        rest = minus(s.draw[deck], top)
        s.draw[deck] = rest + top[::-1]
    s.emperor = first_emperor
    s._log(
        PUBLIC,
        "Game start: seat {} is the first Emperor; the Empire holds {} TT, each player {} LT.",
        first_emperor,
        START_TT,
        START_LT,
    )
    start_turn(s)


def start_turn(s: ByzantiumState) -> None:
    """Start turn ``s.turn``: the age shuffle (B-R2), phase 1 Draw and phase 2 Age, up to
    the Emperor's redraw decision."""
    age = s.age
    s._log(
        PUBLIC,
        "— Turn {} ({} Age): seat {} is the Byzantine Emperor, seat {} the Foe.",
        s.turn,
        Term(AGE_TITLES[age]),
        s.emperor,
        s.foe,
    )
    if s.turn in (5, 9):
        counts = []
        for deck in (BYZ, FOE):
            incoming = s.set_aside[deck][age - 1]
            counts.append(len(incoming))
            s.draw[deck].extend(incoming)  # B-R2: into the draw pile only
            incoming.clear()
            shuffle(s, s.draw[deck])
        s._log(
            PUBLIC,
            "The {} Age begins: {} Byzantine and {} Foe cards are shuffled into the "
            "draw piles (B-R2).",
            Term(AGE_TITLES[age]),
            counts[0],
            counts[1],
        )
    # Phase 1: Draw.  The Foe player first, then the Byzantine player.
    for seat, size in ((s.foe, FOE_HAND), (s.emperor, BYZ_HAND[age])):
        need = max(0, size - len(s.hands[seat]))
        drawn = draw(s, seat, need, usable_only=False)
        s._log(PUBLIC, "Draw: seat {} ({}) draws {}.", seat, Term(s._role(seat)), len(drawn))
        s._log(seat, "You drew: {}.", Cards(drawn))
        if s.game.reveal_first_draws and drawn:
            shown = drawn[:REVEALED_DRAWS]
            s.known[1 - seat].extend(shown)
            s._log(
                PUBLIC,
                "Seat {}'s first draws are shown (reveal_first_draws): {}.",
                seat,
                Cards(shown),
            )
    # Phase 2: Age.
    usable = s.game.usable_in_age[age]
    for seat in (s.emperor, s.foe):
        bad = [k for k in s.hands[seat] if not usable[k]]
        if not bad:
            continue
        deck = s._deck_of_seat(seat)
        s.hands[seat] = minus(s.hands[seat], bad)
        s.known[1 - seat] = minus(s.known[1 - seat], bad)
        removed = [k for k in bad if discard_card(s, deck, k)]
        s._log(
            PUBLIC,
            "Age: seat {} discards {} card(s) not usable in the {} Age: {}"
            + (" ({} removed from the game)." if removed else "."),
            seat,
            len(bad),
            Term(AGE_TITLES[age]),
            Cards(bad),
            *((Cards(removed),) if removed else ()),
        )
        drawn = draw(s, seat, len(bad), usable_only=True)
        s._log(seat, "You drew: {}.", Cards(drawn))
    s.redrawn = None
    s.phase = "redraw_byz"


def finish_redraw(s: ByzantiumState) -> None:
    """Both seats chose their redraws (B-R3): discard, then draw replacements (B-R1)."""
    counts = [0, 0]
    for seat in (s.emperor, s.foe):
        chosen = list(s.pending[seat] or ())
        s.pending[seat] = None
        counts[seat] = len(chosen)
        deck = s._deck_of_seat(seat)
        s.hands[seat] = minus(s.hands[seat], chosen)
        s.known[1 - seat] = minus(s.known[1 - seat], chosen)
        for k in chosen:
            s.discard[deck].append(k)
        drawn = draw(s, seat, len(chosen), usable_only=True)
        s._log(
            PUBLIC,
            "Redraw: seat {} ({}) redraws {}: {}.",
            seat,
            Term(s._role(seat)),
            len(chosen),
            Cards(chosen),
        )
        if chosen:
            s._log(seat, "You drew: {}.", Cards(drawn))
    s.redrawn = counts
    s.phase = "meld_byz"


def reveal_melds(s: ByzantiumState) -> None:
    """Both melds committed: reveal them together, then negotiation or resolution."""
    s.tt_before = s.tt
    s.negotiation = None
    s.melds_turn = s.turn
    for seat in (s.emperor, s.foe):
        meld = list(s.pending[seat] or ())
        s.pending[seat] = None
        s.hands[seat] = minus(s.hands[seat], meld)
        s.known[1 - seat] = minus(s.known[1 - seat], meld)
        s.melds[s._deck_of_seat(seat)] = meld
    byz, foe = s.melds
    s._log(
        PUBLIC,
        "Melds revealed: Byzantine (seat {}) {} = {}; Foe (seat {}) {} = {}.",
        s.emperor,
        Cards(byz),
        M.meld_force(byz, s._cs),
        s.foe,
        Cards(foe),
        M.meld_force(foe, s._cs),
    )
    cards = s._cs.cards
    has_negotiation = any(cards[k].type == "Negotiation" for k in byz)
    if has_negotiation and any(cards[k].type in M.FOE_PEOPLES for k in foe):
        s.negotiation = [None, None]
        s.phase = "target"
    else:
        resolve_melds(s)


def apply_target(s: ByzantiumState, kinds: tuple[int, ...]) -> None:
    """The Emperor's Negotiation target (B-R4): ``()`` declines, else it leaves the Foe meld
    and the Foe is asked for a replacement (B-R11: always, even when none fits)."""
    assert s.negotiation is not None
    if not kinds:
        s._log(PUBLIC, "Negotiation: seat {} declines to target.", s.emperor)
        resolve_melds(s)
        return
    target = kinds[0]
    card = s._cs.cards[target]
    s.negotiation[0] = target
    s.melds[FOE] = minus(s.melds[FOE], [target])
    if card.unique:
        s.removed.append(target)
    else:
        s.discard[FOE].append(target)
    s._log(
        PUBLIC,
        "Negotiation: seat {} targets {}, which leaves the Foe meld"
        + (" and play (unique)." if card.unique else "."),
        s.emperor,
        Term(card.name),
    )
    if s.game.always_ask_replace or M.replacement_options(s.melds[FOE], s.hands[s.foe], s._cs):
        # B-R11: the Foe is asked even with no fitting card (then only ``replace -``), so
        # that nobody learns from the sequence of decisions what the Foe's hand holds.
        s.phase = "replace"
    else:  # rules version 1 only (records made before B-R11)
        s._log(PUBLIC, "Seat {} has no card that can replace it.", s.foe)
        resolve_melds(s)


def apply_replace(s: ByzantiumState, kinds: tuple[int, ...]) -> None:
    """The Foe player's replacement for the target (B-R4): ``()`` declines.  The log line
    for ``()`` is the same whether the Foe could have replaced or not (B-R11)."""
    assert s.negotiation is not None
    if kinds:
        k = kinds[0]
        s.negotiation[1] = k
        s.hands[s.foe] = minus(s.hands[s.foe], [k])
        s.known[s.emperor] = minus(s.known[s.emperor], [k])
        s.melds[FOE].append(k)
        s._log(PUBLIC, "Seat {} replaces it with {}.", s.foe, Term(s._cs.cards[k].name))
    else:
        s._log(PUBLIC, "Seat {} declines to replace it.", s.foe)
    resolve_melds(s)


def resolve_melds(s: ByzantiumState) -> None:
    """Compare forces (ties go to the Foe), move TT (cap 20, B-R5), discard the melds,
    then the collapse check (B-R7) or the Legacy and End phases."""
    cs = s._cs
    byz, foe = s.melds
    fb, ff = M.meld_force(byz, cs), M.meld_force(foe, cs)
    before = s.tt
    if fb > ff:
        s.tt = min(MAX_TT, s.tt + (fb - ff))
        s._log(
            PUBLIC,
            "The Byzantine meld wins {} to {}: TT {} → {}"
            + (" (capped at 20)." if before + fb - ff > MAX_TT else "."),
            fb,
            ff,
            before,
            s.tt,
        )
    else:
        s.tt -= ff - fb
        s._log(
            PUBLIC,
            "The Foe meld ties {} to {} (ties go to the Foe): TT {} → {}."
            if fb == ff
            else "The Foe meld wins {} to {}: TT {} → {}.",
            ff,
            fb,
            before,
            s.tt,
        )
    unique_removed = []
    for deck, meld in enumerate(s.melds):
        for k in meld:
            if cs.cards[k].unique:
                s.removed.append(k)
                unique_removed.append(k)
            else:
                s.discard[deck].append(k)
    if unique_removed:
        s._log(PUBLIC, "Unique cards leave play: {}.", Cards(unique_removed))
    if s.tt <= 0:
        collapse_empire(s)
        return
    legacy_phase(s, byz)
    start_end_phase(s)


def collapse_empire(s: ByzantiumState) -> None:
    """TT ≤ 0: the game ends at once; the Emperor loses 3 LT (B-R6, B-R7)."""
    seat = s.emperor
    lost = min(COLLAPSE_PENALTY, s.lt[seat])
    s.lt[seat] -= lost
    s._log(
        PUBLIC,
        "The Empire collapses (TT {})! Seat {}, the Emperor, loses {} LT; "
        "the game ends at once (B-R7).",
        s.tt,
        seat,
        lost,
    )
    end_game(s, collapse=True)


def legacy_phase(s: ByzantiumState, byz_meld: list[int]) -> None:
    """Phase 5 (B-R5, B-R6): ±1 LT for TT gained/lost, plus melded legacy values."""
    seat = s.emperor
    parts: list[Arg] = []
    if s.tt > s.tt_before:
        s.lt[seat] += 1
        parts.append(Term("+1 (TT gained)"))
    elif s.tt < s.tt_before:
        if s.lt[seat] > 0:
            s.lt[seat] -= 1
            parts.append(Term("-1 (TT lost)"))
        else:
            parts.append(Term("-0 (TT lost, no LT left, B-R6)"))
    cards = s._cs.cards
    for k in byz_meld:
        if cards[k].legacy:
            s.lt[seat] += cards[k].legacy
            parts.append(Message("+{0} ({1})", (cards[k].legacy, Term(cards[k].name))))
    if parts:
        s._log(PUBLIC, "Legacy: seat {} {} → {} LT.", seat, Joined(" ", tuple(parts)), s.lt[seat])


def start_end_phase(s: ByzantiumState) -> None:
    """Phase 6 begins: ask each seat holding 2+ cards which card to pass (Emperor first)."""
    if s.turn == TURNS:
        # Passing after the last turn could change nothing: no decision is asked.
        s._log(PUBLIC, "After turn 12 no card is passed: the game ends.")
        end_game(s, collapse=False)
        return
    if len(s.hands[s.emperor]) >= 2:
        s.phase = "pass_byz"
    elif len(s.hands[s.foe]) >= 2:
        s.phase = "pass_foe"
    else:
        finish_end_phase(s)


def finish_end_phase(s: ByzantiumState) -> None:
    """Phase 6: discard down to 1 card, pass it, switch the Emperor token (B-R9)."""
    passed: list[int | None] = [None, None]
    for seat in (s.emperor, s.foe):
        hand = s.hands[seat]
        choice = s.pending[seat]
        s.pending[seat] = None
        if not hand:
            s._log(PUBLIC, "End: seat {} has no card left and passes nothing.", seat)
            continue
        keep = choice[0] if choice else hand[0]
        rest = minus(hand, [keep])
        deck = s._deck_of_seat(seat)
        s.discard[deck].extend(rest)
        passed[seat] = keep
        s._log(
            PUBLIC,
            "End: seat {} discards {} and passes one card to seat {}.",
            seat,
            Cards(rest),
            1 - seat,
        )
        name = Term(s._cs.cards[keep].name)
        s._log(seat, "You passed {} to seat {}.", name, 1 - seat)
        s._log(1 - seat, "You received {} from seat {}.", name, seat)
    for seat in (0, 1):
        given = passed[1 - seat]
        s.hands[seat] = [given] if given is not None else []
        mine = passed[seat]
        s.known[seat] = [mine] if mine is not None else []
    s.turn += 1
    s.emperor = 1 - s.emperor
    start_turn(s)


def end_game(s: ByzantiumState, collapse: bool) -> None:
    """The game is over: record the result (B-R8)."""
    s.phase = "over"
    a, b = s.lt
    returns = returns_from_keys(s.lt)
    s.result = {
        "returns": returns,
        "legacy": list(s.lt),
        "collapse": collapse,
        "territory": s.tt,
        "turn": s.turn,
    }
    if a == b:
        s._log(PUBLIC, "Game over after turn {}: LT {} – {}, a draw (B-R8).", s.turn, a, b)
    else:
        s._log(
            PUBLIC,
            "Game over after turn {}: LT {} – {}, seat {} wins (B-R8).",
            s.turn,
            a,
            b,
            0 if a > b else 1,
        )
