"""The game-option flags of ``porphyra play``, ``simulate`` and ``tournament``, built from
the games' declarations (``GameInfo.options``, :class:`~porphyra.core.options.GameOption`).

:func:`with_game_options` adds one flag per declared option to a Typer command and hands
the command the flags that were given; :func:`game_options` turns those into ``load_game``
keywords for one game.  A new option declared by a game appears here with no CLI change.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Annotated, Any

import typer

from porphyra.cli.common import CliError, game_label
from porphyra.cli.lang import tr
from porphyra.core.options import GameOption, options_of
from porphyra.core.registry import game_info, registered_games


def cli_options(
    exclude: Collection[str] = (), only: Collection[str] | None = None
) -> dict[str, list[tuple[str, GameOption]]]:
    """Every game's command-line options by name: ``{name: [(game, option), ...]}``
    (one name may be declared by several games), in declaration order; without the names
    in ``exclude``, and only those in ``only`` if given."""
    out: dict[str, list[tuple[str, GameOption]]] = {}
    for game in registered_games():
        for option in options_of(game_info(game).options, "cli"):
            if option.name not in exclude and (only is None or option.name in only):
                out.setdefault(option.name, []).append((game, option))
    return out


def _help(owners: list[tuple[str, GameOption]]) -> str:
    parts = []
    for game, option in owners:
        text = f"{game_label(game)}: {tr(option.help)}"
        if option.choices:
            # A seat's value is its player index; say which seat people call it.
            labels = option.choice_labels or tuple(str(c) for c in option.choices)
            shown = [
                f"{c} ({tr(label)})" if label.startswith("Seat") and str(c) != label else str(c)
                for c, label in zip(option.choices, labels, strict=True)
            ]
            text += " " + tr("One of: {0}.", ", ".join(shown))
        parts.append(text)
    return "  ".join(parts)


#: Further names of a game option's flag, the same in every command (``--opponents`` reads
#: as ``--opponent`` in ``play``, ``simulate`` and ``tournament`` alike).
FLAG_ALIASES: dict[str, tuple[str, ...]] = {"opponent": ("--opponents",)}


def _parameter(name: str, owners: list[tuple[str, GameOption]]) -> inspect.Parameter:
    option = owners[0][1]
    flags = (option.flag, *FLAG_ALIASES.get(name, ()))
    info = typer.Option(*flags, help=_help(owners), show_default=False)
    annotation: Any
    default: Any = None
    if option.type == "bool" and option.default is False:
        annotation, default = Annotated[bool, info], False
    elif option.type == "bool":
        info = typer.Option(f"{option.flag}/--no-{option.flag[2:]}", help=_help(owners))
        annotation = Annotated[bool | None, info]
    elif option.type == "path":
        annotation = Annotated[Path | None, info]
    elif option.type == "int" and all(type(c) is int for c in option.choices):
        annotation = Annotated[int | None, info]
    else:
        annotation = Annotated[str | None, info]
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def with_game_options(
    exclude: Collection[str] = (), only: Collection[str] | None = None
) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Decorate a Typer command with one flag per declared game option.

    The command declares a keyword parameter ``options: dict[str, Any]``; it receives the
    flags that were given (option name -> value as typed: ``str``, ``int``, ``Path`` or
    ``True``), without the ones left out.  ``exclude`` names options the command does
    not offer (e.g. ``tournament`` has its own ``--opponents``); ``only``, if given, the
    only ones it offers (``cards`` lists a card set: ``deck`` and ``cards``).
    """
    declared = cli_options(exclude, only)

    def decorate(command: Callable[..., None]) -> Callable[..., None]:
        signature = inspect.signature(command, eval_str=True)
        own = [p for p in signature.parameters.values() if p.name != "options"]
        taken = {p.name for p in own}
        extra = [_parameter(n, owners) for n, owners in declared.items() if n not in taken]

        @functools.wraps(command)
        def run(*args: Any, **kwargs: Any) -> None:
            given = {}
            for parameter in extra:
                value = kwargs.pop(parameter.name, None)
                if value is not None and value is not False:
                    given[parameter.name] = value
            command(*args, options=given, **kwargs)

        parameters = own + extra
        run.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in parameters}
        return run

    return decorate


def game_options(game: str, given: dict[str, Any]) -> dict[str, Any]:
    """Map the given option flags to ``load_game`` keywords for ``game``.

    Args:
        game: the game name.
        given: option name -> value from :func:`with_game_options` (only flags given).

    Returns:
        Keyword options for :func:`porphyra.load_game`: text turned into the declared
        value (``"random"``, ``1``), paths made absolute.  The game validates the values.

    Raises:
        CliError: an option given that ``game`` does not declare.
    """
    mine = {o.name: o for o in options_of(game_info(game).options, "cli")}
    owners = cli_options()
    options: dict[str, Any] = {}
    for name, value in given.items():
        option = mine.get(name)
        if option is None:
            games = " and ".join(g for g, _ in owners.get(name, [])) or "no game"
            flag = "--" + name.replace("_", "-")
            raise CliError(f"option {flag} applies to {games}, not to {game}")
        if isinstance(value, Path):
            value = str(value.resolve())
        elif isinstance(value, str):
            value = option.from_text(value)
        options[name] = value
    return options
