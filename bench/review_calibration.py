"""How well the game review's win chances predict results (issue 31 §2): calibration.

Plays ``--games`` games between two bots (default ``easy`` against ``easy``) on the fixed
deals ``--seed``, ``--seed + 1``, ...; in game ``i`` it reviews **one** seat (``i`` modulo
the number of seats, so no game is counted twice) with the review's own settings
(:class:`porphyra.review.ReviewSettings`, iteration budgets: reproducible), and pairs each
reviewed decision's estimate *before* the decision with that seat's result (1 a win, 0 a
loss, between for a draw).  The estimates are binned by tenths; for each bin it reports the
decisions, the games they come from, the mean estimate, the observed win rate and a 95%
interval of that rate from a bootstrap **over games** (the decisions of one game share one
result, so they are not independent).  Also the Brier score and the expected calibration
error (ECE: the decision-weighted mean gap between estimate and observation).

The review shows the search's estimates calibrated by a per-game map where a game has one
(:mod:`porphyra.review.calibration`; none does today: the maps tried did not hold on fresh
games); the measurement reports both, on the same decisions:
the review's own estimates (``bins``) and the search's raw ones (``raw``: what the map
corrects, and what a map is made from: ``--write-map DIR`` sets ``--game``'s map from the
run in ``DIR``).

Writes ``calibration.json`` and ``calibration.png`` (estimate against observation, the
diagonal is perfect calibration) into ``--out`` and prints the Markdown tables.

The measurement of the issue (not run by the tests; about 2 CPU hours per 1,000 Byzantium
games at the default 400 iterations on one core, divided by ``--workers``)::

    .venv/bin/python bench/review_calibration.py --game byzantium --games 1000 \
        --seed 310000 --workers 8 --out docs/results/review/byzantium
    .venv/bin/python bench/review_calibration.py --game conspiracy --games 1000 \
        --seed 320000 --workers 8 --out docs/results/review/conspiracy

A smoke run: ``--games 20 --iterations 100 --out /tmp/calibration``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from porphyra import record as records
from porphyra.bots import make_bot, seat_view
from porphyra.core.registry import load_game
from porphyra.review import ReviewSettings, review_record
from porphyra.review import calibration as calibration_module
from porphyra.review.calibration import MAP_FILE, CalibrationMap, map_points

#: Bins of the estimates: tenths of win chance.
BINS = 10
#: Bootstrap resamples of the games for each bin's interval (fixed seed below).
BOOTSTRAP = 400


def play_game(name: str, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """The record of one game of ``name`` on deal ``seed`` between ``bots`` (one spec per
    seat; each bot seeded from the deal and its seat)."""
    game = load_game(name)
    state = game.new_initial_state(seed=seed)
    players = [make_bot(spec, seed * 8 + i) for i, spec in enumerate(bots)]
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(players[p].choose(seat_view(state, p)), p)
    return records.to_record(state)


def game_points(job: tuple[str, int, tuple[str, ...], int]) -> list[tuple[float, float, float]]:
    """``(estimate before, the search's raw estimate before, result)`` of each reviewed
    decision of one game (a worker's task: ``(game, seed, bots, iterations)``)."""
    name, seed, bots, iterations = job
    rec = play_game(name, seed, bots)
    seat = seed % len(bots)
    review = review_record(rec, seat, ReviewSettings(iterations=iterations, seed=seed))
    result = float(review["result"])
    return [(float(d["before"]), float(d["raw"]["before"]), result) for d in review["decisions"]]


def bin_of(estimate: float) -> int:
    """The bin (0..BINS-1) of an estimate in [0, 1]."""
    return min(BINS - 1, max(0, int(estimate * BINS)))


def calibration(games: list[list[tuple[float, float]]], seed: int = 0) -> dict[str, Any]:
    """Calibration of the per-game lists of ``(estimate, result)``.

    Returns:
        ``{"games", "decisions", "brier", "ece", "bins": [{"lo", "hi", "decisions",
        "games", "estimate", "observed", "interval": [lo, hi]}]}``; a bin without decisions
        has ``None`` for its rates.
    """
    flat = [p for g in games for p in g]
    rng = random.Random(seed)
    rows: list[dict[str, Any]] = []
    for b in range(BINS):
        per_game = [[r for e, r in g if bin_of(e) == b] for g in games]
        hits = [(sum(rs), len(rs)) for rs in per_game if rs]
        n = sum(k for _, k in hits)
        row: dict[str, Any] = {
            "lo": b / BINS,
            "hi": (b + 1) / BINS,
            "decisions": n,
            "games": len(hits),
            "estimate": None,
            "observed": None,
            "interval": None,
        }
        if n:
            row["estimate"] = sum(e for e, _ in flat if bin_of(e) == b) / n
            row["observed"] = sum(s for s, _ in hits) / n
            rates = []
            for _ in range(BOOTSTRAP):
                pick = [hits[rng.randrange(len(hits))] for _ in hits]
                rates.append(sum(s for s, _ in pick) / max(1, sum(k for _, k in pick)))
            rates.sort()
            row["interval"] = [rates[int(0.025 * BOOTSTRAP)], rates[int(0.975 * BOOTSTRAP) - 1]]
        rows.append(row)
    total = len(flat)
    ece = sum(
        r["decisions"] * abs(r["estimate"] - r["observed"]) for r in rows if r["decisions"]
    ) / max(1, total)
    brier = sum((e - r) ** 2 for e, r in flat) / max(1, total)
    return {"games": len(games), "decisions": total, "brier": brier, "ece": ece, "bins": rows}


def markdown(summary: dict[str, Any]) -> str:
    """The calibration as a Markdown table (one row per non-empty bin)."""
    lines = [
        f"{summary['games']} games, {summary['decisions']} decisions; Brier "
        f"{summary['brier']:.3f}, ECE {summary['ece']:.3f}",
        "",
        "| estimate | decisions | games | mean estimate | observed | 95% (games bootstrap) |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in summary["bins"]:
        if r["decisions"]:
            lo, hi = r["interval"]
            lines.append(
                f"| {r['lo']:.1f}-{r['hi']:.1f} | {r['decisions']} | {r['games']} | "
                f"{r['estimate']:.3f} | {r['observed']:.3f} | {lo:.3f}-{hi:.3f} |"
            )
    return "\n".join(lines)


def plot(summary: dict[str, Any], path: Path, title: str) -> None:
    """Estimate against observed win rate per bin, with the intervals and the diagonal."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in summary["bins"] if r["decisions"]]
    x = [r["estimate"] for r in rows]
    y = [r["observed"] for r in rows]
    err = [
        [r["observed"] - r["interval"][0] for r in rows],
        [r["interval"][1] - r["observed"] for r in rows],
    ]
    fig, ax = plt.subplots(figsize=(4.5, 4.5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", linewidth=1, label="perfect")
    raw = [r for r in summary.get("raw", {}).get("bins", []) if r["decisions"]]
    if raw:  # the search's own estimates, which the review's map corrects
        ax.plot(
            [r["estimate"] for r in raw],
            [r["observed"] for r in raw],
            "s",
            color="#d55e00",
            markerfacecolor="none",
            label="search's raw estimate",
        )
    label = "review (calibrated), 95%" if raw else "observed (95%)"
    ax.errorbar(x, y, yerr=err, fmt="o", color="#0072b2", capsize=3, label=label)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("estimated win chance before the decision")
    ax.set_ylabel("observed win rate")
    ax.set_title(title, fontsize=9)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write_map(game: str, run: Path, path: Path | None = None) -> dict[str, Any]:
    """Set ``game``'s calibration map (:mod:`porphyra.review.calibration`) from the run in
    ``run`` (its ``calibration.json``) in the maps' file ``path`` (default: the review's
    own); returns the map's entry.

    Raises:
        ValueError: the run's points do not make an increasing map.
    """
    summary = json.loads((run / "calibration.json").read_text("utf-8"))
    points = map_points(summary)
    CalibrationMap(points)  # refuses a map that does not increase
    settings = summary["settings"]
    entry = {
        "points": points,
        "source": str(run / "calibration.json"),
        "games": settings["games"],
        "seeds": [settings["seed"], settings["seed"] + settings["games"] - 1],
        "bots": settings["bots"],
        "iterations": settings["iterations"],
    }
    path = path or Path(calibration_module.__file__).parent / MAP_FILE
    maps = json.loads(path.read_text("utf-8")) if path.exists() else {}
    maps[game] = entry
    path.write_text(json.dumps(maps, indent=1, sort_keys=True) + "\n", "utf-8")
    print(f"{game}: {len(points)} points from {run} written to {path}")
    return entry


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    """Run the measurement (see the module docstring); returns the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", default="byzantium")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=310000)
    parser.add_argument("--bots", default="easy,easy", help="one bot spec per seat")
    parser.add_argument("--iterations", type=int, default=ReviewSettings().iterations)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("calibration"))
    parser.add_argument(
        "--write-map",
        type=Path,
        metavar="DIR",
        help="write the calibration map of --game from DIR/calibration.json (a run of this "
        "script) into the review's maps, then stop",
    )
    args = parser.parse_args(argv)
    if args.write_map is not None:
        return write_map(args.game, args.write_map)
    bots = tuple(s.strip() for s in args.bots.split(","))
    jobs = [(args.game, args.seed + i, bots, args.iterations) for i in range(args.games)]
    if args.workers > 1:
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            games = pool.map(game_points, jobs, chunksize=4)
    else:
        games = [game_points(job) for job in jobs]
    raw = calibration([[(r, res) for _, r, res in g] for g in games], seed=args.seed)
    summary = calibration([[(e, res) for e, _, res in g] for g in games], seed=args.seed)
    summary["raw"] = raw
    summary["settings"] = {
        "game": args.game,
        "games": args.games,
        "seed": args.seed,
        "bots": list(bots),
        "iterations": args.iterations,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "calibration.json").write_text(json.dumps(summary, indent=1) + "\n", "utf-8")
    title = f"{args.game}: {args.games} games of {' vs '.join(bots)}, {args.iterations} it."
    plot(summary, args.out / "calibration.png", title)
    print("The review's calibrated estimates:\n")
    print(markdown(summary))
    print("\nThe search's raw estimates (what the map corrects):\n")
    print(markdown(raw))
    return summary


if __name__ == "__main__":
    main()
