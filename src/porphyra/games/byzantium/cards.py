"""Byzantium card data: the card model, and loading and validating a card-list file.

Cards are data (``shared/DESIGN.md``): the default sets of ``shared/rules/byzantium.md``
section 6 ship in ``data/deck-<version>.json`` and are **designed for this project** (the seed
names the types and meld limits but lists no cards).  Shipped decks are versioned and never
edited in place (:data:`DECKS_SHIPPED`; the game option ``deck`` picks one, the newest by
default); a record names the deck it was played with.  Option ``cards=PATH`` loads another
list in the same format; every entry is validated and errors name the file and the entry.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any

from porphyra.core.errors import CardDataError

AGES = ("early", "middle", "late")
AGE_LETTERS = {"early": "E", "middle": "M", "late": "L"}
DECKS = ("byzantine", "foe")
TYPES = {
    "byzantine": ("Leader", "Recovery", "Troop", "Negotiation", "Legacy"),
    "foe": ("Northern Foe", "Southern Foe", "Disaster", "Troop"),
}
FORMAT = "porphyra-byzantium-cards"
MAX_FILE_BYTES = 1_000_000
_SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
_FIELDS = {"slug", "name", "deck", "type", "force", "ages", "unique", "copies", "legacy", "natural"}


@dataclass(frozen=True, slots=True)
class Card:
    """One kind of card (all its copies are interchangeable; rules section 2).

    Attributes:
        index: position in the card list (the engine's compact id).
        slug: stable id used by the action notation (section 7).
        name: display name.
        deck: ``"byzantine"`` or ``"foe"``.
        type: one of :data:`TYPES` for its deck.
        force: force points (integer >= 0).
        first_age / last_age: 0 (Early), 1 (Middle) or 2 (Late); the card is usable in the
            contiguous range between them; ``first_age`` is its entry age.
        unique: removed from play after being melded.
        legacy: legacy value in LT (Legacy cards only, else 0).
        natural: a natural disaster (Disaster cards only).
        copies: number of copies in the deck.
    """

    index: int
    slug: str
    name: str
    deck: str
    type: str
    force: int
    first_age: int
    last_age: int
    unique: bool
    legacy: int
    natural: bool
    copies: int

    @property
    def ages(self) -> str:
        """Display label of the usable ages: ``"all"``, ``"E"``, ``"M-L"``…"""
        if self.first_age == 0 and self.last_age == 2:
            return "all"
        first = AGE_LETTERS[AGES[self.first_age]]
        if self.first_age == self.last_age:
            return first
        return f"{first}-{AGE_LETTERS[AGES[self.last_age]]}"

    def usable_in(self, age: int) -> bool:
        """True if the card may be held and melded in ``age`` (0-2)."""
        return self.first_age <= age <= self.last_age


@dataclass(frozen=True)
class CardSet:
    """A validated card list.

    Attributes:
        cards: every card kind, in file order (``Card.index`` is the position here).
        by_slug: slug → card.
        source: the file it was read from.
        designed_for_this_project: the file's own marker (true for the default set).
        name: the file's ``name`` field (a label for reports).
        version: the shipped deck version (``"v1"``, ``"v2"``…) or the file's own
            ``version`` field; ``None`` for an unversioned custom list.
        about: the file's ``provenance`` text (how the list was made, its measured balance).
    """

    cards: tuple[Card, ...]
    by_slug: dict[str, Card]
    source: str
    designed_for_this_project: bool
    name: str = "custom card set"
    version: str | None = None
    about: str = ""

    @cached_property
    def forces(self) -> tuple[int, ...]:
        """Each card kind's force, by ``Card.index``."""
        return tuple(c.force for c in self.cards)

    @cached_property
    def slugs(self) -> tuple[str, ...]:
        """Each card kind's slug (its name in the action notation), by ``Card.index``."""
        return tuple(c.slug for c in self.cards)

    def deck_cards(self, deck: str) -> list[Card]:
        """The card kinds of ``deck`` (``"byzantine"`` or ``"foe"``), in file order."""
        return [c for c in self.cards if c.deck == deck]


#: The shipped decks, oldest first; the last is the default (section 6: every version stays).
DECKS_SHIPPED: tuple[str, ...] = ("v1", "v2", "v3", "v4", "v5", "v6")
DEFAULT_DECK = DECKS_SHIPPED[-1]


def deck_path(version: str) -> Path:
    """Path of the shipped deck ``version`` (one of :data:`DECKS_SHIPPED`).

    Raises:
        CardDataError: no shipped deck of that version.
    """
    if version not in DECKS_SHIPPED:
        raise CardDataError(
            f"no shipped Byzantium deck {version!r}; shipped: {', '.join(DECKS_SHIPPED)}"
        )
    return Path(str(resources.files("porphyra.games.byzantium") / "data" / f"deck-{version}.json"))


def default_cards_path() -> Path:
    """Path of the shipped default deck (the newest, :data:`DEFAULT_DECK`)."""
    return deck_path(DEFAULT_DECK)


def _entry_error(source: str, i: int, entry: Any, problem: str) -> CardDataError:
    label = entry.get("slug") if isinstance(entry, dict) else None
    where = f"entry #{i + 1}" + (f" ({label!r})" if isinstance(label, str) else "")
    return CardDataError(f"{source}: {where}: {problem}")


def _check_int(source: str, i: int, e: dict[str, Any], key: str, low: int) -> int:
    value = e[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise _entry_error(source, i, e, f"{key} must be an integer, not {value!r}")
    if value < low:
        what = "negative" if low == 0 else f"below {low}"
        raise _entry_error(source, i, e, f"{key} {value} is {what}")
    return value


def _parse_entry(source: str, i: int, e: Any) -> Card:
    if not isinstance(e, dict):
        raise _entry_error(source, i, e, "must be an object")
    for key in ("slug", "name", "deck", "type", "force", "ages", "copies"):
        if key not in e:
            raise _entry_error(source, i, e, f"missing field {key!r}")
    unknown = set(e) - _FIELDS
    if unknown:
        raise _entry_error(source, i, e, f"unknown field(s) {sorted(unknown)}")
    slug, name, deck, typ = e["slug"], e["name"], e["deck"], e["type"]
    if not isinstance(slug, str) or not _SLUG.match(slug):
        raise _entry_error(source, i, e, f"slug {slug!r} must be lower-case words joined by '-'")
    if not isinstance(name, str) or not name.strip() or not name.isprintable():
        raise _entry_error(source, i, e, "name must be a non-empty string of printable text")
    if deck not in DECKS:
        raise _entry_error(source, i, e, f"unknown deck {deck!r} (expected one of {DECKS})")
    if typ not in TYPES[deck]:
        raise _entry_error(
            source,
            i,
            e,
            f"unknown type {typ!r} for the {deck} deck (expected one of {', '.join(TYPES[deck])})",
        )
    force = _check_int(source, i, e, "force", 0)
    copies = _check_int(source, i, e, "copies", 1)
    ages = e["ages"]
    if (
        not isinstance(ages, list)
        or len(ages) != 2
        or any(a not in AGES for a in ages)
        or AGES.index(ages[0]) > AGES.index(ages[1])
    ):
        raise _entry_error(
            source, i, e, f"bad age {ages!r}: expected [first, last] from {list(AGES)}, in order"
        )
    unique = e.get("unique", False)
    if not isinstance(unique, bool):
        raise _entry_error(source, i, e, "unique must be true or false")
    if unique and copies != 1:
        raise _entry_error(source, i, e, "a unique card must have exactly 1 copy")
    legacy = 0
    if "legacy" in e:
        if typ != "Legacy":
            raise _entry_error(source, i, e, "only Legacy cards have a legacy value")
        legacy = _check_int(source, i, e, "legacy", 0)
    natural = e.get("natural", False)
    if not isinstance(natural, bool):
        raise _entry_error(source, i, e, "natural must be true or false")
    if natural and typ != "Disaster":
        raise _entry_error(source, i, e, "only Disaster cards can be natural")
    return Card(
        index=i,
        slug=slug,
        name=name,
        deck=deck,
        type=typ,
        force=force,
        first_age=AGES.index(ages[0]),
        last_age=AGES.index(ages[1]),
        unique=unique,
        legacy=legacy,
        natural=natural,
        copies=copies,
    )


def parse_cards(data: Any, source: str) -> CardSet:
    """Validate decoded card-list JSON ``data`` read from ``source``.

    Raises:
        CardDataError: the format marker is wrong, an entry is invalid (missing field,
            unknown deck or type, bad age, negative force, duplicate slug…) or a deck is
            empty; the message names ``source`` and the entry.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CardDataError(f"{source}: not a Byzantium card list (expected format {FORMAT!r})")
    entries = data.get("cards")
    if not isinstance(entries, list) or not entries:
        raise CardDataError(f"{source}: 'cards' must be a non-empty list")
    cards: list[Card] = []
    by_slug: dict[str, Card] = {}
    for i, entry in enumerate(entries):
        card = _parse_entry(source, i, entry)
        if card.slug in by_slug:
            raise _entry_error(source, i, entry, f"duplicate slug {card.slug!r}")
        by_slug[card.slug] = card
        cards.append(card)
    for deck in DECKS:
        if not any(c.deck == deck and c.first_age == 0 for c in cards):
            raise CardDataError(f"{source}: the {deck} deck has no Early card to start with")
    name = data.get("name", "custom card set")
    version = data.get("version")
    about = data.get("provenance", "")
    if not all(isinstance(x, str) for x in (name, about)) or not (
        version is None or isinstance(version, str)
    ):
        raise CardDataError(f"{source}: 'name', 'version' and 'provenance' must be strings")
    return CardSet(
        cards=tuple(cards),
        by_slug=by_slug,
        source=source,
        designed_for_this_project=bool(data.get("designed_for_this_project", False)),
        name=name,
        version=version,
        about=about,
    )


def load_deck(version: str) -> CardSet:
    """The shipped deck ``version`` (cached: the files never change).

    Raises:
        CardDataError: no shipped deck of that version.
    """
    cached = _SHIPPED.get(version)
    if cached is None:
        cached = _SHIPPED[version] = replace(load_cards(deck_path(version)), version=version)
    return cached


_SHIPPED: dict[str, CardSet] = {}


def load_cards(path: str | Path | None = None) -> CardSet:
    """Load and validate a card list (default: the newest shipped deck of rules section 6).

    Raises:
        CardDataError: the file is missing, not JSON, or invalid (see :func:`parse_cards`).
    """
    file = Path(path) if path is not None else default_cards_path()
    try:
        if not file.is_file():
            raise CardDataError(f"{file}: cannot read card list: not a regular file")
        if file.stat().st_size > MAX_FILE_BYTES:
            raise CardDataError(f"{file}: card list is larger than {MAX_FILE_BYTES} bytes")
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CardDataError(f"{file}: cannot read card list: {exc}") from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise CardDataError(f"{file}: not valid JSON: {exc}") from None
    cardset = parse_cards(data, str(file))
    if cardset.version is None:  # a shipped deck named by its path (v1 predates the field)
        for version in DECKS_SHIPPED:
            if file.resolve() == deck_path(version).resolve():
                return replace(cardset, version=version)
    return cardset


class Cards(tuple[int, ...]):
    """Card kinds that a log line shows by name, named only when it is viewed (see
    :meth:`~porphyra.games.byzantium.state.ByzantiumState.log_lines`)."""

    __slots__ = ()
