"""The tutorials' scripts stay honest: every scripted move is legal in the engine at its
step, the deal shows every situation the texts describe (:func:`find_seed.plan`), and the
runner refuses illegal and off-lesson moves with the right reason."""

from __future__ import annotations

import pytest

from porphyra.learn import LESSONS, Tutorial
from porphyra.learn.find_seed import plan
from porphyra.learn.script import Lesson, Step


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_every_scripted_move_is_legal_at_its_step_and_the_plan_matches(name: str) -> None:
    lesson = LESSONS[name]
    tutorial = Tutorial(lesson)
    while (step := tutorial.step) is not None:
        if step.expect is None:
            tutorial.proceed()
            continue
        legal = {str(a) for a in tutorial.legal_actions()}
        expected = str(tutorial.game.parse_action(tutorial.state, step.expect, lesson.seat))
        assert expected in legal, step.key
        assert tutorial.attempt(step.expect).ok, step.key
    scripted = {s.key: s.expect for s in lesson.steps if s.expect is not None}
    assert plan(lesson) == scripted


@pytest.mark.parametrize("name", sorted(LESSONS))
def test_step_keys_are_unique_and_moves_have_reasons(name: str) -> None:
    steps = LESSONS[name].steps
    assert len({s.key for s in steps}) == len(steps)
    assert all(s.why for s in steps if s.expect is not None)
    assert steps[-1].expect is None  # it ends on the offer of a real game


def test_an_illegal_move_is_refused_with_the_engines_reason_and_changes_nothing() -> None:
    tutorial = Tutorial(LESSONS["byzantium"], upto=2)  # at the meld
    assert tutorial.step is not None and tutorial.step.key == "meld"
    hand = list(tutorial.observation()["hand"])
    verdict = tutorial.attempt("meld huns")
    assert (verdict.ok, verdict.kind) == (False, "illegal")
    assert "not in hand" in verdict.message
    assert tutorial.index == 2 and tutorial.observation()["hand"] == hand


def test_a_legal_move_that_is_not_the_lesson_is_refused_with_the_scripts_reason() -> None:
    tutorial = Tutorial(LESSONS["byzantium"], upto=1)  # at the redraw
    step = tutorial.step
    assert step is not None and step.key == "redraw"
    assert "redraw -" in {str(a) for a in tutorial.legal_actions()}
    verdict = tutorial.attempt("redraw -")
    assert (verdict.ok, verdict.kind, verdict.message) == (False, "lesson", step.why)
    assert tutorial.index == 1


def test_info_steps_and_move_steps_cannot_be_mixed_up() -> None:
    tutorial = Tutorial(LESSONS["byzantium"])
    with pytest.raises(ValueError):
        tutorial.attempt("redraw -")
    tutorial.proceed()
    with pytest.raises(ValueError):
        tutorial.proceed()
    with pytest.raises(ValueError):
        Tutorial(LESSONS["byzantium"], upto=99)


def test_a_script_that_does_not_fit_its_deal_is_caught() -> None:
    lesson = LESSONS["byzantium"]
    steps = (lesson.steps[0], Step("redraw", "x", "redraw huns", "y"))
    broken = Lesson(**{**lesson.__dict__, "steps": steps})
    with pytest.raises(ValueError, match="script's move is refused"):
        Tutorial(broken, upto=2)


def test_the_learner_sees_only_its_seat() -> None:
    tutorial = Tutorial(LESSONS["byzantium"])
    obs = tutorial.observation()
    assert obs["seat"] == 0 and "hand" in obs
    assert "hands" not in obs  # never the bot's hand


@pytest.mark.parametrize("lang", ["en", "ja", "ko"])
def test_the_lessons_name_conditions_in_words_not_codes(lang: str) -> None:
    """The Legendary Opponent's conditions read as what they ask for (issue 29: "STACK",
    "KEY", "COAL" are the card's shorthand, not words a learner knows)."""
    import re

    from porphyra.games.conspiracy.solo import CONDITIONS
    from porphyra.i18n import Translator

    tr = Translator(lang)
    codes = re.compile(r"\b(" + "|".join(CONDITIONS) + r")\b")
    for lesson in LESSONS.values():
        for step in lesson.steps:
            for text in (step.text, step.why):
                if text:
                    assert not codes.search(tr(text)), (lesson.game, step.key, tr(text))
