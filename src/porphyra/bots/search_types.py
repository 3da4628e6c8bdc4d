"""The vocabulary of the search bots: hook types, search statistics and helpers.

Shared by :mod:`porphyra.bots.ismcts` and the per-game heuristic modules (which provide
the hooks, see :mod:`porphyra.bots.heuristic`).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, Literal, NamedTuple, TypeVar

from porphyra.bots.base import Bot, SeatView
from porphyra.core.game import Action, State

#: A rollout policy: picks the current player's action in a (determinized) ``state``.
RolloutPolicy = Callable[[State, random.Random], Action]
#: An evaluation: estimated reward of ``player`` in ``state``, in [0, 1] (1 = sure win).
Evaluation = Callable[[State, int], float]
#: Where to find a policy or evaluation: a callable, or a name resolved per game at search
#: time (``"random"`` for rollouts, ``"heuristic"`` for the game's heuristic module).
RolloutSpec = RolloutPolicy | Literal["random", "heuristic"]
EvaluationSpec = Evaluation | Literal["heuristic"] | None
#: Candidate actions: the subset of the current player's legal actions the tree considers
#: (a heuristic pruning of large action sets, e.g. Byzantium's hundreds of melds).
Candidates = Callable[[State], Sequence[Action]]
#: ``"all"``, ``"heuristic"`` or another name the game's heuristics define
#: (:attr:`GameHeuristics.candidate_variants`, e.g. Byzantium's ``"pile"``).
CandidatesSpec = Candidates | str
#: Refines a determinization for the observer ``player`` in place, e.g. replaces a hidden
#: choice that ``resample`` drew uniformly at random by what a sensible opponent would have
#: chosen given its sampled hand (an opponent model; it only sees the sampled state).
Refiner = Callable[[State, int, random.Random], None]
RefinerSpec = Refiner | Literal["heuristic"] | None
#: Whether the current player of a (determinized) state decides without seeing a hidden
#: choice that ``observer`` (the searching seat) has already made: ``(state, observer)``.
Simultaneous = Callable[[State, int], bool]
SimultaneousSpec = Simultaneous | Literal["heuristic"] | None
#: Whether a rollout that has played its ``depth`` actions may stop at ``state`` (a natural
#: point to evaluate, e.g. after a turn's outcome is settled); ``state -> bool``.
Cut = Callable[[State], bool]
CutSpec = Cut | Literal["heuristic"] | None


#: The state type a game's heuristic hooks take (e.g. ``ByzantiumState``).
S = TypeVar("S", bound=State)


@dataclass(frozen=True, slots=True)
class GameHeuristics(Generic[S]):
    """The per-game hooks of the ``easy`` bot and ISMCTS, which a game's heuristic module
    exports as ``HEURISTICS`` (see :mod:`porphyra.bots.heuristic`).  Typed with the game's
    own state class, so a misspelt or mistyped hook is a type error, not a silent fallback.

    Attributes:
        bot: ``seed -> bot``, the game's ``easy`` bot.
        rollout_policy: the current player's action in a (determinized) state
            (:data:`RolloutPolicy`); ISMCTS ``rollout="heuristic"``.
        evaluate: estimated reward in [0, 1] of a seat in a non-terminal state
            (:data:`Evaluation`); ISMCTS rollouts cut at a depth.  ``None``: rollouts play
            to the end.
        candidate_actions: a small subset of the current player's legal actions, the
            heuristic's own choice first (:data:`Candidates`); ``candidates="heuristic"``.
        refine_sample: an opponent model that adjusts a determinization in place
            (:data:`Refiner`); ``refine="heuristic"``.
        simultaneous: whether the current player decides without seeing a hidden choice the
            observer made (:data:`Simultaneous`); ``simultaneous="heuristic"``.
        rollout_cut: whether a rollout that played its ``depth`` actions may stop here for
            ``evaluate`` (:data:`Cut`); ``cut="heuristic"``.
        candidate_variants: other candidate generators by name (``candidates=NAME``) for a
            search's root decision (the tree below keeps ``candidate_actions``), each like
            ``candidate_actions`` with another choice first (e.g. Byzantium's ``pile``: the
            pile rule's redraw).
    """

    bot: Callable[[int], Bot]
    rollout_policy: Callable[[S, random.Random], Action]
    evaluate: Callable[[S, int], float] | None = None
    candidate_actions: Callable[[S], Sequence[Action]] | None = None
    refine_sample: Callable[[S, int, random.Random], None] | None = None
    simultaneous: Callable[[S, int], bool] | None = None
    rollout_cut: Callable[[S], bool] | None = None
    candidate_variants: Mapping[str, Callable[[S], Sequence[Action]]] = field(default_factory=dict)


class ActionStats(NamedTuple):
    """Search statistics of one root action.

    Attributes:
        action: the legal action (an object of ``view.legal_actions``).
        visits: iterations that chose it at the root.
        mean_reward: its average reward in [0, 1] for the deciding seat (an estimated win
            probability; 0.5 for an action never visited).
    """

    action: Action
    visits: int
    mean_reward: float


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one search.

    Attributes:
        action: the chosen action (most visited; ties broken by mean reward, then text;
            see ``anchor_z``).
        win_probability: mean reward in [0, 1] of ``action`` for the deciding seat.
        stats: every legal action's statistics, best first.
        iterations: iterations run.
        seconds: wall-clock time spent searching, in seconds.
    """

    action: Action
    win_probability: float
    stats: list[ActionStats]
    iterations: int
    seconds: float


def view_seed(seed: int, view: SeatView, salt: str = "") -> int:
    """A 64-bit seed derived from ``seed`` and the view's seat and observation only.

    Used to give each decision its own generator, so a bot's move depends on its seed and the
    view, never on earlier calls (or on anything the seat cannot see).
    """
    text = json.dumps(view.observation, sort_keys=True, default=str, separators=(",", ":"))
    digest = hashlib.sha256(f"{salt}|{seed}|{view.player}|{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def paired_better(rows: list[dict[str, float]], key: str, default: str, z: float) -> bool:
    """Whether ``key`` beats ``default`` by more than ``z`` standard errors of the mean of
    their reward differences over the worlds where both were tried (a paired test)."""
    diffs = [row[key] - row[default] for row in rows if key in row and default in row]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > z * math.sqrt(max(var, 1e-12) / n)


def stderr(s: ActionStats) -> float:
    """Standard error of a mean reward in [0, 1] (Bernoulli bound ``m (1 - m) / n``)."""
    m = s.mean_reward
    return math.sqrt(max(m * (1.0 - m), 1e-4) / s.visits)
