"""The baselines script (``bench/baselines.py``): its games, counts, intervals and table,
on a few games."""

from __future__ import annotations

from types import ModuleType

import pytest

from tests.scripts import ROOT, load_script

SCRIPT = ROOT / "bench" / "baselines.py"


@pytest.fixture(scope="module")
def bl() -> ModuleType:
    return load_script(SCRIPT)


def _outcome(row: dict[str, object]) -> tuple[object, ...]:
    return tuple(row[k] for k in ("games", "wins", "draws", "losses", "win_rate", "ci95"))


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_measure_counts_every_game_and_repeats_itself(bl: ModuleType, game: str) -> None:
    row = bl.measure(game, "easy", "random", 6, 40)
    assert row["games"] == 6 and row["wins"] + row["draws"] + row["losses"] == 6
    assert row["win_rate"] == (row["wins"] + row["draws"] / 2) / 6
    low, high = row["ci95"]
    assert 0.0 <= low <= row["win_rate"] <= high <= 1.0
    assert row["seeds"] == [40, 42]
    assert _outcome(bl.measure(game, "easy", "random", 6, 40)) == _outcome(row)


def test_every_kind_of_agent_plays_whole_games(bl: ModuleType) -> None:
    import pyspiel

    for name in ("porphyra_byzantium", "porphyra_conspiracy"):
        game = pyspiel.load_game(name)
        for spec in ("uniform", "random", "os-ismcts:2", "medium:seconds=none,iterations=3"):
            make = bl.agent_factory(spec, game)
            returns = bl.play(game, 7, [make(1), make(2)])
            assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_agents_take_the_bot_seeds_of_large_engine_seeds(bl: ModuleType) -> None:
    import pyspiel

    game = pyspiel.load_game("porphyra_conspiracy")
    seed = 1000 * 42_000_000 + 500  # (what measure() gives from --seed 42000000)
    for spec in ("uniform", "easy", "os-ismcts:2"):
        assert bl.agent_factory(spec, game)(seed).act(game.new_initial_state())


def test_bad_agents_are_refused(bl: ModuleType) -> None:
    import pyspiel

    game = pyspiel.load_game("porphyra_conspiracy")
    with pytest.raises(ValueError, match="at least 1 simulation"):
        bl.agent_factory("os-ismcts:0", game)
    with pytest.raises(ValueError, match="unknown bot"):
        bl.agent_factory("grandmaster", game)


def test_table_marks_mirrors_and_missing_rows(bl: ModuleType) -> None:
    row = {"agent": "uniform", "reference": "random", "games": 400, "win_rate": 0.05}
    text = bl.table([{**row, "ci95": [0.033, 0.076]}])
    lines = text.splitlines()
    assert lines[0].startswith("| agent | vs `random`")
    assert "| `uniform` | 5.0% (3.3-7.6) | 400 |" in lines
    assert "| `random` | 50% (mirror) | - |" in lines
    assert "| `medium` | not yet measured | - |" in lines


def test_the_default_rows_play_medium_on_a_fixed_budget(bl: ModuleType) -> None:
    for game in ("byzantium", "conspiracy"):
        agents = bl.agents_for(game)
        assert "medium" not in agents and agents[3] == bl.MEDIUM[game]
        bot = bl.make_bot(agents[3])
        assert bot.settings.seconds is None and bot.settings.iteration_budget == 1000
    row = {"agent": "easy", "reference": "random", "games": 4, "win_rate": 1.0, "ci95": [0.5, 1]}
    text = bl.table([row], bl.agents_for("conspiracy"))
    assert "| `medium:seconds=none` | not yet measured | - |" in text.splitlines()


def test_agent_specs_keep_their_options(bl: ModuleType) -> None:
    text = "easy,medium:seconds=none,iterations=600,os-ismcts:10,ismcts:depth=4,,random"
    assert bl.split_specs(text) == [
        "easy",
        "medium:seconds=none,iterations=600",
        "os-ismcts:10",
        "ismcts:depth=4",
        "random",
    ]


_MOVES = """
import json, sys
from tests.scripts import ROOT, load_script
bl = load_script(ROOT / "bench" / "baselines.py")
print(json.dumps(bl.record_moves(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))))
"""


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_os_ismcts_games_repeat_themselves(bl: ModuleType, game: str) -> None:
    # OpenSpiel's bot resamples through an OS-seeded sampler unless given a resampler:
    # the same seeds played different games from run to run.
    first = bl.record_moves(game, "os-ismcts:4", 34000, 3)
    assert len(first) > 10
    assert bl.record_moves(game, "os-ismcts:4", 34000, 3) == first


@pytest.mark.slow
def test_os_ismcts_games_repeat_across_processes_and_hash_seeds(bl: ModuleType) -> None:
    import json
    import os
    import subprocess
    import sys

    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        args = [sys.executable, "-c", _MOVES, "byzantium", "os-ismcts:4", "34001", "5"]
        out = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=True)
        runs.append(json.loads(out.stdout))
    assert runs[0] == runs[1] == bl.record_moves("byzantium", "os-ismcts:4", 34001, 5)
