"""Issue 13, item 1: nobody can know the hidden cards from the seed.

The server draws 128-bit seeds from ``secrets`` (the engines, the records and the database
keep them whole); a seed chosen by the creator makes a table that every seat and spectator
is told about (lobby list, game info, every snapshot) and that is never rated.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from porphyra import record as records
from porphyra.server.rows import DEAL_LEGACY
from porphyra.server.storage import Storage

from .live import LiveServer, SeatClient, connect_seats

TWO_HUMANS = {"game": "byzantium", "seats": [{"kind": "human"}, {"kind": "human"}]}


@pytest.mark.live
def test_server_seeds_have_128_bits_and_are_stored_whole(server: LiveServer, db_url: str) -> None:
    ids = [server.create(TWO_HUMANS)["id"] for _ in range(4)]
    storage = Storage(db_url)
    try:
        seeds = [row.seed for row in (storage.load(i) for i in ids) if row is not None]
    finally:
        storage.close()
    assert len(seeds) == 4 and len(set(seeds)) == 4
    # 4 draws of 128 bits all below 2**120: probability 2**-32.
    assert max(s.bit_length() for s in seeds) > 120, seeds


@pytest.mark.live
def test_a_128_bit_game_plays_to_the_end_and_its_record_replays(server: LiveServer) -> None:
    info = server.create(
        {"game": "conspiracy", "seats": [{"kind": "bot", "bot": "random"}] * 2, "seed": 2**130 + 7}
    )
    watcher = SeatClient(server, info["id"], None, None)
    watcher.recv_until(lambda m: m["type"] in ("snapshot", "update") and m["status"] == "over")
    watcher.close()
    rec = server.get(f"/api/games/{info['id']}/record").json()
    assert rec["seed"] == 2**130 + 7
    # The web record adds the seat names (``porphyra replay`` shows them); the rest is the
    # engine's record exactly.
    assert [s["name"] for s in rec.pop("seats")] == ["Random bot 1", "Random bot 2"]
    assert records.to_record(records.replay(rec)) == rec


@pytest.mark.live
def test_a_chosen_seed_is_shown_to_every_seat_and_spectator_and_never_rated(
    server: LiveServer,
) -> None:
    chosen = server.create({**TWO_HUMANS, "seed": 42})
    secret = server.create(TWO_HUMANS)
    assert (chosen["deal"], chosen["rated"]) == ("chosen", False)
    # A secret deal may be rated, but is a rated table only when asked ("rated": true
    # from an account, test_ratings_api.py): "rated" means a rated table, nothing else.
    assert (secret["deal"], secret["rated"]) == ("secret", False)
    listed = {g["id"]: g for g in server.get("/api/games").json()}
    assert (listed[chosen["id"]]["deal"], listed[chosen["id"]]["rated"]) == ("chosen", False)
    assert (listed[secret["id"]]["deal"], listed[secret["id"]]["rated"]) == ("secret", False)
    assert server.get(f"/api/games/{chosen['id']}").json()["deal"] == "chosen"
    for info, deal in ((chosen, "chosen"), (secret, "secret")):
        clients = connect_seats(server, info, spectators=1)
        for group in clients.values():
            for c in group:
                snap = c.messages[-1] if c.messages[-1]["type"] == "snapshot" else c.last
                assert (snap["deal"], snap["rated"]) == (deal, False)
                c.close()
    # The page tells it too (the game page's badge, the lobby's note on the seed field).
    assert 'id="deal"' in server.get(f"/game/{chosen['id']}").text
    assert "never rated" in server.get("/").text


def test_a_database_of_the_old_schema_is_upgraded_and_its_games_are_unrated(
    tmp_path: Path,
) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path)
    conn.executescript(
        """
        CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(64) NOT NULL,
          version VARCHAR(32) NOT NULL, options JSON NOT NULL, seed INTEGER NOT NULL,
          status VARCHAR(16) NOT NULL, result JSON, seq INTEGER NOT NULL,
          created VARCHAR(40) NOT NULL, updated VARCHAR(40) NOT NULL);
        INSERT INTO games VALUES ('old1', 'byzantium', '1', '{}', 1234567, 'active', NULL, 0,
          '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00');
        """
    )
    conn.commit()
    conn.close()
    storage = Storage(f"sqlite:///{path}")
    try:
        row = storage.load("old1")
        assert row is not None and row.seed == 1234567 and row.deal == DEAL_LEGACY
        assert storage.summaries()[0]["rated"] is False
    finally:
        storage.close()
