"""The match runner: the single authority over one web game.

A :class:`MatchRunner` owns the engine state of one game.  Every submission goes through
:meth:`MatchRunner.submit`, which checks, in order: the game is not over, the message is
fresh (not older than the start of the seat's decision: the state in which its legal actions
became what they are, so a seat of a simultaneous decision may answer after another seat's
hidden choice), the seat is one the engine waits for (``state.active_players()``), and the
action parses and is legal.  Only then is it applied, **written to the database**, and
broadcast.  Anything else answers the submitting client with an ``error`` and changes
nothing.  The runner knows no game's phases: simultaneous decisions (Byzantium B-R3) are the
engine's, which takes them in either order; a choice is stored as soon as it is applied, so
nothing waits outside the record.

The choke point (``shared/DESIGN.md``): :meth:`MatchRunner._base_view` is the only place
where state becomes outgoing data (:meth:`MatchRunner.view` shapes it into messages).  A
seat gets ``state.observation(seat)`` and its own legal actions; a spectator gets
``state.public_observation()``.  Undo history never leaves
the server (an undo replays a record prefix and sends fresh snapshots).

Bot seats play through the hub's :class:`~porphyra.server.botpool.BotPool`, and so do the
seats a bot plays for their players (issue 15): a seat out of time (one decision, by the
table's ``timeout_bot``) and a seat taken over (its player left, or ran out of time
``takeover_after`` times) until its player returns.  The clocks are a
:class:`~porphyra.clocks.TableClock`, stored with every action and kept by the base class
:class:`~porphyra.server.seatclock.ClockedRunner`.  Undo follows
:func:`~porphyra.core.undo.undo_target`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from porphyra import record as records
from porphyra.core.errors import PorphyraError
from porphyra.core.game import Action, Game, State
from porphyra.core.messages import Joined, msg
from porphyra.core.undo import undo_target
from porphyra.server.alertseats import TableAlerts
from porphyra.server.client import Client
from porphyra.server.errors import MOVED_MESSAGE, SubmitError, unavailable_message
from porphyra.server.incidents import report
from porphyra.server.openseats import OpenSeats
from porphyra.server.ports import RunnerServices
from porphyra.server.ratings import Ratings
from porphyra.server.replay import replay
from porphyra.server.rows import GameRow, SeatRow, hash_token, now, open_kind
from porphyra.server.seatclock import ClockedRunner, load_clock
from porphyra.server.seatviews import SeatViews
from porphyra.server.tablebots import TableBots
from porphyra.server.tablechat import TableChat
from porphyra.server.writes import NotOwnerError

log = logging.getLogger("porphyra.server")


class MatchRunner(SeatViews, TableChat, TableBots, OpenSeats, ClockedRunner):
    """The authority over one game: state, seats, clients, bots, persistence (its views:
    :class:`~porphyra.server.seatviews.SeatViews`; its chat:
    :class:`~porphyra.server.tablechat.TableChat`; its bots and hints:
    :class:`~porphyra.server.tablebots.TableBots`; its clocks:
    :class:`~porphyra.server.seatclock.ClockedRunner`; its open seats:
    :class:`~porphyra.server.openseats.OpenSeats`).

    Args:
        services: its collaborators (:class:`~porphyra.server.ports.RunnerServices`:
            storage, bots, the clocks' time, the hint bot and the bots' pace).
        row: the stored game (record header, actions, seats).
        state: the engine state after ``row.actions``.
    """

    def __init__(self, services: RunnerServices, row: GameRow, state: State) -> None:
        self.store = services.store
        self.bots = services.bots
        self.time = services.time
        self.hint_bot = services.hint_bot
        self.bot_pace = services.bot_pace
        alerts, name = services.alerts, state.game.info.long_name
        #: This table's turn alerts (issue 32 §5; None: the server sends none).
        self.alerts = None if alerts is None else TableAlerts(alerts, row.id, name)
        self.id = row.id
        self.row = row
        self.state = state
        self.game: Game = state.game
        self.name = self.game.info.name
        self.seats: list[SeatRow] = row.seats
        self.seq = row.seq
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self._bot_task: asyncio.Task[None] | None = None
        self._undo_cache: dict[int, tuple[int, int | None]] = {}
        #: Per-seq memo of views and the public observation (cleared on change).
        self._memo: dict[Any, Any] = {}
        self._memo_seq = -1
        #: Per seat (None: spectators), its log messages in wire form so far.
        self._wire_logs = {}
        #: ``time.monotonic()`` of the last use (the hub releases idle runners).
        self.last_used = time.monotonic()
        #: Set when the hub released this runner: holders must fetch it again.
        self.released = False
        #: Per seat: the seq its current decision began at, and the decision (its option
        #: table or its legal action texts; :class:`SeatViews`).
        self._decisions = {}
        self._track_decisions()
        #: The hint searches of the current decisions, by ``(seat, seq)`` (shared by every
        #: request for the same decision).
        self._hints: dict[tuple[int, int], asyncio.Future[tuple[str, float | None]]] = {}
        #: One rematch is made at a time (a second request gets the first one).
        self.rematch_lock = asyncio.Lock()
        #: The table's chat (loaded from the database on first use).
        self.chat: list[dict[str, Any]] | None = None
        self._chat_lock = asyncio.Lock()
        #: ``time.monotonic()`` of the last change (bots wait ``bot_pace`` after it).
        self._last_change = 0.0
        self.clock = load_clock(row, self.game.num_players)
        #: Seats out of time whose timeout bot is deciding.
        self._timing_out: set[int] = set()

    # ----------------------------------------------------------------- info
    @property
    def over(self) -> bool:
        """True once the game is over."""
        return self.state.is_terminal()

    def seat_of_token(self, token: str) -> int | None:
        """The seat whose token is ``token``, or None."""
        digest = hash_token(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, digest):
                return s.seat
        return None

    def seats_info(self) -> list[dict[str, Any]]:
        """Public seat list: index, kind, bot, name, connected."""
        online = {c.seat for c in self.clients if c.seat is not None}
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "connected": s.kind == "bot" or s.seat in online,
                "takeover": self.clock.seats[s.seat].takeover,
                "open": open_kind(s.open_to),  # a seat waiting for its player
            }
            for s in self.seats
        ]

    def info(self) -> dict[str, Any]:
        """Public game info for the REST API (no seed, no tokens; the record once over)."""
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.name,
            "long_name": self.game.info.long_name,
            "options": self.row.options,
            "status": "over" if self.over else "active",
            "actions": len(self.state.history),
            "seq": self.seq,
            "seats": self.seats_info(),
            "spectators": sum(1 for c in self.clients if c.seat is None),
            "created": self.row.created,
            "updated": self.row.updated,
            "result": records.to_record(self.state)["result"],
            "clock": self.clock_info(),
            "waiting": [] if self.over else self.state.active_players(),
            **self.deal_info(),
        }
        return out

    def record_with_seats(self) -> dict[str, Any]:
        """The game's record (with its clock settings and events, :meth:`record`) plus
        ``seats`` (per seat its ``name``, ``kind`` and ``bot``), which ``porphyra replay``
        shows.  Only for a finished game: the record holds the seed."""
        rec = self.record()
        rec["seats"] = [{"name": s.name, "kind": s.kind, "bot": s.bot} for s in self.seats]
        return rec

    def deal_info(self) -> dict[str, Any]:
        """``{"deal": "secret" | "chosen" | "legacy", "rated": bool}``: whether the seed
        was drawn by the server or chosen by the creator (told to everyone; never the
        seed itself), and whether this is a rated table (issue 32 §3)."""
        return {"deal": self.row.deal, "rated": self.row.rated}

    def has_human(self) -> bool:
        """True if a seat is human (bot moves are then paced so that a person can follow)."""
        return any(s.kind == "human" for s in self.seats)

    def _people_seats(self) -> set[int]:
        """The seats a person plays: human seats that no bot has taken over."""
        return {
            s.seat
            for s in self.seats
            if s.kind == "human" and self.clock.seats[s.seat].takeover is None
        }

    def has_player(self) -> bool:
        """True if a person plays a seat (a game without one counts as a bot-only game,
        see ``Hub.active_bot_only_games``)."""
        return bool(self._people_seats())

    def person_waiting(self) -> bool:
        """True if a person is at the table now: a seat a person plays, with a page open.
        Its bots are served first (``FairGate``); tables whose people are away (or taken
        over) wait their turn like bot-only games."""
        online = {c.seat for c in self.clients if c.seat is not None}
        return not online.isdisjoint(self._people_seats())

    def idle(self) -> bool:
        """True if nothing holds this runner in memory: no client and no bot deciding
        (the hub may then release it; it reloads from the database)."""
        return not self.clients and (self._bot_task is None or self._bot_task.done())

    def _all_others_bots(self, seat: int) -> bool:
        return all(s.kind == "bot" for s in self.seats if s.seat != seat)

    def hints_allowed(self, seat: int | None) -> bool:
        """True if ``seat`` may ask for hints: the table allows them, or every other seat
        is a bot (a spectator never may).  Never at a rated table (a bot's advice is
        not the player's rating)."""
        if seat is None or not 0 <= seat < len(self.seats) or self.row.rated:
            return False
        return bool(self.row.table.get("hints")) or self._all_others_bots(seat)

    def spectators_may_chat(self) -> bool:
        """True if the table lets spectators write in its chat (they always read it)."""
        return bool(self.row.table.get("spectator_chat"))

    def bot_plays(self, seat: int) -> bool:
        """True if a bot decides for ``seat`` now: a bot seat, a seat taken over, or a
        seat out of time whose timeout bot is deciding."""
        return (
            self.seats[seat].kind == "bot"
            or self.clock.seats[seat].takeover is not None
            or seat in self._timing_out
        )

    def can_undo(self, seat: int) -> bool:
        """True if ``seat`` may undo now (see :func:`undo_target`; cached per seq); never
        at a rated table."""
        if self.over or self.seats[seat].kind != "human" or not self._all_others_bots(seat):
            return False
        if self.row.rated:
            return False
        if self.bot_plays(seat) or seat not in self.state.active_players():
            return False
        cached = self._undo_cache.get(seat)
        if cached is None or cached[0] != self.seq:
            cached = (self.seq, undo_target(self.state, seat))
            self._undo_cache[seat] = cached
        return cached[1] is not None

    def detach(self, client: Client) -> None:
        """Forget ``client``."""
        self.clients.discard(client)
        self.presence()

    # ----------------------------------------------------------------- submissions
    def _parse(self, state: State, text: str, seat: int) -> Action:
        try:
            return self.game.parse_action(state, text, seat)
        except PorphyraError as exc:
            raise SubmitError("illegal", msg("{0}: {1}", repr(text), exc.message)) from None
        except ValueError as exc:
            raise SubmitError("illegal", f"{text!r}: {exc}") from None

    async def submit(self, seat: int, text: str, seq: int) -> str:
        """Validate and apply ``seat``'s action ``text`` submitted at ``seq``.

        Returns:
            ``"applied"``.

        Raises:
            SubmitError: over, stale, not one of the seats the game waits for, malformed or
                illegal; nothing changed.
        """
        async with self.lock:
            if self.over:
                raise SubmitError("over", "the game is over")
            if self.seats_open():
                raise SubmitError("open", msg("the game starts once every open seat is taken"))
            start = self._decision_start(seat)
            if seq > self.seq or seq < start:
                raise SubmitError(
                    "stale",
                    msg(
                        "stale submission: you saw state {0}, the game is at {1}; "
                        "look at the new state and decide again",
                        seq,
                        self.seq,
                    ),
                )
            active = self.state.active_players()
            if seat not in active:
                waiting = Joined(", ", tuple(msg("seat {0}", p) for p in active))
                raise SubmitError("turn", msg("not your turn: waiting for {0}", waiting))
            if seat in self._timing_out:
                raise SubmitError("timeout", "your time ran out: a bot is moving for you")
            if self.clock.seats[seat].takeover is not None:
                raise SubmitError(
                    "takeover", "a bot plays your seat: take your seat back first, then move"
                )
            action = self._parse(self.state, text, seat)
            await self._commit(seat, action)
        self.kick_bots()
        return "applied"

    def _name(self, seat: int) -> str:
        if 0 <= seat < len(self.seats):
            return self.seats[seat].name
        return "nobody"

    async def _store(self, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run storage call ``fn(*args)``; a failure becomes a :class:`SubmitError`
        ``unavailable`` ("nothing changed, try again", with an error id; the details only
        in the server log)."""
        try:
            return await fn(*args)
        except NotOwnerError:
            # Another server took this game over (this one was cut off past its lease):
            # the write was refused; the game is its now (see porphyra.server.owners).
            log.warning("game %s: taken over by another server; dropped here", self.id)
            asyncio.get_running_loop().create_task(self.store.drop(self.id))
            raise SubmitError("moved", MOVED_MESSAGE) from None
        except Exception:
            error_id = report("game %s: could not store %s", self.id, what)
            raise SubmitError("unavailable", unavailable_message(error_id)) from None

    async def _commit(self, seat: int, action: Action, timeout: bool = False) -> None:
        """Store ``action`` for ``seat`` (legal: checked by the caller), then make it the
        game's state and broadcast it.  The action is applied to a clone, and the clone
        becomes the game's state only once the database confirmed the write: on a failure
        nothing changed (issue 13, item 5).

        The engine keeps a simultaneous decision's choices in canonical order, so a choice
        may land before one stored earlier (B-R3: the Emperor's redraw after the Foe's):
        the stored actions are rewritten from the first index that changed.

        ``timeout``: the action is a timeout bot's move for ``seat`` (counted, logged, and
        maybe the seat's takeover, :meth:`TableClock.timed_out`).  The clocks are updated
        (:meth:`TableClock.update`) and stored with the action.

        Raises:
            SubmitError: ``unavailable``, the database did not take the write.
        """
        # An untimed table's clock never changes here (update() returns at once), so it
        # is shared rather than copied; any other is changed on a copy, kept once stored.
        clock = self.clock.copy() if timeout or self.clock.timed else self.clock
        if timeout:
            anchor = self._log_anchor()
            before_events = len(clock.events)
            clock.timed_out(seat, self._moves_of(seat))
            for event in clock.events[before_events:]:
                event["at"] = anchor
        before = self.state.history
        state = self.state.clone()
        state.apply_action(action, seat)
        history = state.history
        first = len(before)
        while first and history[first - 1] != before[first - 1]:
            first -= 1
        text = str(action)
        seq = self.seq + 1
        result = records.to_record(state)["result"] if state.is_terminal() else None
        entry = {
            "game_id": self.id,
            "index": first,
            "actions": [(p, str(a)) for p, a in history[first:]],
            "replace": first < len(before),
            "seq": seq,
            "status": "over" if state.is_terminal() else "active",
            "result": result,
        }
        if clock.timed:  # (an untimed clock's update changes nothing: skip its inputs)
            clock.update(self._waiting(state, clock), seat, self.time.now())
        entry["clock"] = clock.dumps()
        try:
            await self._store(
                f"action #{len(history) - 1} {text!r}", self.store.store_action, entry
            )
        except SubmitError as err:
            # The write may have landed before the connection broke: take the stored
            # game as the truth when the database answers (else keep the unchanged state).
            if err.code != "moved":  # (a game taken over is not this server's to reload)
                with contextlib.suppress(Exception):
                    await self._reload()
            raise
        self.state, self.seq, self.clock = state, seq, clock
        self._timing_out.discard(seat)
        self.row.updated = now()
        self._last_change = time.monotonic()
        self._track_decisions()
        if state.is_terminal() and self.row.rated:  # before the end is told: rated by then
            await self._rate()
        self.broadcast(last=(seat, text))
        self._alert_turns(None if timeout else seat)

    def _alert_turns(self, moved: int | None) -> None:
        """Tell the turn alerts (issue 32 §5) of a change at a turn-based table: ``moved``
        answered; people's seats that must act with no page connected may be alerted."""
        if self.alerts is None or self.clock.settings.kind != "turn":
            return
        connected = {c.seat for c in self.clients}
        due = [
            s
            for s in ([] if self.over else self.state.active_players())
            if self.seats[s].kind == "human" and s not in connected and not self.bot_plays(s)
        ]
        if moved is not None and self.seats[moved].kind != "human":
            moved = None  # (a bot's move answers no alert)
        self.alerts.changed(due, moved)

    async def _rate(self) -> None:
        """Count this rated table's finished game for the ratings (issue 32 §3); a
        failure is logged and changes nothing else (``porphyra ratings rebuild``
        recomputes every rating from the stored games)."""
        try:
            await self.store.db(Ratings(self.store.storage.engine).rate, self.id)
        except Exception:
            report("game %s: its ratings could not be updated", self.id)

    async def _reload(self) -> None:
        """After a failed write: if the database holds a different game (the write landed
        before the connection broke), rebuild the state from it."""
        row = await self.store.db(self.store.storage.load, self.id)
        if row is not None and (row.seq, len(row.actions)) != (self.seq, len(self.state.history)):
            self.row = row
            self.state = replay(row.record())
            self.seq = row.seq
            self.clock = load_clock(row, self.game.num_players)
            self._memo_seq = -1
            self._decisions.clear()
            self._track_decisions()
            for client in list(self.clients):
                self.send_view(client, "snapshot")
            self._release_views()

    async def undo(self, seat: int, seq: int) -> None:
        """Take back ``seat``'s last decision (see :func:`undo_target`).

        Raises:
            SubmitError: stale, another seat is human, or the rule of :func:`undo_target`
                refuses.
        """
        async with self.lock:
            if seq != self.seq:
                raise SubmitError(
                    "stale", msg("stale undo: you saw {0}, the game is at {1}", seq, self.seq)
                )
            if self.seats[seat].kind != "human" or not self._all_others_bots(seat):
                raise SubmitError("undo", "undo is only possible when every other seat is a bot")
            if self.row.rated:
                raise SubmitError("undo", msg("a rated table has no undo"))
            if self.over:
                raise SubmitError("undo", "the game is over")
            if seat not in self.state.active_players():
                raise SubmitError("undo", "undo when it is your turn (a bot is deciding)")
            target = undo_target(self.state, seat)
            if target is None:
                raise SubmitError(
                    "undo",
                    "cannot undo: cards were drawn or revealed, or a random event happened "
                    "since your last decision",
                )
            state = replay(records.to_record(self.state), upto=target)
            seq = self.seq + 1
            clock = self.clock.copy()
            players = range(len(self.seats))
            clock.drop_events_after([sum(1 for p, _ in state.history if p == q) for q in players])
            clock.update(set(), None, self.time.now())  # stop, then restart for the new state
            clock.update(self._waiting(state, clock), None, self.time.now())
            await self._store(
                "an undo",
                self.store.db,
                self.store.storage.truncate_actions,
                self.id,
                target,
                seq,
                clock.dumps(),
                self.store.fence(),
            )
            self.state, self.seq, self.clock = state, seq, clock
            self._decisions.clear()
            self._track_decisions()
            self._undo_cache.clear()
            for client in list(self.clients):
                self.send_view(client, "snapshot")
            self._release_views()

    async def stop(self) -> None:
        """Cancel a running bot decision (on shutdown)."""
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
