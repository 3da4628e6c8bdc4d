"""Issue 32 §2: open tables in Debian's chromium (Playwright) against a live server: one
account opens a table with an open seat from the lobby, another takes the seat with one
tap from its lobby on a phone (in Korean), and both reach the game page in their seats;
the game starts once the seat is taken."""

from __future__ import annotations

import json
import time
from typing import Any

from sqlalchemy import create_engine, select

from porphyra.server.schema import seats_table

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


def test_one_account_opens_a_table_and_another_takes_the_seat(
    live: LiveServer, browser: Any
) -> None:
    host = browser.new_context(locale="en-US", viewport={"width": 1366, "height": 768})
    page = host.new_page()
    errors = collect_errors(page)
    page.goto(live.base + "/")
    sign_up(page, "Ann Host")
    page.select_option("#seats select[data-seat='1']", "open")
    page.click("#createbtn")
    wait_until(page, "!document.querySelector('#created').classList.contains('hidden')", 15000)
    href = page.get_attribute("[data-testid=play-seat-0]", "href")
    assert href is not None
    game_id = href.split("/game/")[1].split("#")[0]
    # The lobby lists the table with its free seat; the host sits there already.
    row = f'[data-table="{game_id}"]'
    wait_until(page, f"document.querySelector({json.dumps(row)}) !== null", 15000)
    assert "you are at this table" in page.text_content(row)
    page.click("[data-testid=play-seat-0]")
    wait_until(page, HAND, 15000)
    # The game waits for its open seat: nothing to decide yet.
    assert page.evaluate("() => document.body.dataset.myturn") == "false"
    assert page.text_content("[data-testid=open-seat]") == "waiting for a player"
    seq = page.evaluate("() => document.body.dataset.seq")

    guest = browser.new_context(locale="ko-KR", viewport={"width": 390, "height": 844})
    phone = guest.new_page()
    phone_errors = collect_errors(phone)
    phone.goto(live.base + "/")
    take = f"[data-testid=take-{game_id}-1]"
    wait_until(phone, f"document.querySelector({json.dumps(row)}) !== null", 15000)
    # A guest is told to sign in; once signed in, the seat is one tap away.
    assert phone.query_selector(take) is None
    sign_up(phone, "Ben Guest")
    wait_until(phone, f"document.querySelector({json.dumps(take)}) !== null", 15000)
    assert phone.text_content(take) == "좌석 2에 앉기"
    assert phone.evaluate(OVERFLOW) == []
    phone.click(take)
    wait_until(phone, f"location.pathname === '/game/{game_id}' && {HAND}", 15000)
    # Both pages are seats of the started game: one of them has a decision now.
    wait_until(page, f"document.body.dataset.seq !== {seq!r}", 15000)
    wait_until(page, "document.querySelector('[data-testid=open-seat]') === null", 15000)
    deadline = time.monotonic() + 15
    while not any(
        p.evaluate("() => document.body.dataset.myturn") == "true" for p in (page, phone)
    ):
        assert time.monotonic() < deadline, "neither seat has a decision"
        time.sleep(0.1)
    engine = create_engine(live.app.state.settings.db_url)
    try:
        with engine.connect() as conn:
            held = conn.execute(
                select(seats_table.c.seat, seats_table.c.name, seats_table.c.account_id)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
    finally:
        engine.dispose()
    assert [(s.seat, s.name) for s in held] == [(0, "Ann Host"), (1, "Ben Guest")]
    assert all(s.account_id is not None for s in held)
    assert errors == [] and phone_errors == []
    host.close()
    guest.close()
