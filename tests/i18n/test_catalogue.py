"""The catalogues are complete: every message the code, the pages, the lobby options and
the card data need is translated in Japanese and Korean, with no fuzzy or empty entry and
the same placeholders as the English; the shipped ``.mo`` files are the compiled ``.po``."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from porphyra.i18n import LOCALE_DIR, Translator, catalogue_json, has, has_plural
from porphyra.i18n.build import compiled, read_catalog
from porphyra.i18n.extract import (
    code_messages,
    needed,
    option_messages,
    plural_messages,
    script_messages,
    term_messages,
)

TRANSLATED = ("ja", "ko")


def fields(text: str) -> set[str]:
    """The placeholder names of a :meth:`str.format` template (``{0}``, ``{a}``...)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module", params=TRANSLATED)
def catalog(request: pytest.FixtureRequest) -> Catalog:
    return read_catalog(request.param)


def test_every_needed_message_is_translated() -> None:
    wanted = needed()
    # The extraction finds what the pages and the terminal show (a sample of each kind).
    assert (None, "Create game") in wanted  # lobby page (data-i18n)
    assert (None, "Build your meld — click cards in your hand") in wanted  # game.js t()
    assert (None, "Game over") in wanted  # terminal tr() / styled()
    assert (None, "Variant: shuffle the 5 bonus Locations into the Location deck.") in wanted
    assert ("term", "Hagia Sophia") in term_messages() and ("term", "red4") in wanted
    assert len(code_messages()) > 250 and option_messages()
    assert (None, "Byzantine") in script_messages()  # t() inside a template literal
    for lang in TRANSLATED:
        missing = sorted(f"{c or ''}|{m}" for c, m in wanted if not has(lang, c, m))
        assert missing == [], f"{lang}: {len(missing)} messages lack a translation: {missing}"


def test_no_entry_is_empty_fuzzy_or_with_other_placeholders(catalog: Catalog) -> None:
    problems = []
    for message in catalog:
        if not message.id:
            continue  # the header
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        forms = [message.string] if isinstance(message.string, str) else list(message.string or ())
        text = message.string if isinstance(message.string, str) else forms[0]
        if not all(forms):
            text = ""
        where = f"{catalog.locale} {message.context or ''}|{msgid}"
        if message.fuzzy:
            problems.append(f"fuzzy: {where}")
        if not text:
            problems.append(f"untranslated: {where}")
        elif fields(text) != fields(msgid):
            problems.append(f"placeholders {fields(text)} != {fields(msgid)}: {where}")
    assert problems == []


def test_counts_read_in_each_languages_plural_forms() -> None:
    """No "card(s)": a count takes the form that fits it (gettext plurals), in the
    terminal and in the pages' catalogue, and every plural message is translated."""
    wanted = plural_messages()
    assert ("Meld {0} card", "Meld {0} cards") in wanted  # game.js tn()
    assert ("{0} pearl", "{0} pearls") in wanted  # the terminal's trn()
    for lang in TRANSLATED:
        assert sorted(s for s, _ in wanted if not has_plural(lang, s)) == [], lang
    english, japanese = Translator("en"), Translator("ja")
    assert english.n("{0} pearl", "{0} pearls", 1, 1) == "1 pearl"
    assert english.n("{0} pearl", "{0} pearls", 3, 3) == "3 pearls"
    assert japanese.n("{0} pearl", "{0} pearls", 3, 3) == "真珠3個"
    assert Translator("ko").n("Meld {0} card", "Meld {0} cards", 8, 8) == "8장 멜드하기"
    plurals = catalogue_json("ja")["plurals"]
    assert isinstance(plurals, dict) and plurals["Meld {0} card"] == ["{0}枚をメルドする"]
    assert not any("(s)" in s for pair in wanted for s in pair)


def test_japanese_and_korean_hold_the_same_messages() -> None:
    ja, ko = ({(m.context, m.id) for m in read_catalog(lang) if m.id} for lang in TRANSLATED)
    assert ja == ko


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_shipped_mo_files_are_the_compiled_po_sources(lang: str) -> None:
    mo = Path(LOCALE_DIR / lang / "LC_MESSAGES" / "porphyra.mo").read_bytes()
    assert mo == compiled(lang), "run python -m porphyra.i18n.build after editing a .po"


def test_a_missing_translation_is_reported() -> None:
    """The check above would fail: a message the code needs but a catalogue lacks."""
    assert not has("ja", None, "A sentence nobody translated")
    assert not has("ko", "term", "Unheard-of Card")
    assert has("en", None, "A sentence nobody translated")  # English is the source
