"""Byzantium heuristic: the ``easy`` bot and the decisions the search's hooks reuse.

Strategy (rules: ``shared/rules/byzantium.md``).  Cards left in hand after the Meld phase
are lost at the End phase, except the one card passed, which helps the *opponent* (who takes
the other role next turn, i.e. the role of the deck it came from).  So:

- **Meld** (both roles): the strongest meld within the limits, built slot by slot, since every
  card type has its own limit: the Leader of highest force; the 2 best Recovery cards; the 4
  best Troops; a Negotiation card (Embassy-like force 1 before force 0: it also lets us strike
  a Foe people card); the 2 Legacy cards of highest legacy value (they score LT even when the
  meld loses); for the Foe, the best Northern and Southern Foe and the 2 best Disasters with at
  most 1 natural.  Extra cards add force and are lost otherwise, so everything that fits goes
  in.  **Exception (Foe, collapse)**: if the Empire would fall (TT ≤ 0) and the collapse would
  leave the Foe behind or level in LT (the Emperor loses 3 LT, then most LT wins), the Foe
  keeps its force below ``TT + the Emperor's expected force`` (weakest cards left out); that
  force is derived from the card data (:func:`expected_emperor_force`).
- **Redraw**: ``easy:redraw=pile`` weighs the hand kept against the draw pile's known
  contents (the ``pile`` rule, issue 31: :mod:`porphyra.bots.byzantium_redraw`; the search
  may put it first at its root, ``candidates=pile``).  ``easy`` and the search's tree
  (candidates, rollouts, opponent model, where a redraw must cost microseconds, not the pile
  rule's milliseconds) keep the ``surplus`` rule: discard (up
  to 4) the cards that cannot enter that best meld (a second Leader, a fifth Troop…),
  weakest first, then force-1 Troop or Recovery cards in the meld
  while redraws remain (a fresh card is most often stronger).
- **Negotiation target**: the Foe people card of highest force.  **Replacement**: the choice
  whose exact outcome (both melds are known by then) is best for the Foe: a collapse that wins
  the game, else winning the meld (the Emperor loses 1 LT), else the strongest card.
- **Pass**: the card least useful to the opponent next turn: a card not usable in the next
  Age counts as nothing; otherwise least force, with Legacy and Negotiation cards counted
  higher.

The bot decides from the seat's observation only (its hand, role, TT, LT, turn and the
revealed melds); the same decision function (:func:`decide`) runs on sampled states as the
search's rollout policy, candidates and opponent model (:mod:`porphyra.bots.byzantium_search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from porphyra.bots.base import SeatView
from porphyra.bots.byzantium_redraw import (
    DEFAULT_REDRAW,
    check_redraw_rule,
    pile_from_observation,
    pile_redraw,
    usable_pile,
)
from porphyra.bots.search_types import view_seed
from porphyra.core.game import Action
from porphyra.games.byzantium.cards import Card, CardSet
from porphyra.games.byzantium.game import ByzantiumGame
from porphyra.games.byzantium.melds import (
    FOE_PEOPLES,
    LIMITS,
    REDRAW_LIMIT,
    meld_force,
    replacement_options,
)
from porphyra.games.byzantium.rules import BYZ_HAND

#: The Foe avoids a collapse it would lose by assuming the Emperor melds at least the force
#: that the Emperor's strongest meld reaches in this share of random hands of the Age.
EMPEROR_FORCE_QUANTILE = 0.02
#: Random hands per Age sampled (with a fixed seed) to find that force for a card set.
EMPEROR_FORCE_SAMPLES = 1000
COLLAPSE_PENALTY = 3
TURNS = 12


class Situation(NamedTuple):
    """What a seat knows that the heuristic uses (from an observation or a sampled state).

    Attributes:
        verb: the decision: ``redraw``, ``meld``, ``target``, ``replace`` or ``pass``.
        byzantine: True if the seat is the Emperor this turn.
        hand: the seat's hand as card kinds.
        turn: 1-12; age is derived.
        territory: the Empire's TT.
        my_lt / their_lt: Legacy Tokens of the seat and of the opponent.
        byz_meld / foe_meld: the revealed melds (negotiation decisions only), card kinds.
        pile: the usable cards of the seat's own draw pile, sorted card kinds (its contents,
            never its order; redraw decisions from an observation only, else empty), for
            the pile rule (:mod:`porphyra.bots.byzantium_redraw`).
    """

    verb: str
    byzantine: bool
    hand: tuple[int, ...]
    turn: int
    territory: int
    my_lt: int
    their_lt: int
    byz_meld: tuple[int, ...] = ()
    foe_meld: tuple[int, ...] = ()
    pile: tuple[int, ...] = ()

    @property
    def age(self) -> int:
        return (self.turn - 1) // 4


def _sort_key(card: Card) -> tuple[int, int, int]:
    """Stronger first: legacy value, then force, then card-list order."""
    return (-card.legacy, -card.force, card.index)


#: Per card set (by id, with the set to check it is the same object): each kind's rank in
#: ``_sort_key`` order, and each kind's ``(type, natural)``.
_MELD_ORDER: dict[int, tuple[CardSet, list[int], list[tuple[str, bool]]]] = {}


def _meld_order(cardset: CardSet) -> tuple[list[int], list[tuple[str, bool]]]:
    cached = _MELD_ORDER.get(id(cardset))
    if cached is None or cached[0] is not cardset:
        rank = [0] * len(cardset.cards)
        for r, card in enumerate(sorted(cardset.cards, key=_sort_key)):
            rank[card.index] = r
        traits = [(c.type, c.natural) for c in cardset.cards]
        cached = _MELD_ORDER[id(cardset)] = (cardset, rank, traits)
    return cached[1], cached[2]


def best_meld(hand: Sequence[int], cardset: CardSet, byzantine: bool) -> list[int]:
    """The strongest meld within the limits (see the module docstring), as sorted card
    kinds: the hand's cards strongest first (:func:`_sort_key`), each taken while its type
    has room, skipping a second natural disaster."""
    rank, traits = _meld_order(cardset)
    room = dict(LIMITS["byzantine" if byzantine else "foe"])
    natural_taken = False
    meld: list[int] = []
    for k in sorted(hand, key=rank.__getitem__):
        typ, natural = traits[k]
        left = room.get(typ, 0)
        if not left or (natural and natural_taken):
            continue
        room[typ] = left - 1
        natural_taken = natural_taken or natural
        meld.append(k)
    meld.sort()
    return meld


_EMPEROR_FORCE: dict[int, tuple[CardSet, tuple[int, ...]]] = {}


def expected_emperor_force(cardset: CardSet, age: int) -> int:
    """The force the Foe counts on from the Emperor's meld in ``age`` (0-2), in force points:
    the :data:`EMPEROR_FORCE_QUANTILE` quantile of the strongest meld's force over
    :data:`EMPEROR_FORCE_SAMPLES` random Byzantine hands of the Age's size (rules section 3,
    phase 1) drawn from the cards usable in that Age.  Derived from the card data, so the
    bot follows the deck it plays; computed once per card set with a fixed seed."""
    cached = _EMPEROR_FORCE.get(id(cardset))
    if cached is None or cached[0] is not cardset:
        rng = random.Random(f"emperor-force/{cardset.name}")
        forces = []
        for a, size in enumerate(BYZ_HAND):
            pool = [
                c.index
                for c in cardset.cards
                if c.deck == "byzantine" and c.usable_in(a)
                for _ in range(c.copies)
            ]
            samples = sorted(
                meld_force(
                    best_meld(rng.sample(pool, min(size, len(pool))), cardset, True), cardset
                )
                for _ in range(EMPEROR_FORCE_SAMPLES)
            )
            forces.append(samples[int(EMPEROR_FORCE_QUANTILE * len(samples))])
        cached = _EMPEROR_FORCE[id(cardset)] = (cardset, tuple(forces))
    return cached[1][age]


def minus(items: Sequence[int], remove: Sequence[int]) -> list[int]:
    """``items`` less one copy of each of ``remove`` (card kinds; each must be there)."""
    out = list(items)
    for k in remove:
        out.remove(k)
    return out


def _collapse_value(foe_lt: int, emp_lt: int) -> int:
    """+1 / 0 / -1 for the Foe if the Empire collapses now (Emperor loses up to 3 LT)."""
    emp_after = max(0, emp_lt - COLLAPSE_PENALTY)
    return (foe_lt > emp_after) - (foe_lt < emp_after)


def _foe_meld(s: Situation, cardset: CardSet) -> list[int]:
    meld = best_meld(s.hand, cardset, byzantine=False)
    if _collapse_value(s.my_lt, s.their_lt) > 0:
        return meld
    cap = s.territory - 1 + expected_emperor_force(cardset, s.age)
    cards = cardset.cards
    meld.sort(key=lambda k: (cards[k].force, k))
    while meld and meld_force(meld, cardset) > cap:
        meld.pop(0)
    return sorted(meld)


def _redraw(s: Situation, cardset: CardSet) -> list[int]:
    cards = cardset.cards
    forces = cardset.forces
    meld = best_meld(s.hand, cardset, s.byzantine)
    surplus = sorted(minus(s.hand, meld), key=lambda k: (forces[k], cards[k].legacy, k))
    chosen = surplus[:REDRAW_LIMIT]
    weak = sorted(
        (k for k in meld if forces[k] <= 1 and cards[k].type in ("Troop", "Recovery")),
        key=lambda k: (forces[k], k),
    )
    for k in weak:
        if len(chosen) >= REDRAW_LIMIT:
            break
        chosen.append(k)
    return sorted(chosen)


def _replace(s: Situation, cardset: CardSet) -> list[int]:
    options = replacement_options(list(s.foe_meld), s.hand, cardset)
    fb = meld_force(s.byz_meld, cardset)
    base = meld_force(s.foe_meld, cardset)
    cards = cardset.cards

    def value(kind: int | None) -> tuple[int, int, int]:
        ff = base + (0 if kind is None else cards[kind].force)
        after = s.territory - (ff - fb) if ff >= fb else s.territory
        if after <= 0:
            return (2 * _collapse_value(s.my_lt, s.their_lt), 0, ff)
        return (1 if ff >= fb else 0, 0, ff)

    best: int | None = max([None, *options], key=value)
    return [] if best is None else [best]


def _pass(s: Situation, cardset: CardSet) -> list[int]:
    cards = cardset.cards
    next_age = s.turn // 4  # the age of turn + 1

    def usefulness(kind: int) -> tuple[int, int]:
        card = cards[kind]
        if s.turn >= TURNS or not card.usable_in(next_age):
            return (0, kind)
        bonus = 3 * card.legacy + (2 if card.type == "Negotiation" else 0)
        return (1 + card.force + bonus, kind)

    return [min(set(s.hand), key=usefulness)]


def decide(s: Situation, cardset: CardSet, redraw: str = DEFAULT_REDRAW) -> tuple[str, list[int]]:
    """The heuristic decision for situation ``s``: ``(verb, card kinds)``; ``redraw`` picks
    the redraw rule (``pile``: :func:`porphyra.bots.byzantium_redraw.pile_redraw`, used
    when ``s.pile`` is known; else ``surplus``, the module docstring's).

    Raises:
        ValueError: an unknown decision verb.
    """
    if s.verb == "meld":
        if s.byzantine:
            return "meld", best_meld(s.hand, cardset, byzantine=True)
        return "meld", _foe_meld(s, cardset)
    if s.verb == "redraw":
        if redraw == "pile" and s.pile:
            return "redraw", pile_redraw(s.hand, s.pile, cardset, s.byzantine, s.turn)
        return "redraw", _redraw(s, cardset)
    if s.verb == "target":
        cards = cardset.cards
        peoples = [k for k in s.foe_meld if cards[k].type in FOE_PEOPLES]
        return "target", [max(peoples, key=lambda k: (cards[k].force, -k))] if peoples else []
    if s.verb == "replace":
        return "replace", _replace(s, cardset)
    if s.verb == "pass":
        return "pass", _pass(s, cardset)
    raise ValueError(f"unknown Byzantium decision {s.verb!r}")


# -- from an observation (the bot) ---------------------------------------------------------


def _number(obs: dict[str, object], key: str) -> int:
    value = obs[key]
    if not isinstance(value, int):
        raise TypeError(f"observation[{key!r}] must be an integer, not {value!r}")
    return value


def situation_from_observation(
    obs: dict[str, object], cardset: CardSet, with_pile: bool = False
) -> Situation:
    """The :class:`Situation` of an ``observation(seat)`` dict; ``with_pile``: also count
    the seat's draw pile at a redraw (``Situation.pile``, for the pile rule only: it costs
    tens of microseconds a redraw, which the default rule does not need).

    Raises:
        KeyError, TypeError: ``obs`` is not a Byzantium seat observation.
    """
    by_slug = cardset.by_slug
    seat = _number(obs, "seat")
    legacy = obs["legacy"]
    assert isinstance(legacy, list)
    melds = obs["melds"]
    assert isinstance(melds, dict)
    hand = obs["hand"]
    assert isinstance(hand, list)
    turn = _number(obs, "turn")
    pile: tuple[int, ...] = ()
    if with_pile and obs["phase"] == "redraw":
        pile = usable_pile(pile_from_observation(obs, cardset), cardset, turn)
    return Situation(
        verb=str(obs["phase"]),
        byzantine=obs["role"] == "byzantine",
        hand=tuple(sorted(by_slug[s].index for s in hand)),
        turn=turn,
        territory=_number(obs, "territory"),
        my_lt=int(legacy[seat]),
        their_lt=int(legacy[1 - seat]),
        byz_meld=tuple(sorted(by_slug[s].index for s in melds["byzantine"])),
        foe_meld=tuple(sorted(by_slug[s].index for s in melds["foe"])),
        pile=pile,
    )


@mypyc_attr(allow_interpreted_subclasses=True)  # the lab's play styles extend it
class HeuristicBot:
    """The Byzantium ``easy`` bot (strategy in the module docstring).

    It is deterministic: the seed is kept for the bot interface but never needed.

    Args:
        redraw: the redraw rule, ``surplus`` (default) or ``pile``
            (:data:`porphyra.bots.byzantium_redraw.REDRAW_RULES`).

    Raises:
        ValueError: an unknown redraw rule.
    """

    name = "easy"

    def __init__(self, seed: int = 0, redraw: str = DEFAULT_REDRAW) -> None:
        check_redraw_rule(redraw)
        self.seed = seed
        self.redraw = redraw
        if redraw != DEFAULT_REDRAW:
            self.name = f"easy:redraw={redraw}"

    def decide(self, s: Situation, cardset: CardSet) -> tuple[str, list[int]]:
        """This bot's decision (:func:`decide`; play styles override it)."""
        return decide(s, cardset, self.redraw)

    def choose(self, view: SeatView) -> Action:
        """The heuristic action for ``view`` (falls back to the first legal action if the
        heuristic's choice is not legal, which would be a bug).

        Raises:
            ValueError: ``view`` has no legal action.
        """
        if not view.legal_actions:
            raise ValueError(f"seat {view.player} has no legal action")
        game = view.game
        if not isinstance(game, ByzantiumGame):
            raise TypeError(f"the Byzantium heuristic cannot play {game.info.name}")
        cardset = game.cardset
        situation = situation_from_observation(
            view.observation, cardset, with_pile=self.redraw == "pile"
        )
        verb, kinds = self.decide(situation, cardset)
        cards = cardset.cards
        text = f"{verb} {','.join(cards[k].slug for k in sorted(kinds)) if kinds else '-'}"
        for action in view.legal_actions:
            if str(action) == text:
                return action
        # Not expected; stay legal and deterministic.
        rng = random.Random(view_seed(self.seed, view, "byzantium-fallback"))
        return view.legal_actions[rng.randrange(len(view.legal_actions))]
