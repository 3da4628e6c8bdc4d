"""The balance lab: campaigns, per-game statistics, figures, reports, the tuner and the CLI."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from porphyra.balance import analysis, lab, report, stats, tune
from porphyra.balance.campaign import Campaign, play_task, run_tasks, seat_assignments
from porphyra.bots.selfplay import play_bot_game
from porphyra.bots.version import BOTS_VERSION
from porphyra.cli import app
from porphyra.cli.balance import normalize_ray_flag
from porphyra.core.registry import shared_game
from porphyra.games.byzantium.cards import deck_path

from .helpers import SMALL, hand_made_game


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

    campaign = Campaign("byzantium", {"deck": "v3"}, (("easy", "easy"),), 6, 9_000_000)
    tasks = campaign.tasks()
    histories = []
    for task in tasks:
        state = play_bot_game(shared_game(task.game, task.options), task.seats, task.seed)
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
    games = [hand_made_game(0, [[0, 0]], [1, 0], melded_by_0)] * 3 + [
        hand_made_game(0, [[0, 0]], [1, 0], melded_by_both)
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
    assert summary["bots_version"] == BOTS_VERSION  # the bots that played the figures
    figures = summary["pairings"][0]["figures"]
    assert figures["games"] == 6
    fe = figures["first_emperor"]
    assert fe["wins"] + fe["draws"] + fe["losses"] == 6
    assert sum(figures["collapses_by_turn"].values()) + figures["full_games"] == 6
    assert summary["skill"][0]["bot"] == "easy" and summary["skill"][0]["against"] == "random"
    summary_path, html_path = report.write(summary, tmp_path)
    assert json.loads(summary_path.read_text()) == json.loads(json.dumps(summary))
    page = html_path.read_text()
    assert f"Bots version {BOTS_VERSION}" in page
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
    assert set(tune.KNOB_SETS) == {"groups", "fine", "legacy"}


def test_pairings_read_bot_specs_with_options() -> None:
    from porphyra.cli.balance import _pairings

    assert _pairings(["easy,ismcts:iterations=20,exploration=0.5"], "byzantium", None) == (
        ("easy", "ismcts:iterations=20,exploration=0.5"),
    )
    assert _pairings(None, "conspiracy", 3) == (("easy", "easy", "easy"),)


def test_legacy_gain_by_turn_and_first_emperor_draw_shares() -> None:
    # Two games, one with seat 1 as the first Emperor: the first Emperor is the Emperor on
    # odd turns (section 1), so each turn's gain is read off that turn's Emperor's LT.
    one = hand_made_game(
        0, [[10, 10], [12, 10], [12, 11]], [13, 11], {"tagmata": [[2, 1], [0, 0], [1, 0], [0, 0]]}
    )
    two = hand_made_game(
        1, [[10, 10], [10, 13], [9, 13]], [9, 14], {"tagmata": [[0, 1], [0, 0], [0, 1], [0, 0]]}
    )
    figures = analysis.byzantium([one, two])
    # turn 1: first Emperor +2 and +3; turn 2: second Emperor +1 and -1; turn 3: +1 and +1
    assert figures["emperor_legacy_gain_by_turn"] == {"1": 2.5, "2": 0.0, "3": 1.0}
    # tagmata entered the first Emperor's hand 2 + 1 times out of 4
    assert figures["cards"]["tagmata"]["first_emperor_share"] == pytest.approx(0.75)


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


def test_byzantium_collector_records_each_meld_as_resolved_after_a_negotiation() -> None:
    # B-R4: a Negotiation takes a Foe people out of the revealed Foe meld (and the Foe may put
    # another in), so the forces the lab compares are those the meld phase resolved: the log's
    # "The Byzantine meld wins X to Y" / "The Foe meld wins|ties Y to X", turn by turn.
    import re

    from porphyra.balance.collect import ByzantiumCollector

    game = shared_game("byzantium", {})
    negotiated = 0
    for seed in range(3):
        collector = ByzantiumCollector()
        state = play_bot_game(game, ("easy", "easy"), seed, observer=collector.before)
        melds = collector.finish(state)["melds"]
        lines = state.log_lines((-1,))  # type: ignore[attr-defined]
        resolved = []
        for line in lines:
            m = re.match(r"^The (Byzantine|Foe) meld (?:wins|ties) (\d+) to (\d+)", line)
            if m:
                a, b = int(m.group(2)), int(m.group(3))
                resolved.append((a, b) if m.group(1) == "Byzantine" else (b, a))
        negotiated += sum(line.startswith("Negotiation: seat") for line in lines)
        assert [(m[1], m[2]) for m in melds] == resolved
    assert negotiated > 0  # the games did take cards out of Foe melds
