"""Browser-facing protections of the web server (issue 13, item 4).

- :func:`origin_allowed`: websockets refuse a foreign ``Origin`` (a page on another site
  cannot open a seat's socket with the player's browser), allowing the server's own origin
  and any configured ones.
- :class:`SecurityHeaders`: every HTTP response carries a Content-Security-Policy (scripts,
  styles, images and sockets from this server only; no framing), ``X-Frame-Options``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer`` (an invite
  link's page never leaks its URL to another site).
- Allowed hosts: Starlette's ``TrustedHostMiddleware`` (see :func:`porphyra.server.app.
  create_app`), against DNS rebinding of a server on loopback.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The Content-Security-Policy of every page: no inline script or style, no other site.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

#: Headers added to every HTTP response.
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)

#: Host names of a server listening on loopback (the default allowed hosts there).
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def normalize_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, without a trailing slash."""
    return origin.strip().rstrip("/").lower()


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """True if a websocket from ``origin`` may connect.

    Args:
        origin: the ``Origin`` request header (None: not a browser, which Origin checks
            cannot protect anyway; such clients need a seat token like everyone).
        host: the ``Host`` request header (the server's own origin is always allowed).
        allowed: further allowed origins (``https://play.example.org``), or ``"*"``.

    Returns:
        False for ``null`` and for any origin that is neither this server nor allowed.
    """
    if origin is None:
        return True
    wanted = normalize_origin(origin)
    extra = {normalize_origin(o) for o in allowed}
    if "*" in extra or wanted in extra:
        return True
    parts = urlsplit(wanted)
    return (
        parts.scheme in ("http", "https")
        and host is not None
        and parts.netloc == host.strip().lower()
    )


class SecurityHeaders:
    """ASGI middleware: add :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {k.lower() for k, _ in message.get("headers", [])}
                headers = list(message.get("headers", []))
                headers.extend(h for h in SECURITY_HEADERS if h[0] not in present)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
