"""Table clocks: the time each seat has left, timeouts and bot takeovers (issue 15).

Pure bookkeeping, no I/O: the web server's match runner drives it, and records and
``porphyra replay`` read its settings and events (so it sits beside :mod:`porphyra.record`,
not inside the web server).

A table chooses its clock when it is created (:class:`ClockSettings`):

- ``none``: no clock (casual);
- ``realtime``: every seat starts with ``base_s`` seconds and gains ``increment_s`` after
  each of its actions (Fischer increment);
- ``turn``: every decision gets ``per_move_s`` seconds afresh (turn-based play).

:class:`TableClock` does the accounting from outside the rules: after every change the
match runner tells it which seats the game waits for (``state.active_players()``: both
seats of a Byzantium simultaneous decision, B-R3) and which seat just acted, and each
seat's clock runs exactly while its own choice is pending.  Times are epoch seconds from an
injectable time source (``time.time`` in the server, a fake one in the tests), never
measured here.

A seat whose time runs out is played by the table's ``timeout_bot`` for that decision; after
``takeover_after`` timeouts (0: never), or when its player leaves, a bot plays the seat
until the player returns (like BGA's zombie mode, but given back).  Every timeout, takeover
and return is an event kept with the game, so records and replays show them.

Downtime (:meth:`TableClock.resume`): the server writes a heartbeat while it runs; after a
restart every running clock is moved forward by the time between the last heartbeat and
the new start, so the time the server was down is charged to nobody.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard, TypeVar

import orjson

from porphyra.core.messages import Message, Term

#: Clock kinds.
KINDS = ("none", "realtime", "turn")
#: Bounds of the settings, in seconds (and timeouts for ``takeover_after``).
MAX_BASE_S = 7 * 86400
MAX_INCREMENT_S = 3600
MAX_PER_MOVE_S = 30 * 86400
MAX_TAKEOVER_AFTER = 100
#: The default bot that moves for a seat out of time.
DEFAULT_TIMEOUT_BOT = "easy"
#: Why a bot plays a seat for the rest of the game (until its player returns).
TAKEOVER_REASONS = ("left", "timeouts")


class ClockError(ValueError):
    """Clock settings or a stored clock that cannot be used (the message says why)."""


@dataclass(frozen=True)
class ClockSettings:
    """A table's clock.

    Attributes:
        kind: ``"none"``, ``"realtime"`` or ``"turn"``.
        base_s: seconds each seat starts with (``realtime``).
        increment_s: seconds added after each action of the seat (``realtime``).
        per_move_s: seconds for each decision (``turn``).
        timeout_bot: the bot spec that moves for a seat out of time or taken over.
        takeover_after: timeouts after which a bot takes the seat over (0: never).
    """

    kind: str = "none"
    base_s: int = 0
    increment_s: int = 0
    per_move_s: int = 0
    timeout_bot: str = DEFAULT_TIMEOUT_BOT
    takeover_after: int = 0

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON: ``{"kind", ...the kind's fields, "timeout_bot",
        "takeover_after"}`` (the shape of ``POST /api/games``'s ``clock`` plus the table
        options)."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "realtime":
            out.update(base_s=self.base_s, increment_s=self.increment_s)
        elif self.kind == "turn":
            out["per_move_s"] = self.per_move_s
        out.update(timeout_bot=self.timeout_bot, takeover_after=self.takeover_after)
        return out

    @classmethod
    def from_json(cls, data: Any) -> ClockSettings:
        """Settings from :meth:`to_json`'s shape (a stored clock or a record's ``clock``).

        Raises:
            ClockError: not an object, an unknown kind, or a field missing, of the wrong
                type or out of bounds (the message names it).
        """
        if not isinstance(data, dict):
            raise ClockError("clock settings must be an object")
        kind = data.get("kind", "none")
        if kind not in KINDS:
            raise ClockError(f"clock kind {kind!r} is not one of {', '.join(KINDS)}")

        def number(name: str, least: int, most: int, default: int | None = None) -> int:
            value = data.get(name, default)
            if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
                raise ClockError(f"clock field {name} must be an integer from {least} to {most}")
            return value

        bot = data.get("timeout_bot", DEFAULT_TIMEOUT_BOT)
        if not isinstance(bot, str) or not bot:
            raise ClockError("clock field timeout_bot must be a bot name")
        settings = cls(
            kind=kind,
            base_s=number("base_s", 1, MAX_BASE_S) if kind == "realtime" else 0,
            increment_s=number("increment_s", 0, MAX_INCREMENT_S, 0) if kind == "realtime" else 0,
            per_move_s=number("per_move_s", 1, MAX_PER_MOVE_S) if kind == "turn" else 0,
            timeout_bot=bot,
            takeover_after=number("takeover_after", 0, MAX_TAKEOVER_AFTER, 0),
        )
        return settings

    def describe(
        self, tr: Callable[..., str] | None = None, term: Callable[[str], str] | None = None
    ) -> str:
        """A short line (for replays): ``real time, 300 s + 10 s a move; a seat out of
        time is played by the easy bot, taken over after 3 timeouts``.

        Args:
            tr: translates and formats each part (``porphyra.cli.lang.tr``); default:
                English.
            term: names the timeout bot's level as a game term (``porphyra.cli.lang.term``:
                ``easy`` → ``かんたん``); default: as it is.
        """
        tr = tr or _english
        if self.kind == "realtime":
            text = tr("real time, {0} s + {1} s a move", self.base_s, self.increment_s)
        elif self.kind == "turn":
            text = tr("turn-based, {0} s a move", self.per_move_s)
        else:
            text = tr("no clock")
        bot = term(self.timeout_bot) if term is not None else self.timeout_bot
        text += tr("; a seat out of time is played by the {0} bot", bot)
        if self.takeover_after:
            text += tr(", taken over after {0} timeouts", self.takeover_after)
        return text


def _english(message: str, *args: object) -> str:
    return message.format(*args)


@dataclass
class SeatClock:
    """One seat's clock.

    Attributes:
        remaining_s: seconds left when it last stopped or started (``realtime``: the bank;
            ``turn``: the current decision's time).
        since: epoch seconds when it started running, or None while stopped.
        timeouts: how many times the seat ran out of time.
        takeover: ``"left"`` or ``"timeouts"`` while a bot plays the seat, else None.
        paused: stopped in the middle of the seat's decision (it left, and a bot has not
            moved for it yet): a ``turn`` clock goes on from ``remaining_s`` when it starts
            again, instead of with a whole ``per_move_s`` (leaving and coming back never
            gives more time).
    """

    remaining_s: float = 0.0
    since: float | None = None
    timeouts: int = 0
    takeover: str | None = None
    paused: bool = False

    def left(self, now: float) -> float:
        """Seconds left at ``now`` (never below 0)."""
        if self.since is None:
            return max(0.0, self.remaining_s)
        return max(0.0, self.remaining_s - (now - self.since))


@dataclass
class TableClock:
    """The clocks of one table, with its events (timeouts, takeovers, returns).

    Attributes:
        settings: the :class:`ClockSettings`.
        seats: one :class:`SeatClock` per seat.
        events: ``[{"event": "timeout" | "takeover" | "return", "player": seat, "move": the
            number of that seat's actions before it, "bot"?: spec, "reason"?: why}]`` in
            order (a seat's action count does not change when the engine reorders a
            simultaneous decision's choices, B-R3, unlike the action index).
        epoch: the start time of the server that last moved these clocks forward after a
            restart (see :meth:`resume`).
    """

    settings: ClockSettings
    seats: list[SeatClock]
    events: list[dict[str, Any]] = field(default_factory=list)
    epoch: float | None = None

    @classmethod
    def new(cls, settings: ClockSettings, players: int) -> TableClock:
        """Stopped clocks for ``players`` seats (``realtime``: each with ``base_s``)."""
        return cls(settings, [SeatClock(float(settings.base_s)) for _ in range(players)])

    def copy(self) -> TableClock:
        """An independent copy (to change, then keep once stored); events are shared, as
        an event is never changed once the copy holding it is kept."""
        seats = [
            SeatClock(c.remaining_s, c.since, c.timeouts, c.takeover, c.paused) for c in self.seats
        ]
        return TableClock(self.settings, seats, list(self.events), self.epoch)

    @property
    def timed(self) -> bool:
        """True if the clocks run at all (kind ``realtime`` or ``turn``)."""
        return self.settings.kind != "none"

    # ------------------------------------------------------------------ accounting
    def update(self, waiting: set[int], moved: int | None, now: float) -> None:
        """After a change of the game: stop the clock of the seat that acted (``moved``,
        charging its time and adding the increment if its clock ran: a bot seat's or a
        taken-over seat's does not) and of every seat no longer waited
        for; start the clock of every seat now waited for (``turn``: with ``per_move_s``).

        Args:
            waiting: the seats whose own choice is pending and whose clock counts (human
                seats of ``state.active_players()`` that no bot plays).
            moved: the seat whose action caused the change, or None.
            now: epoch seconds.
        """
        if not self.timed:
            return
        for seat, clock in enumerate(self.seats):
            if seat == moved:
                clock.paused = False  # its decision is made: the next one is a new one
            if clock.since is not None and (seat == moved or seat not in waiting):
                clock.remaining_s = clock.left(now)
                clock.since = None
                if seat == moved and self.settings.kind == "realtime":
                    clock.remaining_s += self.settings.increment_s
                elif seat != moved:
                    clock.paused = True  # stopped within its decision (it left)
            if seat in waiting and clock.since is None:
                if self.settings.kind == "turn" and not clock.paused:
                    clock.remaining_s = float(self.settings.per_move_s)
                clock.paused = False
                clock.since = now

    def deadline(self, seat: int) -> float | None:
        """Epoch seconds at which ``seat`` runs out of time, or None (not running)."""
        clock = self.seats[seat]
        if clock.since is None:
            return None
        return clock.since + clock.remaining_s

    def due(self, now: float) -> list[int]:
        """Seats whose running clock is out of time at ``now``."""
        out = []
        for seat in range(len(self.seats)):
            end = self.deadline(seat)
            if end is not None and end <= now:
                out.append(seat)
        return out

    def next_deadline(self) -> float | None:
        """The earliest deadline of any running clock, or None (always None untimed:
        the server asks every game several times a second)."""
        if not self.timed:
            return None
        ends = [d for d in map(self.deadline, range(len(self.seats))) if d is not None]
        return min(ends) if ends else None

    def resume(self, alive_at: float | None, started: float) -> bool:
        """After a server restart at ``started``: move every running clock forward by the
        time the server was down (from the last heartbeat ``alive_at``, or from when the
        clock started if that was later, to ``started``), so nobody is charged for it.
        Once per server start (``epoch``).

        Returns:
            True if anything changed (the caller stores the clock).
        """
        if self.epoch == started:
            return False
        self.epoch = started
        for clock in self.seats:
            if clock.since is None:
                continue
            down_from = clock.since if alive_at is None else max(alive_at, clock.since)
            clock.since += max(0.0, started - down_from)
        return True

    # ------------------------------------------------------------------ events
    def add_event(self, event: str, player: int, move: int, **extra: Any) -> dict[str, Any]:
        """Append and return an event (see :attr:`events`)."""
        entry = {"event": event, "player": player, "move": move, **extra}
        self.events.append(entry)
        return entry

    def timed_out(self, seat: int, move: int) -> bool:
        """Count a timeout of ``seat`` (its ``move``-th action is the bot's) and record the
        event; True if this timeout hands the seat to a bot (``takeover_after``)."""
        clock = self.seats[seat]
        clock.timeouts += 1
        self.add_event("timeout", seat, move, bot=self.settings.timeout_bot)
        limit = self.settings.takeover_after
        if limit and clock.takeover is None and clock.timeouts >= limit:
            self.take_over(seat, move, "timeouts")
            return True
        return False

    def take_over(self, seat: int, move: int, reason: str) -> None:
        """A bot plays ``seat`` from its ``move``-th action on (``reason``: ``left`` or
        ``timeouts``)."""
        self.seats[seat].takeover = reason
        self.add_event("takeover", seat, move, reason=reason, bot=self.settings.timeout_bot)

    def give_back(self, seat: int, move: int) -> None:
        """``seat``'s player is back: the bot stops playing it and its timeouts count
        from 0 again."""
        self.seats[seat].takeover = None
        self.seats[seat].timeouts = 0
        self.add_event("return", seat, move)

    def drop_events_after(self, moves: list[int]) -> None:
        """After an undo: forget events of moves taken back (``moves``: each seat's
        action count now)."""
        self.events = [
            e
            for e in self.events
            # a timeout names the bot's action; a takeover or return the seat's next one
            if e["move"] < moves[e["player"]] + (e["event"] != "timeout")
        ]

    # ------------------------------------------------------------------ shapes
    def public(self, now: float) -> dict[str, Any]:
        """What everyone may see: the settings and per seat ``{"seat", "remaining_s"
        (seconds left at ``now``, rounded to 0.1; None without a clock), "running",
        "timeouts", "takeover"}``."""
        seats = [
            {
                "seat": i,
                "remaining_s": round(c.left(now), 1) if self.timed else None,
                "running": c.since is not None,
                "timeouts": c.timeouts,
                "takeover": c.takeover,
            }
            for i, c in enumerate(self.seats)
        ]
        return {**self.settings.to_json(), "seats": seats}

    def dumps(self) -> str:
        """The stored form (JSON text; :meth:`loads` reads it).  Encoded by orjson: the
        server stores it with every move, and :mod:`json` took several percent of the
        server's CPU for it (bench/bench_server.py)."""
        return orjson.dumps(
            {
                "settings": self.settings.to_json(),
                "seats": [
                    {
                        "remaining_s": c.remaining_s,
                        "since": c.since,
                        "timeouts": c.timeouts,
                        "takeover": c.takeover,
                        "paused": c.paused,
                    }
                    for c in self.seats
                ],
                "events": self.events,
                "epoch": self.epoch,
            },
        ).decode()

    @classmethod
    def loads(cls, text: str, players: int) -> TableClock:
        """A clock from :meth:`dumps`' text.

        Raises:
            ClockError: not that shape (the message names the field).
        """
        try:
            data = json.loads(text)
        except ValueError:
            raise ClockError("the stored clock is not valid JSON") from None
        if not isinstance(data, dict):
            raise ClockError("the stored clock is not an object")
        settings = ClockSettings.from_json(data.get("settings"))
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != players:
            raise ClockError(f"the stored clock has no list of {players} seats")
        out = []
        for s in seats:
            if not isinstance(s, dict):
                raise ClockError("a stored seat clock is not an object")
            remaining, since, timeouts = s.get("remaining_s"), s.get("since"), s.get("timeouts")
            takeover = s.get("takeover")
            if not _is_number(remaining):
                raise ClockError("a stored seat clock has a bad remaining_s")
            if not (since is None or _is_number(since)):
                raise ClockError("a stored seat clock has a bad since")
            if not _is_count(timeouts):
                raise ClockError("a stored seat clock has a bad timeouts count")
            if takeover is not None and takeover not in TAKEOVER_REASONS:
                raise ClockError("a stored seat clock has a bad takeover reason")
            paused = s.get("paused", False)  # absent in clocks stored before it
            if not isinstance(paused, bool):
                raise ClockError("a stored seat clock has a bad paused flag")
            out.append(SeatClock(float(remaining), since, timeouts, takeover, paused))
        events = data.get("events", [])
        if not isinstance(events, list) or not all(_is_event(e, players) for e in events):
            raise ClockError("the stored clock's events are not a list of events")
        epoch = data.get("epoch")
        if epoch is not None and not _is_number(epoch):
            raise ClockError("the stored clock's epoch is not a number")
        return cls(settings, out, events, epoch)


EVENTS = ("timeout", "takeover", "return")


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_event(e: Any, players: int) -> bool:
    """A stored event: its kind, seat and move, and its optional ``at`` (where each view's
    log stood: one non-negative count per seat, then the spectators')."""
    return (
        isinstance(e, dict)
        and e.get("event") in EVENTS
        and _is_count(e.get("player"))
        and e["player"] < players
        and _is_count(e.get("move"))
        and (
            "at" not in e
            or (
                isinstance(e["at"], list)
                and len(e["at"]) == players + 1
                and all(_is_count(n) for n in e["at"])
            )
        )
    )


def _is_count(value: Any) -> TypeGuard[int]:
    """A non-negative integer (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


#: A log line: its text, or the same line as a message (or a message's wire form).
_Line = TypeVar("_Line")


def event_message(event: dict[str, Any]) -> Message:
    """The log line of a clock event as a message (context ``log``): the seat as
    ``seat N``, like the engines' log lines (the edges replace it by the seat's name), the
    bot's level as a term."""
    who = Message("seat {0}", (int(event["player"]),))
    bot = Term(str(event.get("bot", DEFAULT_TIMEOUT_BOT)))
    if event["event"] == "timeout":
        return Message("⏱ {0} ran out of time: the {1} bot moves for them.", (who, bot))
    if event["event"] == "takeover":
        if event.get("reason") == "left":
            template = "⏱ {0} left the table: the {1} bot plays the seat until they return."
        else:
            template = (
                "⏱ {0} kept running out of time: the {1} bot plays the seat until they return."
            )
        return Message(template, (who, bot))
    return Message("⏱ {0} is back and plays the seat again.", (who,))


def event_text(event: dict[str, Any]) -> str:
    """The English log line of a clock event (:func:`event_message` as text)."""
    return str(event_message(event))


def with_notes(log: list[_Line], notes: list[tuple[int, _Line]]) -> list[_Line]:
    """``log`` with each note ``(position, line)`` inserted before the line at
    ``position`` of ``log`` (the log's length when the note was made; notes at the same
    position keep their order)."""
    out: list[_Line] = []
    done = 0
    for position, text in sorted(notes, key=lambda n: n[0]):
        position = min(max(position, done), len(log))
        out.extend(log[done:position])
        done = position
        out.append(text)
    out.extend(log[done:])
    return out


def record_fields(clock: TableClock, history: list[tuple[int, Any]]) -> dict[str, Any]:
    """The record fields of a table's clock (see :mod:`porphyra.record`): ``{"clock":
    settings, "clock_events": [{"event", "player", "action": index of the first action it
    concerns in the record's actions (their number if none came after it), "bot"?,
    "reason"?}]}``; ``{}`` for a table without clock or events (a record as before)."""
    if not clock.timed and not clock.events:
        return {}
    positions: dict[int, list[int]] = {}
    for index, (player, _) in enumerate(history):
        positions.setdefault(player, []).append(index)
    events = []
    for e in clock.events:
        mine = positions.get(e["player"], [])
        index = mine[e["move"]] if e["move"] < len(mine) else len(history)
        out = {k: v for k, v in e.items() if k not in ("move", "at")}
        out["action"] = index
        events.append(out)
    return {"clock": clock.settings.to_json(), "clock_events": events}
