"""Playing a tournament's games, in this process or spread over worker processes (the
batch-play engine the balance lab uses too, :mod:`porphyra.batch`).

Each :class:`~porphyra.tournament.schedule.Match` is an independent task: the worker loads
the game, builds fresh bots seeded from the game seed and their seat (the same helper as
``porphyra simulate``) and plays it to the end.  Results are returned in schedule order, so
with iteration-budget bots they are identical whatever the number of workers; only the
measured durations differ.  Time-budget bots (``medium``, ``hard``, ``seconds=...``) are not
reproducible, and share the machine's cores with the other workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from porphyra import record as records
from porphyra.batch import ProgressCallback as ProgressCallback
from porphyra.batch import play_game, run_batch
from porphyra.bots.version import BOTS_VERSION
from porphyra.tournament.schedule import Match


@dataclass(frozen=True)
class GameResult:
    """The result of one :class:`Match`.

    Attributes:
        match: the scheduled game.
        returns: ``State.returns()`` per seat.
        scores: ``State.scores()`` per seat (JSON-ready: numbers or score breakdowns).
        actions: number of actions in the game.
        duration: wall-clock seconds the game took (including the bots' thinking).
        record: the game's record (:func:`porphyra.record.to_record`) if asked for.
        bots_version: the :data:`~porphyra.bots.version.BOTS_VERSION` that played it
            (``None`` for a game read from a ``games.csv`` written before it was recorded).
    """

    match: Match
    returns: tuple[float, ...]
    scores: tuple[Any, ...]
    actions: int
    duration: float
    record: dict[str, Any] | None = None
    bots_version: int | None = BOTS_VERSION

    @property
    def entrant_returns(self) -> tuple[float, ...]:
        """Returns per entrant (``match.entrants``): the seats' returns, then in the solo
        mode the LO's, the opposite of the player's (+1 when the player loses)."""
        if self.match.opponent is None:
            return self.returns
        return (*self.returns, -self.returns[0])

    @property
    def entrant_scores(self) -> tuple[Any, ...]:
        """Scores per entrant: the seats' scores, then in the solo mode the LO's if the game
        reports one after the player's (else ``None``)."""
        count = len(self.match.entrants)
        padded = (*self.scores, *([None] * count))
        return tuple(padded[:count])


def play_match(match: Match, keep_record: bool = False) -> GameResult:
    """Play one scheduled game.

    Args:
        match: the game to play.
        keep_record: also return the game's record.

    Returns:
        The :class:`GameResult`.

    Raises:
        RuntimeError: the game failed (a bot error, or no end within the step bound); the
            message names the game id, seats and seed.
        UnknownGameError: the game or an option is unknown.
    """
    state, duration = play_game(match.game_id, match.game, match.options, match.seats, match.seed)
    return GameResult(
        match=match,
        returns=tuple(float(r) for r in state.returns()),
        scores=tuple(state.scores()),
        actions=len(state.history),
        duration=duration,
        record=records.to_record(state) if keep_record else None,
    )


def _play_task(task: tuple[Match, bool]) -> GameResult:
    return play_match(*task)


def run_matches(
    matches: Sequence[Match],
    workers: int = 1,
    progress: ProgressCallback | None = None,
    keep_records: bool = False,
    ray_address: str | None = None,
) -> list[GameResult]:
    """Play every match, over ``workers`` processes.

    Args:
        matches: the schedule.
        workers: number of processes (≥ 1); 1 plays in this process.  The workers are
            started with ``spawn`` (no fork of a process that runs a progress thread) and
            ended at once when this function leaves, even on an error or ``KeyboardInterrupt``.
        progress: called with the number of finished games after each one (in this
            process, in completion order).
        keep_records: keep each game's record in its result.
        ray_address: play on Ray instead (``"local"`` or a cluster address; the ``scale``
            extra); ``workers`` is then ignored.  Same results as a local run.

    Returns:
        One result per match, in schedule (``game_id``) order, whatever the completion order.

    Raises:
        ValueError: ``workers`` < 1.
        RuntimeError: a game failed (the remaining games are not played), or Ray is asked
            for and not installed.
    """
    tasks = [(match, keep_records) for match in matches]
    return run_batch(tasks, _play_task, workers, progress, ray_address)
