"""The one batch-play engine of tournaments (:mod:`porphyra.tournament`) and the balance
lab (:mod:`porphyra.balance`): independent bot games played in this process, in worker
processes or on Ray, with their results in the order of the tasks whatever the order in
which they finish.

Every game object comes from the one game cache, :func:`porphyra.core.registry.shared_game`
(one :class:`~porphyra.core.game.Game` per process for each game, options and rules
version, its caches warm for every game after the first).  A game is played by
:func:`play_bot_game` (the same helper as ``porphyra simulate``), its bots seeded from the
game's seed and their seat, so with iteration-budget bots a batch gives the same results
in one process, in any number of workers or on Ray.
"""

from __future__ import annotations

import multiprocessing
import signal
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from porphyra.bots.selfplay import play_bot_game
from porphyra.core.game import Action, State
from porphyra.core.registry import shared_game

T = TypeVar("T")
R = TypeVar("R")

#: Called with the number of finished games after each game (or chunk of games).
ProgressCallback = Callable[[int], None]


def play_game(
    game_id: int,
    name: str,
    options: dict[str, Any],
    seats: Sequence[str],
    seed: int,
    observer: Callable[[State, int, Action], None] | None = None,
) -> tuple[State, float]:
    """Play one bot game of ``name`` with ``options`` (the cached game object) to its end.

    Args:
        game_id: the game's number in its batch (named in an error).
        seats: one bot spec per seat.
        seed: the deal's seed.
        observer: called with the state, the seat and its action before each action (a
            statistics collector).

    Returns:
        The finished state and the wall-clock seconds its play took (the bots' thinking
        included, the game object's loading not).

    Raises:
        RuntimeError: the game failed (a bot error, or no end within the step bound); the
            message names the game id, seats and seed.
        UnknownGameError: the game or an option is unknown.
    """
    game = shared_game(name, options)
    start = time.perf_counter()
    try:
        state = play_bot_game(game, seats, seed, observer=observer)
    except Exception as exc:
        raise RuntimeError(
            f"game {game_id} ({', '.join(seats)}; seed {seed}) failed: {type(exc).__name__}: {exc}"
        ) from exc
    return state, time.perf_counter() - start


def _ignore_interrupts() -> None:
    """Worker initializer: Ctrl-C is handled by the parent, which ends the workers."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_chunk(
    work: tuple[Callable[[T], R], Sequence[tuple[int, T]]],
) -> list[tuple[int, R]]:
    """Play one chunk of numbered tasks (a top-level function: workers and Ray import it
    by name, and ``play`` with it)."""
    play, chunk = work
    return [(i, play(task)) for i, task in chunk]


def run_batch(
    tasks: Sequence[T],
    play: Callable[[T], R],
    workers: int = 1,
    progress: ProgressCallback | None = None,
    ray_address: str | None = None,
    chunk: int = 1,
) -> list[R]:
    """Play every task with ``play``; the results in task order.

    Args:
        tasks: the games, each what ``play`` takes (picklable for workers and Ray).
        play: plays one task; a module-level function (workers import it by name).
        workers: local processes (≥ 1); 1 plays in this process.  The workers are started
            with ``spawn`` (no fork of a process that runs a progress thread) and ended at
            once when this function leaves, even on an error or ``KeyboardInterrupt``.
            Ignored with Ray.
        progress: called with the number of finished tasks after each chunk (in this
            process, in completion order).
        ray_address: play on Ray instead: ``"local"`` starts a local Ray instance, any
            other value is a cluster address for ``ray.init`` (the ``scale`` extra).
        chunk: tasks sent to a worker at once (fewer round trips for short games).

    Returns:
        One result per task, in task order, whatever the completion order.

    Raises:
        ValueError: ``workers`` < 1.
        RuntimeError: a game failed (the remaining ones are not played), or Ray is asked
            for and not installed.
    """
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, not {workers}")
    numbered = list(enumerate(tasks))
    size = max(1, chunk)
    chunks = [(play, numbered[i : i + size]) for i in range(0, len(numbered), size)]
    results: dict[int, R] = {}

    def done(finished: list[tuple[int, R]]) -> None:
        results.update(finished)
        if progress is not None:
            progress(len(results))

    if ray_address is not None:
        from porphyra.tournament.ray_backend import run_on_ray

        for finished in run_on_ray(chunks, _play_chunk, ray_address):
            done(finished)
    elif workers == 1 or len(chunks) <= 1:
        for c in chunks:
            done(_play_chunk(c))
    else:
        context = multiprocessing.get_context("spawn")
        with context.Pool(min(workers, len(chunks)), initializer=_ignore_interrupts) as pool:
            for finished in pool.imap_unordered(_play_chunk, chunks):
                done(finished)
    return [results[i] for i in range(len(numbered))]
