"""Kuhn poker against the game contract: a tiny hidden-information game for bot tests.

Three cards J < Q < K; each of ``num_players`` players (2 or 3) antes 1 and gets one card,
seen only by its holder.  In turn each player checks or bets 1; once someone has bet, every
later player calls or folds.  The best card among the players still in wins the pot.
``returns()`` are the net chip results (so in [-2, 2] with 2 players).  Each seat sees its own
card, the actions so far, and at the end (showdown) every card still in play.

With 2 players this is the textbook game (value -1/18 for the first player); the obvious
moves a search bot must find: with the K facing a bet, call; with the J facing a bet, fold.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, SupportsIndex

from porphyra.core.errors import IllegalActionError, InvalidActionError
from porphyra.core.game import TERMINAL_PLAYER, Action, Game, GameInfo, JSONDict, State
from porphyra.core.seatarg import as_optional_seat, as_seat

CARDS = "JQKA"
VERBS = ("check", "bet", "call", "fold")


@dataclass(frozen=True, slots=True)
class KuhnAction(Action):
    verb: str

    def __str__(self) -> str:
        return self.verb


class KuhnState(State):
    def __init__(self, game: KuhnGame, seed: int, cards: tuple[int, ...]) -> None:
        self.game = game
        self.kgame = game
        self._seed = seed
        self.cards = cards  # cards[p]: rank of seat p's card (0 = J)
        self._history: list[tuple[int, Action]] = []

    # -- helpers -----------------------------------------------------------------------
    def _verbs(self) -> list[str]:
        return [str(a) for _, a in self._history]

    def _bettor(self) -> int | None:
        for p, a in self._history:
            if str(a) == "bet":
                return p
        return None

    # -- contract ----------------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL_PLAYER
        n = self.game.num_players
        bettor = self._bettor()
        if bettor is None:
            return len(self._history) % n
        after = len(self._history) - next(
            i for i, (_, a) in enumerate(self._history) if str(a) == "bet"
        )
        return (bettor + after) % n

    def is_terminal(self) -> bool:
        n = self.game.num_players
        bettor = self._bettor()
        if bettor is None:
            return len(self._history) == n
        first_bet = next(i for i, (_, a) in enumerate(self._history) if str(a) == "bet")
        return len(self._history) - first_bet == n

    def legal_actions(self, player: SupportsIndex | None = None) -> Sequence[Action]:
        seat = as_optional_seat(player)
        if self.is_terminal():
            return []
        if seat is not None and seat != self.current_player():
            return []
        if self._bettor() is None:
            return [KuhnAction("check"), KuhnAction("bet")]
        return [KuhnAction("call"), KuhnAction("fold")]

    def apply_action(self, action: Action, player: SupportsIndex | None = None) -> None:
        seat = as_optional_seat(player)
        if seat not in (None, self.current_player()):
            raise IllegalActionError(f"not your turn: seat {self.current_player()} decides")
        if str(action) not in {str(a) for a in self.legal_actions()}:
            raise IllegalActionError(f"{action} is not legal now")
        self._history.append((self.current_player(), action))

    def _in_play(self) -> list[int]:
        n = self.game.num_players
        folded = {p for p, a in self._history if str(a) == "fold"}
        return [p for p in range(n) if p not in folded]

    def returns(self) -> list[float]:
        n = self.game.num_players
        if not self.is_terminal():
            return [0.0] * n
        put = [1.0] * n
        for p, a in self._history:
            if str(a) in ("bet", "call"):
                put[p] += 1
        alive = self._in_play()
        winner = max(alive, key=lambda p: self.cards[p])
        pot = sum(put)
        return [(pot if p == winner else 0.0) - put[p] for p in range(n)]

    def scores(self) -> list[Any]:
        return self.returns()

    def observation(self, player: SupportsIndex, log: bool = True) -> JSONDict:
        seat = as_seat(player)
        obs: JSONDict = {
            "seat": seat,
            "card": CARDS[self.cards[seat]],
            "actions": self._verbs(),
        }
        if self.is_terminal():
            obs["showdown"] = {str(p): CARDS[self.cards[p]] for p in self._in_play()}
        return obs

    def public_observation(self, log: bool = True) -> JSONDict:
        return {"actions": self._verbs()}

    def clone(self) -> KuhnState:
        other = KuhnState(self.kgame, self._seed, self.cards)
        other._history = list(self._history)
        return other

    def resample(self, player: SupportsIndex, rng: random.Random) -> KuhnState:
        seat = as_seat(player)
        n = self.game.num_players
        fixed = {seat: self.cards[seat]}
        if self.is_terminal():
            fixed.update({p: self.cards[p] for p in self._in_play()})
        # Canonical: the pool depends only on what ``seat`` sees, never on hidden cards.
        pool = sorted(set(range(n + 1)) - set(fixed.values()))
        rng.shuffle(pool)
        cards = [fixed[p] if p in fixed else pool.pop() for p in range(n)]
        other = KuhnState(self.kgame, self._seed, tuple(cards))
        other._history = list(self._history)
        return other

    def hidden_from(self, player: SupportsIndex) -> Hashable:
        seat = as_seat(player)
        return tuple(c for p, c in enumerate(self.cards) if p != seat)

    @property
    def history(self) -> list[tuple[int, Action]]:
        return list(self._history)

    @property
    def seed(self) -> int:
        return self._seed


class KuhnGame(Game):
    def __init__(self, num_players: int = 2) -> None:
        if num_players not in (2, 3):
            raise ValueError("Kuhn poker takes 2 or 3 players")
        self._n = num_players
        self.options = {"num_players": num_players}
        self.info = GameInfo(
            name="kuhn",
            version="1",
            long_name="Kuhn poker",
            min_players=2,
            max_players=3,
            utility="zero_sum",
            min_utility=-2.0,
            max_utility=2.0 * (num_players - 1),
            max_game_length=2 * num_players,
        )

    @property
    def num_players(self) -> int:
        return self._n

    def new_initial_state(self, seed: int = 0) -> KuhnState:
        deck = list(range(self._n + 1))
        random.Random(seed).shuffle(deck)
        return KuhnState(self, seed, tuple(deck[: self._n]))

    def parse_action(self, state: State, text: str, player: int | None = None) -> Action:
        if text not in VERBS:
            raise InvalidActionError(f"unknown action {text!r}")
        action = KuhnAction(text)
        if text not in {str(a) for a in state.legal_actions()}:
            raise IllegalActionError(f"{text} is not legal now")
        return action


def deal(game: KuhnGame, cards: Sequence[int], actions: Sequence[str] = ()) -> KuhnState:
    """A state with the given cards (ranks) after the given action texts."""
    state = KuhnState(game, 0, tuple(cards))
    for text in actions:
        state.apply_action(game.parse_action(state, text))
    return state
