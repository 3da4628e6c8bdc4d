"""A perfect-information game given as an explicit tree, for crafted bot tests.

A node is either a terminal ``tuple`` of returns, or ``(player, {action_text: child})``.
``resample`` returns a copy (nothing is hidden), so ISMCTS degenerates to plain MCTS.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex, TypeAlias

from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.game import TERMINAL_PLAYER, Action, Game, GameInfo, JSONDict, State
from porphyra.core.seatarg import as_optional_seat, as_seat

#: ``tuple[float, ...]`` (a leaf) or ``tuple[int, dict[str, Tree]]`` (a decision).
Tree: TypeAlias = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class TreeAction(Action):
    text: str

    def __str__(self) -> str:
        return self.text


def _is_leaf(node: Tree) -> bool:
    return not (len(node) == 2 and isinstance(node[1], dict))


class TreeState(State):
    def __init__(self, game: TreeGame, path: tuple[str, ...] = ()) -> None:
        self.game = game
        self.tgame = game
        self.path = path
        node = game.tree
        for text in path:
            assert not _is_leaf(node)
            node = node[1][text]
        self.node: Tree = node

    def current_player(self) -> int:
        return TERMINAL_PLAYER if _is_leaf(self.node) else int(self.node[0])

    def legal_actions(self, player: SupportsIndex | None = None) -> Sequence[Action]:
        seat = as_optional_seat(player)
        if _is_leaf(self.node) or (seat is not None and seat != self.current_player()):
            return []
        return [TreeAction(t) for t in self.node[1]]

    def apply_action(self, action: Action, player: SupportsIndex | None = None) -> None:
        seat = as_optional_seat(player)
        if seat not in (None, self.current_player()):
            raise IllegalActionError(f"not your turn: seat {self.current_player()} decides")
        if str(action) not in {str(a) for a in self.legal_actions()}:
            raise IllegalActionError(f"{action} is not legal now")
        self.__init__(self.tgame, (*self.path, str(action)))  # type: ignore[misc]

    def is_terminal(self) -> bool:
        return _is_leaf(self.node)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.game.num_players
        return [float(x) for x in self.node]

    def scores(self) -> list[Any]:
        return self.returns()

    def observation(self, player: SupportsIndex, log: bool = True) -> JSONDict:
        as_seat(player)  # (checked; every seat sees the whole path)
        return {"path": list(self.path)}

    def public_observation(self, log: bool = True) -> JSONDict:
        return {"path": list(self.path)}

    def clone(self) -> TreeState:
        return TreeState(self.tgame, self.path)

    def resample(self, player: SupportsIndex, rng: random.Random) -> TreeState:
        as_seat(player)  # (nothing is hidden)
        return self.clone()

    def hidden_from(self, player: SupportsIndex) -> Hashable:
        as_seat(player)  # (nothing is hidden)
        return ()

    @property
    def history(self) -> list[tuple[int, Action]]:
        out: list[tuple[int, Action]] = []
        node = self.tgame.tree
        for text in self.path:
            out.append((int(node[0]), TreeAction(text)))
            node = node[1][text]
        return out

    @property
    def seed(self) -> int:
        return 0


class TreeGame(Game):
    def __init__(self, tree: Tree, num_players: int = 2) -> None:
        self.tree = tree
        self._n = num_players
        self.options = {}
        self.info = GameInfo(
            name="tree",
            version="1",
            long_name="explicit game tree",
            min_players=num_players,
            max_players=num_players,
            information="perfect",
        )

    @property
    def num_players(self) -> int:
        return self._n

    def new_initial_state(self, seed: int = 0) -> TreeState:
        return TreeState(self)

    def parse_action(self, state: State, text: str, player: int | None = None) -> Action:
        if text not in {str(a) for a in state.legal_actions()}:
            raise InvalidActionError(f"unknown action {text!r}")
        return TreeAction(text)
