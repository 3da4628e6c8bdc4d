"""Action notation (section 6): texts, round trips, malformed and illegal texts."""

from __future__ import annotations

import pytest

import porphyra
from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.games.conspiracy.notation import action_table, parse
from tests.conspiracy.helpers import act, new

TABLE = action_table(porphyra.load_game("conspiracy").cards)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "text",
    [
        "draw 1",
        "draw 3",
        "keep red4",
        "take green",
        "place blue1",
        "swap 3 7",
        "swap -",
        "locdraw 1",
        "locdraw 2",
        "lockeep l7",
        "loctake count-red",
        "locpick any-keys",
    ],
)
def test_section_6_texts_round_trip(text: str) -> None:
    assert str(parse(TABLE, text)) == text


def test_every_action_of_the_table_round_trips() -> None:
    every = [
        *TABLE.draw[1:],
        *TABLE.locdraw[1:],
        *TABLE.keep,
        *TABLE.place,
        *TABLE.take,
        *TABLE.lockeep,
        *TABLE.loctake,
        *TABLE.locpick,
        TABLE.swap_none,
        *(TABLE.swap[i][j] for i in range(15) for j in range(i + 1, 15)),
    ]
    assert len({str(a) for a in every}) == len(every)
    for action in every:
        assert parse(TABLE, str(action)) == action


def test_whitespace_is_tolerated_and_swap_is_normalised() -> None:
    assert str(parse(TABLE, "  draw   2 ")) == "draw 2"
    assert parse(TABLE, "swap 7 3") == parse(TABLE, "swap 3 7")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("xyzzy", "unknown verb 'xyzzy'"),
        ("swap ² 3", "bad slot"),
        ("swap ٣ ٧", "bad slot"),
        ("draw " + "1" * 500, "too long"),
        ("draw", "takes 1 argument"),
        ("draw 1 2", "takes 1 argument"),
        ("draw 0", "bad count '0'"),
        ("draw 4", "bad count '4'"),
        ("locdraw x", "bad count"),
        ("keep red5", "unknown lord 'red5'"),
        ("place pink1", "unknown lord"),
        ("take pink", "unknown colour 'pink'"),
        ("swap 3", "takes 2 argument"),
        ("swap 0 3", "bad slot '0'"),
        ("swap 3 16", "bad slot '16'"),
        ("swap 3 3", "bad slot"),
        ("swap a b", "bad slot 'a'"),
        ("lockeep l8", "unknown location 'l8'"),
        ("loctake", "takes 1 argument"),
        ("replay", "solo"),
        ("lopile red", "solo"),
        ("loplace red4", "solo"),
    ],
)
def test_malformed_texts_raise_invalid_action_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse(TABLE, text)


def test_well_formed_but_illegal_text_raises_illegal_action() -> None:
    s = new(lords=["red4", "blue1"])
    game = s.game
    for text in ("keep red4", "take red", "swap -", "locdraw 1", "lockeep l7", "place red4"):
        with pytest.raises(IllegalActionError, match="recruit"):
            game.parse_action(s, text)
    act(s, "draw 2")
    with pytest.raises(IllegalActionError, match="keep"):
        game.parse_action(s, "draw 1")


def test_action_repr_and_equality() -> None:
    a = parse(TABLE, "keep red4")
    assert repr(a) == "ConspiracyAction('keep red4')"
    assert a == parse(TABLE, "keep red4") and hash(a) == hash(parse(TABLE, "keep red4"))
    assert a != parse(TABLE, "place red4")


def test_notation_is_case_insensitive_like_byzantium() -> None:
    assert parse(TABLE, "DRAW 1") == parse(TABLE, "draw 1")
    assert parse(TABLE, "Keep RED4") == parse(TABLE, "keep red4")


@pytest.mark.parametrize("value", [None, 5, b"draw 1"])
def test_non_text_raises_invalid_action(value: object) -> None:
    with pytest.raises(InvalidActionError, match="must be text"):
        parse(TABLE, value)  # type: ignore[arg-type]
