"""Where bot seats decide: the bot process pool and the bot-move helpers.

Bot seats play server-side in an executor (a process pool under ``porphyra serve``, so a
2-second ISMCTS move never blocks the event loop or another game).  A bot only ever sees
its seat's view (``seat_view``); in a worker process the state is rebuilt from its record.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
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


class BotPool:
    """Where bot decisions run: a process pool (``workers > 0``) or a thread pool.

    Args:
        workers: processes for bots; 0 runs bots in a thread pool instead (for tests: no
            process start-up, and the view is built from a clone in the event loop).
    """

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._executor: concurrent.futures.Executor = self._new_executor()

    def _new_executor(self) -> concurrent.futures.Executor:
        if self.workers > 0:
            return concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return concurrent.futures.ThreadPoolExecutor(
            max_workers=4, thread_name_prefix="porphyra-bot"
        )

    async def choose(self, state: State, seat: int, spec: str, seed: int) -> str:
        """The bot's action text for ``seat`` (runs off the event loop).  A broken process
        pool (a worker killed) is replaced once."""
        loop = asyncio.get_running_loop()
        if self.workers > 0:
            rec = records.to_record(state)
            for attempt in (1, 2):
                try:
                    return await loop.run_in_executor(
                        self._executor, choose_from_record, rec, seat, spec, seed
                    )
                except BrokenProcessPool:
                    if attempt == 2:
                        raise
                    log.warning("bot worker pool broken; starting a new one")
                    self._executor.shutdown(wait=False, cancel_futures=True)
                    self._executor = self._new_executor()
        frozen = state.clone()
        return await loop.run_in_executor(self._executor, choose_on_state, frozen, seat, spec, seed)

    def shutdown(self) -> None:
        """Stop the workers (pending decisions are abandoned; they rerun on restart)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
