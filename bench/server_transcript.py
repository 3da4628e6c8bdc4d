"""What every seat sees, as one digest, and the server's own CPU per decision.

Plays whole games in-process through the server's match runner (``Hub`` on an SQLite
file in a temporary directory, as ``bench_server.py`` stores; no web stack): per game two
clients on each seat and one spectator; at each step a seat the game waits for (a random
one, so simultaneous choices come in either order) submits a random action from the legal
list its own client was sent. Every message each client receives is kept as it is seen:
decoded, a meld or redraw sent as its option table (``choices``, to clients that compose
the texts: ``--choices``, as the game page does) replaced by the texts composed from it
(:func:`porphyra.core.choices.compose`), encoded again with sorted keys, the game's random
id replaced by ``G``; the digest of all of them changes when anything a seat or spectator
sees changes (run it before and after a change of the per-decision path, and with and
without ``--choices``: the same digest means nobody sees anything different).

It also prints the process CPU per decision spent in the runner (submission, engine,
storage, views, encoding): the part of ``bench/bench_server.py``'s figure that is
porphyra's own, without the web stack and with little noise from a busy machine.

    .venv/bin/python bench/server_transcript.py [--games 6] [--seed 1] [--choices]

``--bench`` plays the shape of ``bench/bench_server.py`` instead (one client a seat, no
spectator, half Byzantium and half 2-player Conspiracy, clients taking option tables), the
runner's share of that benchmark's CPU per decision.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from porphyra.core.choices import compose, legal_texts
from porphyra.server.client import Client
from porphyra.server.hub import Hub
from porphyra.server.match import MatchRunner
from porphyra.server.storage import Storage

#: The games played, in turn: (name, options).
GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("byzantium", {}),
    ("conspiracy", {"players": 2}),
    ("conspiracy", {"players": 3}),
)

#: The games of ``--bench``: those of ``bench/bench_server.py``.
BENCH_GAMES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("byzantium", {}),
    ("conspiracy", {"players": 2}),
)


def _seen(text: str) -> str:
    """``text`` as its client sees it: a decision's option table as its composed texts,
    keys sorted."""
    message = orjson.loads(text)
    choices = message.pop("choices", None)
    if choices is not None:
        message["legal"] = compose(choices)
    return orjson.dumps(message, option=orjson.OPT_SORT_KEYS).decode()


def _drain(client: Client) -> list[str]:
    out = []
    while not client.outbox.empty():
        text = client.outbox.get_nowait()
        if text is not None:
            out.append(text)
    return out


async def _play(
    hub: Hub,
    name: str,
    options: dict[str, Any],
    seed: int,
    rng: random.Random,
    choices: bool = False,
    per_seat: int = 2,
    spectators: int = 1,
) -> tuple[list[str], int, float, int]:
    """Play one game to its end: (every message as seen, in order per client; decisions;
    CPU s; characters sent)."""
    players = int(options.get("players", 2))
    seats = [{"kind": "human", "name": f"P{i}"} for i in range(players)]
    runner: MatchRunner
    runner, _tokens = await hub.create(name, options, seats, seed=seed)

    def new_client(seat: int | None) -> Client:
        made = Client(seat)
        if choices:  # (set only when asked: a version before issue 33 has no compact)
            made.compact = True
        return made

    clients = [new_client(s) for s in range(players) for _ in range(per_seat)]
    clients += [new_client(None) for _ in range(spectators)]
    for client in clients:
        runner.attach(client)
    first: dict[int | None, Client] = {c.seat: c for c in reversed(clients) if c.seat is not None}
    latest: dict[int, dict[str, Any]] = {}
    texts: list[list[str]] = [[] for _ in clients]
    sent = [0]

    def collect() -> None:
        for i, client in enumerate(clients):
            got = _drain(client)
            sent[0] += sum(len(t) for t in got)
            texts[i].extend(_seen(t).replace(runner.id, "G") for t in got)
            if client is first.get(client.seat):
                assert client.seat is not None
                for text in got:
                    message = orjson.loads(text)
                    if message["type"] in ("snapshot", "update"):
                        latest[client.seat] = message

    collect()
    decisions, cpu = 0, 0.0
    while not runner.over and decisions < 2000:
        waiting = [s for s in runner.state.active_players() if legal_texts(latest[s])]
        seat = rng.choice(waiting)
        view = latest[seat]
        legal = legal_texts(view)
        started = time.process_time()
        await runner.submit(seat, legal[rng.randrange(len(legal))], view["seq"])
        cpu += time.process_time() - started
        decisions += 1
        collect()
    return [t for per in texts for t in per], decisions, cpu, sent[0]


async def _main(games: int, seed: int, choices: bool, bench: bool = False) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'transcript.sqlite3'}"
        await _play_all(url, games, seed, choices, bench)


async def _play_all(
    url: str, games: int, seed: int, choices: bool = False, bench: bool = False
) -> None:
    hub = Hub(Storage(url))
    rng = random.Random(seed)
    digest = hashlib.sha256()
    total, cpu, chars = 0, 0.0, 0
    for g in range(games):
        mix = BENCH_GAMES if bench else GAMES
        name, options = mix[g % len(mix)]
        shape = (1, 0) if bench else (2, 1)
        texts, decisions, used, size = await _play(
            hub, name, options, seed + g, rng, choices or bench, *shape
        )
        for text in texts:
            digest.update(text.encode())
            digest.update(b"\n")
        chars += size
        total += decisions
        cpu += used
    await hub.stop()
    print(f"games {games}, decisions {total}, characters sent {chars:,}")
    print(f"runner CPU per decision: {cpu / max(1, total) * 1000:.3f} ms")
    print(f"digest of every text sent: {digest.hexdigest()}")


def main() -> None:
    """``python bench/server_transcript.py [--games N] [--seed S]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--choices", action="store_true", help="clients take option tables, as the page does"
    )
    parser.add_argument(
        "--bench", action="store_true", help="the shape of bench_server.py (see above)"
    )
    args = parser.parse_args()
    asyncio.run(_main(args.games, args.seed, args.choices, args.bench))


if __name__ == "__main__":
    main()
