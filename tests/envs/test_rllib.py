"""RLlib's PettingZoo wrappers around both games: RLlib's own multi-agent environment
check, and random masked episodes to the end, replayed on the plain environment, which
must give the same observations, rewards and terminations.  Skipped where RLlib's
dependencies (the ``marl`` extra) are not installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from porphyra.core.errors import IllegalActionError
from porphyra.envs import pettingzoo as pz

rllib_pz = pytest.importorskip("ray.rllib.env.wrappers.pettingzoo_env")
rllib_checks = pytest.importorskip("ray.rllib.utils.pre_checks.env")


def _masked(obs: dict[str, Any], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


@pytest.mark.parametrize(
    ("game", "options"), [("byzantium", {}), ("conspiracy", {}), ("conspiracy", {"players": 3})]
)
def test_rllib_aec_wrapper_plays_whole_episodes_like_the_environment(
    game: str, options: dict[str, Any]
) -> None:
    wrapped = rllib_pz.PettingZooEnv(pz.env(game, observation_json=False, **options))
    plain = pz.env(game, observation_json=False, **options)
    rng = np.random.default_rng(7)
    for seed in (11, 12):
        obs, _ = wrapped.reset(seed=seed)
        plain.reset(seed=seed)
        steps = 0
        while True:
            ((agent, agent_obs),) = obs.items()  # one seat acts at a time
            assert agent == plain.agent_selection
            assert np.array_equal(agent_obs["observation"], plain.observe(agent)["observation"])
            action = _masked(agent_obs, rng)
            obs, rewards, terms, truncs, _ = wrapped.step({agent: action})
            plain.step(action)
            steps += 1
            assert not truncs["__all__"]
            if terms["__all__"]:
                break
            assert set(rewards.values()) == {0.0}
        returns = plain.unwrapped.core.state.returns()
        # every seat gets its final reward once, at the end
        assert rewards == {f"player_{i}": r for i, r in enumerate(returns)}
        assert plain.unwrapped.core.state.is_terminal() and steps > 20


def test_rllib_parallel_wrapper_plays_byzantium_with_the_idle_no_op() -> None:
    wrapped = rllib_pz.ParallelPettingZooEnv(pz.parallel_env(observation_json=False))
    plain = pz.parallel_env(observation_json=False)
    rng = np.random.default_rng(5)
    for seed in (21, 22):
        obs, _ = wrapped.reset(seed=seed)
        plain_obs, _ = plain.reset(seed=seed)
        while True:
            # every agent acts at every step (RLlib's parallel contract): the idle one
            # samples the no-op from its mask
            assert sorted(obs) == ["player_0", "player_1"]
            actions = {a: _masked(o, rng) for a, o in obs.items()}
            obs, rewards, terms, truncs, _ = wrapped.step(actions)
            plain_obs, plain_rewards, *_ = plain.step(actions)
            assert rewards == plain_rewards and not truncs["__all__"]
            for a in obs:
                assert np.array_equal(obs[a]["observation"], plain_obs[a]["observation"])
            if terms["__all__"]:
                break
        assert plain.agents == [] and sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_rllib_environment_check_passes_with_illegal_actions_losing(game: str) -> None:
    # RLlib's check steps an unmasked random action: with illegal_action="lose" that
    # ends the game (the documented setting for RLlib), with "raise" it is refused.
    check = rllib_checks.check_multiagent_environments
    check(rllib_pz.PettingZooEnv(pz.env(game, illegal_action="lose")))
    if game == "byzantium":
        check(rllib_pz.ParallelPettingZooEnv(pz.parallel_env(illegal_action="lose")))
    strict = rllib_pz.PettingZooEnv(pz.env(game))
    strict.reset(seed=1)
    agent = strict.env.agent_selection
    illegal = int(np.flatnonzero(strict.env.observe(agent)["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        strict.step({agent: illegal})
