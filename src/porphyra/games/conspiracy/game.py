"""Conspiracy (Abyss universe) for 2-4 players or solo: the game object and its options.

Rules: ``shared/rules/conspiracy.md`` sections 1-6.  The state machine lives in
:mod:`porphyra.games.conspiracy.state`, the solo Legendary Opponent (section 4) in
:mod:`porphyra.games.conspiracy.solo`.

Solo seats (engine ruling S-R5): ``players=1`` makes a game of **one player**
(``num_players == 1``).  The human is seat 0 and is the only seat that ever decides
(``current_player()`` is 0 or terminal; the LO's turn runs inside ``apply_action`` and its
two choices, ``lopile`` / ``loplace``, belong to the human by section 4.2); ``returns()``
has one entry (+1 win, -1 loss, 0 shared victory, C-R11/C-R16).  The LO is seat 1 of the
state's per-seat data: ``scores()`` and ``players`` in observations have two entries, the
LO's score with its ``lo_bonus`` and its face-down Locations at 5 IP each.  So every
interface that iterates ``range(num_players)`` (conformance, bots, simulations) sees one
decision maker, and every display that iterates ``observation["players"]`` sees both
chambers.

Options are declared once, in ``INFO.options`` (:class:`~porphyra.core.options.GameOption`):
``players``, ``opponent`` (solo only), ``first_player``, ``bonus_locations`` and ``stacked``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, SupportsIndex

from porphyra.core.errors import IllegalActionError, UnknownGameError
from porphyra.core.game import Game, GameInfo, JSONDict, State
from porphyra.core.messages import msg
from porphyra.core.options import GameOption, check_options
from porphyra.games.conspiracy.cards import COLOURS, CardSet, default_cards
from porphyra.games.conspiracy.notation import ActionTable, ConspiracyAction, action_table, parse
from porphyra.games.conspiracy.solo import Opponent, default_opponents, opponent_names
from porphyra.games.conspiracy.state import ConspiracyState
from porphyra.games.conspiracy.tables import Tables, tables

#: The ``opponent`` value that draws the Legendary Opponent from the seed.
RANDOM_OPPONENT = "random"
#: The ``first_player`` value that draws the first player from the seed (the default).
RANDOM_FIRST = "random"

INFO = GameInfo(
    name="conspiracy",
    version="1",
    long_name="Conspiracy: Abyss Universe",
    min_players=1,
    max_players=4,
    information="imperfect",
    chance="sampled",
    utility="general_sum",
    min_utility=-1.0,
    max_utility=1.0,
    max_game_length=400,
    options=(
        GameOption(
            "players",
            "int",
            2,
            "Number of players: 2-4, or 1 for solo against a Legendary Opponent (section 4).",
            choices=(1, 2, 3, 4),
            choice_labels=("Solo", "2 players", "3 players", "4 players"),
        ),
        GameOption(
            "opponent",
            "str",
            "random",
            "Solo: the Legendary Opponent; random: drawn from the seed (section 4).",
            choices=(*opponent_names(), RANDOM_OPPONENT),
            choice_labels=(*(n.capitalize() for n in opponent_names()), "Random"),
            requires={"players": 1},
        ),
        GameOption(
            "first_player",
            "int",
            "random",
            "The seat that starts; random: drawn from the seed (solo: only 0, C-R15).",
            label="First player",
            choices=("random", 0, 1, 2, 3),
            choice_labels=("Random", "Seat 1", "Seat 2", "Seat 3", "Seat 4"),
            seat=True,
        ),
        GameOption(
            "bonus_locations",
            "bool",
            False,
            "Variant: shuffle the 5 bonus Locations into the Location deck.",
            label="Bonus Locations",
        ),
        GameOption(
            "stacked",
            "mapping",
            None,
            'Cards on top of the decks, first = top: {"lords": [name, ...], '
            '"locations": [slug, ...]}; the first Location is the one turned face up.',
            cli=False,
            lobby=False,
        ),
    ),
)


def _bad(problem: str) -> UnknownGameError:
    return UnknownGameError(f"conspiracy: {problem}")


class ConspiracyGame(Game):
    """Conspiracy with fixed options (see the module docstring).

    Raises:
        UnknownGameError: an unknown option or an invalid value (e.g. ``players=5``, an
            unknown ``opponent``, ``opponent`` without ``players=1``, ``first_player=1``
            in solo, an unknown or over-used card in ``stacked``).
        CardDataError: the shipped card data does not validate.
    """

    info = INFO

    def __init__(self, **options: Any) -> None:
        values = check_options("conspiracy", INFO.options, options)
        players: int = values["players"]
        self.solo = players == 1
        opponent: str | None = values["opponent"] if self.solo else None
        self.opponents: tuple[Opponent, ...] = default_opponents()
        names = opponent_names()
        #: Index of the LO card in :attr:`opponents`; -1 if drawn from the seed or not solo.
        self.opponent = names.index(opponent) if opponent in names else -1
        first = None if values["first_player"] == RANDOM_FIRST else values["first_player"]
        if first is not None and not first < players:
            raise _bad(f"first_player must be a seat 0..{players - 1}, not {first!r}")
        bonus: bool = values["bonus_locations"]
        self.cards: CardSet = default_cards()
        self.actions: ActionTable = action_table(self.cards)
        self.players = players
        self.first_player: int | None = first
        self.bonus_locations = bonus
        self.location_ids: tuple[int, ...] = tuple(
            i for i, c in enumerate(self.cards.locations) if bonus or not c.bonus
        )
        self.stacked_lords, self.stacked_locations = self._stacked(values["stacked"])
        self.options = {"players": players, "bonus_locations": bonus}
        if self.solo:
            self.options["opponent"] = opponent
        if first is not None:
            self.options["first_player"] = first
        if values["stacked"] is not None:
            self.options["stacked"] = {
                "lords": [self.cards.lords[k].name for k in self.stacked_lords],
                "locations": [self.cards.locations[i].slug for i in self.stacked_locations],
            }

    def _stacked(self, stacked: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if stacked is None:
            return (), ()
        if not isinstance(stacked, Mapping) or set(stacked) - {"lords", "locations"}:
            raise _bad('stacked must be {"lords": [...], "locations": [...]}')
        lords_in, locs_in = stacked.get("lords", []), stacked.get("locations", [])
        if not isinstance(lords_in, list) or not isinstance(locs_in, list):
            raise _bad("stacked lords and locations must be lists of names")
        lords: list[int] = []
        for name in lords_in:
            kind = self.cards.lord_index.get(name) if isinstance(name, str) else None
            if kind is None:
                raise _bad(f"stacked: unknown lord {name!r}")
            lords.append(kind)
            if lords.count(kind) > self.cards.lords[kind].copies:
                raise _bad(f"stacked: more {name} than the {self.cards.lords[kind].copies} copies")
        locs: list[int] = []
        for slug in locs_in:
            loc = self.cards.location_index.get(slug) if isinstance(slug, str) else None
            if loc is None or loc not in self.location_ids:
                raise _bad(f"stacked: unknown location {slug!r} (or a bonus one, not in play)")
            if loc in locs:
                raise _bad(f"stacked: location {slug} twice")
            locs.append(loc)
        return tuple(lords), tuple(locs)

    def card_data(self) -> JSONDict:
        """The card data, JSON-ready (section 1): ``{"colours": [...], "lords": {name:
        {colour, ip, key, pearls, effect}}, "locations": {slug: {ip, effect, bonus,
        text}}}``; ``key`` is ``None``, ``"silver"`` or ``"gold"``, a lord's ``effect``
        ``None``, ``"swap"`` or ``"reveal"``, a Location's ``text`` its effect in words."""
        return {
            "colours": list(COLOURS),
            "lords": {
                lord.name: {
                    "colour": COLOURS[lord.colour],
                    "ip": lord.ip,
                    "key": {0: None, 1: "silver", 2: "gold"}.get(lord.key),
                    "pearls": lord.pearls,
                    "effect": {0: None, 1: "swap", 2: "reveal"}.get(lord.effect),
                }
                for lord in self.cards.lords
            },
            "locations": {
                loc.slug: {"ip": loc.ip, "effect": loc.effect, "bonus": loc.bonus, "text": loc.text}
                for loc in self.cards.locations
            },
        }

    @property
    def num_players(self) -> int:
        """Number of deciding seats (the ``players`` option; 1 in solo, S-R5)."""
        return self.players

    @property
    def seats(self) -> int:
        """Number of chambers (per-seat data): ``players``, or 2 in solo (you and the LO)."""
        return 2 if self.solo else self.players

    def new_initial_state(self, seed: int = 0) -> ConspiracyState:
        """The setup of section 2 for ``seed`` (decks shuffled, one Location face up).

        Raises:
            TypeError: ``seed`` is not an integer.
        """
        if type(seed) is not int:
            raise TypeError(f"seed must be an integer, not {seed!r}")
        return ConspiracyState.initial(self, seed)

    def state_tables(self) -> tuple[Tables, ActionTable]:
        """The lookup tables and interned actions of this game's cards, for its states
        (looked up once per game object: the card set is a large value to hash)."""
        cached: tuple[Tables, ActionTable] | None = self.__dict__.get("_state_tables")
        if cached is None:
            cached = self.__dict__["_state_tables"] = (
                tables(self.cards),
                action_table(self.cards),
            )
        return cached

    def parse_action(
        self, state: State, text: str, player: SupportsIndex | None = None
    ) -> ConspiracyAction:
        """Parse ``text`` (section 6) for ``player`` (default: the current player).

        Raises:
            InvalidActionError: malformed text (unknown verb, lord, colour, Location; bad
                count or slot).
            IllegalActionError: well formed but not legal now (not your turn, wrong phase,
                not offered).
        """
        action = parse(self.actions, text, solo=self.solo)
        if not isinstance(state, ConspiracyState):
            raise IllegalActionError(msg("not a Conspiracy state"))
        if player is not None and state._seat(player) != state.current_player():
            raise IllegalActionError(
                msg("not your turn: seat {0} decides now", state.current_player())
            )
        state.check_legal(action)
        return action
