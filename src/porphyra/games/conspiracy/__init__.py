"""Conspiracy (Abyss universe), 2-4 players: rules engine on the porphyra game contract.

Rules: ``shared/rules/conspiracy.md`` (sections 1-3, 5, 6).  Entry point:
``porphyra.load_game("conspiracy", players=3)``.
"""

from porphyra.games.conspiracy.game import ConspiracyGame
from porphyra.games.conspiracy.state import ConspiracyState

__all__ = ["ConspiracyGame", "ConspiracyState"]
