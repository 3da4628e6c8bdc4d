"""A Byzantium decision's option table (``legal_choices``) composes to exactly the
engine's legal texts, in order, on many random states (issue 33: the page and the agents
build the meld and redraw menus from it)."""

from __future__ import annotations

import json
import random

from porphyra.core.choices import compose
from porphyra.games.byzantium.rules import PHASES

from .helpers import new_state


def test_choices_compose_to_the_legal_texts() -> None:
    compared = {"meld": 0, "redraw": 0}
    for seed in range(12):
        state = new_state(seed=seed, deck="v5") if seed % 2 else new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            verb = PHASES[state.phase][0]
            for seat in (0, 1):
                choices = state.legal_choices(seat)
                texts = state.legal_action_texts(seat)
                if seat not in state.active_players() or verb not in compared:
                    assert choices is None, (state.phase, seat)
                    continue
                assert choices is not None
                assert compose(json.loads(json.dumps(choices))) == texts
                compared[verb] += 1
            seat = rng.choice(state.active_players())
            legal = state.legal_actions(seat)
            state.apply_action(legal[rng.randrange(len(legal))], seat)
    assert compared["meld"] > 100 and compared["redraw"] > 100, compared
