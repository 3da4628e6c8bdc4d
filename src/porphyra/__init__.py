"""porphyra: Byzantium and Conspiracy (Abyss universe) with exact rules, bots and interfaces.

>>> import porphyra
>>> game = porphyra.load_game("byzantium")
>>> state = game.new_initial_state(seed=7)
>>> state.current_player() in (0, 1)
True
"""

from porphyra.core import (
    TERMINAL_PLAYER,
    Action,
    CardDataError,
    Game,
    GameInfo,
    IllegalActionError,
    InvalidActionError,
    PorphyraError,
    RecordError,
    State,
    UnknownGameError,
    load_game,
    registered_games,
)

__version__ = "0.1.0"

__all__ = [
    "TERMINAL_PLAYER",
    "Action",
    "CardDataError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "InvalidActionError",
    "PorphyraError",
    "RecordError",
    "State",
    "UnknownGameError",
    "__version__",
    "load_game",
    "registered_games",
]
