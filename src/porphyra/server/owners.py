"""Several server processes on one database: which process runs each game.

Every game is **owned by one process at a time** (``docs/scaling.md``).  A process owns a
game while the game's row of the ``owners`` table names it and its lease has not run out;
it renews the leases of the games it runs with every heartbeat, and every move it stores
renews that game's lease in the move's own transaction, or fails if another process holds
it (the fence: :class:`~porphyra.server.writes.NotOwnerError`, so a paused or cut-off
process can never write over the game's new owner).  A process that dies stops renewing;
once its leases run out, the next request for one of its games, on any process, takes the
game over and reloads it from its record (the database is the only truth: a move is
acknowledged only once stored), and every process's sweep takes over the unfinished games
nobody owns, so that bot-only games go on too.

The ``servers`` table says where each process answers, so that a process asked for a game
another one owns can send the client there.  Lease times are epoch seconds of the
processes' own clocks: keep them in step (NTP) and the lease well above any difference.

All functions are synchronous (the hub runs them on its database thread) and take the
:class:`~porphyra.server.storage.Storage`'s lock.
"""

from __future__ import annotations

import math
import secrets
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from porphyra.server import DEFAULT_LEASE_S
from porphyra.server.schema import games_table, owners_table, servers_table
from porphyra.server.storage import Storage

#: The ``server_id`` of a game nobody runs that must wake up at its ``lease_until`` (its
#: clock's next deadline; see :func:`release`): anyone may claim it.
NOBODY = ""

#: The longest lease (seconds): a game of a process that died waits at most this long.
MAX_LEASE_S = 3600.0


@dataclass(frozen=True)
class ClusterSettings:
    """This process's part in a cluster of servers on one database.

    Args:
        address: the base URL clients reach this process at (``http://host:port``); told
            to clients that ask another process for a game this one owns.
        lease_s: seconds a game stays owned without a renewal (heartbeats renew every
            ``heartbeat_s``, which must be well under half of it).
        server_id: this process's id (default: a new random one per start).

    Raises:
        ValueError: an address that is not an http(s) URL with a host, or a lease that is
            not more than 0 and at most :data:`MAX_LEASE_S`.
    """

    address: str
    lease_s: float = DEFAULT_LEASE_S
    server_id: str = field(default_factory=lambda: secrets.token_hex(8))

    def __post_init__(self) -> None:
        url = urllib.parse.urlsplit(self.address.strip())
        try:
            port = url.port
        except ValueError:
            port = -1
        if url.scheme not in ("http", "https") or not url.hostname or port == -1:
            raise ValueError(
                "a cluster server needs the address its clients reach it at, "
                f"http://host:port or https://host:port, not {self.address!r}"
            )
        # One spelling per address (a restart finds its predecessors by it: see succeed).
        netloc = url.hostname if port is None else f"{url.hostname}:{port}"
        normal = urllib.parse.urlunsplit((url.scheme, netloc, url.path.rstrip("/"), "", ""))
        object.__setattr__(self, "address", normal)
        if not (math.isfinite(self.lease_s) and 0 < self.lease_s <= MAX_LEASE_S):
            raise ValueError(
                f"the lease must be more than 0 and at most {MAX_LEASE_S:g} seconds, "
                f"not {self.lease_s!r}"
            )


def check_lease(lease_s: float, heartbeat_s: float) -> None:
    """Raise ``ValueError`` unless a lease of ``lease_s`` outlives two heartbeats of
    ``heartbeat_s`` (else a live server, one beat late, would lose its games)."""
    if not lease_s > 2 * heartbeat_s:
        raise ValueError(
            f"the lease ({lease_s:g} s) must be more than twice the heartbeat "
            f"({heartbeat_s:g} s), or a live server would lose its games"
        )


class OwnedElsewhere(Exception):
    """The game is run by another live server process.

    Attributes:
        game_id: the game.
        address: where that process answers (None: it never said).
    """

    def __init__(self, game_id: str, address: str | None) -> None:
        where = f" at {address}" if address else ""
        super().__init__(f"game {game_id} is served by another server{where}")
        self.game_id = game_id
        self.address = address


def _upsert(dialect: str) -> Any:
    """The dialect's ``INSERT ... ON CONFLICT`` construct (SQLite and PostgreSQL).

    Raises:
        ValueError: another database, where several servers are not supported.
    """
    if dialect == "postgresql":
        return postgresql.insert
    if dialect == "sqlite":
        return sqlite.insert
    raise ValueError(f"several servers on one database need PostgreSQL or SQLite, not {dialect}")


def check_dialect(storage: Storage) -> None:
    """Raise ``ValueError`` unless ``storage``'s database can hold leases (see :func:`claim`)."""
    _upsert(storage.engine.dialect.name)


def claim(storage: Storage, game_id: str, me: str, now_s: float, lease_s: float) -> str:
    """Take or keep game ``game_id`` for server ``me`` if nobody else holds it: no owner
    row, an expired lease, :data:`NOBODY`'s, or ``me`` already.  One atomic statement, so
    two processes claiming at once cannot both win.

    Returns:
        The server id that owns the game afterwards (``me`` if the claim held).
    """
    stmt = _upsert(storage.engine.dialect.name)(owners_table).values(
        game_id=game_id, server_id=me, lease_until=now_s + lease_s
    )
    stmt = stmt.on_conflict_do_update(
        index_elements=[owners_table.c.game_id],
        set_={"server_id": me, "lease_until": now_s + lease_s},
        where=or_(
            owners_table.c.server_id == me,
            owners_table.c.server_id == NOBODY,
            owners_table.c.lease_until < now_s,
        ),
    )
    with storage._lock, storage.engine.begin() as conn:
        conn.execute(stmt)
        owner = conn.execute(
            select(owners_table.c.server_id).where(owners_table.c.game_id == game_id)
        ).scalar_one()
    return str(owner)


def last_renewal(
    storage: Storage, game_id: str, me: str, now_s: float, lease_s: float
) -> float | None:
    """When another server last renewed its lease of ``game_id`` (epoch seconds), if that
    lease ran out by ``now_s`` (so ``me`` may take the game over): its last heartbeat or
    stored move, from which the game's clocks charge nobody until the takeover (as after a
    restart of a single server, :meth:`porphyra.clocks.TableClock.resume`).  None: the
    game is ``me``'s or :data:`NOBODY`'s (released with its clocks stored), has no owner,
    its lease still runs, or its end was written before leases kept their time.  Leases
    last ``lease_s`` on every server of the cluster."""
    with storage._lock, storage.engine.connect() as conn:
        row = conn.execute(
            select(owners_table.c.server_id, owners_table.c.lease_until).where(
                owners_table.c.game_id == game_id
            )
        ).first()
    if row is None or row.server_id in (me, NOBODY):
        return None
    until = float(row.lease_until)
    if until >= now_s or until == 0.0:
        return None
    return abs(until) - lease_s


def renew(
    storage: Storage, me: str, address: str, game_ids: list[str], now_s: float, lease_s: float
) -> set[str]:
    """The heartbeat of server ``me`` (answering at ``address``): store it, and renew its
    leases of ``game_ids`` (the games it runs).

    Returns:
        The games of ``game_ids`` it does not own any more (another process took them
        over while this one was cut off: it must drop them).
    """
    until = now_s + lease_s
    server = _upsert(storage.engine.dialect.name)(servers_table).values(
        id=me, address=address, heartbeat=now_s
    )
    server = server.on_conflict_do_update(
        index_elements=[servers_table.c.id], set_={"address": address, "heartbeat": now_s}
    )
    kept: set[str] = set()
    with storage._lock, storage.engine.begin() as conn:
        conn.execute(server)
        for chunk in _chunks(game_ids):
            mine = (owners_table.c.server_id == me) & owners_table.c.game_id.in_(chunk)
            conn.execute(update(owners_table).where(mine).values(lease_until=until))
            kept.update(conn.execute(select(owners_table.c.game_id).where(mine)).scalars())
    return set(game_ids) - kept


def _chunks(game_ids: list[str], size: int = 500) -> list[list[str]]:
    """``game_ids`` in lists of at most ``size`` (an ``IN`` list per statement stays
    under SQLite's limit on parameters)."""
    return [game_ids[i : i + size] for i in range(0, len(game_ids), size)]


def succeed(storage: Storage, me: str, address: str, now_s: float) -> int:
    """Server ``me`` starts at ``address``: the leases of earlier processes at the same
    address end now (a process restarted after a crash takes its own games back at once,
    instead of redirecting to itself until they run out: two live processes must never
    share an address), and their ``servers`` rows go, as do those of processes silent for
    a day.

    Returns:
        How many leases it ended.
    """
    with storage._lock, storage.engine.begin() as conn:
        before = select(servers_table.c.id).where(
            servers_table.c.address == address, servers_table.c.id != me
        )
        ended = _end_leases(conn, owners_table.c.server_id.in_(before.scalar_subquery()))
        conn.execute(
            delete(servers_table).where(
                or_(
                    (servers_table.c.address == address) & (servers_table.c.id != me),
                    servers_table.c.heartbeat < now_s - 86_400.0,
                )
            )
        )
        return ended


def release(
    storage: Storage, me: str, game_ids: list[str], wake: dict[str, float] | None = None
) -> None:
    """Give up server ``me``'s ownership of ``game_ids`` (released from memory): any
    process may take them at once.  ``wake``: games with a running clock, by their next
    deadline (epoch seconds): their row stays, owned by nobody (:data:`NOBODY`) until
    then, so that the heartbeat of any process takes the game over once it is due (its
    timeout bot must move, and the deadline was only in ``me``'s memory)."""
    wake = wake or {}
    with storage._lock, storage.engine.begin() as conn:
        for game_id, deadline in wake.items():
            conn.execute(
                update(owners_table)
                .where(owners_table.c.game_id == game_id, owners_table.c.server_id == me)
                .values(server_id=NOBODY, lease_until=deadline)
            )
        rest = [g for g in game_ids if g not in wake]
        for chunk in _chunks(rest):
            conn.execute(
                delete(owners_table).where(
                    owners_table.c.server_id == me, owners_table.c.game_id.in_(chunk)
                )
            )


def leave(storage: Storage, me: str) -> None:
    """Server ``me`` stops: its leases end now (so that the other servers' sweeps take its
    unfinished games over at once) and its ``servers`` row goes."""
    with storage._lock, storage.engine.begin() as conn:
        _end_leases(conn, owners_table.c.server_id == me)
        conn.execute(delete(servers_table).where(servers_table.c.id == me))


def _end_leases(conn: Any, of: Any) -> int:
    """End now the leases of the servers that ``of`` (a condition on ``owners``) picks,
    in ``conn``'s transaction: any process may take those games.  How many.  An ended
    lease keeps its time negated (below any clock: ended), so that the server taking the
    game over knows the last renewal (:func:`last_renewal`)."""
    ended = -func.abs(owners_table.c.lease_until)
    done = conn.execute(update(owners_table).where(of).values(lease_until=ended))
    return int(done.rowcount or 0)


def orphans(storage: Storage, now_s: float, limit: int = 100) -> list[str]:
    """Up to ``limit`` unfinished games whose owner's lease ran out: the games of a
    process that died or stopped, for the others to take over, and the games released
    with a running clock whose deadline came (:func:`release`).  (A game released from
    memory without a clock has no owner row: it loads where it is next asked for.)"""
    with storage._lock, storage.engine.connect() as conn:
        rows = conn.execute(
            select(games_table.c.id)
            .select_from(games_table.join(owners_table, owners_table.c.game_id == games_table.c.id))
            .where(games_table.c.status == "active", owners_table.c.lease_until < now_s)
            .order_by(games_table.c.id)
            .limit(limit)
        ).scalars()
        return [str(r) for r in rows]


class AddressInUse(RuntimeError):
    """Another live server process answers at the address this one was given (see
    :func:`check_address_free`)."""


def _heartbeats_at(storage: Storage, address: str, since_s: float) -> dict[str, float]:
    """``{server id: last heartbeat}`` of the servers at ``address`` that beat after
    ``since_s`` (epoch seconds)."""
    with storage._lock, storage.engine.connect() as conn:
        rows = conn.execute(
            select(servers_table.c.id, servers_table.c.heartbeat).where(
                servers_table.c.address == address, servers_table.c.heartbeat > since_s
            )
        ).all()
    return {str(r.id): float(r.heartbeat) for r in rows}


def check_address_free(
    storage: Storage,
    address: str,
    lease_s: float,
    heartbeat_s: float,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.time,
) -> None:
    """Before a server starts at ``address``: refuse if another process there is alive.

    A process restarted at its address takes its predecessors' games back at once
    (:func:`succeed`), so two live processes given one address would take each other's
    games for ever.  A predecessor that beat within the last ``lease_s`` is either dead
    (a ``kill -9``, a crash) or alive: this waits one and a half of ``heartbeat_s`` and
    looks again; a heartbeat that moved on meanwhile is a live process.  (A predecessor
    that stopped cleanly left no row: no wait.)

    Raises:
        AddressInUse: a live process answers at ``address`` (the message says what to do).
    """
    before = _heartbeats_at(storage, address, clock() - lease_s)
    if not before:
        return
    sleep(1.5 * heartbeat_s)
    after = _heartbeats_at(storage, address, clock() - lease_s - 1.5 * heartbeat_s)
    if any(beat > before[peer] for peer, beat in after.items() if peer in before):
        raise AddressInUse(
            f"another server is running at {address} (its heartbeat goes on): every server "
            "of a cluster needs its own --cluster-address, the address its clients reach "
            "it at; stop that one first to restart it"
        )


def address_of(storage: Storage, server_id: str) -> str | None:
    """Where server ``server_id`` answers (its ``servers`` row), or None."""
    with storage._lock, storage.engine.connect() as conn:
        value = conn.execute(
            select(servers_table.c.address).where(servers_table.c.id == server_id)
        ).scalar()
    return None if value is None else str(value)


def owner_address(storage: Storage, game_id: str) -> str | None:
    """Where the process that owns ``game_id`` now answers, or None (no owner, or one
    that never said)."""
    with storage._lock, storage.engine.connect() as conn:
        value = conn.execute(
            select(servers_table.c.address)
            .select_from(
                owners_table.join(servers_table, servers_table.c.id == owners_table.c.server_id)
            )
            .where(owners_table.c.game_id == game_id)
        ).scalar()
    return None if value is None else str(value)
