"""Where bot seats decide: the bot process pool and the bot-move helpers.

Bot seats play server-side in an executor (a process pool under ``porphyra serve``, so a
2-second ISMCTS move never blocks the event loop or another game).  A bot only ever sees
its seat's view (``seat_view``); in a worker process the state is rebuilt from its record.

Scheduling (issue 13, item 3; issue 33 §3): decisions wait in :class:`FairGate`, which
hands the executor's slots to the bot moves of games where a person waits first, then to
hints, then to the other bot moves (bot-only games, people away), each in order of arrival
(each game has at most one decision pending, so this is a per-game round robin); only the
first kind may take the last slot, so a flood of hints or of bot-only games never makes a
person wait for a bot.  Worker processes watch their parent and
exit when the server dies (:func:`_watch_parent`, item 8).
"""

from __future__ import annotations

import asyncio
import bisect
import concurrent.futures
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from porphyra import record as records
from porphyra.bots import make_bot, seat_view
from porphyra.core.game import State
from porphyra.server.replay import replay

log = logging.getLogger("porphyra.server")


def choose_from_record(rec: dict[str, Any], seat: int, spec: str, seed: int) -> str:
    """Process-pool entry point: rebuild the state from its record, let bot ``spec`` choose
    for ``seat`` on the seat's view only (``seat_view``), and return the action text.

    Raises:
        RecordError: the record does not replay.
        ValueError: ``spec`` is not a bot.
    """
    state = replay(rec)
    return choose_on_state(state, seat, spec, seed)


def choose_on_state(state: State, seat: int, spec: str, seed: int) -> str:
    """Let bot ``spec`` choose for ``seat`` on ``seat_view(state, seat)``; the text of the
    chosen action.  The bot never receives ``state`` itself."""
    bot = make_bot(spec, seed)
    return str(bot.choose(seat_view(state, seat)))


def hint_on_state(state: State, seat: int, spec: str, seed: int) -> tuple[str, float | None]:
    """Bot ``spec``'s move for ``seat`` on ``seat_view(state, seat)`` only, and its estimated
    chance to win (its ``win_probability``; None for a bot without one)."""
    bot = make_bot(spec, seed)
    view = seat_view(state, seat)
    estimate = getattr(bot, "win_probability", None)
    if callable(estimate):
        action, chance = estimate(view)
        return str(action), float(chance)
    return str(bot.choose(view)), None


def hint_from_record(
    rec: dict[str, Any], seat: int, spec: str, seed: int
) -> tuple[str, float | None]:
    """Process-pool entry point of :func:`hint_on_state` (the state rebuilt from its record)."""
    return hint_on_state(replay(rec), seat, spec, seed)


def _guarded(entry: Callable[..., Any], *args: Any) -> Any:
    """``entry(*args)`` in a worker, with a ``StopIteration`` turned into a
    ``RuntimeError``: asyncio cannot carry a ``StopIteration`` out of an executor (the
    awaiting future would never complete and the bot slot never be given back)."""
    try:
        return entry(*args)
    except StopIteration as exc:
        raise RuntimeError(f"a bot failed: StopIteration {exc}") from None


def _watch_parent(parent: int, every: float = 0.5) -> None:
    """Worker-process initializer: a daemon thread that ends this process as soon as its
    parent ``parent`` (the server) is gone, e.g. after a ``kill -9`` of the server.  The
    worker ignores Ctrl-C (SIGINT goes to the terminal's whole process group): the server
    stops its workers itself, and a worker interrupted mid-search printed a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while True:
            time.sleep(every)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="porphyra-parent-watch", daemon=True).start()


#: :class:`FairGate`'s kinds of work, first served first: a bot move at a table where a
#: person waits for it, a hint, any other bot move (a bot-only game, people away).
URGENT, HINT, BACKGROUND = 0, 1, 2


class FairGate:
    """At most ``slots`` decisions run at once; waiting ones are served by kind
    (:data:`URGENT`, then :data:`HINT`, then :data:`BACKGROUND`), each kind in arrival
    order; hints and background moves use at most ``slots - 1`` slots together (one stays
    for the bot moves people wait for) when ``slots > 1``.

    Args:
        slots: decisions that may run at once (the executor's workers).
    """

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.bot_only_slots = max(1, slots - 1)
        self._running = 0
        self._running_bot_only = 0
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrivals = itertools.count()

    def enqueue(self, kind: int) -> asyncio.Future[None]:
        """A future that completes when this decision of ``kind`` (:data:`URGENT`,
        :data:`HINT`, :data:`BACKGROUND`) may run (then :meth:`release` with the same
        kind)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        bisect.insort(self._waiting, (kind, next(self._arrivals), future))
        self._dispatch()
        return future

    def release(self, kind: int) -> None:
        """A decision of ``kind`` that was let through has finished."""
        self._running -= 1
        if kind != URGENT:
            self._running_bot_only -= 1
        self._dispatch()

    def waiting(self) -> int:
        """Decisions waiting for a slot."""
        return sum(1 for *_, f in self._waiting if not f.done())

    def _dispatch(self) -> None:
        i = 0
        while self._running < self.slots and i < len(self._waiting):
            kind, _, future = self._waiting[i]
            if future.done():  # cancelled while waiting
                del self._waiting[i]
                continue
            if kind != URGENT and self._running_bot_only >= self.bot_only_slots:
                i += 1
                continue
            del self._waiting[i]
            self._running += 1
            if kind != URGENT:
                self._running_bot_only += 1
            future.set_result(None)


class BotPool:
    """Where bot decisions run: a process pool (``workers > 0``) or a thread pool.

    Args:
        workers: processes for bots; 0 runs bots in a thread pool instead (for tests: no
            process start-up, and the view is built from a clone in the event loop).
    """

    def __init__(self, workers: int = 0, threads: int = 4) -> None:
        self.workers = workers
        self.threads = threads
        self._executor: concurrent.futures.Executor = self._new_executor()
        self.gate = FairGate(workers if workers > 0 else threads)

    def _new_executor(self) -> concurrent.futures.Executor:
        if self.workers > 0:
            return concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_watch_parent,
                initargs=(os.getpid(),),
            )
        return concurrent.futures.ThreadPoolExecutor(
            max_workers=self.threads, thread_name_prefix="porphyra-bot"
        )

    async def choose(
        self, state: State, seat: int, spec: str, seed: int, urgent: bool = True
    ) -> str:
        """The bot's action text for ``seat`` (runs off the event loop, when
        :class:`FairGate` gives it a slot).  A broken process pool (a worker killed) is
        replaced once.

        Args:
            urgent: a person is at the table (served before other games' bots).
        """
        kind = URGENT if urgent else BACKGROUND
        text: str = await self._gated(kind, state, seat, spec, seed, hint=False)
        return text

    async def hint(self, state: State, seat: int, spec: str, seed: int) -> tuple[str, float | None]:
        """:func:`hint_on_state` off the event loop, served after the bot moves people wait
        for and before the others (:class:`FairGate`)."""
        result: tuple[str, float | None] = await self._gated(
            HINT, state, seat, spec, seed, hint=True
        )
        return result

    async def _gated(
        self, kind: int, state: State, seat: int, spec: str, seed: int, hint: bool
    ) -> Any:
        """:meth:`_run` once :class:`FairGate` admits it as ``kind``, its slot given back
        however it ends (also when the wait for a slot is cancelled after the slot was
        granted)."""
        admitted = self.gate.enqueue(kind)
        try:
            await admitted
        except asyncio.CancelledError:
            if admitted.done() and not admitted.cancelled():
                self.gate.release(kind)
            raise
        try:
            return await self._run(state, seat, spec, seed, hint=hint)
        finally:
            self.gate.release(kind)

    async def _run(self, state: State, seat: int, spec: str, seed: int, hint: bool = False) -> Any:
        loop = asyncio.get_running_loop()
        if self.workers > 0:
            rec = records.to_record(state)
            entry = hint_from_record if hint else choose_from_record
            for attempt in (1, 2):
                try:
                    return await loop.run_in_executor(
                        self._executor, _guarded, entry, rec, seat, spec, seed
                    )
                except BrokenProcessPool:
                    if attempt == 2:
                        raise
                    log.warning("bot worker pool broken; starting a new one")
                    self._executor.shutdown(wait=False, cancel_futures=True)
                    self._executor = self._new_executor()
        frozen = state.clone()
        local = hint_on_state if hint else choose_on_state
        return await loop.run_in_executor(self._executor, _guarded, local, frozen, seat, spec, seed)

    def shutdown(self) -> None:
        """Stop the workers (pending decisions are abandoned; they rerun on restart)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
