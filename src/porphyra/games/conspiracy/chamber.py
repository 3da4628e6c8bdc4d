"""Chamber geometry (rules section 3.2): the 15-slot inverted pyramid and its adjacency.

Slots are numbered 1-15 in the rules and the notation; internally a chamber is a list of
lord kinds whose index ``i`` is slot ``i + 1`` (lords fill slots strictly in order, so the
list never has holes)::

     1  2  3  4  5
      6  7  8  9
       10 11 12
        13 14
         15
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

SLOTS: Final = 15
ROW_LENGTHS = (5, 4, 3, 2, 1)


def _positions() -> list[tuple[int, int]]:
    return [(r, c) for r, length in enumerate(ROW_LENGTHS) for c in range(length)]


def _adjacency() -> tuple[tuple[int, ...], ...]:
    """Neighbours by brick offset: left/right in the row, (r-1, c), (r-1, c+1) above and
    (r+1, c-1), (r+1, c) below."""
    pos = _positions()
    index = {p: i for i, p in enumerate(pos)}
    out = []
    for r, c in pos:
        cand = [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c)]
        out.append(tuple(sorted(index[p] for p in cand if p in index)))
    return tuple(out)


#: ``ADJACENT[i]``: 0-based indices of the slots touching 0-based slot ``i`` (section 3.2).
ADJACENT: tuple[tuple[int, ...], ...] = _adjacency()


def neighbours(slot: int) -> tuple[int, ...]:
    """The 1-based slots touching 1-based ``slot`` (the table of section 3.2).

    Raises:
        ValueError: ``slot`` is not 1..15.
    """
    if not 1 <= slot <= SLOTS:
        raise ValueError(f"bad slot {slot} (1..{SLOTS})")
    return tuple(j + 1 for j in ADJACENT[slot - 1])


def largest_group(chamber: Sequence[int], key: Callable[[int], int]) -> int:
    """Size of the largest connected group of lords with equal ``key(kind)``.

    Args:
        chamber: lord kinds by 0-based slot.
        key: groups lords (colour for a coalition, IP for an alliance); lords whose key is
            negative belong to no group.

    Returns:
        The number of lords in the largest group (0 for an empty chamber).
    """
    keys = [key(k) for k in chamber]
    n = len(keys)
    seen = [False] * n
    best = 0
    for start in range(n):
        if seen[start] or keys[start] < 0:
            continue
        want = keys[start]
        seen[start] = True
        stack = [start]
        size = 0
        while stack:
            i = stack.pop()
            size += 1
            for j in ADJACENT[i]:
                if j < n and not seen[j] and keys[j] == want:
                    seen[j] = True
                    stack.append(j)
        best = max(best, size)
    return best
