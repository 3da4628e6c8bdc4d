"""Play styles of the Byzantium heuristic (``easy:style=legacy``, ``easy:style=territory``).

The balance lab asks whether a strategy dominates (issue 30), so it needs differently
minded players.  Each style is the ``easy`` heuristic (:mod:`porphyra.bots.heuristic_byzantium`)
with a few decisions changed; everything else is the same, and plain ``easy`` is unchanged.

- ``legacy`` (**rushes Legacy cards**): as the Emperor it redraws (up to the limit of 4)
  every card that is neither a Legacy card nor a Leader, weakest first, after the cards
  that cannot enter its meld, digging for Legacy cards, which score Legacy Tokens even when
  the meld loses; it never passes a Legacy card while it holds another card.
- ``territory`` (**fights for Territory**): as the Emperor it redraws force-0 Legacy cards
  in favour of force (after the cards that cannot enter its meld), and as the Foe it always
  melds its strongest meld, pressing the Empire's Territory even where ``easy`` would hold
  back to avoid a collapse it would lose; it passes a Legacy card before any force.

Like ``easy``, a styled bot is deterministic and decides from its seat's observation only.
"""

from __future__ import annotations

from collections.abc import Callable

from porphyra.bots.heuristic_byzantium import (
    HeuristicBot,
    Situation,
    best_meld,
    decide,
    minus,
)
from porphyra.games.byzantium.cards import CardSet
from porphyra.games.byzantium.melds import REDRAW_LIMIT

#: The styles, with one line each for ``porphyra bots``.
STYLES: dict[str, str] = {
    "legacy": "rushes Legacy cards (redraws for them, never passes one)",
    "territory": "fights for Territory (redraws Legacy cards for force; the Foe never holds back)",
}


def _fill(chosen: list[int], rest: list[int], keep: Callable[[int], bool]) -> list[int]:
    """``chosen`` topped up to the redraw limit with the cards of ``rest`` (the hand less
    ``chosen``) for which ``keep`` is false, in the order given."""
    for k in rest:
        if len(chosen) >= REDRAW_LIMIT:
            break
        if not keep(k):
            chosen.append(k)
    return sorted(chosen)


def styled_decide(s: Situation, cardset: CardSet, style: str) -> tuple[str, list[int]]:
    """The decision of ``style`` for situation ``s``: ``(verb, card kinds)``.

    Raises:
        ValueError: an unknown style or decision verb.
    """
    if style not in STYLES:
        raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")
    cards, forces = cardset.cards, cardset.forces
    verb, kinds = decide(s, cardset)
    if s.verb == "redraw" and s.byzantine:
        meld = best_meld(s.hand, cardset, byzantine=True)
        surplus = sorted(minus(s.hand, meld), key=lambda k: (forces[k], cards[k].legacy, k))
        chosen = surplus[:REDRAW_LIMIT]
        by_force = sorted(minus(s.hand, chosen), key=lambda k: (forces[k], k))
        if style == "legacy":
            return "redraw", _fill(
                chosen, by_force, lambda k: cards[k].type in ("Legacy", "Leader")
            )
        return "redraw", _fill(
            chosen, by_force, lambda k: not (cards[k].type == "Legacy" and forces[k] == 0)
        )
    if s.verb == "meld" and not s.byzantine and style == "territory":
        return "meld", best_meld(s.hand, cardset, byzantine=False)
    if s.verb == "pass":
        legacy = [k for k in set(s.hand) if cards[k].type == "Legacy"]
        others = [k for k in set(s.hand) if cards[k].type != "Legacy"]
        if style == "legacy" and legacy and others and kinds[0] in legacy:
            return "pass", [min(others, key=lambda k: (forces[k], k))]
        if style == "territory" and legacy:
            return "pass", [min(legacy, key=lambda k: (forces[k], k))]
    return verb, kinds


class StyledHeuristicBot(HeuristicBot):
    """The ``easy`` heuristic with a play style (module docstring).

    Raises:
        ValueError: an unknown style (when built).
    """

    def __init__(self, seed: int = 0, style: str = "legacy") -> None:
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}; styles: {', '.join(STYLES)}")
        super().__init__(seed)
        self.style = style
        self.name = f"easy:style={style}"

    def decide(self, s: Situation, cardset: CardSet) -> tuple[str, list[int]]:
        """The styled decision (:func:`styled_decide`)."""
        return styled_decide(s, cardset, self.style)
