"""Game reviews in the browser: ``/api/games/{id}/review`` (see ``docs/review.md``).

``POST /api/games/{id}/review`` with ``{"seat": N}`` (0-based) starts the review of that
seat of a finished game, unless it is running or done; ``GET
/api/games/{id}/review?seat=N`` tells how far it is: ``{"status": "none" | "running" |
"done" | "failed", "done": decisions reviewed, "total": decisions to review, "review":
the review once done (:func:`porphyra.review.engine.finish_review`)}``.

A review runs in the background, never in the event loop: one decision at a time in a
worker (a process when the server's bots run in processes, else a thread), each task
replaying the record up to that decision and searching on the seat's view only.  Reviews
run one after another (one worker), so a burst of requests never takes the CPU from the
tables' bots for more than one decision at a time.  A finished review is stored with the
game in the database (:mod:`porphyra.server.reviewstore`), keyed by the record's digest,
the seat and the settings, so it is computed once whatever the restarts; the latest
:data:`KEEP` reviews (done or running) are also kept in memory.  When the database fails,
reviews go on in memory only (logged).

Only finished games are reviewed: their records (with the seed) are public by then, so any
seat's review may be shown to anyone, and nobody gets a search's advice during a game.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
from collections import OrderedDict
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError

from porphyra import record as records
from porphyra.review.cache import cache_key
from porphyra.review.engine import (
    ReviewSettings,
    decision_points,
    finish_review,
    record_digest,
    review_decision,
)
from porphyra.server.ports import Database
from porphyra.server.reviewstore import load_review, save_review

log = logging.getLogger(__name__)

router = APIRouter()

#: Reviews (done or running) kept in memory, the oldest forgotten first.
KEEP = 64
#: The settings of the server's reviews (an iteration budget: reproducible).
SETTINGS = ReviewSettings()


class ReviewIn(BaseModel):
    """The seat to review (0-based, as the protocol counts seats)."""

    model_config = ConfigDict(extra="forbid")

    seat: int = Field(ge=0, le=7)


@dataclass
class Job:
    """One review: its progress and, once done, the review (or the failure's error id)."""

    done: int = 0
    total: int | None = None
    review: dict[str, Any] | None = None
    failed: bool = False
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        """The job as the API answers it (see the module docstring)."""
        state = "failed" if self.failed else "done" if self.review is not None else "running"
        return {"status": state, "done": self.done, "total": self.total, "review": self.review}


def points_of(rec: dict[str, Any], seat: int) -> list[tuple[int, str]]:
    """``(index, chosen)`` of each decision of ``seat`` to review (worker entry point)."""
    return [(index, chosen) for index, _, chosen in decision_points(rec, seat)]


def review_at(
    rec: dict[str, Any], index: int, seat: int, chosen: str, settings: ReviewSettings
) -> dict[str, Any]:
    """The review of ``seat``'s decision at action ``index`` of ``rec`` (worker entry
    point): the record replayed up to it, the search on the seat's view only."""
    state = records.replay(rec, upto=index)
    return {"move": index + 1, **review_decision(state, seat, chosen, settings)}


class Reviews:
    """The reviews of one server: the jobs, the worker they run on, and the database that
    keeps the finished ones.

    Args:
        processes: run the searches in a worker process (else a thread).
        database: where finished reviews are stored and found (the server's hub), or None
            to keep them in memory only.
    """

    def __init__(self, processes: bool, database: Database | None = None) -> None:
        self.processes = processes
        self.database = database
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._executor: concurrent.futures.Executor | None = None

    def executor(self) -> concurrent.futures.Executor:
        """The one worker of the reviews, started on first use."""
        if self._executor is None:
            self._executor = (
                concurrent.futures.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("spawn")
                )
                if self.processes
                else concurrent.futures.ThreadPoolExecutor(
                    max_workers=1, thread_name_prefix="porphyra-review"
                )
            )
        return self._executor

    def key(self, rec: dict[str, Any], seat: int) -> str:
        """The job key of ``seat``'s review of ``rec`` under :data:`SETTINGS`: the record's
        digest and the terminal cache's key (seat, settings, review version)."""
        return f"{record_digest(rec)}:{cache_key(seat, SETTINGS)}"

    async def find(self, rec: dict[str, Any], seat: int) -> Job | None:
        """The job of ``seat``'s review of ``rec``: in memory, else a stored review (as a
        done job), else None."""
        return await self._find(self.key(rec, seat))

    async def _find(self, key: str) -> Job | None:
        job = self.jobs.get(key)
        if job is not None:
            self.jobs.move_to_end(key)
            return job
        stored = await self._load(key)
        if stored is None:
            return None
        decisions = stored.get("decisions")
        count = len(decisions) if isinstance(decisions, list) else 0
        return self._remember(key, Job(done=count, total=count, review=stored))

    async def start(self, rec: dict[str, Any], seat: int, game_id: str | None = None) -> Job:
        """The job of ``seat``'s review of ``rec`` (the record of game ``game_id``; None:
        not stored), started now unless it is running, done or stored (a failed one is
        started again)."""
        key = self.key(rec, seat)
        job = await self._find(key)
        if job is not None and not job.failed:
            return job
        job = self._remember(key, Job())
        job.task = asyncio.get_running_loop().create_task(self._run(job, rec, seat, key, game_id))
        return job

    def _remember(self, key: str, job: Job) -> Job:
        self.jobs[key] = job
        self.jobs.move_to_end(key)
        while len(self.jobs) > KEEP:
            _, old = self.jobs.popitem(last=False)
            if old.task is not None and not old.task.done():
                old.task.cancel()
        return job

    async def _load(self, key: str) -> dict[str, Any] | None:
        if self.database is None:
            return None
        try:
            found: dict[str, Any] | None = await self.database.db(
                load_review, self.database.storage, key
            )
        except SQLAlchemyError as exc:
            log.warning("stored reviews unavailable (%s); reviewing again", type(exc).__name__)
            return None
        return found

    async def _store(
        self, key: str, game_id: str | None, seat: int, review: dict[str, Any]
    ) -> None:
        if self.database is None or game_id is None:
            return
        try:
            await self.database.db(save_review, self.database.storage, key, game_id, seat, review)
        except SQLAlchemyError as exc:
            log.warning("review not stored (%s); kept in memory", type(exc).__name__)

    async def _run(
        self, job: Job, rec: dict[str, Any], seat: int, key: str, game_id: str | None
    ) -> None:
        loop = asyncio.get_running_loop()
        pool = self.executor()
        try:
            points = await loop.run_in_executor(pool, points_of, rec, seat)
            job.total = len(points)
            decisions = []
            for index, chosen in points:
                decisions.append(
                    await loop.run_in_executor(pool, review_at, rec, index, seat, chosen, SETTINGS)
                )
                job.done += 1
            review = await loop.run_in_executor(pool, finish_review, rec, seat, SETTINGS, decisions)
            await self._store(key, game_id, seat, review)
            job.review = review
        except asyncio.CancelledError:
            raise
        except BrokenProcessPool:
            log.warning("review worker broken; a new one starts with the next review")
            if self._executor is pool:
                self._executor = None
            job.failed = True
        except Exception:
            log.exception("review of seat %s failed", seat)
            job.failed = True

    def close(self) -> None:
        """Cancel the running reviews and stop the worker."""
        for job in self.jobs.values():
            if job.task is not None and not job.task.done():
                job.task.cancel()
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


def reviews_of(request: Request) -> Reviews:
    """The app's :class:`Reviews` (made on first use, with processes when its bots use
    them)."""
    state = request.app.state
    found = getattr(state, "reviews", None)
    if not isinstance(found, Reviews):
        found = state.reviews = Reviews(processes=state.hub.bots.workers > 0, database=state.hub)
    return found


async def finished_record(request: Request, game_id: str, seat: int) -> dict[str, Any]:
    """The record of the finished game ``game_id``, checked for ``seat``.

    Raises:
        HTTPException: 404 no such game, 403 not over yet, 400 no such seat.
    """
    runner = await request.app.state.hub.find(game_id)
    if runner is None:
        raise HTTPException(404, "no such game")
    if not runner.over:
        raise HTTPException(403, "a game can be reviewed once it is over")
    if not 0 <= seat < len(runner.seats):
        raise HTTPException(400, "no such seat in this game")
    rec: dict[str, Any] = runner.record_with_seats()
    return rec


@router.post("/api/games/{game_id}/review")
async def start_review(game_id: str, body: ReviewIn, request: Request) -> dict[str, Any]:
    """Start the review of ``body.seat`` (if not running or done); its status."""
    rec = await finished_record(request, game_id, body.seat)
    job = await reviews_of(request).start(rec, body.seat, game_id)
    return job.status()


@router.get("/api/games/{game_id}/review")
async def review_status(
    game_id: str, request: Request, seat: int = Query(ge=0, le=7)
) -> dict[str, Any]:
    """The status of the review of ``seat`` (``"none"`` if never started)."""
    rec = await finished_record(request, game_id, seat)
    job = await reviews_of(request).find(rec, seat)
    if job is None:
        return {"status": "none", "done": 0, "total": None, "review": None}
    return job.status()
