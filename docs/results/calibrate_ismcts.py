"""How many ISMCTS iterations the ``hard`` settings run in one second of CPU time.

Used to turn "ISMCTS at 1 s a move" into a deterministic iteration budget for tournaments
(a time budget is not reproducible and suffers when workers share the cores).  For each
game it plays ``--games`` games between two ``easy`` bots and, at every decision of either
seat with more than one legal action, times a search of ``--iterations`` iterations with
the ``hard`` preset's settings (its time budget removed) in **CPU seconds**
(``time.process_time``, so other processes on the machine do not distort it).  It prints
the median, quartiles and mean of iterations per CPU second over those positions.

Run from the repository root: ``.venv/bin/python docs/results/calibrate_ismcts.py``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from porphyra.bots import ISMCTS_PRESETS, ISMCTSBot, make_bot, seat_view
from porphyra.core.registry import load_game


def rates(game_name: str, options: dict[str, int], games: int, iterations: int) -> list[float]:
    """Iterations per CPU second at each decision of ``games`` easy-vs-easy games."""
    game = load_game(game_name, **options)
    # No time budget, and early stop off: time every iteration asked for.
    settings = ISMCTS_PRESETS["hard"].with_options(seconds=None, early_stop=False)
    found: list[float] = []
    for g in range(games):
        state = game.new_initial_state(seed=1000 + g)
        players = [make_bot("easy", seed=g * 10 + s) for s in range(game.num_players)]
        search = ISMCTSBot(g, settings, iterations=iterations)
        while not state.is_terminal():
            seat = state.current_player()
            view = seat_view(state, seat)
            if len(view.legal_actions) > 1:
                start = time.process_time()
                result = search.search(view)
                found.append(result.iterations / max(time.process_time() - start, 1e-9))
            state.apply_action(players[seat].choose(view))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--game", choices=["byzantium", "conspiracy"], default=None)
    args = parser.parse_args()
    print(f"hard preset: {ISMCTS_PRESETS['hard']}")
    for name, options in (("byzantium", {}), ("conspiracy", {"players": 2})):
        if args.game not in (None, name):
            continue
        found = rates(name, options, args.games, args.iterations)
        q1, median, q3 = statistics.quantiles(found, n=4)
        print(
            f"{name}: {len(found)} positions, iterations per CPU second: median {median:.0f}, "
            f"quartiles {q1:.0f}-{q3:.0f}, mean {statistics.fmean(found):.0f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
