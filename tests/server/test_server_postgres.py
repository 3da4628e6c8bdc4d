"""Issue 13, items 5 and 10: a real PostgreSQL server restarted in the middle of a game.

The test runs its own throwaway cluster (``tests/server/pg.py``), so that stopping it
never disturbs other tests.  While the database is down a move gets "try again" and nothing
changes; once it is back the very next move is stored (stale pooled connections are
replaced, ``pool_pre_ping``), the game finishes, and it replays after a server restart.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import tempfile
from collections.abc import Iterator

import httpx
import pytest

from .driver import play_out, record_of, sync
from .live import LiveServer, SeatClient, connect_seats
from .pg import URL_VARIABLE, Cluster


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    """A PostgreSQL cluster of this test only."""
    directory = tempfile.mkdtemp(prefix="porphyra-pg-")
    try:
        own = Cluster(directory)
    except FileNotFoundError as exc:
        shutil.rmtree(directory, ignore_errors=True)
        if os.environ.get(URL_VARIABLE):  # CI installed PostgreSQL: it must be there
            pytest.fail(str(exc))
        pytest.skip(f"PostgreSQL is not installed: {exc}")
    own.start()
    try:
        yield own
    finally:
        with contextlib.suppress(Exception):
            own.stop()
        shutil.rmtree(directory, ignore_errors=True)


def _move(clients: list[SeatClient]) -> dict[str, object]:
    """One seat with legal actions plays its first one; the answer (update or error)."""
    sync(clients)
    actor = next(c for c in clients if c.last["legal"])
    actor.act(actor.last["legal"][0])
    return actor.recv_until(
        lambda m: m["type"] == "error" or (m["type"] == "update" and "last" in m)
    )


@pytest.mark.live
def test_a_database_restart_in_the_middle_of_a_game(cluster: Cluster) -> None:
    live = LiveServer(cluster.url).start()
    try:
        info = live.create({"game": "conspiracy", "seats": [{"kind": "human"}] * 2})
        seats = connect_seats(live, info)
        clients = [seats[0][0], seats[1][0]]
        for _ in range(4):
            assert _move(clients)["type"] == "update"
        sync(clients)
        seq = clients[0].last["seq"]
        cluster.stop()
        down = _move(clients)
        assert down["type"] == "error" and down["code"] == "unavailable", down
        assert "try again" in str(down["message"]) and "SELECT" not in str(down["message"])
        assert "127.0.0.1" not in str(down["message"])
        cluster.start()
        # The very next move after the restart is stored (no AdminShutdown).
        up = _move(clients)
        assert up["type"] == "update" and up["seq"] == seq + 1, up
        # Restarted again with no move while it was down: still no failure.
        cluster.stop()
        cluster.start()
        assert _move(clients)["type"] == "update"
        play_out({0: [clients[0]], 1: [clients[1]]}, random.Random(3))
        rec = record_of(live, info["id"])
        for c in clients:
            c.close()
    finally:
        live.stop()
    again = LiveServer(cluster.url).start()
    try:
        listed = {g["id"]: g for g in again.get("/api/games").json()}
        assert listed[info["id"]]["status"] == "over"
        assert record_of(again, info["id"]) == rec
    finally:
        again.stop()


@pytest.mark.live
def test_the_lobby_answers_503_with_retry_after_while_the_database_is_down(
    cluster: Cluster,
) -> None:
    live = LiveServer(cluster.url).start()
    body = {"game": "conspiracy", "seats": [{"kind": "human"}] * 2}
    try:
        first = live.create(body)
        cluster.stop()
        listed = live.get("/api/games")
        created = httpx.post(live.base + "/api/games", json=body, timeout=30)
        japanese = httpx.get(
            live.base + "/api/games", headers={"accept-language": "ja"}, timeout=30
        )
        for r in (listed, created, japanese):
            assert r.status_code == 503, r.text
            assert int(r.headers["retry-after"]) > 0
            answer = r.json()
            assert answer["code"] == "unavailable"
            assert re.fullmatch(r"[0-9a-f]{8}", answer["error_id"])
            assert answer["error_id"] in answer["detail"]
            for secret in ("SELECT", "INSERT", "127.0.0.1", str(cluster.port), "Traceback"):
                assert secret not in r.text
        assert "try again" in listed.json()["detail"]
        assert "データベース" in japanese.json()["detail"]
        cluster.start()
        # Back: the list answers again, with the first game only (the refused create
        # stored nothing), and a game can be created.
        assert [g["id"] for g in live.get("/api/games").json()] == [first["id"]]
        second = live.create(body)
        assert {g["id"] for g in live.get("/api/games").json()} == {first["id"], second["id"]}
    finally:
        live.stop()
