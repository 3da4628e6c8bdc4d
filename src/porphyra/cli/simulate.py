"""Bot-against-bot simulations: many seeded games, one summary.

``simulate(game, bots, games, seed)`` plays ``games`` games with seeds ``seed``,
``seed + 1``, …, fresh seeded bots in every game, and returns a JSON-ready summary: wins per
seat, draws (a game without a single winner: equal returns, or a shared victory), mean
returns and game length, plus the game's own statistics from its view (Byzantium:
collapses, mean final LT and TT; Conspiracy: mean score by category).
:func:`simulate_command` is ``porphyra simulate``, which prints them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from porphyra.bots import bot_names
from porphyra.bots.selfplay import play_bot_game
from porphyra.cli.common import (
    CliError,
    check_game,
    game_label,
    handle_errors,
    has_players_option,
    make_console,
    opponent_label,
    parse_seat_kinds,
    players_hint,
    solo_options,
)
from porphyra.cli.lang import seat_label, set_language, tr
from porphyra.cli.options import game_options
from porphyra.cli.params import GAMES_HELP, LangOpt, SoloOpt
from porphyra.cli.tournament import parse_opponents
from porphyra.cli.views import GameView, view_for
from porphyra.core.game import Game
from porphyra.core.outcome import sole_winner
from porphyra.core.registry import load_game
from porphyra.i18n import N_

ProgressCallback = Callable[[int], None]


def simulate(
    game: Game,
    view: GameView,
    bots: Sequence[str],
    games: int,
    seed: int,
    progress: ProgressCallback | None = None,
) -> dict[str, Any]:
    """Play ``games`` bot games and summarize them.

    Args:
        game: the game (with its options).
        view: the game's view (for the game-specific statistics).
        bots: one bot name per seat.
        games: how many games (≥ 1).
        seed: seed of the first game; game ``g`` uses ``seed + g``.
        progress: called with the number of finished games after each game.

    Returns:
        ``{"game", "options", "games", "seed", "bots", "wins": [per seat], "draws",
        "mean_returns": [per seat], "mean_actions", ...game-specific keys}``.
        ``sum(wins) + draws == games``.

    Raises:
        ValueError: ``games`` < 1, a bot count that does not match the game, or an unknown
            bot name.
    """
    players = game.num_players
    if games < 1:
        raise ValueError("--games must be at least 1")
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots given but the game has {players} players")
    wins = [0] * players
    draws = 0
    total_returns = [0.0] * players
    total_actions = 0
    stats = []
    for g in range(games):
        state = play_bot_game(game, bots, seed + g)
        returns = state.returns()
        who = sole_winner(returns)
        if who is None:
            draws += 1
        else:
            wins[who] += 1
        for i in range(players):
            total_returns[i] += returns[i]
        total_actions += len(state.history)
        stats.append(view.game_stats(state))
        if progress is not None:
            progress(g + 1)
    summary: dict[str, Any] = {
        "game": game.info.name,
        "options": game.record_options(),
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "wins": wins,
        "draws": draws,
        "mean_returns": [round(t / games, 4) for t in total_returns],
        "mean_actions": round(total_actions / games, 2),
    }
    summary.update(view.summarize(stats, players))
    return summary


def simulate_solo(
    name: str,
    options: dict[str, Any],
    opponents: Sequence[str],
    bot: str,
    games: int,
    seed: int,
    progress: ProgressCallback | None = None,
) -> dict[str, Any]:
    """Play a bot against each Legendary Opponent (Conspiracy solo, rules section 4).

    Args:
        name: the game (``"conspiracy"``).
        options: ``load_game`` options besides ``players`` and ``opponent``.
        opponents: the LO names to play against (``"random"`` allowed).
        bot: the bot spec of the player's seat.
        games: games per opponent (≥ 1); game ``g`` uses seed ``seed + g``.
        progress: called with the number of finished games (all opponents) after each.

    Returns:
        ``{"game", "options", "games", "seed", "bot", "opponents": {name: {"wins",
        "losses", "shared", "win_rate" (shared counts half), "mean_score",
        "mean_lo_score", "mean_lo_bonus", "mean_margin" (yours minus the LO's)}}}``.

    Raises:
        ValueError: ``games`` < 1, an unknown bot or opponent.
    """
    from porphyra.core.registry import load_game

    if games < 1:
        raise ValueError("--games must be at least 1")
    per: dict[str, Any] = {}
    done = 0
    for opponent in opponents:
        game = load_game(name, **{**options, "players": 1, "opponent": opponent})
        wins = losses = shared = 0
        mine = lo = bonus = 0.0
        for g in range(games):
            state = play_bot_game(game, [bot], seed + g)
            result = state.returns()[0]
            wins += result > 0
            losses += result < 0
            shared += result == 0
            scores = state.scores()
            mine += scores[0]["total"]
            lo += scores[1]["total"]
            bonus += scores[1].get("lo_bonus", 0)
            done += 1
            if progress is not None:
                progress(done)
        per[opponent] = {
            "wins": wins,
            "losses": losses,
            "shared": shared,
            "win_rate": round((wins + shared / 2) / games, 4),
            "mean_score": round(mine / games, 3),
            "mean_lo_score": round(lo / games, 3),
            "mean_lo_bonus": round(bonus / games, 3),
            "mean_margin": round((mine - lo) / games, 3),
        }
    return {
        "game": name,
        "options": dict(options),
        "games": games,
        "seed": seed,
        "bot": bot,
        "opponents": per,
    }


def solo_table(summary: dict[str, Any]) -> Table:
    """A Rich table of a :func:`simulate_solo` summary: one row per Legendary Opponent."""
    table = Table(
        title=tr(
            "{0} solo: the {1} bot, {2} games per Legendary Opponent from seed {3}",
            game_label(str(summary["game"])),
            summary["bot"],
            summary["games"],
            summary["seed"],
        ),
        box=box.SIMPLE_HEAD,
    )
    table.add_column(tr("Opponent"), no_wrap=True, min_width=10)
    for col in (
        N_("wins"),
        N_("losses"),
        N_("shared"),
        N_("win %"),
        N_("you"),
        N_("LO"),
        N_("bonus"),
        N_("margin"),
    ):
        table.add_column(tr(col), justify="right", no_wrap=True)
    for name, row in summary["opponents"].items():
        table.add_row(
            opponent_label(name),
            str(row["wins"]),
            str(row["losses"]),
            str(row["shared"]),
            f"{100 * row['win_rate']:.1f}",
            f"{row['mean_score']:.2f}",
            f"{row['mean_lo_score']:.2f}",
            f"{row['mean_lo_bonus']:.2f}",
            f"{row['mean_margin']:+.2f}",
        )
    table.caption = tr(
        "win %: a shared victory (C-R11) counts half · you, LO: mean final score (IP) · "
        "bonus: the LO's card bonus · margin: you minus the LO"
    )
    return table


def summary_tables(summary: dict[str, Any], view: GameView) -> list[RenderableType]:
    """Rich tables of a :func:`simulate` summary."""
    labels = [f"{seat_label(i)} ({name})" for i, name in enumerate(summary["bots"])]
    games = summary["games"]
    table = Table(
        title=tr(
            "{0}: {1} games from seed {2}",
            game_label(str(summary["game"])),
            games,
            summary["seed"],
        )
    )
    table.add_column(tr("seat"))
    table.add_column(tr("wins"), justify="right")
    table.add_column(tr("win %"), justify="right")
    table.add_column(tr("mean return"), justify="right")
    for i, label in enumerate(labels):
        table.add_row(
            label,
            str(summary["wins"][i]),
            f"{100 * summary['wins'][i] / games:.1f}",
            f"{summary['mean_returns'][i]:+.3f}",
        )
    table.add_section()
    table.add_row(
        tr("draws / shared"), str(summary["draws"]), f"{100 * summary['draws'] / games:.1f}"
    )
    table.caption = tr("mean actions per game: {0}", summary["mean_actions"])
    return [table, *view.summary_tables(summary, labels)]


def simulate_command(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    games: Annotated[int, typer.Option("--games", help=N_("Number of games."))] = 100,
    seed: Annotated[int, typer.Option("--seed", help=N_("Seed of the first game."))] = 0,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            "--seats",
            help=N_(
                "Comma-separated bot per seat (default: random everywhere).  --seats is "
                "the same flag (as in play)."
            ),
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the summary as JSON."))] = False,
    solo: SoloOpt = False,
    lang: LangOpt = None,
    *,
    options: dict[str, Any],
) -> None:
    """``porphyra simulate``: play bot games; print wins per seat, draws and the game's own
    statistics (registered by :mod:`porphyra.cli` with the game's options, ``options``).

    Byzantium: collapses, mean final LT and TT.  Conspiracy: mean score by category.
    Conspiracy solo ([green]--solo --opponent all --bots easy[/]): one bot against each
    Legendary Opponent, with its win rate and mean scores per opponent.
    A progress bar runs on stderr; --json prints the summary as JSON on stdout.
    """
    console = make_console()
    with handle_errors(console):
        set_language(lang)
        name = check_game(game)
        given = solo_options(name, solo, options)
        if solo or "opponent" in options:
            _simulate_solo(console, name, games, seed, bots, as_json, given)
            return
        if has_players_option(name):
            players_hint(given, bots, "--bots")
        loaded = load_game(name, **game_options(name, given))
        if bots is None:
            kinds = ["random"] * loaded.num_players
        else:
            kinds = parse_seat_kinds(bots, loaded.num_players, "--bots")
        if "human" in kinds:
            raise CliError("--bots takes bot names only: " + ", ".join(bot_names()))
        view = view_for(name)
        progress = _simulation_progress(as_json)
        with progress:
            task = progress.add_task("games", total=games)
            summary = simulate(
                loaded,
                view,
                kinds,
                games,
                seed,
                progress=lambda done: progress.update(task, completed=done),
            )
        if as_json:
            print(json.dumps(summary, indent=1, sort_keys=True))
            return
        for table in summary_tables(summary, view):
            console.print(table)


def _simulation_progress(as_json: bool) -> Progress:
    """The progress bar of ``simulate`` (on stderr; it vanishes when printing JSON)."""
    return Progress(
        TextColumn(f"[bold]{escape(tr('simulating'))}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=make_console(stderr=True),
        transient=as_json,
    )


def _simulate_solo(
    console: Console,
    name: str,
    games: int,
    seed: int,
    bots: str | None,
    as_json: bool,
    given: dict[str, Any],
) -> None:
    """``simulate --solo``: one bot against each named Legendary Opponent (or all)."""
    from porphyra.games.conspiracy.solo import opponent_names

    which = str(given.pop("opponent", "all")).strip().lower()
    opponents = list(opponent_names()) if which == "all" else parse_opponents(which)
    kinds = parse_seat_kinds(bots or "random", 1, "--bots")
    if kinds == ["human"]:
        raise CliError("--bots takes bot names only: " + ", ".join(bot_names()))
    options = game_options(name, given)
    options.pop("players", None)
    load_game(name, **{**options, "players": 1, "opponent": opponents[0]})  # fail early
    progress = _simulation_progress(as_json)
    with progress:
        task = progress.add_task("games", total=games * len(opponents))
        summary = simulate_solo(
            name,
            options,
            opponents,
            kinds[0],
            games,
            seed,
            progress=lambda done: progress.update(task, completed=done),
        )
    if as_json:
        print(json.dumps(summary, indent=1, sort_keys=True))
        return
    console.print(solo_table(summary))
