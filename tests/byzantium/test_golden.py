"""Golden Byzantium playthroughs: recorded seeded games replayed and diffed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import porphyra
from porphyra.core.game import State
from porphyra.core.registry import load_game_version
from tests.golden_util import check_golden, transcript

GOLDEN = Path(__file__).parent / "golden"

CASES: dict[str, tuple[dict[str, Any], int, str]] = {
    # name: (options, seed, policy)
    "byzantium_random_seed1": ({}, 1, "random"),
    "byzantium_full_game_seed2": ({"first_emperor": 1}, 2, "strong_emperor"),
    "byzantium_reveal_negotiation_seed3": ({"reveal_first_draws": True}, 3, "negotiator"),
    # deck v2 and rules version 2 (B-R11: the Foe is asked to replace even when nothing fits)
    "byzantium_v2_negotiation_seed4": ({"deck": "v2"}, 4, "negotiator"),
    # deck v3 (more Middle commons), a full game played with the largest Emperor melds
    "byzantium_v3_full_game_seed5": ({"deck": "v3"}, 5, "strong_emperor"),
}


def _policy(kind: str, seed: int) -> Any:
    rng = random.Random(seed)

    def choose(state: State, step: int) -> int:
        legal = state.legal_actions()
        phase = state.public_observation()["phase"]
        if kind == "strong_emperor" and phase == "meld":
            # the largest meld for the Emperor, a random one for the Foe
            return (
                len(legal) - 1
                if state.current_player() == state.public_observation()["emperor"]
                else rng.randrange(len(legal))
            )
        if kind == "negotiator" and phase in ("target", "replace"):
            return len(legal) - 1
        if kind == "negotiator" and phase == "meld":
            with_negotiation = [
                i
                for i, a in enumerate(legal)
                if any("tribute" in c or "embassy" in c for c in str(a).split(" ")[1].split(","))
            ]
            if with_negotiation and rng.random() < 0.7:
                return with_negotiation[-1]
        return rng.randrange(len(legal))

    return choose


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_playthrough(name: str) -> None:
    options, seed, kind = CASES[name]

    def make() -> dict[str, Any]:
        state = porphyra.load_game("byzantium", **options).new_initial_state(seed=seed)
        return transcript(state, _policy(kind, seed))

    def replay(golden: dict[str, Any]) -> dict[str, Any]:
        rec = golden["record"]
        state = load_game_version(rec["game"], rec["version"], rec["options"]).new_initial_state(
            seed=rec["seed"]
        )
        return transcript(state, actions=[a["action"] for a in rec["actions"]])

    check_golden(GOLDEN / f"{name}.json", make, replay)


def test_golden_files_cover_a_full_game_and_a_negotiation() -> None:
    import json

    texts = {p.name: json.loads(p.read_text()) for p in GOLDEN.glob("*.json")}
    assert len(texts) >= 3
    assert any(
        g["final"]["turn"] == 12 and not g["final"]["result"]["collapse"] for g in texts.values()
    )
    assert any(any(s["action"].startswith("target ") for s in g["steps"]) for g in texts.values())
