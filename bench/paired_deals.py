"""A bot's score over paired deals, from a two-bot tournament's ``games.csv``.

``porphyra tournament GAME --bots A,B --games 2N`` plays N deals twice, seats swapped (the
two games of a deal share its seed).  The two games of a deal are not independent (the same
cards), so the Wilson interval the tournament prints, which counts games, is too narrow or
too wide depending on how much the deal decides.  This script counts **deals**: each deal
gives bot ``--bot`` a score, the mean of its two games (win 1, draw 1/2, loss 0), and the
95% interval of the mean score is

- ``normal``: mean ± 1.96 × the standard error over deals (deals are independent), and
- ``bootstrap``: the 2.5th and 97.5th percentiles of the mean over 4,000
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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from porphyra.tournament.deals import deal_scores as _deal_scores
from porphyra.tournament.deals import (
    paired_deal_difference,
    score_over_deals,
)


def _games(paths: list[Path]) -> Iterator[tuple[int, list[str], list[float]]]:
    """Each game of the ``games.csv`` files ``paths``: (seed, seats, returns)."""
    for path in paths:
        with path.open(newline="", encoding="utf-8") as f:
            for row in csv.DictReader(f):
                yield int(row["seed"]), json.loads(row["seats"]), json.loads(row["returns"])


def deal_score_map(paths: list[Path], bot: str) -> dict[int, float]:
    """Bot ``bot``'s mean score on each deal of the tournament files ``paths`` (one run, or
    the chunks of one run on disjoint seeds), by deal seed
    (:func:`porphyra.tournament.deals.deal_scores`).

    Raises:
        ValueError: ``bot`` sits at no game of the files, or a deal lacks its seat swap.
    """
    try:
        scores = _deal_scores(_games(paths), bot)
    except ValueError as exc:
        raise ValueError(f"{exc} ({', '.join(map(str, paths))})") from None
    return scores


def deal_scores(paths: list[Path], bot: str) -> list[float]:
    """:func:`deal_score_map`'s scores in seed order.

    Raises:
        ValueError: as :func:`deal_score_map`.
    """
    by_seed = deal_score_map(paths, bot)
    return [by_seed[seed] for seed in sorted(by_seed)]


def compare(
    paths: list[Path], bot: str, other_paths: list[Path], other_bot: str, seed: int = 0
) -> dict[str, Any]:
    """Two arms on the same deals (e.g. two versions of a bot, each against the same
    opponent): the per-deal difference ``bot``'s score in ``paths`` minus ``other_bot``'s
    in ``other_paths`` (:func:`porphyra.tournament.deals.paired_deal_difference`).

    Raises:
        ValueError: as :func:`deal_score_map`, or the arms share fewer than two deals.
    """
    mine, theirs = deal_score_map(paths, bot), deal_score_map(other_paths, other_bot)
    return paired_deal_difference(mine, theirs, seed)


def summarize(scores: list[float], seed: int = 0) -> dict[str, Any]:
    """Mean score over deals with its normal and bootstrap 95% intervals
    (:func:`porphyra.tournament.deals.score_over_deals`)."""
    return score_over_deals(scores, seed)


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
