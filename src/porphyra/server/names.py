"""Names people read: user names of accounts and names of seats, and when two of them are
too alike (issue 32 §1).

A name is compared by its **skeleton** (after Unicode's UTS #39 idea): NFKC, case folded,
every character that the Unicode confusables data (the ``confusable-homoglyphs``
package) lists as a look-alike of a Latin letter or digit replaced by it (Cyrillic ``а``
by ``a``, Greek ``ο`` by ``o``, Cherokee ``Ꭺ`` by ``a``), separators (spaces, ``_ - .``)
left out, and ``0``/``1`` read as ``o``/``l``, ``rn`` as ``m`` and ``vv`` as ``w``.  Two
accounts may not share a skeleton (the database's unique index on it), and neither a
user name nor a seat name may read as a seat, a spectator or (for accounts) a bot:
``"Ｓｅａｔ 2"`` (full width), ``"Seаt 2"`` (Cyrillic ``а``) and ``"Seat②"`` all read as
``Seat 2``.

Limits: look-alikes made of several characters other than those above, and look-alikes
between two non-Latin scripts, are not folded (two Cyrillic names that differ by a letter
that looks like another Cyrillic one stay two names).
"""

from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs.confusables import confusables_data

from porphyra.core.messages import Message, msg
from porphyra.core.seats import hidden_character

#: Per character, its look-alikes (``[{"c": character, "n": Unicode name}]``).
_LOOK_ALIKES: dict[str, list[dict[str, str]]] = confusables_data

#: Fewest and most characters of a user name (after NFKC, spaces at its ends removed).
MIN_USER_NAME = 3
MAX_USER_NAME = 24

#: Names that read as another seat's or a spectator's (the server's defaults, in the
#: three languages), matched on the whole name.
RESERVED_SEAT_NAME = re.compile(
    r"(?i)(seat|player)\s*\d+|spectator|席\s*\d+|좌석\s*\d+|観戦者|관전자"
)
#: Further names an account may not take: a bot's (``Easy bot 2``, ``bot``), the
#: server's own words.
_RESERVED_ACCOUNT = re.compile(r"(?i)(\w+\s+)?bot(\s*\d+)?|admin|porphyra|server|system|guest")
#: Characters left out of a skeleton: separators people hardly see the difference of.
_SEPARATORS = frozenset(" _-.\u3000")
#: Characters a user name may hold besides letters, digits and combining marks.
_NAME_SIGNS = frozenset(" _-.")
#: Letters the Unicode data calls letters but that show nothing (Hangul fillers): a name
#: with one would look like another without sharing its skeleton.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
#: ASCII look-alikes folded in a skeleton (after case folding).
_ASCII_FOLDS = (("rn", "m"), ("vv", "w"), ("0", "o"), ("1", "l"))


@functools.lru_cache(maxsize=4096)
def _latin(ch: str) -> str:
    """``ch``, or the Latin letter or digit it looks like (lower case) when it is not
    ASCII and the confusables data lists one."""
    if ch.isascii():
        return ch
    for glyph in _LOOK_ALIKES.get(ch, ()):
        c = glyph["c"]
        if len(c) == 1 and c.isascii() and c.isalnum():
            return c.casefold()
    return ch


def latinised(text: str) -> str:
    """``text`` NFKC-normalised, case folded, each look-alike of a Latin letter or digit
    replaced by it (separators and digits kept): what the reserved-name patterns match."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return unicodedata.normalize("NFKC", "".join(_latin(ch) for ch in folded)).strip()


def skeleton(text: str) -> str:
    """The comparison key of a name (see the module docstring): two names with one
    skeleton are confusable.  ``skeleton("Ｂｏｂ_1") == skeleton("bobl")``."""
    key = "".join(ch for ch in latinised(text) if ch not in _SEPARATORS)
    for before, after in _ASCII_FOLDS:
        key = key.replace(before, after)
    return key


def looks_like_seat(name: str) -> bool:
    """True if ``name`` reads as a seat (``Seat 2``, ``席2``, ``좌석 2``) or a spectator,
    also when written with full-width, circled or look-alike characters."""
    return any(
        RESERVED_SEAT_NAME.fullmatch(form) is not None
        for form in (name.strip(), unicodedata.normalize("NFKC", name).strip(), latinised(name))
    )


def user_name(raw: str) -> tuple[str, str]:
    """Check a user name asked for at sign-up.

    Args:
        raw: the name as typed.

    Returns:
        ``(name, key)``: the name as shown (NFKC, spaces at its ends removed, runs of
        spaces made one) and its :func:`skeleton`, the account's unique key.

    Raises:
        NameRefused: empty, too short or long, with a character other than letters,
            digits, combining marks, spaces and ``_ - .``, or reading as a seat, a
            spectator, a bot or the server (the message says which).
    """
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if len(name) < MIN_USER_NAME:
        raise NameRefused(msg("a user name needs at least {0} characters", MIN_USER_NAME))
    if len(name) > MAX_USER_NAME:
        raise NameRefused(msg("a user name may have at most {0} characters", MAX_USER_NAME))
    for ch in name:
        allowed = ch in _NAME_SIGNS or unicodedata.category(ch)[0] in "LNM"
        if hidden_character(ch) or ch in _BLANK_LETTERS or not allowed:
            raise NameRefused(msg("a user name may hold letters, digits, spaces and _ - . only"))
    if not any(unicodedata.category(ch)[0] in "LN" for ch in name):
        raise NameRefused(msg("a user name needs a letter or a digit"))
    if looks_like_seat(name) or _RESERVED_ACCOUNT.fullmatch(latinised(name)):
        raise NameRefused(
            msg("a user name may not read as a seat, a spectator, a bot or the server")
        )
    return name, skeleton(name)


class NameRefused(ValueError):
    """A user name refused by :func:`user_name`; ``message`` says why (an id plus
    arguments, translated at the edge)."""

    def __init__(self, message: Message) -> None:
        super().__init__(str(message))
        self.message = message
