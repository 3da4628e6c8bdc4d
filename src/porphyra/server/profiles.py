"""Player profiles and the games of an account's seats (issue 32 §4): SQLAlchemy Core
reads of the server's database (``seats.account_id`` joined with ``games``), synchronous,
called through the hub's database runner (:meth:`porphyra.server.hubstore.HubStore.db`).

Only what is public leaves here: for a finished game its id, game, date, the other seats'
names and this seat's result (the record of a finished game is public); for a game in
progress only that it is being played.  Never a token (hash), a seed, an action or a
hidden card.

A seat's result in a finished game (``games.result["returns"]``, one number per seat):

- ``abandoned``: when the game ended, a bot played the seat in its player's place (the
  stored clock's ``takeover`` of that seat is ``"left"`` or ``"timeouts"``, see
  :mod:`porphyra.clocks`): the player left the table, or ran out of time
  ``takeover_after`` times, and did not come back.  Games without clocks (and games
  stored before clocks) record no takeover, so they are never counted as abandoned.
- else ``drawn``: every seat has the same return;
- else ``won``: the seat has the highest return (shared highest returns all win);
- else ``lost``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select, update

from porphyra.server.schema import RAW_RESULT, accounts_table, games_table, seats_table

#: The results of a finished game's seat, in the order profiles count them.
RESULTS = ("won", "lost", "drawn", "abandoned")


@dataclass(frozen=True)
class SeatGame:
    """One game in which the account holds a seat.

    Attributes:
        id: the game's id.
        game: the game's registry name (``byzantium``, ``conspiracy``).
        seat: the account's seat (0-based).
        status: ``"over"`` or ``"playing"``.
        created / updated: UTC ISO-8601.
        result: for a finished game one of :data:`RESULTS` (None while playing, or for a
            finished game whose stored result cannot be read).
        opponents: the other seats in seat order, each ``{"name": the seat's name,
            "player": the user name of the account holding it, or None (a guest, a bot,
            a deleted account)}`` (empty while playing).
    """

    id: str
    game: str
    seat: int
    status: str
    created: str
    updated: str
    result: str | None = None
    opponents: list[dict[str, Any]] = field(default_factory=list)


def seat_result(result_text: str | None, clock_text: str | None, seat: int) -> str | None:
    """The result of ``seat`` in a finished game (see the module's definitions).

    Args:
        result_text: the game's stored result (JSON text with ``"returns"``).
        clock_text: the game's stored clock (JSON text of ``TableClock.dumps``) or None.
        seat: the seat, 0-based.

    Returns:
        One of :data:`RESULTS`, or None when the stored result cannot be read.
    """
    if _taken_over(clock_text, seat):
        return "abandoned"
    try:
        returns = json.loads(result_text or "null")["returns"]
        mine = float(returns[seat])
        values = [float(r) for r in returns]
    except (ValueError, TypeError, KeyError, IndexError):
        return None
    if all(v == values[0] for v in values):
        return "drawn"
    return "won" if mine == max(values) else "lost"


def _taken_over(clock_text: str | None, seat: int) -> bool:
    if not clock_text:
        return False
    try:
        seats = json.loads(clock_text)["seats"]
        return seats[seat].get("takeover") in ("left", "timeouts")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        return False


class Profiles:
    """The games of accounts' seats in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def seat_games(self, account_id: int) -> list[SeatGame]:
        """Every game in which ``account_id`` holds a seat, the most recently changed
        first; a finished game with its result and the other seats' names."""
        g, s = games_table.c, seats_table.c
        query = (
            select(s.game_id, s.seat, g.game, g.status, g.created, g.updated, RAW_RESULT, g.clock)
            .join(games_table, g.id == s.game_id)
            .where(s.account_id == account_id)
            .order_by(g.updated.desc(), g.id)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            over = [r.game_id for r in rows if r.status == "over"]
            names: dict[str, list[tuple[int, dict[str, Any]]]] = {}
            if over:
                seats = (
                    select(s.game_id, s.seat, s.name, accounts_table.c.name.label("account"))
                    .outerjoin(accounts_table, accounts_table.c.id == s.account_id)
                    .where(s.game_id.in_(over))
                )
                for game_id, seat, name, held_by in conn.execute(seats):
                    # (a deleted account's name is NULL: no profile)
                    player = {"name": name, "player": held_by}
                    names.setdefault(game_id, []).append((seat, player))
        out = []
        for r in rows:
            if r.status != "over":
                out.append(SeatGame(r.game_id, r.game, r.seat, "playing", r.created, r.updated))
                continue
            seated = sorted(names.get(r.game_id, []), key=lambda x: x[0])
            others = [n for seat, n in seated if seat != r.seat]
            result = seat_result(r.result, r.clock, r.seat)
            out.append(
                SeatGame(r.game_id, r.game, r.seat, "over", r.created, r.updated, result, others)
            )
        return out

    def replace_token(self, game_id: str, account_id: int, token_hash: str) -> int | None:
        """Give the seat of ``game_id`` that ``account_id`` holds a new token (its
        SHA-256 ``token_hash``); the seat's earlier link stops opening it.

        Returns:
            The seat (0-based), or None when the account holds no seat of that game.
        """
        with self.engine.begin() as conn:
            seat = conn.execute(
                select(seats_table.c.seat).where(
                    seats_table.c.game_id == game_id, seats_table.c.account_id == account_id
                )
            ).scalar()
            if seat is None:
                return None
            conn.execute(
                update(seats_table)
                .where(seats_table.c.game_id == game_id, seats_table.c.seat == seat)
                .values(token_hash=token_hash)
            )
        return int(seat)


def counts(games: list[SeatGame]) -> dict[str, Any]:
    """``{"played", "won", "lost", "drawn", "abandoned", "playing"}``: ``played`` counts
    the finished games, ``playing`` those in progress."""
    finished = [g for g in games if g.status == "over"]
    out: dict[str, Any] = {"played": len(finished)}
    for result in RESULTS:
        out[result] = sum(1 for g in finished if g.result == result)
    out["playing"] = len(games) - len(finished)
    return out
