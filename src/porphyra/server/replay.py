"""Replaying web games: the shared game objects, record replay and the undo rule.

Undo history never leaves the server: an undo replays a record prefix (the length given by
:func:`undo_target`) and the runner sends fresh snapshots.
"""

from __future__ import annotations

import json
import random
from typing import Any

from porphyra import record as records
from porphyra.core.errors import RecordError
from porphyra.core.game import Game, State
from porphyra.core.registry import load_game, load_game_version

#: Resamples used by :func:`undo_target` to check that nothing hidden was revealed.
UNDO_RESAMPLES = 3


#: Game objects shared by every web game with the same options (their caches, e.g.
#: Byzantium's interned actions, then serve all games instead of starting cold).
_GAMES: dict[str, Game] = {}


def shared_game(name: str, options: dict[str, Any], version: str | None = None) -> Game:
    """The shared :class:`Game` for ``name`` with ``options`` under rules ``version``
    (default: the current rules), made by ``load_game`` once.

    Raises:
        UnknownGameError: unknown game, invalid options or an unknown rules version (as
            ``load_game``).
    """
    key = f"{name}:{version}:{json.dumps(options, sort_keys=True)}"
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = (
            load_game(name, **options)
            if version is None
            else load_game_version(name, version, options)
        )
    return game


def replay(rec: dict[str, Any], upto: int | None = None) -> State:
    """:func:`porphyra.record.replay` on the shared game object of the record's options.

    Raises:
        RecordError: invalid record, another rules version, or an action that does not
            apply.
    """
    rec = records.validate(rec)
    try:
        game = shared_game(rec["game"], rec["options"], rec["version"])
    except (ValueError, TypeError) as exc:
        raise RecordError(f"record cannot be loaded: {exc}") from None
    return records.replay(rec, upto, game=game)


# ---------------------------------------------------------------------------- undo
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
        base = replay(records.to_record(state), upto=target)
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
