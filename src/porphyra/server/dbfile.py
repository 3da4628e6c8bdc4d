"""The health of an SQLite database file, checked before the server uses it (issue 13,
item 7): SQLite would silently take an empty file as a new database, and a damaged one
fails only when a damaged page is read."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class DatabaseFileError(RuntimeError):
    """The database file is not a usable SQLite database (empty, not SQLite, damaged).
    The message says what was found and what to do; nothing was changed."""


SQLITE_HEADER = b"SQLite format 3\x00"


def check_sqlite_file(url: str) -> None:
    """Refuse an SQLite database file that exists but is not a healthy database: empty
    (0 bytes: SQLite would silently use it as a new, empty database), not SQLite, or
    failing ``PRAGMA quick_check`` (a zeroed page, a truncated file).  Opens the file
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
