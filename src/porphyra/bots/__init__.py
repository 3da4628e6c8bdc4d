"""Bots: seat fillers that see only a seat's observation (see :mod:`porphyra.bots.base`).

``make_bot(spec, seed)`` builds a bot from its name: ``random`` (alias ``bot``); more
difficulties are added as they are built.
"""

from __future__ import annotations

from collections.abc import Callable

from porphyra.bots.base import Bot, SeatView, seat_view
from porphyra.bots.random_bot import RandomBot

_FACTORIES: dict[str, Callable[[int], Bot]] = {
    "random": RandomBot,
    "bot": RandomBot,
}


def bot_names() -> list[str]:
    """Names accepted by :func:`make_bot`."""
    return sorted(_FACTORIES)


def make_bot(spec: str, seed: int = 0) -> Bot:
    """Build the bot named ``spec`` seeded with ``seed``.

    Raises:
        ValueError: ``spec`` is not a known bot name.
    """
    try:
        factory = _FACTORIES[spec]
    except KeyError:
        raise ValueError(f"unknown bot {spec!r}; known bots: {', '.join(bot_names())}") from None
    return factory(seed)


__all__ = ["Bot", "RandomBot", "SeatView", "bot_names", "make_bot", "seat_view"]
