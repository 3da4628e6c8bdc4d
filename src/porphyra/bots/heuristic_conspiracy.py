"""Conspiracy heuristic: the ``easy`` bot, and the rollout policy and evaluation of ISMCTS.

Strategy (rules: ``shared/rules/conspiracy.md``): every decision is scored by the immediate
change of the seat's score plus the value of what it builds toward, and the best is taken
(ties: the first legal action).  The value of adding a lord to the chamber is:

- **score now**: its IP if it beats the best lord of its colour (section 3.5), plus 3 IP per
  lord the largest coalition grows by (same-colour adjacent lords, section 3.2);
- **pearls**: ``PEARL_VALUE`` each, plus the Pearl Master swing (5 IP to us, and 5 IP taken
  from the holder) when the gain makes us the holder;
- **keys**: a key that completes a pair (2 silver, 2 gold, or any 2 with ``any-keys``) is
  worth a Location (``LOCATION_VALUE``); an unpaired key is worth ``KEY_VALUE``;
- a 0-IP lord (swap) ``SWAP_VALUE``; minus ``SLOT_VALUE`` for the slot it uses (a chamber
  holds 15 lords, and the game ends when one fills: cheap lords are not free).

Recruiting: a pile is worth the sum of its lords placed one after another (overflow lost);
``draw n`` is worth the expected best of ``n`` lords drawn from the unseen deck (an exact
order statistic over the deck's contents, which are public; only the order is hidden),
minus ``REVEAL_PENALTY`` for each lord put face up for the opponents.  ``keep`` and
``place`` pick the lord of highest value.  A swap is chosen by the exact score gain.
Locations: the exact change of the seat's Location IP (end-game effects on the present
chamber, ``domains`` counting the new one), plus pearls and the Pearl Master, plus a small
value for the lasting effects (``any-keys``, ``deck-search``, draw restrictions) and the
expected growth of ``count``/``max`` colour Locations; ``locdraw n`` is the expected best of
``n`` from the Location deck minus a small cost for the Locations left face up.

The bot reads only public information (everything but the two deck orders is public, C-R12;
the deck *contents* are public by elimination): it evaluates on a sampled state, and its
choice does not depend on the sampled order.  The same function is the rollout policy of
ISMCTS (with a little randomness, ``ROLLOUT_EPSILON``).

Evaluation (rollouts cut at a depth): each seat's score now plus its key and pearl
potential and ``SLOT_VALUE`` per free slot; the reward is a logistic of the lead over the
best opponent, whose width shrinks as the chambers fill.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from math import comb

from porphyra.bots.base import SeatView
from porphyra.bots.search_types import GameHeuristics, view_seed
from porphyra.core.game import Action
from porphyra.games.conspiracy.cards import EFFECT_SWAP, KEY_GOLD, KEY_SILVER, CardSet
from porphyra.games.conspiracy.chamber import ADJACENT, SLOTS, largest_group
from porphyra.games.conspiracy.game import ConspiracyGame
from porphyra.games.conspiracy.notation import (
    DRAW,
    KEEP,
    LOCDRAW,
    LOCKEEP,
    LOCPICK,
    LOCTAKE,
    PLACE,
    SWAP,
    TAKE,
    ConspiracyAction,
)
from porphyra.games.conspiracy.scoring import COALITION_IP, PEARL_MASTER_IP, location_ip
from porphyra.games.conspiracy.state import ConspiracyState

ROLLOUT_EPSILON = 0.1
PEARL_VALUE = 0.4
KEY_VALUE = 1.5
LOCATION_VALUE = 5.0
SWAP_VALUE = 1.0
SLOT_VALUE = 1.5
REVEAL_PENALTY = 0.4
FACE_UP_PENALTY = 0.3
#: Lasting-effect value of Locations by effect name (besides their IP).
EFFECT_BONUS = {
    "any-keys": 2.0,
    "deck-search": 1.0,
    "restrict-draw": 1.0,
    "reshuffle-lords": 0.0,
    "reshuffle-locations": 0.0,
}


class _Seat:
    """A seat's position, as the heuristic models it (copied before every "what if")."""

    __slots__ = (
        "any_keys",
        "best",
        "chamber",
        "cs",
        "gold",
        "locs",
        "others_pearls",
        "pearls",
        "pm",
        "silver",
    )

    def __init__(self, s: ConspiracyState, p: int) -> None:
        self.cs: CardSet = s.cards
        lords = self.cs.lords
        self.chamber: list[int] = list(s.chambers[p])
        self.locs: list[int] = list(s.locs[p])
        pearls = s.pearls
        self.pearls = pearls[p]
        self.others_pearls = max((pearls[q] for q in range(len(pearls)) if q != p), default=0)
        pm = s.pm
        self.pm = 1 if pm == p else (-1 if pm >= 0 else 0)  # 1 mine, -1 someone's, 0 nobody
        self.any_keys: bool = s.any_keys[p]
        silver, gold = s.unspent_keys(p)
        self.silver, self.gold = silver, gold
        best = [-1] * 5
        for k in self.chamber:
            lord = lords[k]
            best[lord.colour] = max(best[lord.colour], lord.ip)
        self.best = best

    def copy(self) -> _Seat:
        new = object.__new__(_Seat)
        for name in _Seat.__slots__:
            setattr(new, name, getattr(self, name))
        new.chamber = list(self.chamber)
        new.best = list(self.best)
        new.locs = list(self.locs)
        return new

    def gain_pearls(self, n: int) -> float:
        """Value of gaining ``n`` pearls (Pearl Master swing included); updates self."""
        if n <= 0:
            return 0.0
        self.pearls += n
        value = PEARL_VALUE * n
        if self.pm != 1 and (self.pm == 0 or self.pearls >= self.others_pearls):
            value += PEARL_MASTER_IP * (2 if self.pm == -1 else 1)
            self.pm = 1
        return value

    def add(self, kind: int) -> float:
        """Value of placing lord ``kind`` in the next slot (see the module docs)."""
        if len(self.chamber) >= SLOTS:
            return 0.0
        lord = self.cs.lords[kind]
        before = largest_group(self.chamber, _colour_of(self.cs))
        self.chamber.append(kind)
        after = largest_group(self.chamber, _colour_of(self.cs))
        value = COALITION_IP * (after - before) - SLOT_VALUE
        if lord.ip > self.best[lord.colour]:
            value += lord.ip - max(0, self.best[lord.colour])
            self.best[lord.colour] = lord.ip
        value += self.gain_pearls(lord.pearls)
        if lord.effect == EFFECT_SWAP:
            value += SWAP_VALUE
        if lord.key:
            if lord.key == KEY_SILVER:
                self.silver += 1
            elif lord.key == KEY_GOLD:
                self.gold += 1
            if (
                self.silver >= 2
                or self.gold >= 2
                or (self.any_keys and self.silver + self.gold >= 2)
            ):
                value += LOCATION_VALUE - KEY_VALUE * (self.silver + self.gold - 1)
                self.silver = self.gold = 0
            else:
                value += KEY_VALUE
        return value


_COLOUR_KEYS: dict[int, object] = {}


def _colour_of(cs: CardSet) -> _ColourKey:
    key = _COLOUR_KEYS.get(id(cs))
    if key is None:
        key = _COLOUR_KEYS[id(cs)] = _ColourKey(tuple(k.colour for k in cs.lords))
    assert isinstance(key, _ColourKey)
    return key


class _ColourKey:
    __slots__ = ("colours",)

    def __init__(self, colours: tuple[int, ...]) -> None:
        self.colours = colours

    def __call__(self, kind: int) -> int:
        return self.colours[kind]


def _expected_best(values: Sequence[float], n: int) -> float:
    """Expected maximum of ``n`` values drawn without replacement from ``values``."""
    m = len(values)
    n = min(n, m)
    if n <= 0:
        return 0.0
    ordered = sorted(values)
    total = comb(m, n)
    return sum(v * comb(i, n - 1) for i, v in enumerate(ordered)) / total


def _coalition_with(seat: _Seat, colour: int) -> int:
    """Largest coalition if a lord of ``colour`` took the next slot."""
    chamber = seat.chamber
    slot = len(chamber)
    cs = seat.cs
    colours = _colour_of(cs).colours
    # Union of the same-colour groups touching the new slot.
    seen = {slot}
    stack = [j for j in ADJACENT[slot] if j < slot and colours[chamber[j]] == colour]
    seen.update(stack)
    while stack:
        i = stack.pop()
        for j in ADJACENT[i]:
            if j < slot and j not in seen and colours[chamber[j]] == colour:
                seen.add(j)
                stack.append(j)
    return len(seen)


def _draw_values(seat: _Seat, deck: Sequence[int]) -> list[float]:
    """Value of adding each lord of ``deck`` (fast path, one coalition check per colour)."""
    if len(seat.chamber) >= SLOTS:
        return [0.0] * len(deck)
    current = largest_group(seat.chamber, _colour_of(seat.cs))
    growth = [max(0, _coalition_with(seat, c) - current) for c in range(5)]
    cache: dict[int, float] = {}
    lords = seat.cs.lords
    out = []
    for k in deck:
        v = cache.get(k)
        if v is None:
            lord = lords[k]
            trial = seat.copy()
            trial.chamber.append(k)
            v = COALITION_IP * growth[lord.colour] - SLOT_VALUE
            if lord.ip > trial.best[lord.colour]:
                v += lord.ip - max(0, trial.best[lord.colour])
            v += trial.gain_pearls(lord.pearls)
            if lord.effect == EFFECT_SWAP:
                v += SWAP_VALUE
            if lord.key:
                silver = trial.silver + (lord.key == KEY_SILVER)
                gold = trial.gold + (lord.key == KEY_GOLD)
                if silver >= 2 or gold >= 2 or (trial.any_keys and silver + gold >= 2):
                    v += LOCATION_VALUE - KEY_VALUE * (silver + gold - 1)
                else:
                    v += KEY_VALUE
            cache[k] = v
        out.append(v)
    return out


def _loc_total(seat: _Seat, locs: Sequence[int]) -> float:
    cs = seat.cs
    return float(sum(location_ip(cs, loc, seat.chamber, locs, seat.pearls) for loc in locs))


def _location_value(seat: _Seat, loc: int) -> float:
    """Value of taking Location ``loc`` now (see the module docs)."""
    cs = seat.cs
    card = cs.locations[loc]
    trial = seat.copy()
    value = 0.0
    if card.effect == "pearls":
        value += trial.gain_pearls(card.param("amount"))
    new_locs = [*trial.locs, loc]
    value += _loc_total(trial, new_locs) - _loc_total(trial, trial.locs)
    value += EFFECT_BONUS.get(card.effect, 0.0)
    free = SLOTS - len(seat.chamber)
    if card.effect == "count-colour":
        value += card.param("per") * free / 5.0 * 0.6
    elif card.effect == "max-colour":
        value += 0.3 * free
    elif card.effect in ("silver-keys", "gold-keys", "domains"):
        value += 0.1 * free
    return value


def _swap_value(seat: _Seat, i: int, j: int) -> float:
    chamber = list(seat.chamber)
    chamber[i], chamber[j] = chamber[j], chamber[i]
    colour = _colour_of(seat.cs)
    gain = largest_group(chamber, colour) - largest_group(seat.chamber, colour)
    # Also value making the group next to the open slot (future growth) a little.
    return COALITION_IP * gain


def action_values(state: ConspiracyState) -> list[tuple[float, ConspiracyAction]]:
    """Each legal action of the current seat with its heuristic value, in legal order."""
    p = state.current_player()
    legal = state.legal_actions()
    if not legal:
        return []
    seat = _Seat(state, p)
    out: list[tuple[float, ConspiracyAction]] = []
    deck, piles = state.deck, state.piles
    deck_values: list[float] | None = None
    loc_values: list[float] | None = None
    for action in legal:
        verb = action.verb
        if verb == DRAW:
            if deck_values is None:
                deck_values = _draw_values(seat, deck)
            v = _expected_best(deck_values, action.a) - REVEAL_PENALTY * (action.a - 1)
        elif verb in (KEEP, PLACE):
            v = seat.copy().add(action.a)
        elif verb == TAKE:
            trial = seat.copy()
            v = sum(trial.add(k) for k in sorted(piles[action.a], key=lambda k: -k))
        elif verb == SWAP:
            v = 0.0 if action.a < 0 else _swap_value(seat, action.a, action.b)
        elif verb == LOCDRAW:
            if loc_values is None:
                loc_values = [_location_value(seat, loc) for loc in state.loc_deck]
            v = _expected_best(loc_values, action.a) - FACE_UP_PENALTY * (action.a - 1)
        elif verb in (LOCKEEP, LOCTAKE, LOCPICK):
            v = _location_value(seat, action.a)
        else:  # pragma: no cover - a verb this heuristic does not know
            v = 0.0
        out.append((v, action))
    return out


def best_action(state: ConspiracyState) -> ConspiracyAction:
    """The legal action of highest heuristic value (the first among equals)."""
    values = action_values(state)
    best_v, best_a = values[0]
    for v, a in values[1:]:
        if v > best_v + 1e-9:
            best_v, best_a = v, a
    return best_a


class HeuristicBot:
    """The Conspiracy ``easy`` bot (strategy in the module docstring).

    It evaluates on one sampled state (``view.sample``) drawn with a generator derived from
    its seed and the view; its choice only uses public information, so it does not depend on
    the sampled deck order.
    """

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Action:
        """The heuristic action for ``view``.

        Raises:
            ValueError: ``view`` has no legal action.
        """
        if not view.legal_actions:
            raise ValueError(f"seat {view.player} has no legal action")
        state = view.sample(random.Random(view_seed(self.seed, view, ConspiracyGame.info.name)))
        if not isinstance(state, ConspiracyState):
            raise TypeError(f"the Conspiracy heuristic cannot play {view.game.info.name}")
        text = str(best_action(state))
        for action in view.legal_actions:
            if str(action) == text:
                return action
        raise AssertionError(f"heuristic chose {text!r}, not a legal action of the view")


def rollout_policy(state: ConspiracyState, rng: random.Random) -> Action:
    """The heuristic action of the current seat of ``state``, or with probability
    ``ROLLOUT_EPSILON`` a uniformly random legal action."""
    if rng.random() < ROLLOUT_EPSILON:
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]
    return best_action(state)


def seat_potential(state: ConspiracyState, p: int) -> float:
    """Seat ``p``'s score now (section 3.5) plus key and pearl potential and
    ``SLOT_VALUE`` per free slot, in IP."""
    score = state.scores()[p]["total"]
    seat = _Seat(state, p)
    free = SLOTS - len(seat.chamber)
    keys = KEY_VALUE * (seat.silver + seat.gold) if free else 0.0
    return float(score) + keys + PEARL_VALUE * seat.pearls + SLOT_VALUE * free


def evaluate(state: ConspiracyState, player: int) -> float:
    """Estimated reward in [0, 1] of ``player`` in a non-terminal Conspiracy ``state``:
    ``sigmoid(lead / width)``, the lead of :func:`seat_potential` over the best opponent,
    the width from 4 IP (full chambers) to 10 IP (empty ones)."""
    if state.is_terminal():
        r = state.returns()[player]
        return 1.0 if r > 0 else (0.0 if r < 0 else 0.5)
    chambers = state.chambers
    # Every chamber counts, including a solo game's Legendary Opponent (seat 1, which is
    # not a deciding seat: num_players is 1 there).
    values = [seat_potential(state, p) for p in range(len(chambers))]
    lead = values[player] - max(v for q, v in enumerate(values) if q != player)
    filled = max(len(c) for c in chambers) / SLOTS
    width = 10.0 - 6.0 * filled
    return 1.0 / (1.0 + math.exp(-lead / width))


#: How many of the best actions by heuristic value ISMCTS's tree considers.
CANDIDATES = 6


def candidate_actions(state: ConspiracyState) -> list[Action]:
    """The ``CANDIDATES`` legal actions of highest heuristic value (best first)."""
    values = action_values(state)
    order = sorted(range(len(values)), key=lambda i: -values[i][0])
    return [values[i][1] for i in order[:CANDIDATES]]


#: The hooks of the ``easy`` bot and ISMCTS for Conspiracy (see :mod:`porphyra.bots.heuristic`);
#: every decision is sequential, so there is no refiner or simultaneous-move test.
HEURISTICS: GameHeuristics[ConspiracyState] = GameHeuristics(
    bot=HeuristicBot,
    rollout_policy=rollout_policy,
    evaluate=evaluate,
    candidate_actions=candidate_actions,
)
