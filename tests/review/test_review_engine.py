"""The review engine: marks, the curve and its moments, reproducibility, and that a
review only uses what the reviewed seat could see."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from porphyra import load_game
from porphyra import record as records
from porphyra.bots import make_bot, seat_view
from porphyra.core.errors import RecordError
from porphyra.review import REVIEW_VERSION, THRESHOLDS, ReviewSettings, mark_for, review_record
from porphyra.review.calibration import calibrate
from porphyra.review.engine import decision_points, review_points, turning_points

#: A small budget: the tests check behaviour, not the estimate's quality.
FAST = ReviewSettings(iterations=24, seed=5)


def bot_game(name: str, seed: int, spec: str = "easy") -> dict[str, Any]:
    """The record of a whole game of ``name`` between ``spec`` bots."""
    game = load_game(name)
    state = game.new_initial_state(seed=seed)
    bots = [make_bot(spec, seed * 10 + i) for i in range(game.num_players)]
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(bots[p].choose(seat_view(state, p)), p)
    return records.to_record(state)


def test_marks_follow_the_documented_thresholds() -> None:
    assert [name for name, _ in THRESHOLDS] == ["blunder", "mistake", "inaccuracy"]
    assert mark_for(0.0) is None
    assert mark_for(0.049) is None
    assert mark_for(0.05) == "inaccuracy"
    assert mark_for(0.0999) == "inaccuracy"
    assert mark_for(0.10) == "mistake"
    assert mark_for(0.20) == "blunder"
    assert mark_for(0.9) == "blunder"


def test_turning_points_are_the_largest_steps_of_the_curve() -> None:
    decisions = [
        {"move": 2, "before": 0.5, "after": 0.45},
        {"move": 6, "before": 0.8, "after": 0.5},
        {"move": 9, "before": 0.52, "after": 0.5},
    ]
    moments = turning_points(decisions, 0.0, 12)
    assert [(m["move"], m["kind"], m["swing"]) for m in moments] == [
        (12, "between", -0.5),
        (5, "between", 0.35),
        (6, "own", -0.3),
    ]


@pytest.mark.parametrize("name", ["byzantium", "conspiracy"])
def test_review_shape_and_reproducibility(name: str) -> None:
    rec = bot_game(name, 11)
    seen: list[tuple[int, int]] = []
    review = review_record(rec, 1, FAST, progress=lambda d, t: seen.append((d, t)))
    assert review["version"] == REVIEW_VERSION and review["seat"] == 1
    assert review["game"] == name
    decisions = review["decisions"]
    assert decisions and seen[0] == (0, len(decisions)) and seen[-1] == (len(decisions),) * 2
    state = records.replay(rec, upto=0)
    moves = {d["move"]: d for d in decisions}
    for i, entry in enumerate(rec["actions"]):
        if entry["player"] == 1 and len(state.legal_actions(1)) > 1:
            d = moves.pop(i + 1)
            legal = {str(a) for a in state.legal_actions(1)}
            assert d["chosen"] == entry["action"] and d["best"] in legal
            assert 0.0 <= d["after"] <= 1.0 and 0.0 <= d["before"] <= 1.0
            assert d["cost"] == round(max(0.0, d["before"] - d["after"]), 4)
            # Shown chances are the search's own, calibrated by the game's map.
            assert d["before"] == calibrate(name, d["raw"]["before"])
            assert d["after"] == calibrate(name, d["raw"]["after"])
            assert d["mark"] == mark_for(d["cost"])
        state.apply_action(state.game.parse_action(state, entry["action"]), entry["player"])
    assert moves == {}  # every decision with a choice, and nothing else
    info = state.game.info
    span = info.max_utility - info.min_utility
    assert review["result"] == round((state.returns()[1] - info.min_utility) / span, 4)
    assert len(review["moments"]) == min(3, 2 * len(decisions))
    assert json.loads(json.dumps(review)) == review
    assert review_record(rec, 1, FAST) == review  # iteration budgets: reproducible


def test_a_different_seed_may_change_estimates_but_not_the_moves() -> None:
    rec = bot_game("byzantium", 4)
    a = review_record(rec, 0, FAST)
    b = review_record(rec, 0, ReviewSettings(iterations=24, seed=6))
    assert [d["chosen"] for d in a["decisions"]] == [d["chosen"] for d in b["decisions"]]
    assert a["settings"] != b["settings"]
    assert [d["before"] for d in a["decisions"]] != [d["before"] for d in b["decisions"]]


def test_bad_seat_is_refused() -> None:
    rec = bot_game("byzantium", 2)
    with pytest.raises(RecordError, match="not a seat"):
        review_record(rec, 5, FAST)


@pytest.mark.parametrize("name", ["byzantium", "conspiracy"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_review_depends_only_on_what_the_seat_could_see(name: str, seed: int) -> None:
    """Property: replace each state by another one the seat cannot tell apart (its hidden
    parts, the other hands, the draw orders and the generator, redrawn by ``resample``)
    and the review is the same."""
    seat = seed % 2
    rec = bot_game(name, seed)
    points = list(decision_points(rec, seat))
    rng = random.Random(seed)
    twins = [(i, state.resample(seat, rng), chosen) for i, state, chosen in points]
    assert all(
        t.observation(seat) == s.observation(seat)
        for (_, s, _), (_, t, _) in zip(points, twins, strict=True)
    )

    # The twins really differ in what the seat cannot see (else this test could not fail).
    def hidden(st: Any) -> Any:
        return st.observation(1 - seat)["hand"] if name == "byzantium" else st.deck

    assert any(hidden(s) != hidden(t) for (_, s, _), (_, t, _) in zip(points, twins, strict=True))
    assert review_points(twins, seat, FAST) == review_points(points, seat, FAST)


def _tokens(text: str) -> set[str]:
    return set(re.split(r"[\s,]+", text))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_review_never_names_a_card_of_the_other_hand(seed: int) -> None:
    seat, other = seed % 2, 1 - seed % 2
    rec = bot_game("byzantium", seed)
    review = review_record(rec, seat, FAST)
    by_move = {d["move"]: d for d in review["decisions"]}
    checked = 0
    for index, state, _ in decision_points(rec, seat):
        mine = json.dumps(state.observation(seat))
        secret = {c for c in state.observation(other)["hand"] if f'"{c}"' not in mine}
        entry = json.dumps(by_move[index + 1])
        named = set().union(*(_tokens(by_move[index + 1][k]) for k in ("best", "chosen")))
        assert not secret & named, f"move {index + 1} names {secret & named}"
        assert not any(f'"{c}"' in entry for c in secret)
        checked += len(secret)
    assert checked > 0  # the other hand held cards this seat never saw


@pytest.mark.parametrize("name", ["byzantium", "conspiracy"])
def test_a_move_outside_the_heuristics_candidates_is_judged_too(name: str) -> None:
    """The chosen move joins the root candidates, so even a move the search would never
    consider gets its own estimate on the same worlds."""
    from porphyra.bots.heuristic import heuristics_for
    from porphyra.review.engine import review_decision

    hooks = heuristics_for(name)
    assert hooks is not None and hooks.candidate_actions is not None
    judged = 0
    for _, state, _ in decision_points(bot_game(name, 8), 0):
        usual = {str(a) for a in hooks.candidate_actions(state)}
        odd = [str(a) for a in state.legal_actions(0) if str(a) not in usual]
        if not odd:
            continue
        d = review_decision(state, 0, odd[-1], ReviewSettings(iterations=2, seed=1))
        assert d["chosen"] == odd[-1] and d["candidates"] >= 2
        judged += 1
    assert judged > 0
    with pytest.raises(ValueError, match="not a legal action"):
        review_decision(state, 0, "no such move", FAST)


def test_settings_need_two_iterations() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        ReviewSettings(iterations=1)


def test_the_default_seat_is_the_first_persons() -> None:
    from porphyra.review import default_seat

    rec = bot_game("byzantium", 2)
    assert default_seat(rec) == 0
    bot = {"kind": "bot", "bot": "easy"}
    assert default_seat({**rec, "seats": [bot, {"kind": "human", "name": "Ann"}]}) == 1
    assert default_seat({**rec, "seats": [bot, bot]}) == 0
