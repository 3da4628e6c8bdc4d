"""The hub: every game of the server (registry, creation, restart-resume), the database
thread with its group commit, the bot pool, and the clocks' time source, heartbeat and
timeout watch."""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import contextlib
import logging
import os
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from porphyra.clocks import ClockSettings, TableClock
from porphyra.core.errors import PorphyraError
from porphyra.core.messages import msg
from porphyra.server import owners
from porphyra.server.botpool import BotPool
from porphyra.server.incidents import damaged_game, report
from porphyra.server.match import MatchRunner
from porphyra.server.owners import ClusterSettings, OwnedElsewhere
from porphyra.server.ports import RunnerServices
from porphyra.server.replay import replay, shared_game
from porphyra.server.rows import (
    DEAL_CHOSEN,
    DEAL_SECRET,
    TABLE_DEFAULTS,
    BadRowError,
    GameRow,
    SeatRow,
    hash_token,
    now,
)
from porphyra.server.seatclock import load_clock
from porphyra.server.settings import DEFAULTS, ServerSettings
from porphyra.server.storage import Storage
from porphyra.server.writes import Fence, NotOwnerError

log = logging.getLogger("porphyra.server")

#: Games of other servers kept as last read (cluster mode, :meth:`Hub.peek`).
PEEKED = 256

#: Games of stopped servers one server takes over per heartbeat (cluster mode).
TAKEOVERS = 10

#: What a game id can be: letters, digits, ``-`` and ``_``, at most 32 (the ``games.id``
#: column; the server's own ids are 16 hex digits).  Anything else is no game, without
#: asking the database (PostgreSQL refused a NUL in a text with an error).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def _no_such_id(game_id: str) -> bool:
    """True if ``game_id`` cannot be any stored game's id (see :data:`GAME_ID`)."""
    return GAME_ID.fullmatch(game_id) is None


#: Bits of a seed the server draws (``secrets.randbits``): far beyond any search of the
#: seeds consistent with a seat's own hand.
SEED_BITS = 128


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    """Resolve a write's future with ``error`` (or success), unless it was cancelled."""
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


class CreateError(PorphyraError, ValueError):
    """A lobby request to create a game that cannot be honoured; its :attr:`message` (an
    id plus arguments) says why, translated per request."""


class Hub:
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

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run storage call ``fn(*args)`` and return its result.

        SQLite calls run inline (they take well under a millisecond, and a database thread
        would fight the event loop for the GIL, which made commits wait for hundreds of
        milliseconds under load); other databases (network round trips) run on the
        database thread."""
        if self.inline_db:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    # ------------------------------------------------------------------ cluster
    def fence(self) -> Fence | None:
        """The fence of this server's writes (:data:`~porphyra.server.writes.Fence`:
        its id and a renewed lease), or None when it is the database's only server."""
        if self.cluster is None:
            return None
        return (self.cluster.server_id, time.time() + self.cluster.lease_s)

    async def _claim(self, game_id: str) -> None:
        """Own ``game_id`` (cluster mode), or raise :class:`OwnedElsewhere`."""
        cluster = self.cluster
        assert cluster is not None
        me = cluster.server_id
        owner = await self.db(owners.claim, self.storage, game_id, me, time.time(), cluster.lease_s)
        if owner != me:
            address = await self.db(owners.address_of, self.storage, owner)
            raise OwnedElsewhere(game_id, address)

    async def _unclaim(self, game_ids: list[str]) -> None:
        """Give up this server's ownership of ``game_ids`` (cluster mode; never raises:
        a lease left behind runs out by itself).  A game with a running clock keeps its
        next deadline as an unowned wake-up time (:func:`owners.release`), so that some
        server runs its timeout even if this one dies first."""
        if self.cluster is None or not game_ids:
            return
        wake = {g: self.deadlines[g] for g in game_ids if g in self.deadlines}
        try:
            await self.db(owners.release, self.storage, self.cluster.server_id, game_ids, wake)
        except Exception:
            log.debug("could not release games %s", game_ids, exc_info=True)

    async def _owner_address(self, game_id: str) -> str | None:
        """Where the server that owns ``game_id`` now answers (None: unknown, or the
        database did not answer)."""
        try:
            address: str | None = await self.db(owners.owner_address, self.storage, game_id)
        except Exception:
            log.debug("no owner address for game %s", game_id, exc_info=True)
            return None
        return address

    async def drop(self, game_id: str) -> None:
        """Another server took ``game_id`` over: forget its runner here, stop its bots, and
        tell its clients where it went (error ``moved`` with the new owner's address,
        then close code 4307)."""
        runner = self.runners.pop(game_id, None)
        self.deadlines.pop(game_id, None)
        if runner is None:
            return
        runner.released = True
        await runner.stop()
        address = await self._owner_address(game_id)
        for client in list(runner.clients):
            client.move_to(address, runner.seq)

    async def _cluster_beat(self) -> None:
        """Cluster mode, every heartbeat: renew this server's leases (dropping the games
        another server took over meanwhile), then take over unfinished games nobody owns
        (those of a server that died) and start their bots."""
        cluster = self.cluster
        assert cluster is not None
        me = cluster.server_id
        lost = await self.db(
            owners.renew,
            self.storage,
            me,
            cluster.address,
            list(self.runners),
            time.time(),
            cluster.lease_s,
        )
        for game_id in lost:
            log.warning("game %s: taken over by another server; dropped here", game_id)
            await self.drop(game_id)
        # A few games a beat, the loop free between them (a replay each): a server that
        # takes over many games must not stall its own, or miss renewing their leases.
        until = time.monotonic() + self.heartbeat_s / 2  # (the next beat renews on time)
        for game_id in await self.db(owners.orphans, self.storage, time.time(), TAKEOVERS):
            if time.monotonic() > until:
                break
            if game_id in self.runners:
                continue
            try:
                runner = await self.get(game_id)
            except (OwnedElsewhere, SQLAlchemyError):
                continue  # another server was quicker, or the next beat tries again
            if runner is not None:
                log.info("game %s: taken over from a server that stopped", game_id)
                runner.kick_bots()
            await asyncio.sleep(0)

    async def store_action(self, entry: dict[str, Any]) -> None:
        """Durably store one action (keywords of :meth:`Storage.append_actions`); returns
        once it is committed.  Actions arriving together share one transaction (group
        commit), so a hundred busy games cost a few commits, not a hundred."""
        if self._wake is None:
            self._wake = asyncio.Event()
            self._writer = asyncio.get_running_loop().create_task(self._write_loop())
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((entry, future))
        self._wake.set()
        await future

    async def _write_loop(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            batch, self._pending = self._pending, []
            if not batch:
                continue
            try:
                await self.db(
                    self.storage.append_actions, [entry for entry, _ in batch], self.fence()
                )
            except Exception as exc:
                if len(batch) == 1:
                    _settle(batch[0][1], exc)
                    continue
                # One game's bad entry must not fail the others: store them one by one.
                for entry, future in batch:
                    try:
                        await self.db(self.storage.append_actions, [entry], self.fence())
                    except Exception as one:
                        _settle(future, one)
                    else:
                        _settle(future, None)
            else:
                for _, future in batch:
                    _settle(future, None)

    async def _checkpoints(self, every: float = 2.0) -> None:
        """Checkpoint the SQLite write-ahead log on the database thread, off the loop."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(every)
            try:
                await loop.run_in_executor(self._db, self.storage.checkpoint)
            except Exception:  # a busy database: try again next time
                log.debug("checkpoint skipped", exc_info=True)

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
        """Reload every unfinished game by replaying its record, and restart its bots
        (finished games load when someone opens them)."""
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
        ids = await self.db(self.storage.game_ids, "active")
        for game_id in ids:
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
        if self.cluster is not None:  # (only a stored game is ever claimed)
            await self._claim(game_id)
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
                await runner.resume_clock()
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

    async def create(
        self,
        name: str,
        options: dict[str, Any],
        seats: list[dict[str, Any]],
        seed: int | None = None,
        table: dict[str, bool] | None = None,
        token_hashes: dict[int, str] | None = None,
        clock: ClockSettings | None = None,
    ) -> tuple[MatchRunner, dict[int, str]]:
        """Create and store a new game; start its bots.

        Args:
            name: the game (``byzantium`` / ``conspiracy``).
            options: validated lobby options for ``load_game``.
            seats: per seat ``{"kind": "human" | "bot", "bot": spec, "name": str}``.
            seed: a seed chosen by the creator: the table is then marked ``chosen`` to
                every seat and spectator and never rated (whoever knows the seed can
                compute every hidden card).  Default: :data:`SEED_BITS` bits from
                :mod:`secrets`, which nobody can search from their own hand.
            table: the table's choices (:data:`TABLE_DEFAULTS`; unknown names are ignored).
            token_hashes: a rematch: the human seats keep these token hashes (so every
                player's own link opens their seat of the new game) and no new token is
                made.
            clock: the table's clock and timeout options (default: none).

        Returns:
            The runner and the seat tokens of the human seats, ``{seat: token}``.

        Raises:
            CreateError: the engine refuses the options or the seat count is wrong.
        """
        try:
            game = shared_game(name, options)
        except PorphyraError as exc:
            raise CreateError(exc.message) from None
        except (ValueError, TypeError) as exc:
            raise CreateError(str(exc)) from None
        if len(seats) != game.num_players:
            raise CreateError(msg("{0} with these options has {1} seat(s)", name, game.num_players))
        deal = DEAL_SECRET if seed is None else DEAL_CHOSEN
        if seed is None:
            seed = secrets.randbits(SEED_BITS)
        state = game.new_initial_state(seed=seed)
        tokens: dict[int, str] = {}
        rows: list[SeatRow] = []
        for i, s in enumerate(seats):
            token_hash = None
            if s["kind"] == "human" and token_hashes is not None:
                token_hash = token_hashes.get(i)
            elif s["kind"] == "human":
                tokens[i] = secrets.token_urlsafe(24)
                token_hash = hash_token(tokens[i])
            rows.append(SeatRow(i, s["kind"], s.get("bot"), s["name"], token_hash))
        stamp = now()
        game_id = secrets.token_hex(8)
        row = GameRow(
            id=game_id,
            game=name,
            version=game.rules_version,
            options=game.record_options(),
            seed=seed,
            status="active",
            seq=0,
            created=stamp,
            updated=stamp,
            seats=rows,
            deal=deal,
            table={k: bool((table or {}).get(k, v)) for k, v in TABLE_DEFAULTS.items()},
        )
        table_clock = TableClock.new(clock or ClockSettings(), game.num_players)
        table_clock.epoch = self.started
        human = {i for i, s in enumerate(seats) if s["kind"] == "human"}
        table_clock.update(set(state.active_players()) & human, None, self.now())
        row.clock = table_clock.dumps()
        await self.db(self.storage.create_game, row)
        if self.cluster is not None:  # a new game: nobody else can hold it
            await self._claim(game_id)
        runner = MatchRunner(self.services, row, state)
        self.runners[game_id] = runner
        runner.kick_bots()
        return runner, tokens

    async def rematch(self, runner: MatchRunner) -> MatchRunner:
        """The rematch of finished game ``runner``: the same game, options, seats (names,
        bots, and the human seats' token hashes, so each player's own link opens their seat
        of the new game), table choices and clock settings, on a new secret deal.  Made
        once: a second request gets the same game.

        Raises:
            CreateError: the game is not over, or the engine refuses its options now.
        """
        async with runner.rematch_lock:
            if runner.row.rematch is not None:
                again = await self.find(runner.row.rematch)  # (wherever it runs)
                if again is not None:
                    return again
            if not runner.over:
                raise CreateError("a rematch can start once the game is over")
            if self.cluster is not None:  # still ours? (else no rematch game to strand)
                await self._claim(runner.id)
            seats = [{"kind": s.kind, "bot": s.bot, "name": s.name} for s in runner.seats]
            hashes = {s.seat: s.token_hash for s in runner.seats if s.token_hash is not None}
            new, _ = await self.create(
                runner.name,
                dict(runner.row.options),
                seats,
                None,
                runner.row.table,
                hashes,
                clock=runner.clock.settings,
            )
            try:
                await self.db(self.storage.set_rematch, runner.id, new.id, self.fence())
            except NotOwnerError:  # another server took the game over meanwhile
                await self.drop(runner.id)
                raise OwnedElsewhere(runner.id, await self._owner_address(runner.id)) from None
            runner.row.rematch = new.id
            runner.announce_rematch()
            return new
