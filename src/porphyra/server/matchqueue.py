"""The quick-match queue in the database (issue 32 §2, §7), shared by every server of a
cluster: who waits for what, who a matcher has taken, which table each got, and the
limits on joining.

One row per waiting account (its primary key: an account cannot queue twice).  A
matcher (any request that looks at the queue, on any server) takes the players of one
match with one conditional update (``claimed`` set only where it is still empty, or
older than :data:`CLAIM_STALE_S`: a matcher that died lets go), makes the table, then
writes its id and each player's seat (:meth:`MatchQueue.matched`).  Of two matchers
taking the same player at the same moment one updates every row and the other none of
them, or fewer than it wanted and rolls back.  The functions are synchronous, called
through the hub's database runner (:meth:`porphyra.server.hubstore.HubStore.db`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from limits import storage, strategies
from sqlalchemy import Engine, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from porphyra.server.quickmatch import Waiter
from porphyra.server.quotas import optional_limit
from porphyra.server.schema import queue_table
from porphyra.server.settings import QUEUE_LIMIT

#: Seconds after which a matcher's claim on a player that got no table is let go.
CLAIM_STALE_S = 30.0


class AlreadyQueued(Exception):
    """The account waits in the queue already (nothing changed)."""


@dataclass(frozen=True)
class Entry:
    """One account's row of the queue.

    Attributes:
        game / players / clock: what it waits for (clock: ``none``, ``realtime``,
            ``turn``).
        mu / sigma: its rating when it joined.
        joined: when it joined (epoch seconds).
        claimed: when a matcher took it (None: waiting).
        match_id / match_seat: the table made for it and its seat (None: none yet).
    """

    game: str
    players: int
    clock: str
    mu: float
    sigma: float
    joined: float
    claimed: float | None
    match_id: str | None
    match_seat: int | None


class MatchQueue:
    """The queue in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def join(
        self,
        account_id: int,
        game: str,
        players: int,
        clock: str,
        rating: tuple[float, float],
        now: float,
    ) -> None:
        """Put ``account_id`` in the queue for ``game`` with ``players`` players and the
        ``clock`` kind, with its ``rating`` (``(mu, sigma)``) at time ``now``.

        Raises:
            AlreadyQueued: the account waits already, or has a table waiting to be
                collected (nothing changed).
        """
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    insert(queue_table).values(
                        account_id=account_id,
                        game=game,
                        players=players,
                        clock=clock,
                        mu=rating[0],
                        sigma=rating[1],
                        joined=now,
                    )
                )
        except IntegrityError:
            raise AlreadyQueued() from None

    def entry(self, account_id: int) -> Entry | None:
        """``account_id``'s row, or None when it is not in the queue."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(queue_table).where(queue_table.c.account_id == account_id)
            ).first()
        if row is None:
            return None
        return Entry(
            row.game,
            row.players,
            row.clock,
            row.mu,
            row.sigma,
            row.joined,
            row.claimed,
            row.match_id,
            row.match_seat,
        )

    def leave(self, account_id: int) -> bool:
        """Take ``account_id`` out of the queue while no matcher holds it; True if it
        left (False: it was not there, or a table is being made or was made for it)."""
        with self.engine.begin() as conn:
            done = conn.execute(
                delete(queue_table).where(
                    queue_table.c.account_id == account_id,
                    queue_table.c.claimed.is_(None),
                    queue_table.c.match_id.is_(None),
                )
            )
        return bool(done.rowcount == 1)

    def drop(self, account_id: int) -> None:
        """Remove ``account_id``'s row whatever its state (an account deleted while it
        waited)."""
        with self.engine.begin() as conn:
            conn.execute(delete(queue_table).where(queue_table.c.account_id == account_id))

    def collect(self, account_id: int, match_id: str) -> None:
        """Remove ``account_id``'s row once it has learnt its table ``match_id``."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(queue_table).where(
                    queue_table.c.account_id == account_id,
                    queue_table.c.match_id == match_id,
                )
            )

    def waiting(self, game: str, players: int, clock: str, now: float) -> list[Waiter]:
        """The players free to be matched for (``game``, ``players``, ``clock``) at
        ``now``: not claimed, or claimed more than :data:`CLAIM_STALE_S` ago without a
        table."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    queue_table.c.account_id,
                    queue_table.c.mu,
                    queue_table.c.sigma,
                    queue_table.c.joined,
                ).where(
                    queue_table.c.game == game,
                    queue_table.c.players == players,
                    queue_table.c.clock == clock,
                    queue_table.c.match_id.is_(None),
                    self._free(now),
                )
            ).all()
        return [Waiter(r.account_id, r.mu, r.joined, r.sigma) for r in rows]

    @staticmethod
    def _free(now: float) -> Any:
        return or_(queue_table.c.claimed.is_(None), queue_table.c.claimed < now - CLAIM_STALE_S)

    def claim(self, account_ids: list[int], now: float) -> bool:
        """Take every one of ``account_ids`` for one table at ``now``, or none of them.

        Returns:
            True if this matcher holds them all now (then call :meth:`matched`, or
            :meth:`release` if the table cannot be made); False if another matcher
            or a leave got one first (nothing changed).
        """
        try:
            with self.engine.begin() as conn:
                done = conn.execute(
                    update(queue_table)
                    .where(
                        queue_table.c.account_id.in_(sorted(account_ids)),
                        queue_table.c.match_id.is_(None),
                        self._free(now),
                    )
                    .values(claimed=now)
                )
                if done.rowcount != len(account_ids):
                    conn.rollback()
                    return False
        except OperationalError:  # (two matchers locking rows in turn: one gives way)
            return False
        return True

    def matched(self, game_id: str, seats: dict[int, int]) -> None:
        """Record the table ``game_id`` made for the claimed accounts: ``{account id:
        seat}``."""
        with self.engine.begin() as conn:
            for account_id, seat in seats.items():
                conn.execute(
                    update(queue_table)
                    .where(queue_table.c.account_id == account_id)
                    .values(match_id=game_id, match_seat=seat)
                )

    def release(self, account_ids: list[int]) -> None:
        """Let go of claimed ``account_ids`` whose table could not be made (they wait
        again, their place in the queue kept)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(queue_table)
                .where(
                    queue_table.c.account_id.in_(account_ids),
                    queue_table.c.match_id.is_(None),
                )
                .values(claimed=None)
            )


class QueueLimits:
    """The limit per account and per client address on joining the queue (``limits``
    notation, moving windows in memory; None: no limit).

    Raises:
        ValueError: a limit the ``limits`` notation does not parse.
    """

    def __init__(self, joins: str | None = QUEUE_LIMIT) -> None:
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._join = optional_limit(joins)

    def allow_join(self, account_id: int, address: str) -> bool:
        """Count one join by ``account_id`` from ``address``; False if either is over
        the limit (the account is then not queued)."""
        if self._join is None:
            return True
        by_account = self._limiter.hit(self._join, "queue", "account", str(account_id))
        by_address = self._limiter.hit(self._join, "queue", "address", address)
        return by_account and by_address
