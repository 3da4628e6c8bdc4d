"""Observations of a Conspiracy state: the one choke point where state becomes JSON.

Everything is public except the order of the two decks (C-R12): observations give deck
sizes only.  The exception is ``deck-search`` (C-R9, C-R12): while its owner is choosing
with ``locpick``, that seat's observation lists the Location deck's contents, sorted.

Solo (section 4): ``players`` has two entries (you, then the LO); the LO's covered slots
carry ``"face_down": true`` and show the Location's slug if it was taken from the face-up
row, else ``"face-down"`` (its identity was never seen, S-R2).  Solo observations add
``legendary_opponent`` (the card), ``replay_token``, ``forced_draw_one`` (Military's
ability pending, S-R3) and ``lo_choice`` (the reason and the piles of a pending
``lopile``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from porphyra.core.game import JSONDict
from porphyra.games.conspiracy.cards import COLOURS
from porphyra.games.conspiracy.scoring import winners as score_winners
from porphyra.games.conspiracy.solo import FACE_DOWN, LO_SEAT

if TYPE_CHECKING:
    from porphyra.games.conspiracy.state import ConspiracyState


def _player(state: ConspiracyState, p: int) -> JSONDict:
    t = state.t
    chamber: list[Any] = [None] * 15
    lo = state.solo and p == LO_SEAT
    slugs = [t.slug[i] for i in state.locs[p]]
    if lo:  # S-R2: an unseen face-down Location shows no identity
        slugs = [FACE_DOWN if h else s for s, h in zip(slugs, state.lo_hidden, strict=True)]
    covered = dict(zip(state.loc_slots[p], slugs, strict=True))
    for i, k in enumerate(state.chambers[p]):
        slug = covered.get(i)
        cell: dict[str, Any] = {"lord": t.name[k], "location": slug}
        if lo and slug is not None:
            cell["face_down"] = True
        chamber[i] = cell
    silver, gold = state.unspent_keys(p)
    out: JSONDict = {
        "chamber": chamber,
        "pearls": state.pearls[p],
        "locations": slugs,
        "unspent_keys": {"silver": silver, "gold": gold},
        "any_keys": state.any_keys[p],
        "deck_search": state.deck_search[p],
    }
    if state.solo:
        out["legendary_opponent"] = lo
    return out


def public(state: ConspiracyState, log: bool = True) -> JSONDict:
    """The spectator view (``log=False``: ``"log"`` left empty, for readers of the other
    fields only, such as the research tensors: formatting and copying the lines is much of
    an observation's cost).

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
            "against": [] if state.solo else [p for p in range(n) if p != owner],
        }
    scores = state.scores() if over else None
    winners = None if scores is None else score_winners(scores)
    obs: JSONDict = {
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
        "log": state.log if log else [],
    }
    if state.solo:
        obs["legendary_opponent"] = state.opponent.card()
        obs["replay_token"] = state.replay_token
        obs["forced_draw_one"] = state.force_draw
        obs["lo_choice"] = (
            {"reason": state.lo_reason, "piles": [COLOURS[c] for c in state.lo_candidates]}
            if state.phase_name == "lopile"
            else None
        )
    return obs


def seat(state: ConspiracyState, player: int, log: bool = True) -> JSONDict:
    """Seat ``player``'s view: :func:`public` (``log``: as there) plus ``"seat"`` and
    ``"location_deck"`` (sorted slugs while that seat picks with deck-search, else None;
    C-R12)."""
    return add_seat(state, public(state, log), player)


def add_seat(state: ConspiracyState, obs: JSONDict, player: int) -> JSONDict:
    """``obs``, a :func:`public` view of ``state`` (or a copy of one), made seat
    ``player``'s in place: ``"seat"`` and ``"location_deck"`` added (C-R12, as
    :func:`seat`); returns ``obs``."""
    obs["seat"] = player
    deck = None
    if state._deck_shown(player):
        deck = sorted(state.t.slug[i] for i in state.loc_deck)
    obs["location_deck"] = deck
    return obs
