"""How bots are seeded, and the loop of a game that only bots play.

Every interface seeds its bots here, so that "the same game seed" means the same bot moves
wherever a game is played:

- :func:`seat_seed`: one bot object per seat for a whole game (the terminal client,
  ``porphyra simulate``, tournaments);
- :func:`decision_seed`: a fresh bot for each decision (the web server, whose bots run in
  worker processes and resume after a restart from the record alone).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from porphyra.bots.base import seat_view
from porphyra.core.game import Action, Game, State


def seat_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot that plays ``seat`` (0-based) for a whole game of ``game_seed``."""
    return game_seed * 101 + 7919 * (seat + 1)


def decision_seed(game_seed: int, seat: int, index: int) -> int:
    """The seed of a bot made for one decision of ``seat``: the ``index``-th action of the
    game (the history length before it), in ``[0, 2**62)``."""
    return (game_seed * 1_000_003 + seat * 7_919 + index * 104_729) % (2**62)


def play_bot_game(
    game: Game,
    bots: Sequence[str],
    seed: int,
    max_steps: int = 100_000,
    observer: Callable[[State, int, Action], None] | None = None,
) -> State:
    """Play one game between the named bots with ``seed``.

    Args:
        game: the game.
        bots: one bot spec per seat (``"random"``, ``"ismcts:iterations=200"``).
        seed: the game seed; the bot of seat ``i`` gets ``seat_seed(seed, i)``.
        max_steps: safety bound on the number of actions.
        observer: called with ``(state, player, action)`` just before each action applies
            (the balance lab's statistics).

    Returns:
        The terminal state.

    Raises:
        ValueError: a bot spec is unknown or has a bad option.
        RuntimeError: the game did not end within ``max_steps`` actions.
    """
    from porphyra.bots import make_bot  # the registry imports this module

    players = [make_bot(name, seed=seat_seed(seed, i)) for i, name in enumerate(bots)]
    state = game.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise RuntimeError(f"game with seed {seed} did not end within {max_steps} actions")
        player = state.current_player()
        action = players[player].choose(seat_view(state, player))
        if observer is not None:
            observer(state, player, action)
        state.apply_action(action)
        steps += 1
    return state
