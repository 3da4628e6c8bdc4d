"""Ratings (issue 32 §3, §6): the leaderboard and the checks of a rated table.

``GET /api/leaderboard/{game}``  the accounts rated at ``game`` with ``players`` seats
                                 (query ``players``, default the game's first
                                 multi-player count; ``limit`` 1-100, ``offset``), best
                                 conservative rating first, with the bots' fixed
                                 ratings and how they were measured
                                 (:class:`LeaderboardOut`).  Names only, never an id.
``GET /leaderboard``             the leaderboard page (``static/leaderboard.html``).

The rules of a rated table and of the ratings: :mod:`porphyra.server.ratings`.  Refusals
are 4xx with a text in the asker's language: 404 an unknown game, 400 a player count the
game is not played with, 422 a parameter out of range.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel

from porphyra.core import registry
from porphyra.core.errors import UnknownGameError
from porphyra.core.messages import msg
from porphyra.server.accountstore import Account
from porphyra.server.botladder import Below, load_ladder
from porphyra.server.deps import READS, hub_of
from porphyra.server.errors import RefusedRequest
from porphyra.server.ratings import Ratings, SeatOf, ordinal, table_refusal
from porphyra.server.requests import CreateIn
from porphyra.server.routes.pages import STATIC_DIR

router = APIRouter(tags=["ratings"])

#: Longest game name looked up (a longer one is no game).
MAX_GAME = 40


class RankedOut(BaseModel):
    """One rated account: its place (1-based), user name, openskill ``mu`` and ``sigma``,
    the conservative rating ``ordinal`` (mu - 3 sigma, what the board sorts by) and the
    rated games counted."""

    rank: int
    name: str
    mu: float
    sigma: float
    ordinal: float
    games: int


class BotOut(BaseModel):
    """A bot's fixed rating: its seat name (``easy``; ``legendary:<opponent>`` for a
    solo table's Legendary Opponent), ``mu``, ``sigma``, ``ordinal``, the bot-vs-bot
    games it was measured on, and how it did against the level below over paired deals
    (issue 31; :class:`~porphyra.server.botladder.Below`; None: not measured, or not a
    level)."""

    bot: str
    mu: float
    sigma: float
    ordinal: float
    games: int
    below: Below | None = None


class LadderOut(BaseModel):
    """How the bots' ratings were measured: the command, when and on what machine, and
    the rating model (the bot ladder file's fields)."""

    command: str
    measured: str
    model: str


class LeaderboardOut(BaseModel):
    """A leaderboard: the game, its long name, the player count shown and the counts the
    game is played with, how many accounts are rated (``total``), the rows from
    ``offset``, the bots' anchors and how they were measured (None: no bot ladder)."""

    game: str
    long_name: str
    players: int
    player_counts: list[int]
    total: int
    offset: int
    entries: list[RankedOut]
    bots: list[BotOut]
    ladder: LadderOut | None


@router.get("/leaderboard", include_in_schema=False)
async def leaderboard_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "leaderboard.html")


@router.get("/api/leaderboard/{game}", dependencies=READS, responses={400: {}, 404: {}})
async def leaderboard(
    game: str,
    request: Request,
    players: int | None = Query(default=None, ge=1, le=16),
    limit: int = Query(default=50, ge=1, le=100),
    offset: int = Query(default=0, ge=0, le=100_000),
) -> LeaderboardOut:
    """The leaderboard of ``game`` with ``players`` seats (see :class:`LeaderboardOut`).

    Raises:
        RefusedRequest(404): no such game.
        RefusedRequest(400): the game is not played with ``players`` seats.
    """
    try:
        if len(game) > MAX_GAME:
            raise UnknownGameError(game)
        info = registry.game_info(game)
    except UnknownGameError:
        raise RefusedRequest(404, msg("no game is called {0}", game[:MAX_GAME])) from None
    counts = list(range(info.min_players, info.max_players + 1))
    shown = players if players is not None else next((n for n in counts if n > 1), counts[0])
    if shown not in counts:
        raise RefusedRequest(
            400,
            msg("{0} is played by {1} to {2} players", info.long_name, counts[0], counts[-1]),
        )
    hub = hub_of(request.app)
    total, rows = await hub.db(Ratings(hub.storage.engine).leaderboard, game, shown, limit, offset)
    ladder = load_ladder()
    anchors = ladder.tables.get((game, shown), {})
    below = ladder.below.get((game, shown), {})
    bots = [
        BotOut(
            bot=name,
            mu=a.mu,
            sigma=a.sigma,
            ordinal=ordinal(a.mu, a.sigma),
            games=a.games,
            below=below.get(name),
        )
        for name, a in sorted(anchors.items(), key=lambda x: -ordinal(x[1].mu, x[1].sigma))
    ]
    measured = (
        LadderOut(command=ladder.command, measured=ladder.measured, model=ladder.model)
        if ladder.tables
        else None
    )
    return LeaderboardOut(
        game=game,
        long_name=info.long_name,
        players=shown,
        player_counts=counts,
        total=total,
        offset=offset,
        entries=[RankedOut(rank=offset + i + 1, **row) for i, row in enumerate(rows)],
        bots=bots,
        ladder=measured,
    )


#: The most timeouts after which a bot takes a seat of a rated table over: until then the
#: table's timeout bot makes the silent seat's moves, which must not win games for it.
MAX_RATED_TAKEOVER = 2


def rated_refusal(body: CreateIn, options: dict[str, Any], creator: Account) -> None:
    """Check that the table of create request ``body`` may be rated: a secret deal
    (no ``seed``), a clock with a takeover after at most :data:`MAX_RATED_TAKEOVER`
    timeouts (a player who stops answering then loses the game, and the timeout bot plays
    at most that many of their moves), every seat an account (the
    creator's own, an open or an invited one) or a bot with a measured rating, and at a
    solo table a named Legendary Opponent with one (``options``: the checked options;
    ``creator``: the signed-in creator).

    Raises:
        RefusedRequest(400): which condition fails, in the asker's language.
    """
    if body.seed is not None:
        raise RefusedRequest(400, msg("a rated table needs a secret deal: leave the seed out"))
    if (
        body.clock is None
        or body.clock.kind == "none"
        or not 1 <= body.takeover_after <= MAX_RATED_TAKEOVER
    ):
        # Without a clock nobody times out, so a player who stops answering would leave
        # the game unfinished and unrated for ever instead of losing it; and with a late
        # takeover the timeout bot would play a silent seat's game, and win it for them
        # (issue 32 §3).
        raise RefusedRequest(
            400,
            msg(
                "a rated table needs a clock and a bot that takes a seat over after at "
                "most {0} timeouts, so that a player who leaves loses the game",
                MAX_RATED_TAKEOVER,
            ),
        )
    own = next(i for i, s in enumerate(body.seats) if s.kind == "human")
    seats = []
    for i, s in enumerate(body.seats):
        if s.kind == "bot":
            seats.append(SeatOf("bot", s.bot or "random", None))
        elif i == own:
            seats.append(SeatOf("human", None, creator.id))
        elif s.kind in ("open", "invite"):  # an account takes it (one seat each)
            seats.append(SeatOf("human", None, -1 - i))
        else:
            seats.append(SeatOf("human", None, None))
    reason = table_refusal(body.game, len(seats), options, seats, secret=True)
    refusals = {
        "guest seat": msg(
            "a rated table has no guest seat: make the other seats open, invited or bots"
        ),
        "unrated bot": msg(
            "a rated table's bots need a measured rating, and this game and player count "
            "has none for them"
        ),
        "unrated opponent": msg(
            "a rated solo table needs a chosen Legendary Opponent with a measured rating"
        ),
    }
    if reason is not None:
        raise RefusedRequest(400, refusals.get(reason, msg("this table cannot be rated")))
