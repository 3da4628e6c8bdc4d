"""Gymnasium: the library's env checker, registration, seeding, masks and errors."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from porphyra.core.errors import IllegalActionError
from porphyra.envs.encoding import EnvCore
from porphyra.envs.gymnasium import PorphyraEnv


def core(env: Any) -> EnvCore:
    """The engine core under a made environment's wrappers."""
    unwrapped = env.unwrapped
    assert isinstance(unwrapped, PorphyraEnv)
    return unwrapped.core


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("env_id", "kwargs"),
    [
        ("porphyra/Byzantium-v0", {"opponent": "random", "seat": 0}),
        ("porphyra/Byzantium-v0", {"opponent": "easy", "seat": 1}),
        ("porphyra/Conspiracy-v0", {"opponent": "random", "seat": 1, "players": 3}),
        ("porphyra/Conspiracy-v0", {"players": 1}),
    ],
)
def test_gymnasium_check_env(env_id: str, kwargs: dict[str, Any]) -> None:
    env = gymnasium.make(env_id, **kwargs)
    check_env(env.unwrapped, skip_render_check=True)


def _play(env: Any, seed: int) -> tuple[list[int], float]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, reward, done = [], 0.0, False
    while not done:
        assert np.array_equal(info["action_mask"], env.unwrapped.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        obs, reward, done, truncated, info = env.step(action)
        assert obs.dtype == np.float32 and not truncated
    return actions, float(reward)


def test_full_games_against_easy_are_reproducible_by_seed() -> None:
    env = gymnasium.make("porphyra/Byzantium-v0", opponent="easy", seat=0)
    first = _play(env, 5)
    history = list(core(env).state.history)
    assert _play(env, 5) == first and core(env).state.history == history
    assert first[1] in (-1.0, 0.0, 1.0)
    env = gymnasium.make("porphyra/Conspiracy-v0", opponent="easy", seat=1, players=4)
    assert _play(env, 9) == _play(env, 9)


def test_bad_arguments_and_illegal_actions_are_refused() -> None:
    with pytest.raises(ValueError, match="no seat 2 in this game"):
        gymnasium.make("porphyra/Byzantium-v0", seat=2)
    with pytest.raises(Exception, match="unknown"):
        gymnasium.make("porphyra/Byzantium-v0", opponent="nobody")
    with pytest.raises(ValueError, match="illegal_action"):
        gymnasium.make("porphyra/Byzantium-v0", illegal_action="ignore")
    env = gymnasium.make("porphyra/Conspiracy-v0", illegal_action="raise")
    obs, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(bad)
    assert np.array_equal(core(env).tensor(0), obs)
    env = gymnasium.make("porphyra/Conspiracy-v0")  # illegal_action="lose"
    env.reset(seed=0)
    history = list(core(env).state.history)
    _, reward, terminated, _, info = env.step(bad)
    assert (reward, terminated) == (-1.0, True) and "not legal" in info["illegal_action"]
    assert core(env).state.history == history
    with pytest.raises(IllegalActionError, match="over"):
        env.step(0)


def test_make_by_module_path_registers_on_demand() -> None:
    env = gymnasium.make("porphyra.envs.gymnasium:porphyra/Conspiracy-v0", players=4, seat=3)
    obs, _ = env.reset(seed=2)
    assert obs.shape == env.observation_space.shape and core(env).state.game.num_players == 4


def test_without_observation_json_info_holds_the_mask_only() -> None:
    lean = gymnasium.make("porphyra/Conspiracy-v0", observation_json=False, players=2)
    full = gymnasium.make("porphyra/Conspiracy-v0", players=2)
    assert _play(lean, 6) == _play(full, 6)
    obs, info = lean.reset(seed=7)
    obs_full, info_full = full.reset(seed=7)
    assert set(info) == {"action_mask"} and "observation_json" in info_full
    assert np.array_equal(obs, obs_full)
    assert core(lean).observation(0) == info_full["observation_json"]
    unwrapped = lean.unwrapped
    assert isinstance(unwrapped, PorphyraEnv)
    assert unwrapped.observation_json() == info_full["observation_json"]


def test_environments_pickle_and_deep_copy_and_play_on_alike() -> None:
    import copy
    import pickle

    from porphyra.envs import pettingzoo as pz

    env = gymnasium.make("porphyra/Conspiracy-v0", seat=np.int64(1), players=2)
    _, info = env.reset(seed=3)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    for twin in (pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        assert _play(twin, 8) == _play(env, 8)
    aec = pz.env("byzantium")
    aec.reset(seed=2)
    for twin in (pickle.loads(pickle.dumps(aec)), copy.deepcopy(aec)):
        assert twin.unwrapped.core.state.history == aec.unwrapped.core.state.history
        obs_a, obs_b = twin.observe(twin.agent_selection), aec.observe(aec.agent_selection)
        assert np.array_equal(obs_a["observation"], obs_b["observation"])
    par = pz.parallel_env()
    par.reset(seed=1)
    assert pickle.loads(pickle.dumps(par)).agents == par.agents
