"""``porphyra bots ladder`` (the bot ladder, :mod:`porphyra.tournament.ladder`) and the
ladder's ratings in ``porphyra bots``.

The ladder is a subcommand of ``bots`` because it rates exactly what ``porphyra bots``
lists (the levels), and ``porphyra bots`` shows its ratings beside them.
"""

from __future__ import annotations

import os
import resource
import shlex
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from porphyra.bots.ladder_file import LEGENDARY_PREFIX
from porphyra.bots.version import BOTS_VERSION
from porphyra.cli.common import (
    CliError,
    game_label,
    handle_errors,
    opponent_label,
    progress_bar,
)
from porphyra.cli.lang import tr
from porphyra.tournament.ladder import (
    LADDER_BUDGETS,
    LEVELS,
    TABLES,
    LadderConfig,
    run_ladder,
    schedule,
)
from porphyra.tournament.ladder_output import (
    ladder_document,
    measured_line,
    shipped_ladder,
    write_document,
    write_ladder,
)
from porphyra.tournament.output import read_csv

#: Where the package's ladder lives in a source checkout (the ``--data`` of the real run).
SHIPPED_PATH = "src/porphyra/bots/data/ladder.json"
#: ``--tables``' default: every table of the ladder.
DEFAULT_TABLES = ",".join(table[0] for table in TABLES)


def parse_budgets(items: list[str]) -> dict[str, dict[str, int]]:
    """The ladder's budgets with the ``--budget`` overrides applied: each ``LEVEL=N`` (every
    game) or ``GAME:LEVEL=N``, LEVEL ``medium`` or ``hard``, N iterations a move (≥ 1).

    Raises:
        CliError: a malformed item, an unknown game or level, or a bad number.
    """
    budgets = {game: dict(levels) for game, levels in LADDER_BUDGETS.items()}
    for item in items:
        target, eq, value = item.strip().partition("=")
        game, colon, level = target.strip().lower().rpartition(":")
        games = [game] if colon else list(budgets)
        if not eq or level not in ("medium", "hard") or any(g not in budgets for g in games):
            raise CliError(
                f"bad --budget {item!r}: write LEVEL=N or GAME:LEVEL=N, LEVEL medium or hard, "
                f"GAME {' or '.join(budgets)}"
            )
        if not value.strip().isdigit() or int(value) < 1:
            raise CliError(f"bad --budget {item!r}: N is a whole number of iterations, ≥ 1")
        for g in games:
            budgets[g][level] = int(value)
    return budgets


def command_line(
    config: LadderConfig, out: Path, data: Path | None, reuse: Sequence[Path] = ()
) -> str:
    """The complete ``porphyra bots ladder`` command line that replays ``config``."""
    args = ["porphyra", "bots", "ladder", "--seed", str(config.seed)]
    args += ["--deals", str(config.deals), "--solo-deals", str(config.solo_deals)]
    args += ["--hard-deals", str(config.hard_deals)]
    if config.solo_hard_deals is not None:
        args += ["--solo-hard-deals", str(config.solo_hard_deals)]
    args += ["--max-gap", str(config.max_gap)]
    args += ["--tables", ",".join(config.tables)]
    for game, levels in config.budgets.items():
        for level, iterations in levels.items():
            args += ["--budget", f"{game}:{level}={iterations}"]
    args += ["--bootstrap", str(config.bootstrap), "--workers", str(config.workers)]
    args += ["--out", str(out)]
    if data is not None:
        args += ["--data", str(data)]
    for path in reuse:
        args += ["--reuse", str(path)]
    return shlex.join(args)


def _cpu_seconds() -> float:
    """CPU seconds used by this process and its finished children (the workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def ladder_command(
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="Folder for games.csv, summary.json, ladder.md and ladder.json."
        ),
    ],
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help=f"Also write the ladder to this file (the shipped one: {SHIPPED_PATH}).",
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of deal 0.")] = 41_000_000,
    deals: Annotated[
        int, typer.Option("--deals", help="Deals of each 2-player pair (each played twice).")
    ] = 100,
    solo_deals: Annotated[
        int, typer.Option("--solo-deals", help="Deals of each level against each Opponent.")
    ] = 40,
    hard_deals: Annotated[
        int,
        typer.Option(
            "--hard-deals", help="Deals of every 2-player pairing with hard (0: leave hard out)."
        ),
    ] = 20,
    solo_hard_deals: Annotated[
        int | None,
        typer.Option(
            "--solo-hard-deals",
            help="Deals of hard against each Legendary Opponent (default: --hard-deals).",
        ),
    ] = None,
    max_gap: Annotated[
        int, typer.Option("--max-gap", help="2-player pairs: levels at most this far apart.")
    ] = 1,
    tables: Annotated[
        str, typer.Option("--tables", help="Tables to play: byzantium, conspiracy, solo.")
    ] = DEFAULT_TABLES,
    budget: Annotated[
        list[str] | None,
        typer.Option(
            "--budget",
            help="Iterations a move of medium or hard: LEVEL=N or GAME:LEVEL=N (repeatable).",
        ),
    ] = None,
    bootstrap: Annotated[
        int, typer.Option("--bootstrap", help="Bootstrap resamples of the intervals.")
    ] = 200,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Worker processes (default: the number of CPUs)."),
    ] = None,
    reuse: Annotated[
        list[Path] | None,
        typer.Option(
            "--reuse",
            help="games.csv of an earlier ladder, or of a tournament at the ladder's seeds "
            "and bot specs; repeatable: their games are not played again (same results; "
            "extends a ladder with more deals).",
        ),
    ] = None,
) -> None:
    """The bot ladder: every level rated on one openskill scale from paired games.

    Byzantium and Conspiracy 2 players: each pair of neighbouring levels (random, easy,
    medium, hard) plays every deal twice, seats swapped; solo: each level against each
    Legendary Opponent on the same seeds.  medium and hard play at fixed iteration budgets
    (reproducible).  Intervals: 95% bootstrap over deals.

    Example: [green]porphyra bots ladder --out docs/results/ladder --data
    src/porphyra/bots/data/ladder.json[/].
    """
    console = Console(highlight=False)
    with handle_errors(console):
        count = (os.cpu_count() or 1) if workers is None else workers
        if count < 1:
            raise CliError(f"--workers must be at least 1, not {count}")
        config = LadderConfig(
            seed=seed,
            deals=deals,
            solo_deals=solo_deals,
            hard_deals=hard_deals,
            solo_hard_deals=solo_hard_deals,
            max_gap=max_gap,
            budgets=parse_budgets(budget or []),
            tables=tuple(t.strip().lower() for t in tables.split(",") if t.strip()),
            workers=count,
            bootstrap=bootstrap,
        )
        earlier = [r for path in reuse or [] for r in read_csv(path)]
        unrecorded = sum(r.bots_version is None for r in earlier)
        if unrecorded:
            console.print(
                f"{unrecorded} of the {len(earlier)} games to reuse record no bots version "
                f"(written before games.csv had one); they are taken as version {BOTS_VERSION}"
            )
        total = len(schedule(config))
        progress = progress_bar("ladder")
        start = time.perf_counter()
        try:
            with progress:
                task = progress.add_task("games", total=total)
                table_results, results = run_ladder(
                    config, lambda done: progress.update(task, completed=done), earlier
                )
        except KeyboardInterrupt:
            console.print("interrupted", style="bold red")
            raise typer.Exit(130) from None
        except RuntimeError as exc:
            console.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
            raise typer.Exit(1) from None
        measured = measured_line(_cpu_seconds(), time.perf_counter() - start)
        command = command_line(config, out, data, reuse or [])
        document = ladder_document(table_results, command, measured)
        write_ladder(out, config, table_results, results, document)
        if data is not None:
            write_document(document, data)
        console.print(ladder_table(document))
        console.print(f"{total} games; ladder written to {out}" + (f" and {data}" if data else ""))


def _cell(rating: dict[str, Any]) -> str:
    return f"{rating['mu']:.1f} ({rating['low']:.1f}–{rating['high']:.1f})"


def _heading(table: dict[str, Any]) -> str:
    """A ladder table's name in the current language: ``Byzantium, 2 players``."""
    game = game_label(str(table["game"]))
    if table["players"] == 1:
        return tr("{0} solo", game)
    return tr("{0}, {1} players", game, table["players"])


def ladder_table(document: dict[str, Any]) -> Table:
    """The ladder as one Rich table: a row per level (then per Legendary Opponent), a column
    per game table, each cell ``mu (low–high)``."""
    grid = Table(title=tr("Bot ladder (openskill rating, 95% interval)"), box=box.SIMPLE_HEAD)
    grid.add_column("")
    for table in document["tables"]:
        grid.add_column(_heading(table), justify="right")
    keys = list(LEVELS)
    for table in document["tables"]:
        keys += [k for k in table["ratings"] if k not in keys]
    for key in keys:
        cells = [table["ratings"].get(key) for table in document["tables"]]
        if any(cells):
            grid.add_row(key, *("—" if c is None else _cell(c) for c in cells))
    return grid


def _pair_text(pair: dict[str, Any]) -> str:
    """A level against the one below, as ``porphyra bots`` shows it: ``beats easy 59.0%
    (55.0–63.0), 200 deals`` (solo: ``wins 92.0% where easy wins 45.0%, +47.0 points
    (38.1–55.9), 20 deals``)."""
    low, high = 100 * pair["low"], 100 * pair["high"]
    if "difference" in pair:
        return tr(
            "wins {0}% where {1} wins {2}%, {3} points ({4}–{5}), {6} deals",
            f"{100 * pair['score']:.1f}",
            pair["against"],
            f"{100 * pair['against_score']:.1f}",
            f"{100 * pair['difference']:+.1f}",
            f"{low:+.1f}",
            f"{high:+.1f}",
            pair["deals"],
        )
    return tr(
        "against {0}: {1}% ({2}–{3}), {4} deals",
        pair["against"],
        f"{100 * pair['score']:.1f}",
        f"{low:.1f}",
        f"{high:.1f}",
        pair["deals"],
    )


def ladder_ratings_lines(document: dict[str, Any] | None) -> dict[str, str]:
    """The ladder's ratings of each level for ``porphyra bots``' list: ``{level: text}``,
    one line per game table (``Byzantium, 2 players: 27.1 (25.3–28.9)``), each followed by
    the level's score against the level below over paired deals where the ladder has it
    (``  against easy: 59.0% (55.0–63.0), 200 deals``)."""
    if document is None:
        return {}
    lines: dict[str, list[str]] = {}
    for table in document["tables"]:
        below = {pair["level"]: pair for pair in table.get("pairs", [])}
        for key, rating in table["ratings"].items():
            if not key.startswith(LEGENDARY_PREFIX):
                lines.setdefault(key, []).append(f"{_heading(table)}: {_cell(rating)}")
                if key in below:
                    lines[key].append("  " + _pair_text(below[key]))
    return {key: "\n".join(texts) for key, texts in lines.items()}


def ladder_notes() -> tuple[dict[str, str], list[str]]:
    """For ``porphyra bots``: the shipped ladder's rating texts of each level (empty without
    a ladder) and the lines to print under the list: the Legendary Opponents' solo ratings
    and what the ratings are, or why there are none."""
    try:
        document = shipped_ladder()
    except ValueError as exc:
        return {}, [tr("The shipped bot ladder cannot be read: {0}", str(exc))]
    if document is None:
        return {}, [
            tr("No bot ladder is shipped with this version: porphyra bots ladder makes one.")
        ]
    notes = []
    for table in document["tables"]:
        opponents = [
            f"{opponent_label(key.removeprefix(LEGENDARY_PREFIX))} {_cell(rating)}"
            for key, rating in table["ratings"].items()
            if key.startswith(LEGENDARY_PREFIX)
        ]
        if opponents:
            notes.append(
                tr("Legendary Opponents ({0}): {1}", _heading(table), ", ".join(opponents))
            )
    notes.append(
        tr(
            "Ladder ratings: {0}, from paired bot games; in brackets the 95% interval (the "
            "wider of a bootstrap over deals and mu ± 2 sigma). Measured {1}. Made by: {2}",
            document["model"],
            document["measured"],
            document["command"],
        )
    )
    return ladder_ratings_lines(document), notes
