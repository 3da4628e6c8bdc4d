"""The parameters that several ``porphyra`` commands share (Typer types with their help),
in the language the command line asks for.

``--help`` is built before a command runs, so its texts take the language of ``--lang``
in the command line, else of ``LANG``: this module chooses it when it is imported, before
any text below is translated, and every module that defines a command with these
parameters imports it first (a bad ``--lang`` is reported by the command itself).
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Annotated

import typer

from porphyra.cli.lang import argv_language, set_language, tr
from porphyra.core.registry import registered_games

with contextlib.suppress(ValueError):
    set_language(argv_language(sys.argv[1:]))

GAMES_HELP = tr("The game: {0}.", ", ".join(registered_games()))

SeedOpt = Annotated[
    int | None,
    typer.Option(
        "--seed",
        help=tr(
            "Game seed (default: a fresh one, shown at the end; at the start if only bots play)."
        ),
    ),
]
SeatsOpt = Annotated[
    str | None,
    typer.Option(
        "--seats",
        "--bots",
        help=tr(
            "Comma-separated seat kinds: 'human' or a bot name (see 'porphyra bots'). "
            "Default: you against bot(s).  --bots is the same flag (as in simulate)."
        ),
    ),
]
HintOpt = Annotated[
    str | None,
    typer.Option("--hint-bot", help=tr("Bot that answers 'hint' at the prompt (default: hard).")),
]
DelayOpt = Annotated[
    float | None,
    typer.Option(
        "--delay",
        metavar="SECONDS",
        help=tr(
            "Pause after each bot move.  Default: 0.6 when every seat is a bot and the "
            "output is a terminal, else 0."
        ),
    ),
]
ConfirmOpt = Annotated[
    bool | None,
    typer.Option(
        "--confirm/--no-confirm",
        help=tr(
            "Ask before a secret choice (a meld, a redraw, a pass) is locked in, showing it "
            "as it was read.  Default: on when you type at a terminal, off for piped input."
        ),
        show_default=False,
    ),
]
SaveOpt = Annotated[
    Path | None,
    typer.Option(
        "--save",
        help=tr(
            "Keep the record in this file (written after every move); default: a new file "
            "in the games folder of the data directory, listed by porphyra resume."
        ),
    ),
]
SoloOpt = Annotated[
    bool,
    typer.Option(
        "--solo", help=tr("Conspiracy: solo against a Legendary Opponent (rules section 4).")
    ),
]


LangOpt = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help=tr("Language of the screen: en, ja or ko (default: from LANG, else English)."),
        show_default=False,
    ),
]
