"""The pages in English, Japanese and Korean, in a real browser (Debian's ``chromium``
through Playwright): the lobby and each game page (Byzantium, Conspiracy, Conspiracy
solo) follow the browser's language, the switch changes it, every marked text and the
log are translated, and a screenshot of each page in each language is taken
(``PORPHYRA_SCREENSHOTS=DIR`` keeps them; otherwise they go to a temporary folder).

Skips only when ``/usr/bin/chromium`` is missing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .browser import BROWSER_MARKS, CHROMIUM, CHROMIUM_ARGS, wait_until
from .live import LiveServer

pytestmark = BROWSER_MARKS

LOCALES = {"en": "en-US", "ja": "ja-JP", "ko": "ko-KR"}
#: What each page must show in each language (English: the source text).
EXPECT: dict[str, dict[str, str]] = {
    "lobby": {"en": "Create game", "ja": "ゲームを作成", "ko": "게임 만들기"},
    "byzantium": {"en": "Territory Tokens", "ja": "領土トークン", "ko": "영토 토큰"},
    "conspiracy": {"en": "Discard piles", "ja": "捨て札の山", "ko": "버림 더미"},
    "solo": {"en": "Legendary Opponent", "ja": "伝説の対戦相手", "ko": "전설의 상대"},
}
LOG_START = {
    "byzantium": {"en": "Game start", "ja": "ゲーム開始", "ko": "게임 시작"},
    "conspiracy": {"en": "setup", "ja": "準備", "ko": "준비"},
    "solo": {"en": "setup", "ja": "準備", "ko": "준비"},
}
GAMES: dict[str, dict[str, Any]] = {
    "byzantium": {
        "game": "byzantium",
        "options": {},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
    },
    "conspiracy": {
        "game": "conspiracy",
        "options": {"players": 3},
        "seats": [
            {"kind": "human"},
            {"kind": "bot", "bot": "easy"},
            {"kind": "bot", "bot": "random"},
        ],
    },
    "solo": {
        "game": "conspiracy",
        "options": {"players": 1, "opponent": "military"},
        "seats": [{"kind": "human"}],
    },
}


def shots_dir(tmp_path: Path) -> Path:
    where = os.environ.get("PORPHYRA_SCREENSHOTS")
    path = Path(where) if where else tmp_path
    path.mkdir(parents=True, exist_ok=True)
    return path


def test_every_page_in_every_language(sqlite_url: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    server = LiveServer(sqlite_url).start()
    out = shots_dir(tmp_path)
    try:
        games = {name: server.create({**body, "seed": 11}) for name, body in GAMES.items()}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                for lang, locale in LOCALES.items():
                    context = browser.new_context(
                        locale=locale, viewport={"width": 1400, "height": 1000}
                    )
                    page = context.new_page()
                    errors: list[str] = []
                    page.on("pageerror", lambda exc: errors.append(str(exc)))  # noqa: B023
                    page.goto(server.base + "/")
                    wait_until(page, f"document.documentElement.lang === '{lang}'", 30_000)
                    wait_until(page, "document.querySelector('#langswitch') !== null", 30_000)
                    lobby = page.evaluate("document.body.textContent")
                    assert EXPECT["lobby"][lang] in lobby
                    if lang != "en":  # the server's default seat names and the bots' texts
                        for english in ("Seat 1", "Easy bot", "rules of thumb", "lobby"):
                            assert english not in lobby, (lang, english)
                    assert page.locator("#langswitch").input_value() == lang
                    assert page.screenshot(path=str(out / f"lobby-{lang}.png"), full_page=True)
                    for name, info in games.items():
                        invite = info["invites"][0]
                        page.goto(server.base + invite["url"])
                        wait_until(page, "document.body.dataset.seq !== undefined", 30_000)
                        text = page.evaluate("document.body.textContent")
                        assert EXPECT[name][lang] in text, (name, lang)
                        first = page.locator("#log li").first.inner_text()
                        assert first.startswith(LOG_START[name][lang]), (name, lang, first)
                        if lang != "en":
                            # The marked texts are all translated.
                            for english in ("Game log", "Players", "Your decision", "Seat 1"):
                                assert english not in text, (name, lang, english)
                        page.screenshot(path=str(out / f"{name}-{lang}.png"), full_page=True)
                    assert errors == []
                    context.close()
            finally:
                browser.close()
    finally:
        server.stop()
    for png in out.glob("*.png"):
        assert png.stat().st_size > 10_000  # a rendered page, not a blank one
    assert len(list(out.glob("*.png"))) >= 12


def test_the_switch_changes_the_language_and_is_remembered(sqlite_url: str) -> None:
    from playwright.sync_api import sync_playwright

    server = LiveServer(sqlite_url).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = browser.new_context(locale="en-US").new_page()
                page.goto(server.base + "/")
                wait_until(page, "document.querySelector('#langswitch') !== null", 30_000)
                assert "Create game" in page.locator("#createbtn").inner_text()
                with page.expect_navigation():
                    page.select_option("#langswitch", "ko")
                wait_until(page, "document.documentElement.lang === 'ko'", 30_000)
                wait_until(page, "document.querySelector('#langswitch') !== null", 30_000)
                assert page.locator("#createbtn").inner_text() == "게임 만들기"
                page.goto(server.base + "/")  # remembered by this browser
                wait_until(page, "document.querySelector('#langswitch') !== null", 30_000)
                assert page.locator("#createbtn").inner_text() == "게임 만들기"
            finally:
                browser.close()
    finally:
        server.stop()
