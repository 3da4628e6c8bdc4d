"""The statements that store actions (:meth:`Storage.append_actions`), and the fence of a
cluster server's writes: each write first renews the writer's lease of its games, and
fails with :class:`NotOwnerError` for a game another server holds (see
:mod:`porphyra.server.owners`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import JSON, bindparam, text


class NotOwnerError(RuntimeError):
    """A write for games this server no longer owns (another server took them over): the
    transaction was rolled back.  ``game_ids``: those games."""

    def __init__(self, game_ids: Sequence[str]) -> None:
        super().__init__(f"not the owner of game {', '.join(game_ids)} any more")
        self.game_ids = list(game_ids)


#: ``(server id, lease until)``: a write that renews the writer's leases of its games and
#: fails with :class:`NotOwnerError` for a game whose lease another server holds.
Fence = tuple[str, float]


#: The statements of :meth:`Storage.append_actions` (named parameters), as SQL text for a
#: DBAPI cursor and as SQLAlchemy ``text()`` (``r``, the result, is JSON).
SQL = {
    "insert": "INSERT INTO actions (game_id, idx, player, action) VALUES (:g, :i, :p, :a)",
    "update": (
        "UPDATE games SET seq = :seq, status = :st, result = :r, updated = :u, clock = :c "
        "WHERE id = :g"
    ),
    "delete": "DELETE FROM actions WHERE game_id = :g AND idx >= :i",
    # (the fence: run first, one game at a time, in the write's own transaction)
    "own": "UPDATE owners SET lease_until = :t WHERE game_id = :g AND server_id = :s",
}
STATEMENTS = {
    "insert": text(SQL["insert"]),
    "update": text(SQL["update"]).bindparams(bindparam("r", type_=JSON)),
    "delete": text(SQL["delete"]),
    "own": text(SQL["own"]),
}


def json_text(value: Any) -> str:
    """``value`` as the JSON text SQLAlchemy's JSON type stores (``"null"`` for None, the
    result of every move but a game's last, without the encoder's cost)."""
    return "null" if value is None else json.dumps(value)


def append_steps(
    batch: list[dict[str, Any]], stamp: str, fence: Fence | None = None
) -> list[tuple[str, list[dict[str, Any]]]]:
    """The statements storing ``batch`` (entries of :meth:`Storage.append_actions`) in
    order: ``[(name in SQL, [parameters])]``: with a ``fence``, first the lease renewal
    of each game (``own``, whose every row must change), then inserts of the actions (a
    game's stored suffix deleted first where an entry replaces it), then one update per
    game."""
    latest: dict[str, dict[str, Any]] = {}
    for a in batch:
        latest[a["game_id"]] = a  # the last entry of a game gives its bookkeeping
    steps: list[tuple[str, list[dict[str, Any]]]] = []
    if fence is not None:
        steps.append(("own", [{"g": g, "s": fence[0], "t": fence[1]} for g in latest]))
    rows: list[dict[str, Any]] = []
    for a in batch:
        if a.get("replace"):
            if rows:  # keep the order: earlier rows first, then the delete
                steps.append(("insert", rows))
                rows = []
            steps.append(("delete", [{"g": a["game_id"], "i": a["index"]}]))
        rows.extend(
            {"g": a["game_id"], "i": a["index"] + n, "p": p, "a": t}
            for n, (p, t) in enumerate(a["actions"])
        )
    if rows:
        steps.append(("insert", rows))
    updates = [
        {
            "g": g,
            "seq": a["seq"],
            "st": a["status"],
            "r": a["result"],
            "u": stamp,
            "c": a.get("clock"),
        }
        for g, a in latest.items()
    ]
    steps.append(("update", updates))
    return steps


def fence_one(conn: Any, game_id: str, fence: Fence | None) -> None:
    """In ``conn``'s transaction: with a ``fence``, renew the writer's lease of ``game_id``
    or raise :class:`NotOwnerError` (no fence: nothing)."""
    if fence is not None:
        fence_conn(conn, [{"g": game_id, "s": fence[0], "t": fence[1]}])


def fence_conn(conn: Any, params: list[dict[str, Any]]) -> None:
    """:func:`fence_rows` on an SQLAlchemy connection ``conn``."""
    fence_rows(params, lambda p: conn.execute(STATEMENTS["own"], p).rowcount)


def fence_rows(params: list[dict[str, Any]], run: Callable[[dict[str, Any]], int]) -> None:
    """Run the ``own`` statement once per game of ``params`` with ``run(parameters) ->
    rows changed``; raise :class:`NotOwnerError` naming every game whose lease row did not
    change (another server owns it: the caller's transaction is rolled back)."""
    lost = [p["g"] for p in params if run(p) != 1]
    if lost:
        raise NotOwnerError(lost)
