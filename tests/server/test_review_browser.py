"""The review panel in chromium: on the replay page (started by a click, progress, the
curve, the marks, a moment's link moving the replay to that move) and on the end screen
(the moments link into the replay), in English and Japanese, without script errors."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from porphyra.cli.byzantium_view import ByzantiumView
from porphyra.core.registry import load_game
from porphyra.review import ReviewSettings
from porphyra.server.routes import review as server_review

from .browser import BROWSER_MARKS, collect_errors, wait_until
from .live import LiveServer

pytestmark = BROWSER_MARKS

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server whose reviews use a small budget (the test checks the page)."""
    keep = server_review.SETTINGS
    server_review.SETTINGS = ReviewSettings(iterations=12, seed=0)
    db = tmp_path_factory.mktemp("review") / "games.sqlite3"
    server = LiveServer(f"sqlite:///{db}", bot_pace=0.0).start()
    try:
        yield server
    finally:
        server.stop()
        server_review.SETTINGS = keep


def finished_game(live: LiveServer, seed: int) -> str:
    gid: str = live.create({"game": "byzantium", "seats": BOTS, "seed": seed})["id"]
    deadline = time.monotonic() + 120
    while live.get(f"/api/games/{gid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.1)
    return gid


def test_review_on_the_replay_page_and_the_end_screen(live: LiveServer, browser: Any) -> None:
    gid = finished_game(live, 3)
    page = browser.new_context(locale="en-US", viewport={"width": 1400, "height": 1000}).new_page()
    errors = collect_errors(page)
    page.goto(f"{live.base}/replay/{gid}?view=2")
    wait_until(page, "document.querySelector('[data-testid=review-start]') !== null", 30_000)
    assert page.locator("#review-seat").input_value() == "1"  # the viewed seat
    page.locator("[data-testid=review-start]").click()
    wait_until(page, "document.querySelectorAll('[data-testid=review-moment]').length > 0", 90_000)
    status = live.get(f"/api/games/{gid}/review?seat=1").json()
    assert status["status"] == "done"
    review = status["review"]
    assert page.locator("svg.review-chart polyline").count() == 1
    marked = sum(1 for d in review["decisions"] if d["mark"])
    assert page.locator("svg.review-chart circle").count() == marked
    assert page.locator(".review-table tbody tr").count() == len(review["decisions"])
    assert page.locator(".review-marked tbody tr").count() == marked
    first = page.locator(".review-table tbody tr").first.text_content() or ""
    assert first.startswith(str(review["decisions"][0]["move"]))
    assert review["decisions"][0]["chosen"].split(" ", 1)[1] not in first  # names, not ids
    # Each move in the words the terminal's review uses (cards named and counted, "—").
    game, words = load_game("byzantium"), ByzantiumView()
    cells = page.locator(".review-table tbody tr td:nth-child(6)").all_text_contents()
    assert cells == [words.move_words(game, d["chosen"]) for d in review["decisions"]]
    counts = page.locator("[data-testid=review-counts]").inner_text()
    assert counts.startswith("Inaccuracies:")
    moment = page.locator("[data-testid=review-moment]").first
    move = review["moments"][0]["move"]
    assert moment.get_attribute("data-move") == str(move)
    assert f"view=2&step={move}" in (moment.get_attribute("href") or "")
    moment.click()
    wait_until(page, f"location.search.includes('step={move}')", 10_000)
    step = page.locator("[data-testid=replay-step]").inner_text()
    assert f"Move {move} of" in step

    # The end screen of the same game, in Japanese: the finished review, its moments as
    # links into the replay.
    ja = browser.new_context(locale="ja-JP", viewport={"width": 1400, "height": 1000}).new_page()
    errors += collect_errors(ja)
    ja.goto(f"{live.base}/game/{gid}")
    wait_until(ja, "document.querySelector('#final [data-testid=review]') !== null", 30_000)
    ja.locator("#review-seat").select_option("1")
    wait_until(
        ja, "document.querySelectorAll('#final [data-testid=review-moment]').length > 0", 30_000
    )
    panel = ja.locator("#final [data-testid=review]").inner_text()
    assert "ゲームのレビュー" in panel and "ゲームを最も大きく動かした3つの場面" in panel
    href = ja.locator("#final [data-testid=review-moment]").first.get_attribute("href") or ""
    assert href.startswith(f"/replay/{gid}?view=2&step=")
    assert errors == []


def test_the_panel_is_refused_before_the_end(live: LiveServer) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}]
    gid = live.create({"game": "byzantium", "seats": seats, "seed": 4})["id"]
    assert live.get(f"/api/games/{gid}/review?seat=0").status_code == 403


def test_no_new_script_dependency() -> None:
    """The panel draws its chart with inline SVG: the pages load only the project's own
    scripts."""
    static = Path(server_review.__file__).parents[1] / "static"
    for page in ("game.html", "replay.html"):
        text = (static / page).read_text(encoding="utf-8")
        assert '<script src="/static/review.js"></script>' in text
        assert "http" not in text.split("<script", 1)[1]
