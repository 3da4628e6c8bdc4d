"""The one bot interface for every seat filler (CLI opponent, server seat, simulation).

A bot never receives the true state.  It gets a :class:`SeatView`: the seat's
``observation``, its legal actions, and ``sample(rng)``, which draws a full state consistent
with that observation (``State.resample``) for search.  Bots are seeded: the same seed and
the same views give the same moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, SupportsIndex

from porphyra.core.game import Action, Game, State
from porphyra.core.seatarg import as_seat


@dataclass(frozen=True)
class SeatView:
    """What a bot may use to decide for ``player``.

    Attributes:
        game: the game (rules, card data, options: all public).
        player: the seat deciding.
        observation: ``state.observation(player)``.
        legal_actions: ``state.legal_actions(player)``.
    """

    game: Game
    player: int
    observation: dict[str, Any]
    legal_actions: Sequence[Action]
    _sampler: Callable[[random.Random], State] = field(repr=False, compare=False)

    def sample(self, rng: random.Random) -> State:
        """A full state consistent with ``observation`` (a determinization), drawn with
        ``rng``; its hidden parts are random, never the truth."""
        return self._sampler(rng)


def seat_view(state: State, player: SupportsIndex | None = None) -> SeatView:
    """The view of ``player`` (default: the current player) on ``state``.

    The sampler closes over a private clone, so later changes to ``state`` do not reach the
    bot, and the bot only ever gets resampled copies of it.

    Raises:
        SeatError: ``player`` is not a seat number.
    """
    seat = state.current_player() if player is None else as_seat(player)
    frozen = state.clone()
    return SeatView(
        game=state.game,
        player=seat,
        observation=state.observation(seat),
        legal_actions=state.legal_actions(seat),
        _sampler=lambda rng: frozen.resample(seat, rng),
    )


class Bot(Protocol):
    """A seat filler: ``choose`` returns one of ``view.legal_actions``."""

    name: str

    def choose(self, view: SeatView) -> Action:
        """Pick an action for ``view.player`` among ``view.legal_actions``."""
        ...
