"""Web server benchmark: concurrent games over websockets on loopback.

Starts ``python -m porphyra.server`` on a free loopback port with a fresh SQLite database
in a temporary directory, creates ``--games`` games (``--game mixed``: half Byzantium, half
2-player Conspiracy) whose seats are all driven by websocket clients in this process.  Each client
picks a random action from the legal list the server sends it (after ``--think`` ms; a meld or
redraw comes as its option table, composed into that list by the client as the page does, see
:mod:`porphyra.core.choices`; ``--legal-texts``: as an old client, every text sent), and
measures the latency from sending the submission to receiving the resulting ``update``
(the one echoing its action).  Prints p50, p90, p99 and max latency, decisions per second
and how many games finished.  Bounded by ``--seconds``.

    .venv/bin/python bench/bench_server.py --games 100 --seconds 60

Targets: porphyra's server CPU per decision at most 2.0x the floor's (issue 33: measured
against ``--floor`` in the same session, alternating, by ``bench/floor_ratio.py``; issue 13's
absolute 0.5 ms was below the web stack's own cost on a busy machine), and p99 under 100 ms
for 1,000 concurrent games with 5 s think time (``--games 1000 --think 5000``); the memory per
active game is printed too (peak resident memory growth / games), and the server CPU per
decision while playing, after every seat's first snapshot (without creating the games and
opening their sockets), and the latency of the submissions sent from then on.  The clients
measure with Python's cyclic garbage collector off: its pauses in this process would time
replies late.

``--floor`` serves with ``bench/server_floor.py`` instead: a do-nothing server on the same
web stack, speaking just enough of the protocol for these clients (give it the real run's
mean message size, ``--floor-pad``): the server CPU per decision that no server on this
stack can avoid, a peer measured the same way.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import websockets

from porphyra.core.choices import compose

#: Targets (a benchmark, not a test): server CPU per decision as a multiple of the floor's
#: (issue 33; ``bench/floor_ratio.py`` measures it), and p99 latency for 1,000 concurrent
#: games with 5 s think time (issue 13) on the project's 2-core machine.
TARGET_FLOOR_RATIO = 2.0
TARGET_P99_MS = 100.0


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON, return the decoded answer."""
    req = urllib.request.Request(
        base + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as r:
        out: dict[str, Any] = json.load(r)
        return out


class Stats:
    """Latencies (seconds) and counters shared by the clients."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.finished = 0
        self.error_texts: list[str] = []
        self.when: list[float] = []
        self.last_decision = 0.0
        self.started = 0.0
        self.server_cpu = 0.0
        #: Server resident memory (bytes) before the games and at its peak.
        self.server_rss: tuple[int, int] | None = None
        self.client_cpu = 0.0
        #: Server CPU seconds (since it started) at the end of the run.
        self.server_cpu_after = 0.0
        #: The server's pid (0: a server of ``--url``, not measured) and, once every seat
        #: had its first snapshot: (server CPU seconds, decisions measured) at that time.
        self.server_pid = 0
        self.seats = 0
        self.connected = 0
        self.all_connected: tuple[float, int] | None = None
        #: ``time.perf_counter()`` when every seat had its first snapshot (None: not yet).
        self.ready_at: float | None = None
        #: Messages the seats received, and their characters.
        self.messages = 0
        self.received = 0

    def seat_ready(self) -> None:
        """A seat got its first snapshot; the last one marks the end of the set-up."""
        self.connected += 1
        if self.connected == self.seats:
            self.ready_at = time.perf_counter()
            if self.server_pid:
                self.all_connected = (process_cpu(self.server_pid), len(self.latencies))


async def seat_client(
    ws_url: str, stats: Stats, rng: random.Random, think: float, deadline: float
) -> None:
    """Play one seat until the game ends or the deadline passes."""
    async with websockets.connect(ws_url, max_size=None) as ws:
        sent_at: float | None = None
        first = True
        while time.monotonic() < deadline:
            try:
                text = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.1, deadline - time.monotonic())
                )
            except TimeoutError:
                return
            stats.messages += 1
            stats.received += len(text)
            msg = json.loads(text)
            kind = msg["type"]
            if kind == "error":
                stats.errors += 1
                stats.error_texts.append(msg["message"])
                sent_at = None
                await ws.send(json.dumps({"type": "snapshot"}))  # look again, go on
                continue
            if kind not in ("snapshot", "update"):
                continue
            if first:
                first = False
                stats.seat_ready()
            if sent_at is not None and "last" in msg:
                stats.latencies.append(time.perf_counter() - sent_at)
                stats.when.append(sent_at)
                stats.last_decision = time.perf_counter()
                sent_at = None
            if msg["status"] == "over":
                stats.finished += 1
                return
            choices = msg.get("choices")
            if (choices or msg["legal"]) and sent_at is None:
                legal = compose(choices) if choices else msg["legal"]
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                action = legal[rng.randrange(len(legal))]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": action, "seq": msg["seq"]}))


async def run(args: argparse.Namespace, base: str, ws_base: str, server_pid: int = 0) -> Stats:
    """Create the games and drive every seat concurrently (``server_pid``: the server
    process, whose CPU time is read once every seat is connected)."""
    stats = Stats()
    stats.server_pid = server_pid
    stats.started = time.perf_counter()
    rng = random.Random(args.seed)
    tasks = []
    deadline = time.monotonic() + args.seconds
    for g in range(args.games):
        byzantium = args.game == "byzantium" or (args.game == "mixed" and g % 2 == 0)
        body: dict[str, Any] = (
            {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "human"}]}
            if byzantium
            else {
                "game": "conspiracy",
                "options": {"players": 2},
                "seats": [{"kind": "human"}, {"kind": "human"}],
            }
        )
        body["seed"] = args.seed + g
        info = await asyncio.to_thread(post, base, "/api/games", body)
        for inv in info["invites"]:
            url = f"{ws_base}/ws/{info['id']}?token={inv['token']}"
            url += "" if args.legal_texts else "&choices=1"
            seat_rng = random.Random(rng.getrandbits(32))
            tasks.append(seat_client(url, stats, seat_rng, args.think / 1000, deadline))
    stats.seats = len(tasks)
    cpu = time.process_time()
    # The clients are the instrument: a collection of their 2,000 connections' objects
    # stopped this loop for up to a third of a second (gen2), and every reply that arrived
    # meanwhile was timed late.  So no cyclic collection while measuring (refcounting
    # still frees nearly everything; the run is bounded by --seconds).
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        await asyncio.gather(*tasks)
    finally:
        gc.enable()
        gc.unfreeze()
    stats.client_cpu = time.process_time() - cpu
    return stats


def _status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def process_rss(pid: int) -> int:
    """Resident memory of process ``pid`` in bytes (Linux ``/proc``; 0 elsewhere)."""
    try:
        return _status_kib(pid, "VmRSS")
    except OSError:
        return 0


def process_peak_rss(pid: int) -> int:
    """Peak resident memory of process ``pid`` in bytes (Linux ``/proc``; 0 elsewhere)."""
    try:
        return _status_kib(pid, "VmHWM")
    except OSError:
        return 0


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) used so far by process ``pid`` (Linux), else 0."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    """The ``q`` quantile (0-1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def latency_figures(ms: list[float]) -> str:
    """``"p50 .. ms, p90 .. ms, p99 .. ms, max .. ms, mean .. ms"`` of latencies ``ms``
    (milliseconds, at least one)."""
    return (
        f"p50 {pct(ms, 0.5):.1f} ms, p90 {pct(ms, 0.9):.1f} ms, p99 {pct(ms, 0.99):.1f} ms, "
        f"max {max(ms):.1f} ms, mean {statistics.fmean(ms):.1f} ms"
    )


def main() -> None:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0, help="upper bound on the run")
    parser.add_argument("--think", type=float, default=0.0, help="mean think time per decision, ms")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--game",
        choices=("mixed", "byzantium", "conspiracy"),
        default="mixed",
        help="which games (mixed: half Byzantium, half 2-player Conspiracy)",
    )
    parser.add_argument("--db", default=None, help="SQLAlchemy URL (default: SQLite in a temp dir)")
    parser.add_argument("--url", default=None, help="use this running server (http://host:port)")
    parser.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help="nice increment of the server and the clients (negative needs root: on a "
        "machine shared with other jobs, gives the benchmark its CPU share)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="serve with bench/server_floor.py instead (the web stack alone, no game: "
        "what no server on this stack can avoid per decision)",
    )
    parser.add_argument(
        "--floor-pad", type=int, default=4000, help="--floor: filler characters per message"
    )
    parser.add_argument("--floor-moves", type=int, default=53, help="--floor: moves a game")
    parser.add_argument(
        "--legal-texts",
        action="store_true",
        help="clients ask for every legal text (as before issue 33) instead of option tables",
    )
    parser.add_argument(
        "--no-pin",
        action="store_true",
        help="do not pin the server to CPU 0 and the clients to CPU 1",
    )
    args = parser.parse_args()
    if args.url:
        base = args.url.rstrip("/")
        started = time.perf_counter()
        stats = asyncio.run(run(args, base, "ws" + base[4:]))
        report(args, stats, time.perf_counter() - started)
        return

    port = free_port()
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{Path(tmp) / 'bench.sqlite3'}"
        env = dict(os.environ)
        pin = not args.no_pin and hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) >= 2

        def server_cpu() -> None:
            if pin:
                os.sched_setaffinity(0, {0})
            if args.server_nice:
                os.nice(args.server_nice)

        if pin:
            os.sched_setaffinity(0, {1})  # the clients on another CPU than the server
        if args.server_nice:
            os.nice(args.server_nice)  # the clients get the same share as the server
        command = [
            sys.executable,
            "-m",
            "porphyra.server",
            "--port",
            str(port),
            "--db",
            db,
            "--bot-workers",
            "0",
            "--create-limit",
            "none",  # the benchmark creates its games at once from one address
            "--message-limit",
            "none",
            "--max-client-connections",
            "0",  # and opens every seat's socket from that one address
        ]
        if args.floor:
            floor = Path(__file__).with_name("server_floor.py")
            command = [sys.executable, str(floor), "--port", str(port)]
            command += ["--pad", str(args.floor_pad), "--moves", str(args.floor_moves)]
        server = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=server_cpu,
        )
        try:
            for _ in range(200):
                try:
                    urllib.request.urlopen(base + "/api/meta", timeout=1).read()
                    break
                except OSError:
                    time.sleep(0.05)
            else:
                raise SystemExit("the server did not start")
            cpu_before = process_cpu(server.pid)
            rss_before = process_rss(server.pid)
            started = time.perf_counter()
            stats = asyncio.run(run(args, base, ws_base, server.pid))
            elapsed = time.perf_counter() - started
            stats.server_cpu = process_cpu(server.pid) - cpu_before
            stats.server_cpu_after = process_cpu(server.pid)
            stats.server_rss = (rss_before, process_peak_rss(server.pid))
            report(args, stats, elapsed)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def report(args: argparse.Namespace, stats: Stats, elapsed: float) -> None:
    """Print the figures."""
    lat = stats.latencies
    if not lat:
        raise SystemExit("no decision was measured")
    ms = [x * 1000 for x in lat]
    active = max(1e-9, stats.last_decision - stats.started)
    print(
        f"games: {args.games} concurrent, {stats.finished // 2} finished; think time "
        f"{args.think:.0f} ms; {elapsed:.1f} s"
    )
    print(f"decisions: {len(ms)} ({len(ms) / active:.0f}/s while playing), errors: {stats.errors}")
    print(f"client CPU: {stats.client_cpu:.1f} s (this process, all {2 * args.games} seats)")
    if stats.messages:
        print(
            f"messages to the seats: {stats.messages} ({stats.messages / len(ms):.1f} per "
            f"decision), {stats.received / stats.messages:,.0f} characters each on average"
        )
    if stats.server_cpu:
        per = stats.server_cpu / len(ms) * 1000
        print(
            f"server CPU: {stats.server_cpu:.1f} s, {per:.2f} ms per decision "
            f"(one core sustains about {1000 / per:.0f} decisions/s)"
        )
    if stats.all_connected is not None and len(ms) > stats.all_connected[1]:
        cpu = stats.server_cpu_after - stats.all_connected[0]
        n = len(ms) - stats.all_connected[1]
        print(
            f"server CPU while playing (after every seat's first snapshot): {cpu:.1f} s for "
            f"{n} decisions, {cpu / n * 1000:.2f} ms per decision"
        )
    if stats.server_rss and stats.server_rss[0]:
        before, peak = stats.server_rss
        print(
            f"server memory: {before / 2**20:.0f} MiB idle, peak {peak / 2**20:.0f} MiB: "
            f"{(peak - before) / max(1, args.games) / 1024:.0f} KiB per active game"
        )
    if hasattr(os, "getloadavg"):
        print(
            "machine load average (1/5/15 min) at the end: {:.1f} / {:.1f} / {:.1f}".format(
                *os.getloadavg()
            )
        )
    for text in sorted(set(stats.error_texts))[:5]:
        print(f"  error: {text}")
    print(f"latency submission -> update: {latency_figures(ms)}")
    if stats.ready_at is not None:
        # Submissions sent once every game was created and every seat connected: the
        # 1,000 games at play, without the start-up burst (1,000 creations, 2,000 sockets)
        # that the submissions of the first seconds wait behind.
        playing = [x * 1000 for x, at in zip(lat, stats.when, strict=True) if at >= stats.ready_at]
        if playing:
            print(
                f"latency while playing (submitted after every seat's first snapshot, "
                f"{len(playing)} decisions): {latency_figures(playing)}"
            )
    print(
        f"targets: server CPU per decision <= {TARGET_FLOOR_RATIO}x the floor's (issue 33, "
        f"bench/floor_ratio.py); p99 < {TARGET_P99_MS} ms with 1000 games at --think 5000"
    )


if __name__ == "__main__":
    main()
