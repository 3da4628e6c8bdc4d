"""Paired comparison of two card sets played on the same deals (``--compare A B``).

``--compare`` plays the same campaign (the same pairings, deal seeds and seats) on both card
sets, so each game of set A has a twin in set B: the same task (pairing, seed, seats).  A
force-only edit keeps the card list, so a seed deals the same cards in both, and most games
end alike; comparing the twins removes the deal's luck from the difference, and a paired
difference needs far fewer deals than two independent shares for the same precision.

For each Byzantium figure (:data:`FIGURES`) and each pairing, over the ``n`` twin games,
with ``a_i`` and ``b_i`` the game's value in set A and set B (1 or 0; the first Emperor's
share counts a draw ½):

- ``diff``: the mean of ``b_i - a_i`` (set B minus set A, in win-rate or rate fractions);
- ``ci95``: the Agresti-Min interval of a paired difference: half a game is added to each
  cell of the 2×2 table of (``a_i``, ``b_i``) (for values with draws: the differences get
  one pseudo-game at 0 and one at ±1 shared half and half), and the normal interval of the
  adjusted mean difference is taken; it is valid for small and lopsided tables, where the
  plain (Wald) interval is too narrow;
- ``p_value``: McNemar's exact test: among the discordant games (``a_i != b_i`` for
  collapses; a first-Emperor win in one set and a loss in the other for the share, draws
  left out), the count of each direction against a fair coin (two-sided binomial);
- ``discordant``: ``[A only, B only]`` (games where the figure holds only in A, only in B);
- ``unpaired_half_width``: the half-width the same games would give as two independent
  Wilson intervals' combined normal approximation, to show what the pairing gains.

Game-shape means (:data:`MEANS`: turns played, lead changes, LT from melded Legacy cards,
net LT from meld results; :mod:`porphyra.balance.shape`) get the mean of ``b_i - a_i``
with the normal 95% interval of a paired mean and the paired t-test's p (1 when every game
gives the same value on both sides).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import Any

from porphyra.balance.shape import lead_changes, legacy_sources
from porphyra.balance.stats import outcome, rate, sign_test
from porphyra.tournament.stats import Z95

#: A per-game value of a figure: the game's statistics → 0, ½ or 1.
Value = Callable[[dict[str, Any]], float]


def _first_emperor(r: dict[str, Any]) -> float:
    return outcome(r["returns"], r["first"])


def _collapse(r: dict[str, Any]) -> float:
    return 1.0 if r["collapse"] else 0.0


def _collapse_by_3(r: dict[str, Any]) -> float:
    return 1.0 if r["collapse"] and r["end_turn"] <= 3 else 0.0


#: The Byzantium figures compared, by key: (label, per-game value).
FIGURES: dict[str, tuple[str, Value]] = {
    "first_emperor": ("first Emperor's share", _first_emperor),
    "collapse": ("collapses", _collapse),
    "collapse_by_turn_3": ("collapses by turn 3", _collapse_by_3),
}


def _turns(r: dict[str, Any]) -> float:
    return float(r["end_turn"])


def _lead_changes(r: dict[str, Any]) -> float:
    return float(lead_changes(r))


def _legacy_cards(r: dict[str, Any]) -> float:
    return float(legacy_sources(r)[0])


def _meld_results(r: dict[str, Any]) -> float:
    return float(legacy_sources(r)[1])


#: Game-shape means compared, by key: (label, per-game value).
MEANS: dict[str, tuple[str, Value]] = {
    "turns_played": ("turns played", _turns),
    "lead_changes": ("lead changes per game", _lead_changes),
    "melded_legacy_cards": ("LT from melded Legacy cards per game", _legacy_cards),
    "meld_results_net": ("|net LT from meld results| per game", _meld_results),
}


def paired_mean(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """The paired mean difference ``b - a`` (module docstring).

    Returns:
        ``{"diff", "ci95", "p_value", "games"}``; ``None``s with fewer than 2 games.

    Raises:
        ValueError: ``a`` and ``b`` differ in length.
    """
    if len(a) != len(b):
        raise ValueError("paired values need the same number of games on each side")
    n = len(a)
    if n < 2:
        return {"diff": None, "ci95": None, "p_value": None, "games": n}
    d = [y - x for x, y in zip(a, b, strict=True)]
    mean, sd = statistics.fmean(d), statistics.stdev(d)
    if sd == 0:
        return {"diff": round(mean, 4), "ci95": [round(mean, 4)] * 2, "p_value": 1.0, "games": n}
    from scipy.stats import ttest_rel  # type: ignore[import-untyped]

    half = Z95 * sd / math.sqrt(n)
    p = float(ttest_rel(b, a).pvalue)
    return {
        "diff": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)],
        "p_value": float(f"{p:.4g}"),
        "games": n,
    }


def twin_key(r: dict[str, Any]) -> tuple[int, int, tuple[str, ...]]:
    """What makes two games twins: the pairing, the deal's seed and the seats' bots."""
    return (int(r["pairing"]), int(r["seed"]), tuple(r["seats"]))


def paired_difference(a: Sequence[float], b: Sequence[float]) -> dict[str, Any]:
    """The paired difference ``b - a`` of per-game values in [0, 1] (module docstring).

    Args:
        a / b: one value per twin game, in the same order (0, ½ or 1).

    Returns:
        ``{"diff", "ci95", "p_value", "discordant": [A only, B only], "games",
        "unpaired_half_width"}``; ``diff`` ``None`` when there is no game.

    Raises:
        ValueError: ``a`` and ``b`` differ in length.
    """
    if len(a) != len(b):
        raise ValueError("paired values need the same number of games on each side")
    n = len(a)
    if n == 0:
        return {"diff": None, "ci95": None, "p_value": None, "discordant": [0, 0], "games": 0}
    d = [y - x for x, y in zip(a, b, strict=True)]
    a_only = sum(1 for x, y in zip(a, b, strict=True) if x > 0.5 > y)
    b_only = sum(1 for x, y in zip(a, b, strict=True) if y > 0.5 > x)
    # Agresti-Min: half a pseudo-game at +1 and at -1 and one at 0
    n_adj = n + 2
    centre = sum(d) / n_adj
    second = (sum(v * v for v in d) + 1.0) / n_adj
    half = Z95 * math.sqrt(max(0.0, second - centre * centre) / n_adj)
    pa, pb = statistics.fmean(a), statistics.fmean(b)
    unpaired = Z95 * math.sqrt(pa * (1 - pa) / n + pb * (1 - pb) / n)
    return {
        "diff": round(statistics.fmean(d), 4),
        "ci95": [round(max(-1.0, centre - half), 4), round(min(1.0, centre + half), 4)],
        "p_value": sign_test(a_only, b_only),
        "discordant": [a_only, b_only],
        "games": n,
        "unpaired_half_width": round(unpaired, 4),
    }


def twins(
    a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]
) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """The twin games of two result lists, in ``a``'s order (games without a twin are left
    out)."""
    by_key = {twin_key(r): r for r in b}
    return [(r, by_key[twin_key(r)]) for r in a if twin_key(r) in by_key]


def compare_pairing(a: Sequence[dict[str, Any]], b: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Every figure of :data:`FIGURES` and :data:`MEANS` for one pairing's games on sets
    A and B.

    Returns:
        ``{key: {"figure", "a": rate, "b": rate, "paired": paired_difference}}`` for the
        rates (as :func:`porphyra.balance.stats.rate`, on the twin games), then ``{key:
        {"figure", "a": mean, "b": mean, "paired_mean": paired_mean}}`` for the means.
    """
    pairs = twins(a, b)
    out: dict[str, Any] = {}
    for key, (label, value) in MEANS.items():
        va = [value(x) for x, _ in pairs]
        vb = [value(y) for _, y in pairs]
        out[key] = {
            "figure": label,
            "a": round(statistics.fmean(va), 3) if va else None,
            "b": round(statistics.fmean(vb), 3) if vb else None,
            "paired_mean": paired_mean(va, vb),
        }
    for key, (label, value) in FIGURES.items():
        va = [value(x) for x, _ in pairs]
        vb = [value(y) for _, y in pairs]
        out[key] = {
            "figure": label,
            "a": rate(sum(va), len(va)),
            "b": rate(sum(vb), len(vb)),
            "paired": paired_difference(va, vb),
        }
    return out
