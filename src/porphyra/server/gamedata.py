"""Public game data for the browser: card lists, bot menus, and figures derived from an
observation alone (never from the state).

Everything here is public: the card lists are the games' data files, and :func:`derived`
computes e.g. Conspiracy's live score breakdown from an observation with the engine's own
scoring (all of Conspiracy's table is public, C-R12), so it cannot reveal more than the
observation it was given.
"""

from __future__ import annotations

import functools
from typing import Any

from porphyra.bots import bot_names
from porphyra.core.errors import PorphyraError
from porphyra.core.game import Game
from porphyra.core.registry import load_game

#: Bot difficulties offered first in the lobby (others from ``bot_names()`` follow).
PREFERRED_BOTS = ("easy", "medium", "hard", "random")

#: Simultaneous decision phases (public ``phase`` names) per game: within one of them the
#: engine asks the seats one after the other (Byzantium B-R3, Emperor first), but any seat
#: may submit first; the server queues an early choice.
SIMULTANEOUS_PHASES: dict[str, frozenset[str]] = {
    "byzantium": frozenset({"redraw", "meld", "pass"}),
}


def lobby_bots() -> list[str]:
    """Bot names for the lobby's seat menus: the difficulties first, then the rest."""
    names = bot_names()
    first = [b for b in PREFERRED_BOTS if b in names]
    return first + [b for b in names if b not in first and b != "bot"]


@functools.cache
def solo_supported() -> bool:
    """True once the engine accepts ``load_game("conspiracy", players=1, opponent=...)``."""
    try:
        load_game("conspiracy", players=1, opponent="farmer")
    except (PorphyraError, TypeError, ValueError):
        return False
    return True


@functools.cache
def card_data(name: str) -> dict[str, Any]:
    """The public card data of game ``name`` for the browser.

    Returns:
        Byzantium: ``{"cards": {slug: {name, deck, type, force, ages, unique, legacy,
        natural}}, "limits": {deck: {type: n}}, "redraw_limit"}``.  Conspiracy:
        ``{"lords": {name: {colour, ip, key, pearls, effect}}, "locations": {slug: {ip,
        effect, text, bonus}}, "colours": [...]}``.

    Raises:
        UnknownGameError: ``name`` is not a registered game.
    """
    game = load_game(name)
    if name == "byzantium":
        from porphyra.games.byzantium import melds

        return {
            "cards": {
                c.slug: {
                    "name": c.name,
                    "deck": c.deck,
                    "type": c.type,
                    "force": c.force,
                    "ages": c.ages,
                    "unique": c.unique,
                    "legacy": c.legacy,
                    "natural": c.natural,
                }
                for c in game.cards()  # type: ignore[attr-defined]
            },
            "limits": melds.LIMITS,
            "max_natural": melds.MAX_NATURAL_DISASTERS,
            "redraw_limit": melds.REDRAW_LIMIT,
        }
    if name == "conspiracy":
        from porphyra.games.conspiracy.cards import COLOURS

        cards = game.cards  # type: ignore[attr-defined]
        return {
            "colours": list(COLOURS),
            "lords": {
                lord.name: {
                    "colour": COLOURS[lord.colour],
                    "ip": lord.ip,
                    "key": {0: None, 1: "silver", 2: "gold"}.get(lord.key),
                    "pearls": lord.pearls,
                    "effect": {0: None, 1: "swap", 2: "reveal"}.get(lord.effect),
                }
                for lord in cards.lords
            },
            "locations": {
                loc.slug: {
                    "ip": loc.ip,
                    "effect": loc.effect,
                    "bonus": loc.bonus,
                    "text": location_text(loc.effect, dict(loc.params)),
                }
                for loc in cards.locations
            },
        }
    return {}


def location_text(effect: str, params: dict[str, Any]) -> str:
    """A one-line description of a Conspiracy Location effect (rules section 1)."""
    per = params.get("per")
    return {
        "none": "",
        "pearls": f"gain {params.get('amount')} pearl(s) now",
        "silver-keys": f"end: +{per} IP per silver key",
        "gold-keys": f"end: +{per} IP per gold key",
        "pearl-pairs": f"end: +{per} IP per 2 pearls",
        "domains": f"end: +{per} IP per Location you control",
        "restrict-draw": f"others must draw exactly {params.get('count')} until your turn",
        "reshuffle-lords": "now: discarded lords back into the deck",
        "reshuffle-locations": "now: face-up Locations back into the deck",
        "any-keys": "any 2 keys take a Location",
        "deck-search": "take Locations by choosing from the deck",
        "max-colour": f"end: IP of your best {params.get('colour')} lord",
        "count-colour": f"end: +{per} IP per {params.get('colour')} lord",
        "alliance": f"end: +{per} IP per lord in your largest {params.get('lord_ip')}-IP group",
        "extremes": f"end: +{per} IP per 0-IP and 6-IP lord",
    }.get(effect, effect)


def derived(game: Game, observation: dict[str, Any]) -> dict[str, Any]:
    """Figures computed from ``observation`` alone, for display.

    Conspiracy: ``{"scores": [per seat {lords, locations, coalition, pearl_master, total,
    pearls}]}``, the final scores once over, else the live breakdown computed with the
    engine's scoring from the observation's chambers, Locations, pearls and Pearl Master.
    Other games: ``{}``.
    """
    if game.info.name != "conspiracy":
        return {}
    from porphyra.games.conspiracy.live import live_scores

    try:
        return {"scores": live_scores(game.cards, observation)}  # type: ignore[attr-defined]
    except (KeyError, TypeError, ValueError, AttributeError):
        return {}
