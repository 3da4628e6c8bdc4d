"""Registry of games: ``load_game(name, **options)``.

Games register by import path so that importing ``porphyra`` stays cheap and a game's
modules load only when it is used.
"""

from __future__ import annotations

import functools
import importlib
import json
from collections.abc import Mapping
from typing import Any

from porphyra.core.adapters import ADAPTER_KINDS, WebHooks
from porphyra.core.errors import UnknownGameError
from porphyra.core.game import Game, GameInfo
from porphyra.core.messages import msg

_GAMES: dict[str, str] = {
    "byzantium": "porphyra.games.byzantium.game:ByzantiumGame",
    "conspiracy": "porphyra.games.conspiracy.game:ConspiracyGame",
}


#: What each game brings to the outer layers beside its rules (its bots' hooks, terminal
#: view, codec for the research environments, balance figures, web hooks), by kind, as
#: import paths ``"module:attribute"`` loaded when first asked for (:func:`adapter`).
#: The kinds and what each must be: :data:`porphyra.core.adapters.ADAPTER_KINDS`.  This
#: table and ``_GAMES`` are the one place outside ``games/`` that names a game.
_ADAPTERS: dict[str, dict[str, str]] = {
    "byzantium": {
        "web": "porphyra.games.byzantium.web:WEB",
        "heuristics": "porphyra.bots.byzantium_search:HEURISTICS",
        "styled_bot": "porphyra.bots.byzantium_styles:StyledHeuristicBot",
        "redraw_bot": "porphyra.bots.heuristic_byzantium:HeuristicBot",
        "terminal_view": "porphyra.cli.byzantium_view:ByzantiumView",
        "codec": "porphyra.envs.codecs:ByzantiumCodec",
        "research": "porphyra.envs.hooks:BYZANTIUM",
        "balance": "porphyra.balance.hooks:BYZANTIUM",
        "ladder": "porphyra.tournament.ladder_hooks:BYZANTIUM",
    },
    "conspiracy": {
        "web": "porphyra.games.conspiracy.web:WEB",
        "heuristics": "porphyra.bots.heuristic_conspiracy:HEURISTICS",
        "terminal_view": "porphyra.cli.conspiracy_view:ConspiracyView",
        "codec": "porphyra.envs.codecs:ConspiracyCodec",
        "research": "porphyra.envs.hooks:CONSPIRACY",
        "balance": "porphyra.balance.hooks:CONSPIRACY",
        "ladder": "porphyra.tournament.ladder_hooks:CONSPIRACY",
    },
}


def registered_games() -> list[str]:
    """Names accepted by :func:`load_game`, sorted."""
    return sorted(_GAMES)


def solo_games() -> list[str]:
    """The registered games with a solo mode (one seat against the game's own opponent:
    ``min_players`` 1), sorted."""
    return [name for name in registered_games() if game_info(name).min_players == 1]


def game_info(name: str) -> GameInfo:
    """The metadata of game ``name`` (with its declared options), without making a game.

    Raises:
        UnknownGameError: ``name`` is not registered.
    """
    return _game_class(name).info


def load_game(name: str, **options: Any) -> Game:
    """Create the game ``name`` with ``options``, under the current rules.

    Args:
        name: a registered game id (see :func:`registered_games`).
        **options: game options, e.g. ``first_emperor=1`` for Byzantium.

    Returns:
        The :class:`~porphyra.core.game.Game`.

    Raises:
        UnknownGameError: ``name`` is not registered or an option is unknown or invalid.
        CardDataError: a ``cards`` option names a card file that does not validate.
    """
    game: Game = _game_class(name)(**options)
    return game


def load_game_version(name: str, version: str, options: Mapping[str, Any]) -> Game:
    """Create the game ``name`` with ``options`` under rules ``version``: the current rules,
    or an older version the game still replays (``Game.for_version``), for old records.

    Raises:
        UnknownGameError: ``name`` is not registered, an option is invalid, or the game
            cannot rebuild rules ``version``.
    """
    cls = _game_class(name)
    if version == cls.info.version:
        return cls(**options)
    return cls.for_version(version, dict(options))


#: Game objects shared by every game of a process with the same options and rules version
#: (their caches, e.g. Byzantium's interned actions and the card data, then serve every
#: game instead of starting cold): the web server's games, tournaments and balance
#: campaigns alike.
_SHARED: dict[str, Game] = {}


def shared_game(name: str, options: dict[str, Any], version: str | None = None) -> Game:
    """The shared :class:`Game` for ``name`` with ``options`` under rules ``version``
    (default: the current rules), made by ``load_game`` once.

    Raises:
        UnknownGameError: unknown game, invalid options or an unknown rules version (as
            ``load_game``).
    """
    key = f"{name}:{version}:{json.dumps(options, sort_keys=True)}"
    game = _SHARED.get(key)
    if game is None:
        game = _SHARED[key] = (
            load_game(name, **options)
            if version is None
            else load_game_version(name, version, options)
        )
    return game


def _game_class(name: str) -> type[Game]:
    try:
        target = _GAMES[name]
    except KeyError:
        raise UnknownGameError(
            msg("unknown game {0}; known games: {1}", repr(name), ", ".join(registered_games()))
        ) from None
    module_name, _, cls_name = target.partition(":")
    cls: type[Game] = getattr(importlib.import_module(module_name), cls_name)
    return cls


@functools.cache
def adapter(name: str, kind: str) -> Any | None:
    """What game ``name`` brings to the outer layers of ``kind`` (one of
    :data:`~porphyra.core.adapters.ADAPTER_KINDS`), imported once; None when the game
    registers none of that kind (the asking layer then uses its generic behaviour).

    Raises:
        UnknownGameError: ``name`` is not a registered game.
        ValueError: ``kind`` is not a known kind.
    """
    if name not in _GAMES:
        _game_class(name)  # (raises the registry's own error)
    if kind not in ADAPTER_KINDS:
        raise ValueError(f"unknown adapter kind {kind!r}; kinds: {', '.join(ADAPTER_KINDS)}")
    target = _ADAPTERS.get(name, {}).get(kind)
    if target is None:
        return None
    module_name, _, attribute = target.partition(":")
    return getattr(importlib.import_module(module_name), attribute)


def games_with(kind: str) -> list[str]:
    """The registered games that bring an adapter of ``kind``, sorted (e.g. the games with
    a research codec, or with play styles).

    Raises:
        ValueError: ``kind`` is not a known kind.
    """
    if kind not in ADAPTER_KINDS:
        raise ValueError(f"unknown adapter kind {kind!r}; kinds: {', '.join(ADAPTER_KINDS)}")
    return [name for name in registered_games() if kind in _ADAPTERS.get(name, {})]


@functools.cache
def web_hooks(name: str) -> WebHooks:
    """The web server's hooks of game ``name`` (a game that registers none gets
    ``WebHooks()``: every hook absent).

    Raises:
        UnknownGameError: ``name`` is not a registered game.
    """
    hooks: WebHooks | None = adapter(name, "web")
    return WebHooks() if hooks is None else hooks
