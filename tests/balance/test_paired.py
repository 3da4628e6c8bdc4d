"""The balance lab's paired comparison of two card sets and --until (issue 30, 2a/2b)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from porphyra.balance import lab, report
from porphyra.balance.campaign import Campaign
from porphyra.cli import app
from porphyra.games.byzantium.cards import deck_path

from .helpers import edited_v3


def test_paired_difference_uses_twin_games_and_mcnemar() -> None:
    from porphyra.balance import paired

    a = [1.0] * 10 + [0.0] * 90
    b = [0.0] * 10 + [0.0] * 90
    d = paired.paired_difference(a, b)
    assert d["diff"] == pytest.approx(-0.1) and d["discordant"] == [10, 0]
    assert d["p_value"] == pytest.approx(2 * 0.5**10, rel=1e-3)  # McNemar exact
    assert d["ci95"][0] < -0.1 < d["ci95"][1] < 0
    same = paired.paired_difference(a, a)
    assert same["diff"] == 0 and same["p_value"] == 1.0 and same["discordant"] == [0, 0]
    # identical games on both sides give a narrower interval than two independent samples
    assert same["ci95"][1] - same["ci95"][0] < 2 * same["unpaired_half_width"]
    with pytest.raises(ValueError):
        paired.paired_difference([1.0], [])
    m = paired.paired_mean([10.0, 12.0, 12.0, 11.0], [11.0, 12.0, 12.0, 12.0])
    assert m["diff"] == pytest.approx(0.5) and m["ci95"][0] < 0.5 < m["ci95"][1]
    assert 0 < m["p_value"] < 1
    assert paired.paired_mean([3.0, 4.0], [3.0, 4.0]) == {
        "diff": 0.0,
        "ci95": [0.0, 0.0],
        "p_value": 1.0,
        "games": 2,
    }


def test_compare_pairs_each_game_with_its_twin_on_the_other_card_set(tmp_path: Path) -> None:
    edited = edited_v3(tmp_path, "siege-train", 2)
    campaigns = [
        Campaign("byzantium", {"cards": str(p)}, (("easy", "easy"),), 4, 9_000_000)
        for p in (deck_path("v3"), edited)
    ]
    comparison = lab.run_compare(campaigns, "test")
    figures = comparison["pairings"][0]["figures"]
    first = figures["first_emperor"]
    assert first["paired"]["games"] == 4
    alone = lab.run_lab(campaigns[1], "test")["pairings"][0]["figures"]
    assert first["b"] == alone["first_emperor"]["share"]  # B is the edited deck's own run
    assert {"first_emperor", "collapse", "collapse_by_turn_3"} < set(figures)
    assert figures["turns_played"]["paired_mean"]["games"] == 4
    assert figures["turns_played"]["b"] == alone["shape"]["turns_played"]["mean"]
    page = report.write_compare(comparison, tmp_path / "cmp")
    assert "McNemar" in page.read_text() and "Game shape, means" in page.read_text()
    written = json.loads((tmp_path / "cmp" / "summary.json").read_text())
    assert written["pairings"][0]["figures"]["collapse"]["paired"]["games"] == 4
    assert (tmp_path / "cmp" / "set-2" / "report.html").exists()


def test_until_stops_when_the_interval_is_narrow_enough() -> None:
    campaign = Campaign("byzantium", {"deck": "v3"}, (("easy", "easy"),), 30, 9_000_000)
    summary = lab.run_lab(campaign, "test", until=0.3, batch=4)
    sampling = summary["sampling"]
    played = summary["campaign"]["games_played"]
    assert sampling["stopped_early"] and played < 30 and played % 4 == 0
    share = summary["pairings"][0]["figures"]["first_emperor"]["share"]
    assert (share["ci95"][1] - share["ci95"][0]) / 2 <= 0.3
    assert sampling["looks"] == played // 4
    # the games are those of a fixed campaign of the same size
    fixed = lab.run_lab(Campaign("byzantium", {"deck": "v3"}, (("easy", "easy"),), played,
                                 9_000_000), "test")  # fmt: skip
    assert fixed["pairings"] == summary["pairings"]
    capped = lab.run_lab(
        Campaign("byzantium", {"deck": "v3"}, (("easy", "easy"),), 4, 9_000_000),
        "test",
        until=0.01,
        batch=2,
    )
    assert not capped["sampling"]["stopped_early"] and "cap" in capped["sampling"]["reason"]
    assert capped["campaign"]["games_played"] == 4
    with pytest.raises(ValueError, match="--until"):
        lab.run_lab(campaign, "test", until=1.5)


def test_balance_cli_compares_two_card_sets_until_precise(tmp_path: Path) -> None:
    edited = edited_v3(tmp_path, "siege-train", 2)
    out = tmp_path / "cmp"
    args = ["balance", "byzantium", "--compare", str(deck_path("v3")), str(edited)]
    args += ["--games", "4", "--until", "0.01", "--batch", "2", "--workers", "1"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sampling"]["looks"] == 2 and "--until 0.01" in summary["command"]
    assert "on the same deals (paired)" in result.output
    bad = CliRunner().invoke(app, ["balance", "byzantium", "--until", "2", "--games", "2"])
    assert bad.exit_code == 2 and "--until" in bad.output
