"""The Byzantium hooks of the search (ISMCTS), on sampled states: the rollout policy, the
evaluation of cut rollouts, the candidate actions of the tree (and the pile rule's variant
for the root), the opponent model and the simultaneous decisions.

The decisions are the heuristic's (:func:`porphyra.bots.heuristic_byzantium.decide`) on the
acting seat's :class:`~porphyra.bots.heuristic_byzantium.Situation` read from the sampled
state (only that seat's knowledge); the rollout policy plays them with a little randomness
(``ROLLOUT_EPSILON``).  Evaluation (rollouts cut at a depth): the Emperor's chance measured
in self-play for the turn, TT and LT lead (:mod:`porphyra.bots.byzantium_values`).
"""

from __future__ import annotations

import random

from porphyra.bots import byzantium_values
from porphyra.bots.byzantium_redraw import pile_redraw, usable_pile
from porphyra.bots.heuristic_byzantium import (
    HeuristicBot,
    Situation,
    best_meld,
    decide,
    minus,
)
from porphyra.bots.search_types import GameHeuristics
from porphyra.core.game import Action
from porphyra.games.byzantium.melds import REDRAW_LIMIT
from porphyra.games.byzantium.rules import PHASES
from porphyra.games.byzantium.state import ByzantiumState

#: Probability that the rollout policy plays a uniformly random legal action instead.
ROLLOUT_EPSILON = 0.0


def _situation_from_state(st: ByzantiumState) -> Situation:
    """The acting seat's :class:`Situation` (only that seat's knowledge is read).  It
    leaves ``pile`` empty, so the search's redraws follow the cheap ``surplus`` rule."""
    seat = st.current_player()
    lt, melds = st.lt, st.melds
    return Situation(
        verb=st.phase.split("_")[0],
        byzantine=seat == st.emperor,
        hand=tuple(st.hands[seat]),
        turn=st.turn,
        territory=st.tt,
        my_lt=lt[seat],
        their_lt=lt[1 - seat],
        byz_meld=tuple(melds[0]),
        foe_meld=tuple(melds[1]),
    )


def rollout_policy(state: ByzantiumState, rng: random.Random) -> Action:
    """The heuristic action of the current player of ``state`` (a sampled state), or with
    probability ``ROLLOUT_EPSILON`` a uniformly random legal action."""
    if rng.random() < ROLLOUT_EPSILON:
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]
    game = state.game
    verb, kinds = decide(_situation_from_state(state), game.cardset)
    return game.action_builder(verb)(tuple(sorted(kinds)))


def evaluate(state: ByzantiumState, player: int) -> float:
    """Estimated result in [0, 1] of ``player`` in a Byzantium ``state``: the value table
    learned from self-play (:func:`porphyra.bots.byzantium_values.evaluate`)."""
    return byzantium_values.evaluate(state, player)


def _dedupe(options: list[list[int]]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for option in options:
        key = tuple(sorted(option))
        if key not in out:
            out.append(key)
    return out


def candidate_actions(state: ByzantiumState) -> list[Action]:
    """A few sensible options for ISMCTS's tree (the heuristic's choice first; its redraw by
    the ``surplus`` rule, see the module docstring).

    Meld: the heuristic meld, the strongest meld, and the strongest meld without its 1, 2
    or 3 weakest cards (Legacy cards kept).  Redraw: the heuristic redraw, none, the
    surplus cards only (at most 4, or 2), and the 4 weakest cards.  Negotiation and pass
    decisions have few options: all of them, the heuristic's first.
    """
    game = state.game
    cardset = game.cardset
    s = _situation_from_state(state)
    verb, main = decide(s, cardset)
    if s.verb not in ("meld", "redraw"):
        first = game.action_builder(verb)(tuple(sorted(main)))
        return [first, *(a for a in state.legal_actions() if a != first)]
    cards = cardset.cards
    full = best_meld(s.hand, cardset, s.byzantine)

    def weakness(k: int) -> tuple[int, int, int]:
        return (cards[k].legacy > 0, cards[k].force, k)

    options: list[list[int]] = [main]
    if verb == "meld":
        options.append(full)
        trimmed = sorted(full, key=weakness)
        for drop in (1, 2, 3):
            if len(trimmed) > drop:
                options.append(trimmed[drop:])
    else:
        surplus = sorted(minus(s.hand, full), key=weakness)
        weakest = sorted(s.hand, key=weakness)
        options += [[], surplus[:REDRAW_LIMIT], surplus[:2], weakest[:REDRAW_LIMIT]]
    build = game.action_builder(verb)
    return [build(option) for option in _dedupe(options)]


def pile_candidate_actions(state: ByzantiumState) -> list[Action]:
    """:func:`candidate_actions` with the pile rule's redraw first at a redraw decision
    with a usable draw pile (:func:`porphyra.bots.byzantium_redraw.pile_redraw`; ISMCTS
    ``candidates=pile``, at the root decision only, so that the anchor is the pile rule's
    choice).  The seat's own pile holds the same cards in every sampled state (its order is
    never read), so at the root the answer is the same in every world (``pile_redraw``
    remembers it after the first count); deeper in the tree every sampled hand would cost
    the rule's full count."""
    options = candidate_actions(state)
    if not state.phase.startswith("redraw"):
        return options
    seat = state.current_player()
    byzantine = seat == state.emperor
    cardset = state.game.cardset
    pile = usable_pile(state.draw[0 if byzantine else 1], cardset, state.turn)
    if not pile:  # nothing to draw: the surplus rule's choice stays first (as in easy)
        return options
    chosen = pile_redraw(state.hands[seat], pile, cardset, byzantine, state.turn)
    first = state.game.action_builder("redraw")(tuple(sorted(chosen)))
    return [first, *(a for a in options if a != first)]


def refine_sample(state: ByzantiumState, player: int, rng: random.Random) -> None:
    """Opponent model for ISMCTS determinizations (in place).

    When ``player`` decides after the other seat's secret choice of the same simultaneous
    phase (B-R3: the Foe after the Emperor's meld, or the Emperor after a Foe who chose
    early), ``resample`` draws that hidden choice uniformly among the legal ones: a random
    meld is far weaker than any sensible one, and a seat searching against it learns to
    hold back.  Here the hidden choice becomes the heuristic's choice for the other seat's
    sampled hand.  Only the sampled opponent's data is read, so ``observation(player)`` is
    unchanged.
    """
    if not isinstance(state, ByzantiumState) or state.is_terminal():
        return
    opp = 1 - player
    if state.pending_choice(opp) is None:
        return
    situation = Situation(
        verb=PHASES[state.phase][0],
        byzantine=opp == state.emperor,
        hand=tuple(state.hands[opp]),
        turn=state.turn,
        territory=state.tt,
        my_lt=state.lt[opp],
        their_lt=state.lt[player],
    )
    _, kinds = decide(situation, state.game.cardset)
    state.redecide(opp, kinds)


def simultaneous(state: ByzantiumState, observer: int) -> bool:
    """Whether the current player decides without seeing ``observer``'s hidden choice.

    Redraw, Meld and End choices are secret and simultaneous (B-R3): while ``observer``'s
    choice is pending, the other seat's decision of the same phase is simultaneous with it.
    """
    return (
        isinstance(state, ByzantiumState)
        and state.current_player() != observer
        and state.pending_choice(observer) is not None
    )


#: Phases where a rollout may stop for the evaluation: the End phase (this turn's meld is
#: resolved and scored) and the start of a turn (the Emperor's Redraw).
CUT_PHASES = ("pass_byz", "pass_foe", "redraw_byz")


def rollout_cut(state: ByzantiumState) -> bool:
    """Whether a rollout may stop at ``state`` for :func:`evaluate`: the value table is
    measured at the start of a turn, so a position in the middle of the Redraw or Meld
    phase (hands and melds under way) is played on to the meld's outcome."""
    return state.phase in CUT_PHASES


#: The hooks of the ``easy`` bot and ISMCTS for Byzantium (see :mod:`porphyra.bots.heuristic`).
HEURISTICS: GameHeuristics[ByzantiumState] = GameHeuristics(
    bot=HeuristicBot,
    rollout_policy=rollout_policy,
    evaluate=evaluate,
    candidate_actions=candidate_actions,
    refine_sample=refine_sample,
    simultaneous=simultaneous,
    rollout_cut=rollout_cut,
    candidate_variants={"pile": pile_candidate_actions},
)
