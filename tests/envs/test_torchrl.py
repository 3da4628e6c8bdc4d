"""TorchRL's PettingZoo wrapper around both games: random masked rollouts to the end, each
step replayed on the plain environment, which must give the same observations, masks,
rewards and terminations.  Skipped where the ``marl`` extra (PyTorch, TorchRL) is not
installed."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from porphyra.envs import pettingzoo as pz

torch = pytest.importorskip("torch")
torchrl_pz = pytest.importorskip("torchrl.envs.libs.pettingzoo")

# TorchRL warns that it was tested with another PettingZoo release (docs/envs.md).
pytestmark = pytest.mark.filterwarnings("ignore:PettingZoo in TorchRL:UserWarning")


def _wrap(env: Any, seed: int) -> Any:
    """TorchRL's wrapper; ``seed`` fixes the deal, and torch's generator the random
    actions (TorchRL draws them from it)."""
    torch.manual_seed(seed)
    return torchrl_pz.PettingZooWrapper(env, use_mask=True, categorical_actions=True, seed=seed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_torchrl_parallel_byzantium_rollout_matches_the_environment(seed: int) -> None:
    wrapped = _wrap(pz.parallel_env(observation_json=False), seed)
    roll = wrapped.rollout(1000, break_when_any_done=True)
    engine_seed = wrapped._env.core.state.seed
    assert wrapped._env.core.state.is_terminal()
    agents = wrapped.group_map["player"]
    assert agents == ["player_0", "player_1"]

    plain = pz.parallel_env(observation_json=False)
    obs, _ = plain.reset(seed=engine_seed)
    for i, agent in enumerate(agents):
        assert np.array_equal(
            roll["player", "observation", "observation"][0, i], obs[agent]["observation"]
        )
    idle_steps = 0
    for t in range(roll.batch_size[0]):
        masks = roll["player", "action_mask"][t]
        actions = roll["player", "action"][t]
        for i, agent in enumerate(agents):
            # TorchRL's mask is the environment's, and its random action obeys it
            assert np.array_equal(masks[i].numpy(), obs[agent]["action_mask"].astype(bool))
            assert masks[i, int(actions[i])]
            idle_steps += list(np.flatnonzero(masks[i])) == [pz.IDLE_ID]
        obs, rewards, terms, truncs, _ = plain.step(
            {agent: int(actions[i]) for i, agent in enumerate(agents)}
        )
        nxt = roll["next", "player"][t]
        for i, agent in enumerate(agents):
            assert float(nxt["reward"][i]) == rewards[agent]
            assert bool(nxt["terminated"][i]) == terms[agent]
            assert not bool(nxt["truncated"][i]) and not truncs[agent]
            assert np.array_equal(nxt["observation", "observation"][i], obs[agent]["observation"])
    assert plain.agents == [] and bool(roll["next", "done"][-1])
    assert not roll["next", "done"][:-1].any()
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])
    assert idle_steps > 0  # (every game has turns where one seat waits)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (2, 2), (3, 3)])
def test_torchrl_aec_conspiracy_rollout_matches_the_environment(players: int, seed: int) -> None:
    wrapped = _wrap(pz.env("conspiracy", players=players, observation_json=False), seed)
    roll = wrapped.rollout(1000, break_when_any_done=True)
    engine_seed = wrapped._env.unwrapped.core.state.seed
    agents = [f"player_{i}" for i in range(players)]
    assert sorted(wrapped.group_map) == agents  # (one group an agent in the AEC path)

    plain = pz.env("conspiracy", players=players, observation_json=False)
    plain.reset(seed=engine_seed)
    steps = roll.batch_size[0]
    for t in range(steps):
        acting = [a for a in agents if bool(roll[a, "mask"][t])]
        assert acting == [plain.agent_selection]  # one seat acts at a time
        agent = acting[0]
        mask = roll[agent, "action_mask"][t, 0].numpy()  # (a group of one agent)
        assert np.array_equal(mask, plain.observe(agent)["action_mask"].astype(bool))
        action = int(roll[agent, "action"][t, 0])
        assert mask[action]
        assert np.array_equal(
            roll[agent, "observation", "observation"][t, 0], plain.observe(agent)["observation"]
        )
        plain.step(action)
        for a in agents:
            assert float(roll["next", a, "reward"][t]) == plain.rewards[a]
            assert bool(roll["next", a, "terminated"][t]) == plain.terminations[a]
    returns = plain.unwrapped.core.state.returns()
    assert plain.unwrapped.core.state.is_terminal() and bool(roll["next", "done"][-1])
    assert not roll["next", "done"][:-1].any()
    assert [float(roll["next", a, "reward"][-1]) for a in agents] == returns
    assert returns != [0.0] * players or players == 2  # someone lost (a 2p game may tie)
