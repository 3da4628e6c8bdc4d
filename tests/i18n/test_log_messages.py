"""The games' log as message ids plus arguments (issue 29 section 4): each engine gives
every reader's log as messages (``State.log_messages``) whose English text is exactly the
log line that records keep, whose ids are the catalogue's ``log`` templates, and which the
edges render in Japanese and Korean from the id and arguments, never from the English
text."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from porphyra.core.messages import Joined, Message, Named, Term, from_wire, to_wire
from porphyra.core.registry import load_game
from porphyra.i18n import has
from porphyra.i18n.log import translate_line
from porphyra.i18n.messages import render
from porphyra.i18n.names import name_ids
from tests.i18n.test_log import CONFIGS


def _ids(message: Message) -> set[str]:
    """The ids of ``message`` and of every message nested in its arguments."""
    found = {message.msgid}
    pending: list[Any] = list(message.args)
    while pending:
        arg = pending.pop()
        if isinstance(arg, Message):
            found.add(arg.msgid)
            pending.extend(arg.args)
        elif isinstance(arg, Joined):
            pending.extend(arg.items)
    return found


def _played(name: str, options: dict[str, Any], seed: int) -> Any:
    game = load_game(name, **options)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = rng.choice(state.active_players())
        legal = state.legal_actions(seat)
        state.apply_action(legal[rng.randrange(len(legal))], seat)
    return game, state


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_every_readers_log_as_messages_says_what_its_lines_say(
    name: str, options: dict[str, Any]
) -> None:
    """For every seat and a spectator: one message per line, ``str()`` the line (nothing
    hidden is added or lost), every id catalogued, and each rendering in Japanese and
    Korean the catalogue's translation of its line; in English its ids are named."""
    ids: set[str] = set()
    for seed in range(3):
        game, state = _played(name, options, seed)
        for reader in [None, *range(game.num_players)]:
            obs = state.public_observation() if reader is None else state.observation(reader)
            messages = state.log_messages(reader)
            assert [str(m) for m in messages] == obs["log"]
            for message, line in zip(messages, obs["log"], strict=True):
                ids |= _ids(message)
                assert render(message, "en", "log") == name_ids(line, "en")
                for lang in ("ja", "ko"):
                    assert render(message, lang, "log") == translate_line(line, lang)
    assert len(ids) > 10
    for lang in ("ja", "ko"):
        assert sorted(i for i in ids if not has(lang, "log", i)) == []


def test_the_wire_form_round_trips_through_json() -> None:
    message = Message(
        "{0} keeps {1}; to the piles: {2}",
        (
            Message("seat {0}", (1,)),
            Named("red4"),
            Joined(", ", (Named("blue1"), Term("Archers", "'archers'"), 3)),
        ),
    )
    wire = json.loads(json.dumps(to_wire(message)))
    assert wire["args"][1] == {"name": "red4"}
    assert from_wire(wire) == message
    with pytest.raises(ValueError):
        from_wire({"id": "x", "args": [True]})
    with pytest.raises(ValueError):
        from_wire({"args": []})


def test_an_argument_holding_a_templates_words_is_not_garbled() -> None:
    """Matching English text reads an argument that holds a template's words as part of
    the template; a message keeps its argument whole (here a seat's chosen name)."""
    line = Message("{0} keeps {1}", ("Bob keeps red1", Named("red4")))
    assert str(line) == "Bob keeps red1 keeps red4"
    assert render(line, "ja", "log") == "Bob keeps red1が赤4を雇う"
    assert translate_line(str(line), "ja") != render(line, "ja", "log")


def test_a_seat_sees_only_its_own_private_log_messages() -> None:
    """Byzantium's private lines (``You drew: ...``) reach only their seat's messages."""
    _game, state = _played("byzantium", {}, 1)
    for seat in (0, 1):
        own = {str(m) for m in state.log_messages(seat) if m.msgid == "You drew: {0}."}
        public = [m for m in state.log_messages(None) if m.msgid == "You drew: {0}."]
        assert own and public == []
        other = {str(m) for m in state.log_messages(1 - seat) if m.msgid == "You drew: {0}."}
        assert [str(m) for m in state.log_messages(seat)] == state.observation(seat)["log"]
        assert own != other
