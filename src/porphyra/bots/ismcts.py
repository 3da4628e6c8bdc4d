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
from typing import Any

from porphyra.bots.base import SeatView
from porphyra.bots.heuristic import heuristics_for, random_policy
from porphyra.bots.ismcts_settings import ISMCTSSettings
from porphyra.bots.ismcts_tree import Node, Search, iterate
from porphyra.bots.search_types import (
    ActionStats,
    Candidates,
    Cut,
    Evaluation,
    Refiner,
    RolloutPolicy,
    SearchResult,
    Simultaneous,
    paired_better,
    stderr,
    view_seed,
)
from porphyra.core.game import Action


class ISMCTSBot:
    """SO-ISMCTS bot (see the module docstring).

    Args:
        seed: seeds every search (with the view: see :func:`view_seed`).
        settings: the search's :class:`~porphyra.bots.ismcts_settings.ISMCTSSettings`
            (default: ``ISMCTSSettings()``, 1000 iterations, random rollouts).
        name: the bot's display name.
        **options: settings to change, by name (``iterations=200, exploration=0.5``);
            what each does:

            - ``iterations`` / ``seconds``: iteration and time budgets per move (a time
              budget makes moves not reproducible); the search stops at the first reached.
            - ``exploration``: UCB exploration constant for rewards in [0, 1].
            - ``rollout``: ``"random"``, ``"heuristic"`` (the game's policy, see
              :mod:`porphyra.bots.heuristic`) or a callable ``(state, rng) -> Action``.
            - ``depth``: stop each rollout after this many actions and score the position
              with ``evaluation`` (``"heuristic"`` or a callable ``(state, player) ->
              [0, 1]``); ``None`` plays rollouts to the end.
            - ``cut``: ``"heuristic"`` or ``state -> bool``: a rollout that has played
              ``depth`` actions goes on until this is true, so the evaluation sees
              positions where it is accurate.
            - ``candidates``: ``"all"``, ``"heuristic"`` (the game's candidate generator),
              another of the game's generators by name for the root decision, the game's
              own below it (Byzantium's ``"pile"``: the redraw by the pile rule first) or
              a callable ``state -> actions`` (a non-empty subset of the legal ones).
            - ``refine``: ``"heuristic"`` or ``(state, player, rng) -> None``, adjusting
              each determinization in place without changing ``observation(player)``.
            - ``anchor_z``: with candidates, the first candidate (the heuristic's choice)
              is kept unless another root action's mean reward is higher by more than
              ``anchor_z`` standard errors (0: plain most-visited choice).
            - ``simultaneous``: ``"heuristic"`` or ``(state, observer) -> bool``: such
              decisions are played by the rollout policy, not UCB (module docstring, 4).
            - ``early_stop``: end the search once the move can no longer change.
            - ``paired``: play each sampled world once from every root candidate with the
              same random numbers; ``anchor_z`` becomes a paired test; no ``early_stop``.

    Raises:
        ValueError: an unknown option, or a value the settings refuse (see
            :class:`~porphyra.bots.ismcts_settings.ISMCTSSettings`).
    """

    def __init__(
        self,
        seed: int = 0,
        settings: ISMCTSSettings | None = None,
        *,
        name: str = "ismcts",
        **options: Any,
    ) -> None:
        self.name = name
        self.seed = seed
        #: The search settings (frozen).
        self.settings = (settings or ISMCTSSettings()).with_options(**options)
        #: The result of the latest search (for hints and debugging).
        self.last_result: SearchResult | None = None

    def __repr__(self) -> str:
        return f"ISMCTSBot(seed={self.seed}, settings={self.settings!r}, name={self.name!r})"

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
        settings = self.settings
        rng = random.Random(view_seed(self.seed, view, "ismcts"))
        search = self._resolve(view)
        candidates, refine = search.root_candidates, search.refine
        root = Node(view.player)
        root_keys = {str(a): a for a in view.legal_actions}

        start = time.perf_counter()
        deadline = None if settings.seconds is None else start + settings.seconds
        limit = settings.iteration_budget
        done = 0
        default: str | None = None
        rows: list[dict[str, float]] | None = [] if settings.paired else None

        while (limit is None or done < limit) and (
            deadline is None or done == 0 or time.perf_counter() < deadline
        ):
            state = view.sample(rng)
            if refine is not None:
                refine(state, view.player, rng)
            # A seat deciding early in a secret simultaneous choice (B-R3: the Foe before
            # the Emperor): the canonical seat's pending choice is hidden from it, so the
            # opponent model makes it in this world, and the search goes on from the
            # observer's own decision (the order of the two choices changes nothing).
            while not state.is_terminal() and state.current_player() != view.player:
                state.apply_action(search.policy(state, rng))
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
                    {
                        str(a): iterate(state.clone(), root, random.Random(world_seed), search, a)
                        for a in options
                    }
                )
                done += len(options)
                continue
            if done == 0 and candidates is not None:
                default = str(candidates(state)[0])
            iterate(state, root, rng, search)
            done += 1
            if settings.early_stop and self._settled(root, default, done, limit, start, deadline):
                break
        elapsed = time.perf_counter() - start
        result = self._result(root, root_keys, done, elapsed, default, rows)
        self.last_result = result
        return result

    # -- internals ---------------------------------------------------------------------

    def check_game(self, game: str) -> None:
        """Check that this bot's settings suit the game named ``game`` (its candidate
        generator by name: :attr:`GameHeuristics.candidate_variants`), so that a command
        refuses a bot before its game starts rather than at its first move.

        Raises:
            ValueError: ``candidates`` names no candidate generator of ``game``.
        """
        name = self.settings.candidates
        if isinstance(name, str) and name not in ("all", "heuristic"):
            hooks = heuristics_for(game)
            known = () if hooks is None else tuple(hooks.candidate_variants)
            if name not in known:
                raise ValueError(
                    f"unknown candidates {name!r} for {game}; use "
                    + " or ".join(map(repr, ("all", "heuristic", *known)))
                )

    def _resolve(self, view: SeatView) -> Search:
        """The hooks and constants of a search from ``view``, with ``"heuristic"``
        resolved for the view's game."""
        self.check_game(view.game.info.name)
        s = self.settings
        hooks = heuristics_for(view.game.info.name)
        # Named hooks: "random" / "all" are the generic ones (None: every legal action);
        # "heuristic" is the game's own (the generic one for a game without heuristics).
        policy: RolloutPolicy = random_policy if isinstance(s.rollout, str) else s.rollout
        evaluate: Evaluation | None = None if isinstance(s.evaluation, str) else s.evaluation
        candidates: Candidates | None = None if isinstance(s.candidates, str) else s.candidates
        refine: Refiner | None = None if isinstance(s.refine, str) else s.refine
        blind: Simultaneous | None = None if isinstance(s.simultaneous, str) else s.simultaneous
        cut: Cut | None = None if isinstance(s.cut, str) else s.cut
        root_candidates: Candidates | None = None
        if hooks is not None:
            if s.rollout == "heuristic":
                policy = hooks.rollout_policy
            if s.evaluation == "heuristic":
                evaluate = hooks.evaluate
            if s.candidates == "heuristic":
                candidates = hooks.candidate_actions
            elif isinstance(s.candidates, str) and s.candidates != "all":
                # A variant orders the root decision's candidates; the tree below keeps the
                # game's own (a variant may cost more than the tree's many calls afford).
                candidates = hooks.candidate_actions
                root_candidates = hooks.candidate_variants.get(s.candidates)
            if s.refine == "heuristic":
                refine = hooks.refine_sample
            if s.simultaneous == "heuristic":
                blind = hooks.simultaneous
            if s.cut == "heuristic":
                cut = hooks.rollout_cut
        info = view.game.info
        lo, hi = float(info.min_utility), float(info.max_utility)
        return Search(
            policy=policy,
            evaluate=evaluate,
            candidates=candidates,
            root_candidates=root_candidates or candidates,
            refine=refine,
            blind=blind,
            cut=cut,
            exploration=s.exploration,
            depth=s.depth if evaluate is not None else None,
            lo=lo,
            span=hi - lo if hi > lo else 1.0,
            num_players=view.game.num_players,
        )

    def _settled(
        self,
        root: Node,
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
        if lead <= 0 or (self.settings.anchor_z > 0 and default is not None and leader != default):
            return False
        remaining = math.inf if limit is None else float(limit - done)
        if deadline is not None:
            now = time.perf_counter()
            rate = done / max(now - start, 1e-9)
            remaining = min(remaining, rate * max(deadline - now, 0.0))
        return lead > remaining

    def _result(
        self,
        root: Node,
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
                self.settings.anchor_z > 0
                and default is not None
                and str(best.action) != default
                and not paired_better(rows, str(best.action), default, self.settings.anchor_z)
            ):
                anchor = next(s for s in stats if str(s.action) == default)
                stats.remove(anchor)
                stats.insert(0, anchor)
            return SearchResult(stats[0].action, stats[0].mean_reward, stats, iterations, seconds)
        stats.sort(key=lambda s: (-s.visits, -s.mean_reward, str(s.action)))
        best = stats[0]
        if self.settings.anchor_z > 0 and default is not None and str(best.action) != default:
            anchor = next(s for s in stats if str(s.action) == default)
            if (
                anchor.visits
                and best.mean_reward - anchor.mean_reward
                <= self.settings.anchor_z * (stderr(best) ** 2 + stderr(anchor) ** 2) ** 0.5
            ):
                best = anchor
                stats.remove(anchor)
                stats.insert(0, anchor)
        return SearchResult(best.action, best.mean_reward, stats, iterations, seconds)
