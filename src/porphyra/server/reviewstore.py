"""Finished game reviews kept in the database, with the game (issue 31 §2: "cached with the
record").

A review is keyed by what was reviewed: the record's digest, the seat and the review
settings (:meth:`porphyra.server.routes.review.Reviews.key`), so a stored review is the
review of exactly that record, and a change of settings makes a new one.  A review is
computed once per key whatever the restarts; several server processes sharing the
database (cluster mode) share the reviews too: when two finish the same review, the
first stored is kept (both are the same, the search being seeded).

Rows are read defensively: a damaged row (not JSON, not an object, or a review missing a
field the page shows: :func:`porphyra.review.cache.well_formed`) is reported in the log
and treated as absent, so the review is computed again instead of failing the
request.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from porphyra.review.cache import well_formed
from porphyra.server.schema import reviews_table
from porphyra.server.storage import Storage

log = logging.getLogger("porphyra.server")


def save_review(
    storage: Storage, key: str, game_id: str, seat: int, review: dict[str, Any]
) -> None:
    """Store ``review`` (a finished review, JSON-ready) of ``seat`` of ``game_id`` under
    ``key``; a review already stored under ``key`` is kept, unless its row is damaged
    (then this one replaces it).  The seat's reviews under other keys (other review or
    bots versions, other settings: never read again) are deleted.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed (not for a key already there).
    """
    row = {
        "key": key,
        "game_id": game_id,
        "seat": seat,
        "review": json.dumps(review, ensure_ascii=False, separators=(",", ":")),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    with storage._lock:
        with storage.engine.begin() as conn:
            conn.execute(
                delete(reviews_table).where(
                    reviews_table.c.game_id == game_id,
                    reviews_table.c.seat == seat,
                    reviews_table.c.key != key,
                )
            )
        try:
            with storage.engine.begin() as conn:
                conn.execute(insert(reviews_table).values(**row))
        except IntegrityError:  # stored already (by another process, or damaged)
            if _stored(storage, key) is not None:
                return
            with storage.engine.begin() as conn:
                conn.execute(
                    update(reviews_table)
                    .where(reviews_table.c.key == key)
                    .values(review=row["review"], created=row["created"])
                )


def load_review(storage: Storage, key: str) -> dict[str, Any] | None:
    """The review stored under ``key``, or None (none stored, or a damaged row: logged).

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database failed.
    """
    with storage._lock:
        return _stored(storage, key)


def _stored(storage: Storage, key: str) -> dict[str, Any] | None:
    """:func:`load_review` with the storage's lock held."""
    with storage.engine.connect() as conn:
        text = conn.execute(
            select(reviews_table.c.review).where(reviews_table.c.key == key)
        ).scalar()
    if text is None:
        return None
    try:
        review = json.loads(text)
    except (TypeError, ValueError):
        review = None
    if not isinstance(review, dict) or not well_formed(review):
        log.warning("stored review %s is damaged; it will be computed again", key[:16])
        return None
    return review
