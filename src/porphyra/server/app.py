"""The FastAPI application: lobby REST API, one websocket per seat or spectator, and the
static browser UI.

REST (JSON):

``GET  /api/meta``               games, lobby options, bot names, whether solo exists.
``GET  /api/cards/{game}``       public card data for drawing cards.
``GET  /api/rules/{game}``       the game's rules (``RULES.md``, Markdown, in the language
                                 of ``Accept-Language``) for the page's rules panel.
``GET  /api/games``              saved games, newest first (no seeds, no tokens).
``POST /api/games``              create: ``{"game", "options", "seats": [{"kind": "human" |
                                 "bot", "bot", "name"}], "seed"?}`` → id, per human seat its
                                 token and invite link, the spectator link.  Without a seed
                                 the server draws 128 bits; with one the table is marked
                                 ``"deal": "chosen"`` everywhere (lobby, game info, every
                                 snapshot) and ``"rated": false``.  Clocks (issue 15):
                                 ``"clock"``: ``{"kind": "none"}``, ``{"kind": "realtime",
                                 "base_s", "increment_s"}`` or ``{"kind": "turn",
                                 "per_move_s"}`` (seconds); ``"timeout_bot"`` (the bot that
                                 moves for a seat out of time or taken over, default
                                 ``easy``); ``"takeover_after"`` (timeouts after which a bot
                                 plays the seat until its player returns; 0: never).
                                 ``"table"``: ``{"hints", "spectator_chat"}`` (booleans).
``GET  /api/games/{id}``         one game's public info, with ``clock`` (the settings and
                                 each seat's remaining time) and ``waiting`` (the seats the
                                 game waits for).
``GET  /api/games/{id}/record``  the record (with the seed, the seat names, the clock
                                 settings and clock events), only once the game is over;
                                 ``?download=1`` as a file.
``GET  /api/games/{id}/replay``  ``?view=public|all|N`` (N: a seat, counted from 1): one
                                 frame per state of a finished game (403 before the end).
``POST /api/games/{id}/rematch`` ``{"token"}`` (a seat's token): the rematch of a finished
                                 game (same seats, links and clock, a new deal), made once.
``POST /api/mine``               ``{"seats": [{"game", "token"}]}`` (the seats this browser
                                 holds) → per valid seat: game, seat, status, whether the
                                 game waits for it, its clock.

Websocket ``/ws/{id}?token=T``: a seat (T is its invite token) or, without a token, a
spectator; see :mod:`porphyra.server.protocol`.  Pages: ``/`` (lobby), ``/game/{id}``
(the game; the seat token travels in the URL fragment ``#token=...``, never to the
server's HTTP log), ``/replay/{id}`` (the replay viewer of a finished game;
``?view=...`` as above: a shareable link).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import re
import time
import unicodedata
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.websockets import WebSocketState

from porphyra.bots import bot_names
from porphyra.clocks import (
    DEFAULT_TIMEOUT_BOT,
    MAX_BASE_S,
    MAX_INCREMENT_S,
    MAX_PER_MOVE_S,
    MAX_TAKEOVER_AFTER,
    ClockSettings,
)
from porphyra.core import registry
from porphyra.core.errors import UnknownGameError
from porphyra.core.messages import msg
from porphyra.core.options import options_of
from porphyra.core.registry import registered_games
from porphyra.core.seats import default_name, hidden_character
from porphyra.i18n import DEFAULT as DEFAULT_LANGUAGE
from porphyra.i18n import LANGUAGES, catalogue_json, from_accept_language
from porphyra.i18n import normalize as normalize_language
from porphyra.i18n.log import translate_error
from porphyra.i18n.messages import error_message
from porphyra.server import HEARTBEAT_S, protocol
from porphyra.server.client import MOVED_CLOSE_CODE, Client
from porphyra.server.errors import MOVED_MESSAGE, RefusedRequest, SubmitError
from porphyra.server.gamedata import card_data, lobby_bot_text, lobby_bots, solo_supported
from porphyra.server.hub import CreateError, Hub
from porphyra.server.incidents import player_message, report
from porphyra.server.learn import router as learn_router
from porphyra.server.notfound import not_found_page, wants_page
from porphyra.server.owners import ClusterSettings, OwnedElsewhere
from porphyra.server.quotas import (
    CHAT_LIMIT,
    CREATE_LIMIT,
    MAX_BOT_GAMES,
    MAX_CLIENT_CONNECTIONS,
    MAX_SEAT_CONNECTIONS,
    MESSAGE_LIMIT,
    READ_LIMIT,
    Quotas,
)
from porphyra.server.security import SecurityHeaders, origin_allowed
from porphyra.server.storage import TABLE_DEFAULTS, Storage, default_db_url
from porphyra.server.summary import parse_view, replay_frames

log = logging.getLogger("porphyra.server")

STATIC_DIR = Path(__file__).parent / "static"
MAX_NAME = 40
#: Longest echo of a refused input in a 422 reply, in characters.
MAX_ECHO = 200
#: Most seats one ``POST /api/mine`` may ask about.
MAX_MINE = 50


def _short(value: Any) -> Any:
    """``value`` (as decoded from a request body) with every text over :data:`MAX_ECHO`
    characters cut, any container too long as JSON replaced by its cut JSON text, and any
    number JSON cannot carry (NaN, Infinity) as its text."""
    if isinstance(value, str):
        return value if len(value) <= MAX_ECHO else value[:MAX_ECHO] + "… (cut)"
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # NaN, Infinity, 1e999: not JSON, so echoed as text
    if isinstance(value, int | float) and not isinstance(value, bool):
        text = repr(value)  # (a JSON number may have thousands of digits)
        return value if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "… (cut)"
    if isinstance(value, dict | list):
        text = json.dumps(value, default=str, ensure_ascii=False)
        if len(text) > MAX_ECHO:
            return text[:MAX_ECHO] + "… (cut)"
        if isinstance(value, dict):
            return {_short(str(k)): _short(v) for k, v in value.items()}
        return [_short(v) for v in value]
    return value


def short_validation_errors(errors: Sequence[Any]) -> list[dict[str, Any]]:
    """Pydantic's validation errors (``RequestValidationError.errors()``) made safe to send
    back: the echoed ``input``, ``loc`` parts and ``ctx`` values are cut to
    :data:`MAX_ECHO` characters, so a 1 MB field never comes back as a 1 MB reply.

    Returns:
        ``[{"type", "loc", "msg", "input"?, "ctx"?}]`` (JSON-compatible).
    """
    out: list[dict[str, Any]] = []
    for error in errors[:20]:
        item = jsonable_encoder(error)
        short = {k: _short(v) for k, v in item.items() if k in ("type", "msg", "input", "ctx")}
        short["loc"] = [_short(part) for part in item.get("loc", [])]
        out.append(short)
    return out


def validation_message(errors: Sequence[dict[str, Any]], lang: str) -> str:
    """The first three of ``errors`` (:func:`short_validation_errors`) in words, for a
    person: ``"seats.0.name: a seat name needs a visible letter, digit or sign"``, each
    message in ``lang`` where the catalogue has it (the field path stays as sent)."""
    parts = []
    for error in errors[:3]:
        where = ".".join(str(p) for p in error.get("loc", []) if p != "body")
        what = str(error.get("msg", ""))
        what = what.removeprefix("Value error, ")  # pydantic's prefix to our own messages
        what = translate_error(what, lang)
        parts.append(f"{where}: {what}" if where else what)
    return "; ".join(parts)


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


class RedactTokens(logging.Filter):
    """Hide seat tokens (``token=...``) in log lines, e.g. uvicorn's websocket lines."""

    _pattern = re.compile(r"token=[^&\s\"']+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "token=" in record.msg:
            record.msg = self._pattern.sub("token=<hidden>", record.msg)
        if record.args and isinstance(record.args, tuple):
            record.args = tuple(
                self._pattern.sub("token=<hidden>", a) if isinstance(a, str) else a
                for a in record.args
            )
        return True


class QuietClientFaults(logging.Filter):
    """One line, without a traceback, for a client's fault that uvicorn logs with one
    (:data:`CLIENT_FAULTS`): a text frame of invalid UTF-8 is closed with 1007 as the
    standard asks, and uvicorn's traceback for each would let any client fill the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage() in CLIENT_FAULTS:
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


#: uvicorn's log messages (``logger.exception``) for faults of the client alone.
CLIENT_FAULTS = frozenset({"Invalid UTF-8 sequence received from client."})


def redact_server_logs() -> None:
    """Install :class:`RedactTokens` on uvicorn's loggers and :class:`QuietClientFaults`
    on its error log (idempotent)."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())
    errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietClientFaults) for f in errors.filters):
        errors.addFilter(QuietClientFaults())


class SeatIn(BaseModel):
    """One seat of a create request (an unknown field is refused: a typo never silently
    falls back to a default)."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["human", "bot"]
    bot: str | None = Field(default=None, max_length=40)
    name: str | None = Field(default=None, max_length=MAX_NAME)

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: str | None) -> str | None:
        """Refuse control, format (bidi overrides, zero-width marks) and unassigned
        characters in a seat name, which every seat and spectator sees.

        Raises:
            ValueError: the name holds one (the message names its code point).
        """
        if name is None:
            return None
        for ch in name:
            if hidden_character(ch):
                raise ValueError(
                    f"a seat name may not contain control or formatting characters "
                    f"(U+{ord(ch):04X}, e.g. a bidi override, NUL or a line break)"
                )
        if not any(_visible(ch) for ch in name):
            raise ValueError("a seat name needs a visible letter, digit or sign")
        if _RESERVED_NAME.fullmatch(name.strip()):
            raise ValueError(
                "a seat name may not look like a seat number or the word Spectator "
                "(names such as 'Seat 2' would stand for another seat)"
            )
        return name


#: Names that would read as another seat's or a spectator's (the server's defaults).
_RESERVED_NAME = re.compile(r"(?i)(seat|player)\s*\d+|spectator|席\s*\d+|좌석\s*\d+|観戦者|관전자")
#: Letters the Unicode data calls letters but that show nothing (Hangul fillers).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def _visible(ch: str) -> bool:
    """True if ``ch`` shows on its own: a letter, digit, punctuation or symbol (not a
    space, a combining mark or a blank filler)."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_LETTERS


class TableIn(BaseModel):
    """A table's choices (see :data:`porphyra.server.storage.TABLE_DEFAULTS`)."""

    model_config = ConfigDict(extra="forbid")

    #: Every seat may ask for hints (they always may when every other seat is a bot).
    hints: StrictBool = TABLE_DEFAULTS["hints"]
    #: Spectators may write in the chat (they always read it).
    spectator_chat: StrictBool = TABLE_DEFAULTS["spectator_chat"]


class RematchIn(BaseModel):
    """A rematch request: the token of a seat of the finished game."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=200)


class NoClockIn(BaseModel):
    """No clock (casual)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["none"]


class RealtimeClockIn(BaseModel):
    """Real time: ``base_s`` seconds each, ``increment_s`` more after each action."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["realtime"]
    base_s: StrictInt = Field(ge=1, le=MAX_BASE_S)
    increment_s: StrictInt = Field(default=0, ge=0, le=MAX_INCREMENT_S)


class TurnClockIn(BaseModel):
    """Turn-based: ``per_move_s`` seconds for every decision."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["turn"]
    per_move_s: StrictInt = Field(ge=1, le=MAX_PER_MOVE_S)


#: The ``clock`` of a create request (``kind`` chooses the shape; a wrong field or value
#: is a 422 naming it).
ClockIn = Annotated[NoClockIn | RealtimeClockIn | TurnClockIn, Field(discriminator="kind")]


class CreateIn(BaseModel):
    """A create request (see the module docstring); an unknown field (``"Seed"``) is
    refused with 422 naming it."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn] = Field(min_length=1, max_length=4)
    #: A chosen seed makes a marked, unrated table (see :meth:`Hub.create`).
    seed: int | None = Field(default=None, ge=0, lt=2**256)
    table: TableIn = Field(default_factory=TableIn)
    clock: ClockIn | None = None
    timeout_bot: str | None = Field(default=None, max_length=40)
    takeover_after: StrictInt = Field(default=0, ge=0, le=MAX_TAKEOVER_AFTER)


class MySeatIn(BaseModel):
    """One seat this browser holds: the game id and the seat's token."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    token: str = Field(max_length=200)


class MineIn(BaseModel):
    """The seats of ``POST /api/mine``."""

    model_config = ConfigDict(extra="forbid")
    seats: list[MySeatIn] = Field(max_length=MAX_MINE)


def clock_settings(body: CreateIn, bots: set[str]) -> ClockSettings:
    """The table's :class:`ClockSettings` from a create request.

    Raises:
        HTTPException(400): ``timeout_bot`` is not a bot.
    """
    bot = body.timeout_bot or DEFAULT_TIMEOUT_BOT
    if bot not in bots:
        raise HTTPException(400, f"unknown timeout_bot {bot!r}; bots: {', '.join(sorted(bots))}")
    clock = body.clock
    common: dict[str, Any] = {"timeout_bot": bot, "takeover_after": body.takeover_after}
    if isinstance(clock, RealtimeClockIn):
        return ClockSettings("realtime", clock.base_s, clock.increment_s, **common)
    if isinstance(clock, TurnClockIn):
        return ClockSettings("turn", per_move_s=clock.per_move_s, **common)
    return ClockSettings("none", **common)


def check_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Keep the options the lobby may set (the game's declared options marked ``lobby``),
    with values the declaration accepts; ``None`` means "the default" and is dropped.
    The game checks how the values fit together when it is created.

    Raises:
        HTTPException(400): an unknown game, option or value (file paths and stacked decks
            are never accepted from the web); what was refused is echoed cut to
            :data:`MAX_ECHO` characters.
    """
    try:
        declared = options_of(registry.game_info(name).options, "lobby")
    except UnknownGameError:
        raise RefusedRequest(
            400,
            msg("unknown game {0}; games: {1}", repr(_short(name)), ", ".join(registered_games())),
        ) from None
    allowed = {o.name: o for o in declared}
    out: dict[str, Any] = {}
    for key, value in options.items():
        option = allowed.get(key)
        if option is None:
            raise RefusedRequest(400, msg("option {0} cannot be set here", repr(_short(key))))
        if value is None:
            continue
        if not option.accepts(value):
            raise RefusedRequest(
                400,
                msg(
                    "option {0}={1} not accepted; {2}",
                    key,
                    repr(_short(value)),
                    option.values_message(),
                ),
            )
        out[key] = value
    return out


def create_app(
    db_url: str | None = None,
    data_dir: str | Path | None = None,
    bot_workers: int = 0,
    allowed_origins: Sequence[str] = (),
    allowed_hosts: Sequence[str] | None = None,
    create_limit: str | None = CREATE_LIMIT,
    message_limit: str | None = MESSAGE_LIMIT,
    max_bot_games: int | None = MAX_BOT_GAMES,
    idle_after: float = 300.0,
    max_seat_connections: int | None = MAX_SEAT_CONNECTIONS,
    max_client_connections: int | None = MAX_CLIENT_CONNECTIONS,
    chat_limit: str | None = CHAT_LIMIT,
    read_limit: str | None = READ_LIMIT,
    hint_bot: str = "hard",
    bot_pace: float = 0.6,
    time_source: Callable[[], float] = time.time,
    clock_poll: float = 0.25,
    heartbeat_s: float = HEARTBEAT_S,
    cluster: ClusterSettings | None = None,
) -> FastAPI:
    """Build the application.

    Args:
        db_url: any SQLAlchemy URL; default: an SQLite file ``porphyra.sqlite3`` in
            ``data_dir``.
        data_dir: directory of the default database (default: :func:`default_data_dir`).
        bot_workers: processes for server-side bots (0: a thread pool).
        allowed_origins: websocket ``Origin``s allowed besides the server's own (``"*"``:
            any); see :func:`porphyra.server.security.origin_allowed`.
        allowed_hosts: ``Host`` names the server answers to (Starlette's
            ``TrustedHostMiddleware``; ``*.example.org`` patterns); None: any.
        create_limit / message_limit / max_bot_games: see :mod:`porphyra.server.quotas`
            (None: no limit).
        idle_after: seconds before an unused game is released from memory.
        max_seat_connections / max_client_connections: websockets open at once per seat
            token and per client address (None: no limit); see :mod:`porphyra.server.quotas`.
        chat_limit: chat lines per seat (see :mod:`porphyra.server.quotas`; None: none).
        read_limit: reads of stored games per client address (the game list, a game's
            info, record and replay, ``/api/mine``; see :mod:`porphyra.server.quotas`;
            None: none).
        hint_bot: the bot that answers hints (on the asking seat's view only).
        bot_pace: least seconds between a move and the next bot move at a table with a
            person, so that the bots' moves can be followed (0: at once).
        time_source / clock_poll / heartbeat_s: the clocks' time (epoch seconds), how often
            to look for clocks out of time and to write a heartbeat (real seconds); see
            :class:`Hub`.
        cluster: this process is one of several servers on the database (see
            :mod:`porphyra.server.owners`); None: the database's only server.

    Returns:
        The FastAPI app; its lifespan reloads every stored game and restarts its bots.
    """
    url = database_url(db_url, data_dir)
    quotas = Quotas(
        create_limit,
        message_limit,
        max_seat_connections,
        max_client_connections,
        chat_limit,
        read_limit,
    )

    def limit_reads(request: Request) -> None:
        """A dependency of the routes that read stored games: 429 (with ``Retry-After``)
        once the client's address is over the read limit."""
        client = request.client.host if request.client else "?"
        if not quotas.allow_read(client):
            raise HTTPException(
                429,
                read_refusal(),
                headers={"retry-after": str(quotas.read_retry_after(client))},
            )

    def read_refusal() -> str:
        return (
            f"too many requests from your address (limit {quotas.describe_read()}); try again later"
        )

    reads = [Depends(limit_reads)]

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact_server_logs()  # after uvicorn configured its logging
        storage = Storage(url)
        hub = Hub(
            storage,
            bot_workers=bot_workers,
            idle_after=idle_after,
            hint_bot=hint_bot,
            bot_pace=bot_pace,
            time_source=time_source,
            clock_poll=clock_poll,
            heartbeat_s=heartbeat_s,
            cluster=cluster,
        )
        app.state.hub = hub
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()
            storage.close()

    app = FastAPI(title="porphyra", lifespan=lifespan, docs_url=None, redoc_url=None)
    if allowed_hosts is not None:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(allowed_hosts))
    origins = tuple(allowed_origins)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """The error's text in the language the request prefers (``Accept-Language``; the
        pages send the chosen one), its status and headers unchanged; a browser asking for
        a page at an unknown address gets a page (:mod:`porphyra.server.notfound`)."""
        if exc.status_code == 404 and wants_page(request):
            return not_found_page(request)
        detail: Any = exc.detail
        lang = from_accept_language(request.headers.get("accept-language"))
        if isinstance(exc, RefusedRequest):
            detail = error_message(exc.message, lang)  # from its id and arguments
        elif isinstance(detail, str):
            detail = translate_error(detail, lang)
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(OwnedElsewhere)
    async def owned_elsewhere(request: Request, exc: OwnedElsewhere) -> JSONResponse:
        """421 (misdirected): another server of the database runs this game; ``server``
        says where (None: unknown)."""
        lang = from_accept_language(request.headers.get("accept-language"))
        return JSONResponse(
            {"detail": translate_error(MOVED_MESSAGE, lang), "server": exc.address},
            status_code=421,
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        """422 with pydantic's errors, the echoed input cut (:func:`short_validation_errors`),
        and ``message``: what is wrong in words, in the language of ``Accept-Language``
        (:func:`validation_message`; the pages show it)."""
        errors = short_validation_errors(exc.errors())
        lang = from_accept_language(request.headers.get("accept-language"))
        return JSONResponse(
            {"detail": errors, "message": validation_message(errors, lang)}, status_code=422
        )

    @app.middleware("http")
    async def internal_errors(request: Request, call_next: Any) -> Response:
        """An unexpected failure answers 500 with an error id only (issue 13, item 2)."""
        try:
            response: Response = await call_next(request)
        except Exception:
            error_id = report("%s %s failed", request.method, request.url.path)
            return JSONResponse(
                {"detail": player_message(error_id), "error_id": error_id}, status_code=500
            )
        return response

    # Added last, so outermost: every reply carries the headers, also the host check's 400
    # and the 500 above (a middleware added later wraps those added before it).
    app.add_middleware(SecurityHeaders)

    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(learn_router)

    def hub_of(request_app: Any) -> Hub:
        hub: Hub = request_app.state.hub
        return hub

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC_DIR / "game.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC_DIR / "replay.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return Response(status_code=204)

    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        games = {}
        for name in registered_games():
            info = registry.game_info(name)
            games[name] = {
                "long_name": info.long_name,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "options": [o.to_json() for o in options_of(info.options, "lobby")],
            }
        return {
            "games": games,
            "bots": lobby_bots(),
            "bot_text": lobby_bot_text(),
            "all_bots": bot_names(),
            "solo": solo_supported(),
        }

    @app.get("/api/i18n/{lang}")
    async def i18n_catalogue(lang: str) -> dict[str, Any]:
        if normalize_language(lang) != lang:
            raise HTTPException(404, f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
        return catalogue_json(lang)

    @app.get("/api/cards/{name}")
    async def cards(name: str) -> dict[str, Any]:
        if name not in registered_games():
            raise HTTPException(404, f"unknown game {name!r}")
        return card_data(name)

    @app.get("/api/rules/{name}")
    async def rules(name: str, request: Request) -> dict[str, Any]:
        """``{"game", "lang", "markdown"}``: the game's rules in the language the request
        prefers (``Accept-Language``; the pages send the chosen one)."""
        if name not in registered_games():
            raise HTTPException(404, f"unknown game {name!r}")
        from porphyra.cli.rules import rules_text

        lang = from_accept_language(request.headers.get("accept-language"))
        return {"game": name, "lang": lang, "markdown": rules_text(name, lang, "browser")}

    @app.get("/api/games", dependencies=reads)
    async def list_games() -> list[dict[str, Any]]:
        hub = hub_of(app)
        rows: list[dict[str, Any]] = await hub.db(hub.storage.summaries)
        for row in rows:
            runner = hub.runners.get(row["id"])
            if runner is not None:
                row["seats"] = runner.seats_info()
            damage = row.pop("damage", None)
            if damage is not None:
                hub.mark_broken(row["id"], damage)
            if row["id"] in hub.broken:  # e.g. a record of an older rules version
                row["status"] = "broken"
                row["problem"] = hub.broken[row["id"]]
        return rows

    @app.post("/api/games", status_code=201)
    async def create_game(body: CreateIn, request: Request) -> dict[str, Any]:
        hub = hub_of(app)
        if not quotas.allow_create(request.client.host if request.client else "?"):
            raise HTTPException(
                429,
                f"too many new games from your address (limit {quotas.describe_create()}); "
                "try again later",
            )
        slot = max_bot_games if all(s.kind == "bot" for s in body.seats) else None
        if not hub.reserve_bot_only(slot):
            raise HTTPException(
                429,
                f"{max_bot_games} games of bots only are already running on this server; "
                "try again when one has finished",
            )
        try:
            return await _create(hub, body)
        finally:  # the game is registered (it counts itself now) or was not created
            hub.release_bot_only(slot)

    async def _create(hub: Hub, body: CreateIn) -> dict[str, Any]:
        """Check and create the game of ``body`` (see ``create_game``).

        Raises:
            HTTPException(400): unknown options, bots or seat counts.
        """
        options = check_options(body.game, body.options)
        bots = set(bot_names())
        seats = []
        for i, s in enumerate(body.seats):
            if s.kind == "bot" and (s.bot or "random") not in bots:
                raise HTTPException(400, f"Seat {i + 1}: unknown bot {s.bot!r}")
            bot = s.bot or "random"
            default = default_name(i, None if s.kind == "human" else bot)
            name = (s.name or "").strip() or default
            seats.append(
                {
                    "kind": s.kind,
                    "bot": (s.bot or "random") if s.kind == "bot" else None,
                    "name": name,
                }
            )
        clock = clock_settings(body, bots)
        try:
            runner, tokens = await hub.create(
                body.game, options, seats, body.seed, body.table.model_dump(), clock=clock
            )
        except (CreateError, UnknownGameError) as exc:
            raise RefusedRequest(400, exc.message) from None
        info = runner.info()
        info["fixed_seed"] = body.seed is not None  # the same as info["deal"] == "chosen"
        info["invites"] = [
            {"seat": seat, "token": token, "url": f"/game/{runner.id}#token={token}"}
            for seat, token in sorted(tokens.items())
        ]
        info["spectate_url"] = f"/game/{runner.id}"
        return info

    async def existing(game_id: str, write: bool = False) -> Any:
        """The runner of ``game_id`` (``write``: to change the game, so this server must
        run it; else for reading only, :meth:`Hub.find`).

        Raises:
            HTTPException(410): the game is damaged (:func:`damaged_detail`).
            HTTPException(404): there is no such game.
            OwnedElsewhere: ``write``, and another server of the cluster runs the game
                (answered 421).
        """
        hub = hub_of(app)
        runner = await (hub.get(game_id) if write else hub.find(game_id))
        if runner is None:
            if game_id in hub.broken:
                raise HTTPException(410, damaged_detail(hub.broken[game_id]))
            raise HTTPException(404, "no such game")
        return runner

    @app.get("/api/games/{game_id}", dependencies=reads)
    async def game_info(game_id: str) -> dict[str, Any]:
        runner = await existing(game_id)
        info: dict[str, Any] = runner.info()
        return info

    @app.get("/api/games/{game_id}/record", dependencies=reads)
    async def game_record(game_id: str, download: bool = False) -> JSONResponse:
        runner = await existing(game_id)
        if not runner.over:
            raise HTTPException(
                403, "the record (with its seed) is available once the game is over"
            )
        headers = {}
        if download:
            headers["content-disposition"] = (
                f'attachment; filename="{runner.name}-{runner.id}.porphyra.json"'
            )
        return JSONResponse(runner.record_with_seats(), headers=headers)

    @app.get("/api/games/{game_id}/replay", dependencies=reads)
    async def game_replay(game_id: str, view: str = "public") -> dict[str, Any]:
        """The frames of a finished game (:func:`replay_frames`), never before its end:
        each frame's log as English lines and as messages (``log_messages``) that the
        page renders in its language."""
        runner = await existing(game_id)
        if not runner.over:
            raise HTTPException(403, "a game can be replayed once it is over")
        try:
            chosen = parse_view(view, len(runner.seats))
        except ValueError as exc:
            raise HTTPException(400, str(exc)) from None
        rec = runner.record_with_seats()
        frames = await asyncio.get_running_loop().run_in_executor(None, replay_frames, rec, chosen)
        return {
            "id": runner.id,
            "game": runner.name,
            "view": view,
            "seat": chosen if isinstance(chosen, int) else None,
            "seats": runner.seats_info(),
            "options": runner.row.options,
            "result": rec["result"],
            "frames": frames,
        }

    @app.post("/api/games/{game_id}/rematch", status_code=201, dependencies=reads)
    async def rematch(game_id: str, body: RematchIn) -> dict[str, Any]:
        """Start (once) the rematch of a finished game for a seat of it: same seats, names,
        bots and table; every human seat's own link (token) opens its seat there."""
        hub = hub_of(app)
        if game_id in hub.broken:
            raise HTTPException(410, damaged_detail(hub.broken[game_id]))
        # The token is checked on the stored seats before the game is loaded (and, in a
        # cluster, claimed): a wrong token costs no replay, and gets the same answer with
        # or without such a game.
        seat = None
        if await hub.may_hold(game_id, body.token):
            runner = await existing(game_id, write=True)
            seat = runner.seat_of_token(body.token)
        if seat is None:
            raise HTTPException(403, "only a seat of this game can ask for its rematch")
        try:
            new = await hub.rematch(runner)
        except (CreateError, UnknownGameError) as exc:
            raise RefusedRequest(400, exc.message) from None
        info: dict[str, Any] = new.info()
        info["url"] = f"/game/{new.id}"
        return info

    @app.post("/api/mine", dependencies=reads)
    async def my_games(body: MineIn) -> list[dict[str, Any]]:
        """The seats of ``body`` that exist, each ``{"id", "game", "long_name", "seat",
        "name", "status", "your_turn" (the game waits for this seat, and no bot plays
        it), "clock" (this seat's clock), "updated"}``; unknown games and wrong tokens are
        left out (nothing tells which)."""
        hub = hub_of(app)
        out = []
        for mine in body.seats:
            try:
                # The token first, on the stored seats: a wrong one never loads the game.
                if not await hub.may_hold(mine.game, mine.token):
                    continue
                runner = await hub.find(mine.game)  # (another server's game: as stored)
            except Exception:  # the database is down: that game is left out this time
                report("game %s: could not be loaded for the lobby", mine.game)
                continue
            seat = None if runner is None else runner.seat_of_token(mine.token)
            if runner is None or seat is None:
                continue
            clock = runner.clock_info()
            out.append(
                {
                    "id": runner.id,
                    "game": runner.name,
                    "long_name": runner.game.info.long_name,
                    "seat": seat,
                    "name": runner.seats[seat].name,
                    "status": "over" if runner.over else "active",
                    "your_turn": not runner.over
                    and seat in runner.state.active_players()
                    and not runner.bot_plays(seat),
                    "clock": {**clock, "seats": None, "mine": clock["seats"][seat]},
                    "updated": runner.row.updated,
                }
            )
        return out

    @app.websocket("/ws/{game_id}")
    async def websocket_endpoint(
        websocket: WebSocket, game_id: str, token: str | None = None, lang: str | None = None
    ) -> None:
        if not origin_allowed(
            websocket.headers.get("origin"), websocket.headers.get("host"), origins
        ):
            log.warning("websocket refused: foreign origin %r", websocket.headers.get("origin"))
            await websocket.close(code=4403)  # before accept: the handshake gets HTTP 403
            return
        await websocket.accept()
        client_lang = normalize_language(lang) or DEFAULT_LANGUAGE
        hub = hub_of(websocket.app)
        peer = websocket.client.host if websocket.client else "?"
        if game_id not in hub.runners and not quotas.allow_read(peer):
            # Opening a game that is not in memory replays its record: a read of a stored
            # game, counted as one (else opening and closing sockets across many games
            # would replay them all).
            await _refuse(websocket, translate_error(read_refusal(), client_lang), 4429, "limit")
            return
        try:
            runner = await hub.get(game_id)
        except OwnedElsewhere as moved:
            await _moved(websocket, moved, client_lang)
            return
        except Exception:  # e.g. the database is down
            error_id = report("game %s: could not open", game_id)
            await websocket.send_text(
                protocol.dumps(protocol.error(0, player_message(error_id), "unavailable"))
            )
            await websocket.close(code=1011)
            return
        if runner is None:
            if game_id in hub.broken:
                await _refuse(
                    websocket,
                    translate_error(damaged_detail(hub.broken[game_id]), client_lang),
                    4410,
                    "damaged",
                )
            else:
                await _refuse(websocket, translate_error("no such game", client_lang), 4404)
            return
        seat: int | None = None
        if token:
            seat = runner.seat_of_token(token)
            if seat is None:
                await _refuse(
                    websocket,
                    translate_error(
                        "wrong seat token: this link does not open a seat", client_lang
                    ),
                    4403,
                )
                return
        seat_key = None if seat is None else f"{game_id}/{seat}"
        refusal = quotas.open_connection(peer, seat_key)
        if refusal is not None:
            await _refuse(websocket, translate_error(refusal, client_lang), 4429, "limit")
            return
        client = Client(seat, lang=client_lang)
        writer: asyncio.Task[None] | None = None
        # From here on the connection holds a slot (open_connection): every way out,
        # a failure included, goes through the finally that gives it back.
        try:
            await runner.load_chat()
            writer = asyncio.get_running_loop().create_task(_writer(websocket, client))
            async with runner.lock:  # a snapshot only ever shows a durably stored state
                runner.attach(client)
            if runner.released:  # released from memory meanwhile: use the reloaded runner
                runner.detach(client)
                try:
                    again = await hub.get(game_id)
                except OwnedElsewhere as moved:  # and another server took it meanwhile
                    client.move_to(moved.address, 0)  # (the writer sends it, then closes)
                    return
                if again is None:
                    client.send(
                        protocol.error(0, translate_error("no such game", client_lang), "auth")
                    )
                    client.close_code = 4404
                    return
                runner = again
                await runner.load_chat()
                async with runner.lock:
                    runner.attach(client)
            messages = quotas.connection_key()
            # Chat is rate-limited per seat, and per address for spectators (however many
            # sockets an address opens, they share one rate).
            chat_key = f"{game_id}/spectators/{peer}" if seat is None else f"{game_id}/{seat}"
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if not quotas.allow_message(messages):
                    client.send(
                        protocol.error(
                            runner.seq, client.error_text("too many messages: slow down"), "limit"
                        )
                    )
                    continue
                await _handle(runner, client, raw, lambda: quotas.allow_chat(chat_key))
                if client.dropped:
                    break
        except WebSocketDisconnect:
            pass
        except Exception:  # never a traceback to the player, never a slot kept
            error_id = report("game %s: a connection failed", game_id)
            client.send(protocol.error(0, client.error_text(player_message(error_id)), "internal"))
            client.close_code = 1011
        finally:
            quotas.close_connection(peer, seat_key)
            runner.detach(client)
            client.outbox.put_nowait(None)
            if writer is not None:
                try:
                    await asyncio.wait_for(writer, timeout=2.0)
                except (TimeoutError, Exception):
                    writer.cancel()

    return app


def damaged_detail(problem: str) -> str:
    """What a damaged game's links answer (``problem``: its public problem)."""
    return f"{problem}. Other games are not affected: back to the lobby at /"


async def _refuse(websocket: WebSocket, message: str, code: int, kind: str = "auth") -> None:
    await websocket.send_text(protocol.dumps(protocol.error(0, message, kind)))
    await websocket.close(code=code)


async def _moved(websocket: WebSocket, moved: OwnedElsewhere, lang: str) -> None:
    """Tell a client that another server runs its game (error ``moved``, ``server``: where)
    and close with code 4307."""
    message = protocol.moved(0, translate_error(MOVED_MESSAGE, lang), moved.address)
    await websocket.send_text(protocol.dumps(message))
    await websocket.close(code=MOVED_CLOSE_CODE)


async def _writer(websocket: WebSocket, client: Client) -> None:
    """Send ``client``'s outbox in order; stop (and close) on ``None``."""
    try:
        while True:
            text = await client.outbox.get()
            if text is None:
                break
            await websocket.send_text(text)
    except Exception:  # the peer went away; the reader loop notices too
        return
    if websocket.client_state == WebSocketState.CONNECTED:
        code = client.close_code or (1008 if client.dropped else 1000)
        with contextlib.suppress(Exception):
            await websocket.close(code=code)


def _refused(client: Client, runner: Any, exc: SubmitError) -> None:
    """Answer ``client``'s refused message with the protocol's error (in its language).

    ``moved`` gets no answer here: another server took the game over, and
    :meth:`Hub.drop` (under way) tells every client of the game, this one too, where it
    went (the moved error with ``server``) and closes; this would be a second, incomplete
    one."""
    if exc.code != "moved":
        client.send(protocol.error(runner.seq, client.error_text(exc.message), exc.code))


async def _handle(
    runner: Any, client: Client, raw: str | bytes, allow_chat: Any = lambda: True
) -> None:
    """Answer one client message; every failure becomes an ``error`` to that client
    (``allow_chat()``: False when the writer is over the chat limit)."""
    try:
        msg = protocol.parse_client_message(raw)
    except protocol.ProtocolError as exc:
        client.send(protocol.error(runner.seq, client.error_text(exc.message), "malformed"))
        return
    if msg.type == "ping":
        client.send({"type": "pong", "seq": runner.seq})
        return
    if msg.type == "snapshot":
        client.send(runner.view(client.seat, "snapshot", lang=client.lang))
        return
    if msg.type == "chat":
        assert msg.action is not None
        if not allow_chat():
            message = client.error_text("too many chat lines: wait a moment")
            client.send(protocol.error(runner.seq, message, "limit"))
            return
        try:
            await runner.post_chat(client.seat, msg.action)
        except SubmitError as exc:
            _refused(client, runner, exc)
        return
    if client.seat is None:
        client.send(protocol.error(runner.seq, client.error_text("spectators cannot act"), "auth"))
        return
    try:
        if msg.type == "leave":
            await runner.leave(client.seat)
            return
        if msg.type == "return":
            await runner.give_back(client.seat)
            return
        assert msg.seq is not None
        if msg.type == "hint":
            if client.hinting:
                raise SubmitError("limit", "a hint is already being worked out")
            client.hinting = True
            try:
                client.send(await runner.hint(client.seat, msg.seq))
            finally:
                client.hinting = False
        elif msg.type == "undo":
            await runner.undo(client.seat, msg.seq)
        else:
            assert msg.action is not None
            await runner.submit(client.seat, msg.action, msg.seq)
    except SubmitError as exc:
        _refused(client, runner, exc)
    except Exception:  # never let one message take the server down
        error_id = report("game %s: unexpected error on a message", runner.id)
        client.send(protocol.error(runner.seq, player_message(error_id), "internal"))
