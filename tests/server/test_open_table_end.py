"""Issue 32 §7: an open table ends without starting when its creator cancels it while a
seat is still open, or when nobody fills it within ``open_table_expiry_s``; on SQLite and
PostgreSQL (``db_url``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update

from porphyra.server.app import create_app
from porphyra.server.deps import hub_of
from porphyra.server.schema import games_table

from .accounts import NO_LIMITS, account

OPEN_TABLE = {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "open"}]}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    app = create_app(db_url=db_url, bot_workers=0, bot_pace=0.0, **NO_LIMITS)
    with TestClient(app) as c:
        yield c


def _listed(c: TestClient, who: dict[str, str] | None = None) -> list[str]:
    return [t["id"] for t in c.get("/api/tables", headers=who or {}).json()["tables"]]


def _open(c: TestClient, who: dict[str, str]) -> dict[str, Any]:
    r = c.post("/api/games", json=OPEN_TABLE, headers=who)
    assert r.status_code == 201, r.text
    game: dict[str, Any] = r.json()
    return game


def test_the_creator_cancels_an_open_table(client: TestClient) -> None:
    alice, bob = account(client, "Alice"), account(client, "Bob")
    gid = _open(client, alice)["id"]
    (table,) = client.get("/api/tables", headers=alice).json()["tables"]
    assert table["mine"] is True
    assert client.get("/api/tables", headers=bob).json()["tables"][0]["mine"] is False
    # Only the creator may cancel; a guest is told to sign in.
    assert client.delete(f"/api/games/{gid}/open").status_code == 401
    refused = client.delete(f"/api/games/{gid}/open", headers={**bob, "accept-language": "ja"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "このテーブルを取り消せるのは、開いたプレイヤーだけです"
    assert _listed(client) == [gid]
    done = client.delete(f"/api/games/{gid}/open", headers=alice)
    assert done.status_code == 200, done.text
    assert done.json() == {"game": gid, "closed": [1]}
    assert _listed(client) == []
    taken = client.post(f"/api/games/{gid}/seats/1", headers=bob)
    assert taken.status_code == 409
    info = client.get(f"/api/games/{gid}").json()
    assert [s["open"] for s in info["seats"]] == [None, "closed"]
    assert client.delete(f"/api/games/{gid}/open", headers=alice).status_code == 409
    assert client.delete("/api/games/nosuchgame/open", headers=alice).status_code == 404


def test_a_started_table_cannot_be_cancelled(client: TestClient) -> None:
    alice, bob = account(client, "Alice"), account(client, "Bob")
    gid = _open(client, alice)["id"]
    assert client.post(f"/api/games/{gid}/seats/1", headers=bob).status_code == 200
    assert client.delete(f"/api/games/{gid}/open", headers=alice).status_code == 409
    assert [s["open"] for s in client.get(f"/api/games/{gid}").json()["seats"]] == [None, None]


def test_an_open_table_nobody_joins_expires(db_url: str, client: TestClient) -> None:
    alice, bob = account(client, "Alice"), account(client, "Bob")
    old, fresh = _open(client, alice)["id"], _open(client, alice)["id"]
    assert sorted(_listed(client)) == sorted([old, fresh])
    day_and_more = dt.datetime.now(dt.UTC) - dt.timedelta(hours=24, minutes=1)
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                update(games_table)
                .where(games_table.c.id == old)
                .values(created=day_and_more.isoformat(timespec="seconds"))
            )
    finally:
        engine.dispose()
    assert _listed(client) == [fresh]
    assert client.post(f"/api/games/{old}/seats/1", headers=bob).status_code == 409
    assert client.post(f"/api/games/{fresh}/seats/1", headers=bob).status_code == 200


def test_without_an_expiry_an_open_table_stays(db_url: str) -> None:
    app = create_app(
        db_url=db_url, bot_workers=0, bot_pace=0.0, open_table_expiry_s=None, **NO_LIMITS
    )
    with TestClient(app) as c:
        alice = account(c, "Alice")
        gid = _open(c, alice)["id"]
        engine = create_engine(db_url)
        try:
            with engine.begin() as conn:
                conn.execute(
                    update(games_table)
                    .where(games_table.c.id == gid)
                    .values(created="2001-01-01T00:00:00+00:00")
                )
        finally:
            engine.dispose()
        assert _listed(c) == [gid]


def test_a_restarted_server_leaves_tables_waiting_for_a_seat_unloaded(db_url: str) -> None:
    """Nothing happens at an open, cancelled or expired table until a seat is taken, so a
    server starting up does not replay them (``tables_waiting``); a game under way with a
    clock is loaded (``server/startup.py``), and an open table loads once someone takes its
    seat."""
    with TestClient(create_app(db_url=db_url, bot_workers=0, bot_pace=0.0, **NO_LIMITS)) as c:
        alice, bob = account(c, "Alice"), account(c, "Bob")
        waiting, cancelled = (_open(c, alice)["id"] for _ in range(2))
        timed = {**OPEN_TABLE, "clock": {"kind": "turn", "per_move_s": 3600}}
        started = c.post("/api/games", json=timed, headers=alice).json()["id"]
        assert c.delete(f"/api/games/{cancelled}/open", headers=alice).status_code == 200
        assert c.post(f"/api/games/{started}/seats/1", headers=bob).status_code == 200
    app = create_app(db_url=db_url, bot_workers=0, bot_pace=0.0, **NO_LIMITS)
    with TestClient(app) as c:
        hub = hub_of(app)
        assert set(hub.runners) == {started}
        assert c.get(f"/api/games/{cancelled}").json()["seats"][1]["open"] == "closed"
        taken = c.post(f"/api/games/{waiting}/seats/1", headers=bob)
        assert taken.status_code == 200, taken.text
        assert waiting in hub.runners and not hub.runners[waiting].seats_open()


def test_a_table_that_ended_without_starting_is_listed_no_more(
    db_url: str, client: TestClient
) -> None:
    """A cancelled or expired table never started: it leaves the creator's games (the
    account's and the browser's) and the profile's games in progress; a table still
    waiting for its players stays."""
    alice = account(client, "Alice")
    waiting, cancelled, expired = (_open(client, alice) for _ in range(3))
    assert client.delete(f"/api/games/{cancelled['id']}/open", headers=alice).status_code == 200
    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                update(games_table)
                .where(games_table.c.id == expired["id"])
                .values(created="2001-01-01T00:00:00+00:00")
            )
    finally:
        engine.dispose()
    assert [g["id"] for g in client.get("/api/me/games", headers=alice).json()] == [waiting["id"]]
    held = [
        {"game": g["id"], "token": g["invites"][0]["token"]} for g in (waiting, cancelled, expired)
    ]
    listed = client.post("/api/mine", json={"seats": held}).json()
    assert [(g["id"], g["status"]) for g in listed] == [(waiting["id"], "active")]
    assert client.get("/api/players/Alice").json()["games"]["playing"] == 1
