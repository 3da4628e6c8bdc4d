"""Take the README screenshots of the game review (issue 31 §2).

- ``review-browser.png``: the review panel of the end screen (a finished easy-against-easy
  Byzantium game, Seat 1 reviewed from the replay page with the server's default settings);
- ``review-terminal.png``: ``porphyra review`` of the same record in the terminal (Rich's
  SVG export of the command's output, drawn by chromium).

Starts the web server on a free loopback port with a throw-away database, like
``make_screenshots.py``; the screenshots are saved next to this file::

    .venv/bin/python docs/screenshots/review_screenshots.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx
from playwright.sync_api import sync_playwright
from rich.console import Console

from porphyra import record as records
from porphyra.cli.lang import set_language
from porphyra.cli.review import print_review
from porphyra.cli.views import view_for
from porphyra.review import review_record

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
from make_screenshots import ARGS, served, wait  # noqa: E402

BOTS = [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "easy"}]


def main() -> None:
    with served() as (base, tmp):
        gid = httpx.post(
            base + "/api/games", json={"game": "byzantium", "seats": BOTS, "seed": 3}
        ).json()["id"]
        while httpx.get(f"{base}/api/games/{gid}").json()["status"] != "over":
            time.sleep(0.2)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 900})
            page.goto(f"{base}/replay/{gid}?view=1")
            wait(page, "document.querySelector('[data-testid=review-start]') !== null")
            page.locator("[data-testid=review-start]").click()
            wait(page, "document.querySelectorAll('[data-testid=review-moment]').length > 0", 300)
            # The end screen of the same game shows the finished review.
            page.goto(f"{base}/game/{gid}")
            wait(page, "document.querySelectorAll('#final [data-testid=review-moment]').length > 0")
            page.locator("#final [data-testid=review]").screenshot(
                path=str(HERE / "review-browser.png")
            )

            record = httpx.get(f"{base}/api/games/{gid}/record").json()
            set_language("en")
            with open(Path(tmp) / "terminal.txt", "w", encoding="utf-8") as sink:
                console = Console(record=True, width=110, force_terminal=True, file=sink)
                game = records.replay(record, upto=0).game
                view = view_for("byzantium")
                words = lambda move: view.move_words(game, move)  # noqa: E731
                print_review(console, review_record(record, 0), words)
            svg = Path(tmp) / "terminal.svg"
            console.save_svg(str(svg), title="porphyra review game.json --seat 1")
            term = browser.new_page(viewport={"width": 1400, "height": 800})
            term.goto(svg.as_uri())
            term.locator("svg").screenshot(path=str(HERE / "review-terminal.png"))
            browser.close()


if __name__ == "__main__":
    main()
