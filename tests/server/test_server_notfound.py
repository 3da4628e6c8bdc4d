"""An unknown address gets a page in the browser's language for a browser, and JSON for
the API and scripts (issue 29, section 6; :mod:`porphyra.server.notfound`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from porphyra.i18n import gettext
from porphyra.server.app import create_app
from porphyra.server.notfound import BACK, TITLE

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(db_url="sqlite://", bot_workers=0)) as c:
        yield c


@pytest.mark.parametrize(
    ("accept_language", "lang"),
    [("en-US,en;q=0.9", "en"), ("ja-JP,ja;q=0.9", "ja"), ("ko-KR,ko;q=0.9,en;q=0.5", "ko")],
)
def test_a_browser_gets_a_page_in_its_language(
    client: TestClient, accept_language: str, lang: str
) -> None:
    r = client.get("/no/such/page", headers={"accept": BROWSER, "accept-language": accept_language})
    assert r.status_code == 404
    assert r.headers["content-type"].startswith("text/html")
    assert f'<html lang="{lang}">' in r.text
    assert gettext(lang, TITLE) in r.text and gettext(lang, BACK) in r.text
    assert 'href="/"' in r.text
    if lang != "en":  # really translated, not the English fallback
        assert gettext(lang, TITLE) != TITLE
    assert "<script" not in r.text and "style=" not in r.text  # the security policy
    assert "content-security-policy" in r.headers  # the app's headers are kept


def test_the_api_and_scripts_keep_json(client: TestClient) -> None:
    for path in ("/api/nothing", "/api/games/nope", "/static/nothing.js"):
        r = client.get(path, headers={"accept": BROWSER, "accept-language": "ja"})
        assert r.status_code == 404
        assert r.headers["content-type"].startswith("application/json"), path
        assert "detail" in r.json()
    r = client.get("/no/such/page", headers={"accept": "application/json"})
    assert r.status_code == 404 and r.json() == {"detail": "Not Found"}
    assert client.post("/no/such/page", headers={"accept": BROWSER}).status_code in (404, 405)
    assert (
        client.post("/no/such/page", headers={"accept": BROWSER})
        .headers["content-type"]
        .startswith("application/json")
    )
