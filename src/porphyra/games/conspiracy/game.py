"""Conspiracy (Abyss universe) for 2-4 players: the game object and its options.

Rules: ``shared/rules/conspiracy.md`` sections 1-3, 5 and 6 (the solo mode, section 4, is
not implemented; per-seat data is kept in lists so that a Legendary Opponent seat can be
added).  The state machine lives in :mod:`porphyra.games.conspiracy.state`.

Options:
    players: 2, 3 or 4 (default 2).
    first_player: seat that starts (default: drawn from the seed).
    bonus_locations: shuffle the 5 bonus Locations into the Location deck (default False).
    stacked: ``{"lords": ["red4", ...], "locations": ["l7", ...]}``: named cards put on top
        of the shuffled decks, first = top.  The setup's face-up Location is the top card,
        so ``stacked["locations"][0]`` is the one turned face up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from porphyra.core.errors import IllegalActionError, UnknownGameError
from porphyra.core.game import Game, GameInfo, State
from porphyra.games.conspiracy.cards import CardSet, default_cards
from porphyra.games.conspiracy.notation import ActionTable, ConspiracyAction, action_table, parse
from porphyra.games.conspiracy.state import ConspiracyState

INFO = GameInfo(
    name="conspiracy",
    version="1",
    long_name="Conspiracy: Abyss Universe",
    min_players=2,
    max_players=4,
    information="imperfect",
    chance="sampled",
    utility="general_sum",
    min_utility=-1.0,
    max_utility=1.0,
    max_game_length=400,
    options={
        "players": "2-4 (default 2)",
        "first_player": "starting seat (default: drawn from the seed)",
        "bonus_locations": "add the 5 bonus Locations (default false)",
        "stacked": '{"lords": [...], "locations": [...]}: named cards on top, first = top',
        "returns": "winners +1, others -1; 0 for all if every seat shares the victory (C-R11)",
    },
)

_OPTIONS = ("players", "first_player", "bonus_locations", "stacked")


def _bad(problem: str) -> UnknownGameError:
    return UnknownGameError(f"conspiracy: {problem}")


class ConspiracyGame(Game):
    """Conspiracy with fixed options (see the module docstring).

    Raises:
        UnknownGameError: an unknown option or an invalid value (e.g. ``players=1``: the
            solo mode is not implemented; an unknown or over-used card in ``stacked``).
        CardDataError: the shipped card data does not validate.
    """

    info = INFO

    def __init__(self, **options: Any) -> None:
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise _bad(f"unknown option(s) {unknown}; known: {', '.join(_OPTIONS)}")
        players = options.get("players", 2)
        if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 4:
            raise _bad(f"players must be 2, 3 or 4, not {players!r} (solo is not implemented)")
        first = options.get("first_player")
        if first is not None and (
            not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < players
        ):
            raise _bad(f"first_player must be a seat 0..{players - 1}, not {first!r}")
        bonus = options.get("bonus_locations", False)
        if not isinstance(bonus, bool):
            raise _bad(f"bonus_locations must be true or false, not {bonus!r}")
        self.cards: CardSet = default_cards()
        self.actions: ActionTable = action_table(self.cards)
        self.players = players
        self.first_player: int | None = first
        self.bonus_locations = bonus
        self.location_ids: tuple[int, ...] = tuple(
            i for i, c in enumerate(self.cards.locations) if bonus or not c.bonus
        )
        self.stacked_lords, self.stacked_locations = self._stacked(options.get("stacked"))
        self.options = {"players": players, "bonus_locations": bonus}
        if first is not None:
            self.options["first_player"] = first
        if options.get("stacked") is not None:
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

    @property
    def num_players(self) -> int:
        """Number of seats (the ``players`` option)."""
        return self.players

    def new_initial_state(self, seed: int = 0) -> ConspiracyState:
        """The setup of section 2 for ``seed`` (decks shuffled, one Location face up)."""
        return ConspiracyState.initial(self, seed)

    def parse_action(self, state: State, text: str) -> ConspiracyAction:
        """Parse ``text`` (section 6) for the current player of ``state``.

        Raises:
            InvalidActionError: malformed text (unknown verb, lord, colour, Location; bad
                count or slot).
            IllegalActionError: well formed but not legal now (wrong phase, not offered).
        """
        action = parse(self.actions, text)
        if not isinstance(state, ConspiracyState):
            raise IllegalActionError("not a Conspiracy state")
        state.check_legal(action)
        return action
