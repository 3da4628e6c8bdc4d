"""The ``porphyra tournament`` command: round-robin bot tournaments over worker processes.

Plays every pair of bots (every combination for 3- and 4-player Conspiracy tables; in the
solo mode each bot against each Legendary Opponent) with seats rotated and mirrored deals,
shows a progress bar on stderr, then a table of win rates with Wilson 95% intervals and
openskill ratings, a head-to-head table, and the win rate by seat.  ``--out DIR`` writes
``games.csv`` and ``summary.json`` (and with ``--records`` each game's record);
``--json`` prints the summary as JSON on stdout.  See :mod:`porphyra.tournament`.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from porphyra.bots import check_bot, make_bot
from porphyra.cli.common import HUMAN, CliError, handle_errors, parse_seat_kinds, progress_bar
from porphyra.cli.options import game_options, with_game_options
from porphyra.core.errors import UnknownGameError
from porphyra.core.registry import load_game, registered_games, solo_games
from porphyra.core.seats import seat_label
from porphyra.tournament import (
    LEGENDARY_OPPONENTS,
    LO_PREFIX,
    TournamentConfig,
    build_schedule,
    tournament,
)
from porphyra.tournament.output import write_outputs


def parse_bots(spec: str, game: str | None = None) -> list[str]:
    """Parse ``--bots`` into bot specs (a part with ``=`` but no ``:`` continues the bot
    before it, so ``easy,ismcts:iterations=200,exploration=0.5`` is two bots), checked for
    the game named ``game`` when given (:func:`porphyra.bots.check_bot`).

    Raises:
        CliError: an unknown bot name or ``human``.
        ValueError: a bad bot option, or one the game does not have (e.g.
            ``candidates=pile`` for Conspiracy).
    """
    kinds = parse_seat_kinds(spec, None)
    for kind in kinds:
        if kind == HUMAN:
            raise CliError("--bots takes bot names only, not 'human'")
        # Fails now, with a clear message, on a bad option (not once the games run).
        if game is None:
            make_bot(kind)
        else:
            check_bot(kind, game)
    return kinds


def parse_opponents(spec: str | None) -> list[str]:
    """Parse ``--opponent`` (or ``--opponents``, the same flag): ``all`` (the five LOs) or
    a comma-separated list of LO names (``farmer``, ``military``, ``merchant``,
    ``politician``, ``mage``, ``random``).

    Raises:
        CliError: an unknown name.
    """
    if spec is None or spec.strip().lower() == "all":
        return list(LEGENDARY_OPPONENTS)
    names = [part.strip().lower() for part in spec.split(",") if part.strip()]
    known = [*LEGENDARY_OPPONENTS, "random"]
    for name in names:
        if name not in known:
            raise CliError(f"unknown Legendary Opponent {name!r}; use all or {', '.join(known)}")
    return names


def build_config(
    game: str,
    bots: str,
    games: int,
    seed: int,
    workers: int,
    given: dict[str, Any],
    solo: bool,
    opponents: str | None,
    records: bool,
    out: Path | None,
    ray: str | None = None,
) -> TournamentConfig:
    """Check the command's arguments and build the :class:`TournamentConfig`.

    ``given`` holds the game-option flags given (:func:`porphyra.cli.options.with_game_options`).

    Raises:
        CliError: an unknown game, a bad number, an option that does not apply, or the solo
            mode missing from this version.
        ValueError: a bad bot spec.
    """
    name = game.strip().lower()
    if name not in registered_games():
        raise CliError(f"unknown game {name!r}; known games: {', '.join(registered_games())}")
    if games < 1:
        raise CliError(f"--games must be at least 1, not {games}")
    if workers < 1:
        raise CliError(f"--workers must be at least 1, not {workers}")
    if records and out is None:
        raise CliError("--records needs --out DIR (the records go to DIR/records/)")
    options = game_options(name, given)
    players = options.pop("players", None)
    lo_names: list[str] | None = None
    if solo:
        if name not in solo_games():
            raise CliError(f"--solo applies to {', '.join(solo_games())}, not to {name}")
        if players not in (None, 1):
            raise CliError("--solo plays 1 player against a Legendary Opponent; drop --players")
        lo_names = parse_opponents(opponents)
        try:
            load_game(name, **options, players=1, opponent=LEGENDARY_OPPONENTS[0])
        except (UnknownGameError, TypeError) as exc:
            raise CliError(f"solo mode is not available in this version ({exc})") from None
    elif opponents is not None:
        raise CliError("--opponent needs --solo")
    else:
        if players is not None:
            options["players"] = players
        load_game(name, **options)  # fails now, with the game's message, on a bad value
    return TournamentConfig(
        game=name,
        bots=parse_bots(bots, name),
        games=games,
        seed=seed,
        workers=workers,
        options=options,
        opponents=lo_names,
        records=records,
        ray=ray,
    )


def command_line(config: TournamentConfig, out: Path | None = None) -> str:
    """The ``porphyra tournament`` command line that replays ``config`` (for the summary)."""
    args = ["porphyra", "tournament", config.game, "--bots", ",".join(config.bots)]
    args += ["--games", str(config.games), "--seed", str(config.seed)]
    args += ["--workers", str(config.workers)]
    if config.opponents is not None:
        args += ["--solo", "--opponents", ",".join(config.opponents)]
    for name, value in config.options.items():
        flag = "--" + name.replace("_", "-")
        if value is True:
            args.append(flag)
        elif value is not False and value is not None:
            args += [flag, str(value)]
    if out is not None:
        args += ["--out", str(out)]
    if config.records:
        args.append("--records")
    if config.ray is not None:
        args += ["--ray", config.ray]
    return shlex.join(args)


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def _ci(tally: dict[str, Any]) -> str:
    low, high = tally["ci95"]
    return f"{100 * low:.1f}–{100 * high:.1f}"


def _score(tally: dict[str, Any]) -> str:
    mean = tally["mean_score"]
    return "" if mean is None else f"{mean:.2f}"


def summary_tables(summary: dict[str, Any]) -> list[Table]:
    """Rich tables of a tournament summary: bots with ratings, head to head, by seat."""
    params = summary["parameters"]
    entrants = summary["entrants"]
    solo = params["opponents"] is not None
    title = (
        f"{params['game']}{' solo' if solo else ''}: {summary['games']} games, "
        f"seed {params['seed']}"
    )
    main = Table(title=title, box=box.SIMPLE_HEAD)
    main.add_column("", overflow="fold", min_width=12)
    for column in ("W-D-L", "win %", "95% CI", "score", "mu ± sigma", "ordinal"):
        main.add_column(column, justify="right", no_wrap=True)
    for row in summary["ratings"]:
        tally = entrants[row["entrant"]]
        main.add_row(
            row["entrant"],
            f"{tally['wins']}-{tally['draws']}-{tally['losses']}",
            _pct(tally["win_rate"]),
            _ci(tally),
            _score(tally),
            f"{row['mu']:.1f} ± {row['sigma']:.1f}",
            f"{row['ordinal']:.1f}",
        )
    main.caption = (
        "W-D-L: wins, draws, losses; win % counts draws half; 95% CI: Wilson score "
        "interval; score: mean game score; "
        "rating: openskill Plackett-Luce, ordinal = mu - 3 sigma; "
        f"{summary['mean_actions']} actions and {summary['mean_duration_s']:.2f} s a game"
    )
    tables = [main]
    if all(len(t["entrants"]) == 2 for t in summary["tables"]):
        tables.append(_head_to_head(summary, solo))
    else:
        tables.append(_per_table(summary))
    if not solo:
        tables.append(_by_seat(summary))
    return tables


def _head_to_head(summary: dict[str, Any], solo: bool) -> Table:
    bots = summary["parameters"]["bots"]
    columns = [LO_PREFIX + lo for lo in summary["parameters"]["opponents"]] if solo else bots
    cells: dict[tuple[str, str], dict[str, Any]] = {}
    for table in summary["tables"]:
        a, b = table["entrants"]
        cells[(a, b)] = table["results"][a]
        cells[(b, a)] = table["results"][b]
    grid = Table(
        box=box.SIMPLE_HEAD,
        title="win % of the row against the column [95% CI]"
        + (" (columns: the Legendary Opponents)" if solo else ""),
    )
    grid.add_column("", overflow="fold")
    for column in columns:
        grid.add_column(column.removeprefix(LO_PREFIX), justify="right", overflow="fold")
    for bot in bots:
        row = [bot]
        for column in columns:
            tally = cells.get((bot, column))
            row.append("—" if tally is None else f"{_pct(tally['win_rate'])} [{_ci(tally)}]")
        grid.add_row(*row)
    return grid


def _per_table(summary: dict[str, Any]) -> Table:
    grid = Table(title="tables: win % [95% CI], mean score", box=box.SIMPLE_HEAD)
    grid.add_column("table", overflow="fold")
    grid.add_column("bot", overflow="fold")
    grid.add_column("games", justify="right")
    grid.add_column("win %", justify="right")
    grid.add_column("95% CI", justify="right")
    grid.add_column("mean score", justify="right")
    for table in summary["tables"]:
        label = ", ".join(table["entrants"])
        for name in table["entrants"]:
            tally = table["results"][name]
            grid.add_row(
                label,
                name,
                str(tally["games"]),
                _pct(tally["win_rate"]),
                _ci(tally),
                _score(tally),
            )
            label = ""
        grid.add_section()
    return grid


def _by_seat(summary: dict[str, Any]) -> Table:
    seats = max((len(s) for s in summary["seats"].values()), default=0)
    grid = Table(title="win % by seat (games)", box=box.SIMPLE_HEAD)
    grid.add_column("", overflow="fold")
    for s in range(seats):
        grid.add_column(seat_label(s), justify="right")
    for bot, per_seat in summary["seats"].items():
        grid.add_row(bot, *(f"{_pct(t['win_rate'])} ({t['games']})" for t in per_seat))
    return grid


@with_game_options(exclude=("opponent",))
def tournament_command(
    game: Annotated[str, typer.Argument(help="The game: " + ", ".join(registered_games()) + ".")],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bots (at least 2; 1 with --solo), e.g. random,easy,medium "
            "or easy,ismcts:iterations=200,exploration=0.5.",
        ),
    ],
    games: Annotated[
        int,
        typer.Option(
            "--games",
            help="Games per table (each pair of bots; each bot and LO with --solo); a multiple "
            "of the number of seats, which rotate.",
        ),
    ] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first deal.")] = 0,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Worker processes (default: the number of CPUs)."),
    ] = None,
    solo: Annotated[
        bool, typer.Option("--solo", help="Conspiracy solo: each bot against each LO.")
    ] = False,
    opponents: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            "--opponents",
            help="With --solo: all (default) or a list of farmer, military, merchant, "
            "politician, mage, random.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write games.csv and summary.json into this directory."),
    ] = None,
    records: Annotated[
        bool, typer.Option("--records", help="With --out: also write each game's record.")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Play on Ray: a cluster ADDRESS, or a local instance when none is given "
            "(needs the scale extra). Same results as a local run.",
        ),
    ] = None,
    *,
    options: dict[str, Any],
) -> None:
    """Round-robin bot tournament: win rates with 95% intervals, openskill ratings, files.

    Every pair of bots (every combination with --players 3 or 4) plays --games games with
    the seats rotated; the games of one deal share a seed, so each seat order sees the same
    cards.  Games run in --workers processes; iteration-budget bots give the same results
    whatever the number of workers.

    Examples: [green]porphyra tournament byzantium --bots random,easy,medium --games 100
    --workers 2 --out results/[/];
    [green]porphyra tournament conspiracy --solo --opponents all --bots easy,medium[/].
    """
    console = Console(highlight=False)
    with handle_errors(console):
        config = build_config(
            game,
            bots,
            games,
            seed,
            (os.cpu_count() or 1) if workers is None else workers,
            options,
            solo,
            opponents,
            records,
            out,
            ray,
        )
        matches = build_schedule(config)
        progress = progress_bar("tournament", transient=as_json)
        try:
            with progress:
                task = progress.add_task("games", total=len(matches))
                summary, results = tournament(
                    config,
                    progress=lambda done: progress.update(task, completed=done),
                    matches=matches,
                )
        except KeyboardInterrupt:
            console.print("interrupted", style="bold red")
            raise typer.Exit(130) from None
        except RuntimeError as exc:
            console.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
            raise typer.Exit(1) from None
        summary["parameters"]["command"] = command_line(config, out)
        if out is not None:
            write_outputs(results, summary, out, records)
        if as_json:
            print(json.dumps(summary, indent=1, sort_keys=True))
            return
        for table in summary_tables(summary):
            console.print(table)
        if out is not None:
            console.print(f"results written to {out}/games.csv and {out}/summary.json")
