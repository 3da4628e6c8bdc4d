"""Fixes from the new-user and attack reviews of the terminal client."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from porphyra import record as records
from porphyra.cli import app
from porphyra.cli.byzantium_view import ByzantiumView
from porphyra.cli.conspiracy_view import ConspiracyView
from porphyra.cli.play import PlaySession
from porphyra.cli.replay import run_replay
from porphyra.cli.views import ascii_number, view_for
from porphyra.core.registry import load_game
from porphyra.i18n.names import location_name, lord_name

runner = CliRunner()


def _lines(*lines: str) -> str:
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- 1. non-ASCII digits
def test_ascii_number_rejects_superscripts_and_other_scripts() -> None:
    assert ascii_number("12") == 12
    assert ascii_number("²") is None
    assert ascii_number("١") is None
    assert ascii_number("") is None


def test_superscript_digits_are_re_asked_and_the_game_is_saved(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    result = runner.invoke(
        app,
        ["play", "byzantium", "--seed", "8", "--seats", "human,random", "--save", str(save)],
        input=_lines("²", "redraw ²", "meld ²", "quit"),
    )
    assert result.exit_code == 0, result.output
    assert "invalid literal" not in result.output
    assert result.output.count("✗") >= 3
    assert records.load(save)["result"] is None  # unfinished, but saved


def test_views_leave_superscript_numbers_alone() -> None:
    state = load_game("byzantium").new_initial_state(seed=8)
    obs = state.observation(0)
    assert ByzantiumView().expand_input("meld ²", obs) == "meld ²"
    assert ConspiracyView().expand_input("keep ²", {"drawn_lords": ["red1"]}) == "keep ²"


def test_replay_key_superscript_is_an_unknown_key(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    runner.invoke(
        app, ["play", "byzantium", "--seed", "3", "--seats", "random,random", "--save", str(save)]
    )
    console = Console(record=True, width=100)
    keys = iter(["²", "q"])
    run_replay(records.load(save), console, view_for("byzantium"), read_line=lambda _p: next(keys))
    assert "unknown key" in console.export_text()


# ---------------------------------------------------------------- 2. the seed
def test_seed_is_hidden_from_a_human_until_the_end() -> None:
    args = ["play", "byzantium", "--seed", "443720", "--seats", "human,random"]
    quit_early = runner.invoke(app, args, input=_lines("quit"))
    assert quit_early.exit_code == 0, quit_early.output
    assert "443720" not in quit_early.output
    played = runner.invoke(app, args, input=_lines(*["menu", "1"] * 200))
    assert played.exit_code == 0, played.output
    before, _, after = played.output.partition("Game over")
    assert "443720" not in before and "443720" in after


def test_bot_only_games_show_the_seed() -> None:
    result = runner.invoke(app, ["play", "byzantium", "--seed", "443720", "--seats", "easy,random"])
    assert result.exit_code == 0, result.output
    assert "seed 443720" in result.output.splitlines()[0]


# ---------------------------------------------------------------- 3. --save checked first
def test_unwritable_save_path_fails_before_the_game(tmp_path: Path) -> None:
    for bad in (tmp_path, tmp_path / "missing" / "g.json"):
        result = runner.invoke(
            app, ["play", "byzantium", "--seats", "random,random", "--save", str(bad)]
        )
        assert result.exit_code == 2, result.output
        assert "cannot save" in result.output
        assert "Game over" not in result.output
        assert len(result.output.strip().splitlines()) == 1


# ---------------------------------------------------------------- 4. long menus
def test_menu_lists_every_action_whole_and_filters() -> None:
    state = load_game("byzantium", deck="v1").new_initial_state(seed=5)
    # The menu groups redraws by number of cards (issue 14), each one whole on its line.
    actions = [str(a) for a in ByzantiumView().order_actions(list(state.legal_actions(0)), {})]
    assert len(actions) > 100
    result = runner.invoke(
        app,
        ["play", "byzantium", "--seed", "5", "--deck", "v1", "--seats", "human,random"],
        input=_lines("menu", "menu constantine", "quit"),
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "…" not in out
    for i, action in enumerate(actions):
        assert f"{i + 1:>4} {action}\n" in out  # one per line, in full
    assert "menu <text>" in out and "hand numbers" in out
    assert "redraw nothing — 1 choice " in out and "redraw 4 cards — 91 choices" in out
    assert "redraw 1 card — 8 choices" in out and "(s)" not in out  # plurals, not "card(s)"
    with_constantine = [a for a in actions if "constantine" in a]
    assert 0 < len(with_constantine) < len(actions)
    assert f"{len(with_constantine)} of {len(actions)} actions" in out


# ---------------------------------------------------------------- 5. keep N = menu entry N
def test_conspiracy_keep_number_matches_the_menu_entry(tmp_path: Path) -> None:
    game = load_game("conspiracy", players=2)
    for seed in range(100):  # seat 0 starts, and the engine lists keeps in another order
        state = game.new_initial_state(seed=seed)
        if state.current_player() != 0:
            continue
        state.apply_action(game.parse_action(state, "draw 3"))
        drawn = list(dict.fromkeys(state.observation(0)["drawn_lords"]))
        if [str(a) for a in state.legal_actions(0)] != [f"keep {n}" for n in drawn]:
            break
    assert len(drawn) >= 2
    save = tmp_path / "g.json"
    result = runner.invoke(
        app,
        ["play", "conspiracy", "--seed", str(seed), "--seats", "human,random", "--save", f"{save}"],
        input=_lines("draw 3", "keep 2", "quit"),
    )
    assert result.exit_code == 0, result.output
    for i, name in enumerate(drawn, 1):
        assert f"{i} keep {name}" in result.output  # menu in drawn order
        # The header numbers them the same way, each by its name and its notation.
        assert f"{i}. {lord_name(name)} [{name}]" in result.output
    assert records.load(save)["actions"][1] == {"player": 0, "action": f"keep {drawn[1]}"}
    view = ConspiracyView()
    obs = state.observation(0)
    menu = view.order_actions(list(state.legal_actions(0)), obs)
    for i in range(len(menu)):
        assert view.expand_input(f"keep {i + 1}", obs) == str(menu[i])


# ---------------------------------------------------------------- 6. card names
def test_printed_card_names_are_read_as_slugs() -> None:
    view = ByzantiumView()
    obs = {"hand": ["rus", "basil-ii", "infantry", "archers"], "phase": "meld"}
    assert view.expand_input("meld rus'", obs) == "meld rus"
    assert view.expand_input("meld Rus', Basil II,infantry", obs) == ("meld rus,basil-ii,infantry")
    assert view.expand_input("meld 1 arch", obs) == "meld rus,archers"


def test_cards_listing_shows_slugs_that_differ_from_the_name() -> None:
    result = runner.invoke(app, ["cards", "byzantium"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    assert "(rus)" in result.output
    assert "(recapture-of-constantinople)" in result.output  # the longest, not cut
    assert "(infantry)" not in result.output


# ---------------------------------------------------------------- 7. drawn Locations
def test_drawn_locations_show_their_effect() -> None:
    game = load_game("conspiracy", players=2)
    state = game.new_initial_state(seed=1)
    obs = state.observation(0)
    from porphyra.cli.conspiracy_parts import location_effect

    slugs = [card.slug for card in game.cards.locations[:2]]  # type: ignore[attr-defined]
    obs = {**obs, "phase": "lockeep", "drawn_locations": slugs}
    console = Console(record=True, width=200)
    view = ConspiracyView()
    for render in (view.board, view.compact_board):
        console.print(render(game, obs, ["a", "b"]))
        text = console.export_text()
        for slug in slugs:  # by its name, with the slug to type and its effect
            assert f"{location_name(slug)} [{slug}] ({location_effect(game, slug)})" in text


# ---------------------------------------------------------------- 8. messages
def test_hand_number_out_of_range_says_so() -> None:
    result = runner.invoke(
        app,
        ["play", "byzantium", "--seed", "8", "--seats", "human,random"],
        input=_lines("redraw 99", "quit"),
    )
    assert "no card number 99 in your hand" in result.output
    assert "unknown card '99'" not in result.output


def test_help_and_hints_are_game_and_role_specific() -> None:
    game = load_game("byzantium", deck="v1")
    state = game.new_initial_state(seed=8)
    foe = 1 - state.current_player()
    foe_hand = state.observation(foe)["hand"]
    hint = ByzantiumView().hint(game, {**state.observation(foe), "phase": "redraw"})
    assert f"redraw {foe_hand[0]},{foe_hand[1]}" in hint.replace(", ", ",")
    assert "chronicle" not in hint and "infantry" not in hint  # Byzantine cards
    end = ByzantiumView().hint(game, {"phase": "pass", "hand": ["archers"]})
    assert "discarded" in end and "opponent" in end
    out = runner.invoke(
        app, ["play", "conspiracy", "--seed", "1", "--seats", "human,random"], input="help\nquit\n"
    ).output
    assert "redraw" not in out and "infantry" not in out


# ---------------------------------------------------------------- 9. --delay
def test_delay_pauses_after_each_bot_move(monkeypatch: pytest.MonkeyPatch) -> None:
    pauses: list[float] = []
    play_module = sys.modules[PlaySession.__module__]  # porphyra.cli.play is also a command
    monkeypatch.setattr(play_module.time, "sleep", pauses.append)
    args = ["play", "byzantium", "--seed", "3", "--seats", "easy,random"]
    assert runner.invoke(app, args).exit_code == 0
    assert pauses == []  # not a terminal: no default pause
    result = runner.invoke(app, [*args, "--delay", "0.25"])
    assert result.exit_code == 0, result.output
    assert len(pauses) > 10 and set(pauses) == {0.25}
    assert runner.invoke(app, [*args, "--delay", "-1"]).exit_code == 2
    assert "--delay" in runner.invoke(app, ["play", "--help"]).output


# ---------------------------------------------------------------- 10. --bots and bot names
def test_simulate_errors_name_the_bots_option() -> None:
    for bots in ("random,random,random", "random,nosuchbot"):
        result = runner.invoke(app, ["simulate", "byzantium", "--games", "1", "--bots", bots])
        assert result.exit_code == 2, result.output
        assert "--bots" in result.output and "--seats" not in result.output


def test_bot_names_are_case_insensitive() -> None:
    result = runner.invoke(
        app,
        ["play", "byzantium", "--seed", "3", "--seats", "human,ISMCTS:iterations=5"],
        input="quit\n",
    )
    assert result.exit_code == 0, result.output
    assert "Seat 2 (ismcts:iterations=5 bot)" in result.output


# ---------------------------------------------------------------- 12. replay privacy
def test_public_replay_hides_the_passed_cards(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    play = ["play", "byzantium", "--seed", "4", "--seats", "random,random", "--save", str(save)]
    assert runner.invoke(app, play).exit_code == 0
    passes = [a for a in records.load(save)["actions"] if a["action"].startswith("pass ")]
    assert passes
    public = runner.invoke(app, ["replay", str(save), "--no-pause"]).output
    assert ": pass " not in public and "passes a card" in public
    mine = str(passes[0]["player"] + 1)  # people count seats from 1
    for flag in (["--reveal"], ["--all"], ["--seat", mine]):
        out = runner.invoke(app, ["replay", str(save), "--no-pause", *flag]).output
        assert f"Seat {mine}: {passes[0]['action']}" in out


# ---------------------------------------------------------------- 11. cosmetics
def test_location_labels_fit_a_cell_and_are_distinct() -> None:
    from porphyra.cli.conspiracy_parts import CELL, short_location

    game = load_game("conspiracy", players=2, bonus_locations=True)
    slugs = [card.slug for card in game.cards.locations]  # type: ignore[attr-defined]
    labels = [short_location(slug) for slug in slugs]
    assert all(len(label) < CELL for label in labels)
    assert len(set(labels)) == len(set(slugs))


def test_empty_hand_is_said_in_words() -> None:
    game = load_game("byzantium")
    console = Console(record=True, width=100)
    obs = {**game.new_initial_state(seed=8).observation(0), "hand": []}
    console.print(ByzantiumView().board(game, obs, ["a", "b"]))
    text = console.export_text()
    assert "empty" in text and "force" not in text  # no table header without rows


def test_long_moves_wrap_between_cards() -> None:
    game = load_game("byzantium")
    state = game.new_initial_state(seed=8)
    hand = state.observation(0)["hand"]
    result = runner.invoke(
        app,
        ["play", "byzantium", "--seed", "8", "--seats", "human,random"],
        input=_lines("redraw 1 2 3 4", "quit"),
        env={"COLUMNS": "50"},
    )
    lines = result.output.splitlines()
    i = next(i for i, line in enumerate(lines) if "✓" in line)
    assert lines[i].rstrip().endswith(",")  # the line breaks between two cards
    assert lines[i + 1].strip().rstrip(",").split(",")[0].strip() in hand


# ---------------------------------------------------------------- issue 14: one vocabulary
def test_people_count_seats_from_1_in_the_terminal_and_in_replays(tmp_path: Path) -> None:
    """The terminal, ``porphyra replay`` and the browser all say Seat 1, Seat 2; the
    engine's own ``seat 0`` in log lines reads as Seat 1; a web game's record shows its
    seat names."""
    import json

    from porphyra.core.seats import for_people, seat_label

    assert seat_label(0) == "Seat 1" and for_people("seat 0 draws; Seat 1 passes") == (
        "seat 1 draws; Seat 2 passes"
    )
    assert for_people("seat 1 wins", ["Ann", "Bob"]) == "Bob wins"
    save = tmp_path / "g.json"
    play = ["play", "byzantium", "--seed", "4", "--seats", "random,random", "--save", str(save)]
    out = runner.invoke(app, play).output
    assert "Seat 1 (random bot)" in out and "Seat 0" not in out and "seat 0" not in out
    rec = json.loads(save.read_text())
    rec["seats"] = [
        {"name": "Theodora", "kind": "human", "bot": None},
        {"name": "Bot", "kind": "bot", "bot": "easy"},
    ]
    save.write_text(json.dumps(rec))
    shown = runner.invoke(app, ["replay", str(save), "--no-pause"]).output
    assert "Seat 1 (Theodora)" in shown and "Seat 2 (Bot)" in shown and "seat 0" not in shown
    refused = runner.invoke(app, ["replay", str(save), "--no-pause", "--seat", "0"])
    assert refused.exit_code != 0 and "between 1 and 2" in refused.output


def test_flags_agree_across_play_simulate_tournament_and_agent() -> None:
    """--seats and --bots are one flag in play and simulate; --opponent and --opponents are
    one flag (the Legendary Opponent) in play, simulate and tournament; plain flags show no
    type in --help."""
    out = runner.invoke(app, ["simulate", "byzantium", "--seats", "easy,random", "--games", "2"])
    assert out.exit_code == 0, out.output
    played = runner.invoke(app, ["play", "byzantium", "--bots", "random,random", "--seed", "2"])
    assert played.exit_code == 0 and "Seat 1 (random bot)" in played.output
    solo = ["--solo", "--games", "2", "--bots", "easy"]
    for flag in ("--opponent", "--opponents"):
        result = runner.invoke(app, ["simulate", "conspiracy", *solo, flag, "farmer,mage"])
        assert result.exit_code == 0 and "Mage" in result.output, result.output
    for command in ("play", "simulate", "tournament", "agent", "replay", "balance"):
        text = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"}).output
        assert "<bool>" not in text, command
        if command in ("play", "simulate", "tournament"):
            assert "--opponent,--opponents" in text or "--opponent" in text, command


def test_a_secret_choice_is_confirmed_before_it_is_locked_in() -> None:
    """With --confirm (on at a terminal) a redraw, meld or pass is shown as read, a prefix
    expanded (``archer`` read as ``archers``), and locked in only on yes."""
    result = runner.invoke(
        app,
        ["play", "byzantium", "--seed", "5", "--seats", "human,random", "--confirm"],
        input=_lines("redraw archer", "n", "redraw archer", "y", "quit"),
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "Lock in redraw archers (you typed 'redraw archer')" in out
    assert "Not locked in: choose again." in out
    assert "✓ Seat 1 (human): redraw archers" in out
    off = runner.invoke(
        app,
        ["play", "byzantium", "--seed", "5", "--seats", "human,random", "--no-confirm"],
        input=_lines("redraw -", "quit"),
    )
    assert "Lock in" not in off.output


def test_undo_against_bots_follows_the_web_rule(tmp_path: Path) -> None:
    """``undo`` takes back the last decision when every other seat is a bot and nothing
    was drawn or revealed since (the web's rule); with two people it is refused."""
    import random

    from porphyra.core.undo import undo_target

    game = load_game("conspiracy", players=2)
    state = game.new_initial_state(seed=0)
    rng = random.Random(0)
    while not (
        any(p == 0 for p, _ in state.history)
        and state.current_player() == 0
        and undo_target(state, 0) is not None
    ):
        p = state.current_player()
        state.apply_action(rng.choice(state.legal_actions(p)), p)
    save = tmp_path / "g.json"
    records.save(state, save)
    before = len(records.load(save)["actions"])
    out = runner.invoke(
        app, ["resume", str(save), "--seats", "human,random"], input=_lines("undo", "quit")
    )
    assert "↶ Undone" in out.output, out.output
    assert len(records.load(save)["actions"]) < before
    people = runner.invoke(
        app, ["resume", str(save), "--seats", "human,human"], input=_lines("undo", "quit")
    )
    assert "only possible when every other seat is a bot" in people.output


def test_terminal_counts_what_the_hand_holds() -> None:
    """The pass hint names a card number the hand has; a lord drawn twice is shown twice
    (×2) in the drawn list, whose numbers are what ``keep N`` takes."""
    from porphyra.cli.conspiracy_view import ConspiracyView

    view = ByzantiumView()
    hint = view.hint(load_game("byzantium"), {"phase": "pass", "hand": ["cavalry"], "role": "foe"})
    assert "'pass 1'" in hint and "'pass 3'" not in hint
    game = load_game("conspiracy", players=2)
    state = game.new_initial_state(seed=6)
    p = state.current_player()
    state.apply_action(game.parse_action(state, "draw 3", p), p)
    obs = state.observation(p)
    assert obs["drawn_lords"] == ["purple1", "blue0", "purple1"]
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(ConspiracyView().board(game, obs, ["Seat 1 (human)", "Seat 2 (bot)"]))
    text = console.export_text()
    assert "1. Purple 1 [purple1] ×2, 2. Blue 0 [blue0]" in text
    assert ConspiracyView().expand_input("keep 2", obs) == "keep blue0"


@pytest.mark.parametrize(("lang", "word"), [("ja", "席"), ("ko", "좌석 ")])
def test_seats_count_from_1_in_every_language(lang: str, word: str) -> None:
    """Log lines are translated first, then their seats renumbered in that language's own
    form of a seat (a translated ``seat 0`` is ``席0`` / ``좌석 0``), so no language shows
    the engine's count from 0."""
    from porphyra.core.seats import for_people

    assert for_people(f"{word}0 / {word}1", None, word + "{0}") == f"{word}1 / {word}2"
    assert for_people(f"{word}1!", ["Ann", "Bob"], word + "{0}") == "Bob!"
    assert for_people(f"{word}12", None, word + "{0}") == f"{word}13"  # the whole number
    assert for_people(f"を{word}0に", None, word + "{0}") == f"を{word}1に"  # after a letter
    play = ["play", "byzantium", "--seed", "4", "--seats", "random,random", "--lang", lang]
    out = runner.invoke(app, play).output
    assert f"{word}1" in out and f"{word}2" in out
    assert f"{word}0" not in out, out


def test_a_huge_number_at_the_prompt_is_refused_and_the_game_goes_on(tmp_path: Path) -> None:
    """A number of thousands of digits is not a menu entry (and Python refuses to read
    it); the session explains, asks again, and keeps the game."""
    from porphyra.cli.views import ascii_number

    assert ascii_number("9" * 5000) is None and ascii_number("123456789") == 123456789
    save = tmp_path / "g.json"
    play = ["play", "byzantium", "--seats", "human,easy", "--seed", "5", "--save", str(save)]
    result = runner.invoke(app, play, input="redraw -\n" + "9" * 5000 + "\nquit\n")
    assert "Traceback" not in result.output and "4300" not in result.output, result.output
    assert records.load(save)["actions"]  # saved, with the redraw


def test_replay_shows_a_records_seat_names_safely(tmp_path: Path) -> None:
    """A record file may hold anything: control and format characters in a seat name are
    dropped, and the web server's default names are not repeated after the label."""
    from porphyra.cli.replay import record_labels

    rec = {
        "seats": [
            {"name": "\x1b[31mred\x1b[0m\x1b]0;pwned\x07"},
            {"name": "Seat 2"},
        ]
    }
    labels = record_labels(rec, 3)
    assert labels == ["Seat 1 ([31mred[0m]0;pwned)", "Seat 2", "Seat 3"]
    assert not any(ch in "".join(labels) for ch in "\x1b\x07\u202e\n")
    assert record_labels({"seats": [{"name": "Easy bot 1"}, {"name": "a\u202eb\nc"}]}, 2) == [
        "Seat 1",
        "Seat 2 (abc)",
    ]


def test_a_card_name_of_several_words_is_one_card_without_commas() -> None:
    """'redraw Imperial Fleet' names one card as printed (it was read as two words, and
    refused as two arguments); words go to the longest printed name first."""
    view = ByzantiumView()
    obs = {"hand": ["imperial-fleet", "heraclius", "archers", "basil-ii"]}
    assert view.expand_input("redraw Imperial Fleet", obs) == "redraw imperial-fleet"
    assert view.expand_input("redraw imperial fleet 3", obs) == "redraw imperial-fleet,archers"
    assert view.expand_input("meld Basil II heraclius", obs) == "meld basil-ii,heraclius"
    assert view.expand_input("meld Basil II, Archers", obs) == "meld basil-ii,archers"
    assert view.expand_input("redraw arch", obs) == "redraw archers"


def test_conspiracy_phases_are_named_in_words_in_every_language() -> None:
    from porphyra.cli.conspiracy_view import PHASE_LABEL, _phase_label
    from porphyra.cli.lang import set_language
    from porphyra.games.conspiracy.tables import PHASES

    assert set(PHASE_LABEL) == set(PHASES)  # a new engine phase needs its words
    try:
        set_language("ja")
        assert _phase_label("recruit") == "雇う：貴族を引くか捨て札の山を取る"
        assert _phase_label("no-such-phase") == "no-such-phase"
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["ja", "ko"])
def test_the_card_listing_speaks_the_terminals_language(lang: str) -> None:
    result = runner.invoke(app, ["cards", "byzantium", "--lang", lang], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    # (each deck's provenance note is English prose, labelled so: docs/i18n.md)
    for english in ("qty", "Totals", "In actions", "all ages", "Default deck", "│ Byzantine"):
        assert english not in result.output, english
    label = {"ja": "設計メモ（英語）：", "ko": "설계 메모 (영어):"}[lang]
    assert label in result.output
    from porphyra.games.byzantium.cards import DEFAULT_DECK

    note = f"Version {DEFAULT_DECK.removeprefix('v')} of the default deck"  # the English note
    assert result.output.index(label) < result.output.index(note)


def test_the_commands_errors_speak_the_terminals_language() -> None:
    cases = [
        (["play", "byzantium", "--first-emperor", "2"], "のいずれかです"),
        (["play", "byzantium", "--seats", "foo,easy"], "席の種類 'foo' がわかりません"),
        (["replay", "/no/such/record.json"], "アクセスできません"),
    ]
    for args, japanese in cases:
        result = runner.invoke(app, [*args, "--lang", "ja"])
        assert result.exit_code == 2 and japanese in result.output, result.output


def test_help_explains_the_conspiracy_boards_symbols() -> None:
    """``help`` gives the compact board's legend (which the board itself shows only where
    the terminal has room for it below the menu)."""
    result = runner.invoke(
        app,
        ["play", "conspiracy", "--players", "2", "--seats", "human,easy", "--seed", "1"],
        input=_lines("help", "quit"),
    )
    assert result.exit_code == 0, result.output
    after_help = result.output.split("At the prompt you can type", 1)[1]
    assert "Y yellow" in after_help and "sk silver key" in after_help
    assert "▪ a Location on the slot" in after_help
