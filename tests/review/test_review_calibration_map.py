"""The review's calibration maps (issue 31 §2): the search's raw win chances mapped to the
win rates observed at them.  No game ships a map today: the maps fitted on the 1,000-game
runs made fresh games worse (docs/review.md, "Calibration")."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from porphyra.review.calibration import (
    MAP_FILE,
    CalibrationError,
    CalibrationMap,
    calibrate,
    load_maps,
    map_points,
)

RESULTS = Path(__file__).resolve().parents[2] / "docs/results/review"


def test_a_map_joins_its_points_by_straight_lines_from_0_to_1() -> None:
    mapping = CalibrationMap([(0.5, 0.4)])
    assert mapping(0.0) == 0.0 and mapping(1.0) == 1.0
    assert mapping(0.5) == pytest.approx(0.4)
    assert mapping(0.25) == pytest.approx(0.2)
    assert mapping(0.75) == pytest.approx(0.7)
    assert mapping(-0.3) == 0.0 and mapping(1.7) == 1.0  # clamped


def test_a_map_must_increase_and_stay_in_the_unit_square() -> None:
    with pytest.raises(ValueError, match="must increase"):
        CalibrationMap([(0.4, 0.5), (0.6, 0.45)])
    with pytest.raises(ValueError, match="must increase"):
        CalibrationMap([(0.4, 0.5), (0.4, 0.6)])
    with pytest.raises(ValueError, match="outside"):
        CalibrationMap([(0.4, 1.2)])


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_a_map_made_from_a_run_gives_back_that_runs_rates(game: str) -> None:
    # What --write-map would ship: the run's own bins, in order.
    summary = json.loads((RESULTS / game / "calibration.json").read_text())
    points = map_points(summary)
    mapping = CalibrationMap(points)
    for x, y in points:
        assert mapping(x) == pytest.approx(y, abs=1e-9)
    values = [mapping(i / 200) for i in range(201)]
    assert values == sorted(values) and values[0] == 0.0 and values[-1] == 1.0


@pytest.mark.parametrize("game", ["byzantium", "conspiracy"])
def test_no_map_ships_until_one_holds_on_fresh_games(game: str) -> None:
    # The design runs' maps made the validation runs (fresh deals) worse: ECE 0.020 to
    # 0.043 (Byzantium), 0.049 to 0.063 (Conspiracy).  So the review shows the search's
    # estimates as they are, and the measured files say so.
    validation = json.loads((RESULTS / f"{game}-validation" / "calibration.json").read_text())
    assert validation["ece"] > validation["raw"]["ece"]  # the map did not hold
    for raw in (0.0, 0.1234, 0.55, 0.85, 1.0):
        assert calibrate(game, raw) == round(raw, 4)


def test_a_game_without_a_map_keeps_the_raw_estimate() -> None:
    assert calibrate("no-such-game", 0.61234) == 0.6123


def test_a_win_chance_that_is_not_a_number_is_refused() -> None:
    mapping = CalibrationMap([(0.5, 0.4)])
    for raw in (math.nan, math.inf, -math.inf):
        with pytest.raises(ValueError, match="finite"):
            mapping(raw)
        with pytest.raises(ValueError, match="finite"):
            calibrate("byzantium", raw)
        with pytest.raises(ValueError, match="finite"):
            calibrate("no-such-game", raw)  # (NaN would reach the review's JSON)
    assert calibrate("no-such-game", 1.3) == 1.0 and calibrate("no-such-game", -0.2) == 0.0


def test_the_shipped_maps_file_loads() -> None:
    source = Path(__file__).resolve().parents[2] / "src/porphyra/review" / MAP_FILE
    assert load_maps(source) == {}  # (none holds yet: see the test above)


@pytest.mark.parametrize(
    "text",
    [
        None,  # no file
        "{broken",
        "[]",
        '{"byzantium": {"games": 3}}',
        '{"byzantium": {"points": [[0.5]]}}',
        '{"byzantium": {"points": [[0.4, 0.5], [0.6, 0.45]]}}',
        '{"byzantium": {"points": [[0.5, NaN]]}}',
        '{"byzantium": {"points": [["a", 0.5]]}}',
        '{"byzantium": {"points": 7}}',
    ],
)
def test_a_damaged_maps_file_is_refused_naming_the_file(tmp_path: Path, text: str | None) -> None:
    source = tmp_path / "calibration.json"
    if text is not None:
        source.write_text(text, encoding="utf-8")
    with pytest.raises(CalibrationError, match="calibration data") as caught:
        load_maps(source)
    assert caught.value.msgargs == (str(source),)
    assert caught.value.__cause__ is not None  # the cause, for the developer
