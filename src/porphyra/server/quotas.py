"""Limits per client (issue 13, item 3), with the ``limits`` library (moving windows in
memory, per server process).

- game creation: per client address (``POST /api/games``), default :data:`CREATE_LIMIT`;
- reads that load or replay stored games (the game list, a game's info, record and
  replay, ``POST /api/mine``, a rematch, and opening a websocket to a game not in
  memory): per client address, default :data:`READ_LIMIT` (one over the limit is
  answered 429 with ``Retry-After``, a websocket closed with 4429; the lobby's pages,
  card lists, rules and catalogues are not counted, nor sockets to games in memory);
- websocket messages: per connection, default :data:`MESSAGE_LIMIT` (a message over the
  limit gets an ``error`` with code ``limit`` and is otherwise ignored);
- chat lines: per seat of a game, and per spectator address, default
  :data:`CHAT_LIMIT` (a line over the limit gets an ``error`` with code ``limit``); the
  spectators of one table together, whatever their addresses, default
  :data:`SPECTATOR_TABLE_CHAT_LIMIT` (issue 32 §7);
- hints: per client address, default :data:`HINT_LIMIT` (a hint over the limit gets an
  ``error`` with code ``limit``; hints also wait behind the bot moves of tables where a
  person waits, :class:`porphyra.server.botpool.FairGate`);
- bot-only games (no human seat) running at once: :data:`MAX_BOT_GAMES` per server, as
  they cost bot CPU with nobody waiting for them;
- open websockets: :data:`MAX_SEAT_CONNECTIONS` per seat (per seat token) and
  :data:`MAX_CLIENT_CONNECTIONS` per client address (every connection tells all the
  others of the game about itself, so many of them cost quadratic traffic); one over the
  limit gets an ``error`` with code ``limit`` and is closed with code 4429.

Limits use the ``limits`` notation (``"30/minute"``, ``"20 per second"``); None disables
one.  Client addresses are the ones uvicorn reports (``request.client``): the TCP peer,
as ``porphyra serve`` turns uvicorn's proxy headers off (uvicorn would otherwise believe
``X-Forwarded-For`` from 127.0.0.1, so anyone on the machine could claim any address).
Behind a reverse proxy, either let the proxy limit clients or name it with
``--forwarded-allow-ips`` (then its ``X-Forwarded-For`` is the client address).
"""

from __future__ import annotations

import collections
import itertools
import math
import time

from limits import RateLimitItem, parse_many, storage, strategies

from porphyra.server.settings import (
    CHAT_LIMIT,
    CREATE_LIMIT,
    HINT_LIMIT,
    MAX_BOT_GAMES,
    MAX_CLIENT_CONNECTIONS,
    MAX_SEAT_CONNECTIONS,
    MESSAGE_LIMIT,
    READ_LIMIT,
    SPECTATOR_TABLE_CHAT_LIMIT,
)

__all__ = [
    "CHAT_LIMIT",
    "CREATE_LIMIT",
    "HINT_LIMIT",
    "MAX_BOT_GAMES",
    "MAX_CLIENT_CONNECTIONS",
    "MAX_SEAT_CONNECTIONS",
    "MESSAGE_LIMIT",
    "READ_LIMIT",
    "SPECTATOR_TABLE_CHAT_LIMIT",
    "Quotas",
    "check_limit",
    "in_seconds",
    "optional_limit",
]


class Quotas:
    """The limiter of one server.

    Args:
        create: the game-creation limit per client address, or None.
        messages: the message limit per websocket connection, or None.
        seat_connections: websockets open at once per seat, or None.
        client_connections: websockets open at once per client address, or None.
        chat: the chat-line limit per seat (or spectator connection), or None.
        reads: the limit per client address on reads of stored games, or None.
        hints: the hint limit per client address, or None.
        spectator_table_chat: the chat-line limit of all the spectators of one table
            together, or None.

    Raises:
        ValueError: a limit that the ``limits`` notation does not parse, or a connection
            limit below 1.
    """

    def __init__(
        self,
        create: str | None = CREATE_LIMIT,
        messages: str | None = MESSAGE_LIMIT,
        seat_connections: int | None = MAX_SEAT_CONNECTIONS,
        client_connections: int | None = MAX_CLIENT_CONNECTIONS,
        chat: str | None = CHAT_LIMIT,
        reads: str | None = READ_LIMIT,
        hints: str | None = HINT_LIMIT,
        spectator_table_chat: str | None = SPECTATOR_TABLE_CHAT_LIMIT,
    ):
        for limit in (seat_connections, client_connections):
            if limit is not None and limit < 1:
                raise ValueError(f"a connection limit must be at least 1, not {limit}")
        self._seat_limit = seat_connections
        self._client_limit = client_connections
        self._open: collections.Counter[tuple[str, str]] = collections.Counter()
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._create = optional_limit(create)
        self._messages = optional_limit(messages)
        self._chat = optional_limit(chat)
        self._reads = optional_limit(reads)
        self._hints = optional_limit(hints)
        self._spectator_table_chat = optional_limit(spectator_table_chat)
        self._connections = itertools.count()

    def allow_create(self, client: str) -> bool:
        """Count one game creation by ``client`` (an address); False if over the limit."""
        return self._create is None or self._limiter.hit(self._create, "create", client)

    def allow_read(self, client: str) -> bool:
        """Count one read of stored games by ``client`` (an address); False if over the
        limit."""
        return self._reads is None or self._limiter.hit(self._reads, "read", client)

    def allow_hint(self, client: str) -> bool:
        """Count one hint asked for by ``client`` (an address); False if over the limit."""
        return self._hints is None or self._limiter.hit(self._hints, "hint", client)

    def read_retry_after(self, client: str) -> int:
        """Whole seconds until ``client`` may read again (at least 1)."""
        if self._reads is None:
            return 1
        reset = self._limiter.get_window_stats(self._reads, "read", client).reset_time
        return max(1, math.ceil(reset - time.time()))

    def describe_read(self) -> str:
        """The read limit, for the refusal message (see :func:`in_seconds`)."""
        return in_seconds(self._reads)

    def connection_key(self) -> str:
        """A fresh key for one websocket connection's message limit."""
        return str(next(self._connections))

    def allow_message(self, key: str) -> bool:
        """Count one message on connection ``key``; False if over the limit."""
        return self._messages is None or self._limiter.hit(self._messages, "message", key)

    def allow_chat(self, key: str) -> bool:
        """Count one chat line by ``key`` (``"<game id>/<seat>"``, or a spectator's
        connection key); False if over the limit."""
        return self._chat is None or self._limiter.hit(self._chat, "chat", key)

    def allow_spectator_chat(self, game_id: str, client: str) -> bool:
        """Count one spectator's chat line at ``game_id`` from ``client`` (an address),
        against the per-address chat limit and the table's limit for all its spectators
        together (the table's is counted only when the address's allows the line);
        False if either is over."""
        if not self.allow_chat(f"{game_id}/spectators/{client}"):
            return False
        limit = self._spectator_table_chat
        return limit is None or self._limiter.hit(limit, "spectator-chat", game_id)

    def describe_create(self) -> str:
        """The creation limit, for the refusal message (see :func:`in_seconds`)."""
        return in_seconds(self._create)

    def open_connection(self, client: str, seat: str | None) -> str | None:
        """Count one websocket opening from address ``client`` on ``seat`` (a key such as
        ``"<game id>/<seat>"``; None for a spectator).

        Returns:
            None if it may stay open (then call :meth:`close_connection` once it closes),
            else the refusal message (nothing was counted).
        """
        if self._client_limit is not None and self._open["client", client] >= self._client_limit:
            return (
                f"too many connections from your address (limit {self._client_limit}); "
                "close other game tabs and reload"
            )
        if (
            seat is not None
            and self._seat_limit is not None
            and self._open["seat", seat] >= self._seat_limit
        ):
            return (
                f"this seat is already open in {self._seat_limit} tabs or windows; "
                "close one and reload"
            )
        self._open["client", client] += 1
        if seat is not None:
            self._open["seat", seat] += 1
        return None

    def close_connection(self, client: str, seat: str | None) -> None:
        """Count a websocket admitted by :meth:`open_connection` as closed."""
        keys = [("client", client)] + ([("seat", seat)] if seat is not None else [])
        for key in keys:
            self._open[key] -= 1
            if self._open[key] <= 0:
                del self._open[key]


def in_seconds(limit: RateLimitItem | None) -> str:
    """``limit`` as ``"300 / 60 s"`` (``"none"`` for no limit): numbers and a unit symbol,
    the same in every language of the refusal messages, where ``limits``' own text
    (``"300 per 1 minute"``) would stay English inside a Korean or Japanese sentence."""
    if limit is None:
        return "none"
    return f"{limit.amount} / {limit.get_expiry()} s"


def optional_limit(text: str | None) -> RateLimitItem | None:
    """:func:`check_limit` of ``text``, or None (no limit) for None.

    Raises:
        ValueError: as :func:`check_limit`.
    """
    return None if text is None else check_limit(text)


def check_limit(text: str) -> RateLimitItem:
    """``text`` as one limit in the ``limits`` notation (``"30/minute"``, ``"5 per 10
    seconds"``).

    Raises:
        ValueError: not exactly one limit of at least 1 (``limits`` itself would read ``""``
            as none, keep only the first of ``"10/second;5/minute"``, and take
            ``"0/minute"``, which refuses everything for ever).
    """
    try:
        items = parse_many(text) if text.strip() else []
    except ValueError:
        items = []
    if len(items) != 1 or items[0].amount < 1:
        raise ValueError(
            f"{text!r} is not a limit such as 30/minute or '5 per 10 seconds' (or none)"
        )
    return items[0]
