"""ISMCTS on toy games: finds obvious moves, is deterministic, models each seat's interest."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from porphyra.bots import ISMCTSBot, seat_view
from porphyra.core.game import Action, State
from porphyra.games.byzantium.state import ByzantiumState
from tests.bots.kuhn import KuhnGame, KuhnState, deal
from tests.bots.treegame import Tree, TreeGame

J, Q, K, A = 0, 1, 2, 3


def choose_text(bot: ISMCTSBot, state: State) -> str:
    return str(bot.choose(seat_view(state)))


@pytest.mark.parametrize("seed", range(3))
def test_calls_with_the_king_facing_a_bet(seed: int) -> None:
    game = KuhnGame()
    for other in (J, Q):
        state = deal(game, (other, K), ["bet"])
        assert choose_text(ISMCTSBot(seed, iterations=300), state) == "call"
        state = deal(game, (K, other), ["check", "bet"])
        assert choose_text(ISMCTSBot(seed, iterations=300), state) == "call"


@pytest.mark.parametrize("seed", range(3))
def test_folds_the_jack_facing_a_bet(seed: int) -> None:
    game = KuhnGame()
    for other in (Q, K):
        state = deal(game, (other, J), ["bet"])
        assert choose_text(ISMCTSBot(seed, iterations=300), state) == "fold"


def test_win_probability_reflects_the_hand() -> None:
    game = KuhnGame()
    king = ISMCTSBot(1, iterations=400).search(seat_view(deal(game, (Q, K), ["bet"])))
    assert str(king.action) == "call"
    assert king.win_probability == pytest.approx(1.0)  # a sure win of the whole pot
    jack = ISMCTSBot(1, iterations=400, early_stop=False).search(
        seat_view(deal(game, (Q, J), ["bet"]))
    )
    assert str(jack.action) == "fold"
    assert jack.win_probability == pytest.approx(0.25)  # -1 on the [-2, 2] scale
    assert [s.visits for s in jack.stats] == sorted((s.visits for s in jack.stats), reverse=True)
    assert sum(s.visits for s in jack.stats) == jack.iterations == 400


def test_same_seed_and_view_give_the_same_search() -> None:
    game = KuhnGame(3)
    state = deal(game, (Q, K, J), ["check"])
    view = seat_view(state)
    first = ISMCTSBot(7, iterations=200).search(view)
    bot = ISMCTSBot(7, iterations=200)
    bot.choose(seat_view(deal(game, (J, Q, K))))  # earlier calls must not matter
    again = bot.search(seat_view(state.clone()))
    assert [(str(s.action), s.visits, s.mean_reward) for s in first.stats] == [
        (str(s.action), s.visits, s.mean_reward) for s in again.stats
    ]
    # The seed is really used: some other seed gives other statistics.
    others = {
        tuple(s.visits for s in ISMCTSBot(seed, iterations=200).search(view).stats)
        for seed in range(8)
    }
    assert len(others) > 1


# Seat 0 may take a small sure loss ("safe") or let seat 1 decide ("risky"), where seat 1
# will punish it.  Flat Monte Carlo (or a search that backs up seat 0's reward at seat 1's
# nodes) prefers "risky"; a correct search knows seat 1 plays for itself.
TRAP: Tree = (
    0,
    {
        "safe": (-0.2, 0.2),
        "risky": (1, {"spare": (1.0, -1.0), "punish": (-1.0, 1.0)}),
    },
)

# Three seats: seat 2 chooses between a branch where seat 1 then picks and a direct result;
# every seat must be modelled as maximising its own return for seat 0 to see "risky" loses.
TRAP3: Tree = (
    0,
    {
        "safe": (-0.2, 0.0, 0.0),
        "risky": (
            2,
            {
                "left": (1, {"p1good": (-1.0, 1.0, -1.0), "p0good": (1.0, 0.0, 1.0)}),
                "right": (-1.0, -1.0, 0.0),
            },
        ),
    },
)


@pytest.mark.parametrize(("tree", "players"), [(TRAP, 2), (TRAP3, 3)])
def test_each_seat_maximises_its_own_reward(tree: Tree, players: int) -> None:
    game = TreeGame(tree, players)
    result = ISMCTSBot(0, iterations=500).search(seat_view(game.new_initial_state()))
    assert str(result.action) == "safe"
    risky = next(s for s in result.stats if str(s.action) == "risky")
    assert risky.mean_reward < 0.3


def _chain(depth: int) -> Tree:
    """A long forced line that ends in a loss for seat 0."""
    node: Tree = (-1.0, 1.0)
    for i in range(depth):
        node = (i % 2, {"go": node})
    return node


def test_depth_cutoff_uses_the_evaluation() -> None:
    # "risky" starts a 40-move forced line lost by seat 0; an evaluation that (wrongly) calls
    # every non-terminal state a win for seat 0 must be what the cut rollouts see.
    game = TreeGame((0, {"safe": (-0.2, 0.2), "risky": _chain(40)}))

    def evaluate(state: State, player: int) -> float:
        return 1.0 if player == 0 else 0.0

    view = seat_view(game.new_initial_state())
    cut = ISMCTSBot(0, iterations=20, depth=0, evaluation=evaluate)
    assert str(cut.choose(view)) == "risky"
    full = ISMCTSBot(0, iterations=20, evaluation=evaluate)  # no depth: plays to the end
    assert str(full.choose(view)) == "safe"


def test_cut_plays_a_rollout_on_until_a_natural_stopping_point() -> None:
    # Seat 0 evaluates every state of the 40-move line as a win, but the only place a
    # rollout may stop ("cut") is 30 moves in, where the evaluation knows the line is lost:
    # depth 0 plus the cut must see that loss and prefer "safe".
    game = TreeGame((0, {"safe": (-0.2, 0.2), "risky": _chain(40)}))

    def evaluate(state: State, player: int) -> float:
        late = len(state.path) >= 30  # type: ignore[attr-defined]
        return float(player == 1) if late else float(player == 0)

    def cut(state: State) -> bool:
        return len(state.path) == 30  # type: ignore[attr-defined]

    view = seat_view(game.new_initial_state())
    assert str(ISMCTSBot(0, iterations=20, depth=0, evaluation=evaluate).choose(view)) == "risky"
    bot = ISMCTSBot(0, iterations=20, depth=0, evaluation=evaluate, cut=cut)
    assert str(bot.choose(view)) == "safe"


def test_custom_rollout_policy_is_used() -> None:
    calls: list[int] = []

    def always_first(state: State, rng: random.Random) -> object:
        calls.append(state.current_player())
        return state.legal_actions()[0]

    game = KuhnGame()
    bot = ISMCTSBot(0, iterations=30, rollout=always_first)
    bot.choose(seat_view(deal(game, (Q, K))))
    assert calls


def test_time_budget_runs_at_least_one_iteration() -> None:
    game = KuhnGame()
    result = ISMCTSBot(0, seconds=1e-9).search(seat_view(deal(game, (Q, K), ["bet"])))
    assert result.iterations >= 1


def test_single_legal_action_and_no_action() -> None:
    game = TreeGame((0, {"only": (0.0, 0.0)}))
    bot = ISMCTSBot(0, iterations=10)
    assert str(bot.choose(seat_view(game.new_initial_state()))) == "only"
    end = game.new_initial_state()
    end.apply_action(end.legal_actions()[0])
    with pytest.raises(ValueError, match="no legal action"):
        bot.choose(seat_view(end, 0))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"iterations": 0},
        {"seconds": 0.0},
        {"exploration": -1.0},
        {"depth": 3},
        {"rollout": "smart"},
        {"evaluation": "clever"},
        {"cut": "sometimes"},
        {"depth": "deep"},
    ],
)
def test_bad_options_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        ISMCTSBot(0, **kwargs)  # type: ignore[arg-type]


def test_refine_models_the_opponent_in_each_determinization() -> None:
    # Seat 1 holds the queen facing a bet: the bettor holds the jack or the king.  An
    # opponent model that says "a bettor holds the king" makes folding right; "the jack",
    # calling.
    game = KuhnGame()
    view = seat_view(deal(game, (K, Q), ["bet"]))

    def holds(card: int) -> Callable[[State, int, random.Random], None]:
        def refine(state: State, player: int, rng: random.Random) -> None:
            assert isinstance(state, KuhnState)
            cards = list(state.cards)
            cards[1 - player] = card
            state.cards = tuple(cards)

        return refine

    assert str(ISMCTSBot(0, iterations=200, refine=holds(K)).choose(view)) == "fold"
    assert str(ISMCTSBot(0, iterations=200, refine=holds(J)).choose(view)) == "call"


def test_candidates_restrict_the_tree() -> None:
    game = KuhnGame()
    view = seat_view(deal(game, (Q, K), ["bet"]))

    def only_fold(state: State) -> list[Action]:
        return [a for a in state.legal_actions() if str(a) == "fold"] or list(state.legal_actions())

    result = ISMCTSBot(0, iterations=50, candidates=only_fold).search(view)
    assert str(result.action) == "fold"  # calling with the king is better, but pruned
    assert [s.visits for s in result.stats if str(s.action) == "call"] == [0]


def test_anchor_keeps_the_default_unless_clearly_beaten() -> None:
    game = KuhnGame()

    def fold_first(state: State) -> list[Action]:
        return sorted(state.legal_actions(), key=lambda a: str(a) != "fold")

    king = seat_view(deal(game, (Q, K), ["bet"]))  # calling is clearly better
    assert str(ISMCTSBot(0, iterations=200, candidates=fold_first).choose(king)) == "call"
    assert str(ISMCTSBot(0, iterations=200, candidates=fold_first, anchor_z=1).choose(king)) == (
        "call"
    )
    stubborn = ISMCTSBot(0, iterations=200, candidates=fold_first, anchor_z=1000)
    assert str(stubborn.choose(king)) == "fold"
    assert str(stubborn.last_result.stats[0].action) == "fold"  # type: ignore[union-attr]


def _positions(game_name: str, count: int, **options: object) -> list[State]:
    """``count`` positions of easy-vs-easy games with a real choice (several legal actions)."""
    from porphyra import load_game
    from porphyra.bots import make_bot

    game = load_game(game_name, **options)
    found: list[State] = []
    seed = 0
    while len(found) < count:
        state = game.new_initial_state(seed)
        bots = [make_bot("easy", seed + p) for p in range(game.num_players)]
        while not state.is_terminal() and len(found) < count:
            view = seat_view(state)
            if len(view.legal_actions) > 1 and random.Random(len(found) + seed).random() < 0.3:
                found.append(state.clone())
            state.apply_action(bots[state.current_player()].choose(view))
        seed += 1
    return found


@pytest.mark.parametrize(
    ("game_name", "options"), [("byzantium", {}), ("conspiracy", {"players": 2})]
)
def test_early_stop_never_changes_the_move(game_name: str, options: dict[str, object]) -> None:
    from porphyra.bots import ISMCTS_SEARCH

    settings = ISMCTS_SEARCH.with_options(paired=False)  # (a paired root has no early stop)
    saved = 0
    for state in _positions(game_name, 12, **options):
        view = seat_view(state)
        full = ISMCTSBot(3, settings, iterations=300, early_stop=False).search(view)
        short = ISMCTSBot(3, settings, iterations=300).search(view)
        assert str(short.action) == str(full.action)
        assert full.iterations == 300 and short.iterations <= 300
        saved += full.iterations - short.iterations
    assert saved > 0  # it does stop early on some of these positions


def test_paired_root_tries_every_candidate_on_each_world() -> None:
    game = KuhnGame()
    state = deal(game, (Q, J), ["bet"])  # folding the jack is clearly best
    result = ISMCTSBot(1, iterations=401, paired=True).search(seat_view(state))
    assert str(result.action) == "fold" and result.iterations == 401
    visits = sorted(s.visits for s in result.stats)
    assert visits == [200, 201]  # round robin on each world, the budget exact
    assert result.win_probability == pytest.approx(0.25)


def test_paired_root_keeps_the_default_unless_the_paired_difference_is_significant() -> None:
    # Seat 0 chooses, then seat 1 plays "chance" (blind: the rollout's coin decides) among
    # three outcomes.  "better" pays as "default" on every coin, and 0.08 more on "c": on
    # paired worlds (the same coin for both) the small edge is clear, while unpaired the
    # luck of the coin (-1 or 1) would hide it.  "swapped" turns the coin's outcomes around:
    # its per-world differences are noise, so the default is kept.
    def lottery(a: float, b: float, c: float) -> Tree:
        return (1, {"a": (a, -a), "b": (b, -b), "c": (c, -c)})

    def first_is_default(state: State) -> list[Any]:
        return sorted(state.legal_actions(), key=lambda a: str(a) != "default")

    def coin(state: State, rng: random.Random) -> Any:
        actions = state.legal_actions()
        return actions[rng.randrange(len(actions))]

    def chance(state: State, observer: int) -> bool:
        return state.current_player() == 1

    common: dict[str, Any] = {
        "iterations": 600,
        "candidates": first_is_default,
        "rollout": coin,
        "simultaneous": chance,
        "paired": True,
        "anchor_z": 3.0,
    }
    default = lottery(1.0, -1.0, 0.0)
    edge = TreeGame((0, {"default": default, "better": lottery(1.0, -1.0, 0.08)}))
    view = seat_view(edge.new_initial_state())
    assert str(ISMCTSBot(0, **common).search(view).action) == "better"
    noise = TreeGame((0, {"default": default, "swapped": lottery(-1.0, 1.0, 0.08)}))
    view = seat_view(noise.new_initial_state())
    for seed in range(5):
        assert str(ISMCTSBot(seed, **common).search(view).action) == "default"


def test_early_stop_ends_a_settled_search() -> None:
    game = KuhnGame()
    state = deal(game, (Q, J), ["bet"])  # folding the jack is clearly best
    short = ISMCTSBot(1, iterations=400).search(seat_view(state))
    full = ISMCTSBot(1, iterations=400, early_stop=False).search(seat_view(state))
    assert str(short.action) == str(full.action) == "fold"
    assert short.iterations < full.iterations == 400
    visits = sorted((s.visits for s in short.stats), reverse=True)
    assert visits[0] - visits[1] > 400 - short.iterations  # the runner-up could not catch up


def _emperor_meld_position() -> ByzantiumState:
    """A Byzantium position where the Emperor chooses a meld (the Foe will answer blind)."""
    from porphyra import load_game
    from porphyra.bots import make_bot

    game = load_game("byzantium")
    state = game.new_initial_state(4)
    assert isinstance(state, ByzantiumState)
    easy = make_bot("easy")
    while state.phase != "meld_byz":
        state.apply_action(easy.choose(seat_view(state)))
    return state


def _blind(s: State, observer: int) -> bool:
    """Byzantium's simultaneous-move test as a generic ISMCTS hook."""
    from porphyra.bots.byzantium_search import simultaneous

    assert isinstance(s, ByzantiumState)
    return simultaneous(s, observer)


def test_simultaneous_decisions_follow_the_opponent_model() -> None:
    # B-R3: the Foe melds without seeing the Emperor's pending meld.  With ``simultaneous``
    # the Foe's reply in the tree comes from the policy, never from UCB over its replies.
    from porphyra.bots.byzantium_search import rollout_policy, simultaneous

    state = _emperor_meld_position()
    emperor = state.current_player()
    blind_phases: list[str] = []

    def recording(s: State, rng: random.Random) -> Action:
        assert isinstance(s, ByzantiumState)
        blind_phases.append(s.phase)
        return rollout_policy(s, rng)

    def never_called(s: State, rng: random.Random) -> Action:
        raise AssertionError("no rollout step at depth 0")

    common: dict[str, Any] = {
        "depth": 0,
        "evaluation": lambda s, p: 0.5,
        "early_stop": False,
        "candidates": "heuristic",
    }
    ISMCTSBot(0, iterations=60, rollout=recording, simultaneous=_blind, **common).search(
        seat_view(state)
    )
    assert blind_phases and set(blind_phases) <= {"meld_foe"}
    assert simultaneous(state, emperor) is False  # the searching seat itself is never blind

    bot = ISMCTSBot(0, iterations=60, rollout=never_called, **common)
    result = bot.search(seat_view(state))  # without it the Foe's replies are tree nodes
    assert result.iterations == 60


def test_simultaneous_reply_does_not_depend_on_the_secret() -> None:
    from porphyra.bots.byzantium_search import rollout_policy

    state = _emperor_meld_position()
    seen: dict[str, set[str]] = {}

    def tracking(s: State, rng: random.Random) -> Action:
        assert isinstance(s, ByzantiumState)
        action = rollout_policy(s, rng)
        hand = str(sorted(s.hands[s.current_player()]))
        seen.setdefault(hand, set()).add(str(action))
        return action

    bot = ISMCTSBot(
        1,
        iterations=150,
        rollout=tracking,
        simultaneous=_blind,
        depth=0,
        evaluation=lambda s, p: 0.5,
        early_stop=False,
        candidates="heuristic",
    )
    bot.search(seat_view(state))
    # The Foe's reply is a function of its own (sampled) hand only, whatever the Emperor hid.
    assert seen and all(len(replies) == 1 for replies in seen.values())
