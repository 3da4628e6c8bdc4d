"""The encoding every research adapter shares: fixed action ids, masks and float32 tensors.

A :class:`Codec` fixes, for one game object, a ``Discrete(num_actions)`` action space and
an observation tensor layout (:class:`Layout`, documented field by field in
``docs/envs.md``).  An engine action is a short sequence of *tokens* (action ids):

* Conspiracy: one token, the action's index in the game's full interned action table, so
  each id always means the same action (also across resampled worlds).
* Byzantium: a card list is built card kind by card kind in card-list order (token
  ``1 + kind``), then closed with ``END`` (token 0), so ``meld justinian-i,cavalry`` is
  ``[1+cavalry, 1+justinian-i, END]`` and ``redraw -`` is ``[END]``.  A single-card action
  (``pass archers``) is committed by its card token alone; ``END`` is offered only where
  the card list chosen so far is itself a legal action.  This maps the meld's huge space
  onto 97 ids, one-to-one with the legal actions.

:class:`EnvCore` holds an engine state and each seat's tokens chosen so far in its current
decision (its *selection*); the PettingZoo, Gymnasium and OpenSpiel adapters are thin
layers over it.  Everything a seat's tensor, mask or JSON shows comes from that seat's
``observation`` and legal actions plus its own selection, so nothing hidden can leak.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypeAlias

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.game import Action, Game, JSONDict, State
from porphyra.core.seatarg import as_integer, seat_of

# (Explicit aliases: the compiled build type-checks without numpy, as Any.)
Tensor: TypeAlias = npt.NDArray[np.float32]
Mask: TypeAlias = npt.NDArray[np.int8]


@dataclass(frozen=True, slots=True)
class Field:
    """One field of an observation tensor: ``tensor[offset : offset + size]``."""

    name: str
    offset: int
    size: int
    meaning: str

    def __reduce__(self) -> tuple[Any, ...]:
        # (A compiled frozen dataclass cannot be restored attribute by attribute.)
        return (Field, (self.name, self.offset, self.size, self.meaning))


class Span:
    """Where a field lies in the tensor: ``tensor[start:stop]`` (a native class: the
    encoders read ``start`` at every write, which is a generic look-up on a ``slice``).

    Args:
        start: the field's first position.
        stop: one past its last position.
    """

    __slots__ = ("start", "stop")

    def __init__(self, start: int, stop: int) -> None:
        self.start = start
        self.stop = stop

    def __repr__(self) -> str:
        return f"Span({self.start}, {self.stop})"


class Layout:
    """An observation tensor layout, built field by field (see :meth:`add`)."""

    def __init__(self) -> None:
        self.fields: list[Field] = []
        self.size = 0

    def add(self, name: str, size: int, meaning: str) -> Span:
        """Append a field of ``size`` floats and return where it lies in the tensor."""
        self.fields.append(Field(name, self.size, size, meaning))
        self.size += size
        return Span(self.size - size, self.size)

    def markdown(self) -> str:
        """The layout as a markdown table (offset, size, field, meaning)."""
        rows = ["| offset | size | field | meaning |", "|---:|---:|---|---|"]
        rows += [f"| {f.offset} | {f.size} | `{f.name}` | {f.meaning} |" for f in self.fields]
        return "\n".join(rows)


class Canvas:
    """A tensor being written, as ``{position: value}``; :meth:`write` puts it into a numpy
    array in one indexed assignment (item by item, numpy writes cost most of an encoding).

    Args:
        cells: the values so far (default: none; a caller's dict is used, not copied).
    """

    __slots__ = ("cells",)

    def __init__(self, cells: dict[int, float] | None = None) -> None:
        self.cells: dict[int, float] = {} if cells is None else cells

    def set(self, at: int, value: float) -> None:
        """``tensor[at] = value``."""
        self.cells[at] = value

    def add(self, at: int, value: float = 1.0) -> None:
        """``tensor[at] += value``."""
        cells = self.cells
        cells[at] = cells.get(at, 0.0) + value

    def fill(self, where: Span, values: Sequence[float]) -> None:
        """``tensor[where] = values``.

        Raises:
            ValueError: ``len(values)`` is not the field's size.
        """
        if len(values) != where.stop - where.start:
            raise ValueError(
                f"{len(values)} values for a field of {where.stop - where.start} at {where.start}"
            )
        cells = self.cells
        at = where.start
        for value in values:
            cells[at] = value
            at += 1

    def counts(self, where: Span, index: dict[str, int], names: Sequence[Any]) -> None:
        """Add 1 at ``tensor[where][index[name]]`` for each name of ``names`` (a count
        vector).

        Raises:
            KeyError: a name not in ``index``.
        """
        self.kind_counts(where, [index[name] for name in names])

    def kind_counts(self, where: Span, kinds: list[int]) -> None:
        """Add 1 at ``tensor[where][k]`` for each ``k`` of ``kinds`` (a count vector over
        indices, such as card kinds)."""
        # Written once per run of equal kinds (card lists are mostly sorted): each cell
        # written is a new position and float object, most of an encoding's cost.
        base = where.start
        cells = self.cells
        run_kind = -1
        run = 0
        for k in kinds:
            if k == run_kind:
                run += 1
                continue
            if run:
                at = base + run_kind
                cells[at] = cells.get(at, 0.0) + run
            run_kind, run = k, 1
        if run:
            at = base + run_kind
            cells[at] = cells.get(at, 0.0) + run

    def one_hot(self, where: Span, i: int) -> None:
        """``tensor[where][i] = 1``."""
        self.cells[where.start + i] = 1.0

    def write(self, out: Tensor) -> None:
        """Put every value into ``out`` (a zeroed ``float32`` array of the layout size)."""
        cells = self.cells
        n = len(cells)
        if n:
            out[np.fromiter(cells.keys(), np.intp, n)] = np.fromiter(cells.values(), np.float32, n)


@mypyc_attr(allow_interpreted_subclasses=True)  # (extended by interpreted code too)
class Codec(abc.ABC):
    """Action ids and observation tensors of one game object (see the module docstring).

    Attributes:
        game: the engine game.
        num_actions: size of the ``Discrete`` action space.
        end: the id that closes a card list (Byzantium), or None (one token per action).
        layout: the observation tensor layout.
    """

    game: Game
    num_actions: int
    end: int | None
    layout: Layout

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and deep-copied) as its game: a codec is made from the game alone (a
        # codec of another signature says how it is rebuilt).
        return (type(self), (self.game,))

    @abc.abstractmethod
    def tokens(self, action: Action) -> tuple[int, ...]:
        """The token ids of ``action`` without the closing ``END``."""

    def all_tokens(self, legal: Sequence[Action]) -> Iterable[tuple[int, ...]]:
        """The tokens of every action of ``legal``, in order (a codec may read them
        faster than one :meth:`tokens` call per action)."""
        return (self.tokens(a) for a in legal)

    def table(self, legal: Sequence[Action]) -> OptionTable:
        """The token table of one seat's legal actions (default: a trie of
        :meth:`all_tokens`; a codec may answer from the engine's own table instead)."""
        return _Table(self, legal)

    def observe(self, state: State, player: int, whole: bool = False) -> tuple[JSONDict, bool]:
        """The observation of ``player`` that :meth:`encode` reads, and whether it is the
        engine's whole ``observation(player)`` (default: it is; a codec may ask the
        engine for less, such as no log, which the tensor does not show).  ``whole``: the
        caller hands the whole observation out too, so a codec that can encode from it
        should return it (one observation instead of two)."""
        return state.observation(player), True

    @abc.abstractmethod
    def encode(self, obs: JSONDict, out: Canvas) -> None:
        """Write seat observation ``obs`` (without the seat's selection) into ``out``."""

    @abc.abstractmethod
    def encode_selection(self, selection: tuple[int, ...], out: Canvas) -> None:
        """Write the seat's ``selection`` (the tokens chosen so far in its current
        decision) into an empty ``out``, in fields :meth:`encode` leaves at zero."""

    @abc.abstractmethod
    def token_label(self, token: int) -> str:
        """Human-readable meaning of action id ``token`` (``0 <= token < num_actions``)."""

    def label(self, token: SupportsIndex) -> str:
        """:meth:`token_label` of any action id given from outside.

        Raises:
            InvalidActionError: not an integer, or not an id of this space.
        """
        at = as_integer(token)
        if at is None:
            raise InvalidActionError(f"an action id is an integer, not {token!r}")
        if not 0 <= at < self.num_actions:
            raise InvalidActionError(f"no action id {at}: ids are 0 to {self.num_actions - 1}")
        return self.token_label(at)


@mypyc_attr(allow_interpreted_subclasses=True)  # (extended by interpreted code too)
class OptionTable(abc.ABC):
    """The legal actions of one seat at one engine position, by their tokens."""

    @abc.abstractmethod
    def next_tokens(self, selection: tuple[int, ...]) -> set[int]:
        """The tokens that extend ``selection`` towards a legal action (a new set)."""

    @abc.abstractmethod
    def action(self, selection: tuple[int, ...]) -> Action | None:
        """The legal action whose tokens are exactly ``selection``, or None."""


class _Table(OptionTable):
    """The legal actions as a token trie.

    ``full`` maps each action's tokens to its index in ``legal`` (the action object is
    only built when it is played)."""

    __slots__ = ("full", "legal", "nexts")

    def __init__(self, codec: Codec, legal: Sequence[Action]) -> None:
        self.legal = legal
        self.full: dict[tuple[int, ...], int] = {}
        self.nexts: dict[tuple[int, ...], set[int]] = {}
        nexts = self.nexts
        for index, toks in enumerate(codec.all_tokens(legal)):
            self.full[toks] = index
            for i in range(len(toks)):
                prefix = toks[:i]
                nxt = nexts.get(prefix)
                if nxt is None:
                    nexts[prefix] = {toks[i]}
                else:
                    nxt.add(toks[i])

    def next_tokens(self, selection: tuple[int, ...]) -> set[int]:
        return set(self.nexts.get(selection, ()))

    def action(self, selection: tuple[int, ...]) -> Action | None:
        index = self.full.get(selection)
        return None if index is None else self.legal[index]


@mypyc_attr(allow_interpreted_subclasses=True)  # (extended by interpreted code too)
class EnvCore:
    """An engine state plus each seat's selection in its current decision.

    Args:
        codec: the game's codec.
        state: the engine state (owned: the core applies actions to it).
        selections: per seat, the tokens chosen so far (default: none); read it, change
            it only through :meth:`step` and :meth:`apply`.
        with_json: the adapter hands out :meth:`observation` after each change too (its
            ``observation_json``): the tensor is then encoded from that observation where
            the codec can (:meth:`Codec.observe`).
    """

    def __init__(
        self,
        codec: Codec,
        state: State,
        selections: list[tuple[int, ...]] | None = None,
        with_json: bool = False,
    ) -> None:
        self.codec = codec
        self.state = state
        self.with_json = with_json
        n = len(state.returns())
        self.selections: list[tuple[int, ...]] = selections or [()] * n
        self._tables: dict[int, OptionTable] = {}
        self._views: dict[int, _View] = {}  # per seat: its engine observation, encoded
        self._ids: dict[int, list[int]] = {}  # per seat: its legal ids now
        self._masks: dict[int, Mask] = {}  # per seat: the mask of those ids
        self._active: list[int] | None = None

    # ------------------------------------------------------------------ queries
    def _active_now(self) -> list[int]:
        active = self._active
        if active is None:  # (adapters ask several times a step; it changes on apply)
            active = self._active = self.state.active_players()
        return active

    def active(self) -> list[int]:
        """Seats whose decision the game waits for now (``[]`` at the end; a new list)."""
        return list(self._active_now())

    def first_active(self) -> int:
        """The canonical seat to act (the first of :meth:`active`), or -1 at the end."""
        active = self._active_now()
        return active[0] if active else -1

    def _table(self, player: int) -> OptionTable:
        table = self._tables.get(player)
        if table is None:
            table = self._tables[player] = self.codec.table(self.state.legal_actions(player))
        return table

    def seat(self, player: SupportsIndex) -> int:
        """``player`` as one of the game's seats (any integer type, numpy's too).

        Raises:
            SeatError: not a seat number, or not one of this game's seats.
        """
        return seat_of(player, len(self.selections))

    def legal_ids(self, player: SupportsIndex) -> list[int]:
        """The action ids ``player`` may play now, ascending (``[]`` if not active).

        Raises:
            SeatError: ``player`` is not a seat of the game (so for every method taking
                a seat).
        """
        player = self.seat(player)
        ids = self._ids.get(player)
        if ids is None:
            if self.state.is_terminal() or player not in self._active_now():
                ids = []
            else:
                table = self._table(player)
                sel = self.selections[player]
                ids = self._next_ids(table.next_tokens(sel), table.action(sel))
            self._ids[player] = ids
        return list(ids)

    def _next_ids(self, tokens: set[int], action: Action | None) -> list[int]:
        """The legal ids after a selection: its next ``tokens``, and ``END`` if the
        selection is itself the legal ``action`` (None if it is not), ascending."""
        if self.codec.end is not None and action is not None:
            tokens.add(self.codec.end)
        return sorted(tokens)

    def mask(self, player: SupportsIndex) -> Mask:
        """``int8[num_actions]``: 1 for each legal id of ``player``, else 0 (a new array
        on every call)."""
        player = self.seat(player)
        mask = self._masks.get(player)
        if mask is None:  # (made once per selection: adapters ask for it more than once)
            self.legal_ids(player)  # (fills self._ids)
            flags = bytearray(self.codec.num_actions)  # (half the cost of an indexed write)
            for at in self._ids[player]:
                flags[at] = 1
            mask = self._masks[player] = np.frombuffer(flags, dtype=np.int8)
        return mask.copy()

    def _view(self, player: int) -> _View:
        view = self._views.get(player)
        if view is None:  # the engine's part changes only when an action is applied
            obs, whole = self.codec.observe(self.state, player, self.with_json)
            canvas = Canvas()
            self.codec.encode(obs, canvas)
            view = self._views[player] = _View(obs if whole else None, canvas.cells)
        return view

    def observation(self, player: SupportsIndex) -> JSONDict:
        """The engine's JSON observation of ``player`` plus ``"selection"``: the cards
        (or action) chosen so far in its current decision, as labels.  A new object on
        every call, sharing nothing with the core or earlier calls (callers may keep or
        change it; the game contract: an observation shares nothing with the state).

        The first call after a change hands out the observation the tensor was encoded
        from, if it is the whole one (:meth:`Codec.observe`); later ones ask the engine
        again (which costs less than copying one)."""
        player = self.seat(player)
        view = self._view(player)
        obs = view.obs
        if obs is None:
            obs = self.state.observation(player)
        else:
            view.obs = None  # (handed out: never read again)
        obs["selection"] = [self.codec.token_label(t) for t in self.selections[player]]
        return obs

    def tensor(self, player: SupportsIndex) -> Tensor:
        """``float32[layout.size]``: the tensor of ``player`` (see ``docs/envs.md``), a new
        array on every call."""
        player = self.seat(player)
        view = self._view(player)
        base = view.tensor
        if base is None:  # (written once per change; each call copies it)
            base = view.tensor = np.zeros(self.codec.layout.size, dtype=np.float32)
            Canvas(view.cells).write(base)
        out = base.copy()
        selection = self.selections[player]
        if selection:
            canvas = Canvas()
            self.codec.encode_selection(selection, canvas)
            canvas.write(out)
        return out

    def tensor_values(self, player: SupportsIndex) -> list[float]:
        """The same values as :meth:`tensor`, as a new list of floats (what pyspiel's
        tensor reads return; built from the encoded cells without numpy, which would
        make a Python float per cell)."""
        player = self.seat(player)
        values = [0.0] * self.codec.layout.size
        for at, value in self._view(player).cells.items():
            values[at] = value
        selection = self.selections[player]
        if selection:
            canvas = Canvas()
            self.codec.encode_selection(selection, canvas)
            for at, value in canvas.cells.items():
                values[at] = value
        return values

    # ------------------------------------------------------------------ changes
    def step(self, player: SupportsIndex, action_id: SupportsIndex) -> Action | None:
        """Play id ``action_id`` for ``player``.

        Returns:
            The engine action applied if the id completed one, else None (the id was
            added to the seat's selection).

        Raises:
            IllegalActionError: ``player`` is not to act or the id is not legal now; the
                core is unchanged.
        """
        player = self.seat(player)
        action_id = _action_id(action_id)
        legal = self.legal_ids(player)
        if action_id not in legal:
            raise IllegalActionError(
                f"action id {action_id} is not legal for seat {player} now; legal ids: "
                f"{legal[:20]}{' ...' if len(legal) > 20 else ''}"
            )
        table = self._table(player)
        sel = self.selections[player]
        if action_id == self.codec.end:
            action = table.action(sel)
        else:
            sel = (*sel, action_id)
            action = table.action(sel)
            tokens = table.next_tokens(sel)
            if action is None or tokens:  # the selection goes on: its ids are known now
                self.selections[player] = sel
                self._ids[player] = self._next_ids(tokens, action)
                self._masks.pop(player, None)
                return None
        assert action is not None  # (END is legal only after a complete selection)
        self.apply(player, action)
        return action

    def apply(self, player: SupportsIndex, action: Action) -> None:
        """Apply engine ``action`` for ``player`` directly (bots, parsed texts); clears the
        seat's selection.

        Raises:
            IllegalActionError: as ``State.apply_action``; the core is unchanged.
        """
        player = self.seat(player)
        self.state.apply_action(action, player)
        self.selections[player] = ()
        self._tables.clear()
        self._views.clear()
        self._ids.clear()
        self._masks.clear()
        self._active = None

    def ids_of(self, player: SupportsIndex, action: Action) -> list[int]:
        """The ids that play engine ``action`` for ``player`` from an empty selection:
        its tokens, then ``END`` where the list must be closed (an empty list, such as
        ``replace -``, or one that other legal actions extend).  Playing them with
        :meth:`step` applies ``action``."""
        player = self.seat(player)
        toks = list(self.codec.tokens(action))
        if self.codec.end is not None and (
            not toks or self._table(player).next_tokens(tuple(toks))
        ):
            toks.append(self.codec.end)
        return toks

    def clone(self) -> EnvCore:
        """An independent copy."""
        return EnvCore(self.codec, self.state.clone(), list(self.selections), self.with_json)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its codec, state, selections and flag (the caches start afresh).
        return (type(self), (self.codec, self.state, list(self.selections), self.with_json))

    def __deepcopy__(self, memo: dict[int, Any]) -> EnvCore:
        # OpenSpiel clones a Python state with copy.deepcopy: share the codec and game.
        return self.clone()

    def resample(self, player: SupportsIndex, rng: random.Random) -> EnvCore:
        """A core consistent with what ``player`` sees: the engine's ``resample`` and
        ``player``'s own selection; every other seat's selection is dropped (hidden)."""
        player = self.seat(player)
        selections: list[tuple[int, ...]] = [()] * len(self.selections)
        selections[player] = self.selections[player]
        return EnvCore(self.codec, self.state.resample(player, rng), selections, self.with_json)


def _action_id(value: SupportsIndex) -> int:
    """``value`` as an action id (any integer type, numpy's too: :func:`as_integer`).

    Raises:
        IllegalActionError: not an integer (a float, a text, a bool...).
    """
    at = as_integer(value)
    if at is None:
        raise IllegalActionError(f"an action id is an integer, not {value!r}")
    return at


class _View:
    """One seat's engine observation (until handed out by ``EnvCore.observation``) and
    the tensor cells encoded from it."""

    __slots__ = ("cells", "obs", "tensor")

    def __init__(self, obs: JSONDict | None, cells: dict[int, float]) -> None:
        self.obs = obs
        self.cells = cells
        self.tensor: Tensor | None = None  # the cells as an array, once asked for


def flag(name: str, value: object) -> bool:
    """``value`` as an adapter's on/off option ``name``.

    Raises:
        ValueError: ``value`` is not a bool (``"no"`` or ``0`` would pass for true or
            false without a word).
    """
    if isinstance(value, bool):
        return value
    raise ValueError(f"{name} must be True or False, not {value!r}")


def one_of(name: str, value: object, choices: tuple[str, ...]) -> str:
    """``value`` as an adapter's option ``name``, one of ``choices``.

    Raises:
        ValueError: it is not one of them.
    """
    if isinstance(value, str) and value in choices:
        return value
    raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")


def next_game_seed(seeds: random.Random, seed: int | None) -> tuple[random.Random, int]:
    """The seed of an environment's next game: ``seed`` itself when given (and the
    generator of later seeds restarts from it), else a draw from ``seeds``.

    Returns:
        ``(generator of later seeds, the game's seed)``.
    """
    if seed is not None:
        return random.Random(seed), int(seed)
    return seeds, seeds.getrandbits(31)
