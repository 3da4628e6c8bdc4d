"""Issue 32 §5 in Debian's chromium (Playwright): a seat's page turns turn alerts on with
one button and off with one more, and an alert for that subscription reaches a push
service on loopback.  Headless Chromium cannot subscribe to a real push service (it has
none), so ``PushManager.subscribe`` answers with the loopback subscription of a
:class:`~.pushservice.Browser`; the rest (permission, service worker, the requests) is
the page's own."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .browser import BROWSER_MARKS, collect_errors, wait_until
from .live import LiveServer
from .pushservice import Browser, PushService

pytestmark = BROWSER_MARKS

READY = "document.querySelector('[data-testid=push-toggle]') !== null"
TURN_TABLE = {
    "game": "conspiracy",
    "options": {"players": 2},
    "seats": [{"kind": "human"}, {"kind": "human"}],
    "clock": {"kind": "turn", "per_move_s": 3600},
}
TOGGLE = "[data-testid=push-toggle]"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db: Path = tmp_path_factory.mktemp("push") / "games.sqlite3"
    server = LiveServer(f"sqlite:///{db}", push_private_endpoints=True).start()
    try:
        yield server
    finally:
        server.stop()


def test_the_page_turns_alerts_on_and_off_and_an_alert_arrives(
    live: LiveServer, browser: Any
) -> None:
    service = PushService().start()
    try:
        phone = Browser()
        subscription = phone.subscription(f"http://127.0.0.1:{service.port}/device")
        game = live.create(TURN_TABLE)
        gid, token = game["id"], game["invites"][0]["token"]
        context = browser.new_context(locale="en-US", permissions=["notifications"])
        context.add_init_script(
            "if (self.PushManager) PushManager.prototype.subscribe = async function () {"
            f" const s = {json.dumps(subscription)};"
            " return { endpoint: s.endpoint, toJSON: () => s }; };"
        )
        page = context.new_page()
        errors = collect_errors(page)
        page.goto(f"{live.base}/game/{gid}#token={token}")
        wait_until(page, READY, 15000)
        assert page.text_content(TOGGLE) == (
            "Alert me on this device when it is my turn and this page is closed (turn-based tables)"
        )
        page.click(TOGGLE)
        wait_until(
            page,
            f"document.querySelector({TOGGLE!r}).textContent === 'Stop the alerts on this device'",
            15000,
        )
        push = live.app.state.push
        (stored,) = push.subscriptions(gid, 0)
        assert stored.endpoint == subscription["endpoint"] and stored.lang == "en"
        assert push.subscriptions(gid, 1) == []
        page.close()
        assert push.alert(gid, "Conspiracy: Abyss Universe", 0) == 1
        (got,) = service.wait(1)
        assert phone.decrypt(got.body)["body"] == "Your turn in Conspiracy: Abyss Universe"
        # One tap stops them.
        page = context.new_page()
        page.goto(f"{live.base}/game/{gid}#token={token}")
        wait_until(page, READY, 15000)
        page.click(TOGGLE)
        wait_until(
            page, f"document.querySelector({TOGGLE!r}).textContent.startsWith('Alert me')", 15000
        )
        assert push.subscriptions(gid, 0) == []
        assert errors == []
        context.close()
    finally:
        service.stop()
