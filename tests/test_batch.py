"""One batch-play engine (issue 33 §1): tournaments and the balance lab play their games
through :mod:`porphyra.batch`, and give exactly what they gave with their own runners.

``tests/golden/batch.json`` holds the outputs of a small tournament and a small balance
campaign of each game as main's separate runners played them (same seeds), in one
process and in two worker processes.  Regenerate it only for a deliberate change of play:
``.venv/bin/python tests/test_batch.py --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from porphyra.balance.campaign import Campaign, run_tasks
from porphyra.tournament import TournamentConfig, build_schedule, run_matches

GOLDEN = Path(__file__).resolve().parent / "golden" / "batch.json"

TOURNAMENTS = {
    # The deck is named, so that a new default deck does not move this golden file (it was
    # recorded when v5 was the default).
    "byzantium": TournamentConfig(
        "byzantium", ["random", "easy", "ismcts:iterations=8"], 2, 7, options={"deck": "v5"}
    ),
    "conspiracy": TournamentConfig(
        "conspiracy", ["random", "easy", "bot"], 3, 5, options={"players": 3}
    ),
}
CAMPAIGNS = {
    "byzantium": Campaign("byzantium", {"deck": "v3"}, (("easy", "random"),), 3, 40),
    "conspiracy": Campaign("conspiracy", {"players": 3}, (("easy", "random", "easy"),), 2, 9),
}


def _digest(record: dict[str, Any] | None) -> str:
    assert record is not None
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode("utf-8")).hexdigest()


def tournament_outputs(name: str, workers: int) -> list[dict[str, Any]]:
    """Every result of tournament ``name`` but its wall-clock duration, with its record's
    digest."""
    results = run_matches(build_schedule(TOURNAMENTS[name]), workers, keep_records=True)
    return [
        {
            "game_id": r.match.game_id,
            "seats": list(r.match.seats),
            "seed": r.match.seed,
            "returns": list(r.returns),
            "scores": json.loads(json.dumps(r.scores)),
            "actions": r.actions,
            "record": _digest(r.record),
        }
        for r in results
    ]


def campaign_outputs(name: str, workers: int) -> list[dict[str, Any]]:
    """Every game statistics dict of campaign ``name``, as JSON stores it."""
    results = run_tasks(CAMPAIGNS[name].tasks(), workers=workers, chunk=2)
    outputs: list[dict[str, Any]] = json.loads(json.dumps(results, sort_keys=True))
    return outputs


def outputs() -> dict[str, Any]:
    return {
        "tournaments": {name: tournament_outputs(name, 1) for name in TOURNAMENTS},
        "campaigns": {name: campaign_outputs(name, 1) for name in CAMPAIGNS},
    }


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", sorted(TOURNAMENTS))
@pytest.mark.parametrize("workers", [1, 2])
def test_a_tournament_plays_as_on_main(name: str, workers: int, golden: dict[str, Any]) -> None:
    assert tournament_outputs(name, workers) == golden["tournaments"][name]


@pytest.mark.parametrize("name", sorted(CAMPAIGNS))
@pytest.mark.parametrize("workers", [1, 2])
def test_a_balance_campaign_plays_as_on_main(
    name: str, workers: int, golden: dict[str, Any]
) -> None:
    assert campaign_outputs(name, workers) == golden["campaigns"][name]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_batch.py --write")
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(outputs(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
