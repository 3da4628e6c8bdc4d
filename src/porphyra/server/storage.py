"""Durable storage of web games with SQLAlchemy 2 (Core): a game is its record plus seats.

Tables:

``games``    id, game name, rules version, options (JSON), the seed (``seed_text``: decimal
             text, as seeds have 128 bits and more; the legacy 64-bit ``seed`` column holds
             -1 for such rows and the whole seed only in games stored before), ``deal``
             (``secret``: drawn by the server; ``chosen``: given by the creator, an unrated
             table shown as such; NULL for older rows), status (``active`` / ``over``),
             result (JSON), ``seq`` (the message number of the last change), created /
             updated (UTC ISO-8601), ``table_options`` (JSON text: the table's choices,
             ``{"hints": bool, "spectator_chat": bool}``; NULL for older rows: no hints
             beyond bot tables, spectators read the chat only), ``rematch`` (the id of the
             game started as this one's rematch, or NULL), ``clock`` (the table's clocks
             and clock events as JSON text, see :mod:`porphyra.clocks`; NULL for older
             rows: no clock).
``actions``  (game id, index, player, action text): the record's action list, one row per
             action, so that an action is written with a single small insert (undo deletes
             a suffix; a simultaneous choice that the engine puts before one stored earlier
             rewrites the suffix from there, in the same transaction).
``seats``    (game id, seat index), kind (``human`` / ``bot``), bot spec, display name,
             SHA-256 of the seat token (the token itself is never stored).  (Databases
             written by earlier versions also hold a ``queued`` column, no longer read:
             early simultaneous choices are now actions of the record.)
``chat``     (game id, index), the writer's seat (-1: a spectator), the text and the time
             (UTC ISO-8601): the table's chat, saved with the game.
``server_state`` (key, value): ``alive``, the server's last heartbeat (epoch seconds).
``owners``   (game id), server id, ``lease_until`` (epoch seconds): which server process
             runs the game, when several share the database (:mod:`porphyra.server.owners`;
             empty for a single server).
``servers``  (server id), its address, its last heartbeat (epoch seconds): the server
             processes sharing the database.

The seed is stored but never leaves the server while a game is running (it determines every
hidden card).  Any SQLAlchemy URL works; the default is an SQLite file in the data
directory (WAL journal, so a commit survives a process crash).  All methods are
synchronous and thread-safe; the server calls them from one dedicated worker thread.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import hashlib
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    cast,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.pool import StaticPool

from porphyra.server.dbfile import check_sqlite_file

metadata = MetaData()

games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("version", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", Integer, nullable=False),  # legacy: -1 when seed_text holds the seed
    Column("seed_text", Text, nullable=True),
    Column("deal", String(16), nullable=True),
    Column("status", String(16), nullable=False, index=True),
    Column("result", JSON, nullable=True),
    Column("seq", Integer, nullable=False, default=0),
    Column("created", String(40), nullable=False),
    Column("updated", String(40), nullable=False),
    Column("table_options", Text, nullable=True),
    Column("rematch", String(32), nullable=True),
    # The table's clocks and clock events (JSON text of ``TableClock.dumps``; NULL for
    # games stored before clocks: no clock).
    Column("clock", Text, nullable=True),
)

actions_table = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("player", Integer, nullable=False),
    Column("action", Text, nullable=False),
)

#: Server-wide values: ``alive``, the epoch seconds of the last heartbeat of the running
#: server (after a restart, the time since then is not charged to any clock).
server_table = Table(
    "server_state",
    metadata,
    Column("key", String(32), primary_key=True),
    Column("value", Text, nullable=False),
)

seats_table = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("bot", String(200), nullable=True),
    Column("name", String(80), nullable=False),
    Column("token_hash", String(64), nullable=True, index=True),
)

chat_table = Table(
    "chat",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", String(40), nullable=False),
)

#: Which server process runs each game when several share the database (the one whose row
#: names it, until ``lease_until``; see :mod:`porphyra.server.owners`).
owners_table = Table(
    "owners",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("server_id", String(64), nullable=False, index=True),
    Column("lease_until", Float, nullable=False),
)

#: The server processes sharing the database: where each answers, and its last heartbeat.
servers_table = Table(
    "servers",
    metadata,
    Column("id", String(64), primary_key=True),
    Column("address", Text, nullable=False),
    Column("heartbeat", Float, nullable=False),
)


class NotOwnerError(RuntimeError):
    """A write for games this server no longer owns (another server took them over): the
    transaction was rolled back.  ``game_ids``: those games."""

    def __init__(self, game_ids: Sequence[str]) -> None:
        super().__init__(f"not the owner of game {', '.join(game_ids)} any more")
        self.game_ids = list(game_ids)


#: ``(server id, lease until)``: a write that renews the writer's leases of its games and
#: fails with :class:`NotOwnerError` for a game whose lease another server holds.
Fence = tuple[str, float]


#: The writer's seat stored for a spectator's chat line.
SPECTATOR_SEAT = -1


#: The statements of :meth:`Storage.append_actions` (named parameters), as SQL text for a
#: DBAPI cursor and as SQLAlchemy ``text()`` (``r``, the result, is JSON).
_SQL = {
    "insert": "INSERT INTO actions (game_id, idx, player, action) VALUES (:g, :i, :p, :a)",
    "update": (
        "UPDATE games SET seq = :seq, status = :st, result = :r, updated = :u, clock = :c "
        "WHERE id = :g"
    ),
    "delete": "DELETE FROM actions WHERE game_id = :g AND idx >= :i",
    # (the fence: run first, one game at a time, in the write's own transaction)
    "own": "UPDATE owners SET lease_until = :t WHERE game_id = :g AND server_id = :s",
}
_STATEMENTS = {
    "insert": text(_SQL["insert"]),
    "update": text(_SQL["update"]).bindparams(bindparam("r", type_=JSON)),
    "delete": text(_SQL["delete"]),
    "own": text(_SQL["own"]),
}


def _append_steps(
    batch: list[dict[str, Any]], stamp: str, fence: Fence | None = None
) -> list[tuple[str, list[dict[str, Any]]]]:
    """The statements storing ``batch`` (entries of :meth:`Storage.append_actions`) in
    order: ``[(name in _SQL, [parameters])]``: with a ``fence``, first the lease renewal
    of each game (``own``, whose every row must change), then inserts of the actions (a
    game's stored suffix deleted first where an entry replaces it), then one update per
    game."""
    latest: dict[str, dict[str, Any]] = {}
    for a in batch:
        latest[a["game_id"]] = a  # the last entry of a game gives its bookkeeping
    steps: list[tuple[str, list[dict[str, Any]]]] = []
    if fence is not None:
        steps.append(("own", [{"g": g, "s": fence[0], "t": fence[1]} for g in latest]))
    rows: list[dict[str, Any]] = []
    for a in batch:
        if a.get("replace"):
            if rows:  # keep the order: earlier rows first, then the delete
                steps.append(("insert", rows))
                rows = []
            steps.append(("delete", [{"g": a["game_id"], "i": a["index"]}]))
        rows.extend(
            {"g": a["game_id"], "i": a["index"] + n, "p": p, "a": t}
            for n, (p, t) in enumerate(a["actions"])
        )
    if rows:
        steps.append(("insert", rows))
    updates = [
        {
            "g": g,
            "seq": a["seq"],
            "st": a["status"],
            "r": a["result"],
            "u": stamp,
            "c": a.get("clock"),
        }
        for g, a in latest.items()
    ]
    steps.append(("update", updates))
    return steps


def _fence_one(conn: Any, game_id: str, fence: Fence | None) -> None:
    """In ``conn``'s transaction: with a ``fence``, renew the writer's lease of ``game_id``
    or raise :class:`NotOwnerError` (no fence: nothing)."""
    if fence is not None:
        _fence_conn(conn, [{"g": game_id, "s": fence[0], "t": fence[1]}])


def _fence_conn(conn: Any, params: list[dict[str, Any]]) -> None:
    """:func:`_fence_rows` on an SQLAlchemy connection ``conn``."""
    _fence_rows(params, lambda p: conn.execute(_STATEMENTS["own"], p).rowcount)


def _fence_rows(params: list[dict[str, Any]], run: Callable[[dict[str, Any]], int]) -> None:
    """Run the ``own`` statement once per game of ``params`` with ``run(parameters) ->
    rows changed``; raise :class:`NotOwnerError` naming every game whose lease row did not
    change (another server owns it: the caller's transaction is rolled back)."""
    lost = [p["g"] for p in params if run(p) != 1]
    if lost:
        raise NotOwnerError(lost)


#: ``deal`` values: the seed was drawn by the server (``secrets``, 128 bits), given by the
#: creator (every seat and spectator is told; never rated), or unknown (a game stored before
#: deals were recorded, with a 31-bit server seed: treated as unrated too).
DEAL_SECRET = "secret"
DEAL_CHOSEN = "chosen"
DEAL_LEGACY = "legacy"

#: Columns added after the first release: ``(name, SQL type)``, added at start-up to a
#: database created before them (``ALTER TABLE ... ADD COLUMN``, on SQLite and PostgreSQL).
_ADDED_GAME_COLUMNS = (
    ("seed_text", "TEXT"),
    ("deal", "VARCHAR(16)"),
    ("table_options", "TEXT"),
    ("rematch", "VARCHAR(32)"),
    ("clock", "TEXT"),
)

#: A table's choices (``games.table_options``) and their defaults.
TABLE_DEFAULTS: dict[str, bool] = {"hints": False, "spectator_chat": False}


class BadRowError(ValueError):
    """A stored game whose row is damaged (the message names the game and the column)."""


# JSON columns read as text and parsed per row, so that one damaged row is reported as
# that game's problem instead of failing the whole query.
_RAW_OPTIONS = cast(games_table.c.options, Text).label("options")
_RAW_RESULT = cast(games_table.c.result, Text).label("result")
_GAME_COLUMNS = [
    _RAW_OPTIONS if c.name == "options" else _RAW_RESULT if c.name == "result" else c
    for c in games_table.c
]


def is_rated(deal: str) -> bool:
    """True if a game with this ``deal`` may count for ratings (only server-drawn seeds)."""
    return deal == DEAL_SECRET


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored for a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> str:
    """The current UTC time as ISO-8601 text (seconds); the text is made once per second
    (every stored move asks for it)."""
    return _iso_second(int(time.time()))


@functools.lru_cache(maxsize=2)
def _iso_second(second: int) -> str:
    return dt.datetime.fromtimestamp(second, dt.UTC).isoformat(timespec="seconds")


@dataclass
class SeatRow:
    """One seat of a stored game.

    Attributes:
        seat: seat index (0-based).
        kind: ``"human"`` or ``"bot"``.
        bot: the bot spec (``make_bot``) for a bot seat, else None.
        name: display name.
        token_hash: SHA-256 of the seat token (human seats), else None.
    """

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None = None


@dataclass
class GameRow:
    """A stored game: its record fields, seats and bookkeeping.

    Attributes:
        id: the game id (URL-safe).
        game / version / options / seed: the record header (see :mod:`porphyra.record`).
        actions: ``[{"player": int, "action": str}]`` in order.
        seats: the seats, by index.
        status: ``"active"`` or ``"over"``.
        result: the record's result once over.
        seq: number of the last message-worthy change.
        created / updated: ISO-8601 UTC.
        deal: :data:`DEAL_SECRET`, :data:`DEAL_CHOSEN` or :data:`DEAL_LEGACY`.
        table: the table's choices (:data:`TABLE_DEFAULTS`).
        rematch: the id of this game's rematch, once started.
        clock: the clocks as JSON text (``porphyra.clocks.TableClock.dumps``), or
            None (a game stored before clocks: none).
    """

    id: str
    game: str
    version: str
    options: dict[str, Any]
    seed: int
    status: str
    seq: int
    created: str
    updated: str
    result: dict[str, Any] | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    seats: list[SeatRow] = field(default_factory=list)
    deal: str = DEAL_SECRET
    table: dict[str, bool] = field(default_factory=lambda: dict(TABLE_DEFAULTS))
    rematch: str | None = None
    clock: str | None = None

    def record(self) -> dict[str, Any]:
        """The game as a porphyra record (``porphyra.record`` format)."""
        return {
            "format": "porphyra-record",
            "format_version": 1,
            "game": self.game,
            "version": self.version,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [dict(a) for a in self.actions],
            "result": self.result,
        }


def default_db_url(data_dir: str | Path) -> str:
    """The embedded default: ``sqlite:///<data_dir>/porphyra.sqlite3`` (creates the dir)."""
    path = Path(data_dir).expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(path / 'porphyra.sqlite3').resolve()}"


class Storage:
    """Games, seats and actions in any SQLAlchemy database.

    Args:
        url: an SQLAlchemy URL (``sqlite:///file``, ``sqlite://`` in memory,
            ``postgresql+psycopg://...``).

    Raises:
        sqlalchemy.exc.ArgumentError: the URL is malformed.
        porphyra.server.dbfile.DatabaseFileError: an SQLite file that is empty or
            damaged (left untouched).
    """

    def __init__(self, url: str) -> None:
        self.url = url
        check_sqlite_file(url)
        # pool_pre_ping: a connection the database dropped (a restart) is replaced before
        # use, so that the first write after an outage does not fail (issue 13, item 5).
        # An SQLite file has no server to drop a connection, and the ping (a statement per
        # transaction) was a fifth of the cost of storing a move: not for SQLite.
        sqlite = url.startswith("sqlite")
        kwargs: dict[str, Any] = {"pool_pre_ping": not sqlite}
        if sqlite:
            kwargs["connect_args"] = {"check_same_thread": False}
            if url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
        self.engine: Engine = create_engine(url, **kwargs)
        if sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._lock = threading.Lock()
        #: An SQLite file: moves are stored on one DBAPI connection kept for it.
        self._direct = sqlite and url not in ("sqlite://", "sqlite:///:memory:")
        self._raw: Any = None
        metadata.create_all(self.engine)
        _add_missing_columns(self.engine)

    def checkpoint(self) -> None:
        """SQLite: copy the write-ahead log into the database file (``PASSIVE``: never
        blocks writers).  Automatic checkpoints are off, so that a checkpoint's disk sync
        never runs inside a commit on the server's event loop; the server calls this from
        its database thread every few seconds.  Other databases: nothing."""
        if not self.url.startswith("sqlite") or self.url in ("sqlite://", "sqlite:///:memory:"):
            return
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        """Release the database connections."""
        with self._lock:
            if self._raw is not None:
                with contextlib.suppress(Exception):
                    self._raw.close()
                self._raw = None
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    def create_game(self, row: GameRow) -> None:
        """Insert a new game with its seats (and any actions in ``row``)."""
        with self._lock, self.engine.begin() as conn:
            conn.execute(
                insert(games_table).values(
                    id=row.id,
                    game=row.game,
                    version=row.version,
                    options=row.options,
                    seed=-1,
                    seed_text=str(row.seed),
                    deal=row.deal,
                    table_options=json.dumps(row.table, sort_keys=True),
                    rematch=row.rematch,
                    clock=row.clock,
                    status=row.status,
                    result=row.result,
                    seq=row.seq,
                    created=row.created,
                    updated=row.updated,
                )
            )
            for s in row.seats:
                conn.execute(
                    insert(seats_table).values(
                        game_id=row.id,
                        seat=s.seat,
                        kind=s.kind,
                        bot=s.bot,
                        name=s.name,
                        token_hash=s.token_hash,
                    )
                )
            for i, a in enumerate(row.actions):
                conn.execute(
                    insert(actions_table).values(
                        game_id=row.id, idx=i, player=a["player"], action=a["action"]
                    )
                )

    def append_actions(self, batch: list[dict[str, Any]], fence: Fence | None = None) -> None:
        """Group commit: store every entry of ``batch``, all in one transaction (all
        stored, or none), as plain statements (``text()`` with named parameters: portable,
        and half the cost of Core constructs on this hot path; on an SQLite file, the same
        statements on one DBAPI connection kept for this, under half the CPU again).

        Each entry: ``game_id``, ``index`` (of its first action), ``actions`` (``[(player,
        text)]`` from that index on), ``replace`` (True: first delete the game's stored
        actions from ``index`` on, because the engine put a simultaneous choice before one
        stored earlier), and the game's new ``seq``, ``status`` and ``result``.

        ``fence``: several servers share the database; the writer must still own every
        game of the batch (its lease is renewed in the same transaction).

        Raises:
            NotOwnerError: with a ``fence``, another server owns a game of the batch;
                nothing was stored.
        """
        if not batch:
            return
        steps = _append_steps(batch, now(), fence)
        with self._lock:
            if self._direct:
                self._run_direct(steps)
                return
            with self.engine.begin() as conn:
                for statement, params in steps:
                    if statement == "own":
                        _fence_conn(conn, params)
                    else:
                        conn.execute(_STATEMENTS[statement], params)

    def _run_direct(self, steps: list[tuple[str, list[dict[str, Any]]]]) -> None:
        """Run ``steps`` of :func:`_append_steps` in one transaction on the kept SQLite
        connection (the caller holds the lock); on any failure roll back, drop the
        connection (the next call opens a new one) and raise."""
        if self._raw is None:
            self._raw = self.engine.raw_connection()
        raw = self._raw
        try:
            cursor = raw.cursor()
            try:
                for statement, params in steps:
                    if statement == "own":
                        _fence_rows(params, lambda p: cursor.execute(_SQL["own"], p).rowcount)
                        continue
                    if statement == "update":
                        params = [{**p, "r": json.dumps(p["r"])} for p in params]
                    cursor.executemany(_SQL[statement], params)
            finally:
                cursor.close()
            raw.commit()
        except BaseException:
            self._raw = None
            with contextlib.suppress(Exception):
                raw.rollback()
            with contextlib.suppress(Exception):
                raw.invalidate()
            raise

    def truncate_actions(
        self,
        game_id: str,
        keep: int,
        seq: int,
        clock: str | None = None,
        fence: Fence | None = None,
    ) -> None:
        """Undo: delete every action from index ``keep`` on, set ``seq`` (and the clocks,
        JSON text, if given); the game is active again.

        Raises:
            NotOwnerError: with a ``fence`` (see :meth:`append_actions`), another server
                owns the game; nothing changed.
        """
        with self._lock, self.engine.begin() as conn:
            _fence_one(conn, game_id, fence)
            conn.execute(
                delete(actions_table).where(
                    actions_table.c.game_id == game_id, actions_table.c.idx >= keep
                )
            )
            conn.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(seq=seq, status="active", result=None, updated=now())
            )
            if clock is not None:
                conn.execute(
                    update(games_table).where(games_table.c.id == game_id).values(clock=clock)
                )

    def set_clock(self, game_id: str, clock: str, seq: int, fence: Fence | None = None) -> None:
        """Store a game's clocks (JSON text) and ``seq`` without an action (a takeover,
        a return, clocks moved forward after a restart).

        Raises:
            NotOwnerError: with a ``fence`` (see :meth:`append_actions`), another server
                owns the game; nothing changed.
        """
        with self._lock, self.engine.begin() as conn:
            _fence_one(conn, game_id, fence)
            conn.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(clock=clock, seq=seq, updated=now())
            )

    def heartbeat(self, stamp: float) -> None:
        """Store ``stamp`` (epoch seconds) as the time this server was last alive."""
        with self._lock, self.engine.begin() as conn:
            done = conn.execute(
                update(server_table).where(server_table.c.key == "alive").values(value=repr(stamp))
            )
            if not done.rowcount:
                conn.execute(insert(server_table).values(key="alive", value=repr(stamp)))

    def last_alive(self) -> float | None:
        """The last :meth:`heartbeat` stamp, or None (none stored, or unreadable)."""
        with self._lock, self.engine.connect() as conn:
            value = conn.execute(
                select(server_table.c.value).where(server_table.c.key == "alive")
            ).scalar()
        try:
            return None if value is None else float(value)
        except ValueError:
            return None

    def set_rematch(self, game_id: str, rematch: str, fence: Fence | None = None) -> None:
        """Remember ``rematch`` as the game started as ``game_id``'s rematch.

        Raises:
            NotOwnerError: with a ``fence`` (see :meth:`append_actions`), another server
                owns ``game_id``; nothing changed.
        """
        with self._lock, self.engine.begin() as conn:
            _fence_one(conn, game_id, fence)
            conn.execute(
                update(games_table).where(games_table.c.id == game_id).values(rematch=rematch)
            )

    def add_chat(
        self, game_id: str, index: int, seat: int, text: str, at: str, fence: Fence | None = None
    ) -> None:
        """Store chat line ``index`` of ``game_id`` (``seat``: :data:`SPECTATOR_SEAT` for a
        spectator).

        Raises:
            NotOwnerError: with a ``fence`` (see :meth:`append_actions`), another server
                owns the game; nothing changed.
        """
        with self._lock, self.engine.begin() as conn:
            _fence_one(conn, game_id, fence)
            conn.execute(
                insert(chat_table).values(game_id=game_id, idx=index, seat=seat, text=text, at=at)
            )

    def chat(self, game_id: str) -> list[dict[str, Any]]:
        """The chat of ``game_id`` in order: ``[{"n", "seat", "text", "at"}]`` (rows that are
        not what they should be, e.g. an edited file, are left out)."""
        with self._lock, self.engine.connect() as conn:
            rows = conn.execute(
                select(chat_table.c.idx, chat_table.c.seat, chat_table.c.text, chat_table.c.at)
                .where(chat_table.c.game_id == game_id)
                .order_by(chat_table.c.idx)
            ).all()
        return [
            {"n": r.idx, "seat": r.seat, "text": r.text, "at": r.at}
            for r in rows
            if _is_int(r.idx)
            and _is_int(r.seat, SPECTATOR_SEAT)
            and isinstance(r.text, str)
            and isinstance(r.at, str)
        ]

    # ------------------------------------------------------------------- reads
    def load(self, game_id: str) -> GameRow | None:
        """The game ``game_id`` with its actions and seats, or None.

        Raises:
            BadRowError: the stored row is damaged (e.g. invalid JSON in ``options``).
            sqlalchemy.exc.SQLAlchemyError: the database failed.
        """
        with self._lock, self.engine.connect() as conn:
            g = conn.execute(select(*_GAME_COLUMNS).where(games_table.c.id == game_id)).first()
            if g is None:
                return None
            acts = conn.execute(
                select(actions_table.c.player, actions_table.c.action)
                .where(actions_table.c.game_id == game_id)
                .order_by(actions_table.c.idx)
            ).all()
            seats = conn.execute(
                select(seats_table)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
        _check_row(g, seats, acts)
        return GameRow(
            id=g.id,
            game=g.game,
            version=g.version,
            options=_json_field(g.options, "options", g.id) or {},
            seed=_seed_of(g.seed_text, g.seed, g.id),
            deal=g.deal or DEAL_LEGACY,
            table=_table_of(g.table_options, g.id),
            rematch=g.rematch,
            clock=g.clock,
            status=g.status,
            seq=g.seq,
            created=g.created,
            updated=g.updated,
            result=_json_field(g.result, "result", g.id),
            actions=[{"player": p, "action": a} for p, a in acts],
            seats=[SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in seats],
        )

    def has_token(self, game_id: str, token: str) -> bool:
        """True if ``token`` opens a seat of ``game_id`` (one indexed query on the seats,
        no replay: a caller checks a token before loading the game for it)."""
        query = select(seats_table.c.seat).where(
            seats_table.c.game_id == game_id, seats_table.c.token_hash == hash_token(token)
        )
        with self._lock, self.engine.connect() as conn:
            return conn.execute(query).first() is not None

    def game_ids(self, status: str | None = None) -> list[str]:
        """Ids of every game (or those with ``status``), newest first."""
        query = select(games_table.c.id).order_by(games_table.c.updated.desc())
        if status is not None:
            query = query.where(games_table.c.status == status)
        with self._lock, self.engine.connect() as conn:
            # (an id that is not a text, in a damaged file, names no game anyone can ask for)
            return [r[0] for r in conn.execute(query).all() if isinstance(r[0], str)]

    def summaries(self, limit: int = 200) -> list[dict[str, Any]]:
        """Lobby rows, newest first: id, game, options, status, result, number of
        actions, created, updated and seats (kind, bot, name).  No seed, no tokens.  A
        damaged row has status ``broken`` and ``damage``, what is wrong (for the server log,
        never for players)."""
        with self._lock, self.engine.connect() as conn:
            games = conn.execute(
                select(
                    games_table.c.id,
                    games_table.c.game,
                    _RAW_OPTIONS,
                    games_table.c.status,
                    _RAW_RESULT,
                    games_table.c.deal,
                    games_table.c.created,
                    games_table.c.updated,
                )
                .order_by(games_table.c.updated.desc())
                .limit(limit)
            ).all()
            # A row whose id is not a text (a damaged file) names no game anyone can ask
            # for: it is left out, and the other games are listed.
            games = [g for g in games if isinstance(g.id, str)]
            ids = [g.id for g in games]
            seats: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
            counts: dict[str, int] = dict.fromkeys(ids, 0)
            damaged: set[str] = set()
            if ids:
                for s in conn.execute(
                    select(
                        seats_table.c.game_id,
                        seats_table.c.seat,
                        seats_table.c.kind,
                        seats_table.c.bot,
                        seats_table.c.name,
                    )
                    .where(seats_table.c.game_id.in_(ids))
                    .order_by(seats_table.c.game_id, seats_table.c.seat)
                ).all():
                    if not all(isinstance(v, str | None) for v in (s.kind, s.bot, s.name)):
                        damaged.add(s.game_id)  # e.g. a blob as a name: not even shown
                        continue
                    seats[s.game_id].append(
                        {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name}
                    )
                for gid, n in conn.execute(
                    select(actions_table.c.game_id, func.count())
                    .where(actions_table.c.game_id.in_(ids))
                    .group_by(actions_table.c.game_id)
                ).all():
                    counts[gid] = n
        out = []
        for g in games:
            texts = {c: getattr(g, c) for c in ("game", "deal", "created", "updated")}
            # A column that is not a text (a BLOB, or bytes that are not UTF-8) is shown
            # as empty: the row is listed as broken below, and the list still serialises.
            shown = {c: v if isinstance(v, str | None) else "" for c, v in texts.items()}
            row = {
                "id": g.id,
                "game": shown["game"],
                "status": g.status,
                "actions": counts[g.id],
                "deal": shown["deal"] or DEAL_LEGACY,
                "rated": is_rated(shown["deal"] or DEAL_LEGACY),
                "created": shown["created"],
                "updated": shown["updated"],
                "seats": seats[g.id],
            }
            try:
                if g.status not in STATUSES:
                    raise BadRowError(f"game {g.id}: its status is not one of the known ones")
                for column, value in texts.items():
                    if not isinstance(value, str | None):
                        raise BadRowError(f"game {g.id}: its {column} is not a text")
                if g.id in damaged:
                    raise BadRowError(f"game {g.id}: a seat row holds a value that is not text")
                row["options"] = _json_field(g.options, "options", g.id) or {}
                row["result"] = _json_field(g.result, "result", g.id)
            except BadRowError as exc:  # listed as broken; the other games are fine
                # ``damage`` is for the server log only (see Hub.mark_broken).
                row.update(options={}, result=None, status="broken", damage=str(exc))
            out.append(row)
        return out


def _add_missing_columns(engine: Engine) -> None:
    """Bring a database created by an older release up to :data:`games_table`."""
    present = {c["name"] for c in inspect(engine).get_columns("games")}
    with engine.begin() as conn:
        for name, sql_type in _ADDED_GAME_COLUMNS:
            if name not in present:
                conn.exec_driver_sql(f"ALTER TABLE games ADD COLUMN {name} {sql_type}")


#: Values a stored game's ``status`` may have, and a seat's ``kind``.
STATUSES = ("active", "over")
SEAT_KINDS = ("human", "bot")


def _is_int(value: Any, least: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def _check_row(g: Any, seats: Sequence[Any], acts: Sequence[Any]) -> None:
    """Check every field of a game row, its seat rows and its action rows (SQLite stores
    any value in any column, so a damaged or edited file can hold ``seq = 'x'``).

    Raises:
        BadRowError: the first bad field, named by column (never its value: an action's
            text may name a seat's hidden cards).
    """
    gid = g.id

    def bad(what: str) -> BadRowError:
        return BadRowError(f"game {gid}: {what}")

    for column in ("game", "version", "created", "updated"):
        value = getattr(g, column)
        if not isinstance(value, str) or not value:
            raise bad(f"its {column} is not a text")
    if not _is_int(g.seq):
        raise bad("its seq is not a non-negative integer")
    if g.status not in STATUSES:
        raise bad(f"its status is not one of {', '.join(STATUSES)}")
    if g.deal is not None and g.deal not in (DEAL_SECRET, DEAL_CHOSEN):
        raise bad("its deal is not secret or chosen")
    if not _is_int(g.seed, -1):
        raise bad("its legacy seed column is not an integer")
    if g.seed_text is not None and not isinstance(g.seed_text, str):
        raise bad("its seed_text is not a text")
    if g.rematch is not None and not isinstance(g.rematch, str):
        raise bad("its rematch is not a text")
    if g.clock is not None and not isinstance(g.clock, str):
        raise bad("its clock is not a text")
    for s in seats:
        if not _is_int(s.seat):
            raise bad("a seat row's seat index is not a non-negative integer")
        where = f"seat {s.seat}"
        if s.kind not in SEAT_KINDS:
            raise bad(f"{where}: its kind is not human or bot")
        if s.kind == "bot" and (not isinstance(s.bot, str) or not s.bot):
            raise bad(f"{where}: a bot seat without a bot spec")
        if s.bot is not None and not isinstance(s.bot, str):
            raise bad(f"{where}: its bot spec is not a text")
        if not isinstance(s.name, str):
            raise bad(f"{where}: its name is not a text")
        if s.token_hash is not None and not isinstance(s.token_hash, str):
            raise bad(f"{where}: its token hash is not a text")
    for i, (player, action) in enumerate(acts):
        if not _is_int(player, -4) or not isinstance(action, str):
            raise bad(f"action #{i} has a bad player or action column")


def _json_field(text: str | None, column: str, game_id: str) -> dict[str, Any] | None:
    """The JSON object stored as ``text`` (None stays None).

    Raises:
        BadRowError: not valid JSON, or not an object.
    """
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        raise BadRowError(f"game {game_id}: its {column} is not valid JSON") from None
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRowError(f"game {game_id}: its {column} is not a JSON object")
    return value


def _table_of(text: Any, game_id: str) -> dict[str, bool]:
    """The table's choices stored as ``text`` (NULL: a row of an older release, the
    defaults).

    Raises:
        BadRowError: not a JSON object of known names with true/false values.
    """
    out = dict(TABLE_DEFAULTS)
    if text is None:
        return out
    if not isinstance(text, str):
        raise BadRowError(f"game {game_id}: its table_options is not a text")
    value = _json_field(text, "table_options", game_id) or {}
    for key, flag in value.items():
        if key not in TABLE_DEFAULTS or not isinstance(flag, bool):
            raise BadRowError(f"game {game_id}: its table_options holds an unknown choice")
        out[key] = flag
    return out


def _seed_of(seed_text: str | None, legacy: int, game_id: str) -> int:
    if seed_text is None:
        return legacy
    try:
        return int(seed_text)
    except ValueError:
        raise BadRowError(f"game {game_id}: its seed is not a number") from None


def _sqlite_text(raw: bytes) -> str | bytes:
    """SQLite's text values as ``str``; bytes that are not UTF-8 (a damaged or hand-edited
    file) stay ``bytes``, so that the row checks report that column of that game as not a
    text, as they do a BLOB, instead of the whole query failing with an error that quotes
    the value (an action's text may name hidden cards)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.text_factory = _sqlite_text
    cur = dbapi_conn.cursor()
    try:
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA wal_autocheckpoint=0")  # see Storage.checkpoint
        cur.execute("PRAGMA foreign_keys=ON")
    finally:
        cur.close()
