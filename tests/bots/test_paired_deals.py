"""``bench/paired_deals.py``: a bot's score over paired deals, and two arms compared deal
by deal (issue 31's screens)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import ROOT, load_script


@pytest.fixture(scope="module")
def paired() -> ModuleType:
    return load_script(ROOT / "bench" / "paired_deals.py")


def write_games(path: Path, bot: str, other: str, results: dict[int, tuple[int, int]]) -> Path:
    """A games.csv: per deal seed, ``bot``'s result in each seat order (1 win, 0 draw,
    -1 loss)."""
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=["seed", "seats", "returns"])
        writer.writeheader()
        for seed, (first, second) in results.items():
            writer.writerow(
                {"seed": seed, "seats": json.dumps([bot, other]), "returns": f"[{first}, 0]"}
            )
            writer.writerow(
                {"seed": seed, "seats": json.dumps([other, bot]), "returns": f"[0, {second}]"}
            )
    return path


def test_deal_scores_and_the_paired_difference_of_two_arms(
    paired: ModuleType, tmp_path: Path
) -> None:
    a = write_games(tmp_path / "a.csv", "new", "easy", {1: (1, 1), 2: (1, -1), 3: (-1, -1)})
    b = write_games(tmp_path / "b.csv", "old", "easy", {1: (1, -1), 2: (1, -1), 4: (1, 1)})
    assert paired.deal_scores([a], "new") == [1.0, 0.5, 0.0]
    diff = paired.compare([a], "new", [b], "old", seed=3)
    # Deals 1 and 2 are common: +0.5 and 0.
    assert diff["deals"] == 2 and diff["difference"] == pytest.approx(0.25)
    assert (diff["deals_better"], diff["deals_same"], diff["deals_worse"]) == (1, 1, 0)
    lo, hi = diff["normal_ci95"]
    assert lo < 0.25 < hi
    with pytest.raises(ValueError, match="share 0 deals"):
        paired.compare(
            [a], "new", [write_games(tmp_path / "c.csv", "old", "easy", {9: (1, 1)})], "old"
        )
