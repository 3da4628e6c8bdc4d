"""The option-table composer (:mod:`porphyra.core.choices`) against a brute-force oracle:
every sub-multiset within the limits, sorted by size and then by positions."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from porphyra.core.choices import ChoicesError, compose, legal_texts


def oracle(choices: dict[str, Any]) -> list[str]:
    """Every option by brute force: all copy counts, filtered by the limits."""
    cards, copies = choices["cards"], choices["copies"]
    most = choices["most"] if choices["most"] is not None else sum(copies)
    options = []
    for counts in itertools.product(*(range(n + 1) for n in copies)):
        if sum(counts) > most:
            continue
        if any(sum(counts[p] for p in where) > cap for cap, where in choices["limits"]):
            continue
        options.append(tuple(p for p, n in enumerate(counts) for _ in range(n)))
    options.sort(key=lambda o: (len(o), o))
    verb = choices["verb"]
    return [f"{verb} " + (",".join(cards[p] for p in o) if o else "-") for o in options]


def random_choices(rng: random.Random) -> dict[str, Any]:
    n = rng.randrange(0, 7)
    limits = []
    for _ in range(rng.randrange(0, 4)):
        where = sorted(rng.sample(range(n), rng.randrange(0, n + 1))) if n else []
        limits.append([rng.randrange(0, 3), where])
    return {
        "verb": rng.choice(["meld", "redraw"]),
        "cards": [f"c{i}" for i in range(n)],
        "copies": [rng.randrange(0, 4) for _ in range(n)],
        "limits": limits,
        "most": rng.choice([None, 0, 1, 4]),
    }


def test_compose_matches_brute_force() -> None:
    rng = random.Random(33)
    for _ in range(400):
        choices = random_choices(rng)
        assert compose(choices) == oracle(choices), choices


def test_compose_small_example() -> None:
    choices = {
        "verb": "meld",
        "cards": ["a", "b"],
        "copies": [2, 1],
        "limits": [[1, [1]]],
        "most": 2,
    }
    assert compose(choices) == ["meld -", "meld a", "meld b", "meld a,a", "meld a,b"]


def test_legal_texts_reads_either_form() -> None:
    choices = {"verb": "redraw", "cards": ["x"], "copies": [1], "limits": [], "most": 4}
    assert legal_texts({"choices": choices, "seq": 3}) == ["redraw -", "redraw x"]
    assert legal_texts({"legal": ["take 1"], "seq": 3}) == ["take 1"]
    assert legal_texts({"legal": [], "seq": 3}) == []


@pytest.mark.parametrize(
    "bad",
    [
        {},
        {"verb": "meld", "cards": ["a"], "copies": [], "limits": [], "most": None},
        {"verb": "meld", "cards": ["a"], "copies": [-1], "limits": [], "most": None},
        {"verb": "meld", "cards": ["a"], "copies": [1], "limits": [[1, [3]]], "most": None},
        {"verb": 3, "cards": ["a"], "copies": [1], "limits": [], "most": None},
        {"verb": "meld", "cards": ["a"], "copies": [1], "limits": [1], "most": None},
    ],
)
def test_compose_refuses_a_wrong_description(bad: dict[str, Any]) -> None:
    with pytest.raises(ChoicesError):
        compose(bad)
