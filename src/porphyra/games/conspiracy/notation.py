"""Conspiracy action notation (rules section 6): action values, their table, the parser.

Every possible action of a card set is built once in an :class:`ActionTable`, so legal
action lists hand out shared immutable objects.  Texts::

    draw 1|2|3      keep red4       take green      place blue1
    swap 3 7        swap -          locdraw 1|2|3   lockeep l7
    loctake count-red               locpick any-keys
    replay          replay -        lopile red      loplace red4     (solo only)

The solo verbs (section 4, :mod:`porphyra.games.conspiracy.solo`) parse only for a solo
game (``parse(..., solo=True)``); elsewhere they are refused with an error saying so.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from porphyra.core.errors import InvalidActionError
from porphyra.core.game import Action
from porphyra.core.messages import msg
from porphyra.games.conspiracy.cards import COLOURS, CardSet
from porphyra.games.conspiracy.chamber import SLOTS

DRAW, KEEP, TAKE, PLACE, SWAP, LOCDRAW, LOCKEEP, LOCTAKE, LOCPICK = range(9)
REPLAY, LOPILE, LOPLACE = 9, 10, 11
SOLO_VERBS = ("replay", "lopile", "loplace")
VERBS = (
    "draw",
    "keep",
    "take",
    "place",
    "swap",
    "locdraw",
    "lockeep",
    "loctake",
    "locpick",
    *SOLO_VERBS,
)
MAX_DRAW = 3


@dataclass(frozen=True, slots=True, repr=False)
class ConspiracyAction(Action):
    """One decision.

    Attributes:
        verb: index into :data:`VERBS`.
        a: the count (draw, locdraw), lord kind (keep, place), colour index (take),
            Location id (lockeep, loctake, locpick), or the first 0-based slot (swap;
            -1 for ``swap -``); solo: 1 for ``replay`` and 0 for ``replay -``, the colour
            index (lopile) or lord kind (loplace).
        b: the second 0-based slot of a swap, else 0.
        text: the notation, e.g. ``"swap 3 7"`` (slots 1-based).
    """

    verb: int
    a: int
    b: int
    text: str

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"ConspiracyAction({self.text!r})"


class ActionTable:
    """Every action of one card set, built once (see :func:`action_table`)."""

    def __init__(self, cards: CardSet) -> None:
        def act(verb: int, a: int, b: int, arg: str) -> ConspiracyAction:
            return ConspiracyAction(verb, a, b, f"{VERBS[verb]} {arg}")

        rng = range(MAX_DRAW + 1)
        self.draw = [act(DRAW, n, 0, str(n)) for n in rng]
        self.locdraw = [act(LOCDRAW, n, 0, str(n)) for n in rng]
        self.keep = [act(KEEP, k, 0, lord.name) for k, lord in enumerate(cards.lords)]
        self.place = [act(PLACE, k, 0, lord.name) for k, lord in enumerate(cards.lords)]
        self.take = [act(TAKE, c, 0, colour) for c, colour in enumerate(COLOURS)]
        slugs = [c.slug for c in cards.locations]
        self.lockeep = [act(LOCKEEP, i, 0, s) for i, s in enumerate(slugs)]
        self.loctake = [act(LOCTAKE, i, 0, s) for i, s in enumerate(slugs)]
        self.locpick = [act(LOCPICK, i, 0, s) for i, s in enumerate(slugs)]
        self.swap_none = act(SWAP, -1, 0, "-")
        self.swap = [
            [act(SWAP, i, j, f"{i + 1} {j + 1}") for j in range(SLOTS)] for i in range(SLOTS)
        ]
        self.replay = ConspiracyAction(REPLAY, 1, 0, "replay")
        self.replay_none = act(REPLAY, 0, 0, "-")
        self.lopile = [act(LOPILE, c, 0, colour) for c, colour in enumerate(COLOURS)]
        self.loplace = [act(LOPLACE, k, 0, lord.name) for k, lord in enumerate(cards.lords)]
        self.cards = cards


@functools.cache
def action_table(cards: CardSet) -> ActionTable:
    """The shared :class:`ActionTable` of ``cards``."""
    return ActionTable(cards)


MAX_TEXT = 400


def _count(word: str, text: str) -> int:
    if word not in ("1", "2", "3"):
        raise InvalidActionError(msg("bad count {0} in {1} (1, 2 or 3)", repr(word), repr(text)))
    return int(word)


def _slot(word: str, text: str) -> int:
    if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= SLOTS:
        raise InvalidActionError(msg("bad slot {0} in {1} (1..{2})", repr(word), repr(text), SLOTS))
    return int(word) - 1


def parse(table: ActionTable, text: str, solo: bool = False) -> ConspiracyAction:
    """Parse ``text`` into an action of ``table`` (syntax only, not legality).

    Args:
        table: the game's action table.
        text: action text; surrounding whitespace and repeated spaces are tolerated.
        solo: accept the solo verbs ``replay``, ``lopile``, ``loplace`` (section 6).

    Returns:
        The action (canonical: ``swap 7 3`` becomes ``swap 3 7``).

    Raises:
        InvalidActionError: empty text, unknown verb, wrong number of arguments, bad count,
            unknown lord, colour or Location, bad or repeated slot; a solo verb outside
            the solo mode.
    """
    if not isinstance(text, str):
        raise InvalidActionError(msg("an action must be text, not {0}", type(text).__name__))
    if len(text) > MAX_TEXT:
        raise InvalidActionError(msg("action text is too long ({0} characters)", len(text)))
    words = text.lower().split()
    if not words:
        raise InvalidActionError(msg("empty action text"))
    verb = words[0]
    if verb in SOLO_VERBS and not solo:
        raise InvalidActionError(msg("{0} exists only in the solo mode (players=1)", repr(verb)))
    if verb not in VERBS:
        known = VERBS if solo else VERBS[: -len(SOLO_VERBS)]
        raise InvalidActionError(msg("unknown verb {0} (one of {1})", repr(verb), ", ".join(known)))
    args = words[1:]
    if verb == "replay":
        if args == []:
            return table.replay
        if args == ["-"]:
            return table.replay_none
        raise InvalidActionError(msg("'replay' takes no argument or '-', got {0}", repr(text)))
    want = 2 if verb == "swap" and args[:1] != ["-"] else 1
    if len(args) != want:
        raise InvalidActionError(
            msg("{0} takes {1} argument(s), got {2}: {3}", repr(verb), want, len(args), repr(text))
        )
    arg = args[0]
    cards = table.cards
    if verb == "draw":
        return table.draw[_count(arg, text)]
    if verb == "locdraw":
        return table.locdraw[_count(arg, text)]
    if verb in ("keep", "place", "loplace"):
        kind = cards.lord_index.get(arg)
        if kind is None:
            raise InvalidActionError(msg("unknown lord {0} (e.g. red4)", repr(arg)))
        return {"keep": table.keep, "place": table.place, "loplace": table.loplace}[verb][kind]
    if verb in ("take", "lopile"):
        if arg not in COLOURS:
            raise InvalidActionError(
                msg("unknown colour {0} (one of {1})", repr(arg), ", ".join(COLOURS))
            )
        return (table.take if verb == "take" else table.lopile)[COLOURS.index(arg)]
    if verb == "swap":
        if arg == "-":
            return table.swap_none
        i, j = _slot(args[0], text), _slot(args[1], text)
        if i == j:
            raise InvalidActionError(
                msg("bad slot: swap needs two different slots: {0}", repr(text))
            )
        return table.swap[min(i, j)][max(i, j)]
    loc = cards.location_index.get(arg)
    if loc is None:
        raise InvalidActionError(msg("unknown location {0}", repr(arg)))
    return {"lockeep": table.lockeep, "loctake": table.loctake, "locpick": table.locpick}[verb][loc]
