"""Issue 13, item 4: Origin and Host checks, and the security headers of every page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from porphyra.server.routes.pages import STATIC_DIR
from porphyra.server.security import origin_allowed

from .live import LiveServer


@pytest.fixture
def guarded(db_url: str) -> Iterator[LiveServer]:
    """A live server allowing one extra origin and answering to loopback names only."""
    live = LiveServer(
        db_url,
        allowed_origins=["https://play.example.org"],
        allowed_hosts=["127.0.0.1", "localhost"],
    ).start()
    try:
        yield live
    finally:
        live.stop()


def _open(server: LiveServer, game_id: str, origin: str | None) -> str:
    """Open a spectator socket with ``origin``; the first message's type, or the HTTP
    status of a refused handshake as ``"refused <status>"``."""
    url = f"{server.ws_base}/ws/{game_id}"
    try:
        with connect(url, origin=origin, open_timeout=10) as ws:  # type: ignore[arg-type]
            text = ws.recv(timeout=10)
            assert isinstance(text, str)
            return text.split('"type":"', 1)[1].split('"', 1)[0]
    except InvalidStatus as exc:
        return f"refused {exc.response.status_code}"


@pytest.mark.live
def test_websockets_refuse_a_foreign_origin(guarded: LiveServer) -> None:
    game_id = guarded.create({"game": "byzantium", "seats": [{"kind": "human"}] * 2})["id"]
    assert _open(guarded, game_id, "http://evil.example") == "refused 403"
    assert _open(guarded, game_id, "null") == "refused 403"
    assert _open(guarded, game_id, f"http://localhost:{guarded.port}") == "refused 403"
    assert _open(guarded, game_id, f"http://127.0.0.1:{guarded.port}") == "snapshot"
    assert _open(guarded, game_id, "https://play.example.org") == "snapshot"
    assert _open(guarded, game_id, None) == "snapshot"  # not a browser


def test_origin_rule() -> None:
    assert origin_allowed("http://a.example:8000", "a.example:8000", ())
    assert origin_allowed("HTTPS://A.example:8000/", "a.example:8000", ())
    assert not origin_allowed("http://a.example:8001", "a.example:8000", ())
    assert not origin_allowed("file://a.example:8000", "a.example:8000", ())
    assert origin_allowed("http://b.example", "a.example", ["*"])


@pytest.mark.live
def test_only_allowed_hosts_are_answered(guarded: LiveServer) -> None:
    ok = httpx.get(guarded.base + "/api/meta", headers={"host": f"localhost:{guarded.port}"})
    bad = httpx.get(guarded.base + "/api/meta", headers={"host": "rebound.example"})
    assert ok.status_code == 200 and bad.status_code == 400


@pytest.mark.live
def test_a_refused_host_gets_the_security_headers(guarded: LiveServer) -> None:
    bad = httpx.get(guarded.base + "/api/meta", headers={"host": "rebound.example"})
    assert bad.status_code == 400
    assert "frame-ancestors 'none'" in bad.headers["content-security-policy"]
    assert bad.headers["x-content-type-options"] == "nosniff"


@pytest.mark.live
@pytest.mark.parametrize("path", ["/", "/game/abc", "/api/meta", "/static/game.js", "/nope"])
def test_every_response_has_the_security_headers(server: LiveServer, path: str) -> None:
    headers = server.get(path).headers
    csp = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    # Invite links (a token in the URL fragment) never reach another site in Referer.
    assert headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("page", sorted(STATIC_DIR.glob("*.html")), ids=lambda p: p.name)
def test_pages_have_no_inline_script_or_style(page: Path) -> None:
    html = page.read_text()
    assert not re.search(r"\sstyle=|\son[a-z]+=|<style|<script(?![^>]*\ssrc=)", html)
