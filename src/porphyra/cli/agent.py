"""``porphyra agent``: run any program as one seat (:mod:`porphyra.agent`), bots elsewhere."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from porphyra import record as records
from porphyra.agent import AgentMatch, Program
from porphyra.cli.common import (
    CliError,
    check_save_path,
    fresh_seed,
    handle_errors,
    parse_seat_kinds,
)
from porphyra.cli.options import game_options, with_game_options
from porphyra.core.registry import load_game, registered_games


@with_game_options()
def agent_command(
    game: Annotated[str, typer.Argument(help="The game: " + ", ".join(registered_games()) + ".")],
    command: Annotated[
        str, typer.Option("--command", help="The program to run, e.g. 'python3 my_agent.py'.")
    ],
    seat: Annotated[int, typer.Option("--seat", help="The program's seat (0-based).")] = 0,
    opponents: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Bots for the other seats, in seat order: one spec for all, or one per seat "
            "(--bots as in simulate; --opponent always means a Legendary Opponent).",
        ),
    ] = "easy",
    fallback: Annotated[
        str, typer.Option("--fallback", help="The bot that takes the seat if the program fails.")
    ] = "easy",
    seed: Annotated[int | None, typer.Option("--seed", help="Game seed (default: fresh).")] = None,
    timeout: Annotated[
        float, typer.Option("--timeout", help="Seconds the program has for each answer.")
    ] = 10.0,
    retries: Annotated[
        int, typer.Option("--retries", help="Bad answers in a row before the seat is lost.")
    ] = 3,
    save: Annotated[Path | None, typer.Option("--save", help="Write the record here.")] = None,
    *,
    options: dict[str, Any],
) -> None:
    """Let a program play one seat: each decision it reads one JSON line (observation,
    legal action texts, seat) on stdin and writes one action text on stdout.

    Example: [green]porphyra agent byzantium --seat 0 --command 'python3
    examples/first_legal_agent.py' --bots random[/].  A program that dies, stalls
    or gives [cyan]--retries[/] bad answers in a row loses its seat to the
    [cyan]--fallback[/] bot, with the reason logged.
    """
    console = Console(stderr=True, highlight=False)
    with handle_errors(console):
        name = game.strip().lower()
        if name not in registered_games():
            raise CliError(f"unknown game {name!r}; known games: {', '.join(registered_games())}")
        loaded = load_game(name, **game_options(name, options))
        n = loaded.num_players
        if not 0 <= seat < n:
            raise CliError(f"--seat {seat} is out of range: the game has seats 0..{n - 1}")
        if timeout <= 0 or retries < 1:
            raise CliError("--timeout must be above 0 and --retries at least 1")
        check_save_path(save)
        others = parse_seat_kinds(opponents, None, "--bots")
        if len(others) == 1:
            others = others * max(n - 1, 1)
        if len(others) != max(n - 1, 1) and n > 1:
            raise CliError(f"--bots names {len(others)} bots; the other seats are {n - 1}")
        [fallback_kind] = parse_seat_kinds(fallback, 1, "--fallback")
        if "human" in [*others, fallback_kind]:
            raise CliError("--bots and --fallback take bots, not 'human'")
        bots = [*others[:seat], fallback_kind, *others[seat:]][:n]
        seed = fresh_seed() if seed is None else seed
        state = loaded.new_initial_state(seed=seed)

        def log(line: str) -> None:
            console.print(f"[yellow]agent:[/] {escape(line)}", soft_wrap=True)

        match = AgentMatch(state, seat, Program(command, timeout), bots, retries, log)
        final = match.play()
        if save is not None:
            records.save(final, save)
        who = (
            "the program"
            if match.lost is None
            else f"the bot {bots[seat]!r} (the program lost its seat)"
        )
        result = ", ".join(f"seat {i}: {r:+g}" for i, r in enumerate(final.returns()))
        typer.echo(f"{name} seed {seed}: seat {seat} played by {who}; returns {result}")
