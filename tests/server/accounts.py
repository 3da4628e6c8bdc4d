"""The account tests' helpers: sign someone up on a test client, and read which accounts
hold a table's seats in the database."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select

from porphyra.server.schema import seats_table
from porphyra.server.sessions import COOKIE

#: The password of the tests' accounts (long enough for the rules).
PASSWORD = "correct horse battery"


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
