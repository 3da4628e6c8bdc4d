"""The page a browser gets for an address the server does not know (issue 29, section 6).

A person who mistypes an address or follows an old link should read a page in their
language with a way back to the lobby, not ``{"detail": "Not Found"}``.  Only a browser's
page request gets it: a ``GET`` (or ``HEAD``) whose ``Accept`` names ``text/html``, outside
the API (``/api/...``, ``/ws/...``, ``/static/...`` and ``/openapi.json`` keep their JSON
answers, which scripts and the pages' own requests read).  The language is the one the
request's ``Accept-Language`` prefers among English, Japanese and Korean.
"""

from __future__ import annotations

from html import escape

from starlette.requests import Request
from starlette.responses import HTMLResponse

from porphyra.i18n import N_, from_accept_language, gettext

#: Paths under these keep the JSON answer of every other error.
MACHINE_PREFIXES = ("/api/", "/ws/", "/static/", "/openapi.json")

TITLE = N_("Page not found")
TEXT = N_("There is no page at this address. The link may be mistyped or out of date.")
BACK = N_("Back to the lobby")


def wants_page(request: Request) -> bool:
    """True for a browser's request of a page (see the module docstring)."""
    if request.method not in ("GET", "HEAD"):
        return False
    path = request.url.path
    if any(path == p.rstrip("/") or path.startswith(p) for p in MACHINE_PREFIXES):
        return False
    return "text/html" in request.headers.get("accept", "").lower()


def not_found_page(request: Request) -> HTMLResponse:
    """The 404 page in the language of ``Accept-Language`` (English, Japanese or Korean):
    a title, one sentence and a link to the lobby, styled by the pages' own stylesheet (no
    inline script or style, as the security policy requires)."""
    lang = from_accept_language(request.headers.get("accept-language"))
    title, text, back = (escape(gettext(lang, m)) for m in (TITLE, TEXT, BACK))
    body = (
        "<!doctype html>\n"
        f'<html lang="{lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{title} · porphyra</title>\n"
        '<link rel="stylesheet" href="/static/style.css">\n</head>\n<body>\n'
        f'<main id="not-found">\n<h1>{title}</h1>\n<p>{text}</p>\n'
        f'<p><a href="/">{back}</a></p>\n</main>\n</body>\n</html>\n'
    )
    return HTMLResponse(body, status_code=404, headers={"Content-Language": lang})
