"""Byzantium position values learned from self-play: the evaluation of ISMCTS rollouts.

A rollout cut at a depth needs the chance that each seat wins from where it stopped.  The
outcome of Byzantium hangs on Legacy Tokens *and* on who is Emperor when the Empire falls
(TT ≤ 0 costs that Emperor 3 LT and ends the game, rules section 1 and B-R7), and how fast
TT falls depends on the Age (Late Foes are strong).  The hand-made formula used before
charged the collapse risk to the current Emperor only, whatever the Age; the value is now
measured instead: ``easy`` plays itself (:func:`samples`, :func:`fit`), and for each
turn ``t`` (1-12), Territory ``tt`` (1-20) and LT lead ``lead`` of that turn's Emperor
(clipped to ±:data:`LEAD_CLIP`), the table holds the Emperor's mean result (win 1, draw 1/2,
loss 0) from the start of that turn's Redraw phase.

Sparse cells are shrunk towards the same turn and lead over all TT (an empirical-Bayes
back-off with :data:`PRIOR_WEIGHT` pseudo-games), which is itself shrunk towards 1/2.

Each shipped deck ships its own table, ``data/byzantium_values-<deck>.json`` (the balance of
a deck moves these values); a custom card file (``cards=PATH``) is valued with the default
deck's table, an approximation.  Refit a deck's table with
``.venv/bin/python docs/results/fit_byzantium_values.py --deck v3 --games 100000 --seed 0``.
"""

from __future__ import annotations

import json
import random
from functools import cache
from importlib import resources
from typing import Any, cast

from porphyra.core.game import State
from porphyra.games.byzantium.cards import DECKS_SHIPPED, DEFAULT_DECK
from porphyra.games.byzantium.game import ByzantiumGame

TURNS = 12
MAX_TT = 20
#: Leads beyond this many LT share the value of this lead.
LEAD_CLIP = 12
#: Pseudo-games of the back-off estimate added to each cell.
PRIOR_WEIGHT = 8.0
#: Phases before this turn's meld is resolved (TT and LT still those of the turn's start).
PRE_RESOLUTION = ("redraw_byz", "redraw_foe", "meld_byz", "meld_foe", "target", "replace")
DATA_FILE = "byzantium_values-{deck}.json"

Table = list[list[list[float]]]  # [turn - 1][tt - 1][lead + LEAD_CLIP]


def _key(turn: int, tt: int, lead: int) -> tuple[int, int, int]:
    return turn - 1, min(max(tt, 1), MAX_TT) - 1, min(max(lead, -LEAD_CLIP), LEAD_CLIP) + LEAD_CLIP


def samples(games: int, seed: int, deck: str = DEFAULT_DECK) -> list[tuple[int, int, int, float]]:
    """``(turn, tt, lead, result)`` at the start of every turn's Redraw phase of ``games``
    easy-vs-easy games on the shipped ``deck`` (deal seeds ``seed`` …), from that turn's
    Emperor's side.

    ``result`` is 1, 0.5 or 0 (win, draw, loss of that Emperor).
    """
    from porphyra.bots.byzantium_search import rollout_policy

    game = ByzantiumGame(deck=deck)
    rng = random.Random(seed)  # unused by the deterministic policy, needed by its signature
    out: list[tuple[int, int, int, float]] = []
    for g in range(games):
        state: Any = game.new_initial_state(seed=seed + g)
        starts: list[tuple[int, int, int, int]] = []
        while not state.is_terminal():
            if state.phase == "redraw_byz":
                emp = state.emperor
                starts.append((state.turn, state.tt, state.lt[emp] - state.lt[1 - emp], emp))
            state.apply_action(rollout_policy(state, rng))
        returns = state.returns()
        out.extend((t, tt, lead, (returns[emp] + 1.0) / 2.0) for t, tt, lead, emp in starts)
    return out


def fit(data: list[tuple[int, int, int, float]]) -> Table:
    """The smoothed value table of ``data`` (see the module docstring)."""
    width = 2 * LEAD_CLIP + 1
    n = [[[0.0] * width for _ in range(MAX_TT)] for _ in range(TURNS)]
    w = [[[0.0] * width for _ in range(MAX_TT)] for _ in range(TURNS)]
    for turn, tt, lead, result in data:
        i, j, k = _key(turn, tt, lead)
        n[i][j][k] += 1
        w[i][j][k] += result
    table: Table = []
    for i in range(TURNS):
        rows: list[list[float]] = []
        coarse = []
        for k in range(width):
            cn = sum(n[i][j][k] for j in range(MAX_TT))
            cw = sum(w[i][j][k] for j in range(MAX_TT))
            coarse.append((cw + PRIOR_WEIGHT * 0.5) / (cn + PRIOR_WEIGHT))
        for j in range(MAX_TT):
            rows.append(
                [
                    round((w[i][j][k] + PRIOR_WEIGHT * coarse[k]) / (n[i][j][k] + PRIOR_WEIGHT), 4)
                    for k in range(width)
                ]
            )
        table.append(rows)
    return table


def save(table: Table, path: str, games: int, seed: int, deck: str) -> None:
    """Write ``table`` as JSON with how it was made."""
    doc = {
        "about": "Byzantium: the Emperor's mean result by [turn-1][TT-1][lead+LEAD_CLIP], "
        "easy vs easy (porphyra.bots.byzantium_values)",
        "deck": deck,
        "games": games,
        "seed": seed,
        "lead_clip": LEAD_CLIP,
        "prior_weight": PRIOR_WEIGHT,
        "values": table,
    }
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


def check(doc: Any) -> Table:
    """The table of a loaded JSON document.

    Raises:
        ValueError: the document does not have the table's shape or a value is outside
            [0, 1].
    """
    if not isinstance(doc, dict) or doc.get("lead_clip") != LEAD_CLIP:
        raise ValueError("not a Byzantium value table for this version (lead_clip)")
    table = doc.get("values")
    ok = (
        isinstance(table, list)
        and len(table) == TURNS
        and all(isinstance(r, list) and len(r) == MAX_TT for r in table)
        and all(isinstance(c, list) and len(c) == 2 * LEAD_CLIP + 1 for r in table for c in r)
        and all(
            isinstance(v, (int, float)) and 0.0 <= v <= 1.0 for r in table for c in r for v in c
        )
    )
    if not ok:
        shape = f"{TURNS}x{MAX_TT}x{2 * LEAD_CLIP + 1}"
        raise ValueError(f"Byzantium value table: expected {shape} values in [0, 1]")
    return cast(Table, table)


@cache
def table(deck: str = DEFAULT_DECK) -> Table:
    """The shipped table of the shipped ``deck`` (loaded once per deck).

    Raises:
        ValueError: the data file is corrupt, or no table ships for that deck.
    """
    if deck not in DECKS_SHIPPED:
        raise ValueError(f"no Byzantium value table for deck {deck!r}")
    name = DATA_FILE.format(deck=deck)
    text = resources.files("porphyra.bots").joinpath("data", name).read_text("utf-8")
    return check(json.loads(text))


def deck_of(state: State) -> str:
    """The shipped deck whose table values ``state``: its own, or the default deck's for a
    custom card file."""
    version = getattr(getattr(state.game, "cardset", None), "version", None)
    return version if version in DECKS_SHIPPED else DEFAULT_DECK


def emperor_value(turn: int, tt: int, lead: int, deck: str = DEFAULT_DECK) -> float:
    """The Emperor's expected result in [0, 1] at the start of ``turn`` (1-12) with ``tt``
    Territory Tokens (clipped to 1-20) and an LT lead of ``lead`` over the Foe, on ``deck``."""
    i, j, k = _key(turn, tt, lead)
    return table(deck)[i][j][k]


def evaluate(state: State, player: int) -> float:
    """Estimated result in [0, 1] of ``player`` in a Byzantium ``state`` (exact if over).

    Before this turn's meld is resolved the state is valued as the start of this turn; in
    the End phase (TT and LT already updated) as the start of the next turn, whose Emperor
    is the other seat; after turn 12 only the LT comparison remains.
    """
    if state.is_terminal():
        return (state.returns()[player] + 1.0) / 2.0
    st: Any = state
    lt: list[int] = st.lt
    turn: int = st.turn
    emperor: int = st.emperor
    if st.phase not in PRE_RESOLUTION:
        turn += 1
        emperor = 1 - emperor
    if turn > TURNS:
        lead = lt[player] - lt[1 - player]
        return 1.0 if lead > 0 else 0.0 if lead < 0 else 0.5
    value = emperor_value(turn, st.tt, lt[emperor] - lt[1 - emperor], deck_of(state))
    return value if player == emperor else 1.0 - value
