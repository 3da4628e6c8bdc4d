"""Stop the server and start it again on the same database: every game resumes exactly
where it was (observations, legal actions, seq, a simultaneous choice already made), bot
seats carry on, and the games can be finished."""

from __future__ import annotations

import random

import pytest

from porphyra.server.rows import GameRow, SeatRow, now
from porphyra.server.storage import Storage

from .driver import play_out, sync
from .live import LiveServer, SeatClient, connect_seats


@pytest.mark.live
def test_restart_and_resume(db_url: str) -> None:
    first = LiveServer(db_url).start()
    try:
        byz = first.create(
            {
                "game": "byzantium",
                "options": {"first_emperor": 0},
                "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
                "seed": 31,
            }
        )
        cons = first.create(
            {
                "game": "conspiracy",
                "options": {"players": 3},
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "human"}],
                "seed": 32,
            }
        )
        # Byzantium: both redraw, then the Foe melds first (B-R3) and the server stops
        # before the Emperor melds; Conspiracy: several turns with the bot.
        bz = connect_seats(first, byz)
        emperor, foe = bz[0][0], bz[1][0]
        rng = random.Random(5)
        emperor.act("redraw -")
        foe.recv_until(lambda m: m["type"] == "update")
        foe.act(foe.last["legal"][1])
        foe.recv_until(lambda m: m["type"] == "update" and "last" in m)
        sync([emperor, foe])
        foe_meld = foe.last["legal"][-1]
        assert foe.last["legal"] and emperor.last["legal"]
        foe.act(foe_meld)
        foe.recv_until(lambda m: m["type"] == "update" and "last" in m)
        sync([emperor, foe])
        cs = connect_seats(first, cons)
        humans = [cs[0][0], cs[2][0]]
        for _ in range(12):
            sync(humans)
            ready = [c for c in humans if c.last["legal"]]
            if not ready:
                humans[0].recv()
                continue
            c = ready[0]
            c.act(c.last["legal"][rng.randrange(len(c.last["legal"]))])
            c.recv_until(
                lambda m: m["type"] in ("error",) or (m["type"] == "update" and "last" in m)
            )
        sync(humans)
        while not any(c.last["legal"] for c in humans):  # let the bot finish its turn
            humans[0].recv()
            sync(humans)
        # Each client's pong only marks the end of what the server had sent *that* client:
        # the bot may have finished its turn between the two pongs, leaving one human's view
        # a step behind the other's. Now that a human is to move the game stands still, so
        # one more round brings every view up to the state the restart must resume.
        sync(humans)
        before = {
            "byz": [emperor.last, foe.last],
            "cons": [h.last for h in humans],
        }
        for c in [emperor, foe, *humans]:
            c.close()
    finally:
        first.stop()

    # A bot-only game stored while no server ran (as if stopped before its first move):
    # the next start must run its bots.
    storage = Storage(db_url)
    stamp = now()
    bots_id = "botsonly0001"
    storage.create_game(
        GameRow(
            id=bots_id,
            game="conspiracy",
            version="1",
            options={"players": 2, "bonus_locations": False},
            seed=33,
            status="active",
            seq=0,
            created=stamp,
            updated=stamp,
            seats=[SeatRow(0, "bot", "random", "R0"), SeatRow(1, "bot", "easy", "E1")],
        )
    )
    storage.close()

    second = LiveServer(db_url).start()
    try:
        listed = {g["id"]: g for g in second.get("/api/games").json()}
        assert set(listed) == {byz["id"], cons["id"], bots_id}
        assert [s["name"] for s in listed[byz["id"]]["seats"]] == ["Ada", "Bo"]
        # Byzantium resumes exactly: the Foe's meld is an action of the stored record, so
        # it is still in, hidden, and only the Emperor is asked.
        bz2 = {
            inv["seat"]: SeatClient(second, byz["id"], inv["token"], inv["seat"])
            for inv in byz["invites"]
        }
        for seat, client in bz2.items():
            snap = client.recv_until(lambda m: m["type"] == "snapshot")
            old = before["byz"][seat]
            assert snap["observation"] == old["observation"]
            assert snap["legal"] == old["legal"]
            # The Foe saw the last change; the Emperor's view did not change with it.
            assert snap["seq"] == before["byz"][1]["seq"] >= old["seq"]
        assert bz2[1].last["legal"] == [] and bz2[0].last["legal"]
        assert bz2[1].last["observation"]["pending_choice"] is not None
        # The Emperor melds; both melds are revealed at once.
        bz2[0].act("meld -")
        revealed = bz2[0].recv_until(
            lambda m: m["type"] == "update" and m["observation"]["melds_turn"] == 1
        )
        foe_cards = foe_meld.split(" ")[1]
        expected = [] if foe_cards == "-" else sorted(foe_cards.split(","))
        assert sorted(revealed["observation"]["melds"]["foe"]) == expected
        play_out({0: [bz2[0]], 1: [bz2[1]]}, random.Random(6))
        # Conspiracy resumes exactly and finishes (its bot restarted).
        cs2 = {
            inv["seat"]: [SeatClient(second, cons["id"], inv["token"], inv["seat"])]
            for inv in cons["invites"]
        }
        for i, seat in enumerate((0, 2)):
            snap = cs2[seat][0].recv_until(lambda m: m["type"] == "snapshot")
            assert snap["observation"] == before["cons"][i]["observation"]
            assert snap["legal"] == before["cons"][i]["legal"]
        play_out(cs2, random.Random(7))
        # The bot-only game finished by itself after the restart.
        watcher = SeatClient(second, bots_id, None, None)
        watcher.recv_until(lambda m: m["type"] in ("snapshot", "update") and m["status"] == "over")
        for group in [*cs2.values(), [watcher], list(bz2.values())]:
            for c in group:
                c.close()
        for game_id in (byz["id"], cons["id"], bots_id):
            rec = second.get(f"/api/games/{game_id}/record").json()
            assert rec["result"] is not None
    finally:
        second.stop()


@pytest.mark.live
def test_a_record_that_no_longer_replays_is_listed_as_broken(db_url: str) -> None:
    storage = Storage(db_url)
    stamp = now()
    storage.create_game(
        GameRow(
            id="oldrules0001",
            game="byzantium",
            version="0-old",
            options={},
            seed=1,
            status="active",
            seq=0,
            created=stamp,
            updated=stamp,
            seats=[SeatRow(0, "human", None, "A"), SeatRow(1, "bot", "easy", "B")],
        )
    )
    storage.close()
    live = LiveServer(db_url).start()
    try:
        listed = live.get("/api/games").json()
        # Generic in public (the details, e.g. the old version, are in the server log).
        assert listed[0]["status"] == "broken" and "error id" in listed[0]["problem"]
        assert live.get("/api/games/oldrules0001").status_code == 410
        fresh = live.create({"game": "byzantium", "seats": [{"kind": "human"}] * 2})
        assert live.get(f"/api/games/{fresh['id']}").status_code == 200
    finally:
        live.stop()
