"""A decision's choices described compactly, and the legal texts composed from them.

A decision with hundreds of options (a Byzantium meld or redraw lists up to 512) is
sent to a client as its *option table* (:meth:`porphyra.core.game.State.legal_choices`)
rather than as every text: the distinct cards it is made of and the limits an option must
keep.  The client composes the texts itself (:func:`compose` here, for agents written in
Python; ``choices.js`` for the browser page, the same algorithm).  The engine's notation
stays the one truth: the composed list is exactly ``state.legal_action_texts(seat)``, in
its order (the conformance suite and the tests check this on many random states), and a
submitted text is still checked by the engine.

The description (a JSON-ready dict; tuples are sent as arrays)::

    {"verb": "meld",                 # the action's verb
     "cards": ["archers", "tax"],    # the distinct cards, in card-list order (positions)
     "copies": [2, 1],               # copies of each held
     "limits": [[1, [1]], ...],      # [most, positions]: at most `most` cards of these
     "most": 4}                      # at most this many cards in all (None: no limit)

Its options are every sub-multiset of the cards (an option takes 0 to ``copies[p]``
copies of position ``p``) within every limit, ordered by size (fewer cards first), then
by their positions in sorted order, compared as tuples.  An option's text is ``"<verb>
<card>,<card>"`` (positions in order, copies repeated), or ``"<verb> -"`` for no card.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class ChoicesError(ValueError):
    """An option description that is not of the shape above (a client's helper refuses
    it rather than composing a wrong list)."""


def _check(choices: Mapping[str, Any]) -> tuple[str, list[str], list[int], list[Any], int]:
    """The fields of ``choices``, checked: verb, cards, copies, limits, most."""
    try:
        verb = choices["verb"]
        cards = list(choices["cards"])
        copies = [int(n) for n in choices["copies"]]
        limits = [(int(most), [int(p) for p in where]) for most, where in choices["limits"]]
        most = choices.get("most")
    except (KeyError, TypeError, ValueError) as exc:
        raise ChoicesError(f"not an option description: {exc!r}") from None
    if not isinstance(verb, str) or not all(isinstance(c, str) for c in cards):
        raise ChoicesError("an option description's verb and cards are strings")
    if len(copies) != len(cards) or any(n < 0 for n in copies):
        raise ChoicesError("an option description has one copy count per card")
    if any(p < 0 or p >= len(cards) for _, where in limits for p in where):
        raise ChoicesError("an option description's limit names a card it lacks")
    total = sum(copies) if most is None else int(most)
    return verb, cards, copies, limits, total


def compose(choices: Mapping[str, Any]) -> list[str]:
    """The legal action texts of a decision described by ``choices`` (see the module's
    docstring), in the engine's order.

    Args:
        choices: the ``choices`` of a view (``State.legal_choices``), as sent or decoded
            from JSON.

    Returns:
        The texts, exactly as ``state.legal_action_texts(seat)`` lists them.

    Raises:
        ChoicesError: ``choices`` is not an option description.
    """
    verb, cards, copies, limits, total = _check(choices)
    member: list[list[int]] = [[] for _ in cards]  # the limits each position counts in
    for i, (_, where) in enumerate(limits):
        for p in where:
            member[p].append(i)
    room = [most for most, _ in limits]
    by_size: list[list[tuple[int, ...]]] = [[] for _ in range(total + 1)]

    def extend(option: tuple[int, ...], first: int, run: int) -> None:
        # Depth-first, each option extended only at or after its last position: visits
        # the options in tuple order; collected by size, they come out in the engine's.
        by_size[len(option)].append(option)
        if len(option) >= total:
            return
        for pos in range(first, len(cards)):
            if pos == first and run >= copies[pos]:
                continue  # every copy of this card is in already
            if copies[pos] == 0 or any(room[i] <= 0 for i in member[pos]):
                continue
            for i in member[pos]:
                room[i] -= 1
            extend((*option, pos), pos, run + 1 if pos == first else 1)
            for i in member[pos]:
                room[i] += 1

    extend((), 0, 0)
    prefix = verb + " "
    return [
        prefix + (",".join([cards[p] for p in option]) if option else "-")
        for size in by_size
        for option in size
    ]


def legal_texts(view: Mapping[str, Any]) -> list[str]:
    """A view's legal action texts: its ``legal`` list, or the texts composed from its
    ``choices`` where the server sent those instead (``[]`` when it has neither).

    Raises:
        ChoicesError: the view's ``choices`` is not an option description.
    """
    choices = view.get("choices")
    if choices:
        return compose(choices)
    legal: Sequence[str] = view.get("legal") or []
    return list(legal)
