"""Shared pieces of the terminal client: error handling, seats, seeds.

Everything here is independent of a particular game; the per-game rendering lives in
:mod:`porphyra.cli.views`, :mod:`porphyra.cli.byzantium_view` and
:mod:`porphyra.cli.conspiracy_view`.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from porphyra.bots import Bot, bot_names, make_bot
from porphyra.bots.selfplay import seat_seed
from porphyra.cli.lang import error_text, fitted, styled, term, tr
from porphyra.core.errors import PorphyraError, UnknownGameError
from porphyra.core.registry import game_info, registered_games, solo_games

#: Exit code of every handled error (bad record, unknown game, bad card file, bad option).
EXIT_ERROR = 2

#: The seat name that means "a person at this terminal".
HUMAN = "human"


class CliError(Exception):
    """A user-facing error: printed as one line, exit code 2."""


@contextmanager
def handle_errors(console: Console) -> Iterator[None]:
    """Turn the errors a user can provoke into a one-line message and exit code 2.

    Catches :class:`~porphyra.core.errors.PorphyraError` (bad record, unknown game, bad card
    file, illegal action), :class:`CliError`, ``ValueError`` (bad bot name, bad option
    value) and ``OSError`` (unreadable or unwritable file).

    Raises:
        typer.Exit: with code :data:`EXIT_ERROR` after printing the message.
    """
    try:
        yield
    except (PorphyraError, CliError, ValueError) as exc:
        console.print(
            styled("bold red", "error:")
            + f" {escape(fitted(error_text(exc if isinstance(exc, PorphyraError) else str(exc))))}",
            soft_wrap=True,
        )
        raise typer.Exit(EXIT_ERROR) from None
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        message = f"cannot access{where}: {exc.strerror or exc}"
        console.print(
            styled("bold red", "error:") + f" {escape(fitted(error_text(message)))}", soft_wrap=True
        )
        raise typer.Exit(EXIT_ERROR) from None


@dataclass
class Seat:
    """One seat of a game as the CLI fills it.

    Attributes:
        index: the player index (0-based; people see it as Seat ``index + 1``).
        kind: ``"human"`` or a bot name from :func:`porphyra.bots.bot_names`.
        bot: the bot object, ``None`` for a human seat.
    """

    index: int
    kind: str
    bot: Bot | None = None

    @property
    def is_human(self) -> bool:
        """True for a seat played at the keyboard."""
        return self.bot is None

    @property
    def label(self) -> str:
        """Display name in the terminal's language, e.g. ``"Seat 1 (random bot)"`` for
        player 0 (:func:`seat_text`)."""
        return seat_text(self.index, HUMAN if self.is_human else self.kind)


def seat_text(index: int, kind: str) -> str:
    """A seat as the terminal names it, in its language: ``"Seat 1 (random bot)"`` for
    player 0 played by ``random`` (people count seats from 1, see
    :mod:`porphyra.core.seats`); ``kind`` is ``"human"`` or a bot name."""
    who = tr("human") if kind == HUMAN else tr("{0} bot", term(kind))
    return tr("Seat {0} ({1})", index + 1, who)


def check_save_path(path: Path | None) -> None:
    """Fail before a game starts if its record could not be written to ``path``.

    Raises:
        CliError: ``path`` is a directory, its directory is missing, or either is not
            writable.
    """
    if path is None:
        return
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        problem = "is a directory"
    elif not parent.is_dir():
        problem = f"directory {parent} does not exist"
    elif path.exists() and not os.access(path, os.W_OK):
        problem = "is not writable"
    elif not path.exists() and not os.access(parent, os.W_OK | os.X_OK):
        problem = f"directory {parent} is not writable"
    else:
        return
    raise CliError(f"cannot save to {path}: {problem}")


def default_bot() -> str:
    """The bot that fills seats nobody named: the strongest registered one we know of.

    Prefers ``medium``, then ``easy``, then ``random``; otherwise the first registered name.
    """
    names = bot_names()
    for preferred in ("medium", "easy", "random"):
        if preferred in names:
            return preferred
    return names[0]


def parse_seat_kinds(spec: str | None, players: int | None, option: str = "--seats") -> list[str]:
    """Parse ``--seats`` (``"human,random"``) into one kind per seat.

    Args:
        spec: comma-separated seat kinds, or ``None`` for the default (seat 0 human, the
            others the default bot).  A bot may carry options
            (``human,ismcts:iterations=200,exploration=0.5``): a part with ``=`` but no
            ``:`` continues the bot before it.
        players: the number of seats the game needs, or ``None`` to take it from ``spec``.
        option: the option that gave ``spec``, as errors name it (``--bots`` in simulate).

    Returns:
        One entry per seat: ``"human"`` or a bot name.

    Raises:
        CliError: an unknown name, or a count that does not match ``players``.
    """
    if spec is None:
        count = 2 if players is None else players
        return [HUMAN] + [default_bot()] * (count - 1)
    kinds: list[str] = []
    for part in (p.strip() for p in spec.split(",")):
        if "=" in part and ":" not in part and kinds:
            kinds[-1] += "," + part
        else:
            # Bot names are case-insensitive ("ISMCTS:iterations=5"); options stay as given.
            name, colon, options = part.partition(":")
            kinds.append(name.strip().lower() + colon + options)
    known = [HUMAN, *bot_names()]
    for kind in kinds:
        if kind.partition(":")[0] not in known:
            raise CliError(f"unknown seat {kind!r} in {option}; use any of: {', '.join(known)}")
    if players is not None and len(kinds) != players:
        raise CliError(f"{option} names {len(kinds)} seats but the game has {players} players")
    return kinds


def make_seats(kinds: list[str], seed: int) -> list[Seat]:
    """Build the seats, each bot seeded with :func:`~porphyra.bots.selfplay.seat_seed`.

    Raises:
        ValueError: a bot name is not registered.
    """
    seats = []
    for i, kind in enumerate(kinds):
        bot = None if kind == HUMAN else make_bot(kind, seed=seat_seed(seed, i))
        seats.append(Seat(i, kind, bot))
    return seats


def fresh_seed() -> int:
    """A new seed for a game nobody gave one to (printed, and stored in the record)."""
    return random.SystemRandom().randrange(1, 1_000_000)


def progress_bar(label: str, transient: bool = False) -> Progress:
    """The progress bar of the long bot runs (``tournament``, ``balance``): on stderr, with
    elapsed and remaining time; ``transient`` clears it at the end (for JSON output)."""
    return Progress(
        TextColumn(f"[bold]{label}[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True, highlight=False),
        transient=transient,
    )


def make_console(stderr: bool = False) -> Console:
    """The terminal's console (on stderr if ``stderr``), without Rich's highlighting."""
    return Console(stderr=stderr, highlight=False)


def solo_options(name: str, solo: bool, given: dict[str, Any]) -> dict[str, Any]:
    """``--solo`` / ``--opponent``: Conspiracy's solo mode is ``players=1``, against a
    random Legendary Opponent unless ``--opponent`` names one.

    Returns:
        The given option flags, with ``players=1`` in solo.

    Raises:
        CliError: the flags name another game, or contradict ``--players``.
    """
    if not solo and "opponent" not in given:
        return dict(given)
    if name not in solo_games():
        raise CliError(f"--solo and --opponent apply to {', '.join(solo_games())}, not to {name}")
    if given.get("players") not in (None, 1):
        raise CliError("--solo is one player against a Legendary Opponent: drop --players")
    return {**given, "players": 1}


def game_label(name: str) -> str:
    """Game ``name``'s short name in the terminal's language (``Byzantium``,
    ``コンスピラシー``): its long name up to a colon, or, for a name the registry does not
    know (a ladder file's), the name capitalized."""
    try:
        title = game_info(name).long_name.split(":")[0]
    except UnknownGameError:
        title = name.capitalize()
    return tr(title)


def opponent_label(name: str) -> str:
    """A Legendary Opponent's name in the terminal's language, from its ``opponent`` option
    id (``farmer`` -> ``Farmer``, ``農民``)."""
    return tr(name.capitalize())


def check_game(name: str) -> str:
    """``name`` as the registry knows it (trimmed, lower case).

    Raises:
        CliError: no game of that name.
    """
    name = name.strip().lower()
    if name not in registered_games():
        raise CliError(f"unknown game {name!r}; known games: {', '.join(registered_games())}")
    return name


def has_players_option(name: str) -> bool:
    """Whether game ``name`` declares a ``players`` option (its seat count varies)."""
    return any(o.name == "players" for o in game_info(name).options)


def players_hint(given: dict[str, Any], seats: str | None, option: str = "--seats") -> None:
    """A game with a ``players`` option (Conspiracy): without --players, the number of
    names in --seats (``option``) sets it (in ``given``, the option flags)."""
    if "players" not in given and seats is not None:
        given["players"] = len(parse_seat_kinds(seats, None, option))
