"""Chamber geometry: the adjacency table slot by slot, coalitions (section 3.2)."""

from __future__ import annotations

import pytest

from porphyra.games.conspiracy.cards import default_cards
from porphyra.games.conspiracy.chamber import ADJACENT, largest_group, neighbours
from porphyra.games.conspiracy.scoring import score_player

# Copied verbatim from the rules, section 3.2.
SPEC_TABLE = (
    "1: 2,6 · 2: 1,3,6,7 · 3: 2,4,7,8 · 4: 3,5,8,9 · 5: 4,9 · 6: 1,2,7,10 · 7: 2,3,6,8,10,11 · "
    "8: 3,4,7,9,11,12 · 9: 4,5,8,12 · 10: 6,7,11,13 · 11: 7,8,10,12,13,14 · 12: 8,9,11,14 · "
    "13: 10,11,14,15 · 14: 11,12,13,15 · 15: 13,14"
)


def spec_adjacency() -> dict[int, tuple[int, ...]]:
    out = {}
    for part in SPEC_TABLE.split(" · "):
        slot, _, rest = part.partition(": ")
        out[int(slot)] = tuple(int(x) for x in rest.split(","))
    return out


@pytest.mark.parametrize("slot", range(1, 16))
def test_adjacency_matches_the_rules_table(slot: int) -> None:
    assert neighbours(slot) == spec_adjacency()[slot]


def test_adjacency_is_symmetric_and_irreflexive() -> None:
    for i, adj in enumerate(ADJACENT):
        assert i not in adj
        assert all(i in ADJACENT[j] for j in adj)


@pytest.mark.parametrize("slot", [0, 16, -1])
def test_bad_slot_raises(slot: int) -> None:
    with pytest.raises(ValueError, match="bad slot"):
        neighbours(slot)


def chamber_of(names: dict[int, str], filler: list[str]) -> list[int]:
    """A full chamber with ``names`` at 1-based slots and ``filler`` lords elsewhere."""
    index = default_cards().lord_index
    fill = iter(filler)
    return [index[names[s]] if s in names else index[next(fill)] for s in range(1, 16)]


def test_published_coalition_example_blue_1_2_7_10_13_is_one_coalition_of_5() -> None:
    blue = {s: "blue1" for s in (1, 2, 7, 10, 13)}
    filler = ["red4", "green4", "yellow4", "purple4"] * 3
    chamber = chamber_of(blue, filler)
    colour = default_cards().lords
    assert largest_group(chamber, lambda k: colour[k].colour) == 5
    score = score_player(default_cards(), chamber, [], 0, False)
    assert score["coalition"] == 15


def test_same_colour_lords_not_touching_are_separate_coalitions() -> None:
    # blue in 1, 3, 5 (row neighbours with gaps) and 15: four groups of one
    blue = {s: "blue1" for s in (1, 3, 5, 15)}
    chamber = chamber_of(blue, ["red4", "green4", "yellow4", "purple4", "red3"] * 3)
    colour = default_cards().lords
    sizes = largest_group(chamber[:5], lambda k: 3 if colour[k].colour == 3 else -1)
    assert sizes == 1


def test_largest_group_on_an_empty_chamber_is_zero() -> None:
    assert largest_group([], lambda k: k) == 0
