"""Public game data for the browser: card lists, bot menus, and figures derived from an
observation alone (never from the state).

Everything here is public: the card lists are the games' data files, and :func:`derived`
asks the game's own hook for figures computed from an observation alone (e.g. Conspiracy's
live score breakdown, see :mod:`porphyra.games.conspiracy.web`), so it cannot reveal more
than the observation it was given.
"""

from __future__ import annotations

import functools
from typing import Any

from porphyra.bots import bot_names
from porphyra.core.errors import PorphyraError
from porphyra.core.game import Game
from porphyra.core.registry import load_game, registered_games, web_hooks
from porphyra.i18n import N_
from porphyra.i18n.names import location_name

#: Bot difficulties offered first in the lobby (others from ``bot_names()`` follow).
PREFERRED_BOTS = ("easy", "medium", "hard", "random")
#: Names that are another name's alias (``bot`` is ``random``, ``heuristic`` is ``easy``):
#: accepted everywhere, never listed twice in the lobby.
BOT_ALIASES = {"bot": "random", "heuristic": "easy"}
#: What each lobby bot is, in plain words (the lobby's seat menus show these).
LOBBY_BOT_TEXT = {
    "easy": N_("Easy: plays by rules of thumb, at once"),
    "medium": N_("Medium: thinks half a second a move"),
    "hard": N_("Hard: thinks 2 seconds a move, four times Medium's search"),
    "random": N_("Random: any legal move (for trying things out)"),
    "greedy": N_("Greedy: tries each move one step ahead on sampled deals"),
    "ismcts": N_("Steady: searches 1000 positions a move, the same moves for the same deal"),
}


def lobby_bots() -> list[str]:
    """Bot names for the lobby's seat menus: the difficulties first, then the rest,
    without aliases."""
    names = [b for b in bot_names() if b not in BOT_ALIASES]
    first = [b for b in PREFERRED_BOTS if b in names]
    return first + [b for b in names if b not in first]


def lobby_bot_text() -> dict[str, str]:
    """``{bot name: what it is in plain words}`` for every lobby bot."""
    return {b: LOBBY_BOT_TEXT.get(b, b) for b in lobby_bots()}


def lobby_game_bot_text(game: str) -> dict[str, str]:
    """``{bot name: text}`` of the lobby bots that game ``game`` describes otherwise than
    :func:`lobby_bot_text` (its :attr:`~porphyra.core.adapters.WebHooks.bot_text`; ``{}``
    for most games).

    Raises:
        UnknownGameError: ``game`` is not a registered game.
    """
    return dict(web_hooks(game).bot_text or {})


@functools.cache
def solo_supported() -> bool:
    """True once the engine accepts the solo table of a game that offers one (its
    :attr:`~porphyra.core.adapters.WebHooks.solo_options`, e.g. one seat against an
    opponent)."""
    for name in registered_games():
        options = web_hooks(name).solo_options
        if options is None:
            continue
        try:
            load_game(name, **options)
        except (PorphyraError, TypeError, ValueError):
            continue
        return True
    return False


@functools.cache
def card_data(name: str) -> dict[str, Any]:
    """The public card data of game ``name`` for the browser (``Game.card_data()``), each
    Conspiracy Location with its English ``name`` (:data:`porphyra.i18n.names.
    LOCATION_NAMES`, a term the page translates: the page never shows a slug).

    Raises:
        UnknownGameError: ``name`` is not a registered game.
    """
    data = load_game(name).card_data()
    locations = data.get("locations")
    if isinstance(locations, dict):
        data = {
            **data,
            "locations": {
                slug: {**info, "name": location_name(slug)} for slug, info in locations.items()
            },
        }
    return data


def has_derived(game: Game) -> bool:
    """True if :func:`derived` computes anything for ``game`` (else it is always ``{}``, and
    the server need not build the public observation it would read)."""
    return web_hooks(game.info.name).derived is not None


def derived(game: Game, observation: dict[str, Any]) -> dict[str, Any]:
    """Figures computed from ``observation`` alone, for display, by the game's own hook
    (:attr:`~porphyra.core.adapters.WebHooks.derived`; e.g. Conspiracy's live score
    breakdown); ``{}`` for a game without one."""
    hook = web_hooks(game.info.name).derived
    return {} if hook is None else hook(game, observation)
