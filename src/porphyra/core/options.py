"""Game options, declared once per game.

Each game lists its options as :class:`GameOption` values in ``GameInfo.options``.  Every
place that sets or shows options is built from that list: the game's own validation
(:func:`check_options`), the ``porphyra`` command's flags, the browser lobby's form (the
server sends :meth:`GameOption.to_json`) and the server's check of a create request.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from porphyra.core.errors import UnknownGameError
from porphyra.core.messages import Message, msg

#: The value types an option can have.  ``path``: a file path (text); ``mapping``: a JSON
#: object (e.g. stacked decks).
OptionType = Literal["bool", "int", "str", "path", "mapping"]

_PYTHON_TYPES: dict[str, tuple[type, ...]] = {
    "bool": (bool,),
    "int": (int,),
    "str": (str,),
    "path": (str,),
    "mapping": (Mapping,),
}


@dataclass(frozen=True, slots=True)
class GameOption:
    """One option of a game.

    Attributes:
        name: the ``load_game`` keyword, e.g. ``"first_emperor"``.
        type: the value type (:data:`OptionType`); with ``choices`` the value is one of
            them (which may mix types, e.g. ``(0, 1, "random")``).
        default: the value when the option is not given (``None``: none, e.g. no card file).
        help: one line for people: what the option does, with its rule section.
        label: a short name for a form field (default: ``name`` in words).
        choices: the accepted values, in display order; ``()`` for any value of ``type``.
        choice_labels: display names of ``choices`` (same length), or ``()`` for their text.
        seat: the value is a seat number, below the game's number of players.
        requires: the option only applies when these other options have these values
            (e.g. Conspiracy's ``opponent`` requires ``{"players": 1}``).
        cli: offered as a ``porphyra`` flag (``--first-emperor``).
        lobby: settable from the browser lobby (never file paths or stacked decks).
    """

    name: str
    type: OptionType
    default: Any
    help: str
    label: str = ""
    choices: tuple[Any, ...] = ()
    choice_labels: tuple[str, ...] = ()
    seat: bool = False
    requires: Mapping[str, Any] = field(default_factory=dict)
    cli: bool = True
    lobby: bool = True

    def __post_init__(self) -> None:
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"option {self.name}: one label per choice")
        if not self.label:
            object.__setattr__(self, "label", self.name.replace("_", " ").capitalize())

    @property
    def flag(self) -> str:
        """The command-line flag, e.g. ``--first-emperor``."""
        return "--" + self.name.replace("_", "-")

    def accepts(self, value: Any) -> bool:
        """True if ``value`` is a valid value (the default always is).  ``True`` is not
        taken for ``1`` nor ``1`` for ``True``."""
        if _same(value, self.default):
            return True
        if self.choices:
            return any(_same(value, choice) for choice in self.choices)
        if isinstance(value, bool) and self.type != "bool":
            return False
        if self.type == "path" and not value:
            return False
        return isinstance(value, _PYTHON_TYPES[self.type])

    def describe_values(self) -> str:
        """The accepted values in words, for messages (``"0, 1 or 'random'"``)."""
        if self.choices:
            texts = [repr(c) if isinstance(c, str) else _json_text(c) for c in self.choices]
            return ", ".join(texts[:-1]) + " or " + texts[-1] if len(texts) > 1 else texts[0]
        return {"bool": "true or false", "path": "a file path", "mapping": "a JSON object"}.get(
            self.type, f"a value of type {self.type}"
        )

    def values_message(self) -> Message:
        """:meth:`describe_values` as a message (an id plus arguments, translated at the
        edge); ``str()`` of it is exactly :meth:`describe_values`."""
        if self.choices:
            texts = [repr(c) if isinstance(c, str) else _json_text(c) for c in self.choices]
            if len(texts) > 1:
                return msg("{0} or {1}", ", ".join(texts[:-1]), texts[-1])
            return msg("{0}", texts[0])
        fixed = {"bool": "true or false", "path": "a file path", "mapping": "a JSON object"}
        if self.type in fixed:
            return msg(fixed[self.type])
        return msg("a value of type {0}", self.type)

    def from_text(self, text: str) -> Any:
        """The value that command-line ``text`` stands for: a choice whose text matches
        (case-insensitive), else an integer for ``int`` options, else the text (lower case
        when the choices are words).  Validation is :meth:`accepts`' job."""
        folded = text.strip().lower()
        for choice in self.choices:
            if str(choice).lower() == folded:
                return choice
        if self.type == "int":
            try:
                return int(folded)
            except ValueError:
                return text
        return folded if self.choices else text

    def to_json(self) -> dict[str, Any]:
        """The declaration, JSON-ready (what the server sends the lobby)."""
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "help": self.help,
            "label": self.label,
            "choices": list(self.choices),
            "choice_labels": list(self.choice_labels) or [str(c) for c in self.choices],
            "seat": self.seat,
            "requires": dict(self.requires),
        }


def _same(a: Any, b: Any) -> bool:
    """Equal and of the same type (``True`` is not ``1``, ``1.0`` is not ``1``)."""
    return type(a) is type(b) and bool(a == b)


def _json_text(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return {None: "none", True: "true", False: "false"}[value]
    return str(value)


def check_options(
    game: str, declared: Sequence[GameOption], given: Mapping[str, Any]
) -> dict[str, Any]:
    """Validate ``given`` options against a game's declaration.

    Args:
        game: the game name, for messages.
        declared: the game's options (``GameInfo.options``).
        given: the ``load_game`` keywords; ``None`` stands for the default.

    Returns:
        Every declared option's value: the given one, else its default.

    Raises:
        UnknownGameError: an undeclared option, a value the declaration does not accept,
            or an option given while the options it ``requires`` have other values.
    """
    by_name = {o.name: o for o in declared}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        raise UnknownGameError(
            msg(
                "unknown {0} option(s): {1}; known: {2}",
                game,
                ", ".join(unknown),
                ", ".join(by_name),
            )
        )
    given = {k: v for k, v in given.items() if v is not None}  # None: the default
    values = {o.name: given.get(o.name, o.default) for o in declared}
    for option in declared:
        value = values[option.name]
        if not option.accepts(value):
            raise UnknownGameError(
                msg(
                    "{0}: {1} must be {2}, not {3}",
                    game,
                    option.name,
                    option.values_message(),
                    repr(value),
                )
            )
        if option.name in given:
            for other, wanted in option.requires.items():
                if not _same(values[other], wanted):
                    raise UnknownGameError(
                        msg(
                            "{0}: {1} applies only with {2}={3}",
                            game,
                            option.name,
                            other,
                            repr(wanted),
                        )
                    )
    return values


def options_of(declared: Sequence[GameOption], where: Literal["cli", "lobby"]) -> list[GameOption]:
    """The options offered on the command line (``"cli"``) or in the lobby (``"lobby"``)."""
    return [o for o in declared if getattr(o, where)]
