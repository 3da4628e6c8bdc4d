"""Bot-against-bot simulations: many seeded games, one summary.

``simulate(game, bots, games, seed)`` plays ``games`` games with seeds ``seed``,
``seed + 1``, …, fresh seeded bots in every game, and returns a JSON-ready summary: wins per
seat, draws (a game without a single winner: equal returns, or a shared victory), mean
returns and game length, plus the game's own statistics from its view (Byzantium:
collapses, mean final LT and TT; Conspiracy: mean score by category).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rich.console import RenderableType
from rich.table import Table

from porphyra.bots import make_bot, seat_view
from porphyra.cli.views import GameView
from porphyra.core.game import Game, State

Progress = Callable[[int], None]


def play_bot_game(game: Game, bots: Sequence[str], seed: int, max_steps: int = 100_000) -> State:
    """Play one game between the named bots with ``seed``.

    Args:
        game: the game.
        bots: one bot name per seat.
        seed: the game seed; each bot gets a seed derived from it and its seat.
        max_steps: safety bound on the number of actions.

    Returns:
        The terminal state.

    Raises:
        ValueError: a bot name is unknown.
        RuntimeError: the game did not end within ``max_steps`` actions.
    """
    players = [make_bot(name, seed=seed * 101 + 7919 * (i + 1)) for i, name in enumerate(bots)]
    state = game.new_initial_state(seed=seed)
    steps = 0
    while not state.is_terminal():
        if steps >= max_steps:
            raise RuntimeError(f"game with seed {seed} did not end within {max_steps} actions")
        player = state.current_player()
        state.apply_action(players[player].choose(seat_view(state, player)))
        steps += 1
    return state


def winner(returns: Sequence[float]) -> int | None:
    """The single winning seat, or ``None`` for a draw or a shared victory."""
    best = max(returns)
    top = [i for i, r in enumerate(returns) if r == best]
    if len(top) == 1 and best > min(returns):
        return top[0]
    return None


def simulate(
    game: Game,
    view: GameView,
    bots: Sequence[str],
    games: int,
    seed: int,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play ``games`` bot games and summarize them.

    Args:
        game: the game (with its options).
        view: the game's view (for the game-specific statistics).
        bots: one bot name per seat.
        games: how many games (≥ 1).
        seed: seed of the first game; game ``g`` uses ``seed + g``.
        progress: called with the number of finished games after each game.

    Returns:
        ``{"game", "options", "games", "seed", "bots", "wins": [per seat], "draws",
        "mean_returns": [per seat], "mean_actions", ...game-specific keys}``.
        ``sum(wins) + draws == games``.

    Raises:
        ValueError: ``games`` < 1, a bot count that does not match the game, or an unknown
            bot name.
    """
    players = game.num_players
    if games < 1:
        raise ValueError("--games must be at least 1")
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots given but the game has {players} players")
    wins = [0] * players
    draws = 0
    total_returns = [0.0] * players
    total_actions = 0
    stats = []
    for g in range(games):
        state = play_bot_game(game, bots, seed + g)
        returns = state.returns()
        who = winner(returns)
        if who is None:
            draws += 1
        else:
            wins[who] += 1
        for i in range(players):
            total_returns[i] += returns[i]
        total_actions += len(state.history)
        stats.append(view.game_stats(state))
        if progress is not None:
            progress(g + 1)
    summary: dict[str, Any] = {
        "game": game.info.name,
        "options": game.record_options(),
        "games": games,
        "seed": seed,
        "bots": list(bots),
        "wins": wins,
        "draws": draws,
        "mean_returns": [round(t / games, 4) for t in total_returns],
        "mean_actions": round(total_actions / games, 2),
    }
    summary.update(view.summarize(stats, players))
    return summary


def summary_tables(summary: dict[str, Any], view: GameView) -> list[RenderableType]:
    """Rich tables of a :func:`simulate` summary."""
    labels = [f"Seat {i} ({name})" for i, name in enumerate(summary["bots"])]
    games = summary["games"]
    table = Table(title=f"{summary['game']}: {games} games from seed {summary['seed']}")
    table.add_column("seat")
    table.add_column("wins", justify="right")
    table.add_column("win %", justify="right")
    table.add_column("mean return", justify="right")
    for i, label in enumerate(labels):
        table.add_row(
            label,
            str(summary["wins"][i]),
            f"{100 * summary['wins'][i] / games:.1f}",
            f"{summary['mean_returns'][i]:+.3f}",
        )
    table.add_section()
    table.add_row("draws / shared", str(summary["draws"]), f"{100 * summary['draws'] / games:.1f}")
    table.caption = f"mean actions per game: {summary['mean_actions']}"
    return [table, *view.summary_tables(summary, labels)]
