"""OpenSpiel: random simulation, resampling, and full games of OpenSpiel's own ISMCTS and
MCTS bots on both games."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import porphyra.envs.openspiel  # noqa: F401 (registers the games)

GAMES = [
    ("porphyra_byzantium", {"seed": 1}),
    ("porphyra_conspiracy", {"players": 2}),
    ("porphyra_conspiracy", {"players": 3, "seed": 2}),
    ("porphyra_conspiracy", {"players": 1}),
]


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_openspiel_random_sim_test(name: str, params: dict[str, int]) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_game_type_and_info() -> None:
    byz = pyspiel.load_game("porphyra_byzantium")
    gt = byz.get_type()
    assert gt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gt.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert gt.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert byz.num_players() == 2 and byz.num_distinct_actions() == 96
    con = pyspiel.load_game("porphyra_conspiracy", {"players": 4})
    assert con.num_players() == 4 and con.get_type().min_num_players == 1
    assert con.observation_tensor_size() == len(con.new_initial_state().observation_tensor(0))


@pytest.mark.parametrize(("name", "params"), GAMES[:2])
def test_resampled_worlds_share_the_infostate_and_action_meanings(
    name: str, params: dict[str, int]
) -> None:
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differ = 0
    for _ in range(60):
        if state.is_terminal():
            break
        p = state.current_player()
        for _ in range(3):
            world = state.resample_from_infostate(p, sampler)
            assert world.information_state_string(p) == state.information_state_string(p)
            assert world.information_state_tensor(p) == state.information_state_tensor(p)
            assert world.legal_actions(p) == state.legal_actions(p)
            assert [world.action_to_string(p, a) for a in world.legal_actions(p)] == [
                state.action_to_string(p, a) for a in state.legal_actions(p)
            ]
            differ += str(world.core.state.hidden_from(p)) != str(state.core.state.hidden_from(p))
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert differ > 0


@pytest.mark.parametrize(("name", "params"), GAMES[:2])
def test_openspiel_ismcts_plays_a_full_game(name: str, params: dict[str, int]) -> None:
    game = pyspiel.load_game(name, params)
    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(0), max_length=10
    )
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0,
        max_simulations=4,
        random_state=np.random.RandomState(1),
        allow_inconsistent_action_sets=True,
    )
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name", ["porphyra_byzantium", "porphyra_conspiracy"])
def test_openspiel_mcts_plays_a_full_game(name: str) -> None:
    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(0), max_length=10
    )
    bot = mcts.MCTSBot(game, 2.0, 4, evaluator, solve=False, random_state=np.random.RandomState(2))
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert state.is_terminal() and len(state.returns()) == 2


def test_bad_ids_and_moves_after_the_end_get_clear_errors() -> None:
    from porphyra.core.errors import IllegalActionError, InvalidActionError

    game = pyspiel.load_game("porphyra_conspiracy", {"players": 2, "seed": 3})
    state = game.new_initial_state()
    n = game.num_distinct_actions()
    assert state.action_to_string(0, n - 1)
    for bad in (n, 10_000):
        with pytest.raises(InvalidActionError, match=f"no action id {bad}: ids are 0 to {n - 1}"):
            state.action_to_string(0, bad)
    rng = random.Random(3)
    while not state.is_terminal():
        ids = state.legal_actions()
        state.apply_action(ids[rng.randrange(len(ids))])
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(0)
