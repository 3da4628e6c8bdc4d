"""Open tables and invitations in the database (issue 32 §2, §7): taking an open seat,
the lobby's list of open tables and of an account's invitations, and the limits on
opening tables and taking seats.

A seat is open while its ``open_to`` column is set (:data:`OPEN_TO_ANYONE`, or the id of
the one account invited to it; :mod:`porphyra.server.schema`).  Taking it is one
transaction that gives it the taker's account, name and a new token hash and clears
``open_to``, only while it is still open: of two takes at the same moment one updates
the row and the other is refused (the seats of the table are locked for the transaction
on PostgreSQL, ``SELECT ... FOR UPDATE``; SQLite runs the server's statements one at a
time).  The functions are synchronous, called through the hub's database runner
(:meth:`porphyra.server.hubstore.HubStore.db`).

An open table ends without starting in two ways (issue 32 §7): its creator cancels it
while a seat is still open (:meth:`OpenTables.cancel`), or nobody fills it within the
expiry (``open_table_expiry_s``, counted from its creation): it is no longer listed and
its seats can no longer be taken.  A cancelled table's open seats are closed for good
(:data:`~porphyra.server.rows.OPEN_TO_NOBODY`); an expired one is recognised by its age
wherever it is read, so every server of a cluster agrees without a sweep.
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable, Collection
from typing import Any

from limits import storage, strategies
from sqlalchemy import Engine, select, true, update

from porphyra.clocks import ClockError, TableClock
from porphyra.server.quotas import optional_limit
from porphyra.server.rows import OPEN_TO_ANYONE, OPEN_TO_NOBODY, open_kind
from porphyra.server.schema import accounts_table, games_table, seats_table
from porphyra.server.settings import OPEN_TABLE_LIMIT, TAKE_SEAT_LIMIT

#: Most open tables (and invitations) the lobby lists, newest first.
MAX_LISTED = 100


def tables_waiting(engine: Engine) -> set[str]:
    """Ids of the active games with a seat still open: open to anyone, kept for an
    invited player, or closed for good by a cancel (an expired table is one of the first
    two).  Nothing happens at such a table until its last open seat is taken: no clock
    runs and no bot moves (:meth:`porphyra.server.openseats.OpenSeats.seats_open`), and
    taking a seat loads the game.  So a server starting up leaves them in the database
    (:meth:`porphyra.server.hub.Hub.start`), however many cancelled and expired tables
    have gathered there.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    waiting = (
        select(seats_table.c.game_id)
        .join(games_table, games_table.c.id == seats_table.c.game_id)
        .where(seats_table.c.open_to.is_not(None), games_table.c.status == "active")
        .distinct()
    )
    with engine.connect() as conn:
        return {row[0] for row in conn.execute(waiting).all() if isinstance(row[0], str)}


def _expired(created: object, oldest: str | None) -> bool:
    """Whether an open table created at ``created`` (its stored text) has expired,
    ``oldest`` being :meth:`OpenTables._oldest` (None: nothing expires; a damaged
    ``created`` that is not a text never does)."""
    return oldest is not None and isinstance(created, str) and created < oldest


class TakeRefused(Exception):
    """An open seat that cannot be taken, or a table that cannot be cancelled;
    ``reason`` is ``"closed"`` (the seat is not open: someone took it, it never was, or
    its table was cancelled or expired), ``"invited"`` (it is kept for another account),
    ``"twice"`` (the account holds a seat of this table already), ``"creator"`` (only the
    table's creator may cancel it) or ``"started"`` (no seat is open any more: the game
    has begun, or it was cancelled already)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class OpenTables:
    """Open seats of the tables in the database of ``engine``.

    Args:
        engine: the server's database.
        expiry_s: seconds after its creation when an open table nobody filled expires;
            None: never.
        clock: the time, epoch seconds (tests pass a fake one).
    """

    def __init__(
        self,
        engine: Engine,
        expiry_s: float | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.expiry_s = expiry_s
        self.clock = clock

    def _oldest(self) -> str | None:
        """The ``created`` text before which an open table has expired (None: none
        expires)."""
        if self.expiry_s is None:
            return None
        at = dt.datetime.fromtimestamp(self.clock() - self.expiry_s, dt.UTC)
        return at.isoformat(timespec="seconds")

    def take(self, game_id: str, seat: int, account_id: int, token_hash: str, name: str) -> None:
        """Give open seat ``seat`` of ``game_id`` to ``account_id``: its name becomes
        ``name`` and its token the one whose SHA-256 is ``token_hash``.

        Raises:
            TakeRefused: ``"closed"``, ``"invited"`` or ``"twice"`` (nothing changed).
        """
        oldest = self._oldest()
        with self.engine.begin() as conn:
            if oldest is not None:
                created = conn.execute(
                    select(games_table.c.created).where(games_table.c.id == game_id)
                ).scalar()
                if _expired(created, oldest):
                    raise TakeRefused("closed")
            seats = conn.execute(
                select(seats_table.c.seat, seats_table.c.open_to, seats_table.c.account_id)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
                .with_for_update()
            ).all()
            if any(s.account_id == account_id for s in seats):
                raise TakeRefused("twice")
            target = next((s for s in seats if s.seat == seat), None)
            if target is None or target.open_to in (None, OPEN_TO_NOBODY):
                raise TakeRefused("closed")
            if target.open_to not in (OPEN_TO_ANYONE, account_id):
                raise TakeRefused("invited")
            done = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.game_id == game_id,
                    seats_table.c.seat == seat,
                    seats_table.c.open_to == target.open_to,
                )
                .values(open_to=None, account_id=account_id, token_hash=token_hash, name=name)
            )
            if done.rowcount != 1:
                raise TakeRefused("closed")

    def cancel(self, game_id: str, account_id: int) -> list[int]:
        """Cancel open table ``game_id`` for its creator ``account_id``: every seat still
        open is closed for good (nobody may take it; the game never starts).

        Returns:
            The seats closed (0-based).

        Raises:
            TakeRefused: ``"creator"`` (``account_id`` did not create the table, or there
                is no such table) or ``"started"`` (no seat is open: nothing changed).
        """
        with self.engine.begin() as conn:
            creator = conn.execute(
                select(games_table.c.creator_id).where(games_table.c.id == game_id)
            ).scalar()
            if creator is None or creator != account_id:
                raise TakeRefused("creator")
            seats = conn.execute(
                select(seats_table.c.seat, seats_table.c.open_to)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
                .with_for_update()
            ).all()
            closing = [s.seat for s in seats if s.open_to not in (None, OPEN_TO_NOBODY)]
            if not closing:
                raise TakeRefused("started")
            conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.game_id == game_id,
                    seats_table.c.open_to.is_not(None),
                    seats_table.c.open_to != OPEN_TO_NOBODY,
                )
                .values(open_to=OPEN_TO_NOBODY)
            )
        return closing

    def ended(self, game_ids: Collection[str]) -> set[str]:
        """Of ``game_ids``, the tables that ended without starting: cancelled (a seat closed
        for good) or expired (a seat still open past the expiry).  They are listed
        nowhere any more: not among the open tables, nor among a player's games.

        Raises:
            sqlalchemy.exc.SQLAlchemyError: the database failed.
        """
        if not game_ids:
            return set()
        oldest = self._oldest()
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats_table.c.game_id, seats_table.c.open_to, games_table.c.created)
                .join(games_table, games_table.c.id == seats_table.c.game_id)
                .where(
                    seats_table.c.game_id.in_(list(game_ids)),
                    seats_table.c.open_to.is_not(None),
                    games_table.c.status == "active",
                )
            ).all()
        return {
            r.game_id for r in rows if r.open_to == OPEN_TO_NOBODY or _expired(r.created, oldest)
        }

    def listing(self, viewer: int | None) -> dict[str, list[dict[str, Any]]]:
        """The lobby's open tables and ``viewer``'s invitations, newest first (at most
        :data:`MAX_LISTED` tables in all).

        Returns:
            ``{"tables": [...], "invitations": [...]}``: per active table with a seat
            open to anyone (``tables``), or kept for ``viewer`` (``invitations``),
            ``{"id", "game", "players", "clock" (the clock settings, ``{"kind", ...}``),
            "rated" (the creator's wish), "creator" (the creator's name, None for a
            deleted account), "seats": [{"seat", "name", "open" ("open" | "invite" |
            None)}], "free" (the seats ``viewer`` may take), "seated" (``viewer`` holds
            a seat), "mine" (``viewer`` opened it: may cancel it)}``.  An expired table
            is left out.  No seed, no token, no other account's invitation.
        """
        with self.engine.connect() as conn:
            open_ids = (
                select(seats_table.c.game_id)
                .where(seats_table.c.open_to.is_not(None))
                .where(
                    (seats_table.c.open_to == OPEN_TO_ANYONE)
                    | (seats_table.c.open_to == (viewer if viewer is not None else OPEN_TO_ANYONE))
                )
                .distinct()
            )
            oldest = self._oldest()
            recent = (  # (an expired table is listed no more)
                games_table.c.created >= oldest if oldest is not None else true()
            )
            games = conn.execute(
                select(
                    games_table.c.id,
                    games_table.c.game,
                    games_table.c.clock,
                    games_table.c.rated_wish,
                    games_table.c.creator_id,
                    accounts_table.c.name.label("creator"),
                )
                .outerjoin(accounts_table, accounts_table.c.id == games_table.c.creator_id)
                .where(games_table.c.id.in_(open_ids), games_table.c.status == "active", recent)
                .order_by(games_table.c.created.desc())
                .limit(MAX_LISTED)
            ).all()
            ids = [g.id for g in games]
            seats: dict[str, list[Any]] = {i: [] for i in ids}
            if ids:
                for s in conn.execute(
                    select(
                        seats_table.c.game_id,
                        seats_table.c.seat,
                        seats_table.c.name,
                        seats_table.c.open_to,
                        seats_table.c.account_id,
                    )
                    .where(seats_table.c.game_id.in_(ids))
                    .order_by(seats_table.c.game_id, seats_table.c.seat)
                ).all():
                    seats[s.game_id].append(s)
        out: dict[str, list[dict[str, Any]]] = {"tables": [], "invitations": []}
        for g in games:
            rows = seats[g.id]
            free = [s.seat for s in rows if s.open_to is not None and s.open_to in (0, viewer)]
            invited = any(viewer is not None and s.open_to == viewer for s in rows)
            table = {
                "id": g.id,
                "game": g.game,
                "players": len(rows),
                "clock": _clock_settings(g.clock, len(rows)),
                "rated": bool(g.rated_wish),
                "creator": g.creator,
                "seats": [
                    {
                        "seat": s.seat,
                        # An invited seat shows its name (the invited account's); it says
                        # nothing else about whom it is kept for.
                        "name": s.name,
                        "open": open_kind(s.open_to),
                    }
                    for s in rows
                ],
                "free": free,
                "seated": viewer is not None and any(s.account_id == viewer for s in rows),
                "mine": viewer is not None and g.creator_id == viewer,
            }
            out["invitations" if invited else "tables"].append(table)
        return out


def _clock_settings(text: Any, players: int) -> dict[str, Any]:
    """The clock settings stored in a game's ``clock`` column, read as the game reads them
    (:meth:`TableClock.loads`; ``{"kind": "none"}`` for none, or one that cannot be read:
    the game itself reports a damaged clock)."""
    if isinstance(text, str):
        try:
            return TableClock.loads(text, players).settings.to_json()
        except ClockError:
            pass
    return {"kind": "none"}


class TableLimits:
    """Limits per account and per client address on opening tables and taking seats
    (``limits`` notation, moving windows in memory; None: no limit).

    Raises:
        ValueError: a limit the ``limits`` notation does not parse.
    """

    def __init__(
        self, open_tables: str | None = OPEN_TABLE_LIMIT, takes: str | None = TAKE_SEAT_LIMIT
    ) -> None:
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._open = optional_limit(open_tables)
        self._take = optional_limit(takes)

    def _allow(self, limit: Any, what: str, account_id: int, address: str) -> bool:
        if limit is None:
            return True
        by_account = self._limiter.hit(limit, what, "account", str(account_id))
        by_address = self._limiter.hit(limit, what, "address", address)
        return by_account and by_address

    def allow_open(self, account_id: int, address: str) -> bool:
        """Count one open table created by ``account_id`` from ``address``; False if
        either is over the limit (the table is then not created)."""
        return self._allow(self._open, "open", account_id, address)

    def allow_take(self, account_id: int, address: str) -> bool:
        """Count one seat taken by ``account_id`` from ``address``; False if either is
        over the limit."""
        return self._allow(self._take, "take", account_id, address)
