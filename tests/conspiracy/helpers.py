"""Scenario builders for the Conspiracy tests: stacked decks, acting by notation."""

from __future__ import annotations

from typing import Any

import porphyra
from porphyra.games.conspiracy import ConspiracyGame, ConspiracyState


def new(
    players: int = 2,
    lords: list[str] | None = None,
    locations: list[str] | None = None,
    first: int = 0,
    seed: int = 0,
    **options: Any,
) -> ConspiracyState:
    """A fresh state with ``lords``/``locations`` stacked on top (first = top; the first
    Location is the one turned face up at setup)."""
    stacked = {"lords": lords or [], "locations": locations or []}
    game = porphyra.load_game(
        "conspiracy", players=players, first_player=first, stacked=stacked, **options
    )
    assert isinstance(game, ConspiracyGame)
    return game.new_initial_state(seed=seed)


def act(state: ConspiracyState, *texts: str) -> None:
    """Apply each text through the parser (so notation is exercised too)."""
    for text in texts:
        state.apply_action(state.game.parse_action(state, text))


def legal(state: ConspiracyState) -> list[str]:
    """Texts of the legal actions."""
    return [str(a) for a in state.legal_actions()]


def chamber(state: ConspiracyState, p: int) -> list[str]:
    """Lord names of seat ``p``'s chamber in slot order."""
    return [state.t.name[k] for k in state.chambers[p]]


def kinds(state: ConspiracyState, *names: str) -> list[int]:
    """Lord kinds of ``names``."""
    return [state.cards.lord_index[n] for n in names]


def set_chamber(state: ConspiracyState, p: int, *names: str) -> None:
    """Put ``names`` straight into seat ``p``'s chamber (for scenarios far into a game);
    the copies are taken out of the lord deck so that card counts stay right."""
    for k in kinds(state, *names):
        state.deck.remove(k)
        state.chambers[p].append(k)


def pile(state: ConspiracyState, colour: str) -> list[str]:
    """Lord names of the ``colour`` pile."""
    return state.public_observation()["piles"][colour]  # type: ignore[no-any-return]


def solo(
    opponent: str = "farmer",
    lords: list[str] | None = None,
    locations: list[str] | None = None,
    seed: int = 0,
    **options: Any,
) -> ConspiracyState:
    """A fresh solo state against ``opponent`` (section 4), cards stacked as in :func:`new`."""
    return new(1, lords, locations, 0, seed, opponent=opponent, **options)


def put_pile(state: ConspiracyState, *names: str) -> None:
    """Put ``names`` on their colours' discard piles (copies taken out of the lord deck)."""
    for k in kinds(state, *names):
        state.deck.remove(k)
        state.piles[state.t.colour[k]].append(k)


def log_since(state: ConspiracyState, start: int) -> str:
    """The log lines after the first ``start`` ones, joined by newlines."""
    return "\n".join(state.log[start:])
