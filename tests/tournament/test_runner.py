"""Playing tournaments: real (tiny) games, determinism across worker counts, records."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from porphyra import record as records
from porphyra.tournament import (
    GameResult,
    TournamentConfig,
    build_schedule,
    play_match,
    round_robin,
    run_matches,
    summarize,
    tournament,
)
from porphyra.tournament.output import combine, read_csv, write_csv


def _comparable(results: list[GameResult]) -> list[tuple[object, ...]]:
    # Everything but the wall-clock duration.
    return [(r.match, r.returns, r.scores, r.actions) for r in results]


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    matches = round_robin("byzantium", {}, ["random", "ismcts:iterations=10"], 2, 4, seed=3)
    one = run_matches(matches, workers=1)
    two = run_matches(matches, workers=2)
    assert _comparable(one) == _comparable(two)
    assert [r.match.game_id for r in two] == [0, 1, 2, 3]


def test_tournament_summary_is_the_same_with_one_or_two_workers() -> None:
    config = TournamentConfig("conspiracy", ["random", "bot"], games=2, seed=11)
    first, _ = tournament(config)
    second, _ = tournament(dataclasses.replace(config, workers=2))
    for key in ("games", "entrants", "tables", "seats", "ratings", "mean_actions"):
        assert first[key] == second[key]
    assert second["parameters"]["workers"] == 2


def test_a_match_replays_from_its_record() -> None:
    (match,) = round_robin("byzantium", {}, ["random", "bot"], 2, 2, seed=5)[:1]
    result = play_match(match, keep_record=True)
    assert result.record is not None
    state = records.replay(result.record)
    assert state.is_terminal()
    assert tuple(state.returns()) == result.returns
    assert len(state.history) == result.actions
    assert result.record["seed"] == 5


def test_progress_is_reported_for_every_game() -> None:
    seen: list[int] = []
    config = TournamentConfig("byzantium", ["random", "bot", "easy"], games=2)
    matches = build_schedule(config)
    run_matches(matches, workers=1, progress=seen.append)
    assert seen == list(range(1, 7))


def test_bad_worker_count_is_refused() -> None:
    with pytest.raises(ValueError, match="--workers"):
        run_matches([], workers=0)


def test_a_failing_game_names_the_game() -> None:
    (match,) = round_robin("byzantium", {}, ["random", "bot"], 2, 2, seed=5)[:1]
    broken = dataclasses.replace(match, seats=("random", "nonsense"))
    with pytest.raises(RuntimeError, match=r"game 0 .*seed 5.*unknown bot"):
        play_match(broken)


def test_results_read_back_from_csv_and_chunks_combine_into_one_run(tmp_path: Path) -> None:
    bots = ["random", "bot", "easy"]
    whole = run_matches(round_robin("byzantium", {}, bots, 2, 6, seed=20))
    chunks = [
        run_matches(round_robin("byzantium", {}, bots, 2, 4, seed=20)),
        run_matches(round_robin("byzantium", {}, bots, 2, 2, seed=22)),
    ]
    for i, chunk in enumerate(chunks):
        write_csv(chunk, tmp_path / f"chunk{i}.csv")
    read = [read_csv(tmp_path / f"chunk{i}.csv") for i in range(2)]
    assert [_comparable(r) for r in read] == [_comparable(c) for c in chunks]
    combined = combine(read)
    assert _comparable(combined) == _comparable(whole)
    assert summarize(combined)["entrants"] == summarize(whole)["entrants"]
    with pytest.raises(ValueError, match="overlap"):
        combine([chunks[0], chunks[0]])


def test_a_failing_game_in_a_worker_stops_the_tournament() -> None:
    matches = round_robin("byzantium", {}, ["random", "bot"], 2, 4, seed=5)
    matches[2] = dataclasses.replace(matches[2], seats=("random", "nonsense"))
    with pytest.raises(RuntimeError, match=r"game 2 .*unknown bot"):
        run_matches(matches, workers=2)


def test_a_tournament_on_a_local_ray_instance_gives_the_local_results() -> None:
    pytest.importorskip("ray")
    config = TournamentConfig(game="byzantium", bots=["random", "easy"], games=4, seed=2)
    matches = build_schedule(config)
    local = run_matches(matches, workers=1)
    on_ray = run_matches(matches, ray_address="local")
    assert [(r.match, r.returns, r.scores, r.actions) for r in on_ray] == [
        (r.match, r.returns, r.scores, r.actions) for r in local
    ]
