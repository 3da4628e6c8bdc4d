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
from typing import overload

from porphyra.games.byzantium import melds as M

#: Bits per coefficient of a generating polynomial packed into one integer (Kronecker
#: substitution: ``sum(ways[s] << (BITS * s))``), so that polynomial products are integer
#: products done in C.  A coefficient counts melds of one hand, far below ``2**BITS``.
BITS = 32
_ONE = (1 << BITS) - 1
#: ``_MASK[d]`` keeps the coefficients of degrees ``0..d``.
_MASK = tuple((1 << (BITS * (d + 1))) - 1 for d in range(16))


def _coef(poly: int, s: int) -> int:
    """Coefficient ``s`` of a packed polynomial."""
    return (poly >> (BITS * s)) & _ONE


@lru_cache(maxsize=8192)
def _type_rows(sub: tuple[tuple[int, bool], ...], cap: int) -> tuple[tuple[int, ...], ...]:
    """Packed generating polynomials of one type's positions: ``rows[a][b]`` counts the ways
    to take cards from the type's ``a``-th position on (``sub`` lists ``(copies,
    natural)``), at most ``cap`` of them and at most ``b`` natural disasters."""
    budget = M.MAX_NATURAL_DISASTERS
    rows: list[tuple[int, ...]] = [(1,) * (budget + 1)]
    for copies, natural in reversed(sub):
        after = rows[0]
        row = []
        for b in range(budget + 1):
            most = min(copies, cap, b) if natural else min(copies, cap)
            total = 0
            for k in range(most + 1):
                total += after[b - k if natural else b] << (BITS * k)
            row.append(total & _MASK[cap])
        rows.insert(0, tuple(row))
    return tuple(rows)


class MeldTable(Sequence[tuple[int, ...]]):
    """The legal melds of a hand shape, as position tuples in legal-action order.

    Args:
        shape: the hand's distinct cards as ``(copies, type, natural)``, in card-list order
            (the key of :func:`~porphyra.games.byzantium.melds.meld_table`).
        deck: ``"byzantine"`` or ``"foe"``: whose limits apply.

    ``len`` costs a few integer products; ``table[i]`` a walk over the positions; both are
    exact and agree with :func:`~porphyra.games.byzantium.melds.meld_table` (a test checks
    every entry on thousands of hands).  Iterating builds (and caches) the full list.

    Raises:
        IndexError: ``table[i]`` outside ``-len(table) <= i < len(table)``.
    """

    __slots__ = ("_by_size", "_deck", "_full", "_len", "_limits", "_rows", "_shape", "_types")

    def __init__(self, shape: tuple[tuple[int, str, bool], ...], deck: str) -> None:
        self._shape = shape
        self._deck = deck
        limits = M.LIMITS[deck]
        type_ids: dict[str, int] = {}
        self._types = types = [type_ids.setdefault(typ, len(type_ids)) for _, typ, _ in shape]
        self._limits = [limits[typ] for typ in type_ids]
        subs: list[list[tuple[int, bool]]] = [[] for _ in type_ids]
        for (copies, _, natural), t in zip(shape, types, strict=True):
            subs[t].append((copies, natural))
        self._rows = [
            _type_rows(tuple(sub), cap) for sub, cap in zip(subs, self._limits, strict=True)
        ]
        budget = M.MAX_NATURAL_DISASTERS
        whole = 1
        for rows in self._rows:
            whole *= rows[0][budget]
        top = sum(self._limits)
        self._by_size = [_coef(whole, s) for s in range(top + 1)]
        self._len = sum(self._by_size)
        self._full: tuple[tuple[int, ...], ...] | None = None

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
        for size, ways in enumerate(self._by_size):
            if index < ways:
                return self._unrank(size, index)
            index -= ways
        raise AssertionError("unreachable: the sizes add up to the length")

    def _unrank(self, size: int, rank: int) -> tuple[int, ...]:
        """The ``rank``-th meld (0-based) of ``size`` cards, in table order."""
        types, all_rows = self._types, self._rows
        room = list(self._limits)
        nat_left = M.MAX_NATURAL_DISASTERS
        seen = [0] * len(room)  # positions of each type already passed
        left = size
        meld: list[int] = []
        for pos, (copies, _, natural) in enumerate(self._shape):
            if not left:
                break
            t = types[pos]
            seen[t] += 1
            # Ways to fill more cards from the positions after ``pos``, other types:
            others = 1
            for u, rows in enumerate(all_rows):
                if u != t:
                    others = (others * (rows[seen[u]][nat_left] & _MASK[room[u]])) & _MASK[left]
            own_row = all_rows[t][seen[t]]
            most = min(copies, room[t], left, nat_left if natural else copies)
            for c in range(most, -1, -1):
                own = own_row[nat_left - c if natural else nat_left] & _MASK[room[t] - c]
                ways = _coef(own * others, left - c)
                if rank < ways:
                    if c:
                        meld.extend([pos] * c)
                        room[t] -= c
                        left -= c
                        if natural:
                            nat_left -= c
                    break
                rank -= ways
        return tuple(meld)

    def __iter__(self) -> Iterator[tuple[int, ...]]:
        if self._full is None:
            self._full = M.meld_table(self._shape, self._deck)
        return iter(self._full)

    def __repr__(self) -> str:
        return f"MeldTable({len(self)} melds)"


@lru_cache(maxsize=65536)
def meld_options(shape: tuple[tuple[int, str, bool], ...], deck: str) -> MeldTable:
    """The ranked meld table of a hand ``shape`` for ``deck`` (cached per shape)."""
    return MeldTable(shape, deck)
