"""PettingZoo environments: ``env`` / ``raw_env`` (AEC) for both games, ``parallel_env``
for Byzantium.

>>> from porphyra.envs.pettingzoo import env
>>> e = env("conspiracy", players=3)
>>> e.reset(seed=7)
>>> obs, reward, terminated, truncated, info = e.last()
>>> sorted(obs)
['action_mask', 'observation']

Agents are ``player_0`` ... (engine seats 0 ...).  Each observation is a dict
``{"observation": float32[layout size], "action_mask": int8[num_actions]}`` (in the AEC
environments the mask is all zeros for an agent not to act; in the parallel one it allows
the no-op :data:`IDLE_ID`); the action space is ``Discrete(num_actions)`` (see
:mod:`porphyra.envs.encoding` and ``docs/envs.md``).  ``infos[agent]["observation_json"]``
holds the engine's JSON observation of the agent to act (with its ``selection``);
``observation_json=False`` leaves it out (a training loop that reads only tensors saves an
engine observation a step) and ``env.unwrapped.observation_json(agent)`` still gives it.
Rewards are the engine's ``returns`` at the end, 0 before.  ``reset(seed=s)`` plays the
engine game of seed ``s``; an illegal action raises
:class:`~porphyra.core.errors.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from porphyra.core.errors import IllegalActionError
from porphyra.core.registry import load_game
from porphyra.core.seatarg import as_integer
from porphyra.envs.codecs import codec_for
from porphyra.envs.encoding import Codec, EnvCore, flag, next_game_seed, one_of
from porphyra.envs.hooks import default_game, parallel_games

BOUND = 1000.0

#: The parallel environment's no-op id, the one id an idle agent's mask allows (v1).
IDLE_ID = 0


def _spaces(codec: Codec) -> tuple[spaces.Dict, spaces.Discrete]:
    obs = spaces.Dict(
        {
            "observation": spaces.Box(-BOUND, BOUND, (codec.layout.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (codec.num_actions,), np.int8),
        }
    )
    return obs, spaces.Discrete(codec.num_actions)


#: The render modes: ``ansi`` returns the text, ``human`` prints it (PettingZoo's render_test).
RENDER_MODES = ("human", "ansi")


class _Base:
    """What the AEC and parallel environments share: the game, codec, spaces, seeding."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012
    version = 0  # (the environment's version, in its metadata name)
    agents: list[str]  # (set by each environment at reset)

    def _setup(
        self,
        game: str,
        render_mode: str | None,
        with_json: bool,
        illegal_action: str,
        options: dict[str, Any],
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.with_json = flag("observation_json", with_json)
        self.illegal_action = one_of("illegal_action", illegal_action, ("raise", "lose"))
        self.game = load_game(game, **options)
        self.codec = codec_for(self.game)
        self.metadata = {**self.metadata, "name": f"porphyra_{game}_v{self.version}"}
        self.possible_agents = [f"player_{i}" for i in range(self.game.num_players)]
        obs, act = _spaces(self.codec)
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs)
        self.action_spaces = dict.fromkeys(self.possible_agents, act)
        self._seeds = random.Random()
        self.core = EnvCore(
            self.codec, self.game.new_initial_state(seed=0), with_json=self.with_json
        )

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space (the same object on every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's ``Discrete`` action space (the same object on every call)."""
        return self.action_spaces[agent]

    def _new_game(self, seed: int | None) -> None:
        self._seeds, game_seed = next_game_seed(self._seeds, seed)
        self.core = EnvCore(
            self.codec, self.game.new_initial_state(seed=game_seed), with_json=self.with_json
        )

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _observe(self, seat: int) -> dict[str, Any]:
        return {"observation": self.core.tensor(seat), "action_mask": self.core.mask(seat)}

    def render(self) -> str | None:
        """A one-line public summary of the position: returned (``ansi``), printed on
        stdout (``human``, which returns None), or nothing (no ``render_mode``)."""
        if self.render_mode is None:
            return None
        pub = self.core.state.public_observation()
        text = f"{pub['game']} turn {pub['turn']}, phase {pub['phase']}"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""

    def _forfeit(
        self, agent: str, reason: str
    ) -> tuple[dict[str, float], dict[str, dict[str, Any]]]:
        """``illegal_action="lose"``: the rewards (-1 for ``agent``, 0 for the others) and
        the infos (the reason in ``agent``'s) of the game it ends."""
        rewards = {a: -1.0 if a == agent else 0.0 for a in self.agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        infos[agent] = {"illegal_action": reason}
        return rewards, infos

    def observation_json(self, agent: str) -> dict[str, Any]:
        """The engine's JSON observation of ``agent`` plus its ``selection``."""
        return self.core.observation(self._seat(agent))


class raw_env(_Base, AECEnv[str, dict[str, Any], int]):
    # Not parallelizable: PettingZoo's aec_to_parallel needs every live agent to act
    # once per cycle in turn; here one seat acts several ids in a row (a card list) and
    # turns do not alternate.
    """The AEC environment of ``game`` (``"byzantium"`` or ``"conspiracy"``) with engine
    ``options`` (e.g. ``players=3``).  In Byzantium's simultaneous phases the seats choose
    one after the other (the Emperor first); the engine hides the first choice.
    ``observation_json``: put the JSON observation of the agent to act in its infos.
    ``illegal_action``: ``"raise"`` (default): an illegal id raises
    :class:`~porphyra.core.errors.IllegalActionError` and changes nothing; ``"lose"``
    (PettingZoo's classic-games convention, what unmasked samples need, e.g.
    ``parallel_seed_test``): it ends the game, -1 for that agent and 0 for the others,
    the engine state untouched and the reason in its ``infos[agent]["illegal_action"]``.

    Raises:
        UnknownGameError: unknown game or invalid options.
        ValueError: a game without encoding, or a bad ``render_mode``,
            ``observation_json`` or ``illegal_action``.
    """

    def __init__(
        self,
        game: str = default_game("pettingzoo"),
        render_mode: str | None = None,
        observation_json: bool = True,
        illegal_action: str = "raise",
        **options: Any,
    ):
        super().__init__()
        self.metadata = {**self.metadata, "is_parallelizable": False}
        self._setup(game, render_mode, observation_json, illegal_action, options)
        self.reset()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (``seed``: the engine seed; None: drawn from the previous)."""
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._select()

    def _select(self) -> None:
        active = self.core.active()
        if active:
            self.agent_selection = self.possible_agents[active[0]]
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if active and self.with_json:
            self.infos[self.agent_selection] = {
                "observation_json": self.core.observation(active[0])
            }

    def observe(self, agent: str) -> dict[str, Any]:
        """``{"observation": float32 tensor, "action_mask": int8 mask}`` of ``agent``."""
        return self._observe(self._seat(agent))

    def step(self, action: int | None) -> None:
        """Play action id ``action`` for ``agent_selection`` (None once it is done).

        Raises:
            IllegalActionError: the id is not legal now (nothing changes).
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            if action is None:
                raise IllegalActionError(f"{agent} must act; None is only for a finished agent")
            self.core.step(self._seat(agent), action)
        except IllegalActionError as err:
            if self.illegal_action == "raise":
                raise
            self._lose(agent, str(err))
            return
        self._cumulative_rewards[agent] = 0.0
        if self.core.state.is_terminal():
            returns = self.core.state.returns()
            self.rewards = {a: float(returns[self._seat(a)]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        self._select()
        self._accumulate_rewards()

    def _lose(self, agent: str, reason: str) -> None:
        """``illegal_action="lose"``: the game ends, -1 for ``agent``, 0 for the others."""
        self._cumulative_rewards[agent] = 0.0
        self.rewards, self.infos = self._forfeit(agent, reason)
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()


class _OrderEnforcing(wrappers.OrderEnforcingWrapper[str, dict[str, Any], int]):
    """PettingZoo's order-enforcing wrapper, with ``last()`` asked of the environment in
    one call: the inherited ``last()`` reads six attributes through the wrapper's
    ``__getattr__``, which cost more than the rest of a step.  The same checks: before
    ``reset()`` it raises the ``AttributeError`` the wrapper raises."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        last: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return last


def env(
    game: str = default_game("pettingzoo"),
    render_mode: str | None = None,
    observation_json: bool = True,
    illegal_action: str = "raise",
    **options: Any,
) -> Any:
    """The AEC environment of ``game`` inside PettingZoo's order-enforcing wrapper (see
    :class:`raw_env` for arguments and errors)."""
    return _OrderEnforcing(
        raw_env(
            game,
            render_mode=render_mode,
            observation_json=observation_json,
            illegal_action=illegal_action,
            **options,
        )
    )


class parallel_env(_Base, ParallelEnv[str, dict[str, Any], int]):
    """Byzantium as a parallel environment: in the secret simultaneous phases (Redraw,
    Meld, End) both seats choose at each step; elsewhere only the seat to act does.  The
    other, idle, agent's mask allows one id, :data:`IDLE_ID` (0), a no-op that the
    parallel-API stacks (TorchRL, RLlib with masks, MAPPO code) need as every agent acts
    at every step; its action is ignored, whatever it is (``porphyra_byzantium_v1``).
    ``idle_action=False`` gives version 0 (``porphyra_byzantium_v0``): the idle agent's
    mask is all zeros, its action ignored.  ``options`` are Byzantium's;
    ``observation_json``: put each acting agent's JSON observation in its infos;
    ``illegal_action``: as :class:`raw_env`'s (with ``"lose"``, the first acting agent in
    seat order whose action is missing or illegal loses).

    Raises:
        ValueError: ``game`` is not Byzantium, or a bad ``render_mode``,
            ``observation_json``, ``illegal_action`` or ``idle_action`` (not a bool).
        UnknownGameError: invalid options.
    """

    def __init__(
        self,
        game: str = default_game("pettingzoo"),
        render_mode: str | None = None,
        observation_json: bool = True,
        illegal_action: str = "raise",
        idle_action: bool = True,
        **options: Any,
    ):
        if game not in parallel_games():
            only = ", ".join(parallel_games())
            raise ValueError(f"parallel_env exists for {only} only, not {game!r}")
        self.idle_action = flag("idle_action", idle_action)
        self.version = 1 if self.idle_action else 0
        self.metadata = {**self.metadata, "is_parallelizable": True}
        self._setup(game, render_mode, observation_json, illegal_action, options)
        self.agents: list[str] = []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new game; returns ``(observations, infos)`` per agent."""
        self._new_game(seed)
        self.agents = list(self.possible_agents)
        return self._all(), self._infos()

    def _all(self) -> dict[str, Any]:
        if not self.idle_action or self.core.state.is_terminal():
            return {a: self._observe(self._seat(a)) for a in self.agents}
        active = self.core.active()
        out = {}
        for agent in self.agents:
            seat = self._seat(agent)
            obs = self._observe(seat)
            if seat not in active:
                obs["action_mask"][IDLE_ID] = 1
            out[agent] = obs
        return out

    def _infos(self) -> dict[str, Any]:
        active = self.core.active()
        return {
            a: {"observation_json": self.core.observation(self._seat(a))}
            if self.with_json and self._seat(a) in active
            else {}
            for a in self.agents
        }

    def step(self, actions: dict[str, int]) -> tuple[Any, Any, Any, Any, Any]:
        """Apply every acting agent's action id at once.

        Returns:
            ``(observations, rewards, terminations, truncations, infos)`` per agent; the
            agents are removed once the game is over.

        Raises:
            IllegalActionError: (``illegal_action="raise"``) an acting agent has no action
                or an illegal one (nothing changes).
        """
        if not self.agents:
            return {}, {}, {}, {}, {}
        active = self.core.active()
        for seat in active:
            agent = self.possible_agents[seat]
            problem = self._problem(agent, actions.get(agent))
            if problem is None:
                continue
            if self.illegal_action == "raise":
                raise IllegalActionError(problem)
            rewards, infos = self._forfeit(agent, problem)
            obs = self._all()
            every = dict.fromkeys(self.agents, True)
            self.agents = []
            return obs, rewards, every, dict.fromkeys(every, False), infos
        for seat in active:
            self.core.step(seat, actions[self.possible_agents[seat]])
        over = self.core.state.is_terminal()
        returns = self.core.state.returns()
        rewards = {a: float(returns[self._seat(a)]) if over else 0.0 for a in self.agents}
        terms = dict.fromkeys(self.agents, over)
        truncs = dict.fromkeys(self.agents, False)
        obs, infos = self._all(), self._infos()
        if over:
            self.agents = []
        return obs, rewards, terms, truncs, infos

    def _problem(self, agent: str, action: Any) -> str | None:
        """Why ``action`` cannot be ``agent``'s now, or None."""
        if action is None:
            return f"{agent} must act now; no action given"
        legal = self.core.legal_ids(self._seat(agent))
        at = as_integer(action)
        if at is None:
            return f"an action id is an integer, not {action!r} ({agent})"
        if at not in legal:
            return f"action id {action} is not legal for {agent} now; legal: {legal}"
        return None
