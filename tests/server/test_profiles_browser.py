"""Issue 32 §4 in Debian's chromium (Playwright) against a live server: an account plays a
game against a bot to its end, opens its profile from the top bar and sees the game with
its result; signed in from a second browser context (another device, no seat link in its
storage) it finds the game in "Your games" and opens the seat there.  The profile page
at phone and desktop widths, in Japanese, and axe-clean."""

from __future__ import annotations

import random
from typing import Any

from .browser import (
    ACCOUNT_SHOWN,
    BROWSER_MARKS,
    OVERFLOW,
    axe_violations,
    collect_errors,
    fill_account_form,
    wait_until,
)
from .driver import play_out, record_of
from .live import LiveServer, connect_seats

pytestmark = BROWSER_MARKS

PASSWORD = "a long password"


def sign_in(page: Any, base: str, name: str, button: str) -> None:
    page.goto(base + "/")
    fill_account_form(page, name, PASSWORD)
    page.click(button)
    wait_until(page, f"{ACCOUNT_SHOWN} !== null", 15000)


def test_a_played_game_on_the_profile_and_in_your_games_elsewhere(
    live: LiveServer, browser: Any
) -> None:
    first = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 768})
    page = first.new_page()
    errors = collect_errors(page)
    sign_in(page, live.base, "Irene Doukaina", "#account-signup")
    info = live.create(
        {
            "game": "byzantium",
            "seats": [{"kind": "human", "name": "Irene"}, {"kind": "bot", "bot": "random"}],
            "seed": 21,
        }
    )
    game_id, token = info["id"], info["invites"][0]["token"]
    claimed = page.evaluate(
        """async ([id, token]) => (await fetch(`/api/games/${id}/claim`, {
            method: "POST", headers: {"content-type": "application/json"},
            body: JSON.stringify({token})})).status""",
        [game_id, token],
    )
    assert claimed == 200
    clients = connect_seats(live, info)
    play_out(clients, random.Random(3))
    for c in clients[0]:
        c.close()
    returns = record_of(live, game_id)["result"]["returns"]
    best = max(returns)
    result = (
        "drawn"
        if all(r == returns[0] for r in returns)
        else "won"
        if returns[0] == best
        else "lost"
    )

    page.goto(live.base + "/")
    wait_until(page, f"{ACCOUNT_SHOWN} !== null", 15000)
    page.click("#account-profile")
    row = f"document.querySelector('#recent tr[data-game=\"{game_id}\"]')"
    wait_until(page, f"{row} !== null", 15000)
    assert page.url.endswith("/players/Irene%20Doukaina")
    assert page.text_content("#player-name") == "Irene Doukaina"
    assert page.evaluate(f"{row}.dataset.result") == result
    assert result in page.evaluate(f"{row}.textContent")
    assert page.text_content("[data-count=played] dd") == "1"
    assert page.text_content(f"[data-count={result}] dd") == "1"
    assert page.evaluate(OVERFLOW) == []
    assert axe_violations(page) == []
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(OVERFLOW) == []
    assert errors == []

    # Another device: no seat link stored, the account's games come from the server.
    second = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    other = second.new_page()
    other_errors = collect_errors(other)
    sign_in(other, live.base, "irene doukaina", "#account-signin")
    mine = f"document.querySelector('#mygames-list tr[data-game=\"{game_id}\"]')"
    wait_until(other, f"{mine} !== null", 15000)
    assert other.evaluate("() => localStorage.getItem('porphyra.tokens')") is None
    other.click(f"[data-testid=mygames-open-{game_id}]")
    wait_until(other, f"location.pathname === '/game/{game_id}'", 15000)
    assert "#token=" in other.url and token not in other.url
    other.goto(live.base + "/players/Irene%20Doukaina")
    wait_until(other, "document.querySelector('#recent tbody tr[data-game]') !== null", 15000)
    assert "対戦数" in other.text_content("#counts")
    assert axe_violations(other) == []
    assert other.evaluate(OVERFLOW) == []
    assert other_errors == []
    first.close()
    second.close()


def test_an_unknown_player_page_says_so(live: LiveServer, browser: Any) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(live.base + "/players/Nobody%20At%20All")
    wait_until(page, "document.querySelector('#joined').textContent !== ''", 15000)
    assert page.text_content("#joined") == "no player has this name"
    assert page.text_content("#player-name") == "Nobody At All"
    context.close()
