"""The request bodies of the lobby's REST API (pydantic models) and their checks.

Every body refuses an unknown field (a typo never silently falls back to a default) with a
422 that names it (:mod:`porphyra.server.failures`); :func:`check_options` and
:func:`clock_settings` turn a create request into what :meth:`Hub.create` takes.
"""

from __future__ import annotations

import json
import math
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    field_validator,
)

from porphyra.clocks import (
    DEFAULT_TIMEOUT_BOT,
    MAX_BASE_S,
    MAX_INCREMENT_S,
    MAX_PER_MOVE_S,
    MAX_TAKEOVER_AFTER,
    ClockSettings,
)
from porphyra.core import registry
from porphyra.core.errors import UnknownGameError
from porphyra.core.messages import msg
from porphyra.core.options import options_of
from porphyra.core.registry import registered_games
from porphyra.core.seats import hidden_character
from porphyra.server.errors import RefusedRequest
from porphyra.server.names import looks_like_seat
from porphyra.server.rows import TABLE_DEFAULTS

MAX_NAME = 40
#: Longest echo of a refused input in a 422 reply, in characters.
MAX_ECHO = 200
#: Most seats one ``POST /api/mine`` may ask about.
MAX_MINE = 50


def short_value(value: Any) -> Any:
    """``value`` (as decoded from a request body) with every text over :data:`MAX_ECHO`
    characters cut, any container too long as JSON replaced by its cut JSON text, and any
    number JSON cannot carry (NaN, Infinity) as its text."""
    if isinstance(value, str):
        return value if len(value) <= MAX_ECHO else value[:MAX_ECHO] + "… (cut)"
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # NaN, Infinity, 1e999: not JSON, so echoed as text
    if isinstance(value, int | float) and not isinstance(value, bool):
        text = repr(value)  # (a JSON number may have thousands of digits)
        return value if len(text) <= MAX_ECHO else text[:MAX_ECHO] + "… (cut)"
    if isinstance(value, dict | list):
        text = json.dumps(value, default=str, ensure_ascii=False)
        if len(text) > MAX_ECHO:
            return text[:MAX_ECHO] + "… (cut)"
        if isinstance(value, dict):
            return {short_value(str(k)): short_value(v) for k, v in value.items()}
        return [short_value(v) for v in value]
    return value


def finite_json(value: Any) -> bool:
    """False if ``value`` (as decoded from a request body) holds a float that is NaN or
    infinite at any depth (Python's JSON reader takes ``NaN``, ``Infinity`` and ``1e999``,
    which JSON does not have)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(finite_json(v) for v in value.values())
    if isinstance(value, list):
        return all(finite_json(v) for v in value)
    return True


class SeatIn(BaseModel):
    """One seat of a create request (an unknown field is refused: a typo never silently
    falls back to a default)."""

    model_config = ConfigDict(extra="forbid")

    #: ``open``: left open for any signed-in account; ``invite``: kept for the account
    #: whose user name is ``name`` (issue 32 §2, :mod:`porphyra.server.routes.tables`).
    kind: Literal["human", "bot", "open", "invite"]
    bot: str | None = Field(default=None, max_length=40)
    name: str | None = Field(default=None, max_length=MAX_NAME)

    @field_validator("name")
    @classmethod
    def _printable_name(cls, name: str | None) -> str | None:
        """Refuse control, format (bidi overrides, zero-width marks) and unassigned
        characters in a seat name, which every seat and spectator sees.

        Raises:
            ValueError: the name holds one (the message names its code point).
        """
        if name is None:
            return None
        for ch in name:
            if hidden_character(ch):
                raise ValueError(
                    f"a seat name may not contain control or formatting characters "
                    f"(U+{ord(ch):04X}, e.g. a bidi override, NUL or a line break)"
                )
        if not any(_visible(ch) for ch in name):
            raise ValueError("a seat name needs a visible letter, digit or sign")
        if looks_like_seat(name):
            raise ValueError(
                "a seat name may not look like a seat number or the word Spectator "
                "(names such as 'Seat 2' would stand for another seat)"
            )
        return name


#: Letters the Unicode data calls letters but that show nothing (Hangul fillers).
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def _visible(ch: str) -> bool:
    """True if ``ch`` shows on its own: a letter, digit, punctuation or symbol (not a
    space, a combining mark or a blank filler)."""
    return unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_LETTERS


class TableIn(BaseModel):
    """A table's choices (see :data:`porphyra.server.rows.TABLE_DEFAULTS`)."""

    model_config = ConfigDict(extra="forbid")

    #: Every seat may ask for hints (they always may when every other seat is a bot).
    hints: StrictBool = TABLE_DEFAULTS["hints"]
    #: Spectators may write in the chat (they always read it).
    spectator_chat: StrictBool = TABLE_DEFAULTS["spectator_chat"]


class RematchIn(BaseModel):
    """A rematch request: the token of a seat of the finished game."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(min_length=1, max_length=200)


class NoClockIn(BaseModel):
    """No clock (casual)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["none"]


class RealtimeClockIn(BaseModel):
    """Real time: ``base_s`` seconds each, ``increment_s`` more after each action."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["realtime"]
    base_s: StrictInt = Field(ge=1, le=MAX_BASE_S)
    increment_s: StrictInt = Field(default=0, ge=0, le=MAX_INCREMENT_S)


class TurnClockIn(BaseModel):
    """Turn-based: ``per_move_s`` seconds for every decision."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["turn"]
    per_move_s: StrictInt = Field(ge=1, le=MAX_PER_MOVE_S)


#: The ``clock`` of a create request (``kind`` chooses the shape; a wrong field or value
#: is a 422 naming it).
ClockIn = Annotated[NoClockIn | RealtimeClockIn | TurnClockIn, Field(discriminator="kind")]


class CreateIn(BaseModel):
    """A create request (see the module docstring); an unknown field (``"Seed"``) is
    refused with 422 naming it."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn] = Field(min_length=1, max_length=4)
    #: A chosen seed makes a marked, unrated table (see :meth:`Hub.create`); a JSON integer
    #: only (``"42"``, ``true`` and ``42.0`` are refused with 422).
    seed: StrictInt | None = Field(default=None, ge=0, lt=2**256)
    table: TableIn = Field(default_factory=TableIn)
    clock: ClockIn | None = None
    timeout_bot: str | None = Field(default=None, max_length=40)
    takeover_after: StrictInt = Field(default=0, ge=0, le=MAX_TAKEOVER_AFTER)
    #: The creator asks for a rated table (issue 32 §2: stored and shown; refused with a
    #: chosen ``seed``).
    rated: StrictBool = False

    @field_validator("options")
    @classmethod
    def _finite_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Refuse a number JSON cannot carry (NaN, Infinity, 1e999) anywhere in
        ``options``, as pydantic refuses one in a typed field: 422, not a 400 that echoes
        it.

        Raises:
            ValueError: one is there (pydantic's own words for a typed field).
        """
        if not finite_json(options):
            raise ValueError("Input should be a finite number")
        return options


class MySeatIn(BaseModel):
    """One seat this browser holds: the game id and the seat's token."""

    model_config = ConfigDict(extra="forbid")
    game: str = Field(max_length=64)
    token: str = Field(max_length=200)


class MineIn(BaseModel):
    """The seats of ``POST /api/mine``."""

    model_config = ConfigDict(extra="forbid")
    seats: list[MySeatIn] = Field(max_length=MAX_MINE)


def clock_settings(body: CreateIn, bots: set[str]) -> ClockSettings:
    """The table's :class:`ClockSettings` from a create request.

    Raises:
        RefusedRequest(400): ``timeout_bot`` is not a bot (a message id plus arguments,
            translated into the client's language at the edge).
    """
    bot = body.timeout_bot or DEFAULT_TIMEOUT_BOT
    if bot not in bots:
        raise RefusedRequest(
            400,
            msg(
                "unknown timeout bot {0}; bots: {1}",
                repr(short_value(bot)),
                ", ".join(sorted(bots)),
            ),
        )
    clock = body.clock
    common: dict[str, Any] = {"timeout_bot": bot, "takeover_after": body.takeover_after}
    if isinstance(clock, RealtimeClockIn):
        return ClockSettings("realtime", clock.base_s, clock.increment_s, **common)
    if isinstance(clock, TurnClockIn):
        return ClockSettings("turn", per_move_s=clock.per_move_s, **common)
    return ClockSettings("none", **common)


def check_options(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """Keep the options the lobby may set (the game's declared options marked ``lobby``),
    with values the declaration accepts; ``None`` means "the default" and is dropped.
    The game checks how the values fit together when it is created.

    Raises:
        RefusedRequest(400): an unknown game, option or value (file paths and stacked decks
            are never accepted from the web); what was refused is echoed cut to
            :data:`MAX_ECHO` characters.
    """
    try:
        declared = options_of(registry.game_info(name).options, "lobby")
    except UnknownGameError:
        raise RefusedRequest(
            400,
            msg(
                "unknown game {0}; games: {1}",
                repr(short_value(name)),
                ", ".join(registered_games()),
            ),
        ) from None
    allowed = {o.name: o for o in declared}
    out: dict[str, Any] = {}
    for key, value in options.items():
        option = allowed.get(key)
        if option is None:
            raise RefusedRequest(400, msg("option {0} cannot be set here", repr(short_value(key))))
        if value is None:
            continue
        if not option.accepts(value):
            raise RefusedRequest(
                400,
                msg(
                    "option {0}={1} not accepted; {2}",
                    key,
                    repr(short_value(value)),
                    option.values_message(),
                ),
            )
        out[key] = value
    return out


class CredentialsIn(BaseModel):
    """A sign-up or sign-in: ``{"name", "password"}`` (their rules are checked by the
    route, with messages in the asker's language: :mod:`porphyra.server.names`,
    :mod:`porphyra.server.accounts`)."""

    model_config = ConfigDict(extra="forbid")
    name: StrictStr
    password: StrictStr


class PasswordChangeIn(BaseModel):
    """A password change: the current password and the new one."""

    model_config = ConfigDict(extra="forbid")
    password: StrictStr
    new_password: StrictStr


class PasswordIn(BaseModel):
    """The account's password, confirming its deletion."""

    model_config = ConfigDict(extra="forbid")
    password: StrictStr


class ClaimIn(BaseModel):
    """A seat claimed by the signed-in account: the seat's token (from its link)."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200)


class AccountOut(BaseModel):
    """The signed-in account: its id, its user name as shown, when it was made (UTC
    ISO-8601)."""

    id: int
    name: str
    created: str


class ClaimOut(BaseModel):
    """A claimed seat: the game, the seat (0-based) and the account's name."""

    game: str
    seat: int
    account: str
