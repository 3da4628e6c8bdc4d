"""The uniform random bot: the baseline every other bot must beat."""

from __future__ import annotations

import random

from porphyra.bots.base import SeatView
from porphyra.core.game import Action


class RandomBot:
    """Picks uniformly among the legal actions with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        """A uniformly random legal action.

        Raises:
            ValueError: ``view`` has no legal action.
        """
        if not view.legal_actions:
            raise ValueError(f"seat {view.player} has no legal action")
        return view.legal_actions[self._rng.randrange(len(view.legal_actions))]
