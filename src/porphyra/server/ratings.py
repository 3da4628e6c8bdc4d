"""Ratings (issue 32 §3): openskill Plackett-Luce ratings per account, game and player
count, updated when a rated table's game ends and recomputed from the stored games by
``porphyra ratings rebuild`` with exactly the same result (both call :meth:`Ratings.rate`
on the stored game, in the order the games ended).

A rated table (``games.rated_wish``, accepted at creation, :func:`table_refusal`) counts
when its game ends if, as stored then: the deal is secret (the server drew the seed),
every human seat is held by an account, no account holds two seats, and every bot seat
(and a solo table's Legendary Opponent) has a fixed rating in the bot ladder
(:mod:`porphyra.server.botladder`).  Otherwise the game is recorded as not rated, with
the reason (``rated_games.outcome``).

The game's order of finish: each seat's return (``result.returns``; higher is better,
equal returns share a place), except that a seat a bot played for the rest of the game
(the stored clock's takeover, ``"left"`` or ``"timeouts"``, :mod:`porphyra.server.profiles`)
comes last, below every seat that was played to the end: abandoning counts as a loss, as
on Board Game Arena.  A solo table is a game of two: the player, and the Legendary
Opponent with its anchored rating (a return above 0 is a win, 0 a shared win, below 0 a
loss).

The bots' ratings are fixed: they take part in the update (so that beating a strong bot
counts more than beating a weak one) but never change.  A new account starts at openskill's
default, mu 25 and sigma 25/3; what is shown is mu, sigma and the conservative rating
``mu - 3 sigma`` (:func:`ordinal`), which the leaderboard sorts by.

The functions are synchronous (SQLAlchemy Core), called through the hub's database runner.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, delete, func, insert, select, text, update

from porphyra.server.botladder import bot_anchors, opponent_key
from porphyra.server.profiles import seat_result
from porphyra.server.rows import DEAL_SECRET
from porphyra.server.schema import (
    RAW_OPTIONS,
    RAW_RESULT,
    accounts_table,
    games_table,
    rated_games_table,
    rating_history_table,
    ratings_table,
    seats_table,
)

__all__ = ["Ratings", "bot_anchors", "ordinal", "player_rating"]

#: The rating model (openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
#: The outcome of a rated table's game that changed ratings.
RATED = "rated"
#: A PostgreSQL advisory lock key: rating updates run one at a time, in order of finish.
_LOCK_KEY = 3203


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown and sorted by: ``mu - 3 * sigma`` (the player is
    better than this with about 99.7 % confidence under the model)."""
    return mu - 3.0 * sigma


@dataclass(frozen=True)
class SeatOf:
    """A seat as the ratings read it: ``kind`` (``human`` / ``bot``), ``bot`` spec,
    ``account`` (the holder's account id, None for a guest)."""

    kind: str
    bot: str | None
    account: int | None


@dataclass(frozen=True)
class Standing:
    """A rated game's participants and their places: ``entries[i]`` is ``("account",
    id)`` or ``("bot", anchor key)``, ``ranks[i]`` its place (1 best, ties shared)."""

    entries: list[tuple[str, Any]]
    ranks: list[int]


def table_refusal(
    game: str, players: int, options: dict[str, Any], seats: list[SeatOf], secret: bool
) -> str | None:
    """Why a table cannot be rated, or None when it can (the rules of the module).

    Args:
        game / players / options: the game, its seat count and options.
        seats: the seats (an open or invited seat counts as an account's).
        secret: the deal is secret (no chosen seed).

    Returns:
        None, or one of ``"chosen seed"``, ``"guest seat"``, ``"seated twice"``,
        ``"unrated bot"``, ``"unrated opponent"``.
    """
    if not secret:
        return "chosen seed"
    if any(s.kind == "human" and s.account is None for s in seats):
        return "guest seat"
    held = [s.account for s in seats if s.kind == "human"]
    if len(held) != len(set(held)):
        return "seated twice"
    anchors = bot_anchors(game, players)
    if any(s.kind == "bot" and (s.bot or "") not in anchors for s in seats):
        return "unrated bot"
    if players == 1 and (opponent_key(options) or "") not in anchors:
        return "unrated opponent"
    return None


def standing(
    options: dict[str, Any], seats: list[SeatOf], result_text: str | None, clock: str | None
) -> Standing | None:
    """The places of a finished rated game (see the module), or None when its result
    cannot be read."""
    try:
        returns = [float(r) for r in json.loads(result_text or "null")["returns"]]
    except (ValueError, TypeError, KeyError):
        return None
    if len(returns) != len(seats) or not all(math.isfinite(r) for r in returns):
        return None
    left = [seat_result(result_text, clock, i) == "abandoned" for i in range(len(seats))]
    entries: list[tuple[str, Any]] = [
        ("bot", s.bot) if s.kind == "bot" else ("account", s.account) for s in seats
    ]
    played = sorted({r for r, gone in zip(returns, left, strict=True) if not gone}, reverse=True)
    ranks = [
        len(played) + 1 if gone else played.index(r) + 1
        for r, gone in zip(returns, left, strict=True)
    ]
    if len(seats) == 1:  # solo: the player against the Legendary Opponent
        entries.append(("bot", opponent_key(options)))
        mine = returns[0]
        ranks = [2, 1] if left[0] or mine < 0 else [1, 1] if mine == 0 else [1, 2]
    return Standing(entries, ranks)


def new_ratings(
    table: Standing,
    current: dict[int, tuple[float, float]],
    anchors: dict[str, tuple[float, float]],
) -> dict[int, tuple[float, float]]:
    """The accounts' ratings after the game ``table`` (openskill Plackett-Luce, one team
    per seat; the bots take part with their fixed ratings, which do not change).

    Args:
        table: the participants and places.
        current: ``account id -> (mu, sigma)`` before the game (absent: a new rating).
        anchors: the bots' ``(mu, sigma)`` by anchor key.

    Returns:
        ``account id -> (mu, sigma)`` after the game.
    """
    teams = []
    for kind, who in table.entries:
        if kind == "bot":
            mu, sigma = anchors[who]
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        elif who in current:
            mu, sigma = current[who]
            teams.append([MODEL.rating(mu=mu, sigma=sigma)])
        else:
            teams.append([MODEL.rating()])
    rated = MODEL.rate(teams, ranks=[float(r) for r in table.ranks])
    out: dict[int, tuple[float, float]] = {}
    for (kind, who), team in zip(table.entries, rated, strict=True):
        if kind == "account":
            out[int(who)] = (float(team[0].mu), float(team[0].sigma))
    return out


class Ratings:
    """The ratings in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def rate(self, game_id: str) -> str:
        """Count the finished game ``game_id`` of a rated table, once: record it in
        ``rated_games`` (in order of finish) and, when it counts, update its accounts'
        ratings and add a history row per account (dated when the game ended).  Calling
        it again for the same game changes nothing.

        Returns:
            :data:`RATED`, or why the game did not count (:func:`table_refusal`'s
            reasons, ``"not rated"`` for a table that is not rated, ``"not over"``,
            ``"no result"``, ``"no such game"``).
        """
        with self.engine.begin() as conn:
            _serialise(conn)
            done = conn.execute(
                select(rated_games_table.c.outcome).where(rated_games_table.c.game_id == game_id)
            ).scalar()
            if done is not None:
                return str(done)
            return _rate(conn, game_id)

    def rebuild(self) -> int:
        """Recompute every rating from the stored games: forget the ratings, their
        history and the rated games' order, then count each finished rated table's game
        again with :meth:`rate`'s rules, in the order they ended (the order recorded when
        they were rated live; games never rated live after them, by their end time).

        Returns:
            The number of games that changed ratings.
        """
        with self.engine.begin() as conn:
            _serialise(conn)
            known = dict(
                conn.execute(select(rated_games_table.c.game_id, rated_games_table.c.seq)).all()
            )
            finished = conn.execute(
                select(games_table.c.id, games_table.c.updated).where(
                    games_table.c.rated_wish == 1, games_table.c.status == "over"
                )
            ).all()
            order = sorted(
                finished,
                key=lambda g: (
                    (0, known[g.id], "", g.id) if g.id in known else (1, 0, g.updated, g.id)
                ),
            )
            conn.execute(delete(rating_history_table))
            conn.execute(delete(ratings_table))
            conn.execute(delete(rated_games_table))
            return sum(1 for g in order if _rate(conn, g.id) == RATED)

    def of_account(self, account_id: int) -> list[dict[str, Any]]:
        """The account's ratings, each ``{"game", "players", "mu", "sigma", "ordinal",
        "games", "history": [{"at", "game_id", "mu", "sigma"}]}`` (history oldest
        first), by game and player count."""
        r, h = ratings_table.c, rating_history_table.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(r.game, r.players, r.mu, r.sigma, r.games)
                .where(r.account_id == account_id)
                .order_by(r.game, r.players)
            ).all()
            history = conn.execute(
                select(h.game, h.players, h.at, h.game_id, h.mu, h.sigma)
                .where(h.account_id == account_id)
                .order_by(h.seq)
            ).all()
        points: dict[tuple[str, int], list[dict[str, Any]]] = {}
        for p in history:
            point = {"at": p.at, "game_id": p.game_id, "mu": p.mu, "sigma": p.sigma}
            points.setdefault((p.game, p.players), []).append(point)
        return [
            {
                "game": x.game,
                "players": x.players,
                "mu": x.mu,
                "sigma": x.sigma,
                "ordinal": ordinal(x.mu, x.sigma),
                "games": x.games,
                "history": points.get((x.game, x.players), []),
            }
            for x in rows
        ]

    def leaderboard(
        self, game: str, players: int, limit: int, offset: int
    ) -> tuple[int, list[dict[str, Any]]]:
        """Live accounts rated at ``game`` with ``players`` seats, by conservative
        rating (:func:`ordinal`) then mu, best first.

        Returns:
            ``(total, [{"name", "mu", "sigma", "ordinal", "games"}])``: how many are
            rated, and rows ``offset`` to ``offset + limit`` of them.  No account id.
        """
        r, a = ratings_table.c, accounts_table.c
        where = (r.game == game, r.players == players, a.deleted.is_(None), a.name.is_not(None))
        score = r.mu - 3.0 * r.sigma
        with self.engine.connect() as conn:
            total = conn.execute(
                select(func.count())
                .select_from(ratings_table)
                .join(accounts_table, a.id == r.account_id)
                .where(*where)
            ).scalar_one()
            rows = conn.execute(
                select(a.name, r.mu, r.sigma, r.games)
                .join(accounts_table, a.id == r.account_id)
                .where(*where)
                .order_by(score.desc(), r.mu.desc(), a.name)
                .limit(limit)
                .offset(offset)
            ).all()
        out = [
            {
                "name": x.name,
                "mu": x.mu,
                "sigma": x.sigma,
                "ordinal": ordinal(x.mu, x.sigma),
                "games": x.games,
            }
            for x in rows
        ]
        return total, out

    def current(self, account_id: int, game: str, players: int) -> tuple[float, float] | None:
        """``(mu, sigma)`` of the account's rating, None when unrated."""
        r = ratings_table.c
        with self.engine.connect() as conn:
            row = conn.execute(
                select(r.mu, r.sigma).where(
                    r.account_id == account_id, r.game == game, r.players == players
                )
            ).first()
        return None if row is None else (float(row.mu), float(row.sigma))


def player_rating(
    engine_or_store: Engine | Ratings, account_id: int, game: str, players: int
) -> tuple[float, float] | None:
    """``(mu, sigma)`` of ``account_id``'s current rating at ``game`` with ``players``
    seats, None when unrated (for quick match, issue 32 §2).  Synchronous: call it
    through the hub's database runner.

    Args:
        engine_or_store: the server's SQLAlchemy engine (``hub.storage.engine``) or a
            :class:`Ratings`.
    """
    store = engine_or_store if isinstance(engine_or_store, Ratings) else Ratings(engine_or_store)
    return store.current(account_id, game, players)


def _serialise(conn: Connection) -> None:
    """Rating updates run one at a time (their order is the order of finish): a
    transaction-wide advisory lock on PostgreSQL; SQLite writes one at a time."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})


def _rate(conn: Connection, game_id: str) -> str:
    """:meth:`Ratings.rate` inside a transaction (the game not yet in ``rated_games``)."""
    g = games_table.c
    game = conn.execute(
        select(
            g.game, g.status, g.deal, g.rated_wish, g.updated, g.clock, RAW_OPTIONS, RAW_RESULT
        ).where(g.id == game_id)
    ).first()
    if game is None:
        return "no such game"
    if game.status != "over":
        return "not over"
    s = seats_table.c
    seats = [
        SeatOf(x.kind, x.bot, x.account_id)
        for x in conn.execute(
            select(s.kind, s.bot, s.account_id).where(s.game_id == game_id).order_by(s.seat)
        )
    ]
    try:
        options = json.loads(game.options or "{}")
    except ValueError:
        options = None
    players = len(seats)
    outcome: str | None = None
    table: Standing | None = None
    if not game.rated_wish:
        outcome = "not rated"
    elif not isinstance(options, dict):
        outcome = "no result"
    else:
        outcome = table_refusal(game.game, players, options, seats, game.deal == DEAL_SECRET)
        if outcome is None:
            table = standing(options, seats, game.result, game.clock)
            outcome = "no result" if table is None else RATED
    key: Any = conn.execute(
        insert(rated_games_table).values(game_id=game_id, ended=game.updated, outcome=outcome)
    ).inserted_primary_key
    if table is None:
        return outcome
    _apply(conn, int(key[0]), game_id, game.game, players, game.updated, table)
    return RATED


def _apply(
    conn: Connection, seq: int, game_id: str, game: str, players: int, at: str, table: Standing
) -> None:
    """Write the ratings after ``table`` and their history rows."""
    accounts = [int(who) for kind, who in table.entries if kind == "account"]
    r = ratings_table.c
    rows = {
        x.account_id: x
        for x in conn.execute(
            select(r.account_id, r.mu, r.sigma, r.games).where(
                r.account_id.in_(accounts), r.game == game, r.players == players
            )
        )
    }
    current = {a: (float(x.mu), float(x.sigma)) for a, x in rows.items()}
    after = new_ratings(table, current, bot_anchors(game, players))
    for account, (mu, sigma) in after.items():
        if account in rows:
            conn.execute(
                update(ratings_table)
                .where(r.account_id == account, r.game == game, r.players == players)
                .values(mu=mu, sigma=sigma, games=rows[account].games + 1, updated=at)
            )
        else:
            conn.execute(
                insert(ratings_table).values(
                    account_id=account,
                    game=game,
                    players=players,
                    mu=mu,
                    sigma=sigma,
                    games=1,
                    updated=at,
                )
            )
        conn.execute(
            insert(rating_history_table).values(
                seq=seq,
                game_id=game_id,
                account_id=account,
                game=game,
                players=players,
                mu=mu,
                sigma=sigma,
                at=at,
            )
        )
