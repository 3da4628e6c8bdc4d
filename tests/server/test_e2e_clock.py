"""The clocks in a real browser (issue 15): the lobby's clock choice creates a real-time
table, the game page shows every seat's clock and the table's settings, a player can leave
(a bot plays the seat) and take the seat back, and the lobby's "your games" marks the game
waiting for this browser's seat.  Chromium (Debian's) under Playwright, against a live
server on a fake time source.

Skips only when ``/usr/bin/chromium`` is missing (``.ci/run`` installs it).
"""

from __future__ import annotations

import re
from typing import Any

from .browser import BROWSER_MARKS, CHROMIUM, CHROMIUM_ARGS, open_checked_page, wait_until
from .live import LiveServer
from .test_server_clocks import FakeTime, clocked_server

pytestmark = BROWSER_MARKS


def test_the_clock_shows_and_a_seat_can_leave_and_come_back(sqlite_url: str) -> None:
    server = clocked_server(sqlite_url, FakeTime()).start()
    try:
        _check_in_chromium(server)
    finally:
        server.stop()


def _check_in_chromium(server: LiveServer) -> None:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            page, errors = open_checked_page(browser)
            page.on("dialog", lambda dialog: dialog.accept())
            page.goto(server.base + "/")
            page.check("input[name=game][value=byzantium]")
            rows = page.locator("#seats .seatrow")
            rows.nth(0).locator("input").fill("Tester")
            rows.nth(0).locator("select").select_option("human")
            rows.nth(1).locator("select").select_option("human")
            page.select_option("#clock-kind", "realtime")
            page.fill("#clock-base-min", "5")
            page.fill("#clock-inc-s", "10")
            page.select_option("#clock-timeout-bot", "random")
            # The out-of-time menu names the bots as the seat menus do ("Steady", not the
            # engine's "ismcts").
            options = page.locator("#clock-timeout-bot option").all_inner_texts()
            assert "the Steady bot moves" in options and "the Easy bot moves" in options, options
            page.click("#createbtn")
            page.click("[data-testid=play-seat-0]")
            wait_until(page, "document.querySelector('[data-testid=clock-0]') !== null", 30_000)
            kind = page.locator("[data-testid=clock-kind]").inner_text()
            assert "real time: 5 min + 10 s a move" in kind and "random bot" in kind
            for seat in (0, 1):  # both redraw in secret: both clocks run (B-R3)
                shown = page.locator(f"[data-testid=clock-{seat}]").inner_text()
                assert re.fullmatch(r"[45]:\d\d", shown), shown
            info = _game(server)
            assert info["clock"]["kind"] == "realtime"
            assert info["clock"]["timeout_bot"] == "random"

            # Leave: a bot plays the seat (it redraws at once), then take the seat back.
            page.click("[data-testid=leave]")
            wait_until(page, "document.querySelector('[data-testid=takeover-0]') !== null", 30_000)
            assert "left: a bot plays" in page.locator("[data-testid=takeover-0]").inner_text()
            # Opening the page again is coming back: the seat is given back at once.
            page.reload()
            wait_until(page, "document.querySelector('[data-testid=leave]') !== null", 30_000)
            assert page.locator("[data-testid=takeover-0]").count() == 0
            # Or, on a page left open, the button.
            page.click("[data-testid=leave]")
            wait_until(page, "document.querySelector('[data-testid=takeover-0]') !== null", 30_000)
            page.click("[data-testid=take-back]")
            wait_until(page, "document.querySelector('[data-testid=takeover-0]') === null", 30_000)
            assert page.locator("[data-testid=leave]").count() == 1
            log = page.locator("#log").inner_text()
            # The log names the seat as the table does, without "(you)" (issue 29).
            assert log.count("⏱ Tester left the table") == 2 and "(you)" not in log
            assert log.count("⏱ Tester is back") == 2

            # The lobby lists the game under "your games" once per seat this browser holds
            # (it created both), the seat the game waits for first and marked so.
            page.goto(server.base + "/")
            wait_until(page, "document.querySelectorAll('#mygames-list tr').length === 2", 30_000)
            waiting = _game(server)["waiting"]
            assert waiting == [1]  # the bot redrew for the Tester; the other seat's turn
            rows = page.locator("#mygames-list tr")
            assert [rows.nth(i).get_attribute("data-seat") for i in range(2)] == ["1", "0"]
            assert rows.nth(0).get_attribute("data-your-turn") == "true"
            assert "your turn" in rows.nth(0).inner_text()
            assert rows.nth(1).get_attribute("data-your-turn") == "false"
            assert "waiting" in rows.nth(1).inner_text()
            assert "real time" in rows.nth(1).inner_text()
            assert errors == []
        finally:
            browser.close()


def _game(server: LiveServer) -> dict[str, Any]:
    games = server.get("/api/games").json()
    info: dict[str, Any] = server.get(f"/api/games/{games[0]['id']}").json()
    return info
