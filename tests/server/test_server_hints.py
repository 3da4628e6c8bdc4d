"""Issue 33 §3: hints never starve the bots that people wait for.

One address running many games that ask for a hint at every decision made another
player's easy bot wait seconds instead of a fraction of one.  Hints now wait behind the
bot moves of tables where a person waits (and may never take the last bot slot), and each
client address may ask for a limited number of them.  The tests assert the order in which
the bot slots are handed out, not wall-clock times (which a busy machine moves).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from porphyra.core.registry import load_game
from porphyra.server.botpool import BACKGROUND, HINT, URGENT, BotPool, FairGate
from porphyra.server.quotas import Quotas

from .live import LiveServer, connect_seats


def test_the_gate_serves_bot_moves_people_wait_for_before_hints_and_hints_first() -> None:
    async def run() -> list[str]:
        gate = FairGate(1)
        order: list[str] = []
        running = gate.enqueue(HINT)  # a hint is being searched: the only slot
        await running
        waiting = [(f"background{i}", gate.enqueue(BACKGROUND)) for i in range(2)]
        waiting += [(f"hint{i}", gate.enqueue(HINT)) for i in range(5)]
        waiting.append(("bot", gate.enqueue(URGENT)))  # arrives last
        kinds = {"b": BACKGROUND, "h": HINT}
        gate.release(HINT)
        while waiting:
            name, future = next((n, f) for n, f in waiting if f.done())
            waiting.remove((name, future))
            order.append(name)
            gate.release(URGENT if name == "bot" else kinds[name[0]])
        return order

    assert asyncio.run(run()) == [
        "bot",
        *(f"hint{i}" for i in range(5)),
        "background0",
        "background1",
    ]


def test_hints_never_hold_the_last_slot() -> None:
    async def run() -> tuple[int, bool]:
        gate = FairGate(3)
        hints = [gate.enqueue(HINT) for _ in range(10)]
        await asyncio.sleep(0)
        admitted = sum(f.done() for f in hints)
        bot = gate.enqueue(URGENT)  # a person's bot: a slot at once, hints or not
        return admitted, bot.done()

    assert asyncio.run(run()) == (2, True)


def test_a_bot_move_is_not_delayed_by_a_hint_flood(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty hints are asked for (10 games of one address), then a bot at another
    person's table must move: it starts before every hint that was still waiting, and
    only the hints already running (one slot fewer than the pool's) ran before it."""
    started: list[str] = []

    async def run() -> list[str]:
        pool = BotPool(workers=0, threads=4)
        gate = asyncio.Event()

        async def fake_run(state: Any, seat: int, spec: str, seed: int, hint: bool = False) -> Any:
            started.append("hint" if hint else "bot")
            await gate.wait()  # each search takes "long": until the test lets them go
            return ("a", None) if hint else "a"

        monkeypatch.setattr(pool, "_run", fake_run)
        state = load_game("conspiracy").new_initial_state(seed=1)
        hints = [asyncio.ensure_future(pool.hint(state, 0, "hard", i)) for i in range(20)]
        await asyncio.sleep(0.01)
        bot = asyncio.ensure_future(pool.choose(state, 1, "easy", 7, urgent=True))
        await asyncio.sleep(0.01)
        snapshot = list(started)
        gate.set()
        await asyncio.gather(bot, *hints)
        pool.shutdown()
        return snapshot

    snapshot = asyncio.run(run())
    assert snapshot == ["hint"] * 3 + ["bot"], snapshot
    assert started.count("hint") == 20  # and every hint is answered afterwards


def test_hints_are_limited_per_client_address() -> None:
    quotas = Quotas(hints="3/minute")
    assert [quotas.allow_hint("10.0.0.1") for _ in range(4)] == [True, True, True, False]
    assert quotas.allow_hint("10.0.0.2")  # another address has its own
    assert all(Quotas(hints=None).allow_hint("10.0.0.1") for _ in range(100))


@pytest.mark.live
def test_a_hint_over_the_address_limit_is_refused_and_starts_no_search(
    sqlite_url: str,
) -> None:
    server = LiveServer(sqlite_url, hint_limit="2/minute", hint_bot="random").start()
    try:
        info = server.create(
            {"game": "conspiracy", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]}
        )
        seat = connect_seats(server, info)[0][0]
        if not seat.last["legal"]:
            seat.recv_until(lambda m: m["type"] in ("snapshot", "update") and m["legal"])
        searches: list[int] = []
        pool = server.app.state.hub.bots
        real_hint = pool.hint

        async def counting(*args: Any, **kwargs: Any) -> Any:
            searches.append(1)
            return await real_hint(*args, **kwargs)

        pool.hint = counting
        answers = []
        for _ in range(3):
            seat.send({"type": "hint", "seq": seat.last["seq"]})
            answers.append(seat.recv_until(lambda m: m["type"] in ("hint", "error")))
        assert [a["type"] for a in answers] == ["hint", "hint", "error"], answers
        assert answers[2]["code"] == "limit" and "too many hints" in answers[2]["message"]
        assert len(searches) == 1  # (the second hint of one decision is the first's)
        seat.close()
    finally:
        server.stop()
