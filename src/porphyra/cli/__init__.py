"""The ``porphyra`` console command (Typer for the arguments, Rich for the screen).

Commands: ``play`` (humans and bots at one terminal, with save and resume), ``resume``,
``replay`` (step through a saved game), ``rules`` (how to play), ``cards`` (the card set
with totals) and
``simulate`` (bot games with a progress bar and a summary table or JSON) and ``tournament``
(round-robin bot tournaments over worker processes, :mod:`porphyra.cli.tournament`).  Every
error a user can cause prints one line and exits with code 2.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from porphyra import record as records
from porphyra.bots import bot_names, make_bot
from porphyra.cli.balance import balance_command, normalize_ray_flag
from porphyra.cli.common import (
    CliError,
    check_save_path,
    fresh_seed,
    game_options,
    handle_errors,
    make_seats,
    parse_first,
    parse_seat_kinds,
)
from porphyra.cli.play import Outcome, PlaySession
from porphyra.cli.replay import run_replay
from porphyra.cli.rules import rules_markdown
from porphyra.cli.simulate import simulate as run_simulation
from porphyra.cli.simulate import simulate_solo, solo_table, summary_tables
from porphyra.cli.tournament import tournament_command
from porphyra.cli.views import view_for
from porphyra.core.registry import load_game, registered_games
from porphyra.server.cli import serve_command

app = typer.Typer(
    name="porphyra",
    help=(
        "Byzantium and Conspiracy (Abyss universe) at the terminal: play against bots or "
        "friends, replay saved games, list the cards, simulate bot games."
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    add_completion=False,
)

GAMES_HELP = "The game: " + ", ".join(registered_games()) + "."

SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help="Game seed (default: a fresh one, shown at the end; at the start if only bots play).",
    ),
]
SeatsOpt = Annotated[
    str | None,
    typer.Option(
        "--seats",
        help="Comma-separated seat kinds: 'human' or a bot name (see 'porphyra bots'). "
        "Default: you against bot(s).",
    ),
]
HintOpt = Annotated[
    str | None,
    typer.Option("--hint-bot", help="Bot that answers 'hint' at the prompt (default: hard)."),
]
DelayOpt = Annotated[
    float | None,
    typer.Option(
        "--delay",
        metavar="SECONDS",
        help="Pause after each bot move.  Default: 0.6 when every seat is a bot and the "
        "output is a terminal, else 0.",
    ),
]
#: The ``--delay`` of a bot-only game watched at a terminal.
WATCH_DELAY = 0.6
SaveOpt = Annotated[
    Path | None,
    typer.Option("--save", help="Write the record here at the end, on quit and on Ctrl-C."),
]
FirstEmperorOpt = Annotated[
    str | None, typer.Option("--first-emperor", help="Byzantium: first Emperor: 0, 1 or random.")
]
RevealOpt = Annotated[
    bool,
    typer.Option(
        "--reveal-first-draws", help="Byzantium variant: first 4 draws are shown to the opponent."
    ),
]
CardsOpt = Annotated[
    Path | None, typer.Option("--cards", help="Byzantium: a card data file to use instead.")
]
DeckOpt = Annotated[
    str | None,
    typer.Option("--deck", help="Byzantium: a shipped deck, v1 or v2 (default: the newest)."),
]
PlayersOpt = Annotated[
    int | None, typer.Option("--players", help="Conspiracy: number of players (2-4).")
]
FirstPlayerOpt = Annotated[
    str | None, typer.Option("--first-player", help="Conspiracy: first player: seat or random.")
]
BonusOpt = Annotated[
    bool, typer.Option("--bonus-locations", help="Conspiracy: add the optional bonus Locations.")
]
SoloOpt = Annotated[
    bool,
    typer.Option("--solo", help="Conspiracy: solo against a Legendary Opponent (rules section 4)."),
]
OpponentOpt = Annotated[
    str | None,
    typer.Option(
        "--opponent",
        help="Conspiracy solo: farmer, military, merchant, politician, mage or random "
        "(default); simulate also takes all.  Implies --solo.",
    ),
]


def _console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


def _options(
    game: str,
    first_emperor: str | None,
    reveal_first_draws: bool,
    cards: Path | None,
    players: int | None,
    first_player: str | None,
    bonus_locations: bool,
    opponent: str | None = None,
    deck: str | None = None,
) -> dict[str, Any]:
    return game_options(
        game,
        {
            "--first-emperor": parse_first(first_emperor, "--first-emperor"),
            "--reveal-first-draws": reveal_first_draws,
            "--cards": cards,
            "--players": players,
            # Conspiracy draws the first player from the seed when none is given.
            "--first-player": None
            if first_player is not None and first_player.strip().lower() == "random"
            else parse_first(first_player, "--first-player"),
            "--bonus-locations": bonus_locations,
            "--opponent": opponent,
            "--deck": deck,
        },
    )


def _solo(name: str, solo: bool, opponent: str | None, players: int | None) -> int | None:
    """``--solo`` / ``--opponent``: Conspiracy's solo mode is ``players=1``.

    Returns:
        The ``players`` value to use (1 in solo, else ``players`` unchanged).

    Raises:
        CliError: the flags name another game, or contradict ``--players``.
    """
    if not solo and opponent is None:
        return players
    if name != "conspiracy":
        raise CliError(f"--solo and --opponent apply to conspiracy, not to {name}")
    if players not in (None, 1):
        raise CliError("--solo is one player against a Legendary Opponent: drop --players")
    return 1


def _check_game(name: str) -> str:
    name = name.strip().lower()
    if name not in registered_games():
        raise CliError(f"unknown game {name!r}; known games: {', '.join(registered_games())}")
    return name


def _players_hint(seats: str | None, players: int | None, option: str = "--seats") -> int | None:
    """Conspiracy: without --players, the number of names in --seats (``option``) sets it."""
    if players is None and seats is not None:
        return len(parse_seat_kinds(seats, None, option))
    return players


def _run_session(
    console: Console,
    state: Any,
    seats: str | None,
    seed: int,
    save: Path | None,
    hint_bot: str | None = None,
    delay: float | None = None,
) -> None:
    game = state.game
    kinds = parse_seat_kinds(seats, game.num_players)
    if delay is None:
        watching = "human" not in kinds and console.is_terminal
        delay = WATCH_DELAY if watching else 0.0
    if delay < 0:
        raise CliError("--delay must be 0 or more seconds")
    check_save_path(save)  # now, not after the whole game
    if hint_bot is not None:
        make_bot(hint_bot)  # fail now, with a clear message, on an unknown bot
    if sys.stdin.isatty():
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing and history at the prompt)
    session = PlaySession(
        state,
        make_seats(kinds, seed),
        console,
        view_for(game.info.name),
        save_path=save,
        hint_bot=hint_bot,
        delay=delay,
    )
    outcome = session.run()
    if outcome is Outcome.INTERRUPTED:
        raise typer.Exit(130)


@app.command()
def play(
    game: Annotated[str | None, typer.Argument(help=GAMES_HELP, show_default=False)] = None,
    seats: SeatsOpt = None,
    seed: SeedOpt = None,
    save: SaveOpt = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="Continue the unfinished game saved here.")
    ] = None,
    first_emperor: FirstEmperorOpt = None,
    reveal_first_draws: RevealOpt = False,
    cards: CardsOpt = None,
    deck: DeckOpt = None,
    players: PlayersOpt = None,
    first_player: FirstPlayerOpt = None,
    bonus_locations: BonusOpt = False,
    hint_bot: HintOpt = None,
    solo: SoloOpt = False,
    opponent: OpponentOpt = None,
    delay: DelayOpt = None,
) -> None:
    """Play at this terminal: you against bots, friends on one screen, or bots only.

    Friends on one screen (hot seat) pass the device between turns; hands stay hidden.

    At the prompt type a menu number or an action in the notation; [cyan]help[/],
    [cyan]log[/], [cyan]menu[/], [cyan]board[/] and [cyan]quit[/] also work.

    Examples: [green]porphyra play byzantium --seats human,random --save game.json[/];
    [green]porphyra play conspiracy --players 3 --seats human,random,random[/];
    solo against a Legendary Opponent: [green]porphyra play conspiracy --solo --opponent
    military[/].
    """
    console = _console()
    with handle_errors(console):
        if resume is not None:
            _resume(console, resume, seats, save, hint_bot, delay)
            return
        if game is None:
            raise CliError("name a game to play (" + ", ".join(registered_games()) + ")")
        name = _check_game(game)
        players = _solo(name, solo, opponent, players)
        if name == "conspiracy":
            players = _players_hint(seats, players)
        if opponent is not None and opponent.strip().lower() == "all":
            raise CliError("--opponent all is for simulate; play one Legendary Opponent")
        options = _options(
            name,
            first_emperor,
            reveal_first_draws,
            cards,
            players,
            first_player,
            bonus_locations,
            _opponent(solo, opponent),
            deck,
        )
        loaded = load_game(name, **options)
        seed = fresh_seed() if seed is None else seed
        state = loaded.new_initial_state(seed=seed)
        _run_session(console, state, seats, seed, save, hint_bot, delay)


def _opponent(solo: bool, opponent: str | None) -> str | None:
    """The ``opponent`` option: the named LO (lower case), ``random`` for a bare --solo."""
    if opponent is not None:
        return opponent.strip().lower()
    return "random" if solo else None


def _resume(
    console: Console,
    path: Path,
    seats: str | None,
    save: Path | None,
    hint_bot: str | None = None,
    delay: float | None = None,
) -> None:
    record = records.load(path)
    state = records.replay(record)
    if state.is_terminal():
        console.print(f"The game in {escape(str(path))} is already over.")
        view = view_for(state.game.info.name)
        labels = [f"Seat {i}" for i in range(state.game.num_players)]
        console.print(view.board(state.game, state.public_observation(), labels))
        console.print(view.result(state.game, state, labels))
        return
    _run_session(console, state, seats, state.seed, save or path, hint_bot, delay)


@app.command()
def resume(
    file: Annotated[Path, typer.Argument(help="A record saved with --save.")],
    seats: SeatsOpt = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="Save here instead of back into FILE.")
    ] = None,
    hint_bot: HintOpt = None,
    delay: DelayOpt = None,
) -> None:
    """Continue a saved unfinished game (saved back into FILE unless --save is given)."""
    console = _console()
    with handle_errors(console):
        _resume(console, file, seats, save, hint_bot, delay)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record saved with --save.")],
    seat: Annotated[
        int | None,
        typer.Option("--seat", help="Show this seat's view (its hand) instead of the public one."),
    ] = None,
    pause: Annotated[
        bool, typer.Option("--pause/--no-pause", help="Wait for Enter after each action.")
    ] = True,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            "--all",
            help="Show every action as recorded, also the private ones (the card each "
            "Byzantium player passes).",
        ),
    ] = False,
) -> None:
    """Step through a saved game, action by action, with the log of what changed."""
    console = _console()
    with handle_errors(console):
        record = records.load(file)
        run_replay(record, console, view_for(record["game"]), seat=seat, pause=pause, reveal=reveal)


@app.command()
def cards(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    card_file: Annotated[
        Path | None, typer.Option("--cards", help="Byzantium: list this card data file instead.")
    ] = None,
    deck: DeckOpt = None,
) -> None:
    """List the card set with totals per deck and age (Conspiracy: lords and Locations)."""
    console = _console()
    with handle_errors(console):
        name = _check_game(game)
        options = _options(name, None, False, card_file, None, None, False, deck=deck)
        loaded = load_game(name, **options)
        for renderable in view_for(name).cards(loaded):
            console.print(renderable)


@app.command()
def rules(game: Annotated[str, typer.Argument(help=GAMES_HELP)]) -> None:
    """How to play GAME: the goal, a turn, scoring and the action notation."""
    console = _console()
    with handle_errors(console):
        console.print(rules_markdown(_check_game(game)))


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    games: Annotated[int, typer.Option("--games", help="Number of games.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the first game.")] = 0,
    bots: Annotated[
        str | None,
        typer.Option(
            "--bots",
            help="Comma-separated bot per seat (default: random everywhere).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    first_emperor: FirstEmperorOpt = None,
    reveal_first_draws: RevealOpt = False,
    cards: CardsOpt = None,
    deck: DeckOpt = None,
    players: PlayersOpt = None,
    first_player: FirstPlayerOpt = None,
    bonus_locations: BonusOpt = False,
    solo: SoloOpt = False,
    opponent: OpponentOpt = None,
) -> None:
    """Play bot games; print wins per seat, draws and the game's own statistics.

    Byzantium: collapses, mean final LT and TT.  Conspiracy: mean score by category.
    Conspiracy solo ([green]--solo --opponent all --bots easy[/]): one bot against each
    Legendary Opponent, with its win rate and mean scores per opponent.
    A progress bar runs on stderr; --json prints the summary as JSON on stdout.
    """
    console = _console()
    with handle_errors(console):
        name = _check_game(game)
        if solo or opponent is not None:
            _solo(name, solo, opponent, players)  # checks the flags
            _simulate_solo(
                console, name, games, seed, bots, as_json, first_player, bonus_locations, opponent
            )
            return
        if name == "conspiracy":
            players = _players_hint(bots, players, "--bots")
        options = _options(
            name,
            first_emperor,
            reveal_first_draws,
            cards,
            players,
            first_player,
            bonus_locations,
            deck=deck,
        )
        loaded = load_game(name, **options)
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
            summary = run_simulation(
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
        TextColumn("[bold]simulating[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=_console(stderr=True),
        transient=as_json,
    )


def _simulate_solo(
    console: Console,
    name: str,
    games: int,
    seed: int,
    bots: str | None,
    as_json: bool,
    first_player: str | None,
    bonus_locations: bool,
    opponent: str | None,
) -> None:
    """``simulate --solo``: one bot against each named Legendary Opponent (or all)."""
    from porphyra.games.conspiracy.solo import opponent_names

    which = (opponent or "all").strip().lower()
    opponents = list(opponent_names()) if which == "all" else [which]
    kinds = parse_seat_kinds(bots or "random", 1, "--bots")
    if kinds == ["human"]:
        raise CliError("--bots takes bot names only: " + ", ".join(bot_names()))
    options = _options(name, None, False, None, 1, first_player, bonus_locations)
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


app.command(name="tournament")(tournament_command)
app.command(name="balance")(balance_command)
app.command(name="serve")(serve_command)


@app.command()
def bots() -> None:
    """List the bot names that --seats and --bots accept, and the options of a bot spec."""
    from rich.table import Table

    from porphyra.bots import describe_bots, option_names

    console = _console()
    table = Table(title="Seats and bots", show_lines=False)
    table.add_column("name", style="bold")
    table.add_column("plays")
    table.add_row("human", "a person at this terminal (porphyra play only)")
    for name, text in describe_bots():
        table.add_row(name, text)
    console.print(table)
    console.print(
        "A bot spec may carry options: NAME:KEY=VALUE,... e.g. "
        "'ismcts:iterations=3000,exploration=0.5' or 'hard:seconds=5'.\n"
        f"Option keys: {', '.join(option_names())} (see porphyra.bots.ISMCTSBot)."
    )


def main() -> None:
    """Entry point of the ``porphyra`` console script."""
    app(args=normalize_ray_flag(sys.argv[1:]), prog_name="porphyra")


__all__ = ["app", "main"]
