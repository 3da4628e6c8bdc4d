"""--set card edits and --vs-base (issue 30, 2c)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from porphyra.cli import app
from porphyra.games.byzantium.cards import deck_path


def test_set_edits_force_copies_and_refuses_what_section_6_forbids() -> None:
    from porphyra.balance.edits import EditError, apply_edits, parse_edit

    base = json.loads(deck_path("v3").read_text())
    deck = apply_edits(
        base, [parse_edit("siege-train.force=2"), parse_edit(" tagmata.copies = 6")], "v3"
    )
    by_slug = {c["slug"]: c for c in deck["cards"]}
    assert by_slug["siege-train"]["force"] == 2 and by_slug["tagmata"]["copies"] == 6
    assert deck["version"] is None and "siege-train.force=2" in deck["provenance"]
    changed = [c["slug"] for c, o in zip(deck["cards"], base["cards"], strict=True) if c != o]
    assert set(changed) == {"siege-train", "tagmata"}
    cases = [
        ("siege-trian.force=2", "did you mean siege-train"),
        ("siege-train.name=2", "unknown field 'name'"),
        ("siege-train.force=-1", "force must be 0 to 99"),
        ("siege-train.force=two", "expected CARD.FIELD=NUMBER"),
        ("hagia-sophia.copies=2", "unique"),
        ("hagia-sophia.legacy=2", "from deck v4 on"),
        ("hagia-sophia.legacy=4", "legacy must be 0 to 3"),
        ("tagmata.legacy=1", "not a Legacy card"),
    ]
    for text, message in cases:
        with pytest.raises(EditError, match=message):
            apply_edits(base, [parse_edit(text)], "v3")
    v4 = {**base, "version": "v4"}
    edited = apply_edits(v4, [parse_edit("hagia-sophia.legacy=2")], "v4")
    assert {c["slug"]: c for c in edited["cards"]}["hagia-sophia"]["legacy"] == 2
    assert base == json.loads(deck_path("v3").read_text())  # the base is never changed


def test_balance_cli_plays_an_edited_deck_against_its_base(tmp_path: Path) -> None:
    out = tmp_path / "edit"
    args = ["balance", "byzantium", "--deck", "v3", "--set", "siege-train.force=2"]
    args += ["--vs-base", "--games", "2", "--workers", "1", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["compare"][0]["version"] == "v3"
    assert "siege-train.force=2" in summary["compare"][1]["name"]
    assert {c["slug"]: c for c in json.loads((out / "cards.json").read_text())["cards"]}[
        "siege-train"
    ]["force"] == 2
    bad = CliRunner().invoke(
        app, ["balance", "byzantium", "--set", "nope.force=1", "--out", str(tmp_path / "x")]
    )
    assert bad.exit_code == 2 and "no card 'nope'" in bad.output
    assert not (tmp_path / "x").exists()  # a refused edit writes nothing
    args = ["balance", "byzantium", "--set", "siege-train.force=2", "--bots", "easy,nobot"]
    bad_bot = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "y")])
    assert bad_bot.exit_code == 2 and not (tmp_path / "y").exists()


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("infantry.copies=100000000", "copies must be 1 to 99"),
        ("siege-train.force=100", "force must be 0 to 99"),
        ("siege-train.force=٣", "expected CARD.FIELD=NUMBER"),  # ASCII digits only
        ("siege-train.force=" + "9" * 5000, "expected CARD.FIELD=NUMBER"),
    ],
)
def test_set_refuses_huge_and_non_ascii_numbers(text: str, says: str) -> None:
    from porphyra.balance.edits import EditError, parse_edit

    with pytest.raises(EditError, match=says):
        parse_edit(text)


def test_records_left_out_are_printed_as_text_not_markup(tmp_path: Path) -> None:
    # A record's own words (its game name, a reason quoting it) are neither Rich markup nor
    # terminal control codes when the lab says why it left the record out.
    from porphyra import record
    from porphyra.bots.selfplay import play_bot_game
    from porphyra.core.registry import load_game

    state = play_bot_game(load_game("byzantium"), ("random", "random"), 1)
    record.save(state, tmp_path / "good.json")
    bad = json.loads((tmp_path / "good.json").read_text())
    bad["actions"][0]["action"] = "meld [/x]\x1b[2J"  # an illegal move quoting markup, escapes
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app, ["balance", "byzantium", "--records", str(tmp_path), "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "left out" in result.output and "[/x]" in result.output
    assert "\x1b" not in result.output
