"""Drive complete web games from the test side: human seats pick random legal actions from
the lists the server sends (sometimes submitting a simultaneous choice early), bot seats play
server-side.  Every message is recorded by the :class:`SeatClient` objects."""

from __future__ import annotations

import random
from typing import Any

from .live import SeatClient


def _state_seq(c: SeatClient) -> int:
    seq: int = c.last["seq"]
    return seq


def sync(clients: list[SeatClient]) -> None:
    """Receive until every client has every message the server sent it so far (a ping's
    pong comes after them: a client whose view did not change gets no update, so the seq
    numbers of the clients may differ)."""
    for c in clients:
        c.send({"type": "ping"})
    for c in clients:
        c.recv_until(lambda m: m["type"] == "pong")


def play_out(
    clients: dict[int | None, list[SeatClient]],
    rng: random.Random,
    early: float = 0.5,
    max_steps: int = 5000,
) -> None:
    """Play the game to its end.

    Args:
        clients: ``{seat: [client]}`` as from ``connect_seats`` (None: spectators).
        rng: picks actions and which seat of a simultaneous decision goes first.
        early: probability that, in a simultaneous decision (Byzantium B-R3), a seat other
            than the canonical one (the first of ``active_players``) submits first.
        max_steps: guard against a game that never ends.

    Raises:
        AssertionError: the server answered a legal submission with an error.
    """
    everyone = [c for group in clients.values() for c in group]
    humans = [group[0] for seat, group in clients.items() if seat is not None]
    for _ in range(max_steps):
        sync(everyone)
        if everyone[0].last["status"] == "over":
            return
        ready = [c for c in humans if c.last["legal"]]
        if not ready:
            everyone[0].recv()  # a bot is deciding
            continue
        canonical = everyone[0].last["observation"].get("current_player")
        normal = [c for c in ready if c.seat == canonical]
        ahead = [c for c in ready if c.seat != canonical]
        actor = ahead[0] if ahead and (not normal or rng.random() < early) else normal[0]
        legal = actor.last["legal"]
        actor.act(legal[rng.randrange(len(legal))])
        answer = actor.recv_until(
            lambda m: m["type"] == "error" or (m["type"] == "update" and "last" in m)
        )
        assert answer["type"] != "error", answer
    raise AssertionError("the game did not end")


def record_of(server: Any, game_id: str) -> dict[str, Any]:
    """The finished game's record (GET /api/games/{id}/record)."""
    r = server.get(f"/api/games/{game_id}/record")
    assert r.status_code == 200, r.text
    rec: dict[str, Any] = r.json()
    return rec


def play_to_a_mixed_pile(me: SeatClient, limit: int = 300) -> str:
    """Play Conspiracy seat ``me`` (drawing 3 where it can, else its first legal action)
    until it may take a discard pile of at least two different lords; returns that pile's
    colour.  Fails the test if none comes within ``limit`` decisions (it depends on the
    seed)."""
    import pytest

    for _ in range(limit):
        obs = me.last["observation"]
        piles = [c for c, pile in obs["piles"].items() if len(set(pile)) >= 2]
        if obs["phase"] == "recruit" and piles and f"take {piles[0]}" in me.last["legal"]:
            return str(piles[0])
        legal = me.last["legal"]
        me.act("draw 3" if "draw 3" in legal else legal[0])
        update = me.recv_until(
            lambda m: m["type"] == "update" and (bool(m["legal"]) or m["status"] == "over")
        )
        assert update["status"] == "active", "the game ended before a mixed pile came"
    pytest.fail("no pile of different lords to take")
