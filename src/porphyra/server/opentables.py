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
"""

from __future__ import annotations

from typing import Any

from limits import storage, strategies
from sqlalchemy import Engine, select, update

from porphyra.clocks import ClockError, TableClock
from porphyra.server.quotas import optional_limit
from porphyra.server.rows import OPEN_TO_ANYONE, open_kind
from porphyra.server.schema import accounts_table, games_table, seats_table
from porphyra.server.settings import OPEN_TABLE_LIMIT, TAKE_SEAT_LIMIT

#: Most open tables (and invitations) the lobby lists, newest first.
MAX_LISTED = 100


class TakeRefused(Exception):
    """An open seat that cannot be taken; ``reason`` is ``"closed"`` (the seat is not
    open: someone took it, or it never was), ``"invited"`` (it is kept for another
    account) or ``"twice"`` (the account holds a seat of this table already)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class OpenTables:
    """Open seats of the tables in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def take(self, game_id: str, seat: int, account_id: int, token_hash: str, name: str) -> None:
        """Give open seat ``seat`` of ``game_id`` to ``account_id``: its name becomes
        ``name`` and its token the one whose SHA-256 is ``token_hash``.

        Raises:
            TakeRefused: ``"closed"``, ``"invited"`` or ``"twice"`` (nothing changed).
        """
        with self.engine.begin() as conn:
            seats = conn.execute(
                select(seats_table.c.seat, seats_table.c.open_to, seats_table.c.account_id)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
                .with_for_update()
            ).all()
            if any(s.account_id == account_id for s in seats):
                raise TakeRefused("twice")
            target = next((s for s in seats if s.seat == seat), None)
            if target is None or target.open_to is None:
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
            a seat)}``.  No seed, no token, no other account's invitation.
        """
        with self.engine.connect() as conn:
            open_ids = (
                select(seats_table.c.game_id)
                .where(seats_table.c.open_to.is_not(None))
                .where(
                    (seats_table.c.open_to == OPEN_TO_ANYONE)
                    | (seats_table.c.open_to == (viewer if viewer is not None else -1))
                )
                .distinct()
            )
            games = conn.execute(
                select(
                    games_table.c.id,
                    games_table.c.game,
                    games_table.c.clock,
                    games_table.c.rated_wish,
                    accounts_table.c.name.label("creator"),
                )
                .outerjoin(accounts_table, accounts_table.c.id == games_table.c.creator_id)
                .where(games_table.c.id.in_(open_ids), games_table.c.status == "active")
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
