"""What a match runner needs from the server around it: narrow interfaces, not the hub.

A :class:`~porphyra.server.match.MatchRunner` is the one authority over its table
(boardgame.io's master).  It receives its collaborators as one :class:`RunnerServices`:

- :class:`GameStore`: store an action (batched and fenced by the server), and the table's
  other writes and reads (chat, undo, clocks) on the database thread;
- :class:`BotPlayers`: ask a bot for a seat's move or for a hint;
- :class:`TableTime`: the clocks' time, and when this server started and last beat
  before it (the downtime of a restart is charged to nobody);
- the hint bot's spec and the bots' pace at a table with a person.

Sending to clients needs no interface of the server's: the runner holds each connection
as a :class:`~porphyra.server.client.Client` and calls its ``send``.  The hub
(:class:`~porphyra.server.hub.Hub`) satisfies the three protocols and builds the
services; nothing in the runner imports the hub, so the imports run one way (hub → match).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from porphyra.core.game import State
from porphyra.server.storage import Storage
from porphyra.server.writes import Fence


class Database(Protocol):
    """The server's database: ``storage`` is the :class:`~porphyra.server.storage.Storage`
    whose calls ``db`` runs off the event loop (``await store.db(store.storage.chat,
    game_id)``; it raises what the call raised)."""

    @property
    def storage(self) -> Storage: ...

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any: ...


class GameStore(Database, Protocol):
    """Where a runner's table is stored (a :class:`Database`).

    ``fence()`` is the fence of this
    server's writes (None: the database's only server); ``store_action`` stores one
    action entry (batched with other tables' actions; raises what the write raised,
    :class:`~porphyra.server.writes.NotOwnerError` when another server holds the game);
    ``drop(game_id)`` gives up a game another server took over, telling its clients where
    it went.
    """

    def fence(self) -> Fence | None: ...

    async def store_action(self, entry: dict[str, Any]) -> None: ...

    async def drop(self, game_id: str) -> None: ...


class BotPlayers(Protocol):
    """The bots: ``choose`` a seat's action text (``urgent``: a person waits for it),
    ``hint`` an action text and its chance to win for a seat (both off the event loop,
    on that seat's view only; ``spec`` a bot spec such as ``"hard"``, ``seed`` the
    decision's seed)."""

    async def choose(
        self, state: State, seat: int, spec: str, seed: int, urgent: bool = True
    ) -> str: ...

    async def hint(
        self, state: State, seat: int, spec: str, seed: int
    ) -> tuple[str, float | None]: ...


class TableTime(Protocol):
    """The clocks' time: ``now()`` in epoch seconds, ``started`` this server's start and
    ``alive_at`` its last heartbeat before it (None: none stored), both epoch seconds."""

    def now(self) -> float: ...

    @property
    def started(self) -> float: ...

    @property
    def alive_at(self) -> float | None: ...


class TurnAlerts(Protocol):
    """Turn alerts for players whose page is closed (issue 32 §5,
    :class:`porphyra.server.push.PushAlerts`): told after each change of a turn-based
    table which seat moved (it answered) and which seats must act with no page of
    theirs connected (``turn``), and when a page of a seat connects (``opened``: it
    answered too).  Never raise; the work happens in the background."""

    def turn(self, game_id: str, game_name: str, seats: list[int], moved: int | None) -> None: ...

    def opened(self, game_id: str, seat: int) -> None: ...


@dataclass(frozen=True)
class RunnerServices:
    """Everything a :class:`~porphyra.server.match.MatchRunner` is given.

    Attributes:
        store: its table's storage (:class:`GameStore`).
        bots: the bots (:class:`BotPlayers`).
        time: the clocks' time (:class:`TableTime`).
        hint_bot: the bot spec that answers hints.
        bot_pace: least seconds between a move and the next bot move at a table with a
            person (0: at once).
        alerts: turn alerts (None: none).
    """

    store: GameStore
    bots: BotPlayers
    time: TableTime
    hint_bot: str
    bot_pace: float
    alerts: TurnAlerts | None = None
