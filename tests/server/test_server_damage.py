"""Issue 13, item 7: one damaged game never stops the server, and a damaged database file
is refused at start-up with what to do, and left untouched."""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from porphyra.server.dbfile import DatabaseFileError
from porphyra.server.storage import GameRow, SeatRow, Storage, now

from .driver import play_out
from .live import LiveServer, connect_seats

HUMANS = {"game": "byzantium", "seats": [{"kind": "human"}] * 2}


def _fill(path: Path, games: int) -> list[str]:
    """A database file with ``games`` Byzantium games (human and easy bot)."""
    storage = Storage(f"sqlite:///{path}")
    ids = []
    for i in range(games):
        stamp = now()
        gid = f"game{i:04d}"
        storage.create_game(
            GameRow(
                gid,
                "byzantium",
                "1",
                {},
                1000 + i,
                "active",
                0,
                stamp,
                stamp,
                seats=[SeatRow(0, "human", None, "A"), SeatRow(1, "human", None, "B")],
            )
        )
        ids.append(gid)
    storage.checkpoint()
    storage.close()
    return ids


def test_bad_rows_mark_only_their_game_broken(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    ids = _fill(path, 4)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET options = '{not json' WHERE id = ?", (ids[0],))
    conn.execute("UPDATE games SET result = '[1, 2' WHERE id = ?", (ids[1],))
    conn.execute("DELETE FROM seats WHERE game_id = ? AND seat = 1", (ids[2],))
    conn.commit()
    conn.close()
    live = LiveServer(f"sqlite:///{path}").start()
    try:
        listed = {g["id"]: g for g in live.get("/api/games").json()}
        assert listed[ids[0]]["status"] == "broken" and "options" in listed[ids[0]]["problem"]
        assert listed[ids[1]]["status"] == "broken" and "result" in listed[ids[1]]["problem"]
        # The missing seat row is reported, not left unfinishable.
        assert listed[ids[2]]["status"] == "broken"
        assert "seat 1 has no seat row" in listed[ids[2]]["problem"]
        for gid in ids[:3]:
            assert live.get(f"/api/games/{gid}").status_code == 404
        # The healthy game and new games play on.
        assert listed[ids[3]]["status"] == "active"
        fresh = live.create(HUMANS)
        play_out(connect_seats(live, fresh), random.Random(1))
    finally:
        live.stop()


def _refused(path: Path) -> str:
    before = path.read_bytes()
    with pytest.raises(DatabaseFileError) as caught:
        Storage(f"sqlite:///{path}")
    assert path.read_bytes() == before, "the damaged file was changed"
    assert "Nothing was changed" in str(caught.value)
    return str(caught.value)


def test_an_empty_database_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.touch()
    assert "empty (0 bytes)" in _refused(path)
    # The command says it too, and exits without serving.
    run = subprocess.run(
        [sys.executable, "-m", "porphyra.server", "--db", f"sqlite:///{path}", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode != 0 and "empty (0 bytes)" in run.stderr
    assert "Traceback" not in run.stderr
    assert path.stat().st_size == 0


def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"PK\x03\x04 a zip file, not a database" * 10)
    assert "not an SQLite database" in _refused(path)


@pytest.mark.parametrize("damage", ["zeroed page", "truncated"])
def test_a_damaged_database_file_is_refused(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "games.sqlite3"
    _fill(path, 300)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 8 * page
    if damage == "zeroed page":
        data[3 * page : 4 * page] = bytes(page)
    else:
        data = data[: len(data) // 2]
    path.write_bytes(bytes(data))
    assert "damaged" in _refused(path)
