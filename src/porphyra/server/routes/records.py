"""Records and replays of finished games.

``GET /api/games/{id}/record``: the record (with the seed, the seat names, the clock
settings and clock events), only once the game is over; ``?download=1`` as a file.
``GET /api/games/{id}/replay?view=public|all|N`` (N: a seat, counted from 1): one frame
per state of a finished game (403 before the end).  Both count as reads of stored games
(:data:`porphyra.server.deps.READS`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from porphyra.server.deps import READS, existing, hub_of
from porphyra.server.summary import parse_view, replay_frames

router = APIRouter()


@router.get("/api/games/{game_id}/record", dependencies=READS)
async def game_record(game_id: str, request: Request, download: bool = False) -> JSONResponse:
    runner = await existing(hub_of(request.app), game_id)
    if not runner.over:
        raise HTTPException(403, "the record (with its seed) is available once the game is over")
    headers = {}
    if download:
        headers["content-disposition"] = (
            f'attachment; filename="{runner.name}-{runner.id}.porphyra.json"'
        )
    return JSONResponse(runner.record_with_seats(), headers=headers)


@router.get("/api/games/{game_id}/replay", dependencies=READS)
async def game_replay(game_id: str, request: Request, view: str = "public") -> dict[str, Any]:
    """The frames of a finished game (:func:`replay_frames`), never before its end:
    each frame's log as English lines and as messages (``log_messages``) that the
    page renders in its language."""
    runner = await existing(hub_of(request.app), game_id)
    if not runner.over:
        raise HTTPException(403, "a game can be replayed once it is over")
    try:
        chosen = parse_view(view, len(runner.seats))
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from None
    rec = runner.record_with_seats()
    frames = await asyncio.get_running_loop().run_in_executor(None, replay_frames, rec, chosen)
    return {
        "id": runner.id,
        "game": runner.name,
        "view": view,
        "seat": chosen if isinstance(chosen, int) else None,
        "seats": runner.seats_info(),
        "options": runner.row.options,
        "result": rec["result"],
        "frames": frames,
    }
