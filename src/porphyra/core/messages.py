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
- a :class:`Named` id (a Conspiracy lord ``red4`` or Location slug ``l7``): shown as the
  id in the English text (records keep it), named at the edge in every language;
- a nested :class:`Message` (translated with the same context as the outer one);
- a :class:`Joined` list of those (each language joins lists its own way).

Translating is :func:`porphyra.i18n.messages.render`; the engines never translate.  The
same messages cross the wire as JSON (:func:`to_wire`, :func:`from_wire`) so that a page
renders them from its catalogue: refusals (context ``error``) and the games' log lines
(context ``log``, :meth:`porphyra.core.game.State.log_messages`).
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from typing import Any, TypeAlias


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
class Named:
    """An id that people read by its name: a Conspiracy lord (``"red4"``: Red 4, 赤4) or
    Location slug (``"l7"``: the Grand Estate).  The English text shows the id itself
    (the engines' log, which records replay, keeps ids); every edge names it
    (:func:`porphyra.i18n.names.name_of`)."""

    id: str

    def __str__(self) -> str:
        return self.id


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
Arg: TypeAlias = str | int | Term | Named | Joined | Message


def msg(msgid: str, *args: Arg) -> Message:
    """``Message(msgid, args)``: the short spelling used where messages are raised."""
    return Message(msgid, args)


_AUTO_FIELD = re.compile(r"\{\}")


@functools.lru_cache(maxsize=1024)
def numbered(template: str) -> str:
    """``template`` with its automatic ``{}`` fields numbered ``{0}``, ``{1}``... in order
    (how the engines write log templates, and how the catalogue keys them); the same text
    for ``str.format``."""
    count = itertools.count()
    return _AUTO_FIELD.sub(lambda _m: "{" + str(next(count)) + "}", template)


def quoted(text: str) -> str:
    """``text`` as Python's ``repr`` quotes it (``'archers'``): how refusals echo input."""
    return repr(text)


def to_wire(message: Message) -> dict[str, Any]:
    """``message`` as JSON-ready data for a page: ``{"id": msgid, "args": [arg, ...]}``,
    each argument a string or number as it is, ``{"term": t}`` (with ``"shown"`` when the
    English text shows it otherwise), ``{"name": id}``, ``{"sep": s, "items": [...]}`` or
    a nested ``{"id", "args"}``.  :func:`from_wire` reads it back."""
    return {"id": message.msgid, "args": [_arg_to_wire(arg) for arg in message.args]}


def _arg_to_wire(arg: Arg) -> Any:
    if isinstance(arg, Message):
        return to_wire(arg)
    if isinstance(arg, Term):
        return {"term": arg.term} if arg.shown is None else {"term": arg.term, "shown": arg.shown}
    if isinstance(arg, Named):
        return {"name": arg.id}
    if isinstance(arg, Joined):
        return {"sep": arg.sep, "items": [_arg_to_wire(item) for item in arg.items]}
    return arg


def from_wire(data: Any) -> Message:
    """The :class:`Message` of :func:`to_wire`'s ``data``.

    Raises:
        ValueError: ``data`` is not a message in that shape.
    """
    if not isinstance(data, dict) or not isinstance(data.get("id"), str):
        raise ValueError(f"not a message: {data!r}")
    args = data.get("args", [])
    if not isinstance(args, list):
        raise ValueError(f"a message's args must be a list: {data!r}")
    return Message(data["id"], tuple(_arg_from_wire(arg) for arg in args))


def _arg_from_wire(data: Any) -> Arg:
    if isinstance(data, bool) or not isinstance(data, (str, int, dict)):
        raise ValueError(f"not a message argument: {data!r}")
    if not isinstance(data, dict):
        return data
    if "id" in data:
        return from_wire(data)
    if isinstance(data.get("term"), str):
        shown = data.get("shown")
        return Term(data["term"], shown if isinstance(shown, str) else None)
    if isinstance(data.get("name"), str):
        return Named(data["name"])
    if isinstance(data.get("sep"), str) and isinstance(data.get("items"), list):
        return Joined(data["sep"], tuple(_arg_from_wire(item) for item in data["items"]))
    raise ValueError(f"not a message argument: {data!r}")
