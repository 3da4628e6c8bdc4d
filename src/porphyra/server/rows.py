"""A stored game's rows as Python values (:class:`GameRow`, :class:`SeatRow`), the values
its columns may hold, and the checks of a row read back (SQLite stores any value in any
column, so a damaged or edited file is reported as that game's problem, never as a crash).
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

#: ``deal`` values: the seed was drawn by the server (``secrets``, 128 bits), given by the
#: creator (every seat and spectator is told; never rated), or unknown (a game stored before
#: deals were recorded, with a 31-bit server seed: treated as unrated too).
DEAL_SECRET = "secret"
DEAL_CHOSEN = "chosen"
DEAL_LEGACY = "legacy"

#: A table's choices (``games.table_options``) and their defaults.
TABLE_DEFAULTS: dict[str, bool] = {"hints": False, "spectator_chat": False}


class BadRowError(ValueError):
    """A stored game whose row is damaged (the message names the game and the column)."""


def is_secret_deal(deal: str) -> bool:
    """True if the server drew this game's seed (``deal``): only such a game may be rated
    (a rated table, :mod:`porphyra.server.ratings`, also needs every seat an account or a
    bot)."""
    return deal == DEAL_SECRET


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored for a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def now() -> str:
    """The current UTC time as ISO-8601 text (seconds); the text is made once per second
    (every stored move asks for it)."""
    return _iso_second(int(time.time()))


@functools.lru_cache(maxsize=2)
def _iso_second(second: int) -> str:
    return dt.datetime.fromtimestamp(second, dt.UTC).isoformat(timespec="seconds")


@dataclass
class SeatRow:
    """One seat of a stored game.

    Attributes:
        seat: seat index (0-based).
        kind: ``"human"`` or ``"bot"``.
        bot: the bot spec (``make_bot``) for a bot seat, else None.
        name: display name.
        token_hash: SHA-256 of the seat token (human seats), else None.
        open_to: an open seat (issue 32 §2), nobody's yet: :data:`OPEN_TO_ANYONE` (any
            signed-in account may take it) or the id of the one account invited to it;
            None for a seat with its player (or bot).  An open seat is a human seat
            without a token: nobody can play it, and the game waits until it is taken.
    """

    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None = None
    open_to: int | None = None


#: :attr:`SeatRow.open_to` of a seat any signed-in account may take (account ids start at
#: 1, so 0 is no account's).
OPEN_TO_ANYONE = 0
#: :attr:`SeatRow.open_to` of a seat that stays empty for good: its table was cancelled by
#: its creator, or expired with nobody joining (issue 32 §7).  Nobody may take it, and the
#: game never starts.
OPEN_TO_NOBODY = -1


def open_kind(open_to: int | None) -> str | None:
    """How a seat shows its openness: ``"open"`` (anyone signed in may take it),
    ``"invite"`` (only the invited account), ``"closed"`` (the table was cancelled or
    expired: it stays empty) or None (it has its player)."""
    if open_to is None:
        return None
    if open_to == OPEN_TO_NOBODY:
        return "closed"
    return "open" if open_to == OPEN_TO_ANYONE else "invite"


@dataclass
class GameRow:
    """A stored game: its record fields, seats and bookkeeping.

    Attributes:
        id: the game id (URL-safe).
        game / version / options / seed: the record header (see :mod:`porphyra.record`).
        actions: ``[{"player": int, "action": str}]`` in order.
        seats: the seats, by index.
        status: ``"active"`` or ``"over"``.
        result: the record's result once over.
        seq: number of the last message-worthy change.
        created / updated: ISO-8601 UTC.
        deal: :data:`DEAL_SECRET`, :data:`DEAL_CHOSEN` or :data:`DEAL_LEGACY`.
        table: the table's choices (:data:`TABLE_DEFAULTS`).
        rematch: the id of this game's rematch, once started.
        clock: the clocks as JSON text (``porphyra.clocks.TableClock.dumps``), or
            None (a game stored before clocks: none).
        creator: the account that created the table when it was made with open or
            invited seats (issue 32 §2), else None.
        rated: a rated table (``"rated": true``, accepted: a secret deal, every seat an
            account or an anchored bot; the column ``games.rated_wish``).  Whether the
            game counts is checked again when it ends (:mod:`porphyra.server.ratings`).
    """

    id: str
    game: str
    version: str
    options: dict[str, Any]
    seed: int
    status: str
    seq: int
    created: str
    updated: str
    result: dict[str, Any] | None = None
    actions: list[dict[str, Any]] = field(default_factory=list)
    seats: list[SeatRow] = field(default_factory=list)
    deal: str = DEAL_SECRET
    table: dict[str, bool] = field(default_factory=lambda: dict(TABLE_DEFAULTS))
    rematch: str | None = None
    clock: str | None = None
    creator: int | None = None
    rated: bool = False

    def record(self) -> dict[str, Any]:
        """The game as a porphyra record (``porphyra.record`` format)."""
        return {
            "format": "porphyra-record",
            "format_version": 1,
            "game": self.game,
            "version": self.version,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [dict(a) for a in self.actions],
            "result": self.result,
        }


#: Values a stored game's ``status`` may have, and a seat's ``kind``.
STATUSES = ("active", "over")
SEAT_KINDS = ("human", "bot")


def is_int(value: Any, least: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= least


def check_row(g: Any, seats: Sequence[Any], acts: Sequence[Any]) -> None:
    """Check every field of a game row, its seat rows and its action rows (SQLite stores
    any value in any column, so a damaged or edited file can hold ``seq = 'x'``).

    Raises:
        BadRowError: the first bad field, named by column (never its value: an action's
            text may name a seat's hidden cards).
    """
    gid = g.id

    def bad(what: str) -> BadRowError:
        return BadRowError(f"game {gid}: {what}")

    for column in ("game", "version", "created", "updated"):
        value = getattr(g, column)
        if not isinstance(value, str) or not value:
            raise bad(f"its {column} is not a text")
    if not is_int(g.seq):
        raise bad("its seq is not a non-negative integer")
    if g.status not in STATUSES:
        raise bad(f"its status is not one of {', '.join(STATUSES)}")
    if g.deal is not None and g.deal not in (DEAL_SECRET, DEAL_CHOSEN):
        raise bad("its deal is not secret or chosen")
    if not is_int(g.seed, -1):
        raise bad("its legacy seed column is not an integer")
    if g.seed_text is not None and not isinstance(g.seed_text, str):
        raise bad("its seed_text is not a text")
    if g.rematch is not None and not isinstance(g.rematch, str):
        raise bad("its rematch is not a text")
    if g.clock is not None and not isinstance(g.clock, str):
        raise bad("its clock is not a text")
    creator = getattr(g, "creator_id", None)
    if creator is not None and not is_int(creator):
        raise bad("its creator_id is not an account id")
    for s in seats:
        if not is_int(s.seat):
            raise bad("a seat row's seat index is not a non-negative integer")
        where = f"seat {s.seat}"
        if s.kind not in SEAT_KINDS:
            raise bad(f"{where}: its kind is not human or bot")
        if s.kind == "bot" and (not isinstance(s.bot, str) or not s.bot):
            raise bad(f"{where}: a bot seat without a bot spec")
        if s.bot is not None and not isinstance(s.bot, str):
            raise bad(f"{where}: its bot spec is not a text")
        if not isinstance(s.name, str):
            raise bad(f"{where}: its name is not a text")
        if s.token_hash is not None and not isinstance(s.token_hash, str):
            raise bad(f"{where}: its token hash is not a text")
        open_to = getattr(s, "open_to", None)
        if open_to is not None and (not is_int(open_to, OPEN_TO_NOBODY) or s.kind != "human"):
            raise bad(f"{where}: its open_to is not an account id of a human seat")
    for i, (player, action) in enumerate(acts):
        if not is_int(player, -4) or not isinstance(action, str):
            raise bad(f"action #{i} has a bad player or action column")


def json_field(text: str | None, column: str, game_id: str) -> dict[str, Any] | None:
    """The JSON object stored as ``text`` (None stays None).

    Raises:
        BadRowError: not valid JSON, or not an object.
    """
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        raise BadRowError(f"game {game_id}: its {column} is not valid JSON") from None
    if value is None:
        return None
    if not isinstance(value, dict):
        raise BadRowError(f"game {game_id}: its {column} is not a JSON object")
    return value


def table_of(text: Any, game_id: str) -> dict[str, bool]:
    """The table's choices stored as ``text`` (NULL: a row of an older release, the
    defaults).

    Raises:
        BadRowError: not a JSON object of known names with true/false values.
    """
    out = dict(TABLE_DEFAULTS)
    if text is None:
        return out
    if not isinstance(text, str):
        raise BadRowError(f"game {game_id}: its table_options is not a text")
    value = json_field(text, "table_options", game_id) or {}
    for key, flag in value.items():
        if key not in TABLE_DEFAULTS or not isinstance(flag, bool):
            raise BadRowError(f"game {game_id}: its table_options holds an unknown choice")
        out[key] = flag
    return out


def seed_of(seed_text: str | None, legacy: int, game_id: str) -> int:
    if seed_text is None:
        return legacy
    try:
        return int(seed_text)
    except ValueError:
        raise BadRowError(f"game {game_id}: its seed is not a number") from None
