"""Rules section 2 and 6: card data, its validation, totals, and the ``cards`` option."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

import porphyra
from porphyra.core.errors import CardDataError, UnknownGameError
from porphyra.games.byzantium.cards import (
    DECKS_SHIPPED,
    Card,
    deck_path,
    default_cards_path,
    load_cards,
    load_deck,
)


def _totals(deck: str) -> Counter[str]:
    """Copies per entry Age in ``deck`` of version 1, the table of rules section 6."""
    totals: Counter[str] = Counter()
    for c in load_deck("v1").deck_cards(deck):
        label = "all" if c.ages == "all" else ("early", "middle", "late")[c.first_age]
        totals[label] += c.copies
    return totals


def test_section_6_byzantine_deck_totals() -> None:
    assert _totals("byzantine") == {"all": 30, "early": 15, "middle": 23, "late": 19}
    assert sum(_totals("byzantine").values()) == 87


def test_section_6_foe_deck_totals() -> None:
    assert _totals("foe") == {"all": 24, "early": 10, "middle": 15, "late": 13}
    assert sum(_totals("foe").values()) == 62


@pytest.mark.parametrize("deck", DECKS_SHIPPED)
def test_section_6_shipped_decks_are_marked_designed_for_this_project(deck: str) -> None:
    cs = load_deck(deck)
    assert cs.designed_for_this_project and cs.version == deck
    raw = json.loads(deck_path(deck).read_text())
    assert "designed for porphyra" in raw["provenance"].lower()


def test_section_6_later_decks_keep_names_types_ages_and_uniqueness() -> None:
    """A new version may change forces and copies (section 6), and from version 4 on a
    Legacy card's legacy value (0 to 3), never anything else."""
    first = {c.slug: c for c in load_deck(DECKS_SHIPPED[0]).cards}
    for deck in DECKS_SHIPPED[1:]:
        cards = {c.slug: c for c in load_deck(deck).cards}
        assert list(cards) == list(first)
        legacy_may_change = int(deck[1:]) >= 4
        for slug, card in cards.items():
            old = first[slug]
            same = ["name", "deck", "type", "first_age", "last_age", "unique", "natural"]
            if not legacy_may_change:
                same.append("legacy")
            assert [getattr(card, k) for k in same] == [getattr(old, k) for k in same], slug
            if card.type == "Legacy":
                assert 0 <= card.legacy <= 3, slug


def assert_provenance_names_every_change(old_deck: str, new_deck: str) -> dict[str, Card]:
    """Check that ``new_deck``'s provenance names each force, copies and legacy change from
    ``old_deck`` (as ``Name field old->new``) and nothing more; ``new_deck``'s cards by slug."""
    before = {c.slug: c for c in load_deck(old_deck).cards}
    after = {c.slug: c for c in load_deck(new_deck).cards}
    provenance = json.loads(deck_path(new_deck).read_text())["provenance"]
    changed = 0
    for slug, card in after.items():
        for field in ("force", "copies", "legacy"):
            old, new = getattr(before[slug], field), getattr(card, field)
            if old != new:
                changed += 1
                assert f"{card.name} {field} {old}->{new}" in provenance
    assert changed == provenance.count("->")
    return after


def test_section_6_deck_v4_changes_legacy_values_as_documented() -> None:
    """Deck v4 (section 6: legacy values may change from version 4 on) moves Legacy Tokens
    from the Early and Middle Ages to the Late Age: its provenance names every change."""
    v4 = assert_provenance_names_every_change("v3", "v4")
    late = sum(c.legacy * c.copies for c in v4.values() if c.first_age == 2)
    early_middle = sum(c.legacy * c.copies for c in v4.values() if c.last_age < 2)
    assert late > early_middle


def test_section_6_deck_v5_changes_are_documented_and_leave_no_blank_card() -> None:
    """Deck v5 (section 6) takes LT from the Middle Age and the Chronicle and gives the Late
    Age a third 3-LT card: its provenance names every change, the Late Legacy cards hold most of
    the legacy value, and no Byzantine card is left with neither force nor legacy value."""
    v5 = assert_provenance_names_every_change("v4", "v5")
    late = sum(c.legacy * c.copies for c in v5.values() if c.first_age == 2)
    earlier = sum(c.legacy * c.copies for c in v5.values() if c.first_age < 2)
    assert late > 2 * earlier
    blank = [c.name for c in v5.values() if c.deck == "byzantine" and c.force == c.legacy == 0]
    assert blank == ["Tribute", "Appeal to the West"]  # Negotiation cards act without force


def test_section_6_deck_v6_weakens_one_late_northern_foe() -> None:
    """Deck v6 (section 6) changes one force from v5, on the Foe side of the Late Age
    (fewer collapses when both sides search): its provenance names it, and nothing else
    moved."""
    v6 = assert_provenance_names_every_change("v5", "v6")
    v5 = {c.slug: c for c in load_deck("v5").cards}
    moved = [
        s
        for s, c in v6.items()
        if (c.force, c.copies, c.legacy) != (v5[s].force, v5[s].copies, v5[s].legacy)
    ]
    assert moved == ["serbian-empire"]
    card = v6["serbian-empire"]
    assert (card.deck, card.type, card.first_age, card.force) == ("foe", "Northern Foe", 2, 2)


@pytest.mark.parametrize("deck", DECKS_SHIPPED)
def test_section_2_unique_cards_have_one_copy_and_legacy_only_on_legacy_cards(deck: str) -> None:
    for c in load_deck(deck).cards:
        assert not c.unique or c.copies == 1
        assert c.legacy == 0 or c.type == "Legacy"
        assert not c.natural or c.type == "Disaster"


def _write(tmp_path: Path, mutate: Any) -> Path:
    data = json.loads(default_cards_path().read_text())
    mutate(data)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["cards"][0].update(type="Wizard"), r"entry #1 \('infantry'\): unknown type"),
        (lambda d: d["cards"][1].update(ages=["late", "early"]), r"entry #2 .*bad age"),
        (lambda d: d["cards"][2].update(ages=["modern", "late"]), r"entry #3 .*bad age"),
        (lambda d: d["cards"][3].update(slug="infantry"), r"entry #4 .*duplicate slug 'infantry'"),
        (lambda d: d["cards"][4].update(force=-2), r"entry #5 .*force -2 is negative"),
        (lambda d: d["cards"][5].pop("force"), r"entry #6 .*missing field 'force'"),
        (lambda d: d["cards"][5].update(deck="pirates"), r"entry #6 .*unknown deck 'pirates'"),
        (lambda d: d["cards"][5].update(copies=0), r"entry #6 .*copies 0 is below 1"),
        (lambda d: d["cards"][5].update(force="big"), r"entry #6 .*force must be an integer"),
        (lambda d: d.update(format="other"), r"not a Byzantium card list"),
        (lambda d: d.update(cards=[]), r"non-empty list"),
    ],
)
def test_bad_card_file_names_file_and_entry(tmp_path: Path, mutate: Any, message: str) -> None:
    path = _write(tmp_path, mutate)
    with pytest.raises(CardDataError, match=message) as err:
        porphyra.load_game("byzantium", cards=str(path))
    assert str(path) in str(err.value)


def test_card_file_not_json_or_missing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CardDataError, match="not valid JSON"):
        load_cards(bad)
    with pytest.raises(CardDataError, match="cannot read"):
        load_cards(tmp_path / "missing.json")
    with pytest.raises(CardDataError, match="not a regular file"):
        load_cards("/dev/zero")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(CardDataError, match="not valid JSON"):
        load_cards(deep)


def test_card_names_must_be_printable(tmp_path: Path) -> None:
    path = _write(tmp_path, lambda d: d["cards"][0].update(name="Infantry\x1b[2J"))
    with pytest.raises(CardDataError, match="printable"):
        load_cards(path)


def test_cards_option_loads_another_card_list(tmp_path: Path) -> None:
    def stronger_infantry(d: dict[str, Any]) -> None:
        d["cards"][0]["force"] = 3
        d["name"] = "variant"

    path = _write(tmp_path, stronger_infantry)
    game = porphyra.load_game("byzantium", cards=str(path))
    assert game.card("infantry").force == 3  # type: ignore[attr-defined]
    state = game.new_initial_state(seed=1)
    assert state.game.record_options() == {"cards": str(path)}


def test_bad_options_are_refused() -> None:
    with pytest.raises(UnknownGameError, match="unknown byzantium option"):
        porphyra.load_game("byzantium", players=3)
    for bad in (2, 1.0, True, "0"):
        with pytest.raises(UnknownGameError, match="first_emperor"):
            porphyra.load_game("byzantium", first_emperor=bad)
    with pytest.raises(UnknownGameError, match="cards must be a file path"):
        porphyra.load_game("byzantium", cards="")
    with pytest.raises(UnknownGameError, match="not a card of the foe deck"):
        porphyra.load_game("byzantium", stacked={"foe": ["infantry"]})
    with pytest.raises(UnknownGameError, match="later Age"):
        porphyra.load_game("byzantium", stacked={"byzantine": ["basil-ii"]})
    with pytest.raises(UnknownGameError, match="copies"):
        porphyra.load_game("byzantium", stacked={"byzantine": ["justinian-i"] * 2})


def test_game_metadata() -> None:
    game = porphyra.load_game("byzantium")
    info = game.info
    assert (info.name, info.min_players, info.max_players) == ("byzantium", 2, 2)
    assert info.information == "imperfect" and info.utility == "zero_sum"
    assert game.num_players == 2


def _hands(
    cards: Any, deck: str, rng: Any, sizes: Iterable[int]
) -> Iterator[tuple[list[int], list[int], tuple[tuple[int, str, bool], ...]]]:
    """Random hands of ``deck``'s cards, one of each size of ``sizes`` (drawn lazily, in
    turn with the caller's own draws): ``(hand, distinct kinds, meld-table shape)``."""
    from porphyra.games.byzantium import melds

    pool = [c for c in cards for _ in range(c.copies) if c.deck == deck]
    for size in sizes:
        hand = sorted(c.index for c in rng.sample(pool, size))
        kinds, counts = melds.hand_shape(hand)
        shape = tuple(
            (n, cards[k].type, cards[k].natural) for k, n in zip(kinds, counts, strict=True)
        )
        yield hand, kinds, shape


def test_meld_table_membership_agrees_with_the_table() -> None:
    # meld_fits decides "listed by the meld table" without building the table: both must
    # agree on every sub-multiset of many hands, and on card lists beyond the hand or of
    # the other deck (section 3 phase 4 limits).
    import itertools
    import random

    import porphyra
    from porphyra.games.byzantium import melds
    from porphyra.games.byzantium.ranked import meld_fits, meld_traits

    game = porphyra.load_game("byzantium")
    cardset = game.cardset  # type: ignore[attr-defined]
    cards = cardset.cards
    rng = random.Random(7)
    for deck in ("byzantine", "foe"):
        traits = meld_traits(cardset, deck)
        sizes = (rng.randrange(0, 10) for _ in range(60))
        for hand, kinds, shape in _hands(cards, deck, rng, sizes):
            listed = set(melds.meld_table(shape, deck))
            everything = set(
                itertools.chain.from_iterable(
                    itertools.combinations_with_replacement(range(len(shape)), n)
                    for n in range(min(len(hand), 11) + 1)
                )
            )
            for option in everything:
                chosen = tuple(kinds[p] for p in option)
                assert meld_fits(chosen, hand, traits, deck) == (option in listed), option
            for _ in range(20):  # other cards: beyond the hand, or of the other deck
                extra = tuple(sorted(rng.sample(range(len(cards)), rng.randrange(1, 4))))
                chosen = tuple(sorted(hand[: rng.randrange(0, len(hand) + 1)] + list(extra)))
                fits = all(chosen.count(k) <= hand.count(k) for k in chosen) and (
                    tuple(kinds.index(k) for k in chosen) in listed
                )
                assert meld_fits(chosen, hand, traits, deck) == fits, chosen


def test_ranked_meld_table_pickles_and_copies_as_its_hand() -> None:
    # A compiled MeldTable is rebuilt from its hand shape (it has no __dict__).
    import copy
    import pickle

    from porphyra.games.byzantium.ranked import MeldTable

    shape = ((2, "Troop", False), (1, "Leader", False), (1, "Legacy", False))
    table = MeldTable.from_shape(shape, "byzantine")
    for twin in (pickle.loads(pickle.dumps(table)), copy.deepcopy(table)):
        assert twin.shape == shape and list(twin) == list(table) and len(twin) == len(table)


def test_ranked_meld_table_next_positions_are_the_listed_extensions() -> None:
    # A meld built card by card (the research encoding) asks which positions may come
    # next: next_positions answers in one pass exactly what the enumerated table lists
    # (section 3 phase 4 limits, at most one natural disaster), also after a non-meld.
    import itertools
    import random

    from porphyra.games.byzantium import melds
    from porphyra.games.byzantium.ranked import MeldTable

    game = porphyra.load_game("byzantium")
    cards = game.cardset.cards  # type: ignore[attr-defined]
    rng = random.Random(5)
    checked = 0
    for deck in ("byzantine", "foe"):
        for _, _, shape in _hands(cards, deck, rng, (rng.randrange(0, 12) for _ in range(40))):
            listed = set(melds.meld_table(shape, deck))
            table = MeldTable.from_shape(shape, deck)
            positions = range(len(shape))
            for size in range(5):
                for option in itertools.combinations_with_replacement(positions, size):
                    last = option[-1] if option else 0
                    expected = [p for p in positions if p >= last and (*option, p) in listed]
                    assert table.next_positions(option) == expected, option
                    checked += 1
    assert checked > 5_000


@pytest.mark.parametrize("deck_version", DECKS_SHIPPED)
def test_ranked_meld_table_lists_the_same_melds_in_the_same_order(deck_version: str) -> None:
    # The ranked table computes len and every entry by counting (section 3 phase 4 limits,
    # at most one natural disaster); it must be the enumerated table entry for entry, on
    # hands of every size up to far beyond a real hand, and on negative indices.
    import random

    from porphyra.games.byzantium import melds
    from porphyra.games.byzantium.ranked import MeldTable

    game = porphyra.load_game("byzantium", deck=deck_version)
    cards = game.cardset.cards  # type: ignore[attr-defined]
    rng = random.Random(11)
    checked = 0
    for deck in ("byzantine", "foe"):
        # Each table packs its counts in as few bits as its hand allows (1 bit for no card,
        # 16 for 15 distinct ones): every size checks that no count spills over.
        for _, _, shape in _hands(cards, deck, rng, list(range(0, 16)) * 12):
            full = melds.meld_table(shape, deck)
            ranked = MeldTable.from_shape(shape, deck)
            assert len(ranked) == len(full)
            assert [ranked[i] for i in range(len(full))] == list(full)
            assert ranked[-1] == full[-1] and ranked[1:3] == list(full[1:3])
            assert list(ranked) == list(full)  # iteration lists the enumerated table
            with pytest.raises(IndexError):
                ranked[len(full)]
            checked += len(full)
    assert checked > 50_000


#: The card lists of the shipped decks, as shipped: section 6, "every version stays shipped"
#: and a change of rules data is a new version, never an edit in place.
SHIPPED_CARD_LISTS = {
    "v1": "056aebfea69d171c7e86fd6a1f62a9c809e576fb74a1cad7313c30b15313f206",
    "v2": "47a8c3828a119a0ea2466ea27202b462f784965a3161b5c98127bb6040d67278",
    "v3": "cc8b268bbbb57c8009b5d5c2c6ddf1764769f02a32d1751d0f22151de6991be4",
    "v4": "b08e50b61621ed43ab57d2bdda85f164e2c077f2ebc1a7907f11a5e6dca18156",
    "v5": "1f7dc8de76cce8ae3eef3ac8b7065884e64a38d57291c158762eb6931dcaec27",
    "v6": "05eef67595efc8dd9b859dd8d9d22f014d3f156303aa2a3ef18d9c2b4cf8f18c",
}


@pytest.mark.parametrize("deck", sorted(SHIPPED_CARD_LISTS))
def test_section_6_shipped_decks_are_never_edited_in_place(deck: str) -> None:
    import hashlib

    cards = json.loads(deck_path(deck).read_text())["cards"]
    digest = hashlib.sha256(json.dumps(cards, sort_keys=True).encode()).hexdigest()
    assert digest == SHIPPED_CARD_LISTS[deck], f"deck {deck}'s cards changed: ship a new version"


def test_section_6_every_shipped_deck_has_its_guard() -> None:
    assert set(DECKS_SHIPPED) == set(SHIPPED_CARD_LISTS)


def test_a_game_of_a_relative_card_file_unpickles_in_another_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A tournament's worker processes may start elsewhere: the pickled game names the
    # card file by its absolute path; records keep the path as given.
    import pickle

    def stronger_infantry(d: dict[str, Any]) -> None:
        d["cards"][0]["force"] = 3
        d["name"] = "variant"

    path = _write(tmp_path, stronger_infantry)
    monkeypatch.chdir(tmp_path)
    game = porphyra.load_game("byzantium", cards=path.name)
    data = pickle.dumps(game)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    again = pickle.loads(data)
    assert again.card("infantry").force == 3
    assert again.record_options() == {"cards": str(path)}
    assert game.record_options() == {"cards": path.name}
