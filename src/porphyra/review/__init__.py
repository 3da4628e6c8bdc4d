"""Game reviews: a seat's estimated chance to win before and after each of its decisions,
from that seat's own view only (:mod:`porphyra.review.engine`), cached beside the record
(:mod:`porphyra.review.cache`).  See ``docs/review.md``.
"""

from porphyra.review.cache import cache_path, cached_review
from porphyra.review.engine import (
    DEFAULT_ITERATIONS,
    REVIEW_VERSION,
    THRESHOLDS,
    ReviewSettings,
    default_seat,
    mark_for,
    review_record,
)

__all__ = [
    "DEFAULT_ITERATIONS",
    "REVIEW_VERSION",
    "THRESHOLDS",
    "ReviewSettings",
    "cache_path",
    "cached_review",
    "default_seat",
    "mark_for",
    "review_record",
]
