"""The account tests' helpers: sign someone up on a test client, and read which accounts
hold a table's seats in the database."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from porphyra.server.schema import seats_table
from porphyra.server.sessions import COOKIE

#: The password of the tests' accounts (long enough for the rules).
PASSWORD = "correct horse battery"

#: Settings that turn the sign-in and sign-up limits off (tests of other things sign in a lot).
NO_SIGNIN_LIMITS: dict[str, Any] = {
    "signin_limit": None,
    "signin_name_limit": None,
    "signup_limit": None,
}
#: ... and the open tables' limits too.
NO_LIMITS: dict[str, Any] = {**NO_SIGNIN_LIMITS, "open_table_limit": None, "take_seat_limit": None}


def account(c: TestClient, name: str) -> dict[str, str]:
    """Sign ``name`` up; the headers that send its session (one client, several people)."""
    c.cookies.clear()
    r = c.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    c.cookies.clear()
    return {"cookie": f"{COOKIE}={r.cookies[COOKIE]}"}


def seat_accounts(db_url: str, game_id: str) -> list[int | None]:
    """The account id on each seat of ``game_id`` (None: a guest), in seat order."""
    engine = create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                select(seats_table.c.account_id)
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
    finally:
        engine.dispose()
    return [r[0] for r in rows]


def at_once(requests: list[Callable[[], int]]) -> list[int]:
    """Run ``requests`` (each returns an HTTP status) in threads released together; their
    statuses, sorted (for races: two takes of one seat, two sign-ups of one name)."""
    barrier = threading.Barrier(len(requests))
    answers: list[int] = []

    def go(request: Callable[[], int]) -> None:
        barrier.wait()
        answers.append(request())

    threads = [threading.Thread(target=go, args=(r,)) for r in requests]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(answers)
