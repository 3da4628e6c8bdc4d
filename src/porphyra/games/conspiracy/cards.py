"""Conspiracy card data: the 60 lords and the 24 (+5 bonus) Locations, loaded from JSON.

The shipped files are ``data/lords.json`` and ``data/locations.json`` (rules section 1).
Everything is validated on load; a bad file raises :class:`CardDataError` naming the file
and the entry.  The rules engine works on small integers: a *lord kind* is an index into
:attr:`CardSet.lords` (copies of one kind are interchangeable, section 6) and a *Location
id* is an index into :attr:`CardSet.locations`.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from porphyra.core.errors import CardDataError

DATA_DIR = Path(__file__).parent / "data"

#: The five guilds in their fixed order (section 1); notation uses these names.
COLOURS: tuple[str, ...] = ("yellow", "red", "green", "blue", "purple")
KEY_NONE, KEY_SILVER, KEY_GOLD = 0, 1, 2
KEY_NAMES = {None: KEY_NONE, "silver": KEY_SILVER, "gold": KEY_GOLD}
EFFECT_NONE, EFFECT_SWAP, EFFECT_REVEAL = 0, 1, 2
LORD_EFFECTS = {None: EFFECT_NONE, "swap": EFFECT_SWAP, "reveal": EFFECT_REVEAL}

#: Location effect kinds and the params each requires (name -> type).
LOCATION_EFFECTS: dict[str, dict[str, type]] = {
    "none": {},
    "pearls": {"amount": int},
    "silver-keys": {"per": int},
    "gold-keys": {"per": int},
    "pearl-pairs": {"per": int},
    "domains": {"per": int},
    "restrict-draw": {"count": int},
    "reshuffle-lords": {},
    "reshuffle-locations": {},
    "any-keys": {},
    "deck-search": {},
    "max-colour": {"colour": str},
    "count-colour": {"colour": str, "per": int},
    "alliance": {"lord_ip": int, "per": int},
    "extremes": {"ips": list, "per": int},
}

_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
LORD_FIELDS = ("colour", "ip", "copies", "key", "pearls", "effect")
LOCATION_FIELDS = ("slug", "ip", "bonus", "effect", "params", "text")


@dataclass(frozen=True, slots=True)
class LordKind:
    """One kind of lord (``red4``): colour index, IP, key, pearls and placement effect."""

    name: str
    colour: int
    ip: int
    copies: int
    key: int
    pearls: int
    effect: int


@dataclass(frozen=True, slots=True)
class LocationCard:
    """One Location: slug, base IP, effect kind and its params, the bonus flag, and the
    effect in words for display (``text``, ``""`` for none)."""

    slug: str
    ip: int
    bonus: bool
    effect: str
    params: tuple[tuple[str, Any], ...]
    text: str = ""

    def param(self, name: str) -> Any:
        """The value of param ``name`` (validated on load, so always present)."""
        return dict(self.params)[name]


@dataclass(frozen=True)
class CardSet:
    """All card data of a game, plus lookup tables.

    Attributes:
        lords: lord kinds sorted by colour order then IP.
        locations: Locations in file order (base first is conventional, not required).
        lord_index: ``"red4"`` -> kind; location_index: slug -> id.
    """

    lords: tuple[LordKind, ...]
    locations: tuple[LocationCard, ...]

    @functools.cached_property
    def lord_index(self) -> dict[str, int]:
        return {k.name: i for i, k in enumerate(self.lords)}

    @functools.cached_property
    def location_index(self) -> dict[str, int]:
        return {c.slug: i for i, c in enumerate(self.locations)}


def _fail(path: Path, entry: str, problem: str) -> CardDataError:
    return CardDataError(f"{path.name}: {entry}: {problem}")


def _read(path: Path, key: str) -> list[Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CardDataError(f"{path.name}: cannot be read: {exc}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise CardDataError(f"{path.name}: not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get(key), list):
        raise CardDataError(f"{path.name}: top level must be an object with a list {key!r}")
    extra = set(data) - {key, "comment"}
    if extra:
        raise CardDataError(f"{path.name}: unknown top-level field(s) {sorted(extra)}")
    entries: list[Any] = data[key]
    return entries


def _int(value: Any, path: Path, entry: str, name: str, lo: int, hi: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _fail(path, entry, f"bad {name} {value!r} (an integer {lo}..{hi})")
    return value


def _check_fields(raw: Any, fields: tuple[str, ...], path: Path, entry: str) -> dict[str, Any]:
    if not isinstance(raw, dict):
        raise _fail(path, entry, "must be an object")
    missing = [f for f in fields if f not in raw]
    if missing:
        raise _fail(path, entry, f"missing field(s) {missing}")
    extra = sorted(set(raw) - set(fields))
    if extra:
        raise _fail(path, entry, f"unknown field(s) {extra}")
    return raw


def load_lords(path: Path, per_colour: int = 12) -> tuple[LordKind, ...]:
    """Load and validate a lord file.

    Args:
        path: JSON file ``{"lords": [{"colour", "ip", "copies", "key", "pearls", "effect"}]}``.
        per_colour: the number of lords each of the five colours must have (section 1).

    Returns:
        The lord kinds sorted by colour (``COLOURS`` order) then IP.

    Raises:
        CardDataError: unreadable file, missing/unknown field, unknown colour, bad IP,
            key, pearls or effect, duplicate ``<colour><ip>``, or wrong copy counts.
    """
    kinds: list[LordKind] = []
    seen: set[str] = set()
    for i, raw in enumerate(_read(path, "lords")):
        entry = f"lord #{i + 1}"
        raw = _check_fields(raw, LORD_FIELDS, path, entry)
        colour = raw["colour"]
        if colour not in COLOURS:
            raise _fail(path, entry, f"unknown colour {colour!r} (one of {', '.join(COLOURS)})")
        ip = _int(raw["ip"], path, entry, "IP", 0, 9)
        name = f"{colour}{ip}"
        entry = f"lord #{i + 1} ({name})"
        if name in seen:
            raise _fail(path, entry, f"duplicate lord {name}")
        seen.add(name)
        copies = _int(raw["copies"], path, entry, "copies", 1, 60)
        if raw["key"] not in KEY_NAMES:
            raise _fail(path, entry, f"bad key {raw['key']!r} (null, 'silver' or 'gold')")
        pearls = _int(raw["pearls"], path, entry, "pearls", 0, 9)
        if raw["effect"] not in LORD_EFFECTS:
            raise _fail(path, entry, f"bad effect {raw['effect']!r} (null, 'swap' or 'reveal')")
        kinds.append(
            LordKind(
                name,
                COLOURS.index(colour),
                ip,
                copies,
                KEY_NAMES[raw["key"]],
                pearls,
                LORD_EFFECTS[raw["effect"]],
            )
        )
    for c, colour in enumerate(COLOURS):
        total = sum(k.copies for k in kinds if k.colour == c)
        if total != per_colour:
            raise _fail(path, f"colour {colour}", f"wrong count: {total} lords, not {per_colour}")
    return tuple(sorted(kinds, key=lambda k: (k.colour, k.ip)))


def load_locations(path: Path, base: int = 24, bonus: int = 5) -> tuple[LocationCard, ...]:
    """Load and validate a Location file.

    Args:
        path: JSON file ``{"locations": [{"slug", "ip", "bonus", "effect", "params",
            "text"}]}``.
        base / bonus: the number of base and bonus Locations expected (section 1).

    Returns:
        The Locations in file order.

    Raises:
        CardDataError: unreadable file, missing/unknown field, bad slug, duplicate slug,
            bad IP, unknown effect, missing/unknown/bad param, unknown colour, a text that
            is not a string, wrong counts.
    """
    cards: list[LocationCard] = []
    for i, raw in enumerate(_read(path, "locations")):
        entry = f"location #{i + 1}"
        raw = _check_fields(raw, LOCATION_FIELDS, path, entry)
        slug = raw["slug"]
        if not isinstance(slug, str) or not _SLUG.match(slug):
            raise _fail(path, entry, f"bad slug {slug!r}")
        entry = f"location #{i + 1} ({slug})"
        if any(c.slug == slug for c in cards):
            raise _fail(path, entry, f"duplicate slug {slug}")
        ip = _int(raw["ip"], path, entry, "IP", 0, 20)
        if not isinstance(raw["bonus"], bool):
            raise _fail(path, entry, f"bad bonus flag {raw['bonus']!r}")
        effect = raw["effect"]
        if effect not in LOCATION_EFFECTS:
            raise _fail(path, entry, f"unknown effect {effect!r}")
        params = raw["params"]
        if not isinstance(params, dict):
            raise _fail(path, entry, "params must be an object")
        wanted = LOCATION_EFFECTS[effect]
        if set(params) != set(wanted):
            raise _fail(path, entry, f"effect {effect} needs params {sorted(wanted)}")
        for name, typ in wanted.items():
            value = params[name]
            if typ is int:
                _int(value, path, entry, name, 0, 20)
            elif not isinstance(value, typ):
                raise _fail(path, entry, f"param {name} must be a {typ.__name__}")
        if "colour" in params and params["colour"] not in COLOURS:
            raise _fail(path, entry, f"unknown colour {params['colour']!r}")
        if "ips" in params:
            for v in params["ips"]:
                _int(v, path, entry, "ips entry", 0, 9)
            params = {**params, "ips": tuple(params["ips"])}
        if not isinstance(raw["text"], str):
            raise _fail(path, entry, f"text must be a string, not {raw['text']!r}")
        cards.append(
            LocationCard(slug, ip, raw["bonus"], effect, tuple(sorted(params.items())), raw["text"])
        )
    n_base = sum(not c.bonus for c in cards)
    n_bonus = len(cards) - n_base
    if (n_base, n_bonus) != (base, bonus):
        raise _fail(
            path,
            "locations",
            f"wrong counts: {n_base} base and {n_bonus} bonus, not {base} and {bonus}",
        )
    return tuple(cards)


@functools.cache
def default_cards() -> CardSet:
    """The shipped card data (validated once per process).

    Raises:
        CardDataError: the shipped files are broken.
    """
    return CardSet(load_lords(DATA_DIR / "lords.json"), load_locations(DATA_DIR / "locations.json"))
