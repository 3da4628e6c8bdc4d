"""What Conspiracy brings to the web server (:class:`~porphyra.core.adapters.WebHooks`):
the live score breakdown shown beside the table, the decks of a finished game's replay,
and the solo table against the Legendary Opponent.

The score breakdown is computed from an observation alone, with the engine's own scoring:
all of Conspiracy's table is public (C-R12), so it cannot reveal more than the observation
it was given.
"""

from __future__ import annotations

from typing import Any

from porphyra.core.adapters import WebHooks
from porphyra.core.game import Game, State


def derived(game: Game, observation: dict[str, Any]) -> dict[str, Any]:
    """``{"scores": [per seat {lords, locations, coalition, pearl_master, total,
    pearls}]}``: the final scores once over, else the live breakdown computed with the
    engine's scoring from the observation's chambers, Locations, pearls and Pearl Master
    (``{}`` if the observation cannot be scored)."""
    from porphyra.games.conspiracy.live import live_scores

    try:
        return {"scores": live_scores(game.cards, observation)}  # type: ignore[attr-defined]
    except (KeyError, TypeError, ValueError, AttributeError):
        return {}


def hidden(state: State) -> dict[str, Any]:
    """What the ``"all"`` view of a finished game's replay adds to the public one: the
    Lord and Location decks in order (next card first)."""
    s: Any = state
    t = s.t
    return {
        "lord_deck": [t.name[k] for k in reversed(s.deck)],
        "location_deck": [t.slug[i] for i in reversed(s.loc_deck)],
    }


#: The web server's hooks (registered in :mod:`porphyra.core.registry`); the solo table
#: is one seat against the Farmer, the first Legendary Opponent (solo rules).
WEB = WebHooks(hidden=hidden, derived=derived, solo_options={"players": 1, "opponent": "farmer"})
