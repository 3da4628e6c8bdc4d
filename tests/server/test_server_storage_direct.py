"""Storing moves on an SQLite file through the kept DBAPI connection (the server's hot
path) writes exactly what the SQLAlchemy path writes, and a failed write stores nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from porphyra.server.rows import GameRow, SeatRow, now
from porphyra.server.storage import Storage

#: Batches covering an insert, a suffix rewrite (B-R3) and a game's end with a result.
BATCHES: list[list[dict[str, Any]]] = [
    [{"game_id": "g1", "index": 0, "actions": [(0, "redraw -")], "seq": 1}],
    [
        {"game_id": "g1", "index": 1, "actions": [(1, "meld infantry")], "seq": 2},
        {
            "game_id": "g1",
            "index": 1,
            "actions": [(0, "meld -"), (1, "meld infantry")],
            "replace": True,
            "seq": 3,
        },
    ],
    [
        {
            "game_id": "g1",
            "index": 3,
            "actions": [(0, "end")],
            "seq": 4,
            "status": "over",
            "result": {"winner": 0, "scores": [3, 1], "reason": "ageing «ü»"},
        }
    ],
]


def _new(url: str) -> Storage:
    storage = Storage(url)
    stamp = now()
    storage.create_game(
        GameRow(
            id="g1",
            game="byzantium",
            version="1",
            options={},
            seed=5,
            status="active",
            seq=0,
            created=stamp,
            updated=stamp,
            seats=[SeatRow(0, "human", None, "A"), SeatRow(1, "human", None, "B")],
        )
    )
    return storage


def _store(storage: Storage) -> None:
    for batch in BATCHES:
        storage.append_actions([{"status": "active", "result": None, **entry} for entry in batch])


def _rows(url: str) -> tuple[list[Any], list[Any]]:
    """``(actions rows, games rows without the time stamps)`` as stored."""
    engine = create_engine(url)
    with engine.connect() as conn:
        actions = conn.execute(text("SELECT * FROM actions ORDER BY idx")).all()
        games = conn.execute(text("SELECT id, status, seq, result FROM games")).all()
    engine.dispose()
    return [tuple(r) for r in actions], [tuple(r) for r in games]


def test_direct_sqlite_writes_the_same_rows_as_sqlalchemy(tmp_path: Path) -> None:
    direct_url = f"sqlite:///{tmp_path / 'direct.sqlite3'}"
    generic_url = f"sqlite:///{tmp_path / 'generic.sqlite3'}"
    direct, generic = _new(direct_url), _new(generic_url)
    assert direct._direct
    generic._direct = False  # the path of every other database
    _store(direct)
    _store(generic)
    direct.close()
    generic.close()
    assert _rows(direct_url) == _rows(generic_url)
    actions, games = _rows(direct_url)
    assert [g[1:3] for g in games] == [("over", 4)]
    assert [a[1:] for a in actions] == [
        (0, 0, "redraw -"),
        (1, 0, "meld -"),
        (2, 1, "meld infantry"),
        (3, 0, "end"),
    ]
    row = Storage(direct_url).load("g1")
    assert row is not None and row.status == "over" and row.result == BATCHES[2][0]["result"]


def test_a_failed_direct_write_stores_nothing_and_the_next_one_lands(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    storage = _new(url)
    _store(storage)
    entry = {"game_id": "g1", "status": "active", "result": None, "seq": 9}
    bad = [
        {**entry, "index": 4, "actions": [(1, "pass")]},
        {**entry, "index": 0, "actions": [(1, "again")]},  # index 0 is stored: refused
    ]
    with pytest.raises(Exception, match="UNIQUE"):
        storage.append_actions(bad)
    row = storage.load("g1")
    assert row is not None and (row.seq, len(row.actions)) == (4, 4)  # all or nothing
    storage.append_actions([{**entry, "index": 4, "actions": [(1, "pass")], "seq": 5}])
    row = storage.load("g1")
    assert row is not None and row.seq == 5 and row.actions[-1] == {"player": 1, "action": "pass"}
    storage.close()


def test_an_active_games_result_is_stored_as_sqlalchemy_stores_none(tmp_path: Path) -> None:
    # The direct path writes "null" itself for every move but a game's last.
    direct_url = f"sqlite:///{tmp_path / 'direct.sqlite3'}"
    generic_url = f"sqlite:///{tmp_path / 'generic.sqlite3'}"
    direct, generic = _new(direct_url), _new(generic_url)
    generic._direct = False
    for storage in (direct, generic):
        storage.append_actions([{"status": "active", "result": None, **BATCHES[0][0]}])
        storage.close()
    assert _rows(direct_url) == _rows(generic_url)
    row = Storage(direct_url).load("g1")
    assert row is not None and row.result is None and row.seq == 1


def test_the_hub_stores_a_lone_sqlite_move_before_it_returns(tmp_path: Path) -> None:
    # With nothing else waiting, store_action writes at once (no writer task); a failed
    # write raises to the mover and stores nothing.
    import asyncio

    from porphyra.server.hub import Hub

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    storage = _new(url)
    hub = Hub(storage)
    entry = {"game_id": "g1", "status": "active", "result": None}

    async def run() -> None:
        await hub.store_action({**entry, "index": 0, "actions": [(0, "redraw -")], "seq": 1})
        assert hub._writer is None  # (written inline: the writer task never started)
        row = storage.load("g1")
        assert row is not None and row.seq == 1 and len(row.actions) == 1
        with pytest.raises(Exception, match="UNIQUE"):
            await hub.store_action({**entry, "index": 0, "actions": [(1, "again")], "seq": 2})
        row = storage.load("g1")
        assert row is not None and row.seq == 1 and len(row.actions) == 1
        await hub.stop()

    asyncio.run(run())
