"""Quick match's pairing rule (issue 32 §2): who is paired with whom, and which bot is
offered to a player nobody came for.  Pure functions of the waiting players, their
ratings and the time; the queue itself is in the database (:mod:`.matchqueue`) and its
requests in :mod:`porphyra.server.routes.quickmatch`.

- **The window.** A player who has waited ``w`` seconds accepts opponents whose rating
  (openskill's ``mu``) is within :func:`window` ``(w)`` of theirs: :data:`BASE_WINDOW`
  at once, widening by :data:`WIDEN_PER_S` a second (:data:`WIDEN_PER_S` * 60 more
  after a minute), up to :data:`MAX_WINDOW`.
- **A match.** Players wait per (game, player count, clock kind).  The one who waited
  longest is served first: with the others inside *their* window (the widest of any
  group they can be in), closest rating first and then longest waiting, the first
  ``players - 1`` make the table with them.  Otherwise the next longest waiter is tried.
- **The bot offer.** After :data:`BOT_OFFER_AFTER_S` seconds without a match a player
  is offered the bot whose rating is closest to theirs (:func:`pick_bot`; ties: the
  name that sorts first); they take it, or keep waiting.

Ratings come from two callables given to the server (:class:`RatingOf`,
:class:`BotRatings`); without them every player has openskill's default rating
(:data:`DEFAULT_RATING`) and no bot is offered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

#: openskill's rating of a new player: ``(mu, sigma)`` = (25, 25/3).
DEFAULT_RATING: tuple[float, float] = (25.0, 25.0 / 3.0)
#: Rating points (``mu``) apart that a player accepts at once.
BASE_WINDOW = 2.0
#: Rating points the window widens by per second of waiting.
WIDEN_PER_S = 0.25
#: The widest window (reached after (50 - 2) / 0.25 = 192 seconds).
MAX_WINDOW = 50.0
#: Seconds without a match after which a bot is offered.
BOT_OFFER_AFTER_S = 60.0


class RatingOf(Protocol):
    """A player's rating for one game and player count: ``(mu, sigma)``, or None for a
    player not rated yet (``store`` is the server's database engine)."""

    def __call__(
        self, store: Any, account_id: int, game: str, players: int, /
    ) -> tuple[float, float] | None: ...


class BotRatings(Protocol):
    """The bots' ratings for one game and player count: ``{bot spec: (mu, sigma)}``
    (a bot spec the server can seat, e.g. ``"hard"``)."""

    def __call__(self, game: str, players: int, /) -> Mapping[str, tuple[float, float]]: ...


@dataclass(frozen=True)
class RatingSource:
    """Where quick match reads ratings: ``rating_of`` (None: everyone unrated) and
    ``bots`` (None: no bot is offered)."""

    rating_of: RatingOf | None = None
    bots: BotRatings | None = None

    def player(self, store: Any, account_id: int, game: str, players: int) -> tuple[float, float]:
        """``account_id``'s rating, :data:`DEFAULT_RATING` when unrated or unknown."""
        if self.rating_of is None:
            return DEFAULT_RATING
        return self.rating_of(store, account_id, game, players) or DEFAULT_RATING

    def bot_ratings(self, game: str, players: int) -> Mapping[str, tuple[float, float]]:
        """The bots' ratings (empty: no bot offered)."""
        return {} if self.bots is None else self.bots(game, players)


@dataclass(frozen=True)
class Waiter:
    """One player in the queue: their account, rating ``mu`` and when they joined
    (epoch seconds)."""

    account_id: int
    mu: float
    joined: float
    sigma: float = field(default=DEFAULT_RATING[1], compare=False)


def window(waited_s: float) -> float:
    """The rating points (``mu``) a player who waited ``waited_s`` seconds accepts:
    :data:`BASE_WINDOW` + :data:`WIDEN_PER_S` per second, at most :data:`MAX_WINDOW`
    (a negative wait, a clock step back, counts as none)."""
    return min(MAX_WINDOW, BASE_WINDOW + WIDEN_PER_S * max(0.0, waited_s))


def form_matches(waiting: Sequence[Waiter], players: int, now: float) -> list[list[Waiter]]:
    """The tables to make now from ``waiting`` (players of one game, player count and
    clock kind) at time ``now`` (epoch seconds), by the rule of this module.

    Returns:
        Groups of ``players`` distinct waiters, the longest waiter of each first; a
        waiter is in one group at most.

    Raises:
        ValueError: ``players`` below 2 (quick match pairs people).
    """
    if players < 2:
        raise ValueError(f"quick match needs 2 players or more, not {players}")
    queue = sorted(waiting, key=lambda w: (w.joined, w.account_id))
    used: set[int] = set()
    groups: list[list[Waiter]] = []
    for anchor in queue:
        if anchor.account_id in used:
            continue
        reach = window(now - anchor.joined)
        near = sorted(
            (
                w
                for w in queue
                if w.account_id not in used
                and w.account_id != anchor.account_id
                and abs(w.mu - anchor.mu) <= reach
            ),
            key=lambda w: (abs(w.mu - anchor.mu), w.joined, w.account_id),
        )
        if len(near) >= players - 1:
            group = [anchor, *near[: players - 1]]
            used.update(w.account_id for w in group)
            groups.append(group)
    return groups


def pick_bot(mu: float, bots: Mapping[str, tuple[float, float]]) -> str | None:
    """The bot of ``bots`` (``{spec: (mu, sigma)}``) whose ``mu`` is closest to ``mu``
    (ties: the spec that sorts first); None when there is none."""
    if not bots:
        return None
    return min(sorted(bots), key=lambda name: abs(bots[name][0] - mu))


def bot_offer(waited_s: float, mu: float, bots: Mapping[str, tuple[float, float]]) -> str | None:
    """The bot offered to a player of rating ``mu`` who waited ``waited_s`` seconds:
    :func:`pick_bot` once :data:`BOT_OFFER_AFTER_S` have passed, else None."""
    if waited_s < BOT_OFFER_AFTER_S:
        return None
    return pick_bot(mu, bots)
