"""The solo Replay token condition (rules section 4.3, engine ruling S-R4).

A change to your chamber (a placement or a 0-IP swap) earns the token when it creates a
**new** same-colour area of 3 or more lords: a coalition of ≥ 3 none of whose lords was
already in a coalition of ≥ 3 before the change.  So extending an area of 3 does not count,
and joining two areas of 2 does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from porphyra.core.messages import Joined, Message, Term
from porphyra.games.conspiracy.cards import COLOURS
from porphyra.games.conspiracy.chamber import ADJACENT

if TYPE_CHECKING:
    from porphyra.games.conspiracy.state import ConspiracyState

#: The smallest area that earns the token.
AREA = 3


def groups(colours: Sequence[int]) -> list[list[int]]:
    """The connected same-colour groups of a chamber.

    Args:
        colours: colour index per 0-based slot (filled slots only, in order).

    Returns:
        Each group as a sorted list of 0-based slots.
    """
    n = len(colours)
    seen = [False] * n
    out: list[list[int]] = []
    for start in range(n):
        if seen[start]:
            continue
        seen[start] = True
        stack, group = [start], []
        while stack:
            i = stack.pop()
            group.append(i)
            for j in ADJACENT[i]:
                if j < n and not seen[j] and colours[j] == colours[start]:
                    seen[j] = True
                    stack.append(j)
        out.append(sorted(group))
    return out


def group_size(colours: Sequence[int], start: int) -> int:
    """The number of lords in the same-colour group of 0-based slot ``start``."""
    n = len(colours)
    want = colours[start]
    seen = {start}
    stack = [start]
    while stack:
        i = stack.pop()
        for j in ADJACENT[i]:
            if j < n and j not in seen and colours[j] == want:
                seen.add(j)
                stack.append(j)
    return len(seen)


def new_area(
    before: Sequence[int],
    after: Sequence[int],
    origin: Sequence[int],
    changed: Sequence[int] | None = None,
) -> list[int] | None:
    """The new area of ≥ 3 a chamber change created, if any (section 4.3).

    Args:
        before: colour per slot before the change.
        after: colour per slot after the change.
        origin: for each slot of ``after``, the slot its lord occupied in ``before``, or -1
            for a lord just placed.
        changed: optional, the slots whose lord changed (placed or swapped): only a group
            holding one of them can be new (any other group was already connected), so
            when all of theirs are smaller than 3 nothing more is computed.

    Returns:
        The slots (0-based, sorted) of the first new area of ≥ 3 lords none of which was in
        an area of ≥ 3 before, or None.
    """
    if changed is not None and all(group_size(after, i) < AREA for i in changed):
        return None
    big = {i for g in groups(before) if len(g) >= AREA for i in g}
    for group in groups(after):
        if len(group) >= AREA and not any(origin[i] in big for i in group if origin[i] >= 0):
            return group
    return None


def check(
    state: ConspiracyState, origin: Sequence[int], before: Sequence[int], changed: Sequence[int]
) -> None:
    """After a change to your (seat 0's) chamber: take the Replay token if the change made
    a new area of 3+ and you do not hold it already; log either way (section 4.3, S-R4).

    Args:
        state: the solo state, after the change.
        origin: for each slot now, the slot its lord occupied before (-1: just placed).
        before: your chamber's lord kinds before the change.
        changed: the slots whose lord changed.
    """
    colour = state.t.colour
    after = [colour[k] for k in state.chambers[0]]
    area = new_area([colour[k] for k in before], after, origin, changed)
    if area is None:
        return
    slots = Joined(", ", tuple(i + 1 for i in area))
    what = Message(
        "a new {0} area of {1} (slots {2})", (Term(COLOURS[after[area[0]]]), len(area), slots)
    )
    if state.replay_token:
        state._events.append(
            ("{} makes {}, but already holds the Replay token", (state.who[0], what))
        )
    else:
        state.replay_token = True
        state._events.append(("{} makes {}: takes the Replay token (4.3)", (state.who[0], what)))
