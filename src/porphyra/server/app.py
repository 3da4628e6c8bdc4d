"""The FastAPI application: :func:`create_app` wires the server's parts together.

The HTTP and websocket surface lives in router modules by concern
(:mod:`porphyra.server.routes`): :mod:`~.routes.lobby` (the lobby's REST API: games,
creation, rematch, a browser's seats), :mod:`~.routes.play` (the websocket of a seat or
spectator), :mod:`~.routes.records` (records and replays of finished games),
:mod:`~.routes.pages` (pages, static files, catalogues, cards, rules),
:mod:`~.routes.learn` (the tutorials), :mod:`~.routes.review` (game reviews) and
:mod:`~.routes.accounts` (accounts and sessions), :mod:`~.routes.tables` (open tables
and invitations), :mod:`~.routes.quickmatch` (the quick-match queue).  Their
shared dependencies are in
:mod:`porphyra.server.deps`, the request bodies in :mod:`porphyra.server.requests`, the
answers to failures in :mod:`porphyra.server.failures`; the settings are one
:class:`~porphyra.server.settings.ServerSettings`.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from starlette.middleware.trustedhost import TrustedHostMiddleware

from porphyra.server import failures
from porphyra.server.accountguard import AccountGuard
from porphyra.server.accounts import Passwords, SignInLimits
from porphyra.server.deps import READS
from porphyra.server.hub import Hub
from porphyra.server.logfilters import redact_server_logs
from porphyra.server.matchqueue import QueueLimits
from porphyra.server.opentables import TableLimits
from porphyra.server.push import PushAlerts
from porphyra.server.quickmatch import RatingSource
from porphyra.server.quotas import Quotas
from porphyra.server.ratings import bot_anchors, player_rating
from porphyra.server.routes import (
    accounts,
    learn,
    lobby,
    pages,
    play,
    players,
    push,
    quickmatch,
    ratings,
    records,
    review,
    tables,
)
from porphyra.server.security import SecurityHeaders
from porphyra.server.settings import DEFAULTS, ServerSettings
from porphyra.server.storage import Storage, default_db_url


def default_data_dir() -> Path:
    """``$PORPHYRA_DATA_DIR``, else ``$XDG_DATA_HOME/porphyra``, else
    ``~/.local/share/porphyra``."""
    env = os.environ.get("PORPHYRA_DATA_DIR")
    if env:
        return Path(env).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "porphyra"


def database_url(db_url: str | None, data_dir: str | Path | None) -> str:
    """``db_url``, else the default SQLite file in ``data_dir`` (or
    :func:`default_data_dir`)."""
    return db_url or default_db_url(data_dir or default_data_dir())


def create_app(
    settings: ServerSettings | None = None,
    time_source: Callable[[], float] = time.time,
    **overrides: Any,
) -> FastAPI:
    """Build the application.

    Args:
        settings: every setting (:class:`~porphyra.server.settings.ServerSettings`, the
            defaults of ``porphyra serve``); None: the defaults.  ``host``, ``port``,
            ``log_level``, ``compression`` and ``forwarded_allow_ips`` are the listener's
            (:func:`porphyra.server.main.serve`), unused here.
        time_source: the clocks' time, epoch seconds (tests pass a fake one; see
            :class:`Hub`).
        overrides: fields of :class:`ServerSettings` to change in ``settings``
            (``create_app(db_url="sqlite://", bot_pace=0.0)``).

    Returns:
        The FastAPI app; its lifespan reloads the unfinished games where a clock runs or
        a bot plays (:mod:`porphyra.server.startup`) and restarts their bots.
        ``app.state.settings`` holds the settings it was built with.

    Raises:
        TypeError: an override that is not a setting.
        ValueError: a limit or cluster setting that is refused (the message says which).
    """
    s = replace(settings or DEFAULTS, **overrides)
    url = database_url(s.db_url, s.data_dir)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact_server_logs()  # after uvicorn configured its logging
        storage = Storage(url)
        hub = Hub(storage, s, time_source=time_source)
        # Turn alerts (issue 32 §5): every runner is told of its turn changes.
        alerts = PushAlerts(storage.engine, s.push_contact, s.push_private_endpoints, db=hub.db)
        app.state.push = alerts
        hub.services = replace(hub.services, alerts=alerts)
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await alerts.idle()
            if isinstance(getattr(app.state, "reviews", None), review.Reviews):
                app.state.reviews.close()
            await hub.stop()
            storage.close()

    app = FastAPI(title="porphyra", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.settings = s
    app.state.quotas = Quotas(
        s.create_limit,
        s.message_limit,
        s.max_seat_connections,
        s.max_client_connections,
        s.chat_limit,
        s.read_limit,
        s.hint_limit,
        s.spectator_table_chat_limit,
    )
    app.state.passwords = Passwords()
    app.state.signin_limits = SignInLimits(s.signin_limit, s.signin_name_limit, s.signup_limit)
    app.state.table_limits = TableLimits(s.open_table_limit, s.take_seat_limit)
    app.state.queue_limits = QueueLimits(s.queue_limit)
    # Quick match reads the players' ratings and the bots' anchors (issue 32 §2, §3).
    app.state.quick_ratings = RatingSource(player_rating, bot_anchors)
    if s.allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(s.allowed_hosts))
    failures.install(app)
    # Cross-site requests with a session, and oversized account bodies (issue 32 §1).
    app.add_middleware(AccountGuard, allowed_origins=s.allowed_origins)
    # Added last, so outermost: every reply carries the headers, also the host check's 400
    # and the 500 above (a middleware added later wraps those added before it).
    app.add_middleware(SecurityHeaders)

    pages.mount_static(app)
    app.include_router(learn.router)
    for routes in (
        pages,
        lobby,
        records,
        play,
        accounts,
        tables,
        players,
        quickmatch,
        push,
        ratings,
    ):
        app.include_router(routes.router)
    app.include_router(review.router, dependencies=READS)
    return app
