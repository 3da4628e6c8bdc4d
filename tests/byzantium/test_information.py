"""Rules section 4 (what each player may see) and ruling B-R3, as properties over games."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator, Sequence

from porphyra.core.conformance import check_resample
from porphyra.core.game import Action
from porphyra.games.byzantium import ByzantiumState
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


# ------------------------------------------------------------- B-R11: decision-sequence leak
def _twins(s: ByzantiumState, observer: int) -> Iterator[tuple[ByzantiumState, int, int]]:
    """Copies of ``s`` that differ only in what ``observer`` cannot see: a card ``h`` of the
    other hand that ``observer`` does not know is swapped with a card ``d`` from one of the
    five bottom positions of the other seat's draw pile (usable now, so the hand stays legal,
    B-R1).  Yields ``(copy, h, d)`` for every distinct pair of kinds."""
    other = 1 - observer
    if s.pending[other] is not None:
        return
    deck_index = s._deck_of_seat(other)
    unknown = Counter(s.hands[other]) - Counter(s.known[observer])
    seen: set[tuple[int, int]] = set()
    for pos, d in enumerate(s.draw[deck_index][:5]):
        if not s._cs.cards[d].usable_in(s.age):
            continue
        for h in unknown:
            if h == d or (h, d) in seen:
                continue
            seen.add((h, d))
            t = s.clone()
            t.hands[other].remove(h)
            t.hands[other].append(d)
            t.hands[other].sort()
            t.draw[deck_index][pos] = h
            yield t, h, d


def _view(s: ByzantiumState, observer: int) -> str:
    """What ``observer`` and the spectators see, who decides, and the observer's options."""
    return _text(
        [
            s.observation(observer),
            s.public_observation(),
            s.current_player(),
            [str(a) for a in s.legal_actions(observer)],
        ]
    )


def _swap_still_hidden(a: ByzantiumState, b: ByzantiumState, other: int, h: int, d: int) -> bool:
    """True while the swap is still where nobody but ``other`` can see it: ``other``'s hand
    holds ``h`` in ``a`` where it holds ``d`` in ``b``, and one draw-pile position holds ``d``
    in ``a`` and ``h`` in ``b``.  False once the rules moved either card (a meld, a pass, a
    discard, a draw)."""
    ha, hb = Counter(a.hands[other]), Counter(b.hands[other])
    if ha - hb != Counter({h: 1}) or hb - ha != Counter({d: 1}):
        return False
    deck = a._deck_of_seat(other)
    pa, pb = a.draw[deck], b.draw[deck]
    diff = [i for i, (x, y) in enumerate(zip(pa, pb, strict=False)) if x != y]
    return len(pa) == len(pb) and len(diff) == 1 and (pa[diff[0]], pb[diff[0]]) == (d, h)


def _decision_sequence_leaks(
    game_options: dict[str, object], games: int, twins: int = 3, stop_at_first: bool = False
) -> int:
    """Play ``games`` games that favour Negotiation; at every decision, build up to ``twins``
    random twins that differ only in what the deciding seat cannot see, and follow both
    games with the same actions while they stay legal in both.  Returns the number of twins
    in which that seat's view, the spectators' view or the sequence of decisions came to
    differ before the rules revealed one of the swapped cards (a reveal rightly ends the
    comparison)."""
    leaks = 0
    for g in range(games):
        rng = random.Random(g)
        s = new_state(seed=500 + g, **game_options)
        while not s.is_terminal():
            observer = s.current_player()
            candidates = list(_twins(s, observer))
            for b, h, d in rng.sample(candidates, min(twins, len(candidates))):
                a = s.clone()
                while not a.is_terminal() and _swap_still_hidden(a, b, 1 - observer, h, d):
                    if _view(a, observer) != _view(b, observer):
                        leaks += 1
                        if stop_at_first:
                            return leaks
                        break
                    action = _negotiating_choice(a, a.legal_actions(), rng)
                    if str(action) not in {str(x) for x in b.legal_actions()}:
                        break  # the other seat's own options differ: its hand differs
                    a.apply_action(action)
                    b.apply_action(b.game.parse_action(b, str(action)))
            s.apply_action(_negotiating_choice(s, s.legal_actions(), rng))
    return leaks


def _negotiating_choice(s: ByzantiumState, legal: Sequence[Action], rng: random.Random) -> Action:
    """A random action, but the Emperor melds Negotiation cards and targets when it can."""
    texts = [str(a) for a in legal]
    if s.phase == "meld_byz":
        with_negotiation = [
            i for i, t in enumerate(texts) if any(n in t for n in ("tribute", "embassy"))
        ]
        if with_negotiation:
            return legal[with_negotiation[-1]]
    if s.phase == "target" and len(legal) > 1:
        return legal[1 + rng.randrange(len(legal) - 1)]
    return legal[rng.randrange(len(legal))]


def test_b_r11_no_decision_sequence_leak_over_many_games() -> None:
    """B-R11 / section 4: two states that differ only in what a seat cannot see give that
    seat and the spectators identical views, legal actions and decision sequences."""
    assert _decision_sequence_leaks({}, games=25) == 0


def test_b_r11_the_leak_check_finds_the_rules_version_1_leak() -> None:
    """Under rules version 1 (replays only) the Foe was asked to replace only when it held a
    fitting card: the same check must see that leak, or it proves nothing."""
    assert _decision_sequence_leaks({"version": "1"}, games=25, stop_at_first=True) > 0
