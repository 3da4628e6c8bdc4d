"""The stored accounts and sessions (issue 32 §1): SQLAlchemy Core statements on the
server's database (the tables ``accounts`` and ``sessions`` and the seats' ``account_id``
in :mod:`porphyra.server.schema`), synchronous, called through the hub's database
runner (:meth:`porphyra.server.hubstore.HubStore.db`).

Every statement is parameterised (a name or password is never part of SQL text), and a
session is found by the SHA-256 of its cookie value, never by the value itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, and_, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from porphyra.core.seats import default_name
from porphyra.server.rows import hash_token, now
from porphyra.server.schema import accounts_table, seats_table, sessions_table


class NameTaken(Exception):
    """A sign-up for a name whose skeleton another account has (also when both sign up
    at the same moment: the database's unique index decides)."""


class ClaimRefused(Exception):
    """A seat that cannot be claimed; ``reason`` is ``"token"`` (no seat of that game has
    this token), ``"taken"`` (another account holds it) or ``"twice"`` (the account holds
    another seat of the game)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Account:
    """One account: ``id``, ``name`` (as shown), ``created`` (UTC ISO-8601) and its
    password hash (``password_hash``; never sent anywhere)."""

    id: int
    name: str
    created: str
    password_hash: str


class AccountStore:
    """Accounts, sessions and seat claims in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, name: str, key: str, password_hash: str) -> Account:
        """Store a new account.

        Raises:
            NameTaken: an account with the skeleton ``key`` exists (nothing was stored).
        """
        created = now()
        try:
            with self.engine.begin() as conn:
                result = conn.execute(
                    insert(accounts_table).values(
                        name=name, name_key=key, password_hash=password_hash, created=created
                    )
                )
                (account_id,) = result.inserted_primary_key or (None,)
        except IntegrityError:
            raise NameTaken(key) from None
        assert isinstance(account_id, int)
        return Account(account_id, name, created, password_hash)

    def by_key(self, key: str) -> Account | None:
        """The live account whose name has the skeleton ``key``, or None."""
        return self._one(accounts_table.c.name_key == key)

    def by_id(self, account_id: int) -> Account | None:
        """The live (not deleted) account ``account_id``, or None."""
        return self._one(accounts_table.c.id == account_id)

    def _one(self, where: object) -> Account | None:
        query = select(accounts_table).where(where, accounts_table.c.deleted.is_(None))  # type: ignore[arg-type]
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None
        return Account(row.id, row.name, row.created, row.password_hash)

    def set_password(self, account_id: int, password_hash: str) -> None:
        """Store a new hash for ``account_id`` (a change, or a renewed hash)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(accounts_table)
                .where(accounts_table.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def start_session(
        self, account_id: int, token: str, created: float, expires: float, ended: str | None
    ) -> None:
        """Store a session of ``account_id`` for cookie value ``token`` (its hash), ending
        the session of cookie value ``ended`` in the same transaction (rotation at
        sign-in: a session id known before signing in is never the signed-in one), and
        the account's sessions that expired by ``created`` (housekeeping)."""
        with self.engine.begin() as conn:
            if ended is not None:
                conn.execute(delete(sessions_table).where(sessions_table.c.id == hash_token(ended)))
            conn.execute(
                delete(sessions_table).where(
                    sessions_table.c.account_id == account_id, sessions_table.c.expires <= created
                )
            )
            conn.execute(
                insert(sessions_table).values(
                    id=hash_token(token), account_id=account_id, created=created, expires=expires
                )
            )

    def session_account(self, token: str, at: float) -> Account | None:
        """The account signed in with cookie value ``token`` at ``at`` (epoch seconds), or
        None (no such session, expired, or its account deleted)."""
        query = (
            select(accounts_table)
            .join(sessions_table, sessions_table.c.account_id == accounts_table.c.id)
            .where(
                sessions_table.c.id == hash_token(token),
                sessions_table.c.expires > at,
                accounts_table.c.deleted.is_(None),
            )
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None
        return Account(row.id, row.name, row.created, row.password_hash)

    def end_session(self, token: str) -> None:
        """End the session of cookie value ``token`` (nothing if there is none)."""
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.id == hash_token(token)))

    def end_sessions(self, account_id: int, at: float | None = None) -> None:
        """End every session of ``account_id`` (a password change, a deletion); with
        ``at``, also every expired session of any account (housekeeping)."""
        where = sessions_table.c.account_id == account_id
        if at is not None:
            where = or_(where, sessions_table.c.expires <= at)
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(where))

    def delete(self, account_id: int) -> list[tuple[str, int, str]]:
        """Delete ``account_id``: its sessions end, its name, key and hash are cleared
        (the id stays, as stored games reference it) and every seat it held takes the
        seat's neutral default name (``Seat 2``), the account kept on the seat.

        Returns:
            ``(game id, seat, new name)`` of each renamed seat (for the games in memory).
        """
        with self.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(sessions_table.c.account_id == account_id))
            conn.execute(
                update(accounts_table)
                .where(accounts_table.c.id == account_id)
                .values(name=None, name_key=None, password_hash=None, deleted=now())
            )
            seats = conn.execute(
                select(seats_table.c.game_id, seats_table.c.seat).where(
                    seats_table.c.account_id == account_id
                )
            ).all()
            renamed = [(s.game_id, s.seat, default_name(s.seat)) for s in seats]
            for game_id, seat, name in renamed:
                conn.execute(
                    update(seats_table)
                    .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                    .values(name=name)
                )
        return renamed

    def claim(self, game_id: str, token: str, account_id: int) -> int:
        """Record ``account_id`` on the seat of ``game_id`` that ``token`` opens.

        Returns:
            The seat index (0-based); claiming one's own seat again changes nothing.

        Raises:
            ClaimRefused: ``"token"``, ``"taken"`` or ``"twice"`` (see the class).
        """
        token_hash = hash_token(token)
        with self.engine.begin() as conn:
            seats = conn.execute(
                select(seats_table.c.seat, seats_table.c.token_hash, seats_table.c.account_id)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
            mine = [s for s in seats if s.token_hash is not None and s.token_hash == token_hash]
            if not mine:
                raise ClaimRefused("token")
            seat = mine[0]
            if seat.account_id == account_id:
                return int(seat.seat)
            if seat.account_id is not None:
                raise ClaimRefused("taken")
            if any(s.account_id == account_id for s in seats):
                raise ClaimRefused("twice")
            # Only while nobody holds it: of two claims at the same moment, one updates.
            done = conn.execute(
                update(seats_table)
                .where(
                    and_(
                        seats_table.c.game_id == game_id,
                        seats_table.c.seat == seat.seat,
                        seats_table.c.account_id.is_(None),
                    )
                )
                .values(account_id=account_id)
            )
            if done.rowcount != 1:
                raise ClaimRefused("taken")
        return int(seat.seat)

    def copy_claims(self, from_game: str, to_game: str) -> None:
        """Give each seat of ``to_game`` (a rematch: the same seats and links) the account
        that holds the same seat of ``from_game``; seats already held are left alone."""
        with self.engine.begin() as conn:
            held = conn.execute(
                select(seats_table.c.seat, seats_table.c.account_id).where(
                    seats_table.c.game_id == from_game, seats_table.c.account_id.is_not(None)
                )
            ).all()
            for seat, account_id in held:
                conn.execute(
                    update(seats_table)
                    .where(
                        seats_table.c.game_id == to_game,
                        seats_table.c.seat == seat,
                        seats_table.c.account_id.is_(None),
                    )
                    .values(account_id=account_id)
                )
