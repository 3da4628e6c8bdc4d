"""The websocket protocol: client messages (parsed defensively) and server message shapes.

Client → server (JSON text, at most :data:`MAX_MESSAGE_BYTES` bytes of UTF-8; a larger
message gets an ``error`` and the connection stays open, but a frame over uvicorn's
``ws_max_size`` (64 KiB, :data:`porphyra.server.main.WS_MAX_SIZE`) is refused by the
websocket library itself, which closes with 1009 "message too big" before the server sees
it, so no ``error`` message can precede that close):

``{"type": "act", "action": "<notation>", "seq": N}``
    submit an action; ``seq`` is the number of the last state the client saw.
``{"type": "undo", "seq": N}``
    take back this seat's last decision (only against bots, see
    :func:`porphyra.core.undo.undo_target`).
``{"type": "snapshot"}``
    ask for a full snapshot again.
``{"type": "legal"}``
    ask for this seat's legal action texts now (answered with ``legal``): for a client
    that connected with ``choices=1`` and wants the texts of an option table anyway.
``{"type": "leave"}``
    this seat's player leaves: a bot plays the seat until they return (issue 15).
``{"type": "return"}``
    this seat's player is back: the bot stops playing the seat.
``{"type": "ping"}``
    answered with ``pong``.
``{"type": "chat", "text": "..."}``
    say something at the table (one line of at most :data:`MAX_CHAT_CHARS` characters,
    no control or formatting characters; limited in rate per seat or spectator).
    Spectators may write only where the table allows it (``table.spectator_chat``).
``{"type": "hint", "seq": N}``
    ask the hint bot for this seat's move (only where ``hints`` is true in the view: the
    table allows hints, or every other seat is a bot).

Server → client (every message carries ``seq``, the number of the latest state change):

``snapshot``  full view: ``observation`` (the engine's ``observation(seat)``, or
              ``public_observation()`` for a spectator, with ``log_messages``: its
              English ``log`` lines as messages, an id plus arguments each, one per line,
              for the page to render in its language; see
              :func:`porphyra.core.messages.to_wire`), ``legal`` (this seat's legal
              actions as notation strings: every seat the game waits for has its own,
              e.g. both seats in a simultaneous decision; to a client that connected with
              ``choices=1``, a decision with an option table, such as a Byzantium meld
              or redraw, comes as ``choices`` instead, without ``legal``: the hand's
              distinct cards and the limits an option keeps, from which the client
              composes the same texts in the same order, see
              :mod:`porphyra.core.choices`), ``seats``, ``status``,
              ``can_undo``, ``derived`` (figures computed from the observation alone),
              ``clock`` (the table's clock settings and each seat's ``remaining_s``,
              ``running``, ``timeouts`` and ``takeover``, as of the message).
``update``    the same fields after each change, plus ``last`` (the action text, only to
              the seat that made it).  To keep updates small, the observation's ``log``
              (and ``log_messages``) holds only the lines the client lacks: the full log
              is the client's first ``log_start`` lines followed by these (snapshots have
              ``log_start`` 0).
              Views also carry ``hints`` (this seat may ask for hints) and, once the
              game is over, ``summary`` (its course from the public view, e.g.
              Byzantium's turn-by-turn Territory, Legacy and melds); snapshots carry
              ``table`` (the table's choices), ``rematch`` (the rematch's game id) and
              ``chat`` (the latest chat lines, as in ``chat`` messages).
``legal``     ``legal``: the asking seat's legal action texts now (``[]`` when it has no
              decision), the answer to ``{"type": "legal"}``.
``presence``  seats' connection flags changed.
``chat``      ``lines``: new chat lines ``{"n", "seat" (None: a spectator), "name",
              "text", "at"}``, to everyone at the table.
``hint``      ``action``, ``chance`` (estimated chance to win, or None), ``bot``, and the
              ``seq`` it was asked at: only to the seat that asked.
``rematch``   ``game_id``: the rematch of this (finished) game has started; a seat's own
              link (token) opens the same seat there.
``error``     ``message`` says what was wrong; nothing changed.
``pong``      answer to ``ping``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import orjson

from porphyra.core.errors import PorphyraError
from porphyra.core.messages import msg
from porphyra.core.seats import hidden_character

#: Largest accepted client message, in bytes of text.
MAX_MESSAGE_BYTES = 16 * 1024
#: Largest accepted ``seq`` (JSON-safe integers; a game never gets near it).
MAX_SEQ = 2**53 - 1
#: Longest accepted action text, in characters.
MAX_ACTION_CHARS = 1000
#: Longest chat line, in characters.
MAX_CHAT_CHARS = 300


#: The fields of each client message type (any other field is refused).
FIELDS: dict[str, frozenset[str]] = {
    "ping": frozenset({"type"}),
    "snapshot": frozenset({"type"}),
    "legal": frozenset({"type"}),
    "leave": frozenset({"type"}),
    "return": frozenset({"type"}),
    "undo": frozenset({"type", "seq"}),
    "act": frozenset({"type", "action", "seq"}),
    "chat": frozenset({"type", "text"}),
    "hint": frozenset({"type", "seq"}),
}


class ProtocolError(PorphyraError, ValueError):
    """A client message that is not valid JSON or not a known message shape; its
    :attr:`message` is an id plus arguments (the client's own text kept as it is),
    translated per client."""


@dataclass(frozen=True)
class ClientMessage:
    """A parsed client message.

    Attributes:
        type: ``"act"``, ``"undo"``, ``"snapshot"``, ``"legal"``, ``"ping"``, ``"leave"``,
            ``"return"``, ``"chat"`` or ``"hint"``.
        action: the action text (``act``), or the chat line (``chat``).
        seq: the last seq the client saw (``act``, ``undo``, ``hint``), else None.
    """

    type: str
    action: str | None = None
    seq: int | None = None


def parse_client_message(text: str | bytes) -> ClientMessage:
    """Parse and validate one client message.

    Args:
        text: the raw websocket message.

    Returns:
        The :class:`ClientMessage`.

    Raises:
        ProtocolError: too large, not UTF-8, not JSON, not an object, unknown type, an
            unknown field, or a field missing or of the wrong type (the message says
            which).
    """
    size = len(text)
    if isinstance(text, str) and size > MAX_MESSAGE_BYTES // 4:  # up to 4 bytes a character
        size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            msg("message too large ({0} bytes; limit {1})", size, MAX_MESSAGE_BYTES)
        )
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("message is not UTF-8 text") from None
    try:
        # orjson: about 5x faster than json on these small messages, and stricter (no NaN,
        # no lone surrogates, at most 1,024 levels; an integer beyond 64 bits is read as a
        # float, which no field accepts).  JSONDecodeError is a ValueError.
        data = orjson.loads(text)
    except ValueError:
        raise ProtocolError("message is not valid JSON (or a number is too long)") from None
    if not isinstance(data, dict):
        raise ProtocolError("message must be a JSON object")
    kind = data.get("type")
    fields = FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        raise ProtocolError(
            msg(
                "unknown message type {0}; expected act, undo, snapshot, legal, ping, leave, "
                "return, chat, hint",
                repr(kind),
            )
        )
    unknown = sorted(str(k) for k in data if k not in fields)
    if unknown:
        shown = ", ".join(repr(k[:40]) for k in unknown[:5])
        raise ProtocolError(
            msg(
                "unknown field(s) {0} in '{1}'; it has only {2}",
                shown,
                str(kind),
                ", ".join(sorted(fields)),
            )
        )
    if kind in ("ping", "snapshot", "legal", "leave", "return"):
        return ClientMessage(kind)
    if kind == "chat":
        return ClientMessage("chat", action=chat_text(data.get("text")))
    seq = data.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or abs(seq) > MAX_SEQ:
        raise ProtocolError(
            msg(
                "'{0}' needs an integer 'seq' of at most {1} (the last seq you saw)",
                str(kind),
                MAX_SEQ,
            )
        )
    if kind in ("undo", "hint"):
        return ClientMessage(kind, seq=seq)
    action = data.get("action")
    if not isinstance(action, str) or not action.strip():
        raise ProtocolError("'act' needs an 'action' string in the game's notation")
    if len(action) > MAX_ACTION_CHARS:
        raise ProtocolError(msg("action text too long ({0} characters)", len(action)))
    return ClientMessage("act", action=action.strip(), seq=seq)


def chat_text(text: Any) -> str:
    """A chat line as sent by a client, checked: a string of 1 to :data:`MAX_CHAT_CHARS`
    characters once trimmed, without control or formatting characters (a zero-width
    joiner, which joins emoji, is allowed).  The text is never markup: the page shows it
    as text.

    Raises:
        ProtocolError: not a string, empty, too long, or holding a refused character.
    """
    if not isinstance(text, str):
        raise ProtocolError("'chat' needs a 'text' string")
    line: str = text.strip()
    if not line:
        raise ProtocolError("a chat line cannot be empty")
    if len(line) > MAX_CHAT_CHARS:
        raise ProtocolError(
            msg("chat line too long ({0} characters; limit {1})", len(line), MAX_CHAT_CHARS)
        )
    for ch in line:
        if hidden_character(ch):  # as in seat names
            raise ProtocolError(
                msg(
                    "a chat line may not contain control or formatting characters ({0})",
                    f"U+{ord(ch):04X}",
                )
            )
    return line


def dumps(message: dict[str, Any]) -> str:
    """Compact JSON text of a server message (the same text as ``json.dumps(message,
    separators=(",", ":"), ensure_ascii=False)``, encoded by orjson, about 8x faster on a
    view; a value orjson refuses, such as an integer beyond 64 bits, falls back to
    :mod:`json`)."""
    try:  # (keys that are not strings, seat numbers, take orjson's slower option)
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError: a key that is not a string, or a value
        pass
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # e.g. an integer beyond 64 bits
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False, default=_unfragment)


def _unfragment(value: Any) -> Any:
    """For :mod:`json`: an ``orjson.Fragment`` (JSON text kept as it is, as the views'
    log lines are) as the data it holds."""
    if isinstance(value, orjson.Fragment):
        return orjson.loads(orjson.dumps(value))
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def error(seq: int, message: str, code: str = "invalid") -> dict[str, Any]:
    """An ``error`` message: ``code`` is one of ``malformed``, ``stale``, ``turn``,
    ``illegal``, ``over``, ``undo``, ``auth``, ``invalid``, ``timeout`` (this seat's time ran
    out: its bot is moving), ``takeover`` (a bot plays the seat, or none does),
    ``unavailable`` (the database did not take the write: nothing changed, try again),
    ``internal`` (an unexpected failure; the message carries an error id, the details are
    in the server log),
    ``limit`` (too many messages or connections: slow down), ``damaged`` (the game's stored
    data is damaged; the message carries an error id and the way back to the lobby),
    ``moved`` (several servers share the database and another one runs this game now: the
    message's ``server`` says where, when known; the connection is then closed with code
    4307)."""
    return {"type": "error", "seq": seq, "code": code, "message": message}


def moved(seq: int, message: str, server: str | None) -> dict[str, Any]:
    """The ``moved`` :func:`error`: another server runs the game, at ``server`` (its base
    URL, or None when unknown)."""
    out = error(seq, message, "moved")
    out["server"] = server
    return out
