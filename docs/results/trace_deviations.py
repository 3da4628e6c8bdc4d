"""Where a search bot departs from ``easy`` in Byzantium, and a flat Monte Carlo check.

``trace``: plays easy-vs-easy Byzantium games from the given seeds, with the searched seat
(0 and 1 in turn) asking BOT for its move and playing it; prints every decision where BOT's
move differs from easy's (turn, TT, LT, both moves, the top root statistics) and, at the end,
the share of differing decisions by kind and role.

``negotiation``: at the first Negotiation (``target``) decision of each seat in easy-vs-easy
games, estimates each option's win rate by ``--rollouts`` determinizations (``resample``
refined by the heuristic's opponent model) played to the end by the heuristic policy.

usage::

    python docs/results/trace_deviations.py trace ismcts:iterations=3100 --seeds 1000 1002
    python docs/results/trace_deviations.py negotiation --seeds 1000 1012 --rollouts 300
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics

from porphyra.bots import ISMCTSBot, make_bot, seat_view
from porphyra.bots.heuristic_byzantium import refine_sample, rollout_policy
from porphyra.core.game import State
from porphyra.core.registry import load_game


def trace(spec: str, seeds: range) -> None:
    """Print BOT's departures from easy over ``seeds`` (both seat orders)."""
    game = load_game("byzantium")
    differ: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    for seed in seeds:
        for seat in (0, 1):
            state = game.new_initial_state(seed)
            others = [make_bot("easy", 1), make_bot("easy", 2)]
            search, easy = make_bot(spec, 7), make_bot("easy", 3)
            while not state.is_terminal():
                player, view = state.current_player(), seat_view(state)
                if player != seat or len(view.legal_actions) < 2:
                    state.apply_action(others[player].choose(view))
                    continue
                action, usual = search.choose(view), easy.choose(view)
                role = "byz" if view.observation["role"] == "byzantine" else "foe"
                kind = f"{str(action).split()[0]}-{role}"
                total[kind] += 1
                if str(action) != str(usual):
                    differ[kind] += 1
                    stats = ""
                    if isinstance(search, ISMCTSBot) and search.last_result is not None:
                        top = [s for s in search.last_result.stats[:4] if s.visits]
                        stats = " ; ".join(
                            f"{s.action} {s.visits} {s.mean_reward:.2f}" for s in top
                        )
                    obs = view.observation
                    print(
                        f"seed {seed} seat {seat} turn {obs['turn']} TT {obs['territory']} "
                        f"LT {obs['legacy']} {kind}: easy {usual} -> {action} | {stats}"
                    )
                state.apply_action(action)
            print(f"seed {seed} seat {seat}: returns {state.returns()}", flush=True)
    print({kind: f"{differ[kind]}/{total[kind]}" for kind in sorted(total)})


def _first_target(seed: int, seat: int) -> State | None:
    state = load_game("byzantium").new_initial_state(seed)
    easy = make_bot("easy", 1)
    while not state.is_terminal():
        phase = getattr(state, "phase", "")
        if state.current_player() == seat and phase == "target" and len(state.legal_actions()) > 1:
            return state
        state.apply_action(easy.choose(seat_view(state)))
    return None


def negotiation(seeds: range, rollouts: int) -> None:
    """Print each Negotiation option's estimated win rate (heuristic rollouts to the end)."""
    for seed in seeds:
        for seat in (0, 1):
            state = _first_target(seed, seat)
            if state is None:
                continue
            view = seat_view(state)
            rates: dict[str, float] = {}
            for action in view.legal_actions:
                rng = random.Random(1)
                wins = []
                for _ in range(rollouts):
                    world = view.sample(rng)
                    refine_sample(world, seat, rng)
                    world.apply_action(world.game.parse_action(world, str(action)))
                    while not world.is_terminal():
                        world.apply_action(rollout_policy(world, rng))
                    wins.append((world.returns()[seat] + 1) / 2)
                rates[str(action)] = round(statistics.fmean(wins), 3)
            print(f"seed {seed} seat {seat} turn {view.observation['turn']}: {rates}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("trace")
    one.add_argument("bot")
    one.add_argument("--seeds", type=int, nargs=2, default=(1000, 1002))
    two = sub.add_parser("negotiation")
    two.add_argument("--seeds", type=int, nargs=2, default=(1000, 1012))
    two.add_argument("--rollouts", type=int, default=300)
    args = parser.parse_args()
    if args.command == "trace":
        trace(args.bot, range(*args.seeds))
    else:
        negotiation(range(*args.seeds), args.rollouts)


if __name__ == "__main__":
    main()
