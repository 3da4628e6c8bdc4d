"""Typed Byzantium moves: hand numbers, printed names and unique slug prefixes read as the
cards' slugs (``meld 1 3 4``, ``redraw inf chron``, ``target Basil II``), for the terminal's
move prompt (:meth:`porphyra.cli.byzantium_view.ByzantiumView.expand_input`).
"""

from __future__ import annotations

from collections.abc import Sequence

from porphyra.cli.byzantium_cards import slugify
from porphyra.cli.lang import tr
from porphyra.cli.views import Obs, ascii_number
from porphyra.core.errors import InvalidActionError


def _card_words(words: list[str], candidates: Sequence[str]) -> list[str]:
    """``words`` grouped into cards: at each word the longest run of words whose slug is
    one of ``candidates`` ("Imperial Fleet"), else the word alone (a number, a slug or a
    prefix)."""
    known = set(candidates)
    out: list[str] = []
    i = 0
    while i < len(words):
        for j in range(len(words), i + 1, -1):
            run = " ".join(words[i:j])
            if slugify(run.replace("'", "").replace("’", "")) in known:
                out.append(run)
                i = j
                break
        else:
            out.append(words[i])
            i += 1
    return out


def expand_card_input(text: str, obs: Obs) -> str:
    """Rewrite hand numbers and unique slug prefixes of typed move ``text`` into slugs,
    spaces into commas, for the seat whose observation is ``obs``.

    ``meld 1 3 4`` -> ``meld justinian-i,cavalry,infantry``; ``redraw inf`` ->
    ``redraw infantry`` (a prefix must match one slug of the candidates: the hand, and for
    ``target`` the Foe meld).  Returns ``text`` unchanged if its one card matches nothing
    (or several): the engine's own refusal then says more.

    Raises:
        InvalidActionError: a hand number beyond the hand (``redraw 99``), or, among
            several cards, one that matches no candidate or several.
    """
    head, _, rest = text.strip().partition(" ")
    verb = head.lower()
    hand: list[str] = list(obs.get("hand") or [])
    candidates = list(hand)
    if verb == "target":
        candidates = list((obs.get("melds") or {}).get("foe", []))
    # Commas separate cards, so a part may be a printed name ("Basil II", "Rus'");
    # without commas the words are read as cards from left to right, the longest run
    # of words that names a card as printed first ("Imperial Fleet 3": two cards).
    args = (
        [p.strip() for p in rest.split(",") if p.strip()]
        if "," in rest
        else _card_words(rest.split(), candidates)
    )
    if not args:
        return text
    if args == ["-"]:
        return f"{verb} -"
    out = []
    for arg in args:
        i = ascii_number(arg)
        if i is not None:
            if not 1 <= i <= len(hand):
                raise InvalidActionError(
                    tr("there is no card number {0} in your hand", i)
                    + (tr(" (1 to {0})", len(hand)) if hand else tr(" (it is empty)"))
                )
            out.append(hand[i - 1])
            continue
        original = arg
        arg = slugify(arg.replace("'", "").replace("’", ""))
        if arg in candidates:
            out.append(arg)
            continue
        matches = sorted({c for c in candidates if c.startswith(arg)})
        if len(matches) == 1:
            out.append(matches[0])
            continue
        if len(args) == 1:  # one card: the engine's own refusal says more
            return text
        # Several cards, one of them unreadable: name it (the engine would only say
        # that a list of cards takes commas).
        if matches:
            raise InvalidActionError(tr("{0!r} could be any of: {1}", original, ", ".join(matches)))
        raise InvalidActionError(tr("no card you can name here is called {0!r}", original))
    return f"{verb} {','.join(out)}"
