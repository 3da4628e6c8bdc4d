"""The bots' behaviour version, recorded with every tournament and ladder game.

A bot's move is a function of its seat's view, its spec and its seed (at an iteration
budget; a time budget adds the machine's speed).  ``BOTS_VERSION`` names that function: it
goes up by one whenever any bot would choose differently in some position, a new rule of
thumb, search setting or evaluation.  Results played by different versions are different
experiments: ``games.csv`` records the version of each game (its ``bots_version`` column),
and the ladder refuses to reuse games of another version (:mod:`porphyra.tournament.ladder`).

``tests/bots/test_bots_golden.py`` guards it: a handful of bot games at every level, whose
moves ``tests/golden/bots.json`` holds, must replay identically under the same version.
A change that moves them must raise this number, and then write that file again.

Versions: 1, the bots of 7 December 2026 (the 200-deal level runs and the ladder of
``docs/results/levels``; their ``games.csv`` predate the column and leave it out).
"""

from __future__ import annotations

#: The bots' behaviour version (a positive integer; see the module's docstring).
BOTS_VERSION = 1
