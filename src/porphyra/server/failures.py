"""How the server answers a failure: an HTTP error's text in the asker's language, 421 for
a game another cluster server runs, 422 with pydantic's errors cut short and in words, 503
with ``Retry-After`` while the database does not answer (as a move gets ``unavailable``),
and 500 with an error id only (issue 13, item 2) for anything unexpected.

:func:`install` adds these handlers to an application.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException

from porphyra.core.messages import Message, msg
from porphyra.i18n import from_accept_language
from porphyra.i18n.log import translate_error
from porphyra.i18n.messages import error_message
from porphyra.server.accountguard import account_path
from porphyra.server.errors import MOVED_MESSAGE, RefusedRequest
from porphyra.server.incidents import log, new_error_id, player_message, report
from porphyra.server.notfound import not_found_page, wants_page
from porphyra.server.owners import OwnedElsewhere
from porphyra.server.requests import short_value

#: ``Retry-After`` (seconds) of a 503 while the database does not answer.
DATABASE_RETRY_AFTER_S = 5
#: The database's failures that mean "not answering now" (a connection refused or lost, a
#: pool with no free connection), not a wrong statement: 503, try again.
DATABASE_DOWN = (OperationalError, InterfaceError, PoolTimeoutError)


def database_down_message(error_id: str) -> Message:
    """The text of a 503 while the database does not answer, with error ``error_id``."""
    return msg(
        "the database is not answering just now; nothing changed: try again in a few "
        "seconds (error id {0})",
        error_id,
    )


def short_validation_errors(errors: Sequence[Any]) -> list[dict[str, Any]]:
    """Pydantic's validation errors (``RequestValidationError.errors()``) made safe to send
    back: the echoed ``input``, ``loc`` parts and ``ctx`` values are cut to
    :data:`~porphyra.server.requests.MAX_ECHO` characters, so a 1 MB field never comes
    back as a 1 MB reply.

    Returns:
        ``[{"type", "loc", "msg", "input"?, "ctx"?}]`` (JSON-compatible).
    """
    out: list[dict[str, Any]] = []
    for error in errors[:20]:
        item = jsonable_encoder(error)
        short = {k: short_value(v) for k, v in item.items() if k in ("type", "msg", "input", "ctx")}
        short["loc"] = [short_value(part) for part in item.get("loc", [])]
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


def install(app: FastAPI) -> None:
    """Add the server's error handlers and its 500 middleware to ``app`` (before the
    security headers' middleware, which must wrap them)."""

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

    async def database_down(request: Request, exc: Exception) -> JSONResponse:
        """503 with ``Retry-After`` (:data:`DATABASE_RETRY_AFTER_S`) and an error id: the
        database did not answer and nothing changed (the details, which may name its host,
        only in the server log)."""
        error_id = new_error_id()
        log.error(
            "[error %s] %s %s: the database did not answer",
            error_id,
            request.method,
            request.url.path,
            exc_info=exc,
        )
        lang = from_accept_language(request.headers.get("accept-language"))
        text = error_message(database_down_message(error_id), lang)
        return JSONResponse(
            {"detail": text, "error_id": error_id, "code": "unavailable"},
            status_code=503,
            headers={"retry-after": str(DATABASE_RETRY_AFTER_S)},
        )

    for kind in DATABASE_DOWN:
        app.add_exception_handler(kind, database_down)

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        """422 with pydantic's errors, the echoed input cut (:func:`short_validation_errors`;
        none at all from the account API, whose bodies hold passwords),
        and ``message``: what is wrong in words, in the language of ``Accept-Language``
        (:func:`validation_message`; the pages show it)."""
        errors = short_validation_errors(exc.errors())
        if account_path(request.url.path):  # a password is never echoed
            errors = [{k: v for k, v in e.items() if k in ("type", "loc", "msg")} for e in errors]
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
