"""The game page builds a meld or redraw menu from the decision's option table (issue
33): in Debian's chromium, at each such decision of a game, the texts the page composed
(``M.legal``, what its builder looks a selection up in) are exactly the legal list the
server gives on request (``{"type": "legal"}``, the engine's texts), and the page was
sent the table, not the texts.  The page's own moves (its builder's button) and the
other seat's, from the test, take the game from the Redraw to the Meld and on."""

from __future__ import annotations

from typing import Any

from .browser import BROWSER_MARKS, READY, game_with, open_checked_page, wait_until
from .driver import sync
from .live import LiveServer, SeatClient

pytestmark = BROWSER_MARKS


def test_the_page_composes_the_servers_legal_list(live: LiveServer, browser: Any) -> None:
    seats = [{"kind": "human", "name": "Anna"}, {"kind": "human", "name": "Basil"}]
    info = game_with(live, "byzantium", {}, seats, 7)
    mine, theirs = (info["invites"][i]["token"] for i in (0, 1))
    asker = SeatClient(live, info["id"], mine, 0, choices=True)
    other = SeatClient(live, info["id"], theirs, 1)
    other.recv_until(lambda m: m["type"] == "snapshot")
    asker.recv_until(lambda m: m["type"] == "snapshot")
    page, errors = open_checked_page(browser)
    compared: list[str] = []
    try:
        page.goto(f"{live.base}/game/{info['id']}#token={mine}")
        wait_until(page, READY, 30_000)
        for _ in range(40):
            if len(compared) >= 4:  # Redraw and Meld, twice
                break
            sync([other])
            if other.last.get("legal"):  # the other seat's decisions: its first option
                other.act(other.last["legal"][0])
                other.recv_until(lambda m: m["type"] in ("update", "error") and "last" in m)
                continue
            wait_until(page, "M && M.legal.length > 0 && !busy", 30_000)
            seq = page.evaluate("M.seq")
            commit = page.locator("#actions [data-testid=commit]")
            if not commit.count():  # a Negotiation decision: its first button
                page.locator("#actions [data-action]:not([disabled])").first.click()
            else:
                shown = page.evaluate("() => ({legal: M.legal, choices: M.choices || null})")
                asker.send({"type": "legal"})
                legal = asker.recv_until(lambda m: m["type"] == "legal")["legal"]
                assert shown["choices"] is not None and legal and shown["legal"] == legal
                assert commit.get_attribute("data-action") in legal  # the empty choice
                compared.append(legal[0].split()[0])
                commit.click()  # keep the hand, or meld nothing
            wait_until(page, f"M.seq > {seq} && !busy", 30_000)
        assert compared == ["redraw", "meld", "redraw", "meld"]
        assert errors == []
    finally:
        page.close()
        asker.close()
        other.close()
