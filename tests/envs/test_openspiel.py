"""OpenSpiel: random simulation, resampling, and full games of OpenSpiel's own ISMCTS and
MCTS bots on both games."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from porphyra.envs import openspiel
from porphyra.envs.encoding import EnvCore

# (Seeded: the games deal from the OS by default.)
GAMES = [
    ("porphyra_byzantium", {"seed": 1}),
    ("porphyra_conspiracy", {"players": 2, "seed": 0}),
    ("porphyra_conspiracy", {"players": 3, "seed": 2}),
    ("porphyra_conspiracy", {"players": 1, "seed": 0}),
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


def _seeded_ismcts_game(name: str, params: dict[str, int], seed: int) -> list[int]:
    """The history of a game of two seeded ISMCTS bots with :func:`seeded_resampler`."""
    game = pyspiel.load_game(name, params)
    bots = []
    for seat in (0, 1):
        rng = np.random.RandomState(seed + seat)
        bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, rng),
            2.0,
            3,
            random_state=rng,
            allow_inconsistent_action_sets=True,
        )
        bot.set_resampler(openspiel.seeded_resampler(rng))
        bots.append(bot)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    history: list[int] = state.history()
    return history


def test_pyspiels_default_sampler_is_seeded_from_the_os() -> None:
    # Why OpenSpiel's ISMCTS does not repeat itself without a resampler (docs/envs.md,
    # "Seeding"): its default resampler makes this sampler at every world.
    firsts = {pyspiel.UniformProbabilitySampler(0.0, 1.0)() for _ in range(8)}
    assert len(firsts) > 1


@pytest.mark.parametrize(("name", "params"), GAMES[:2])
def test_seeded_resampler_makes_openspiel_ismcts_repeat(name: str, params: dict[str, int]) -> None:
    first = _seeded_ismcts_game(name, params, 5)
    assert _seeded_ismcts_game(name, params, 5) == first
    state = pyspiel.load_game(name, params).new_initial_state()
    resample = openspiel.seeded_resampler(np.random.RandomState(9))
    world, again = (
        resample(state, 0),
        openspiel.seeded_resampler(np.random.RandomState(9))(state, 0),
    )
    assert world.information_state_string(0) == state.information_state_string(0)
    assert str(world.core.state.hidden_from(0)) == str(again.core.state.hidden_from(0))


@pytest.mark.parametrize("name", ["porphyra_byzantium", "porphyra_conspiracy"])
def test_openspiel_mcts_plays_a_full_game(name: str) -> None:
    game = pyspiel.load_game(name, {"seed": 0})
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


def _deal(state: Any) -> str:
    """What a state's deal is: its engine seed and every seat's view of it."""
    core = state.core
    views = [core.state.observation(p) for p in range(len(core.selections))]
    return json.dumps([core.state.seed, views])


def _play(state: Any, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if state.is_terminal():
            return
        ids = state.legal_actions()
        state.apply_action(ids[rng.randrange(len(ids))])


@pytest.mark.parametrize(("name", "params"), [(n, {**p, "seed": 11}) for n, p in GAMES[:3]])
def test_reads_clones_and_searches_never_build_a_game_or_move_the_seed(
    name: str, params: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    make = openspiel._Deal.core

    def counted(deal: openspiel._Deal) -> EnvCore:
        built.append(1)
        return make(deal)

    monkeypatch.setattr(openspiel._Deal, "core", counted)

    def deals(busy: bool) -> list[str]:
        game = pyspiel.load_game(name, params)
        rng, out = random.Random(5), []
        for _ in range(4):
            state = game.new_initial_state()
            out.append(_deal(state))
            _play(state, rng, 6)
            if busy:
                p = state.current_player()
                for _ in range(5):
                    state.observation_tensor(p)
                    state.information_state_tensor(p)
                    game.observation_tensor_size()
                    game.information_state_tensor_shape()
                    state.clone()
                    state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0, 1))
                    copy.deepcopy(state)
                bot = ismcts.ISMCTSBot(
                    game,
                    mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                    2.0,
                    max_simulations=8,
                    random_state=np.random.RandomState(1),
                    allow_inconsistent_action_sets=True,
                )
                bot.step(state)
        return out

    quiet = deals(busy=False)
    assert len(built) == 4
    built.clear()
    assert deals(busy=True) == quiet
    assert len(built) == 4  # one engine game per initial state played, none per read
    assert len(set(quiet)) == 4


@pytest.mark.parametrize(("name", "params"), [
    ("porphyra_byzantium", {"seed": 3}), ("porphyra_conspiracy", {"players": 3, "seed": 3}),
])  # fmt: skip
def test_rewards_and_chance_answered_from_python_match_pyspiel_s(
    name: str, params: dict[str, int]
) -> None:
    state = pyspiel.load_game(name, params).new_initial_state()
    rng = random.Random(3)
    while True:
        assert state.rewards() == pyspiel.State.rewards(state)
        assert state.is_chance_node() is pyspiel.State.is_chance_node(state) is False
        if state.is_terminal():
            break
        ids = state.legal_actions()
        state.apply_action(ids[rng.randrange(len(ids))])
    assert sorted(state.rewards()) != [0.0] * state.get_game().num_players()


def test_tensors_and_sizes_read_from_python_match_pyspiel_s() -> None:
    game = pyspiel.load_game("porphyra_conspiracy", {"players": 3, "seed": 2})
    state = game.new_initial_state()
    _play(state, random.Random(2), 9)
    for p in range(3):
        assert state.observation_tensor(p) == list(state.core.tensor(p))
        assert state.information_state_tensor(p) == state.observation_tensor(p)
        assert pyspiel.State.observation_tensor(state, p) == state.observation_tensor(p)
    assert state.observation_tensor() == state.observation_tensor(state.current_player())
    assert game.observation_tensor_size() == pyspiel.Game.observation_tensor_size(game)
    assert game.information_state_tensor_shape() == [game.codec.layout.size]


def test_deals_differ_by_default_and_repeat_for_a_given_seed() -> None:
    by_name = [_deal(pyspiel.load_game("porphyra_byzantium").new_initial_state()) for _ in range(6)]
    assert len(set(by_name)) == 6  # workers or bridges that load by name deal differently
    seeded = [
        _deal(pyspiel.load_game("porphyra_byzantium", {"seed": 7}).new_initial_state())
        for _ in range(2)
    ]
    assert seeded[0] == seeded[1]
    assert pyspiel.load_game("porphyra_byzantium").get_parameters()["seed"] == -1


@pytest.mark.parametrize(("name", "params"), GAMES)
def test_states_and_games_pickle_deep_copy_and_serialise(name: str, params: dict[str, int]) -> None:
    game = pyspiel.load_game(name, {**params, "seed": 3})
    state = game.new_initial_state()
    _play(state, random.Random(4), 12)
    assert not state.is_terminal()
    text = pyspiel.serialize_game_and_state(game, state)
    _, restored = pyspiel.deserialize_game_and_state(text)
    for twin in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), restored):
        assert twin.history() == state.history() and str(twin) == str(state)
        for p in range(game.num_players()):
            assert twin.information_state_string(p) == state.information_state_string(p)
            assert twin.observation_tensor(p) == state.observation_tensor(p)
        assert twin.legal_actions() == state.legal_actions()
        _play(twin, random.Random(9), 5)  # and it plays on, on its own
    assert str(state) != str(twin) or state.history() != twin.history()
    # A pickled game carries on its deal sequence where it was.
    again = pickle.loads(pickle.dumps(game))
    assert _deal(again.new_initial_state()) == _deal(game.new_initial_state())
    # A state pickled before its deal was made keeps the deal it then got.
    fresh = game.new_initial_state()
    assert _deal(pickle.loads(pickle.dumps(fresh))) == _deal(fresh)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), GAMES[:2])
def test_legal_actions_from_python_match_pyspiel_s(name: str, params: dict[str, int]) -> None:
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(6)
    while True:
        for p in [None, *range(game.num_players())]:
            mine = state.legal_actions() if p is None else state.legal_actions(p)
            theirs = pyspiel.State.legal_actions(state, *([] if p is None else [p]))
            assert mine == theirs
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []
