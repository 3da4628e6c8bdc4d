"""What a game brings to the outer layers beside its rules, asked for through the registry
(:func:`porphyra.core.registry.adapter`, :func:`porphyra.core.registry.web_hooks`), so
that those layers never name a game.

:data:`ADAPTER_KINDS` lists the kinds a game may register (each with what it must be).

:class:`WebHooks` is the web server's part: each hook is optional, and a game without one
gets the server's plain behaviour (no course on the end screen, no derived figures, no
solo table).  A game declares its hooks in its own package (``games/<name>/web.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from porphyra.core.game import Game, State

#: The kinds of adapter a game may register in :mod:`porphyra.core.registry`, with what
#: each must be.  A game without one of a kind gets the asking layer's generic behaviour
#: (or, where there is none, that layer's clear error).
ADAPTER_KINDS: dict[str, str] = {
    "web": "a WebHooks (below): the web server's hooks",
    "heuristics": "a porphyra.bots.search_types.GameHeuristics: the easy bot, ISMCTS hooks",
    "styled_bot": "a class (seed: int, style: str) -> Bot: the easy bot in a play style",
    "redraw_bot": "a class (seed: int, redraw: str) -> Bot: the easy bot with a redraw rule",
    "terminal_view": "a class () -> porphyra.cli.views.GameView: the terminal's view",
    "codec": "a class (game) -> porphyra.envs.encoding.Codec: the research encoding",
    "research": "a porphyra.envs.hooks.ResearchHooks: env ids, zero-sum seat counts, docs",
    "balance": "a porphyra.balance.hooks.BalanceHooks: the balance lab's figures",
    "ladder": "a porphyra.tournament.ladder_hooks.LadderHooks: the bot ladder's tables",
}


@dataclass(frozen=True)
class WebHooks:
    """A game's hooks for the web server.

    Attributes:
        summary: the end screen's course of a finished game, from its game object and its
            public observations in order (the first before any action), each without its log
            (``public_observation(log=False)``); a JSON-ready dict.  None: the end screen
            has no course for this game.
        hidden: what the ``"all"`` view of a finished game's replay adds to the public
            observation of ``state`` (e.g. the draw piles in order); only ever called for
            finished games.  None: nothing.
        derived: figures computed from a public observation alone, for display (e.g. a
            live score breakdown); must read nothing but the observation, and not its log
            (it may be given one without: ``public_observation(log=False)``).  None: none (and
            the server need not build the public observation for them).
        solo_options: the options of a one-seat table against the game's own opponent,
            which the lobby offers when the engine accepts them.  None: no solo table.
        bot_text: the lobby's words for a bot level that plays otherwise in this game
            than its common description says (bot name -> English text marked ``N_``,
            translated by the page), e.g. a level measured no stronger than the one below
            it here.  None: the common descriptions.
    """

    summary: Callable[[Game, Iterable[dict[str, Any]]], dict[str, Any]] | None = None
    hidden: Callable[[State], dict[str, Any]] | None = None
    derived: Callable[[Game, dict[str, Any]], dict[str, Any]] | None = None
    solo_options: Mapping[str, Any] | None = None
    bot_text: Mapping[str, str] | None = None
