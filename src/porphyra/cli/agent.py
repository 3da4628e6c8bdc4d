"""``porphyra agent``: run any program as one seat (:mod:`porphyra.agent`), bots elsewhere."""

from __future__ import annotations

import json
from collections.abc import Callable
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
from porphyra.core.game import Game, State
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
    startup: Annotated[
        float,
        typer.Option(
            "--startup-timeout",
            help="Seconds the program's first answer may take on top of --timeout (its start-up).",
        ),
    ] = 30.0,
    games: Annotated[
        int,
        typer.Option(
            "--games",
            help="Games to play: seeds --seed, --seed+1, ...; the program's seat moves on "
            "by one each game (from --seat), a fresh run of the program each game.",
        ),
    ] = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="Write the results as one JSON object on stdout.")
    ] = False,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save", help="Write the record here (with --games: NAME-1.json, NAME-2.json ...)."
        ),
    ] = None,
    *,
    options: dict[str, Any],
) -> None:
    """Let a program play one seat: each decision it reads one JSON line (observation,
    legal action texts, seat) on stdin and writes one action text on stdout.

    Example: [green]porphyra agent byzantium --seat 0 --command 'python3
    examples/first_legal_agent.py' --bots random[/].  A program that dies, stalls
    or gives [cyan]--retries[/] bad answers in a row loses its seat to the
    [cyan]--fallback[/] bot, with the reason logged.  [cyan]--games N[/] plays a
    match, the program's seat alternating; [cyan]--json[/] writes the results
    as JSON (docs/envs.md).
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
        if timeout <= 0 or retries < 1 or startup < 0:
            raise CliError(
                "--timeout must be above 0, --retries at least 1, --startup-timeout at least 0"
            )
        if games < 1:
            raise CliError("--games must be at least 1")
        saves = _save_paths(save, games)
        for path in saves:
            check_save_path(path)
        others = parse_seat_kinds(opponents, None, "--bots")
        if len(others) == 1:
            others = others * max(n - 1, 1)
        if len(others) != max(n - 1, 1) and n > 1:
            raise CliError(f"--bots names {len(others)} bots; the other seats are {n - 1}")
        [fallback_kind] = parse_seat_kinds(fallback, 1, "--fallback")
        if "human" in [*others, fallback_kind]:
            raise CliError("--bots and --fallback take bots, not 'human'")
        seed = fresh_seed() if seed is None else seed

        def log(line: str) -> None:
            console.print(f"[yellow]agent:[/] {escape(line)}", soft_wrap=True)

        results = []
        for i in range(games):
            at = (seat + i) % n
            bots = [*others[:at], fallback_kind, *others[at:]][:n]
            program = Program(command, timeout, startup)
            result, final = _play_one(loaded, seed + i, at, program, bots, retries, log)
            if saves:
                records.save(final, saves[i])
            results.append(result)
            if not as_json:
                who = (
                    "the program"
                    if result["lost"] is None
                    else f"the bot {bots[at]!r} (the program lost its seat)"
                )
                returns = ", ".join(f"seat {j}: {r:+g}" for j, r in enumerate(result["returns"]))
                typer.echo(f"{name} seed {seed + i}: seat {at} played by {who}; returns {returns}")
        if as_json:
            typer.echo(json.dumps(_summary(name, loaded, results)))
        elif games > 1:
            total = _summary(name, loaded, results)["summary"]
            typer.echo(
                f"match: {total['wins']} won, {total['draws']} drawn, {total['losses']} lost; "
                f"mean return {total['mean_return']:+.3f}"
            )


def _save_paths(save: Path | None, games: int) -> list[Path]:
    """Where each game's record goes: ``save`` itself for one game, else ``NAME-i``."""
    if save is None:
        return []
    if games == 1:
        return [save]
    return [save.with_name(f"{save.stem}-{i + 1}{save.suffix}") for i in range(games)]


def _play_one(
    game: Game,
    seed: int,
    seat: int,
    program: Program,
    bots: list[str],
    retries: int,
    log: Callable[[str], None],
) -> tuple[dict[str, Any], State]:
    """One game of the program in ``seat``: its result (an entry of ``--json``'s
    ``games``) and the final state."""
    match = AgentMatch(game.new_initial_state(seed=seed), seat, program, bots, retries, log)
    final = match.play()
    returns = [float(r) for r in final.returns()]
    return {
        "seed": seed,
        "seat": seat,
        "returns": returns,
        "program_return": returns[seat],
        "lost": match.lost,
        "bad_answers": match.bad_answers,
        "refused_answers": match.refused,
    }, final


def _summary(name: str, game: Game, results: list[dict[str, Any]]) -> dict[str, Any]:
    """The ``--json`` object: the game, each game's result, and the match's totals."""
    mine = [r["program_return"] for r in results]
    return {
        "type": "match",
        "game": name,
        "players": game.num_players,
        "games": results,
        "summary": {
            "games": len(results),
            "wins": sum(r > 0 for r in mine),
            "draws": sum(r == 0 for r in mine),
            "losses": sum(r < 0 for r in mine),
            "mean_return": sum(mine) / len(mine),
            "seats_lost": sum(r["lost"] is not None for r in results),
        },
    }
