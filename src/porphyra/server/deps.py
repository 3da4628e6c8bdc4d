"""What the routers share: the hub and the limiter of the application that serves a
request, the read limit as a dependency, and the lookup of a game's runner.

The application keeps them on ``app.state`` (``hub`` from its lifespan, ``quotas`` and
``settings`` from :func:`porphyra.server.app.create_app`), so a router module needs no
closure over the app (FastAPI's ``APIRouter`` practice, with shared dependencies here as
``deps.py`` in the full-stack FastAPI template).
"""

from __future__ import annotations

from typing import Any

from fastapi import Depends, HTTPException, Request

from porphyra.server.hub import Hub
from porphyra.server.match import MatchRunner
from porphyra.server.opentables import OpenTables
from porphyra.server.quotas import Quotas
from porphyra.server.settings import ServerSettings


def hub_of(app: Any) -> Hub:
    """The :class:`Hub` of the application ``app`` (set by its lifespan)."""
    hub: Hub = app.state.hub
    return hub


def quotas_of(app: Any) -> Quotas:
    """The :class:`Quotas` (limits per client) of the application ``app``."""
    quotas: Quotas = app.state.quotas
    return quotas


def settings_of(app: Any) -> ServerSettings:
    """The :class:`ServerSettings` the application ``app`` was built with."""
    settings: ServerSettings = app.state.settings
    return settings


def open_tables_of(request: Request) -> OpenTables:
    """The open tables of the app's database, with the app's expiry."""
    return OpenTables(
        hub_of(request.app).storage.engine, settings_of(request.app).open_table_expiry_s
    )


def read_refusal(quotas: Quotas) -> str:
    """The refusal of a read over the limit (English; translated at the edge)."""
    return f"too many requests from your address (limit {quotas.describe_read()}); try again later"


def limit_reads(request: Request) -> None:
    """A dependency of the routes that read stored games: 429 (with ``Retry-After``)
    once the client's address is over the read limit.

    Raises:
        HTTPException(429): over the limit.
    """
    quotas = quotas_of(request.app)
    client = request.client.host if request.client else "?"
    if not quotas.allow_read(client):
        raise HTTPException(
            429,
            read_refusal(quotas),
            headers={"retry-after": str(quotas.read_retry_after(client))},
        )


#: The dependencies of a route that reads stored games.
READS = [Depends(limit_reads)]


def damaged_detail(problem: str) -> str:
    """What a damaged game's links answer (``problem``: its public problem)."""
    return f"{problem}. Other games are not affected: back to the lobby at /"


async def existing(hub: Hub, game_id: str, write: bool = False) -> MatchRunner:
    """The runner of ``game_id`` (``write``: to change the game, so this server must
    run it; else for reading only, :meth:`Hub.find`).

    Raises:
        HTTPException(410): the game is damaged (:func:`damaged_detail`).
        HTTPException(404): there is no such game.
        OwnedElsewhere: ``write``, and another server of the cluster runs the game
            (answered 421).
    """
    runner = await (hub.get(game_id) if write else hub.find(game_id))
    if runner is None:
        if game_id in hub.broken:
            raise HTTPException(410, damaged_detail(hub.broken[game_id]))
        raise HTTPException(404, "no such game")
    return runner


#: The header of an answer from the process that runs a game (a websocket's handshake, a
#: created game): its id, so that a load balancer in front can send the game's later
#: requests to that process (``stick store-response`` in deploy/haproxy.cfg).
GAME_HEADER = "x-porphyra-game"


def game_header(game_id: str) -> tuple[bytes, bytes]:
    """:data:`GAME_HEADER` naming ``game_id``, as a raw ASGI header."""
    return GAME_HEADER.encode(), game_id.encode()


#: A request header a load balancer adds (deploy/haproxy.cfg) to say that it retries a
#: request refused with 503 on another process: a websocket to a game another process
#: runs is then refused with 503 instead of accepted with the error ``moved``.
ROUTER_HEADER = "x-porphyra-router"
