"""The review's win chances, calibrated: the search's raw estimate mapped to the win rate
observed at that estimate (issue 31 §2).

A game may have a **calibration map**: the points ``(mean raw estimate, observed win rate)``
of a calibration run's ten bins (``bench/review_calibration.py``), with ``(0, 0)`` and
``(1, 1)`` at the ends, joined by straight lines.  The map is increasing (checked when it
is loaded), so it keeps the order of moves: the search's preferred move stays the one with
the highest chance, and a move's cost, the drop between two calibrated chances, is never
negative when the raw drop is not.

**No game ships a map today.**  The 1,000-game runs showed the search overconfident from
50% up, but the maps fitted on them made fresh games' estimates worse (Byzantium's expected
calibration error from 0.020 to 0.043 on 400 fresh games, Conspiracy's from 0.049 to 0.063
on 300; ``docs/review.md``, "A correction, tried on fresh games"): a map is shipped only once
it holds on games it was not fitted on.

The maps live in ``data/calibration.json``, written from the measurement's own output by
``bench/review_calibration.py --write-map`` (its source, games and seeds are recorded
beside each map).  A game without a map keeps the raw estimate.  A maps file that cannot be
loaded (missing, not JSON, a bad map) raises :class:`CalibrationError`, a refusal people
read in their language, never a raw exception; nothing is reviewed with it.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import json
import math
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from porphyra.core.errors import PorphyraError
from porphyra.core.messages import msg

#: The maps' file, in this package.
MAP_FILE = "data/calibration.json"


class CalibrationError(PorphyraError, ValueError):
    """The review's calibration maps cannot be loaded (file missing or unreadable, not
    JSON, or a map that is not an increasing map of [0, 1]); the message names the file,
    the cause is chained."""


class CalibrationMap:
    """A piecewise-linear, increasing map of [0, 1] onto [0, 1].

    Args:
        points: ``(raw, calibrated)`` pairs, both in [0, 1]; ``(0, 0)`` and ``(1, 1)`` are
            added when missing.

    Raises:
        ValueError: a value outside [0, 1], or the points are not strictly increasing in
            both coordinates (the map must keep the order of estimates).
    """

    def __init__(self, points: list[tuple[float, float]]) -> None:
        knots = sorted((float(x), float(y)) for x, y in points)
        if not knots or knots[0][0] > 0.0:
            knots.insert(0, (0.0, 0.0))
        if knots[-1][0] < 1.0:
            knots.append((1.0, 1.0))
        for x, y in knots:
            if not (0.0 <= x <= 1.0 and 0.0 <= y <= 1.0):
                raise ValueError(f"calibration point ({x}, {y}) is outside [0, 1]")
        for (x0, y0), (x1, y1) in itertools.pairwise(knots):
            if not (x1 > x0 and y1 > y0):
                raise ValueError(
                    f"calibration points must increase: ({x0}, {y0}) then ({x1}, {y1})"
                )
        self.xs = [x for x, _ in knots]
        self.ys = [y for _, y in knots]

    def __call__(self, raw: float) -> float:
        """The calibrated chance of the raw estimate ``raw`` (clamped to [0, 1]).

        Raises:
            ValueError: ``raw`` is not a finite number (NaN would read as 0%).
        """
        x = _clamped(raw)
        i = min(len(self.xs) - 1, max(1, bisect.bisect_right(self.xs, x)))
        x0, x1, y0, y1 = self.xs[i - 1], self.xs[i], self.ys[i - 1], self.ys[i]
        return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def map_points(summary: dict[str, Any]) -> list[tuple[float, float]]:
    """The points of a calibration map from a measurement's summary
    (``bench/review_calibration.py``'s ``calibration.json``: the bins of its ``raw``
    estimates, or its own bins in a file from before the maps, whose estimates were raw):
    each non-empty bin's mean raw estimate and observed win rate, rounded to 4 places."""
    bins = summary.get("raw", summary)["bins"]
    return [(round(b["estimate"], 4), round(b["observed"], 4)) for b in bins if b.get("decisions")]


def _clamped(raw: float) -> float:
    """``raw`` clamped to [0, 1].

    Raises:
        ValueError: ``raw`` is NaN or infinite.
    """
    if not math.isfinite(raw):
        raise ValueError(f"a win chance must be a finite number, not {raw!r}")
    return min(1.0, max(0.0, float(raw)))


def load_maps(source: Traversable | Path) -> dict[str, CalibrationMap]:
    """The calibration maps by game name from the maps file ``source`` (JSON
    ``{game: {"points": [[raw, calibrated], ...], ...}}``).

    Raises:
        CalibrationError: the file cannot be read, is not JSON of that shape, or a map is
            not an increasing map of [0, 1] (see :class:`CalibrationMap`).
    """
    try:
        data = json.loads(source.read_text(encoding="utf-8"))
        if not isinstance(data, dict):
            raise TypeError(f"a JSON object of maps by game, not {type(data).__name__}")
        return {
            str(game): CalibrationMap([(x, y) for x, y in entry["points"]])
            for game, entry in data.items()
        }
    except (OSError, ValueError, TypeError, KeyError, RecursionError) as exc:
        raise CalibrationError(
            msg("the review's calibration data {0} is damaged; reinstall porphyra", str(source))
        ) from exc


@functools.cache
def _maps() -> dict[str, CalibrationMap]:
    """The package's maps (:data:`MAP_FILE`), loaded once.

    Raises:
        CalibrationError: see :func:`load_maps` (not cached: the next call tries again).
    """
    return load_maps(resources.files("porphyra.review").joinpath(MAP_FILE))


def calibrate(game: str, raw: float) -> float:
    """``raw`` (a search's win chance for a seat of ``game``, 0..1, clamped) as calibrated
    by the game's map, rounded to 4 places; ``raw`` itself (clamped, rounded) for a game
    without a map.

    Raises:
        ValueError: ``raw`` is NaN or infinite.
        CalibrationError: the maps file is damaged (:func:`load_maps`).
    """
    mapping = _maps().get(game)
    return round(_clamped(raw) if mapping is None else mapping(raw), 4)
