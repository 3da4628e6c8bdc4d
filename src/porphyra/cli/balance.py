"""``porphyra balance GAME``: the balance lab for designers (:mod:`porphyra.balance`).

Plays seeded campaigns of bot pairings on mirrored deals and writes ``summary.json`` and a
self-contained ``report.html`` into ``--out``; ``--compare A B`` runs the same campaign on two
Byzantium card files; ``--tune`` searches card forces and copies (Optuna) and writes the best
card file with its report.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    Progress,
)
from rich.table import Table

from porphyra.balance.campaign import Campaign
from porphyra.cli.common import CliError, handle_errors, progress_bar
from porphyra.cli.options import game_options, with_game_options
from porphyra.core.registry import game_info, registered_games, solo_games


def _advance(bar: Progress, campaign: Campaign, sets: int = 1) -> Callable[[int], None]:
    """A progress callback for ``campaign``'s games (on ``sets`` card sets) on a new task
    of ``bar`` (the cap: ``--until`` may stop before)."""
    task = bar.add_task("games", total=sets * len(campaign.tasks()))
    return lambda done: bar.update(task, completed=done)


def _pairings(
    bots: list[str] | None, game: str, players: int | None
) -> tuple[tuple[str, ...], ...]:
    """The pairings of ``--bots`` (each as ``porphyra tournament --bots`` reads a list:
    ``easy,ismcts:iterations=200,exploration=0.5`` is two bots); default easy in every seat.

    Raises:
        CliError / ValueError: an unknown bot or a bad bot option.
    """
    from porphyra.cli.tournament import parse_bots

    if not bots:
        count = 1 if game in solo_games() and players == 1 else (players or 2)
        return (("easy",) * count,)
    return tuple(tuple(parse_bots(spec)) for spec in bots)


def _percent(r: dict[str, Any]) -> str:
    if r.get("rate") is None:
        return "–"
    return f"{100 * r['rate']:.1f}% [{100 * r['ci95'][0]:.1f}–{100 * r['ci95'][1]:.1f}]"


def _headline(summary: dict[str, Any]) -> Table:
    from porphyra.balance.hooks import balance_hooks

    table = Table(title=f"{summary['game']}: balance", show_lines=False)
    table.add_column("pairing")
    table.add_column("games", justify="right")
    table.add_column("distinct", justify="right")
    columns, cells = balance_hooks(summary["game"]).headline
    for title, justify in columns:
        table.add_column(title, justify=justify)  # type: ignore[arg-type]
    for p in summary["pairings"]:
        f = p["figures"]
        table.add_row(" vs ".join(p["bots"]), str(f["games"]), str(f["distinct_games"]), *cells(f))
    return table


def _compare_table(comparison: dict[str, Any]) -> Table:
    table = Table(title="B − A on the same deals (paired)")
    for col in ("pairing", "figure", "A", "B", "B − A, points", "p (McNemar)", "games"):
        table.add_column(col)
    for p in comparison["pairings"]:
        for f in p["figures"].values():
            if "paired" not in f:  # the game-shape means: in the report
                continue
            d = f["paired"]
            diff = (
                "–"
                if d["diff"] is None
                else f"{100 * d['diff']:+.1f} [{100 * d['ci95'][0]:+.1f} to "
                f"{100 * d['ci95'][1]:+.1f}]"
            )
            table.add_row(
                " vs ".join(p["bots"]),
                f["figure"],
                _percent(f["a"]),
                _percent(f["b"]),
                diff,
                str(d["p_value"]),
                str(d["games"]),
            )
    return table


#: Options the lab sets itself: it rotates the seats (and Byzantium's first Emperor) on
#: mirrored deals, and plays the solo opponents of --opponents.
LAB_CONTROLLED = ("first_emperor", "first_player", "opponent")


#: What ``porphyra balance`` needs beyond a plain install (the ``balance`` extra).
BALANCE_EXTRA = ("scipy", "matplotlib", "optuna")


def require_balance_extra() -> None:
    """Fail before any game is played when the ``balance`` extra is missing (the README's
    play command installs no extra).

    Raises:
        CliError: one of :data:`BALANCE_EXTRA` cannot be imported.
    """
    missing = [name for name in BALANCE_EXTRA if importlib.util.find_spec(name) is None]
    if missing:
        raise CliError(
            "porphyra balance needs the balance extra: pip install 'porphyra[balance]' "
            "(or '.[balance]' in a checkout)"
        )


@with_game_options(exclude=LAB_CONTROLLED)
def balance_command(
    game: Annotated[str, typer.Argument(help="The game: " + ", ".join(registered_games()) + ".")],
    bots: Annotated[
        list[str] | None,
        typer.Option(
            "--bots",
            help="A bot pairing, one spec per seat, e.g. easy,medium; repeat for several "
            "pairings (default: easy against easy).",
        ),
    ] = None,
    games: Annotated[
        int, typer.Option("--games", help="Games per pairing (the cap with --until).")
    ] = 400,
    until: Annotated[
        float | None,
        typer.Option(
            "--until",
            help="Play in batches until the 95% interval of the headline figure (with "
            "--compare: of the paired difference) is at most this half-width, e.g. 0.03 "
            "for ± 3 points; --games is the cap.",
        ),
    ] = None,
    batch: Annotated[
        int, typer.Option("--batch", help="With --until: games between two looks.")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first deal.")] = 0,
    workers: Annotated[
        int | None, typer.Option("--workers", help="Worker processes (default: all CPUs).")
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run on Ray: a cluster ADDRESS, or a local instance when none is given "
            "(or 'local'; needs the scale extra). Same results as a local run.",
        ),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", help="Write summary.json and report.html here.")
    ] = Path("balance-report"),
    compare_files: Annotated[
        tuple[Path, Path] | None,
        typer.Option("--compare", help="Byzantium: two card files, side by side."),
    ] = None,
    opponents: Annotated[
        str | None,
        typer.Option(
            "--opponent",
            "--opponents",
            help="Conspiracy solo: all or a list of Legendary Opponents.",
        ),
    ] = None,
    edits: Annotated[
        list[str] | None,
        typer.Option(
            "--set",
            help="Byzantium: edit a card of the deck (--deck/--cards, default the newest) "
            "without editing JSON: CARD.FIELD=NUMBER with FIELD force, copies or legacy "
            "(legacy from deck v4 on), e.g. siege-train.force=2; repeat for several. The "
            "edited deck is written to --out as cards.json.",
        ),
    ] = None,
    vs_base: Annotated[
        bool,
        typer.Option(
            "--vs-base",
            help="With --set: compare the edited deck with the deck it edits, game by game "
            "on the same deals (as --compare).",
        ),
    ] = False,
    records: Annotated[
        list[Path] | None,
        typer.Option(
            "--records",
            help="Report on people's games instead of playing: record files or directories "
            "of them (the terminal's saves, the web server's downloads); repeatable.",
        ),
    ] = None,
    tune: Annotated[
        bool,
        typer.Option(
            "--tune",
            help="Byzantium: search forces, copies and legacy values (Optuna), each "
            "candidate measured "
            "with every --bots pairing (default easy,easy; add a search pairing such as "
            "ismcts:iterations=100,ismcts:iterations=100 to tune for stronger play).",
        ),
    ] = False,
    trials: Annotated[int, typer.Option("--trials", help="With --tune: candidates.")] = 60,
    knobs: Annotated[
        str,
        typer.Option(
            "--knobs",
            help="With --tune: groups (cards moved in groups), fine (card by card) or "
            "legacy (legacy values by Age with the Early and Late strengths).",
        ),
    ] = "groups",
    *,
    options: dict[str, Any],
) -> None:
    """The balance lab: seat and role advantage, how games end, curves, per-card figures.

    Plays every --bots pairing on mirrored deals (each bot in every seat on the same cards)
    and writes summary.json and a self-contained report.html (plots embedded) into --out.

    Examples: [green]porphyra balance byzantium --bots easy,easy --bots easy,medium --games
    400 --out lab/[/]; [green]porphyra balance byzantium --compare a.json b.json[/];
    [green]porphyra balance byzantium --set siege-train.force=2 --vs-base --until 0.03[/];
    [green]porphyra balance byzantium --records saves/[/];
    [green]porphyra balance conspiracy --players 3[/];
    [green]porphyra balance byzantium --tune --trials 60 --games 1000 --out tuned/[/].
    """
    from porphyra.balance import lab, report

    console = Console(highlight=False)
    with handle_errors(console):
        require_balance_extra()
        if game not in registered_games():
            raise CliError(f"unknown game {game!r}; known: {', '.join(registered_games())}")
        options = game_options(game, options)
        deck, cards, players = options.get("deck"), options.get("cards"), options.get("players")
        from porphyra.balance.hooks import deck_games

        if game not in deck_games() and (compare_files or tune or edits):
            raise CliError(f"--compare, --set and --tune are for {', '.join(deck_games())}")
        if edits and (compare_files or tune):
            raise CliError(
                "--set edits the deck of --deck or --cards; not with --compare or --tune"
            )
        if records and (compare_files or tune or edits or bots or until is not None):
            raise CliError("--records reports on recorded games: not with --bots, --compare, "
                           "--set, --tune or --until")  # fmt: skip
        if vs_base and not edits:
            raise CliError("--vs-base compares a deck edited with --set with its base: add --set")
        if game not in solo_games() and opponents:
            raise CliError(f"--opponents is for {', '.join(solo_games())}")
        if sum(x is not None for x in (deck, cards, compare_files)) > 1:
            raise CliError("give one of --deck, --cards, --compare")
        n_workers = (os.cpu_count() or 1) if workers is None else workers
        if until is not None and tune:
            raise CliError("--until is for a campaign or --compare, not --tune")
        command = command_line(
            game, bots, games, seed, n_workers, ray, out, options, compare_files, opponents,
            tune, trials, knobs, until, batch, edits or [], vs_base, records or [],
        )  # fmt: skip
        if records:
            from porphyra.balance.records import summarize_records

            summary = summarize_records(game, records, command)
            summary_path, html_path = report.write(summary, out)
            console.print(_headline(summary))
            for line in summary["records"]["skipped"]:
                # a record's text is never markup nor terminal control codes
                console.print(f"left out: {escape(printable(line))}", soft_wrap=True)
            console.print(f"written: {summary_path} and {html_path}")
            return
        los: tuple[str, ...] = ()
        if game in solo_games():
            if opponents and players not in (None, 1):
                raise CliError("--opponents is for the solo mode (--players 1)")
            if players == 1 or opponents:
                from porphyra.tournament.schedule import LEGENDARY_OPPONENTS

                los = tuple(
                    LEGENDARY_OPPONENTS
                    if opponents in (None, "all")
                    else [o.strip() for o in (opponents or "").split(",")]
                )
                players = 1
                options.pop("players", None)
        pairings = _pairings(bots, game, players)
        base_options = dict(options)
        if edits:  # after every other check: a refused command writes nothing
            options = {"cards": str(_write_edited(options, edits, out))}
        if tune:
            _tune(
                console,
                game,
                options,
                trials,
                games,
                seed,
                n_workers,
                out,
                command,
                knobs,
                pairings,
            )
            return
        if compare_files is not None or vs_base:
            sets = (
                [base_options, options]
                if compare_files is None
                else [{"cards": str(path)} for path in compare_files]
            )
            campaigns = [Campaign(game, o, pairings, games, seed, los) for o in sets]
            with progress_bar("compare") as bar:
                comparison = lab.run_compare(
                    campaigns, command, n_workers, _advance(bar, campaigns[0], 2), ray,
                    until, batch,
                )  # fmt: skip
            page = report.write_compare(comparison, out)
            console.print(_compare_table(comparison))
            console.print(f"report written to {page}")
            return
        campaign = Campaign(game, options, pairings, games, seed, los)
        with progress_bar("balance") as bar:
            summary = lab.run_lab(
                campaign, command, n_workers, _advance(bar, campaign), ray, until, batch
            )
        summary_path, html_path = report.write(summary, out)
        console.print(_headline(summary))
        if not summary["sampling"].get("fixed", True):
            console.print(summary["sampling"]["reason"])
        console.print(f"written: {summary_path} and {html_path}")


def command_line(
    game: str,
    bots: list[str] | None,
    games: int,
    seed: int,
    workers: int,
    ray: str | None,
    out: Path,
    options: dict[str, Any],
    compare_files: tuple[Path, Path] | None,
    opponents: str | None,
    tune: bool,
    trials: int,
    knobs: str = "groups",
    until: float | None = None,
    batch: int = 200,
    edits: list[str] | None = None,
    vs_base: bool = False,
    records: list[Path] | None = None,
) -> str:
    """The ``porphyra balance`` command line of these parameters (for the summary);
    ``options`` are the game options as :func:`~porphyra.cli.options.game_options` gives
    them (each becomes its declared flag)."""
    args = ["porphyra", "balance", game]
    for spec in bots or []:
        args += ["--bots", spec]
    args += ["--games", str(games), "--seed", str(seed), "--workers", str(workers)]
    if ray is not None:
        args += ["--ray", ray]
    declared = {o.name: o for o in game_info(game).options}
    for name, value in options.items():
        flag = declared[name].flag
        args += [flag] if value is True else [flag, str(value)]
    if opponents is not None:
        args += ["--opponents", opponents]
    if compare_files is not None:
        args += ["--compare", str(compare_files[0]), str(compare_files[1])]
    if tune:
        args += ["--tune", "--trials", str(trials), "--knobs", knobs]
    for edit in edits or []:
        args += ["--set", edit]
    if vs_base:
        args += ["--vs-base"]
    for path in records or []:
        args += ["--records", str(path)]
    if until is not None:
        args += ["--until", str(until), "--batch", str(batch)]
    args += ["--out", str(out)]
    return shlex.join(args)


def printable(text: str) -> str:
    """``text`` with its control characters (terminal escapes) written as escapes."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def normalize_ray_flag(argv: list[str]) -> list[str]:
    """``--ray`` with no address (last, or followed by another option) means ``--ray local``
    (Typer options always take their value, so the bare flag is completed here)."""
    out = list(argv)
    for i, arg in enumerate(out):
        if arg == "--ray" and (i + 1 == len(out) or out[i + 1].startswith("-")):
            out.insert(i + 1, "local")
            break
    return out


def _write_edited(options: dict[str, Any], edits: list[str], out: Path) -> Path:
    """Apply the ``--set`` edits to the base deck and write it as ``out/cards.json``.

    Raises:
        EditError / CardDataError: a bad edit (nothing is written); OSError: ``out``.
    """
    from porphyra.balance.edits import apply_edits, base_deck, parse_edit

    parsed = [parse_edit(e) for e in edits]
    path, base = base_deck(options)
    label = options.get("deck") or (path.name if "cards" in options else path.stem)
    deck = apply_edits(base, parsed, str(label))
    out.mkdir(parents=True, exist_ok=True)
    card_file = out / "cards.json"
    card_file.write_text(json.dumps(deck, indent=1) + "\n", encoding="utf-8")
    return card_file


def _tune(
    console: Console,
    game: str,
    options: dict[str, Any],
    trials: int,
    games: int,
    seed: int,
    workers: int,
    out: Path,
    command: str,
    knob_set: str,
    pairings: tuple[tuple[str, ...], ...],
) -> None:
    from porphyra.balance import lab, report, tune
    from porphyra.balance.edits import base_deck

    base_path, base = base_deck(options)  # the newest shipped deck unless another is named
    knobs = tune.KNOB_SETS.get(knob_set)
    if knobs is None:
        raise CliError(f"--knobs must be one of {', '.join(tune.KNOB_SETS)}, not {knob_set!r}")
    two_seat = [(p[0], p[1]) for p in pairings if len(p) == 2]
    with progress_bar("tuning") as bar:
        task = bar.add_task("trials", total=trials)
        best, metrics, history = tune.tune(
            base,
            trials,
            games,
            seed,
            workers,
            on_trial=lambda n, *_: bar.update(task, completed=n + 1),
            knobs=knobs,
            pairings=two_seat,
        )
    deck = tune.apply_knobs(base, best, knobs)
    deck["name"] = f"Tuned from {base.get('name', base_path.name)}"
    deck["version"] = None
    deck["provenance"] = (
        f"{command}: knobs {json.dumps({k: v for k, v in best.items() if v})}; "
        + "; ".join(
            f"{' vs '.join(p)} over {m.games} games: first Emperor {m.first_share:.3f}, "
            f"collapses {m.collapse:.3f}, by turn 3 {m.collapse_by_3:.3f}, leader after "
            f"turn 8 wins {m.leader_after_8}, a 3-LT lead {m.lead3_after_8}, "
            f"battles {m.battles}"
            for p, m in zip(two_seat, metrics, strict=True)
        )
    )
    out.mkdir(parents=True, exist_ok=True)
    card_file = out / "cards.json"
    card_file.write_text(json.dumps(deck, indent=1) + "\n", encoding="utf-8")
    (out / "trials.json").write_text(json.dumps(history, indent=1) + "\n", encoding="utf-8")
    campaign = Campaign(game, {"cards": str(card_file)}, tuple(two_seat), games, seed)
    summary = lab.run_lab(campaign, command, workers)
    summary["tuning"] = {"best": best, "knobs": [k.__dict__ for k in knobs]}
    report.write(summary, out)
    console.print(_headline(summary))
    console.print(f"best card file: {card_file}; report: {out / 'report.html'}")
