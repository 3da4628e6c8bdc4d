"""Side-by-side speed of porphyra's engines and two peers: random-playout steps per second.

Engines, each playing complete games with uniformly random legal actions:

- ``byzantium``: porphyra's Byzantium (``legal_actions`` / ``apply_action``);
- ``conspiracy``: porphyra's Conspiracy, 2 players;
- ``uno``: RLCard's UNO (``rlcard.games.uno.game.UnoGame``, 2 players: the game core,
  ``get_legal_actions`` / ``step``, without the RL environment's state encoding, as
  porphyra's playouts compute no observation either);
- ``chess``: python-chess (``board.legal_moves`` / ``push`` until ``is_game_over``).

The engines run in alternating rounds (the order rotated each round) on one core pinned
with ``os.sched_setaffinity``, so that a busy machine slows them all alike and the ratios
hold even when the absolute figures do not.  Prints each engine's steps/s and its ratio to
UNO's, and whether the engine under test is compiled (``porphyra.core.build``: a regular
install compiles it with mypyc, an editable one does not).  Needs the ``bench`` extra:
``pip install '.[bench]'`` (compiled) or ``pip install -e '.[bench]'`` (interpreted).

Usage::

    .venv/bin/python bench/bench_peers.py [--rounds 5] [--seconds 1.0] [--cpu N]

The issue 12 targets: Byzantium at least 1.0x UNO, Conspiracy at least 3x UNO.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import porphyra
from porphyra.core.build import engine_build

#: One game: ``play(seed) -> steps``.
Play = Callable[[int], int]


def porphyra_player(name: str, **options: object) -> Play:
    """Random games of porphyra game ``name`` (the game object is shared, as in search)."""
    game = porphyra.load_game(name, **options)

    def play(seed: int) -> int:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            steps += 1
        return steps

    return play


def uno_player() -> Play:
    """Random 2-player games of RLCard's UNO game core."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    def play(seed: int) -> int:
        game = UnoGame(num_players=2)
        game.np_random = np.random.RandomState(seed)
        rng = random.Random(seed)
        game.init_game()
        steps = 0
        while not game.is_over():
            legal = game.get_legal_actions()
            game.step(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return play


def chess_player() -> Play:
    """Random games of python-chess from the initial position."""
    import chess

    def play(seed: int) -> int:
        board = chess.Board()
        rng = random.Random(seed)
        steps = 0
        while not board.is_game_over():
            moves = list(board.legal_moves)
            board.push(moves[rng.randrange(len(moves))])
            steps += 1
        return steps

    return play


def pin(cpu: int | None) -> int:
    """Pin this process to ``cpu`` (default: the last CPU it may use); returns it."""
    allowed = sorted(os.sched_getaffinity(0))
    chosen = allowed[-1] if cpu is None else cpu
    os.sched_setaffinity(0, {chosen})
    return chosen


def measure(players: dict[str, Play], rounds: int, seconds: float) -> dict[str, float]:
    """Steps per second of each engine over ``rounds`` alternating rounds of about
    ``seconds`` each (whole games only; the order rotates every round)."""
    steps = dict.fromkeys(players, 0)
    spent = dict.fromkeys(players, 0.0)
    seeds = dict.fromkeys(players, 0)
    names = list(players)
    for name in names:  # warm up caches and imports outside the timed rounds
        players[name](10_000_000)
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                steps[name] += players[name](seeds[name])
                seeds[name] += 1
            spent[name] += time.perf_counter() - start
    return {name: steps[name] / spent[name] for name in names}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds per engine a round")
    parser.add_argument("--cpu", type=int, default=None, help="CPU to pin to (default: last)")
    parser.add_argument(
        "--once",
        metavar="ENGINE",
        help="play --games games of one engine (seeds 0..N-1), untimed, and print the steps: "
        "for instruction counts, which do not depend on the machine's load (run under "
        "valgrind --tool=callgrind with N and with 0 games, and divide the difference)",
    )
    parser.add_argument("--games", type=int, default=200, help="with --once: games")
    args = parser.parse_args()
    makers: dict[str, Callable[[], Play]] = {
        "byzantium": lambda: porphyra_player("byzantium"),
        "conspiracy": lambda: porphyra_player("conspiracy", players=2),
        "uno": uno_player,
        "chess": chess_player,
    }
    if args.once is not None:
        play = makers[args.once]()
        print(f"{args.once}: {sum(play(seed) for seed in range(args.games))} steps")
        return
    cpu = pin(args.cpu)
    players = {name: make() for name, make in makers.items()}
    rates = measure(players, args.rounds, args.seconds)
    print(f"pinned to CPU {cpu}; {args.rounds} rounds of {args.seconds:g} s per engine")
    print(f"porphyra engine: {engine_build()}")
    for name, rate in rates.items():
        print(f"{name:>11}: {rate:>9,.0f} steps/s  {rate / rates['uno']:5.2f}x UNO")


if __name__ == "__main__":
    main()
