"""The cost of a move's views, without weakening them: each seat's view is built and
encoded once per change and sent identically to every client of that seat, nothing is
built that no view shows, and the fast encoder writes the same text as :mod:`json`."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from porphyra.core.game import State
from porphyra.core.messages import to_wire as core_wire
from porphyra.core.registry import load_game
from porphyra.server import protocol
from porphyra.server.client import Client
from porphyra.server.hub import Hub
from porphyra.server.match import MatchRunner
from porphyra.server.storage import Storage

HUMANS = [{"kind": "human", "name": "A"}, {"kind": "human", "name": "B"}]


def _states(name: str, options: dict[str, Any], moves: int) -> Iterator[State]:
    state = load_game(name, **options).new_initial_state(seed=11)
    rng = random.Random(3)
    for _ in range(moves):
        if state.is_terminal():
            return
        yield state
        seat = rng.choice(state.active_players())
        legal = state.legal_actions(seat)
        state.apply_action(legal[rng.randrange(len(legal))], seat)


@pytest.mark.parametrize(("name", "options"), [("byzantium", {}), ("conspiracy", {"players": 3})])
def test_fast_encoder_writes_the_same_text_as_json(name: str, options: dict[str, Any]) -> None:
    for state in _states(name, options, 80):
        for seat in range(state.game.num_players):
            message = {"type": "update", "observation": state.observation(seat), "seat": seat}
            expected = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
            assert protocol.dumps(message) == expected


def test_encoder_writes_keys_that_are_not_text_as_json_does() -> None:
    # Seat numbers as keys take orjson's slower option: the same text as json's.
    message: dict[Any, Any] = {"at": {0: 3, 1: 5}, 2: [None, True], "s": "«é»"}
    assert protocol.dumps(message) == json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def test_encoder_falls_back_for_what_orjson_refuses() -> None:
    message: dict[Any, Any] = {"n": 2**100, 3: "non-text key", "s": "«é»"}
    assert protocol.dumps(message) == json.dumps(message, separators=(",", ":"), ensure_ascii=False)


async def _runner(name: str, options: dict[str, Any]) -> tuple[Hub, MatchRunner]:
    hub = Hub(Storage("sqlite://"))
    runner, _tokens = await hub.create(name, options, HUMANS, seed=5)
    return hub, runner


def _drain(client: Client) -> list[str]:
    out = []
    while not client.outbox.empty():
        text = client.outbox.get_nowait()
        assert text is not None
        out.append(text)
    return out


def test_a_seat_view_is_encoded_once_and_sent_identically_to_each_of_its_clients(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def play() -> None:
        hub, runner = await _runner("conspiracy", {"players": 2})
        clients = [Client(0), Client(0), Client(1), Client(1), Client(None), Client(None)]
        for c in clients:
            runner.attach(c)
        for c in clients:
            _drain(c)
        encoded: list[dict[str, Any]] = []
        real = protocol.dumps

        def counting(message: dict[str, Any]) -> str:
            encoded.append(message)
            return real(message)

        monkeypatch.setattr(protocol, "dumps", counting)
        for _ in range(6):
            seat = runner.state.current_player()
            await runner.submit(seat, runner.view(seat, "update")["legal"][0], runner.seq)
            texts = [_drain(c) for c in clients]
            for a, b in ((0, 1), (2, 3), (4, 5)):
                assert texts[a] == texts[b] and len(texts[a]) == 1
            # One encoding per distinct view: the acting seat's (with its echo), the other
            # seat's, the spectators'; and one of what each of them shows (the text the
            # next change is compared with, MatchRunner._shown).
            messages = [m for m in encoded if "type" in m]
            assert len(messages) == 3
            assert len([m for m in encoded if set(m) == {"shown"}]) == 3
            assert len(encoded) == 6
            assert {json.loads(t[0])["seat"] for t in texts} == {0, 1, None}
            encoded.clear()
        await hub.stop()

    asyncio.run(play())


def test_a_game_without_derived_figures_builds_no_public_view_for_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def play() -> None:
        hub, runner = await _runner("byzantium", {})
        calls: list[int] = []  # public observations built outside a seat's observation
        inside: list[int] = []
        state_type = type(runner.state)
        real, real_seat = state_type.public_observation, state_type.observation

        def counting(state: Any, log: bool = True) -> dict[str, Any]:
            if not inside:
                calls.append(1)
            return real(state, log)

        def seat_view(state: Any, player: int, log: bool = True) -> dict[str, Any]:
            inside.append(1)  # the engine builds a seat's view on the public one
            try:
                return real_seat(state, player, log)
            finally:
                inside.pop()

        monkeypatch.setattr(state_type, "public_observation", counting)
        monkeypatch.setattr(state_type, "observation", seat_view)
        seats = [Client(0), Client(1)]
        for c in seats:
            runner.attach(c)
        for _ in range(4):
            seat = runner.state.active_players()[0]
            await runner.submit(seat, runner.view(seat, "update")["legal"][0], runner.seq)
        assert calls == []  # the seats' own observations only
        watcher = Client(None)
        runner.attach(watcher)
        snapshot = json.loads(_drain(watcher)[0])
        messages = snapshot["observation"].pop("log_messages")  # the log, as messages
        assert len(messages) == len(snapshot["observation"]["log"])
        assert snapshot["observation"] == real(runner.state) and snapshot["derived"] == {}
        assert len(calls) == 1
        await hub.stop()

    asyncio.run(play())


def test_wire_log_converts_each_line_once_and_matches_a_full_conversion(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from porphyra.core import messages as core_messages
    from porphyra.server import seatclock

    converted: list[Any] = []

    def counting(message: Any) -> dict[str, Any]:
        converted.append(message)
        return core_messages.to_wire(message)

    def text(lines: list[Any]) -> str:  # (fragments are JSON text: compare as JSON)
        return protocol.dumps({"log_messages": lines})

    monkeypatch.setattr(seatclock, "to_wire", counting)
    for reader in (0, 1, None):
        wire = seatclock.WireLog()
        seen = 0
        for state in _states("byzantium", {}, 60):
            wire.sync(state, reader)
            lines = state.log_messages(reader)
            assert text(wire.wired) == text([core_messages.to_wire(m) for m in lines])
            view = state.public_observation() if reader is None else state.observation(reader)
            assert wire.texts == view["log"]  # the lines as the engine's view has them
            # Only the lines added since the last read were converted.
            assert len(converted) == len(lines) - seen
            seen = len(lines)
            converted.clear()
        # A log that does not extend the last one (an undo, a reload) is read whole.
        fresh = load_game("byzantium").new_initial_state(seed=11)
        wire.sync(fresh, reader)
        lines = fresh.log_messages(reader)
        assert text(wire.wired) == text([core_messages.to_wire(m) for m in lines])
        assert len(converted) == len(lines) and wire.messages == lines
        converted.clear()


def test_the_json_fallback_writes_log_fragments_as_their_json() -> None:
    from porphyra.server import seatclock

    state = load_game("byzantium").new_initial_state(seed=11)
    wire = seatclock.WireLog()
    wire.sync(state, 0)
    lines = wire.wired
    wired = [core_wire(m) for m in state.log_messages(0)]
    # An integer beyond 64 bits makes orjson refuse the message: json writes it instead.
    message = {"n": 2**100, "log_messages": lines}
    expected = json.dumps(
        {"n": 2**100, "log_messages": wired}, separators=(",", ":"), ensure_ascii=False
    )
    assert protocol.dumps(message) == expected


def _merge(held: dict[str, Any] | None, message: dict[str, Any]) -> dict[str, Any]:
    """What a page shows after ``message``: its observation with the log lines it carries
    appended to those held before (an update carries only the lines past the client's)."""
    obs = dict(message["observation"])
    start = message.get("log_start", 0)
    if held is not None and start:
        for key in ("log", "log_messages"):
            obs[key] = held["observation"][key][:start] + obs[key]
    return {
        "observation": obs,
        "legal": message["legal"],
        "can_undo": message["can_undo"],
        "status": message["status"],
    }


@pytest.mark.parametrize(("name", "options"), [("byzantium", {}), ("conspiracy", {"players": 2})])
def test_a_seat_gets_an_update_exactly_when_what_it_sees_changed(
    name: str, options: dict[str, Any]
) -> None:
    """The comparison behind the updates (``SeatViews._shown``: the log by its length, the
    rest as text) sends a seat an update whenever its observation, log, legal actions,
    undo or status changed, and nothing when none did (another seat's hidden choice)."""

    async def play() -> tuple[int, int]:
        hub, runner = await _runner(name, options)
        clients = [Client(0), Client(1)]
        held: dict[int, dict[str, Any]] = {}
        for c in clients:
            runner.attach(c)
            snapshot = json.loads(_drain(c)[0])
            held[c.seat] = _merge(None, snapshot)  # type: ignore[index]
        rng = random.Random(7)
        sent = skipped = 0
        while not runner.over and sent + skipped < 400:
            seat = rng.choice(runner.state.active_players())
            legal = held[seat]["legal"]
            await runner.submit(seat, legal[rng.randrange(len(legal))], runner.seq)
            for c in clients:
                assert c.seat is not None
                now = _merge(None, json.loads(protocol.dumps(runner.view(c.seat, "update"))))
                updates = [m for m in map(json.loads, _drain(c)) if m["type"] == "update"]
                if updates:
                    assert len(updates) == 1
                    held[c.seat] = _merge(held[c.seat], updates[0])
                    sent += 1
                else:
                    skipped += 1
                assert held[c.seat] == now
        await hub.stop()
        return sent, skipped

    sent, skipped = asyncio.run(play())
    assert sent > 20
    if name == "byzantium":  # simultaneous decisions (B-R3): some changes are hidden
        assert skipped > 0
