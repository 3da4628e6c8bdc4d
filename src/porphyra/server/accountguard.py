"""Guards of the requests that sign in or act for an account (issue 32 §1 and §7).

:class:`AccountGuard`, an ASGI middleware:

- **Cross-site requests.**  A state-changing request (not GET, HEAD or OPTIONS) that
  carries the session cookie, or goes to the account API (:data:`ACCOUNT_PATHS`: also a
  sign-in or sign-up without a cookie, against login CSRF), is refused with 403 when its
  ``Origin`` is neither this server nor an allowed origin (the websockets' rule,
  :func:`porphyra.server.security.origin_allowed`), or, without an ``Origin``, when the
  browser says it comes from another site (``Sec-Fetch-Site: cross-site``).  Clients that
  are not browsers send neither and are let through: they hold no victim's cookie.
  The cookie's ``SameSite=Lax`` is the second wall (:mod:`porphyra.server.sessions`).
- **Body size.**  A body over :data:`MAX_BODY` bytes to the account API is refused with
  413 before it is parsed (a JSON body nested deeper than it can hold is then refused by
  the parser with 422, never a recursion error).

Refusals are JSON ``{"detail"}`` in the request's language (``Accept-Language``).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from porphyra.core.messages import Message as Text
from porphyra.core.messages import msg
from porphyra.i18n import from_accept_language
from porphyra.i18n.messages import error_message
from porphyra.server.security import origin_allowed
from porphyra.server.sessions import COOKIE

#: The account API's paths (and everything under them).
ACCOUNT_PATHS = ("/api/accounts", "/api/session", "/api/me")
#: Largest request body accepted by the account API, in bytes.
MAX_BODY = 4096
#: Methods that change nothing (never refused here).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def account_path(path: str) -> bool:
    """True for a path of the account API (:data:`ACCOUNT_PATHS`)."""
    return any(path == p or path.startswith(p + "/") for p in ACCOUNT_PATHS)


class AccountGuard:
    """ASGI middleware: see the module docstring.

    Args:
        app: the application it wraps.
        allowed_origins: further allowed origins (the setting ``allowed_origins``).
    """

    def __init__(self, app: ASGIApp, allowed_origins: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = tuple(allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        api = account_path(scope["path"])
        has_cookie = f"{COOKIE}=" in headers.get("cookie", "")
        if (api or has_cookie) and not self._same_site(headers):
            await self._refuse(
                scope,
                receive,
                send,
                headers,
                403,
                msg("this request came from another site and was refused"),
            )
            return
        if not api:
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive, MAX_BODY)
        if body is None:
            await self._refuse(
                scope,
                receive,
                send,
                headers,
                413,
                msg("the request is too large (limit {0} bytes)", MAX_BODY),
            )
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    def _same_site(self, headers: Headers) -> bool:
        """True unless the browser says the request comes from another site."""
        origin = headers.get("origin")
        if origin is not None:
            return origin_allowed(origin, headers.get("host"), self.allowed)
        return headers.get("sec-fetch-site", "same-origin") != "cross-site"

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, headers: Headers, status: int, text: Text
    ) -> None:
        lang = from_accept_language(headers.get("accept-language"))
        response = JSONResponse({"detail": error_message(text, lang)}, status_code=status)
        await response(scope, receive, send)


async def _read_body(receive: Receive, limit: int) -> bytes | None:
    """The whole request body, or None as soon as it passes ``limit`` bytes."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b"".join(chunks)
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
