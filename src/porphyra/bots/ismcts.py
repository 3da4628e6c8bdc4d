"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS).

The algorithm of Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree Search",
IEEE Transactions on Computational Intelligence and AI in Games 4(2), 2012, section IV.
It is game-independent: it uses only the :class:`~porphyra.bots.base.SeatView` (the seat's
observation, its legal actions and ``sample(rng)``) and the game contract on the sampled
states; it never sees the true state.

One search builds a single tree over the information sets of the deciding seat.  Each
iteration:

1. **Determinize**: draw a full state consistent with the seat's observation,
   ``view.sample(rng)`` (``State.resample``); optionally refine it with an opponent model
   (``refine``: e.g. a Byzantium Foe deciding its meld must not assume that the Emperor's
   hidden meld, which ``resample`` draws uniformly among the legal melds, is random).
2. **Select**: from the root, while every action legal in this determinization already has
   a child, pick the child maximising the subset-armed UCB1 score::

       mean_reward(c) + exploration * sqrt(ln(availability(c)) / visits(c))

   where ``availability(c)`` counts the iterations in which ``c`` was legal when its parent
   was visited (the parent's visit count is wrong here, since different determinizations
   allow different actions).  The availability of every legal child is incremented.
3. **Expand** one untried action legal in this determinization (chosen at random).

   With ``candidates`` the tree only considers a subset of each player's legal actions
   (a per-game heuristic pruning, e.g. the strongest meld and a few weaker variants among
   Byzantium's hundreds of melds): with hundreds of actions and a budget of a few thousand
   iterations, an unpruned tree cannot even try each root action once.
4. **Simulate**: play the rollout policy (uniformly random, or a per-game heuristic) to the
   end, or for at most ``depth`` actions and then score the position with an evaluation
   function.
   With ``simultaneous``, a decision that another seat takes *without seeing a hidden choice
   the deciding seat has already made* (Byzantium's Foe melding after the Emperor's secret
   meld, B-R3) is not selected by UCB: in a single-observer tree that seat's node hangs below
   the hidden choice, so UCB would let it answer a secret it cannot know (the "leak" of
   SO-ISMCTS on simultaneous moves, which makes every secret choice look worse than it is).
   It plays the rollout policy instead (an opponent model, as ``refine`` is for the other
   seat), and its action still gets a node, so later decisions stay apart.
5. **Backpropagate**: each node on the path receives the reward, in [0, 1], of the seat that
   chose the action leading to it (so the search is correct for 2 to 4 players: every seat
   maximises its own reward).

The move is the most visited root action among the view's legal actions (ties: higher mean
reward, then text).  With ``anchor_z`` and candidates, the first candidate (the heuristic's
own choice) is kept unless another action's mean reward beats it by ``anchor_z`` standard
errors: a short search then only overrides a good heuristic on evidence, not on noise.

Nodes are keyed by action text (``str(action)``), since each determinization creates its own
``Action`` objects.  Rewards map ``returns()`` from the game's utility range
(``GameInfo.min_utility`` .. ``max_utility``) onto [0, 1]: 1 a win, 0 a loss, 0.5 a draw in
a zero-sum game.  The mean reward of an action is thus an estimated win probability.

Budgets and reproducibility: with an ``iterations`` budget the bot is deterministic: the
search generator of each call is derived from the bot's seed and the view (seat and
observation) only, so the same seed and the same view always give the same move, whatever
was asked before.  A ``seconds`` budget (``time.perf_counter``) makes the number of
iterations, and so possibly the move, depend on the machine's speed: moves are then **not**
reproducible.  Both may be given; the search stops at whichever comes first.

Early stop (``early_stop``, on by default): the search ends as soon as the most visited root
action can no longer be overtaken, i.e. its lead in visits over the runner-up exceeds the
iterations left in the budget (for a ``seconds`` budget: estimated from the rate so far) and,
with ``anchor_z``, it is the heuristic's own choice (so the mean-reward test cannot change
the move).  Each iteration adds at most one visit to one root action, so with an iteration
budget the move is exactly the one the full search would make; only the time spent, the
iteration count and the reported statistics differ.  This is the "smart pruning" of game
engines such as Leela Zero and KataGo at the root.
"""

from __future__ import annotations

import math
import random
import time

from porphyra.bots.base import SeatView
from porphyra.bots.heuristic import heuristics_for, random_policy
from porphyra.bots.search_types import (
    ActionStats,
    Candidates,
    CandidatesSpec,
    Cut,
    CutSpec,
    Evaluation,
    EvaluationSpec,
    Refiner,
    RefinerSpec,
    RolloutPolicy,
    RolloutSpec,
    SearchResult,
    Simultaneous,
    SimultaneousSpec,
    paired_better,
    stderr,
    view_seed,
)
from porphyra.core.game import Action, State

DEFAULT_ITERATIONS = 1000
DEFAULT_EXPLORATION = 0.7


class _Node:
    """A tree node: the information set reached by ``player`` choosing an action."""

    __slots__ = ("avail", "children", "player", "reward", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # the seat that chose the action leading here
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0  # total reward of ``player`` over the visits


class ISMCTSBot:
    """SO-ISMCTS bot (see the module docstring).

    Args:
        seed: seeds every search (with the view: see :func:`view_seed`).
        iterations: iteration budget per move (deterministic mode); ``None`` for no limit.
        seconds: time budget per move, in seconds (moves are then not reproducible);
            ``None`` for no limit.  If both are ``None``, ``DEFAULT_ITERATIONS`` is used.
        exploration: UCB exploration constant for rewards in [0, 1] (default 0.7).
        rollout: ``"random"``, ``"heuristic"`` (the game's heuristic rollout policy, see
            :mod:`porphyra.bots.heuristic`) or a callable ``(state, rng) -> Action``.
        depth: stop each rollout after this many actions and score the position with
            ``evaluation``; ``None`` plays rollouts to the end.
        cut: ``None``, ``"heuristic"`` (the game's ``rollout_cut``, none for a game without
            one) or a callable ``state -> bool``: a rollout that has played ``depth``
            actions goes on until this is true (or the game ends), so the evaluation sees
            positions where it is accurate.
        evaluation: ``"heuristic"`` (the game's evaluation function) or a callable
            ``(state, player) -> float`` in [0, 1]; required when ``depth`` is set.
        candidates: ``"all"`` or ``None`` (every legal action), ``"heuristic"`` (the
            game's candidate generator, every legal action for a game without one) or a
            callable ``state -> actions`` returning a non-empty subset of the legal actions.
        refine: ``None``, ``"heuristic"`` (the game's refiner, none for a game without one)
            or a callable ``(state, player, rng) -> None`` that adjusts each determinization
            in place without changing ``observation(player)``.
        anchor_z: with candidates, the first candidate (the heuristic's own choice) is the
            default move; another root action replaces it only if its mean reward is higher
            by more than ``anchor_z`` standard errors (0: plain most-visited choice).  Keeps
            a short search from trading a good heuristic move for noise.
        simultaneous: ``None``, ``"heuristic"`` (the game's test, none for a game without
            one) or a callable ``(state, observer) -> bool``: decisions for which it is true
            are played by the rollout policy, not by UCB (see step 3 of the module docstring).
        early_stop: end the search once the move can no longer change (see the module
            docstring); the move is the same as without it for an iteration budget.
        paired: ``True``: each sampled world is played once from every root candidate,
            with the same random numbers (common random numbers), and ``anchor_z`` becomes
            a paired test on the per-world reward differences; the root does no UCB.  Much
            less noise where luck dominates (hidden draws), at the cost of tree focus at the
            root.  ``early_stop`` does not apply.
        name: the bot's display name.

    Raises:
        ValueError: a budget is not positive, ``exploration`` is negative, or ``depth`` is
            given without an evaluation.
    """

    def __init__(
        self,
        seed: int = 0,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        rollout: RolloutSpec = "random",
        depth: int | None = None,
        evaluation: EvaluationSpec = None,
        candidates: CandidatesSpec | None = "all",
        refine: RefinerSpec = None,
        anchor_z: float = 0.0,
        simultaneous: SimultaneousSpec = None,
        early_stop: bool = True,
        cut: CutSpec = None,
        paired: bool = False,
        name: str = "ismcts",
    ) -> None:
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be positive, not {seconds}")
        if exploration < 0:
            raise ValueError(f"exploration must not be negative, not {exploration}")
        if depth is not None and (not isinstance(depth, int) or depth < 0):
            raise ValueError(f"depth must be a non-negative number of actions, not {depth!r}")
        if depth is not None and evaluation is None:
            raise ValueError("a rollout depth needs an evaluation function")
        if not callable(rollout) and rollout not in ("random", "heuristic"):
            raise ValueError(f"unknown rollout {rollout!r}; use 'random' or 'heuristic'")
        if candidates is None:
            candidates = "all"
        if isinstance(evaluation, str) and evaluation != "heuristic":
            raise ValueError(f"unknown evaluation {evaluation!r}; use 'heuristic'")
        if isinstance(candidates, str) and candidates not in ("all", "heuristic"):
            raise ValueError(f"unknown candidates {candidates!r}; use 'all' or 'heuristic'")
        if anchor_z < 0:
            raise ValueError(f"anchor_z must not be negative, not {anchor_z}")
        if isinstance(refine, str) and refine != "heuristic":
            raise ValueError(f"unknown refine {refine!r}; use 'heuristic'")
        if isinstance(cut, str) and cut != "heuristic":
            raise ValueError(f"unknown cut {cut!r}; use 'heuristic'")
        if isinstance(simultaneous, str) and simultaneous != "heuristic":
            raise ValueError(f"unknown simultaneous {simultaneous!r}; use 'heuristic'")
        self.name = name
        self.seed = seed
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout = rollout
        self.depth = depth
        self.evaluation = evaluation
        self.candidates = candidates
        self.refine = refine
        self.anchor_z = anchor_z
        self.simultaneous = simultaneous
        self.early_stop = early_stop
        self.cut = cut
        self.paired = paired
        #: The result of the latest search (for hints and debugging).
        self.last_result: SearchResult | None = None

    def __repr__(self) -> str:
        return (
            f"ISMCTSBot(seed={self.seed}, iterations={self.iterations}, seconds={self.seconds}, "
            f"exploration={self.exploration}, rollout={self.rollout!r}, depth={self.depth}, "
            f"evaluation={self.evaluation!r}, candidates={self.candidates!r}, "
            f"refine={self.refine!r}, anchor_z={self.anchor_z}, "
            f"simultaneous={self.simultaneous!r}, early_stop={self.early_stop}, "
            f"cut={self.cut!r}, paired={self.paired!r})"
        )

    # -- public API --------------------------------------------------------------------

    def choose(self, view: SeatView) -> Action:
        """The most visited root action after a search from ``view``.

        With a single legal action no search is run.

        Raises:
            ValueError: ``view`` has no legal action.
        """
        if not view.legal_actions:
            raise ValueError(f"seat {view.player} has no legal action")
        if len(view.legal_actions) == 1:
            return view.legal_actions[0]
        return self.search(view).action

    def win_probability(self, view: SeatView) -> tuple[Action, float]:
        """The suggested action and its estimated win probability in [0, 1] (for hints).

        Raises:
            ValueError: ``view`` has no legal action.
        """
        result = self.search(view)
        return result.action, result.win_probability

    def search(self, view: SeatView) -> SearchResult:
        """Run one search from ``view`` within the budget.

        Returns:
            The :class:`SearchResult` (also stored in ``last_result``).

        Raises:
            ValueError: ``view`` has no legal action, or the determinizations have no legal
                action in common with ``view.legal_actions`` (a ``resample`` bug).
        """
        if not view.legal_actions:
            raise ValueError(f"seat {view.player} has no legal action")
        rng = random.Random(view_seed(self.seed, view, "ismcts"))
        policy, evaluate, candidates, refine, blind, cut = self._resolve(view)
        game = view.game
        lo, hi = float(game.info.min_utility), float(game.info.max_utility)
        span = hi - lo if hi > lo else 1.0
        num_players = game.num_players
        root = _Node(view.player)
        root_keys = {str(a): a for a in view.legal_actions}

        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        limit = self.iterations
        done = 0
        default: str | None = None
        rows: list[dict[str, float]] | None = [] if self.paired else None

        def iterate(state: State, r: random.Random, first: Action | None = None) -> float:
            return self._iterate(
                state,
                root,
                r,
                policy,
                evaluate,
                candidates,
                blind,
                cut,
                lo,
                span,
                num_players,
                first,
            )

        while (limit is None or done < limit) and (
            deadline is None or done == 0 or time.perf_counter() < deadline
        ):
            state = view.sample(rng)
            if refine is not None:
                refine(state, view.player, rng)
            if rows is not None:
                # Paired root: every root candidate on this same world, with the same random
                # numbers (common random numbers), so candidates are compared on equal luck.
                options = list(state.legal_actions() if candidates is None else candidates(state))
                if done == 0:
                    default = str(options[0])
                if limit is not None:
                    options = options[: limit - done]  # the budget is exact
                world_seed = rng.getrandbits(64)
                rows.append(
                    {str(a): iterate(state.clone(), random.Random(world_seed), a) for a in options}
                )
                done += len(options)
                continue
            if done == 0 and candidates is not None:
                default = str(candidates(state)[0])
            iterate(state, rng)
            done += 1
            if self.early_stop and self._settled(root, default, done, limit, start, deadline):
                break
        elapsed = time.perf_counter() - start
        result = self._result(root, root_keys, done, elapsed, default, rows)
        self.last_result = result
        return result

    # -- internals ---------------------------------------------------------------------

    def _resolve(
        self, view: SeatView
    ) -> tuple[
        RolloutPolicy,
        Evaluation | None,
        Candidates | None,
        Refiner | None,
        Simultaneous | None,
        Cut | None,
    ]:
        """The hooks of the search, with ``"heuristic"`` resolved for the view's game."""
        hooks = heuristics_for(view.game.info.name)
        policy: RolloutPolicy
        if self.rollout == "random":
            policy = random_policy
        elif self.rollout == "heuristic":
            policy = random_policy if hooks is None else hooks.rollout_policy
        else:
            policy = self.rollout
        evaluate: Evaluation | None
        if self.evaluation == "heuristic":
            evaluate = None if hooks is None else hooks.evaluate
        else:
            evaluate = self.evaluation
        candidates: Candidates | None
        if self.candidates == "all":
            candidates = None
        elif self.candidates == "heuristic":
            candidates = None if hooks is None else hooks.candidate_actions
        else:
            candidates = self.candidates
        refine: Refiner | None
        if self.refine == "heuristic":
            refine = None if hooks is None else hooks.refine_sample
        else:
            refine = self.refine
        blind: Simultaneous | None
        if self.simultaneous == "heuristic":
            blind = None if hooks is None else hooks.simultaneous
        else:
            blind = self.simultaneous
        cut: Cut | None
        if self.cut == "heuristic":
            cut = None if hooks is None else hooks.rollout_cut
        else:
            cut = self.cut
        return policy, evaluate, candidates, refine, blind, cut

    def _iterate(
        self,
        state: State,
        root: _Node,
        rng: random.Random,
        policy: RolloutPolicy,
        evaluate: Evaluation | None,
        candidates: Candidates | None,
        blind: Simultaneous | None,
        cut: Cut | None,
        lo: float,
        span: float,
        num_players: int,
        first: Action | None = None,
    ) -> float:
        """One iteration on the determinization ``state``; returns the observer's reward.

        ``first``: the root action to take (paired root, see ``paired``) instead of UCB's.
        """
        node = root
        path = [root]
        c = self.exploration
        observer = root.player
        expanded = False
        if first is not None:
            key = str(first)
            child = root.children.get(key)
            expanded = child is None
            if child is None:
                child = root.children[key] = _Node(state.current_player())
            state.apply_action(first)
            path.append(child)
            node = child
        # Selection and expansion.
        while not expanded and not state.is_terminal():
            if blind is not None and blind(state, observer):
                # A seat answering a secret it cannot see: the opponent model decides.
                a = policy(state, rng)
                key = str(a)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(state.current_player())
                state.apply_action(a)
                path.append(child)
                node = child
                continue
            actions = state.legal_actions() if candidates is None else candidates(state)
            children = node.children
            untried: list[tuple[str, Action]] = []
            best: tuple[str, Action, _Node] | None = None
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
                key, a = untried[rng.randrange(len(untried))]
                child = _Node(state.current_player())
                children[key] = child
                state.apply_action(a)
                path.append(child)
                break
            assert best is not None  # a non-terminal state has a legal action
            _, a, child = best
            state.apply_action(a)
            path.append(child)
            node = child
        # Simulation.
        steps = 0
        depth = self.depth if evaluate is not None else None  # no evaluation: play to the end
        while not state.is_terminal() and (
            depth is None or steps < depth or (cut is not None and not cut(state))
        ):
            state.apply_action(policy(state, rng))
            steps += 1
        if state.is_terminal() or evaluate is None:
            rewards = [(r - lo) / span for r in state.returns()]
        else:
            rewards = [evaluate(state, p) for p in range(num_players)]
        # Backpropagation: each node gets the reward of the seat that chose its action.
        for n in path[1:]:
            n.visits += 1
            n.reward += rewards[n.player]
        root.visits += 1
        return rewards[observer]

    def _settled(
        self,
        root: _Node,
        default: str | None,
        done: int,
        limit: int | None,
        start: float,
        deadline: float | None,
    ) -> bool:
        """Whether no further iteration can change the move (see "Early stop" above)."""
        first = second = 0
        leader = ""
        for key, child in root.children.items():
            if child.visits > first:
                first, second, leader = child.visits, first, key
            elif child.visits > second:
                second = child.visits
        lead = first - second
        if lead <= 0 or (self.anchor_z > 0 and default is not None and leader != default):
            return False
        remaining = math.inf if limit is None else float(limit - done)
        if deadline is not None:
            now = time.perf_counter()
            rate = done / max(now - start, 1e-9)
            remaining = min(remaining, rate * max(deadline - now, 0.0))
        return lead > remaining

    def _result(
        self,
        root: _Node,
        root_keys: dict[str, Action],
        iterations: int,
        seconds: float,
        default: str | None,
        rows: list[dict[str, float]] | None = None,
    ) -> SearchResult:
        stats: list[ActionStats] = []
        for key, action in root_keys.items():
            child = root.children.get(key)
            if child is None or child.visits == 0:
                stats.append(ActionStats(action, 0, 0.5))
            else:
                stats.append(ActionStats(action, child.visits, child.reward / child.visits))
        if not any(s.visits for s in stats):
            raise ValueError(
                "no search iteration reached a legal action of the view: the determinizations "
                "disagree with view.legal_actions (State.resample bug?)"
            )
        if rows:  # paired root: equal visits, so the best mean leads
            stats.sort(key=lambda s: (s.visits == 0, -s.mean_reward, -s.visits, str(s.action)))
            best = stats[0]
            if (
                self.anchor_z > 0
                and default is not None
                and str(best.action) != default
                and not paired_better(rows, str(best.action), default, self.anchor_z)
            ):
                anchor = next(s for s in stats if str(s.action) == default)
                stats.remove(anchor)
                stats.insert(0, anchor)
            return SearchResult(stats[0].action, stats[0].mean_reward, stats, iterations, seconds)
        stats.sort(key=lambda s: (-s.visits, -s.mean_reward, str(s.action)))
        best = stats[0]
        if self.anchor_z > 0 and default is not None and str(best.action) != default:
            anchor = next(s for s in stats if str(s.action) == default)
            if (
                anchor.visits
                and best.mean_reward - anchor.mean_reward
                <= self.anchor_z * (stderr(best) ** 2 + stderr(anchor) ** 2) ** 0.5
            ):
                best = anchor
                stats.remove(anchor)
                stats.insert(0, anchor)
        return SearchResult(best.action, best.mean_reward, stats, iterations, seconds)
