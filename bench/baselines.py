"""Baselines of the research environments: each agent's 2-player win rate against fixed
reference bots, with Wilson 95% intervals (docs/envs.md, "Baselines").

Agents, all playing through the OpenSpiel game (``porphyra.envs.openspiel``) and its ids:

- ``uniform``: a uniformly random legal id at every step (a Byzantium card list is built
  id by id, so this is not the engine's ``random`` bot, which picks a uniformly random
  whole action);
- an engine bot spec (``random``, ``easy``, ``medium``, ``ismcts:iterations=300``, ...):
  the bot chooses an engine action from its seat's view, played as its ids
  (``EnvCore.ids_of``); the default rows play ``medium`` with a fixed iteration budget
  (:data:`MEDIUM`), so that they repeat themselves whatever the machine's load;
- ``os-ismcts:N``: OpenSpiel's Python IS-MCTS (``open_spiel.python.algorithms.ismcts``)
  with ``N`` simulations a move, UCT constant 2, one random rollout a leaf
  (``allow_inconsistent_action_sets``: legal sets differ between sampled worlds), its
  worlds drawn from its own seeded generator (``seeded_resampler``: the bot's default
  resampler seeds each world from the OS, and no game repeated).
  OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot play a Python game (docs/envs.md,
  "Seeding").

Each pair plays ``--games`` games: deal ``d`` (engine seed ``--seed + d``) twice, the agent
in seat 0 then in seat 1.  Win rates count a draw as half a win.  Results are merged into
``OUT/<game>.json`` (a row per agent and reference; a row run again is replaced) and the
table of every row is printed as Markdown::

    .venv/bin/python bench/baselines.py --game byzantium            # every default row
    .venv/bin/python bench/baselines.py --game conspiracy --agents os-ismcts:40 --games 100
    .venv/bin/python bench/baselines.py --game conspiracy --agents easy --references random
    .venv/bin/python bench/baselines.py --game byzantium --table    # print the table only

One process, one game at a time (CPU seconds per game are in the JSON).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from porphyra.bots import make_bot, seat_view
from porphyra.core.build import engine_build
from porphyra.envs.encoding import EnvCore
from porphyra.envs.openspiel import seeded_resampler  # (also registers the games)
from porphyra.tournament.stats import wilson_interval

AGENTS = ["uniform", "random", "easy", "medium", "os-ismcts:10", "os-ismcts:40"]
#: ``medium`` as the default rows play it: its search (0.5 s a move) with the search's
#: default iteration budget instead, 1,000 a move (0.5 s reached about 1,470 in Byzantium
#: and 640 in Conspiracy here with a core to itself): a time budget would play weaker on a
#: loaded machine and never repeat a game.
MEDIUM = {"byzantium": "medium:seconds=none", "conspiracy": "medium:seconds=none"}
REFERENCES = ["random", "easy"]
OUT = Path(__file__).parents[1] / "docs" / "results" / "baselines"
GAMES = {"byzantium": "porphyra_byzantium", "conspiracy": "porphyra_conspiracy"}


class Agent(Protocol):
    """One seat's player for one game."""

    def act(self, state: Any) -> list[int]:
        """The ids to play now, in order (the seat to act is ``state.current_player()``)."""
        ...


class UniformIds:
    """A uniformly random legal id at every step."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def act(self, state: Any) -> list[int]:
        ids: list[int] = state.legal_actions()
        return [ids[self.rng.randrange(len(ids))]]


class EngineBot:
    """A porphyra bot: an engine action from the seat's view, as its ids."""

    def __init__(self, spec: str, seed: int) -> None:
        self.bot = make_bot(spec, seed)

    def act(self, state: Any) -> list[int]:
        core: EnvCore = state.core
        seat = state.current_player()
        action = self.bot.choose(seat_view(core.state, seat))
        return core.ids_of(seat, action)


class OpenSpielISMCTS:
    """OpenSpiel's Python IS-MCTS with ``simulations`` a move."""

    def __init__(self, game: Any, simulations: int, seed: int) -> None:
        rng = np.random.RandomState(seed % 2**32)  # (numpy takes 32-bit seeds only)
        self.bot = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(1, rng),
            2.0,
            simulations,
            random_state=rng,
            allow_inconsistent_action_sets=True,
        )
        # (the bot's own resampler is seeded from the OS at every world: docs/envs.md,
        # "Seeding")
        self.bot.set_resampler(seeded_resampler(rng))

    def act(self, state: Any) -> list[int]:
        return [int(self.bot.step(state))]


def agent_factory(spec: str, game: Any) -> Callable[[int], Agent]:
    """A maker of fresh seeded agents for ``spec``.

    Raises:
        ValueError: an unknown agent or bot spec, or a bad simulation count.
    """
    if spec == "uniform":
        return UniformIds
    if spec.startswith("os-ismcts:"):
        sims = int(spec.partition(":")[2])
        if sims < 1:
            raise ValueError(f"os-ismcts needs at least 1 simulation, not {sims}")
        return lambda seed: OpenSpielISMCTS(game, sims, seed)
    make_bot(spec)  # (raises ValueError for an unknown spec)
    return lambda seed: EngineBot(spec, seed)


def play(
    game: Any, engine_seed: int, agents: list[Agent], moves: list[int] | None = None
) -> list[float]:
    """One game of ``game`` on the deal of ``engine_seed``; returns the seats' returns
    (and appends the ids played, in order, to ``moves`` if given)."""
    state = game.new_initial_state()
    state.core = EnvCore(game.codec, game.engine.new_initial_state(seed=engine_seed))
    while not state.is_terminal():
        seat = state.current_player()
        for action_id in agents[seat].act(state):
            state.apply_action(action_id)
            if moves is not None:
                moves.append(int(action_id))
    return [float(r) for r in state.returns()]


def load(name: str) -> Any:
    """The 2-player OpenSpiel game of ``name`` (``byzantium`` or ``conspiracy``)."""
    return pyspiel.load_game(GAMES[name], {"players": 2} if name == "conspiracy" else {})


def record_moves(name: str, agent: str, engine_seed: int, bot_seed: int) -> list[int]:
    """The ids of one game of ``agent`` (seat 0, seeded ``bot_seed``) against ``random``
    (seat 1) on the deal of ``engine_seed``: a row repeats itself when these do."""
    game = load(name)
    moves: list[int] = []
    play(game, engine_seed, [agent_factory(agent, game)(bot_seed), EngineBot("random", 1)], moves)
    return moves


def measure(name: str, agent: str, reference: str, games: int, seed: int) -> dict[str, Any]:
    """``agent`` against ``reference``: ``games`` games (a deal twice, seats swapped)."""
    game = load(name)
    make_agent, make_ref = agent_factory(agent, game), agent_factory(reference, game)
    wins = draws = 0
    start, cpu = time.monotonic(), time.process_time()
    for d in range(games // 2):
        for seat in (0, 1):
            bot_seed = 1000 * (seed + d) + seat
            seats = [make_ref(bot_seed + 500), make_ref(bot_seed + 500)]
            seats[seat] = make_agent(bot_seed)
            returns = play(game, seed + d, seats)
            mine, theirs = returns[seat], returns[1 - seat]
            wins += mine > theirs
            draws += mine == theirs
    n = 2 * (games // 2)
    score = wins + draws / 2
    low, high = wilson_interval(score, n)
    return {
        "agent": agent,
        "reference": reference,
        "games": n,
        "wins": wins,
        "draws": draws,
        "losses": n - wins - draws,
        "win_rate": score / n,
        "ci95": [low, high],
        "seeds": [seed, seed + games // 2 - 1],
        "seconds_per_game": (time.monotonic() - start) / n,
        "cpu_seconds_per_game": (time.process_time() - cpu) / n,
    }


def _order(names: set[str], known: list[str]) -> list[str]:
    """``names`` in the order of ``known``, then the others alphabetically."""
    return sorted(names, key=lambda n: (known.index(n) if n in known else len(known), n))


def split_specs(text: str) -> list[str]:
    """Comma-separated agent specs, a bot's own options kept with it:
    ``"easy,ismcts:iterations=300,depth=4"`` is ``["easy", "ismcts:iterations=300,depth=4"]``
    (a piece ``key=value`` with no ``:`` is an option of the spec before it)."""
    specs: list[str] = []
    for piece in filter(None, text.split(",")):
        if specs and "=" in piece and ":" not in piece:
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def agents_for(game: str) -> list[str]:
    """The default agents of ``game``: :data:`AGENTS`, ``medium`` as in :data:`MEDIUM`."""
    return [MEDIUM[game] if agent == "medium" else agent for agent in AGENTS]


def table(rows: list[dict[str, Any]], known: list[str] = AGENTS) -> str:
    """The Markdown table of ``rows``: an agent a line (``known`` first, in order, each
    even if not run), a reference a column pair (a mirror match reads 50% by symmetry; a
    pair not run, "not yet measured")."""
    refs = _order({r["reference"] for r in rows}, REFERENCES)
    agents = _order({r["agent"] for r in rows} | set(known), known)
    index = {(r["agent"], r["reference"]): r for r in rows}
    head = "| agent | " + " | ".join(f"vs `{r}`: win rate (95% CI) | games" for r in refs) + " |"
    lines = [head, "|---|" + "---:|---:|" * len(refs)]
    for agent in agents:
        cells = []
        for ref in refs:
            row = index.get((agent, ref))
            if agent == ref:
                cells.append("50% (mirror) | -")
            elif row is None:
                cells.append("not yet measured | -")
            else:
                low, high = row["ci95"]
                rate = f"{100 * row['win_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f})"
                cells.append(f"{rate} | {row['games']}")
        lines.append(f"| `{agent}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--agents", default=None, help="comma-separated agents (default: all)")
    parser.add_argument("--references", default=",".join(REFERENCES), help="comma-separated bots")
    parser.add_argument("--games", type=int, default=400, help="games a row (even)")
    parser.add_argument("--seed", type=int, default=34000, help="engine seed of the first deal")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--table", action="store_true", help="print the table; play nothing")
    args = parser.parse_args(argv)
    path = args.out / f"{args.game}.json"
    data: dict[str, Any] = json.loads(path.read_text()) if path.exists() else {"rows": []}
    known = agents_for(args.game)
    if not args.table:
        agents = known if args.agents is None else split_specs(args.agents)
        for agent in agents:
            for ref in split_specs(args.references):
                if agent == ref:
                    continue  # (a mirror match is 50% by symmetry)
                row = measure(args.game, agent, ref, args.games, args.seed)
                row["command"] = (
                    f"bench/baselines.py --game {args.game} --agents {agent} "
                    f"--references {ref} --games {args.games} --seed {args.seed}"
                )
                row["engine"] = engine_build()
                row["open_spiel"] = version("open_spiel")
                key = (agent, ref)
                data["rows"] = [r for r in data["rows"] if (r["agent"], r["reference"]) != key]
                data["rows"].append(row)
                args.out.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
                print(
                    f"{agent} vs {ref}: {100 * row['win_rate']:.1f}% over {row['games']} games, "
                    f"{row['seconds_per_game']:.2f} s a game",
                    file=sys.stderr,
                )
    print(table(data["rows"], known))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
