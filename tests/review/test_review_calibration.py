"""The calibration script of the review (``bench/review_calibration.py``): its binning,
intervals and scores on known data, and a tiny end-to-end run writing its files."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.scripts import ROOT, load_script

SCRIPT = ROOT / "bench" / "review_calibration.py"


@pytest.fixture(scope="module")
def cal() -> ModuleType:
    return load_script(SCRIPT)


def test_bins_rates_and_scores(cal: ModuleType) -> None:
    games = [
        [(0.05, 0.0), (0.95, 0.0)],
        [(0.15, 1.0), (0.95, 1.0), (1.0, 1.0)],
        [(0.15, 0.0)],
    ]
    summary = cal.calibration(games, seed=1)
    assert summary["games"] == 3 and summary["decisions"] == 6
    bins = {round(b["lo"], 1): b for b in summary["bins"]}
    assert bins[0.0]["decisions"] == 1 and bins[0.0]["observed"] == 0.0
    assert bins[0.1]["games"] == 2 and bins[0.1]["observed"] == 0.5
    assert bins[0.9]["decisions"] == 3 and bins[0.9]["observed"] == pytest.approx(2 / 3)
    assert bins[0.9]["estimate"] == pytest.approx((0.95 + 0.95 + 1.0) / 3)
    assert bins[0.5]["observed"] is None and bins[0.5]["interval"] is None
    lo, hi = bins[0.9]["interval"]
    assert 0.0 <= lo <= 2 / 3 <= hi <= 1.0
    flat = [p for g in games for p in g]
    assert summary["brier"] == pytest.approx(sum((e - r) ** 2 for e, r in flat) / 6)
    gaps = [
        b["decisions"] * abs(b["estimate"] - b["observed"])
        for b in summary["bins"]
        if b["decisions"]
    ]
    assert summary["ece"] == pytest.approx(sum(gaps) / 6)


def test_a_tiny_run_writes_the_table_the_data_and_the_plot(
    cal: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "cal"
    args = ["--games", "2", "--iterations", "8", "--seed", "5", "--out", str(out)]
    summary = cal.main(args)
    stored = json.loads((out / "calibration.json").read_text(encoding="utf-8"))
    assert stored["games"] == 2 and stored["decisions"] == summary["decisions"] > 0
    assert stored["settings"]["seed"] == 5 and stored["settings"]["iterations"] == 8
    assert (out / "calibration.png").read_bytes()[:4] == b"\x89PNG"
    assert "| estimate | decisions |" in capsys.readouterr().out
    assert cal.main(args)["bins"] == summary["bins"]  # fixed seeds: the same measurement
    # The search's raw estimates of the same decisions, measured beside the review's.
    assert stored["raw"]["decisions"] == stored["decisions"]
    # No game ships a map (none held on fresh games), so the two agree today.
    assert stored["raw"]["bins"] == stored["bins"]


def test_a_map_is_written_from_a_runs_raw_bins(cal: ModuleType, tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    raw_bins: list[dict[str, Any]] = [
        {"decisions": 10, "estimate": 0.3, "observed": 0.25},
        {"decisions": 0, "estimate": None, "observed": None},
        {"decisions": 12, "estimate": 0.7, "observed": 0.6},
    ]
    summary = {
        "bins": [{"decisions": 22, "estimate": 0.5, "observed": 0.5}],
        "raw": {"bins": raw_bins},
        "settings": {"games": 40, "seed": 7, "bots": ["easy", "easy"], "iterations": 400},
    }
    (run / "calibration.json").write_text(json.dumps(summary), encoding="utf-8")
    maps = tmp_path / "maps.json"
    entry = cal.write_map("byzantium", run, maps)
    assert entry["points"] == [(0.3, 0.25), (0.7, 0.6)] and entry["seeds"] == [7, 46]
    assert json.loads(maps.read_text())["byzantium"]["points"] == [[0.3, 0.25], [0.7, 0.6]]
    raw_bins[2]["observed"] = 0.2  # a map that would reorder moves is refused
    (run / "calibration.json").write_text(json.dumps(summary), encoding="utf-8")
    with pytest.raises(ValueError, match="must increase"):
        cal.write_map("byzantium", run, maps)
