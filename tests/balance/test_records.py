"""The balance lab on records of people's games (issue 30, 2h)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from porphyra.balance import report
from porphyra.balance.campaign import Campaign, play_task
from porphyra.bots.selfplay import play_bot_game
from porphyra.cli import app
from porphyra.core.registry import shared_game


def test_the_lab_reads_records_and_reports_the_same_figures(tmp_path: Path) -> None:
    from porphyra import record
    from porphyra.balance.records import summarize_records

    tasks = Campaign("byzantium", {"deck": "v3"}, (("easy", "random"),), 4, 9_000_000).tasks()
    game = shared_game("byzantium", {"deck": "v3"})
    folder = tmp_path / "records"
    folder.mkdir()
    for t in tasks:  # seat 1 of the first two "played by a person"
        second: dict[str, Any] = {"kind": "human", "bot": None}
        if t.index >= 2:
            second = {"kind": "bot", "bot": t.seats[1]}
        seats: list[dict[str, Any]] = [{"kind": "bot", "bot": t.seats[0]}, second]
        state = play_bot_game(game, t.seats, t.seed)
        record.save(state, folder / f"game{t.index}.json", seats=seats)
    (folder / "copy.json").write_text((folder / "game0.json").read_text())
    (folder / "broken.json").write_text("{not json")
    unfinished = record.to_record(game.new_initial_state(seed=1))
    (folder / "unfinished.json").write_text(json.dumps(unfinished))
    other = play_bot_game(shared_game("conspiracy", {"players": 2}), ["random", "random"], 0)
    record.save(other, folder / "conspiracy.json")
    summary = summarize_records("byzantium", [folder], "test")
    assert summary["records"]["read"] == 4
    reasons = " ".join(summary["records"]["skipped"])
    for name in ("broken.json", "unfinished.json", "conspiracy.json"):
        assert name in reasons
    assert reasons.count("the same game as an earlier record") == 1  # copy.json / game0
    groups = {tuple(p["bots"]): p["figures"] for p in summary["pairings"]}
    assert set(groups) == {("easy", "human"), ("human", "random"), ("easy", "random")}
    assert groups[("easy", "random")]["games"] == 2
    # a record gives the statistics the lab collects while a bot game is played
    from porphyra.balance.records import record_game_stats

    live = play_task(tasks[3])
    again = record_game_stats(record.load(folder / "game3.json"), 3)
    for key in ("returns", "first", "turns", "melds", "cards", "decisions", "digest"):
        assert again[key] == live[key]
    report.write(summary, tmp_path / "out")
    assert "People's games: 4 finished records" in (tmp_path / "out" / "report.html").read_text()


def test_balance_cli_reads_records_and_refuses_an_empty_folder(tmp_path: Path) -> None:
    empty = CliRunner().invoke(app, ["balance", "byzantium", "--records", str(tmp_path)])
    assert empty.exit_code == 2 and "no finished byzantium record" in empty.output
    both = CliRunner().invoke(
        app, ["balance", "byzantium", "--records", str(tmp_path), "--bots", "easy,easy"]
    )
    assert both.exit_code == 2 and "--records" in both.output
    missing = CliRunner().invoke(app, ["balance", "byzantium", "--records", str(tmp_path / "x")])
    assert missing.exit_code == 2 and "Traceback" not in missing.output
