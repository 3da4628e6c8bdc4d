"""A lazy, indexable list of legal actions.

Byzantium's redraw and meld decisions have hundreds of options; building an action object
for each at every decision dominated random playouts.  :class:`LegalActions` is a
``Sequence[Action]`` over a cached table of options: ``len``, indexing and iteration work as
on a list, and an action is only built (and interned) when it is looked at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from porphyra.core.game import Action


class LegalActions(Sequence[Action]):
    """The legal actions of one decision, in a fixed order.

    Args:
        build: makes the action for a tuple of card kinds (interning is the caller's job).
        kinds: the distinct card kinds the options refer to.
        table: each option as a tuple of positions into ``kinds``.
    """

    __slots__ = ("_build", "_kinds", "_table")

    def __init__(
        self,
        build: Callable[[tuple[int, ...]], Action],
        kinds: Sequence[int],
        table: Sequence[tuple[int, ...]],
    ) -> None:
        self._build = build
        self._kinds = kinds
        self._table = table

    def __len__(self) -> int:
        return len(self._table)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._table)))]
        kinds = self._kinds
        return self._build(tuple(kinds[p] for p in self._table[index]))

    def __iter__(self) -> Iterator[Action]:
        for i in range(len(self._table)):
            yield self[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(str(a) for a in self[:5])
        more = f", … ({len(self)} in all)" if len(self) > 5 else ""
        return f"LegalActions([{shown}{more}])"
