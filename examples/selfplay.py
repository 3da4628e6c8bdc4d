"""Self-play: one MaskablePPO policy (sb3-contrib) for every seat of a 2-player game,
trained against a pool of its own past snapshots (or against a fixed bot), then rated
against ``random`` and ``easy``.

Install (the ``marl`` extra holds PyTorch and sb3-contrib; ``dev`` includes it)::

    .venv/bin/pip install -e '.[marl]'
    .venv/bin/python examples/selfplay.py --game byzantium --timesteps 100000 \\
        --out docs/results/selfplay-byzantium

How it works.  ``SelfPlayEnv`` is a Gymnasium view of porphyra's PettingZoo AEC
environment for one learning seat (seat 0 and seat 1 alternately, one per training
environment): it plays the other seat with an opponent drawn from the ``Pool`` at every
reset and returns when the learner must act, so the policy learns both seats.  The pool
starts with a uniformly random masked player; every ``--snapshot-every`` training steps a
frozen copy of the policy joins it (at most ``--pool-size``, the oldest dropped).  An
opponent is the newest snapshot half the time, else any member, uniformly (the usual
guard against forgetting how to beat older play).  Opponents sample from their masked
policy; the learner is rated deterministically (its most likely legal id).

``--opponent BOT`` trains against a fixed engine bot instead of the pool (``random``,
``easy``, any bot spec): each training environment is then ``porphyra/<Game>-v0`` with
that bot in the other seat, and no snapshot is taken.  Against ``random`` this is the
classic single-agent recipe (``--game conspiracy --opponent random --timesteps 150000``);
self-play is what reaches both seats' play without a hand-written opponent.

Writes ``OUT/results.json``: the run's settings and wall time, and the trained policy's
win rate (draws as half) with Wilson 95% intervals against the ``random`` and ``easy`` bots
(``porphyra/<Game>-v0``, seats alternating, fresh seeds).
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import time
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv

import porphyra.envs.gymnasium  # noqa: F401  (registers porphyra/Byzantium-v0, ...)
from porphyra.bots import make_bot
from porphyra.envs import pettingzoo as pz
from porphyra.tournament.stats import wilson_interval

ENV_IDS = {"byzantium": "porphyra/Byzantium-v0", "conspiracy": "porphyra/Conspiracy-v0"}


def options(game: str) -> dict[str, Any]:
    """The engine options of the 2-player game."""
    return {"players": 2} if game == "conspiracy" else {}


class Pool:
    """Opponents: None (uniformly random legal ids) and frozen policy snapshots."""

    def __init__(self, size: int, seed: int) -> None:
        self.members: list[Any] = [None]
        self.size = size
        self.rng = random.Random(seed)

    def add(self, policy: Any) -> None:
        """Freeze a copy of ``policy`` into the pool (dropping the oldest snapshot)."""
        frozen = copy.deepcopy(policy).eval()
        self.members.append(frozen)
        if len(self.members) > self.size:
            del self.members[1]  # (the random player stays)

    def sample(self) -> Any:
        """The newest member half the time, else any member."""
        if self.rng.random() < 0.5:
            return self.members[-1]
        return self.rng.choice(self.members)


def act(policy: Any, obs: dict[str, Any], rng: np.random.Generator) -> int:
    """A legal id from ``policy`` (None: uniformly random), sampled from its masked policy."""
    mask = obs["action_mask"].astype(bool)
    if policy is None:
        return int(rng.choice(np.flatnonzero(mask)))
    with torch.no_grad():
        action, _ = policy.predict(obs["observation"], action_masks=mask, deterministic=False)
    return int(action)


class SelfPlayEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One learning seat of ``game`` (2 players), the other played by pool opponents."""

    def __init__(self, game: str, pool: Pool, seat: int, seed: int) -> None:
        self.aec = pz.env(game, observation_json=False, **options(game))
        self.agents = self.aec.possible_agents
        self.learner = self.agents[seat]
        self.pool = pool
        self.rng = np.random.default_rng(seed)
        space = self.aec.observation_space(self.learner)
        self.observation_space = space["observation"]
        self.action_space = spaces.Discrete(int(self.aec.action_space(self.learner).n))
        self.opponent: Any = None

    def _advance(self) -> None:
        """Play the opponent until the learner must act or the game is over."""
        while self.aec.agent_selection != self.learner and not self._over():
            agent = self.aec.agent_selection
            self.aec.step(act(self.opponent, self.aec.observe(agent), self.rng))

    def _over(self) -> bool:
        return bool(self.aec.unwrapped.core.state.is_terminal())

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.rng.integers(2**31)))
        self.opponent = self.pool.sample()
        self._advance()
        return self.aec.observe(self.learner)["observation"], {}

    def action_masks(self) -> np.ndarray:
        """The learner's legal ids (sb3-contrib's MaskablePPO reads this)."""
        mask: np.ndarray = self.aec.observe(self.learner)["action_mask"].astype(bool)
        return mask

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        self.aec.step(int(action))
        self._advance()
        over = self._over()
        seat = self.agents.index(self.learner)
        reward = float(self.aec.unwrapped.core.state.returns()[seat]) if over else 0.0
        return self.aec.observe(self.learner)["observation"], reward, over, False, {}


class Snapshots(BaseCallback):
    """Adds the policy to the pool every ``every`` training steps."""

    def __init__(self, pool: Pool, every: int) -> None:
        super().__init__()
        self.pool, self.every, self.next = pool, every, every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.pool.add(self.model.policy)
            self.next += self.every
        return True


def rate(model: MaskablePPO, game: str, bot: str, games: int, seed: int) -> dict[str, Any]:
    """The trained policy (deterministic) against ``bot``, seats alternating."""
    wins = draws = 0
    for g in range(games):
        env = gymnasium.make(
            ENV_IDS[game], opponent=bot, seat=g % 2, observation_json=False, **options(game)
        )
        obs, info = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            mask = info["action_mask"].astype(bool)
            action = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, step_reward, done, _, info = env.step(action)
            reward = float(step_reward)
        wins += reward > 0
        draws += reward == 0
    low, high = wilson_interval(wins + draws / 2, games)
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "win_rate": (wins + draws / 2) / games,
        "ci95": [round(low, 3), round(high, 3)],
    }


def training_env(args: argparse.Namespace, pool: Pool, seat: int) -> gymnasium.Env[Any, Any]:
    """The learner's environment in ``seat``: against the pool (``--opponent pool``) or
    against a fixed bot (``porphyra/<Game>-v0`` with that bot in the other seat)."""
    if args.opponent == "pool":
        return SelfPlayEnv(args.game, pool, seat, args.seed * 10 + seat)
    return gymnasium.make(
        ENV_IDS[args.game],
        opponent=args.opponent,
        seat=seat,
        observation_json=False,
        **options(args.game),
    )


def train(args: argparse.Namespace) -> tuple[MaskablePPO, float, Pool]:
    """Train (by self-play, or against ``args.opponent``); returns the model, the training
    minutes and the pool (only the random player when a fixed bot was the opponent)."""
    pool = Pool(args.pool_size, args.seed)
    vec = DummyVecEnv([partial(training_env, args, pool, s % 2) for s in range(2)])
    model = MaskablePPO("MlpPolicy", vec, seed=args.seed, n_steps=args.n_steps, batch_size=256,
                        learning_rate=3e-4, gamma=0.995, ent_coef=0.01, verbose=0)  # fmt: skip
    start = time.perf_counter()
    snapshots = Snapshots(pool, args.snapshot_every) if args.opponent == "pool" else None
    model.learn(total_timesteps=args.timesteps, callback=snapshots)
    return model, (time.perf_counter() - start) / 60, pool


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(ENV_IDS), required=True)
    parser.add_argument(
        "--opponent", default="pool", help="'pool' (self-play) or a fixed bot spec (random, easy)"
    )
    parser.add_argument("--timesteps", type=int, default=100_000, help="learner steps")
    parser.add_argument("--n-steps", type=int, default=1024, help="PPO rollout, each env")
    parser.add_argument("--snapshot-every", type=int, default=10_000)
    parser.add_argument("--pool-size", type=int, default=6)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="folder for results.json")
    args = parser.parse_args(argv)
    if args.opponent != "pool":
        try:
            make_bot(args.opponent)
        except ValueError as exc:
            parser.error(f"--opponent: {exc}")
    torch.set_num_threads(1)
    model, minutes, pool = train(args)
    seed = 2_000_000 + args.seed
    results = {
        "command": f"examples/selfplay.py --game {args.game} --opponent {args.opponent} "
        f"--timesteps {args.timesteps} "
        f"--n-steps {args.n_steps} --snapshot-every {args.snapshot_every} "
        f"--pool-size {args.pool_size} --eval-games {args.eval_games} --seed {args.seed}",
        "opponent": args.opponent,
        "training_minutes": round(minutes, 1),
        "snapshots": len(pool.members) - 1,
        "vs_random": rate(model, args.game, "random", args.eval_games, seed),
        "vs_easy": rate(model, args.game, "easy", args.eval_games, seed),
    }
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))
    return results


if __name__ == "__main__":
    main()
