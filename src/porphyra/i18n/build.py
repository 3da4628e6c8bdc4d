"""Compile the catalogues: ``python -m porphyra.i18n.build`` (after editing a ``.po``).

Reads each ``locale/LANG/LC_MESSAGES/porphyra.po`` with Babel and writes the ``.mo`` beside
it (the files that ship and that :func:`porphyra.i18n.translations` reads).  Fuzzy
entries are left out, as gettext's ``msgfmt`` does.
"""

from __future__ import annotations

import io
import sys

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

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


def main() -> int:
    """Write every ``.mo`` from its ``.po``; returns the exit code (0)."""
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        target = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.write_bytes(compiled(lang))
        print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
