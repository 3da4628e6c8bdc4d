"""Golden playthroughs (OpenSpiel style): recorded games replayed and diffed.

A golden file holds a game's record plus, for every decision, the acting seat's observation
(without the cumulative log), the number of legal actions and the log lines that decision
added.  The test replays the record and compares everything, so any change of behaviour
shows as a diff.  Regenerate deliberately with ``PORPHYRA_REGEN_GOLDEN=1 pytest``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from porphyra import record as records
from porphyra.core.game import State

Policy = Callable[[State, int], int]


def transcript(
    state: State, choose: Policy | None = None, actions: list[str] | None = None
) -> dict[str, Any]:
    """Play ``state`` to the end (by ``choose(state, step) -> index`` or by replaying
    ``actions``) and return the golden transcript."""
    steps: list[dict[str, Any]] = []
    seen = len(state.public_observation()["log"])
    i = 0
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_actions()
        obs = state.observation(player)
        if actions is not None:
            action = state.game.parse_action(state, actions[i])
        else:
            assert choose is not None
            action = legal[choose(state, i)]
        state.apply_action(action)
        log = state.public_observation()["log"]
        steps.append(
            {
                "player": player,
                "legal_count": len(legal),
                "observation": {k: v for k, v in obs.items() if k != "log"},
                "action": str(action),
                "public_log": log[seen:],
            }
        )
        seen = len(log)
        i += 1
    return {
        "record": records.to_record(state),
        "steps": steps,
        "final": state.public_observation(),
    }


def check_golden(
    path: Path,
    make: Callable[[], dict[str, Any]],
    replay: Callable[[dict[str, Any]], dict[str, Any]],
) -> None:
    """Compare ``replay(golden)`` with the stored golden at ``path`` (or write it)."""
    if os.environ.get("PORPHYRA_REGEN_GOLDEN") or not path.exists():
        if not os.environ.get("PORPHYRA_REGEN_GOLDEN"):
            raise AssertionError(f"golden file {path} is missing: run with PORPHYRA_REGEN_GOLDEN=1")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(make(), indent=1, sort_keys=True) + "\n")
    golden = json.loads(path.read_text())
    again = json.loads(json.dumps(replay(golden), sort_keys=True))
    assert again["record"] == golden["record"], f"{path.name}: record differs"
    for n, (a, b) in enumerate(zip(again["steps"], golden["steps"], strict=True)):
        assert a == b, f"{path.name}: step {n + 1} ({b['action']}) differs"
    assert again["final"] == golden["final"], f"{path.name}: final observation differs"
