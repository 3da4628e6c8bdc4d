"""Issue 13, item 11: several server processes on one database (``porphyra.server.owners``,
``docs/scaling.md``).

Each game runs on one process at a time: the others send its clients there (error
``moved``, close code 4307; HTTP 421), a process cut off past its lease can never write
over the game's new owner (the fence), and when a process dies (``kill -9``) or stops,
another takes its games over, bots included, with every acknowledged move.  On SQLite
files and on PostgreSQL; leases of about a second, so that no test waits long.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from porphyra.server import owners
from porphyra.server.owners import ClusterSettings, check_lease
from porphyra.server.rows import GameRow, SeatRow, now
from porphyra.server.schema import owners_table
from porphyra.server.storage import Storage
from porphyra.server.writes import NotOwnerError

from .driver import play_out, record_of, sync
from .live import LiveServer, SeatClient, free_port
from .test_server_kill import ProcessServer, _is_subsequence_with_optional

#: Test leases and heartbeats (real seconds): short, and the lease above two beats.
LEASE_S = 1.2
BEAT_S = 0.25

HUMAN_VS_BOT = {
    "game": "conspiracy",
    "options": {"players": 2},
    "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
}
HUMANS = {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "human"}]}


def cluster_server(db_url: str, lease_s: float = LEASE_S, **options: Any) -> LiveServer:
    """A started in-process server of a cluster on ``db_url``."""
    port = free_port()
    address = f"http://127.0.0.1:{port}"
    return LiveServer(
        db_url, port=port, cluster_address=address, lease_s=lease_s, heartbeat_s=BEAT_S, **options
    ).start()


@pytest.fixture
def pair(db_url: str) -> Iterator[tuple[LiveServer, LiveServer]]:
    """Two servers of one cluster on a fresh database."""
    a = cluster_server(db_url)
    b = cluster_server(db_url)
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def first_message(
    server: LiveServer, game_id: str, token: str | None
) -> tuple[SeatClient, dict[str, Any]]:
    """Open a client of ``game_id`` on ``server``: ``(client, first message)``."""
    client = SeatClient(server, game_id, token, None)
    return client, client.recv()


def moved_to(server: LiveServer, game_id: str, token: str | None) -> tuple[Any, int | None]:
    """The ``server`` of the ``moved`` error a client of ``game_id`` gets, and the close
    code that follows (fails if it gets anything else)."""
    client, msg = first_message(server, game_id, token)
    assert msg["type"] == "error" and msg["code"] == "moved", msg
    with pytest.raises(ConnectionClosed) as closed:
        client.recv(timeout=10)
    return msg["server"], closed.value.rcvd.code if closed.value.rcvd else None


def seat_on(server: LiveServer, game_id: str, token: str, seconds: float = 15.0) -> SeatClient:
    """A seat client on ``server`` that got its snapshot, retrying while another server
    still holds the game (its lease running out)."""
    deadline = time.monotonic() + seconds
    while True:
        client, msg = first_message(server, game_id, token)
        if msg["type"] == "snapshot":
            client.seat = 0
            return client
        assert msg["code"] == "moved", msg
        client.close()
        assert time.monotonic() < deadline, "the game was never taken over"
        time.sleep(0.1)


def test_a_lease_is_exclusive_until_it_runs_out(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        assert owners.claim(storage, "g1", "a", 100.0, 10.0) == "a"
        assert owners.claim(storage, "g1", "b", 105.0, 10.0) == "a"  # a's lease: until 110
        assert owners.claim(storage, "g1", "a", 105.0, 10.0) == "a"  # renewed: until 115
        assert owners.claim(storage, "g1", "b", 112.0, 10.0) == "a"
        assert owners.claim(storage, "g1", "b", 116.0, 10.0) == "b"  # ran out: taken over
        assert owners.renew(storage, "a", "http://a", ["g1"], 116.0, 10.0) == {"g1"}  # lost
        assert owners.renew(storage, "b", "http://b", ["g1"], 116.0, 10.0) == set()
        assert owners.address_of(storage, "b") == "http://b"
        owners.release(storage, "b", ["g1"])
        assert owners.claim(storage, "g1", "a", 117.0, 10.0) == "a"  # released: anyone's
    finally:
        storage.close()


def test_a_heartbeat_renews_the_leases_of_thousands_of_games(sqlite_url: str) -> None:
    # (more games than SQLite takes parameters in one statement on older versions)
    storage = Storage(sqlite_url)
    try:
        ids = [f"g{i}" for i in range(1200)]
        for game_id in ids:
            owners.claim(storage, game_id, "a", 100.0, 10.0)
        assert owners.claim(storage, "g1100", "b", 105.0, 10.0) == "a"
        assert owners.renew(storage, "a", "http://a", ids, 108.0, 10.0) == set()
        assert owners.claim(storage, "g1100", "b", 112.0, 10.0) == "a"  # renewed to 118
        owners.release(storage, "a", ids)
        assert owners.claim(storage, "g1100", "b", 112.0, 10.0) == "b"
    finally:
        storage.close()


def test_every_write_of_a_game_is_fenced_by_its_lease(db_url: str) -> None:
    storage = Storage(db_url)
    try:
        stamp = now()
        row = GameRow("g1", "byzantium", "1", {}, 5, "active", 0, stamp, stamp)
        row.seats = [SeatRow(0, "human", None, "A", None), SeatRow(1, "human", None, "B", None)]
        storage.create_game(row)
        t = time.time()
        assert owners.claim(storage, "g1", "a", t, 30.0) == "a"
        move = {"game_id": "g1", "index": 0, "actions": [(0, "redraw -")], "seq": 1}
        entry = {**move, "status": "active", "result": None}
        with pytest.raises(NotOwnerError, match="g1"):
            storage.append_actions([entry], ("b", t + 30.0))
        with pytest.raises(NotOwnerError):
            storage.truncate_actions("g1", 0, 5, None, ("b", t + 30.0))
        with pytest.raises(NotOwnerError):
            storage.set_clock("g1", "{}", 7, ("b", t + 30.0))
        with pytest.raises(NotOwnerError):
            storage.add_chat("g1", 0, 0, "hello", stamp, ("b", t + 30.0))
        with pytest.raises(NotOwnerError):
            storage.set_rematch("g1", "g2", ("b", t + 30.0))
        assert storage.chat("g1") == []
        loaded = storage.load("g1")
        assert loaded is not None and (loaded.actions, loaded.seq, loaded.clock) == ([], 0, None)
        assert loaded.rematch is None
        storage.append_actions([entry], ("a", t + 60.0))  # the owner's write renews its lease
        loaded = storage.load("g1")
        assert loaded is not None and [a["action"] for a in loaded.actions] == ["redraw -"]
        assert owners.claim(storage, "g1", "b", t + 45.0, 30.0) == "a"
        # Released with a running clock: nobody's until its deadline, when any server's
        # heartbeat takes it over (its timeout must run); meanwhile anyone may claim it.
        owners.release(storage, "a", ["g1"], {"g1": t + 100.0})
        assert owners.orphans(storage, t + 99.0) == []
        assert owners.orphans(storage, t + 101.0) == ["g1"]
        assert owners.claim(storage, "g1", "b", t + 50.0, 30.0) == "b"
        owners.release(storage, "b", ["g1"])  # without a clock: no row at all
        assert owners.orphans(storage, t + 1e6) == []
    finally:
        storage.close()


def test_the_lease_must_outlive_two_heartbeats() -> None:
    with pytest.raises(ValueError, match="more than twice the heartbeat"):
        check_lease(10.0, 5.0)
    check_lease(10.5, 5.0)
    assert ClusterSettings(" http://Host.example:8000/ ").address == "http://host.example:8000"
    for address in ("", " ", "javascript:alert(1)", "10.0.0.1:8000", "http://", "http://h:x"):
        with pytest.raises(ValueError, match="address"):
            ClusterSettings(address, 15.0)
    with pytest.raises(ValueError, match="address"):
        ClusterSettings("http://h:99999", 15.0)
    for lease in (0.0, -5.0, float("nan"), float("inf"), 1e400, 3601.0):
        with pytest.raises(ValueError, match="lease"):
            ClusterSettings("http://127.0.0.1:8000", lease)
    with pytest.raises(SystemExit, match="give --cluster-address too"):
        from porphyra.server.cli import main

        main(["--lease", "20"])
    with pytest.raises(SystemExit, match="more than twice the heartbeat"):
        from porphyra.server.cli import main

        main(["--cluster-address", "http://127.0.0.1:1", "--lease", "8"])


@pytest.mark.live
def test_a_single_server_keeps_no_leases(sqlite_url: str) -> None:
    server = LiveServer(sqlite_url).start()
    try:
        info = server.create(HUMANS)
        SeatClient(server, info["id"], info["invites"][0]["token"], 0).state_msg()
    finally:
        server.stop()
    engine = create_engine(sqlite_url)
    with engine.connect() as conn:
        assert conn.execute(select(owners_table)).all() == []
    engine.dispose()


@pytest.mark.live
def test_a_game_runs_on_one_server_and_the_other_sends_its_clients_there(
    pair: tuple[LiveServer, LiveServer],
) -> None:
    a, b = pair
    info = a.create(HUMANS)
    game_id, token = info["id"], info["invites"][0]["token"]
    assert moved_to(b, game_id, token) == (a.base, 4307)
    assert moved_to(b, game_id, None) == (a.base, 4307)  # spectators too
    # A write on another server answers 421 with the owner's address (in the asker's
    # language); reading answers as stored, and never makes the game run there.
    rematch = f"{b.base}/api/games/{game_id}/rematch"
    answer = httpx.post(rematch, json={"token": token})
    assert answer.status_code == 421 and answer.json()["server"] == a.base
    korean = httpx.post(rematch, json={"token": token}, headers={"accept-language": "ko"})
    assert korean.status_code == 421 and "서버" in korean.json()["detail"]
    for server in (b, a):
        read = server.get(f"/api/games/{game_id}")
        assert read.status_code == 200 and read.json()["id"] == game_id
    assert game_id not in b.app.state.hub.runners
    seat = SeatClient(a, game_id, token, 0)
    assert seat.state_msg()["type"] == "snapshot"
    # The lobby's "your games" of any server lists it, as stored.
    mine = httpx.post(f"{b.base}/api/mine", json={"seats": [{"game": game_id, "token": token}]})
    assert [(g["id"], g["seat"], g["your_turn"]) for g in mine.json()] == [(game_id, 0, True)]
    assert game_id not in b.app.state.hub.runners  # (and it does not run there for that)
    time.sleep(3 * LEASE_S)  # a's heartbeats keep the game a's
    assert moved_to(b, game_id, token)[0] == a.base
    assert b.get("/api/games/no-such-game").status_code == 404
    assert b.get("/api/games/" + "x" * 40).status_code == 404  # (longer than any id)


@pytest.mark.live
def test_a_server_cut_off_past_its_lease_cannot_write_over_the_new_owner(
    pair: tuple[LiveServer, LiveServer],
) -> None:
    a, b = pair
    info = a.create(HUMANS)
    game_id = info["id"]
    tokens = {inv["seat"]: inv["token"] for inv in info["invites"]}
    on_a = {seat: SeatClient(a, game_id, token, seat) for seat, token in tokens.items()}
    for c in on_a.values():
        c.state_msg()
    hub = a.app.state.hub
    beat = hub._heartbeat_task
    beat.get_loop().call_soon_threadsafe(beat.cancel)  # a stops renewing: cut off
    first = seat_on(b, game_id, tokens[0])  # b takes the game once a's lease ran out
    stored_before = record_rows(b, game_id)
    mover = on_a[0]
    mover.act(mover.last["legal"][0])
    answer = mover.recv_until(lambda m: m["type"] in ("error", "update"))
    # One moved error, saying where the game went (the new owner's address), then 4307.
    assert answer["type"] == "error" and answer["code"] == "moved", answer
    assert answer["server"] == b.base, answer
    with pytest.raises(ConnectionClosed):
        mover.recv_until(lambda m: False, timeout=10)
    assert record_rows(b, game_id) == stored_before  # the fence refused a's write
    assert game_id not in hub.runners
    first.act(first.last["legal"][0])  # and b goes on
    done = first.recv_until(lambda m: m["type"] in ("error", "update") and "last" in m)
    assert done["type"] == "update", done


def record_rows(server: LiveServer, game_id: str) -> list[tuple[int, str]]:
    """The stored actions of ``game_id`` in ``server``'s database."""
    storage: Storage = server.app.state.hub.storage
    row = storage.load(game_id)
    assert row is not None
    return [(a["player"], a["action"]) for a in row.actions]


@pytest.mark.live
def test_a_stopping_server_hands_its_games_over_at_once(db_url: str) -> None:
    a = cluster_server(db_url, lease_s=60.0)  # a lease that would not run out in the test
    b = cluster_server(db_url, lease_s=60.0)
    try:
        info = a.create(HUMAN_VS_BOT)
        seat = SeatClient(a, info["id"], info["invites"][0]["token"], 0)
        seat.state_msg()
        seat.close()
        a.stop()
        again = seat_on(b, info["id"], info["invites"][0]["token"], seconds=10.0)
        play_out({0: [again]}, random.Random(3))  # b's bot plays its seat to the end
        assert record_of(b, info["id"])["result"] is not None
    finally:
        a.stop()
        b.stop()


@pytest.mark.live
def test_a_game_released_from_memory_gives_its_lease_up(db_url: str) -> None:
    a = cluster_server(db_url, lease_s=60.0, idle_after=0.2)
    b = cluster_server(db_url, lease_s=60.0)
    try:
        info = a.create(HUMANS)
        token = info["invites"][0]["token"]
        seat = SeatClient(a, info["id"], token, 0)
        seat.state_msg()
        seat.close()
        deadline = time.monotonic() + 10
        while info["id"] in a.app.state.hub.runners:
            assert time.monotonic() < deadline, "the idle game stayed in memory"
            time.sleep(0.05)
        again = seat_on(b, info["id"], token, seconds=5.0)  # no 60 s lease to wait for
        assert again.last["type"] == "snapshot"
        assert moved_to(a, info["id"], token)[0] == b.base
    finally:
        a.stop()
        b.stop()


#: A cluster server process with a quick heartbeat and unpaced bots (the command line has
#: no option for the heartbeat: the served default is 5 s, which would make a takeover wait
#: for a lease of over 10 s).
QUICK_BEAT = f"""
import dataclasses, sys
import porphyra.server.main as main
serve = main.serve
main.serve = lambda settings, **k: serve(
    dataclasses.replace(settings, heartbeat_s={BEAT_S}, bot_pace=0.0), **k
)
import porphyra.server.cli as cli
cli.main(sys.argv[1:])
"""


def cluster_process(db_url: str) -> ProcessServer:
    port = free_port()
    extra = ("--cluster-address", f"http://127.0.0.1:{port}", "--lease", str(LEASE_S))
    return ProcessServer(db_url, port, code=QUICK_BEAT, extra=extra)


@pytest.mark.live
def test_kill_9_of_a_server_hands_its_games_to_another_with_every_acknowledged_move(
    db_url: str,
) -> None:
    a = cluster_process(db_url).start()
    b = cluster_process(db_url).start()
    try:
        info = a.create(HUMAN_VS_BOT)
        game_id, token = info["id"], info["invites"][0]["token"]
        seat = SeatClient(a, game_id, token, 0)
        seat.state_msg()
        rng = random.Random(4)
        sent: list[tuple[str, bool]] = []
        while len(sent) < 6:
            sync([seat])
            if not seat.last["legal"]:
                seat.recv()  # the bot is deciding
                continue
            text = seat.last["legal"][rng.randrange(len(seat.last["legal"]))]
            seat.act(text)
            answer = seat.recv_until(
                lambda m: m["type"] == "error" or (m["type"] == "update" and "last" in m)
            )
            assert answer["type"] == "update", answer
            sent.append((text, True))
        killed = time.monotonic()
        a.kill()
        again = seat_on(b, game_id, token)
        assert time.monotonic() - killed < LEASE_S + 10  # (a guard, not a speed check)
        play_out({0: [again]}, rng)
        rec = record_of(b, game_id)
        mine = [x["action"] for x in rec["actions"] if x["player"] == 0]
        assert _is_subsequence_with_optional(mine, sent), f"{mine}\n{sent}"
    finally:
        a.stop()
        b.stop()


@pytest.mark.live
def test_a_server_restarted_at_its_address_takes_its_games_back_at_once(db_url: str) -> None:
    port = free_port()
    extra = ("--cluster-address", f"http://127.0.0.1:{port}", "--lease", "600")
    server = ProcessServer(db_url, port, code=QUICK_BEAT, extra=extra).start()
    try:
        info = server.create(HUMAN_VS_BOT)
        game_id, token = info["id"], info["invites"][0]["token"]
        SeatClient(server, game_id, token, 0).state_msg()
        server.kill()  # its 600 s lease is left behind
        server.start()  # a new process (a new server id) at the same address
        client, first = first_message(server, game_id, token)
        assert first["type"] == "snapshot", first  # no 600 s of "moved" to itself
        client.close()
    finally:
        server.stop()


@pytest.mark.live
def test_a_game_is_read_again_once_claimed(pair: tuple[LiveServer, LiveServer]) -> None:
    # b reads the game, then pauses before its claim; meanwhile a (still the owner, its
    # heartbeat stopped) stores a move, and its lease runs out.  b must run the game with
    # that acknowledged move, not the copy it read before claiming.
    a, b = pair
    info = a.create(HUMANS)
    game_id = info["id"]
    tokens = {inv["seat"]: inv["token"] for inv in info["invites"]}
    mover = SeatClient(a, game_id, tokens[0], 0)
    mover.state_msg()
    beat = a.app.state.hub._heartbeat_task
    beat.get_loop().call_soon_threadsafe(beat.cancel)
    hub = b.app.state.hub
    claim = hub._claim

    async def slow_claim(gid: str) -> None:
        await asyncio.sleep(3 * LEASE_S)  # (past a's lease, renewed by its move)
        await claim(gid)

    hub._claim = slow_claim
    opened: list[Any] = []
    reader = threading.Thread(
        target=lambda: opened.append(first_message(b, game_id, tokens[1])), daemon=True
    )
    reader.start()
    time.sleep(0.3)  # b has read the game and waits in its claim
    mover.act(mover.last["legal"][0])
    answer = mover.recv_until(lambda m: m["type"] in ("error", "update") and "last" in m)
    assert answer["type"] == "update", answer  # acknowledged by a, the owner then
    reader.join(timeout=30)
    _, snapshot = opened[0]
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == answer["seq"], snapshot
    assert len(record_rows(b, game_id)) == 1


@pytest.mark.live
def test_a_second_live_server_at_the_same_address_is_refused(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two live processes given one --cluster-address would take each other's games for
    ever (each start takes the address's games back): the second one is refused before
    it starts, while a dead predecessor's (one that no longer beats) is not in the way."""
    import porphyra.server.cli as cli
    import porphyra.server.main as main

    serve = main.serve  # with the test's quick heartbeat (no option sets it)
    monkeypatch.setattr(
        main,
        "serve",
        lambda settings, **k: serve(dataclasses.replace(settings, heartbeat_s=BEAT_S), **k),
    )

    def started(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a second server started at the same address")

    monkeypatch.setattr("uvicorn.run", started)
    a = cluster_server(db_url)
    address = f"http://127.0.0.1:{a.port}"
    try:
        argv = ["--db", db_url, "--port", "1", "--cluster-address", address]
        with pytest.raises(SystemExit) as refused:
            cli.main([*argv, "--lease", str(LEASE_S)])
        assert "another server is running at " + address in str(refused.value.code)
    finally:
        a.stop()
    storage = Storage(db_url)
    try:
        # A clean stop leaves no row: nothing to wait for.
        waits: list[float] = []
        owners.check_address_free(storage, address, LEASE_S, BEAT_S, sleep=waits.append)
        assert waits == []
        # A predecessor that died (its heartbeat stays where it was) is waited for once.
        owners.renew(storage, "dead", address, [], time.time(), LEASE_S)
        owners.check_address_free(storage, address, LEASE_S, BEAT_S, sleep=waits.append)
        assert waits == [1.5 * BEAT_S]

        # One whose heartbeat moves on meanwhile is alive.
        def beats(seconds: float) -> None:
            owners.renew(storage, "dead", address, [], time.time() + seconds, LEASE_S)

        with pytest.raises(owners.AddressInUse, match="its own --cluster-address"):
            owners.check_address_free(storage, address, LEASE_S, BEAT_S, sleep=beats)
    finally:
        storage.close()


def remaining(server: LiveServer, game_id: str) -> list[float]:
    """Each seat's remaining clock time in ``server``'s answer about ``game_id``, now."""
    r = httpx.get(f"{server.base}/api/games/{game_id}", timeout=10)
    assert r.status_code == 200, r.text
    return [s["remaining_s"] for s in r.json()["clock"]["seats"]]


@pytest.mark.live
def test_a_takeover_charges_nobody_for_the_time_between_the_two_servers(db_url: str) -> None:
    """Issue 33 §3: the time from the last renewal of the server that stopped to the
    takeover is charged to nobody (both seats lost 18.1 s of 60 in a failover)."""
    lease_s = 4.0  # the gap to charge nobody: well above the test's own delays
    a = cluster_server(db_url, lease_s=lease_s)
    b = cluster_server(db_url, lease_s=lease_s)
    try:
        info = a.create({**HUMANS, "clock": {"kind": "realtime", "base_s": 600}})
        game_id = info["id"]
        tokens = {inv["seat"]: inv["token"] for inv in info["invites"]}
        on_a = SeatClient(a, game_id, tokens[0], 0)
        on_a.state_msg()
        before = remaining(a, game_id)
        started = time.monotonic()
        beat = a.app.state.hub._heartbeat_task
        beat.get_loop().call_soon_threadsafe(beat.cancel)  # a stops renewing: cut off
        seat_on(b, game_id, tokens[0], seconds=30.0).close()  # b took the game over
        after = remaining(b, game_id)
        elapsed = time.monotonic() - started
        charged = [x - y for x, y in zip(before, after, strict=True)]
        # a's lease ran out lease_s after its last renewal, and b took over after that:
        # at least lease_s of the elapsed time is nobody's (without it, all of it was).
        assert all(c <= elapsed - lease_s + 0.5 for c in charged), (charged, elapsed)
        # Nobody gains more than the time since a's last renewal before the cut (at most a
        # heartbeat, given back as after a single server's restart).
        assert all(c >= -(BEAT_S + 0.15) for c in charged), charged
        time.sleep(0.5)  # and on b the clocks run on (both seats choose at this point)
        assert all(x < y for x, y in zip(remaining(b, game_id), after, strict=True))
        on_a.close()
    finally:
        a.stop()
        b.stop()


@pytest.mark.live
def test_a_router_learns_where_a_game_runs_and_is_refused_with_503_elsewhere(
    pair: tuple[LiveServer, LiveServer],
) -> None:
    """What deploy/haproxy.cfg relies on (issue 33 §4): the process running a game names
    it in its answers; another process refuses a router's websocket for it with 503 (to
    be retried elsewhere), and a browser's (no router header) with the error ``moved``."""
    a, b = pair
    r = httpx.post(a.base + "/api/games", json=HUMANS, timeout=10)
    assert r.status_code == 201 and r.headers["x-porphyra-game"] == r.json()["id"]
    game_id = r.json()["id"]
    router = {"x-porphyra-router": "haproxy"}
    with connect(f"{a.ws_base}/ws/{game_id}", additional_headers=router) as ws:
        assert ws.response is not None
        assert ws.response.headers["x-porphyra-game"] == game_id
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
    with pytest.raises(InvalidStatus) as refused:
        connect(f"{b.ws_base}/ws/{game_id}", additional_headers=router, open_timeout=10)
    assert refused.value.response.status_code == 503
    assert moved_to(b, game_id, None)[0] == a.base  # a browser: told where, as before
