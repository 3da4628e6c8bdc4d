"""No seat or spectator ever receives another seat's hidden cards.

Complete games of both games (several seeds; human seats driven by the test, some submitting
simultaneous choices early; bot seats played by the server; spectators watching) with every
message recorded.  Then, against the engine replaying the finished record:

- every ``snapshot``/``update`` to seat p at ``seq`` s carries exactly
  ``state_s.observation(p)`` and ``state_s.legal_actions(p)`` (for an early simultaneous
  choice: the seat's legal actions once the engine asks it); a spectator gets exactly
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


def _states(rec: dict[str, Any]) -> list[State]:
    """The state after each prefix of the record: ``states[n]`` after n actions."""
    game = load_game(rec["game"], **rec["options"])
    state = game.new_initial_state(seed=rec["seed"])
    states = [state.clone()]
    for entry in rec["actions"]:
        state.apply_action(game.parse_action(state, entry["action"]))
        states.append(state.clone())
    return states


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


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
            assert msg["observation"] == _plain(state.public_observation())
            assert msg["legal"] == []
        else:
            assert msg["observation"] == _plain(state.observation(seat)), (seat, seq)
            if msg["early"]:
                nxt = states[seq + 1]
                assert rec["actions"][seq]["player"] != seat
                assert nxt.current_player() == seat
                assert msg["legal"] == [str(a) for a in nxt.legal_actions(seat)]
            elif not msg.get("queued"):
                assert msg["legal"] == [str(a) for a in state.legal_actions(seat)]
            names = _card_names(state)
            for slug in _hidden_only(state, seat):
                assert slug not in raw, (slug, seq)
                assert names[slug] not in raw, (names[slug], seq)
        checked += 1
    return checked


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
    states = _states(rec)
    assert states[-1].is_terminal()
    total = 0
    for group in clients.values():
        for client in group:
            total += check_messages(client, states, rec)
            client.close()
    assert total > len(rec["actions"])
    if name == "byzantium":
        # Early choices were really exercised in the human-vs-human games.
        early = [
            m for g in clients.values() for c in g for m in c.messages if m["type"] == "queued"
        ]
        if all(s["kind"] == "human" for s in seats):
            assert early


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
    assert emperor.last["legal"] and not emperor.last["early"]
    assert foe.last["early"] and foe.last["legal"]
    emperor.send({"type": "ping"})
    emperor.recv_until(lambda m: m["type"] == "pong")  # past the presence messages
    seen = len(emperor.messages)
    foe.act(foe.last["legal"][1])
    assert foe.recv_until(lambda m: m["type"] != "presence")["type"] == "queued"
    foe.state_msg()
    emperor.send({"type": "ping"})
    assert emperor.recv()["type"] == "pong"  # nothing arrived before the pong
    assert len(emperor.messages) == seen + 1
    hand_before = Counter(emperor.last["observation"]["hand"])
    emperor.act("redraw -")
    after = emperor.state_msg()
    assert Counter(after["observation"]["hand"]) == hand_before
    final = emperor.state_msg()  # the queued redraw applied at once
    assert final["seq"] == after["seq"] + 1
    assert final["observation"]["phase"] == "meld"
    assert final["observation"]["redrawn"][1] == 1
    for c in (emperor, foe):
        c.close()
