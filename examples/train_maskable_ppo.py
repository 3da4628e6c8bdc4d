"""Train MaskablePPO (sb3-contrib) on Gymnasium Conspiracy against ``random``, a few CPU
minutes, then measure the trained agent against ``random`` and ``easy``.

Not part of the test suite.  Its libraries are in the ``marl`` extra (``dev`` includes
it: ``pip install -e '.[marl]'``), or install them beside the ``rl`` extra, with a CPU
build of torch::

    python3 -m venv .venv-train
    .venv-train/bin/pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    .venv-train/bin/pip install -e '.[rl]' sb3-contrib==2.9.2 matplotlib==3.11.2
    .venv-train/bin/python examples/train_maskable_ppo.py --timesteps 100000 \\
        --out docs/results/ppo-conspiracy

The agent plays both seats of 2-player Conspiracy (two environments per seat) against
``random`` bots; the policy sees the float32 tensor and samples only legal ids
(``env.action_masks()``).  Writes ``learning_curve.png`` (mean episode return, i.e. win
rate minus loss rate, over training) and ``results.json`` (win rates with Wilson 95%
intervals against ``random`` and ``easy``, each seat equally, on fresh seeds; and the same
for an untrained uniformly random agent, for reference).
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv

import porphyra.envs.gymnasium  # noqa: F401  (registers porphyra/Conspiracy-v0)

ENV_ID = "porphyra/Conspiracy-v0"


def make_env(seat: int, opponent: str, log: Path | None = None) -> Any:
    env = gymnasium.make(ENV_ID, opponent=opponent, seat=seat, players=2)
    return Monitor(env, str(log)) if log is not None else env


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def evaluate(model: MaskablePPO | None, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """Win rate of ``model`` (None: uniformly random legal ids) against ``opponent``."""
    rng = np.random.default_rng(seed)
    wins = draws = 0
    for g in range(games):
        env = make_env(g % 2, opponent)
        obs, info = env.reset(seed=seed + g)
        done, reward = False, 0.0
        while not done:
            mask = info["action_mask"].astype(bool)
            if model is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = int(model.predict(obs, action_masks=mask, deterministic=True)[0])
            obs, reward, done, _, info = env.step(action)
        wins += reward > 0
        draws += reward == 0
    low, high = wilson(wins, games)
    return {"games": games, "wins": wins, "draws": draws, "win_rate": wins / games,
            "wilson95": [round(low, 3), round(high, 3)]}  # fmt: skip


def plot(logs: list[Path], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps: list[float] = []
    returns: list[float] = []
    for log in logs:
        lines = log.read_text().splitlines()[2:]
        total = 0.0
        for line in lines:
            r, length, _ = (float(x) for x in line.split(","))
            total += length
            steps.append(total * len(logs))
            returns.append(r)
    order = np.argsort(steps)
    xs, ys = np.array(steps)[order], np.array(returns)[order]
    window = max(1, len(ys) // 30)
    smooth = np.convolve(ys, np.ones(window) / window, mode="valid")
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(xs[window - 1 :], smooth)
    ax.axhline(0.0, color="grey", lw=0.5)
    ax.set_xlabel("agent steps (all environments)")
    ax.set_ylabel(f"mean episode return ({window}-episode window)")
    ax.set_title("MaskablePPO on Conspiracy (2 players) vs random")
    fig.tight_layout()
    fig.savefig(out / "learning_curve.png", dpi=120)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=100_000)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("docs/results/ppo-conspiracy"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)
    logs = [args.out / f"env{i}" for i in range(4)]  # Monitor writes env{i}.monitor.csv
    vec = DummyVecEnv([lambda i=i: make_env(i % 2, "random", logs[i]) for i in range(4)])
    model = MaskablePPO("MlpPolicy", vec, seed=args.seed, n_steps=512, batch_size=256,
                        learning_rate=3e-4, gamma=0.995, ent_coef=0.01, verbose=0)  # fmt: skip
    start = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    minutes = (time.perf_counter() - start) / 60
    plot([log.with_name(log.name + ".monitor.csv") for log in logs], args.out)
    seed = 1_000_000 + args.seed
    results = {
        "command": f"examples/train_maskable_ppo.py --timesteps {args.timesteps} "
        f"--eval-games {args.eval_games} --seed {args.seed}",
        "training_minutes": round(minutes, 1),
        "timesteps": args.timesteps,
        "trained_vs_random": evaluate(model, "random", args.eval_games, seed),
        "trained_vs_easy": evaluate(model, "easy", args.eval_games, seed),
        "untrained_random_vs_random": evaluate(None, "random", args.eval_games, seed),
        "untrained_random_vs_easy": evaluate(None, "easy", args.eval_games, seed),
    }
    (args.out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
