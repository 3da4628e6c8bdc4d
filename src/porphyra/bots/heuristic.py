"""Per-game heuristics: the ``easy`` bot, rollout policies and evaluations for ISMCTS.

Each game may provide a module ``porphyra.bots.heuristic_<game>`` with:

- ``HeuristicBot(seed)``: a bot (``name``, ``choose(view)``) whose strategy is documented in
  the module docstring;
- ``rollout_policy(state, rng) -> Action``: a fast policy for the current player of a
  (determinized) state, used by ISMCTS with ``rollout="heuristic"``;
- ``evaluate(state, player) -> float``: the estimated reward in [0, 1] of ``player`` in a
  non-terminal state, used by ISMCTS rollouts cut at a depth;
- ``candidate_actions(state) -> list[Action]``: a small subset of the current player's
  legal actions (always including the heuristic's own choice) that ISMCTS's tree considers
  with ``candidates="heuristic"``;
- ``refine_sample(state, player, rng)``: adjusts a determinization in place (an opponent
  model for hidden choices that ``resample`` draws at random), for ``refine="heuristic"``;
- ``simultaneous(state, observer) -> bool``: whether the current player decides without
  seeing a hidden choice ``observer`` has made (simultaneous moves), for
  ``simultaneous="heuristic"``;
- ``rollout_cut(state) -> bool``: whether a rollout that has played its ``depth`` actions
  may stop here for ``evaluate`` (e.g. once a turn's outcome is settled), for
  ``cut="heuristic"``.

The functions here look the module up by game name.  A game without one falls back to
:class:`GreedyBot` (a generic flat Monte Carlo one-ply bot), uniformly random rollouts and no
evaluation (rollouts then play to the end) and every legal action as a candidate.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

from porphyra.bots.base import Bot, SeatView
from porphyra.bots.search_types import (
    Candidates,
    Cut,
    Evaluation,
    Refiner,
    RolloutPolicy,
    Simultaneous,
    view_seed,
)
from porphyra.core.game import Action, State

_MODULES: dict[str, str] = {
    "byzantium": "porphyra.bots.heuristic_byzantium",
    "conspiracy": "porphyra.bots.heuristic_conspiracy",
}


def _module(game_name: str) -> ModuleType | None:
    target = _MODULES.get(game_name)
    if target is None:
        return None
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name == target:  # the heuristic does not exist yet; other errors propagate
            return None
        raise


def heuristic_for(game_name: str) -> Callable[[int], Bot]:
    """The factory ``seed -> bot`` of the heuristic bot of ``game_name``.

    Falls back to :class:`GreedyBot` for a game without a heuristic module.
    """
    module = _module(game_name)
    if module is None:
        return GreedyBot
    factory: Callable[[int], Bot] = module.HeuristicBot
    return factory


def _random_policy(state: State, rng: random.Random) -> Action:
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


def _hook(game_name: str, attribute: str) -> Any:
    """``attribute`` of ``game_name``'s heuristic module, or ``None`` if either is missing."""
    return getattr(_module(game_name), attribute, None)


def rollout_policy_for(game_name: str) -> RolloutPolicy:
    """The heuristic rollout policy of ``game_name`` (uniformly random if it has none)."""
    policy: RolloutPolicy | None = _hook(game_name, "rollout_policy")
    return _random_policy if policy is None else policy


def evaluation_for(game_name: str) -> Evaluation | None:
    """The evaluation ``(state, player) -> [0, 1]`` of ``game_name``, or ``None`` if it has
    none (then ISMCTS plays rollouts to the end whatever its depth)."""
    evaluate: Evaluation | None = _hook(game_name, "evaluate")
    return evaluate


def candidates_for(game_name: str) -> Candidates | None:
    """The candidate generator ``state -> actions`` of ``game_name``, or ``None`` (every
    legal action) if it has none."""
    candidates: Candidates | None = _hook(game_name, "candidate_actions")
    return candidates


def refiner_for(game_name: str) -> Refiner | None:
    """The determinization refiner of ``game_name``, or ``None`` if it has none."""
    refine: Refiner | None = _hook(game_name, "refine_sample")
    return refine


def cut_for(game_name: str) -> Cut | None:
    """Where ``game_name``'s rollouts may stop for the evaluation (``state -> bool``), or
    ``None`` (after ``depth`` actions, wherever that is) if it has no ``rollout_cut``."""
    cut: Cut | None = _hook(game_name, "rollout_cut")
    return cut


def simultaneous_for(game_name: str) -> Simultaneous | None:
    """The simultaneous-move test ``(state, observer) -> bool`` of ``game_name``, or
    ``None`` if its decisions are all sequential."""
    test: Simultaneous | None = _hook(game_name, "simultaneous")
    return test


class GreedyBot:
    """Generic fallback ``easy`` bot: flat Monte Carlo over one ply.

    For each legal action it plays ``samples`` random games from determinizations of the view
    (``view.sample``) after that action, and picks the action with the best mean reward
    (``returns()`` mapped to [0, 1]); ties go to the earlier legal action.  It is
    game-independent and only used for games without their own heuristic.

    Args:
        seed: with the view, seeds each decision (same seed and view, same move).
        samples: random games per legal action.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, samples: int = 8) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.seed = seed
        self.samples = samples

    def choose(self, view: SeatView) -> Action:
        """The legal action with the best mean reward over random playouts.

        Raises:
            ValueError: ``view`` has no legal action.
        """
        if not view.legal_actions:
            raise ValueError(f"seat {view.player} has no legal action")
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        rng = random.Random(view_seed(self.seed, view, "greedy"))
        info = view.game.info
        lo, hi = float(info.min_utility), float(info.max_utility)
        span = hi - lo if hi > lo else 1.0
        best, best_value = view.legal_actions[0], -1.0
        for action in view.legal_actions:
            key = str(action)
            total = 0.0
            for _ in range(self.samples):
                state = view.sample(rng)
                mine = next(a for a in state.legal_actions() if str(a) == key)
                state.apply_action(mine)
                while not state.is_terminal():
                    state.apply_action(_random_policy(state, rng))
                total += (state.returns()[view.player] - lo) / span
            if total > best_value:
                best, best_value = action, total
        return best


class EasyBot:
    """The ``easy`` difficulty: the heuristic bot of whatever game it is asked to play.

    The per-game bot is built on first use from :func:`heuristic_for` with this bot's seed.
    """

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._bots: dict[str, Bot] = {}

    def choose(self, view: SeatView) -> Action:
        """The game's heuristic bot's choice.

        Raises:
            ValueError: ``view`` has no legal action.
        """
        name = view.game.info.name
        bot = self._bots.get(name)
        if bot is None:
            bot = self._bots[name] = heuristic_for(name)(self.seed)
        return bot.choose(view)
