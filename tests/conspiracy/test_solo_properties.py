"""Property tests of the solo mode over random games (rules section 4): the invariants of
every Conspiracy game plus the solo ones (S-R1 ... S-R5)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import porphyra
from porphyra.games.conspiracy import ConspiracyState
from porphyra.games.conspiracy.solo import opponent_names
from porphyra.games.conspiracy.state import REPLAY_PHASE
from tests.conspiracy.test_conspiracy_properties import check_invariants


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), opponent=st.sampled_from([*opponent_names(), "random"]))
def test_random_solo_games_keep_the_invariants(seed: int, opponent: str) -> None:
    game = porphyra.load_game("conspiracy", players=1, opponent=opponent)
    s = game.new_initial_state(seed=seed)
    assert isinstance(s, ConspiracyState)
    all_lords = Counter(s.deck)
    all_locs = Counter(s.loc_deck + s.face_up)
    rng = random.Random(seed)
    while not s.is_terminal():
        check_invariants(s, all_lords, all_locs)
        # S-R5: you decide everything; the LO seat never has an action
        assert s.current_player() == 0 and s.legal_actions(1) == []
        assert len(s.lo_hidden) == len(s.locs[1])
        assert s.phase != REPLAY_PHASE or (s.replay_token and len(s.chambers[0]) < 15)
        assert not s.force_draw or s.opponent.name == "military"
        actions = s.legal_actions()
        assert actions and len({str(a) for a in actions}) == len(actions)
        s.apply_action(actions[rng.randrange(len(actions))])
    check_invariants(s, all_lords, all_locs)
    assert len(s.history) <= game.info.max_game_length
    assert s.end_trigger >= 0 or (not s.deck and not any(s.piles))
    scores = s.scores()
    assert len(scores) == 2 and len(s.returns()) == 1
    assert scores[1]["locations"] == 5 * len(s.locs[1])
    mine, lo = (scores[0]["total"], scores[0]["pearls"]), (scores[1]["total"], scores[1]["pearls"])
    assert s.returns() == [1.0 if mine > lo else -1.0 if mine < lo else 0.0]
