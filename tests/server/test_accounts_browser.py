"""Issue 32 §1: the lobby's account control in Debian's chromium (Playwright) against a
live server: sign up, see the name (also after a reload: the session cookie), sign out,
sign in; the control and its refusals in Japanese; guests' pages unchanged."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, select

from porphyra.server.schema import seats_table

from .browser import (
    ACCOUNT_SHOWN,
    BROWSER_MARKS,
    OVERFLOW,
    SMALL_TARGETS,
    axe_violations,
    collect_errors,
    fill_account_form,
    wait_until,
)
from .live import LiveServer

pytestmark = BROWSER_MARKS


def test_sign_up_see_the_name_sign_out_and_sign_in(live: LiveServer, browser: Any) -> None:
    context = browser.new_context(locale="en-US")
    page = context.new_page()
    errors = collect_errors(page)
    page.goto(live.base + "/")
    wait_until(page, "document.querySelector('#account-open') !== null", 15000)
    fill_account_form(page, "Zoe Player", "a long password")
    page.click("#account-signup")
    wait_until(page, f"{ACCOUNT_SHOWN} && {ACCOUNT_SHOWN}.textContent === 'Zoe Player'", 15000)
    page.reload()  # the session is a cookie: still signed in
    wait_until(page, f"{ACCOUNT_SHOWN} && {ACCOUNT_SHOWN}.textContent === 'Zoe Player'", 15000)
    # The cookie is out of the page's reach (HttpOnly).
    assert "porphyra_session" not in page.evaluate("() => document.cookie")
    page.click("#account-signout")
    wait_until(page, "document.querySelector('#account-open') !== null", 15000)
    fill_account_form(page, "zoe player", "a wrong password")
    page.click("#account-signin")
    wait_until(page, "document.querySelector('#account-error').textContent !== ''", 15000)
    assert page.text_content("#account-error") == "wrong user name or password"
    fill_account_form(page, "zoe player", "a long password")
    page.click("#account-signin")
    wait_until(page, f"{ACCOUNT_SHOWN} && {ACCOUNT_SHOWN}.textContent === 'Zoe Player'", 15000)
    # A guest's lobby still works alongside: creating a game gives its links.
    page.click("#createbtn")
    wait_until(page, "!document.querySelector('#created').classList.contains('hidden')", 15000)
    assert errors == []
    context.close()


def test_the_control_speaks_japanese(live: LiveServer, browser: Any) -> None:
    context = browser.new_context(locale="ja-JP")
    page = context.new_page()
    errors = collect_errors(page)
    page.goto(live.base + "/")
    wait_until(page, "document.querySelector('#account-open') !== null", 15000)
    assert page.text_content("#account-open") == "サインイン / アカウント作成"
    fill_account_form(page, "ab", "a long password")
    page.click("#account-signup")
    wait_until(page, "document.querySelector('#account-error').textContent !== ''", 15000)
    assert page.text_content("#account-error") == "ユーザー名は3文字以上にしてください"
    assert errors == []
    context.close()


def test_a_signed_in_player_saves_their_seat_from_its_link(live: LiveServer, browser: Any) -> None:
    game = live.create({"game": "byzantium", "seats": [{"kind": "human"}] * 2})
    link = live.base + game["invites"][1]["url"]
    guest = browser.new_context(locale="en-US")
    page = guest.new_page()
    page.goto(link)
    wait_until(page, "document.body.dataset.status !== undefined", 15000)
    page.wait_for_timeout(500)  # the page asked /api/me: a guest gets no offer
    assert page.query_selector("#seat-claim") is None
    guest.close()

    context = browser.new_context(locale="en-US")
    page = context.new_page()
    errors = collect_errors(page)
    page.goto(live.base + "/")
    wait_until(page, "document.querySelector('#account-open') !== null", 15000)
    fill_account_form(page, "Seat Saver", "a long password")
    page.click("#account-signup")
    wait_until(page, f"{ACCOUNT_SHOWN} && {ACCOUNT_SHOWN}.textContent === 'Seat Saver'", 15000)
    page.goto(link)
    wait_until(page, "document.querySelector('#seat-claim') !== null", 15000)
    page.click("#seat-claim")
    wait_until(page, "document.querySelector('#seat-claim') === null", 15000)
    assert "Seat Saver" in page.text_content("#toast")
    engine = create_engine(live.app.state.settings.db_url)
    try:
        with engine.connect() as conn:
            held = conn.execute(
                select(seats_table.c.seat).where(
                    seats_table.c.game_id == game["id"], seats_table.c.account_id.is_not(None)
                )
            ).all()
    finally:
        engine.dispose()
    assert [row.seat for row in held] == [1]
    assert errors == []
    context.close()


def test_the_control_fits_a_phone_and_passes_axe(live: LiveServer, browser: Any) -> None:

    context = browser.new_context(locale="ko-KR", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live.base + "/")
    wait_until(page, "document.querySelector('#account-open') !== null", 15000)
    fill_account_form(page, "Phone Player", "a long password")
    # The open form, then the name and the sign-out button: inside the page, large
    # enough to touch, and no WCAG 2 A/AA violation (axe-core).
    for _ in ("form", "signed in"):
        assert page.evaluate(OVERFLOW) == []
        assert page.evaluate(SMALL_TARGETS) == []
        assert axe_violations(page) == []
        if page.query_selector("#account-signup"):
            page.click("#account-signup")
            wait_until(
                page, f"{ACCOUNT_SHOWN} && {ACCOUNT_SHOWN}.textContent === 'Phone Player'", 15000
            )
    context.close()
