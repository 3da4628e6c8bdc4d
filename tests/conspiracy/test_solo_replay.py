"""Solo mode: the Replay token (rules section 4.3, ruling S-R4) and the end of a solo game
(C-R16: the LO counts for the end trigger)."""

from __future__ import annotations

from porphyra.games.conspiracy import ConspiracyState
from porphyra.games.conspiracy.replay_token import new_area
from tests.conspiracy.helpers import act, chamber, legal, log_since, put_pile, set_chamber, solo

R, B, G = 1, 3, 2  # colour indices: red, blue, green


def _with_chamber(*names: str, lords: list[str] | None = None) -> ConspiracyState:
    s = solo("farmer", lords=lords)
    set_chamber(s, 0, *names)
    put_pile(s, "purple4", "purple4")  # the LO's pile (STACK), far from your chamber
    return s


# ------------------------------------------------------------------ the condition
def test_new_area_pure_function() -> None:
    # slots 1, 2 red; placing red in slot 6 (touches 1, 2) makes a new area of 3
    assert new_area([R, R, B, B, G], [R, R, B, B, G, R], [0, 1, 2, 3, 4, -1]) == [0, 1, 5]
    # extending an area of 3 (slots 1-3) with slot 7 (touches 2, 3)
    before = [R, R, R, B, G, B]
    assert new_area(before, [*before, R], [0, 1, 2, 3, 4, 5, -1]) is None


def test_replay_token_created_by_a_new_area_of_three() -> None:
    s = _with_chamber("red3", "red4", "blue3", "blue4", "green3", lords=["red4"])
    start = len(s.log)
    act(s, "draw 1")  # red4 into slot 6, touching red slots 1 and 2
    assert s.replay_token
    assert "new red area of 3 (slots 1, 2, 6): takes the Replay token" in log_since(s, start)
    assert s.public_observation()["replay_token"] is True


def test_replay_token_extending_an_area_of_three_does_not_count() -> None:
    # slots 1-3 red already form an area of 3; red in slot 7 (touches 2, 3) extends it
    s = _with_chamber("red3", "red4", "red3", "blue3", "green3", "blue4", lords=["red4"])
    act(s, "draw 1")
    assert chamber(s, 0)[6] == "red4"
    assert not s.replay_token


def test_replay_token_joining_two_areas_of_two_counts() -> None:
    # red {1, 6} and red {3, 4}; red in slot 7 touches 3 and 6: one new area of 5
    s = _with_chamber("red3", "blue3", "red4", "red3", "green3", "red4", lords=["red6"])
    start = len(s.log)
    act(s, "draw 1")
    assert s.replay_token
    assert "new red area of 5" in log_since(s, start)


def test_replay_token_created_by_a_swap() -> None:
    # red0 into slot 6 touches red3 in slot 1 only (area of 2); swapping slots 2 and 3
    # brings red4 next to them: a new area of 3 (slots 1, 2, 6)
    s = _with_chamber("red3", "blue3", "red4", "green3", "green4", lords=["red0"])
    act(s, "draw 1")
    assert s.phase_name == "swap" and not s.replay_token
    act(s, "swap 2 3")
    assert s.replay_token


def test_replay_token_at_most_one_held() -> None:
    s = _with_chamber("red3", "red4", "blue3", "blue4", "green3", lords=["red4"])
    s.replay_token = True
    start = len(s.log)
    act(s, "draw 1")
    assert "already holds the Replay token" in log_since(s, start)
    assert s.replay_token


def test_the_lo_never_takes_the_replay_token() -> None:
    s = solo("farmer", lords=["yellow4"])
    set_chamber(s, 1, "red3", "red4", "blue3", "blue4", "green3")
    put_pile(s, "red0", "red1")  # the LO places red0 / red1 in slots 6, 7: red area of 4
    act(s, "draw 1", "loplace red0")
    assert not s.replay_token and s.phase_name == "recruit"


# ------------------------------------------------------------------ spending it
def test_replay_offered_at_the_end_of_your_turn_and_gives_an_extra_turn_at_once() -> None:
    s = _with_chamber("red3", "red4", "blue3", "blue4", "green3", lords=["red4", "yellow4"])
    act(s, "draw 1")
    assert s.phase_name == "replay" and legal(s) == ["replay", "replay -"]
    lo_before = list(s.chambers[1])
    turn = s.turn
    act(s, "replay")
    assert s.current == 0 and s.phase_name == "recruit" and s.turn == turn + 1
    assert s.chambers[1] == lo_before  # the LO has not played
    assert not s.replay_token
    act(s, "draw 1")  # the extra turn ends: no token, so the LO plays now
    assert len(s.chambers[1]) == len(lo_before) + 2


def test_replay_kept_is_offered_again_next_turn() -> None:
    s = _with_chamber("red3", "red4", "blue3", "blue4", "green3", lords=["red4", "yellow4"])
    act(s, "draw 1", "replay -")
    assert s.replay_token and s.current == 0 and len(s.chambers[1]) == 2
    act(s, "draw 1")
    assert s.phase_name == "replay"


def test_replay_not_offered_when_your_chamber_is_full() -> None:
    lords = ["yellow1"] * 4 + ["red1"] * 4 + ["blue1"] * 4 + ["green1", "purple1"]
    s = _with_chamber(*lords, lords=["yellow4"])
    s.replay_token = True
    act(s, "draw 1")
    assert len(s.chambers[0]) == 15
    assert s.phase_name != "replay"


# ------------------------------------------------------------- end trigger (C-R16)
def test_c_r16_your_full_chamber_gives_the_lo_one_last_turn() -> None:
    lords = ["yellow1"] * 4 + ["red1"] * 4 + ["blue1"] * 4 + ["green1", "purple1"]
    s = _with_chamber(*lords, lords=["yellow4"])
    act(s, "draw 1")
    assert s.is_terminal()
    assert chamber(s, 1) == ["purple4", "purple4"]  # the LO played its last turn
    assert "filled the chamber" in "\n".join(s.log)
    assert s.returns() in ([1.0], [-1.0], [0.0])
    assert s.public_observation()["winners"]


def test_c_r16_the_lo_full_chamber_gives_you_one_last_turn_without_replay() -> None:
    s = solo("farmer", lords=["yellow4", "red6", "blue4"])
    lords = ["yellow1"] * 3 + ["red1"] * 4 + ["blue1"] * 4 + ["purple1"] * 3
    set_chamber(s, 1, *lords)
    set_chamber(s, 0, "red3", "red4", "blue3", "blue4", "green3")
    put_pile(s, "green4", "green4")
    act(s, "draw 1")  # you: yellow4; the LO fills its 15th slot
    assert s.end_trigger == 1 and not s.is_terminal()
    start = len(s.log)
    act(s, "draw 1")  # red6: a new area of 3 gives the token, but no replay is offered
    assert s.replay_token
    assert s.is_terminal()
    assert "game over" in log_since(s, start)


def test_new_area_shortcut_agrees_with_the_full_computation() -> None:
    import random

    rng = random.Random(5)
    for _ in range(400):
        n = rng.randrange(3, 16)
        before = [rng.randrange(3) for _ in range(n - 1)]
        after = [*before, rng.randrange(3)]
        origin = [*range(n - 1), -1]
        full = new_area(before, after, origin)
        assert new_area(before, after, origin, [n - 1]) == full
        i, j = sorted(rng.sample(range(n - 1), 2))
        swapped = before[:]
        swapped[i], swapped[j] = swapped[j], swapped[i]
        so = list(range(n - 1))
        so[i], so[j] = j, i
        assert new_area(before, swapped, so, [i, j]) == new_area(before, swapped, so)
