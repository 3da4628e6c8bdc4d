"""No seat or spectator ever receives another seat's hidden cards.

Complete games of both games (several seeds; human seats driven by the test, some submitting
simultaneous choices early; bot seats played by the server; spectators watching) with every
message recorded.  Then, against the engine replaying the finished record:

- every ``snapshot``/``update`` to seat p at ``seq`` s carries exactly
  ``state_s.observation(p)`` and ``state_s.legal_actions(p)`` (``state_s``: the actions in
  the order the server applied them); a spectator gets exactly
  ``state_s.public_observation()`` and no legal actions;
- directly: no message to p contains the slug of a card that lies in the other hand at that
  point and appears nowhere in p's observation, and no message contains the seed;
- a seat's early choice sends nothing to the other seat.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from porphyra.core.game import State
from porphyra.core.messages import to_wire
from porphyra.core.registry import load_game
from porphyra.server.gamedata import solo_supported

from .driver import play_out, record_of
from .live import LiveServer, SeatClient, connect_seats

GAMES: list[tuple[str, dict[str, Any], list[dict[str, Any]], int]] = [
    ("byzantium", {}, [{"kind": "human"}, {"kind": "human"}], 1),
    ("byzantium", {"first_emperor": 1}, [{"kind": "human"}, {"kind": "human"}], 2),
    (
        "byzantium",
        {"reveal_first_draws": True},
        [{"kind": "human"}, {"kind": "bot", "bot": "easy"}],
        3,
    ),
    ("byzantium", {}, [{"kind": "bot", "bot": "random"}, {"kind": "human"}], 4),
    ("conspiracy", {"players": 2}, [{"kind": "human"}, {"kind": "human"}], 5),
    (
        "conspiracy",
        {"players": 3, "bonus_locations": True},
        [{"kind": "human"}, {"kind": "bot", "bot": "easy"}, {"kind": "human"}],
        6,
    ),
    (
        "conspiracy",
        {"players": 4},
        [
            {"kind": "bot", "bot": "random"},
            {"kind": "human"},
            {"kind": "bot", "bot": "easy"},
            {"kind": "human"},
        ],
        7,
    ),
]


if solo_supported():
    GAMES.append(("conspiracy", {"players": 1, "opponent": "mage"}, [{"kind": "human"}], 8))
    GAMES.append(("conspiracy", {"players": 1, "opponent": "military"}, [{"kind": "human"}], 9))


def _arrivals(rec: dict[str, Any], clients: list[SeatClient]) -> list[tuple[int, str]]:
    """The actions in the order the server applied them: the record keeps a simultaneous
    decision in canonical order (B-R3), so a human's choice is placed at the seq its echo
    (``last``) came with; the bots' actions (always the canonical seat's) fill the rest in
    record order."""
    by_seq: dict[int, tuple[int, str]] = {}
    for client in clients:
        for msg in client.messages:
            if msg["type"] == "update" and "last" in msg and client.seat is not None:
                by_seq[msg["seq"]] = (client.seat, msg["last"])
    rest = Counter(by_seq.values())
    bots = []
    for entry in rec["actions"]:
        key = (entry["player"], entry["action"])
        if rest[key]:
            rest[key] -= 1
        else:
            bots.append(key)
    bots.reverse()
    return [by_seq[s] if s in by_seq else bots.pop() for s in range(1, len(rec["actions"]) + 1)]


def _states(rec: dict[str, Any], clients: list[SeatClient]) -> list[State]:
    """The state at each seq: ``states[n]`` after the first n actions applied."""
    game = load_game(rec["game"], **rec["options"])
    state = game.new_initial_state(seed=rec["seed"])
    states = [state.clone()]
    for seat, text in _arrivals(rec, clients):
        state.apply_action(game.parse_action(state, text, seat), seat)
        states.append(state.clone())
    assert state.history == _replayed(rec).history
    return states


def _replayed(rec: dict[str, Any]) -> State:
    from porphyra import record as records

    return records.replay(rec)


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _with_messages(obs: dict[str, Any], state: State, seat: int | None) -> Any:
    """``obs`` as a client gets it: with its log as messages (exactly those of that
    reader's ``state.log_messages``, nothing more)."""
    return _plain({**obs, "log_messages": [to_wire(m) for m in state.log_messages(seat)]})


def _hidden_only(state: State, seat: int) -> set[str]:
    """Byzantium: slugs in the other hand (or its pending choice) that appear nowhere in
    ``seat``'s observation."""
    if state.game.info.name != "byzantium":
        return set()
    other = 1 - seat
    obs_text = json.dumps(state.observation(seat))
    cards = state.game.cardset.cards  # type: ignore[attr-defined]
    hand = [cards[k].slug for k in state.hands[other]]  # type: ignore[attr-defined]
    pending = state.pending[other] or ()  # type: ignore[attr-defined]
    hidden = set(hand) | {cards[k].slug for k in pending}
    names = {c.slug: c.name for c in cards}
    return {slug for slug in hidden if slug not in obs_text and names[slug] not in obs_text}


def _card_names(state: State) -> dict[str, str]:
    if state.game.info.name != "byzantium":
        return {}
    return {c.slug: c.name for c in state.game.cards()}  # type: ignore[attr-defined]


def check_messages(client: SeatClient, states: list[State], rec: dict[str, Any]) -> int:
    """Check every message ``client`` got; the number of state messages checked."""
    checked = 0
    for raw, msg in zip(client.raw, client.messages, strict=True):
        assert '"seed"' not in raw
        if msg["type"] not in ("snapshot", "update"):
            continue
        seq = msg["seq"]
        state = states[seq]
        seat = client.seat
        if seat is None:
            assert msg["observation"] == _with_messages(state.public_observation(), state, None)
            assert msg["legal"] == []
        else:
            expected = _with_messages(state.observation(seat), state, seat)
            assert msg["observation"] == expected, (seat, seq)
            assert msg["legal"] == [str(a) for a in state.legal_actions(seat)]
            names = _card_names(state)
            for slug in _hidden_only(state, seat):
                assert slug not in raw, (slug, seq)
                assert names[slug] not in raw, (names[slug], seq)
        checked += 1
    return checked


@pytest.mark.live
@pytest.mark.parametrize(("name", "options", "seats", "seed"), GAMES)
def test_no_message_leaks_hidden_cards(
    server: LiveServer,
    name: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    seed: int,
) -> None:
    info = server.create({"game": name, "options": options, "seats": seats, "seed": seed})
    clients = connect_seats(server, info, spectators=1)
    play_out(clients, random.Random(seed))
    rec = record_of(server, info["id"])
    states = _states(rec, [c for group in clients.values() for c in group])
    assert states[-1].is_terminal()
    total = 0
    for group in clients.values():
        for client in group:
            total += check_messages(client, states, rec)
            client.close()
    assert total > len(rec["actions"])
    if name == "byzantium" and all(s["kind"] == "human" for s in seats):
        # Foe-first choices were really exercised in the human-vs-human games (the record
        # keeps the canonical order, so they arrived out of step with it).
        arrived = _arrivals(rec, [c for group in clients.values() for c in group])
        assert arrived != [(a["player"], a["action"]) for a in rec["actions"]]


@pytest.mark.live
def test_early_choice_sends_nothing_to_the_other_seat(server: LiveServer) -> None:
    info = server.create(
        {
            "game": "byzantium",
            "options": {"first_emperor": 0},
            "seats": [{"kind": "human"}] * 2,
            "seed": 9,
        }
    )
    clients = connect_seats(server, info)
    emperor, foe = clients[0][0], clients[1][0]
    assert emperor.last["legal"] and foe.last["legal"]
    emperor.send({"type": "ping"})
    emperor.recv_until(lambda m: m["type"] == "pong")  # past the presence messages
    seen = len(emperor.messages)
    foe.act(foe.last["legal"][1])
    foe.recv_until(lambda m: m["type"] == "update" and "last" in m)
    emperor.send({"type": "ping"})
    assert emperor.recv()["type"] == "pong"  # nothing arrived before the pong
    assert len(emperor.messages) == seen + 1
    hand_before = Counter(emperor.last["observation"]["hand"])
    seq = emperor.last["seq"]
    emperor.act("redraw -")  # its seq is older than the game's now, yet still fresh
    final = emperor.state_msg()  # both redraws resolve at once
    assert final["seq"] == seq + 2
    assert Counter(final["observation"]["hand"]) == hand_before
    assert final["observation"]["phase"] == "meld"
    assert final["observation"]["redrawn"][1] == 1
    for c in (emperor, foe):
        c.close()
