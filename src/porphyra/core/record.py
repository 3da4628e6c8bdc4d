"""Game records: JSON files that hold a whole game as its seed and action texts.

A record is ``{"format": "porphyra-record", "format_version": 1, "game", "version",
"options", "seed", "actions": [{"player", "action"}], "result"}``.  Replay, save/resume,
undo (replay a prefix) and golden tests are all built on records (``shared/DESIGN.md``).

Records of web games with a clock (issue 15) also hold ``"clock"`` (the table's settings:
``{"kind": "none" | "realtime" | "turn", "base_s"?, "increment_s"?, "per_move_s"?,
"timeout_bot", "takeover_after"}``) and ``"clock_events"`` (``[{"event": "timeout" |
"takeover" | "return", "player", "action": the index in ``actions`` of the first action
it concerns (a timeout: the action the bot made), "bot"?, "reason"?}]``).  Both are
optional and never change a replay: records without them replay as before.

Records may also hold ``"seats"`` (``[{"kind": "human" | "bot", "bot": a bot spec or
null, "name"?: text}]``, one per seat): who played, which ``porphyra replay`` names and
``porphyra resume`` seats again.  The web server's records have it, and so do the
terminal's saves; it is optional and never changes a replay either.

Records live in the core because every layer uses them, the core's own conformance suite
included; :mod:`porphyra.record` is their public name (``from porphyra import record``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from porphyra.core.errors import PorphyraError, RecordError
from porphyra.core.game import Game, State
from porphyra.core.registry import load_game_version

FORMAT = "porphyra-record"
FORMAT_VERSION = 1


def to_record(state: State) -> dict[str, Any]:
    """The record of ``state``: game, version, options, seed, actions, result.

    ``result`` is ``None`` until the game is over, then ``{"returns": [...], "scores": [...]}``.
    """
    game = state.game
    result: dict[str, Any] | None = None
    if state.is_terminal():
        result = {"returns": state.returns(), "scores": state.scores()}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.info.name,
        "version": game.rules_version,
        "options": game.record_options(),
        "seed": state.seed,
        "actions": [{"player": p, "action": str(a)} for p, a in state.history],
        "result": result,
    }


def dumps(state: State, seats: list[dict[str, Any]] | None = None) -> str:
    """The record of ``state`` as JSON text (stable key order, one action per line), with
    ``seats`` (see the module docstring) when given."""
    record = to_record(state)
    if seats is not None:
        record["seats"] = seats
    return json.dumps(record, indent=1, sort_keys=True) + "\n"


def save(state: State, path: str | Path, seats: list[dict[str, Any]] | None = None) -> None:
    """Write the record of ``state`` to ``path`` (UTF-8 JSON), with ``seats`` when given
    (who plays each seat: see the module docstring).

    Raises:
        OSError: the file cannot be written.
    """
    Path(path).write_text(dumps(state, seats), encoding="utf-8")


#: A bot spec as a clock event may name it (``easy``, ``ismcts:iterations=100``).
_BOT_NAME = re.compile(r"[a-z][a-z0-9_:=.,-]{0,59}")


def validate(record: Any) -> dict[str, Any]:
    """Check the shape of a record and return it.

    Raises:
        RecordError: a field is missing or of the wrong type, or the format is unknown.
    """
    if not isinstance(record, dict):
        raise RecordError("record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"not a porphyra record (format {record.get('format')!r})")
    if record.get("format_version") != FORMAT_VERSION:
        raise RecordError(f"unsupported record format_version {record.get('format_version')!r}")
    for key, typ in (("game", str), ("version", str), ("options", dict), ("actions", list)):
        if not isinstance(record.get(key), typ):
            raise RecordError(f"record field {key!r} is missing or not a {typ.__name__}")
    seed = record.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("record field 'seed' is missing or not an integer")
    if not -(2**256) < seed < 2**256:
        raise RecordError("record field 'seed' is too large (at most 256 bits)")
    for i, entry in enumerate(record["actions"]):
        if (
            not isinstance(entry, dict)
            or not isinstance(entry.get("action"), str)
            or not isinstance(entry.get("player"), int)
            or isinstance(entry.get("player"), bool)
        ):
            raise RecordError(f"record action #{i + 1} must be {{'player': int, 'action': str}}")
    _validate_clock(record)
    _validate_seats(record)
    return record


def _validate_seats(record: dict[str, Any]) -> None:
    """Check the optional ``seats`` of a record (see the module docstring).

    Raises:
        RecordError: present but not a list of ``{"kind", "bot", "name"?}`` objects.
    """
    seats = record.get("seats")
    if seats is None:
        return
    if not isinstance(seats, list) or len(seats) > 8:
        raise RecordError("record field 'seats' must be a list of at most 8 seats")
    for i, seat in enumerate(seats):
        if (
            not isinstance(seat, dict)
            or seat.get("kind") not in ("human", "bot")
            or not isinstance(seat.get("bot"), str | None)
            or (seat["kind"] == "bot" and not _BOT_NAME.fullmatch(str(seat.get("bot"))))
            or not isinstance(seat.get("name"), str | None)
        ):
            raise RecordError(
                f"record seat #{i + 1} must be {{'kind': 'human' or 'bot', 'bot': a bot "
                "name (at most 60 characters) for a bot seat, 'name'?: a text}"
            )


def seat_kinds(record: dict[str, Any]) -> list[str] | None:
    """Who played each seat of a (validated) record, as ``porphyra play --seats`` names
    them (``["human", "medium"]``), or None if the record does not say."""
    seats = record.get("seats")
    if not isinstance(seats, list) or not seats:
        return None
    return ["human" if s["kind"] == "human" else str(s["bot"]) for s in seats]


#: The events of a record's optional ``clock_events``.
CLOCK_EVENTS = ("timeout", "takeover", "return")


def _validate_clock(record: dict[str, Any]) -> None:
    """Check the optional ``clock`` and ``clock_events`` of a record (see the module
    docstring).

    Raises:
        RecordError: either is present but of the wrong shape.
    """
    clock = record.get("clock")
    if clock is not None and (
        not isinstance(clock, dict) or not isinstance(clock.get("kind"), str)
    ):
        raise RecordError("record field 'clock' must be an object with a 'kind'")
    events = record.get("clock_events")
    if events is None:
        return
    if not isinstance(events, list):
        raise RecordError("record field 'clock_events' must be a list")
    total = len(record["actions"])
    for i, e in enumerate(events):
        if (
            not isinstance(e, dict)
            or e.get("event") not in CLOCK_EVENTS
            or not isinstance(e.get("player"), int)
            or isinstance(e.get("player"), bool)
            or not 0 <= e["player"] < 8
            or not isinstance(e.get("action"), int)
            or isinstance(e.get("action"), bool)
            or not 0 <= e["action"] <= total
            or not isinstance(e.get("bot", ""), str)
            or not isinstance(e.get("reason", ""), str)
            or not _BOT_NAME.fullmatch(e.get("bot", "easy"))
        ):
            raise RecordError(
                f"record clock event #{i + 1} must be {{'event': one of "
                f"{', '.join(CLOCK_EVENTS)}, 'player': a seat, 'action': 0..{total}, "
                "'bot'?: a bot name}"
            )


def loads(text: str) -> dict[str, Any]:
    """Parse and validate record JSON text.

    Raises:
        RecordError: the text is not JSON or not a valid record.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"record is not valid JSON: {exc}") from None
    except ValueError:  # e.g. a number of thousands of digits, which Python refuses
        raise RecordError("record holds a number too long to read") from None
    except RecursionError:
        raise RecordError("record JSON is nested too deeply") from None
    return validate(data)


def load(path: str | Path) -> dict[str, Any]:
    """Read and validate the record at ``path``.

    Raises:
        RecordError: the file is not a valid record (the message names the file).
        OSError: the file cannot be read.
    """
    try:
        return loads(Path(path).read_text(encoding="utf-8"))
    except RecordError as exc:
        raise RecordError(f"{path}: {exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: record is not UTF-8 text") from None


def replay(record: dict[str, Any], upto: int | None = None, game: Game | None = None) -> State:
    """Rebuild the state of ``record`` by replaying its actions.

    Args:
        record: a record as returned by :func:`load` or :func:`to_record`.
        upto: replay only the first ``upto`` actions (for stepping through and undo).
        game: the game of the record's name and options, if the caller already has it
            (the web server shares one per option set); default: ``load_game``.

    Returns:
        The state after the replayed actions.

    Raises:
        RecordError: the record is invalid, of another rules version, or an action in it
            does not apply (the message gives its number and text).
    """
    record = validate(record)
    try:
        if game is None:
            game = load_game_version(record["game"], record["version"], record["options"])
    except PorphyraError as exc:
        raise RecordError(f"record cannot be loaded: {exc}") from None
    except TypeError as exc:
        raise RecordError(f"record options are invalid: {exc}") from None
    if record["version"] != game.rules_version:
        raise RecordError(
            f"record is for {record['game']} rules version {record['version']}, "
            f"this is version {game.rules_version}"
        )
    state = game.new_initial_state(seed=record["seed"])
    actions = record["actions"] if upto is None else record["actions"][:upto]
    for i, entry in enumerate(actions):
        if state.is_terminal():
            raise RecordError(
                f"action #{i + 1} {entry['action']!r} comes after the end of the game"
            )
        player = entry["player"]
        if player not in state.active_players():
            raise RecordError(
                f"action #{i + 1} {entry['action']!r} is recorded for player {player}"
                f" but player {state.current_player()} is to act"
            )
        try:
            state.apply_action(game.parse_action(state, entry["action"], player), player)
        except ValueError as exc:
            raise RecordError(
                f"action #{i + 1} {entry['action']!r} does not apply: {exc}"
            ) from None
    result = record.get("result")
    if upto is None and result is not None:
        if not state.is_terminal():
            raise RecordError("record claims a result but its actions do not end the game")
        if not isinstance(result, dict) or result.get("returns") != state.returns():
            raise RecordError(
                f"record result {result!r} does not match its replay {state.returns()}"
            )
    return state
