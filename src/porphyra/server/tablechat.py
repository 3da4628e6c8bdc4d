"""A table's chat: the lines of seats and spectators, stored with the game.

A base class of :class:`~porphyra.server.match.MatchRunner` (the attributes below are the
runner's): the chat is loaded on first use, each line is stored (fenced, as every write)
before it is sent to every client of the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from porphyra.server import protocol
from porphyra.server.client import Client
from porphyra.server.errors import SubmitError
from porphyra.server.incidents import report
from porphyra.server.ports import GameStore
from porphyra.server.rows import SeatRow, now
from porphyra.server.storage import SPECTATOR_SEAT

#: Chat lines one game keeps (then the table's chat is full).
MAX_CHAT_LINES = 1000
#: Of those, the most spectators may write (the seats can always go on talking).
MAX_SPECTATOR_CHAT_LINES = 300
#: Chat lines sent with a snapshot (the latest ones).
CHAT_HISTORY = 200


class TableChat:
    """The chat of a :class:`~porphyra.server.match.MatchRunner` (a base class of it)."""

    id: str
    seats: list[SeatRow]
    seq: int
    clients: set[Client]
    store: GameStore
    #: The table's chat (loaded from the database on first use).
    chat: list[dict[str, Any]] | None
    _chat_lock: asyncio.Lock

    if TYPE_CHECKING:

        def spectators_may_chat(self) -> bool: ...
        async def _store(self, what: str, fn: Callable[..., Any], *args: Any) -> Any: ...

    def _chat_entry(self, line: dict[str, Any]) -> dict[str, Any]:
        """A stored chat line as sent: index, seat (None: a spectator), name, text, time."""
        seat = line["seat"]
        spectator = seat == SPECTATOR_SEAT or not 0 <= seat < len(self.seats)
        return {
            "n": line["n"],
            "seat": None if spectator else seat,
            "name": "Spectator" if spectator else self.seats[seat].name,
            "text": line["text"],
            "at": line["at"],
        }

    async def _load_chat(self) -> list[dict[str, Any]]:
        if self.chat is None:
            lines = await self.store.db(self.store.storage.chat, self.id)
            if self.chat is None:
                self.chat = lines
        return self.chat

    async def load_chat(self) -> None:
        """Load the table's chat, so that snapshots carry it (a database that does not
        answer now leaves it unloaded: snapshots then carry none)."""
        try:
            await self._load_chat()
        except Exception:
            report("game %s: could not load the chat", self.id)

    def chat_history(self) -> list[dict[str, Any]]:
        """The latest :data:`CHAT_HISTORY` chat lines as sent (none while not loaded)."""
        return [self._chat_entry(line) for line in (self.chat or [])[-CHAT_HISTORY:]]

    async def post_chat(self, seat: int | None, text: str) -> None:
        """Store ``text`` as a chat line of ``seat`` (None: a spectator) and send it to
        every client.  The text is the client's own (checked by the protocol); the page
        shows it as text, never as markup.

        Raises:
            SubmitError: ``auth`` (a spectator at a table whose spectators only read),
                ``limit`` (the table's chat is full), ``unavailable`` (not stored).
        """
        if seat is None and not self.spectators_may_chat():
            raise SubmitError("auth", "spectators can read this table's chat, not write in it")
        async with self._chat_lock:
            lines = await self._store("a chat line", self._load_chat)
            if len(lines) >= MAX_CHAT_LINES:
                raise SubmitError("limit", "this table's chat is full")
            if seat is None and (
                sum(1 for x in lines if x["seat"] == SPECTATOR_SEAT) >= MAX_SPECTATOR_CHAT_LINES
            ):
                raise SubmitError("limit", "the spectators' share of this table's chat is full")
            line = {
                "n": len(lines),
                "seat": SPECTATOR_SEAT if seat is None else seat,
                "text": text,
                "at": now(),
            }
            await self._store(
                "a chat line",
                self.store.db,
                self.store.storage.add_chat,
                self.id,
                line["n"],
                line["seat"],
                text,
                line["at"],
                self.store.fence(),
            )
            lines.append(line)
        msg = protocol.dumps({"type": "chat", "seq": self.seq, "lines": [self._chat_entry(line)]})
        for client in list(self.clients):
            client.send(msg)
