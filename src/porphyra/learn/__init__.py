"""Interactive tutorials: scripted deals that teach a game one rule at a time.

:data:`LESSONS` maps a tutorial's name (``byzantium``, ``conspiracy``, ``solo``) to its
:class:`~porphyra.learn.script.Lesson`; :class:`~porphyra.learn.script.Tutorial` plays one.
The terminal (``porphyra learn GAME``, :mod:`porphyra.cli.learn`) and the browser
(``/learn/GAME``, :mod:`porphyra.server.routes.learn`) are two faces of the same runner.
"""

from __future__ import annotations

from porphyra.learn.byzantium import LESSON as BYZANTIUM
from porphyra.learn.conspiracy import LESSON as CONSPIRACY
from porphyra.learn.script import Lesson, Step, Tutorial, Verdict
from porphyra.learn.solo import LESSON as SOLO

#: Every tutorial, by name.
LESSONS: dict[str, Lesson] = {lesson.name: lesson for lesson in (BYZANTIUM, CONSPIRACY, SOLO)}

__all__ = ["LESSONS", "Lesson", "Step", "Tutorial", "Verdict"]
