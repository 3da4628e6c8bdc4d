"""Tournament schedules: which bots meet, in which seats, with which seeds.

A tournament is a list of :class:`Match` values, each an independent game with its own
seed, so that the results do not depend on the number of worker processes or the order in
which games finish.

- **Tables**: every combination of ``players`` distinct bots (every pair for 2-player
  games, every triple or quadruple for 3- and 4-player Conspiracy).  In the solo mode, a
  table is one bot against one Legendary Opponent (LO).
- **Seat rotation**: each table's games come in blocks, one game per cyclic rotation of the
  seats, so every bot plays every seat equally often (2 players: seats swapped).
- **Mirrored deals**: the games of one block share a seed: deal ``d`` of a table uses seed
  ``seed + d`` in every rotation, so each seat order sees the same deal (a standard
  variance reduction: duplicate deals).  Every table uses the same deals.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: The Legendary Opponents of the Conspiracy solo mode (``opponent`` option; ``random``
#: draws one from the seed and is accepted too, but is not part of ``all``).
LEGENDARY_OPPONENTS: tuple[str, ...] = ("farmer", "military", "merchant", "politician", "mage")

#: Prefix of an LO's name among the entrants (``"lo:farmer"``), so it never clashes with a
#: bot spec.
LO_PREFIX = "lo:"


@dataclass(frozen=True)
class Match:
    """One scheduled game.

    Attributes:
        game_id: position in the schedule (0-based); results are reported in this order.
        game: registry name of the game (``"byzantium"``).
        options: ``load_game`` options (JSON-ready), e.g. ``{"players": 3}``.
        table: index of the table (the set of entrants) in the schedule.
        deal: index of the deal within the table; the seed is ``base seed + deal``.
        rotation: which cyclic rotation of the table's entrants sits in the seats.
        seats: bot spec per seat (seat 0 first).
        seed: the game seed.
        opponent: the solo mode's Legendary Opponent (``None`` in normal games).
    """

    game_id: int
    game: str
    options: dict[str, Any] = field(hash=False)
    table: int
    deal: int
    rotation: int
    seats: tuple[str, ...]
    seed: int
    opponent: str | None = None

    @property
    def entrants(self) -> tuple[str, ...]:
        """The competitors of this game: the seats' bots, then the LO (``"lo:farmer"``)
        in the solo mode."""
        if self.opponent is None:
            return self.seats
        return (*self.seats, LO_PREFIX + self.opponent)


def rotations(count: int) -> list[tuple[int, ...]]:
    """The ``count`` cyclic rotations of ``range(count)``: rotation ``r`` seats entrant
    ``(s + r) % count`` in seat ``s``.

    Example: ``rotations(2) == [(0, 1), (1, 0)]``.
    """
    return [tuple((s + r) % count for s in range(count)) for r in range(count)]


def check_bots(bots: Sequence[str], seats: int) -> None:
    """Check a bot list for a tournament with ``seats`` bots a table.

    Raises:
        ValueError: a bot is named twice, or fewer bots than seats (at least one bot in
            the solo mode, ``seats == 1``).
    """
    seen: set[str] = set()
    for bot in bots:
        if bot in seen:
            raise ValueError(f"bot {bot!r} is named twice in --bots")
        seen.add(bot)
    if len(bots) < max(seats, 1) or (seats >= 2 and len(bots) < 2):
        raise ValueError(
            f"a {seats}-player tournament needs at least {max(seats, 2)} different bots, "
            f"got {len(bots)}"
        )


def round_robin(
    game: str,
    options: dict[str, Any],
    bots: Sequence[str],
    players: int,
    games_per_table: int,
    seed: int,
) -> list[Match]:
    """The round-robin schedule of a multiplayer game.

    Args:
        game: registry name of the game.
        options: ``load_game`` options (the same for every game).
        bots: distinct bot specs.
        players: seats a game (2-4); every ``players``-combination of ``bots`` is a table.
        games_per_table: games of each table; a multiple of ``players`` (one game per
            rotation of the seats for each deal).
        seed: seed of the first deal; deal ``d`` uses ``seed + d``.

    Returns:
        The matches, table by table, deal by deal, rotation by rotation; ``game_id`` counts
        from 0.

    Raises:
        ValueError: fewer than 2 players, too few or repeated bots, or ``games_per_table``
            not a positive multiple of ``players``.
    """
    if players < 2:
        raise ValueError(f"a round robin needs at least 2 players a game, not {players}")
    check_bots(bots, players)
    if games_per_table < 1 or games_per_table % players:
        raise ValueError(
            f"--games must be a positive multiple of {players} (seats rotate), "
            f"not {games_per_table}"
        )
    matches: list[Match] = []
    for table, entrants in enumerate(itertools.combinations(bots, players)):
        for deal in range(games_per_table // players):
            for r, order in enumerate(rotations(players)):
                matches.append(
                    Match(
                        game_id=len(matches),
                        game=game,
                        options=dict(options),
                        table=table,
                        deal=deal,
                        rotation=r,
                        seats=tuple(entrants[i] for i in order),
                        seed=seed + deal,
                    )
                )
    return matches


def solo_schedule(
    game: str,
    options: dict[str, Any],
    bots: Sequence[str],
    opponents: Sequence[str],
    games_per_table: int,
    seed: int,
) -> list[Match]:
    """The schedule of a solo tournament: each bot against each Legendary Opponent.

    Args:
        game: registry name (``"conspiracy"``).
        options: ``load_game`` options other than ``players`` and ``opponent`` (which are
            set here: ``players=1``, ``opponent=<LO>``).
        bots: distinct bot specs.
        opponents: LO names (see :data:`LEGENDARY_OPPONENTS`).
        games_per_table: games of each bot against each LO (≥ 1).
        seed: seed of the first deal; deal ``d`` uses ``seed + d`` for every bot and LO.

    Returns:
        The matches, LO by LO, bot by bot, deal by deal.

    Raises:
        ValueError: no bot or LO, a repeated bot or LO, or ``games_per_table`` < 1.
    """
    check_bots(bots, 1)
    if not opponents:
        raise ValueError("name at least one Legendary Opponent")
    if len(set(opponents)) != len(opponents):
        raise ValueError("an opponent is named twice in --opponents")
    if games_per_table < 1:
        raise ValueError(f"--games must be at least 1, not {games_per_table}")
    matches: list[Match] = []
    table = 0
    for lo in opponents:
        for bot in bots:
            for deal in range(games_per_table):
                matches.append(
                    Match(
                        game_id=len(matches),
                        game=game,
                        options={**options, "players": 1, "opponent": lo},
                        table=table,
                        deal=deal,
                        rotation=0,
                        seats=(bot,),
                        seed=seed + deal,
                        opponent=lo,
                    )
                )
            table += 1
    return matches
