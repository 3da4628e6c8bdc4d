"""Game log lines and error messages in the reader's language, rendered from the English
text at view time: the compatibility path.

The games' log and the refusals travel as messages (an id plus arguments,
:mod:`porphyra.core.messages`, rendered by :mod:`porphyra.i18n.messages`); this module is
for the texts that come without them: a line of a game whose engine gives no
``log_messages``, a refusal that is still a plain English text.  It also serves the tests
as an independent reading of the English lines (a message renders as its line matches).

The engines log English text (it is part of records' replays and golden playthroughs and
never changes).  The catalogue's context ``"log"`` holds every line's English template
(``msgid``, with ``{0}``, ``{1}``... for the variable parts) and its translations.  A line
is matched against the templates (the one with the most fixed text first); each variable
part is then rendered in turn: a game term (context ``"term"``: card names, Ages, colours,
roles...), a Location's name for its slug (:mod:`porphyra.i18n.names`; lord ids are terms),
a shorter template (``"seat {0}"``, ``"{0} ({1} removed from the game)"``...), a list of
those (``", "``, ``"; "``), or kept as it is (numbers, ruling ids).  English lines keep
their ids here; the edges name them (:func:`porphyra.i18n.names.name_ids`, the pages'
``nameSeats``).  A translated line is therefore a function of the English line
alone: it says exactly what the English line says to the same reader, nothing more.

Error messages (the refusals a player can provoke: bad notation, an illegal or stale move,
not your turn) work the same way with the context ``"error"``, except that a variable part
the catalogue does not know stays as it is: it is the player's own text or notation.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from porphyra.i18n import DEFAULT, has, pgettext, translations
from porphyra.i18n.names import name_of

_FIELD = re.compile(r"\{(\d+)\}")
#: What a variable part may be left as (no words to translate): numbers, signs, notation
#: ids (``red4``, ``l5-pearl``, ``count-blue``), ruling ids (``B-R7``), unit letters.
_VERBATIM = re.compile(
    r"[-+]?[0-9]+|[a-z0-9]+(?:-[a-z0-9]+)*|[BCS]-R[0-9]+|IP|LT|TT|STACK|KEY|PEARL|MIL|SIX|COAL"
    r"|'[^'\s]*'"
)
#: How the English log lists things (Byzantium's Legacy parts: ``+1 (TT gained) +2 (...)``),
#: tried in this order, and each language's own separators.
_SEPARATORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(?<=\)) (?=[-+][0-9])"), " "),
    (re.compile("; "), "; "),
    (re.compile(", "), ", "),
)
_LIST_JOIN = {"ja": {", ": "、", "; ": "；"}}
#: Least fixed text (characters) an error template needs before a variable part it cannot
#: translate is kept as the player's own text.  Below it (``"{0} or {1}"``, ``"{0}: {1}"``)
#: a template would match any English sentence with an "or" or a colon in it and translate
#: only that word ("a valid list または tuple"); those parts must translate or be notation.
_ECHO_MIN_FIXED = 8


@dataclass(frozen=True, slots=True)
class Template:
    """One catalogued log template: its English text and the regex that reads a line."""

    text: str
    pattern: re.Pattern[str]
    fixed: int


def _compile(text: str) -> Template:
    parts = []
    pos = 0
    for m in _FIELD.finditer(text):
        parts.append(re.escape(text[pos : m.start()]))
        parts.append(f"(?P<f{m.group(1)}>.+?)")
        pos = m.end()
    parts.append(re.escape(text[pos:]))
    fixed = len(_FIELD.sub("", text))
    return Template(text, re.compile("".join(parts), re.DOTALL), fixed)


@functools.cache
def templates(context: str = "log") -> tuple[Template, ...]:
    """Every template of ``context`` (``"log"``, ``"error"``) in the catalogue, most fixed
    text first (the Japanese catalogue is the reference: the completeness test keeps all
    catalogues equal)."""
    catalog = translations("ja")._catalog  # type: ignore[attr-defined]
    prefix = context + "\x04"
    texts = [k.split("\x04", 1)[1] for k in catalog if isinstance(k, str) and k.startswith(prefix)]
    return tuple(sorted((_compile(t) for t in texts), key=lambda t: (-t.fixed, t.text)))


def _part(text: str, lang: str, context: str) -> str | None:
    """A variable part in ``lang``, or None if it is words the catalogue does not know."""
    if has(lang, "term", text):
        return pgettext(lang, "term", text)
    named = name_of(text, lang)
    if named is not None:
        return named  # a Location slug (lord ids are terms themselves)
    for sep, english in _SEPARATORS:
        pieces = sep.split(text)
        if len(pieces) > 1:
            done = [_part(piece, lang, context) for piece in pieces]
            if all(p is not None for p in done):
                joiner = _LIST_JOIN.get(lang, {}).get(english, english)
                return joiner.join(p for p in done if p is not None)
    line = _line(text, lang, context)
    if line is not None:
        return line
    if _VERBATIM.fullmatch(text):
        return text
    return None


@functools.lru_cache(maxsize=65536)
def _line(text: str, lang: str, context: str = "log") -> str | None:
    for template in templates(context):
        m = template.pattern.fullmatch(text)
        if m is None:
            continue
        values: list[str] = []
        for index in range(len(m.groupdict())):
            text = m.group(f"f{index}")
            part = _part(text, lang, context)
            if part is None and context == "error" and template.fixed >= _ECHO_MIN_FIXED:
                part = text  # the player's own text or notation
            if part is None:
                break
            values.append(part)
        else:
            return pgettext(lang, context, template.text).format(*values)
    return None


def translate_line(line: str, lang: str) -> str:
    """``line`` (an English log line of either game) in ``lang``; the English line itself
    if English is asked for or the line matches no template (never an error)."""
    if lang == DEFAULT:
        return line
    out = _line(line, lang)
    return line if out is None else out


def is_translated(line: str, lang: str) -> bool:
    """True if every word of ``line`` has a translation in ``lang`` (for the tests)."""
    return lang == DEFAULT or _line(line, lang) is not None


def translate_lines(lines: list[str], lang: str) -> list[str]:
    """:func:`translate_line` of each of ``lines`` (a new list)."""
    return [translate_line(line, lang) for line in lines]


#: Longest error message that is translated (characters): matching the templates takes
#: time that grows faster than the square of the length (0.77 s at 1,000 characters of
#: ": "), so a longer refusal, which echoes a long input, stays as it is.  Most refusals
#: are far shorter; one echoing a long meld (up to about 250 characters) stays English.
MAX_TRANSLATED_ERROR = 200


def translate_error(message: str, lang: str) -> str:
    """An error message (English, from an engine, the server or the terminal) in
    ``lang``; itself if English is asked for, no template matches, or it is longer than
    :data:`MAX_TRANSLATED_ERROR` (so that a client's long junk costs the server little)."""
    if lang == DEFAULT or len(message) > MAX_TRANSLATED_ERROR:
        return message
    out = _line(message, lang, "error")
    return message if out is None else out
