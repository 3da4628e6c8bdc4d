"""The undo rule: how far back a seat may take its decision, if at all.

Shared by the web server (``undo`` of a seat whose every opponent is a bot) and the
terminal (``undo`` at the prompt): both replay the record prefix whose length
:func:`undo_target` gives.  The rule reads only the state and its seats' observations.
"""

from __future__ import annotations

import random

from porphyra.core import record as records
from porphyra.core.errors import RecordError
from porphyra.core.game import State

#: Resamples used by :func:`undo_target` to check that nothing hidden was revealed.
UNDO_RESAMPLES = 3


def _informed_choice(state: State, samples: list[State], player: int) -> bool:
    """True if ``player``'s decision now could depend on what only it knows: its view
    differs in one of ``samples`` (resampled for another seat) and it has several options
    or, in that sample, other options than here."""
    view = state.observation(player)
    legal: list[str] | None = None
    for sample in samples:
        if sample.observation(player) == view:
            continue
        if legal is None:
            legal = [str(a) for a in state.legal_actions(player)]
            if len(legal) > 1:
                return True
        if [str(a) for a in sample.legal_actions(player)] != legal:
            return True
    return False


def undo_target(state: State, seat: int) -> int | None:
    """The history length to go back to when ``seat`` asks to undo, or None if refused.

    The rule: undo goes back to just before ``seat``'s most recent decision (and every bot
    decision after it), and is allowed only if, from that point to now, **nothing hidden
    was revealed to ``seat`` and no random event happened**, checked two ways:

    1. ``state.hidden_from(seat)`` (hands, deck orders, pending hidden choices and the
       generator of the game) is the same at every step as at the target point, so no card
       was drawn, no deck shuffled, no hidden choice committed by another seat;
    2. replaying the same actions on :data:`UNDO_RESAMPLES` resampled copies of the target
       state (``resample(seat, rng)``: all the hidden parts redrawn) gives ``seat`` exactly
       the same observation at every step, so nothing seat saw depended on hidden facts;
    3. no other seat that knows something ``seat`` does not (its own view differs in a
       resampled copy) made a choice in between: a choice among several options, or one
       forced only by what it holds (it had more options in a resampled copy), tells
       ``seat`` about that seat's hidden cards (a bot's "no replacement" after a
       negotiation target says what its hand lacks), and undoing would let ``seat`` try
       every option against it.

    The caller checks the other condition: every other seat is a bot.
    """
    history = state.history
    mine = [i for i, (p, _) in enumerate(history) if p == seat]
    if not mine:
        return None
    target = mine[-1]
    try:
        base = records.replay(records.to_record(state), upto=target, game=state.game)
    except RecordError:
        return None
    game = base.game
    fingerprint = base.hidden_from(seat)
    rng = random.Random(f"undo/{len(history)}")
    samples = [base.resample(seat, rng) for _ in range(UNDO_RESAMPLES)]
    walk = base.clone()
    for player, action in history[target:]:
        text = str(action)
        if player != seat and _informed_choice(walk, samples, player):
            return None
        walk.apply_action(game.parse_action(walk, text, player), player)
        if walk.hidden_from(seat) != fingerprint:
            return None
        expected = walk.observation(seat)
        for sample in samples:
            try:
                sample.apply_action(game.parse_action(sample, text, player), player)
            except ValueError:
                return None
            if sample.observation(seat) != expected:
                return None
    return target
