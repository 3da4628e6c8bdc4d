"""Issue 13, items 5 and 8: ``kill -9`` of the server at chosen points of a game.

The server runs as ``python -m porphyra.server`` (bots in a worker process).  It is killed
right after a move was acknowledged, and right after a move was sent (before its answer),
several times in one game, on SQLite and on PostgreSQL.  After every restart the game goes
on; at the end its record holds every acknowledged move, in order (an unacknowledged one
may or may not be there), and the bot workers of the killed servers are gone.
"""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from .driver import play_out, record_of, sync
from .live import LiveServer, SeatClient, free_port

#: Kills per game (alternating after an acknowledgement / before the answer).
KILLS = 6


class ProcessServer(LiveServer):
    """``python -m porphyra.server`` in a child process on a fixed port and database."""

    def __init__(
        self, db_url: str, port: int, code: str | None = None, extra: tuple[str, ...] = ()
    ) -> None:
        # No uvicorn in this process.  ``code``: Python run with ``-c`` instead of ``-m
        # porphyra.server`` (it gets the same arguments; a fault injected before serving).
        self.db_url = db_url
        self.port = port
        self.code = code
        self.extra = extra  # further command-line arguments
        self.base = f"http://127.0.0.1:{port}"
        self.ws_base = f"ws://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> ProcessServer:
        self.process = subprocess.Popen(
            [
                sys.executable,
                *(["-c", self.code] if self.code else ["-m", "porphyra.server"]),
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--bot-workers",
                "1",
                "--create-limit",
                "none",
                "--message-limit",
                "none",
                "--read-limit",
                "none",
                *self.extra,
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.base + "/api/meta", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def kill(self) -> list[int]:
        """``kill -9`` the server; the pids of its bot workers (children) at that time."""
        assert self.process is not None
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        workers = [int(p) for p in children.read_text().split()] if children.exists() else []
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        return workers

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)


def _alive(pid: int) -> bool:
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False


def _connect(server: LiveServer, info: dict[str, object]) -> list[SeatClient]:
    clients = []
    for inv in info["invites"]:  # type: ignore[attr-defined]
        c = SeatClient(server, str(info["id"]), inv["token"], inv["seat"])
        c.recv_until(lambda m: m["type"] == "snapshot")
        clients.append(c)
    return clients


def _is_subsequence_with_optional(record: list[str], sent: list[tuple[str, bool]]) -> bool:
    """``record`` starts with ``sent`` less some unacknowledged entries (the moves of the
    game's end follow).  Not greedy: an unacknowledged move that was not stored, then sent
    again with the same text and acknowledged, matches the stored one only once."""

    @functools.cache
    def fits(i: int, j: int) -> bool:  # record[i:] starts with sent[j:] less some unacked
        if j == len(sent):
            return True
        text, acked = sent[j]
        if i < len(record) and record[i] == text and fits(i + 1, j + 1):
            return True
        return not acked and fits(i, j + 1)

    return fits(0, 0)


@pytest.mark.live
def test_kill_9_at_chosen_points_loses_no_acknowledged_move(db_url: str) -> None:
    port = free_port()
    server = ProcessServer(db_url, port).start()
    orphans: list[int] = []
    try:
        info = server.create(
            {
                "game": "conspiracy",
                "options": {"players": 3},
                "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            }
        )
        rng = random.Random(9)
        sent: list[tuple[str, bool]] = []
        for kill in range(KILLS):
            clients = _connect(server, info)
            for step in range(4):
                sync(clients)
                ready = [c for c in clients if c.last["legal"]]
                if not ready:
                    clients[0].recv()
                    continue
                actor = ready[0]
                text = actor.last["legal"][rng.randrange(len(actor.last["legal"]))]
                actor.act(text)
                if step == 3 and kill % 2:  # killed before the answer
                    sent.append((text, False))
                    break
                answer = actor.recv_until(
                    lambda m: m["type"] == "error" or (m["type"] == "update" and "last" in m)
                )
                assert answer["type"] == "update", answer
                sent.append((text, True))
            orphans += server.kill()
            for c in clients:
                c.ws.close()
            server.start()
        clients = _connect(server, info)
        play_out({c.seat: [c] for c in clients}, rng)
        rec = record_of(server, str(info["id"]))
        humans = [a["action"] for a in rec["actions"] if a["player"] in (0, 1)]
        assert _is_subsequence_with_optional(humans, sent), f"{humans}\n{sent}"
        for c in clients:
            c.close()
    finally:
        server.stop()
    deadline = time.monotonic() + 15
    while any(_alive(p) for p in orphans):
        assert time.monotonic() < deadline, f"bot workers outlived their server: {orphans}"
        time.sleep(0.1)
