"""The game contract: ``Game``, ``State`` and ``Action`` (names follow OpenSpiel).

Every game in porphyra implements these two abstract classes; every interface (CLI, web
server, bots, RL adapters, tournaments) is written against them only.  Legality has one
source (``State.legal_actions``) and what a seat may see has one source
(``State.observation``).
"""

from __future__ import annotations

import abc
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex

from porphyra.core.messages import Message
from porphyra.core.options import GameOption

#: ``current_player()`` at the end of the game (OpenSpiel's ``kTerminalPlayerId``).
TERMINAL_PLAYER = -4

JSONDict = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """Metadata a game declares once (OpenSpiel's ``GameType`` plus ``GameInfo``).

    Attributes:
        name: registry id, e.g. ``"byzantium"``.
        version: rules version; bumped whenever a rules change alters play, so that old
            records are refused rather than replayed differently.
        long_name: display name.
        min_players / max_players: seat counts the game supports.
        information: ``"imperfect"`` or ``"perfect"``.
        chance: ``"explicit"`` if chance is a player, ``"sampled"`` if the state draws from
            its own seeded generator (porphyra's games all use ``"sampled"``).
        utility: ``"zero_sum"``, ``"general_sum"`` or ``"constant_sum"`` of ``returns()``.
        min_utility / max_utility: bounds of each entry of ``returns()``.
        max_game_length: upper bound on the number of decisions in one game.
        options: the game's options, declared once (name, type, default, choices, help);
            the game's validation, the CLI flags and the lobby form are built from them.
    """

    name: str
    version: str
    long_name: str
    min_players: int
    max_players: int
    information: str = "imperfect"
    chance: str = "sampled"
    utility: str = "general_sum"
    min_utility: float = -1.0
    max_utility: float = 1.0
    max_game_length: int = 1000
    options: tuple[GameOption, ...] = ()


class Action(abc.ABC):
    """A decision as a small frozen value.

    ``str(action)`` is the action's text in the game's notation (rules section
    "Action notation"), and ``game.parse_action(state, str(action)) == action``.
    """

    __slots__ = ()

    @abc.abstractmethod
    def __str__(self) -> str: ...


class State(abc.ABC):
    """One position of a game.  Mutable: ``apply_action`` changes it in place."""

    game: Game

    @abc.abstractmethod
    def current_player(self) -> int:
        """One canonical seat (0-based) that decides now, or ``TERMINAL_PLAYER`` at the end.

        In a simultaneous decision this is the first of :meth:`active_players` (e.g.
        Byzantium's Emperor, B-R3), so sequential algorithms can play every game by
        applying ``current_player()``'s actions only.
        """

    def active_players(self) -> list[int]:
        """Every seat whose decision the game waits for now, canonical seat first.

        One seat in a sequential position, every seat still to choose in a simultaneous
        decision (boardgame.io's ``activePlayers``), ``[]`` at the end.  Each of them has
        ``legal_actions(seat)`` and may ``apply_action(action, seat)`` in any order.  The
        default is the sequential ``[current_player()]``.
        """
        player = self.current_player()
        return [] if player < 0 else [player]

    @abc.abstractmethod
    def legal_actions(self, player: SupportsIndex | None = None) -> Sequence[Action]:
        """Every legal action of ``player`` (default: the current player), in a fixed order.

        Returns an empty sequence for a seat not in :meth:`active_players` and at the end.
        """

    def legal_action_texts(self, player: SupportsIndex | None = None) -> list[str]:
        """The notation (``str(action)``) of every action of :meth:`legal_actions`, in the
        same order: what a client is shown.  A game may list them without making the
        action objects (Byzantium's meld decisions have hundreds); the conformance suite
        checks that both agree."""
        return [str(a) for a in self.legal_actions(player)]

    def legal_choices(self, player: SupportsIndex | None = None) -> dict[str, Any] | None:
        """``player``'s current decision as an option table, for a client to compose
        :meth:`legal_action_texts` from (:func:`porphyra.core.choices.compose`: exactly
        those texts, in that order), or None where the game offers no such table for this
        decision (the client is then sent the texts).  A game whose decisions list
        hundreds of options (Byzantium's melds and redraws) describes them here in a few
        fields instead; the description's shape is in :mod:`porphyra.core.choices`.  A
        game's own version raises as :meth:`legal_actions` does for a wrong ``player``.
        """
        return None

    @abc.abstractmethod
    def apply_action(self, action: Action, player: SupportsIndex | None = None) -> None:
        """Apply ``player``'s ``action`` (default: the current player's).

        ``player`` may be any seat of :meth:`active_players`; simultaneous choices may
        arrive in any order, and the resulting state, every seat's observation and the
        history are the same whatever the order.

        Raises:
            IllegalActionError: ``player`` is not active or the action is not legal now;
                the state is unchanged.
        """

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True once the game is over."""

    @abc.abstractmethod
    def returns(self) -> list[float]:
        """Per seat: +1 win, -1 loss, 0 draw (shared victories per game rules); zeros
        before the end."""

    @abc.abstractmethod
    def scores(self) -> list[Any]:
        """Per seat, game points (final once terminal)."""

    @abc.abstractmethod
    def observation(self, player: SupportsIndex, log: bool = True) -> JSONDict:
        """JSON-ready view of ``player``: exactly what that seat may know, nothing more.
        A new object on every call that shares nothing with the state (the caller may keep
        or change it; ``conformance.check_observations_are_owned``).

        ``log=False``: the same view with its ``"log"`` (where it has one) left empty, for
        readers that take the log apart (:meth:`log_messages` from a line on) or not at
        all (``conformance.check_views_without_log``)."""

    @abc.abstractmethod
    def public_observation(self, log: bool = True) -> JSONDict:
        """JSON-ready view of a spectator: only public information (a new object on every
        call, as :meth:`observation`).

        ``log=False``: the same view with its ``"log"`` (where it has one) left empty, for
        readers of the other fields only (formatting the lines is much of a view's cost;
        ``conformance.check_views_without_log``)."""

    def log_messages(self, player: SupportsIndex | None = None, start: int = 0) -> list[Message]:
        """The log that ``player`` reads (None: a spectator) as messages, an id plus
        arguments each (:mod:`porphyra.core.messages`, catalogue context ``log``), one per
        line of that view's ``observation["log"]`` and in the same order:
        ``str(message)`` is the line.  They say exactly what the lines say (nothing
        hidden more or less); the edges translate them.

        ``start``: only the messages from that line on (a new list of ``len(log) -
        start`` messages; none past the end).  A log only grows, so a reader that keeps
        what it read asks for the new lines only: the engines hand the same message
        objects out again for the lines they formatted before.

        This default (a game whose log is not structured) carries each line as a message
        without arguments, its whole text as the id; the edge then translates it by
        matching the English text (:func:`porphyra.i18n.log.translate_line`)."""
        obs = self.public_observation() if player is None else self.observation(player)
        lines = obs.get("log")
        return [Message(str(line)) for line in lines[start:]] if isinstance(lines, list) else []

    @abc.abstractmethod
    def clone(self) -> State:
        """An independent copy: applying actions to it never changes ``self``."""

    def __copy__(self) -> State:
        # ``copy.copy`` and ``copy.deepcopy`` give an independent position, as clone()
        # does, on the same game (a game is configuration and caches; it is not copied).
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> State:
        return self.clone()

    @abc.abstractmethod
    def resample(self, player: SupportsIndex, rng: random.Random) -> State:
        """A full state drawn at random among those consistent with ``observation(player)``.

        Everything ``player`` cannot see (other hands, deck orders, the future of the
        random generator) is redrawn with ``rng``; ``observation(player)`` of the result
        equals that of ``self``.  Used by information-set search (determinization).
        """

    @abc.abstractmethod
    def hidden_from(self, player: SupportsIndex) -> Hashable:
        """A fingerprint of what ``player`` cannot see (for the conformance suite's
        check that ``resample`` really varies hidden information)."""

    @property
    @abc.abstractmethod
    def history(self) -> list[tuple[int, Action]]:
        """``(player, action)`` for every action applied since the initial state; the
        choices of one simultaneous decision are kept in canonical order (not arrival
        order) once all of them are in."""

    @property
    @abc.abstractmethod
    def seed(self) -> int:
        """The seed the state was created with (records hold it)."""

    def __str__(self) -> str:
        return f"{self.game.info.name} state, player {self.current_player()} to act"


class Game(abc.ABC):
    """A game with fixed options: a factory of initial states and a parser of actions."""

    info: GameInfo
    options: dict[str, Any]

    @property
    @abc.abstractmethod
    def num_players(self) -> int:
        """Number of seats in games made by this object."""

    @abc.abstractmethod
    def new_initial_state(self, seed: int = 0) -> State:
        """The initial state for ``seed``: the same seed gives the same game, byte for byte."""

    @abc.abstractmethod
    def parse_action(self, state: State, text: str, player: int | None = None) -> Action:
        """Parse ``text`` in the game's notation as a decision of ``player`` (default:
        ``state``'s current player).

        Raises:
            InvalidActionError: the text is not well formed (unknown verb, unknown card).
            IllegalActionError: well formed, but not legal in ``state``.
        """

    @property
    def rules_version(self) -> str:
        """The rules version this game object plays: ``info.version``, or an older version
        it was made for by :meth:`for_version` to replay an old record."""
        return self.info.version

    @classmethod
    def for_version(cls, version: str, options: dict[str, Any]) -> Game:
        """The game that replays a record of rules ``version`` played with ``options``.

        A game whose rules changed overrides this to rebuild an older version exactly;
        by default only the current version exists.

        Raises:
            UnknownGameError: another version, or invalid options.
        """
        from porphyra.core.errors import UnknownGameError

        if version != cls.info.version:
            raise UnknownGameError(
                f"{cls.info.name} rules version {version!r} is not supported; "
                f"this is version {cls.info.version}"
            )
        game: Game = cls(**options)
        return game

    def card_data(self) -> JSONDict:
        """The game's public card data, JSON-ready, for displays (the terminal client and
        the browser both use it): every card kind with its printed values and texts.
        Games without cards return ``{}``.  The shape is the game's own (see its
        override)."""
        return {}

    def record_options(self) -> dict[str, Any]:
        """The options, JSON-ready, that ``load_game`` needs to rebuild this game."""
        return dict(self.options)

    def __repr__(self) -> str:
        return f"load_game({self.info.name!r}, **{self.record_options()!r})"

    def pickle_options(self) -> dict[str, Any]:
        """The options a pickled copy of this game is rebuilt from (default:
        :meth:`record_options`; a game whose options name files makes them absolute)."""
        return self.record_options()

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and deep-copied) by what rebuilds it: its rules version and options (a
        # card file named by an option is read again); caches start afresh.
        return (_rebuild_game, (type(self), self.rules_version, self.pickle_options()))


def _rebuild_game(cls: type[Game], version: str, options: dict[str, Any]) -> Game:
    """The game :meth:`Game.__reduce__` pickled."""
    return cls.for_version(version, options)
