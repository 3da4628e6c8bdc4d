"""The multi-agent stacks researchers put around the environments: the parallel API's
idle no-op, what the environments declare (parallelizable, zero-sum, render modes),
SuperSuit and Shimmy on both games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, render_test
from pettingzoo.utils.conversions import aec_to_parallel

import porphyra.envs.openspiel  # noqa: F401 (registers the OpenSpiel games)
from porphyra.envs import pettingzoo as pz

supersuit = pytest.importorskip("supersuit")
shimmy = pytest.importorskip("shimmy")


def test_parallel_idle_agent_has_one_legal_no_op_id() -> None:
    par = pz.parallel_env()
    assert par.metadata["name"] == "porphyra_byzantium_v1"
    obs, _ = par.reset(seed=3)
    rng = np.random.default_rng(3)
    idle_steps = 0
    while par.agents:
        active = par.core.active()
        for agent in par.agents:
            mask = obs[agent]["action_mask"]
            seat = par.possible_agents.index(agent)
            if seat in active:
                assert list(np.flatnonzero(mask)) == par.core.legal_ids(seat)
            else:
                assert list(np.flatnonzero(mask)) == [pz.IDLE_ID]
                idle_steps += 1
        # Every agent samples from its own mask, as TorchRL's and RLlib's masked
        # policies do: the idle one plays the no-op, which changes nothing.
        actions = {a: int(rng.choice(np.flatnonzero(obs[a]["action_mask"]))) for a in par.agents}
        obs, rewards, *_ = par.step(actions)
    assert idle_steps > 10 and sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_parallel_v0_keeps_the_all_zero_mask_and_plays_the_same_game() -> None:
    old, new = pz.parallel_env(idle_action=False), pz.parallel_env()
    assert old.metadata["name"] == "porphyra_byzantium_v0"
    obs_old, _ = old.reset(seed=8)
    obs_new, _ = new.reset(seed=8)
    rng = random.Random(8)
    while old.agents:
        active = old.core.active()
        actions = {}
        for agent in old.agents:
            seat = old.possible_agents.index(agent)
            if seat not in active:
                assert not obs_old[agent]["action_mask"].any()
                assert obs_new[agent]["action_mask"][pz.IDLE_ID] == 1
            legal = old.core.legal_ids(seat) or [pz.IDLE_ID]
            actions[agent] = rng.choice(legal)
        for a in old.agents:
            assert np.array_equal(obs_old[a]["observation"], obs_new[a]["observation"])
        obs_old, r_old, *_ = old.step(actions)
        obs_new, r_new, *_ = new.step(actions)
        assert r_old == r_new
    assert new.agents == []


def test_aec_environments_say_they_are_not_parallelizable() -> None:
    for game in ("byzantium", "conspiracy"):
        aec = pz.env(game)
        assert aec.unwrapped.metadata["is_parallelizable"] is False
        with pytest.raises(AssertionError, match="parallelizable"):
            aec_to_parallel(aec)
    assert pz.parallel_env().metadata["is_parallelizable"] is True


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_pettingzoo_render_test_human_and_ansi(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(lambda render_mode=None: pz.env(game, render_mode=render_mode))
    assert f"{game} turn" in capsys.readouterr().out  # human printed it
    ansi = pz.env(game, render_mode="ansi")
    ansi.reset(seed=1)
    assert ansi.render().startswith(f"{game} turn 1")
    with pytest.raises(ValueError, match="render_mode must be None, 'human' or 'ansi'"):
        pz.env(game, render_mode="rgb_array")


def test_two_player_conspiracy_is_declared_zero_sum_where_it_is() -> None:
    kinds = pyspiel.GameType.Utility
    two = pyspiel.load_game("porphyra_conspiracy", {"players": 2, "seed": 1})
    assert two.get_type().utility == kinds.ZERO_SUM and two.utility_sum() == 0.0
    for players in (1, 3, 4):
        other = pyspiel.load_game("porphyra_conspiracy", {"players": players})
        assert other.get_type().utility == kinds.GENERAL_SUM and other.utility_sum() is None
    rng = random.Random(1)
    for _ in range(5):
        state = two.new_initial_state()
        while not state.is_terminal():
            ids = state.legal_actions()
            state.apply_action(ids[rng.randrange(len(ids))])
        assert sum(state.returns()) == 0.0


def test_supersuit_vector_env_over_the_parallel_env() -> None:
    # SuperSuit's vector environment (what SB3 and CleanRL's PettingZoo recipes train on):
    # every row samples from its own mask, finished games reset by themselves.
    vec = supersuit.pettingzoo_env_to_vec_env_v1(pz.parallel_env(observation_json=False))
    vec = supersuit.concat_vec_envs_v1(vec, 2, num_cpus=0, base_class="gymnasium")
    obs, _ = vec.reset(seed=0)
    assert obs["observation"].shape == (4, 1071) and obs["action_mask"].shape == (4, 96)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terms, _, _ = vec.step(actions)
        finished += int(terms.sum())
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
    assert finished >= 4
    vec.close()


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_supersuit_reward_wrapper_passes_the_api_test(game: str) -> None:
    # (SuperSuit's observation wrappers need Box observations; these are PettingZoo's
    # classic Dict of tensor and mask, docs/envs.md.)
    api_test(supersuit.clip_reward_v0(pz.env(game), -1, 1), num_cycles=60)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(
    ("name", "config"),
    [("porphyra_byzantium", {}), ("porphyra_conspiracy", {"players": 3})],
)
def test_shimmy_openspiel_bridge_passes_the_api_test_and_deals_anew(
    name: str, config: dict[str, Any]
) -> None:
    from shimmy import OpenSpielCompatibilityV0

    # Shimmy passes reset(seed=...) to no game of ours: the api_test's check that
    # reset(seed=0) twice gives the same position needs a seeded game (docs/envs.md).
    api_test(OpenSpielCompatibilityV0(game_name=name, config={**config, "seed": 3}), 60)
    bridge = OpenSpielCompatibilityV0(game_name=name, config=config or None)
    deals = set()
    for seed in range(6):  # Shimmy loads the game again at every reset
        bridge.reset(seed=seed)
        deals.add(bridge.game_state.core.state.seed)  # (the engine seed: the deal)
    assert len(deals) == 6
