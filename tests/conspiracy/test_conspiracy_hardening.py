"""Bad input and hidden-information hardening found by the attack review."""

from __future__ import annotations

import random

import pytest

import porphyra
from porphyra import record as records
from porphyra.bots import seat_view
from porphyra.core.errors import IllegalActionError
from porphyra.core.playout import random_playout
from tests.conspiracy.helpers import new


def test_c_r12_resampled_state_cannot_replay_the_true_decks() -> None:
    s = new(players=2, seed=5)
    rng = random.Random(1)
    for _ in range(6):
        acts = s.legal_actions()
        s.apply_action(acts[rng.randrange(len(acts))])
    sample = seat_view(s, s.current_player()).sample(random.Random(99))
    assert sample.seed != s.seed and sample.history == []
    assert sample.observation(0) == s.observation(0)


def test_seed_must_be_an_integer_and_its_sign_matters() -> None:
    game = porphyra.load_game("conspiracy", players=2)
    for bad in (None, 1.5, "3", True):
        with pytest.raises(TypeError, match="seed must be an integer"):
            game.new_initial_state(seed=bad)  # type: ignore[arg-type]
    a, b = game.new_initial_state(seed=7), game.new_initial_state(seed=-7)
    assert a.hidden_from(0) != b.hidden_from(0)
    random_playout(b, random.Random(0))
    assert records.dumps(records.replay(records.to_record(b))) == records.dumps(b)


def test_observation_of_a_missing_seat_is_refused() -> None:
    s = new(players=3)
    for bad in (3, -1, 9):
        with pytest.raises(ValueError, match="no seat"):
            s.observation(bad)


def test_parse_action_for_a_seat_off_turn_says_not_your_turn() -> None:
    s = new(players=2, first=0)
    with pytest.raises(IllegalActionError, match="not your turn"):
        s.game.parse_action(s, "draw 1", player=1)
    assert str(s.game.parse_action(s, "draw 1", player=0)) == "draw 1"


def test_applying_text_instead_of_an_action_is_refused_clearly() -> None:
    s = new(players=2)
    with pytest.raises(IllegalActionError, match="not a Conspiracy action"):
        s.apply_action("draw 1")  # type: ignore[arg-type]
