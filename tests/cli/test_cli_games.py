"""Terminal client end to end on the real games: Byzantium and Conspiracy."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from porphyra import record as records
from porphyra.cli import app
from porphyra.cli.byzantium_cards import age_bucket
from porphyra.cli.byzantium_view import ByzantiumView
from porphyra.cli.conspiracy_parts import live_scores, pyramid
from porphyra.cli.conspiracy_view import ConspiracyView
from porphyra.cli.play import PASS_DEVICE
from porphyra.cli.views import log_entry
from porphyra.core.errors import InvalidActionError
from porphyra.core.registry import load_game

from .test_cli_generic import _check_no_leak

runner = CliRunner()


def _invoke(args: list[str], stdin: str | None = None) -> str:
    result = runner.invoke(app, args, input=stdin)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return result.output


# ---------------------------------------------------------------- bot against bot
@pytest.mark.parametrize(
    "args",
    [
        ["byzantium", "--seats", "random,random", "--seed", "3"],
        ["byzantium", "--seats", "random,random", "--seed", "4", "--first-emperor", "1"],
        ["conspiracy", "--seats", "random,random,random", "--seed", "3"],
        ["conspiracy", "--players", "4", "--seats", "random,random,random,random", "--seed", "5"],
    ],
)
def test_bot_game_runs_to_the_end(args: list[str], tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    out = _invoke(["play", *args, "--save", str(save)])
    assert "Game over" in out
    rec = records.load(save)
    assert rec["result"] is not None
    state = records.replay(rec)
    assert state.is_terminal()
    if "--players" in args:
        assert rec["options"]["players"] == 4
    if "--first-emperor" in args:
        assert rec["options"]["first_emperor"] == 1


# ---------------------------------------------------------------- human input
def test_byzantium_human_game_with_notation_numbers_and_bad_input(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    rec0 = load_game("byzantium").new_initial_state(seed=8).observation(0)
    hand = rec0["hand"]
    # Emperor (seat 0) redraws first: bad words, a card not in hand, then typed notation
    # naming hand cards by number; afterwards menu number 1 everywhere, also at the long
    # meld menu, whose entries are not listed (only each group's numbers) until "menu".
    not_held = next(c for c in ("tribute", "embassy", "chronicle", "infantry") if c not in hand)
    script = "\n".join(
        ["xyzzy", f"redraw {not_held}", "redraw 1 2 3 4 5", "redraw 1 2", *["1", "menu", "1"] * 80]
    )
    out = _invoke(
        ["play", "byzantium", "--seed", "8", "--seats", "human,random", "--save", str(save)],
        script,
    )
    assert "xyzzy" in out and "Try again" in out
    assert out.count("✗") >= 3  # every bad entry was explained
    # The long meld menu shows each group's numbers, and a number typed there is taken
    # and echoed (the first entry: the meld of no card).
    assert "1 meld nothing" in out and "2-" in out
    assert "1 = meld -" in out
    rec = records.load(save)
    assert rec["result"] is not None
    first = rec["actions"][0]
    assert first == {"player": 0, "action": f"redraw {hand[0]},{hand[1]}"}
    assert rec["actions"][2] == {"player": 0, "action": "meld -"}


def test_byzantium_meld_over_a_limit_is_explained() -> None:
    state = load_game("byzantium").new_initial_state(seed=8)
    game = state.game
    state.apply_action(game.parse_action(state, "redraw -"))
    state.apply_action(game.parse_action(state, "redraw -"))
    obs = state.observation(0)
    troops = [i + 1 for i, s in enumerate(obs["hand"]) if game.card(s).type == "Troop"]  # type: ignore[attr-defined]
    view = ByzantiumView()
    text = view.expand_input("meld " + " ".join(map(str, troops)), obs)
    assert text.startswith("meld ") and "," in text
    assert all(not part.isdigit() for part in text[5:].split(","))
    with pytest.raises(InvalidActionError, match="no card number 99 in your hand"):
        view.expand_input("meld 99", obs)


def test_byzantium_a_misspelt_card_among_several_is_named() -> None:
    # "redraw imperial flet": the engine alone would say a card list takes commas; the
    # terminal names the word it could not read, or the cards a short prefix could be.
    obs = {"hand": ["imperial-fleet", "infantry", "tribute", "theodora"]}
    view = ByzantiumView()
    assert view.expand_input("redraw imperial fleet", obs) == "redraw imperial-fleet"
    with pytest.raises(InvalidActionError, match="no card you can name here is called 'flet'"):
        view.expand_input("redraw imperial flet", obs)
    with pytest.raises(InvalidActionError, match="'t' could be any of: theodora, tribute"):
        view.expand_input("meld infantry t", obs)
    # One card that matches nothing is left to the engine, whose refusal says more.
    assert view.expand_input("redraw dragons", obs) == "redraw dragons"


def test_conspiracy_a_misspelt_choice_names_the_one_it_is_close_to() -> None:
    view = ConspiracyView()
    obs = {"drawn_lords": ["red3", "green1", "blue2"]}
    with pytest.raises(InvalidActionError, match=r"'gren1' is none .* did you mean green1"):
        view.expand_input("keep gren1", obs)
    with pytest.raises(InvalidActionError, match="did you mean red"):
        view.expand_input("take rde", obs)
    # A prefix still reads as the one choice it starts; a number as the menu's entry; a
    # word close to none (or to several) is left to the engine's own refusal.
    assert view.expand_input("keep gre", obs) == "keep green1"
    assert view.expand_input("keep 3", obs) == "keep blue2"
    assert view.expand_input("keep purple9", obs) == "keep purple9"


def test_conspiracy_human_game(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    script = "\n".join(["draw 9", "take nothing", "draw 2", "keep 1", *["1"] * 200])
    out = _invoke(
        [
            "play",
            "conspiracy",
            "--players",
            "2",
            "--seed",
            "2",
            "--first-player",
            "0",
            "--seats",
            "human,random",
            "--save",
            str(save),
        ],
        script,
    )
    assert out.count("✗") >= 2
    assert PASS_DEVICE not in out
    rec = records.load(save)
    assert rec["result"] is not None
    assert rec["actions"][0] == {"player": 0, "action": "draw 2"}
    assert rec["actions"][1]["action"].startswith("keep ")
    assert "Final scores" in out


# ---------------------------------------------------------------- hidden information
@pytest.mark.parametrize("seed", [11, 12])
def test_byzantium_hot_seat_never_shows_the_other_hand(seed: int) -> None:
    assert _check_no_leak("byzantium", ["human", "human"], seed) > 10


def test_byzantium_bot_moves_show_only_the_human_view() -> None:
    assert _check_no_leak("byzantium", ["human", "random"], 21) > 5
    assert _check_no_leak("byzantium", ["random", "human"], 22) > 5


def test_byzantium_hot_seat_through_the_command() -> None:
    out = _invoke(
        ["play", "byzantium", "--seed", "2", "--seats", "human,human"], "\nmenu\n1\n" * 150
    )
    assert out.count(PASS_DEVICE) > 10
    assert "Game over" in out


def test_quit_at_the_hot_seat_prompt_stops_before_a_hand_is_shown() -> None:
    out = _invoke(["play", "byzantium", "--seed", "2", "--seats", "human,human"], "quit\n")
    assert PASS_DEVICE in out and "Game stopped" in out
    assert "Your hand" not in out


# ---------------------------------------------------------------- save and replay
def test_save_and_replay_round_trip(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    _invoke(["play", "byzantium", "--seats", "random,random", "--seed", "6", "--save", str(save)])
    rec = records.load(save)
    out = _invoke(["replay", str(save), "--no-pause"])
    revealed = _invoke(["replay", str(save), "--no-pause", "--reveal"])
    for i, entry in enumerate(rec["actions"]):
        line = f"{i + 1:>3}. Seat {entry['player'] + 1}: {entry['action']}"  # Seat 1 = player 0
        assert line in revealed
        assert (line in out) != entry["action"].startswith("pass ")  # a pass is private
    assert "Result" in out
    seat_view = _invoke(["replay", str(save), "--no-pause", "--seat", "1"])
    assert "You drew" in seat_view and "You drew" not in out  # private log only with --seat


def test_quit_in_conspiracy_then_resume(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    base = ["--seed", "4", "--seats", "human,random", "--save", str(save)]
    _invoke(["play", "conspiracy", *base], "1\n1\nquit\n")
    part = records.load(save)
    assert part["result"] is None and part["actions"]
    _invoke(["play", "--resume", str(save), "--seats", "human,random"], "1\n" * 200)
    done = records.load(save)
    assert done["result"] is not None
    assert done["actions"][: len(part["actions"])] == part["actions"]


def test_resume_seats_the_game_as_it_was_saved(tmp_path: Path) -> None:
    """A bot that played seat 1 and a person seat 2 are so again after ``resume`` (it
    used to seat the person at seat 1, with the bot's hand)."""
    save = tmp_path / "g.json"
    first = _invoke(
        ["play", "byzantium", "--seed", "3", "--seats", "random,human", "--save", str(save)],
        "quit\n",
    )
    assert "Seat 1 (random bot), Seat 2 (human)" in first
    saved = records.load(save)
    assert saved["seats"] == [{"kind": "bot", "bot": "random"}, {"kind": "human", "bot": None}]
    again = _invoke(["resume", str(save)], "quit\n")
    assert "Seat 1 (random bot), Seat 2 (human)" in again
    # --seats still overrides, and a record from before seats were saved gets the default.
    assert "Seat 1 (human), Seat 2 (easy bot)" in _invoke(
        ["resume", str(save), "--seats", "human,easy"], "quit\n"
    )
    del saved["seats"]
    save.write_text(json.dumps(saved), encoding="utf-8")
    assert "Seat 1 (human)" in _invoke(["resume", str(save)], "quit\n")


@pytest.mark.parametrize(
    "seats",
    [
        {"kind": "bot"},
        [{"kind": "alien", "bot": None}],
        [{"kind": "bot", "bot": None}],
        ["x"],
        [{"kind": "bot", "bot": "x" * 10_000_000}, {"kind": "human", "bot": None}],
        [{"kind": "human", "bot": None}],  # one seat of two
        [{"kind": "bot", "bot": "nosuch"}, {"kind": "human", "bot": None}],
    ],
)
def test_a_record_with_bad_seats_is_refused_clearly(tmp_path: Path, seats: object) -> None:
    state = load_game("byzantium").new_initial_state(seed=1)
    path = tmp_path / "bad.json"
    record = records.to_record(state)
    record["seats"] = seats
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["resume", str(path)])
    assert result.exit_code == 2 and "seat" in result.output, result.output
    assert "Traceback" not in result.output and "--seats" not in result.output
    assert len(result.output) < 2_000


def test_japanese_text_wraps_in_the_terminal_instead_of_being_cut() -> None:
    """Japanese has no spaces to wrap at: a long log line, a card's notes and a Location's
    effect must fold onto the next line, never end in "…" with the rest lost."""
    line = "あなたが引いたカード：" + "、".join(["帝国艦隊"] * 30)
    shown = _render(log_entry(line), 80)
    assert "…" not in shown
    assert "".join(part.strip(" •") for part in shown.splitlines()) == line
    for game in ("byzantium", "conspiracy"):
        listing = _invoke(["cards", game, "--lang", "ja"])
        assert "…" not in listing, game
    solo = ["conspiracy", "--solo", "--seats", "random", "--seed", "3", "--delay", "0"]
    played = _invoke(["play", *solo, "--lang", "ja"])
    assert "最終得点" in played and "…" not in played  # the final scores' seat names too


# ---------------------------------------------------------------- cards
def test_byzantium_cards_totals_match_the_data() -> None:
    # the totals of rules section 6's table: deck v1
    out = _invoke(["cards", "byzantium", "--deck", "v1"])
    expected = {"byzantine": (30, 15, 23, 19, 87), "foe": (24, 10, 15, 13, 62)}
    counted: dict[str, Counter[str]] = {"byzantine": Counter(), "foe": Counter()}
    for card in load_game("byzantium", deck="v1").cards():  # type: ignore[attr-defined]
        counted[card.deck][age_bucket(card)] += card.copies
    for deck, numbers in expected.items():
        c = counted[deck]
        assert (c["all"], c["E"], c["M"], c["L"], sum(c.values())) == numbers
        row = re.search(
            rf"{deck.capitalize()}\s*│\s*" + r"\s*│\s*".join(r"(\d+)" for _ in range(5)), out
        )
        assert row is not None, out
        assert tuple(int(x) for x in row.groups()) == numbers
    assert "Justinian I" in out and "Great Bombard" in out


def test_byzantium_bad_card_file_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "cards.json"
    bad.write_text('{"format": "porphyra-byzantium-cards", "cards": [{"slug": "x"}]}')
    for args in (
        ["cards", "byzantium", "--cards", str(bad)],
        ["play", "byzantium", "--cards", str(bad)],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, result.output
        assert "cards.json" in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_conspiracy_cards_lists_lords_and_locations() -> None:
    out = _invoke(["cards", "conspiracy"])
    assert "60 lords" in out
    assert "24 Locations" in out
    for slug in ("l7", "deck-search", "count-purple", "alliance-4"):
        assert slug in out


# ---------------------------------------------------------------- simulate
def test_simulate_byzantium_json() -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "byzantium",
            "--games",
            "15",
            "--seed",
            "1",
            "--bots",
            "random,random",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert sum(s["wins"]) + s["draws"] == 15
    assert 0 <= s["collapses"] <= 15
    assert len(s["mean_final_lt"]) == 2
    assert isinstance(s["mean_final_tt"], float)


def test_simulate_conspiracy_json_and_table() -> None:
    args = ["simulate", "conspiracy", "--players", "3", "--games", "4", "--seed", "2"]
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert sum(s["wins"]) + s["draws"] == 4
    assert len(s["mean_scores"]) == 3
    for means in s["mean_scores"]:
        parts = means["lords"] + means["locations"] + means["coalition"] + means["pearl_master"]
        assert parts == pytest.approx(means["total"], abs=0.01)
    table = _invoke(args)
    assert "Mean score by category" in table


# ---------------------------------------------------------------- rendering
def test_pyramid_shape_and_location() -> None:
    chamber: list[object] = [None] * 15
    chamber[0] = {"lord": "red4", "location": None}
    chamber[1] = {"lord": "red6", "location": "l7"}
    chamber[5] = {"lord": "blue1", "location": None}
    text = pyramid(chamber).plain.splitlines()
    assert text[0].startswith("R4●")
    assert "R6↑◆" in text[0]  # the best red lord carries the coat of arms
    assert "R4●◆" not in text[0]
    assert "Grand Es" in text[1]  # the Location line under row 1: l7 by its name, cut
    assert "B1sk◆" in text[2]
    assert [line.strip().split()[-1] for line in text[3:]] == ["·12", "·14", "·15"]


def test_conspiracy_hot_seat_needs_no_pass_screen() -> None:
    """Everything in Conspiracy is public (C-R12): two humans share the screen freely."""
    out = _invoke(
        ["play", "conspiracy", "--seed", "3", "--seats", "human,human", "--first-player", "random"],
        "1\n" * 300,
    )
    assert PASS_DEVICE not in out
    assert "Final scores" in out
    assert "type 'board' for every chamber" in out  # compact board on a follow-up decision


def test_python_dash_m_porphyra() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "porphyra", "--help"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "simulate" in done.stdout
    done = subprocess.run(
        [sys.executable, "-m", "porphyra", "replay", "/nonexistent/x.json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    assert "x.json" in done.stdout + done.stderr


def _render(renderable: object, width: int = 100) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    console.print(renderable)
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def test_byzantium_board_shows_the_hand_details_and_fits_80_columns() -> None:
    game = load_game("byzantium")
    state = game.new_initial_state(seed=1)
    obs = state.observation(0)
    text = _render(ByzantiumView().board(game, obs, ["Seat 0 (human)", "Seat 1 (bot)"]), 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    for slug in obs["hand"]:
        card = game.card(slug)  # type: ignore[attr-defined]
        assert card.name in text
    assert "Turn 1/12" in text and "Early Age" in text and "10/20" in text
    assert "Your hand (byzantine)" in text
    public = _render(ByzantiumView().board(game, state.public_observation(), ["a", "b"]))
    assert "Your hand" not in public


@pytest.mark.parametrize(("before", "lost"), [(2, 2), (0, 0), (10, 3)])
def test_b_r6_result_note_names_the_lt_the_collapse_took(before: int, lost: int) -> None:
    """B-R6: the collapse takes 3 LT or all the Emperor has; the note says which."""
    from tests.byzantium.helpers import meld, new_state, to_meld

    state = new_state()
    state.tt = 1
    state.lt[state.emperor] = before
    to_meld(state, [], ["huns"])
    meld(state, "-", "huns")
    assert state.is_terminal() and state.lt[state.emperor] == before - lost
    text = _render(ByzantiumView().result(state.game, state, ["Ada", "Bo"]), 200)
    assert f"the Emperor lost {lost} LT." in text


def test_conspiracy_live_scores_match_the_engine() -> None:
    game = load_game("conspiracy", players=3)
    state = game.new_initial_state(seed=9)
    rng = random.Random(9)
    checked = 0
    while not state.is_terminal():
        if rng.random() < 0.2:
            assert live_scores(game, state.observation(0)) == state.scores()
            checked += 1
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    assert live_scores(game, state.public_observation()) == state.scores()
    assert checked > 3


def test_cards_names_the_deck_and_deck_selects_a_shipped_one() -> None:
    """Rules section 6: decks are versioned; ``cards --deck`` lists a shipped one."""
    from typer.testing import CliRunner

    from porphyra.cli import app

    for deck in ("v1", "v2", "v3", "v4", "v5", "v6"):
        result = CliRunner().invoke(app, ["cards", "byzantium", "--deck", deck])
        assert result.exit_code == 0, result.output
        assert f"deck {deck}" in result.output.splitlines()[0]
    bad = CliRunner().invoke(app, ["cards", "byzantium", "--deck", "v0"])
    assert bad.exit_code == 2 and "'v1', 'v2', 'v3', 'v4', 'v5' or 'v6'" in bad.output
