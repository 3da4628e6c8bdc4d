"""Issue 32 §2: quick match in cluster mode (two live servers on one database, SQLite
and PostgreSQL): the queue is the database's, so two players waiting on different
servers are paired; the server that paired them runs the table, and the other sends its
player there (421 with the owner's address), as for any game."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from .accounts import PASSWORD
from .live import LiveServer, free_port

pytestmark = pytest.mark.live

JOIN = {"game": "byzantium", "players": 2, "clock": "realtime"}


def _cluster_server(db_url: str) -> LiveServer:
    port = free_port()
    return LiveServer(
        db_url, port=port, cluster_address=f"http://127.0.0.1:{port}", lease_s=1.2, heartbeat_s=0.25
    ).start()


@pytest.fixture
def pair(db_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    a = _cluster_server(db_url)
    b = _cluster_server(db_url)
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def _person(server: LiveServer, name: str) -> httpx.Client:
    client = httpx.Client(base_url=server.base, timeout=10)
    r = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return client


def test_players_waiting_on_two_servers_are_paired(pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = pair
    alice, bob = _person(a, "Alice"), _person(b, "Bob")
    try:
        assert alice.post("/api/quickmatch", json=JOIN).json()["match"] is None
        found_b: dict[str, Any] = bob.post("/api/quickmatch", json=JOIN).json()["match"]
        assert found_b is not None
        found_a: dict[str, Any] = alice.get("/api/quickmatch").json()["match"]
        assert found_a["game"] == found_b["game"] and found_a["seat"] != found_b["seat"]
        # Server b made the table and runs it: a sends Alice there.
        moved = alice.post(found_a["link"])
        assert moved.status_code == 421 and moved.json()["server"] == b.base
        there = httpx.post(b.base + found_a["link"], cookies=alice.cookies, timeout=10)
        assert there.status_code == 200, there.text
        assert there.json()["seat"] == found_a["seat"]
        assert bob.post(found_b["link"]).json()["seat"] == found_b["seat"]
    finally:
        alice.close()
        bob.close()
