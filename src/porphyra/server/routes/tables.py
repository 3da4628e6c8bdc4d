"""Open tables and invitations (issue 32 §2, §6, §7): the HTTP surface (JSON).

``POST /api/games``                 (:mod:`.lobby`) a seat ``{"kind": "open"}`` is left
                                    open for any signed-in account, ``{"kind": "invite",
                                    "name"}`` is kept for the account of that user name;
                                    ``"rated": true`` asks for a rated table (a wish,
                                    stored and shown; never with a chosen ``seed``).  Only
                                    a signed-in creator may leave seats open; their own
                                    seat is the first ``human`` one, held by their account.
``POST /api/games/{id}/seats/{n}``  take open seat ``n`` (0-based) for the signed-in
                                    account → ``{"game", "seat", "token", "url"}``: the
                                    seat's link, as a created game's invites.
``GET  /api/tables``                the open tables, and the signed-in account's
                                    invitations (:meth:`OpenTables.listing`).
``DELETE /api/games/{id}/open``     the creator cancels their open table while a seat is
                                    still open: those seats stay empty for good and the
                                    game never starts.

An open table nobody fills within ``open_table_expiry_s`` (a setting, default 24 h)
expires: it is listed no more and its seats cannot be taken (409).

Refusals are 4xx with a text in the asker's language: 400 (an open seat without a
signed-in creator's own seat, an unknown invited name, a rated table with a chosen seed),
401 (not signed in), 403 (a seat kept for another account), 404 (no such game or seat),
409 (the seat is not open any more: two takes at the same moment, one wins; the account
holds a seat of the table already; a cancel of a table that has started), 429 (over a
limit, with ``Retry-After``).
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Any

from fastapi import APIRouter, Path, Request, Response
from pydantic import BaseModel

from porphyra.core import registry
from porphyra.core.errors import UnknownGameError
from porphyra.core.messages import msg
from porphyra.core.seats import default_name
from porphyra.server.accountstore import Account, AccountStore
from porphyra.server.deps import READS, existing, hub_of, open_tables_of
from porphyra.server.errors import RefusedRequest, SubmitError
from porphyra.server.incidents import report
from porphyra.server.names import skeleton
from porphyra.server.opentables import TableLimits, TakeRefused
from porphyra.server.requests import CreateIn
from porphyra.server.routes.accounts import signed_in
from porphyra.server.rows import OPEN_TO_ANYONE, hash_token

router = APIRouter(tags=["tables"])

#: Seconds a client over a limit is told to wait (``Retry-After``).
RETRY_AFTER_S = 60
#: Longest name looked up for an invitation (a longer one has no account).
MAX_LOOKUP = 200


class TakeOut(BaseModel):
    """A seat taken: the game, the seat (0-based), its token and its link (keep it: it
    opens the seat, as a created game's invite links do)."""

    game: str
    seat: int
    token: str
    url: str


class CancelOut(BaseModel):
    """An open table cancelled: the game and the seats that stay empty (0-based)."""

    game: str
    closed: list[int]


def _limits(request: Request) -> TableLimits:
    limits: TableLimits = request.app.state.table_limits
    return limits


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


def _too_many() -> RefusedRequest:
    refusal = RefusedRequest(429, msg("too many tables or seats just now; wait and try again"))
    refusal.headers = {"retry-after": str(RETRY_AFTER_S)}
    return refusal


async def open_seats(
    request: Request, body: CreateIn, seats: list[dict[str, Any]]
) -> Account | None:
    """Check the open and invited seats of create request ``body`` and turn them, in
    ``seats`` (the lobby's seat dicts, changed in place), into open human seats
    (``"open_to"``); the creator's seat (the first ``human`` one) takes the account's
    name unless ``body`` names it.  A rated table needs a signed-in creator too (its
    other checks: :func:`porphyra.server.routes.ratings.rated_refusal`).

    Returns:
        The signed-in creator, when a seat is open or invited or the table is rated
        (None: a table as before).

    Raises:
        RefusedRequest: 400 a rated table with a chosen seed, no own seat, an unknown
            or repeated invited name, an invitation to oneself; 401 not signed in; 429
            over the open-table limit.
    """
    if body.rated and body.seed is not None:
        raise RefusedRequest(400, msg("a rated table needs a secret deal: leave the seed out"))
    opening = [i for i, s in enumerate(body.seats) if s.kind in ("open", "invite")]
    if not opening and not body.rated:
        return None
    try:
        account = await signed_in(request)
    except RefusedRequest:
        if body.rated:
            raise RefusedRequest(401, msg("sign in to open a rated table")) from None
        raise RefusedRequest(401, msg("sign in to leave seats open or invite a player")) from None
    own = next((i for i, s in enumerate(body.seats) if s.kind == "human"), None)
    if own is None:
        raise RefusedRequest(
            400, msg("a table with open seats needs your own seat: make one seat human")
        )
    if opening and not _limits(request).allow_open(account.id, _address(request)):
        raise _too_many()
    if not (body.seats[own].name or "").strip():
        seats[own]["name"] = account.name
    store = AccountStore(hub_of(request.app).storage.engine)
    invited: set[int] = {account.id}
    for i in opening:
        seat = body.seats[i]
        open_to, name = OPEN_TO_ANYONE, default_name(i, None)
        if seat.kind == "invite":
            wanted = seat.name or ""
            guest: Account | None = None
            if len(wanted) <= MAX_LOOKUP:
                guest = await hub_of(request.app).db(store.by_key, skeleton(wanted))
            if guest is None:
                raise RefusedRequest(400, msg("no account has the user name {0}", wanted))
            if guest.id in invited:
                raise RefusedRequest(
                    400, msg("{0} is invited to one seat of a table at most", guest.name)
                )
            invited.add(guest.id)
            open_to, name = guest.id, guest.name
        seats[i].update(kind="human", bot=None, name=name, open_to=open_to)
    return account


@router.post(
    "/api/games/{game_id}/seats/{seat}",
    dependencies=READS,
    responses={401: {}, 403: {}, 404: {}, 409: {}, 429: {}},
)
async def take_seat(game_id: str, request: Request, seat: int = Path(ge=0, le=15)) -> TakeOut:
    """Take open seat ``seat`` of ``game_id`` for the signed-in account (an open seat, or
    one kept for this account); the answer holds the seat's link.  The game starts once
    every open seat is taken."""
    account = await signed_in(request)
    if not _limits(request).allow_take(account.id, _address(request)):
        raise _too_many()
    hub = hub_of(request.app)
    runner = await existing(hub, game_id, write=True)
    if seat >= len(runner.seats):
        raise RefusedRequest(404, msg("this table has no seat {0}", seat + 1))
    token = secrets.token_urlsafe(24)
    try:
        await hub.db(
            open_tables_of(request).take,
            game_id,
            seat,
            account.id,
            hash_token(token),
            account.name,
        )
    except TakeRefused as exc:
        refusals: dict[str, tuple[int, Any]] = {
            "closed": (409, msg("this seat is not open (someone may have just taken it)")),
            "invited": (403, msg("this seat is kept for an invited player")),
            "twice": (409, msg("your account already holds another seat of this game")),
        }
        status, text = refusals[exc.reason]
        raise RefusedRequest(status, text) from None
    try:
        await runner.seat_taken(seat, hash_token(token), account.name)
    except SubmitError:  # the seat is taken all the same; its clocks start at the next change
        report("game %s: the clocks could not be stored when its last seat was taken", game_id)
    return TakeOut(game=game_id, seat=seat, token=token, url=f"/game/{game_id}#token={token}")


@router.get("/api/tables", dependencies=READS)
async def open_tables(request: Request, response: Response) -> dict[str, Any]:
    """The open tables (game, players, clock, rated wish, creator, seats, the free ones)
    and, for a signed-in account, its invitations (``{"tables", "invitations"}``)."""
    response.headers["cache-control"] = "no-store"
    viewer: int | None = None
    with contextlib.suppress(RefusedRequest):  # (a guest: 401, the open tables only)
        viewer = (await signed_in(request)).id
    hub = hub_of(request.app)
    listing: dict[str, Any] = await hub.db(open_tables_of(request).listing, viewer)
    for table in listing["tables"] + listing["invitations"]:
        try:
            table["long_name"] = registry.game_info(table["game"]).long_name
        except UnknownGameError:  # a damaged row: listed by its stored name
            table["long_name"] = table["game"]
    return listing


@router.delete(
    "/api/games/{game_id}/open",
    dependencies=READS,
    responses={401: {}, 403: {}, 404: {}, 409: {}},
)
async def cancel_table(game_id: str, request: Request) -> CancelOut:
    """Cancel the signed-in account's open table ``game_id`` while a seat of it is still
    open: the open seats stay empty for good, the lobby lists it no more and the game
    never starts.  403: not the table's creator; 409: no seat is open any more."""
    account = await signed_in(request)
    hub = hub_of(request.app)
    runner = await existing(hub, game_id, write=True)
    try:
        closed: list[int] = await hub.db(open_tables_of(request).cancel, game_id, account.id)
    except TakeRefused as exc:
        if exc.reason == "creator":
            raise RefusedRequest(
                403, msg("only the player who opened this table may cancel it")
            ) from None
        raise RefusedRequest(
            409, msg("this table has no open seat any more: it cannot be cancelled")
        ) from None
    await runner.seats_closed(closed)
    return CancelOut(game=game_id, closed=closed)
