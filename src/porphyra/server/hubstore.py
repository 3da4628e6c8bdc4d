"""The hub's database work: storage calls off the event loop (except SQLite's, inline), the
group commit of every table's actions, and SQLite's checkpoints.

A base class of :class:`~porphyra.server.hub.Hub` (the attributes below are the hub's);
it is what a runner stores its table through (:class:`~porphyra.server.ports.GameStore`).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from porphyra.server.storage import Storage
from porphyra.server.writes import Fence

log = logging.getLogger("porphyra.server")


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    """Resolve a write's future with ``error`` (or success), unless it was cancelled."""
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)


class HubStore:
    """The database work of a :class:`~porphyra.server.hub.Hub` (a base class of it)."""

    storage: Storage
    inline_db: bool
    _db: concurrent.futures.ThreadPoolExecutor
    _pending: list[tuple[dict[str, Any], asyncio.Future[None]]]
    _wake: asyncio.Event | None
    _writer: asyncio.Task[None] | None

    if TYPE_CHECKING:

        def fence(self) -> Fence | None: ...

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run storage call ``fn(*args)`` and return its result.

        SQLite calls run inline (they take well under a millisecond, and a database thread
        would fight the event loop for the GIL, which made commits wait for hundreds of
        milliseconds under load); other databases (network round trips) run on the
        database thread."""
        if self.inline_db:
            return fn(*args)
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    async def store_action(self, entry: dict[str, Any]) -> None:
        """Durably store one action (keywords of :meth:`Storage.append_actions`); returns
        once it is committed.  Actions arriving together share one transaction (group
        commit), so a hundred busy games cost a few commits, not a hundred.

        SQLite (inline, see :meth:`db`) with nothing else waiting to be stored: the write
        is made here and now, without the writer task's round trip through the event loop
        (a future, a wake-up and a task switch for each move: about as much CPU as the
        commit itself, issue 33).  Entries that arrive while others wait still share
        their transaction."""
        if self.inline_db and not self._pending:
            self.storage.append_actions([entry], self.fence())
            return
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
