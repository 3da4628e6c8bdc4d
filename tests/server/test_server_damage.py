"""Issue 13, item 7: one damaged game never stops the server, and a damaged database file
is refused at start-up with what to do, and left untouched."""

from __future__ import annotations

import json
import random
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy.exc import DatabaseError
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from porphyra.server.dbfile import DatabaseFileError, check_sqlite_file, wal_damage
from porphyra.server.rows import GameRow, SeatRow, now
from porphyra.server.storage import Storage

from .driver import play_out
from .live import LiveServer, SeatClient, connect_seats

HUMANS = {"game": "byzantium", "seats": [{"kind": "human"}] * 2}


#: A stored clock of a 2-seat table with one event; "AT" stands for its "at" list.
CLOCK_AT = (
    '{"settings": {"kind": "none", "timeout_bot": "easy", "takeover_after": 0}, "seats": ['
    '{"remaining_s": 0.0, "since": null, "timeouts": 0, "takeover": "left", "paused": false}, '
    '{"remaining_s": 0.0, "since": null, "timeouts": 0, "takeover": null, "paused": false}], '
    '"events": [{"event": "takeover", "player": 0, "move": 0, "reason": "left", "bot": "easy", '
    '"at": AT}], "epoch": null}'
)


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


@pytest.mark.live
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
        # A damaged row is listed as broken at once; these games (people only, no clock)
        # rest until opened (server/startup.py), and opening one finds a missing seat row.
        listed = {g["id"]: g for g in live.get("/api/games").json()}
        for gid in ids[:2]:
            assert listed[gid]["status"] == "broken" and "error id" in listed[gid]["problem"]
        for gid in ids[:3]:
            assert live.get(f"/api/games/{gid}").status_code == 410
        # The missing seat row is reported, not left unfinishable.
        listed = {g["id"]: g for g in live.get("/api/games").json()}
        for gid in ids[:3]:
            assert listed[gid]["status"] == "broken" and "error id" in listed[gid]["problem"]
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


@pytest.mark.live
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


def _broken_after_loading(live: LiveServer, gid: str) -> str:
    """Open ``gid`` (its links answer 410, the game is damaged) and return its public
    problem in the lobby list."""
    opened = live.get(f"/api/games/{gid}")
    assert opened.status_code == 410, opened.text
    assert "damaged" in opened.json()["detail"] and "lobby" in opened.json()["detail"]
    listed = {g["id"]: g for g in live.get("/api/games").json()}
    assert listed[gid]["status"] == "broken"
    problem: str = listed[gid]["problem"]
    assert re.search(r"error id [0-9a-f]{8}", problem), problem
    return problem


@pytest.mark.live
def test_a_database_error_on_load_is_not_public_and_not_for_good(db_url: str) -> None:
    live = LiveServer(db_url).start()
    try:
        gid = live.create(HUMANS)["id"]
        hub = live.app.state.hub
        real = hub.storage.load

        def failing(game_id: str) -> None:
            raise DatabaseError("SELECT games.secret FROM games", {"id": game_id}, Exception("x"))

        hub.storage.load = failing
        hub.runners.pop(gid)
        answer = live.get(f"/api/games/{gid}")
        assert answer.status_code == 500 and "SELECT" not in answer.text
        assert "error id" in answer.json()["detail"]
        listed = live.get("/api/games").text
        assert "SELECT" not in listed and "[SQL" not in listed and gid not in hub.broken
        hub.storage.load = real  # the database is back: the game opens again
        assert live.get(f"/api/games/{gid}").json()["status"] == "active"
    finally:
        live.stop()


@pytest.mark.live
def test_a_bad_action_row_is_not_quoted_publicly(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    ids = _fill(path, 2)
    conn = sqlite3.connect(path)
    conn.execute(
        "INSERT INTO actions (game_id, idx, player, action) VALUES (?, 0, 0, ?)",
        (ids[0], "redraw SECRET-CARD-TEXT"),
    )
    conn.commit()
    conn.close()
    live = LiveServer(f"sqlite:///{path}").start()
    try:
        problem = _broken_after_loading(live, ids[0])
        assert "SECRET" not in problem and "SECRET" not in live.get("/api/games").text
        assert live.get(f"/api/games/{ids[1]}").status_code == 200
    finally:
        live.stop()


@pytest.mark.live
@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE games SET seq = 'x' WHERE id = :g",
        "UPDATE games SET seq = -5 WHERE id = :g",
        "UPDATE games SET status = 'weird' WHERE id = :g",
        "UPDATE games SET deal = 'odd' WHERE id = :g",
        "UPDATE games SET version = 7 WHERE id = :g",
        "UPDATE seats SET kind = 'alien' WHERE game_id = :g AND seat = 0",
        "UPDATE seats SET seat = 'z' WHERE game_id = :g AND seat = 0",
        "UPDATE seats SET name = x'00ff' WHERE game_id = :g AND seat = 1",
        # Text that is not UTF-8 (as a torn or bit-flipped page leaves it), and BLOBs, in
        # the columns the lobby list shows: the list must still answer for every game.
        "UPDATE games SET updated = x'ff00' WHERE id = :g",
        "UPDATE games SET updated = CAST(x'ff00' AS TEXT) WHERE id = :g",
        "UPDATE games SET game = CAST(x'c3' AS TEXT) WHERE id = :g",
        "UPDATE games SET deal = x'ff' WHERE id = :g",
        "UPDATE games SET options = CAST(x'ff' AS TEXT) WHERE id = :g",
        "UPDATE games SET clock = CAST(x'ff' AS TEXT) WHERE id = :g",
        "UPDATE seats SET name = CAST(x'41ff' AS TEXT) WHERE game_id = :g AND seat = 1",
        "INSERT INTO actions (game_id, idx, player, action) VALUES (:g, 0, 0, CAST(x'c3' AS TEXT))",
        # A clock event whose "at" (where each view's log stood) is too short for the
        # table: it loaded, then every socket to the game failed building its view.
        f"UPDATE games SET clock = '{CLOCK_AT.replace('AT', '[0]')}' WHERE id = :g",
        # ... or a count beyond 64 bits: it read, but could never be stored again.
        f"UPDATE games SET clock = '{CLOCK_AT.replace('AT', str([2**70, 0, 0]))}' WHERE id = :g",
    ],
)
def test_every_bad_field_of_a_game_row_marks_only_that_game_broken(
    tmp_path: Path, damage: str
) -> None:
    path = tmp_path / "games.sqlite3"
    ids = _fill(path, 2)
    conn = sqlite3.connect(path)
    conn.execute(damage, {"g": ids[0]})
    conn.commit()
    conn.close()
    live = LiveServer(f"sqlite:///{path}").start()
    try:
        listed = live.get("/api/games")  # before the game is opened, and after
        assert listed.status_code == 200 and len(listed.json()) == 2, listed.text
        _broken_after_loading(live, ids[0])
        assert live.get(f"/api/games/{ids[1]}").json()["status"] == "active"
        fresh = live.create(HUMANS)
        play_out(connect_seats(live, fresh), random.Random(1))
    finally:
        live.stop()


@pytest.mark.live
@pytest.mark.parametrize("status", ["active", "over"])
def test_an_id_that_is_not_text_leaves_the_other_games_alone(tmp_path: Path, status: str) -> None:
    # The server did not start (an active game), or the lobby list answered 500 (a
    # finished one): such a row names no game anyone can ask for, and is left out.
    path = tmp_path / "games.sqlite3"
    ids = _fill(path, 2)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys=OFF")
    conn.execute(
        "UPDATE games SET status = ?, id = CAST(x'ff41' AS TEXT) WHERE id = ?", (status, ids[0])
    )
    conn.commit()
    conn.close()
    live = LiveServer(f"sqlite:///{path}").start()
    try:
        listed = live.get("/api/games")
        assert listed.status_code == 200 and [g["id"] for g in listed.json()] == [ids[1]]
        fresh = live.create(HUMANS)
        play_out(connect_seats(live, fresh), random.Random(1))
    finally:
        live.stop()


@pytest.mark.live
def test_a_damaged_game_link_says_so_on_the_websocket(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    ids = _fill(path, 1)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE games SET seq = 'x' WHERE id = ?", (ids[0],))
    conn.commit()
    conn.close()
    live = LiveServer(f"sqlite:///{path}").start()
    try:
        with connect(f"{live.ws_base}/ws/{ids[0]}", open_timeout=10) as ws:
            reply = json.loads(ws.recv(timeout=10))
            assert reply["code"] == "damaged" and "lobby" in reply["message"]
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4410
    finally:
        live.stop()


def _crashed_copy(tmp_path: Path, commits: int) -> Path:
    """A database file and its write-ahead log of ``commits`` small commits, copied while
    the writer still has them open (as a ``kill -9`` leaves them: nothing checkpointed)."""
    source = tmp_path / "live.sqlite3"
    conn = sqlite3.connect(source)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("CREATE TABLE moves (n INTEGER, text TEXT)")
    conn.commit()
    for n in range(commits):
        conn.execute("INSERT INTO moves VALUES (?, ?)", (n, "x" * 3000))
        conn.commit()
    path = tmp_path / "games.sqlite3"
    path.write_bytes(source.read_bytes())
    Path(f"{path}-wal").write_bytes(Path(f"{source}-wal").read_bytes())
    conn.close()
    return path


def test_a_crashed_write_ahead_log_is_accepted(tmp_path: Path) -> None:
    path = _crashed_copy(tmp_path, 40)
    assert wal_damage(Path(f"{path}-wal")) is None
    check_sqlite_file(f"sqlite:///{path}")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT count(*) FROM moves").fetchone() == (40,)


def test_a_damaged_write_ahead_log_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = _crashed_copy(tmp_path, 40)
    wal = Path(f"{path}-wal")
    data = bytearray(wal.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(range(64))
    wal.write_bytes(bytes(data))
    before = (path.read_bytes(), wal.read_bytes())
    assert "write-ahead log" in _refused(path) and "damaged" in _refused(path)
    assert (path.read_bytes(), wal.read_bytes()) == before


@pytest.mark.live
def test_a_socket_that_fails_after_opening_gives_its_slot_back(tmp_path: Path) -> None:
    """Whatever fails once a connection is counted (here: building its first view), the
    player gets the protocol's error with an error id, never a bare close, and the seat's
    and the address's connection slots are given back."""
    live = LiveServer(
        f"sqlite:///{tmp_path / 'games.sqlite3'}", max_seat_connections=2, max_client_connections=3
    ).start()
    try:
        info = live.create(HUMANS)
        gid, token = info["id"], info["invites"][0]["token"]
        runner = live.app.state.hub.runners[gid]
        real = runner.attach

        def failing(client: object) -> None:
            raise IndexError("SECRET detail of a view that cannot be built")

        runner.attach = failing
        for _ in range(5):  # more than either limit
            with connect(f"{live.ws_base}/ws/{gid}?token={token}", open_timeout=10) as ws:
                reply = json.loads(ws.recv(timeout=10))
                assert reply["code"] == "internal", reply
                assert "error id" in reply["message"] and "SECRET" not in reply["message"]
                with pytest.raises(ConnectionClosed) as closed:
                    ws.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1011
        runner.attach = real
        seat = SeatClient(live, gid, token, 0)
        assert seat.recv_until(lambda m: m["type"] == "snapshot")["legal"]
        seat.close()
    finally:
        live.stop()
