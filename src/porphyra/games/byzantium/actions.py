"""Byzantium actions and their text notation (``shared/rules/byzantium.md`` section 7).

| decision | notation |
|---|---|
| Redraw: cards to discard (0-4) | ``redraw infantry,chronicle`` / ``redraw -`` |
| Meld | ``meld justinian-i,cavalry,infantry,tribute`` / ``meld -`` |
| Negotiation target (B-R4) | ``target huns`` / ``target -`` |
| Foe replacement (B-R4) | ``replace avars`` / ``replace -`` |
| End phase: the card kept and passed | ``pass archers`` |

Card lists are comma separated with no spaces; copies of a card share its slug.  Actions
keep their cards in card-list order, so ``meld cavalry,justinian-i`` and
``meld justinian-i,cavalry`` are the same action and print the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from porphyra.core.errors import InvalidActionError
from porphyra.core.game import Action
from porphyra.core.messages import msg
from porphyra.games.byzantium.cards import CardSet

VERBS = ("redraw", "meld", "target", "replace", "pass")
LIST_VERBS = ("redraw", "meld")
MAX_TEXT = 400


@dataclass(frozen=True, slots=True)
class ByzantiumAction(Action):
    """A Byzantium decision.

    Attributes:
        verb: one of :data:`VERBS`.
        cards: the cards named, as slugs in card-list order (empty for ``-``).
        text: the action in notation (``str(action)``) once made; not compared or hashed.
    """

    verb: str
    cards: tuple[str, ...]
    text: str = field(default="", init=False, repr=False, compare=False)

    def __str__(self) -> str:
        # Search keys its tree by the text of each action it meets: made once, when first
        # asked for (playouts that never print an action never pay for it).
        text = self.text
        if not text:
            text = f"{self.verb} {','.join(self.cards) if self.cards else '-'}"
            object.__setattr__(self, "text", text)
        return text


def make_action(verb: str, kinds: tuple[int, ...] | list[int], cardset: CardSet) -> ByzantiumAction:
    """The action ``verb`` on card kinds ``kinds`` (card indices), canonically ordered."""
    slugs = cardset.slugs
    return ByzantiumAction(verb, tuple([slugs[k] for k in sorted(kinds)]))


def parse(text: str, cardset: CardSet) -> ByzantiumAction:
    """Parse notation ``text`` (syntax and card names only; legality is the state's job).

    Raises:
        InvalidActionError: unknown verb, missing or malformed card list, unknown card, or a
            list given where one card is expected.
    """
    if not isinstance(text, str):
        raise InvalidActionError(msg("an action must be text, not {0}", type(text).__name__))
    if len(text) > MAX_TEXT:
        raise InvalidActionError(msg("action text is too long ({0} characters)", len(text)))
    parts = text.strip().split()
    if not parts:
        raise InvalidActionError(msg("empty action; expected one of: {0}", ", ".join(VERBS)))
    verb = parts[0].lower()
    if verb not in VERBS:
        raise InvalidActionError(
            msg("unknown action {0}; expected one of: {1}", repr(parts[0]), ", ".join(VERBS))
        )
    if len(parts) != 2:
        example = "-" if verb != "pass" else "<card>"
        raise InvalidActionError(
            msg(
                "{0} takes exactly one argument (e.g. '{1}'), got {2}",
                repr(verb),
                f"{verb} {example}",
                len(parts) - 1,
            )
        )
    arg = parts[1].lower()
    if arg == "-":
        if verb == "pass":
            raise InvalidActionError(msg("'pass' needs the card to pass, e.g. 'pass archers'"))
        return ByzantiumAction(verb, ())
    slugs = arg.split(",")
    if verb not in LIST_VERBS and len(slugs) > 1:
        raise InvalidActionError(msg("{0} takes a single card, got {1}", repr(verb), len(slugs)))
    kinds: list[int] = []
    for slug in slugs:
        if not slug:
            raise InvalidActionError(
                msg("empty card name in {0} (use commas without spaces)", repr(arg))
            )
        card = cardset.by_slug.get(slug)
        if card is None:
            raise InvalidActionError(msg("unknown card {0}", repr(slug)))
        kinds.append(card.index)
    return make_action(verb, kinds, cardset)
