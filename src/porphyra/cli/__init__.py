"""The ``porphyra`` console command (Typer for the arguments, Rich for the screen).

Commands: ``play`` (humans and bots at one terminal, with save and resume), ``resume``,
``replay`` (step through a saved game), ``review`` (a seat's decisions, marked),
``rules`` (how to play), ``cards`` (the card set with totals) and
``simulate`` (bot games with a progress bar and a summary table or JSON) and ``tournament``
(round-robin bot tournaments over worker processes, :mod:`porphyra.cli.tournament`).  Every
error a user can cause prints one line and exits with code 2.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperOption

from porphyra import record as records
from porphyra.bots import check_bot
from porphyra.cli.agent import agent_command
from porphyra.cli.balance import balance_command, normalize_ray_flag
from porphyra.cli.common import (
    HUMAN,
    CliError,
    check_game,
    check_save_path,
    fresh_seed,
    handle_errors,
    has_players_option,
    make_console,
    make_seats,
    parse_seat_kinds,
    players_hint,
    solo_options,
)
from porphyra.cli.ladder import ladder_command, ladder_notes
from porphyra.cli.lang import set_language, styled, tr, translated_help
from porphyra.cli.options import game_options, with_game_options
from porphyra.cli.params import (
    GAMES_HELP,
    ConfirmOpt,
    DelayOpt,
    HintOpt,
    LangOpt,
    SaveOpt,
    SeatsOpt,
    SeedOpt,
    SoloOpt,
)
from porphyra.cli.play import Outcome, PlaySession
from porphyra.cli.replay import record_labels, run_replay
from porphyra.cli.resume_list import pick_saved_game
from porphyra.cli.review import review_command
from porphyra.cli.rules import rules_markdown
from porphyra.cli.saves import autosave_path, games_dir
from porphyra.cli.simulate import simulate_command
from porphyra.cli.tournament import tournament_command
from porphyra.cli.views import view_for
from porphyra.core.registry import load_game, registered_games
from porphyra.server.cli import ratings_app, serve_command

app = typer.Typer(
    name="porphyra",
    help=tr(
        "Byzantium and Conspiracy (Abyss universe) at the terminal: play against bots or "
        "friends, replay saved games, list the cards, simulate bot games."
    ),
    no_args_is_help=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    add_completion=False,
)


def _flag_type(self: TyperOption, ctx: Any) -> str | None:
    """The type shown after an option in ``--help``: none for a plain flag (``--solo``,
    not ``--solo <bool>``)."""
    if self.is_flag:
        return None
    return _SHOWN_TYPE(self, ctx)


_SHOWN_TYPE = TyperOption.display_type_rich
TyperOption.display_type_rich = _flag_type  # type: ignore[method-assign]


#: The ``--delay`` of a bot-only game watched at a terminal.
WATCH_DELAY = 0.6


def _run_session(
    console: Console,
    state: Any,
    seats: str | None,
    seed: int,
    save: Path | None,
    hint_bot: str | None = None,
    delay: float | None = None,
    confirm: bool | None = None,
) -> None:
    game = state.game
    kinds = parse_seat_kinds(seats, game.num_players)
    if delay is None:
        watching = "human" not in kinds and console.is_terminal
        delay = WATCH_DELAY if watching else 0.0
    if delay < 0:
        raise CliError("--delay must be 0 or more seconds")
    # Fail now, with a clear message, on an unknown bot or an option the game does not
    # have: before the game's file is made, not at the bot's first move.
    for spec in [*(k for k in kinds if k != HUMAN), *([] if hint_bot is None else [hint_bot])]:
        check_bot(spec, game.info.name)
    if save is None:  # every game is kept as it is played (porphyra resume lists them)
        try:
            save = autosave_path(game.info.name)
        except OSError as exc:  # e.g. a read-only home: play all the same, unsaved
            console.print(
                styled(
                    "yellow",
                    "cannot keep this game in {0}: {1}; give --save FILE to keep it.",
                    str(games_dir()),
                    exc.strerror or str(exc),
                ),
                highlight=False,
            )
    else:
        check_save_path(save)  # now, not after the whole game
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
        confirm=sys.stdin.isatty() if confirm is None else confirm,
    )
    outcome = session.run()
    if outcome is Outcome.INTERRUPTED:
        raise typer.Exit(130)


PLAY_HELP = tr(
    """Play at this terminal: you against bots, friends on one screen, or bots only.

Friends on one screen (hot seat) pass the device between turns; hands stay hidden.

At the prompt type a menu number or an action in the notation; [cyan]help[/],
[cyan]menu[/], [cyan]hint[/], [cyan]undo[/], [cyan]log[/], [cyan]board[/] and [cyan]quit[/]
also work.

Examples: [green]porphyra play byzantium --seats human,random --save game.json[/];
[green]porphyra play conspiracy --players 3 --seats human,random,random[/];
solo against a Legendary Opponent: [green]porphyra play conspiracy --solo --opponent
military[/]."""
)
RECORD_HELP = tr("A record saved with --save.")


@app.command(help=PLAY_HELP)
@with_game_options()
def play(
    game: Annotated[str | None, typer.Argument(help=GAMES_HELP, show_default=False)] = None,
    seats: SeatsOpt = None,
    seed: SeedOpt = None,
    save: SaveOpt = None,
    resume: Annotated[
        Path | None,
        typer.Option("--resume", help=tr("Continue the unfinished game saved here.")),
    ] = None,
    hint_bot: HintOpt = None,
    solo: SoloOpt = False,
    delay: DelayOpt = None,
    confirm: ConfirmOpt = None,
    lang: LangOpt = None,
    *,
    options: dict[str, Any],
) -> None:
    """Play at this terminal (:data:`PLAY_HELP`, shown by ``--help`` in the terminal's
    language)."""
    console = make_console()
    with handle_errors(console):
        set_language(lang)
        if resume is not None:
            _resume(console, resume, seats, save, hint_bot, delay, confirm)
            return
        if game is None:
            raise CliError("name a game to play (" + ", ".join(registered_games()) + ")")
        name = check_game(game)
        given = solo_options(name, solo, options)
        if has_players_option(name):
            players_hint(given, seats)
        if str(given.get("opponent", "")).strip().lower() == "all":
            raise CliError("--opponent all is for simulate; play one Legendary Opponent")
        loaded = load_game(name, **game_options(name, given))
        seed = fresh_seed() if seed is None else seed
        state = loaded.new_initial_state(seed=seed)
        _run_session(console, state, seats, seed, save, hint_bot, delay, confirm)


def _resume(
    console: Console,
    path: Path,
    seats: str | None,
    save: Path | None,
    hint_bot: str | None = None,
    delay: float | None = None,
    confirm: bool | None = None,
) -> None:
    record = records.load(path)
    state = records.replay(record)
    if state.is_terminal():
        console.print(f"The game in {escape(str(path))} is already over.")
        view = view_for(state.game.info.name)
        labels = record_labels(record, state.game.num_players)
        console.print(view.board(state.game, state.public_observation(), labels))
        console.print(view.result(state.game, state, labels))
        return
    if seats is None:  # the seats as saved (a record from before they were: the default)
        kinds = records.seat_kinds(record)
        if kinds is not None:
            seats = ",".join(kinds)
            # (checked here, so that a refusal names the record, not a --seats never given)
            parse_seat_kinds(seats, state.game.num_players, f"the seats saved in {path}")
    _run_session(console, state, seats, state.seed, save or path, hint_bot, delay, confirm)


@app.command(
    help=tr(
        "Continue a saved unfinished game (saved back into FILE unless --save is given); "
        "without FILE, choose one of the unfinished games kept in the games folder."
    )
)
def resume(
    file: Annotated[
        Path | None,
        typer.Argument(
            help=tr("A record; default: one of the unfinished games played at this terminal."),
            show_default=False,
        ),
    ] = None,
    seats: SeatsOpt = None,
    save: Annotated[
        Path | None, typer.Option("--save", help=tr("Save here instead of back into FILE."))
    ] = None,
    hint_bot: HintOpt = None,
    delay: DelayOpt = None,
    confirm: ConfirmOpt = None,
    lang: LangOpt = None,
) -> None:
    """Continue a saved unfinished game (saved back into FILE unless --save is given);
    without FILE, the one the player picks among the unfinished games kept by ``play``."""
    console = make_console()
    with handle_errors(console):
        set_language(lang)
        if file is None:
            file = pick_saved_game(console, lambda prompt: console.input(prompt))
            if file is None:
                return
        _resume(console, file, seats, save, hint_bot, delay, confirm)


@app.command(help=tr("Step through a saved game, action by action, with the log of what changed."))
def replay(
    file: Annotated[Path, typer.Argument(help=RECORD_HELP)],
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            help=tr(
                "Show this seat's view (its hand) instead of the public one: 1 is the "
                "first seat, as everywhere people see seats."
            ),
        ),
    ] = None,
    pause: Annotated[
        bool, typer.Option("--pause/--no-pause", help=tr("Wait for Enter after each action."))
    ] = True,
    reveal: Annotated[
        bool,
        typer.Option(
            "--reveal",
            "--all",
            help=tr(
                "Show every action as recorded, also the private ones (the card each "
                "Byzantium player passes)."
            ),
        ),
    ] = False,
    lang: LangOpt = None,
) -> None:
    """Step through a saved game, action by action, with the log of what changed."""
    console = make_console()
    with handle_errors(console):
        set_language(lang)
        record = records.load(file)
        players = records.replay(record, upto=0).game.num_players
        if seat is not None and not 1 <= seat <= players:
            raise CliError(f"--seat must be between 1 and {players} (Seat 1 is the first seat)")
        run_replay(
            record,
            console,
            view_for(record["game"]),
            seat=None if seat is None else seat - 1,
            pause=pause,
            reveal=reveal,
        )


@app.command(
    help=tr("List the card set with totals per deck and age (Conspiracy: lords and Locations).")
)
@with_game_options(only=("deck", "cards"))
def cards(
    game: Annotated[str, typer.Argument(help=GAMES_HELP)],
    lang: LangOpt = None,
    *,
    options: dict[str, Any],
) -> None:
    """List the card set with totals per deck and age (Conspiracy: lords and Locations)."""
    console = make_console()
    with handle_errors(console):
        set_language(lang)
        name = check_game(game)
        loaded = load_game(name, **game_options(name, options))
        for renderable in view_for(name).cards(loaded):
            console.print(renderable)


@app.command(
    help=tr(
        "How to play GAME: the goal, a turn, scoring and the action notation (in English, "
        "Japanese or Korean: --lang, else LANG)."
    )
)
def rules(game: Annotated[str, typer.Argument(help=GAMES_HELP)], lang: LangOpt = None) -> None:
    """How to play GAME: the goal, a turn, scoring and the action notation (in English,
    Japanese or Korean: --lang, else LANG)."""
    console = make_console()
    with handle_errors(console):
        chosen = set_language(lang)
        console.print(rules_markdown(check_game(game), chosen))


app.command(
    name="simulate",
    help=tr("Play bot games; print wins per seat, draws and the game's own statistics."),
)(with_game_options()(translated_help(simulate_command)))
app.command(name="tournament")(tournament_command)
app.command(name="balance")(balance_command)
app.command(
    name="serve",
    help=tr("Play in the browser: serve the lobby and games (friends, bots, solo) over HTTP."),
)(serve_command)
app.add_typer(ratings_app, name="ratings")
app.command(name="agent")(agent_command)
app.command(
    name="review",
    help=tr(
        "Review one seat's decisions in a saved game: its chance to win before and after "
        "each, from its own view only, with inaccuracies, mistakes and blunders marked."
    ),
)(translated_help(review_command))


@app.command(
    help=tr("Learn a game step by step on a scripted deal: byzantium, conspiracy or solo.")
)
def learn(
    game: Annotated[
        str, typer.Argument(help=tr("The tutorial: {0}.", "byzantium, conspiracy, solo"))
    ],
    lang: LangOpt = None,
) -> None:
    """A tutorial (:mod:`porphyra.cli.learn`), then a first game against ``easy``."""
    from porphyra.cli.learn import lesson_names, run_learn

    console = make_console()
    with handle_errors(console):
        set_language(lang)
        name = game.strip().lower()
        if name not in lesson_names():
            raise CliError(f"unknown tutorial {name!r}; known: {', '.join(lesson_names())}")
        if run_learn(console, name, lambda prompt: console.input(escape(prompt))):
            from porphyra.learn import LESSONS

            lesson = LESSONS[name]
            seed = fresh_seed()
            state = load_game(lesson.game, **lesson.play_options).new_initial_state(seed=seed)
            _run_session(console, state, lesson.play_seats, seed, None)


BOTS_HELP = tr(
    "List the bot names that --seats and --bots accept, with their ladder ratings, and the "
    "options of a bot spec; [green]porphyra bots ladder[/] makes the ladder."
)
bots_app = typer.Typer(
    help=BOTS_HELP,
    invoke_without_command=True,
    rich_markup_mode="rich",
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(bots_app, name="bots")
bots_app.command(name="ladder")(ladder_command)


@bots_app.callback(help=BOTS_HELP)
def bots(ctx: typer.Context, lang: LangOpt = None) -> None:
    """The bot list (:data:`BOTS_HELP`), in the language of ``lang`` (else ``LANG``)."""
    if ctx.invoked_subcommand is not None:
        return
    from rich.table import Table

    from porphyra.bots import describe_bots, option_names

    console = make_console()
    with handle_errors(console):
        set_language(lang)
    ratings, notes = ladder_notes()
    table = Table(title=tr("Seats and bots"), show_lines=False)
    table.add_column(tr("name"), style="bold")
    table.add_column(tr("plays"))
    table.add_column(tr("ladder rating"))
    table.add_row("human", tr("a person at this terminal (porphyra play only)"), "")
    for name, text in describe_bots(tr):
        table.add_row(name, text, ratings.get(name, ""))
    console.print(table)
    for note in notes:
        console.print(note, soft_wrap=True)
    console.print(
        tr(
            "A bot spec may carry options: NAME:KEY=VALUE,... e.g. {0} or {1}.",
            "'ismcts:iterations=3000,exploration=0.5'",
            "'hard:seconds=5'",
        )
        + "\n"
        + tr("Option keys: {0} (see porphyra.bots.ISMCTSBot).", ", ".join(option_names()))
    )


def main() -> None:
    """Entry point of the ``porphyra`` console script."""
    app(args=normalize_ray_flag(sys.argv[1:]), prog_name="porphyra")


__all__ = ["app", "main"]
