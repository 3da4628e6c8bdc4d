"""Issue 13, items 2 and 5: a database that fails a write.

The player gets a short "try again" message with an error id (the SQL, its parameters and
the database host only in the server log), nothing changes in memory or in the database,
and the game goes on as soon as the database takes writes again, with no gap in its
actions (it replays after a restart).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from porphyra.server.storage import Storage

from .live import LiveServer, connect_seats

SECRET_DETAILS = ("INSERT INTO actions", "10.9.8.7", "5432", "hunter2")


def _outage(*_args: Any, **_kwargs: Any) -> None:
    raise OperationalError(
        "INSERT INTO actions (game_id, idx, player, action) VALUES (:g, :i, :p, :a)",
        {"a": "hunter2"},
        Exception('connection to server at "10.9.8.7", port 5432 failed: AdminShutdown'),
    )


def _landed_then_broke(real: Callable[..., None]) -> Callable[..., None]:
    def write(self: Storage, batch: list[dict[str, Any]], *rest: Any) -> None:
        real(self, batch, *rest)
        _outage()

    return write


def _stored_actions(db_url: str, game_id: str) -> list[dict[str, Any]]:
    storage = Storage(db_url)
    try:
        row = storage.load(game_id)
        assert row is not None
        return row.actions
    finally:
        storage.close()


@pytest.mark.live
def test_a_failed_write_says_try_again_with_an_error_id_and_changes_nothing(
    server: LiveServer,
    db_url: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.ERROR, logger="porphyra.server")
    info = server.create({"game": "conspiracy", "seats": [{"kind": "human"}] * 2})
    clients = connect_seats(server, info, spectators=1)
    first = next(c[0] for seat, c in clients.items() if seat is not None and c[0].last["legal"])
    before = dict(first.last)
    real_append = Storage.append_actions
    real_load = Storage.load
    monkeypatch.setattr(Storage, "append_actions", _outage)
    monkeypatch.setattr(Storage, "load", _outage)  # the reload after the failure fails too
    first.act(before["legal"][0])
    err = first.recv_until(lambda m: m["type"] == "error")
    assert err["code"] == "unavailable" and "try again" in err["message"]
    for secret in SECRET_DETAILS:
        assert secret not in err["message"]
    error_id = re.search(r"error id ([0-9a-f]{8})", err["message"])
    assert error_id is not None
    logged = [r for r in caplog.records if error_id.group(1) in r.getMessage()]
    assert logged and "10.9.8.7" in logging.Formatter().format(logged[0])
    # Nothing changed: the same state for everyone, nothing stored.
    first.send({"type": "snapshot"})
    snap = first.recv_until(lambda m: m["type"] == "snapshot")
    assert (snap["seq"], snap["observation"], snap["legal"]) == (
        before["seq"],
        before["observation"],
        before["legal"],
    )
    assert server.get(f"/api/games/{info['id']}").json()["actions"] == 0
    # The database is back: the same move is taken, and stored as action #0.
    monkeypatch.setattr(Storage, "append_actions", real_append)
    monkeypatch.setattr(Storage, "load", real_load)
    first.act(before["legal"][0])
    done = first.recv_until(lambda m: m["type"] in ("error", "update"))
    assert done["type"] == "update" and done["last"] == before["legal"][0]
    assert _stored_actions(db_url, info["id"]) == [
        {"player": first.seat, "action": before["legal"][0]}
    ]
    for group in clients.values():
        for c in group:
            c.close()


@pytest.mark.live
def test_a_write_that_landed_before_the_connection_broke_is_taken_as_stored(
    server: LiveServer, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = server.create({"game": "conspiracy", "seats": [{"kind": "human"}] * 2})
    clients = connect_seats(server, info)
    first = next(c[0] for c in clients.values() if c[0].last["legal"])
    move = first.last["legal"][0]
    monkeypatch.setattr(Storage, "append_actions", _landed_then_broke(Storage.append_actions))
    first.act(move)
    assert first.recv_until(lambda m: m["type"] == "error")["code"] == "unavailable"
    monkeypatch.undo()
    # The stored game is the truth: everyone gets a snapshot with the move in it.
    assert any(m["type"] == "snapshot" and m["seq"] == 1 for m in first.messages)
    assert _stored_actions(db_url, info["id"]) == [{"player": first.seat, "action": move}]
    other = next(c[0] for c in clients.values() if c[0] is not first)
    other.recv_until(lambda m: m["type"] == "snapshot" and m["seq"] == 1)
    for group in clients.values():
        for c in group:
            c.close()


@pytest.mark.live
def test_a_failed_suffix_rewrite_changes_nothing_and_the_retry_lands(
    server: LiveServer, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Foe's redraw is stored first; the Emperor's, which the engine puts before it
    (B-R3), rewrites the stored suffix.  When that write fails, neither memory nor the
    database changes (the Foe's choice stays stored and pending); once the database is
    back the same choice lands and the record is in canonical order."""
    info = server.create(
        {
            "game": "byzantium",
            "options": {"first_emperor": 0},
            "seats": [{"kind": "human"}, {"kind": "human"}],
        }
    )
    clients = connect_seats(server, info)
    emperor, foe = clients[0][0], clients[1][0]
    seq = emperor.last["seq"]
    foe_choice = foe.last["legal"][-1]
    foe.act(foe_choice)
    foe.recv_until(lambda m: m["type"] == "update" and "last" in m)
    emperor_choice = emperor.last["legal"][0]
    before = dict(emperor.last)
    real_append = Storage.append_actions
    monkeypatch.setattr(Storage, "append_actions", _outage)
    emperor.act(emperor_choice, seq=seq)
    err = emperor.recv_until(lambda m: m["type"] == "error")
    assert err["code"] == "unavailable" and "try again" in err["message"]
    emperor.send({"type": "snapshot"})
    snap = emperor.recv_until(lambda m: m["type"] == "snapshot")
    assert (snap["observation"], snap["legal"]) == (before["observation"], before["legal"])
    assert _stored_actions(db_url, info["id"]) == [{"player": 1, "action": foe_choice}]
    monkeypatch.setattr(Storage, "append_actions", real_append)
    emperor.act(emperor_choice, seq=snap["seq"])
    done = emperor.recv_until(
        lambda m: m["type"] == "error" or (m["type"] == "update" and "last" in m)
    )
    assert done["type"] == "update" and done["observation"]["phase"] == "meld"
    assert _stored_actions(db_url, info["id"]) == [
        {"player": 0, "action": emperor_choice},
        {"player": 1, "action": foe_choice},
    ]
    for c in (emperor, foe):
        c.close()
