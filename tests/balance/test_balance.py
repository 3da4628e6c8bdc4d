"""The balance lab: campaigns, per-game statistics, figures, reports, the tuner and the CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from porphyra.balance import analysis, lab, report, stats, tune
from porphyra.balance.campaign import Campaign, play_task, run_tasks, seat_assignments
from porphyra.cli import app
from porphyra.cli.balance import normalize_ray_flag
from porphyra.games.byzantium.cards import deck_path

SMALL = Campaign("byzantium", {"deck": "v1"}, (("random", "easy"),), 6, 3)


def test_campaign_rotates_each_pairing_over_the_seats_on_the_same_deals() -> None:
    tasks = Campaign("byzantium", {}, (("easy", "random"), ("easy", "easy")), 5, 10).tasks()
    first = [t for t in tasks if t.pairing == 0]
    assert len(first) == 6  # 5 games rounded up to whole rotations of 2 seats
    assert [t.seats for t in first[:2]] == [("easy", "random"), ("random", "easy")]
    assert first[0].seed == first[1].seed == 10 and first[2].seed == 11
    assert [t.index for t in tasks] == list(range(len(tasks)))
    # issue 30: a symmetric pairing's rotations seat the same bots: one game per deal
    second = [t for t in tasks if t.pairing == 1]
    assert [t.seed for t in second] == [10, 11, 12, 13, 14]
    assert {(t.seats, t.rotation) for t in second} == {(("easy", "easy"), 0)}


def test_seat_assignments_leave_out_rotations_that_repeat_a_seating() -> None:
    assert seat_assignments(("easy", "easy")) == [(0, ("easy", "easy"))]
    assert [s for _, s in seat_assignments(("a", "a", "b"))] == [
        ("a", "a", "b"),
        ("a", "b", "a"),
        ("b", "a", "a"),
    ]
    assert len(seat_assignments(("a", "a", "a", "a"))) == 1


def test_a_symmetric_campaign_plays_no_game_twice() -> None:
    # Issue 30: every rotation of easy against easy used to replay the same game.  Replay
    # each task of the campaign in full and compare the whole action histories.
    from porphyra.bots.selfplay import play_bot_game
    from porphyra.tournament.runner import cached_game

    campaign = Campaign("byzantium", {"deck": "v3"}, (("easy", "easy"),), 6, 9_000_000)
    tasks = campaign.tasks()
    histories = []
    for task in tasks:
        state = play_bot_game(cached_game(task.game, task.options), task.seats, task.seed)
        histories.append(tuple((seat, str(a)) for seat, a in state.history))
    assert len(tasks) == 6
    assert len(set(histories)) == 6
    results = run_tasks(tasks)
    assert len({r["digest"] for r in results}) == 6
    figures = analysis.summarize("byzantium", results)
    assert figures["games"] == figures["distinct_games"] == 6
    # the digest tells a replayed game from a new one: the same task twice is one game
    assert analysis.distinct_games([results[0], play_task(tasks[0])]) == 1


def test_conspiracy_campaigns_rotate_three_seats_and_play_each_lo_in_solo() -> None:
    three = Campaign("conspiracy", {"players": 3}, (("easy", "random", "random"),), 3, 0)
    assert Counter(t.seats.index("easy") for t in three.tasks()) == {0: 1, 1: 1, 2: 1}
    solo = Campaign("conspiracy", {}, (("easy",),), 4, 0, ("farmer", "mage"))
    tasks = solo.tasks()
    assert [t.options["opponent"] for t in tasks] == ["farmer", "mage"] * 2
    assert {t.seed for t in tasks} == {0, 1}


def test_results_are_the_same_in_one_process_and_in_two() -> None:
    one = run_tasks(SMALL.tasks(), workers=1)
    two = run_tasks(SMALL.tasks(), workers=2, chunk=1)
    assert one == two
    assert [r["index"] for r in one] == list(range(6))


def test_a_campaign_on_a_local_ray_instance_gives_the_local_results() -> None:
    pytest.importorskip("ray")
    assert run_tasks(SMALL.tasks(), ray_address="local") == run_tasks(SMALL.tasks())


def test_byzantium_collector_counts_match_the_record() -> None:
    stats = play_task(SMALL.tasks()[0])
    melded = sum(row[2][0] + row[2][1] for row in stats["cards"].values())
    assert melded > 0
    # every meld decision's cards are counted once, for its seat
    turns = [t["turn"] for t in stats["turns"]]
    assert turns == list(range(1, len(turns) + 1))
    assert turns[-1] == stats["end_turn"]
    assert stats["collapse"] == (stats["end_turn"] < 12 or stats["final"]["tt"] <= 0)
    for turn, byz, foe, legacy in stats["melds"]:
        assert 1 <= turn <= 12 and byz >= 0 and foe >= 0 and legacy >= 0


def test_advantage_counts_draws_as_half_and_tests_wins_against_losses() -> None:
    a = stats.advantage(60, 10, 30)
    assert a["share"]["rate"] == pytest.approx(0.65)
    low, high = a["share"]["ci95"]
    assert low < 0.65 < high
    assert a["p_value"] < 0.01  # 60 wins to 30 losses is not chance
    assert stats.advantage(50, 0, 50)["p_value"] == pytest.approx(1.0)


def test_win_rate_differences_are_within_games_and_wide_for_few_games() -> None:
    # Issue 30: no shrinkage; a card behind 6 games, all won by its melder, gets a wide
    # interval (the old shrunk figure was +2.8 [2.7-3.0] points)
    few = stats.within_game_difference([1.0] * 6)
    assert few["diff"] == 1.0 and few["games"] == 6
    assert few["ci95"][0] < 0.3 and few["ci95"][1] == 1.0
    many = stats.within_game_difference([1.0, -1.0, 1.0, 0.0] * 250)
    assert many["diff"] == pytest.approx(0.25)
    assert many["ci95"][0] < 0.25 < many["ci95"][1]
    assert many["ci95"][1] - many["ci95"][0] < 0.12
    assert many["p_value"] < 0.001  # 500 games won by the melder to 250 lost
    assert stats.within_game_difference([])["diff"] is None
    # a game where both seats or neither melded it says nothing within the game
    assert stats.within_game([1.0, 0.0], [True, True]) is None
    assert stats.within_game([0.0, 1.0], [True, False]) == -1.0
    assert stats.within_game([1.0, 0.0, 0.0], [True, False, True]) == pytest.approx(0.5)


def test_unpaired_differences_are_wide_for_few_games() -> None:
    few = stats.unpaired_difference([1.0] * 3, [0.0, 1.0] * 50)
    assert few["diff"] == pytest.approx(0.5)
    assert few["ci95"][1] - few["ci95"][0] > 0.5
    assert stats.unpaired_difference([], [1.0])["diff"] is None


def test_per_card_differences_count_each_game_once() -> None:
    melded_by_0 = {"tagmata": [[1, 1], [0, 0], [1, 0], [0, 0]]}
    melded_by_both = {"tagmata": [[1, 1], [0, 0], [1, 1], [0, 0]]}
    games = [_game(0, [[0, 0]], [1, 0], melded_by_0)] * 3 + [
        _game(0, [[0, 0]], [1, 0], melded_by_both)
    ] * 5
    d = analysis.byzantium(games)["cards"]["tagmata"]["win_rate_difference"]
    assert d["games"] == 3 and d["diff"] == 1.0  # the 5 games melded by both tell nothing


def test_skill_table_counts_each_game_once_with_repeated_specs() -> None:
    # easy in two seats against one random: one observation per game, not two
    games = [
        {"seats": ["easy", "easy", "random"], "returns": [1.0, 0.0, 0.0]},
        {"seats": ["easy", "random", "easy"], "returns": [0.0, 1.0, 0.0]},
    ]
    (row,) = analysis.skill_table(games)
    assert (row["bot"], row["against"]) == ("easy", "random")
    # game 1: the winning easy beats random (1), the other ties it at a loss (½): 0.75
    # game 2: random beats both: 0
    assert (row["wins"], row["draws"], row["losses"]) == (1, 0, 1)
    assert row["share"]["n"] == 2 and row["share"]["rate"] == pytest.approx(0.375)


def test_summary_and_report_hold_the_figures(tmp_path: Path) -> None:
    summary = lab.run_lab(SMALL, "porphyra balance byzantium (test)")
    assert summary["cards"]["version"] == "v1"
    figures = summary["pairings"][0]["figures"]
    assert figures["games"] == 6
    fe = figures["first_emperor"]
    assert fe["wins"] + fe["draws"] + fe["losses"] == 6
    assert sum(figures["collapses_by_turn"].values()) + figures["full_games"] == 6
    assert summary["skill"][0]["bot"] == "easy" and summary["skill"][0]["against"] == "random"
    summary_path, html_path = report.write(summary, tmp_path)
    assert json.loads(summary_path.read_text()) == json.loads(json.dumps(summary))
    page = html_path.read_text()
    assert page.count("data:image/png;base64,") >= 3  # plots are embedded
    assert 'src="http' not in page  # self-contained


def test_conspiracy_summary_has_seat_order_and_locations() -> None:
    campaign = Campaign("conspiracy", {"players": 2}, (("random", "random"),), 2, 0)
    figures = lab.run_lab(campaign, "test")["pairings"][0]["figures"]
    assert set(figures["seat_order"]) == {"1", "2"}
    assert figures["locations"] and figures["lord_values"] and figures["points_by_category"]


def test_apply_knobs_changes_forces_and_copies_within_the_rules() -> None:
    base = json.loads(deck_path("v1").read_text())
    deck = tune.apply_knobs(
        base, {"foe_early_people_force": -9, "byz_chronicle_copies": -2, "foe_raiders_copies": 1}
    )
    by_slug = {c["slug"]: c for c in deck["cards"]}
    old = {c["slug"]: c for c in base["cards"]}
    assert by_slug["huns"]["force"] == 0  # forces never go below 0
    assert by_slug["chronicle"]["copies"] == 1 and by_slug["raiders"]["copies"] == 7
    for slug, card in by_slug.items():  # names, types, Ages and uniqueness are fixed
        for key in ("name", "type", "ages", "unique", "deck"):
            assert card.get(key) == old[slug].get(key)
        if card.get("unique"):
            assert card["copies"] == 1
    with pytest.raises(ValueError, match="unknown knob"):
        tune.apply_knobs(base, {"no_such_knob": 1})


def test_tuner_runs_trials_and_returns_the_best_measured() -> None:
    base = json.loads(deck_path("v1").read_text())
    best, metrics, history = tune.tune(base, trials=2, games=4, seed=0)
    assert len(history) == 2 and history[0]["values"] == {k.name: 0 for k in tune.KNOBS}
    assert min(h["loss"] for h in history) == pytest.approx(
        tune.loss(metrics, sum(abs(v) for v in best.values()))
    )


def test_tuner_measures_each_candidate_with_every_pairing() -> None:
    # Issue 11: a deck balanced for easy need not stay balanced between search bots, so
    # the tuner can put several pairings in the loop; their distances to the targets add.
    base = json.loads(deck_path("v2").read_text())
    pairings = [("easy", "easy"), ("random", "random")]
    best, metrics, history = tune.tune(base, trials=2, games=4, seed=0, pairings=pairings)
    assert [h["pairings"][1]["bots"] for h in history] == [["random", "random"]] * 2
    assert len(metrics) == 2
    assert tune.loss(metrics, 0) == pytest.approx(
        tune.loss(metrics[0], 0) + tune.loss(metrics[1], 0)
    )
    alone = tune.measure(tune.apply_knobs(base, best), 4, 0, bots=("random", "random"))
    assert alone == metrics[1]  # the same deals give the same figures


def test_balance_cli_writes_the_report(tmp_path: Path) -> None:
    out = tmp_path / "lab"
    result = CliRunner().invoke(
        app,
        [
            "balance",
            "byzantium",
            "--bots",
            "random,easy",
            "--games",
            "2",
            "--workers",
            "1",
            "--deck",
            "v1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text())
    assert summary["command"].startswith("porphyra balance byzantium")
    assert (out / "report.html").exists()


def test_a_bare_ray_flag_means_a_local_instance() -> None:
    assert normalize_ray_flag(["balance", "byzantium", "--ray"])[-1] == "local"
    assert normalize_ray_flag(["balance", "x", "--ray", "--games", "2"])[3] == "local"
    assert normalize_ray_flag(["balance", "x", "--ray", "ray://h:1"])[3] == "ray://h:1"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["balance", "byzantium", "--bots", "easy,nobot"], "nobot"),
        (["balance", "conspiracy", "--deck", "v1"], "--deck applies to byzantium"),
        (["balance", "byzantium", "--players", "3"], "--players applies to conspiracy"),
        (["balance", "byzantium", "--opponents", "all"], "for conspiracy"),
        (["balance", "conspiracy", "--tune"], "for byzantium"),
        (["balance", "byzantium", "--first-emperor", "1"], "No such option"),
        (["balance", "byzantium", "--deck", "v9", "--games", "2"], "v9"),
        (["balance", "chess"], "unknown game"),
    ],
)
def test_balance_cli_refuses_bad_input_with_a_clear_message(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_balance_flags_come_from_the_option_declaration() -> None:
    # Issue 12 "declare each thing once": the lab offers every declared game option as its
    # flag, except those it sets itself (seats and first player rotate on mirrored deals).
    import inspect

    from porphyra.cli.balance import LAB_CONTROLLED, balance_command, command_line
    from porphyra.cli.options import cli_options

    offered = set(inspect.signature(balance_command).parameters)
    declared = set(cli_options())
    assert declared - set(LAB_CONTROLLED) <= offered
    assert not offered & set(LAB_CONTROLLED)
    line = command_line(
        "conspiracy", ["easy,easy"], 10, 3, 2, None, Path("out"),
        {"players": 3, "bonus_locations": True}, None, None, False, 60,
    )  # fmt: skip
    assert "--players 3 --bonus-locations --out out" in line


def test_fine_knobs_move_one_card_each() -> None:
    base = json.loads(deck_path("v1").read_text())
    deck = tune.apply_knobs(base, {"mamluks_force": 1}, tune.FINE_KNOBS)
    changed = [c["slug"] for c, o in zip(deck["cards"], base["cards"], strict=True) if c != o]
    assert changed == ["mamluks"]
    assert set(tune.KNOB_SETS) == {"groups", "fine"}


def test_pairings_read_bot_specs_with_options() -> None:
    from porphyra.cli.balance import _pairings

    assert _pairings(["easy,ismcts:iterations=20,exploration=0.5"], "byzantium", None) == (
        ("easy", "ismcts:iterations=20,exploration=0.5"),
    )
    assert _pairings(None, "conspiracy", 3) == (("easy", "easy", "easy"),)


def _game(
    first: int, turns: list[list[int]], final: list[int], cards: dict[str, Any]
) -> dict[str, Any]:
    return {
        "returns": [1.0, -1.0],
        "first": first,
        "collapse": False,
        "end_turn": len(turns),
        "actions": 10,
        "final": {"tt": 10, "lt": final},
        "turns": [{"turn": i + 1, "tt": 10, "lt": lt} for i, lt in enumerate(turns)],
        "melds": [],
        "cards": cards,
    }


def test_legacy_gain_by_turn_and_first_emperor_draw_shares() -> None:
    # Two games, one with seat 1 as the first Emperor: the first Emperor is the Emperor on
    # odd turns (section 1), so each turn's gain is read off that turn's Emperor's LT.
    one = _game(
        0, [[10, 10], [12, 10], [12, 11]], [13, 11], {"tagmata": [[2, 1], [0, 0], [1, 0], [0, 0]]}
    )
    two = _game(
        1, [[10, 10], [10, 13], [9, 13]], [9, 14], {"tagmata": [[0, 1], [0, 0], [0, 1], [0, 0]]}
    )
    figures = analysis.byzantium([one, two])
    # turn 1: first Emperor +2 and +3; turn 2: second Emperor +1 and -1; turn 3: +1 and +1
    assert figures["emperor_legacy_gain_by_turn"] == {"1": 2.5, "2": 0.0, "3": 1.0}
    # tagmata entered the first Emperor's hand 2 + 1 times out of 4
    assert figures["cards"]["tagmata"]["first_emperor_share"] == pytest.approx(0.75)


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


def _edited_v3(tmp_path: Path, slug: str, force: int) -> Path:
    deck = json.loads(deck_path("v3").read_text())
    for card in deck["cards"]:
        if card["slug"] == slug:
            card["force"] = force
    deck["version"] = None
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(deck))
    return path


def test_compare_pairs_each_game_with_its_twin_on_the_other_card_set(tmp_path: Path) -> None:
    edited = _edited_v3(tmp_path, "siege-train", 2)
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
    edited = _edited_v3(tmp_path, "siege-train", 2)
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
        ("siege-train.force=-1", "force must be 0 or more"),
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


def test_game_shape_figures_of_a_hand_made_game() -> None:
    from porphyra.balance import shape

    turns = [[0, 0], [3, 0], *[[3, 0]] * 6, *[[3, 5]] * 3, [6, 5]]
    game = _game(0, turns, [6, 5], {})
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
    from porphyra.bots.selfplay import play_bot_game
    from porphyra.tournament.runner import cached_game

    with pytest.raises(ValueError, match="styles are for byzantium"):
        play_bot_game(cached_game("conspiracy", {"players": 2}), ["easy:style=legacy", "easy"], 0)


def test_the_lab_reads_records_and_reports_the_same_figures(tmp_path: Path) -> None:
    from porphyra import record
    from porphyra.balance.records import summarize_records
    from porphyra.bots.selfplay import play_bot_game
    from porphyra.tournament.runner import cached_game

    tasks = Campaign("byzantium", {"deck": "v3"}, (("easy", "random"),), 4, 9_000_000).tasks()
    game = cached_game("byzantium", {"deck": "v3"})
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
    other = play_bot_game(cached_game("conspiracy", {"players": 2}), ["random", "random"], 0)
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


def test_tuner_and_tournaments_play_no_game_twice() -> None:
    # Issue 30: the tuner measures through campaigns (one game a deal for easy vs easy);
    # a tournament refuses a bot named twice, so its rotations always seat differently.
    from porphyra.tournament.schedule import round_robin

    base = json.loads(deck_path("v3").read_text())
    assert tune.measure(base, 4, 9_000_000).games == 4
    tasks = Campaign("byzantium", {}, (("easy", "easy"),), 4, 9_000_000).tasks()
    assert len({(t.seed, t.seats) for t in tasks}) == 4
    matches = round_robin("conspiracy", {"players": 3}, ["easy", "random", "greedy"], 3, 6, 0)
    assert len({(m.seed, m.seats) for m in matches}) == len(matches) == 6
    with pytest.raises(ValueError, match="named twice"):
        round_robin("byzantium", {}, ["easy", "easy"], 2, 2, 0)
