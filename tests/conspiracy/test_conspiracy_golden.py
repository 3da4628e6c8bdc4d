"""Golden playthroughs: seeded random games for 2, 3 and 4 players, replayed and diffed.

Each ``golden/*.json`` holds the game record (options, seed, action texts, result) and, for
every step, the acting seat, the action, the new log lines and the public observation after
the action (without the log, which is given as per-step lines).  The test replays the
record and compares step by step, so any change of behaviour shows as a diff naming the
first step that differs.

After an intended rules change, regenerate and review the diff::

    PORPHYRA_REGEN_GOLDEN=1 .venv/bin/pytest tests/conspiracy/test_conspiracy_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import porphyra
from porphyra import record
from porphyra.core.game import State

GOLDEN = Path(__file__).parent / "golden"
CASES: dict[str, tuple[dict[str, Any], int]] = {
    "conspiracy_2p": ({"players": 2}, 11),
    "conspiracy_3p": ({"players": 3}, 12),
    "conspiracy_4p": ({"players": 4}, 13),
    "conspiracy_4p_bonus": ({"players": 4, "bonus_locations": True}, 14),
}
#: Solo playthroughs, one per Legendary Opponent (section 4), same machinery.
SOLO_CASES: dict[str, tuple[dict[str, Any], int]] = {
    f"solo_{name}": ({"players": 1, "opponent": name}, seed)
    for name, seed in (
        ("farmer", 21),
        ("military", 22),
        ("merchant", 23),
        ("politician", 24),
        ("mage", 25),
    )
}
CASES.update(SOLO_CASES)


def _obs(state: State) -> dict[str, Any]:
    obs = state.public_observation()
    del obs["log"]
    return obs


def _steps(state: State, texts: list[str]) -> list[dict[str, Any]]:
    """Apply ``texts`` to ``state``, returning the per-step transcript."""
    log: list[str] = state.public_observation()["log"]
    steps: list[dict[str, Any]] = [
        {"player": None, "action": None, "log": log, "observation": _obs(state)}
    ]
    for text in texts:
        player = state.current_player()
        state.apply_action(state.game.parse_action(state, text))
        full = state.public_observation()["log"]
        steps.append(
            {
                "player": player,
                "action": text,
                "log": full[len(log) :],
                "observation": _obs(state),
            }
        )
        log = full
    return steps


def _generate(options: dict[str, Any], seed: int) -> dict[str, Any]:
    game = porphyra.load_game("conspiracy", **options)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    texts = []
    probe = state.clone()
    while not probe.is_terminal():
        actions = probe.legal_actions()
        action = actions[rng.randrange(len(actions))]
        texts.append(str(action))
        probe.apply_action(action)
    steps = _steps(state, texts)
    return {"record": record.to_record(state), "steps": steps}


def _dump(data: dict[str, Any]) -> str:
    rec = json.dumps(data["record"], indent=1, sort_keys=True).replace("\n", "\n ")
    lines = ["{", f' "record": {rec},', ' "steps": [']
    steps = [json.dumps(s, sort_keys=True, separators=(",", ":")) for s in data["steps"]]
    lines.append(",\n".join(steps))
    lines.append(" ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    path = GOLDEN / f"{name}.json"
    options, seed = CASES[name]
    if os.environ.get("PORPHYRA_REGEN_GOLDEN") == "1":
        path.write_text(_dump(_generate(options, seed)), encoding="utf-8")
    golden = json.loads(path.read_text(encoding="utf-8"))
    rec = golden["record"]
    assert rec["options"] == porphyra.load_game("conspiracy", **options).record_options()
    game = porphyra.load_game("conspiracy", **rec["options"])
    state = game.new_initial_state(seed=rec["seed"])
    texts = [a["action"] for a in rec["actions"]]
    got = _steps(state, texts)
    for i, (want, have) in enumerate(zip(golden["steps"], got, strict=True)):
        assert have == want, f"{name}: step {i} ({want['action']}) differs"
    assert state.is_terminal()
    assert record.to_record(state) == rec
    assert [a["player"] for a in rec["actions"]] == [s["player"] for s in golden["steps"][1:]]


def test_golden_games_cover_the_rules() -> None:
    """The playthroughs exercise the main branches (so the diffs guard them)."""
    text = "\n".join(
        line
        for name in CASES
        if name not in SOLO_CASES
        for step in json.loads((GOLDEN / f"{name}.json").read_text())["steps"]
        for line in step["log"]
    )
    for needle in ("takes the", "keeps", "Location", "Pearl Master", "game over", "swaps"):
        assert needle in text, needle


def test_solo_golden_games_cover_the_lo_rules() -> None:
    """The solo playthroughs exercise the LO's turn, its choices and the Replay token."""
    goldens = [json.loads((GOLDEN / f"{name}.json").read_text()) for name in SOLO_CASES]
    text = "\n".join(line for g in goldens for step in g["steps"] for line in step["log"])
    actions = {a["action"].split()[0] for g in goldens for a in g["record"]["actions"]}
    assert {"lopile", "loplace", "replay"} <= actions
    for needle in (
        "checks the piles",
        "reveals",
        "face down on slot",
        "takes the Replay token",
        "must draw exactly 1",
        "game over",
    ):
        assert needle in text, needle
