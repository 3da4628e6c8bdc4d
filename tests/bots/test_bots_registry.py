"""``make_bot`` specs, difficulty names and the heuristic registry."""

from __future__ import annotations

import pytest

from porphyra.bots import (
    ISMCTS_SEARCH,
    EasyBot,
    GreedyBot,
    ISMCTSBot,
    bot_names,
    make_bot,
    parse_spec,
    seat_view,
)
from porphyra.bots.heuristic import heuristic_for, heuristics_for, random_policy
from tests.bots.kuhn import KuhnGame, deal


def test_names() -> None:
    assert {"random", "bot", "easy", "medium", "hard", "ismcts"} <= set(bot_names())


@pytest.mark.parametrize("spec", ["random", "bot", "easy", "greedy", "ismcts", "medium", "hard"])
def test_every_name_builds_a_named_bot(spec: str) -> None:
    assert make_bot(spec, seed=3).name in {spec, "random"}


def test_difficulties_are_the_documented_budgets() -> None:
    medium, hard, ismcts = make_bot("medium"), make_bot("hard"), make_bot("ismcts")
    assert isinstance(medium, ISMCTSBot) and medium.settings.seconds == 0.5
    assert isinstance(hard, ISMCTSBot) and hard.settings.seconds == 2.0
    assert isinstance(ismcts, ISMCTSBot) and ismcts.settings.seconds is None
    assert ismcts.settings.iterations is not None
    assert isinstance(make_bot("easy"), EasyBot)
    for bot in (medium, hard, ismcts):  # one search configuration, three budgets
        s = bot.settings
        assert (s.rollout, s.candidates, s.refine, s.evaluation) == (
            "heuristic",
            "heuristic",
            "heuristic",
            "heuristic",
        )
        assert s == ISMCTS_SEARCH.with_options(iterations=s.iterations, seconds=s.seconds)


def test_spec_options() -> None:
    bot = make_bot("ismcts:iterations=2000,exploration=0.5,rollout=heuristic", seed=4)
    assert isinstance(bot, ISMCTSBot)
    s = bot.settings
    assert (s.iterations, s.exploration, s.rollout, bot.seed) == (2000, 0.5, "heuristic", 4)
    hard = make_bot("hard:seconds=none,iterations=300")
    assert isinstance(hard, ISMCTSBot)
    assert (hard.settings.seconds, hard.settings.iterations) == (None, 300)
    assert parse_spec(" Greedy : samples=2 ") == ("greedy", {"samples": 2})
    assert parse_spec("ismcts:early_stop=off") == ("ismcts", {"early_stop": False})
    assert parse_spec("ismcts:early_stop=True") == ("ismcts", {"early_stop": True})
    assert parse_spec("ismcts:depth=8,cut=heuristic,paired=on")[1] == {
        "depth": 8,
        "cut": "heuristic",
        "paired": True,
    }
    assert parse_spec("ismcts:cut=none")[1] == {"cut": None}


@pytest.mark.parametrize(
    "spec",
    [
        "nobody",
        "ismcts:iterations",
        "ismcts:iterations=many",
        "ismcts:colour=red",
        "ismcts:iterations=0",
        "ismcts:rollout=clever",
        "random:iterations=3",
        "greedy:exploration=1",
        "ismcts:early_stop=maybe",
        "ismcts:depth=deep",
        "ismcts:paired=maybe",
        "ismcts:cut=sometimes",
        "ismcts:iterations=heuristic",
    ],
)
def test_bad_specs_are_refused_with_value_error(spec: str) -> None:
    with pytest.raises(ValueError):
        make_bot(spec)


def test_game_without_heuristic_falls_back_to_generic_bots() -> None:
    assert heuristic_for("kuhn") is GreedyBot
    assert heuristics_for("kuhn") is None  # no evaluation, candidates, refiner or cut
    game = KuhnGame()
    state = deal(game, (0, 2), ["bet"])  # holding the king, facing a bet
    assert str(random_policy(state.clone(), __import__("random").Random(0))) in {"call", "fold"}
    assert str(make_bot("easy", 1).choose(seat_view(state))) == "call"
    assert str(make_bot("greedy", 1).choose(seat_view(deal(game, (1, 0), ["bet"])))) == "fold"


def test_each_game_exports_its_typed_hooks() -> None:
    from porphyra.bots.search_types import GameHeuristics

    byzantium, conspiracy = heuristics_for("byzantium"), heuristics_for("conspiracy")
    assert isinstance(byzantium, GameHeuristics) and isinstance(conspiracy, GameHeuristics)
    # Byzantium has every hook; Conspiracy's decisions are sequential (no refiner, no
    # simultaneous-move test) and its rollouts need no cut.
    assert all(getattr(byzantium, f) is not None for f in GameHeuristics.__dataclass_fields__)
    assert conspiracy.refine_sample is None and conspiracy.simultaneous is None
    assert conspiracy.evaluate is not None and conspiracy.candidate_actions is not None
    assert heuristic_for("byzantium") is byzantium.bot


def test_ismcts_settings_are_typed_frozen_and_checked() -> None:
    import dataclasses

    from porphyra.bots import ISMCTSSettings

    base = ISMCTSSettings()
    assert base.iteration_budget == 1000 and base.with_options(seconds=1.0).iteration_budget is None
    parsed = base.with_text_options({"iterations": "50", "early_stop": "off", "depth": "none"})
    assert (parsed.iterations, parsed.early_stop, parsed.depth) == (50, False, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        parsed.iterations = 3  # type: ignore[misc]
    for bad, message in [
        ({"iterations": "many"}, "bad value 'many' for iterations: expected int"),
        ({"early_stop": "perhaps"}, "expected bool"),
        ({"depth": "4"}, "a rollout depth needs an evaluation function"),
        ({"rollout": "clever"}, "unknown rollout 'clever'"),
        ({"colour": "red"}, "unknown ISMCTS option 'colour'"),
    ]:
        with pytest.raises(ValueError, match=message):
            base.with_text_options(bad)
    with pytest.raises(ValueError, match="unknown ISMCTS option"):
        make_bot("ismcts:samples=3")
