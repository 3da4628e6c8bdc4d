"""Meld and redraw decisions sent as option tables (issue 33): a client that connects
with ``choices=1`` gets a Byzantium meld or redraw as ``choices`` (the hand's distinct
cards and the limits) instead of up to 512 texts, composes exactly the texts every other
client is sent, and can still ask for them (``{"type": "legal"}``); other clients get
every message as before.  Nobody learns anything more: the table describes the seat's
own hand only, and a spectator never gets one."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from porphyra.core.choices import compose, legal_texts
from porphyra.server.client import Client
from porphyra.server.hub import Hub
from porphyra.server.storage import Storage

from .live import LiveServer, SeatClient

HUMANS = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]


def _drain(client: Client) -> list[dict[str, Any]]:
    out = []
    while not client.outbox.empty():
        text = client.outbox.get_nowait()
        assert text is not None
        out.append(json.loads(text))
    return out


def _without_decision(message: dict[str, Any]) -> dict[str, Any]:
    # (A snapshot's seats show who was connected then: the clients attach one by one.)
    return {k: v for k, v in message.items() if k not in ("legal", "choices", "seats")}


def test_compact_clients_see_what_the_others_see_with_tables_for_texts() -> None:
    async def play() -> None:
        hub = Hub(Storage("sqlite://"))
        runner, _tokens = await hub.create("byzantium", {}, HUMANS, seed=7)
        full = {0: Client(0), 1: Client(1), None: Client(None)}
        compact = {0: Client(0, compact=True), 1: Client(1, compact=True)}
        watcher = Client(None, compact=True)
        clients = [*full.values(), *compact.values(), watcher]
        for c in clients:
            runner.attach(c)
        rng = random.Random(7)
        tables = 0
        while True:
            got = {
                id(c): [m for m in _drain(c) if m["type"] in ("snapshot", "update")]
                for c in clients
            }
            for seat in (0, 1):
                mine, theirs = got[id(compact[seat])], got[id(full[seat])]
                assert [_without_decision(m) for m in mine] == [
                    _without_decision(m) for m in theirs
                ]
                for m, t in zip(mine, theirs, strict=True):
                    assert "choices" not in t and isinstance(t["legal"], list)
                    if "choices" in m:
                        assert "legal" not in m
                        # Nothing but the seat's own hand, as its observation shows it.
                        hand = m["observation"]["hand"]
                        counts = {c: hand.count(c) for c in m["choices"]["cards"]}
                        assert list(counts.values()) == m["choices"]["copies"]
                        assert sum(counts.values()) == len(hand)
                        assert compose(m["choices"]) == t["legal"] != []
                        assert runner.legal_texts(seat) == t["legal"]
                        tables += 1
                    else:
                        assert m["legal"] == t["legal"]
            # A spectator's view is the same whether it composes or not, with no table.
            assert list(map(_without_decision, got[id(watcher)])) == list(
                map(_without_decision, got[id(full[None])])
            )
            assert all("choices" not in m for m in got[id(watcher)])
            if runner.over:
                break
            seat = rng.choice(runner.state.active_players())
            texts = legal_texts(runner.view(seat, "update", compact=True))
            await runner.submit(seat, texts[rng.randrange(len(texts))], runner.seq)
        assert tables > 20
        await hub.stop()

    asyncio.run(play())


@pytest.mark.live
def test_the_socket_sends_tables_and_the_texts_on_request(server: LiveServer) -> None:
    info = server.create({"game": "byzantium", "seats": [{"kind": "human"}] * 2, "seed": 3})
    token = info["invites"][0]["token"]
    compact = SeatClient(server, info["id"], token, 0, choices=True)
    full = SeatClient(server, info["id"], token, 0)
    snap = compact.recv_until(lambda m: m["type"] == "snapshot")
    texts = full.recv_until(lambda m: m["type"] == "snapshot")["legal"]
    assert "legal" not in snap and snap["choices"]["verb"] == "redraw"
    assert compose(snap["choices"]) == texts
    compact.send({"type": "legal"})
    answer = compact.recv_until(lambda m: m["type"] == "legal")
    assert answer == {"type": "legal", "seq": snap["seq"], "legal": texts}
    compact.send({"type": "snapshot"})
    again = compact.recv_until(lambda m: m["type"] == "snapshot")
    assert again["choices"] == snap["choices"] and "legal" not in again
    compact.act(texts[-1])
    update = compact.recv_until(lambda m: m["type"] == "update" and "last" in m)
    assert update["last"] == texts[-1]
    spectator = SeatClient(server, info["id"], None, None, choices=True)
    watched = spectator.recv_until(lambda m: m["type"] == "snapshot")
    assert watched["legal"] == [] and "choices" not in watched
    spectator.send({"type": "legal"})
    assert spectator.recv_until(lambda m: m["type"] == "legal")["legal"] == []
    for c in (compact, full, spectator):
        c.close()
