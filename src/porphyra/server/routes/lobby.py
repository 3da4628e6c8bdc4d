"""The lobby and its games (REST, JSON).

``GET  /api/meta``               games, lobby options, bot names, whether solo exists.
``GET  /api/games``              saved games, newest first (no seeds, no tokens).
``POST /api/games``              create: ``{"game", "options", "seats": [{"kind": "human" |
                                 "bot", "bot", "name"}], "seed"?}`` → id, per human seat its
                                 token and invite link, the spectator link.  Without a seed
                                 the server draws 128 bits; with one the table is marked
                                 ``"deal": "chosen"`` everywhere (lobby, game info, every
                                 snapshot) and ``"rated": false``.  Clocks (issue 15):
                                 ``"clock"``: ``{"kind": "none"}``, ``{"kind": "realtime",
                                 "base_s", "increment_s"}`` or ``{"kind": "turn",
                                 "per_move_s"}`` (seconds); ``"timeout_bot"`` (the bot that
                                 moves for a seat out of time or taken over, default
                                 ``easy``); ``"takeover_after"`` (timeouts after which a bot
                                 plays the seat until its player returns; 0: never).
                                 ``"table"``: ``{"hints", "spectator_chat"}`` (booleans).
                                 Open and invited seats, ``"rated"``: see
                                 :mod:`porphyra.server.routes.tables`.
``GET  /api/games/{id}``         one game's public info, with ``clock`` (the settings and
                                 each seat's remaining time) and ``waiting`` (the seats the
                                 game waits for).
``POST /api/games/{id}/rematch`` ``{"token"}`` (a seat's token): the rematch of a finished
                                 game (same seats, links and clock, a new deal), made once.
``POST /api/mine``               ``{"seats": [{"game", "token"}]}`` (the seats this browser
                                 holds) → per valid seat: game, seat, status, whether the
                                 game waits for it, its clock.

The request bodies are in :mod:`porphyra.server.requests`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, Response
from sqlalchemy.exc import SQLAlchemyError

from porphyra.bots import bot_names
from porphyra.core import registry
from porphyra.core.errors import UnknownGameError
from porphyra.core.options import options_of
from porphyra.core.registry import registered_games
from porphyra.core.seats import default_name
from porphyra.server.accountstore import AccountStore
from porphyra.server.deps import (
    GAME_HEADER,
    READS,
    damaged_detail,
    existing,
    hub_of,
    open_tables_of,
    quotas_of,
    settings_of,
)
from porphyra.server.errors import RefusedRequest
from porphyra.server.gamedata import (
    lobby_bot_text,
    lobby_bots,
    lobby_game_bot_text,
    solo_supported,
)
from porphyra.server.hub import Hub
from porphyra.server.hubcreate import CreateError
from porphyra.server.incidents import report
from porphyra.server.match import MatchRunner
from porphyra.server.requests import CreateIn, MineIn, RematchIn, check_options, clock_settings
from porphyra.server.routes.ratings import rated_refusal
from porphyra.server.routes.tables import open_seats

router = APIRouter()


@router.get("/api/meta")
async def meta() -> dict[str, Any]:
    games = {}
    for name in registered_games():
        info = registry.game_info(name)
        games[name] = {
            "long_name": info.long_name,
            "min_players": info.min_players,
            "max_players": info.max_players,
            "options": [o.to_json() for o in options_of(info.options, "lobby")],
            "bot_text": lobby_game_bot_text(name),
        }
    return {
        "games": games,
        "bots": lobby_bots(),
        "bot_text": lobby_bot_text(),
        "all_bots": bot_names(),
        "solo": solo_supported(),
    }


@router.get("/api/games", dependencies=READS)
async def list_games(request: Request) -> list[dict[str, Any]]:
    hub = hub_of(request.app)
    rows: list[dict[str, Any]] = await hub.db(hub.storage.summaries)
    for row in rows:
        runner = hub.runners.get(row["id"])
        if runner is not None:
            row["seats"] = runner.seats_info()
        damage = row.pop("damage", None)
        if damage is not None:
            hub.mark_broken(row["id"], damage)
        if row["id"] in hub.broken:  # e.g. a record of an older rules version
            row["status"] = "broken"
            row["problem"] = hub.broken[row["id"]]
    return rows


@router.post("/api/games", status_code=201)
async def create_game(body: CreateIn, request: Request, response: Response) -> dict[str, Any]:
    hub = hub_of(request.app)
    quotas = quotas_of(request.app)
    max_bot_games = settings_of(request.app).max_bot_games
    if not quotas.allow_create(request.client.host if request.client else "?"):
        raise HTTPException(
            429,
            f"too many new games from your address (limit {quotas.describe_create()}); "
            "try again later",
        )
    slot = max_bot_games if all(s.kind == "bot" for s in body.seats) else None
    if not hub.reserve_bot_only(slot):
        raise HTTPException(
            429,
            f"{max_bot_games} games of bots only are already running on this server; "
            "try again when one has finished",
        )
    try:
        info = await _create(hub, body, request)
    finally:  # the game is registered (it counts itself now) or was not created
        hub.release_bot_only(slot)
    # This process runs the new game (a load balancer in front learns it: GAME_HEADER).
    response.headers[GAME_HEADER] = info["id"]
    return info


async def _create(hub: Hub, body: CreateIn, request: Request) -> dict[str, Any]:
    """Check and create the game of ``body`` (see ``create_game``; its open and invited
    seats: :func:`porphyra.server.routes.tables.open_seats`).

    Raises:
        HTTPException(400): unknown options, bots or seat counts.
        RefusedRequest: the open seats' refusals (:func:`open_seats`).
    """
    options = check_options(body.game, body.options)
    bots = set(bot_names())
    seats = []
    for i, s in enumerate(body.seats):
        if s.kind == "bot" and (s.bot or "random") not in bots:
            raise HTTPException(400, f"Seat {i + 1}: unknown bot {s.bot!r}")
        bot = s.bot or "random"
        default = default_name(i, None if s.kind == "human" else bot)
        name = (s.name or "").strip() or default
        seats.append(
            {
                "kind": s.kind,
                "bot": (s.bot or "random") if s.kind == "bot" else None,
                "name": name,
            }
        )
    clock = clock_settings(body, bots)
    creator = await open_seats(request, body, seats)
    if body.rated and creator is not None:  # (open_seats signs a rated table's creator in)
        rated_refusal(body, options, creator)
    try:
        runner, tokens = await hub.create(
            body.game,
            options,
            seats,
            body.seed,
            body.table.model_dump(),
            clock=clock,
            creator=None if creator is None else creator.id,
            rated=body.rated,
        )
    except (CreateError, UnknownGameError) as exc:
        raise RefusedRequest(400, exc.message) from None
    if creator is not None:  # the creator's own seat is held by their account
        own = min(tokens)
        await hub.db(AccountStore(hub.storage.engine).claim, runner.id, tokens[own], creator.id)
    info = runner.info()
    info["fixed_seed"] = body.seed is not None  # the same as info["deal"] == "chosen"
    info["invites"] = [
        {"seat": seat, "token": token, "url": f"/game/{runner.id}#token={token}"}
        for seat, token in sorted(tokens.items())
    ]
    info["spectate_url"] = f"/game/{runner.id}"
    info["rated_table"] = body.rated
    return info


@router.get("/api/games/{game_id}", dependencies=READS)
async def game_info(game_id: str, request: Request) -> dict[str, Any]:
    runner = await existing(hub_of(request.app), game_id)
    info: dict[str, Any] = runner.info()
    return info


@router.post("/api/games/{game_id}/rematch", status_code=201, dependencies=READS)
async def rematch(game_id: str, body: RematchIn, request: Request) -> dict[str, Any]:
    """Start (once) the rematch of a finished game for a seat of it: same seats, names,
    bots and table; every human seat's own link (token) opens its seat there."""
    hub = hub_of(request.app)
    if game_id in hub.broken:
        raise HTTPException(410, damaged_detail(hub.broken[game_id]))
    # The token is checked on the stored seats before the game is loaded (and, in a
    # cluster, claimed): a wrong token costs no replay, and gets the same answer with
    # or without such a game.
    seat = None
    if await hub.may_hold(game_id, body.token):
        runner = await existing(hub, game_id, write=True)
        seat = runner.seat_of_token(body.token)
    if seat is None:
        raise HTTPException(403, "only a seat of this game can ask for its rematch")
    try:
        new = await hub.rematch(runner)
    except (CreateError, UnknownGameError) as exc:
        raise RefusedRequest(400, exc.message) from None
    # The accounts that hold seats of the game hold them in its rematch too.
    await hub.db(AccountStore(hub.storage.engine).copy_claims, game_id, new.id)
    info: dict[str, Any] = new.info()
    info["url"] = f"/game/{new.id}"
    return info


@router.post("/api/mine", dependencies=READS)
async def my_games(body: MineIn, request: Request) -> list[dict[str, Any]]:
    """The seats of ``body`` that exist, each ``{"id", "game", "long_name", "seat",
    "name", "status", "your_turn" (the game waits for this seat, and no bot plays
    it), "clock" (this seat's clock), "updated"}``; unknown games and wrong tokens are
    left out (nothing tells which), and so are tables that ended without starting
    (cancelled or expired: :meth:`~porphyra.server.opentables.OpenTables.ended`)."""
    hub = hub_of(request.app)
    out = []
    try:  # (a table that ended without starting is listed no more)
        ended = await hub.db(open_tables_of(request).ended, {m.game for m in body.seats})
    except SQLAlchemyError:  # the database is down: each game below is left out too
        ended = set()
    for mine in body.seats:
        if mine.game in ended:
            continue
        try:
            # The token first, on the stored seats: a wrong one never loads the game.
            if not await hub.may_hold(mine.game, mine.token):
                continue
            runner = await hub.find(mine.game)  # (another server's game: as stored)
        except Exception:  # the database is down: that game is left out this time
            report("game %s: could not be loaded for the lobby", mine.game)
            continue
        seat = None if runner is None else runner.seat_of_token(mine.token)
        if runner is None or seat is None:
            continue
        out.append(seat_entry(runner, seat))
    return out


def seat_entry(runner: MatchRunner, seat: int) -> dict[str, Any]:
    """A seat of the lobby's "Your games": ``{"id", "game", "long_name", "seat", "name",
    "status" ("active" / "over"), "your_turn" (the game waits for this seat, and no bot
    plays it), "clock" (this seat's clock), "updated"}``."""
    clock = runner.clock_info()
    return {
        "id": runner.id,
        "game": runner.name,
        "long_name": runner.game.info.long_name,
        "seat": seat,
        "name": runner.seats[seat].name,
        "status": "over" if runner.over else "active",
        "your_turn": not runner.over
        and not runner.seats_open()  # (a table waiting for players: nobody's turn)
        and seat in runner.state.active_players()
        and not runner.bot_plays(seat),
        "clock": {**clock, "seats": None, "mine": clock["seats"][seat]},
        "updated": runner.row.updated,
    }
