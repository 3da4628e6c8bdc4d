"""What the balance lab records of one game: a small JSON-ready dict per game.

The lab reads the finished game and, for Byzantium, each decision as it is taken, so a
collector sees everything (it is an analysis tool, not a player: bots still see only their
seat's view).  One collector per game; :func:`collector_for` picks it.

Byzantium (``shared/rules/byzantium.md``): the result, the first Emperor's seat, whether and
on which turn the Empire collapsed (B-R7), TT and LT at the start of each turn and at the
end, each meld's force per side as resolved (after a Negotiation, B-R4) and the legacy
value of the Byzantine meld's Legacy cards, per card kind and seat how many copies entered
a hand, were redrawn (B-R10), melded, or passed in the End phase (B-R9), and per decision
type (:func:`decision_type`)
``[decisions, legal options summed, choices other than the obvious one]``.

The **obvious choice** of a decision: for a meld, the most forceful legal meld (a choice
differs when its force is lower: the player held force back); for a Negotiation target, the
most forceful Foe people to send away; for every other decision (redraw, replace, pass),
the first legal option in the engine's fixed order (``-`` first, then fewer cards first:
redraw nothing, for instance).

Conspiracy (``shared/rules/conspiracy.md``): the result, the first player, the turn of the
end trigger, points by category (section 3.5), the Locations each seat took and the values
of the lords in each chamber; in solo mode the Legendary Opponent.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Protocol

from porphyra.core.game import Action, State
from porphyra.games.byzantium.melds import meld_force
from porphyra.games.byzantium.rules import DECK_NAMES, PHASES


class Collector(Protocol):
    """Watches one game: :meth:`before` each decision, :meth:`finish` at the end."""

    def before(self, state: State, player: int, action: Action) -> None:
        """Called with the state just before ``player`` applies ``action``."""

    def finish(self, state: State) -> dict[str, Any]:
        """The game's JSON-ready statistics, from the terminal state."""


class ByzantiumCollector:
    """Per-game statistics of a Byzantium game (see the module docstring)."""

    def __init__(self) -> None:
        self.turn_starts: list[dict[str, Any]] = []
        self.melds: list[list[int]] = []  # [turn, byzantine force, foe force, byz legacy]
        # (the forces as resolved: after a Negotiation, B-R4)
        self.decisions: dict[str, list[int]] = {}  # type -> [decisions, options, differed]
        self.cards: dict[str, list[list[int]]] = {}  # slug -> [entered, redrawn, melded, passed]
        self._hands: list[Counter[str]] = [Counter(), Counter()]
        self._last_turn = 0
        self._melds_turn = 0
        self._first: int | None = None

    def _count(self, slug: str, what: int, seat: int, n: int = 1) -> None:
        row = self.cards.setdefault(slug, [[0, 0], [0, 0], [0, 0], [0, 0]])
        row[what][seat] += n

    def _look(self, state: Any) -> None:
        if self._first is None:
            self._first = state.emperor
        if state.turn != self._last_turn:
            self._last_turn = state.turn
            self.turn_starts.append({"turn": state.turn, "tt": state.tt, "lt": list(state.lt)})
        if state.melds_turn:
            # The melds as they stand: a Negotiation (B-R4) may take a card out of the Foe
            # meld and put another in after the reveal, so the entry of the turn is updated
            # until the next reveal and ends as the melds were resolved.
            force = [sum(state._cs.cards[k].force for k in m) for m in state.melds]
            legacy = sum(state._cs.cards[k].legacy for k in state.melds[0])
            entry = [state.melds_turn, force[0], force[1], legacy]
            if state.melds_turn != self._melds_turn:
                self._melds_turn = state.melds_turn
                self.melds.append(entry)
            else:
                self.melds[-1] = entry
        cards = state._cs.cards
        for seat in (0, 1):
            hand = Counter(cards[k].slug for k in state.hands[seat])
            for slug, n in (hand - self._hands[seat]).items():
                self._count(slug, 0, seat, n)
            self._hands[seat] = hand

    def _decision(self, state: Any, player: int, action: Any) -> None:
        kinds, table = state._table(player)
        verb = PHASES[state.phase][0]
        key = decision_type(verb, DECK_NAMES[state._deck_of_seat(player)])
        row = self.decisions.setdefault(key, [0, 0, 0])
        row[0] += 1
        row[1] += len(table)
        if not table:
            return
        by_slug = state._cs.by_slug
        chosen = sorted(by_slug[slug].index for slug in action.cards)
        if verb in ("meld", "target"):
            best = max(meld_force([kinds[i] for i in option], state._cs) for option in table)
            differed = meld_force(chosen, state._cs) < best
        else:
            differed = chosen != sorted(kinds[i] for i in table[0])
        row[2] += int(differed)

    def before(self, state: State, player: int, action: Action) -> None:
        """Note the turn, a new meld reveal, cards new in hand, the decision's options and
        whether the choice was the obvious one, and the decision's cards."""
        self._look(state)
        self._decision(state, player, action)
        text = str(action)
        verb, _, rest = text.partition(" ")
        what = {"redraw": 1, "meld": 2, "pass": 3}.get(verb)
        if what is not None and rest != "-":
            for slug in rest.split(","):
                self._count(slug, what, player)
                if what == 1:  # gone from the hand: a card drawn back later counts again
                    self._hands[player][slug] -= 1

    def finish(self, state: State) -> dict[str, Any]:
        """Result, collapse, curves, melds and the per-card counts."""
        s: Any = state
        self._look(s)
        result = s.result or {}
        return {
            "returns": state.returns(),
            "first": self._first if self._first is not None else s.emperor,
            "collapse": bool(result.get("collapse")),
            "end_turn": int(result.get("turn", s.turn)),
            "final": {"tt": s.tt, "lt": list(s.lt)},
            "turns": self.turn_starts,
            "melds": self.melds,
            "cards": self.cards,
            "decisions": self.decisions,
        }


def decision_type(verb: str, deck: str) -> str:
    """A decision's type in the figures: the verb and the deciding seat's deck, e.g.
    ``"meld (foe)"``."""
    return f"{verb} ({deck})"


class ConspiracyCollector:
    """Per-game statistics of a Conspiracy game (see the module docstring)."""

    def before(self, state: State, player: int, action: Action) -> None:
        """Nothing per decision: everything is read from the final state."""

    def finish(self, state: State) -> dict[str, Any]:
        """Result, seat order, end trigger, points by category, Locations and lord values."""
        s: Any = state
        cards = s.cards
        return {
            "returns": state.returns(),
            "first": s.first,
            "players": s.n,
            "solo": bool(s.solo),
            "opponent": s.opponent.name if s.solo else None,
            "end_turn": s.turn,
            "end_trigger": s.end_trigger,
            "scores": state.scores(),
            "locations": [[cards.locations[i].slug for i in locs] for locs in s.locs],
            "lord_values": [[cards.lords[k].ip for k in ch] for ch in s.chambers],
        }


def collector_for(game_name: str) -> Collector:
    """A fresh collector for ``game_name``.

    Raises:
        ValueError: the lab has no collector for that game.
    """
    from porphyra.balance.hooks import balance_hooks

    return balance_hooks(game_name).collector()
