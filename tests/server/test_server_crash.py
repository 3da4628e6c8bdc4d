"""Issue 13, item 6: a crash between one seat's simultaneous choice and the other's.

The old server kept an early simultaneous choice in a queue beside the record; dying after
storing one seat's choice and before applying the queued other left a game stuck ("Choice
locked in" with no buttons).  Now every choice is an action of the record the moment it is
stored (the engine takes a simultaneous decision's choices in either order), so a restart
resumes from the record alone.

The server process here kills itself (``SIGKILL``) inside its first database write, right
after the commit of one seat's redraw choice (Byzantium B-R3, both seats decide at once) and
before it could answer or the other seat's choice could arrive.  After a restart on the same
database the stored choice is still in and still hidden, only the other seat is asked, its
choice completes the decision, both seats then act in the next simultaneous decision, and
the game is played to its end.  Both orders (the Foe first: the engine puts the Emperor's
later choice before the stored one, so the record's suffix is rewritten), on SQLite and on
PostgreSQL.
"""

from __future__ import annotations

import random
import signal

import pytest
from websockets.exceptions import ConnectionClosed

from porphyra.server.storage import Storage

from .driver import play_out, record_of, sync
from .live import LiveServer, SeatClient, connect_seats, free_port
from .test_server_kill import ProcessServer

#: The server, with its database write made fatal: the process dies right after the first
#: stored action (a game's creation is not an action write), as ``kill -9`` would kill it.
CRASH_AFTER_FIRST_STORED_ACTION = """
import os, signal, sys
from porphyra.server.cli import main
from porphyra.server.storage import Storage
real = Storage.append_actions
def append_then_die(self, batch, *rest):
    real(self, batch, *rest)
    os.kill(os.getpid(), signal.SIGKILL)
Storage.append_actions = append_then_die
main(sys.argv[1:])
"""


def _stored(db_url: str, game_id: str) -> list[tuple[int, str]]:
    storage = Storage(db_url)
    try:
        row = storage.load(game_id)
        assert row is not None
        return [(a["player"], a["action"]) for a in row.actions]
    finally:
        storage.close()


@pytest.mark.live
@pytest.mark.parametrize("first", [1, 0], ids=["foe-first", "emperor-first"])
def test_crash_after_one_simultaneous_choice_is_stored_resumes(db_url: str, first: int) -> None:
    crashing = ProcessServer(db_url, free_port(), code=CRASH_AFTER_FIRST_STORED_ACTION).start()
    try:
        info = crashing.create(
            {
                "game": "byzantium",
                "options": {"first_emperor": 0},
                "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bo"}],
            }
        )
        clients = connect_seats(crashing, info)
        mover, other = clients[first][0], clients[1 - first][0]
        # Both seats are asked at once (the opening redraw, B-R3).
        assert mover.last["legal"] and other.last["legal"]
        other_before = other.last
        # A real redraw (cards, not "redraw -"), so that its count shows once revealed.
        choice = next(t for t in reversed(mover.last["legal"]) if t != "redraw -")
        mover.act(choice)
        # The server dies inside the write: no answer ever comes.
        with pytest.raises(ConnectionClosed):
            mover.recv_until(lambda m: m["type"] == "update" and "last" in m)
        assert crashing.process is not None
        assert crashing.process.wait(timeout=30) == -signal.SIGKILL
        for c in (mover, other):
            c.ws.close()
    finally:
        crashing.stop()
    # Exactly the point of the issue: one seat's choice stored, the other's not.
    assert _stored(db_url, info["id"]) == [(first, choice)]

    second = LiveServer(db_url).start()
    try:
        seats = {
            inv["seat"]: SeatClient(second, info["id"], inv["token"], inv["seat"])
            for inv in info["invites"]
        }
        for c in seats.values():
            c.recv_until(lambda m: m["type"] == "snapshot")
        mover, other = seats[first], seats[1 - first]
        # The stored choice is in and locked; the other seat sees what it saw before the
        # crash (nothing of the hidden choice: only whose turn it is, as when the Emperor
        # has chosen and the Foe is asked) and is the one asked.
        assert mover.last["legal"] == []
        assert mover.last["observation"]["pending_choice"] is not None
        assert other.last["legal"] == other_before["legal"]
        seen = dict(other.last["observation"])
        assert seen.pop("current_player") == other.seat
        assert seen == {
            k: v for k, v in other_before["observation"].items() if k != "current_player"
        }
        other.act(other.last["legal"][0])
        done = other.recv_until(lambda m: m["type"] == "update" and "last" in m)
        assert done["observation"]["phase"] == "meld"
        sync([mover, other])
        # The redraw decision is complete, and both seats act in the next one (the melds).
        assert mover.last["legal"] and other.last["legal"]
        redrawn = mover.last["observation"]["redrawn"]
        assert redrawn[first] == len(choice.split(" ")[1].split(","))
        play_out({0: [seats[0]], 1: [seats[1]]}, random.Random(13))
        rec = record_of(second, info["id"])
        assert rec["result"] is not None
        # The record keeps the decision in canonical order: the Emperor's choice first.
        opening = [(a["player"], a["action"]) for a in rec["actions"][:2]]
        assert opening[0][0] == 0 and opening[1][0] == 1
        assert (first, choice) in opening
        for c in seats.values():
            c.close()
    finally:
        second.stop()
