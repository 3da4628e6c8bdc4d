"""Card edits for the balance lab without hand-editing JSON (``--set "siege-train.force=2"``).

An edit is ``SLUG.FIELD=VALUE``: the card's slug (as ``porphyra cards`` lists it), one of
:data:`FIELDS` and a whole number.  Rules section 6 (``shared/rules/byzantium.md``) says what
a deck version may change: a card's **force** (≥ 0) and **number of copies** (≥ 1; a unique
card keeps exactly one), and from deck version 4 on a Legacy card's **legacy value** (0 to
3); never its name, type, Ages or uniqueness.  Edits outside that are refused with a message
that names the edit and what is allowed, and nothing is written.
"""

from __future__ import annotations

import copy
import difflib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from porphyra.games.byzantium.cards import DEFAULT_DECK, deck_path, parse_cards

#: What an edit may change, with its least value (legacy also has a most: 3).
FIELDS: dict[str, int] = {"force": 0, "copies": 1, "legacy": 0}

#: The highest legacy value (rules section 6).
MAX_LEGACY = 3

#: The first deck version whose Legacy cards' legacy values may change (rules section 6).
LEGACY_FROM = 4

_EDIT = re.compile(r"^\s*([a-z0-9-]+)\.([a-z]+)\s*=\s*(-?[0-9]{1,12})\s*$", re.ASCII)

#: The largest force or number of copies an edit may give (a card file's own limits are
#: looser; a campaign with millions of copies would only burn CPU).
MAX_VALUE = 99


class EditError(ValueError):
    """An edit that cannot be applied; the message says which and why."""


@dataclass(frozen=True)
class Edit:
    """One ``--set`` edit.

    Attributes:
        slug: the card's slug.
        field: ``"force"``, ``"copies"`` or ``"legacy"``.
        value: the new value.
    """

    slug: str
    field: str
    value: int

    def __str__(self) -> str:
        return f"{self.slug}.{self.field}={self.value}"


def parse_edit(text: str) -> Edit:
    """Read ``SLUG.FIELD=VALUE``.

    Raises:
        EditError: not of that shape (a number of ASCII digits), an unknown field, or a value
            outside the field's range (force 0-99, copies 1-99, legacy 0-3).
    """
    m = _EDIT.match(text)
    if m is None:
        raise EditError(
            f"--set {text!r}: expected CARD.FIELD=NUMBER, e.g. siege-train.force=2 "
            f"(fields: {', '.join(FIELDS)})"
        )
    slug, field, raw = m.groups()
    if field not in FIELDS:
        raise EditError(f"--set {text!r}: unknown field {field!r}; fields: {', '.join(FIELDS)}")
    value = int(raw)
    most_allowed = MAX_LEGACY if field == "legacy" else MAX_VALUE
    if value < FIELDS[field] or value > most_allowed:
        most = f" to {most_allowed}"
        raise EditError(f"--set {text!r}: {field} must be {FIELDS[field]}{most}, not {value}")
    return Edit(slug, field, value)


def _version_number(version: Any) -> int | None:
    m = re.fullmatch(r"v(\d+)", version) if isinstance(version, str) else None
    return int(m.group(1)) if m else None


def apply_edits(base: dict[str, Any], edits: Sequence[Edit], source: str) -> dict[str, Any]:
    """A copy of the card-list JSON ``base`` with ``edits`` applied, validated.

    The copy has no ``version`` (it is not a shipped deck), a name saying it is edited and a
    provenance listing the edits.

    Args:
        base: a Byzantium card list as decoded JSON.
        edits: the edits, applied in order.
        source: where ``base`` came from (for messages).

    Raises:
        EditError: an unknown card (with the nearest slugs), a copies edit of a unique card,
            a legacy edit of a card that is not a Legacy card or of a deck before v4.
        CardDataError: the edited list does not validate.
    """
    out = copy.deepcopy(base)
    by_slug = {c["slug"]: c for c in out["cards"]}
    for edit in edits:
        card = by_slug.get(edit.slug)
        if card is None:
            near = difflib.get_close_matches(edit.slug, by_slug, n=3)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise EditError(f"--set {edit}: no card {edit.slug!r} in {source}{hint}")
        if edit.field == "copies" and card.get("unique") and edit.value != 1:
            raise EditError(f"--set {edit}: {card['name']} is unique and keeps exactly 1 copy")
        if edit.field == "legacy":
            if card.get("type") != "Legacy":
                raise EditError(f"--set {edit}: {card['name']} is not a Legacy card")
            number = _version_number(base.get("version"))
            if number is None or number < LEGACY_FROM:
                raise EditError(
                    f"--set {edit}: legacy values may change from deck v{LEGACY_FROM} on "
                    f"(rules section 6); {source} is version {base.get('version') or 'none'}"
                )
        card[edit.field] = edit.value
    name = base.get("name") or source
    out["name"] = f"{name}, edited: {', '.join(str(e) for e in edits)}"
    out["version"] = None
    out["provenance"] = f"{source} with --set {' --set '.join(str(e) for e in edits)}"
    parse_cards(out, f"{source} with the edits")
    return out


def base_deck(options: dict[str, Any]) -> tuple[Path, dict[str, Any]]:
    """The deck file a run starts from (the ``cards`` option, else the ``deck`` option,
    else the newest shipped deck) and its decoded JSON.

    Raises:
        EditError: the file cannot be read or is not JSON.
        CardDataError: no shipped deck of that version.
    """
    path = (
        Path(options["cards"])
        if "cards" in options
        else deck_path(options.get("deck", DEFAULT_DECK))
    )
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise EditError(f"cannot read the base deck {path}: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("cards"), list):
        raise EditError(f"{path} is not a Byzantium card list")
    return path, data
