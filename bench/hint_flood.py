"""How long a person's bot waits while one address floods the bot pool with hints
(issue 33 §3): an easy bot's decision for a table where a person waits, asked for just
after ``--hints`` hard-bot hints, on a pool of ``--workers`` processes; before (hints
queued as urgent as that bot move, as until issue 33) and after (hints behind it, never
on the last slot), and the same decision alone.

    python bench/hint_flood.py [--workers 2] [--hints 8]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from porphyra.core.registry import load_game
from porphyra.server.botpool import HINT, URGENT, BotPool


async def bot_wait(workers: int, hints: int, old: bool) -> float:
    """Seconds the easy bot's decision took with ``hints`` hints asked just before it
    (``old``: hints served as urgent, the order before issue 33)."""
    pool = BotPool(workers=workers)
    if old:
        gated = pool._gated

        async def as_urgent(kind: int, *args: Any, **kwargs: Any) -> Any:
            return await gated(URGENT if kind == HINT else kind, *args, **kwargs)

        pool._gated = as_urgent  # type: ignore[method-assign]
    state = load_game("conspiracy").new_initial_state(seed=3)
    seat = state.current_player()
    for _ in range(workers):  # start the worker processes
        await pool.choose(state, seat, "easy", 1)
    flood = [asyncio.ensure_future(pool.hint(state, seat, "hard", i)) for i in range(hints)]
    await asyncio.sleep(0.05)
    start = time.monotonic()
    await pool.choose(state, seat, "easy", 7, urgent=True)
    took = time.monotonic() - start
    await asyncio.gather(*flood)
    pool.shutdown()
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hints", type=int, default=8)
    args = parser.parse_args()
    for label, hints, old in (
        ("alone", 0, False),
        ("before", args.hints, True),
        ("after", args.hints, False),
    ):
        took = asyncio.run(bot_wait(args.workers, hints, old))
        print(f"{label:7} the bot answered in {took:.3f} s")


if __name__ == "__main__":
    main()
