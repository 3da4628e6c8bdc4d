"""``porphyra learn GAME`` plays to its end in every language with scripted input, and
refuses a wrong move with its explanation."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from porphyra.cli import app
from porphyra.i18n import Translator
from porphyra.learn import LESSONS


def _script_input(name: str, wrong: dict[str, str] | None = None) -> str:
    """The learner's lines: Enter at info steps, the lesson's move at move steps (after a
    wrong one where ``wrong`` names one), then "n" to the offer of a game."""
    lines: list[str] = []
    for step in LESSONS[name].steps:
        if step.expect is None:
            lines.append("")
        else:
            if wrong and step.key in wrong:
                lines.append(wrong[step.key])
            lines.append(step.expect)
    lines.append("n")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
@pytest.mark.parametrize("name", sorted(LESSONS))
def test_the_tutorial_plays_to_its_end(name: str, lang: str) -> None:
    result = CliRunner().invoke(app, ["learn", name, "--lang", lang], input=_script_input(name))
    assert result.exit_code == 0, result.output
    tr = Translator(lang)
    out = " ".join(result.output.split())
    assert tr("Tutorial complete.") in out
    assert LESSONS[name].play_command in out
    for step in LESSONS[name].steps:  # every step's text was shown, translated
        first_words = " ".join(tr(step.text).split())[:20]
        assert first_words in out, step.key


#: Per tutorial: a step, a legal move that is not its lesson, and an illegal one.
WRONG = {
    "byzantium": ("redraw", "redraw -", "meld huns"),
    "conspiracy": ("draw", "draw 1", "take red"),
    "solo": ("draw", "draw 2", "keep red1"),
}


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
@pytest.mark.parametrize("name", sorted(WRONG))
def test_wrong_moves_are_refused_with_their_explanation(name: str, lang: str) -> None:
    key, off_lesson, illegal = WRONG[name]
    lines = _script_input(name, {key: f"{off_lesson}\n{illegal}"})
    result = CliRunner().invoke(app, ["learn", name, "--lang", lang], input=lines)
    assert result.exit_code == 0, result.output
    tr = Translator(lang)
    out = " ".join(result.output.split())
    why = next(s.why for s in LESSONS[name].steps if s.key == key)
    assert " ".join(tr(why).split())[:25] in out
    assert tr("The rules refuse that move: {0}", "").strip() in out
    assert tr("Tutorial complete.") in out


def test_quit_leaves_and_an_unknown_tutorial_is_refused() -> None:
    result = CliRunner().invoke(app, ["learn", "byzantium", "--lang", "en"], input="\nquit\n")
    assert result.exit_code == 0
    assert "Tutorial complete." not in result.output
    result = CliRunner().invoke(app, ["learn", "chess"])
    assert result.exit_code == 2
    assert "unknown tutorial" in result.output


def test_menu_numbers_choose_a_listed_move() -> None:
    lesson = LESSONS["conspiracy"]
    lines = []
    for step in lesson.steps:  # "3" for the first "draw 3" (the menu: draw 1, 2, 3)
        lines.append("" if step.expect is None else ("3" if step.key == "draw" else step.expect))
    result = CliRunner().invoke(
        app, ["learn", "conspiracy", "--lang", "en"], input="\n".join([*lines, "n"]) + "\n"
    )
    assert result.exit_code == 0, result.output
    assert "1 draw 1  2 draw 2  3 draw 3" in result.output
    assert "Tutorial complete." in result.output


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_yes_at_the_end_starts_the_first_real_game(name: str) -> None:
    lines = _script_input(name).rstrip("\n").rsplit("\n", 1)[0] + "\ny\nquit\n"
    result = CliRunner().invoke(app, ["learn", name, "--lang", "en"], input=lines)
    assert result.exit_code == 0, result.output
    after = result.output.split("Play a first game against the easy bot now?", 1)[1]
    assert "Seat 1 (human) >" in after  # the game's own prompt: a real game began
    assert "Game stopped." in after
