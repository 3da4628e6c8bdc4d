"""Take the README screenshots of the browser UI.

Starts the web server on a free loopback port with a throw-away database and plays games
against bots through the page (headless Debian ``chromium`` driven by Playwright) up to an
interesting position, at a laptop's 1366x768 and a phone's 390x844 (issue 29: the hand and
the decision docked at the bottom of the window):

- ``byzantium-desktop.png``, ``byzantium-phone.png``: a meld being built in turn 3;
- ``conspiracy-desktop.png`` (3 players), ``conspiracy-phone.png`` (4 players) mid-game;
- ``byzantium-motion.png``, ``conspiracy-motion-phone.png``: during a move's animation
  (the revealed melds turning over; the lords not kept on their way to the discard
  piles), frozen half-way;
- ``card-zoom.png``: a card zoomed with its facts;
- ``conspiracy-solo.png``: solo against a Legendary Opponent;
- ``byzantium-ja.png``, ``conspiracy-solo-ko.png``: the pages in Japanese and Korean;
- ``byzantium-end.png``: a finished game's end screen with its turn-by-turn course, and
  ``replay.png``: its replay with everything revealed.

The screenshots are saved next to this file::

    .venv/bin/python docs/screenshots/make_screenshots.py
"""

from __future__ import annotations

import contextlib
import random
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import uvicorn
from playwright.sync_api import ViewportSize, sync_playwright

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


#: Pauses every motion animation (motion.js) of the first render after this call that
#: has some, and `when` says so, at `at` ms (half-way); `window.__frozen` then holds their
#: names.
FREEZE = """([at, when]) => { window.__frozen = null; const seq = document.body.dataset.seq;
  const mo = new MutationObserver(() => {
    if (document.body.dataset.seq === seq || !eval_when(when)) return;
    const anims = document.getAnimations().filter((a) => String(a.id).startsWith('motion-'));
    if (!anims.length) return;
    mo.disconnect();
    for (const a of anims) { a.pause(); a.currentTime = at; }
    window.__frozen = anims.map((a) => a.id);
  });
  const eval_when = (w) => w === 'reveal' ? M.observation.melds_turn === M.observation.turn
    && M.observation.phase !== 'meld' : true;
  mo.observe(document.body, {attributes: true, attributeFilter: ['data-seq']});
}"""

DESKTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}


def meld_position(page: Any, rng: random.Random, turn: int) -> None:
    """Play Byzantium up to this seat's meld in ``turn`` (or later) as the Emperor."""
    while True:
        wait(page, READY)
        obs = page.evaluate("M.observation")
        legal = page.evaluate("M.legal")
        meld = bool(legal) and legal[0].startswith("meld")
        if obs["turn"] >= turn and meld and obs["role"] == "byzantine":
            return
        step(page, rng)


def shot(page: Any, name: str) -> None:
    # No card zoomed under the pointer that clicked it (a person on a phone has none).
    page.mouse.move(1, 1)
    page.keyboard.press("Escape")
    page.wait_for_timeout(450)  # the last move's animation ends
    page.screenshot(path=str(HERE / name))


@contextlib.contextmanager
def served() -> Iterator[tuple[str, str]]:
    """A porphyra server on a free loopback port with a fresh SQLite database, for the
    duration of the ``with``: yields its base URL and a temporary folder."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(db_url=f"sqlite:///{tmp}/shots.sqlite3", bot_workers=0, bot_pace=0.0)
        server = uvicorn.Server(uvicorn.Config(app, port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.05)
        try:
            yield f"http://127.0.0.1:{port}", tmp
        finally:
            server.should_exit = True
            thread.join(timeout=20)


def main() -> None:
    with served() as (base, _):
        rng = random.Random(3)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            desktop = browser.new_page(viewport=DESKTOP)
            phone = browser.new_page(viewport=PHONE)
            # Byzantium: a meld being built in turn 3, on a laptop and on a phone.
            for page, name in ((desktop, "byzantium-desktop.png"), (phone, "byzantium-phone.png")):
                create(page, base, "byzantium", seed=21)
                meld_position(page, rng, 3)
                cards = page.locator("[data-testid=hand] .card.selectable")
                for i in (0, 2, 3):
                    cards.nth(i).click()
                    if not page.locator("[data-testid=commit]").is_enabled():
                        cards.nth(i).click()
                shot(page, name)
            # A card zoomed with every fact (hover; a long press or the focus on a phone).
            desktop.locator("[data-testid=hand] .card").nth(1).hover()
            desktop.locator("#card-zoom:not(.hidden)").wait_for()
            desktop.screenshot(path=str(HERE / "card-zoom.png"))
            desktop.mouse.move(0, 0)
            desktop.locator("#card-zoom.hidden").wait_for(state="attached")
            # The melds revealed, turning over half-way (the page's own meld just sent).
            desktop.evaluate(FREEZE, [190, "reveal"])
            desktop.click("[data-testid=commit]")
            wait(desktop, "window.__frozen !== null")
            desktop.screenshot(path=str(HERE / "byzantium-motion.png"))
            desktop.evaluate("PorphyraMotion.finishAll()")
            # Conspiracy: 3 players on a laptop, 4 on a phone.
            create(desktop, base, "conspiracy", seed=5, players=3)
            while desktop.evaluate("M.observation.turn") < 19:
                step(desktop, rng)
            wait(desktop, READY)
            shot(desktop, "conspiracy-desktop.png")
            create(phone, base, "conspiracy", seed=5, players=4)
            while phone.evaluate("M.observation.turn") < 17:
                step(phone, rng)
            wait(phone, READY)
            phone.evaluate("document.querySelector('.player:not(.mine)').scrollIntoView()")
            shot(phone, "conspiracy-phone.png")
            # A lord kept, the others on their way to the discard piles, half-way.
            while True:
                wait(phone, READY)
                if phone.locator("#actions [data-action^='keep ']").count() >= 2:
                    break
                step(phone, rng)
            phone.wait_for_timeout(450)
            phone.evaluate("document.querySelector('.piles').scrollIntoView()")
            phone.evaluate(FREEZE, [170, "any"])
            phone.locator("#actions [data-action^='keep ']").first.click()
            wait(phone, "window.__frozen !== null")
            phone.screenshot(path=str(HERE / "conspiracy-motion-phone.png"))
            phone.evaluate("PorphyraMotion.finishAll()")
            # Solo against the Legendary Opponent (when the engine has the solo mode).
            if desktop.evaluate("fetch('/api/meta').then(r => r.json()).then(m => m.solo)"):
                create(desktop, base, "solo", seed=8)
                while desktop.evaluate("M.observation.turn") < 15:
                    step(desktop, rng)
                wait(desktop, READY)
                shot(desktop, "conspiracy-solo.png")
            # The pages in Japanese and Korean (the browser's language).
            for locale, game, seed, name in (
                ("ja-JP", "byzantium", 21, "byzantium-ja.png"),
                ("ko-KR", "solo", 8, "conspiracy-solo-ko.png"),
            ):
                context = browser.new_context(viewport=DESKTOP, locale=locale)
                page = context.new_page()
                create(page, base, game, seed=seed)
                while page.evaluate("M.observation.turn") < (3 if game == "byzantium" else 12):
                    step(page, rng)
                wait(page, READY)
                shot(page, name)
                context.close()
            # The end screen of a finished game (played to the end here), then its replay.
            create(desktop, base, "byzantium", seed=9)
            while desktop.evaluate("document.body.dataset.status") != "over":
                step(desktop, rng)
            desktop.locator("#final-score").wait_for()
            desktop.wait_for_timeout(300)
            desktop.locator("#final-score").screenshot(path=str(HERE / "byzantium-end.png"))
            desktop.click("[data-testid=replay]")
            wait(desktop, "document.body.dataset.seq === '0'")
            desktop.select_option("#replay-view", "all")
            wait(desktop, "location.search.includes('view=all')")
            for _ in range(12):
                desktop.click("[data-testid=replay-next]")
            shot(desktop, "replay.png")
            browser.close()


if __name__ == "__main__":
    main()
