"""The review API: started in the background for a finished game, progress reported, the
same review as the engine's, refused before the end and for a seat that is not there."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from porphyra.review import ReviewSettings, review_record
from porphyra.server.app import create_app
from porphyra.server.routes import review as server_review

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
FAST = ReviewSettings(iterations=12, seed=0)


@pytest.fixture
def client(monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(server_review, "SETTINGS", FAST)
    with TestClient(create_app(db_url="sqlite://", bot_pace=0.0)) as c:
        yield c


def wait_for(check: Any, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_finished_game_is_reviewed_in_the_background(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "byzantium", "seats": BOTS, "seed": 5})
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    early = client.post(f"/api/games/{gid}/review", json={"seat": 0})
    if early.status_code == 403:  # refused while the game goes on
        assert "once it is over" in early.json()["detail"]
    wait_for(lambda: client.get(f"/api/games/{gid}").json()["status"] == "over")
    assert client.get(f"/api/games/{gid}/review?seat=1").json()["status"] == "none"
    first = client.post(f"/api/games/{gid}/review", json={"seat": 1}).json()
    assert first["status"] in ("running", "done")
    seen: list[int] = []

    def finished() -> dict[str, Any] | None:
        status: dict[str, Any] = client.get(f"/api/games/{gid}/review?seat=1").json()
        seen.append(status["done"])
        return status if status["status"] == "done" else None

    done = wait_for(finished)
    assert done["done"] == done["total"] == len(done["review"]["decisions"])
    assert seen == sorted(seen)  # progress only grows
    rec = client.get(f"/api/games/{gid}/record").json()
    assert done["review"] == review_record(rec, 1, FAST)  # the engine's review, exactly
    again = client.post(f"/api/games/{gid}/review", json={"seat": 1}).json()
    assert again == done  # not started twice


def test_bad_requests_are_refused(client: TestClient) -> None:
    gid = client.post("/api/games", json={"game": "byzantium", "seats": BOTS, "seed": 6}).json()[
        "id"
    ]
    wait_for(lambda: client.get(f"/api/games/{gid}").json()["status"] == "over")
    assert client.post(f"/api/games/{gid}/review", json={"seat": 2}).status_code == 400
    assert client.post(f"/api/games/{gid}/review", json={"seat": -1}).status_code == 422
    assert client.post(f"/api/games/{gid}/review", json={"seat": 0, "x": 1}).status_code == 422
    assert client.get(f"/api/games/{gid}/review?seat=x").status_code == 422
    assert client.post("/api/games/nope/review", json={"seat": 0}).status_code == 404
    ja = client.post(
        "/api/games/nope/review", json={"seat": 0}, headers={"accept-language": "ja"}
    ).json()["detail"]
    assert ja != "no such game"  # translated at the edge


def test_a_game_in_progress_is_not_reviewed(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    gid = client.post("/api/games", json={"game": "byzantium", "seats": seats, "seed": 7}).json()[
        "id"
    ]
    r = client.post(f"/api/games/{gid}/review", json={"seat": 0}, headers={"accept-language": "ko"})
    assert r.status_code == 403
    assert r.json()["detail"] != "a game can be reviewed once it is over"  # Korean
    assert client.get(f"/api/games/{gid}/review?seat=0").status_code == 403


def test_reviews_in_a_worker_process_match_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the server's bots in processes, reviews run in a worker process too; the
    result is the engine's, and the event loop keeps running meanwhile."""
    import asyncio

    from tests.review.test_review_engine import bot_game

    monkeypatch.setattr(server_review, "SETTINGS", FAST)
    rec = bot_game("conspiracy", 2)

    async def run() -> tuple[dict[str, Any] | None, int]:
        reviews = server_review.Reviews(processes=True)
        try:
            job = await reviews.start(rec, 0)
            ticks = 0
            while job.review is None and not job.failed:
                await asyncio.sleep(0.01)
                ticks += 1
            return job.review, ticks
        finally:
            reviews.close()

    review, ticks = asyncio.run(run())
    assert review == review_record(rec, 0, server_review.SETTINGS)
    assert ticks > 0


def _reviewed(client: TestClient, seed: int, seat: int) -> tuple[str, dict[str, Any]]:
    """A finished bot game's id and its finished review of ``seat``."""
    gid = client.post("/api/games", json={"game": "byzantium", "seats": BOTS, "seed": seed})
    game_id: str = gid.json()["id"]
    wait_for(lambda: client.get(f"/api/games/{game_id}").json()["status"] == "over")
    return game_id, _review(client, game_id, seat)


def _review(client: TestClient, game_id: str, seat: int) -> dict[str, Any]:
    """Ask for the review of ``seat`` of finished game ``game_id`` and wait for its status
    to say done; that status."""
    client.post(f"/api/games/{game_id}/review", json={"seat": seat})
    done: dict[str, Any] = wait_for(
        lambda: (
            (s := client.get(f"/api/games/{game_id}/review?seat={seat}").json())["status"] == "done"
            and s
        )
    )
    return done


def _no_search(*args: Any) -> dict[str, Any]:
    raise AssertionError("the review was computed again")


def test_a_review_is_stored_with_the_game_and_survives_a_restart(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Issue 31 §2: "cached with the record": a finished review is kept in the database,
    so a restarted server answers it at once, without searching again."""
    monkeypatch.setattr(server_review, "SETTINGS", FAST)
    url = f"sqlite:///{tmp_path}/reviews.sqlite3"
    with TestClient(create_app(db_url=url, bot_pace=0.0)) as c:
        gid, done = _reviewed(c, 8, 0)
    monkeypatch.setattr(server_review, "review_at", _no_search)
    with TestClient(create_app(db_url=url, bot_pace=0.0)) as c:
        assert c.get(f"/api/games/{gid}/review?seat=0").json() == done
        assert c.post(f"/api/games/{gid}/review", json={"seat": 0}).json() == done
        assert c.get(f"/api/games/{gid}/review?seat=1").json()["status"] == "none"


@pytest.mark.parametrize(
    "damaged", ["[1, 2", '{"version": 2, "decisions": [{"move": 3}], "moments": []}']
)
def test_a_damaged_stored_review_is_computed_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any, damaged: str
) -> None:
    """A stored review that is not a JSON object, or one missing what the page shows (an
    edited file), is treated as absent: the status says none, a new review replaces the
    row, and nobody sees an error."""
    import sqlite3

    monkeypatch.setattr(server_review, "SETTINGS", FAST)
    path = tmp_path / "reviews.sqlite3"
    with TestClient(create_app(db_url=f"sqlite:///{path}", bot_pace=0.0)) as c:
        gid, done = _reviewed(c, 9, 1)
    with sqlite3.connect(path) as db:
        assert db.execute("UPDATE reviews SET review = ?", (damaged,)).rowcount == 1
    with TestClient(create_app(db_url=f"sqlite:///{path}", bot_pace=0.0)) as c:
        assert c.get(f"/api/games/{gid}/review?seat=1").json()["status"] == "none"
        assert _review(c, gid, 1) == done
    with sqlite3.connect(path) as db:
        (text,) = db.execute("SELECT review FROM reviews").fetchone()
    assert text.startswith("{")


def test_a_seats_reviews_of_other_versions_are_deleted_when_a_new_one_is_stored(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """A review stored under an older key (another review or bots version, other settings)
    is never read again: storing the seat's review under today's key deletes it, and
    leaves the other seat's review alone."""
    import sqlite3

    monkeypatch.setattr(server_review, "SETTINGS", FAST)
    path = tmp_path / "reviews.sqlite3"
    with TestClient(create_app(db_url=f"sqlite:///{path}", bot_pace=0.0)) as c:
        gid, done = _reviewed(c, 10, 0)
        _review(c, gid, 1)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE reviews SET key = replace(key, ':bots=', ':bots=0') WHERE seat = 0")
    with TestClient(create_app(db_url=f"sqlite:///{path}", bot_pace=0.0)) as c:
        assert c.get(f"/api/games/{gid}/review?seat=0").json()["status"] == "none"
        assert _review(c, gid, 0) == done
    with sqlite3.connect(path) as db:
        keys = sorted(db.execute("SELECT seat, key FROM reviews").fetchall())
    assert [seat for seat, _ in keys] == [0, 1]
    assert all(":bots=0" not in key for _, key in keys)


def test_reviews_go_on_in_memory_when_the_database_fails() -> None:
    """A database that fails (a PostgreSQL outage) neither loses a review nor fails it:
    the review is computed and kept in memory."""
    import asyncio

    from sqlalchemy.exc import OperationalError

    from tests.review.test_review_engine import bot_game

    class Down:
        storage: Any = None

        async def db(self, fn: Any, *args: Any) -> Any:
            raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    rec = bot_game("byzantium", 2)

    async def run() -> dict[str, Any] | None:
        reviews = server_review.Reviews(processes=False, database=Down())
        try:
            job = await reviews.start(rec, 0, "g1")
            while job.review is None and not job.failed:
                await asyncio.sleep(0.01)
            found = await reviews.find(rec, 0)
            assert found is job
            return job.review
        finally:
            reviews.close()

    assert asyncio.run(run()) == review_record(rec, 0, server_review.SETTINGS)
