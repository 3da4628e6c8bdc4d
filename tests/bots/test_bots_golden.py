"""Golden bot games: every bot level keeps its moves unless ``BOTS_VERSION`` goes up.

``tests/golden/bots.json`` holds a few whole games of each level (``random``, ``easy`` and
its Byzantium styles and redraw rule, ``greedy``, ``medium`` and ``hard`` at small iteration
budgets, the solo mode against each Legendary Opponent), as the action notation of the
rules (B-N, C-N).  They must replay move for move: tournament and ladder results are
recorded with :data:`porphyra.bots.version.BOTS_VERSION`, and a silent change of play would
let a ladder mix two different bots under one name.

After a deliberate change of play, raise ``BOTS_VERSION`` and write the file again:
``.venv/bin/python tests/bots/test_bots_golden.py --write`` (it refuses while the version
is the one the file was written with).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from porphyra import record
from porphyra.batch import play_game
from porphyra.bots.version import BOTS_VERSION

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "bots.json"

# The search levels at iteration budgets (deterministic), small enough for a unit test:
# ``medium`` and ``hard`` share every setting but their budget.
MEDIUM = "medium:seconds=none,iterations=24"
HARD = "hard:seconds=none,iterations=48"
BYZANTIUM = {"deck": "v6"}

#: name -> (game, options, seat specs, seed); seeds from 47,000,000 on (fresh on 7 Dec 2026).
GAMES: dict[str, tuple[str, dict[str, Any], list[str], int]] = {
    "byzantium-easy-random": ("byzantium", BYZANTIUM, ["easy", "random"], 47_000_000),
    "byzantium-styles": (
        "byzantium",
        BYZANTIUM,
        ["easy:style=legacy", "easy:style=territory"],
        47_000_001,
    ),
    "byzantium-pile-easy": ("byzantium", BYZANTIUM, ["easy:redraw=pile", "easy"], 47_000_002),
    "byzantium-medium-hard": ("byzantium", BYZANTIUM, [MEDIUM, HARD], 47_000_003),
    "byzantium-v5-greedy": (
        "byzantium",
        {"deck": "v5"},
        ["greedy:samples=4", "easy"],
        47_000_004,
    ),
    "conspiracy-easy-random": ("conspiracy", {"players": 2}, ["easy", "random"], 47_000_010),
    "conspiracy-medium-hard": ("conspiracy", {"players": 2}, [HARD, MEDIUM], 47_000_011),
    "conspiracy-3p": (
        "conspiracy",
        {"players": 3},
        ["easy", "greedy:samples=4", "random"],
        47_000_012,
    ),
    **{
        f"solo-{lo}": ("conspiracy", {"players": 1, "opponent": lo}, ["easy"], 47_000_020 + i)
        for i, lo in enumerate(["farmer", "merchant", "military", "politician", "mage"])
    },
    "solo-medium": ("conspiracy", {"players": 1, "opponent": "military"}, [MEDIUM], 47_000_030),
}


def play(name: str) -> dict[str, Any]:
    """Game ``name`` of :data:`GAMES` played now: its seats, seed, moves and returns."""
    game, options, seats, seed = GAMES[name]
    state, _ = play_game(0, game, options, seats, seed)
    moves = [f"{a['player']}: {a['action']}" for a in record.to_record(state)["actions"]]
    return {
        "game": game,
        "options": options,
        "seats": seats,
        "seed": seed,
        "moves": moves,
        "returns": [float(r) for r in state.returns()],
    }


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


def test_golden_file_is_of_this_bots_version(golden: dict[str, Any]) -> None:
    assert golden["bots_version"] == BOTS_VERSION, (
        "BOTS_VERSION changed: write tests/golden/bots.json again "
        "(python tests/bots/test_bots_golden.py --write)"
    )
    assert sorted(golden["games"]) == sorted(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_bot_game_replays_move_for_move(name: str, golden: dict[str, Any]) -> None:
    expected = golden["games"][name]
    now = play(name)
    first = next(
        (
            i
            for i, (a, b) in enumerate(zip(expected["moves"], now["moves"], strict=False))
            if a != b
        ),
        min(len(expected["moves"]), len(now["moves"])),
    )
    assert now == expected, (
        f"{name}: the bots play differently from move {first} on; if that is meant, raise "
        "BOTS_VERSION (porphyra/bots/version.py) and write tests/golden/bots.json again"
    )


def main(argv: list[str]) -> int:
    """``--write``: play every golden game and write the file (refused when a game moved
    and ``BOTS_VERSION`` is still the file's)."""
    if argv != ["--write"]:
        print(__doc__)
        return 2
    games = {name: play(name) for name in sorted(GAMES)}
    if GOLDEN.exists():
        old = json.loads(GOLDEN.read_text(encoding="utf-8"))
        moved = [n for n in games if n in old["games"] and old["games"][n] != games[n]]
        if moved and old["bots_version"] == BOTS_VERSION:
            print(f"refused: {', '.join(moved)} moved; raise BOTS_VERSION first")
            return 1
    data = {"bots_version": BOTS_VERSION, "games": games}
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {GOLDEN} ({len(games)} games, bots version {BOTS_VERSION})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
