"""Limits per client (issue 13, item 3), with the ``limits`` library (moving windows in
memory, per server process).

- game creation: per client address (``POST /api/games``), default :data:`CREATE_LIMIT`;
- websocket messages: per connection, default :data:`MESSAGE_LIMIT` (a message over the
  limit gets an ``error`` with code ``limit`` and is otherwise ignored);
- bot-only games (no human seat) running at once: :data:`MAX_BOT_GAMES` per server, as
  they cost bot CPU with nobody waiting for them.

Limits use the ``limits`` notation (``"30/minute"``, ``"20 per second"``); None disables
one.  Client addresses are the ones uvicorn reports (``request.client``): the TCP peer,
as ``porphyra serve`` turns uvicorn's proxy headers off (uvicorn would otherwise believe
``X-Forwarded-For`` from 127.0.0.1, so anyone on the machine could claim any address).
Behind a reverse proxy, either let the proxy limit clients or name it with
``--forwarded-allow-ips`` (then its ``X-Forwarded-For`` is the client address).
"""

from __future__ import annotations

import itertools

from limits import RateLimitItem, parse, storage, strategies

#: Games one client address may create (moving window).
CREATE_LIMIT = "30/minute"
#: Messages one websocket connection may send (moving window).
MESSAGE_LIMIT = "20/second"
#: Bot-only games that may be active at once.
MAX_BOT_GAMES = 8


class Quotas:
    """The limiter of one server.

    Args:
        create: the game-creation limit per client address, or None.
        messages: the message limit per websocket connection, or None.

    Raises:
        ValueError: a limit that the ``limits`` notation does not parse.
    """

    def __init__(self, create: str | None = CREATE_LIMIT, messages: str | None = MESSAGE_LIMIT):
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())
        self._create: RateLimitItem | None = parse(create) if create else None
        self._messages: RateLimitItem | None = parse(messages) if messages else None
        self._connections = itertools.count()

    def allow_create(self, client: str) -> bool:
        """Count one game creation by ``client`` (an address); False if over the limit."""
        return self._create is None or self._limiter.hit(self._create, "create", client)

    def connection_key(self) -> str:
        """A fresh key for one websocket connection's message limit."""
        return str(next(self._connections))

    def allow_message(self, key: str) -> bool:
        """Count one message on connection ``key``; False if over the limit."""
        return self._messages is None or self._limiter.hit(self._messages, "message", key)

    def describe_create(self) -> str:
        """The creation limit in words, for the refusal message."""
        return str(self._create) if self._create is not None else "none"
