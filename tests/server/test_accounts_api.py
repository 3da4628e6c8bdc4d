"""Issue 32 §1, §6, §7: accounts and sessions through the HTTP API, on SQLite and
PostgreSQL (``db_url``): sign-up, sign-in, sign-out, the session cookie, password change,
deletion, seat claims, and bad input answered with 4xx in the client's language."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import httpx
import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from porphyra.server.accountstore import AccountStore
from porphyra.server.app import create_app
from porphyra.server.sessions import COOKIE

from .accounts import NO_SIGNIN_LIMITS, PASSWORD, at_once, seat_accounts
from .driver import play_out
from .live import LiveServer, connect_seats

#: No sign-in or sign-up limits (they have their own tests).


def _app(db_url: str, **settings: Any) -> Any:
    return create_app(db_url=db_url, bot_workers=0, **{**NO_SIGNIN_LIMITS, **settings})


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(_app(db_url)) as c:
        yield c


def sign_up(c: TestClient, name: str = "Alice", password: str = PASSWORD) -> Any:
    r = c.post("/api/accounts", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r


def use(c: TestClient, value: str) -> None:
    """Make ``value`` the only session cookie ``c`` sends."""
    c.cookies.clear()
    c.cookies.set(COOKIE, value)


def test_sign_up_signs_in_with_a_safe_cookie(client: TestClient) -> None:
    r = sign_up(client, "  Alice   Smith ")
    assert r.json()["name"] == "Alice Smith"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Path=/" in cookie
    assert "Secure" not in cookie  # plain HTTP here
    me = client.get("/api/me")
    assert me.status_code == 200 and me.json()["name"] == "Alice Smith"
    assert PASSWORD not in r.text + me.text + str(r.headers)


def test_the_cookie_is_secure_over_https(db_url: str) -> None:
    with TestClient(_app(db_url), base_url="https://testserver") as c:
        assert "Secure" in sign_up(c).headers["set-cookie"]
        assert c.get("/api/me").status_code == 200
    with TestClient(_app(db_url, secure_cookies=True)) as c:
        assert "Secure" in sign_up(c, "Bob99").headers["set-cookie"]


def test_a_session_ends_when_it_expires(db_url: str) -> None:
    with TestClient(_app(db_url)) as c:
        sign_up(c)
        store = AccountStore(c.app.state.hub.storage.engine)  # type: ignore[attr-defined]
        at = time.time()
        store.start_session(1, "short-lived", at, at + 60, None)
        assert store.session_account("short-lived", at + 59) is not None
        assert store.session_account("short-lived", at + 61) is None
        store.end_sessions(2, at + 61)  # housekeeping: expired sessions of anyone go
        assert store.session_account("short-lived", at) is None
        store.start_session(1, "old", at - 100, at - 10, None)
        assert store.session_account("old", at - 50) is not None
        store.start_session(1, "new", at, at + 60, None)  # a sign-in clears the expired
        assert store.session_account("old", at - 50) is None
        assert c.get("/api/me").headers["cache-control"] == "no-store"


def test_me_without_a_session_is_401(client: TestClient) -> None:
    assert client.get("/api/me").status_code == 401
    use(client, "made-up-value")
    assert client.get("/api/me").status_code == 401


def test_sign_out_ends_the_session_on_the_server(client: TestClient) -> None:
    sign_up(client)
    old = client.cookies[COOKIE]
    assert client.delete("/api/session").status_code == 204
    assert client.get("/api/me").status_code == 401
    use(client, old)  # the old value, kept by an attacker, is dead too
    assert client.get("/api/me").status_code == 401


def test_sign_in_rotates_the_session_and_refuses_a_fixed_one(client: TestClient) -> None:
    sign_up(client)
    first = client.cookies[COOKIE]
    use(client, "fixed-by-an-attacker")
    r = client.post("/api/session", json={"name": "alice", "password": PASSWORD})
    assert r.status_code == 200 and r.json()["name"] == "Alice"
    second = r.cookies[COOKIE]
    assert second not in (first, "fixed-by-an-attacker")
    use(client, "fixed-by-an-attacker")
    assert client.get("/api/me").status_code == 401
    use(client, second)
    assert client.get("/api/me").status_code == 200
    use(client, first)  # signing in again does not end the other sessions
    assert client.get("/api/me").status_code == 200
    # Signing in with a live session ends that one (rotation).
    third = client.post("/api/session", json={"name": "alice", "password": PASSWORD}).cookies[
        COOKIE
    ]
    use(client, first)
    assert client.get("/api/me").status_code == 401
    use(client, third)
    assert client.get("/api/me").status_code == 200


def test_a_wrong_name_and_a_wrong_password_get_the_same_answer(client: TestClient) -> None:
    sign_up(client)
    client.delete("/api/session")
    verified: list[str | bytes] = []

    class Spy(PasswordHasher):
        def verify(self, stored: str | bytes, password: str | bytes) -> Literal[True]:
            verified.append(stored)
            return super().verify(stored, password)

    client.app.state.passwords._hasher = Spy()  # type: ignore[attr-defined]
    wrong_password = client.post("/api/session", json={"name": "Alice", "password": "nope-nope"})
    no_such_name = client.post("/api/session", json={"name": "Nobody", "password": "nope-nope"})
    assert wrong_password.status_code == no_such_name.status_code == 401
    assert wrong_password.json() == no_such_name.json()
    # The unknown name costs an Argon2 verification too (of a dummy hash): similar timing.
    assert len(verified) == 2 and all(str(h).startswith("$argon2id$") for h in verified)


def test_confusable_and_seat_like_names_are_refused(client: TestClient) -> None:
    sign_up(client, "Alice")
    for twin in ("ALICE", "alice", "Аlice", "Ａｌｉｃｅ", "A.lice", "Al ice"):
        r = client.post("/api/accounts", json={"name": twin, "password": PASSWORD})
        assert r.status_code == 409, twin
    for seat in (
        "Seat 2",
        "Ｓｅａｔ 2",
        "Seаt 2",
        "Seat②",
        "Spectator",
        "席 12",
        "좌석 3",
        "Easy bot 2",
    ):
        r = client.post("/api/accounts", json={"name": seat, "password": PASSWORD})
        assert r.status_code == 400, seat
        assert "seat" in r.json()["detail"]
    assert client.get("/api/me").json()["name"] == "Alice"  # still the first account


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"name": "", "password": PASSWORD}, 400, "at least 3"),
        ({"name": "x" * 25, "password": PASSWORD}, 400, "at most 24"),
        ({"name": "bo\u202eb", "password": PASSWORD}, 400, "letters, digits"),
        ({"name": "Carol", "password": "short"}, 400, "at least 8"),
        ({"name": "Carol", "password": "p" * 257}, 400, "at most 256"),
        ({"name": ["Carol"], "password": PASSWORD}, 422, "valid string"),
        ({"name": {"a": {"b": [1]}}, "password": PASSWORD}, 422, "valid string"),
        ({"name": "Carol", "password": PASSWORD, "admin": True}, 422, "admin"),
        ({"name": "Carol"}, 422, "password"),
    ],
)
def test_bad_sign_ups_get_a_clear_4xx(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    r = client.post("/api/accounts", json=body)
    assert r.status_code == status, r.text
    reply = r.json()
    assert words in (reply["detail"] if status == 400 else reply["message"])
    assert client.get("/api/me").status_code == 401  # nothing was created


def test_a_password_is_never_echoed_in_a_refusal(client: TestClient) -> None:
    r = client.post("/api/session", json={"name": "Carol", "password": 31415926535})
    assert r.status_code == 422 and "31415926535" not in r.text
    r = client.post("/api/accounts", json={"name": "Carol", "password": PASSWORD, "pw": PASSWORD})
    assert r.status_code == 422 and PASSWORD not in r.text


def test_refusals_speak_the_clients_language(client: TestClient) -> None:
    ja = client.post(
        "/api/session",
        json={"name": "Nobody", "password": "x" * 8},
        headers={"accept-language": "ja"},
    )
    ko = client.post(
        "/api/accounts",
        json={"name": "ab", "password": PASSWORD},
        headers={"accept-language": "ko"},
    )
    assert ja.json()["detail"] == "ユーザー名またはパスワードが違います"
    assert ko.json()["detail"] == "사용자 이름은 3자 이상이어야 합니다"
    ja_headers = {"accept-language": "ja", "content-type": "application/json"}
    malformed = {
        b'{"name": 1, "password": "x"}': "name: 文字列を入力してください",
        b'{"name": "x", "password": "y", "z": 1}': "z: この項目は使えません",
        b"[1]": "JSON オブジェクトを送ってください",
        b"{bad json": "1: JSON として読めません",
    }
    for body, words in malformed.items():
        r = client.post("/api/accounts", content=body, headers=ja_headers)
        assert (r.status_code, r.json()["message"]) == (422, words)


def test_huge_and_deeply_nested_bodies_are_refused_not_500(client: TestClient) -> None:
    huge = client.post("/api/accounts", content=b'{"name": "' + b"x" * 100_000 + b'"}')
    assert huge.status_code == 413
    deep = b"[" * 2000 + b"]" * 2000
    for body in (deep, b'{"name": ' + b"[" * 1500 + b"]" * 1500 + b"}"):
        r = client.post("/api/session", content=body, headers={"content-type": "application/json"})
        assert 400 <= r.status_code < 500, r.text


def test_two_sign_ups_of_one_name_at_the_same_moment(client: TestClient) -> None:
    def sign_up_as(name: str) -> Callable[[], int]:
        body = {"name": name, "password": PASSWORD}
        return lambda: client.post("/api/accounts", json=body).status_code

    assert at_once([sign_up_as("Dora"), sign_up_as("DORA")]) == [201, 409]


def test_sql_in_a_name_is_only_a_name(client: TestClient) -> None:
    evil = "x' OR '1'='1"
    assert client.post("/api/session", json={"name": evil, "password": evil}).status_code == 401
    r = client.post("/api/accounts", json={"name": "a'--", "password": PASSWORD})
    assert r.status_code == 400
    sign_up(client)
    assert client.get("/api/me").json()["name"] == "Alice"


def session_of(r: Any) -> dict[str, str]:
    """The headers that send the session cookie set by response ``r`` (one client, several
    people: an explicit Cookie header wins over the client's jar)."""
    return {"cookie": f"{COOKIE}={r.cookies[COOKIE]}"}


def test_changing_the_password_ends_every_session(client: TestClient) -> None:
    laptop = session_of(sign_up(client))
    client.cookies.clear()  # another device: signing in here would end the laptop's session
    phone = session_of(client.post("/api/session", json={"name": "Alice", "password": PASSWORD}))
    wrong = {"password": "not it!!", "new_password": "x" * 9}
    assert client.post("/api/me/password", json=wrong, headers=laptop).status_code == 401
    change = {"password": PASSWORD, "new_password": "a new secret"}
    r = client.post("/api/me/password", json=change, headers=laptop)
    assert r.status_code == 200
    renewed = session_of(r)
    assert renewed != laptop and client.get("/api/me", headers=renewed).status_code == 200
    assert client.get("/api/me", headers=laptop).status_code == 401
    assert client.get("/api/me", headers=phone).status_code == 401
    again = {"name": "Alice", "password": PASSWORD}
    assert client.post("/api/session", json=again).status_code == 401
    again["password"] = "a new secret"
    assert client.post("/api/session", json=again).status_code == 200


def _create_game(c: TestClient) -> dict[str, Any]:
    r = c.post("/api/games", json={"game": "byzantium", "seats": [{"kind": "human"}] * 2})
    assert r.status_code == 201
    info: dict[str, Any] = r.json()
    return info


def test_a_guest_seat_is_claimed_with_its_token(db_url: str, client: TestClient) -> None:
    game = _create_game(client)
    gid, tokens = game["id"], [i["token"] for i in game["invites"]]
    path = f"/api/games/{gid}/claim"
    assert client.post(path, json={"token": tokens[0]}).status_code == 401
    r = sign_up(client)
    alice, alice_id = session_of(r), r.json()["id"]
    client.cookies.clear()  # Bob's own browser
    bob = session_of(sign_up(client, "Bobby"))
    assert client.post(path, json={"token": "guess"}, headers=alice).status_code == 403
    r = client.post(path, json={"token": tokens[0]}, headers=alice)
    assert r.status_code == 200 and r.json() == {"game": gid, "seat": 0, "account": "Alice"}
    assert seat_accounts(db_url, gid) == [alice_id, None]
    # One account, one seat per table; a held seat stays its holder's.
    assert client.post(path, json={"token": tokens[1]}, headers=alice).status_code == 409
    assert client.post(path, json={"token": tokens[0]}, headers=bob).status_code == 409
    assert client.post(path, json={"token": tokens[1]}, headers=bob).status_code == 200
    # The guest links keep working as before.
    assert client.post("/api/mine", json={"seats": [{"game": gid, "token": tokens[0]}]}).json()


def test_one_seat_claimed_by_two_accounts_at_the_same_moment(client: TestClient) -> None:
    game = _create_game(client)
    token = game["invites"][0]["token"]
    people = []
    for name in ("First", "Second"):
        client.cookies.clear()  # each in their own browser
        people.append(session_of(sign_up(client, name)))
    path = f"/api/games/{game['id']}/claim"

    def claim_as(headers: dict[str, str]) -> Callable[[], int]:
        return lambda: client.post(path, json={"token": token}, headers=headers).status_code

    assert at_once([claim_as(h) for h in people]) == [200, 409]


def test_deleting_an_account_keeps_its_games_under_a_neutral_name(db_url: str) -> None:
    with TestClient(_app(db_url)) as c:
        r = c.post(
            "/api/games",
            json={
                "game": "byzantium",
                "seats": [{"kind": "human", "name": "Alice"}, {"kind": "human"}],
            },
        )
        game = r.json()
        sign_up(c)
        c.post(f"/api/games/{game['id']}/claim", json={"token": game["invites"][0]["token"]})
        body = {"password": "wrong password"}
        assert c.request("DELETE", "/api/me", json=body).status_code == 401
        assert c.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
        assert c.get("/api/me").status_code == 401
        seats = c.get(f"/api/games/{game['id']}").json()["seats"]
        assert [s["name"] for s in seats] == ["Seat 1", "Seat 2"]
        bad = c.post("/api/session", json={"name": "Alice", "password": PASSWORD})
        assert bad.status_code == 401
        assert sign_up(c).json()["name"] == "Alice"  # the name is free again
    with TestClient(_app(db_url)) as c:  # also as stored (a restart)
        seats = c.get(f"/api/games/{game['id']}").json()["seats"]
        assert [s["name"] for s in seats] == ["Seat 1", "Seat 2"]


def test_the_account_api_is_in_the_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    for path in ("/api/accounts", "/api/session", "/api/me", "/api/me/password"):
        assert path in doc["paths"], path
    assert {"CredentialsIn", "AccountOut", "ClaimIn"} <= set(doc["components"]["schemas"])


def test_an_older_database_gets_the_seats_account_column(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    with TestClient(_app(url)) as c:
        game = _create_game(c)
    engine = create_engine(url)
    with engine.begin() as conn:  # as an older release left it
        conn.execute(text("DROP INDEX ix_seats_account_id"))
        conn.execute(text("ALTER TABLE seats DROP COLUMN account_id"))
        conn.execute(text("DROP TABLE sessions"))
        conn.execute(text("DROP TABLE accounts"))
    assert "account_id" not in {col["name"] for col in inspect(engine).get_columns("seats")}
    engine.dispose()
    with TestClient(_app(url)) as c:
        sign_up(c)
        token = game["invites"][1]["token"]
        assert c.post(f"/api/games/{game['id']}/claim", json={"token": token}).status_code == 200
    assert seat_accounts(url, game["id"]) == [None, 1]


@pytest.mark.live
def test_a_rematch_keeps_the_seats_accounts(server: LiveServer) -> None:
    vs_bot = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
    info = server.create({"game": "byzantium", "seats": vs_bot, "seed": 21})
    token = info["invites"][0]["token"]
    with httpx.Client(base_url=server.base, timeout=30) as browser:
        r = browser.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
        account = r.json()["id"]
        claim = browser.post(f"/api/games/{info['id']}/claim", json={"token": token})
        assert claim.status_code == 200
        clients = connect_seats(server, info)
        play_out(clients, random.Random(21))
        for group in clients.values():
            for c in group:
                c.close()
        rematch = browser.post(f"/api/games/{info['id']}/rematch", json={"token": token})
        assert rematch.status_code == 201, rematch.text
    new_id = rematch.json()["id"]
    assert seat_accounts(server.app.state.settings.db_url, new_id) == [account, None]
