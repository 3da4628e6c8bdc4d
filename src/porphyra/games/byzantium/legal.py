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

_SETS: dict[int, tuple[Sequence[tuple[int, ...]], frozenset[tuple[int, ...]]]] = {}
_SETS_LIMIT = 50_000


def option_set(table: Sequence[tuple[int, ...]]) -> frozenset[tuple[int, ...]]:
    """The options of ``table`` as a set, for membership tests (cached per table object:
    the option tables are themselves cached, so a hand shape's set is built once)."""
    entry = _SETS.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_SETS) > _SETS_LIMIT:
            _SETS.clear()
        entry = _SETS[id(table)] = (table, frozenset(table))
    return entry[1]


class LegalActions(Sequence[Action]):
    """The legal actions of one decision, in a fixed order.

    Args:
        build: makes the action for a tuple of card kinds (interning is the caller's job).
        kinds: the distinct card kinds the options refer to.
        table: each option as a tuple of positions into ``kinds``.
    """

    __slots__ = ("_build", "_kinds", "_last", "_table")

    def __init__(
        self,
        build: Callable[[tuple[int, ...]], Action],
        kinds: Sequence[int],
        table: Sequence[tuple[int, ...]],
    ) -> None:
        self._build = build
        self._kinds = kinds
        self._table = table
        self._last: tuple[Action, tuple[int, ...]] | None = None

    def __len__(self) -> int:
        return len(self._table)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._table)))]
        chosen = tuple(map(self._kinds.__getitem__, self._table[index]))
        action = self._build(chosen)
        self._last = (action, chosen)
        return action

    def kinds_if_last(self, action: Action) -> tuple[int, ...] | None:
        """The card kinds of ``action`` if it is the very object this sequence built last
        (an identity check: a state trusts the action it just offered), else None."""
        last = self._last
        return last[1] if last is not None and last[0] is action else None

    def __iter__(self) -> Iterator[Action]:
        kinds, build = self._kinds, self._build
        for option in self._table:  # the table's own iteration (a ranked table lists once)
            chosen = tuple(map(kinds.__getitem__, option))
            action = build(chosen)
            self._last = (action, chosen)
            yield action

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(str(a) for a in self[:5])
        more = f", … ({len(self)} in all)" if len(self) > 5 else ""
        return f"LegalActions([{shown}{more}])"
