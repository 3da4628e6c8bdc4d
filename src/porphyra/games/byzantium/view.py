"""What each seat of a Byzantium state sees (``shared/rules/byzantium.md`` section 4), and
the search support built on it: ``resample`` (a state consistent with one seat's view) and
``hidden_from`` (a fingerprint of what that seat cannot see).

Hidden: the order of each draw pile, each hand (its owner sees it), a pending choice until
both seats have chosen (B-R3).  Public: the rest, including the revealed melds and the
negotiation target and replacement (B-R4).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from porphyra.core.randomness import shuffle as shuffle_with
from porphyra.games.byzantium.cards import AGES
from porphyra.games.byzantium.rules import DECK_NAMES, PHASES, PUBLIC, minus

if TYPE_CHECKING:
    from porphyra.games.byzantium.state import ByzantiumState


def _cards(state: ByzantiumState, kinds: Sequence[int], by_kind: bool) -> list[Any]:
    """``kinds`` as a view shows them: slugs, or (``by_kind``) the card kinds themselves."""
    if by_kind:
        return list(kinds)
    slugs = state._cs.slugs
    return [slugs[k] for k in kinds]


def public(
    state: ByzantiumState,
    log_for: tuple[int, ...] = (PUBLIC,),
    log: bool = True,
    by_kind: bool = False,
) -> dict[str, Any]:
    """What everyone sees (section 4), with the log lines meant for ``log_for`` (a seat's
    view puts its own private lines there, :func:`seat`).

    For readers of the other fields only, such as the research tensors: ``log=False``
    leaves ``"log"`` empty, and ``by_kind=True`` names each card by its kind
    (``Card.index``) instead of its slug (the same cards; lists of kinds in kind order)."""
    negotiation = None
    if state.negotiation is not None:
        t, r = state.negotiation
        slugs = state._cs.slugs
        negotiation = {
            "target": None if t is None else (t if by_kind else slugs[t]),
            "replacement": None if r is None else (r if by_kind else slugs[r]),
        }
    phase = "over" if state.phase == "over" else PHASES[state.phase][0]
    return {
        "game": "byzantium",
        "turn": state.turn,
        "age": AGES[state.age],
        "phase": phase,
        "emperor": state.emperor,
        "current_player": state.current_player(),
        "territory": state.tt,
        "legacy": list(state.lt),
        "hand_sizes": [len(h) for h in state.hands],
        "deck_sizes": {n: len(state.draw[d]) for d, n in enumerate(DECK_NAMES)},
        "set_aside": {
            n: sorted(_cards(state, state.set_aside[d][0] + state.set_aside[d][1], by_kind))
            for d, n in enumerate(DECK_NAMES)
        },
        "discards": {n: _cards(state, state.discard[d], by_kind) for d, n in enumerate(DECK_NAMES)},
        "removed": _cards(state, state.removed, by_kind),
        "melds": {
            n: _cards(state, sorted(state.melds[d]), by_kind) for d, n in enumerate(DECK_NAMES)
        },
        "melds_turn": state.melds_turn,
        "negotiation": negotiation,
        "redrawn": None if state.redrawn is None else list(state.redrawn),
        "log": state.log_lines(log_for) if log else [],
        "result": None
        if state.result is None
        else {k: list(v) if isinstance(v, list) else v for k, v in state.result.items()},
    }


def seat(
    state: ByzantiumState, player: int, log: bool = True, by_kind: bool = False
) -> dict[str, Any]:
    """``public_observation`` plus what seat ``player`` alone knows: its hand, its own
    pending choice, the cards it knows in the other hand, and its private log (``log``
    and ``by_kind``: see :func:`public`)."""
    if player not in (0, 1):
        raise ValueError(f"no seat {player} in a 2-player game")
    obs = public(state, (PUBLIC, player), log, by_kind)
    pending = state.pending[player]
    obs.update(
        {
            "seat": player,
            "role": "byzantine" if player == state.emperor else "foe",
            "hand": _cards(state, state.hands[player], by_kind),
            "pending_meld": (
                _cards(state, pending, by_kind)
                if pending is not None and state.phase in ("meld_byz", "meld_foe")
                else None
            ),
            "pending_choice": None if pending is None else _cards(state, pending, by_kind),
            "known_opponent_cards": _cards(state, sorted(state.known[player]), by_kind),
        }
    )
    return obs


def resample(state: ByzantiumState, player: int, rng: random.Random) -> ByzantiumState:
    """A state consistent with ``observation(player)``: the other hand (beyond the cards
    ``player`` knows in it), both draw-pile orders, the other seat's pending hidden
    choice and the generator's future are redrawn with ``rng``.  The other seat's
    private log, the history and the seed are scrubbed (they would reveal the truth)."""
    s = state.clone()
    opp = 1 - player
    opp_deck = s._deck_of_seat(opp)
    hidden = minus(s.hands[opp], s.known[player])
    # Hands hold only cards usable in this age (B-R1), so the unknown part of the other
    # hand is drawn from the usable cards among it and the draw pile.
    usable_now = s.game.usable_in_age[s.age]
    # Sorted first, so the result depends only on what ``player`` knows and on ``rng``
    # (never on the true order), which keeps seeded bots blind to hidden changes.
    pool = sorted(hidden + s.draw[opp_deck])
    usable = [k for k in pool if usable_now[k]]
    shuffle_with(rng, usable)
    s.hands[opp] = sorted(s.known[player] + usable[: len(hidden)])
    rest = usable[len(hidden) :] + [k for k in pool if not usable_now[k]]
    shuffle_with(rng, rest)
    s.draw[opp_deck] = rest
    own = s.draw[1 - opp_deck]
    own.sort()
    shuffle_with(rng, own)
    if s.pending[opp] is not None:
        # The other seat already chose, hidden (B-R3): draw a random legal choice instead.
        kinds, table = s._table(opp)
        choice = table[rng.randrange(len(table))]
        s.pending[opp] = tuple(kinds[p] for p in choice)
    s._rng_key = rng.getrandbits(62)
    s._seed = -1
    s._history = []
    s.events = [event for event in s.events if event[0] != opp]
    return s


def hidden_from(state: ByzantiumState, player: int) -> Hashable:
    """Fingerprint of what ``player`` cannot see: the other hand, the draw-pile orders,
    the other seat's pending choice and the generator key."""
    opp = 1 - player
    return (
        tuple(state.hands[opp]),
        tuple(state.draw[0]),
        tuple(state.draw[1]),
        state.pending[opp],
        state._rng_key,
    )
