"""Issue 13, items 3 and 8: limits per client, a cap on bot-only games, fair bot
scheduling, idle games released from memory, and bot workers that die with the server."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import porphyra
from porphyra.server import botpool
from porphyra.server.app import create_app
from porphyra.server.botpool import BotPool
from porphyra.server.hub import Hub
from porphyra.server.main import uvicorn_options

from .driver import sync
from .live import LiveServer, SeatClient, connect_seats, free_port

HUMANS = {"game": "byzantium", "seats": [{"kind": "human"}] * 2}
BOTS = {"game": "conspiracy", "seats": [{"kind": "bot", "bot": "random"}] * 2}


@pytest.fixture
def slow_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots that take 0.3 s a decision without using the CPU (a stand-in for searches)."""
    real = botpool.choose_on_state

    def slow(state: Any, seat: int, spec: str, seed: int) -> str:
        time.sleep(0.3)
        return real(state, seat, "random", seed)

    monkeypatch.setattr(botpool, "choose_on_state", slow)


def _live(db_url: str, **options: Any) -> Iterator[LiveServer]:
    live = LiveServer(db_url, **options).start()
    try:
        yield live
    finally:
        live.stop()


def _hub(live: LiveServer) -> Hub:
    hub: Hub = live.app.state.hub
    return hub


@pytest.mark.live
def test_game_creation_is_limited_per_client(db_url: str) -> None:
    for live in _live(db_url, create_limit="3/minute"):
        for _ in range(3):
            live.create(HUMANS)
        refused = httpx.post(live.base + "/api/games", json=HUMANS, timeout=10)
        assert refused.status_code == 429
        assert "too many new games" in refused.json()["detail"]


@pytest.mark.live
def test_reads_of_stored_games_are_limited_per_client(db_url: str) -> None:
    # A replay, or the info of a game not in memory, replays a whole record: an unlimited
    # client could keep the server busy with them.  The pages and static data stay free.
    for live in _live(db_url, read_limit="4/minute"):
        game = live.create(HUMANS)
        gid = game["id"]
        for path in ("/api/games", f"/api/games/{gid}", f"/api/games/{gid}/record"):
            assert live.get(path).status_code in (200, 403)  # 403: the record before the end
        mine = httpx.post(live.base + "/api/mine", json={"seats": []}, timeout=10)
        assert mine.status_code == 200
        for path in (f"/api/games/{gid}/replay", "/api/games"):
            refused = live.get(path)
            assert refused.status_code == 429
            assert "too many requests" in refused.json()["detail"]
            assert int(refused.headers["retry-after"]) >= 1
        korean = httpx.get(live.base + "/api/games", headers={"accept-language": "ko"}, timeout=10)
        assert korean.status_code == 429 and "요청" in korean.json()["detail"]
        assert "4 / 60 s" in korean.json()["detail"]  # no English "per 1 minute" inside
        for free in ("/", f"/game/{gid}", "/api/meta", "/api/cards/byzantium", "/api/i18n/ja"):
            assert live.get(free).status_code == 200, free
        # The game itself goes on: its sockets are not reads.
        clients = [c for group in connect_seats(live, game).values() for c in group]
        try:
            assert [c.last["seq"] for c in clients] == [0, 0]
        finally:
            for c in clients:
                c.close()


def _out_of_memory(live: LiveServer, game_ids: list[str]) -> None:
    deadline = time.monotonic() + 10
    while any(g in _hub(live).runners for g in game_ids):
        assert time.monotonic() < deadline, "the idle games stayed in memory"
        time.sleep(0.05)


@pytest.mark.live
def test_a_wrong_token_or_a_socket_over_the_read_limit_never_replays_a_stored_game(
    db_url: str,
) -> None:
    # Loading a game not in memory replays its record.  /api/mine and a rematch check
    # the token on the stored seats first, and opening a socket to such a game counts as
    # a read: none of them can make the server replay games at will.
    for live in _live(db_url, idle_after=0.2, read_limit="3/minute"):
        games = [live.create(HUMANS) for _ in range(3)]
        ids = [g["id"] for g in games]
        _out_of_memory(live, ids)
        bogus = [{"game": g, "token": "not-a-token"} for g in ids]
        mine = httpx.post(live.base + "/api/mine", json={"seats": bogus}, timeout=10)
        assert mine.status_code == 200 and mine.json() == []
        rematch = httpx.post(
            live.base + f"/api/games/{ids[0]}/rematch", json={"token": "nope"}, timeout=10
        )
        assert rematch.status_code == 403
        assert not any(g in _hub(live).runners for g in ids)  # nothing was replayed
        # The right token still finds its game (and loads it).
        token = games[1]["invites"][0]["token"]
        found = httpx.post(
            live.base + "/api/mine", json={"seats": [{"game": ids[1], "token": token}]}, timeout=10
        )
        assert [row["id"] for row in found.json()] == [ids[1]]
        # The address is at its limit now (3 reads): a socket to a game not in memory is
        # refused before the game is loaded.
        with connect(f"{live.ws_base}/ws/{ids[2]}", open_timeout=10) as ws:
            refusal = json.loads(ws.recv(timeout=10))
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert refusal["code"] == "limit" and "too many requests" in refusal["message"]
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        assert ids[2] not in _hub(live).runners


@pytest.mark.live
@pytest.mark.parametrize("trusted", [None, "127.0.0.1"])
def test_forwarded_for_counts_only_from_a_named_proxy(sqlite_url: str, trusted: str | None) -> None:
    app = create_app(db_url=sqlite_url, bot_workers=0, create_limit="3/minute")
    port = free_port()
    options = uvicorn_options("127.0.0.1", port, "warning", forwarded_allow_ips=trusted)
    server = uvicorn.Server(uvicorn.Config(app, lifespan="on", **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 20
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        codes = [
            httpx.post(
                f"http://127.0.0.1:{port}/api/games",
                json=HUMANS,
                headers={"x-forwarded-for": f"203.0.113.{i}"},
                timeout=10,
            ).status_code
            for i in range(5)
        ]
    finally:
        server.should_exit = True
        thread.join(timeout=20)
    if trusted is None:  # the default: the header is ignored, every request is 127.0.0.1's
        assert codes == [201, 201, 201, 429, 429]
    else:  # the operator named the proxy: each forwarded address has its own limit
        assert codes == [201] * 5


@pytest.mark.live
def test_messages_are_limited_per_connection(db_url: str) -> None:
    for live in _live(db_url, message_limit="5/second"):
        info = live.create(HUMANS)
        me = SeatClient(live, info["id"], info["invites"][0]["token"], 0)
        me.recv_until(lambda m: m["type"] == "snapshot")
        for _ in range(12):
            me.send({"type": "ping"})
        replies = [me.recv_until(lambda m: m["type"] != "presence") for _ in range(12)]
        assert [r["type"] for r in replies].count("pong") <= 6
        assert any(r["type"] == "error" and r["code"] == "limit" for r in replies)
        time.sleep(1.1)  # the window moved on: the same connection works again
        me.send({"type": "ping"})
        assert me.recv_until(lambda m: m["type"] != "presence")["type"] == "pong"
        me.close()


def _refused_with_limit(live: LiveServer, game_id: str, token: str | None) -> str:
    """Open a socket that must be refused: its error message (code ``limit``, close 4429)."""
    url = f"{live.ws_base}/ws/{game_id}" + (f"?token={token}" if token else "")
    with connect(url, open_timeout=10) as ws:
        reply = json.loads(ws.recv(timeout=10))
        assert reply["type"] == "error" and reply["code"] == "limit", reply
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        message: str = reply["message"]
        return message


@pytest.mark.live
def test_connections_are_limited_per_seat_and_per_client(db_url: str) -> None:
    for live in _live(db_url, max_seat_connections=2, max_client_connections=3):
        info = live.create(HUMANS)
        gid, tokens = info["id"], [i["token"] for i in info["invites"]]
        first = [SeatClient(live, gid, tokens[0], 0) for _ in range(2)]
        for c in first:
            c.recv_until(lambda m: m["type"] == "snapshot")
        assert "this seat is already open" in _refused_with_limit(live, gid, tokens[0])
        watcher = SeatClient(live, gid, None, None)
        watcher.recv_until(lambda m: m["type"] == "snapshot")
        assert "too many connections from your address" in _refused_with_limit(live, gid, tokens[1])
        first[0].close()  # a closed connection frees its places
        deadline = time.monotonic() + 10
        while True:
            again = SeatClient(live, gid, tokens[1], 1)
            if again.recv()["type"] == "snapshot":
                break
            again.close()
            assert time.monotonic() < deadline, "the closed connection was never counted off"
            time.sleep(0.1)
        for c in (first[1], watcher, again):
            c.close()


@pytest.mark.live
def test_bot_only_games_are_capped(db_url: str, slow_bots: None) -> None:
    for live in _live(db_url, max_bot_games=2):
        live.create(BOTS)
        live.create(BOTS)
        refused = httpx.post(live.base + "/api/games", json=BOTS, timeout=10)
        assert refused.status_code == 429 and "bots only" in refused.json()["detail"]
        # A game with a human seat is still welcome.
        live.create({"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "bot"}]})


@pytest.mark.live
def test_bot_only_cap_holds_under_concurrent_creation(db_url: str, slow_bots: None) -> None:
    for live in _live(db_url, max_bot_games=8):

        async def burst(base: str) -> list[int]:
            async with httpx.AsyncClient(base_url=base, timeout=30) as client:
                answers = await asyncio.gather(
                    *(client.post("/api/games", json=BOTS) for _ in range(16))
                )
            return [a.status_code for a in answers]

        codes = asyncio.run(burst(live.base))
        assert codes.count(201) == 8 and codes.count(429) == 8, codes
        assert _hub(live).active_bot_only_games() == 8
        # A refused or failed creation gives its slot back.
        bad = httpx.post(
            live.base + "/api/games",
            json={"game": "conspiracy", "seats": [{"kind": "bot", "bot": "nope"}] * 2},
        )
        assert bad.status_code == 429  # still full
        assert _hub(live).active_bot_only_games() == 8


@pytest.mark.live
def test_a_failed_bot_only_creation_gives_its_slot_back(db_url: str, slow_bots: None) -> None:
    for live in _live(db_url, max_bot_games=1):
        bad = httpx.post(
            live.base + "/api/games",
            json={"game": "conspiracy", "seats": [{"kind": "bot", "bot": "nope"}] * 2},
        )
        assert bad.status_code == 400
        live.create(BOTS)
        assert _hub(live).active_bot_only_games() == 1


def test_a_bot_facing_a_human_is_served_before_bot_only_games(slow_bots: None) -> None:
    state = porphyra.load_game("conspiracy", players=2).new_initial_state(seed=1)

    async def run() -> list[str]:
        pool = BotPool(workers=0, threads=2)
        done: list[str] = []

        async def decide(name: str, urgent: bool) -> None:
            await pool.choose(state, state.current_player(), "random", 1, urgent=urgent)
            done.append(name)

        try:
            crowd = [asyncio.create_task(decide(f"bots{i}", False)) for i in range(6)]
            await asyncio.sleep(0.05)
            await decide("human", True)
            await asyncio.gather(*crowd)
        finally:
            pool.shutdown()
        return done

    done = asyncio.run(run())
    # With first-in first-out, the human's bot would wait for the six searches before it.
    assert done.index("human") <= 1, done


@pytest.mark.live
def test_idle_games_leave_memory_and_reload_on_demand(db_url: str) -> None:
    for live in _live(db_url, idle_after=0.2):
        info = live.create(HUMANS)
        clients = connect_seats(live, info)
        emperor = clients[0][0]
        emperor.act("redraw -")
        emperor.recv_until(lambda m: m["type"] == "update" and "last" in m)
        sync([group[0] for group in clients.values()])
        before = {seat: group[0].last for seat, group in clients.items()}
        for group in clients.values():
            group[0].close()
        deadline = time.monotonic() + 10
        while info["id"] in _hub(live).runners:
            assert time.monotonic() < deadline, "the idle game stayed in memory"
            time.sleep(0.05)
        again = connect_seats(live, info)
        for seat, group in again.items():
            snap = group[0].last
            assert (snap["seq"], snap["observation"], snap["legal"]) == (
                before[seat]["seq"],
                before[seat]["observation"],
                before[seat]["legal"],
            )
            group[0].close()


WORKER_SCRIPT = textwrap.dedent(
    """
    import asyncio, multiprocessing, sys, time
    import porphyra
    from porphyra.server.botpool import BotPool

    async def main():
        pool = BotPool(workers=1)
        state = porphyra.load_game("conspiracy", players=2).new_initial_state(seed=1)
        await pool.choose(state, state.current_player(), "random", 1)
        print(*[p.pid for p in multiprocessing.active_children()], flush=True)
        time.sleep(120)

    asyncio.run(main())
    """
)


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status


@pytest.mark.live
def test_bot_workers_exit_when_their_server_is_killed() -> None:
    server = subprocess.Popen(
        [sys.executable, "-c", WORKER_SCRIPT], stdout=subprocess.PIPE, text=True
    )
    workers: list[int] = []
    try:
        assert server.stdout is not None
        workers = [int(p) for p in server.stdout.readline().split()]
        assert workers and all(_alive(p) for p in workers)
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
        deadline = time.monotonic() + 15
        while any(_alive(p) for p in workers):
            assert time.monotonic() < deadline, f"orphan bot workers {workers}"
            time.sleep(0.1)
    finally:
        if server.poll() is None:
            server.kill()
        for pid in workers:  # never leave an orphan behind, even when the test fails
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


def test_a_bot_worker_leaves_ctrl_c_to_its_server() -> None:
    # Ctrl-C signals the terminal's whole process group: a worker must not die of it with
    # a traceback of its own; the server stops it (and it still answers until then).
    async def main() -> None:
        pool = BotPool(workers=1)
        try:
            state = porphyra.load_game("conspiracy", players=2).new_initial_state(seed=1)
            await pool.choose(state, state.current_player(), "random", 1)
            workers = [p.pid for p in multiprocessing.active_children() if p.pid is not None]
            assert workers
            for pid in workers:
                os.kill(pid, signal.SIGINT)
            await asyncio.sleep(0.5)
            assert all(_alive(p) for p in workers)
            assert await pool.choose(state, state.current_player(), "random", 2)
        finally:
            pool.shutdown()

    asyncio.run(main())
