"""Engine core: the game contract, errors, records, the registry and the conformance suite."""

from porphyra.core.errors import (
    CardDataError,
    IllegalActionError,
    InvalidActionError,
    PorphyraError,
    RecordError,
    UnknownGameError,
)
from porphyra.core.game import TERMINAL_PLAYER, Action, Game, GameInfo, State
from porphyra.core.registry import load_game, registered_games

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
    "load_game",
    "registered_games",
]
