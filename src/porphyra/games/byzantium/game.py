"""``ByzantiumGame``: options, metadata, action parsing and the legal-action cache.

Options (``porphyra.load_game("byzantium", **options)``) are declared once, in
``INFO.options`` (:class:`~porphyra.core.options.GameOption`): ``first_emperor``,
``reveal_first_draws``, ``deck`` (a shipped deck, the newest by default; records name it),
``cards`` (a card file instead of a shipped deck) and ``stacked``.  ``stacked`` puts the
named cards on top of their deck (first = top), the rest shuffled below; only cards usable
from the Early Age can be stacked (later cards are set aside at setup, section 2).

Rules versions (``GameInfo.version``; a record names the version it was played with):

- ``"2"``: B-R11 (the Foe is always asked whether to replace a negotiated card).
- ``"1"``: before B-R11 the replace decision was skipped when the Foe held no fitting card;
  records of version 1 name no deck and were all played with deck ``v1``.  They replay
  exactly as they were played (:meth:`ByzantiumGame.for_version`).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from porphyra.core.errors import IllegalActionError, UnknownGameError
from porphyra.core.game import Action, Game, GameInfo, JSONDict, State
from porphyra.core.messages import msg
from porphyra.core.options import GameOption, check_options
from porphyra.games.byzantium import melds
from porphyra.games.byzantium.actions import VERBS, make_action, parse
from porphyra.games.byzantium.cards import (
    DECKS_SHIPPED,
    DEFAULT_DECK,
    Card,
    CardSet,
    load_cards,
    load_deck,
)
from porphyra.games.byzantium.legal import ActionBuilder
from porphyra.games.byzantium.ranked import meld_traits
from porphyra.games.byzantium.state import DECK_NAMES, ByzantiumState

INFO = GameInfo(
    name="byzantium",
    version="2",
    long_name="Byzantium",
    min_players=2,
    max_players=2,
    information="imperfect",
    chance="sampled",
    utility="zero_sum",
    min_utility=-1.0,
    max_utility=1.0,
    max_game_length=12 * 8,
    options=(
        GameOption(
            "first_emperor",
            "int",
            0,
            "The seat that is the first Emperor (rules section 1); random: drawn from the seed.",
            label="First Emperor",
            choices=(0, 1, "random"),
            choice_labels=("Seat 1", "Seat 2", "Random"),
            seat=True,
        ),
        GameOption(
            "reveal_first_draws",
            "bool",
            False,
            "Variant: the first 4 cards a player draws are shown to the opponent (section 4).",
            label="Reveal first draws",
        ),
        GameOption(
            "deck",
            "str",
            DEFAULT_DECK,
            "The shipped card set to play with (section 6); the newest by default.",
            label="Card set",
            choices=DECKS_SHIPPED,
        ),
        GameOption(
            "cards",
            "path",
            None,
            "A card-list file to play with instead of a shipped deck (not with deck).",
            lobby=False,
        ),
        GameOption(
            "stacked",
            "mapping",
            None,
            'Cards on top of the decks, first = top: {"byzantine": [slug, ...], '
            '"foe": [slug, ...]} (Early Age cards only).',
            cli=False,
            lobby=False,
        ),
    ),
)

_CACHE_LIMIT = 200_000
#: Rules versions whose records still replay, each with its differences from the current.
RULES_VERSIONS = ("1", "2")


class ByzantiumGame(Game):
    """Byzantium with fixed options (see the module docstring).

    Raises (on construction):
        UnknownGameError: an unknown option or an invalid option value.
        CardDataError: the ``cards`` file does not validate.
    """

    info = INFO

    def __init__(self, **options: Any) -> None:
        values = check_options("byzantium", INFO.options, options)
        cards_path: str | None = values["cards"]
        deck: str | None = values["deck"]
        if cards_path is not None:
            if options.get("deck") is not None:
                raise UnknownGameError(
                    "give either deck (a shipped deck) or cards (a file), not both"
                )
            deck = None  # the card file replaces the shipped decks
        first: int | str = values["first_emperor"]
        reveal: bool = values["reveal_first_draws"]
        self.deck: str | None = deck
        self.cardset: CardSet = load_cards(cards_path) if cards_path else load_deck(str(deck))
        #: The card file as an absolute path: a pickled game (a worker process of a
        #: tournament) reads it again from any working directory.
        self.cards_file: str | None = os.path.abspath(cards_path) if cards_path else None
        self._rules_version = INFO.version
        #: B-R11: ask the Foe about a replacement even when no card fits (rules version 2).
        self.always_ask_replace = True
        self.first_emperor: int | str = first
        self.reveal_first_draws: bool = reveal
        self.stacked: dict[str, list[str]] = self._check_stacked(values["stacked"])
        # Records name the deck (also the default one) and every other non-default option.
        defaults = {o.name: o.default for o in INFO.options}
        self.options = {
            k: v for k, v in {**values, "deck": deck}.items() if v != defaults[k] or k == "deck"
        }
        if deck is None:
            del self.options["deck"]
        self._actions: dict[tuple[str, tuple[int, ...]], Action] = {}
        #: The sorted card kinds of every action the builders made, by ``id``: the interned
        #: actions stay alive in ``_actions`` (both are cleared together), so an id here is
        #: always that of a live interned action; other objects find nothing.
        self.kinds_of: dict[int, tuple[int, ...]] = {}
        cardset = self.cardset

        def make(verb: str, kinds: tuple[int, ...]) -> Action:
            return make_action(verb, kinds, cardset)

        #: The interned-action builder of each verb (see :meth:`action_builder`).
        self.builders: dict[str, ActionBuilder] = {
            verb: ActionBuilder(verb, make, self._actions, self.kinds_of, _CACHE_LIMIT)
            for verb in VERBS
        }
        #: ``usable_in_age[age][kind]``: whether the card may be held in ``age`` (B-R1).
        self.usable_in_age: tuple[tuple[bool, ...], ...] = tuple(
            tuple(c.usable_in(age) for c in self.cardset.cards) for age in range(3)
        )
        #: Per deck, ``(type index, natural)`` of each card kind, for the meld tables.
        self.meld_traits = [meld_traits(self.cardset, deck) for deck in DECK_NAMES]

    @property
    def rules_version(self) -> str:
        """The rules version played: ``"2"``, or ``"1"`` to replay an old record."""
        return self._rules_version

    @classmethod
    def for_version(cls, version: str, options: dict[str, Any]) -> ByzantiumGame:
        """The game that replays a record of rules ``version`` played with ``options``.

        Version ``"1"`` (before B-R11 and deck versioning): deck ``v1`` unless the record
        names a card file, and the replace decision skipped when no card fits.

        Raises:
            UnknownGameError: an unknown rules version, or invalid options.
        """
        if version == INFO.version:
            return cls(**options)
        if version != "1":
            raise UnknownGameError(
                f"unknown byzantium rules version {version!r}; known: {', '.join(RULES_VERSIONS)}"
            )
        if "deck" in options:
            raise UnknownGameError("records of rules version 1 name no deck")
        game = cls(**options) if options.get("cards") else cls(**options, deck="v1")
        game._rules_version = "1"
        game.always_ask_replace = False
        game.options.pop("deck", None)  # version-1 records name no deck: v1 is implied
        return game

    def _check_stacked(self, stacked: Any) -> dict[str, list[str]]:
        if stacked is None:
            return {}
        if not isinstance(stacked, dict) or set(stacked) - set(DECK_NAMES):
            raise UnknownGameError("stacked must be {'byzantine': [slug, ...], 'foe': [slug, ...]}")
        for deck, slugs in stacked.items():
            if not isinstance(slugs, list) or not all(isinstance(s, str) for s in slugs):
                raise UnknownGameError(f"stacked[{deck!r}] must be a list of card slugs")
            for slug, n in Counter(slugs).items():
                card = self.cardset.by_slug.get(slug)
                if card is None or card.deck != deck:
                    raise UnknownGameError(f"stacked: {slug!r} is not a card of the {deck} deck")
                if card.first_age != 0:
                    raise UnknownGameError(
                        f"stacked: {slug!r} enters in a later Age and is set aside at setup"
                    )
                if n > card.copies:
                    raise UnknownGameError(
                        f"stacked: {n} copies of {slug!r}, the deck has {card.copies}"
                    )
        return {deck: list(slugs) for deck, slugs in stacked.items()}

    @property
    def num_players(self) -> int:
        """Always 2."""
        return 2

    def new_initial_state(self, seed: int = 0) -> ByzantiumState:
        """Shuffle the Early decks with ``seed``, set later cards aside, deal turn 1's Draw
        and Age phases, and return the state at the first decision (the Emperor's redraw).

        Raises:
            TypeError: ``seed`` is not an integer.
        """
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an integer, not {seed!r}")
        state = ByzantiumState(self, seed)
        first = self.first_emperor
        if first == "random":
            first = random.Random(f"byzantium-first-emperor/{seed}").randrange(2)
        assert isinstance(first, int)
        state._setup(first, self.stacked)
        return state

    def parse_action(self, state: State, text: str, player: int | None = None) -> Action:
        """Parse ``text`` (section 7 notation) as a decision of ``player`` (default: the
        current player) in ``state``.

        Raises:
            InvalidActionError: malformed text or an unknown card.
            IllegalActionError: well formed but not legal now (the message names why:
                wrong phase, not your turn, card not in hand, meld over a limit…).
        """
        action = parse(text, self.cardset)
        if not isinstance(state, ByzantiumState):
            raise IllegalActionError(msg("not a Byzantium state"))
        state.check_legal(action, player)
        return action

    def card(self, slug: str) -> Card:
        """The card kind ``slug``.

        Raises:
            KeyError: no such card in this game's card set.
        """
        return self.cardset.by_slug[slug]

    def cards(self) -> list[Card]:
        """Every card kind, in card-list order (``copies`` gives the count)."""
        return list(self.cardset.cards)

    def card_data(self) -> JSONDict:
        """The card set, JSON-ready: ``{"cards": {slug: {name, deck, type, force, ages,
        unique, legacy, natural}}, "limits": {deck: {type: n}}, "max_natural",
        "redraw_limit"}`` (meld limits of section 3, B-R10 redraw limit)."""
        return {
            "cards": {
                c.slug: {
                    "name": c.name,
                    "deck": c.deck,
                    "type": c.type,
                    "force": c.force,
                    "ages": c.ages,
                    "unique": c.unique,
                    "legacy": c.legacy,
                    "natural": c.natural,
                }
                for c in self.cardset.cards
            },
            "limits": melds.LIMITS,
            "max_natural": melds.MAX_NATURAL_DISASTERS,
            "redraw_limit": melds.REDRAW_LIMIT,
        }

    def pickle_options(self) -> dict[str, Any]:
        """:meth:`record_options`, with a card file named by its absolute path (see
        :attr:`cards_file`)."""
        options = self.record_options()
        if self.cards_file is not None:
            options["cards"] = self.cards_file
        return options

    # ---------------------------------------------------------- interning (performance)
    def action_builder(self, verb: str) -> Callable[[tuple[int, ...]], Action]:
        """A function from sorted card kinds to the interned action ``verb`` on them (one
        function per verb, made with the game: :attr:`builders`).

        Raises:
            KeyError: ``verb`` is not one of the notation's verbs.
        """
        return self.builders[verb]
