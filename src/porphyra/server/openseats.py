"""Open seats of a running table (issue 32 §2): a table made with seats left open, or
reserved for an invited account, waits until every one of them is taken.

A base class of :class:`~porphyra.server.match.MatchRunner` (the attributes below are
the runner's).  While a seat is open (:attr:`SeatRow.open_to` set) the game does not
start: no seat may act (:meth:`MatchRunner.submit` refuses, every view's legal actions
are empty), no bot moves (:meth:`TableBots.kick_bots`) and no clock runs
(:meth:`ClockedRunner._waiting`).  An open seat has no token, so nobody can connect to
it or play it; spectators and the other seats see its public seat entry only (``open``,
and the invited account's name for an invitation, which the creator chose to show).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from porphyra.server.rows import OPEN_TO_NOBODY, SeatRow

if TYPE_CHECKING:
    from porphyra.clocks import TableClock
    from porphyra.core.game import State
    from porphyra.server.ports import TableTime


class OpenSeats:
    """Open seats of a :class:`~porphyra.server.match.MatchRunner` (a base class of it)."""

    seats: list[SeatRow]
    seq: int
    lock: asyncio.Lock
    state: State
    clock: TableClock
    time: TableTime

    if TYPE_CHECKING:

        def _waiting(self, state: State, clock: TableClock) -> set[int]: ...
        async def _store_clock(self, clock: TableClock, seq: int) -> None: ...
        def presence(self) -> None: ...
        def kick_bots(self) -> None: ...

    def seats_open(self) -> bool:
        """True while a seat waits for its player (the game has not started)."""
        return any(s.open_to is not None for s in self.seats)

    async def seat_taken(self, seat: int, token_hash: str, name: str) -> None:
        """Record in memory that ``seat`` (open, and now taken in the database by
        :meth:`porphyra.server.opentables.OpenTables.take`) has its player: the hash of
        its new token and the account's name.  Once no seat is open the game starts: the
        clocks of the seats it waits for run from now (stored, with a new message number,
        so that every page gets its legal actions) and the bots move.

        Raises:
            SubmitError: ``unavailable``, the clocks could not be stored (the seat is
                taken all the same; the clocks start at the next change).
        """
        async with self.lock:
            row = self.seats[seat]
            row.token_hash, row.name, row.open_to = token_hash, name, None
            if self.seats_open():
                self.presence()
                return
            clock = self.clock.copy()
            clock.update(self._waiting(self.state, clock), None, self.time.now())
            await self._store_clock(clock, self.seq + 1)
        self.kick_bots()

    async def seats_closed(self, seats: list[int]) -> None:
        """Record in memory that ``seats`` (open, and now closed in the database by
        :meth:`porphyra.server.opentables.OpenTables.cancel`) stay empty: the table was
        cancelled and never starts.  Every page is told (their seat entries say
        ``"closed"``)."""
        async with self.lock:
            for seat in seats:
                self.seats[seat].open_to = OPEN_TO_NOBODY
            self.presence()
