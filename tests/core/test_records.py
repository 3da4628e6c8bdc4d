"""Records: save, load, replay, and clear errors for corrupt files (DESIGN.md records)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import porphyra
from porphyra import record as records
from porphyra.core.errors import RecordError, UnknownGameError
from porphyra.core.playout import random_playout
from porphyra.core.registry import load_game_version
from porphyra.games.byzantium import ByzantiumGame


def _game_state(seed: int = 3) -> porphyra.State:
    state = porphyra.load_game("byzantium", first_emperor=1).new_initial_state(seed=seed)
    random_playout(state, random.Random(seed))
    return state


def test_save_load_replay_round_trip(tmp_path: Path) -> None:
    state = _game_state()
    path = tmp_path / "game.json"
    records.save(state, path)
    rec = records.load(path)
    # a record names the deck it was played with (rules section 6)
    assert rec["game"] == "byzantium" and rec["options"] == {"first_emperor": 1, "deck": "v6"}
    assert rec["version"] == "2"
    assert rec["seed"] == 3 and rec["result"]["returns"] == state.returns()
    again = records.replay(rec)
    assert records.dumps(again) == path.read_text()


def test_replay_prefix_for_stepping_and_undo() -> None:
    state = _game_state()
    rec = records.to_record(state)
    for n in (0, 1, 5):
        prefix = records.replay(rec, upto=n)
        assert [str(a) for _, a in prefix.history] == [e["action"] for e in rec["actions"][:n]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{oops", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "chess"}', "not a porphyra record"),
    ],
)
def test_corrupt_record_file_is_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    with pytest.raises(RecordError, match=message) as err:
        records.load(path)
    assert str(path) in str(err.value)


def test_record_with_a_bad_action_names_it() -> None:
    rec = records.to_record(_game_state())
    rec["actions"][3]["action"] = "meld dragons"
    with pytest.raises(RecordError, match=r"action #4 'meld dragons' does not apply"):
        records.replay(rec)


def test_record_with_wrong_player_or_version_or_game() -> None:
    rec = records.to_record(_game_state())
    bad = json.loads(json.dumps(rec))
    # The second action is the Foe's redraw, after the Emperor's: the Emperor cannot act.
    bad["actions"][1]["player"] = 1 - bad["actions"][1]["player"]
    with pytest.raises(RecordError, match="recorded for player"):
        records.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["version"] = "0"
    with pytest.raises(RecordError, match="rules version"):
        records.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["game"] = "chess"
    with pytest.raises(RecordError, match="unknown game"):
        records.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["seed"] = "seven"
    with pytest.raises(RecordError, match="seed"):
        records.replay(bad)


def test_load_game_unknown_name() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        porphyra.load_game("chess")


def test_record_result_must_match_its_replay() -> None:
    rec = records.to_record(_game_state())
    assert rec["result"] is not None
    bad = json.loads(json.dumps(rec))
    bad["result"]["returns"] = [r * -1 + 0.5 for r in bad["result"]["returns"]]
    with pytest.raises(RecordError, match="does not match its replay"):
        records.replay(bad)
    bad = json.loads(json.dumps(rec))
    bad["actions"] = bad["actions"][:3]
    with pytest.raises(RecordError, match="do not end the game"):
        records.replay(bad)


def test_record_action_after_the_end_is_refused() -> None:
    rec = records.to_record(_game_state())
    rec["actions"].append(dict(rec["actions"][-1]))
    with pytest.raises(RecordError, match="after the end of the game"):
        records.replay(rec)


def test_record_player_must_be_an_integer_and_json_not_too_deep(tmp_path: Path) -> None:
    rec = records.to_record(_game_state())
    rec["actions"][0]["player"] = True
    with pytest.raises(RecordError, match="action #1"):
        records.replay(rec)
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(RecordError, match="nested too deeply"):
        records.load(path)


def test_records_of_rules_version_1_replay_as_they_were_played() -> None:
    """Records made before deck versioning and B-R11 name no deck and rules version 1: they
    replay with deck v1 and the old Negotiation sequence, and save back unchanged."""
    old = load_game_version("byzantium", "1", {"first_emperor": 1}).new_initial_state(seed=5)
    random_playout(old, random.Random(5))
    rec = records.to_record(old)
    assert rec["version"] == "1" and rec["options"] == {"first_emperor": 1}
    again = records.replay(json.loads(json.dumps(rec)))
    assert records.to_record(again) == rec
    assert isinstance(again.game, ByzantiumGame) and again.game.cardset.version == "v1"


def test_a_record_of_an_unknown_rules_version_is_refused() -> None:
    rec = records.to_record(_game_state())
    rec["version"] = "99"
    with pytest.raises(RecordError, match="version"):
        records.replay(rec)


# ---------------------------------------------------------------- clocks (issue 15)
def _clocked(rec: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(json.dumps(rec))
    out["clock"] = {"kind": "turn", "per_move_s": 60, "timeout_bot": "easy", "takeover_after": 2}
    out["clock_events"] = [
        {"event": "timeout", "player": 1, "action": 3, "bot": "easy"},
        {"event": "takeover", "player": 1, "action": 5, "reason": "timeouts", "bot": "easy"},
        {"event": "return", "player": 1, "action": len(rec["actions"])},
    ]
    return out


def test_records_without_clock_fields_are_as_before_and_clock_fields_change_no_replay() -> None:
    state = _game_state()
    rec = records.to_record(state)
    assert "clock" not in rec and "clock_events" not in rec  # the format is unchanged
    again = records.replay(records.validate(_clocked(rec)))
    assert records.dumps(again) == records.dumps(state)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"clock": "fast"}, "'clock' must be an object"),
        ({"clock_events": {}}, "'clock_events' must be a list"),
        ({"clock_events": [{"event": "flag", "player": 0, "action": 0}]}, "clock event #1"),
        ({"clock_events": [{"event": "timeout", "player": 0, "action": 10**6}]}, "clock event #1"),
        ({"clock_events": [{"event": "return", "player": True, "action": 0}]}, "clock event #1"),
        ({"clock_events": [{"event": "return", "player": -7, "action": 0}]}, "clock event #1"),
        ({"clock_events": [{"event": "return", "player": 10**30, "action": 0}]}, "clock event #1"),
        (
            {"clock_events": [{"event": "timeout", "player": 0, "action": 0, "bot": {"a": 1}}]},
            "clock event #1",
        ),
        (
            {"clock_events": [{"event": "timeout", "player": 0, "action": 0, "bot": "[red]x[/]"}]},
            "clock event #1",
        ),
    ],
)
def test_bad_clock_fields_are_refused(change: dict[str, Any], message: str) -> None:
    rec = {**records.to_record(_game_state()), **change}
    with pytest.raises(RecordError, match=message):
        records.validate(rec)


def test_replay_shows_the_clock_and_its_events() -> None:
    from rich.console import Console

    from porphyra.cli.replay import run_replay
    from porphyra.cli.views import view_for

    rec = _clocked(records.to_record(_game_state()))
    console = Console(record=True, width=120)
    run_replay(rec, console, view_for("byzantium"), pause=False)
    text = console.export_text()
    assert "Clock: turn-based, 60 s a move" in text
    assert "taken over after 2 timeouts" in text
    before_fourth = text.split("  4. Seat")[0]
    assert "⏱ Seat 2 ran out of time: the easy bot moves for them." in before_fourth  # player 1
    total = len(rec["actions"])
    back = text.index("⏱ Seat 2 is back")
    assert text.index(f"{total:>3}. Seat") < back < text.index("End of record")


def test_a_record_with_a_huge_number_is_a_clear_error() -> None:
    text = json.dumps({**records.to_record(_game_state()), "seed": 123456789})
    with pytest.raises(RecordError, match="too long to read"):
        records.loads(text.replace("123456789", "9" * 5000))
    rec = {**records.to_record(_game_state()), "seed": 2**300}
    with pytest.raises(RecordError, match="too large"):
        records.validate(rec)
