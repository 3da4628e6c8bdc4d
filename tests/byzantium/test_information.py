"""Rules section 4 (what each player may see) and ruling B-R3, as properties over games."""

from __future__ import annotations

import json
import random

from porphyra.core.conformance import check_resample
from tests.byzantium.helpers import act, new_state, set_hands


def _text(obj: object) -> str:
    return json.dumps(obj, sort_keys=True)


def test_section_4_observation_holds_own_hand_not_the_other() -> None:
    s = new_state(seed=2)
    for p in (0, 1):
        obs = s.observation(p)
        assert obs["hand"] == [s.game.cardset.cards[k].slug for k in s.hands[p]]
        assert obs["seat"] == p
    pub = s.public_observation()
    assert "hand" not in pub and pub["hand_sizes"] == [len(s.hands[0]), len(s.hands[1])]


def test_b_r3_pending_meld_is_hidden_from_the_other_seat_until_both_commit() -> None:
    s = new_state(seed=2)
    set_hands(s, ["justinian-i", "cavalry"], ["huns"])
    act(s, "redraw -")
    act(s, "redraw -")
    before_foe = s.observation(s.foe)
    act(s, "meld justinian-i,cavalry")
    after_foe = s.observation(s.foe)
    # The Foe sees nothing new except whose turn it is.
    for key in ("melds", "hand_sizes", "hand", "discards", "removed", "legacy", "territory"):
        assert after_foe[key] == before_foe[key]
    assert "justinian-i" not in _text(after_foe)
    assert s.observation(s.emperor)["pending_meld"] == ["cavalry", "justinian-i"]
    act(s, "meld huns")
    assert s.public_observation()["melds"]["byzantine"] == ["cavalry", "justinian-i"]


def test_b_r3_redraw_choice_hidden_until_both_chose_then_public() -> None:
    s = new_state(seed=4)
    slug = s.game.cardset.cards[s.hands[s.emperor][0]].slug
    act(s, f"redraw {slug}")
    assert s.public_observation()["redrawn"] is None
    assert s.observation(s.foe)["pending_choice"] is None
    act(s, "redraw -")
    pub = s.public_observation()
    assert pub["redrawn"][s.emperor] == 1 and pub["redrawn"][s.foe] == 0
    assert any(f"redraws 1: {s.card(slug).name}" in line for line in pub["log"])


def test_section_4_passed_card_known_to_passer_and_receiver_only() -> None:
    s = new_state(seed=6)
    emperor, foe = s.emperor, s.foe
    set_hands(s, ["cavalry", "archers"], ["raiders", "famine"])
    act(s, "redraw -")
    act(s, "redraw -")
    act(s, "meld -")
    act(s, "meld -")
    act(s, "pass archers")
    act(s, "pass famine")
    assert "archers" in s.observation(emperor)["known_opponent_cards"]
    assert "famine" in s.observation(foe)["known_opponent_cards"]
    assert "archers" in s.observation(foe)["hand"]
    pub = _text(s.public_observation())
    assert "You passed" not in pub and "You received" not in pub


def test_section_4_reveal_first_draws_variant() -> None:
    s = new_state(seed=6, reveal_first_draws=True)
    for p in (0, 1):
        known = s.observation(p)["known_opponent_cards"]
        assert len(known) == 4
        other_hand = s.observation(1 - p)["hand"]
        assert all(k in other_hand for k in known)
    plain = new_state(seed=6)
    assert plain.observation(0)["known_opponent_cards"] == []


def test_no_leak_property_over_many_random_games() -> None:
    """resample(p) keeps observation(p) identical while varying what p cannot see, over
    many random games and both seats, so nothing hidden ever shows in observation(p)."""
    check_resample("byzantium", {}, games=12, samples=4)
    check_resample(
        "byzantium", {"reveal_first_draws": True, "first_emperor": 1}, games=6, samples=4
    )


def test_observation_never_names_a_card_only_in_the_other_hand() -> None:
    # A direct check besides the resample property: unique cards held only by the other
    # seat never appear in this seat's observation.
    for seed in range(25):
        s = new_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            for p in (0, 1):
                obs = s.observation(p)
                text = _text({k: v for k, v in obs.items() if k != "log"})
                for k in s.hands[1 - p]:
                    card = s.game.cardset.cards[k]
                    public = _text(s.public_observation())
                    if card.unique and card.slug not in public and k not in s.known[p]:
                        assert card.slug not in text
            acts = s.legal_actions()
            s.apply_action(acts[rng.randrange(len(acts))])
