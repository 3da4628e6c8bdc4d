"""The pages and their assets: the lobby, a game's and a replay's page, the static browser
UI (``/static``), the translation catalogues, card data and rules texts the pages load.

``GET /`` (lobby), ``/game/{id}`` (the game; the seat token travels in the URL fragment
``#token=...``, never to the server's HTTP log), ``/replay/{id}`` (the replay viewer of a
finished game; ``?view=...``: a shareable link).  ``GET /api/i18n/{lang}`` a language's
catalogue, ``/api/cards/{game}`` public card data for drawing cards, ``/api/rules/{game}``
the game's rules (``RULES.md``, Markdown, in the language of ``Accept-Language``) for the
page's rules panel.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from porphyra.core.registry import registered_games
from porphyra.games.rules_text import rules_text
from porphyra.i18n import LANGUAGES, catalogue_json, from_accept_language
from porphyra.i18n import normalize as normalize_language
from porphyra.server.gamedata import card_data

#: The browser UI's files (plain HTML, CSS and JavaScript, no external assets).
STATIC_DIR = Path(__file__).parent.parent / "static"

router = APIRouter()


def mount_static(app: FastAPI) -> None:
    """Serve :data:`STATIC_DIR` at ``/static`` on ``app`` (a mount, which a router does
    not carry)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")


@router.get("/", include_in_schema=False)
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "index.html")


@router.get("/game/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "game.html")


@router.get("/replay/{game_id}", include_in_schema=False)
async def replay_page(game_id: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "replay.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    return Response(status_code=204)


@router.get("/api/i18n/{lang}")
async def i18n_catalogue(lang: str) -> dict[str, Any]:
    if normalize_language(lang) != lang:
        raise HTTPException(404, f"unknown language {lang!r}; one of {', '.join(LANGUAGES)}")
    return catalogue_json(lang)


@router.get("/api/cards/{name}")
async def cards(name: str) -> dict[str, Any]:
    if name not in registered_games():
        raise HTTPException(404, f"unknown game {name!r}")
    return card_data(name)


@router.get("/api/rules/{name}")
async def rules(name: str, request: Request) -> dict[str, Any]:
    """``{"game", "lang", "markdown"}``: the game's rules in the language the request
    prefers (``Accept-Language``; the pages send the chosen one)."""
    if name not in registered_games():
        raise HTTPException(404, f"unknown game {name!r}")
    lang = from_accept_language(request.headers.get("accept-language"))
    return {"game": name, "lang": lang, "markdown": rules_text(name, lang, "browser")}
