"""A server starting up loads only the unfinished games where something happens without
anyone opening them (a clock runs, a bot plays); a game at rest (people only, no clock)
loads when someone opens it and goes on from where it was (``server/startup.py``); on
SQLite and PostgreSQL (``db_url``)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from porphyra.clocks import ClockSettings, TableClock
from porphyra.server.app import create_app
from porphyra.server.deps import hub_of
from porphyra.server.startup import at_rest

from .accounts import NO_LIMITS

HUMANS = [{"kind": "human"}, {"kind": "human"}]
TURN = {"kind": "turn", "per_move_s": 3600}


def _clock(kind: str, base_s: int = 0, per_move_s: int = 0) -> TableClock:
    return TableClock.new(ClockSettings(kind=kind, base_s=base_s, per_move_s=per_move_s), 2)


def test_people_only_without_a_clock_rest() -> None:
    assert at_rest(None, ["human", "human"])  # a game stored before clocks
    assert at_rest(_clock("none").dumps(), ["human", "human"])


@pytest.mark.parametrize(
    ("clock", "kinds"),
    [
        (None, ["human", "bot"]),  # a bot moves on its own
        (_clock("none").dumps(), ["bot", "bot"]),
        (_clock("turn", per_move_s=60).dumps(), ["human", "human"]),  # a timeout must fire
        (_clock("realtime", base_s=600).dumps(), ["human", "human"]),
        ("{not json", ["human", "human"]),  # damage: loading reports it
        (17, ["human", "human"]),
    ],
)
def test_a_clock_a_bot_or_damage_loads_the_game(clock: Any, kinds: list[str]) -> None:
    assert not at_rest(clock, kinds)


def test_a_seat_its_player_left_is_played_by_a_bot_so_the_game_loads() -> None:
    clock = _clock("none")
    clock.take_over(1, 0, "left")
    assert not at_rest(clock.dumps(), ["human", "human"])
    clock.give_back(1, 0)
    assert at_rest(clock.dumps(), ["human", "human"])


def _app(db_url: str) -> Any:
    return create_app(db_url=db_url, bot_workers=1, bot_pace=0.0, **NO_LIMITS)


def _first_move(c: TestClient, game: dict[str, Any]) -> int:
    """Seat 0 plays its first legal action (Byzantium's Redraw); the new seq."""
    token = game["invites"][0]["token"]
    with c.websocket_connect(f"/ws/{game['id']}?token={token}") as ws:
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["legal"], snap
        ws.send_json({"type": "act", "action": snap["legal"][0], "seq": snap["seq"]})
        while True:
            m = ws.receive_json()
            if m["type"] == "update" and "last" in m:
                return int(m["seq"])
            assert m["type"] != "error", m


def test_a_restarted_server_leaves_games_at_rest_unloaded(db_url: str) -> None:
    with TestClient(_app(db_url)) as c:
        body = {"game": "byzantium", "seed": 5, "options": {"first_emperor": 0}}
        resting = c.post("/api/games", json={**body, "seats": HUMANS}).json()
        timed = c.post("/api/games", json={**body, "seats": HUMANS, "clock": TURN}).json()
        botted = c.post(
            "/api/games", json={**body, "seats": [{"kind": "human"}, {"kind": "bot"}]}
        ).json()
        moved = _first_move(c, resting)
        assert c.get(f"/api/games/{resting['id']}").json()["actions"] == 1
    app = _app(db_url)
    with TestClient(app) as c:
        hub = hub_of(app)
        assert set(hub.runners) == {timed["id"], botted["id"]}
        # Opened, the game at rest loads and goes on from where it was.
        info = c.get(f"/api/games/{resting['id']}").json()
        assert info["status"] == "active" and info["actions"] == 1
        assert resting["id"] in hub.runners
        token = resting["invites"][1]["token"]
        with c.websocket_connect(f"/ws/{resting['id']}?token={token}") as ws:
            snap = ws.receive_json()
            assert snap["type"] == "snapshot" and snap["seq"] == moved and snap["legal"]
