"""End-game scoring by category (rules section 3.5) and the winners (tie-break, C-R11).

All figures are IP (influence points) except ``pearls``.
"""

from __future__ import annotations

from collections.abc import Sequence

from porphyra.core.outcome import returns_from_keys, top_seats
from porphyra.games.conspiracy.cards import COLOURS, KEY_GOLD, KEY_SILVER, CardSet
from porphyra.games.conspiracy.chamber import largest_group

PEARL_MASTER_IP = 5
COALITION_IP = 3

ScoreDict = dict[str, int]


def location_ip(
    cards: CardSet, loc: int, chamber: Sequence[int], locations: Sequence[int], pearls: int
) -> int:
    """IP of one Location a player controls: base IP plus its end-game effect (section 1).

    Args:
        cards: the card data.
        loc: the Location id.
        chamber: the owner's lord kinds by slot.
        locations: every Location id the owner controls (for ``domains``).
        pearls: the owner's pearls (for ``pearl-pairs``).

    Returns:
        The Location's IP.
    """
    card = cards.locations[loc]
    lords = cards.lords
    effect = card.effect
    ip = card.ip
    if effect == "silver-keys":
        ip += card.param("per") * sum(lords[k].key == KEY_SILVER for k in chamber)
    elif effect == "gold-keys":
        ip += card.param("per") * sum(lords[k].key == KEY_GOLD for k in chamber)
    elif effect == "pearl-pairs":
        ip += card.param("per") * (pearls // 2)
    elif effect == "domains":
        ip += card.param("per") * len(locations)
    elif effect == "max-colour":
        colour = COLOURS.index(card.param("colour"))
        ip += max((lords[k].ip for k in chamber if lords[k].colour == colour), default=0)
    elif effect == "count-colour":
        colour = COLOURS.index(card.param("colour"))
        ip += card.param("per") * sum(lords[k].colour == colour for k in chamber)
    elif effect == "alliance":
        want = card.param("lord_ip")
        size = largest_group(chamber, lambda k: want if lords[k].ip == want else -1)
        ip += card.param("per") * size
    elif effect == "extremes":
        ips = card.param("ips")
        ip += card.param("per") * sum(lords[k].ip in ips for k in chamber)
    return ip


def score_player(
    cards: CardSet,
    chamber: Sequence[int],
    locations: Sequence[int],
    pearls: int,
    pearl_master: bool,
) -> ScoreDict:
    """The score of one player by category (section 3.5).

    Args:
        cards: the card data.
        chamber: lord kinds by 0-based slot.
        locations: the Location ids the player controls.
        pearls: the player's pearls.
        pearl_master: whether the player holds the Pearl Master token.

    Returns:
        ``{"lords", "locations", "coalition", "pearl_master", "total", "pearls"}``: lords =
        sum over colours of the highest lord's IP; locations = base IP + end-game effects;
        coalition = 3 x the size of the largest same-colour connected group; pearl_master
        = 5 or 0; total = the sum of those four (IP); pearls = pearl count (tie-break).
    """
    lords = cards.lords
    best: dict[int, int] = {}
    for k in chamber:
        lord = lords[k]
        if lord.ip > best.get(lord.colour, -1):
            best[lord.colour] = lord.ip
    lord_ip = sum(best.values())
    loc_ip = sum(location_ip(cards, loc, chamber, locations, pearls) for loc in locations)
    coalition = COALITION_IP * largest_group(chamber, lambda k: lords[k].colour)
    pm = PEARL_MASTER_IP if pearl_master else 0
    return {
        "lords": lord_ip,
        "locations": loc_ip,
        "coalition": coalition,
        "pearl_master": pm,
        "total": lord_ip + loc_ip + coalition + pm,
        "pearls": pearls,
    }


def winners(scores: Sequence[ScoreDict]) -> list[int]:
    """Seats that win: highest total, then most pearls; a remaining tie shares (C-R11).

    Args:
        scores: per seat, a dict from :func:`score_player`.

    Returns:
        The winning seats, sorted.
    """
    return top_seats(_keys(scores))


def returns_for(scores: Sequence[ScoreDict]) -> list[float]:
    """``returns()`` convention: winners +1, others -1; all 0 if every seat shares the win.

    Args:
        scores: per seat, a dict from :func:`score_player`.

    Returns:
        One float per seat.
    """
    return returns_from_keys(_keys(scores))


def _keys(scores: Sequence[ScoreDict]) -> list[tuple[int, int]]:
    """The winner's key of each seat: total IP, then pearls (C-R11)."""
    return [(s["total"], s["pearls"]) for s in scores]
