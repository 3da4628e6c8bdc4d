"""The health of an SQLite database file, checked before the server uses it (issue 13,
item 7): SQLite would silently take an empty file as a new database, and a damaged one
fails only when a damaged page is read."""

from __future__ import annotations

import sqlite3
import struct
from pathlib import Path
from typing import Any


class DatabaseFileError(RuntimeError):
    """The database file is not a usable SQLite database (empty, not SQLite, damaged).
    The message says what was found and what to do; nothing was changed."""


SQLITE_HEADER = b"SQLite format 3\x00"
#: The two magic numbers of a write-ahead log header (the last bit: checksum byte order).
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER = 32
WAL_FRAME_HEADER = 24


def _checksum(data: bytes, order: str, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum of ``data`` (a multiple of 8 bytes) from ``(s0, s1)``."""
    words = struct.unpack(f"{order}{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def wal_damage(wal: Path) -> str | None:
    """Why the write-ahead log ``wal`` would silently lose committed transactions, or
    None.  SQLite reads a log up to its first frame whose salt or checksum is wrong and
    takes that as the end; after a crash only a torn last frame ends it early.  A bad
    frame followed by further frames of the same log generation (same salts) is damage:
    the commits in those frames, already acknowledged, would be lost without a word.
    Reads only; a missing or empty log: None.  (A damaged frame in the last transaction
    cannot be told from a torn write, so it is not detected.)

    Returns:
        None, or what was found, e.g. ``"frame 12 of 40 is damaged"``.
    """
    try:
        data = wal.read_bytes()
    except FileNotFoundError:
        return None
    if len(data) < WAL_HEADER:
        return None
    magic, _version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:32])
    if magic not in WAL_MAGIC:
        return "its header is damaged (not a write-ahead log header)"
    order = ">" if magic & 1 else "<"
    if _checksum(data[:24], order, 0, 0) != (c0, c1):
        return "its header is damaged (wrong checksum)"
    frame = WAL_FRAME_HEADER + page_size
    frames = (len(data) - WAL_HEADER) // frame
    s0, s1 = c0, c1
    for n in range(frames):
        at = WAL_HEADER + n * frame
        head = data[at : at + WAL_FRAME_HEADER]
        _page, _commit, f1, f2, h0, h1 = struct.unpack(">6I", head)
        if (f1, f2) == (salt1, salt2):
            s0, s1 = _checksum(head[:8], order, s0, s1)
            s0, s1 = _checksum(data[at + WAL_FRAME_HEADER : at + frame], order, s0, s1)
            if (s0, s1) == (h0, h1):
                continue
        # The end of the log as SQLite reads it: later frames of this generation?
        later = sum(
            1
            for m in range(n + 1, frames)
            if struct.unpack(">2I", data[WAL_HEADER + m * frame + 8 : WAL_HEADER + m * frame + 16])
            == (salt1, salt2)
        )
        if later:
            return f"frame {n + 1} of {frames} is damaged, and {later} later frame(s) would be lost"
        return None
    return None


def check_sqlite_file(url: str) -> None:
    """Refuse an SQLite database file that exists but is not a healthy database: empty
    (0 bytes: SQLite would silently use it as a new, empty database), not SQLite, or
    failing ``PRAGMA quick_check`` (a zeroed page, a truncated file), or whose write-ahead
    log is damaged before its end (:func:`wal_damage`).  Opens the file
    read-only and changes nothing.  Other URLs and files that do not exist yet: nothing.

    Raises:
        DatabaseFileError: what is wrong, and what to do.
    """
    if not url.startswith("sqlite:///") or url == "sqlite:///:memory:":
        return
    path = Path(url.removeprefix("sqlite:///").split("?", 1)[0])
    if not path.exists():
        return
    advice = (
        f"Nothing was changed. Restore {path} from a backup, or move it away to start with "
        "a new, empty database (its games would be lost)."
    )
    with path.open("rb") as f:
        header = f.read(len(SQLITE_HEADER))
    if not header:
        raise DatabaseFileError(f"the database file {path} is empty (0 bytes). {advice}")
    if header != SQLITE_HEADER:
        raise DatabaseFileError(f"{path} is not an SQLite database. {advice}")
    wal = path.with_name(path.name + "-wal")
    damage = wal_damage(wal)  # before any connection: SQLite would drop the frames
    if damage is not None:
        raise DatabaseFileError(
            f"the write-ahead log {wal} is damaged ({damage}): opening the database would "
            f"silently lose the moves stored after the damage. Nothing was changed. Restore "
            f"{path} and {wal} from a backup, or move {wal} away to keep only what was "
            "copied into the database file before (every move in the log would be lost)."
        )
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            problems = [r[0] for r in conn.execute("PRAGMA quick_check(5)").fetchall()]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise DatabaseFileError(f"the database file {path} is damaged ({exc}). {advice}") from None
    if problems != ["ok"]:
        found = "; ".join(problems)
        raise DatabaseFileError(f"the database file {path} is damaged ({found}). {advice}")


def check_reachable(url: str, timeout_s: int = 10) -> None:
    """Connect once to the database server of SQLAlchemy ``url`` before the server starts,
    so that a wrong URL, a missing driver or a database that does not answer is one clear
    line instead of a traceback and "Application startup failed" (SQLite: nothing to do).

    Raises:
        DatabaseFileError: the URL is not a database URL, its driver is not installed, or
            the database does not answer in ``timeout_s`` seconds (the message names the
            database without its password, and what to do).
    """
    from sqlalchemy import create_engine
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    try:
        parsed = make_url(url)
    except ArgumentError:
        raise DatabaseFileError("--db is not a database URL (e.g. sqlite:///file)") from None
    if parsed.get_backend_name() == "sqlite":
        return  # (no server to reach; a file is checked by check_sqlite_file, and
        # connecting would create an empty one)
    shown = parsed.render_as_string(hide_password=True)
    args = {"connect_timeout": timeout_s} if parsed.get_backend_name() == "postgresql" else {}
    try:
        engine = create_engine(parsed, connect_args=args)
    except (ModuleNotFoundError, ImportError) as exc:
        raise DatabaseFileError(
            f"no driver for {shown}: {exc.name or exc} is not installed "
            "(PostgreSQL: pip install '.[postgresql]')"
        ) from None
    except ArgumentError as exc:
        raise DatabaseFileError(f"cannot use {shown}: {exc}") from None
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()[0]
        raise DatabaseFileError(
            f"cannot reach the database {shown}: {reason}. Is it running, and are the "
            "address, user and password right?"
        ) from None
    finally:
        engine.dispose()


def _sqlite_text(raw: bytes) -> str | bytes:
    """SQLite's text values as ``str``; bytes that are not UTF-8 (a damaged or hand-edited
    file) stay ``bytes``, so that the row checks report that column of that game as not a
    text, as they do a BLOB, instead of the whole query failing with an error that quotes
    the value (an action's text may name hidden cards)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    """The settings of each new SQLite connection of :class:`~porphyra.server.storage.Storage`
    (an SQLAlchemy ``connect`` listener): WAL journal, no automatic checkpoints, foreign
    keys, and text read by :func:`_sqlite_text`."""
    dbapi_conn.text_factory = _sqlite_text
    cur = dbapi_conn.cursor()
    try:
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA wal_autocheckpoint=0")  # see Storage.checkpoint
        cur.execute("PRAGMA foreign_keys=ON")
    finally:
        cur.close()
