"""PettingZoo: the library's own conformance tests, seeding, and errors."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from porphyra.core.errors import IllegalActionError
from porphyra.envs import pettingzoo as pz
from tests.envs.helpers import CONFIGS


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "options"), CONFIGS)
def test_pettingzoo_api_test(game: str, options: dict[str, Any]) -> None:
    api_test(pz.env(game, **options), num_cycles=400)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize(("game", "options"), [CONFIGS[0], CONFIGS[2], CONFIGS[4]])
def test_pettingzoo_seed_test(game: str, options: dict[str, Any]) -> None:
    seed_test(lambda: pz.env(game, **options), num_cycles=300)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_parallel_api_test() -> None:
    parallel_api_test(pz.parallel_env(game="byzantium"), num_cycles=400)


def _play_aec(env: Any, seed: int) -> list[tuple[str, int]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    moves = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        moves.append((agent, action))
        env.step(action)
    return moves


def test_reset_seed_reproduces_the_same_game_exactly() -> None:
    e = pz.env("byzantium")
    first = _play_aec(e, 11)
    history = list(e.unwrapped.core.state.history)
    assert _play_aec(e, 11) == first and e.unwrapped.core.state.history == history
    assert _play_aec(e, 12) != first
    assert e.unwrapped.core.state.seed == 12


def test_parallel_env_both_seats_choose_at_once_in_simultaneous_phases() -> None:
    par = pz.parallel_env()
    obs, infos = par.reset(seed=3)
    both = [a for a in par.agents if obs[a]["action_mask"].any()]
    assert both == ["player_0", "player_1"]  # the first Redraw is simultaneous
    assert all("observation_json" in infos[a] for a in both)
    rng = random.Random(3)
    steps = 0
    while par.agents:
        actions = {
            a: int(rng.choice(list(np.flatnonzero(obs[a]["action_mask"]))))
            if obs[a]["action_mask"].any()
            else 0
            for a in par.agents
        }
        obs, rewards, _, _, _ = par.step(actions)
        steps += 1
    assert steps > 20 and sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_illegal_actions_raise_and_change_nothing() -> None:
    e = pz.env("conspiracy")
    e.reset(seed=1)
    obs, *_ = e.last()
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(bad)
    assert np.array_equal(e.last()[0]["observation"], obs["observation"])
    par = pz.parallel_env()
    pobs, _ = par.reset(seed=1)
    good = {a: int(np.flatnonzero(pobs[a]["action_mask"])[0]) for a in par.agents}
    with pytest.raises(IllegalActionError, match="player_1"):
        par.step({"player_0": good["player_0"], "player_1": 10_000})
    assert not par.core.selections[0] and par.core.active() == [0, 1]
    with pytest.raises(ValueError, match="byzantium only"):
        pz.parallel_env(game="conspiracy")


def test_last_before_reset_is_refused_as_by_pettingzoo() -> None:
    # env() wraps raw_env in an order-enforcing wrapper whose last() is one call; it
    # keeps the wrapper's check.
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    from porphyra.envs.pettingzoo import env

    e = env("conspiracy", players=2)
    assert isinstance(e, OrderEnforcingWrapper)
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    e.reset(seed=2)
    obs, reward, terminated, truncated, info = e.last()
    assert obs is not None and reward == 0.0 and not terminated and not truncated
    assert info == e.unwrapped.infos[e.agent_selection]
    assert e.last(observe=False)[0] is None


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_without_observation_json_infos_are_empty_and_the_game_is_the_same() -> None:
    lean = pz.env("conspiracy", observation_json=False, players=3)
    api_test(lean, num_cycles=100)
    full = pz.env("conspiracy", players=3)
    assert _play_aec(lean, 4) == _play_aec(full, 4)
    lean.reset(seed=5)
    full.reset(seed=5)
    agent = lean.agent_selection
    assert lean.infos[agent] == {} and "observation_json" in full.infos[agent]
    assert lean.unwrapped.observation_json(agent) == full.infos[agent]["observation_json"]
    assert np.array_equal(lean.observe(agent)["observation"], full.observe(agent)["observation"])
    par = pz.parallel_env(observation_json=False)
    obs, infos = par.reset(seed=3)
    assert infos == {"player_0": {}, "player_1": {}}
    _, _, _, _, infos = par.step({a: int(np.flatnonzero(obs[a]["action_mask"])[0]) for a in obs})
    assert all(info == {} for info in infos.values())


@pytest.mark.parametrize("bad", ["no", 0, None])
def test_observation_json_must_be_a_bool(bad: Any) -> None:
    import gymnasium

    import porphyra.envs.gymnasium  # noqa: F401  (registers the ids)

    with pytest.raises(ValueError, match="observation_json must be True or False"):
        pz.env("conspiracy", observation_json=bad)
    with pytest.raises(ValueError, match="observation_json must be True or False"):
        pz.parallel_env(observation_json=bad)
    with pytest.raises(ValueError, match="observation_json must be True or False"):
        gymnasium.make("porphyra/Conspiracy-v0", observation_json=bad)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_parallel_seed_test_with_illegal_actions_losing() -> None:
    # PettingZoo's parallel seed test samples actions without masks: with
    # illegal_action="lose" an illegal sample ends the game as in its classic games.
    from pettingzoo.test import parallel_seed_test

    parallel_seed_test(lambda: pz.parallel_env(illegal_action="lose"), num_cycles=100)


def test_an_illegal_action_loses_the_game_and_changes_nothing_if_asked() -> None:
    aec = pz.env("conspiracy", illegal_action="lose", players=3)
    aec.reset(seed=2)
    agent = aec.agent_selection
    mask = aec.observe(agent)["action_mask"]
    history = list(aec.unwrapped.core.state.history)
    aec.step(int(np.flatnonzero(mask == 0)[0]))
    assert aec.unwrapped.core.state.history == history
    assert all(aec.terminations.values())
    assert aec.rewards == {a: -1.0 if a == agent else 0.0 for a in aec.possible_agents}
    assert "not legal" in aec.infos[agent]["illegal_action"]
    for done in aec.agent_iter():
        _, reward, terminated, _, _ = aec.last()
        assert terminated and reward == (-1.0 if done == agent else 0.0)
        aec.step(None)
    assert aec.agents == []
    par = pz.parallel_env(illegal_action="lose")
    obs, _ = par.reset(seed=4)
    bad = {a: int(np.flatnonzero(obs[a]["action_mask"] == 0)[0]) for a in par.agents}
    bad["player_1"] = 2.5  # type: ignore[assignment]
    _, rewards, terms, _, infos = par.step(bad)
    assert rewards == {"player_0": -1.0, "player_1": 0.0} and all(terms.values())
    assert "not legal" in infos["player_0"]["illegal_action"] and par.agents == []
    strict = pz.parallel_env()
    obs, _ = strict.reset(seed=4)
    with pytest.raises(IllegalActionError, match="an action id is an integer"):
        strict.step({a: 1.5 for a in strict.agents})  # type: ignore[misc]
    with pytest.raises(ValueError, match="illegal_action must be one of"):
        pz.env("byzantium", illegal_action="forfeit")
