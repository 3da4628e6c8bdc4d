"""A live uvicorn server on a free loopback port, and websocket seat clients that record
every message they receive (helpers of the web-server tests)."""

from __future__ import annotations

import json
import socket
import threading
import time
from typing import Any

import httpx
import uvicorn
from websockets.sync.client import ClientConnection, connect

from porphyra.server.app import create_app

#: Seconds a test waits for one websocket message before failing (never a speed check:
#: only a guard against a hang).
RECV_TIMEOUT = 30.0


#: Tests drive games faster than any player: no per-client limits unless a test sets them
#: (the limits have their own tests).
UNLIMITED: dict[str, Any] = {
    "create_limit": None,
    "message_limit": None,
    "max_bot_games": None,
    "max_seat_connections": None,
    "max_client_connections": None,
    "chat_limit": None,
    "spectator_table_chat_limit": None,
    "read_limit": None,
    "hint_limit": None,
    "bot_pace": 0.0,
    #: A quick, reproducible hint bot with a win estimate (ISMCTS on a fixed budget).
    "hint_bot": "ismcts:iterations=60",
}


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """uvicorn serving :func:`create_app` in a thread.

    Args:
        db_url: the database URL (a file, so that a restart sees the same games).
        bot_workers: 0 = bots in threads.
        port: the port (default: a free one).
        options: further keyword arguments of :func:`create_app`.
    """

    def __init__(
        self, db_url: str, bot_workers: int = 0, port: int | None = None, **options: Any
    ) -> None:
        self.port = free_port() if port is None else port
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.app = create_app(db_url=db_url, bot_workers=bot_workers, **{**UNLIMITED, **options})
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            ws_max_size=64 * 1024,
            lifespan="on",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self) -> LiveServer:
        """Start and wait until it answers."""
        self.thread.start()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.server.started:
                return self
            time.sleep(0.02)
        raise RuntimeError("server did not start")

    def stop(self) -> None:
        """Ask uvicorn to exit and wait for the thread."""
        self.server.should_exit = True
        self.thread.join(timeout=20)

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        """POST /api/games; the created game's info (with invites)."""
        r = httpx.post(self.base + "/api/games", json=body, timeout=10)
        assert r.status_code == 201, r.text
        info: dict[str, Any] = r.json()
        return info

    def get(self, path: str) -> httpx.Response:
        """GET ``path``."""
        return httpx.get(self.base + path, timeout=10)


class SeatClient:
    """A websocket client of one seat (or a spectator) that records every message.

    Attributes:
        seat: the seat, or None for a spectator.
        messages: every message received, decoded, in order.
        last: the latest snapshot/update.
    """

    def __init__(
        self,
        server: LiveServer,
        game_id: str,
        token: str | None,
        seat: int | None,
        choices: bool = False,
    ):
        # choices: connect as the page does (``choices=1``: option tables, not texts).
        query = [f"token={token}"] if token else []
        query += ["choices=1"] if choices else []
        url = f"{server.ws_base}/ws/{game_id}" + ("?" + "&".join(query) if query else "")
        self.ws: ClientConnection = connect(url, max_size=None, open_timeout=10).__enter__()
        self.seat = seat
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.last: dict[str, Any] = {}
        self.log: list[str] = []
        self.log_messages: list[dict[str, Any]] = []

    def recv(self, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        """The next message (recorded)."""
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg["type"] in ("snapshot", "update"):
            # Updates carry only the log lines the client lacks (``log_start``): rebuild the
            # whole observation as the browser does.
            obs = msg["observation"]
            start = msg.get("log_start", 0)
            if "log" in obs:
                assert start <= len(self.log), (start, len(self.log))
                self.log = self.log[:start] + obs["log"]
                obs["log"] = list(self.log)
                # ... and the same log as messages (one per line).
                self.log_messages = self.log_messages[:start] + obs.get("log_messages", [])
                obs["log_messages"] = list(self.log_messages)
                assert len(self.log_messages) == len(self.log)
            self.last = msg
        self.messages.append(msg)
        return msg

    def recv_until(self, pred: Any, timeout: float = RECV_TIMEOUT) -> dict[str, Any]:
        """Receive until ``pred(message)`` holds; that message."""
        while True:
            msg = self.recv(timeout)
            if pred(msg):
                return msg

    def state_msg(self) -> dict[str, Any]:
        """Receive until the next snapshot or update."""
        return self.recv_until(lambda m: m["type"] in ("snapshot", "update"))

    def send(self, message: dict[str, Any] | str | bytes) -> None:
        """Send a message (dicts as JSON; bytes as a binary frame)."""
        if isinstance(message, dict):
            message = json.dumps(message)
        self.ws.send(message)

    def act(self, action: str, seq: int | None = None) -> None:
        """Submit ``action`` at ``seq`` (default: the last seen)."""
        self.send(
            {"type": "act", "action": action, "seq": self.last["seq"] if seq is None else seq}
        )

    def close(self) -> None:
        """Close the connection."""
        self.ws.close()


def connect_seats(
    server: LiveServer, info: dict[str, Any], spectators: int = 0
) -> dict[int | None, list[SeatClient]]:
    """Open a client for every human seat of ``info`` (and ``spectators`` spectators); each
    has received its snapshot.  Returns ``{seat: [client]}`` (None: spectators)."""
    out: dict[int | None, list[SeatClient]] = {}
    for inv in info["invites"]:
        c = SeatClient(server, info["id"], inv["token"], inv["seat"])
        c.recv_until(lambda m: m["type"] == "snapshot")
        out[inv["seat"]] = [c]
    for _ in range(spectators):
        c = SeatClient(server, info["id"], None, None)
        c.recv_until(lambda m: m["type"] == "snapshot")
        out.setdefault(None, []).append(c)
    return out
