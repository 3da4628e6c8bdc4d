"""Issue 32 §7: the spectators' chat of one table is limited per address and, together,
per table: many addresses cannot fill a table's chat faster than the table's limit
(before, twelve addresses put 60 lines in within seconds)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from porphyra.server.app import create_app
from porphyra.server.quotas import Quotas

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _chat(ws: Any, text: str) -> dict[str, Any]:
    """Send ``text`` as a chat line; the answer (the line as sent back, or an error)."""
    ws.send_json({"type": "chat", "text": text})
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] in ("chat", "error"):
            return m


def test_spectators_of_one_table_share_one_limit_whatever_their_addresses(
    sqlite_url: str,
) -> None:
    app = create_app(
        db_url=sqlite_url,
        bot_workers=0,
        bot_pace=0.0,
        chat_limit="5 per 10 seconds",
        spectator_table_chat_limit="6/minute",
        max_client_connections=None,
    )
    body = {"game": "byzantium", "seats": TWO_HUMANS, "table": {"spectator_chat": True}}
    with TestClient(app) as first:
        gid = first.post("/api/games", json=body).json()["id"]
        other = first.post("/api/games", json=body).json()["id"]
        answers = []
        for n in range(12):  # twelve addresses, one line each
            c = TestClient(app, client=(f"10.0.0.{n + 1}", 40000 + n))
            with c.websocket_connect(f"/ws/{gid}") as ws:
                answers.append(_chat(ws, f"line from address {n}"))
        kinds = [a["type"] for a in answers]
        assert kinds == ["chat"] * 6 + ["error"] * 6
        assert all(a["code"] == "limit" for a in answers[6:])
        with first.websocket_connect(f"/ws/{gid}") as ws:
            snapshot = ws.receive_json()
            assert snapshot["type"] == "snapshot"
            assert [line["text"] for line in snapshot["chat"]] == [
                f"line from address {n}" for n in range(6)
            ]
        # Another table's spectators have their own share.
        c = TestClient(app, client=("10.0.0.99", 41000))
        with c.websocket_connect(f"/ws/{other}") as ws:
            assert _chat(ws, "elsewhere")["type"] == "chat"


def test_one_address_is_still_limited_on_its_own() -> None:
    quotas = Quotas(chat="2/minute", spectator_table_chat="100/minute")
    assert [quotas.allow_spectator_chat("g", "1.2.3.4") for _ in range(3)] == [True, True, False]
    assert quotas.allow_spectator_chat("g", "5.6.7.8")


def test_a_line_the_address_may_not_write_does_not_use_the_tables_share() -> None:
    quotas = Quotas(chat="1/minute", spectator_table_chat="2/minute")
    assert quotas.allow_spectator_chat("g", "a")
    assert not quotas.allow_spectator_chat("g", "a")  # refused by the address's limit
    assert quotas.allow_spectator_chat("g", "b")  # the table's second line
    assert not quotas.allow_spectator_chat("g", "c")
