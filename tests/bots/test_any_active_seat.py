"""Every bot decides for any seat the game waits for, not only the canonical one: in
Byzantium's secret simultaneous choices (B-R3) the Foe may choose before the Emperor (the
web server asks a bot or a hint for it as soon as it may), and the search bots crashed
there (``StopIteration``), which in the server froze the bot slots."""

from __future__ import annotations

import pytest

from porphyra.bots import make_bot, seat_view
from porphyra.core.registry import load_game

BOTS = ["random", "easy", "greedy:samples=2", "ismcts:iterations=20"]


@pytest.mark.parametrize("spec", BOTS)
@pytest.mark.parametrize(
    ("name", "options"), [("byzantium", {"first_emperor": 0}), ("conspiracy", {"players": 2})]
)
def test_a_bot_decides_for_the_seat_that_is_not_canonical(
    spec: str, name: str, options: dict[str, int]
) -> None:
    game = load_game(name, **options)
    state = game.new_initial_state(seed=3)
    early = 0
    # greedy plays out every option (a Byzantium redraw has hundreds): its first redraw
    # pair, the Foe's first, is the case that matters
    steps = 2 if spec.startswith("greedy") and name == "byzantium" else 60
    for step in range(steps):
        if state.is_terminal():
            break
        active = state.active_players()
        seat = active[-1]  # the last seat the game waits for decides first
        early += seat != state.current_player()
        bot = make_bot(spec, seed=step)
        action = bot.choose(seat_view(state, seat))
        assert str(action) in {str(a) for a in state.legal_actions(seat)}
        state.apply_action(action, seat)
    if name == "byzantium":
        assert early  # the non-canonical seat did decide first
