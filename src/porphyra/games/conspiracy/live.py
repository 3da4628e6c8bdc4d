"""Live scores computed from an observation alone (what a seat or spectator can see).

The terminal and the browser both show "the score if the game ended now"; both compute it
here, with the engine's own scoring, so the two can never disagree with ``scores()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from porphyra.games.conspiracy.cards import CardSet
from porphyra.games.conspiracy.scoring import score_player
from porphyra.games.conspiracy.solo import FACE_DOWN_IP, bonus, default_opponents


def live_scores(cards: CardSet, observation: Mapping[str, Any]) -> list[dict[str, int]]:
    """Each seat's score by category (``lords``, ``locations``, ``coalition``,
    ``pearl_master``, ``total``, ``pearls``; the Legendary Opponent also ``lo_bonus``), in
    IP, from ``observation`` (``public_observation()`` or a seat's); the final scores once
    the game is over (rules section 3.5; solo section 4).

    Raises:
        KeyError: the observation names a lord or Location not in ``cards``.
    """
    if observation.get("scores"):
        return [dict(s) for s in observation["scores"]]
    result = []
    for seat, player in enumerate(observation["players"]):
        chamber = [cards.lord_index[c["lord"]] for c in player["chamber"] if c]
        pearls = int(player.get("pearls", 0))
        pm = observation.get("pearl_master") == seat
        if player.get("legendary_opponent"):
            result.append(_lo_score(cards, observation, chamber, player, pearls, pm))
            continue
        locs = [cards.location_index[s] for s in player.get("locations", [])]
        result.append(dict(score_player(cards, chamber, locs, pearls, pm)))
    return result


def _lo_score(
    cards: CardSet,
    observation: Mapping[str, Any],
    chamber: list[int],
    player: Mapping[str, Any],
    pearls: int,
    pm: bool,
) -> dict[str, int]:
    """The Legendary Opponent's score: its face-down Locations are worth a fixed value each
    and have no effect, plus its card's bonus (section 4)."""
    score = dict(score_player(cards, chamber, [], pearls, pm))
    n_locs = len(player.get("locations", []))
    name = (observation.get("legendary_opponent") or {}).get("name")
    card = next((o for o in default_opponents() if o.name == name), None)
    extra = 0 if card is None else bonus(card, cards, chamber, n_locs, pearls)
    score["locations"] = FACE_DOWN_IP * n_locs
    score["lo_bonus"] = extra
    score["total"] += score["locations"] + extra
    return score
