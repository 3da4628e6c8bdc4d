"""Seeded, reproducible balance campaigns: the games, and playing them locally or on Ray.

A campaign plays, for each bot *pairing* (one bot spec per seat, e.g. ``("easy", "medium")``),
``games`` games on mirrored deals: deal ``d`` has seed ``seed + d`` and is played once per
**distinct** seat assignment among the rotations of the pairing's bots over the seats, so
each bot sits in every seat (and, in Byzantium, takes the first Emperor's role;
``first_emperor`` stays 0) on the same cards.  A rotation that gives the same bot spec in
every seat as an earlier one (every rotation of a symmetric pairing such as easy against
easy) would replay the same game, since a seat's bot is seeded by its seat: it is not
played, so a symmetric pairing plays one game per deal and every game of a campaign is
distinct (each game's ``digest`` identifies its full history, and the figures count the
distinct ones).  In the solo mode of Conspiracy the single bot plays each Legendary
Opponent on the same deals.

Every game is an independent :class:`Task`; results come back in task order, so a campaign
gives exactly the same results whether it runs in one process, in ``workers`` processes or
on a Ray cluster (:func:`run_tasks`, on the batch-play engine of :mod:`porphyra.batch`), as
long as the bots are iteration-budget bots.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from porphyra.balance.collect import Collector, collector_for
from porphyra.batch import ProgressCallback as ProgressCallback
from porphyra.batch import play_game, run_batch
from porphyra.core.game import State
from porphyra.tournament.schedule import rotations


@dataclass(frozen=True)
class Task:
    """One game of a campaign.

    Attributes:
        index: position in the campaign (results come back in this order).
        game: game name.
        options: game options (e.g. ``{"deck": "v2"}``, ``{"cards": path}``, ``{"players": 3}``).
        seats: one bot spec per seat.
        seed: the deal's seed.
        pairing: index of the bot pairing in the campaign.
        deal: deal number (``seed - campaign seed``).
        rotation: which rotation of the pairing's bots (0: as given).
    """

    index: int
    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    seed: int
    pairing: int
    deal: int
    rotation: int


@dataclass(frozen=True)
class Campaign:
    """What to play.

    Attributes:
        game: ``"byzantium"`` or ``"conspiracy"``.
        options: game options shared by every game.
        pairings: bot specs per seat, one tuple per pairing (Conspiracy solo: one bot).
        games: games per pairing (rounded up to whole deals: one game per distinct seat
            assignment of the pairing's rotations, so one game a deal for a symmetric
            pairing, two for easy against medium).
        seed: seed of the first deal.
        opponents: Conspiracy solo mode: Legendary Opponents to play (each on every deal).
    """

    game: str
    options: dict[str, Any]
    pairings: tuple[tuple[str, ...], ...]
    games: int
    seed: int
    opponents: tuple[str, ...] = field(default_factory=tuple)

    def tasks(self) -> list[Task]:
        """Every game of the campaign, in a fixed order.

        Raises:
            ValueError: ``games`` < 1 or no pairing.
        """
        if self.games < 1:
            raise ValueError(f"--games must be at least 1, not {self.games}")
        if not self.pairings:
            raise ValueError("give at least one bot pairing (--bots)")
        out: list[Task] = []
        for p, pairing in enumerate(self.pairings):
            if self.opponents:
                per_deal = len(self.opponents)
                deals = -(-self.games // per_deal)
                for d in range(deals):
                    for r, lo in enumerate(self.opponents):
                        options = {**self.options, "players": 1, "opponent": lo}
                        out.append(
                            Task(len(out), self.game, options, pairing, self.seed + d, p, d, r)
                        )
                continue
            assignments = seat_assignments(pairing)
            deals = -(-self.games // len(assignments))
            for d in range(deals):
                for r, seats in assignments:
                    out.append(
                        Task(len(out), self.game, self.options, seats, self.seed + d, p, d, r)
                    )
        return out


def seat_assignments(pairing: Sequence[str]) -> list[tuple[int, tuple[str, ...]]]:
    """The distinct seat assignments among the rotations of ``pairing`` over the seats, as
    ``(rotation, seats)`` in rotation order: a rotation that seats the same bot spec in
    every seat as an earlier one is left out (it would replay that game on the same deal).

    Example: ``("easy", "medium")`` gives both rotations, ``("easy", "easy")`` only the
    first.
    """
    out: list[tuple[int, tuple[str, ...]]] = []
    seen: set[tuple[str, ...]] = set()
    for r, rot in enumerate(rotations(len(pairing))):
        seats = tuple(pairing[i] for i in rot)
        if seats not in seen:
            seen.add(seats)
            out.append((r, seats))
    return out


def history_digest(task: Task, state: State) -> str:
    """SHA-256 (hex) of a game's identity and full history: the game, its options, the
    seats' bots, the seed and every action with its seat, in order.  Two games with the
    same digest are the same game."""
    text = json.dumps(
        [
            task.game,
            task.options,
            list(task.seats),
            task.seed,
            [[seat, str(action)] for seat, action in state.history],
        ],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def play_task(task: Task) -> dict[str, Any]:
    """Play one task and return its statistics (:mod:`porphyra.balance.collect`) with
    ``index``, ``pairing``, ``deal``, ``rotation``, ``seats``, ``seed``, ``actions`` (their
    number) and ``digest`` (:func:`history_digest`) added.

    Raises:
        RuntimeError: the game failed; the message names the task.
    """
    collector = collector_for(task.game)
    state, _ = play_game(
        task.index, task.game, task.options, task.seats, task.seed, observer=collector.before
    )
    return game_stats(task, state, collector)


def game_stats(task: Task, state: State, collector: Collector) -> dict[str, Any]:
    """The statistics of ``task``'s finished game ``state`` that ``collector`` watched, with
    the task's fields (see :func:`play_task`)."""
    stats = collector.finish(state)
    stats.update(
        index=task.index,
        pairing=task.pairing,
        deal=task.deal,
        rotation=task.rotation,
        seats=list(task.seats),
        seed=task.seed,
        actions=len(state.history),
        digest=history_digest(task, state),
    )
    return stats


def run_tasks(
    tasks: Sequence[Task],
    workers: int = 1,
    progress: ProgressCallback | None = None,
    ray_address: str | None = None,
    chunk: int = 8,
) -> list[dict[str, Any]]:
    """Play every task (on the batch-play engine tournaments use too,
    :func:`porphyra.batch.run_batch`); results in task order whatever the order of
    completion.

    Args:
        tasks: the games (:meth:`Campaign.tasks`).
        workers: local processes (≥ 1; 1 plays in this process).  Ignored with Ray.
        progress: called with the number of finished games (in this process).
        ray_address: run on Ray instead: ``"local"`` starts a local Ray instance, any
            other value is a cluster address for ``ray.init``.  Needs the ``scale`` extra.
        chunk: games sent to a worker at once (fewer round trips for short games).

    Returns:
        One statistics dict per task (:func:`play_task`), in task order.

    Raises:
        ValueError: ``workers`` < 1.
        RuntimeError: a game failed, or Ray is asked for and not installed.
    """
    results = run_batch(tasks, play_task, workers, progress, ray_address, chunk)
    results.sort(key=lambda r: int(r["index"]))
    return results
