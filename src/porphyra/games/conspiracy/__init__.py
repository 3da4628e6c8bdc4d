"""Conspiracy (Abyss universe), 2-4 players or solo: rules engine on the game contract.

Rules: ``shared/rules/conspiracy.md`` (sections 1-6).  Entry points:
``porphyra.load_game("conspiracy", players=3)``; solo against a Legendary Opponent
(section 4, :mod:`porphyra.games.conspiracy.solo`):
``porphyra.load_game("conspiracy", players=1, opponent="military")``.
"""

from porphyra.games.conspiracy.game import ConspiracyGame
from porphyra.games.conspiracy.state import ConspiracyState

__all__ = ["ConspiracyGame", "ConspiracyState"]
