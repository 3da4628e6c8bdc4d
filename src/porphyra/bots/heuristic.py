"""Per-game heuristics: the ``easy`` bot, rollout policies and evaluations for ISMCTS.

Each game may register (``"heuristics"`` in :mod:`porphyra.core.registry`) a
:class:`~porphyra.bots.search_types.GameHeuristics` typed with the game's state class
(e.g. ``porphyra.bots.byzantium_search.HEURISTICS``): its ``easy`` bot (strategy in
the module's docstring), rollout policy, evaluation, candidate actions, determinization
refiner, simultaneous-move test and rollout cut (each documented on
:class:`~porphyra.bots.search_types.GameHeuristics`).

:func:`heuristics_for` looks the structure up by game name.  A game without one falls back
to :class:`GreedyBot` (a generic flat Monte Carlo one-ply bot), uniformly random rollouts and
no evaluation (rollouts then play to the end) and every legal action as a candidate.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from porphyra.bots.base import Bot, SeatView
from porphyra.bots.search_types import GameHeuristics, view_seed
from porphyra.core.game import Action, State
from porphyra.core.registry import adapter, games_with, registered_games


def heuristics_for(game_name: str) -> GameHeuristics[Any] | None:
    """The heuristic hooks ``game_name`` registers, or ``None`` for a game without them
    (or a name the registry does not know).

    Raises:
        TypeError: the registered hooks are not a ``GameHeuristics``.
    """
    if game_name not in registered_games():
        return None
    hooks = adapter(game_name, "heuristics")
    if hooks is None:
        return None
    if not isinstance(hooks, GameHeuristics):
        raise TypeError(f"{game_name}'s heuristics must be a GameHeuristics, not {hooks!r}")
    return hooks


def heuristic_for(game_name: str) -> Callable[[int], Bot]:
    """The factory ``seed -> bot`` of the heuristic bot of ``game_name``.

    Falls back to :class:`GreedyBot` for a game without a heuristic module.
    """
    hooks = heuristics_for(game_name)
    return GreedyBot if hooks is None else hooks.bot


def random_policy(state: State, rng: random.Random) -> Action:
    """A uniformly random legal action of the current player (the default rollout)."""
    actions = state.legal_actions()
    return actions[rng.randrange(len(actions))]


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
                mine = next(a for a in state.legal_actions(view.player) if str(a) == key)
                state.apply_action(mine, view.player)  # also early in a simultaneous choice
                while not state.is_terminal():
                    state.apply_action(random_policy(state, rng))
                total += (state.returns()[view.player] - lo) / span
            if total > best_value:
                best, best_value = action, total
        return best


class EasyBot:
    """The ``easy`` difficulty: the heuristic bot of whatever game it is asked to play.

    The per-game bot is built on first use from :func:`heuristic_for` with this bot's seed.
    """

    name = "easy"

    def __init__(self, seed: int = 0, style: str | None = None, redraw: str | None = None) -> None:
        """Args: ``style``: a Byzantium play style
        (:data:`porphyra.bots.byzantium_styles.STYLES`), ``None`` for the plain heuristic;
        ``redraw``: a Byzantium redraw rule
        (:data:`porphyra.bots.byzantium_redraw.REDRAW_RULES`), ``None`` for the default.

        Raises:
            ValueError: an unknown style or redraw rule, or both given.
        """
        self.seed = seed
        self.style = style
        self.redraw = redraw
        self._bots: dict[str, Bot] = {}
        if redraw is not None:
            from porphyra.bots.byzantium_redraw import check_redraw_rule

            if style is not None:
                raise ValueError("easy takes a style or a redraw rule, not both")
            check_redraw_rule(redraw)
            self.name = f"easy:redraw={redraw}"
        if style is not None:
            from porphyra.bots.byzantium_styles import STYLES

            if style not in STYLES:
                raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")
            self.name = f"easy:style={style}"

    def choose(self, view: SeatView) -> Action:
        """The game's heuristic bot's choice.

        Raises:
            ValueError: ``view`` has no legal action.
        """
        name = view.game.info.name
        bot = self._bots.get(name)
        if bot is None:
            self.check_game(name)
            if self.redraw is not None:
                redraw_bot = adapter(name, "redraw_bot")
                assert redraw_bot is not None  # (check_game)
                bot = redraw_bot(self.seed, self.redraw)
            elif self.style is None:
                bot = heuristic_for(name)(self.seed)
            else:
                styled_bot = adapter(name, "styled_bot")
                assert styled_bot is not None  # (check_game)
                bot = styled_bot(self.seed, self.style)
            self._bots[name] = bot
        return bot.choose(view)

    def check_game(self, game: str) -> None:
        """Check that this bot's options suit the game named ``game`` (a redraw rule or a
        play style is Byzantium's), so that a command refuses it before the game starts.

        Raises:
            ValueError: a redraw rule or a play style for a game without them.
        """
        if self.redraw is not None and adapter(game, "redraw_bot") is None:
            rules = " and ".join(games_with("redraw_bot"))
            raise ValueError(f"redraw rules are for {rules}, not {game}")
        if self.style is not None and adapter(game, "styled_bot") is None:
            styled = " and ".join(games_with("styled_bot"))
            raise ValueError(f"play styles are for {styled}, not {game}")
