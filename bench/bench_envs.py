"""Overhead of the research environments on random playouts, against the raw engine.

Each player plays whole games with uniformly random legal choices, on one pinned core, in
alternating rounds (the order rotated each round), and is reported in games per second and
as a multiple of the raw engine's time per game (1.0x: no overhead):

- ``raw``: ``legal_actions`` / ``apply_action`` on the engine state;
- ``openspiel``: the pyspiel game, ``legal_actions()`` / ``apply_action(id)`` (no tensor,
  as OpenSpiel's own random playouts);
- ``pettingzoo``: the AEC environment, ``last()`` (tensor and mask) then ``step(id)``;
- ``parallel`` (Byzantium): the parallel environment, every seat's tensor and mask each
  step;
- ``gymnasium``: seat 0 against ``random`` bots, ``step(id)`` returning tensor and mask;
- ``pz-no-json``, ``gym-no-json``: the same with ``observation_json=False`` (no JSON
  observation in the infos: what a training loop that reads only tensors needs);
- ``os-floor``, ``pz-floor``, ``gym-floor``: do-nothing environments of each framework
  (``env_floors.py``), played by the same loop for the real environment's mean steps a
  game: what the framework costs by itself, which no environment of it can avoid.

A Byzantium card list takes several ids (one per card kind, then END), so a wrapper game
has more steps than the engine game; games per second compare like with like.  The last
column is the wrapper's own time per engine action (``1/rate - 1/raw``, in microseconds,
over the raw games' mean number of actions).  For a floor it is the framework's own cost
per engine action, and ``best`` the multiple of raw that a wrapper costing nothing more
than its framework would reach.

Usage::

    .venv/bin/python bench/bench_envs.py [--rounds 3] [--seconds 1.0] [--cpu N]
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import porphyra

#: One game: ``play(seed) -> steps`` (the environment steps it took).
Play = Callable[[int], int]


#: Per game name: ``[games, engine actions]`` the raw player played.
ACTIONS: dict[str, list[int]] = {}


def raw(name: str, **options: object) -> Play:
    game = porphyra.load_game(name, **options)
    tally = ACTIONS.setdefault(name, [0, 0])

    def play(seed: int) -> int:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
        tally[0] += 1
        tally[1] += len(state.history)
        return len(state.history)

    return play


def openspiel(name: str, **params: int) -> Play:
    import pyspiel

    import porphyra.envs.openspiel  # noqa: F401

    return openspiel_player(pyspiel.load_game(f"porphyra_{name}", params))


def pettingzoo(name: str, with_json: bool = True, **options: Any) -> Play:
    from porphyra.envs.pettingzoo import env as make_env

    return aec_player(make_env(name, None, observation_json=with_json, **options))


def aec_player(env: Any) -> Play:
    """Random playouts of PettingZoo AEC environment ``env``."""

    def play(seed: int) -> int:
        env.reset(seed=seed)
        rng = random.Random(seed)
        steps = 0
        for _ in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            ids = np.flatnonzero(obs["action_mask"])
            env.step(int(ids[rng.randrange(len(ids))]))
            steps += 1
        return steps

    return play


def parallel(name: str) -> Play:
    from porphyra.envs.pettingzoo import parallel_env

    env = parallel_env(game=name)

    def play(seed: int) -> int:
        obs, _ = env.reset(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while env.agents:
            steps += 1
            actions = {}
            for agent in env.agents:
                ids = np.flatnonzero(obs[agent]["action_mask"])
                actions[agent] = int(ids[rng.randrange(len(ids))]) if len(ids) else 0
            obs, *_ = env.step(actions)
        return steps

    return play


def gymnasium(name: str, with_json: bool = True, **options: int) -> Play:
    from porphyra.envs.gymnasium import PorphyraEnv

    return gym_player(PorphyraEnv(name, "random", 0, "lose", None, with_json, **options))


def gym_player(env: Any) -> Play:
    """Random playouts of Gymnasium environment ``env`` (the mask in its infos)."""

    def play(seed: int) -> int:
        _, info = env.reset(seed=seed)
        rng = random.Random(seed)
        done = False
        steps = 0
        while not done:
            ids = np.flatnonzero(info["action_mask"])
            _, _, done, _, info = env.step(int(ids[rng.randrange(len(ids))]))
            steps += 1
        return steps

    return play


def openspiel_player(game: Any) -> Play:
    """Random playouts of pyspiel game ``game``."""

    def play(seed: int) -> int:
        state = game.new_initial_state()
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            ids = state.legal_actions()
            state.apply_action(ids[rng.randrange(len(ids))])
            steps += 1
        return steps

    return play


def mean_legal(name: str, **params: Any) -> int:
    """The mean number of legal ids a move, over 40 random OpenSpiel games of ``name``."""
    import pyspiel

    import porphyra.envs.openspiel  # noqa: F401

    game = pyspiel.load_game(f"porphyra_{name}", params)
    rng = random.Random(0)
    moves = total = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            ids = state.legal_actions()
            total += len(ids)
            moves += 1
            state.apply_action(ids[rng.randrange(len(ids))])
    return max(1, round(total / moves))


#: The floor of each framework, by the real player it is the floor of.
FLOORS = {"os-floor": "openspiel", "pz-floor": "pz-no-json", "gym-floor": "gym-no-json"}


def floors(name: str, real: dict[str, Play], **options: Any) -> dict[str, Play]:
    """The do-nothing environments of ``env_floors`` for game ``name``, each playing the
    mean steps a game of its player in ``real`` (over 40 games) with that game's tensor size,
    action ids, seats and mean number of legal ids (of its OpenSpiel game)."""
    from env_floors import floor_aec, floor_gym, floor_openspiel
    from porphyra.envs.codecs import codec_for

    game = porphyra.load_game(name, **options)
    codec = codec_for(game)
    shape = (codec.layout.size, codec.num_actions, mean_legal(name, **options))
    steps = {
        floor: round(sum(real[of](seed) for seed in range(40)) / 40) for floor, of in FLOORS.items()
    }
    n = game.num_players
    return {
        "os-floor": openspiel_player(floor_openspiel(n, steps["os-floor"], *shape)),
        "pz-floor": aec_player(floor_aec(n, steps["pz-floor"], *shape)),
        "gym-floor": gym_player(floor_gym(steps["gym-floor"], *shape)),
    }


def measure(players: dict[str, Play], rounds: int, seconds: float) -> dict[str, float]:
    """Games per second of each player over ``rounds`` alternating rounds."""
    games = dict.fromkeys(players, 0)
    spent = dict.fromkeys(players, 0.0)
    names = list(players)
    for name in names:
        players[name](10_000_000)
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                players[name](games[name])
                games[name] += 1
            spent[name] += time.perf_counter() - start
    return {name: games[name] / spent[name] for name in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per player a round")
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: last)")
    args = parser.parse_args()
    allowed = sorted(os.sched_getaffinity(0))
    cpu = allowed[-1] if args.cpu is None else args.cpu
    os.sched_setaffinity(0, {cpu})
    print(f"pinned to CPU {cpu}; {args.rounds} rounds of {args.seconds:g} s per player")
    suites: dict[str, dict[str, Play]] = {
        "byzantium": {
            "raw": raw("byzantium"),
            "openspiel": openspiel("byzantium"),
            "pettingzoo": pettingzoo("byzantium"),
            "pz-no-json": pettingzoo("byzantium", False),
            "parallel": parallel("byzantium"),
            "gymnasium": gymnasium("byzantium"),
            "gym-no-json": gymnasium("byzantium", False),
        },
        "conspiracy": {
            "raw": raw("conspiracy", players=2),
            "openspiel": openspiel("conspiracy", players=2),
            "pettingzoo": pettingzoo("conspiracy", players=2),
            "pz-no-json": pettingzoo("conspiracy", False, players=2),
            "gymnasium": gymnasium("conspiracy", players=2),
            "gym-no-json": gymnasium("conspiracy", False, players=2),
        },
    }
    options: dict[str, dict[str, Any]] = {"byzantium": {}, "conspiracy": {"players": 2}}
    for game, players in suites.items():
        players.update(floors(game, players, **options[game]))
        rates = measure(players, args.rounds, args.seconds)
        games, actions = ACTIONS[game]
        per_game = actions / games
        raw_us = 1e6 / rates["raw"] / per_game
        print(f"{game:>10}: {per_game:.1f} engine actions a game, {raw_us:.1f} us each raw")
        for name, rate in rates.items():
            if name in FLOORS:
                own = 1e6 / rate / per_game
                print(
                    f"{game:>10} {name:>11}: {rate:>8,.1f} games/s  framework alone"
                    f" {own:+6.1f} us per engine action; best {1 + own / raw_us:.1f}x raw"
                )
                continue
            extra = (1 / rate - 1 / rates["raw"]) / per_game * 1e6
            print(
                f"{game:>10} {name:>11}: {rate:>8,.1f} games/s  {rates['raw'] / rate:5.1f}x raw"
                f"  {extra:+6.1f} us per engine action"
            )


if __name__ == "__main__":
    main()
