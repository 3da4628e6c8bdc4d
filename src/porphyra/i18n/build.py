"""Compile the catalogues: ``python -m porphyra.i18n.build`` (after editing a ``.po``).

Reads each ``locale/LANG/LC_MESSAGES/porphyra.po`` with Babel and writes the ``.mo`` beside
it (the files that ship and that :func:`porphyra.i18n.translations` reads).  Fuzzy
entries are left out, as gettext's ``msgfmt`` does.  ``--update`` first adds to every
``.po`` the messages the code needs but it lacks (:func:`porphyra.i18n.extract.needed`),
untranslated, for a translator to fill in (the tests fail until then).
"""

from __future__ import annotations

import io
import sys

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from porphyra.i18n import DEFAULT, DOMAIN, LANGUAGES, LOCALE_DIR


def po_path(lang: str) -> str:
    """The ``.po`` source of ``lang`` (a path string)."""
    return str(LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po")


def read_catalog(lang: str) -> Catalog:
    """The Babel catalogue parsed from ``lang``'s ``.po`` source."""
    with open(po_path(lang), "rb") as fp:
        return read_po(fp, locale=lang)


def compiled(lang: str) -> bytes:
    """``lang``'s ``.po`` source compiled to ``.mo`` bytes (deterministic)."""
    out = io.BytesIO()
    write_mo(out, read_catalog(lang), use_fuzzy=False)
    return out.getvalue()


def update(lang: str) -> int:
    """Add to ``lang``'s ``.po`` every needed message it lacks (untranslated); returns how
    many were added."""
    from porphyra.i18n.extract import needed, plural_messages

    catalog = read_catalog(lang)
    added = 0
    for context, message in sorted(needed(), key=lambda m: (m[0] or "", m[1])):
        if catalog.get(message, context=context) is None:
            catalog.add(message, "", context=context)
            added += 1
    for singular, plural in sorted(plural_messages()):
        if catalog.get(singular) is None:
            catalog.add((singular, plural), ("",) * catalog.num_plurals)
            added += 1
    if added:
        with open(po_path(lang), "wb") as fp:
            write_po(fp, catalog, width=100)
    return added


def main(argv: list[str] | None = None) -> int:
    """Write every ``.mo`` from its ``.po`` (``--update``: add missing messages first);
    returns the exit code (0)."""
    args = sys.argv[1:] if argv is None else argv
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        if "--update" in args:
            print(f"{lang}: {update(lang)} new untranslated messages")
        target = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.write_bytes(compiled(lang))
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
