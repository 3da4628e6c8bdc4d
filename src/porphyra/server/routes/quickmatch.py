"""Quick match (issue 32 §2, §6, §7): the HTTP surface (JSON), for signed-in accounts.

``POST   /api/quickmatch``      ``{"game", "players", "clock"}`` join the queue (201)
``GET    /api/quickmatch``      the state of one's wait (the page polls it every few
                                seconds; each look also makes the tables that can be
                                made now): ``queued``, what for, seconds waited, the
                                rating window, the bot offered (after a minute alone),
                                and once a table is made ``match``: ``{"game", "seat",
                                "link"}``, where ``link`` is the request (``POST``) that
                                gives the seat's link (:func:`.players.seat_link`)
``DELETE /api/quickmatch``      leave the queue
``POST   /api/quickmatch/bot``  take the bot offered: a table with that bot at once

A match makes a table with a secret deal, every seat held by its account (in a random
seat order), with the clock kind's preset (:data:`QUICK_CLOCKS`), rated when it has a clock
(an untimed table cannot be abandoned, so it is not rated).
The pairing rule is :mod:`porphyra.server.quickmatch`; the queue lives in the database
(:mod:`porphyra.server.matchqueue`), so every server of a cluster shares it.

Refusals are 4xx with a text in the asker's language: 400 (an unknown game, a player
count the game does not have, fewer than 2), 401 (not signed in), 404 (not in the queue,
or no bot offered), 409 (already in the queue, or a table is being made), 429 (over the
join limit, with ``Retry-After``).
"""

from __future__ import annotations

import random
import time
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from porphyra.bots import make_bot
from porphyra.clocks import ClockSettings
from porphyra.core import registry
from porphyra.core.errors import UnknownGameError
from porphyra.core.messages import msg
from porphyra.core.seats import default_name
from porphyra.server.accountstore import AccountStore
from porphyra.server.deps import READS, hub_of
from porphyra.server.errors import RefusedRequest
from porphyra.server.hubcreate import CreateError
from porphyra.server.incidents import report
from porphyra.server.matchqueue import AlreadyQueued, Entry, MatchQueue, QueueLimits
from porphyra.server.quickmatch import RatingSource, bot_offer, form_matches, window
from porphyra.server.requests import check_options
from porphyra.server.routes.accounts import signed_in

router = APIRouter(tags=["quick match"])

#: The clock of a quick-match table, per kind: none, 10 minutes + 5 s a move, a day a move.
QUICK_CLOCKS: dict[str, ClockSettings] = {
    "none": ClockSettings("none"),
    "realtime": ClockSettings("realtime", base_s=600, increment_s=5, takeover_after=2),
    "turn": ClockSettings("turn", per_move_s=24 * 3600, takeover_after=2),
}
#: Seconds a client over the join limit is told to wait (``Retry-After``).
RETRY_AFTER_S = 60
_SHUFFLE = random.SystemRandom()


class JoinIn(BaseModel):
    """A quick-match request: the game, its player count (2 or more) and the clock kind."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(min_length=1, max_length=64)
    players: StrictInt = Field(ge=2, le=16)
    clock: Literal["none", "realtime", "turn"] = "none"


class MatchOut(BaseModel):
    """A table made for this account: the game id, its seat (0-based) and ``link``, the
    request (``POST``) that answers with the seat's link (``{"game", "seat", "token",
    "url"}``)."""

    game: str
    seat: int
    link: str


class QueueOut(BaseModel):
    """The state of one's wait.

    ``queued``: in the queue (or a table was made and not yet collected); ``game``,
    ``players``, ``clock``: what for; ``waited_s``: seconds waited; ``window``: the
    rating points (openskill ``mu``) accepted now; ``rating``: one's ``mu`` when joining;
    ``bot``: the bot offered (None: none yet); ``match``: the table made, once (this
    answer collects it: the next one says ``queued`` false).
    """

    queued: bool
    game: str | None = None
    players: int | None = None
    clock: str | None = None
    waited_s: float = 0.0
    window: float = 0.0
    rating: float | None = None
    bot: str | None = None
    match: MatchOut | None = None


def _queue(request: Request) -> MatchQueue:
    return MatchQueue(hub_of(request.app).storage.engine)


def _ratings(request: Request) -> RatingSource:
    ratings: RatingSource = request.app.state.quick_ratings
    return ratings


def _check_game(game: str, players: int) -> dict[str, Any]:
    """The game options for ``players`` players of ``game``.

    Raises:
        RefusedRequest(400): an unknown game, or a player count it does not have.
    """
    check_options(game, {})  # (an unknown game: 400, naming the games)
    info = registry.game_info(game)
    if not info.min_players <= players <= info.max_players:
        raise RefusedRequest(400, msg("{0} is not played by {1} players", info.long_name, players))
    if any(o.name == "players" for o in info.options):
        return check_options(game, {"players": players})
    return {}


@router.post("/api/quickmatch", status_code=201, responses={400: {}, 401: {}, 409: {}, 429: {}})
async def join_queue(body: JoinIn, request: Request) -> QueueOut:
    """Join the quick-match queue for ``body`` (the signed-in account; once at a time)."""
    account = await signed_in(request)
    _check_game(body.game, body.players)
    limits: QueueLimits = request.app.state.queue_limits
    address = request.client.host if request.client else "?"
    if not limits.allow_join(account.id, address):
        refusal = RefusedRequest(429, msg("too many quick-match requests just now; wait a while"))
        refusal.headers = {"retry-after": str(RETRY_AFTER_S)}
        raise refusal
    hub = hub_of(request.app)
    rating = await hub.db(
        _ratings(request).player, hub.storage.engine, account.id, body.game, body.players
    )
    try:
        await hub.db(
            _queue(request).join,
            account.id,
            body.game,
            body.players,
            body.clock,
            rating,
            time.time(),
        )
    except AlreadyQueued:
        raise RefusedRequest(409, msg("you are in the quick-match queue already")) from None
    await _match(request, body.game, body.players, body.clock)
    return await _state(request, account.id)


@router.get("/api/quickmatch", dependencies=READS, responses={401: {}})
async def queue_state(request: Request) -> QueueOut:
    """The state of the signed-in account's wait (and the tables that can be made now)."""
    account = await signed_in(request)
    entry = await hub_of(request.app).db(_queue(request).entry, account.id)
    if entry is not None and entry.match_id is None:
        await _match(request, entry.game, entry.players, entry.clock)
    return await _state(request, account.id)


@router.delete("/api/quickmatch", responses={401: {}, 409: {}})
async def leave_queue(request: Request) -> QueueOut:
    """Leave the queue.  409 while a table is being made for the account (the next
    look says which)."""
    account = await signed_in(request)
    hub = hub_of(request.app)
    queue = _queue(request)
    left = await hub.db(queue.leave, account.id)
    if not left and await hub.db(queue.entry, account.id) is not None:
        raise RefusedRequest(409, msg("a table is being made for you: it cannot be left now"))
    return QueueOut(queued=False)


@router.post("/api/quickmatch/bot", status_code=201, responses={401: {}, 404: {}, 409: {}})
async def take_bot(request: Request) -> MatchOut:
    """Take the bot offered to the signed-in account (after a minute without a match):
    a table of this account and that bot (every other seat) is made at once."""
    account = await signed_in(request)
    hub = hub_of(request.app)
    queue = _queue(request)
    entry = await hub.db(queue.entry, account.id)
    offer = None if entry is None else await _offer(request, entry)
    if entry is None or offer is None:
        raise RefusedRequest(404, msg("no bot is offered to you now"))
    if not await hub.db(queue.claim, [account.id], time.time()):
        raise RefusedRequest(409, msg("a table is being made for you: it cannot be left now"))
    made = await _make_table(request, entry, [account.id], offer)
    if made is None:
        await hub.db(queue.release, [account.id])  # (waiting again, as before)
        raise RefusedRequest(409, msg("a table is being made for you: it cannot be left now"))
    game_id, seats = made
    await hub.db(queue.matched, game_id, seats)
    await hub.db(queue.collect, account.id, game_id)
    return MatchOut(game=game_id, seat=seats[account.id], link=_link(game_id))


def _link(game_id: str) -> str:
    return f"/api/me/games/{game_id}/link"


async def _offer(request: Request, entry: Entry) -> str | None:
    """The bot offered to ``entry`` now (None: none), among the rated bots this server
    can seat."""
    bots = _ratings(request).bot_ratings(entry.game, entry.players)
    return bot_offer(
        time.time() - entry.joined, entry.mu, {s: r for s, r in bots.items() if _seatable(s)}
    )


def _seatable(spec: str) -> bool:
    """True if bot ``spec`` can sit at a table (a known bot with valid options)."""
    try:
        make_bot(spec)
    except ValueError:
        return False
    return True


async def _state(request: Request, account_id: int) -> QueueOut:
    """``account_id``'s wait; a table made for it is collected (its row removed)."""
    hub = hub_of(request.app)
    queue = _queue(request)
    entry = await hub.db(queue.entry, account_id)
    if entry is None:
        return QueueOut(queued=False)
    out = QueueOut(
        queued=True,
        game=entry.game,
        players=entry.players,
        clock=entry.clock,
        waited_s=max(0.0, time.time() - entry.joined),
        rating=entry.mu,
    )
    out.window = window(out.waited_s)
    if entry.match_id is not None and entry.match_seat is not None:
        await hub.db(queue.collect, account_id, entry.match_id)
        out.match = MatchOut(game=entry.match_id, seat=entry.match_seat, link=_link(entry.match_id))
        return out
    out.bot = await _offer(request, entry)
    return out


async def _match(request: Request, game: str, players: int, clock: str) -> None:
    """Make every table that can be made now for (``game``, ``players``, ``clock``)."""
    hub = hub_of(request.app)
    queue = _queue(request)
    now = time.time()
    waiting = await hub.db(queue.waiting, game, players, clock, now)
    for group in form_matches(waiting, players, now):
        ids = [w.account_id for w in group]
        if not await hub.db(queue.claim, ids, now):
            continue  # another matcher took one of them: the next look tries again
        entry = Entry(game, players, clock, 0.0, 0.0, now, now, None, None)
        made = await _make_table(request, entry, ids, None)
        if made is None:
            await hub.db(queue.release, ids)
            continue
        await hub.db(queue.matched, *made)


async def _make_table(
    request: Request, entry: Entry, account_ids: list[int], bot: str | None
) -> tuple[str, dict[int, int]] | None:
    """Make the table of ``account_ids`` (and ``bot`` in every other seat) for
    ``entry``'s game, player count and clock: a secret deal, seats in a random order,
    each held by its account.

    Returns:
        ``(game id, {account id: seat})``, or None when it could not be made (reported).
    """
    hub = hub_of(request.app)
    store = AccountStore(hub.storage.engine)
    names: dict[int, str] = {}
    for account_id in account_ids:
        account = await hub.db(store.by_id, account_id)
        if account is None:  # deleted while it waited: out of the queue
            await hub.db(_queue(request).drop, account_id)
            return None
        names[account_id] = account.name
    people: list[int | None] = [*account_ids]
    people += [None] * (entry.players - len(people))
    _SHUFFLE.shuffle(people)
    seats = [
        {"kind": "human", "bot": None, "name": names[p]}
        if p is not None
        else {"kind": "bot", "bot": bot, "name": default_name(i, bot)}
        for i, p in enumerate(people)
    ]
    try:
        runner, tokens = await hub.create(
            entry.game,
            _check_game(entry.game, entry.players),
            seats,
            None,
            None,
            clock=QUICK_CLOCKS[entry.clock],
            rated=entry.clock != "none",  # untimed: one who stops answering never loses
        )
        placed: dict[int, int] = {}
        for seat, holder in enumerate(people):
            if holder is not None:
                await hub.db(store.claim, runner.id, tokens[seat], holder)
                placed[holder] = seat
    except (CreateError, UnknownGameError, RefusedRequest):
        report("quick match: a %s table could not be made", entry.game)
        return None
    return runner.id, placed
