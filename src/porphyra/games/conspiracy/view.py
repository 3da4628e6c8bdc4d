"""Observations of a Conspiracy state: the one choke point where state becomes JSON.

Everything is public except the order of the two decks (C-R12): observations give deck
sizes only.  The exception is ``deck-search`` (C-R9, C-R12): while its owner is choosing
with ``locpick``, that seat's observation lists the Location deck's contents, sorted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from porphyra.core.game import JSONDict
from porphyra.games.conspiracy.cards import COLOURS

if TYPE_CHECKING:
    from porphyra.games.conspiracy.state import ConspiracyState


def _player(state: ConspiracyState, p: int) -> JSONDict:
    t = state.t
    chamber: list[Any] = [None] * 15
    covered = dict(zip(state.loc_slots[p], state.locs[p], strict=True))
    for i, k in enumerate(state.chambers[p]):
        loc = covered.get(i)
        chamber[i] = {"lord": t.name[k], "location": None if loc is None else t.slug[loc]}
    silver, gold = state.unspent_keys(p)
    return {
        "chamber": chamber,
        "pearls": state.pearls[p],
        "locations": [t.slug[i] for i in state.locs[p]],
        "unspent_keys": {"silver": silver, "gold": gold},
        "any_keys": state.any_keys[p],
        "deck_search": state.deck_search[p],
    }


def public(state: ConspiracyState) -> JSONDict:
    """The spectator view.

    Returns:
        ``{"game", "players": [{"chamber": [15 x null | {"lord", "location"}], "pearls",
        "locations", "unspent_keys", "any_keys", "deck_search"}], "pearl_master": seat |
        None, "piles": {colour: [lords]}, "face_up_locations", "lord_deck_size",
        "location_deck_size", "phase", "current_player", "first_player", "turn",
        "restriction": None | {"location", "owner", "count", "against"}, "end_triggered",
        "end_trigger_player", "drawn_lords" (pending keep), "to_place" (pile lords not yet
        placed), "drawn_locations" (pending lockeep), "scores" (when over, else None),
        "winners" (when over), "log": [str]}``.
    """
    t = state.t
    n = state.n
    over = state.is_terminal()
    restriction = None
    if state.restr_owner >= 0:
        owner = state.restr_owner
        restriction = {
            "location": t.slug[state.restr_loc],
            "owner": owner,
            "count": state.restr_count,
            "against": [p for p in range(n) if p != owner],
        }
    scores = state.scores() if over else None
    winners = None
    if scores is not None:
        returns = state.returns()
        best = max(returns)
        winners = [p for p in range(n) if returns[p] == best]
    return {
        "game": "conspiracy",
        "players": [_player(state, p) for p in range(n)],
        "pearl_master": None if state.pm < 0 else state.pm,
        "piles": {c: [t.name[k] for k in state.piles[i]] for i, c in enumerate(COLOURS)},
        "face_up_locations": [t.slug[i] for i in state.face_up],
        "lord_deck_size": len(state.deck),
        "location_deck_size": len(state.loc_deck),
        "phase": state.phase_name,
        "current_player": state.current_player(),
        "first_player": state.first,
        "turn": state.turn,
        "restriction": restriction,
        "end_triggered": state.end_trigger >= 0,
        "end_trigger_player": None if state.end_trigger < 0 else state.end_trigger,
        "drawn_lords": [t.name[k] for k in state.drawn],
        "to_place": [t.name[k] for k in state.pending],
        "drawn_locations": [t.slug[i] for i in state.drawn_locs],
        "scores": scores,
        "winners": winners,
        "log": list(state.log),
    }


def seat(state: ConspiracyState, player: int) -> JSONDict:
    """Seat ``player``'s view: :func:`public` plus ``"seat"`` and ``"location_deck"``
    (sorted slugs while that seat picks with deck-search, else None; C-R12)."""
    obs = public(state)
    obs["seat"] = player
    deck = None
    if (
        not state.is_terminal()
        and state.current == player
        and state.phase_name == "location"
        and state.deck_search[player]
        and state.loc_deck
    ):
        deck = sorted(state.t.slug[i] for i in state.loc_deck)
    obs["location_deck"] = deck
    return obs
