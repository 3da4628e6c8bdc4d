"""Take the README screenshots of the browser UI.

Starts the web server on a free loopback port with a throw-away database, plays a
Byzantium game, a 3-player Conspiracy game against bots and a solo game against a
Legendary Opponent (``conspiracy-solo.png``) through the page (headless Debian
``chromium`` driven by Playwright) up to an interesting position; then a Byzantium game
on a phone's 390x844 screen (``phone.png``), a card zoomed (``card-zoom.png``), a
2-player Conspiracy game on a phone (``conspiracy-phone.png``), a finished game's end
screen with its turn-by-turn course (``byzantium-end.png``) and its replay with
everything revealed (``replay.png``).  The screenshots are saved next to this file::

    .venv/bin/python docs/screenshots/make_screenshots.py
"""

from __future__ import annotations

import random
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import sync_playwright

from porphyra.server.app import create_app

HERE = Path(__file__).parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
READY = """() => document.body.dataset.status === 'over'
    || document.querySelector('[data-action]:not([disabled])') !== null"""


def wait(page: Any, expression: str, timeout: float = 60.0) -> None:
    """Poll ``expression`` (the pages' Content-Security-Policy forbids the ``eval`` of
    Playwright's ``wait_for_function``; ``evaluate`` goes through DevTools)."""
    script = expression if expression.lstrip().startswith("()") else f"() => ({expression})"
    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(script):
                return
        except Exception:  # a page still loading
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(expression)
        time.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def create(page: Any, base: str, game: str, seed: int, players: int = 2) -> None:
    page.goto(base + "/")
    page.check(f"input[name=game][value={game}]")
    if game == "conspiracy":
        page.select_option("#opt-players", str(players))
    elif game == "solo":
        page.select_option("#opt-opponent", "military")
    else:
        page.select_option("#opt-first_emperor", "0")
    rows = page.locator("#seats .seatrow")
    names = ["Theodora", "Belisarius", "Antonina", "Procopius"]
    for i in range(rows.count()):
        rows.nth(i).locator("input").fill(names[i])
        rows.nth(i).locator("select").select_option("human" if i == 0 else "bot:easy")
    page.fill("#seed", str(seed))
    page.click("#createbtn")
    page.click("[data-testid=play-seat-0]")
    wait(page, "document.body && document.body.dataset.seq !== undefined")


def step(page: Any, rng: random.Random) -> None:
    """One decision: greedy meld in the builder, random otherwise."""
    wait(page, READY)
    if page.evaluate("document.body.dataset.status") == "over":
        return
    commit = page.locator("[data-testid=commit]")
    cards = page.locator(".card.selectable")
    if commit.count() and "meld" in (commit.get_attribute("data-action") or ""):
        for i in range(cards.count()):
            cards.nth(i).click()
            if not commit.is_enabled():
                cards.nth(i).click()
        commit.click()
        return
    buttons = page.locator("[data-action]:not([disabled])")
    buttons.nth(rng.randrange(buttons.count())).click()


def main() -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(db_url=f"sqlite:///{tmp}/shots.sqlite3", bot_workers=0, bot_pace=0.0)
        server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        rng = random.Random(3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1440, "height": 1200})
            create(page, base, "byzantium", seed=21)
            # Play to the meld phase of turn 3, then pick a few cards in the builder.
            while True:
                wait(page, READY)
                obs = page.evaluate("M.observation")
                if obs["turn"] >= 3 and obs["phase"] == "meld" and obs["role"] == "byzantine":
                    break
                step(page, rng)
            cards = page.locator(".card.selectable")
            for i in (0, 2, 3):
                cards.nth(i).click()
            page.mouse.move(0, 0)  # no card zoomed under the pointer
            page.wait_for_timeout(500)
            page.screenshot(path=str(HERE / "byzantium.png"), full_page=True)
            # A card zoomed with every fact (hover; a long press or the focus on a phone).
            page.locator("[data-testid=hand] .card").nth(1).hover()
            page.locator("#card-zoom:not(.hidden)").wait_for()
            page.screenshot(path=str(HERE / "card-zoom.png"))
            create(page, base, "conspiracy", seed=5, players=3)
            while page.evaluate("M.observation.turn") < 19:
                step(page, rng)
            wait(page, READY)
            page.wait_for_timeout(300)
            page.screenshot(path=str(HERE / "conspiracy.png"), full_page=True)
            # Solo against the Legendary Opponent (when the engine has the solo mode).
            if page.evaluate("fetch('/api/meta').then(r => r.json()).then(m => m.solo)"):
                create(page, base, "solo", seed=8)
                while page.evaluate("M.observation.turn") < 15:
                    step(page, rng)
                wait(page, READY)
                page.wait_for_timeout(300)
                page.screenshot(path=str(HERE / "conspiracy-solo.png"), full_page=True)
            # A phone: the decision first, then the table (no horizontal scrolling).
            phone = browser.new_page(viewport={"width": 390, "height": 844})
            create(phone, base, "byzantium", seed=21)
            for _ in range(4):
                step(phone, rng)
            wait(phone, READY)
            phone.wait_for_timeout(300)
            phone.screenshot(path=str(HERE / "phone.png"))
            create(phone, base, "conspiracy", seed=5, players=2)
            while phone.evaluate("M.observation.turn") < 13:
                step(phone, rng)
            wait(phone, READY)
            phone.wait_for_timeout(300)
            phone.locator("[data-player='0']").scroll_into_view_if_needed()
            phone.screenshot(path=str(HERE / "conspiracy-phone.png"))
            # The end screen of a finished game (played to the end here), then its replay.
            create(page, base, "byzantium", seed=9)
            while page.evaluate("document.body.dataset.status") != "over":
                step(page, rng)
            page.locator("#final-score").wait_for()
            page.wait_for_timeout(300)
            page.locator("#final-score").screenshot(path=str(HERE / "byzantium-end.png"))
            page.click("[data-testid=replay]")
            wait(page, "document.body.dataset.seq === '0'")
            page.select_option("#replay-view", "all")
            wait(page, "location.search.includes('view=all')")
            for _ in range(12):
                page.click("[data-testid=replay-next]")
            page.wait_for_timeout(300)
            page.screenshot(path=str(HERE / "replay.png"))
            browser.close()
        server.should_exit = True
        thread.join(timeout=10)


if __name__ == "__main__":
    main()
