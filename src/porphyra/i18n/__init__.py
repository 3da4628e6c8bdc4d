"""The interface in English, Japanese and Korean: gettext message catalogues.

The sources are the gettext catalogues ``locale/{ja,ko}/LC_MESSAGES/porphyra.po`` (English
is the source language: every ``msgid`` is the English text); the compiled ``.mo`` files
beside them ship as package data and are read with the standard library's :mod:`gettext`.
``python -m porphyra.i18n.build`` recompiles them with Babel after an edit (a test checks
that the committed ``.mo`` files match their ``.po`` sources).

Contexts (``msgctxt``): none for interface text (menus, prompts, pages, errors); ``"log"``
for the templates of the games' log lines (:mod:`porphyra.i18n.log`); ``"term"`` for game
terms shown as data (card names and types, Ages, colours, roles, the Legendary Opponents'
conditions, Location effects: :mod:`porphyra.i18n.terms`).  Placeholders are
:meth:`str.format` fields (``{0}``, ``{name}``): a translation may reorder them but must use
the same set.  Action notation is never translated.
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
from collections.abc import Iterable
from pathlib import Path

#: The supported languages, English (the source) first.
LANGUAGES: tuple[str, ...] = ("en", "ja", "ko")
DEFAULT = "en"
#: Each language's name in itself (for switches and menus).
NATIVE_NAMES: dict[str, str] = {"en": "English", "ja": "日本語", "ko": "한국어"}
LOCALE_DIR = Path(__file__).parent / "locale"
DOMAIN = "porphyra"


def normalize(tag: str | None) -> str | None:
    """The supported language of a language tag or locale name, or None.

    Args:
        tag: ``"ja"``, ``"ja-JP"``, ``"ko_KR.UTF-8"``, ``"en_US"``, ``"C"``... (any case).

    Returns:
        ``"en"``, ``"ja"`` or ``"ko"``; None when ``tag`` names no supported language.
    """
    if not tag:
        return None
    base = tag.strip().replace("_", "-").split(".")[0].split("@")[0].split("-")[0].lower()
    return base if base in LANGUAGES else None


def negotiate(preferred: Iterable[str | None], default: str = DEFAULT) -> str:
    """The first supported language among ``preferred`` (tags in order of preference,
    e.g. a ``--lang`` value, then ``LANG``), else ``default``."""
    for tag in preferred:
        lang = normalize(tag)
        if lang is not None:
            return lang
    return default


def from_accept_language(header: str | None) -> str:
    """The language an HTTP ``Accept-Language`` header prefers among :data:`LANGUAGES`
    (highest ``q`` first, ties in the header's order), else English.

    Args:
        header: e.g. ``"ko-KR,ko;q=0.9,en;q=0.5"``; None or malformed parts are ignored,
            and so is a part whose ``q`` is not a number from 0 to 1 (RFC 9110 12.4.2:
            ``q=0`` means "not acceptable").
    """
    ranked: list[tuple[float, int, str]] = []
    for position, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                continue
            if not 0.0 < quality <= 1.0:  # q=0, NaN, negative, above 1 or infinite
                continue
        ranked.append((-quality, position, tag))
    return negotiate(tag for _, _, tag in sorted(ranked))


def from_environment(explicit: str | None = None) -> str:
    """The terminal's language: ``explicit`` (``--lang``) if given, else the POSIX locale
    variables in gettext's order (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``),
    else English.

    Raises:
        ValueError: ``explicit`` is given but names no supported language.
    """
    if explicit is not None:
        lang = normalize(explicit)
        if lang is None:
            raise ValueError(f"unknown language {explicit!r}; choose one of {', '.join(LANGUAGES)}")
        return lang
    tags: list[str | None] = []
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            tags.extend(value.split(":"))
            break
    return negotiate(tags)


@functools.cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalogue of ``lang`` (English: the identity).

    Raises:
        ValueError: ``lang`` is not one of :data:`LANGUAGES`.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    with open(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo", "rb") as fp:
        return _gettext.GNUTranslations(fp)


def gettext(lang: str, message: str) -> str:
    """``message`` (English interface text) in ``lang``; itself if not in the catalogue."""
    return translations(lang).gettext(message)


def pgettext(lang: str, context: str, message: str) -> str:
    """``message`` of ``context`` (``"log"``, ``"term"``) in ``lang``; itself if absent."""
    return translations(lang).pgettext(context, message)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of a message that fits the count ``n`` in ``lang`` (gettext plurals:
    English ``singular`` for 1 and ``plural`` otherwise; Japanese and Korean have one
    form); the English form if the catalogue lacks it."""
    return translations(lang).ngettext(singular, plural, n)


def has_plural(lang: str, singular: str) -> bool:
    """True if ``lang``'s catalogue holds the plural message ``singular``; English holds
    all."""
    if lang == DEFAULT:
        return True
    catalog = translations(lang)._catalog  # type: ignore[attr-defined]
    return (singular, 0) in catalog


def has(lang: str, context: str | None, message: str) -> bool:
    """True if ``lang``'s catalogue holds ``message`` (of ``context``); English holds all."""
    if lang == DEFAULT:
        return True
    catalog = translations(lang)._catalog  # type: ignore[attr-defined]
    key = message if context is None else f"{context}\x04{message}"
    return key in catalog


class Translator:
    """The catalogue of one language, bound: ``tr("Your turn")``, ``tr("{0} wins", 1)``.

    Args:
        lang: one of :data:`LANGUAGES`.
    """

    def __init__(self, lang: str = DEFAULT) -> None:
        translations(lang)  # validates
        self.lang = lang

    def __call__(self, message: str, *args: object, **kwargs: object) -> str:
        """``message`` translated, then formatted with ``args``/``kwargs`` if any (in
        Korean, each particle then fits the word before it: :mod:`porphyra.i18n.korean`)."""
        text = gettext(self.lang, message)
        text = text.format(*args, **kwargs) if args or kwargs else text
        if self.lang == "ko":
            from porphyra.i18n.korean import particles

            text = particles(text)
        return text

    def n(self, singular: str, plural: str, count: int, *args: object) -> str:
        """The form of a message that fits ``count`` (:func:`ngettext`), translated and
        formatted with ``args`` (Korean particles fitted): ``tr.n("{0} card", "{0}
        cards", 3, 3)`` → ``"3 cards"``, ``"3枚"``."""
        text = ngettext(self.lang, singular, plural, count)
        text = text.format(*args) if args else text
        if self.lang == "ko":
            from porphyra.i18n.korean import particles

            text = particles(text)
        return text

    def term(self, text: str) -> str:
        """A game term (context ``"term"``) translated, itself if not catalogued."""
        return pgettext(self.lang, "term", text)


@functools.cache
def catalogue_json(lang: str) -> dict[str, object]:
    """``lang``'s catalogue for the browser: ``{"lang", "languages": {code: native name},
    "messages": {English: translation}, "terms": {English term: translation}, "log":
    {log template: translation}, "plurals": {English singular: [form, ...]}}`` (English:
    empty tables; the page falls back to the English text; a plural's form is chosen by
    the language's rule, one form in Japanese and Korean).  The page renders the games'
    log from its messages (an id, which is a ``log`` template, plus arguments) with these
    tables (``I18N.message``).

    Raises:
        ValueError: ``lang`` is not one of :data:`LANGUAGES`.
    """
    catalog: dict[str, str] = getattr(translations(lang), "_catalog", {})
    messages: dict[str, str] = {}
    terms: dict[str, str] = {}
    log: dict[str, str] = {}
    plurals: dict[str, list[str]] = {}
    for key, value in catalog.items():
        if isinstance(key, tuple):  # a plural message: (singular, form index)
            singular, index = key
            forms = plurals.setdefault(singular, [])
            forms.extend([""] * (index + 1 - len(forms)))
            forms[index] = value
            continue
        if not isinstance(key, str) or not key:
            continue  # the header (msgid "")
        if "\x04" in key:
            context, message = key.split("\x04", 1)
            if context == "term":
                terms[message] = value
            elif context == "log":
                log[message] = value
        else:
            messages[key] = value
    return {
        "lang": lang,
        "languages": dict(NATIVE_NAMES),
        "messages": messages,
        "terms": terms,
        "log": log,
        "plurals": plurals,
    }


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now (it is translated
    where it is shown); returns it unchanged."""
    return message
