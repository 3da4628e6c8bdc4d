"""A bot's score over paired deals, from a two-bot tournament's ``games.csv``.

``porphyra tournament GAME --bots A,B --games 2N`` plays N deals twice, seats swapped (the
two games of a deal share its seed).  The two games of a deal are not independent (the same
cards), so the Wilson interval the tournament prints, which counts games, is too narrow or
too wide depending on how much the deal decides.  This script counts **deals**: each deal
gives bot ``--bot`` a score, the mean of its two games (win 1, draw 1/2, loss 0), and the
95% interval of the mean score is

- ``normal``: mean ± 1.96 × the standard error over deals (deals are independent), and
- ``bootstrap``: the 2.5th and 97.5th percentiles of the mean over :data:`RESAMPLES`
  resamples of the deals with replacement (seeded, so it reproduces).

Also the deals the bot won twice, split, lost twice (a deal's net result).  Prints a
Markdown summary and, with ``--out``, writes it as JSON.  With ``--versus`` (another arm's
files on the same deals) it also gives the paired difference between the arms, deal by
deal (:func:`compare`).  Used for issue 31's redraw rule
(``docs/results/bots/redraw/README.md``; several files: the chunks of one run)::

    nice -n 10 .venv/bin/porphyra tournament byzantium --bots easy,easy:redraw=pile \\
        --deck v6 --games 2000 --seed 44000000 --workers 2 \\
        --out docs/results/bots/redraw/screen-easy
    .venv/bin/python bench/paired_deals.py docs/results/bots/redraw/screen-easy/games.csv \\
        --bot easy:redraw=pile --out docs/results/bots/redraw/screen-easy/paired.json
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import random
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

#: Bootstrap resamples of the deals.
RESAMPLES = 4000
Z95 = 1.959964


def deal_scores(paths: list[Path], bot: str) -> list[float]:
    """Bot ``bot``'s mean score on each deal (in seed order) of the tournament files
    ``paths`` (one run, or the chunks of one run on disjoint seeds).

    Raises:
        ValueError: ``bot`` sits at no game of the files, or a deal lacks its seat swap.
    """
    by_seed = deal_score_map(paths, bot)
    return [by_seed[seed] for seed in sorted(by_seed)]


def deal_score_map(paths: list[Path], bot: str) -> dict[int, float]:
    """:func:`deal_scores` by deal seed.

    Raises:
        ValueError: ``bot`` sits at no game of the files, or a deal lacks its seat swap.
    """
    games: dict[int, list[float]] = defaultdict(list)
    for path in paths:
        with path.open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                seats = json.loads(row["seats"])
                if bot not in seats:
                    continue
                returns = json.loads(row["returns"])
                mine = returns[seats.index(bot)]
                games[int(row["seed"])].append(1.0 if mine > 0 else 0.0 if mine < 0 else 0.5)
    if not games:
        raise ValueError(f"{bot!r} plays no game in {', '.join(map(str, paths))}")
    if any(len(g) != 2 for g in games.values()):
        raise ValueError("every deal must be played twice, seats swapped, and only once")
    return {seed: sum(g) / 2 for seed, g in games.items()}


def compare(
    paths: list[Path], bot: str, other_paths: list[Path], other_bot: str, seed: int = 0
) -> dict[str, Any]:
    """Two arms on the same deals (e.g. two versions of a bot, each against the same
    opponent): the per-deal difference ``bot``'s score in ``paths`` minus ``other_bot``'s
    in ``other_paths``, over the deals both played (a paired design: the deal's luck
    cancels).

    Returns:
        ``{"deals", "difference", "normal_ci95", "bootstrap_ci95", "deals_better",
        "deals_same", "deals_worse"}`` (differences in score points, 0..1 scale).

    Raises:
        ValueError: as :func:`deal_score_map`, or the arms share fewer than two deals.
    """
    mine, theirs = deal_score_map(paths, bot), deal_score_map(other_paths, other_bot)
    common = sorted(set(mine) & set(theirs))
    if len(common) < 2:
        raise ValueError(f"the two arms share {len(common)} deals; at least 2 are needed")
    diffs = [mine[s] - theirs[s] for s in common]
    n = len(diffs)
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(n)
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(diffs, k=n)) for _ in range(RESAMPLES))
    return {
        "deals": n,
        "difference": round(mean, 4),
        "normal_ci95": [round(mean - Z95 * se, 4), round(mean + Z95 * se, 4)],
        "bootstrap_ci95": [
            round(means[int(0.025 * RESAMPLES)], 4),
            round(means[int(0.975 * RESAMPLES) - 1], 4),
        ],
        "deals_better": sum(d > 0 for d in diffs),
        "deals_same": sum(d == 0 for d in diffs),
        "deals_worse": sum(d < 0 for d in diffs),
    }


def summarize(scores: list[float], seed: int = 0) -> dict[str, Any]:
    """Mean score over deals with its normal and bootstrap 95% intervals (module docstring)."""
    n = len(scores)
    mean = statistics.fmean(scores)
    se = statistics.stdev(scores) / math.sqrt(n) if n > 1 else 0.0
    rng = random.Random(seed)
    means = sorted(statistics.fmean(rng.choices(scores, k=n)) for _ in range(RESAMPLES))
    return {
        "deals": n,
        "games": 2 * n,
        "score": round(mean, 4),
        "normal_ci95": [round(mean - Z95 * se, 4), round(mean + Z95 * se, 4)],
        "bootstrap_ci95": [
            round(means[int(0.025 * RESAMPLES)], 4),
            round(means[int(0.975 * RESAMPLES) - 1], 4),
        ],
        "deals_won_both": sum(s == 1.0 for s in scores),
        "deals_net_win": sum(s > 0.5 for s in scores),
        "deals_even": sum(s == 0.5 for s in scores),
        "deals_net_loss": sum(s < 0.5 for s in scores),
        "deals_lost_both": sum(s == 0.0 for s in scores),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=Path, nargs="+", help="a tournament's games.csv files")
    parser.add_argument("--bot", required=True, help="the bot spec to score")
    parser.add_argument("--seed", type=int, default=0, help="the bootstrap's seed")
    parser.add_argument("--out", type=Path, help="write the summary here as JSON")
    parser.add_argument(
        "--versus",
        type=Path,
        nargs="+",
        metavar="CSV",
        help="another arm's games.csv files on the same deals: also print the per-deal "
        "difference of --bot's score here minus --versus-bot's there",
    )
    parser.add_argument("--versus-bot", help="the bot scored in --versus (default: --bot)")
    args = parser.parse_args()
    files = [str(p) for p in args.games]
    summary: dict[str, Any] = {"files": files, "bot": args.bot, "bootstrap_seed": args.seed}
    summary.update(summarize(deal_scores(args.games, args.bot), args.seed))
    if args.versus:
        other = args.versus_bot or args.bot
        diff = compare(args.games, args.bot, args.versus, other, args.seed)
        summary["versus"] = {"files": [str(p) for p in args.versus], "bot": other, **diff}
        dlo, dhi = diff["normal_ci95"]
        print(
            f"{args.bot} minus {other} (the other arm), {diff['deals']} common deals: "
            f"{100 * diff['difference']:+.1f} points, normal {100 * dlo:+.1f} to "
            f"{100 * dhi:+.1f}, bootstrap {100 * diff['bootstrap_ci95'][0]:+.1f} to "
            f"{100 * diff['bootstrap_ci95'][1]:+.1f}; deals better/same/worse "
            f"{diff['deals_better']}/{diff['deals_same']}/{diff['deals_worse']}"
        )
    lo, hi = summary["normal_ci95"]
    blo, bhi = summary["bootstrap_ci95"]
    print(
        f"| {args.bot} | {summary['deals']} deals ({summary['games']} games) | "
        f"{100 * summary['score']:.1f}% | normal {100 * lo:.1f}-{100 * hi:.1f} | "
        f"bootstrap {100 * blo:.1f}-{100 * bhi:.1f} | deals net won/even/lost "
        f"{summary['deals_net_win']}/{summary['deals_even']}/{summary['deals_net_loss']} |"
    )
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
