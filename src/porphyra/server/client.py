"""One websocket connection of a game, with its bounded outbox."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from porphyra.core.messages import Message
from porphyra.i18n import DEFAULT as DEFAULT_LANGUAGE
from porphyra.i18n.messages import error_message
from porphyra.server import protocol
from porphyra.server.errors import MOVED_MESSAGE

#: The websocket close code of a connection whose game another server runs now.
MOVED_CLOSE_CODE = 4307

#: Outgoing messages queued for one client before it is dropped as too slow.
MAX_OUTBOX = 2000


@dataclass(eq=False)
class Client:
    """One websocket connection: a seat (index) or a spectator (None), with its outbox.

    ``outbox`` holds JSON texts; ``None`` asks the writer to stop.  ``send`` never blocks:
    a client that falls :data:`MAX_OUTBOX` messages behind is dropped.
    """

    seat: int | None
    #: The language its views' log lines are rendered in (``"en"``, ``"ja"``, ``"ko"``).
    lang: str = DEFAULT_LANGUAGE
    #: It composes a decision's legal texts from its option table (``choices``; it
    #: connected with ``choices=1``), so its views carry the table instead of the texts.
    compact: bool = False
    outbox: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)
    dropped: bool = False
    #: Log lines of its observation this client already has (updates send the rest).
    log_len: int = 0
    #: What its last view showed (observation, log length, legal actions, undo, status,
    #: clocks: ``SeatViews._shown``), so that a change it cannot see (another seat's
    #: hidden choice) sends it nothing.
    shown: Any = None
    #: A hint is being worked out for this client (one at a time).
    hinting: bool = False
    #: The websocket close code once the writer stops (None: 1008 if dropped, else 1000).
    close_code: int | None = None

    def error_text(self, message: str | Message) -> str:
        """An error ``message`` in this client's language: a structured message from its
        id and arguments, an English text looked up whole (or matched, while some
        messages are not structured yet)."""
        return error_message(message, self.lang)

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` (a dict, or JSON text already encoded)."""
        if self.dropped:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
            self.dropped = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(message if isinstance(message, str) else protocol.dumps(message))

    def move_to(self, address: str | None, seq: int) -> None:
        """Another server runs this client's game now: tell it where (error ``moved``,
        with ``server``: the address, or None) and close its connection (code 4307)."""
        if self.dropped:
            return
        message = protocol.moved(seq, self.error_text(MOVED_MESSAGE), address)
        self.outbox.put_nowait(protocol.dumps(message))
        self.close_code = MOVED_CLOSE_CODE
        self.dropped = True
        self.outbox.put_nowait(None)
