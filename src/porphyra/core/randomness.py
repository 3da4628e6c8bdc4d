"""Seeded shuffles for the engines: CPython's ``random.shuffle``, without its per-card calls.

Records replay only if every shuffle of a seeded game stays the same permutation, so the
engines' shuffles must be exactly ``rng.shuffle``'s.  :func:`shuffle` is the same
Fisher-Yates walk, drawing each index with ``getrandbits`` and rejection as CPython's
``Random.shuffle`` and ``Random._randbelow`` do (tests compare both over many lengths and
seeds), but inlined: random playouts shuffle often, and the method calls per card were a
large part of it.
"""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def shuffle(rng: random.Random, items: list[T]) -> None:
    """Shuffle ``items`` in place: the same permutation as ``rng.shuffle(items)``, leaving
    ``rng`` in the same state."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
