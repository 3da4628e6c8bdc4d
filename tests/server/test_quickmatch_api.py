"""Issue 32 §2, §6, §7: quick match through the HTTP API on SQLite and PostgreSQL
(``db_url``): two waiting accounts are paired and each seated at one new table with a
secret deal, an account queues once, the bot offer, bad requests, the limits, and the
requests in ``/openapi.json``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, update

from porphyra.server import quickmatch as rule
from porphyra.server.app import create_app
from porphyra.server.matchqueue import CLAIM_STALE_S, MatchQueue
from porphyra.server.quickmatch import RatingSource
from porphyra.server.schema import queue_table
from porphyra.server.storage import Storage

from .accounts import NO_LIMITS, PASSWORD, account, at_once, seat_accounts

JOIN = {"game": "byzantium", "players": 2, "clock": "turn"}


def _app(db_url: str, **settings: Any) -> Any:
    return create_app(
        db_url=db_url, bot_workers=0, bot_pace=0.0, **{**NO_LIMITS, "queue_limit": None, **settings}
    )


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(_app(db_url)) as c:
        yield c


def _seat(c: TestClient, who: dict[str, str], match: dict[str, Any]) -> dict[str, Any]:
    """Follow a match's link as the page does: the seat's own link."""
    r = c.post(match["link"], headers=who)
    assert r.status_code == 200, r.text
    link: dict[str, Any] = r.json()
    return link


def test_two_waiting_players_are_paired_and_each_seated(db_url: str, client: TestClient) -> None:
    alice, bob = account(client, "Alice"), account(client, "Bob")
    me_a = client.get("/api/me", headers=alice).json()["id"]
    me_b = client.get("/api/me", headers=bob).json()["id"]
    r = client.post("/api/quickmatch", json=JOIN, headers=alice)
    assert r.status_code == 201, r.text
    alone = r.json()
    assert alone["queued"] is True and alone["match"] is None and alone["bot"] is None
    assert alone["game"] == "byzantium" and alone["clock"] == "turn"
    assert alone["rating"] == 25.0 and alone["window"] >= rule.BASE_WINDOW
    assert client.get("/api/quickmatch", headers=alice).json()["match"] is None
    joined = client.post("/api/quickmatch", json=JOIN, headers=bob).json()
    found_b = joined["match"]
    assert found_b is not None
    found_a = client.get("/api/quickmatch", headers=alice).json()["match"]
    assert found_a["game"] == found_b["game"] and found_a["seat"] != found_b["seat"]
    gid = found_a["game"]
    # Each answer collected its match: the account is out of the queue.
    assert (
        client.get("/api/quickmatch", headers=alice).json()
        == client.get("/api/quickmatch", headers=bob).json()
    )
    assert client.get("/api/quickmatch", headers=bob).json()["queued"] is False
    accounts = seat_accounts(db_url, gid)
    assert sorted(a for a in accounts if a is not None) == sorted([me_a, me_b])
    assert accounts[found_a["seat"]] == me_a and accounts[found_b["seat"]] == me_b
    link_a, link_b = _seat(client, alice, found_a), _seat(client, bob, found_b)
    assert link_a["seat"] == found_a["seat"] and link_b["seat"] == found_b["seat"]
    info = client.get(f"/api/games/{gid}").json()
    assert info["deal"] == "secret"
    assert info["clock"]["kind"] == "turn"
    assert info["rated"] is True  # timed: a player who walks away times out and loses
    assert sorted(s["name"] for s in info["seats"]) == ["Alice", "Bob"]
    # Each link opens its own seat.
    with client.websocket_connect(f"/ws/{gid}?token={link_a['token']}") as ws:
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["seat"] == found_a["seat"]
    # Another account's link request for this table is refused.
    carol = account(client, "Carol")
    assert client.post(found_a["link"], headers=carol).status_code == 404


def test_an_untimed_quick_match_is_not_rated(client: TestClient) -> None:
    """Nobody times out at an untimed table, so a player who walked away would never
    lose: such a table is played unrated (ratings.md)."""
    alice, bob = account(client, "Alice"), account(client, "Bob")
    untimed = {**JOIN, "clock": "none"}
    assert client.post("/api/quickmatch", json=untimed, headers=alice).status_code == 201
    found = client.post("/api/quickmatch", json=untimed, headers=bob).json()["match"]
    info = client.get(f"/api/games/{found['game']}").json()
    assert (info["clock"]["kind"], info["deal"], info["rated"]) == ("none", "secret", False)


def test_an_account_queues_once_and_may_leave(client: TestClient) -> None:
    alice = account(client, "Alice")
    assert client.post("/api/quickmatch", json=JOIN, headers=alice).status_code == 201
    again = client.post(
        "/api/quickmatch",
        json={**JOIN, "clock": "none"},
        headers={**alice, "accept-language": "ko"},
    )
    assert again.status_code == 409
    assert again.json()["detail"] == "이미 빠른 대전 대기열에 있습니다"
    left = client.delete("/api/quickmatch", headers=alice)
    assert left.status_code == 200 and left.json()["queued"] is False
    assert client.get("/api/quickmatch", headers=alice).json()["queued"] is False
    assert client.post("/api/quickmatch", json=JOIN, headers=alice).status_code == 201


def test_different_requests_are_not_paired(client: TestClient) -> None:
    alice, bob = account(client, "Alice"), account(client, "Bob")
    client.post("/api/quickmatch", json=JOIN, headers=alice)
    other = client.post("/api/quickmatch", json={**JOIN, "clock": "realtime"}, headers=bob)
    assert other.json()["match"] is None
    assert client.get("/api/quickmatch", headers=alice).json()["match"] is None


def test_bad_requests_are_refused_with_a_clear_4xx(client: TestClient) -> None:
    assert client.post("/api/quickmatch", json=JOIN).status_code == 401
    assert client.get("/api/quickmatch").status_code == 401
    alice = account(client, "Alice")
    for body in (
        {**JOIN, "game": "chess"},
        {**JOIN, "players": 3},  # Byzantium is for two
        {"game": "conspiracy", "players": 5, "clock": "none"},
    ):
        r = client.post("/api/quickmatch", json=body, headers=alice)
        assert r.status_code == 400, (body, r.text)
    loose = ({**JOIN, "players": "2"}, {**JOIN, "players": 2.0}, {**JOIN, "players": True})
    for body in ({**JOIN, "players": 1}, {**JOIN, "clock": "blitz"}, {**JOIN, "extra": 1}, *loose):
        assert client.post("/api/quickmatch", json=body, headers=alice).status_code == 422
    assert client.get("/api/quickmatch", headers=alice).json()["queued"] is False
    assert client.post("/api/quickmatch/bot", headers=alice).status_code == 404


def test_after_a_minute_alone_the_bot_of_about_ones_rating_is_offered(db_url: str) -> None:
    app = _app(db_url)
    app.state.quick_ratings = RatingSource(
        lambda store, account_id, game, players: (30.0, 3.0),
        lambda game, players: {
            "easy": (15.0, 1.0),
            "hard": (29.0, 1.0),
            "medium": (22.0, 1.0),
            "no-such-bot": (30.0, 1.0),  # (closest, but no bot the server can seat)
        },
    )
    with TestClient(app) as c:
        alice = account(c, "Alice")
        r = c.post("/api/quickmatch", json=JOIN, headers=alice).json()
        assert r["rating"] == 30.0 and r["bot"] is None
        assert c.post("/api/quickmatch/bot", headers=alice).status_code == 404  # too early
        engine = create_engine(db_url)
        try:
            with engine.begin() as conn:  # as if a minute had passed
                conn.execute(update(queue_table).values(joined=queue_table.c.joined - 61))
        finally:
            engine.dispose()
        waiting = c.get("/api/quickmatch", headers=alice).json()
        assert waiting["bot"] == "hard" and waiting["match"] is None
        taken = c.post("/api/quickmatch/bot", headers=alice)
        assert taken.status_code == 201, taken.text
        match = taken.json()
        info = c.get(f"/api/games/{match['game']}").json()
        kinds = [(s["kind"], s.get("bot")) for s in info["seats"]]
        assert kinds[match["seat"]][0] == "human"
        assert [k for i, k in enumerate(kinds) if i != match["seat"]] == [("bot", "hard")]
        assert c.get("/api/quickmatch", headers=alice).json()["queued"] is False
        assert _seat(c, alice, match)["seat"] == match["seat"]


def test_joins_are_limited_per_account_and_address(db_url: str) -> None:
    with TestClient(_app(db_url, queue_limit="2/minute")) as c:
        alice, bob = account(c, "Alice"), account(c, "Bob")
        for _ in range(2):
            assert c.post("/api/quickmatch", json=JOIN, headers=alice).status_code == 201
            assert c.delete("/api/quickmatch", headers=alice).status_code == 200
        over = c.post("/api/quickmatch", json=JOIN, headers=alice)
        assert over.status_code == 429 and over.headers["retry-after"]
        # Bob, from the same address, is over the address's limit too.
        assert c.post("/api/quickmatch", json=JOIN, headers=bob).status_code == 429
        other = TestClient(c.app, client=("10.1.2.3", 5000))
        assert other.post("/api/quickmatch", json=JOIN, headers=bob).status_code == 201


def test_the_queue_is_in_the_openapi_document(client: TestClient) -> None:
    doc = client.get("/openapi.json").json()
    paths = doc["paths"]
    assert set(paths["/api/quickmatch"]) == {"get", "post", "delete"}
    assert "post" in paths["/api/quickmatch/bot"]
    schemas = doc["components"]["schemas"]
    assert {"JoinIn", "QueueOut", "MatchOut"} <= set(schemas)
    assert schemas["JoinIn"]["properties"]["clock"]["enum"] == ["none", "realtime", "turn"]


def test_a_join_from_another_site_is_refused(client: TestClient) -> None:
    alice = account(client, "Alice")
    r = client.post(
        "/api/quickmatch", json=JOIN, headers={**alice, "origin": "https://evil.example"}
    )
    assert r.status_code == 403
    assert client.get("/api/quickmatch", headers=alice).json()["queued"] is False


def test_an_account_deleted_while_waiting_leaves_the_queue(db_url: str, client: TestClient) -> None:
    alice, bob, carol = account(client, "Alice"), account(client, "Bob"), account(client, "Carol")
    assert client.post("/api/quickmatch", json=JOIN, headers=alice).status_code == 201
    gone = client.request("DELETE", "/api/me", headers=alice, json={"password": PASSWORD})
    assert gone.status_code == 204, gone.text
    # Bob's join would pair him with the deleted account: that row goes instead.
    assert client.post("/api/quickmatch", json=JOIN, headers=bob).json()["match"] is None
    found = client.post("/api/quickmatch", json=JOIN, headers=carol).json()["match"]
    assert found is not None
    assert client.get("/api/quickmatch", headers=bob).json()["match"]["game"] == found["game"]


def test_two_matchers_at_the_same_moment_make_one_table(db_url: str) -> None:
    storage = Storage(db_url)  # (makes the tables)
    try:
        queue = MatchQueue(storage.engine)
        now = time.time()
        for account_id in (1, 2, 3):
            queue.join(account_id, "byzantium", 2, "none", (25.0, 8.0), now)
        answers: list[bool] = []
        barrier = threading.Barrier(2)

        def claim(ids: list[int]) -> None:
            barrier.wait()
            answers.append(queue.claim(ids, now))

        threads = [threading.Thread(target=claim, args=(ids,)) for ids in ([1, 2], [2, 3])]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [False, True]
        claimed = [a for a in (1, 2, 3) if (e := queue.entry(a)) and e.claimed is not None]
        assert claimed in ([1, 2], [2, 3])  # all of one claim, nothing of the other
        # A claim that finds a player taken changes nothing.
        free = ({1, 2, 3} - set(claimed)).pop()
        assert not queue.claim([free, claimed[0]], now)
        assert queue.entry(free).claimed is None  # type: ignore[union-attr]
        # A claim whose matcher died is let go after a while.
        assert queue.claim(claimed, now + CLAIM_STALE_S + 1)
    finally:
        storage.close()


def test_joins_at_the_same_moment_pair_once(db_url: str) -> None:
    with TestClient(_app(db_url)) as c:
        people = [account(c, name) for name in ("Alice", "Bob")]
        games: list[str] = []

        def join(who: dict[str, str]) -> Callable[[], int]:
            def go() -> int:
                r = c.post("/api/quickmatch", json=JOIN, headers=who)
                if r.json()["match"]:
                    games.append(r.json()["match"]["game"])
                status: int = r.status_code
                return status

            return go

        assert at_once([join(p) for p in people]) == [201, 201]
        for who in people:
            found = c.get("/api/quickmatch", headers=who).json()["match"]
            if found:
                games.append(found["game"])
        assert len(games) == 2 and len(set(games)) == 1
