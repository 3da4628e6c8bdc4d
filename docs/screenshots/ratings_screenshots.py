"""Take the README screenshots of accounts and ratings (issue 32 §3):

- ``signup.png``: the lobby's account form, filled in, before "Sign up";
- ``profile-rating.png``: a profile with its rating, the chart over eight rated games
  and the recent games;
- ``leaderboard.png``: the Byzantium leaderboard with the bots' anchors;
- ``quickmatch.png``: the lobby of a signed-in player waiting in quick match, a minute
  on, with the bot of about their rating offered.

Starts the web server on a free loopback port with a throw-away database, like
``make_screenshots.py``.  The bots' anchors are an illustration written by this script
(``$PORPHYRA_BOT_LADDER``), not measured results: the leaderboard shows their command
line as such.  Rated games are played through the seats' websockets (the first legal
action, against the anchored bots).  The screenshots are saved next to this file::

    .venv/bin/python docs/screenshots/ratings_screenshots.py
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import httpx
from playwright.sync_api import Browser, sync_playwright
from websockets.sync.client import connect
from websockets.typing import Origin

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from make_screenshots import ARGS, served, wait  # noqa: E402

PASSWORD = "a long password"
LADDER = {
    "format": 1,
    "command": "(illustration for the screenshots, not measured)",
    "measured": "docs/screenshots/ratings_screenshots.py",
    "model": "openskill PlackettLuce (mu 25, sigma 25/3)",
    "tables": [
        {
            "game": "byzantium",
            "players": 2,
            "ratings": {
                "random": {"mu": 12.0, "sigma": 0.8, "games": 400},
                "easy": {"mu": 22.5, "sigma": 0.7, "games": 400},
                "medium": {"mu": 27.0, "sigma": 0.7, "games": 400},
            },
        }
    ],
}
#: Who plays how many rated games against which bots (the first legal action each time).
PLAYERS = {
    "Irene Doukaina": ["random", "easy", "random", "easy", "medium", "random", "easy", "easy"],
    "Basil Lekapenos": ["easy", "random", "medium"],
    "Anna Dalassene": ["random", "random"],
    "Leo Phokas": ["medium"],
}


def play_rated(base: str, cookies: httpx.Cookies, bot: str) -> None:
    """One rated Byzantium game against ``bot``, the first legal action each time."""
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}]
    r = httpx.post(
        base + "/api/games",
        json={
            "game": "byzantium",
            "rated": True,
            "seats": seats,
            "clock": {"kind": "turn", "per_move_s": 86_400},
            "takeover_after": 1,
        },
        cookies=cookies,
        headers={"origin": base},
    )
    r.raise_for_status()
    info = r.json()
    url = f"{base.replace('http', 'ws')}/ws/{info['id']}?token={info['invites'][0]['token']}"
    with connect(url, origin=Origin(base)) as ws:
        while True:
            m = json.loads(ws.recv(timeout=60))
            if m.get("status") == "over":
                return
            if m.get("type") in ("snapshot", "update") and m.get("legal"):
                time.sleep(0.06)  # (under the server's message limit)
                ws.send(json.dumps({"type": "act", "action": m["legal"][0], "seq": m["seq"]}))


def quick_match(browser: Browser, base: str) -> None:
    """``quickmatch.png``: Irene waits alone in quick match until a bot is offered."""
    r = httpx.post(
        base + "/api/session",
        json={"name": "Irene Doukaina", "password": PASSWORD},
        headers={"origin": base},
    )
    r.raise_for_status()
    context = browser.new_context(viewport={"width": 1100, "height": 760})
    context.add_cookies(
        [{"name": c.name, "value": c.value or "", "url": base} for c in r.cookies.jar]
    )
    page = context.new_page()
    page.goto(base + "/")
    wait(page, "document.querySelector('[data-testid=quickmatch]') !== null")
    page.click("[data-testid=quickmatch]")
    page.wait_for_selector("[data-testid=qm-offer]", timeout=120_000)
    page.locator("[data-testid=qm-offer]").scroll_into_view_if_needed()
    page.screenshot(path=str(HERE / "quickmatch.png"))
    page.click("[data-testid=qm-leave]")
    context.close()


def main() -> None:
    ladder = Path(os.environ.get("TMPDIR", "/tmp")) / "porphyra-screenshot-ladder.json"
    ladder.write_text(json.dumps(LADDER), encoding="utf-8")
    os.environ["PORPHYRA_BOT_LADDER"] = str(ladder)
    with served() as (base, _):
        for name, bots in PLAYERS.items():
            r = httpx.post(
                base + "/api/accounts",
                json={"name": name, "password": PASSWORD},
                headers={"origin": base},
            )
            r.raise_for_status()
            for bot in bots:
                play_rated(base, r.cookies, bot)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1100, "height": 760})
            page.goto(base + "/")
            wait(page, "document.querySelector('#account-open') !== null")
            page.click("#account-open")
            page.fill("#account-name", "Theodora")
            page.fill("#account-password", PASSWORD)
            page.screenshot(path=str(HERE / "signup.png"))
            page.goto(base + "/players/Irene%20Doukaina")
            wait(page, "document.querySelector('[data-rating=byzantium-2] svg') !== null")
            page.screenshot(path=str(HERE / "profile-rating.png"), full_page=True)
            page.goto(base + "/leaderboard?game=byzantium&players=2")
            wait(page, "document.querySelectorAll('#board tbody tr[data-player]').length === 4")
            page.screenshot(path=str(HERE / "leaderboard.png"), full_page=True)
            quick_match(browser, base)
            browser.close()
    ladder.unlink()


if __name__ == "__main__":
    main()
