"""Issue 32 §2: quick match in Debian's chromium (Playwright) against a live server: two
accounts, in two browser contexts (one in Japanese on a phone), press "Quick match" and
both land at the same table, each in their own seat."""

from __future__ import annotations

from typing import Any

from .browser import (
    BROWSER_MARKS,
    OVERFLOW,
    collect_errors,
    sign_up,
    wait_until,
)
from .live import LiveServer

pytestmark = BROWSER_MARKS

HAND = "document.querySelector('[data-testid=hand] .card') !== null"


def test_two_accounts_press_quick_match_and_meet_at_one_table(
    live: LiveServer, browser: Any
) -> None:
    first = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 768})
    page = first.new_page()
    errors = collect_errors(page)
    page.goto(live.base + "/")
    # A guest is told to sign in first.
    wait_until(page, "document.querySelector('#qm-body p') !== null", 15000)
    assert page.text_content("#qm-body") == "Sign in to play a quick match"
    sign_up(page, "Quick Ann")
    wait_until(page, "document.querySelector('[data-testid=quickmatch]') !== null", 15000)
    page.select_option("[data-testid=qm-clock]", "turn")
    page.click("[data-testid=quickmatch]")
    wait_until(page, "document.querySelector('[data-testid=qm-wait]') !== null", 15000)
    assert "Looking for an opponent" in page.text_content("[data-testid=qm-wait]")

    second = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    phone = second.new_page()
    phone_errors = collect_errors(phone)
    phone.goto(live.base + "/")
    sign_up(phone, "Quick Ben")
    wait_until(phone, "document.querySelector('[data-testid=quickmatch]') !== null", 15000)
    assert phone.text_content("[data-testid=quickmatch]") == "クイックマッチ"
    assert phone.evaluate(OVERFLOW) == []
    phone.select_option("[data-testid=qm-clock]", "turn")
    phone.click("[data-testid=quickmatch]")
    wait_until(phone, f"location.pathname.startsWith('/game/') && {HAND}", 20000)
    wait_until(page, f"location.pathname.startsWith('/game/') && {HAND}", 20000)
    path = page.evaluate("location.pathname")
    assert phone.evaluate("location.pathname") == path
    game_id = path.split("/game/")[1]
    # Each browser keeps the link of its own seat (and of no other).
    seats = [
        p.evaluate(f"() => Object.keys(knownTokens()[{game_id!r}] || {{}})") for p in (page, phone)
    ]
    assert sorted(s for held in seats for s in held) == ["0", "1"], seats
    assert errors == [] and phone_errors == []
    first.close()
    second.close()


def test_the_lobby_starts_only_once_every_script_has_run(live: LiveServer, browser: Any) -> None:
    """The lobby's scripts run in order, but a network answer (/api/me) may come while the
    parser still waits for a later script (a slow network, a busy server): then the account
    control found no quick-match box to render and left it empty.  I18N.ready, where every
    page starts, now waits for the whole page: here quickmatch.js is held back, nothing
    starts meanwhile, and once it comes the box renders."""
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    errors = collect_errors(page)
    held: list[Any] = []
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.route("**/static/quickmatch.js", lambda route: held.append(route))
    page.goto(live.base + "/", wait_until="commit")
    wait_until(page, "typeof ACCOUNT !== 'undefined'", 15000)  # account.js has run
    page.wait_for_timeout(1000)  # (before the fix /api/me went out at once)
    assert len(held) == 1
    assert not [url for url in asked if "/api/" in url], asked
    held[0].continue_()
    wait_until(page, "document.querySelector('#qm-body p') !== null", 15000)
    assert page.text_content("#qm-body") == "Sign in to play a quick match"
    assert errors == []
    context.close()
