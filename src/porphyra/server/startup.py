"""Which unfinished games a server starting up loads (:meth:`porphyra.server.hub.Hub.start`).

Loading a game replays its whole record, so a server that loaded every unfinished game
would start slower with every game its players ever left.  It loads only the games where
something happens without anyone opening them:

- a clock runs (``realtime`` or ``turn``): a timeout must fire on time, and a bot moves for
  the seat out of time;
- a bot sits at the table, or plays a seat its player left (a clock's takeover): it moves
  on its own.

The others are **at rest**: people only, no clock, and nobody at the table.  Nothing
happens there until a player comes back, and opening the game (a page, a websocket, the
record) loads it, as it does a finished game.  So do the tables still waiting for a seat
to be taken (:func:`porphyra.server.opentables.tables_waiting`).
"""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import Engine, select

from porphyra.clocks import ClockError, TableClock
from porphyra.server.opentables import tables_waiting
from porphyra.server.schema import games_table, seats_table


def at_rest(clock: object, kinds: list[str]) -> bool:
    """Whether a stored unfinished game needs no server until someone opens it.

    Args:
        clock: the game's stored clock (``games.clock``: :meth:`TableClock.dumps`'s text),
            or None (a game stored before clocks: none); anything else is damage.
        kinds: its seats' kinds (``"human"`` or ``"bot"``), by seat.

    Returns:
        True for people only, no clock running and no seat taken over by a bot; False
        otherwise, and for a clock that does not read (loading the game reports it).
    """
    if "bot" in kinds:
        return False
    if clock is None:
        return True
    if not isinstance(clock, str):
        return False
    try:
        table = TableClock.loads(clock, len(kinds))
    except ClockError:
        return False
    return not table.timed and all(seat.takeover is None for seat in table.seats)


def games_to_load(engine: Engine) -> list[str]:
    """Ids of the unfinished games a starting server loads, most recently moved first:
    every ``active`` game but those at rest (:func:`at_rest`) and the tables waiting for a
    seat.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    active = (
        select(games_table.c.id, games_table.c.clock)
        .where(games_table.c.status == "active")
        .order_by(games_table.c.updated.desc())
    )
    seats = (
        select(seats_table.c.game_id, seats_table.c.kind)
        .join(games_table, games_table.c.id == seats_table.c.game_id)
        .where(games_table.c.status == "active")
        .order_by(seats_table.c.game_id, seats_table.c.seat)
    )
    with engine.connect() as conn:
        games = conn.execute(active).all()
        kinds: dict[str, list[str]] = defaultdict(list)
        for game_id, kind in conn.execute(seats).all():
            kinds[game_id].append(str(kind))
    waiting = tables_waiting(engine)
    return [
        game_id
        for game_id, clock in games
        # (an id that is not a text, in a damaged file, names no game anyone can ask for)
        if isinstance(game_id, str)
        and game_id not in waiting
        and not at_rest(clock, kinds[game_id])
    ]
