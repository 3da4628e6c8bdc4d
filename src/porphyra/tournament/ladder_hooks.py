"""What each game brings to the bot ladder (:mod:`porphyra.tournament.ladder`), registered
with the registry (adapter kind ``"ladder"``, :func:`porphyra.core.registry.adapter`) so
that the ladder never names a game (issue 33 §1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class LadderHooks:
    """A game's part of the ladder.

    Attributes:
        budgets: the iterations a move that stand for a time-budgeted level (``medium``:
            0.5 s, ``hard``: 2 s): those seconds times the iterations per CPU second that
            ``docs/results/calibrate_ismcts.py`` measures for the game (docs/bots.md).
        player_counts: the ladder's tables of the game, by number of players (1: the solo
            mode, every level against each Legendary Opponent).
    """

    budgets: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    player_counts: tuple[int, ...] = (2,)


#: Byzantium: 3,325 iterations per CPU second (median, compiled engine).
BYZANTIUM = LadderHooks(MappingProxyType({"medium": 1650, "hard": 6650}), (2,))
#: Conspiracy: 1,119 iterations per CPU second; 2 players and the solo mode.
CONSPIRACY = LadderHooks(MappingProxyType({"medium": 560, "hard": 2240}), (2, 1))
