"""Do-nothing environments: what each research framework costs by itself (``bench_envs``).

Each floor environment plays a fixed number of steps a game and does no game work at all:
its observation is a fixed ``float32`` tensor and ``int8`` mask (copied on every call, as
porphyra's environments hand out new arrays), the first ``legal`` action ids are legal (the
real game's mean number), and the game ends after ``steps`` steps. It keeps exactly the
bookkeeping its framework requires of every environment (PettingZoo's rewards, terminations
and infos per agent; Gymnasium's step tuple; OpenSpiel's Python-game callbacks), inside the
same wrapper porphyra's environment uses. Played by the same loop as the real environment
with that environment's own mean steps per game, it measures the part of a wrapper's
overhead that no environment of that framework can avoid: what is left is porphyra's own.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import Env, spaces
from pettingzoo import AECEnv

from porphyra.envs.pettingzoo import _OrderEnforcing


def _spaces(size: int, num_actions: int) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        }
    )
    return obs, spaces.Discrete(num_actions)


def _mask(num_actions: int, legal: int) -> Any:
    mask = np.zeros(num_actions, np.int8)
    mask[:legal] = 1
    return mask


class FloorAEC(AECEnv[str, dict[str, Any], int]):  # type: ignore[misc]
    """A PettingZoo AEC environment of ``players`` agents taking turns for ``steps`` steps
    a game, with tensors of ``size`` floats and ``num_actions`` ids (the first ``legal``
    legal)."""

    metadata: dict[str, Any] = {"render_modes": [], "name": "floor_v0"}  # noqa: RUF012

    def __init__(self, players: int, steps: int, size: int, num_actions: int, legal: int) -> None:
        super().__init__()
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.steps = steps
        self.tensor = np.zeros(size, np.float32)
        self.ones = _mask(num_actions, legal)
        obs, act = _spaces(size, num_actions)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = dict.fromkeys(self.possible_agents, act)
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.done = 0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, Any]:
        return {"observation": self.tensor.copy(), "action_mask": self.ones.copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.done += 1
        if self.done >= self.steps:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, True)
        seat = self.possible_agents.index(agent)
        self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        self.infos = {a: {} for a in self.agents}
        self._accumulate_rewards()


def floor_aec(players: int, steps: int, size: int, num_actions: int, legal: int) -> Any:
    """:class:`FloorAEC` inside the order-enforcing wrapper porphyra's ``env()`` uses."""
    return _OrderEnforcing(FloorAEC(players, steps, size, num_actions, legal))


class FloorGym(Env[Any, np.int64]):
    """A Gymnasium environment of ``steps`` steps a game (tensor of ``size`` floats, mask
    of ``num_actions`` ids, the first ``legal`` legal, in ``info["action_mask"]``, as
    porphyra's)."""

    def __init__(self, steps: int, size: int, num_actions: int, legal: int) -> None:
        self.steps = steps
        self.tensor = np.zeros(size, np.float32)
        self.ones = _mask(num_actions, legal)
        self.observation_space = spaces.Box(-1.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(num_actions)
        self.done = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.done = 0
        return self.tensor.copy(), {"action_mask": self.ones.copy()}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.done += 1
        over = self.done >= self.steps
        return self.tensor.copy(), 0.0, over, False, {"action_mask": self.ones.copy()}


def floor_gym(steps: int, size: int, num_actions: int, legal: int) -> FloorGym:
    """:class:`FloorGym` (porphyra's Gymnasium environment is used unwrapped too)."""
    return FloorGym(steps, size, num_actions, legal)


def floor_openspiel(players: int, steps: int, size: int, num_actions: int, legal: int) -> Any:
    """A pyspiel Python game (registered once per shape) of ``steps`` moves a game, the
    first ``legal`` of ``num_actions`` ids legal (the playout asks for no tensor)."""
    import pyspiel

    short = f"floor_{players}_{steps}_{size}_{num_actions}_{legal}"
    ids = list(range(legal))

    class State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.done = 0

        def current_player(self) -> int:
            if self.done >= steps:
                return int(pyspiel.PlayerId.TERMINAL)
            return self.done % players

        def _legal_actions(self, player: int) -> list[int]:
            return ids

        def _apply_action(self, action: int) -> None:
            self.done += 1

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def is_terminal(self) -> bool:
            return self.done >= steps

        def returns(self) -> list[float]:
            return [0.0] * players

        def __str__(self) -> str:
            return str(self.done)

    game_type = pyspiel.GameType(
        short_name=short,
        long_name=short,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=num_actions,
        max_chance_outcomes=0,
        num_players=players,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0,
        max_game_length=steps,
    )

    class Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Any = None) -> None:
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> State:
            return State(self)

    if short not in pyspiel.registered_names():
        pyspiel.register_game(game_type, Game)
    return pyspiel.load_game(short)
