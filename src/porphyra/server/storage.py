"""Durable storage of web games with SQLAlchemy 2 (Core): a game is its record plus seats.

The tables are in :mod:`porphyra.server.schema`, the stored rows and their checks in
:mod:`porphyra.server.rows`, the statements of storing actions and the fence of a cluster
server's writes in :mod:`porphyra.server.writes`.

The seed is stored but never leaves the server while a game is running (it determines every
hidden card).  Any SQLAlchemy URL works; the default is an SQLite file in the data
directory (WAL journal, so a commit survives a process crash).  All methods are
synchronous and thread-safe; the server calls them from one dedicated worker thread.
"""

from __future__ import annotations

import contextlib
import json
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Engine,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.pool import StaticPool

from porphyra.server.dbfile import check_sqlite_file, sqlite_pragmas
from porphyra.server.rows import (
    DEAL_LEGACY,
    STATUSES,
    BadRowError,
    GameRow,
    SeatRow,
    check_row,
    hash_token,
    is_int,
    json_field,
    now,
    seed_of,
    table_of,
)
from porphyra.server.schema import (
    GAME_COLUMNS,
    RAW_OPTIONS,
    RAW_RESULT,
    actions_table,
    add_missing_columns,
    chat_table,
    games_table,
    metadata,
    seats_table,
    server_table,
)
from porphyra.server.writes import (
    SQL,
    STATEMENTS,
    Fence,
    append_steps,
    fence_conn,
    fence_one,
    fence_rows,
    json_text,
)

#: The writer's seat stored for a spectator's chat line.
SPECTATOR_SEAT = -1


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
            event.listen(self.engine, "connect", sqlite_pragmas)
        self._lock = threading.Lock()
        #: An SQLite file: moves are stored on one DBAPI connection kept for it.
        self._direct = sqlite and url not in ("sqlite://", "sqlite:///:memory:")
        self._raw: Any = None
        metadata.create_all(self.engine)
        add_missing_columns(self.engine)

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
                    creator_id=row.creator,
                    rated_wish=int(row.rated),
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
                        open_to=s.open_to,
                    )
                )
            for i, a in enumerate(row.actions):
                conn.execute(
                    insert(actions_table).values(
                        game_id=row.id, idx=i, player=a["player"], action=a["action"]
                    )
                )

    def append_actions(self, batch: list[dict[str, Any]], fence: Fence | None = None) -> None:
        """Group commit: store every entry of ``batch`` in one transaction (all or none),
        as plain statements (``text()`` with named parameters: portable, and half the cost
        of Core constructs; on an SQLite file, on one DBAPI connection kept for this).

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
        steps = append_steps(batch, now(), fence)
        with self._lock:
            if self._direct:
                self._run_direct(steps)
                return
            with self.engine.begin() as conn:
                for statement, params in steps:
                    if statement == "own":
                        fence_conn(conn, params)
                    else:
                        conn.execute(STATEMENTS[statement], params)

    def _run_direct(self, steps: list[tuple[str, list[dict[str, Any]]]]) -> None:
        """Run ``steps`` of :func:`append_steps` in one transaction on the kept SQLite
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
                        fence_rows(params, lambda p: cursor.execute(SQL["own"], p).rowcount)
                        continue
                    if statement == "update":  # (the result as JSON text)
                        params = [{**p, "r": json_text(p["r"])} for p in params]
                    cursor.executemany(SQL[statement], params)
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
            fence_one(conn, game_id, fence)
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
            fence_one(conn, game_id, fence)
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
            fence_one(conn, game_id, fence)
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
            fence_one(conn, game_id, fence)
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
            if is_int(r.idx)
            and is_int(r.seat, SPECTATOR_SEAT)
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
            g = conn.execute(select(*GAME_COLUMNS).where(games_table.c.id == game_id)).first()
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
        check_row(g, seats, acts)
        return GameRow(
            id=g.id,
            game=g.game,
            version=g.version,
            options=json_field(g.options, "options", g.id) or {},
            seed=seed_of(g.seed_text, g.seed, g.id),
            deal=g.deal or DEAL_LEGACY,
            table=table_of(g.table_options, g.id),
            rematch=g.rematch,
            clock=g.clock,
            creator=g.creator_id,
            rated=bool(g.rated_wish),
            status=g.status,
            seq=g.seq,
            created=g.created,
            updated=g.updated,
            result=json_field(g.result, "result", g.id),
            actions=[{"player": p, "action": a} for p, a in acts],
            seats=[SeatRow(s.seat, s.kind, s.bot, s.name, s.token_hash, s.open_to) for s in seats],
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
                    RAW_OPTIONS,
                    games_table.c.status,
                    RAW_RESULT,
                    games_table.c.deal,
                    games_table.c.rated_wish,
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
                "rated": g.rated_wish == 1,
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
                row["options"] = json_field(g.options, "options", g.id) or {}
                row["result"] = json_field(g.result, "result", g.id)
            except BadRowError as exc:  # listed as broken; the other games are fine
                # ``damage`` is for the server log only (see Hub.mark_broken).
                row.update(options={}, result=None, status="broken", damage=str(exc))
            out.append(row)
        return out
