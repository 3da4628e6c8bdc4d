"""Byzantium's fixed numbers (``shared/rules/byzantium.md`` sections 1 and 3), the decision
phases of a turn, and the multiset difference the zones are updated with.

Shared by the state (:mod:`porphyra.games.byzantium.state`), the deck zones
(:mod:`~porphyra.games.byzantium.decks`), the turn sequence
(:mod:`~porphyra.games.byzantium.turn`) and the views (:mod:`~porphyra.games.byzantium.view`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

BYZ: Final = 0
FOE: Final = 1
DECK_NAMES: Final = ("byzantine", "foe")
TURNS: Final = 12
START_LT: Final = 10
START_TT: Final = 10
MAX_TT: Final = 20
COLLAPSE_PENALTY: Final = 3
FOE_HAND: Final = 8
BYZ_HAND: Final = (9, 8, 7)  # by age (section 3, phase 1)
REVEALED_DRAWS: Final = 4
PUBLIC: Final = -1

# Decision phases: (public phase name, who decides: BYZ = Emperor, FOE = the Foe player)
PHASES: Final[dict[str, tuple[str, int]]] = {
    "redraw_byz": ("redraw", BYZ),
    "redraw_foe": ("redraw", FOE),
    "meld_byz": ("meld", BYZ),
    "meld_foe": ("meld", FOE),
    "target": ("target", BYZ),
    "replace": ("replace", FOE),
    "pass_byz": ("pass", BYZ),
    "pass_foe": ("pass", FOE),
}
#: The first phase of each secret simultaneous decision (B-R3): the Emperor is its canonical
#: seat, but the Foe may choose first; the second phase (``*_foe``) waits for the Foe alone.
SIMULTANEOUS: Final = frozenset({"redraw_byz", "meld_byz", "pass_byz"})


def minus(items: list[int], remove: Sequence[int]) -> list[int]:
    """Multiset difference ``items - remove`` (missing items are ignored)."""
    out = list(items)
    for k in remove:
        # out.remove(k), as a compiled loop over ints (``in`` and ``remove`` compare
        # through the generic object protocol).
        for i in range(len(out)):
            if out[i] == k:
                out.pop(i)
                break
    return out
