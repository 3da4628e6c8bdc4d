"""The self-play example (``examples/selfplay.py``): its environment plays the pool's
opponent for the other seat and hands the learner only its own legal decisions; a short
training run on each game fills the pool and rates the policy.  Skipped where the
``marl`` extra (PyTorch, sb3-contrib) is not installed."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from tests.scripts import ROOT, load_script

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

SCRIPT = ROOT / "examples" / "selfplay.py"


@pytest.fixture(scope="module")
def sp() -> ModuleType:
    return load_script(SCRIPT)


@pytest.mark.parametrize(("game", "seat"), [("byzantium", 0), ("byzantium", 1), ("conspiracy", 1)])
def test_selfplay_env_gives_the_learner_its_own_decisions(
    sp: ModuleType, game: str, seat: int
) -> None:
    env = sp.SelfPlayEnv(game, sp.Pool(3, seed=1), seat, seed=2)
    rng = np.random.default_rng(3)
    for _ in range(2):
        obs, _ = env.reset()
        done, steps = False, 0
        while not done:
            state = env.aec.unwrapped.core
            assert state.first_active() == seat  # the learner's turn, never the opponent's
            mask = env.action_masks()
            assert list(np.flatnonzero(mask)) == state.legal_ids(seat)
            assert np.array_equal(obs, state.tensor(seat))
            obs, reward, done, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
            steps += 1
            assert not truncated and (done or reward == 0.0)
        returns = env.aec.unwrapped.core.state.returns()
        assert env.aec.unwrapped.core.state.is_terminal() and reward == returns[seat]


def test_pool_keeps_the_random_player_and_drops_the_oldest_snapshot(sp: ModuleType) -> None:
    import torch

    pool = sp.Pool(3, seed=0)
    policies = [torch.nn.Linear(2, 2) for _ in range(4)]
    for p in policies:
        pool.add(p)
    assert pool.members[0] is None and len(pool.members) == 3
    # frozen copies of the two newest, not the live objects
    assert all(m is not p for m, p in zip(pool.members[1:], policies[2:], strict=True))
    assert torch.equal(pool.members[-1].weight, policies[-1].weight)
    draws = [pool.sample() for _ in range(400)]
    newest = sum(d is pool.members[-1] for d in draws)
    assert 200 < newest < 400 and any(d is None for d in draws)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_a_short_selfplay_run_fills_the_pool_and_rates_the_policy(
    sp: ModuleType, game: str, tmp_path: Path
) -> None:
    args = ["--game", game, "--timesteps", "256", "--n-steps", "64", "--snapshot-every", "64"]
    results = sp.main([*args, "--eval-games", "4", "--out", str(tmp_path)])
    assert (tmp_path / "results.json").exists()
    assert results["snapshots"] == 4  # (every 64 of 256 steps; the pool holds 6)
    for key in ("vs_random", "vs_easy"):
        row = results[key]
        assert row["games"] == 4 and 0 <= row["wins"] + row["draws"] <= 4
        low, high = row["ci95"]
        assert low <= row["win_rate"] <= high
    assert results["command"].startswith(
        f"examples/selfplay.py --game {game} --opponent pool --timesteps 256"
    )


def test_a_fixed_opponent_trains_against_that_bot_in_the_other_seat(sp: ModuleType) -> None:
    args = sp.argparse.Namespace(game="byzantium", opponent="easy", seed=0)
    env = sp.training_env(args, sp.Pool(3, seed=0), 1)
    assert env.unwrapped.opponent == "easy" and env.unwrapped.seat == 1
    assert callable(env.unwrapped.action_masks)


def test_an_unknown_opponent_is_refused_before_training(
    sp: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        sp.main(["--game", "conspiracy", "--opponent", "grandmaster"])
    assert exit_info.value.code == 2
    assert "--opponent" in capsys.readouterr().err


@pytest.mark.slow
def test_a_short_run_against_a_fixed_bot_takes_no_snapshot(sp: ModuleType, tmp_path: Path) -> None:
    args = ["--game", "conspiracy", "--opponent", "random", "--timesteps", "128"]
    results = sp.main([*args, "--n-steps", "64", "--eval-games", "2", "--out", str(tmp_path)])
    assert results["opponent"] == "random" and results["snapshots"] == 0
    assert results["vs_random"]["games"] == 2 and results["vs_easy"]["games"] == 2
    assert "--opponent random" in results["command"]
