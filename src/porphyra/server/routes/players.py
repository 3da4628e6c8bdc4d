"""Player profiles and the games of the signed-in account (issue 32 §4): the HTTP
surface (JSON) and the profile page.

``GET  /players/{name}``             the profile page (``static/profile.html``).
``GET  /api/players/{name}``         a profile (:func:`profile`): the name, when the
                                     account joined, its ratings with their history,
                                     its results and its recent games;
                                     404 for a name without a (live) account.
``GET  /api/me/games``               the games of the signed-in account's seats, on every
                                     device (:func:`account_games`); 401 when not signed in.
``POST /api/me/games/{id}/link``     a new link for the signed-in account's seat of game
                                     ``id`` (:func:`seat_link`): the seat's earlier link
                                     stops opening it.

The names are looked up as sign-in does (:func:`porphyra.server.names.skeleton`).  What
leaves is public: finished games (their records are public) and, for games in progress,
only that they are being played.  The seats' results are defined in
:mod:`porphyra.server.profiles`.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import FileResponse

from porphyra.core import registry
from porphyra.core.errors import UnknownGameError
from porphyra.core.messages import msg
from porphyra.server.accountstore import Account, AccountStore
from porphyra.server.deps import READS, existing, hub_of, open_tables_of
from porphyra.server.errors import RefusedRequest
from porphyra.server.incidents import report
from porphyra.server.names import skeleton
from porphyra.server.profiles import Profiles, SeatGame, counts
from porphyra.server.ratings import Ratings
from porphyra.server.routes.accounts import signed_in
from porphyra.server.routes.lobby import seat_entry
from porphyra.server.routes.pages import STATIC_DIR
from porphyra.server.routes.tables import TakeOut
from porphyra.server.rows import hash_token

router = APIRouter(tags=["players"])

#: Longest name looked up (a longer one has no account).
MAX_LOOKUP = 200
#: Games a profile lists (the most recently changed first).
RECENT = 20
#: Finished games in "Your games" (besides every game in progress).
FINISHED_LISTED = 10
#: Games in "Your games" at most.
MAX_LISTED = 50

NO_PLAYER = msg("no player has this name")


def _long_name(game: str) -> str:
    try:
        return registry.game_info(game).long_name
    except UnknownGameError:  # a damaged row: shown by its stored name
        return game


def _recent(g: SeatGame) -> dict[str, Any]:
    if g.status != "over":  # a game in progress: nothing but that it is being played
        return {"status": "playing", "game": g.game, "long_name": _long_name(g.game)}
    return {
        "status": "over",
        "id": g.id,
        "game": g.game,
        "long_name": _long_name(g.game),
        "date": g.updated,
        "opponents": g.opponents,
        "result": g.result,
        "replay": f"/replay/{g.id}?view=public",
        "record": f"/api/games/{g.id}/record",
    }


async def _seat_games(request: Request, account_id: int) -> list[SeatGame]:
    """The games of ``account_id``'s seats (:meth:`Profiles.seat_games`), less the tables
    that ended without starting (cancelled or expired: never played, so neither "in
    progress" nor a game played).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    hub = hub_of(request.app)
    games: list[SeatGame] = await hub.db(Profiles(hub.storage.engine).seat_games, account_id)
    waiting = {g.id for g in games if g.status != "over"}
    ended = await hub.db(open_tables_of(request).ended, waiting)
    return [g for g in games if g.id not in ended]


@router.get("/players/{name}", include_in_schema=False)
async def profile_page(name: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "profile.html")


@router.get("/api/players/{name}", dependencies=READS, responses={404: {}})
async def profile(name: str, request: Request) -> dict[str, Any]:
    """The profile of the account named ``name`` (looked up as at sign-in):
    ``{"name", "joined" (UTC ISO-8601), "ratings" (per game and player count, issue 32
    §3: ``{"game", "long_name", "players", "mu", "sigma", "ordinal" (mu - 3 sigma),
    "games", "history": [{"at", "game_id", "mu", "sigma"}, ...]}``, oldest first),
    "games": {"played", "won", "lost", "drawn", "abandoned", "playing"}, "recent": [...]}``
    where each recent game is ``{"status": "over", "id", "game", "long_name", "date",
    "opponents" (seat order: ``{"name", "player"}``, ``player`` the account's user name
    or null), "result" (won / lost / drawn / abandoned, or null
    when unreadable), "replay", "record"}`` or, in progress, ``{"status": "playing",
    "game", "long_name"}``.

    Raises:
        RefusedRequest(404): no live account has that name (a deleted account too).
    """
    hub = hub_of(request.app)
    account: Account | None = None
    if len(name) <= MAX_LOOKUP:
        account = await hub.db(AccountStore(hub.storage.engine).by_key, skeleton(name))
    if account is None:
        raise RefusedRequest(404, NO_PLAYER)
    games = await _seat_games(request, account.id)
    return {
        "name": account.name,
        "joined": account.created,
        "ratings": [
            {**r, "long_name": _long_name(r["game"])}
            for r in await hub.db(Ratings(hub.storage.engine).of_account, account.id)
        ],
        "games": counts(games),
        "recent": [_recent(g) for g in games[:RECENT]],
    }


@router.get("/api/me/games", dependencies=READS, responses={401: {}})
async def account_games(request: Request, response: Response) -> list[dict[str, Any]]:
    """The games of the signed-in account's seats (every game in progress, and the
    most recent finished ones), each as ``POST /api/mine`` answers a seat plus
    ``"link"``: the path to ``POST`` for a link that opens the seat on this device.  No
    seat token is sent: the server keeps only their hashes.

    Raises:
        RefusedRequest(401): not signed in.
    """
    response.headers["cache-control"] = "no-store"
    account = await signed_in(request)
    hub = hub_of(request.app)
    games = await _seat_games(request, account.id)
    playing = [g for g in games if g.status != "over"]
    finished = [g for g in games if g.status == "over"][:FINISHED_LISTED]
    out = []
    for g in (playing + finished)[:MAX_LISTED]:
        try:
            runner = await hub.find(g.id)
        except Exception:  # the database is down: that game is left out this time
            report("game %s: could not be loaded for the account's games", g.id)
            continue
        if runner is None or g.seat >= len(runner.seats):
            continue
        out.append({**seat_entry(runner, g.seat), "link": f"/api/me/games/{g.id}/link"})
    return out


@router.post("/api/me/games/{game_id}/link", dependencies=READS, responses={401: {}, 404: {}})
async def seat_link(game_id: str, request: Request) -> TakeOut:
    """A new link for the signed-in account's seat of ``game_id`` (``{"game", "seat",
    "token", "url"}``): the seat gets a new token, so its earlier link (on another
    device) stops opening it; a page already open there stays connected until it
    reconnects.  That device gets the seat back the same way.

    Raises:
        RefusedRequest(401): not signed in.
        RefusedRequest(404): no such game, or the account holds no seat of it.
    """
    account = await signed_in(request)
    hub = hub_of(request.app)
    runner = await existing(hub, game_id, write=True)
    token = secrets.token_urlsafe(24)
    async with runner.lock:  # (the seats in memory change with the stored ones)
        seat: int | None = await hub.db(
            Profiles(hub.storage.engine).replace_token, game_id, account.id, hash_token(token)
        )
        if seat is None or seat >= len(runner.seats):
            raise RefusedRequest(404, msg("your account holds no seat of this game"))
        runner.seats[seat].token_hash = hash_token(token)
    return TakeOut(game=game_id, seat=seat, token=token, url=f"/game/{game_id}#token={token}")
