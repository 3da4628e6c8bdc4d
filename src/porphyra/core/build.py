"""Which engine modules are compiled with mypyc (``setup.py`` builds them).

A regular install compiles the modules of :data:`COMPILED` into C extensions; an editable
install, or ``PORPHYRA_PURE_PYTHON=1`` at build time, leaves them interpreted.  Both behave
the same; the compiled ones are several times faster.  This module imports nothing from
porphyra, so that ``setup.py`` can read :data:`COMPILED` before anything is installed.

Writing for the compiler: the hot modules declare their constants ``Final`` (mypyc then
reads them as C statics, or inlines them, instead of looking each one up in the module's
dict), and their inner loops avoid builtins with more than two arguments (``min(a, b, c)``
is a generic call).  A ``Final`` name cannot be patched at run time: tests that patch a
module constant must pick one that is not ``Final``.
"""

from __future__ import annotations

import importlib.util
import sys

#: The modules compiled with mypyc: the two engines' rules and state, the shuffle, the
#: search bots' inner loops, and the research environments' encoding (action tables and
#: tensors; it imports numpy, from the ``rl`` extra, only when used).  Everything else
#: (CLI, server, the adapters themselves) stays interpreted.
COMPILED = (
    "porphyra.core.randomness",
    "porphyra.core.seatarg",
    "porphyra.games.byzantium.decks",
    "porphyra.games.byzantium.legal",
    "porphyra.games.byzantium.melds",
    "porphyra.games.byzantium.ranked",
    "porphyra.games.byzantium.rules",
    "porphyra.games.byzantium.state",
    "porphyra.games.byzantium.turn",
    "porphyra.games.byzantium.view",
    "porphyra.games.conspiracy.base",
    "porphyra.games.conspiracy.chamber",
    "porphyra.games.conspiracy.legal",
    "porphyra.games.conspiracy.locations",
    "porphyra.games.conspiracy.scoring",
    "porphyra.games.conspiracy.state",
    "porphyra.games.conspiracy.tables",
    "porphyra.games.conspiracy.turn",
    "porphyra.games.conspiracy.view",
    "porphyra.bots.heuristic_byzantium",
    "porphyra.bots.byzantium_search",
    "porphyra.bots.ismcts",
    "porphyra.bots.ismcts_tree",
    "porphyra.envs.codecs",
    "porphyra.envs.encoding",
)


def compiled_modules() -> dict[str, bool]:
    """Each module of :data:`COMPILED`, and whether the one loaded (or, if it is not
    imported yet, the one an import would load) is a compiled extension (True) or its
    Python source (False).  Nothing is imported but the modules' packages, so the check
    needs no extra's dependencies.

    Raises:
        ModuleNotFoundError: a module of :data:`COMPILED` is not installed.
    """
    result = {}
    for name in COMPILED:
        module = sys.modules.get(name)
        if module is not None:
            path = getattr(module, "__file__", None) or ""
        else:
            spec = importlib.util.find_spec(name)
            if spec is None:
                raise ModuleNotFoundError(f"{name} is not installed", name=name)
            path = spec.origin or ""
        result[name] = not path.endswith(".py")
    return result


def engine_build() -> str:
    """``"compiled"`` (every module of :data:`COMPILED` is), ``"interpreted"`` (none is),
    or ``"mixed"`` (a partial or stale build)."""
    states = set(compiled_modules().values())
    if states == {True}:
        return "compiled"
    return "interpreted" if states == {False} else "mixed"
