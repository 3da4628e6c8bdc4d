"""Game-shape figures, the designer's card table and the play styles (issue 30, 2d/2e/2g)."""

from __future__ import annotations

from pathlib import Path

import pytest

from porphyra.balance import analysis, lab, report
from porphyra.balance.campaign import Campaign, play_task, run_tasks
from porphyra.bots.selfplay import play_bot_game
from porphyra.core.registry import shared_game

from .helpers import SMALL, hand_made_game


def test_game_shape_figures_of_a_hand_made_game() -> None:
    from porphyra.balance import shape

    turns = [[0, 0], [3, 0], *[[3, 0]] * 6, *[[3, 5]] * 3, [6, 5]]
    game = hand_made_game(0, turns, [6, 5], {})
    # turn 1: seat 0 melds 2 LT of Legacy cards and wins the meld (+1); turn 2: seat 1
    # loses with no LT left (-0); turn 8: seat 1 melds 4 and wins (+1); turn 11: seat 0
    # melds 3 and ties (ties go to the Foe) with TT unchanged (0): read off the LT
    game["melds"] = [[1, 5, 3, 2], [2, 1, 4, 0], [8, 6, 2, 4], [11, 3, 3, 3]]
    figures = shape.shape([game])
    assert figures["turns_played"]["mean"] == 12
    assert figures["leader_wins"]["after_turn_4"]["rate"] == 1.0  # seat 0 led 3-0 and won
    assert figures["leader_wins"]["after_turn_8"]["rate"] == 0.0  # seat 1 led 5-3 and lost
    assert figures["leader_wins"]["after_turn_8_by_3"]["n"] == 0  # a 2-LT lead
    assert figures["lead_changes"]["mean"] == 2  # seat 0, then seat 1, then seat 0
    sources = figures["legacy_sources"]
    assert sources["melded_legacy_cards"]["mean"] == 9  # 2 + 4 + 3
    # seat 0: +1 (turn 1) and 6 - 3 - 3 = 0 (turn 11); seat 1: 0 (turn 2) and +1 (turn 8)
    assert sources["meld_results_net"]["mean"] == 2
    assert sources["ratio"] == pytest.approx(2 / 9, abs=1e-3)
    wins = figures["emperor_meld_wins_by_age"]
    assert [wins[a]["rate"] for a in ("early", "middle", "late")] == [0.5, 1.0, 0.0]
    assert figures["collapse_timing"]["early"]["rate"] == 0.0


def test_every_run_reports_decisions_and_their_obvious_choices() -> None:
    stats = play_task(SMALL.tasks()[1])
    decisions = stats["decisions"]
    assert {"meld (byzantine)", "meld (foe)", "redraw (byzantine)"} <= set(decisions)
    for count, options, differed in decisions.values():
        assert count >= 1 and options >= count * 0 and 0 <= differed <= count
    # every meld decision offers at least the empty meld
    assert decisions["meld (byzantine)"][1] >= decisions["meld (byzantine)"][0]
    figures = analysis.summarize("byzantium", [stats])["shape"]["decisions"]
    assert figures["meld (foe)"]["decisions"] == decisions["meld (foe)"][0]


def test_report_has_the_designer_card_table_csv_and_game_shape(tmp_path: Path) -> None:
    import csv

    from porphyra.balance import cards_table

    summary = lab.run_lab(SMALL, "test")
    listing = summary["cards"]["list"]
    assert listing["hagia-sophia"]["name"] == "Hagia Sophia"
    assert listing["hagia-sophia"]["deck"] == "byzantine" and listing["hagia-sophia"]["legacy"]
    report.write(summary, tmp_path)
    with (tmp_path / "cards.csv").open() as f:
        table = list(csv.reader(f))
    assert tuple(table[0]) == cards_table.COLUMNS
    played = summary["pairings"][0]["figures"]["cards"]
    assert len(table) == 1 + len(played)
    by_name = {row[1]: dict(zip(table[0], row, strict=True)) for row in table[1:]}
    slug = next(iter(played))
    row = by_name[listing[slug]["name"]]  # rows name cards, not slugs
    assert row["side"] in ("Byzantine", "Foe") and row["copies"] == str(listing[slug]["copies"])
    assert row["games behind"] == str(played[slug]["win_rate_difference"]["games"])
    page = (tmp_path / "report.html").read_text()
    assert 'class="sortable"' in page and "Game shape" in page
    assert "leader after turn 8 wins" in page and "meld (byzantine)" in page


def test_play_styles_are_legal_different_and_reported_per_pairing() -> None:
    from porphyra.bots import describe_bots, make_bot
    from porphyra.bots.byzantium_styles import STYLES

    assert set(STYLES) == {"legacy", "territory"}
    assert make_bot("easy:style=legacy").name == "easy:style=legacy"
    with pytest.raises(ValueError, match="unknown style"):
        make_bot("easy:style=nope")
    assert "easy:style=territory" in dict(describe_bots())["easy"]
    pairings = (("easy", "easy:style=legacy"), ("easy", "easy:style=territory"))
    campaign = Campaign("byzantium", {"deck": "v3"}, pairings, 4, 9_000_000)
    summary = lab.run_lab(campaign, "test")
    assert [p["bots"] for p in summary["pairings"]] == [list(p) for p in pairings]
    assert {(s["bot"], s["against"]) for s in summary["skill"]} == set(pairings)
    # a style changes the play: the same deals give other games than easy against easy
    plain = run_tasks(
        Campaign("byzantium", {"deck": "v3"}, (("easy", "easy"),), 2, 9_000_000).tasks()
    )
    styled = run_tasks(campaign.tasks())
    assert {r["digest"] for r in plain}.isdisjoint(r["digest"] for r in styled)


def test_a_play_style_is_refused_outside_byzantium() -> None:

    with pytest.raises(ValueError, match="styles are for byzantium"):
        play_bot_game(shared_game("conspiracy", {"players": 2}), ["easy:style=legacy", "easy"], 0)
