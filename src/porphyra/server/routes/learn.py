"""The tutorials in the browser: the pages ``/learn/GAME`` and their JSON API.

``GET /api/learn/{name}?lang=`` gives the tutorial (title, steps' texts in that language,
the command of the first real game) and the table at its first step; ``POST
/api/learn/{name}/step`` (``{"step": N, "action": "meld ...", "lang": "ja"}``) checks a move
at step ``N`` on the server: the tutorial is rebuilt from its seed by playing the first
``N`` scripted steps (:class:`porphyra.learn.Tutorial`), so the server keeps no session.
An illegal move is refused with the engine's reason, a legal move that is not the lesson's
with the script's, both in the learner's language; an accepted move returns the next step.
The learner's table is that seat's observation only: the bot's hand stays hidden.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from porphyra.core.seats import ENGLISH_SEAT, for_people
from porphyra.i18n import DEFAULT, Translator, normalize
from porphyra.i18n.log import translate_error
from porphyra.i18n.messages import render
from porphyra.learn import LESSONS, Lesson, Tutorial
from porphyra.server.routes.pages import STATIC_DIR

router = APIRouter()


class StepIn(BaseModel):
    """A move at one step of a tutorial (``action`` empty or absent at an info step)."""

    model_config = ConfigDict(extra="forbid")

    step: StrictInt = Field(ge=0, le=100)
    action: str | None = Field(default=None, max_length=400)
    lang: str = Field(default="en", max_length=8)


def _lesson(name: str) -> Lesson:
    lesson = LESSONS.get(name)
    if lesson is None:
        raise HTTPException(404, "no such tutorial")
    return lesson


def _lang(lang: str) -> str:
    return normalize(lang) or DEFAULT


def _view(tutorial: Tutorial, lang: str) -> dict[str, Any]:
    """The learner's table and the current step, in ``lang``."""
    tr = Translator(lang)
    seat = tr(ENGLISH_SEAT)
    step = tutorial.step
    observation = tutorial.observation()
    observation.pop("log", None)
    # The learner's log, rendered here from its messages (the tutorial's page shows it as
    # it comes): each message's id and arguments, never its English text, translated.
    log = [render(m, lang, "log") for m in tutorial.state.log_messages(tutorial.lesson.seat)]
    return {
        "index": tutorial.index,
        "total": len(tutorial.lesson.steps),
        "finished": step is None,
        "key": None if step is None else step.key,
        "text": None if step is None else tr(step.text),
        "expect": None if step is None else step.expect,
        "observation": observation,
        "moves": _moves(tutorial),
        "log": [for_people(line, None, seat) for line in log],
    }


#: The most legal moves listed in a view (a Byzantium meld has hundreds: its page builds
#: the move from the cards chosen instead).
MAX_MOVES = 40


def _moves(tutorial: Tutorial) -> list[str]:
    """The learner's legal moves now, in notation, or none when there are more than
    :data:`MAX_MOVES` (they are the learner's own choices: nothing hidden)."""
    moves = [str(action) for action in tutorial.legal_actions()]
    return moves if len(moves) <= MAX_MOVES else []


@router.get("/learn/{name}", include_in_schema=False)
async def learn_page(name: str) -> FileResponse:
    """The tutorial page (404 for an unknown tutorial)."""
    _lesson(name)
    return FileResponse(STATIC_DIR / "learn.html")


# The two JSON endpoints replay the lesson's deal (milliseconds of CPU): plain functions,
# which FastAPI runs in its thread pool, so they never hold the event loop.
@router.get("/api/learn/{name}")
def learn_script(name: str, lang: str = "en") -> dict[str, Any]:
    """The tutorial ``name`` in ``lang`` and its table at the first step.

    Raises:
        HTTPException(404): no such tutorial.
    """
    lesson = _lesson(name)
    lang = _lang(lang)
    tr = Translator(lang)
    return {
        "name": lesson.name,
        "game": lesson.game,
        "title": tr(lesson.title),
        "steps": [
            {"key": s.key, "text": tr(s.text), "move": s.expect is not None} for s in lesson.steps
        ],
        "play": {
            "command": lesson.play_command,
            "game": lesson.game,
            "options": lesson.play_options,
            "seats": lesson.play_seats.split(","),
        },
        "view": _view(Tutorial(lesson), lang),
    }


@router.post("/api/learn/{name}/step")
def learn_step(name: str, body: StepIn) -> dict[str, Any]:
    """Check ``body.action`` at step ``body.step`` (see the module docstring).

    Returns:
        ``{"ok", "kind", "message", "view"}``: ``kind`` is ``ok``, ``illegal`` or
        ``lesson``; ``message`` the refusal in the learner's language; ``view`` the table
        and step after the move (unchanged when refused).

    Raises:
        HTTPException(404): no such tutorial; (400): a step beyond the end, or a move at an
            info step / none at a move step.
    """
    lesson = _lesson(name)
    lang = _lang(body.lang)
    if body.step >= len(lesson.steps):
        raise HTTPException(400, "the tutorial is over")
    tutorial = Tutorial(lesson, upto=body.step)
    step = tutorial.step
    assert step is not None
    action = (body.action or "").strip()
    if step.expect is None:
        if action:
            raise HTTPException(400, "this step expects no move: continue instead")
        tutorial.proceed()
        return {"ok": True, "kind": "ok", "message": "", "view": _view(tutorial, lang)}
    if not action:
        raise HTTPException(400, "this step expects a move")
    verdict = tutorial.attempt(action)
    if verdict.kind == "illegal":
        seat = Translator(lang)(ENGLISH_SEAT)
        message = for_people(translate_error(verdict.message, lang), None, seat)
    else:
        message = Translator(lang)(verdict.message) if verdict.message else ""
    return {
        "ok": verdict.ok,
        "kind": verdict.kind,
        "message": message,
        "view": _view(tutorial, lang),
    }
