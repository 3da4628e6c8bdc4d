"""Each bot level against the one below it, over paired deals (issue 31 §1).

The ladder's ratings (:mod:`porphyra.tournament.ladder`) place every level on one scale;
these are the head-to-head figures behind them, in the unit issue 31 sets its targets in:

- **2-player tables**: for each pair of levels that played (``medium`` against ``easy``),
  the upper level's score over the pair's deals (each deal played twice, seats swapped: a
  deal's score is the mean of its two games), with its normal 95% interval over deals and
  a bootstrap beside it (:func:`porphyra.tournament.deals.score_over_deals`).
- **Solo**: each level's wins against the Legendary Opponents, compared with the level
  below deal by deal (the same Opponent and seed: :func:`paired_deal_difference`), over
  the deals both played.

Each entry::

    {"level": "medium", "against": "easy", "deals": 200, "games": 400,
     "score": 0.59, "low": 0.55, "high": 0.63, "bootstrap": [0.55, 0.63]}

and in solo also ``"against_score"`` (the lower level's wins on the same deals) and
``"difference"`` (``score - against_score``), where ``low``/``high``/``bootstrap`` bound
the difference.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import Any

from porphyra.bots.ladder_file import LEGENDARY_PREFIX
from porphyra.tournament.deals import (
    deal_scores,
    ordered,
    outcome,
    paired_deal_difference,
    score_over_deals,
)
from porphyra.tournament.runner import GameResult
from porphyra.tournament.schedule import LO_PREFIX


def entrant_level(entrant: str) -> str:
    """The ladder key of an entrant: the level of a bot spec (``medium:...`` -> ``medium``),
    ``legendary:<id>`` for a Legendary Opponent (``lo:farmer``)."""
    if entrant.startswith(LO_PREFIX):
        return LEGENDARY_PREFIX + entrant.removeprefix(LO_PREFIX)
    return entrant.partition(":")[0]


def _rank(levels: Sequence[str], spec: str) -> int:
    level = entrant_level(spec)
    return levels.index(level) if level in levels else len(levels)


def two_player_pairs(
    results: Sequence[GameResult], levels: Sequence[str], seed: int
) -> list[dict[str, Any]]:
    """The head-to-head entries of a 2-player table (module docstring), upper level first
    within each pair, pairs in the order of ``levels`` (weakest first).

    Args:
        results: the table's games.
        levels: the level names, weakest first.
        seed: the bootstraps' seed.

    Raises:
        ValueError: a pair's deal lacks its seat swap.
    """
    by_pair: dict[tuple[str, str], list[GameResult]] = {}
    for result in results:
        specs = sorted(set(result.match.seats), key=lambda s: _rank(levels, s))
        if len(specs) == 2:
            by_pair.setdefault((specs[0], specs[1]), []).append(result)
    entries = []
    for (lower, upper), games in sorted(
        by_pair.items(), key=lambda item: (_rank(levels, item[0][1]), _rank(levels, item[0][0]))
    ):
        scores = deal_scores(((r.match.seed, r.match.seats, r.returns) for r in games), upper)
        summary = score_over_deals([scores[d] for d in ordered(scores)], seed)
        low, high = summary["normal_ci95"]
        entries.append(
            {
                "level": entrant_level(upper),
                "against": entrant_level(lower),
                "deals": summary["deals"],
                "games": summary["games"],
                "score": summary["score"],
                "low": low,
                "high": high,
                "bootstrap": summary["bootstrap_ci95"],
            }
        )
    return entries


def solo_pairs(
    results: Sequence[GameResult], levels: Sequence[str], seed: int
) -> list[dict[str, Any]]:
    """The solo entries (module docstring): each level that played against the next lower
    level that played, paired by Opponent and seed.

    Args:
        results: the solo table's games (one seat each, with an ``opponent``).
        levels: the level names, weakest first.
        seed: the bootstraps' seed.
    """
    by_level: dict[str, dict[Hashable, float]] = {}
    for result in results:
        spec = result.match.seats[0]
        deal = (result.match.opponent, result.match.seed)
        by_level.setdefault(spec, {})[deal] = outcome(result.returns[0])
    specs = sorted(by_level, key=lambda s: _rank(levels, s))
    entries = []
    for lower, upper in itertools.pairwise(specs):
        mine, theirs = by_level[upper], by_level[lower]
        common = [d for d in mine if d in theirs]
        if len(common) < 2:
            continue
        diff = paired_deal_difference(mine, theirs, seed)
        low, high = diff["normal_ci95"]
        entries.append(
            {
                "level": entrant_level(upper),
                "against": entrant_level(lower),
                "deals": diff["deals"],
                "games": 2 * diff["deals"],
                "score": round(sum(mine[d] for d in common) / len(common), 4),
                "against_score": round(sum(theirs[d] for d in common) / len(common), 4),
                "difference": diff["difference"],
                "low": low,
                "high": high,
                "bootstrap": diff["bootstrap_ci95"],
            }
        )
    return entries
