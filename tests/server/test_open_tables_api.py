"""Issue 32 §2, §6, §7: open tables, taking a seat and invitations through the HTTP API,
on SQLite and PostgreSQL (``db_url``): the game waits for its open seats, one of two takes
at the same moment wins, an account sits once per table, invitations are kept for their
account, refusals are 4xx in the client's language, and the limits hold."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from porphyra.server.app import create_app
from porphyra.server.storage import Storage

from .accounts import NO_LIMITS, account, at_once, seat_accounts

OPEN_TABLE = {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "open"}]}


def _app(db_url: str, **settings: Any) -> Any:
    return create_app(db_url=db_url, bot_workers=0, bot_pace=0.0, **{**NO_LIMITS, **settings})


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(_app(db_url)) as c:
        yield c


def create(c: TestClient, who: dict[str, str], body: dict[str, Any] = OPEN_TABLE) -> Any:
    return c.post("/api/games", json=body, headers=who)


def me(c: TestClient, who: dict[str, str]) -> int:
    value: int = c.get("/api/me", headers=who).json()["id"]
    return value


def test_an_open_seat_is_listed_and_taken_by_an_account(db_url: str, client: TestClient) -> None:
    alice, bob = account(client, "Alice"), account(client, "Bob")
    body = {
        **OPEN_TABLE,
        "rated": True,
        "clock": {"kind": "turn", "per_move_s": 3600},
        "takeover_after": 1,
    }
    r = create(client, alice, body)
    assert r.status_code == 201, r.text
    game = r.json()
    gid = game["id"]
    # Only the creator's seat has a link; the open seat has no token at all.
    assert [i["seat"] for i in game["invites"]] == [0]
    assert game["rated_table"] is True
    assert [s["open"] for s in game["seats"]] == [None, "open"]
    assert game["seats"][0]["name"] == "Alice"
    assert seat_accounts(db_url, gid) == [me(client, alice), None]
    listed = client.get("/api/tables").json()  # a guest sees the open tables too
    (table,) = [t for t in listed["tables"] if t["id"] == gid]
    assert table["creator"] == "Alice" and table["rated"] is True and table["players"] == 2
    assert table["clock"]["kind"] == "turn" and table["clock"]["per_move_s"] == 3600
    assert table["free"] == [1] and table["long_name"]
    assert "seed" not in str(listed) and "token" not in str(listed)
    taken = client.post(f"/api/games/{gid}/seats/1", headers=bob)
    assert taken.status_code == 200, taken.text
    link = taken.json()
    assert link["seat"] == 1 and link["url"] == f"/game/{gid}#token={link['token']}"
    info = client.get(f"/api/games/{gid}").json()
    assert [s["open"] for s in info["seats"]] == [None, None]
    assert info["seats"][1]["name"] == "Bob"
    assert seat_accounts(db_url, gid) == [me(client, alice), me(client, bob)]
    assert gid not in [t["id"] for t in client.get("/api/tables").json()["tables"]]
    storage = Storage(db_url)
    try:
        assert storage.has_token(gid, link["token"])
    finally:
        storage.close()


def test_the_game_waits_for_its_open_seats(client: TestClient) -> None:
    alice, bob = account(client, "Alice"), account(client, "Bob")
    game = create(client, alice, {**OPEN_TABLE, "table": {"hints": True}}).json()
    gid, token = game["id"], game["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{gid}?token={token}") as ws:
        snap = _until(ws, "snapshot")
        assert snap["legal"] == [] and snap["seats"][1]["open"] == "open"
        ws.send_json({"type": "act", "action": "pass", "seq": snap["seq"]})
        assert _until(ws, "error")["code"] == "open"
        ws.send_json({"type": "hint", "seq": snap["seq"]})
        assert _until(ws, "error")["code"] == "open"
        assert client.get(f"/api/games/{gid}").json()["actions"] == 0
        mine = client.post("/api/mine", json={"seats": [{"game": gid, "token": token}]}).json()
        assert mine[0]["your_turn"] is False  # nobody's turn before the game starts
        link = client.post(f"/api/games/{gid}/seats/1", headers=bob).json()
        update = _until(ws, "update")
        assert update["seq"] == snap["seq"] + 1
        with client.websocket_connect(f"/ws/{gid}?token={link['token']}") as other:
            theirs = _until(other, "snapshot")
            assert theirs["seat"] == 1
            # The game has started: the seats it waits for have their legal actions.
            assert update["legal"] or theirs["legal"]


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(50):
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message
    raise AssertionError(f"no {kind}")


def test_guests_cannot_open_tables_or_take_seats(client: TestClient) -> None:
    alice = account(client, "Alice")
    gid = create(client, alice).json()["id"]
    guest = create(client, {}, OPEN_TABLE)
    assert guest.status_code == 401
    ja = client.post(f"/api/games/{gid}/seats/1", headers={"accept-language": "ja"})
    assert ja.status_code == 401 and ja.json()["detail"] == "サインインしていません"
    ko = client.post("/api/games", json=OPEN_TABLE, headers={"accept-language": "ko"})
    assert (ko.status_code, ko.json()["detail"]) == (
        401,
        "빈 좌석을 두거나 플레이어를 초대하려면 로그인하세요",
    )


def test_bad_open_tables_are_refused_with_a_clear_4xx(client: TestClient) -> None:
    alice = account(client, "Alice")
    chosen = {**OPEN_TABLE, "rated": True, "seed": 5}
    r = create(client, alice, chosen)
    assert r.status_code == 400 and "secret deal" in r.json()["detail"]
    rated_guest_table = {"game": "byzantium", "seats": [{"kind": "human"}] * 2, "rated": "yes"}
    assert client.post("/api/games", json=rated_guest_table).status_code == 422
    no_own = {"game": "byzantium", "seats": [{"kind": "open"}, {"kind": "bot"}]}
    assert create(client, alice, no_own).status_code == 400
    unknown = {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "invite", "name": "Zed"}]}
    r = create(client, alice, unknown)
    assert r.status_code == 400 and "Zed" in r.json()["detail"]
    myself = {
        "game": "byzantium",
        "seats": [{"kind": "human"}, {"kind": "invite", "name": "alice"}],
    }
    assert create(client, alice, myself).status_code == 400
    gid = create(client, alice).json()["id"]
    for path, status in ((f"/api/games/{gid}/seats/7", 404), ("/api/games/nope/seats/1", 404)):
        assert client.post(path, headers=alice).status_code == status
    for path in (f"/api/games/{gid}/seats/-1", f"/api/games/{gid}/seats/x"):
        assert client.post(path, headers=alice).status_code == 422
    # A seat with its player is not open.
    assert (
        client.post(f"/api/games/{gid}/seats/0", headers=account(client, "Bob")).status_code == 409
    )


def test_an_account_sits_once_per_table(client: TestClient) -> None:
    alice = account(client, "Alice")
    three = {
        "game": "conspiracy",
        "options": {"players": 3},
        "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}],
    }
    gid = create(client, alice, three).json()["id"]
    r = client.post(f"/api/games/{gid}/seats/1", headers=alice)
    assert r.status_code == 409 and "already holds" in r.json()["detail"]
    bob = account(client, "Bob")
    assert client.post(f"/api/games/{gid}/seats/1", headers=bob).status_code == 200
    assert client.post(f"/api/games/{gid}/seats/2", headers=bob).status_code == 409


def test_one_open_seat_taken_by_two_accounts_at_the_same_moment(
    db_url: str, client: TestClient
) -> None:
    alice = account(client, "Alice")
    gid = create(client, alice).json()["id"]
    people = [account(client, name) for name in ("First", "Second")]

    def take_as(headers: dict[str, str]) -> Callable[[], int]:
        return lambda: client.post(f"/api/games/{gid}/seats/1", headers=headers).status_code

    assert at_once([take_as(h) for h in people]) == [200, 409]
    assert seat_accounts(db_url, gid)[1] in {me(client, p) for p in people}
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["open"] is None


def test_an_invitation_is_kept_for_its_account(db_url: str, client: TestClient) -> None:
    alice, bob, carol = (account(client, n) for n in ("Alice", "Bob", "Carol"))
    body = {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "invite", "name": "ＢＯＢ"}]}
    r = create(client, alice, body)
    assert r.status_code == 201, r.text
    game = r.json()
    gid = game["id"]
    assert game["seats"][1]["name"] == "Bob" and game["seats"][1]["open"] == "invite"
    # Nobody else sees it among the open tables or may take it.
    for who in ({}, carol, alice):
        listing = client.get("/api/tables", headers=who).json()
        assert gid not in [t["id"] for t in listing["tables"] + listing["invitations"]]
    r = client.post(f"/api/games/{gid}/seats/1", headers=carol)
    assert r.status_code == 403
    (invitation,) = client.get("/api/tables", headers=bob).json()["invitations"]
    assert invitation["id"] == gid and invitation["free"] == [1]
    assert invitation["creator"] == "Alice"
    assert client.post(f"/api/games/{gid}/seats/1", headers=bob).status_code == 200
    assert seat_accounts(db_url, gid)[1] == me(client, bob)
    assert client.get("/api/tables", headers=bob).json()["invitations"] == []


def test_open_tables_and_takes_are_limited_per_account_and_address(db_url: str) -> None:
    app = _app(db_url, open_table_limit="1/hour", take_seat_limit="2/minute")
    with TestClient(app) as c:
        alice, bob = account(c, "Alice"), account(c, "Bob")
        assert create(c, alice).status_code == 201
        again = create(c, alice, OPEN_TABLE)
        assert again.status_code == 429 and again.headers["retry-after"]
        # Per address too: another account from the same address.
        assert create(c, bob).status_code == 429
        # A table without open seats is not an open table.
        guests = {"game": "byzantium", "seats": [{"kind": "human"}] * 2}
        assert create(c, bob, guests).status_code == 201
        gid = c.get("/api/tables").json()["tables"][0]["id"]
        answers = [c.post(f"/api/games/{gid}/seats/1", headers=bob).status_code for _ in range(3)]
        assert answers == [200, 409, 429]
        ko = c.post(f"/api/games/{gid}/seats/1", headers={**bob, "accept-language": "ko"})
        assert ko.status_code == 429
        assert (
            ko.json()["detail"] == "테이블 개설이나 착석이 너무 많습니다. 잠시 뒤 다시 시도하세요"
        )


def test_the_open_table_api_is_in_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert "post" in paths["/api/games/{game_id}/seats/{seat}"]
    assert "get" in paths["/api/tables"]
    seat_kinds = client.get("/openapi.json").json()["components"]["schemas"]["SeatIn"]
    assert "open" in str(seat_kinds) and "invite" in str(seat_kinds)


def test_an_older_database_gets_the_open_seat_columns(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE seats (game_id VARCHAR(32), seat INTEGER, kind TEXT)"))
        conn.execute(text("CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, game TEXT)"))
    Storage(url).close()
    columns = inspect(engine)
    assert "open_to" in {c["name"] for c in columns.get_columns("seats")}
    games = {c["name"] for c in columns.get_columns("games")}
    assert {"creator_id", "rated_wish"} <= games
    engine.dispose()


def test_a_cross_site_take_or_open_is_refused(client: TestClient) -> None:
    alice, bob = account(client, "Alice"), account(client, "Bob")
    gid = create(client, alice).json()["id"]
    evil = {"origin": "http://evil.example"}
    assert client.post(f"/api/games/{gid}/seats/1", headers={**bob, **evil}).status_code == 403
    assert create(client, {**alice, **evil}).status_code == 403
    assert client.get(f"/api/games/{gid}").json()["seats"][1]["open"] == "open"
    same = {"origin": "http://testserver"}
    assert client.post(f"/api/games/{gid}/seats/1", headers={**bob, **same}).status_code == 200
