"""Every message the interface needs, found in the code and the game data (Babel's
extractors for the Python ``tr("...")`` and JavaScript ``t("...")`` calls).

:func:`needed` is what the catalogues must hold (the completeness test compares it with
every ``.po`` file; ``python -m porphyra.i18n.build --update`` adds what is missing, with
an empty translation, for a translator to fill in).
"""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path

from babel.messages.extract import extract_from_dir

PACKAGE = Path(__file__).resolve().parent.parent
STATIC = PACKAGE / "server" / "static"

#: A message: ``(context, msgid)``; context None is interface text.
Message = tuple[str | None, str]
#: A message with plural forms: ``(singular, plural)`` (interface text).
Plural = tuple[str, str]
#: The plural calls of the code: Python's ``trn()`` and the pages' ``tn()``.
_PLURAL_KEYWORDS = {"trn": (1, 2), "tn": (1, 2)}


def code_messages() -> set[Message]:
    """The literal messages of the code: the first argument of ``tr()`` (Python) and
    ``t()`` (the pages' scripts), of the no-op marker ``N_()`` (texts translated later) and
    the second of ``styled()``; and the text of the pages' ``data-i18n`` elements (and
    their ``data-i18n-placeholder`` / ``data-i18n-title`` attributes)."""
    found: set[Message] = set()
    for method, keyword in (("python", "tr"), ("javascript", "t")):
        pattern = "**.py" if method == "python" else "server/static/**.js"
        for _file, _line, message, _comments, context in extract_from_dir(
            str(PACKAGE),
            method_map=[(pattern, method)],
            keywords={keyword: None, "N_": None, "styled": (2,)},
        ):
            text = message if isinstance(message, str) else message[0]
            if text:
                found.add((context, text))
    found -= {(None, singular) for singular, _plural in plural_messages()}
    for page in STATIC.glob("*.html"):
        reader = _Marked()
        reader.feed(page.read_text(encoding="utf-8"))
        found.update((None, text) for text in reader.found)
    return found


class _Marked(html.parser.HTMLParser):
    """Collects the texts a page marks for translation."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()
        self._open: list[bool] = []
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        for attr in ("data-i18n-placeholder", "data-i18n-title", "data-i18n-aria-label"):
            value = names.get(attr)
            if value:
                self.found.add(value)
        if tag in ("input", "br", "meta", "link"):
            return
        marked = "data-i18n" in names
        self._open.append(marked)
        if marked:
            self._text = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("input", "br", "meta", "link") or not self._open:
            return
        if self._open.pop():
            text = "".join(self._text).strip()
            if text:
                self.found.add(text)

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1]:
            self._text.append(data)


def plural_messages() -> set[Plural]:
    """The messages with plural forms: ``(singular, plural)`` of every ``trn(...)`` call
    (Python) and ``tn(...)`` call (the pages' scripts)."""
    found: set[Plural] = set()
    for method, pattern in (("python", "**.py"), ("javascript", "server/static/**.js")):
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(PACKAGE), method_map=[(pattern, method)], keywords=_PLURAL_KEYWORDS
        ):
            if isinstance(message, tuple) and len(message) == 2 and all(message):
                found.add((str(message[0]), str(message[1])))
    return found


def option_messages() -> set[Message]:
    """Every game's long name and short name, and the labels, help texts and choice labels
    of its lobby and command-line options (the page shows them as ``/api/meta`` gives
    them, translated; ``porphyra play --help`` shows the command-line ones)."""
    from porphyra.core import registry
    from porphyra.core.options import options_of

    found: set[Message] = set()
    for name in registry.registered_games():
        long_name = registry.game_info(name).long_name
        found.update({(None, long_name), (None, long_name.split(":")[0])})
        declared = registry.game_info(name).options
        for option in [*options_of(declared, "lobby"), *options_of(declared, "cli")]:
            data = option.to_json()
            for text in (data.get("label"), data.get("help"), *data.get("choice_labels", [])):
                if isinstance(text, str) and text and not text.isdigit():
                    found.add((None, text))
    return found


def term_messages() -> set[Message]:
    """The game terms shown as data: every card name and type of every shipped Byzantium
    deck, the Conspiracy colours, lords, Location names and effects, Legendary Opponents (names,
    titles, conditions, bonuses, abilities)."""
    from porphyra.bots import bot_names
    from porphyra.games.byzantium.cards import default_cards_path
    from porphyra.games.conspiracy import solo
    from porphyra.games.conspiracy.cards import DATA_DIR
    from porphyra.i18n.names import LOCATION_NAMES

    terms: set[str] = {"Byzantine", "Foe", "byzantine", "foe", "natural", "nothing", "none"}
    terms.update({"Early", "Middle", "Late", "early", "middle", "late", "the LO", "no pile"})
    for deck in sorted(default_cards_path().parent.glob("deck-*.json")):
        data = json.loads(deck.read_text(encoding="utf-8"))
        terms.add(data["name"])  # the deck's own name (its provenance note stays English)
        for card in data["cards"]:
            terms.update((card["name"], card["type"]))
    data = DATA_DIR
    for lord in json.loads((data / "lords.json").read_text(encoding="utf-8"))["lords"]:
        terms.update((lord["colour"], f"{lord['colour']}{lord['ip']}"))
    for loc in json.loads((data / "locations.json").read_text(encoding="utf-8"))["locations"]:
        if loc["text"]:
            terms.add(loc["text"])
    terms.update(LOCATION_NAMES.values())  # the Locations' names (never their slugs)
    terms.update(bot_names())  # the bots' levels ("easy"), shown in seat names and badges
    for opponent in solo.load_opponents(data / "legendary_opponents.json"):
        terms.update((opponent.name, opponent.title, opponent.bonus_text, opponent.ability_text))
        for condition in opponent.conditions:
            text = solo.CONDITION_TEXT[condition]
            terms.update((text, f"{condition}: {text}"))
    return {("term", text) for text in terms}


def script_messages() -> set[Message]:
    """The literal ``t("...")`` calls of the pages' scripts found by a plain search, for
    those Babel's JavaScript extractor does not reach (a call inside a template literal's
    ``${...}``)."""
    found: set[Message] = set()
    for script in STATIC.glob("*.js"):
        for call in re.finditer(r'\bt\("((?:[^"\\]|\\.)*)"', script.read_text("utf-8")):
            found.add((None, json.loads(f'"{call.group(1)}"')))
    return found


def needed() -> set[Message]:
    """Everything the catalogues must translate (code, options and terms; the log
    templates are checked against played games by the tests)."""
    return code_messages() | script_messages() | option_messages() | term_messages()
