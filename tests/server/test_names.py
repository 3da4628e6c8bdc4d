"""Issue 32 §1: names people read: skeletons of look-alike names, user-name rules, and seat
names that would read as another seat (full width, Cyrillic, circled digits)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from porphyra.server.app import create_app
from porphyra.server.names import (
    MAX_USER_NAME,
    NameRefused,
    looks_like_seat,
    skeleton,
    user_name,
)

#: Names that read as "Seat 2" although written otherwise (issue 32's examples and more).
SEAT_TWINS = (
    "Ｓｅａｔ 2",
    "Seаt 2",
    "Seat②",
    "SEAT 2",
    "Seat ２",
    "Seat 𝟐",
    "ѕeat 2",
    "Pl\u0430yer 1",
)


def test_skeletons_fold_case_width_and_look_alikes() -> None:
    assert skeleton("Alice") == skeleton("ALICE") == skeleton("Ａｌｉｃｅ") == skeleton("Аlice")
    assert skeleton("bob_smith") == skeleton("Bob Smith") == skeleton("bob.smith")
    assert skeleton("Bob1") == skeleton("bobl") and skeleton("rnary") == skeleton("mary")
    assert skeleton("Alice") != skeleton("Alicia")
    assert skeleton("さくら") != skeleton("さくま")  # other scripts stay themselves


@pytest.mark.parametrize("name", (*SEAT_TWINS, "Seat 2", "席 2", "좌석 2", "観戦者", "Spectator"))
def test_seat_like_names_are_recognised(name: str) -> None:
    assert looks_like_seat(name)


@pytest.mark.parametrize("name", ["Seattle 2", "Alice", "Seat", "2 seats", "席"])
def test_other_names_are_not_seats(name: str) -> None:
    assert not looks_like_seat(name)


def test_user_names_are_normalised() -> None:
    assert user_name("  Ｃａｒｏｌ   Ann ") == ("Carol Ann", "carolann")
    assert user_name("さくら")[0] == "さくら"
    assert user_name("x" * MAX_USER_NAME)[0] == "x" * MAX_USER_NAME


@pytest.mark.parametrize(
    "raw",
    [
        "",
        "  ",
        "ab",
        "x" * (MAX_USER_NAME + 1),
        "a\u200bb c",
        "bob<script>",
        "___",
        "admin",
        "Hard bot 1",
        "Seat②",
        "ab\u3164c",  # a Hangul filler shows nothing
        "Robert'); DROP TABLE accounts;--",
    ],
)
def test_bad_user_names_are_refused(raw: str) -> None:
    with pytest.raises(NameRefused):
        user_name(raw)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(db_url="sqlite://", bot_workers=0)) as c:
        yield c


@pytest.mark.parametrize("name", SEAT_TWINS)
def test_seat_names_that_read_as_another_seat_are_refused(client: TestClient, name: str) -> None:
    seats = [{"kind": "human", "name": name}, {"kind": "human"}]
    r = client.post("/api/games", json={"game": "byzantium", "seats": seats})
    assert r.status_code == 422, r.text
    assert "seat number" in r.json()["message"]


def test_ordinary_seat_names_still_pass(client: TestClient) -> None:
    seats = [{"kind": "human", "name": "Seattle"}, {"kind": "human", "name": "Алиса"}]
    r = client.post("/api/games", json={"game": "byzantium", "seats": seats})
    assert r.status_code == 201, r.text
