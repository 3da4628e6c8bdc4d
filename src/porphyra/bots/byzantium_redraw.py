"""A redraw rule for the Byzantium heuristic that weighs the draw pile (``easy:redraw=pile``).

Issue 31 measured that knowing one's own draw pile's order is worth about 20 points in
Byzantium, so the redraw (rules section 3, phase 3; B-R10: up to 4 cards) is where
decisions weigh most.  The plain heuristic (``redraw=surplus``) redraws the cards that cannot
enter its best meld and then force-1 Troop or Recovery cards, whatever the pile holds.

This rule weighs the hand kept against what a redraw can bring.  The seat cannot see the
pile's order (section 4), but it can count the pile's **contents**: the deck list less the
set-aside later-age cards, both discard piles, the removed cards, its own hand and the cards
it knows in the other hand (:func:`pile_from_observation`).  Drawn cards not usable in the
Age are replaced at once (B-R1), so the draws come from the pile's usable cards.

- A hand is worth the sum of its best meld's card values
  (:func:`porphyra.bots.heuristic_byzantium.best_meld`, the meld the heuristic plays),
  a card's value being the one the heuristic already uses to judge cards when it passes
  one: force, plus :data:`LEGACY_WEIGHT` per Legacy Token, plus :data:`NEGOTIATION_BONUS`
  for a Negotiation card.
- The hand's cards are ordered by what each adds to that worth (cards outside the best
  meld add nothing and come first), then by their own value.
- For ``k`` = 0 to 4, the worth after redrawing the first ``k`` cards is estimated over
  :data:`SAMPLES` draws from the pile's contents (the same draws for every ``k``, from a
  generator seeded by the seat's own situation, so the bot stays deterministic); the ``k``
  with the highest mean worth is chosen (the smaller on a tie).

Only the pile's contents are read, never its order nor the other seat's hand: in a sampled
state (ISMCTS) the seat's own pile is shuffled but holds the same cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from porphyra.games.byzantium.cards import CardSet
from porphyra.games.byzantium.melds import REDRAW_LIMIT

#: Card value points per Legacy Token of a Legacy card (as in the heuristic's pass rule).
LEGACY_WEIGHT = 3
#: Card value points a Negotiation card adds to its force (as in the heuristic's pass rule).
NEGOTIATION_BONUS = 2
#: Sampled draws per redraw decision.
SAMPLES = 48

#: The redraw rules of the heuristic: ``surplus`` (the earlier rule) and ``pile`` (this one).
REDRAW_RULES: dict[str, str] = {
    "surplus": "redraws the cards its best meld cannot use, then force-1 Troops and Recovery",
    "pile": "redraws the cards worth less than what the pile's known contents bring",
}
#: The rule of plain ``easy``: ``surplus``.  ``pile`` beat it 59.5% [57.5-61.5] over 1,000
#: paired deals (issue 31, ``docs/results/bots/redraw/``), but ``medium``, whose search keeps
#: ``surplus``, scored only 51.7% [44.8-58.5] against it: until the search uses the pile rule
#: too, ``easy`` keeps ``surplus`` so that each level stays above the one below (and the
#: ladder, the balance figures and the ratings' anchors keep meaning what they measured).
DEFAULT_REDRAW = "surplus"
#: Decisions remembered per card set (the search asks the same seat's redraw again and
#: again: its hand and pile contents are the same in every sampled world).
CACHE_SIZE = 20000

_CACHE: dict[int, tuple[CardSet, dict[tuple[object, ...], list[int]]]] = {}


def check_redraw_rule(rule: str) -> None:
    """Refuse a redraw rule that is not one of :data:`REDRAW_RULES`.

    Raises:
        ValueError: ``rule`` is unknown (the message names the rules).
    """
    if rule not in REDRAW_RULES:
        raise ValueError(f"unknown redraw rule {rule!r}; rules: {', '.join(REDRAW_RULES)}")


def card_values(cardset: CardSet) -> tuple[int, ...]:
    """Each card kind's value in card value points (module docstring), by ``Card.index``."""
    return tuple(
        c.force + LEGACY_WEIGHT * c.legacy + (NEGOTIATION_BONUS if c.type == "Negotiation" else 0)
        for c in cardset.cards
    )


def pile_from_observation(obs: dict[str, Any], cardset: CardSet) -> tuple[int, ...]:
    """The contents of the deciding seat's draw pile (the deck of its role), as sorted card
    kinds, counted from a seat observation: the deck list less the set-aside, discarded and
    removed cards, the seat's hand and the cards it knows in the other hand (rules section
    4: all public or the seat's own).  Every card is listed, usable in the Age or not.

    Raises:
        KeyError: ``obs`` is not a Byzantium seat observation.
    """
    deck = "byzantine" if obs["role"] == "byzantine" else "foe"
    by_slug = cardset.by_slug
    counts = Counter({c.index: c.copies for c in cardset.cards if c.deck == deck})
    seen = [
        *obs["set_aside"][deck],
        *obs["discards"][deck],
        *obs["removed"],
        *obs["hand"],
        *obs["known_opponent_cards"],
    ]
    for slug in seen:
        card = by_slug[slug]
        if card.deck == deck and counts[card.index] > 0:
            counts[card.index] -= 1
    return tuple(sorted(counts.elements()))


def usable_pile(pile: Sequence[int], cardset: CardSet, turn: int) -> tuple[int, ...]:
    """The cards of ``pile`` usable in the Age of ``turn`` (1-12): what a redraw can bring
    (B-R1: an unusable draw is replaced at once)."""
    age = (turn - 1) // 4
    cards = cardset.cards
    return tuple(k for k in pile if cards[k].usable_in(age))


def pile_redraw(
    hand: Sequence[int],
    pile: Sequence[int],
    cardset: CardSet,
    byzantine: bool,
    turn: int,
) -> list[int]:
    """The cards to redraw (sorted card kinds, at most 4: B-R10) by the pile rule (module
    docstring), for a seat holding ``hand`` whose draw pile's usable cards are ``pile``
    (order irrelevant; :func:`usable_pile`).  An empty pile brings nothing: no redraw.
    The same arguments give the same answer, remembered (:data:`CACHE_SIZE`).
    """
    if not pile or not hand:
        return []
    cached = _CACHE.get(id(cardset))
    if cached is None or cached[0] is not cardset:
        cached = _CACHE[id(cardset)] = (cardset, {})
    memo = cached[1]
    key = (tuple(sorted(hand)), tuple(sorted(pile)), byzantine, turn)
    chosen = memo.get(key)
    if chosen is None:
        if len(memo) >= CACHE_SIZE:
            memo.clear()
        chosen = memo[key] = _decide(key[0], key[1], cardset, byzantine, turn)
    return list(chosen)


def _decide(
    hand: tuple[int, ...], pool: tuple[int, ...], cardset: CardSet, byzantine: bool, turn: int
) -> list[int]:
    from porphyra.bots.heuristic_byzantium import best_meld  # (it imports this module)

    values = card_values(cardset)

    def worth(cards: Sequence[int]) -> int:
        return sum(values[k] for k in best_meld(cards, cardset, byzantine))

    full = worth(hand)
    seen: dict[int, int] = {}
    for k in hand:
        if k not in seen:
            seen[k] = full - worth(_without(hand, [k]))
    order = sorted(hand, key=lambda k: (seen[k], values[k], k))
    most = min(REDRAW_LIMIT, len(hand))
    rng = random.Random(f"redraw-pile/{turn}/{byzantine}/{hand}/{pool}")
    depth = min(most, len(pool))
    totals = [0.0] * (most + 1)
    for _ in range(SAMPLES):
        drawn = rng.sample(pool, depth)
        for k in range(most + 1):
            totals[k] += worth([*order[k:], *drawn[:k]])
    best = max(range(most + 1), key=lambda k: (totals[k], -k))
    return sorted(order[:best])


def _without(items: Sequence[int], remove: Sequence[int]) -> list[int]:
    out = list(items)
    for k in remove:
        out.remove(k)
    return out
