"""The tree of an ISMCTS search (:mod:`porphyra.bots.ismcts`): its nodes, the resolved hooks
of one search, and one iteration's select, expand, simulate and backpropagate steps (the
module docstring of :mod:`porphyra.bots.ismcts` describes them).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from porphyra.bots.search_types import (
    Candidates,
    Cut,
    Evaluation,
    Refiner,
    RolloutPolicy,
    Simultaneous,
)
from porphyra.core.game import Action, State


class Node:
    """A tree node: the information set reached by ``player`` choosing an action."""

    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat that chose the action leading here
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0  # total reward of ``player`` over the visits


@dataclass(frozen=True, slots=True)
class Search:
    """The resolved hooks and constants of one search (``"heuristic"`` looked up)."""

    policy: RolloutPolicy
    evaluate: Evaluation | None
    candidates: Candidates | None
    root_candidates: Candidates | None  # the root decision's (a named variant), else candidates
    refine: Refiner | None
    blind: Simultaneous | None
    cut: Cut | None
    exploration: float
    depth: int | None  # None: rollouts play to the end (always so without an evaluation)
    lo: float  # the game's utility range, mapped onto rewards in [0, 1]
    span: float
    num_players: int


def iterate(
    state: State,
    root: Node,
    rng: random.Random,
    search: Search,
    first: Action | None = None,
) -> float:
    """One iteration on the determinization ``state``: select, expand, simulate,
    backpropagate; returns the observer's reward.

    ``first``: the root action to take (paired root, see ``paired``) instead of UCB's.
    """
    path, untried = select(state, root, rng, search, first)
    if untried:
        expand(state, path, untried, rng)
    rewards = simulate(state, rng, search)
    backpropagate(root, path, rewards)
    return rewards[root.player]


def select(
    state: State,
    root: Node,
    rng: random.Random,
    search: Search,
    first: Action | None,
) -> tuple[list[Node], list[tuple[str, Action]]]:
    """Descend from ``root`` (applying the actions to ``state``) while every action
    considered here already has a child, by subset-armed UCB1 (module docstring, 2);
    a blind decision (``simultaneous``) follows the rollout policy instead.

    Returns:
        The path of nodes from the root, and the untried ``(key, action)`` pairs of
        its last node (empty at a terminal state, or when ``first`` made a new node).
    """
    node = root
    path = [root]
    if first is not None:
        new = str(first) not in root.children
        node = _step(root, first, state, path)
        if new:
            return path, []
    c = search.exploration
    observer = root.player
    blind, candidates, policy = search.blind, search.candidates, search.policy
    at_root = search.root_candidates
    while not state.is_terminal():
        if blind is not None and blind(state, observer):
            # A seat answering a secret it cannot see: the opponent model decides.
            node = _step(node, policy(state, rng), state, path)
            continue
        choose = at_root if node is root else candidates
        actions = state.legal_actions() if choose is None else choose(state)
        children = node.children
        untried: list[tuple[str, Action]] = []
        best: tuple[str, Action, Node] | None = None
        best_score = -math.inf
        for a in actions:
            key = str(a)
            child = children.get(key)
            if child is None:
                untried.append((key, a))
                continue
            child.avail += 1
            if untried:
                continue  # we will expand; availability still counts
            score = child.reward / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits
            )
            if score > best_score:
                best_score = score
                best = (key, a, child)
        if untried:
            return path, untried
        assert best is not None  # a non-terminal state has a legal action
        _, a, child = best
        state.apply_action(a)
        path.append(child)
        node = child
    return path, []


def _step(node: Node, action: Action, state: State, path: list[Node]) -> Node:
    """Take ``action`` from ``node`` outside UCB (a paired root's move, a blind decision):
    its child, made if new, is applied to ``state``, appended to ``path`` and returned."""
    key = str(action)
    child = node.children.get(key)
    if child is None:
        child = node.children[key] = Node(state.current_player())
    state.apply_action(action)
    path.append(child)
    return child


def expand(
    state: State, path: list[Node], untried: list[tuple[str, Action]], rng: random.Random
) -> None:
    """Add a child for one untried action (chosen at random) below the last node of
    ``path``, apply it to ``state`` and extend ``path``."""
    key, a = untried[rng.randrange(len(untried))]
    child = Node(state.current_player())
    path[-1].children[key] = child
    state.apply_action(a)
    path.append(child)


def simulate(state: State, rng: random.Random, search: Search) -> list[float]:
    """Play the rollout policy from ``state`` to the end, or for ``depth`` actions (and
    on until ``cut`` allows a stop) and score it with the evaluation.

    Returns:
        Every seat's reward in [0, 1].
    """
    policy, depth, cut = search.policy, search.depth, search.cut
    steps = 0
    while not state.is_terminal() and (
        depth is None or steps < depth or (cut is not None and not cut(state))
    ):
        state.apply_action(policy(state, rng))
        steps += 1
    if state.is_terminal() or search.evaluate is None:
        return [(r - search.lo) / search.span for r in state.returns()]
    return [search.evaluate(state, p) for p in range(search.num_players)]


def backpropagate(root: Node, path: list[Node], rewards: list[float]) -> None:
    """Each node of ``path`` below the root gets the reward of the seat that chose its
    action; the root counts the iteration."""
    for n in path[1:]:
        n.visits += 1
        n.reward += rewards[n.player]
    root.visits += 1
