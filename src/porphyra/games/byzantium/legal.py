"""A lazy, indexable list of legal actions.

Byzantium's redraw and meld decisions have hundreds of options; building an action object
for each at every decision dominated random playouts.  :class:`LegalActions` is a
``Sequence[Action]`` over a cached table of options: ``len``, indexing and iteration work as
on a list, and an action is only built (and interned) when it is looked at.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, overload

from porphyra.core.game import Action
from porphyra.games.byzantium.ranked import MeldTable

_SETS: Final[dict[int, tuple[Sequence[tuple[int, ...]], frozenset[tuple[int, ...]]]]] = {}
_SETS_LIMIT: Final = 50_000
#: The texts of a decision's options by (table id, verb, card slugs of the table's kinds),
#: with the table (checked by identity, like ``_SETS``); cleared when full.
_TextsKey = tuple[int, str, tuple[str, ...]]
_TEXTS: Final[dict[_TextsKey, tuple[Sequence[tuple[int, ...]], list[str]]]] = {}
_TEXTS_LIMIT: Final = 1024


def option_set(table: Sequence[tuple[int, ...]]) -> frozenset[tuple[int, ...]]:
    """The options of ``table`` as a set, for membership tests (cached per table object:
    the option tables are themselves cached, so a hand shape's set is built once)."""
    entry = _SETS.get(id(table))
    if entry is None or entry[0] is not table:
        if len(_SETS) > _SETS_LIMIT:
            _SETS.clear()
        entry = _SETS[id(table)] = (table, frozenset(table))
    return entry[1]


class ActionBuilder:
    """Makes the interned action ``verb`` on sorted card kinds: called with a tuple of
    kinds, returns the one action object for it (made with ``make`` on first use).

    Args:
        verb: the decision's verb (``redraw``, ``meld``, ...).
        make: ``make(verb, kinds)``, the new action.
        actions: the interned actions by ``(verb, kinds)`` (shared by every verb's builder).
        kinds_of: the kinds of each interned action by ``id`` (cleared with ``actions``).
        limit: how many actions ``actions`` may hold before it is cleared.
    """

    def __init__(
        self,
        verb: str,
        make: Callable[[str, tuple[int, ...]], Action],
        actions: dict[tuple[str, tuple[int, ...]], Action],
        kinds_of: dict[int, tuple[int, ...]],
        limit: int,
    ) -> None:
        self.verb = verb
        self.make = make
        self.actions = actions
        self.kinds_of = kinds_of
        self.limit = limit

    def __call__(self, kinds: tuple[int, ...]) -> Action:
        key = (self.verb, kinds)
        action = self.actions.get(key)
        if action is None:
            if len(self.actions) > self.limit:
                self.actions.clear()
                self.kinds_of.clear()
            action = self.actions[key] = self.make(self.verb, kinds)
            self.kinds_of[id(action)] = kinds
        return action


class LegalActions(Sequence[Action]):
    """The legal actions of one decision, in a fixed order.

    Args:
        build: makes the action for a tuple of card kinds (interning is the caller's job).
        kinds: the distinct card kinds the options refer to.
        table: each option as a tuple of positions into ``kinds``.
    """

    __slots__ = ("_build", "_kinds", "_last", "_positions", "_table")

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
        self._positions: dict[int, int] | None = None

    @property
    def kinds(self) -> Sequence[int]:
        """The distinct card kinds the options are made of, in card-list order."""
        return self._kinds

    def _option_of(self, kinds: Sequence[int]) -> list[int] | None:
        """``kinds`` as positions into :attr:`kinds`, or None if one is not among them."""
        positions = self._positions
        if positions is None:
            positions = self._positions = {k: i for i, k in enumerate(self._kinds)}
        option = []
        for k in kinds:
            p = positions.get(k)
            if p is None:
                return None
            option.append(p)
        return option

    def listed(self, kinds: Sequence[int]) -> bool:
        """Whether the sorted card kinds ``kinds`` are one of the options (without
        listing them: a meld table answers by counting)."""
        option = self._option_of(kinds)
        if option is None:
            return False
        table = self._table
        if isinstance(table, MeldTable):
            return table.contains(option)
        return tuple(option) in option_set(table)

    def extensions(self, kinds: Sequence[int]) -> list[int]:
        """The card kinds ``k``, in card-list order, for which ``[*kinds, k]`` is one of the
        options (``kinds`` sorted; ``k`` from the last of them on): the next cards of an
        option built card kind by card kind (the research encoding), asked of the table
        in one pass (see :meth:`listed`)."""
        option = self._option_of(kinds)
        if option is None:
            return []
        table = self._table
        own = self._kinds
        if isinstance(table, MeldTable):  # (counted, one pass)
            return [own[p] for p in table.next_positions(option)]
        start = option[-1] if option else 0
        option.append(0)
        out: list[int] = []
        listed = option_set(table)
        for p in range(start, len(own)):
            option[-1] = p
            if tuple(option) in listed:
                out.append(own[p])
        return out

    def action_of(self, kinds: tuple[int, ...]) -> Action:
        """The action on the sorted card kinds ``kinds`` (one of the options: see
        :meth:`listed`)."""
        return self._build(kinds)

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
        chosen = tuple([kinds[p] for p in self._table[index]])
        action = self._build(chosen)
        self._last = (action, chosen)
        return action

    def texts(self, verb: str, slugs: Sequence[str]) -> list[str]:
        """The notation of every action, in order, without making the actions:
        ``"<verb> <slug>,<slug>"`` (``"<verb> -"`` for no card), ``slugs`` by card kind (the
        same text as ``str(action)``: kinds in card-list order, copies repeated)."""
        names = tuple([slugs[k] for k in self._kinds])
        table = self._table
        # The same hand is asked again and again (a server asks after every change of
        # the game, also the seat whose hand did not change): made once per hand.
        key = (id(table), verb, names)
        entry = _TEXTS.get(key)
        if entry is None or entry[0] is not table:
            if len(_TEXTS) >= _TEXTS_LIMIT:
                _TEXTS.clear()
            out: list[str] = []
            prefix = verb + " "
            for option in table:
                out.append(prefix + (",".join([names[p] for p in option]) if option else "-"))
            entry = _TEXTS[key] = (table, out)
        return list(entry[1])

    def kinds_if_last(self, action: Action) -> tuple[int, ...] | None:
        """The card kinds of ``action`` if it is the very object this sequence built last
        (an identity check: a state trusts the action it just offered), else None."""
        last = self._last
        return last[1] if last is not None and last[0] is action else None

    def __iter__(self) -> Iterator[Action]:
        kinds, build = self._kinds, self._build
        for option in self._table:  # the table's own iteration (a ranked table lists once)
            chosen = tuple([kinds[p] for p in option])
            action = build(chosen)
            self._last = (action, chosen)
            yield action

    def __copy__(self) -> LegalActions:
        return LegalActions(self._build, self._kinds, self._table)

    def __deepcopy__(self, memo: dict[int, Any]) -> LegalActions:
        # The same actions (the table and the interned actions are shared and read-only).
        return self.__copy__()

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as the plain list of its actions (the builder closes over the game).
        return (list, (list(self),))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(str(a) for a in self[:5])
        more = f", … ({len(self)} in all)" if len(self) > 5 else ""
        return f"LegalActions([{shown}{more}])"
