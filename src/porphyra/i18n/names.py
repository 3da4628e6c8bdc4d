"""Names, never ids: what a person reads for Conspiracy's lord ids (``red4``) and
Location slugs (``l7``, ``count-green``, ``any-keys``), in every language.

The ids stay the notation (what a player types, the records, the engines' English log);
every text shown to a person names them instead:

- a lord ``red4`` is its colour and influence, ``Red 4`` in English (the catalogue's
  terms ``red4`` → ``赤4``, ``빨강 4``);
- a Location has a name (:data:`LOCATION_NAMES`, English, each a term of the catalogue
  translated in ``ja`` and ``ko``), chosen after its effect.

:func:`name_of` names one id; :func:`name_ids` names every id in a text (the English log
lines, which the engines keep writing with ids).  The pages get the same names with the
card data (``/api/cards/conspiracy``: each Location's ``name``) and the catalogue.
"""

from __future__ import annotations

import functools
import re

from porphyra.i18n import DEFAULT, has, pgettext

#: Each Location's name (English; a term of the catalogue), by slug.
LOCATION_NAMES: dict[str, str] = {
    "l7": "Grand Estate",
    "l5-pearl": "Pearl Cove",
    "l4-pearls": "Pearl Shoals",
    "l3-pearls": "Pearl Reef",
    "silver-keys": "Silver Vault",
    "gold-keys": "Gold Vault",
    "pearl-pairs": "Pearl Exchange",
    "domains": "Crown Lands",
    "draw-one": "Narrow Gate",
    "draw-two": "Double Gate",
    "reshuffle-lords": "Recruiting Hall",
    "reshuffle-locations": "Cartographers' Guild",
    "any-keys": "Locksmith",
    "deck-search": "Scouts' Camp",
    "max-yellow": "Granary",
    "max-red": "Barracks",
    "max-green": "Market",
    "max-blue": "Senate",
    "max-purple": "Tower of Mages",
    "count-yellow": "Farmlands",
    "count-red": "Garrison",
    "count-green": "Trade Quarter",
    "count-blue": "Assembly",
    "count-purple": "Arcane Circle",
    "alliance-1": "One-IP Pact",
    "alliance-2": "Two-IP Pact",
    "alliance-3": "Three-IP Pact",
    "alliance-4": "Four-IP Pact",
    "extremes": "Court of Extremes",
}

_COLOURS = ("yellow", "red", "green", "blue", "purple")
_LORD = re.compile(r"(yellow|red|green|blue|purple)([0-9])")
#: An id standing alone (not part of a longer word or slug).
_IDS = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(slug) for slug in sorted(LOCATION_NAMES, key=len, reverse=True))
    + r"|(?:yellow|red|green|blue|purple)[0-9])(?![\w-])"
)


def location_name(slug: str, lang: str = DEFAULT) -> str:
    """The name of Location ``slug`` in ``lang`` (the slug itself if it is unknown)."""
    english = LOCATION_NAMES.get(slug)
    if english is None:
        return slug
    return pgettext(lang, "term", english) if lang != DEFAULT else english


def lord_name(lord: str, lang: str = DEFAULT) -> str:
    """Lord id ``lord`` (``"red4"``) as people read it in ``lang``: ``Red 4``, ``赤4``,
    ``빨강 4`` (itself if it is not a lord id)."""
    m = _LORD.fullmatch(lord)
    if m is None:
        return lord
    if lang != DEFAULT and has(lang, "term", lord):
        return pgettext(lang, "term", lord)
    return f"{m.group(1).capitalize()} {m.group(2)}"


def name_of(token: str, lang: str = DEFAULT) -> str | None:
    """The name of a lord id or Location slug in ``lang``; None if ``token`` is neither."""
    if token in LOCATION_NAMES:
        return location_name(token, lang)
    if _LORD.fullmatch(token):
        return lord_name(token, lang)
    return None


@functools.lru_cache(maxsize=65536)
def name_ids(text: str, lang: str = DEFAULT) -> str:
    """``text`` with every lord id and Location slug that stands alone replaced by its
    name in ``lang`` (for the English log lines, which carry ids)."""
    return _IDS.sub(lambda m: name_of(m.group(0), lang) or m.group(0), text)
