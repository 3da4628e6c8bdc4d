"""The hub: every game of the server (loading, restart-resume, release of idle games), the
bot pool, and the clocks' time source, heartbeat and timeout watch.  Its other parts are
its base classes: :mod:`.hubstore` (the database thread and the group commit),
:mod:`.hubcluster` (leases, claims and takeovers) and :mod:`.hubcreate` (creation and
rematch).  It gives each runner its narrow collaborators (:mod:`.ports`)."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import logging
import os
import re
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from porphyra.server import owners
from porphyra.server.botpool import BotPool
from porphyra.server.hubcluster import HubCluster
from porphyra.server.hubcreate import HubCreation
from porphyra.server.hubstore import HubStore
from porphyra.server.incidents import damaged_game, report
from porphyra.server.match import MatchRunner
from porphyra.server.owners import ClusterSettings, OwnedElsewhere
from porphyra.server.ports import RunnerServices
from porphyra.server.replay import replay
from porphyra.server.rows import (
    BadRowError,
    GameRow,
)
from porphyra.server.seatclock import load_clock
from porphyra.server.settings import DEFAULTS, ServerSettings
from porphyra.server.startup import games_to_load
from porphyra.server.storage import Storage

log = logging.getLogger("porphyra.server")

#: Games of other servers kept as last read (cluster mode, :meth:`Hub.peek`).
PEEKED = 256

#: What a game id can be: letters, digits, ``-`` and ``_``, at most 32 (the ``games.id``
#: column; the server's own ids are 16 hex digits).  Anything else is no game, without
#: asking the database (PostgreSQL refused a NUL in a text with an error).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _no_such_id(game_id: str) -> bool:
    """True if ``game_id`` cannot be any stored game's id (see :data:`GAME_ID`)."""
    return GAME_ID.fullmatch(game_id) is None


class Hub(HubStore, HubCluster, HubCreation):
    """Every game of the server: storage, the database thread, the bot pool, the runners.

    Args:
        storage: the :class:`Storage`.
        settings: the server's settings (:class:`~porphyra.server.settings.ServerSettings`);
            the hub reads ``bot_workers`` (None: the CPU count; 0: a thread pool),
            ``idle_after`` (seconds after which a runner nobody uses, no client and no
            bot deciding, is released from memory; it reloads from the database on
            demand, its clock's next deadline kept so that a timeout still happens on
            time), ``hint_bot``, ``bot_pace`` (least seconds between a move and the next
            bot move in a game with a human seat), ``clock_poll`` (real seconds between
            two looks for clocks out of time), ``heartbeat_s`` (real seconds between two
            heartbeats: the time of a restart's downtime not charged to any clock is
            measured from the last one) and ``cluster_address`` / ``lease_s`` (several
            server processes share the database, see :mod:`porphyra.server.owners`: this
            one runs only the games it owns, renews their leases with its heartbeat, and
            takes over the games of processes that died; None: the only server of its
            database).
        time_source: the clocks' time, epoch seconds (``time.time``; tests pass a fake one
            they advance, so no test waits for a clock).

    Raises:
        ValueError: a cluster address that is not a URL, or a lease not above twice
            ``heartbeat_s``.
    """

    def __init__(
        self,
        storage: Storage,
        settings: ServerSettings = DEFAULTS,
        time_source: Callable[[], float] = time.time,
    ) -> None:
        cluster = None
        if settings.cluster_address is not None:
            cluster = ClusterSettings(settings.cluster_address, settings.lease_s)
            owners.check_lease(cluster.lease_s, settings.heartbeat_s)
        bot_workers = settings.bot_workers
        if bot_workers is None:
            bot_workers = os.cpu_count() or 1
        hint_bot, bot_pace = settings.hint_bot, settings.bot_pace
        idle_after, clock_poll = settings.idle_after, settings.clock_poll
        heartbeat_s = settings.heartbeat_s
        self.storage = storage
        self.cluster = cluster
        #: The bot that answers a seat's ``hint`` (on that seat's view only).
        self.hint_bot = hint_bot
        #: Seconds a bot waits after the previous move of a game with a person at it.
        self.bot_pace = bot_pace
        self.idle_after = idle_after
        self.now = time_source
        self.clock_poll = clock_poll
        self.heartbeat_s = heartbeat_s
        #: This server's start and the last heartbeat before it (None: none stored),
        #: epoch seconds (set by :meth:`start`).
        self.started = time_source()
        self.alive_at: float | None = None
        #: Released games with a running clock: ``{game id: its next deadline}``.
        self.deadlines: dict[str, float] = {}
        self._clock_task: asyncio.Task[None] | None = None
        self._heartbeat_task: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.inline_db = storage.url.startswith("sqlite")
        self.bots = BotPool(bot_workers)
        #: What each runner is given (the hub is its store and its time).
        self.services = RunnerServices(self, self.bots, self, hint_bot, bot_pace)
        self._db = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="porphyra-db"
        )
        self.runners: dict[str, MatchRunner] = {}
        #: Games another server runs, as last read (:meth:`peek`), least recent first.
        self._peeked: collections.OrderedDict[str, tuple[Any, MatchRunner]] = (
            collections.OrderedDict()
        )
        #: Games that cannot be loaded: ``{game id: public problem}`` (short, generic, with
        #: an error id; the details are in the server log, see :meth:`mark_broken`).
        self.broken: dict[str, str] = {}
        #: Bot-only games being created (counted by :meth:`active_bot_only_games`).
        self._bot_only_reserved = 0
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None

    def release_idle(self) -> int:
        """Release every runner idle for :attr:`idle_after` seconds; how many."""
        limit = time.monotonic() - self.idle_after
        gone = [gid for gid, r in self.runners.items() if r.last_used < limit and r.idle()]
        for gid in gone:
            runner = self.runners.pop(gid)
            runner.released = True
            deadline = runner.clock.next_deadline()
            if deadline is not None and not runner.over:
                self.deadlines[gid] = deadline
        return len(gone)

    async def check_clocks(self) -> None:
        """Hand every seat out of time to its table's timeout bot (loading a released
        game whose deadline passed)."""
        now_s = self.now()
        for gid in [g for g, d in self.deadlines.items() if d <= now_s]:
            try:
                await self.get(gid)
            except OwnedElsewhere:  # another server runs it now, and its clocks
                self.deadlines.pop(gid, None)
            except SQLAlchemyError:  # tried again at the next look
                report("game %s: could not be loaded for its clock", gid)
        for runner in list(self.runners.values()):
            deadline = runner.clock.next_deadline()
            if deadline is not None and deadline <= now_s:
                await runner.check_clock()

    async def _watch_clocks(self) -> None:
        """:meth:`check_clocks` every :attr:`clock_poll` seconds."""
        while True:
            await asyncio.sleep(self.clock_poll)
            try:
                await self.check_clocks()
            except Exception:  # one bad game never stops the clocks of the others
                report("the clock watch failed once")

    async def _heartbeats(self) -> None:
        """Store the time every :attr:`heartbeat_s` seconds (see :meth:`Storage.heartbeat`)."""
        while True:
            await asyncio.sleep(self.heartbeat_s)
            try:
                await self.db(self.storage.heartbeat, self.now())
                if self.cluster is not None:
                    await self._cluster_beat()
            except Exception:  # the database is down: the next beat
                log.debug("heartbeat skipped", exc_info=True)

    async def _sweep(self) -> None:
        """Release idle runners every ``idle_after / 4`` seconds (at least every 0.05 s)."""
        every = max(0.05, min(self.idle_after / 4, 60.0))
        while True:
            await asyncio.sleep(every)
            before = set(self.runners)
            released = self.release_idle()
            if released:
                log.debug("released %d idle games from memory", released)
                gone = [g for g in before if g not in self.runners]
                await self._unclaim(gone)

    def active_bot_only_games(self) -> int:
        """Games in memory that are not over and in which no person plays (no human seat,
        or every human seat taken over by a bot: their bots are deciding, so they stay in
        memory while active), plus those being created."""
        running = sum(1 for r in self.runners.values() if not r.over and not r.has_player())
        return running + self._bot_only_reserved

    def reserve_bot_only(self, limit: int | None) -> bool:
        """Reserve a slot for one new bot-only game, before anything awaits (concurrent
        requests would all pass a check made earlier); False if ``limit`` games are active
        or being created (None: no limit, and nothing is reserved).  Every True must be
        followed by one :meth:`release_bot_only` once the game is registered or failed."""
        if limit is None:
            return True
        if self.active_bot_only_games() >= limit:
            return False
        self._bot_only_reserved += 1
        return True

    def release_bot_only(self, limit: int | None) -> None:
        """Give back a slot of :meth:`reserve_bot_only` (same ``limit``)."""
        if limit is not None:
            self._bot_only_reserved -= 1

    async def start(self) -> None:
        """Reload the unfinished games where something happens without anyone opening
        them (a clock runs or a bot plays, :func:`porphyra.server.startup.games_to_load`)
        by replaying their records, and restart their bots.  The others load when someone
        opens them: finished games, games at rest (people only, no clock) and the tables
        still waiting for a seat to be taken."""
        loop = asyncio.get_running_loop()
        self._checkpointer = loop.create_task(self._checkpoints())
        self._sweeper = loop.create_task(self._sweep())
        self.started = self.now()
        self.alive_at = await self.db(self.storage.last_alive)
        await self.db(self.storage.heartbeat, self.started)
        cluster = self.cluster
        if cluster is not None:  # take back an earlier process's games, then register
            owners.check_dialect(self.storage)
            me, address = cluster.server_id, cluster.address
            await self.db(owners.succeed, self.storage, me, address, time.time())
            await self.db(owners.renew, self.storage, me, address, [], time.time(), cluster.lease_s)
        for game_id in await self.db(games_to_load, self.storage.engine):
            try:
                await self.get(game_id)
            except OwnedElsewhere:  # another live server runs it
                continue
            except SQLAlchemyError:  # loads on demand once the database answers
                report("game %s: could not be loaded at start-up", game_id)
        for runner in self.runners.values():
            runner.kick_bots()
        self._clock_task = loop.create_task(self._watch_clocks())
        self._heartbeat_task = loop.create_task(self._heartbeats())

    async def stop(self) -> None:
        """Stop bots and executors (a last heartbeat first)."""
        for task in (self._clock_task, self._heartbeat_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            await self.db(self.storage.heartbeat, self.now())
        for runner in self.runners.values():
            await runner.stop()
        if self.cluster is not None:  # hand every game over at once
            with contextlib.suppress(Exception):
                await self.db(owners.leave, self.storage, self.cluster.server_id)
        for task in (self._checkpointer, self._writer, self._sweeper):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            self.storage.checkpoint()
        if self._writer is not None:
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._writer
        self.bots.shutdown()
        self._db.shutdown(wait=True)

    def mark_broken(self, game_id: str, detail: str) -> str:
        """List ``game_id`` as broken (once): ``detail`` goes to the server log only, the
        public problem (returned, ``str``) is short, generic and carries an error id."""
        if game_id not in self.broken:
            self.broken[game_id] = damaged_game(game_id, detail)
        return self.broken[game_id]

    async def get(self, game_id: str) -> MatchRunner | None:
        """The runner of ``game_id`` (loaded from the database on first use), or None (no
        such game, or a damaged one: then ``game_id`` is in :attr:`broken`).

        Raises:
            OwnedElsewhere: cluster mode, and another live server runs the game.
            sqlalchemy.exc.SQLAlchemyError: the database failed; nothing is remembered, so
                the next call tries again.
        """
        runner = self.runners.get(game_id)
        if runner is not None:
            runner.last_used = time.monotonic()
            return runner
        if self._unloadable(game_id):
            return None
        row = await self._load_row(game_id)
        if row is None:
            return None
        #: Taken over from a server that stopped: its last renewal (see _claim).
        renewed: float | None = None
        if self.cluster is not None:  # (only a stored game is ever claimed)
            renewed = await self._claim(game_id)
            runner = self.runners.get(game_id)  # loaded meanwhile by another request
            if runner is not None:
                return runner
            # Read again, now that it is ours: the owner before may have stored moves
            # between the first read and the claim.
            row = await self._load_row(game_id)
            if row is None:
                await self._unclaim([game_id])
                return None
        try:
            state = replay(row.record())
            players = state.game.num_players
            missing = sorted(set(range(players)) - {s.seat for s in row.seats})
            if missing:
                raise BadRowError(
                    f"game {game_id}: seat {', '.join(map(str, missing))} has no seat row, "
                    "so the game could never be finished"
                )
            if len(row.seats) != players:
                raise BadRowError(f"game {game_id}: {len(row.seats)} seat rows for {players}")
            # A damaged clock is a damaged game; one that cannot be stored again (a number
            # beyond 64 bits, which the JSON writer refuses) would fail its first move.
            load_clock(row, players).dumps()
        except SQLAlchemyError:
            # The database failed (unreachable, or any other error of its own): not this
            # game's fault, and not for good; the next access tries again.
            raise
        except Exception as exc:  # one damaged game never stops the others
            self.mark_broken(game_id, str(exc))
            await self._unclaim([game_id])
            return None
        runner = self.runners.get(game_id)  # loaded meanwhile by another request
        if runner is None:
            try:
                runner = self.runners[game_id] = MatchRunner(self.services, row, state)
                self.deadlines.pop(game_id, None)
                if renewed is None:
                    await runner.resume_clock()
                else:  # nobody is charged for the time between the two servers
                    await runner.resume_clock(renewed, self.now())
                await runner.check_clock()
            except SQLAlchemyError:
                self.runners.pop(game_id, None)
                raise
            except Exception as exc:  # whatever else is damaged: that game only
                self.runners.pop(game_id, None)
                self.mark_broken(game_id, str(exc))
                await self._unclaim([game_id])
                return None
            # A game loaded on demand may wait for its bot: taken over from a server that
            # died, or not loaded at start-up because the database was down then.
            runner.kick_bots()
        return runner

    async def _load_row(self, game_id: str) -> GameRow | None:
        """The stored row of ``game_id``, or None (no such game, or a damaged row: then it
        is marked broken).

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database failed (not this game's fault:
                nothing is remembered, the next access tries again).
        """
        try:
            row: GameRow | None = await self.db(self.storage.load, game_id)
        except SQLAlchemyError:
            raise
        except Exception as exc:  # a damaged row (BadRowError)
            self.mark_broken(game_id, str(exc))
            return None
        return row

    async def peek(self, game_id: str) -> MatchRunner | None:
        """A read-only runner of ``game_id`` as stored, neither registered nor owned (the
        lobby's view of a game another server of the cluster runs), or None (no such game,
        or a damaged one: then it is marked broken).  Nothing it does is stored or sent.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database failed.
        """
        row = await self._load_row(game_id)
        if row is None:
            return None
        # The same stored game is read again and again (the lobby's lists of every
        # player): replayed once per change of it.
        key = (row.seq, len(row.actions), row.status, row.clock, row.rematch)
        cached = self._peeked.get(game_id)
        if cached is not None and cached[0] == key:
            self._peeked.move_to_end(game_id)
            return cached[1]
        try:
            runner = MatchRunner(self.services, row, replay(row.record()))
        except Exception as exc:  # a damaged game
            self.mark_broken(game_id, str(exc))
            return None
        self._peeked[game_id] = (key, runner)
        if len(self._peeked) > PEEKED:
            self._peeked.popitem(last=False)
        return runner

    def _unloadable(self, game_id: str) -> bool:
        """True if no game can be loaded under ``game_id``: it is damaged (listed as broken)
        or no game can have that id; nothing need ask the database."""
        return game_id in self.broken or _no_such_id(game_id)

    async def may_hold(self, game_id: str, token: str) -> bool:
        """False if ``token`` surely opens no seat of ``game_id``: checked on the runner in
        memory, else on the stored seats without loading the game (a wrong token never
        costs a replay).  True means: load it and check on the runner.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database failed.
        """
        runner = self.runners.get(game_id)
        if runner is not None:
            return runner.seat_of_token(token) is not None
        if self._unloadable(game_id):
            return False
        has: bool = await self.db(self.storage.has_token, game_id, token)
        return has

    async def find(self, game_id: str) -> MatchRunner | None:
        """``game_id``'s runner, for reading only (a game's info, record or replay, the
        lobby's lists): the one in memory; else, in cluster mode, the game as stored
        (:meth:`peek`: asking any server about a game never makes it run there); else
        :meth:`get`.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database failed.
        """
        runner = self.runners.get(game_id)
        if runner is not None or self.cluster is None:
            return runner or await self.get(game_id)
        if self._unloadable(game_id):
            return None
        return await self.peek(game_id)
