"""Reviews cached beside their record: ``game.json`` → ``game.review.json``.

The cache file holds ``{"format": "porphyra-review-cache", "reviews": {key: review}}``,
one review per seat and settings; ``key`` names the seat, the settings, the review version
and the bots' version (the search judges the moves: :mod:`porphyra.bots.version`), and
each review carries the digest of the record it was computed from
(:func:`~porphyra.review.engine.record_digest`), so a review of an edited record, of other
settings or of an older version is never read back; writing the file drops the reviews of
other versions, which nothing reads again.  A cache that cannot be read (not JSON, wrong
shape) is ignored with a notice and rewritten.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from porphyra.bots.version import BOTS_VERSION
from porphyra.core.messages import Message
from porphyra.i18n import N_
from porphyra.review.engine import (
    REVIEW_VERSION,
    THRESHOLDS,
    Progress,
    ReviewSettings,
    record_digest,
    review_record,
)

CACHE_FORMAT = "porphyra-review-cache"

#: ``notice(message)``: a note for the person (e.g. a corrupt cache was ignored).
Notice = Callable[[Message], None]


def cache_path(record_path: str | Path) -> Path:
    """Where the reviews of the record at ``record_path`` are cached (``X.json`` →
    ``X.review.json``; another name gets ``.review.json`` appended)."""
    path = Path(record_path)
    if path.suffix == ".json":
        return path.with_suffix(".review.json")
    return path.with_name(path.name + ".review.json")


#: The start of every key of this review version and bots version.
KEY_PREFIX = f"v{REVIEW_VERSION}:bots={BOTS_VERSION}:"


def cache_key(seat: int, settings: ReviewSettings) -> str:
    """The key of one review in a cache file (review and bots versions, seat, budget,
    seed): ``v2:bots=1:seat=0:iterations=400:seed=0``."""
    return f"{KEY_PREFIX}seat={seat}:iterations={settings.iterations}:seed={settings.seed}"


def read_cache(path: Path, notice: Notice | None = None) -> dict[str, Any]:
    """The reviews in the cache file ``path`` by key; ``{}`` when there is none, or when it
    cannot be read (then ``notice`` gets a message naming the file and why)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        _tell(
            notice,
            N_("The review cache {0} cannot be read ({1}); reviewing again."),
            str(path),
            type(exc).__name__,
        )
        return {}
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        _tell(notice, N_("The review cache {0} is not valid JSON; reviewing again."), str(path))
        return {}
    if (
        not isinstance(data, dict)
        or data.get("format") != CACHE_FORMAT
        or not isinstance(data.get("reviews"), dict)
    ):
        _tell(notice, N_("The review cache {0} is not a review cache; reviewing again."), str(path))
        return {}
    reviews: dict[str, Any] = data["reviews"]
    return reviews


def _tell(notice: Notice | None, template: str, *args: str) -> None:
    """Hand ``notice`` the message ``template`` (an interface text, translated at the
    edge) with ``args``."""
    if notice is not None:
        notice(Message(template, args))


def cached_review(
    record: dict[str, Any],
    record_path: str | Path,
    seat: int,
    settings: ReviewSettings | None = None,
    progress: Progress | None = None,
    notice: Notice | None = None,
) -> tuple[dict[str, Any], bool]:
    """The review of ``seat`` in ``record`` (read from ``record_path``), from the cache
    beside it when it holds one for the same record and settings, else computed and
    stored there.

    Returns:
        ``(review, from_cache)``.

    Raises:
        RecordError: the record does not replay or ``seat`` is not one of its seats.
    """
    settings = settings or ReviewSettings()
    path = cache_path(record_path)
    reviews = read_cache(path, notice)
    key = cache_key(seat, settings)
    hit = reviews.get(key)
    if (
        isinstance(hit, dict)
        and hit.get("version") == REVIEW_VERSION
        and hit.get("bots_version") == BOTS_VERSION
        and hit.get("record") == record_digest(record)
        and well_formed(hit)
    ):
        return hit, True
    review = review_record(record, seat, settings, progress)
    # Reviews of other versions are never read again: keep the file to what can be.
    reviews = {k: r for k, r in reviews.items() if k.startswith(KEY_PREFIX)}
    reviews[key] = review
    try:
        _write_atomic(path, {"format": CACHE_FORMAT, "reviews": reviews})
    except OSError as exc:
        _tell(
            notice, N_("The review could not be saved to {0} ({1})."), str(path), type(exc).__name__
        )
    return review, False


def well_formed(review: dict[str, Any]) -> bool:
    """Whether ``review`` (read back from a cache) has every field a reader shows, of the
    right type: ``seat``, ``result`` (a number or None), each decision's ``move``,
    ``before``, ``after``, ``cost``, ``chosen``, ``best`` and ``mark`` (one of
    :data:`~porphyra.review.engine.THRESHOLDS`' names or None), and each moment's ``move``,
    ``kind``, ``from`` and ``to``.  A damaged entry is reviewed again, not shown."""
    marks = (None, *(name for name, _ in THRESHOLDS))
    decisions, moments = review.get("decisions"), review.get("moments")
    if not (
        isinstance(decisions, list)
        and isinstance(moments, list)
        and _integer(review.get("seat"))
        and (review.get("result") is None or _number(review.get("result")))
    ):
        return False
    return all(
        isinstance(d, dict)
        and _integer(d.get("move"))
        and all(_number(d.get(k)) for k in ("before", "after", "cost"))
        and isinstance(d.get("chosen"), str)
        and isinstance(d.get("best"), str)
        and d.get("mark") in marks
        for d in decisions
    ) and all(
        isinstance(m, dict)
        and _integer(m.get("move"))
        and m.get("kind") in ("own", "between")
        and _number(m.get("from"))
        and _number(m.get("to"))
        for m in moments
    )


def _integer(value: Any) -> bool:
    """A JSON integer (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    """A finite JSON number (not a boolean)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _write_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON to ``path`` through a temporary file (never half-written)."""
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1, sort_keys=True)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
