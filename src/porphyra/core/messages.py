"""Messages as an id plus arguments: what the engines and the server say to a person,
carried structured to the edge (the server per client, the terminal) and translated there.

A :class:`Message` is an English template (its ``msgid``: the catalogue's key, with
``{0}``, ``{1}``... for the variable parts) and its arguments.  ``str(message)`` is the
English text, exactly as the engines wrote it before messages were structured (records,
tests and golden playthroughs compare it).  An argument is one of

- plain text or a number: kept as it is in every language (notation, a player's own
  input, counts);
- a :class:`Term`: a game term (a card name, a card type, a colour, a phase) that the edge
  translates with the catalogue's ``term`` context, shown in English as ``shown``;
- a nested :class:`Message` (translated with the same context as the outer one);
- a :class:`Joined` list of those (each language joins lists its own way).

Translating is :func:`porphyra.i18n.messages.render`; the engines never translate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True, slots=True)
class Term:
    """A game term as a message argument.

    Attributes:
        term: the catalogue's English term (context ``term``), e.g. ``"Varangian Guard"``.
        shown: how the English message shows it, when that differs from ``term`` (e.g. the
            notation ``"'varangian-guard'"``); None shows ``term``.
    """

    term: str
    shown: str | None = None

    def __str__(self) -> str:
        return self.term if self.shown is None else self.shown


@dataclass(frozen=True, slots=True)
class Joined:
    """A list of arguments joined by ``sep`` (``", "``, ``"; "``) in English; other
    languages use their own separator (``、`` in Japanese)."""

    sep: str
    items: tuple[Arg, ...]

    def __str__(self) -> str:
        return self.sep.join(str(item) for item in self.items)


@dataclass(frozen=True, slots=True)
class Message:
    """An English template and its arguments.

    Attributes:
        msgid: the English template with ``{0}``, ``{1}``... (``str.format`` fields, no
            conversions or format specs), catalogued under the context the edge uses
            (``error`` for refusals).
        args: one value per field, in field order.
    """

    msgid: str
    args: tuple[Arg, ...] = ()

    def __str__(self) -> str:
        if not self.args:
            return self.msgid
        return self.msgid.format(*(str(arg) for arg in self.args))


#: What a message argument may be.
Arg: TypeAlias = str | int | Term | Joined | Message


def msg(msgid: str, *args: Arg) -> Message:
    """``Message(msgid, args)``: the short spelling used where messages are raised."""
    return Message(msgid, args)


def quoted(text: str) -> str:
    """``text`` as Python's ``repr`` quotes it (``'archers'``): how refusals echo input."""
    return repr(text)
