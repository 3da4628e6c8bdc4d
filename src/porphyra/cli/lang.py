"""The terminal's language: chosen once per command (``--lang``, else ``LANG`` and the
other POSIX locale variables, else English) and used by every view and prompt.

``tr("text")`` is the interface text in that language (the catalogues of
:mod:`porphyra.i18n`); ``term("Archers")`` a game term; :func:`log` the log lines.
Action notation is never translated: menus show it as the engines print it.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from typer.models import ParameterInfo

from porphyra.core.errors import PorphyraError
from porphyra.core.messages import Message
from porphyra.core.seats import ENGLISH_SEAT, for_people
from porphyra.i18n import Translator, from_environment
from porphyra.i18n.korean import particles
from porphyra.i18n.log import translate_lines
from porphyra.i18n.messages import error_message, render
from porphyra.i18n.names import name_ids

_current: Translator | None = None

_Command = TypeVar("_Command", bound=Callable[..., Any])


def set_language(explicit: str | None = None) -> str:
    """Choose the language: ``explicit`` (a ``--lang`` value) or the environment's.

    Returns:
        The chosen language code.

    Raises:
        ValueError: ``explicit`` names no supported language.
    """
    global _current
    _current = Translator(from_environment(explicit))
    return _current.lang


def translator() -> Translator:
    """The current :class:`~porphyra.i18n.Translator` (from the environment if none was
    chosen yet)."""
    global _current
    if _current is None:
        _current = Translator(from_environment())
    return _current


def language() -> str:
    """The current language code (``"en"``, ``"ja"``, ``"ko"``)."""
    return translator().lang


def tr(message: str, *args: object, **kwargs: object) -> str:
    """``message`` in the current language, formatted with ``args``/``kwargs`` if any."""
    return translator()(message, *args, **kwargs)


def trn(singular: str, plural: str, count: int, *args: object) -> str:
    """The form of a message that fits ``count`` in the current language, formatted with
    ``args`` (:meth:`porphyra.i18n.Translator.n`): ``trn("{0} card", "{0} cards", n, n)``."""
    return translator().n(singular, plural, count, *args)


def term(text: str) -> str:
    """The game term ``text`` (a card name, a colour...) in the current language."""
    return translator().term(text)


def error_text(message: PorphyraError | Message | str) -> str:
    """A refusal in the current language: an engine's error or a message from its id and
    arguments (:func:`porphyra.i18n.messages.error_message`); an English text that is not
    structured is looked up whole."""
    return error_message(message, language())


def fitted(text: str) -> str:
    """A final text in the current language with its Korean particles fitted to the words
    before them (:func:`porphyra.i18n.korean.particles`; other languages: unchanged)."""
    return particles(text) if language() == "ko" else text


def log_messages(messages: list[Message]) -> list[str]:
    """Log messages (an id plus arguments each) in the current language, rendered from
    the catalogue's ``log`` templates, lords and Locations by their names
    (:func:`porphyra.i18n.messages.render`); seats are still ``seat N`` (see
    :func:`people`)."""
    lang = language()
    return [render(m, lang, "log") for m in messages]


def log(lines: list[str]) -> list[str]:
    """English log lines in the current language, every lord id and Location slug named
    (:func:`porphyra.i18n.names.name_ids`).  The compatibility path for lines that come
    without their messages: matching English text (:mod:`porphyra.i18n.log`)."""
    lang = language()
    return [name_ids(line, lang) for line in translate_lines(lines, lang)]


def styled(style: str, message: str, *args: object) -> str:
    """``message`` translated and formatted, escaped and wrapped in Rich markup
    ``[style]...[/]`` (e.g. ``styled("bold red", "Game over")``)."""
    from rich.markup import escape

    return f"[{style}]{escape(tr(message, *args))}[/]"


def seat_label(player: int) -> str:
    """Player index ``player`` as people name it, in the current language (``"Seat 1"``
    for player 0, :mod:`porphyra.core.seats`)."""
    return tr("Seat {0}", player + 1)


def people(text: str, names: Sequence[str] | None = None) -> str:
    """A text already in the current language (a translated log line or refusal) with
    its seats counted from 1, or named by ``names`` (:func:`porphyra.core.seats.for_people`)."""
    return fitted(for_people(text, names, tr(ENGLISH_SEAT)))


def argv_language(argv: Sequence[str]) -> str | None:
    """The value of a ``--lang`` option in command-line arguments ``argv`` (``--lang ja``
    or ``--lang=ja``), or None; read before the arguments are parsed, for ``--help``."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def translated_help(command: _Command) -> _Command:
    """``command`` with the ``help`` texts of its arguments and options in the current
    language.  A command defined in its own module marks them ``N_("...")`` (for the
    catalogues): that module is imported before ``--lang`` is read, so they are
    translated here, when ``porphyra.cli`` registers the command after choosing the
    language.

    Args:
        command: a Typer command function whose parameters are ``Annotated[type,
            typer.Option(...)]`` or ``typer.Argument(...)``.

    Returns:
        ``command`` itself (its parameters' help texts replaced in place).
    """
    hints = typing.get_type_hints(command, include_extras=True)
    for hint in hints.values():
        for info in getattr(hint, "__metadata__", ()):
            if isinstance(info, ParameterInfo) and isinstance(info.help, str):
                info.help = tr(info.help)
    # (annotations written as text are evaluated afresh, into new objects, each time they
    # are read: Typer reads these ones)
    command.__annotations__ = hints
    return command
