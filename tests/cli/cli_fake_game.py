"""A tiny hidden-hand game for testing the terminal client without the real engines.

Two seats are dealt 3 distinct word cards each (value = position in ``WORDS``); they
alternate ``play <word>`` for 3 rounds; the higher total wins.  Hands are private; played
cards are public.  Registered in the tests as game ``"fake"``.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex

from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.game import TERMINAL_PLAYER, Action, Game, GameInfo, State
from porphyra.core.seatarg import as_optional_seat, as_seat

WORDS = [
    "apple",
    "birch",
    "cedar",
    "daisy",
    "ember",
    "fjord",
    "grove",
    "heron",
    "ivory",
    "jasper",
    "kelp",
    "lilac",
]


@dataclass(frozen=True, slots=True)
class Play(Action):
    """Play one card."""

    word: str

    def __str__(self) -> str:
        return f"play {self.word}"


class FakeState(State):
    """State of the fake game."""

    def __init__(self, game: FakeGame, seed: int) -> None:
        self.game = game
        self._seed = seed
        rng = random.Random(seed)
        deck = WORDS[:]
        rng.shuffle(deck)
        self.hands: list[list[str]] = [sorted(deck[0:3]), sorted(deck[3:6])]
        self.played: list[list[str]] = [[], []]
        self._history: list[tuple[int, Action]] = []
        self.public_log: list[str] = ["The cards are dealt."]
        self.private_log: list[list[str]] = [
            [f"You were dealt {', '.join(h)}."] for h in self.hands
        ]

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL_PLAYER
        return len(self._history) % 2

    def legal_actions(self, player: SupportsIndex | None = None) -> Sequence[Action]:
        seat = as_optional_seat(player)
        p = self.current_player() if seat is None else seat
        if self.is_terminal() or p != self.current_player():
            return []
        return [Play(w) for w in self.hands[p]]

    def apply_action(self, action: Action, player: SupportsIndex | None = None) -> None:
        seat = as_optional_seat(player)
        p = self.current_player()
        if seat not in (None, p):
            raise IllegalActionError(f"not your turn: seat {p} decides")
        if not isinstance(action, Play) or action not in self.legal_actions():
            raise IllegalActionError(f"{action} is not legal now")
        self.hands[p].remove(action.word)
        self.played[p].append(action.word)
        self._history.append((p, action))
        self.public_log.append(f"Seat {p} plays {action.word}.")

    def is_terminal(self) -> bool:
        return len(self._history) >= 6

    def _totals(self) -> list[int]:
        return [sum(WORDS.index(w) for w in self.played[p]) for p in (0, 1)]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        a, b = self._totals()
        return [0.0, 0.0] if a == b else ([1.0, -1.0] if a > b else [-1.0, 1.0])

    def scores(self) -> list[Any]:
        return [{"total": t} for t in self._totals()]

    def public_observation(self, log: bool = True) -> dict[str, Any]:
        return {
            "turn": len(self._history) // 2 + 1,
            "current_player": self.current_player(),
            "played": [list(p) for p in self.played],
            "hand_sizes": [len(h) for h in self.hands],
            "log": list(self.public_log) if log else [],
        }

    def observation(self, player: SupportsIndex, log: bool = True) -> dict[str, Any]:
        seat = as_seat(player)
        obs = self.public_observation()
        obs["seat"] = seat
        obs["hand"] = list(self.hands[seat])
        obs["log"] = self.private_log[seat] + list(self.public_log) if log else []
        return obs

    def clone(self) -> FakeState:
        other = FakeState.__new__(FakeState)
        other.game = self.game
        other._seed = self._seed
        other.hands = [list(h) for h in self.hands]
        other.played = [list(p) for p in self.played]
        other._history = list(self._history)
        other.public_log = list(self.public_log)
        other.private_log = [list(x) for x in self.private_log]
        return other

    def resample(self, player: SupportsIndex, rng: random.Random) -> State:
        seat = as_seat(player)
        other = self.clone()
        seen = set(self.hands[seat]) | {w for p in self.played for w in p}
        pool = [w for w in WORDS if w not in seen]
        rng.shuffle(pool)
        opp = 1 - seat
        other.hands[opp] = sorted(pool[: len(self.hands[opp])])
        return other

    def hidden_from(self, player: SupportsIndex) -> Hashable:
        seat = as_seat(player)
        return tuple(self.hands[1 - seat])

    @property
    def history(self) -> list[tuple[int, Action]]:
        return self._history

    @property
    def seed(self) -> int:
        return self._seed


class FakeGame(Game):
    """The fake game (no options)."""

    info = GameInfo(name="fake", version="1", long_name="Fake Words", min_players=2, max_players=2)

    def __init__(self, **options: Any) -> None:
        if options:
            raise ValueError(f"unknown options {sorted(options)}")
        self.options = {}

    @property
    def num_players(self) -> int:
        return 2

    def new_initial_state(self, seed: int = 0) -> State:
        return FakeState(self, seed)

    def parse_action(self, state: State, text: str, player: int | None = None) -> Action:
        parts = text.split()
        if len(parts) != 2 or parts[0] != "play":
            raise InvalidActionError(f"expected 'play <card>', got {text!r}")
        if parts[1] not in WORDS:
            raise InvalidActionError(f"unknown card {parts[1]!r}")
        action = Play(parts[1])
        if action not in state.legal_actions():
            raise IllegalActionError(f"card {parts[1]!r} is not in your hand")
        return action
