"""The meld table as a ranked sequence: its length and any entry without building it.

A hand's meld table (:func:`~porphyra.games.byzantium.melds.meld_table`) can list thousands
of melds, and a random playout looks at one of them.  :class:`MeldTable` is the same
sequence, entry for entry, but computes ``len`` and ``table[i]`` by counting
(combinatorial unranking) instead of listing: the full list is only built when the table
is iterated.

How it counts.  A meld is a count vector ``c`` over the hand's distinct cards (positions);
it is legal when every type stays within its limit and it holds at most
:data:`~porphyra.games.byzantium.melds.MAX_NATURAL_DISASTERS` natural disasters (section 3
phase 4).  The table's order is "fewer cards first, then card-list order" of the sorted
position tuples; among melds of one size that is the order of count vectors compared
position by position with *more* copies first.  Types constrain each other only through the
meld's size, and natural disasters are all of one type (the card file's validation), so the
number of completions of a prefix is a coefficient of a product of per-type generating
polynomials over the remaining positions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Any, Final, overload

from porphyra.games.byzantium import melds as M
from porphyra.games.byzantium.cards import CardSet

#: A generating polynomial is packed into one integer, ``bits`` per coefficient (Kronecker
#: substitution: ``sum(ways[s] << (bits * s))``), so that polynomial products are integer
#: products done in C.  Each table picks the fewest bits that keep its coefficients apart
#: (see :class:`MeldTable`); the largest meld, in cards, the packing masks allow for:
_DEGREES: Final = 16


@lru_cache(maxsize=64)
def _masks(bits: int) -> tuple[int, ...]:
    """``_masks(bits)[d]`` keeps the coefficients of degrees ``0..d``."""
    return tuple([(1 << (bits * (d + 1))) - 1 for d in range(_DEGREES)])


def _coef(poly: int, s: int, bits: int) -> int:
    """Coefficient ``s`` of a packed polynomial."""
    return (poly >> (bits * s)) & ((1 << bits) - 1)


@lru_cache(maxsize=8192)
def _type_rows(
    sub: tuple[tuple[int, bool], ...], cap: int, bits: int
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """Packed generating polynomials of one type's positions, and their total count:
    ``rows[a][b]`` counts the ways to take cards from the type's ``a``-th position on
    (``sub`` lists ``(copies, natural)``), at most ``cap`` of them and at most ``b`` natural
    disasters; the count is that of ``rows[0][MAX_NATURAL_DISASTERS]``."""
    budget = M.MAX_NATURAL_DISASTERS
    keep = _masks(bits)[cap]
    rows: list[tuple[int, ...]] = [(1,) * (budget + 1)]
    for copies, natural in reversed(sub):
        after = rows[0]
        row = []
        for b in range(budget + 1):
            most = min(copies, cap, b) if natural else min(copies, cap)
            total = 0
            for k in range(most + 1):
                total += after[b - k if natural else b] << (bits * k)
            row.append(total & keep)
        rows.insert(0, tuple(row))
    return tuple(rows), sum([_coef(rows[0][budget], d, bits) for d in range(cap + 1)])


#: Each deck's card types, in a fixed order: a type's index into its deck's limits.
DECK_TYPES: Final[dict[str, tuple[str, ...]]] = {deck: tuple(M.LIMITS[deck]) for deck in M.LIMITS}
_DECK_LIMITS: Final = {deck: tuple(M.LIMITS[deck].values()) for deck in M.LIMITS}


class MeldTable(Sequence[tuple[int, ...]]):
    """The legal melds of a hand, as position tuples in legal-action order.

    Args:
        copies: copies of each distinct card of the hand, in card-list order (positions).
        types: each position's type, as an index into ``DECK_TYPES[deck]``.
        naturals: whether each position is a natural disaster.
        deck: ``"byzantine"`` or ``"foe"``: whose limits apply.

    ``len`` costs one product; ``table[i]`` a walk over the positions; both are exact and
    agree with :func:`~porphyra.games.byzantium.melds.meld_table` (a test checks every
    entry on thousands of hands).  Iterating builds (and caches) the full list.  Build one
    from a shape with :meth:`from_shape`, or from a hand with :func:`melds_of_hand`.

    Raises:
        IndexError: ``table[i]`` outside ``-len(table) <= i < len(table)``.
    """

    __slots__ = (
        "_bits",
        "_by_size",
        "_copies",
        "_deck",
        "_full",
        "_len",
        "_masks",
        "_naturals",
        "_rows",
        "_types",
    )

    def __init__(
        self, copies: Sequence[int], types: Sequence[int], naturals: Sequence[bool], deck: str
    ) -> None:
        # Tuples all through: once a collection has seen them, tuples of ints leave the
        # garbage collector's lists, and cached tables are many and long-lived.
        self._copies = tuple(copies)
        self._types = tuple(types)
        self._naturals = tuple(naturals)
        self._deck = deck
        # Every coefficient of every product below counts sub-multisets of (part of) the
        # hand, so it is below their number: bits enough for that keep coefficients apart
        # (no carries), and fewer bits make the integers, and their products, smaller.
        bound = 1
        for n in copies:
            bound *= n + 1
        bits = bound.bit_length()
        self._bits = bits
        self._masks = _masks(bits)
        limits = _DECK_LIMITS[deck]
        subs: list[list[tuple[int, bool]]] = [[] for _ in limits]
        for n, t, natural in zip(copies, types, naturals, strict=True):
            subs[t].append((n, natural))
        rows_of = []
        # Types are independent but for the meld's size: the count is a product.
        count = 1
        for sub, cap in zip(subs, limits, strict=True):
            rows, ways = _type_rows(tuple(sub), cap, bits)
            rows_of.append(rows)
            count *= ways
        self._rows = tuple(rows_of)
        self._len = count
        self._by_size: tuple[int, ...] | None = None  # melds of each size, on first index
        self._full: tuple[tuple[int, ...], ...] | None = None

    @classmethod
    def from_shape(cls, shape: tuple[tuple[int, str, bool], ...], deck: str) -> MeldTable:
        """The table of a hand ``shape``: its distinct cards as ``(copies, type, natural)``
        in card-list order (the key of :func:`~porphyra.games.byzantium.melds.meld_table`)."""
        index = {typ: i for i, typ in enumerate(DECK_TYPES[deck])}
        return cls(
            [n for n, _, _ in shape],
            [index[typ] for _, typ, _ in shape],
            [nat for _, _, nat in shape],
            deck,
        )

    @property
    def shape(self) -> tuple[tuple[int, str, bool], ...]:
        """The hand shape ``(copies, type, natural)`` per position."""
        names = DECK_TYPES[self._deck]
        return tuple(
            (n, names[t], nat)
            for n, t, nat in zip(self._copies, self._types, self._naturals, strict=True)
        )

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> tuple[int, ...]: ...

    @overload
    def __getitem__(self, index: slice) -> list[tuple[int, ...]]: ...

    def __getitem__(self, index: int | slice) -> tuple[int, ...] | list[tuple[int, ...]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("meld table index out of range")
        if self._full is not None:
            return self._full[index]
        by_size = self._by_size
        if by_size is None:
            whole = 1
            for rows in self._rows:
                whole *= rows[0][M.MAX_NATURAL_DISASTERS]
            top = sum(_DECK_LIMITS[self._deck])
            bits = self._bits
            by_size = self._by_size = tuple([_coef(whole, s, bits) for s in range(top + 1)])
        for size, ways in enumerate(by_size):
            if index < ways:
                return self._unrank(size, index)
            index -= ways
        raise AssertionError("unreachable: the sizes add up to the length")

    def _unrank(self, size: int, rank: int) -> tuple[int, ...]:
        """The ``rank``-th meld (0-based) of ``size`` cards, in table order.

        Walks the positions keeping ``product``, the packed product over every type of the
        polynomial of its positions not yet passed (within its remaining room).  The
        polynomials multiply without carries between coefficients, so dividing the integer
        ``product`` by one type's factor is exact: that gives the other types' ways."""
        types, all_rows, naturals = self._types, self._rows, self._naturals
        bits, masks = self._bits, self._masks
        one = (1 << bits) - 1
        room = list(_DECK_LIMITS[self._deck])
        nat_left = M.MAX_NATURAL_DISASTERS
        factor = [rows[0][nat_left] for rows in all_rows]  # each type's current polynomial
        product = 1
        for f in factor:
            product *= f
        seen = [0] * len(room)  # positions of each type already passed
        left = size
        meld: list[int] = []
        for pos, copies in enumerate(self._copies):
            if not left:
                break
            t = types[pos]
            natural = naturals[pos]
            seen[t] += 1
            # min(copies, room, left, natural budget), spelt out: the compiled loop's
            # hottest line, and a four-argument min() is a generic call.
            most = copies if copies < room[t] else room[t]
            if left < most:
                most = left
            if natural and nat_left < most:
                most = nat_left
            own_row = all_rows[t][seen[t]]
            if not most:  # this card cannot be taken: only the factor moves on
                new = own_row[nat_left] & masks[room[t]]
                if new != factor[t]:
                    product = product // factor[t] * new
                    factor[t] = new
                continue
            others = product // factor[t]
            chosen = 0
            for c in range(most, 0, -1):
                own = own_row[nat_left - c if natural else nat_left] & masks[room[t] - c]
                ways = ((own * others) >> (bits * (left - c))) & one
                if rank < ways:
                    chosen = c
                    break
                rank -= ways
            if chosen:
                meld.extend([pos] * chosen)
                room[t] -= chosen
                left -= chosen
                if natural:
                    nat_left -= chosen
            new = own_row[nat_left] & masks[room[t]]
            factor[t] = new
            product = others * new
        return tuple(meld)

    def _walk(self, option: Sequence[int]) -> tuple[list[int], int, int] | None:
        """The room left in each type, the natural disasters taken and the copies of the
        last position taken, after the sorted positions ``option``; None if ``option``
        is out of order or range, or over a position's copies or a type's limit."""
        room = list(_DECK_LIMITS[self._deck])
        copies, types, naturals = self._copies, self._types, self._naturals
        naturals_in = 0
        last, run = -1, 0
        for pos in option:
            if not 0 <= pos < len(copies) or pos < last:
                return None
            run = run + 1 if pos == last else 1
            last = pos
            if run > copies[pos]:
                return None
            t = types[pos]
            room[t] -= 1
            if room[t] < 0:
                return None
            naturals_in += naturals[pos]
        return room, naturals_in, run

    def contains(self, option: Sequence[int]) -> bool:
        """Whether the sorted positions ``option`` are a meld of this table: within each
        position's copies, each type's limit and the natural-disaster limit (section 3
        phase 4), the same test as :func:`meld_fits` (a test checks them against the
        listed table)."""
        walked = self._walk(option)
        return walked is not None and walked[1] <= M.MAX_NATURAL_DISASTERS

    def next_positions(self, option: Sequence[int]) -> list[int]:
        """The positions ``p``, ascending, for which ``[*option, p]`` is a meld of this
        table (:meth:`contains`), in one pass: ``option`` must be a meld itself, and ``p``
        (from ``option``'s last position on) must have a copy left, room in its type and,
        for a natural disaster, room under the limit (section 3 phase 4)."""
        walked = self._walk(option)
        if walked is None:
            return []
        room, naturals_in, run = walked
        if naturals_in > M.MAX_NATURAL_DISASTERS:
            return []
        copies, types, naturals = self._copies, self._types, self._naturals
        start = option[-1] if option else 0
        out: list[int] = []
        for pos in range(start, len(copies)):
            taken = run if pos == start else 0  # (copies of the last position taken)
            natural_fits = not naturals[pos] or naturals_in < M.MAX_NATURAL_DISASTERS
            if taken < copies[pos] and room[types[pos]] > 0 and natural_fits:
                out.append(pos)
        return out

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        if self._full is None:
            self._full = M.meld_table(self.shape, self._deck)
        return iter(self._full)

    def __reduce__(self) -> tuple[Any, ...]:
        # (A compiled class is not restored attribute by attribute: rebuilt from its hand.)
        return (MeldTable, (self._copies, self._types, self._naturals, self._deck))

    def __repr__(self) -> str:
        return f"MeldTable({len(self)} melds)"


def meld_traits(cardset: CardSet, deck: str) -> list[tuple[int, bool]]:
    """``(type index into DECK_TYPES[deck], natural)`` of every card kind of ``cardset``
    (``(-1, False)`` for the other deck's cards), for :func:`melds_of_hand`."""
    index = {typ: i for i, typ in enumerate(DECK_TYPES[deck])}
    return [(index[c.type], c.natural) if c.deck == deck else (-1, False) for c in cardset.cards]


def melds_of_hand(
    hand: Sequence[int], traits: Sequence[tuple[int, bool]], deck: str
) -> tuple[list[int], MeldTable]:
    """The distinct kinds of ``hand`` and its meld table for ``deck``; ``traits``
    comes from :func:`meld_traits`.

    Raises:
        ValueError: a card of the hand is not of ``deck``.
    """
    kinds, copies = M.hand_shape(hand)
    types = []
    naturals = []
    for k in kinds:
        t, natural = traits[k]
        if t < 0:
            raise ValueError(f"card kind {k} is not a {deck} card")
        types.append(t)
        naturals.append(natural)
    # Hands of one shape (copies, type and natural disaster per position) share a table,
    # and shapes repeat far more often than hands do.
    key = (deck, copies, tuple(types), tuple(naturals))
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) >= _TABLES_LIMIT:
            _TABLES.clear()
        table = _TABLES[key] = MeldTable(copies, key[2], key[3], deck)
    return kinds, table


#: Meld tables by hand shape, for :func:`melds_of_hand` (cleared when full).
_TABLES: Final[dict[tuple[str, tuple[int, ...], tuple[int, ...], tuple[bool, ...]], MeldTable]] = {}
_TABLES_LIMIT: Final = 20_000


def meld_fits(
    chosen: Sequence[int], hand: Sequence[int], traits: Sequence[tuple[int, bool]], deck: str
) -> bool:
    """Whether the sorted card kinds ``chosen`` are a meld listed by the meld table of
    ``hand`` for ``deck``, without building it: the table lists exactly the sub-multisets of
    the hand that are the deck's cards, keep every type within its limit and hold at most
    :data:`~porphyra.games.byzantium.melds.MAX_NATURAL_DISASTERS` natural disasters
    (section 3 phase 4; a test checks both agree)."""
    room = list(_DECK_LIMITS[deck])
    naturals = 0
    last = -1
    for k in chosen:
        if not 0 <= k < len(traits):
            return False
        t, natural = traits[k]
        if t < 0:
            return False
        room[t] -= 1
        if room[t] < 0:
            return False
        naturals += natural
        if k != last:
            if chosen.count(k) > hand.count(k):
                return False
            last = k
    return naturals <= M.MAX_NATURAL_DISASTERS
