"""What a game brings to the research environments beside its codec, registered with the
registry as the ``"research"`` adapter (:func:`porphyra.core.registry.adapter`), so that
the Gymnasium, PettingZoo and OpenSpiel adapters and ``docs/envs.md`` name no game.

:data:`BYZANTIUM` and :data:`CONSPIRACY` are the two games' hooks; a third game registers
its own :class:`ResearchHooks` (and its ``"codec"``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from porphyra.core.registry import adapter, registered_games


@dataclass(frozen=True)
class ResearchHooks:
    """A game's part of the research environments.

    Attributes:
        title: the game's short title in environment ids: Gymnasium's
            ``porphyra/<title>-v0``, OpenSpiel's long name ``porphyra <title>`` and its
            Python class ``<title>Game``.
        zero_sum: whether ``returns()`` sum to zero with that many seats (OpenSpiel's
            utility type).
        doc_configs: the configurations ``docs/envs.md`` describes: ``(heading, engine
            options)`` each.
        action_ids_in_docs: whether ``docs/envs.md`` lists the action ids of a
            configuration (from its engine options).
        parallel: PettingZoo's ``parallel_env`` exists for the game.
        default_for: the adapters (``"gymnasium"``, ``"pettingzoo"``) whose ``game``
            argument defaults to this game.
    """

    title: str
    zero_sum: Callable[[int], bool]
    doc_configs: tuple[tuple[str, Mapping[str, int]], ...]
    action_ids_in_docs: Callable[[Mapping[str, int]], bool]
    parallel: bool = False
    default_for: tuple[str, ...] = ()


def research_games() -> list[str]:
    """The registered games with research hooks, sorted."""
    return [g for g in registered_games() if adapter(g, "research") is not None]


def research_hooks(game: str) -> ResearchHooks:
    """The research hooks of ``game``.

    Raises:
        ValueError: the game has none (or is unknown).
    """
    hooks = adapter(game, "research") if game in registered_games() else None
    if not isinstance(hooks, ResearchHooks):
        raise ValueError(f"no research environment for game {game!r}")
    return hooks


def default_game(api: str) -> str:
    """The game that ``api``'s (``"gymnasium"``, ``"pettingzoo"``) ``game`` argument
    defaults to.

    Raises:
        LookupError: no registered game is that adapter's default.
    """
    for game in research_games():
        if api in research_hooks(game).default_for:
            return game
    raise LookupError(f"no game is the default of {api}")


def parallel_games() -> list[str]:
    """The games that have PettingZoo's ``parallel_env``, sorted."""
    return [g for g in research_games() if research_hooks(g).parallel]


BYZANTIUM = ResearchHooks(
    title="Byzantium",
    zero_sum=lambda players: True,
    doc_configs=(("Byzantium", {}),),
    action_ids_in_docs=lambda options: True,
    parallel=True,
    default_for=("pettingzoo",),
)

CONSPIRACY = ResearchHooks(
    title="Conspiracy",
    # (one winner +1 and one loser -1, or a shared win 0 and 0, C-R11; with 3-4 players
    # all losers get -1, and solo has one seat)
    zero_sum=lambda players: players == 2,
    doc_configs=(
        ("Conspiracy, 2 players", {"players": 2}),
        ("Conspiracy, 3 players", {"players": 3}),
        ("Conspiracy, 4 players", {"players": 4}),
        ("Conspiracy, solo", {"players": 1}),
    ),
    action_ids_in_docs=lambda options: options.get("players") == 2,
    default_for=("gymnasium",),
)
