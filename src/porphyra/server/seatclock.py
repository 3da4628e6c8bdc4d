"""The clocks of a match runner (issue 15): the part of :class:`MatchRunner` that keeps
its :class:`~porphyra.clocks.TableClock`: each seat's time in the views and the REST info,
the log lines of timeouts, takeovers and returns (each where that view's log stood), the
timeout watch, leaving and returning, and the clocks moved past a restart's downtime.

The clocks change with every action in ``MatchRunner._commit`` (stored with it); the
changes without an action (a takeover, a return, a restart) are stored here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson

from porphyra import record as records
from porphyra.clocks import ClockSettings, TableClock, event_message, event_text, with_notes
from porphyra.clocks import record_fields as clock_record_fields
from porphyra.core.game import State
from porphyra.core.messages import Message, to_wire
from porphyra.server.errors import SubmitError
from porphyra.server.ports import GameStore, TableTime
from porphyra.server.rows import GameRow, SeatRow

log = logging.getLogger("porphyra.server")


class WireLog:
    """One reader's log as the server sends it, kept in step with the engine's: the
    messages (:meth:`State.log_messages`), their texts (``str(message)``, the engine's
    log lines) and their wire form (:func:`to_wire`, each as its JSON text in an
    ``orjson.Fragment``), each line converted once.

    A log only grows, and the engines hand the lines they formatted before out again as
    the same objects (``porphyra.core.logcache``); so after a change :meth:`sync` asks
    the engine for the lines from the last one it has on, and converts the new ones
    only.  Every view used to copy, compare and convert its whole log, and each such
    pass over a long log in a large heap cost as much as the view (issue 33).  A log
    that is not an extension of the last one (an undo, a reload) is read again whole.

    The lists grow in place: readers take slices of them (:meth:`SeatViews.view`), never
    keep them.  A fragment holds no references the garbage collector could walk, where
    the lines kept as dicts and lists would be walked by its older generations.
    """

    __slots__ = ("messages", "texts", "wired")

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.texts: list[str] = []
        self.wired: list[orjson.Fragment] = []

    def sync(self, state: State, reader: int | None) -> None:
        """Bring the lists up to ``state``'s log for ``reader`` (a seat, None: a
        spectator)."""
        known = len(self.messages)
        tail = state.log_messages(reader, known - 1) if known else []
        if tail and tail[0] is self.messages[-1]:
            del tail[0]
        else:  # (the first read, or not an extension of the log read before)
            self.messages, self.texts, self.wired = [], [], []
            tail = state.log_messages(reader)
        for message in tail:
            self.messages.append(message)
            self.texts.append(str(message))
            self.wired.append(_fragment(message))


def _fragment(message: Message) -> orjson.Fragment:
    # As text: the bytes orjson.dumps returns keep its whole output buffer (2 KiB a line
    # in a memory trace), a string made from them only the line.
    return orjson.Fragment(orjson.dumps(to_wire(message)).decode())


class ClockedRunner:
    """The clocks of a :class:`~porphyra.server.match.MatchRunner` (a base class of it;
    the attributes and methods below are the runner's)."""

    store: GameStore
    time: TableTime
    id: str
    state: State
    seats: list[SeatRow]
    seq: int
    lock: asyncio.Lock
    #: The table's clocks (settings, each seat's time, the events).
    clock: TableClock
    #: Seats out of time whose timeout bot is deciding.
    _timing_out: set[int]
    _memo_seq: int
    #: Per seat (None: the spectators) the wire form of its log messages so far.
    _wire_logs: dict[int | None, WireLog]

    if TYPE_CHECKING:

        @property
        def over(self) -> bool: ...
        def public(self) -> dict[str, Any]: ...
        def _track_decisions(self) -> None: ...
        def broadcast(self, last: tuple[int, str] | None = None) -> None: ...
        def presence(self) -> None: ...
        def kick_bots(self) -> None: ...
        async def _store(self, what: str, fn: Callable[..., Any], *args: Any) -> Any: ...

    def clock_info(self) -> dict[str, Any]:
        """The clock settings and each seat's remaining time now (public:
        :meth:`TableClock.public`)."""
        return self.clock.public(self.time.now())

    def record(self) -> dict[str, Any]:
        """The game's record with its clock settings and clock events (``clock``,
        ``clock_events``; none for a table without clock or events)."""
        rec = records.to_record(self.state)
        rec.update(clock_record_fields(self.clock, self.state.history))
        return rec

    def _reader_log(self, seat: int | None) -> tuple[list[str], list[orjson.Fragment]]:
        """``seat``'s log (None: the spectators') as its views show it: the lines
        (``observation["log"]``) and the same as messages in wire form
        (``observation["log_messages"]``, :func:`porphyra.core.messages.to_wire` of
        ``state.log_messages(seat)``, one per line, for the page to render in its
        language), with the lines of the clock events (timeouts, takeovers, returns)
        each where that view's log stood when it happened.

        Without clock events these are the reader's :class:`WireLog` lists themselves:
        read them (slice them), never change them."""
        wire_log = self._wire_logs.get(seat)
        if wire_log is None:
            wire_log = self._wire_logs[seat] = WireLog()
        wire_log.sync(self.state, seat)
        events = [e for e in self.clock.events if "at" in e]
        if not events:
            return wire_log.texts, wire_log.wired
        key = len(self.seats) if seat is None else seat
        notes = [(e["at"][key], event_text(e)) for e in events]
        wired = [(e["at"][key], _fragment(event_message(e))) for e in events]
        return with_notes(wire_log.texts, notes), with_notes(wire_log.wired, wired)

    def _log_anchor(self) -> list[int]:
        """Per seat, then the spectators: the length of that view's engine log now."""
        out = []
        for seat in [*range(len(self.seats)), None]:
            obs = self.public() if seat is None else self.state.observation(seat)
            log = obs.get("log")
            out.append(len(log) if isinstance(log, list) else 0)
        return out

    def _waiting(self, state: State, clock: TableClock) -> set[int]:
        """The seats whose clock runs in ``state``: human seats the game waits for
        (``state.active_players()``) that no bot plays; none while a seat is open (the
        game has not started)."""
        if state.is_terminal() or any(s.open_to is not None for s in self.seats):
            return set()
        return {
            p
            for p in state.active_players()
            if 0 <= p < len(self.seats)
            and self.seats[p].kind == "human"
            and clock.seats[p].takeover is None
        }

    def _moves_of(self, seat: int) -> int:
        """How many actions ``seat`` has made so far."""
        return sum(1 for p, _ in self.state.history if p == seat)

    # ----------------------------------------------------------------- clocks
    async def _store_clock(self, clock: TableClock, seq: int) -> None:
        """Store ``clock`` and ``seq`` (no action); then they are the runner's.

        Raises:
            SubmitError: ``unavailable``; nothing changed.
        """
        await self._store(
            "the clocks",
            self.store.db,
            self.store.storage.set_clock,
            self.id,
            clock.dumps(),
            seq,
            self.store.fence(),
        )
        self.clock = clock
        if seq != self.seq:
            self.seq = seq
            self._track_decisions()
            self.broadcast()
            self.presence()

    async def resume_clock(
        self, alive_at: float | None = None, started: float | None = None
    ) -> None:
        """After a server restart: move the running clocks past the downtime
        (:meth:`TableClock.resume`) and store them (a failure is logged; the clocks are
        moved again, the same way, when the game is next loaded).

        Args:
            alive_at: when the server that ran the game was last known alive, epoch
                seconds (default: this server's last heartbeat before its start).
            started: when this server took the game on (default: its start); from
                ``alive_at`` to then is charged to nobody, once per ``started``.
        """
        if started is None:
            alive_at, started = self.time.alive_at, self.time.started
        clock = self.clock.copy()
        if clock.resume(alive_at, started):
            async with self.lock:
                try:
                    await self._store_clock(clock, self.seq)
                except SubmitError:
                    self.clock = clock

    async def check_clock(self) -> None:
        """Hand every seat out of time now to the table's timeout bot (one decision; the
        log says so once the bot moved) and start it."""
        if self.over or not self.clock.timed:
            return
        async with self.lock:
            now_s = self.time.now()
            waiting = self._waiting(self.state, self.clock)
            due = [p for p in self.clock.due(now_s) if p in waiting and p not in self._timing_out]
            for seat in due:
                self._timing_out.add(seat)
                log.info(
                    "game %s: seat %d ran out of time; the %s bot moves for it",
                    self.id,
                    seat,
                    self.clock.settings.timeout_bot,
                )
            if due:
                self._memo_seq = -1  # its view offers no actions while the bot decides
                self.broadcast()
        if due:
            self.kick_bots()

    async def leave(self, seat: int) -> None:
        """``seat``'s player leaves: a bot (the table's ``timeout_bot``) plays the seat
        until they return (:meth:`give_back`).

        Raises:
            SubmitError: ``over``, ``takeover`` (a bot already plays it, or the seat left
                once already during this decision), ``unavailable``.
        """
        async with self.lock:
            if self.over:
                raise SubmitError("over", "the game is over")
            if self.clock.seats[seat].takeover is not None:
                raise SubmitError("takeover", "a bot already plays your seat")
            moves = self._moves_of(seat)
            if any(
                e["event"] == "takeover" and e["player"] == seat and e["move"] == moves
                for e in self.clock.events
            ):
                # Once per decision: leaving and coming back again and again would fill
                # everyone's log, and hand the decision to the bot and back at will.
                raise SubmitError(
                    "takeover", "you already left once during this decision: play it first"
                )
            clock = self.clock.copy()
            clock.take_over(seat, moves, "left")
            clock.events[-1]["at"] = self._log_anchor()
            clock.update(self._waiting(self.state, clock), None, self.time.now())
            await self._store_clock(clock, self.seq + 1)
            log.info("game %s: seat %d left; a bot plays it", self.id, seat)
        self.kick_bots()

    async def give_back(self, seat: int) -> None:
        """``seat``'s player is back: the bot that played the seat stops (its clock runs
        again if the game waits for it).

        Raises:
            SubmitError: ``takeover`` (no bot plays the seat), ``unavailable``.
        """
        async with self.lock:
            if self.clock.seats[seat].takeover is None:
                raise SubmitError("takeover", "you already play your seat")
            clock = self.clock.copy()
            clock.give_back(seat, self._moves_of(seat))
            clock.events[-1]["at"] = self._log_anchor()
            clock.update(self._waiting(self.state, clock), None, self.time.now())
            await self._store_clock(clock, self.seq + 1)
            log.info("game %s: seat %d is back", self.id, seat)


def load_clock(row: GameRow, players: int) -> TableClock:
    """The clocks of a stored game (no clock for a game stored before clocks).

    Raises:
        ClockError: the stored clock is damaged.
    """
    if row.clock is None:
        return TableClock.new(ClockSettings(), players)
    return TableClock.loads(row.clock, players)
