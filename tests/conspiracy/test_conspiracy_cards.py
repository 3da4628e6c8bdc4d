"""Card data: the shipped files match section 1; bad files raise CardDataError."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from porphyra.core.errors import CardDataError
from porphyra.games.conspiracy.cards import (
    COLOURS,
    DATA_DIR,
    EFFECT_NONE,
    EFFECT_REVEAL,
    EFFECT_SWAP,
    KEY_GOLD,
    KEY_NONE,
    KEY_SILVER,
    default_cards,
    load_locations,
    load_lords,
)

# Section 1: IP -> (copies per colour, key, pearls, effect)
LORD_TABLE = {
    0: (1, KEY_NONE, 0, EFFECT_SWAP),
    1: (4, KEY_SILVER, 0, EFFECT_NONE),
    2: (2, KEY_GOLD, 0, EFFECT_NONE),
    3: (2, KEY_NONE, 2, EFFECT_NONE),
    4: (2, KEY_NONE, 1, EFFECT_NONE),
    6: (1, KEY_NONE, 0, EFFECT_REVEAL),
}


def test_sixty_lords_twelve_per_colour_as_in_section_1() -> None:
    lords = default_cards().lords
    assert sum(k.copies for k in lords) == 60
    assert COLOURS == ("yellow", "red", "green", "blue", "purple")
    for c, colour in enumerate(COLOURS):
        mine = {k.ip: k for k in lords if k.colour == c}
        assert sorted(mine) == [0, 1, 2, 3, 4, 6]
        for ip, (copies, key, pearls, effect) in LORD_TABLE.items():
            kind = mine[ip]
            assert kind.name == f"{colour}{ip}"
            assert (kind.copies, kind.key, kind.pearls, kind.effect) == (
                copies,
                key,
                pearls,
                effect,
            )


def test_locations_as_in_section_1() -> None:
    locs = {c.slug: c for c in default_cards().locations}
    base = [c for c in locs.values() if not c.bonus]
    assert len(base) == 24 and len(locs) == 29
    ips = {
        "l7": 7,
        "l5-pearl": 5,
        "l4-pearls": 4,
        "l3-pearls": 3,
        "silver-keys": 0,
        "gold-keys": 0,
        "pearl-pairs": 0,
        "domains": 0,
        "draw-one": 3,
        "draw-two": 3,
        "reshuffle-lords": 3,
        "reshuffle-locations": 3,
        "any-keys": 3,
        "deck-search": 3,
        "alliance-1": 0,
        "alliance-2": 0,
        "alliance-3": 0,
        "alliance-4": 0,
        "extremes": 1,
    }
    for colour in COLOURS:
        ips[f"max-{colour}"] = 0
        ips[f"count-{colour}"] = 1
    assert {s: c.ip for s, c in locs.items()} == ips
    assert {s for s, c in locs.items() if c.bonus} == {
        "alliance-1",
        "alliance-2",
        "alliance-3",
        "alliance-4",
        "extremes",
    }
    assert [locs[s].param("amount") for s in ("l5-pearl", "l4-pearls", "l3-pearls")] == [1, 2, 3]
    assert locs["draw-one"].param("count") == 1 and locs["draw-two"].param("count") == 2


def lords_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA_DIR / "lords.json").read_text())
    return data


def locations_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA_DIR / "locations.json").read_text())
    return data


def write(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data))
    return path


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["lords"][0].update(colour="orange"), r"lord #1: unknown colour 'orange'"),
        (lambda d: d["lords"][0].update(ip=-1), r"lord #1: bad IP -1"),
        (lambda d: d["lords"][0].update(ip="3"), r"bad IP '3'"),
        (lambda d: d["lords"][1].update(ip=0), r"lord #2 \(yellow0\): duplicate lord yellow0"),
        (lambda d: d["lords"][0].pop("copies"), r"lord #1: missing field\(s\) \['copies'\]"),
        (lambda d: d["lords"][0].update(colour2="red"), r"unknown field\(s\) \['colour2'\]"),
        (lambda d: d["lords"][1].update(copies=5), r"colour yellow: wrong count: 13 lords"),
        (lambda d: d["lords"][1].update(key="bronze"), r"bad key 'bronze'"),
        (lambda d: d["lords"][1].update(effect="fly"), r"bad effect 'fly'"),
        (lambda d: d.update(extra=1), r"unknown top-level field"),
    ],
)
def test_bad_lord_files_name_the_file_and_entry(tmp_path: Path, change: Any, message: str) -> None:
    data = lords_data()
    change(data)
    with pytest.raises(CardDataError, match=r"lords\.json: .*" + message):
        load_lords(write(tmp_path, "lords.json", data))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["locations"][1].update(slug="l7"), r"location #2 \(l7\): duplicate slug l7"),
        (lambda d: d["locations"][0].update(slug="L 7"), r"location #1: bad slug 'L 7'"),
        (lambda d: d["locations"][0].update(ip=99), r"bad IP 99"),
        (lambda d: d["locations"][0].update(effect="teleport"), r"unknown effect 'teleport'"),
        (lambda d: d["locations"][1].update(params={}), r"effect pearls needs params"),
        (lambda d: d["locations"][0].pop("bonus"), r"missing field\(s\) \['bonus'\]"),
        (
            lambda d: d["locations"][14]["params"].update(colour="pink"),
            r"unknown colour 'pink'",
        ),
        (lambda d: d["locations"].pop(), r"wrong counts: 24 base and 4 bonus"),
        (lambda d: d["locations"][0].update(bonus="no"), r"bad bonus flag"),
        (lambda d: d["locations"][0].update(text=3), r"text must be a string, not 3"),
    ],
)
def test_bad_location_files_name_the_file_and_entry(
    tmp_path: Path, change: Any, message: str
) -> None:
    data = locations_data()
    change(data)
    with pytest.raises(CardDataError, match=r"locations\.json: .*" + message):
        load_locations(write(tmp_path, "locations.json", data))


def test_unreadable_or_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="not valid JSON"):
        load_lords(write(tmp_path, "lords.json", "{"))
    with pytest.raises(CardDataError, match="cannot be read"):
        load_lords(tmp_path / "missing.json")
    with pytest.raises(CardDataError, match="list 'locations'"):
        load_locations(write(tmp_path, "locations.json", {"locations": 3}))


def test_shipped_files_load_and_every_lord_kind_is_distinct() -> None:
    cards = default_cards()
    names = Counter(k.name for k in cards.lords)
    assert len(names) == 30 and max(names.values()) == 1
