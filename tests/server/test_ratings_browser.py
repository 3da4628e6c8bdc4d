"""Issue 32 §3 "Done means", in Debian's chromium (Playwright) against a live server: two
accounts sign up, one opens a rated Byzantium table (the shortest game) with an open seat
from the lobby, the other takes the seat from its lobby, they play to the end (the moves
through the seats' websockets, as the other end-to-end tests drive them), and then both
profiles show a rating with its chart and list the game, and the leaderboard page ranks
both (before the game: nobody rated, no rating)."""

from __future__ import annotations

import json
import random
from typing import Any

from porphyra.tournament.ladder_output import shipped_ladder

from .browser import (
    BROWSER_MARKS,
    collect_errors,
    sign_up,
    wait_until,
)
from .driver import play_out
from .live import LiveServer, SeatClient

pytestmark = BROWSER_MARKS

BOARD_ROWS = "document.querySelectorAll('#board tbody tr[data-player]')"


def _token(url: str) -> str:
    return url.split("#token=")[1]


def test_two_accounts_play_a_rated_table_and_both_are_rated(live: LiveServer, browser: Any) -> None:
    host_context = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 768})
    host = host_context.new_page()
    errors = collect_errors(host)
    host.goto(live.base + "/leaderboard?game=byzantium&players=2")
    wait_until(host, "document.querySelector('#board tbody tr') !== null", 15000)
    assert "Nobody is rated here yet." in host.text_content("#board tbody")

    host.goto(live.base + "/")
    sign_up(host, "Irene Rated")
    host.select_option("#seats select[data-seat='1']", "open")
    host.select_option("#clock-kind", "turn")  # a rated table needs a clock and a takeover
    host.fill("#clock-takeover", "2")  # after at most 2 timeouts
    host.check("#opt-rated")
    host.click("#createbtn")
    wait_until(host, "!document.querySelector('#created').classList.contains('hidden')", 15000)
    href = host.get_attribute("[data-testid=play-seat-0]", "href")
    assert href is not None
    game_id = href.split("/game/")[1].split("#")[0]
    assert live.get(f"/api/games/{game_id}").json()["rated"] is True

    guest_context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    guest = guest_context.new_page()
    guest_errors = collect_errors(guest)
    guest.goto(live.base + "/")
    sign_up(guest, "Basil Rated")
    take = f"[data-testid=take-{game_id}-1]"
    wait_until(guest, f"document.querySelector({json.dumps(take)}) !== null", 15000)
    guest.click(take)
    wait_until(guest, f"location.pathname === '/game/{game_id}'", 15000)
    guest_token = _token(guest.url)

    seats: dict[int | None, list[SeatClient]] = {
        0: [SeatClient(live, game_id, _token(href), 0)],
        1: [SeatClient(live, game_id, guest_token, 1)],
    }
    for group in seats.values():
        group[0].recv_until(lambda m: m["type"] == "snapshot")
    play_out(seats, random.Random(32))
    for group in seats.values():
        group[0].close()

    for page, me, other in (
        (host, "Irene Rated", "Basil Rated"),
        (guest, "Basil Rated", "Irene Rated"),
    ):
        page.goto(f"{live.base}/players/{me.replace(' ', '%20')}")
        wait_until(page, "document.querySelector('[data-rating=byzantium-2]') !== null", 15000)
        chart = "[data-rating=byzantium-2] svg.rating-chart"
        assert page.get_attribute(chart, "data-points") == "1"
        assert page.query_selector(f"#recent [data-game='{game_id}']") is not None
        assert other in page.text_content(f"#recent [data-game='{game_id}']")

    host.goto(live.base + "/leaderboard?game=byzantium&players=2")
    wait_until(host, f"{BOARD_ROWS}.length === 2", 15000)
    names = host.eval_on_selector_all(
        "#board tbody tr[data-player]", "rows => rows.map(r => r.dataset.player)"
    )
    assert sorted(names) == ["Basil Rated", "Irene Rated"]
    # The bots: each level against the one below, from the shipped ladder (issue 31).
    ladder = shipped_ladder()
    assert ladder is not None
    (table,) = [t for t in ladder["tables"] if (t["game"], t["players"]) == ("byzantium", 2)]
    assert table["pairs"], "the shipped ladder has no pairs"
    for pair in table["pairs"]:
        cell = host.text_content(f"#bots tr[data-bot={pair['level']}] [data-testid=bot-below]")
        assert cell is not None
        assert f"{100 * pair['score']:.1f}% against " in cell, cell
        assert f"({100 * pair['low']:.1f}–{100 * pair['high']:.1f}), {pair['deals']} deals" in cell
    guest.goto(live.base + "/leaderboard")
    wait_until(guest, f"{BOARD_ROWS}.length === 2", 15000)
    assert "ランキング" in guest.text_content("h1")
    assert errors == [] and guest_errors == []
    host_context.close()
    guest_context.close()
