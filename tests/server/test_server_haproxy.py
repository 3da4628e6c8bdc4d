"""Issue 33 §4: a cluster behind a real load balancer, as operators deploy it.

PostgreSQL, three ``porphyra.server`` processes in cluster mode (``--cluster-address``)
and HAProxy (Debian's package) with the repository's ``deploy/haproxy.cfg``, which sends
``/ws/{id}`` and ``/api/games/{id}/...`` to the process that runs the game.  Games of a
person (played by this test through HAProxy only) and a bot are played while the process
running the first of them is killed (``kill -9``) and started again at its address.  No
acknowledged move is lost, every game ends (none is stuck), and the person's clock is not
charged for the takeover.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from websockets.exceptions import ConnectionClosed, InvalidStatus

from porphyra.server.schema import owners_table, servers_table

from .conftest import fresh_postgres_database
from .live import LiveServer, SeatClient
from .test_server_cluster import QUICK_BEAT
from .test_server_kill import ProcessServer, _is_subsequence_with_optional

CONFIG = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"
#: The lease of the test's processes (seconds): a takeover waits at least this long, which
#: a clock charged for it would show plainly.
LEASE_S = 10.0
#: The clock of every game (seconds, no increment).
BASE_S = 900
GAMES = 4


def haproxy_binary() -> str:
    """The path of HAProxy, or skip the test (it is Debian's ``haproxy``; ``.ci/run``
    installs it)."""
    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
    if found is None:
        pytest.skip("HAProxy is not installed (apt-get install haproxy; bash .ci/run does)")
    return found


def reserve_port() -> socket.socket:
    """Hold a free loopback port for this test: a socket bound to it with ``SO_REUSEADDR``
    that never listens (close it at the end).

    While it is held, no other socket can take the port: ``free_port`` of another test
    (``pytest -n`` runs two at once), an outgoing connection's port, a bind without
    ``SO_REUSEADDR``; yet the process it is given can listen on it (uvicorn and HAProxy
    set ``SO_REUSEADDR``).  A port picked by ``free_port`` alone is free only until the
    process binds it: seconds before HAProxy (three processes start first), ten and more
    between a process's kill and its restart at its address; another test's server that
    took it in between answered in its place.
    """
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


class Balancer(LiveServer):
    """HAProxy with ``deploy/haproxy.cfg`` on ``port`` in front of ``servers`` (host:port
    each).  Ready means HAProxy itself answers (its ``monitor-uri``: not another server on
    that port), then a process through it."""

    def __init__(self, servers: list[str], port: int, log: Path) -> None:
        self.log = log  # HAProxy's own messages (stderr), shown when the test fails
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.env = {
            **os.environ,
            "PORPHYRA_LB_BIND": f"127.0.0.1:{port}",
            **{f"PORPHYRA_S{i + 1}": s for i, s in enumerate(servers)},
        }
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Balancer:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [haproxy_binary(), "-db", "-f", str(CONFIG)],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"HAProxy exited: {self.describe()}")
            try:
                alive = httpx.get(self.base + "/haproxy/alive", timeout=2).status_code == 200
                if alive and httpx.get(self.base + "/api/meta", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"HAProxy did not start: {self.describe()}")

    def describe(self) -> str:
        """Whether HAProxy runs, and the end of its messages (for a failure's text)."""
        code = None if self.process is None else self.process.poll()
        state = "running" if code is None else f"exited with {code}"
        return f"HAProxy {state}; its log ends:\n{self.log.read_text(errors='replace')[-3000:]}"

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class Table:
    """One game of a person (seat 0, this test, through the balancer) and a bot."""

    def __init__(self, lb: Balancer, info: dict[str, Any], rng: random.Random) -> None:
        self.lb, self.id, self.rng = lb, info["id"], rng
        self.token = info["invites"][0]["token"]
        self.sent: list[tuple[str, bool]] = []
        self.client: SeatClient | None = None
        self.over = False
        self.refusals: list[dict[str, Any]] = []
        #: The person's clock (seconds used) before the kill, and after their first
        #: acknowledged move once the game was taken over (only for the victim's games).
        self.used_before: float | None = None
        self.used_after: float | None = None

    def connect(self, seconds: float = 60.0) -> SeatClient:
        """A seat client through the balancer that got its snapshot (retrying while the
        game moves: "moved", a refused or dropped connection)."""
        deadline = time.monotonic() + seconds
        while True:
            assert time.monotonic() < deadline, (
                f"game {self.id} was stuck for {seconds} s: {self.refusals[-3:]}\n"
                + self.lb.describe()
            )
            try:
                client = SeatClient(self.lb, self.id, self.token, 0)
            except (OSError, InvalidStatus, TimeoutError) as exc:
                self.refusals.append({"connect": repr(exc)})
                time.sleep(0.2)
                continue
            try:
                first = client.recv()
            except (ConnectionClosed, TimeoutError) as exc:
                self.refusals.append({"first": repr(exc)})
                client.close()
                time.sleep(0.2)
                continue
            if first["type"] == "snapshot":
                self.client = client
                return client
            assert first["type"] == "error" and first["code"] in ("moved", "unavailable"), first
            self.refusals.append(first)
            client.close()
            time.sleep(0.2)

    def step(self) -> None:
        """Make the person's next move if the game waits for it (else take one message);
        an answer lost with its connection counts as not acknowledged."""
        client = self.client or self.connect()
        try:
            if client.last["status"] == "over":
                self.over = True
                return
            if not client.last["legal"]:
                client.state_msg()
                return
            text = self.rng.choice(client.last["legal"])
            client.act(text)
            self.sent.append((text, False))
            answer = client.recv_until(
                lambda m: m["type"] == "error" or (m["type"] == "update" and "last" in m)
            )
        except (ConnectionClosed, TimeoutError):
            self.client = None
            return
        if answer["type"] == "update" and answer["last"] == text:
            self.sent[-1] = (text, True)
            if self.used_before is not None and self.used_after is None:
                self.used_after = self.used()
        elif answer["type"] == "error" and answer["code"] in ("moved", "unavailable"):
            client.close()
            self.client = None

    def used(self) -> float:
        """Seconds the person's clock has used, as of its last start or stop (the game's
        public data, through the balancer)."""
        info = httpx.get(f"{self.lb.base}/api/games/{self.id}", timeout=10).json()
        return float(BASE_S - info["clock"]["seats"][0]["remaining_s"])


def owner_of(db_url: str, game_id: str) -> str:
    """The address of the process that owns ``game_id`` now."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            address = conn.execute(
                select(servers_table.c.address)
                .select_from(
                    owners_table.join(servers_table, servers_table.c.id == owners_table.c.server_id)
                )
                .where(owners_table.c.game_id == game_id)
            ).scalar_one()
    finally:
        engine.dispose()
    return str(address)


@pytest.fixture
def pg_url(postgres_admin_url: str) -> Iterator[str]:
    """A fresh database on the tests' PostgreSQL server."""
    yield from fresh_postgres_database(postgres_admin_url)


@pytest.mark.live
def test_games_through_haproxy_survive_a_killed_and_restarted_process(
    pg_url: str, tmp_path: Path
) -> None:
    haproxy_binary()
    ports = [reserve_port() for _ in range(4)]  # three processes and HAProxy
    processes = []
    for held in ports[:3]:
        port = held.getsockname()[1]
        extra = ("--cluster-address", f"http://127.0.0.1:{port}", "--lease", str(LEASE_S))
        processes.append(ProcessServer(pg_url, port, code=QUICK_BEAT, extra=extra))
    servers = [f"127.0.0.1:{p.port}" for p in processes]
    lb = Balancer(servers, ports[3].getsockname()[1], tmp_path / "haproxy.log")
    starter = ThreadPoolExecutor(1)
    try:
        for p in processes:
            p.start()
        lb.start()
        rng = random.Random(33)
        body = {
            "game": "conspiracy",
            "options": {"players": 2},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
            "clock": {"kind": "realtime", "base_s": BASE_S},
        }
        tables = [Table(lb, lb.create(body), rng) for _ in range(GAMES)]
        for _ in range(4):  # a few moves everywhere, each acknowledged
            for t in tables:
                t.step()
        owner = owner_of(pg_url, tables[0].id)
        victim = next(p for p in processes if p.base == owner)
        victims = [t for t in tables if owner_of(pg_url, t.id) == owner]
        for t in victims:
            t.used_before = t.used()
        started = time.monotonic()
        victim.kill()
        took_over = False
        restart: Future[ProcessServer] | None = None
        steps = 0
        while not all(t.over for t in tables):
            steps += 1
            assert steps < 20_000, "the games did not end"
            for t in tables:
                if not t.over:
                    t.step()
            if not took_over and all(owner_of(pg_url, t.id) != owner for t in victims):
                took_over = True
                assert time.monotonic() - started >= LEASE_S - 1  # (the lease ran out)
                # A new process at the same address, back in HAProxy; started beside the
                # games, which go on meanwhile (seconds on a busy machine: waiting here
                # would charge the person's clocks with the test's own wait).
                restart = starter.submit(victim.start)
        assert took_over and restart is not None
        restart.result(timeout=120)
        assert victim.process is not None and victim.process.poll() is None
        for t in tables:
            rec = httpx.get(f"{lb.base}/api/games/{t.id}/record", timeout=10).json()
            assert rec["result"] is not None
            mine = [x["action"] for x in rec["actions"] if x["player"] == 0]
            assert _is_subsequence_with_optional(mine, t.sent), f"{mine}\n{t.sent}"
            assert any(acked for _, acked in t.sent)
        # The takeover (at least LEASE_S) is charged to nobody: the person's decision that
        # spans it (or the first one after it) costs only the test's own work of a round
        # of moves.  (Measured over that one decision, not the whole game: over a whole
        # game the test's work for the other tables adds up to seconds on a busy machine.)
        for t in victims:
            assert t.used_before is not None and t.used_after is not None, t.id
            charged = t.used_after - t.used_before
            # (Below zero by design, a little: the time from the dead process's last
            # heartbeat to its kill, a beat of 0.25 s or more on a busy machine, is charged
            # to nobody either; and each reading is rounded to a tenth of a second.)
            assert -1.0 < charged < LEASE_S - 2, (t.id, charged)
    finally:
        starter.shutdown(wait=True)
        lb.stop()
        for p in processes:
            p.stop()
        for held in ports:
            held.close()
