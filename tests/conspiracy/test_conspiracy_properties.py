"""Property tests over random games: invariants that every rule keeps (Hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import porphyra
from porphyra.games.conspiracy import ConspiracyState
from porphyra.games.conspiracy.cards import KEY_NONE
from porphyra.games.conspiracy.state import RECRUIT


def check_invariants(s: ConspiracyState, all_lords: Counter[int], all_locs: Counter[int]) -> None:
    # Every lord and Location is somewhere, exactly once.
    where = Counter(s.deck) + Counter(s.drawn) + Counter(s.pending)
    for pile in s.piles:
        where += Counter(pile)
    for ch in s.chambers:
        where += Counter(ch)
    assert where == all_lords
    locs = Counter(s.loc_deck) + Counter(s.face_up) + Counter(s.drawn_locs)
    for mine in s.locs:
        locs += Counter(mine)
    assert locs == all_locs
    for p in range(s.n):
        ch = s.chambers[p]
        assert len(ch) <= 15
        slots = s.loc_slots[p]
        # Locations cover keyed lords, at most one per lord, in slot order (3.3)
        assert slots == sorted(set(slots))
        assert all(s.t.key[ch[i]] != KEY_NONE for i in slots)
    # The Pearl Master holds the most pearls (3.4; ties move it, pearls never drop)
    if s.pm < 0:
        assert not any(s.pearls)
    else:
        assert s.pearls[s.pm] == max(s.pearls)
    # No mandatory Location was skipped: at a turn start nobody has 2 matching keys
    if s.phase == RECRUIT and (s.loc_deck or s.face_up):
        for p in range(s.n):
            silver, gold = s.unspent_keys(p)
            assert silver < 2 and gold < 2
            assert not (s.any_keys[p] and silver + gold >= 2)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from([2, 3, 4]),
    bonus=st.booleans(),
)
def test_random_games_keep_the_invariants(seed: int, players: int, bonus: bool) -> None:
    game = porphyra.load_game("conspiracy", players=players, bonus_locations=bonus)
    s = game.new_initial_state(seed=seed)
    assert isinstance(s, ConspiracyState)
    all_lords = Counter(s.deck + s.drawn + [k for pile in s.piles for k in pile])
    all_locs = Counter(s.loc_deck + s.face_up)
    assert sum(all_lords.values()) == 60 and sum(all_locs.values()) == (29 if bonus else 24)
    rng = random.Random(seed)
    turns_before = 0
    placed_before = [0] * players
    while not s.is_terminal():
        check_invariants(s, all_lords, all_locs)
        actions = s.legal_actions()
        assert actions and len({str(a) for a in actions}) == len(actions)
        if s.turn != turns_before:
            # each finished turn added at least one lord to its owner's chamber
            turns_before = s.turn
            placed = [len(c) for c in s.chambers]
            assert sum(placed) > sum(placed_before) or s.turn == 1
            placed_before = placed
        s.apply_action(actions[rng.randrange(len(actions))])
    check_invariants(s, all_lords, all_locs)
    assert len(s.history) <= game.info.max_game_length
    # the game ends by the trigger (someone's chamber full) or by C-R2
    assert s.end_trigger >= 0 or (not s.deck and not any(s.piles))
    assert s.returns() != [0.0] * players or len(set(x["total"] for x in s.scores())) == 1
