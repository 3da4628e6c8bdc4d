"""Websocket protocol: freshness, turn and legality checks, malformed input, wrong tokens,
spectators, simultaneous choices in either order, and undo.  Every refused submission
must answer with an ``error`` and leave the game exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from .driver import play_to_a_mixed_pile, sync
from .live import LiveServer, SeatClient, connect_seats


def _two_humans(server: LiveServer, game: str = "conspiracy", seed: int = 3) -> dict[str, Any]:
    options: dict[str, Any] = {"players": 2, "first_player": 0} if game == "conspiracy" else {}
    return server.create(
        {"game": game, "options": options, "seats": [{"kind": "human"}] * 2, "seed": seed}
    )


def _unchanged(server: LiveServer, game_id: str, before: dict[str, Any]) -> None:
    after = server.get(f"/api/games/{game_id}").json()
    assert (after["actions"], after["seq"], after["status"]) == (
        before["actions"],
        before["seq"],
        before["status"],
    )


def _error(client: SeatClient) -> dict[str, Any]:
    msg = client.recv_until(lambda m: m["type"] not in ("presence",))
    assert msg["type"] == "error", msg
    return msg


@pytest.mark.live
def test_refused_submissions_change_nothing(server: LiveServer) -> None:
    info = _two_humans(server)
    clients = connect_seats(server, info, spectators=1)
    me, other, spectator = clients[0][0], clients[1][0], clients[None][0]
    before = server.get(f"/api/games/{info['id']}").json()
    snapshot = me.last["observation"]
    cases: list[tuple[SeatClient, Any, str]] = [
        (me, "{not json", "malformed"),
        (me, "[1, 2, 3]", "malformed"),
        (me, '"just a string"', "malformed"),
        (me, {"type": "dance"}, "malformed"),
        (me, {"type": "act", "action": "draw 1"}, "malformed"),  # no seq
        (me, {"type": "act", "action": "draw 1", "seq": "0"}, "malformed"),
        (me, {"type": "act", "action": 7, "seq": 0}, "malformed"),
        (me, {"type": "act", "action": "x" * 2000, "seq": 0}, "malformed"),
        (me, "[" * 5000 + "]" * 5000, "malformed"),
        # Issue 13, item 9: integers past Python's digit limit, and out of range.
        (me, '{"type": "act", "action": "draw 1", "seq": ' + "9" * 5000 + "}", "malformed"),
        (me, '{"type": "undo", "seq": -' + "1" * 4400 + "}", "malformed"),
        (me, {"type": "act", "action": "draw 1", "seq": 10**20}, "malformed"),
        (me, '{"type": "act", "action": "draw 1", "seq": 1e400}', "malformed"),
        (me, '{"type": "act", "action": "draw 1", "seq": NaN}', "malformed"),
        (me, {"type": "act", "action": "draw 1", "pad": "y" * 20000, "seq": 0}, "malformed"),
        (me, {"type": "act", "action": "draw 1", "seq": 5}, "stale"),
        (me, {"type": "act", "action": "draw 1", "seq": -1}, "stale"),
        (me, {"type": "act", "action": "fly away", "seq": 0}, "illegal"),
        (me, {"type": "act", "action": "draw 9", "seq": 0}, "illegal"),
        (me, {"type": "act", "action": "take red", "seq": 0}, "illegal"),
        (me, {"type": "act", "action": "keep red4", "seq": 0}, "illegal"),
        (other, {"type": "act", "action": "draw 1", "seq": 0}, "turn"),
        (spectator, {"type": "act", "action": "draw 1", "seq": 0}, "auth"),
        (me, {"type": "undo", "seq": 0}, "undo"),  # another seat is human
    ]
    for client, message, code in cases:
        client.send(message)
        error = _error(client)
        assert error["code"] == code, (message, error)
        assert error["message"]
        _unchanged(server, info["id"], before)
    me.send(b"\xff\xfe\x00binary garbage")
    assert _error(me)["code"] == "malformed"
    # The connection still works and the game is where it was.
    me.send({"type": "snapshot"})
    again = me.recv_until(lambda m: m["type"] == "snapshot")
    assert again["observation"] == snapshot and again["seq"] == 0
    me.act("draw 1")
    assert me.recv_until(lambda m: m["type"] == "update")["seq"] == 1
    for c in (me, other, spectator):
        c.close()


@pytest.mark.live
def test_huge_frame_closes_cleanly_and_server_stays_up(server: LiveServer) -> None:
    info = _two_humans(server)
    clients = connect_seats(server, info)
    me = clients[0][0]
    me.send("z" * (200 * 1024))  # over uvicorn's frame limit: the connection is closed
    with pytest.raises(ConnectionClosed):
        for _ in range(10):
            me.recv(timeout=10)
    fresh = SeatClient(server, info["id"], info["invites"][0]["token"], 0)
    snap = fresh.recv_until(lambda m: m["type"] == "snapshot")
    assert snap["seq"] == 0 and snap["legal"]
    fresh.close()
    clients[1][0].close()


@pytest.mark.live
def test_wrong_token_and_unknown_game(server: LiveServer) -> None:
    info = _two_humans(server)
    bad = SeatClient(server, info["id"], "not-a-token", 0)
    msg = bad.recv()
    assert msg["type"] == "error" and "token" in msg["message"]
    with pytest.raises(ConnectionClosed):
        bad.recv(timeout=10)
    nowhere = SeatClient(server, "no-such-game", None, None)
    assert nowhere.recv()["type"] == "error"
    with pytest.raises(ConnectionClosed):
        nowhere.recv(timeout=10)
    assert server.get(f"/api/games/{info['id']}").json()["actions"] == 0


@pytest.mark.live
def test_reconnect_gets_a_full_snapshot(server: LiveServer) -> None:
    info = _two_humans(server)
    clients = connect_seats(server, info)
    me = clients[0][0]
    me.act("draw 1")
    update = me.recv_until(lambda m: m["type"] == "update")
    me.close()
    again = SeatClient(server, info["id"], info["invites"][0]["token"], 0)
    snap = again.recv_until(lambda m: m["type"] == "snapshot")
    assert snap["seq"] == update["seq"]
    assert snap["observation"] == update["observation"]
    assert [s["name"] for s in snap["seats"]] == ["Seat 1", "Seat 2"]
    again.close()
    clients[1][0].close()


@pytest.mark.live
@pytest.mark.parametrize("foe_first", [True, False])
def test_simultaneous_choices_in_either_order(server: LiveServer, foe_first: bool) -> None:
    info = _two_humans(server, "byzantium", seed=4)
    clients = connect_seats(server, info)
    emperor, foe = clients[0][0], clients[1][0]
    seq = emperor.last["seq"]
    foe_legal = foe.last["legal"]
    foe_choice = foe_legal[2]
    if foe_first:
        foe.act(foe_choice)
        foe.recv_until(lambda m: m["type"] == "update" and "last" in m)
        view = foe.last
        assert view["legal"] == [] and view["observation"]["pending_choice"] is not None
        # A choice, once applied, is final: a second one is refused.
        foe.act(foe_legal[-1], seq=seq + 1)
        assert foe.recv_until(lambda m: m["type"] == "error")["code"] == "turn"
        emperor.act("redraw -", seq=seq)  # the Emperor's view did not change: still fresh
    else:
        emperor.act("redraw -")
        emperor.recv_until(lambda m: m["type"] == "update")
        foe.act(foe_choice, seq=seq)  # the seq of the phase start is still fresh (B-R3)
    final = emperor.recv_until(lambda m: m["type"] == "update" and m["seq"] == seq + 2)
    assert final["observation"]["phase"] == "meld"
    assert final["observation"]["redrawn"] == [0, len(foe_choice.split(" ")[1].split(","))]
    for c in (emperor, foe):
        c.close()


@pytest.mark.live
def test_choice_before_a_bot_emperor_is_not_applied_twice_nor_lost(server: LiveServer) -> None:
    info = server.create(
        {
            "game": "byzantium",
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "human"}],
            "seed": 12,
        }
    )
    clients = connect_seats(server, info)
    foe = clients[1][0]
    # Play until the game ends, always answering as soon as allowed.
    for _ in range(2000):
        msg = foe.state_msg() if not foe.last["legal"] else foe.last
        if msg["status"] == "over":
            break
        if msg["legal"]:
            foe.act(msg["legal"][0])
            foe.recv_until(
                lambda m: m["type"] == "error" or (m["type"] == "update" and "last" in m)
            )
    info_after = server.get(f"/api/games/{info['id']}").json()
    assert info_after["status"] == "over"
    rec = server.get(f"/api/games/{info['id']}/record").json()
    assert rec["result"] is not None
    foe.close()


def _recruited(m: dict[str, Any]) -> bool:
    return m["type"] == "update" and (bool(m["legal"]) or m["status"] == "over")


@pytest.mark.live
def test_undo_against_bots_only_without_new_information(server: LiveServer) -> None:
    info = server.create(
        {
            "game": "conspiracy",
            "options": {"players": 2, "first_player": 0},
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
            "seed": 21,
        }
    )
    me = connect_seats(server, info)[0][0]
    assert me.last["can_undo"] is False  # nothing to undo yet
    # Drawing from the deck reveals hidden cards: no undo past it.
    me.act("draw 3")
    msg = me.recv_until(_recruited)
    assert msg["can_undo"] is False
    me.send({"type": "undo", "seq": msg["seq"]})
    assert _error(me)["code"] == "undo"
    # Taking a pile of several different lords reveals nothing and leaves me to decide
    # the order: undo is allowed and restores exactly the view before.
    pile = play_to_a_mixed_pile(me)
    before = me.last
    me.act(f"take {pile}")
    after = me.recv_until(_recruited)
    assert after["observation"]["phase"] == "place" and after["can_undo"] is True
    me.send({"type": "undo", "seq": after["seq"]})
    snap = me.recv_until(lambda m: m["type"] == "snapshot")
    assert snap["observation"] == before["observation"]
    assert snap["legal"] == before["legal"]
    assert snap["seq"] > after["seq"]
    stored = server.get(f"/api/games/{info['id']}").json()
    assert stored["seq"] == snap["seq"]
    # A stale undo is refused.
    me.send({"type": "undo", "seq": after["seq"]})
    assert _error(me)["code"] == "stale"
    me.close()


@pytest.mark.live
def test_bots_in_worker_processes_finish_a_game(db_url: str) -> None:
    live = LiveServer(db_url, bot_workers=1).start()
    try:
        info = live.create(
            {
                "game": "byzantium",
                "seats": [{"kind": "bot", "bot": "easy"}, {"kind": "bot", "bot": "random"}],
                "seed": 2,
            }
        )
        watcher = SeatClient(live, info["id"], None, None)
        final = watcher.recv_until(
            lambda m: m["type"] in ("snapshot", "update") and m["status"] == "over", timeout=120
        )
        assert final["observation"]["result"] is not None
        watcher.close()
    finally:
        live.stop()


@pytest.mark.live
def test_a_thinking_bot_does_not_hold_up_other_games(db_url: str) -> None:
    live = LiveServer(db_url, bot_workers=1).start()
    try:
        slow = live.create(
            {
                "game": "conspiracy",
                "options": {"players": 2, "first_player": 0},
                "seats": [{"kind": "bot", "bot": "hard"}, {"kind": "human"}],
                "seed": 5,
            }
        )
        other = _two_humans(live)
        clients = connect_seats(live, other)
        seats = [clients[0][0], clients[1][0]]
        while_thinking = 0
        for _ in range(8):  # several decisions in the other game ...
            sync(seats)
            actor = next(c for c in seats if c.last["legal"])
            actor.act(actor.last["legal"][0])
            actor.recv_until(lambda m: m["type"] == "update" and "last" in m)
            while_thinking += live.get(f"/api/games/{slow['id']}").json()["actions"] == 0
        assert live.get(f"/api/games/{other['id']}").json()["actions"] >= 8
        # ... answered while the hard bot (2 s a move) was still on its first decision: a bot
        # that held the event loop would let none through before its move.  (Not all 8: on
        # a loaded machine 8 round trips can take longer than the bot's 2 s.)
        assert while_thinking >= 1
        for group in clients.values():
            for c in group:
                c.close()
    finally:
        live.stop()


@pytest.mark.live
@pytest.mark.parametrize("game_id", ["a%00b", "x" * 40, "%E2%98%83", "a%20b"])
def test_an_id_no_game_can_have_is_no_such_game(server: LiveServer, game_id: str) -> None:
    # (a NUL in the id was an HTTP 500 on PostgreSQL, which refuses it in a text)
    for path in ("", "/record", "/replay"):
        answer = server.get(f"/api/games/{game_id}{path}")
        assert answer.status_code == 404, (path, answer.text)
    client = SeatClient(server, game_id, None, None)
    msg = client.recv()
    assert msg["type"] == "error" and msg["message"] == "no such game"
    with pytest.raises(ConnectionClosed):
        client.recv(timeout=10)
