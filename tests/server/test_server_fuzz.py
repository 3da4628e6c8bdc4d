"""Issue 13, item 9: every malformed websocket message gets the protocol's error reply.

Generated messages (hypothesis) go through the parser, which returns a message or raises
:class:`ProtocolError`, nothing else; then a stream of generated messages goes to a live
server, where each gets exactly one reply and the connection stays open.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from porphyra.server import protocol

from .live import LiveServer, SeatClient

#: Generated messages per run (the counts reported in issue 13's closing note).
PARSER_EXAMPLES = 1500
LIVE_MESSAGES = 400

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=50),
)
_json = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
_objects = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["act", "undo", "ping", "snapshot", "dance", ""]) | _scalars,
        "seq": _scalars,
        "action": _scalars,
    },
)


def _text_of(value: Any) -> str:
    return json.dumps(value, allow_nan=True)


@settings(max_examples=PARSER_EXAMPLES, deadline=None)
@given(
    st.one_of(
        _objects.map(_text_of),
        _json.map(_text_of),
        st.text(max_size=200),
        st.binary(max_size=200),
        st.integers(min_value=4000, max_value=20000).map(
            lambda n: '{"type": "act", "action": "x", "seq": ' + "7" * n + "}"
        ),
    )
)
def test_the_parser_answers_every_message_or_raises_protocol_error(raw: str | bytes) -> None:
    try:
        msg = protocol.parse_client_message(raw)
    except protocol.ProtocolError as exc:
        assert str(exc)
        return
    assert msg.type in ("act", "undo", "ping", "snapshot")
    if msg.type in ("act", "undo"):
        assert isinstance(msg.seq, int) and abs(msg.seq) <= protocol.MAX_SEQ


def _garbage(rng: random.Random) -> str | bytes:
    choice = rng.randrange(6)
    if choice == 0:
        return '{"type": "act", "action": "draw 1", "seq": ' + "8" * rng.randrange(4300, 9000) + "}"
    if choice == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
    if choice == 2:
        return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(1, 200)))
    if choice == 3:
        depth = rng.randrange(1, 3000)
        return "[" * depth + "]" * depth
    if choice == 4:
        return json.dumps(
            {"type": rng.choice(["act", "undo"]), "seq": rng.choice([None, "1", 1.5, [], {}])}
        )
    return json.dumps(
        {"type": "act", "seq": 0, "action": rng.choice([7, None, "", " ", "x" * 1001])}
    )


@pytest.mark.live
def test_every_malformed_message_on_a_live_socket_gets_one_error_reply(server: LiveServer) -> None:
    info = server.create({"game": "conspiracy", "seats": [{"kind": "human"}] * 2})
    me = SeatClient(server, info["id"], info["invites"][0]["token"], 0)
    me.recv_until(lambda m: m["type"] == "snapshot")
    rng = random.Random(13)
    for i in range(LIVE_MESSAGES):
        me.send(_garbage(rng))
        reply = me.recv_until(lambda m: m["type"] != "presence")
        assert reply["type"] == "error" and reply["code"] == "malformed", (i, reply)
    me.send({"type": "ping"})
    assert me.recv_until(lambda m: m["type"] != "presence")["type"] == "pong"
    assert server.get(f"/api/games/{info['id']}").json()["actions"] == 0
    me.close()
