"""Meld limits and the enumeration of legal melds and redraws (rules section 3, phase 4).

- Byzantine meld: at most 1 Leader, 2 Recovery, 4 Troop, 1 Negotiation, 2 Legacy.
- Foe meld: at most 1 Northern Foe, 1 Southern Foe, 2 Disaster (at most 1 natural),
  4 Troop.  A meld may be empty.

Hands and melds are lists of card kinds (``Card.index``); copies are interchangeable, so
options are sub-multisets.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Final

from porphyra.core.messages import Message, Term, msg
from porphyra.games.byzantium.cards import Card, CardSet

LIMITS: Final[dict[str, dict[str, int]]] = {
    "byzantine": {"Leader": 1, "Recovery": 2, "Troop": 4, "Negotiation": 1, "Legacy": 2},
    "foe": {"Northern Foe": 1, "Southern Foe": 1, "Disaster": 2, "Troop": 4},
}
MAX_NATURAL_DISASTERS: Final = 1
FOE_PEOPLES: Final = ("Northern Foe", "Southern Foe")
REDRAW_LIMIT: Final = 4


def meld_problem(cards: Iterable[Card], deck: str) -> Message | None:
    """Why ``cards`` is not a legal meld for ``deck`` (``None`` if it is).

    Returns a message (id and arguments) whose English text is such as
    ``"2 Leader cards (limit 1)"`` or ``"'archers' is a foe card, not a byzantine card"``.
    """
    counts: Counter[str] = Counter()
    natural = 0
    for card in cards:
        if card.deck != deck:
            return msg(
                "{0} is a {1} card, not a {2} card",
                Term(card.name, repr(card.slug)),
                Term(card.deck),
                Term(deck),
            )
        counts[card.type] += 1
        natural += card.natural
    for typ, n in counts.items():
        limit = LIMITS[deck][typ]
        if n > limit:
            return msg("{0} {1} cards (limit {2})", n, Term(typ), limit)
    if natural > MAX_NATURAL_DISASTERS:
        return msg("{0} natural Disaster cards (limit {1})", natural, MAX_NATURAL_DISASTERS)
    return None


def _submultisets(counts: list[tuple[int, int]], max_total: int) -> list[tuple[int, ...]]:
    """All sub-multisets (as sorted kind tuples) of ``counts`` with at most ``max_total``
    cards; ``counts`` lists ``(kind, copies)`` pairs."""
    out: list[tuple[int, ...]] = [()]
    for kind, copies in counts:
        grown: list[tuple[int, ...]] = []
        for base in out:
            room = max_total - len(base)
            for n in range(min(copies, room) + 1):
                grown.append(base + (kind,) * n)
        out = grown
    return out


@lru_cache(maxsize=4096)
def redraw_table(counts: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every legal redraw (B-R10: at most 4 cards) of a hand whose distinct cards have
    ``counts`` copies, as tuples of positions into those distinct cards, in legal-action
    order (fewer cards first).  Cached: hands of the same shape share one table."""
    return tuple(sorted(_submultisets(list(enumerate(counts)), REDRAW_LIMIT), key=_order))


@lru_cache(maxsize=65536)
def meld_table(shape: tuple[tuple[int, str, bool], ...], deck: str) -> tuple[tuple[int, ...], ...]:
    """Every legal meld (section 3 phase 4 limits) of a hand whose distinct cards have the
    ``shape`` ``(copies, type, natural)``, as position tuples in legal-action order.

    Generated already in order, without sorting: a depth-first walk that extends a meld
    only with a position at or after its last one visits the melds in lexicographic order,
    and collecting them by size gives "fewer cards first, then card-list order".  A branch
    stops as soon as a type's limit or the natural-disaster limit would be exceeded.
    """
    limits = LIMITS[deck]
    type_ids: dict[str, int] = {}
    kind_type = [type_ids.setdefault(typ, len(type_ids)) for _, typ, _ in shape]
    room = [limits[typ] for typ in type_ids]  # cards each type may still take
    copies = [n for n, _, _ in shape]
    natural = [nat for _, _, nat in shape]
    size = len(shape)
    by_size: list[list[tuple[int, ...]]] = [[] for _ in range(sum(room) + 1)]

    def extend(meld: tuple[int, ...], first: int, run: int, naturals: int) -> None:
        by_size[len(meld)].append(meld)
        for pos in range(first, size):
            if pos == first and run >= copies[pos]:
                continue  # every copy of the last card is in already
            typ = kind_type[pos]
            if not room[typ]:
                continue
            nat = natural[pos]
            if nat and naturals >= MAX_NATURAL_DISASTERS:
                continue
            room[typ] -= 1
            extend((*meld, pos), pos, run + 1 if pos == first else 1, naturals + nat)
            room[typ] += 1

    extend((), 0, 0, 0)
    return tuple(itertools.chain.from_iterable(by_size))


def hand_shape(hand: Sequence[int]) -> tuple[list[int], tuple[int, ...]]:
    """The distinct kinds of ``hand`` in card-list order and their copy counts."""
    kinds: list[int] = []
    counts: list[int] = []
    last = -1
    for k in sorted(hand):  # (hands are kept sorted: a sorted list sorts in one pass)
        if k == last:
            counts[-1] += 1
        else:
            kinds.append(k)
            counts.append(1)
            last = k
    return kinds, tuple(counts)


def _order(option: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return (len(option), option)


def meld_force(meld: Iterable[int], cardset: CardSet) -> int:
    """Total force of a meld, in force points."""
    forces = cardset.forces
    return sum([forces[k] for k in meld])


def replacement_options(meld: list[int], hand: Iterable[int], cardset: CardSet) -> list[int]:
    """Kinds in ``hand`` that may replace a negotiated card in the Foe ``meld`` (B-R4):
    Northern or Southern Foe cards that keep the meld within its limits."""
    cards = cardset.cards
    out = []
    for kind in sorted(set(hand)):
        card = cards[kind]
        if (
            card.type in FOE_PEOPLES
            and meld_problem([cards[k] for k in [*meld, kind]], "foe") is None
        ):
            out.append(kind)
    return out
