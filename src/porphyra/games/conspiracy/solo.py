"""Conspiracy solo mode (rules section 4): the Legendary Opponent (LO) cards and its turn.

The five LO cards are data (``data/legendary_opponents.json``, validated on load).  The LO
is seat 1 of a solo state; its whole turn runs inside ``apply_action`` (called from
``ConspiracyState._start_turn``), except two decisions the rules give to **you**, the human
seat 0 (section 4.2 step 1):

``lopile <colour>``   several piles meet the deciding condition (or tie as the largest in
                      the C-R14 fallback): you choose the pile the LO takes;
``loplace <lord>``    the taken pile holds distinct lords: you choose the order in which
                      the LO places them (as C-R5; identical lords need no choice).

Conditions (section 4.1), for one discard pile: STACK ≥ 2 lords; KEY a keyed lord; PEARL a
lord with pearls; MIL the red pile; SIX a 6-IP lord; COAL its lords would touch a lord of
their colour already in the LO's chamber (C-R13: the slots the pile would fill, in slot
order, whatever the placement order; with overflow only the slots that exist).

Engine rulings where section 4 is silent (cited in code and tests):

- **S-R1 Reveal loop.** Only the pile that received the revealed lord can newly meet a
  condition (conditions depend on the pile and the LO's chamber only), so the loop never
  needs ``lopile``; it stops as soon as that pile meets *any* condition of the card.
- **S-R2 LO Locations.** The random face-up Location comes from the state's seeded
  generator (among the face-up Locations sorted by id).  A Location taken from the face-up
  row was public when taken: its slug stays shown (marked face down).  One taken from the
  top of the Location deck was never seen: observations show it as ``"face-down"`` and
  ``resample`` redraws its identity together with the Location deck (C-R12).  Face-down
  Locations have no effect and no pearls and score 5 IP each; with no Location at all the
  LO takes none (C-R8).
- **S-R3 Military.** "When it places a Military lord": set by each red lord the LO places;
  on your next turn your recruit must be ``draw 1`` (C-R1: it lapses with an empty deck);
  it is spent by that turn, so a Replay turn right after is free.
- **S-R4 Replay token.** Earned after a placement or a swap of yours when a coalition of
  ≥ 3 exists none of whose lords was in a coalition of ≥ 3 before the change; offered
  (``replay`` / ``replay -``) at the end of each of your turns while held, unless your
  chamber is full or the end is triggered (C-R16: the last turn is exactly one turn).
- **S-R5 Seats.** The game has one player (``num_players == 1``: seat 0 decides everything,
  ``returns()`` has one entry); the LO is seat 1 of ``scores()`` and of observations.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from porphyra.core.errors import CardDataError
from porphyra.core.messages import Joined, Message, Named, Term
from porphyra.core.randomness import shuffle
from porphyra.games.conspiracy.cards import COLOURS, DATA_DIR, CardSet
from porphyra.games.conspiracy.chamber import ADJACENT, SLOTS
from porphyra.games.conspiracy.scoring import score_player

if TYPE_CHECKING:
    from porphyra.games.conspiracy.state import ConspiracyState

#: The LO's seat in scores and observations (the human is seat 0, C-R15).
LO_SEAT = 0 + 1
#: IP of each face-down Location of the LO (section 4.2 step 4).
FACE_DOWN_IP = 5
#: How a face-down Location whose identity is unknown shows in observations (S-R2).
FACE_DOWN = "face-down"

CONDITIONS: tuple[str, ...] = ("STACK", "KEY", "PEARL", "MIL", "SIX", "COAL")
#: What each condition asks of a pile (section 4.1), for cards, logs and the terminal.
CONDITION_TEXT: dict[str, str] = {
    "STACK": "a pile of 2 or more lords",
    "KEY": "a pile holding a keyed lord",
    "PEARL": "a pile holding a lord with pearls",
    "MIL": "the Military (red) pile",
    "SIX": "a pile holding a 6-IP lord",
    "COAL": "a pile that extends an alliance: its lords would touch a lord of their colour "
    "in the LO's chamber (C-R13)",
}
BONUS_KINDS: dict[str, dict[str, type]] = {
    "none": {},
    "colour-count": {"base": int, "per": int, "colour": str},
    "pearl-pairs": {"per": int},
    "best-lord": {},
    "per-location": {"per": int},
}
ABILITY_KINDS: dict[str, dict[str, type]] = {
    "none": {},
    "force-draw-one": {"colour": str},
    "any-keys": {},
}
RED = COLOURS.index("red")


@dataclass(frozen=True, slots=True)
class Opponent:
    """One Legendary Opponent card (section 4.1).

    Attributes:
        name: option value (``"military"``).
        title: display name.
        colour: the card's guild colour (display only).
        conditions: condition names, checked left to right.
        bonus: bonus kind (:data:`BONUS_KINDS`) and bonus_params its parameters.
        ability: ability kind (:data:`ABILITY_KINDS`) and ability_params its parameters.
    """

    name: str
    title: str
    colour: str
    conditions: tuple[str, ...]
    bonus: str
    bonus_params: tuple[tuple[str, Any], ...]
    ability: str
    ability_params: tuple[tuple[str, Any], ...]

    def param(self, name: str) -> Any:
        """A bonus or ability parameter (validated on load)."""
        return dict(self.bonus_params + self.ability_params)[name]

    @property
    def bonus_text(self) -> str:
        """The end-game bonus in words."""
        params = dict(self.bonus_params)
        return {
            "none": "none",
            "colour-count": f"{params.get('base')} IP + {params.get('per')} IP per "
            f"{params.get('colour')} lord in its chamber",
            "pearl-pairs": f"{params.get('per')} IP per 2 pearls it has",
            "best-lord": "IP of its most influential lord (any colour)",
            "per-location": f"{params.get('per')} IP per Location it controls",
        }[self.bonus]

    @property
    def ability_text(self) -> str:
        """The permanent ability in words."""
        params = dict(self.ability_params)
        return {
            "none": "none",
            "force-draw-one": f"when it places a {params.get('colour')} lord, on your next "
            "turn you must recruit by drawing exactly 1 lord",
            "any-keys": "any 2 keys (silver or gold, mixed) let it take a Location",
        }[self.ability]

    def card(self) -> dict[str, Any]:
        """The card as JSON for observations: ``{"name", "title", "conditions": [{"name",
        "text"}], "bonus", "ability"}``."""
        return {
            "name": self.name,
            "title": self.title,
            "conditions": [{"name": c, "text": CONDITION_TEXT[c]} for c in self.conditions],
            "bonus": self.bonus_text,
            "ability": self.ability_text,
        }


def _fail(path: Path, entry: str, problem: str) -> CardDataError:
    return CardDataError(f"{path.name}: {entry}: {problem}")


def _kind(
    raw: Any, kinds: dict[str, dict[str, type]], path: Path, entry: str
) -> tuple[str, tuple[tuple[str, Any], ...]]:
    if not isinstance(raw, dict) or set(raw) != {"kind", "params"}:
        raise _fail(path, entry, 'must be {"kind": ..., "params": {...}}')
    kind, params = raw["kind"], raw["params"]
    if kind not in kinds:
        raise _fail(path, entry, f"unknown kind {kind!r} (one of {', '.join(kinds)})")
    if not isinstance(params, dict) or set(params) != set(kinds[kind]):
        raise _fail(path, entry, f"kind {kind} needs params {sorted(kinds[kind])}")
    for name, typ in kinds[kind].items():
        value = params[name]
        if typ is int and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise _fail(path, entry, f"param {name} must be a non-negative integer")
        if typ is str and value not in COLOURS:
            raise _fail(path, entry, f"param {name}: unknown colour {value!r}")
    return kind, tuple(sorted(params.items()))


def load_opponents(path: Path) -> tuple[Opponent, ...]:
    """Load and validate a Legendary Opponent file.

    Args:
        path: JSON ``{"opponents": [{"name", "title", "colour", "conditions", "bonus":
            {"kind", "params"}, "ability": {"kind", "params"}}]}``.

    Returns:
        The cards in file order.

    Raises:
        CardDataError: unreadable file, missing/unknown field, duplicate name, unknown
            colour, condition, bonus or ability kind, or bad params.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise CardDataError(f"{path.name}: cannot be read: {exc}") from None
    except json.JSONDecodeError as exc:
        raise CardDataError(f"{path.name}: not valid JSON: {exc}") from None
    if not isinstance(data, dict) or not isinstance(data.get("opponents"), list):
        raise CardDataError(f"{path.name}: top level must be an object with a list 'opponents'")
    fields = {"name", "title", "colour", "conditions", "bonus", "ability"}
    out: list[Opponent] = []
    for i, raw in enumerate(data["opponents"]):
        entry = f"opponent #{i + 1}"
        if not isinstance(raw, dict) or set(raw) != fields:
            raise _fail(path, entry, f"must be an object with exactly {sorted(fields)}")
        name = raw["name"]
        if not isinstance(name, str) or not name or any(o.name == name for o in out):
            raise _fail(path, entry, f"bad or duplicate name {name!r}")
        entry = f"opponent #{i + 1} ({name})"
        if raw["colour"] not in COLOURS:
            raise _fail(path, entry, f"unknown colour {raw['colour']!r}")
        conds = raw["conditions"]
        if (
            not isinstance(conds, list)
            or not conds
            or any(c not in CONDITIONS for c in conds)
            or len(set(conds)) != len(conds)
        ):
            raise _fail(path, entry, f"conditions must be distinct names of {CONDITIONS}")
        bonus, bonus_params = _kind(raw["bonus"], BONUS_KINDS, path, entry + " bonus")
        ability, ability_params = _kind(raw["ability"], ABILITY_KINDS, path, entry + " ability")
        out.append(
            Opponent(
                name,
                str(raw["title"]),
                raw["colour"],
                tuple(conds),
                bonus,
                bonus_params,
                ability,
                ability_params,
            )
        )
    return tuple(out)


@functools.cache
def default_opponents() -> tuple[Opponent, ...]:
    """The shipped five LO cards (validated once per process).

    Raises:
        CardDataError: the shipped file is broken.
    """
    return load_opponents(DATA_DIR / "legendary_opponents.json")


def opponent_names() -> tuple[str, ...]:
    """Names of the shipped LO cards (the ``opponent`` option, besides ``random``)."""
    return tuple(o.name for o in default_opponents())


# ----------------------------------------------------------------------- conditions
def pile_meets(state: ConspiracyState, condition: str, colour: int) -> bool:
    """Whether the ``colour`` discard pile meets ``condition`` for the LO (section 4.1).

    COAL (C-R13): the slots the pile would fill are the next ``len(pile)`` free slots of the
    LO's chamber (only those that exist, section 3.2 overflow); the pile extends an
    alliance if one of them touches a lord of the pile's colour already in the chamber.
    An empty pile meets nothing.
    """
    pile = state.piles[colour]
    if not pile:
        return False
    t = state.t
    if condition == "STACK":
        return len(pile) >= 2
    if condition == "KEY":
        return any(t.key[k] for k in pile)
    if condition == "PEARL":
        return any(t.pearls[k] for k in pile)
    if condition == "MIL":
        return colour == RED
    if condition == "SIX":
        return any(t.ip[k] == 6 for k in pile)
    chamber = state.chambers[LO_SEAT]
    start = len(chamber)
    tcol = t.colour
    return any(
        j < start and tcol[chamber[j]] == colour
        for i in range(start, min(SLOTS, start + len(pile)))
        for j in ADJACENT[i]
    )


def first_condition(state: ConspiracyState, colour: int) -> str | None:
    """The first condition of the LO's card that the ``colour`` pile meets, or None."""
    for cond in state.opponent.conditions:
        if pile_meets(state, cond, colour):
            return cond
    return None


def deciding(state: ConspiracyState) -> tuple[str | None, list[int], list[Message]]:
    """Section 4.2 step 1: the first condition (left to right) that some pile meets.

    Returns:
        ``(condition, colours meeting it, notes)``: ``(None, [], notes)`` if no pile meets
        any condition; ``notes`` are ``"STACK: no pile"``-style messages for the log
        (context ``log``, ids ``"STACK: {0}"``...).
    """
    notes: list[Message] = []
    for cond in state.opponent.conditions:
        met = [c for c in range(len(COLOURS)) if pile_meets(state, cond, c)]
        if met:
            notes.append(Message(cond + ": {0}", (colours_of(met),)))
            return cond, met, notes
        notes.append(Message(cond + ": {0}", (Term("no pile"),)))
    return None, [], notes


def colours_of(colours: list[int]) -> Joined:
    """Colours (indices) as a log argument: ``red, blue``."""
    return Joined(", ", tuple(Term(COLOURS[c]) for c in colours))


# -------------------------------------------------------------------------- the turn
def start_turn(state: ConspiracyState) -> None:
    """Run the LO's turn (section 4.2) until it ends or you must choose (``lopile``).

    Step 1 checks the piles; step 2 reveals lords one at a time until the receiving pile
    meets a condition (S-R1); with the deck empty the largest pile is taken (C-R14).
    """
    who = state.who[LO_SEAT]
    cond, met, notes = deciding(state)
    state._events.append(
        ("{} checks the piles against its card: {}", (who, Joined("; ", tuple(notes))))
    )
    if cond is not None:
        _choose_or_take(state, met, f"{cond}: {CONDITION_TEXT[cond]}")
        return
    t = state.t
    while state.deck:
        top = state.deck.pop()
        c = t.colour[top]
        state.piles[c].append(top)
        cond = first_condition(state, c)
        state._events.append(
            (
                "no pile meets a condition: {} reveals {} onto the {} pile, which "
                + ("still meets none" if cond is None else "now meets {}"),
                (who, Named(t.name[top]), Term(COLOURS[c]), *(() if cond is None else (cond,))),
            )
        )
        if cond is not None:
            take(state, c, f"{cond}: {CONDITION_TEXT[cond]}")
            return
    largest = max(len(p) for p in state.piles)  # > 0: C-R2 ended the game otherwise
    biggest = [c for c, p in enumerate(state.piles) if len(p) == largest]
    state._events.append(
        (
            "the lord deck is empty and no pile meets a condition: "
            "{} takes the largest pile (C-R14)",
            (who,),
        )
    )
    _choose_or_take(state, biggest, "C-R14: the largest pile")


def _choose_or_take(state: ConspiracyState, colours: list[int], reason: str) -> None:
    if len(colours) == 1:
        take(state, colours[0], reason)
        return
    from porphyra.games.conspiracy.state import LOPILE_PHASE

    state.lo_candidates = colours
    state.lo_reason = reason
    state.phase = LOPILE_PHASE
    state._events.append(
        (
            "piles {} all qualify [{}]: you choose the one {} takes (lopile)",
            (colours_of(colours), Term(reason), state.who[LO_SEAT]),
        )
    )


def take(state: ConspiracyState, colour: int, reason: str) -> None:
    """The LO takes every lord of the ``colour`` pile and places them (you order distinct
    lords with ``loplace``); its turn then ends (section 4.2 steps 1 and 3)."""
    pile = state.piles[colour]
    state.piles[colour] = []
    state.lo_candidates = []
    state.lo_reason = ""
    state.pending = pile
    names = Joined(", ", tuple(Named(state.t.name[k]) for k in pile))
    state._events.append(
        (
            "{} takes the {} pile [{}]: {}",
            (state.who[LO_SEAT], Term(COLOURS[colour]), Term(reason), names),
        )
    )
    state.run_placements()


def take_location(state: ConspiracyState) -> None:
    """The LO takes a Location on the lord it just placed (section 4.2 step 4, S-R2): a
    random face-up one, else the top of the Location deck; face down, no effect."""
    chamber = state.chambers[LO_SEAT]
    slot = len(chamber) - 1
    slug = state.t.slug
    who = state.who[LO_SEAT]
    silver, gold = state.unspent_keys(LO_SEAT)
    keys = Message("{0} silver and {1} gold unspent keys", (silver, gold))
    if state.face_up:
        choices = sorted(state.face_up)
        loc = choices[state.draw_rng().randrange(len(choices))]
        state.face_up.remove(loc)
        hidden = False
        what = Message(
            "the face-up Location {0} (drawn at random among {1})", (Named(slug[loc]), len(choices))
        )
    elif state.loc_deck:
        loc = state.loc_deck.pop()
        hidden = True
        what = Message("the top Location of the deck, unseen")
    else:
        state._events.append(("{} has {} but no Location is left (C-R8)", (who, keys)))
        return
    state.locs[LO_SEAT].append(loc)
    state.loc_slots[LO_SEAT].append(slot)
    state.lo_hidden.append(hidden)
    state._events.append(
        (
            "{} has {}: takes {}, face down on slot {} (no effect, {} IP at the end)",
            (who, keys, what, slot + 1, FACE_DOWN_IP),
        )
    )


def redraw_unseen(state: ConspiracyState, deck_shown: bool, rng: random.Random) -> None:
    """For ``resample`` (S-R2, C-R12): redraw the LO's unseen face-down Locations and the
    Location deck order of ``state`` (a copy) with ``rng``, from sorted pools.

    Args:
        state: the copy being resampled (changed in place).
        deck_shown: the resampling seat sees the Location deck's contents (a deck-search
            pick): then only the deck order and the unseen Locations' order vary.
        rng: the generator of the resample.
    """
    locs = state.locs[LO_SEAT]
    hidden = [i for i, h in enumerate(state.lo_hidden) if h]
    if deck_shown:
        pool = sorted(locs[i] for i in hidden)
        shuffle(rng, pool)
        for i, loc in zip(hidden, pool, strict=True):
            locs[i] = loc
        state.loc_deck.sort()
        shuffle(rng, state.loc_deck)
        return
    pool = sorted(state.loc_deck + [locs[i] for i in hidden])
    shuffle(rng, pool)
    for i in hidden:
        locs[i] = pool.pop()
    state.loc_deck = pool


# ------------------------------------------------------------------------- scoring
def score(state: ConspiracyState) -> dict[str, int]:
    """The LO's score by category (sections 3.5, 4.1, 4.2 step 4, C-R16).

    Returns:
        As :func:`porphyra.games.conspiracy.scoring.score_player`, with ``locations`` =
        5 IP per face-down Location (never their own effects) and ``lo_bonus`` (its card's
        bonus), both included in ``total``.
    """
    lo = LO_SEAT
    chamber = state.chambers[lo]
    pearls = state.pearls[lo]
    sc = score_player(state.cards, chamber, (), pearls, state.pm == lo)
    n_locs = len(state.locs[lo])
    extra = bonus(state.opponent, state.cards, chamber, n_locs, pearls)
    sc["locations"] = FACE_DOWN_IP * n_locs
    sc["lo_bonus"] = extra
    sc["total"] += sc["locations"] + extra
    return sc


def bonus(
    opponent: Opponent, cards: CardSet, chamber: Sequence[int], locations: int, pearls: int
) -> int:
    """The LO's end-game bonus in IP (section 4.1).

    Args:
        opponent: the LO card.
        cards: the card data.
        chamber: the LO's lord kinds by slot.
        locations: how many Locations the LO controls.
        pearls: the LO's pearls.

    Returns:
        farmer 0; military 1 + 2 per red lord; merchant 1 per 2 pearls; politician the IP
        of its most influential lord; mage 1 per Location.
    """
    lords = cards.lords
    kind = opponent.bonus
    if kind == "colour-count":
        colour = COLOURS.index(opponent.param("colour"))
        count = sum(lords[k].colour == colour for k in chamber)
        return int(opponent.param("base")) + int(opponent.param("per")) * count
    if kind == "pearl-pairs":
        return int(opponent.param("per")) * (pearls // 2)
    if kind == "best-lord":
        return max((lords[k].ip for k in chamber), default=0)
    if kind == "per-location":
        return int(opponent.param("per")) * locations
    return 0
