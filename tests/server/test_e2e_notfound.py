"""The page a browser gets at an unknown address (issue 29, section 6), in Debian's
chromium: in the browser's language, styled by the pages' stylesheet without breaking
their security policy, free of accessibility violations, with a way back to the lobby."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from porphyra.i18n import gettext
from porphyra.server.notfound import BACK, TITLE

from .browser import (
    BROWSER_MARKS,
    CHROMIUM,
    CHROMIUM_ARGS,
    axe_violations,
    collect_errors,
)
from .live import LiveServer

pytestmark = BROWSER_MARKS


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'games.sqlite3'}").start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.parametrize(("locale", "lang"), [("en-US", "en"), ("ja-JP", "ja"), ("ko-KR", "ko")])
def test_an_unknown_address_is_a_page_in_the_browsers_language(
    live: LiveServer, locale: str, lang: str
) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser: Any = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(locale=locale, viewport={"width": 390, "height": 844})
            page = context.new_page()
            errors = collect_errors(page)
            answer = page.goto(f"{live.base}/no/such/page")
            assert answer is not None and answer.status == 404
            assert page.locator("h1").inner_text() == gettext(lang, TITLE)
            assert page.get_attribute("html", "lang") == lang
            assert axe_violations(page) == []
            assert errors == []  # no refused style or script
            page.click(f"text={gettext(lang, BACK)}")
            page.wait_for_url(f"{live.base}/")
        finally:
            browser.close()
