"""A do-nothing game server: what the web stack costs by itself (``bench_server --floor``).

It speaks just enough of porphyra's protocol for ``bench_server``'s clients: ``POST
/api/games`` makes a game of two seats, ``/ws/{id}?token=T`` sends the seat a snapshot, and
each ``act`` (JSON, with the ``seq`` it answers) makes the next move: every seat of the game
gets an ``update`` (the mover's echoing its action), padded to ``--pad`` bytes, the seats
taking turns with a fixed legal list, and the game is over after ``--moves`` moves. It runs
on the same stack, uvicorn options and garbage-collector thresholds as porphyra's server
(FastAPI, uvicorn with uvloop and its websockets implementation), with no rules, views,
database or middleware: the part of a decision's server CPU that no server on this stack can
avoid.

    python bench/server_floor.py --port 8001 [--pad 4000] [--moves 60]
"""

from __future__ import annotations

import argparse
import gc
import json
import secrets
from dataclasses import dataclass, field
from typing import Any

import uvicorn
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from porphyra.server.main import GC_THRESHOLDS, uvicorn_options

#: The legal list of the seat to move (a few action texts, as a Conspiracy decision).
LEGAL = ["draw 1", "draw 2", "draw 3", "take 0", "take 1", "keep 0"]


@dataclass
class Table:
    """One game: its seats' tokens and sockets, the move number and who is to move."""

    tokens: list[str]
    sockets: dict[int, WebSocket] = field(default_factory=dict)
    seq: int = 0


def create_app(pad: int, moves: int) -> FastAPI:
    """The floor server's app (``pad``: bytes of filler per message; ``moves`` a game)."""
    app = FastAPI()
    tables: dict[str, Table] = {}
    filler = "x" * pad

    def message(table: Table, seat: int, kind: str, last: str | None) -> str:
        over = table.seq >= moves
        body: dict[str, Any] = {
            "type": kind,
            "seq": table.seq,
            "seat": seat,
            "status": "over" if over else "active",
            "legal": LEGAL if not over and table.seq % 2 == seat else [],
            "observation": filler,
        }
        if last is not None:
            body["last"] = last
        return json.dumps(body)

    @app.get("/api/meta")
    def meta() -> dict[str, Any]:
        return {"floor": True}

    @app.post("/api/games")
    def create() -> dict[str, Any]:
        game_id = secrets.token_hex(8)
        tokens = [secrets.token_urlsafe(16) for _ in range(2)]
        tables[game_id] = Table(tokens)
        return {"id": game_id, "invites": [{"token": t} for t in tokens]}

    @app.websocket("/ws/{game_id}")
    async def play(websocket: WebSocket, game_id: str, token: str) -> None:
        table = tables.get(game_id)
        if table is None or token not in table.tokens:
            await websocket.close(code=4404)
            return
        seat = table.tokens.index(token)
        await websocket.accept()
        table.sockets[seat] = websocket
        await websocket.send_text(message(table, seat, "snapshot", None))
        try:
            while True:
                msg = json.loads(await websocket.receive_text())
                if msg.get("type") == "snapshot" or msg.get("seq") != table.seq:
                    await websocket.send_text(message(table, seat, "snapshot", None))
                    continue
                table.seq += 1
                for other, ws in list(table.sockets.items()):
                    last = msg.get("action") if other == seat else None
                    await ws.send_text(message(table, other, "update", last))
        except WebSocketDisconnect:
            table.sockets.pop(seat, None)

    return app


def main() -> None:
    """``python bench/server_floor.py --port P [--pad BYTES] [--moves N]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pad", type=int, default=4000, help="filler bytes per message")
    parser.add_argument("--moves", type=int, default=60, help="moves a game")
    args = parser.parse_args()
    gc.set_threshold(*GC_THRESHOLDS)  # (as porphyra's server)
    uvicorn.run(
        create_app(args.pad, args.moves), **uvicorn_options("127.0.0.1", args.port, "warning")
    )


if __name__ == "__main__":
    main()
