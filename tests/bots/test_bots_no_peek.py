"""No-peek property: a bot's choice never changes when what its seat cannot see changes.

For many positions, the true state is replaced by ``state.resample(player, rng)`` (same
observation for the deciding seat, other hidden cards, deck orders and random future) and a
fresh bot with the same seed must choose the same action.  Run on toy games here and on every
registered game whose engine is importable.  Also: every bot returns a legal action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import SupportsIndex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from porphyra.bots import Bot, make_bot, seat_view
from porphyra.bots.base import SeatView
from porphyra.core.errors import UnknownGameError
from porphyra.core.game import Action, Game, State
from porphyra.core.registry import load_game
from porphyra.core.seatarg import as_seat
from tests.bots.kuhn import KuhnGame, KuhnState, deal

#: Bots under test, with small budgets so the suite stays fast.
TOY_SPECS = [
    "random",
    "easy",
    "greedy:samples=3",
    "ismcts:iterations=80",
    "ismcts:iterations=80,paired=on",
]
BIG_SPECS = [
    "random",
    "easy",
    "ismcts:iterations=40",
    "ismcts:iterations=40,paired=on,cut=heuristic",
]

#: (label, game name, options) of the real games.
BIG_GAMES = [
    ("byzantium", "byzantium", {}),
    ("conspiracy-2p", "conspiracy", {"players": 2}),
    ("conspiracy-3p", "conspiracy", {"players": 3}),
]


def load_or_skip(name: str, options: dict[str, object]) -> Game:
    try:
        return load_game(name, **options)
    except (ImportError, UnknownGameError) as exc:
        pytest.skip(f"game {name!r} not available yet: {exc}")


def choice(spec: str, seed: int, state: State) -> str:
    return str(make_bot(spec, seed).choose(seat_view(state)))


def assert_no_peek(spec: str, seed: int, state: State, rng: random.Random, tries: int = 2) -> None:
    """The bot ``spec`` makes the same choice on ``state`` and on resampled truths."""
    player = state.current_player()
    expected = choice(spec, seed, state)
    obs = state.observation(player)
    for _ in range(tries):
        other = state.resample(player, rng)
        assert other.observation(player) == obs  # the premise: same information set
        got = choice(spec, seed, other)
        assert got == expected, (
            f"{spec} (seed {seed}) chose {expected!r} but {got!r} once hidden information "
            f"changed, at step {len(state.history)}"
        )


def random_position(game: Game, seed: int, steps: int) -> State | None:
    """The state after up to ``steps`` random actions from seed ``seed`` (None if over)."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply_action(actions[rng.randrange(len(actions))])
    return None if state.is_terminal() else state


# -- toy games ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([2, 3]),
    game_seed=st.integers(0, 10_000),
    steps=st.integers(0, 4),
    bot_seed=st.integers(0, 2**32),
    spec=st.sampled_from(TOY_SPECS),
)
def test_no_peek_on_kuhn(
    players: int, game_seed: int, steps: int, bot_seed: int, spec: str
) -> None:
    state = random_position(KuhnGame(players), game_seed, steps)
    if state is not None:
        assert_no_peek(spec, bot_seed, state, random.Random(game_seed), tries=3)


class PeekingBot:
    """A cheat that reads the true state through a back door: the test must catch it."""

    name = "peeker"

    def __init__(self, truth: State) -> None:
        self.truth = truth

    def choose(self, view: SeatView) -> Action:
        cards: tuple[int, ...] = getattr(self.truth, "cards", ())
        other = cards[1 - view.player]  # the opponent's hidden card
        return view.legal_actions[other % 2]


def test_the_property_catches_a_peeking_bot() -> None:
    game = KuhnGame()
    state = deal(game, (1, 0), ["bet"])  # seat 1 holds the jack: seat 0 holds Q or K
    rng = random.Random(0)
    choices = set()
    for _ in range(20):
        truth = state.resample(1, rng)
        bot: Bot = PeekingBot(truth)
        choices.add(str(bot.choose(seat_view(truth))))
    assert len(choices) == 2  # it changes its mind with hidden cards: a no-peek failure


# -- real games --------------------------------------------------------------------------


def canonical_resample_failure(game: Game) -> str | None:
    """Why ``resample`` is not a function of the seat's observation and the generator alone
    (``None`` if it is, on a few positions).

    A determinization must not depend on the hidden truth, or a seeded search bot's move
    would (e.g. shuffling the true deck order instead of a canonically sorted one: the
    distribution is right, but each draw is a function of the truth).
    """
    for seed in range(3):
        for steps in (0, 5, 17, 40):
            state = random_position(game, 200 + seed, steps)
            if state is None:
                continue
            player = state.current_player()
            other = state.resample(player, random.Random(seed))
            for k in range(2):
                a = state.resample(player, random.Random(k))
                b = other.resample(player, random.Random(k))
                seen_a = [a.observation(q) for q in range(game.num_players)]
                seen_b = [b.observation(q) for q in range(game.num_players)]
                if seen_a != seen_b or a.hidden_from(player) != b.hidden_from(player):
                    return (
                        f"{game.info.name}: resample({player}, rng) at step {steps} of seed "
                        f"{200 + seed} depends on the hidden truth, not only on "
                        f"observation({player}) and rng; put the hidden cards (pools, deck "
                        "orders) in a canonical order (e.g. sorted) before rng.shuffle"
                    )
    return None


@pytest.mark.parametrize(("label", "name", "options"), BIG_GAMES, ids=[g[0] for g in BIG_GAMES])
def test_resample_is_canonical(label: str, name: str, options: dict[str, object]) -> None:
    failure = canonical_resample_failure(load_or_skip(name, options))
    assert failure is None, failure


def test_canonical_check_catches_a_truth_dependent_resample() -> None:
    class LeakyKuhn(KuhnGame):
        def new_initial_state(self, seed: int = 0) -> KuhnState:
            return LeakyState(self, seed, super().new_initial_state(seed).cards)

    class LeakyState(KuhnState):
        def resample(self, player: SupportsIndex, rng: random.Random) -> KuhnState:
            seat = as_seat(player)
            # Shuffles the other cards in their true order: right distribution, leaky draws.
            others = [c for p, c in enumerate(self.cards) if p != seat]
            rng.shuffle(others)
            cards = list(self.cards)
            for p in range(len(cards)):
                if p != seat:
                    cards[p] = others.pop()
            out = LeakyState(self.kgame, self.seed, tuple(cards))
            out._history = list(self._history)
            return out

    assert canonical_resample_failure(KuhnGame(3)) is None
    assert canonical_resample_failure(LeakyKuhn(3)) is not None


@pytest.mark.parametrize(("label", "name", "options"), BIG_GAMES, ids=[g[0] for g in BIG_GAMES])
@pytest.mark.parametrize("spec", BIG_SPECS)
def test_no_peek_on_real_games(
    label: str, name: str, options: dict[str, object], spec: str
) -> None:
    game = load_or_skip(name, options)
    if spec != "random" and (failure := canonical_resample_failure(game)):
        # Reported by test_resample_is_canonical; the bots cannot be no-peek until fixed.
        pytest.xfail(f"engine resample is not canonical: {failure}")
    checked = 0
    for seed in range(3):
        for steps in (0, 7, 23):
            state = random_position(game, 100 + seed, steps)
            if state is None:
                continue
            assert_no_peek(spec, seed, state, random.Random(seed))
            checked += 1
    assert checked >= 3


# -- legality ----------------------------------------------------------------------------


def play(game: Game, seat_bots: list[Bot], seed: int, max_steps: int = 5000) -> State:
    state = game.new_initial_state(seed=seed)
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        player = state.current_player()
        legal = {str(a) for a in state.legal_actions()}
        action = seat_bots[player].choose(seat_view(state))
        assert str(action) in legal, f"{seat_bots[player].name} chose illegal {action}"
        state.apply_action(action)
    raise AssertionError(f"game did not end in {max_steps} actions")


@pytest.mark.parametrize("spec", TOY_SPECS)
@pytest.mark.parametrize("players", [2, 3])
def test_bots_play_legal_kuhn_games(spec: str, players: int) -> None:
    game = KuhnGame(players)
    for seed in range(15):
        bots = [make_bot(spec, seed * 10 + p) for p in range(players)]
        assert play(game, bots, seed).is_terminal()


@pytest.mark.parametrize(("label", "name", "options"), BIG_GAMES, ids=[g[0] for g in BIG_GAMES])
@pytest.mark.parametrize("spec", BIG_SPECS)
def test_bots_play_legal_real_games(
    label: str, name: str, options: dict[str, object], spec: str
) -> None:
    game = load_or_skip(name, options)
    games = 1 if spec.startswith("ismcts") else 3
    make: Callable[[int], Bot] = lambda s: make_bot(spec, s)  # noqa: E731
    for seed in range(games):
        bots = [make(seed * 10 + p) for p in range(game.num_players)]
        assert play(game, bots, seed).is_terminal()
