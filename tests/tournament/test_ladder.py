"""The bot ladder (``porphyra bots ladder``): paired schedule, ratings with bootstrap
intervals, the shipped file's format, reproducibility, and ``porphyra bots``' ratings."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from porphyra.bots.version import BOTS_VERSION
from porphyra.cli import app
from porphyra.cli.common import CliError
from porphyra.cli.ladder import ladder_ratings_lines, parse_budgets
from porphyra.cli.lang import set_language
from porphyra.tournament.ladder import (
    LADDER_BUDGETS,
    LEVELS,
    LadderConfig,
    ladder_ratings,
    schedule,
)
from porphyra.tournament.ladder_output import check_document, shipped_ladder
from porphyra.tournament.output import read_csv
from porphyra.tournament.runner import GameResult, run_matches
from porphyra.tournament.schedule import LEGENDARY_OPPONENTS, Match
from porphyra.tournament.summary import rate
from tests.scripts import ROOT, load_script

runner = CliRunner()

#: A ladder at tiny budgets: ISMCTS at a few iterations stands in for medium and hard.
TINY = [
    "--deals",
    "3",
    "--solo-deals",
    "2",
    "--hard-deals",
    "1",
    "--budget",
    "medium=4",
    "--budget",
    "hard=8",
    "--bootstrap",
    "30",
    "--workers",
    "1",
    "--seed",
    "7000",
]


def _run(out: Path, data: Path) -> dict[str, Any]:
    args = ["bots", "ladder", *TINY, "--out", str(out), "--data", str(data)]
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(data.read_text(encoding="utf-8"))
    return document


def test_ladder_end_to_end_is_paired_well_formed_and_reproducible(tmp_path: Path) -> None:
    out, data = tmp_path / "ladder", tmp_path / "data" / "ladder.json"
    document = _run(out, data)
    assert check_document(document) is document
    assert set(document) == {"format", "command", "measured", "model", "bots_version", "tables"}
    assert document["format"] == 1 and document["bots_version"] == BOTS_VERSION
    assert document["model"] == "openskill PlackettLuce (mu 25, sigma 25/3)"
    assert document["command"].startswith("porphyra bots ladder --seed 7000 --deals 3 ")
    assert "--budget byzantium:medium=4" in document["command"]
    assert json.loads((out / "ladder.json").read_text(encoding="utf-8")) == document
    assert [(t["game"], t["players"]) for t in document["tables"]] == [
        ("byzantium", 2),
        ("conspiracy", 2),
        ("conspiracy", 1),
    ]
    results = read_csv(out / "games.csv")
    # Each 2-player deal is played twice, seats swapped, and no game appears twice.
    keys = [(r.match.table, r.match.seed, r.match.rotation) for r in results]
    assert len(set(keys)) == len(keys)
    two = [r for r in results if r.match.opponent is None]
    by_deal: dict[tuple[int, int], list[tuple[str, ...]]] = {}
    for r in two:
        by_deal.setdefault((r.match.table, r.match.seed), []).append(r.match.seats)
    assert by_deal and all(len(s) == 2 and s[0] == s[1][::-1] for s in by_deal.values())
    # Every 2-player pairing of a game plays the same deals (hard's pairs the first ones).
    seeds = {(r.match.game, r.match.table, r.match.seed) for r in two}
    for game in ("byzantium", "conspiracy"):
        per_table = Counter(t for g, t, _ in seeds if g == game)
        assert sorted(per_table.values()) == [1, 3, 3]  # medium-hard; random-easy, easy-medium
    # Solo: every level meets every Opponent on the same seeds (hard on the first only).
    solo = [r for r in results if r.match.opponent is not None]
    seen = {(r.match.seats[0].partition(":")[0], r.match.opponent, r.match.seed) for r in solo}
    assert len(seen) == len(solo) == len(LEGENDARY_OPPONENTS) * (3 * 2 + 1)
    for table in document["tables"]:
        ratings = table["ratings"]
        expected = list(LEVELS)
        if table["players"] == 1:
            expected += [f"legendary:{lo}" for lo in LEGENDARY_OPPONENTS]
        assert list(ratings) == expected
        for key, rating in ratings.items():
            assert rating["low"] <= rating["high"]
            assert rating["sigma"] > 0
            # "games": the distinct games behind the rating, from games.csv.
            played = [
                r
                for r in results
                if (r.match.opponent is None) == (table["players"] == 2)
                and r.match.game == table["game"]
                and any(
                    s.partition(":")[0] == key or f"legendary:{r.match.opponent}" == key
                    for s in r.match.seats
                )
            ]
            assert rating["games"] == len(played), key
    assert {"games.csv", "summary.json", "ladder.md", "ladder.json"} <= {
        p.name for p in out.iterdir()
    }
    assert "| easy | medium |" in (out / "ladder.md").read_text(encoding="utf-8")
    _check_pairs(document, results)
    # Same seeds and budgets: the same ladder, apart from when and where it was measured.
    again = _run(out, data)
    assert again["measured"] != "" and {**again, "measured": ""} == {**document, "measured": ""}


def _check_pairs(document: dict[str, Any], results: list[Any]) -> None:
    """Each level against the one below (issue 31 §1): the scores over paired deals are
    those of the games in games.csv."""
    for table in document["tables"]:
        pairs = table["pairs"]
        assert [(p["level"], p["against"]) for p in pairs] == [
            ("easy", "random"),
            ("medium", "easy"),
            ("hard", "medium"),
        ]
        solo = table["players"] == 1
        for pair in pairs:
            level, lower = pair["level"], pair["against"]
            games = [
                r
                for r in results
                if r.match.game == table["game"]
                and (r.match.opponent is not None) == solo
                and {s.partition(":")[0] for s in r.match.seats} <= {level, lower}
            ]
            per_deal: dict[Any, list[float]] = {}
            for r in games:
                seats = [s.partition(":")[0] for s in r.match.seats]
                if level not in seats:
                    continue
                ret = r.returns[seats.index(level)]
                deal = (r.match.opponent, r.match.seed)
                per_deal.setdefault(deal, []).append(1.0 if ret > 0 else 0.0 if ret < 0 else 0.5)
            hard = "hard" in (level, lower)
            if solo:
                # The same Opponents and seeds as the level below: hard's only (1 deal each).
                assert pair["deals"] == len(LEGENDARY_OPPONENTS) * (1 if hard else 2)
                assert pair["difference"] == pytest.approx(
                    pair["score"] - pair["against_score"], abs=1e-3
                )
                assert pair["low"] <= pair["difference"] <= pair["high"]
            else:
                assert pair["deals"] == len(per_deal) == (1 if hard else 3)
                assert all(len(v) == 2 for v in per_deal.values())
                mean = sum(sum(v) / 2 for v in per_deal.values()) / len(per_deal)
                assert pair["score"] == pytest.approx(mean, abs=1e-4)
                assert pair["games"] == 2 * pair["deals"]
                assert pair["low"] <= pair["score"] <= pair["high"]


def test_solo_hard_deals_sets_hards_solo_games_apart() -> None:
    base = {"deals": 1, "solo_deals": 2, "hard_deals": 3, "tables": ("solo",)}

    def hard_solo(**extra: Any) -> int:
        config = LadderConfig(**{**base, **extra})
        return sum(m.seats[0].startswith("hard") for m in schedule(config))

    assert hard_solo() == 3 * len(LEGENDARY_OPPONENTS)  # default: --hard-deals
    assert hard_solo(solo_hard_deals=1) == len(LEGENDARY_OPPONENTS)
    assert hard_solo(solo_hard_deals=0) == 0
    two = LadderConfig(deals=1, hard_deals=3, solo_hard_deals=0, tables=("byzantium",))
    assert sum("hard" in " ".join(m.seats) for m in schedule(two)) == 6  # 2-player unchanged
    with pytest.raises(ValueError, match="solo_hard_deals must be at least 0"):
        LadderConfig(solo_hard_deals=-1)


def test_reuse_extends_a_ladder_with_the_ladder_a_full_run_gives(tmp_path: Path) -> None:
    small = [a if a != "3" else "2" for a in TINY]  # --deals 2
    args = ["bots", "ladder", "--tables", "byzantium", "--out"]
    first = runner.invoke(app, [*args, str(tmp_path / "a"), *small])
    assert first.exit_code == 0, first.output
    reused = runner.invoke(
        app, [*args, str(tmp_path / "b"), *TINY, "--reuse", str(tmp_path / "a" / "games.csv")]
    )
    assert reused.exit_code == 0, reused.output
    full = runner.invoke(app, [*args, str(tmp_path / "c"), *TINY])
    assert full.exit_code == 0, full.output
    b, c = (json.loads((tmp_path / x / "ladder.json").read_text()) for x in "bc")
    assert "--reuse" in b["command"] and "--reuse" not in c["command"]
    assert b["tables"] == c["tables"]
    rows = [(tmp_path / x / "games.csv").read_text().splitlines() for x in "bc"]
    # Every column but the wall-clock duration (the one before the last, bots_version).
    strip = [[(lambda c: (c[0], c[2]))(line.rsplit(",", 2)) for line in r] for r in rows]
    assert strip[0] == strip[1]
    # The earlier games were taken from the file (their measured durations with them).
    a_rows = {
        (r.match.seats, r.match.seed): r.duration for r in read_csv(tmp_path / "a" / "games.csv")
    }
    b_rows = {
        (r.match.seats, r.match.seed): r.duration for r in read_csv(tmp_path / "b" / "games.csv")
    }
    assert len(b_rows) > len(a_rows) and all(b_rows[k] == d for k, d in a_rows.items())


def test_schedule_pairs_neighbours_or_wider_and_leaves_hard_out_at_zero() -> None:
    config = LadderConfig(deals=1, solo_deals=1, hard_deals=0, tables=("byzantium",))
    pairs = {tuple(s.partition(":")[0] for s in m.seats) for m in schedule(config)}
    assert pairs == {("random", "easy"), ("easy", "random"), ("easy", "medium"), ("medium", "easy")}
    wide = LadderConfig(deals=1, hard_deals=1, max_gap=3, tables=("conspiracy",))
    levels = {frozenset(s.partition(":")[0] for s in m.seats) for m in schedule(wide)}
    assert len(levels) == 6  # every pair of the four levels
    specs = {s for m in schedule(wide) for s in m.seats}
    assert f"hard:seconds=none,iterations={LADDER_BUDGETS['conspiracy']['hard']}" in specs


def test_bootstrap_interval_is_seeded_and_spans_the_resampled_deals() -> None:
    config = LadderConfig(deals=6, hard_deals=0, tables=("byzantium",), max_gap=1)
    matches = [m for m in schedule(config) if "medium" not in " ".join(m.seats)]
    results = run_matches(matches)
    first = ladder_ratings(results, 50, seed=1)
    assert first == ladder_ratings(results, 50, seed=1)
    assert list(first) == ["random", "easy"]
    assert first["easy"]["games"] == 12
    assert first["easy"]["mu"] > first["random"]["mu"]


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"deals": 0}, "deals must be at least 1"),
        ({"hard_deals": -1}, "hard_deals must be at least 0"),
        ({"max_gap": 0}, "max_gap must be at least 1"),
        ({"tables": ("chess",)}, "unknown ladder table 'chess'"),
    ],
)
def test_bad_ladder_config_is_refused(config: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LadderConfig(**config)


def test_budget_overrides_and_their_errors() -> None:
    budgets = parse_budgets(["medium=5", "byzantium:hard=9"])
    assert budgets["byzantium"] == {"medium": 5, "hard": 9}
    assert budgets["conspiracy"] == {"medium": 5, "hard": LADDER_BUDGETS["conspiracy"]["hard"]}
    for bad in ("easy=5", "chess:hard=5", "hard", "hard=0", "hard=x"):
        with pytest.raises(CliError, match="bad --budget"):
            parse_budgets([bad])


def test_bad_ladder_arguments_exit_2_without_a_traceback(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["bots", "ladder", "--out", str(tmp_path), "--tables", "chess"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 2
    assert "unknown ladder table 'chess'" in result.output
    assert not any(tmp_path.iterdir())


def test_malformed_ladders_are_refused() -> None:
    good = {"format": 1, "command": "c", "measured": "m", "model": "x", "tables": []}
    assert check_document(good) is good
    bad_rating = {"game": "byzantium", "players": 2, "ratings": {"easy": {"mu": 1}}}
    no_pairs = {"game": "byzantium", "players": 2, "ratings": {}, "pairs": {}}
    bad_pair = {**no_pairs, "pairs": [{"level": "easy", "against": "random", "deals": 3}]}
    whole = {"mu": 20.0, "sigma": 1.0, "low": 18.0, "high": 22.0, "games": 10}

    def rated(**rating: float) -> dict[str, Any]:
        return {"game": "byzantium", "players": 2, "ratings": {"easy": {**whole, **rating}}}

    assert check_document({**good, "tables": [rated()]})
    assert check_document({**good, "bots_version": 3})
    for doc in (
        # What the server's reader refuses, the writer's check refuses too (one reader).
        {**good, "tables": [rated(sigma=0.0)]},
        {**good, "tables": [rated(mu=float("nan"))]},
        {**good, "tables": [rated(games=-1)]},
        {**good, "tables": [{**rated(), "players": "2"}]},
        # and besides, what only a whole ladder has: each rating's low and high.
        {**good, "tables": [{**rated(), "ratings": {"easy": {"mu": 1.0, "sigma": 1.0}}}]},
        None,
        {**good, "format": 2},
        {**good, "command": None},
        {**good, "tables": {}},
        {**good, "tables": [bad_rating]},
        {**good, "tables": [no_pairs]},
        {**good, "tables": [bad_pair]},
        {**good, "bots_version": 0},
        {**good, "bots_version": "1"},
    ):
        with pytest.raises(ValueError):
            check_document(doc)


def test_the_package_ships_a_ladder_of_every_level() -> None:
    document = shipped_ladder()
    assert document is not None
    tables = {(t["game"], t["players"]): t["ratings"] for t in document["tables"]}
    assert set(tables) == {("byzantium", 2), ("conspiracy", 2), ("conspiracy", 1)}
    for ratings in tables.values():
        assert set(LEVELS) <= set(ratings)
    assert {f"legendary:{lo}" for lo in LEGENDARY_OPPONENTS} <= set(tables[("conspiracy", 1)])


def test_bots_shows_each_levels_ladder_rating() -> None:
    document = shipped_ladder()
    assert document is not None
    result = runner.invoke(app, ["bots"], env={"COLUMNS": "250"})
    assert result.exit_code == 0
    easy = document["tables"][0]["ratings"]["easy"]
    line = next(line for line in result.output.splitlines() if re.match(r"\W*easy\b", line))
    assert f"{easy['mu']:.1f} ({easy['low']:.1f}–{easy['high']:.1f})" in line
    assert "Legendary Opponents" in result.output


def test_bots_shows_each_level_against_the_one_below(monkeypatch: pytest.MonkeyPatch) -> None:
    pair = {"level": "medium", "against": "easy", "deals": 200, "games": 400}
    solo = {**pair, "deals": 20, "games": 40, "against_score": 0.45, "difference": 0.47}
    document = {
        "format": 1,
        "command": "c",
        "measured": "m",
        "model": "x",
        "tables": [
            {
                "game": "byzantium",
                "players": 2,
                "ratings": {"medium": {"mu": 30, "sigma": 1, "low": 28, "high": 32, "games": 9}},
                "pairs": [{**pair, "score": 0.59, "low": 0.55, "high": 0.63}],
            },
            {
                "game": "conspiracy",
                "players": 1,
                "ratings": {"medium": {"mu": 30, "sigma": 1, "low": 28, "high": 32, "games": 9}},
                "pairs": [{**solo, "score": 0.92, "low": 0.381, "high": 0.559}],
            },
        ],
    }
    monkeypatch.setattr("porphyra.cli.ladder.shipped_ladder", lambda: check_document(document))
    result = runner.invoke(app, ["bots"], env={"COLUMNS": "250"})
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert "against easy: 59.0% (55.0–63.0), 200 deals" in text
    assert "wins 92.0% where easy wins 45.0%, +47.0 points (+38.1–+55.9), 20 deals" in text
    set_language("ja")
    try:
        lines = ladder_ratings_lines(check_document(document))["medium"]
    finally:
        set_language("en")
    assert "「easy」相手に 59.0%（55.0–63.0）、200 配札" in lines


def test_bots_says_when_no_ladder_is_shipped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("porphyra.cli.ladder.shipped_ladder", lambda: None)
    result = runner.invoke(app, ["bots"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "No bot ladder is shipped with this version" in result.output


def test_bots_speaks_the_language_of_lang(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("porphyra.cli.ladder.shipped_ladder", lambda: None)
    try:
        result = runner.invoke(app, ["bots", "--lang", "ja"], env={"COLUMNS": "200"})
    finally:
        set_language("en")
    assert result.exit_code == 0, result.output
    assert "席とボット" in result.output and "Seats and bots" not in result.output
    bad = runner.invoke(app, ["bots", "--lang", "xx"], env={"COLUMNS": "200"})
    assert bad.exit_code == 2 and "unknown language 'xx'" in bad.output
    assert "Traceback" not in bad.output


def test_reuse_takes_a_tournaments_games_at_the_ladders_seeds_and_specs(tmp_path: Path) -> None:
    # A level run (porphyra tournament at the ladder's seed and bot specs) and an earlier
    # ladder, both given: their games are taken, the rest played.
    seed = 41_000_000
    level = tmp_path / "level"
    bots = "medium:seconds=none,iterations=4,easy"
    tournament = ["tournament", "byzantium", "--bots", bots, "--games", "4"]
    played = runner.invoke(
        app, [*tournament, "--seed", str(seed), "--workers", "1", "--out", str(level)]
    )
    assert played.exit_code == 0, played.output
    args = ["bots", "ladder", "--tables", "byzantium", "--seed", str(seed), "--hard-deals", "1"]
    args += ["--budget", "medium=4", "--budget", "hard=8", "--bootstrap", "30"]
    args += ["--workers", "1", "--deals"]
    first = runner.invoke(app, [*args, "1", "--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    files = [level / "games.csv", tmp_path / "a" / "games.csv"]
    reuse = ["--reuse", str(files[0]), "--reuse", str(files[1])]
    both = runner.invoke(app, [*args, "2", "--out", str(tmp_path / "b"), *reuse])
    assert both.exit_code == 0, both.output
    level_games = {(r.match.seats, r.match.seed): r.duration for r in read_csv(files[0])}
    ladder = {
        (r.match.seats, r.match.seed): r.duration for r in read_csv(tmp_path / "b" / "games.csv")
    }
    # Deal 1 of medium against easy is only in the level run: taken from it.
    only_level = {k: d for k, d in level_games.items() if k[1] == seed + 1}
    assert len(only_level) == 2 and all(ladder[k] == d for k, d in only_level.items())
    # Deal 1 of random against easy is in neither file: played.
    fresh = [k for k in ladder if "random" in k[0] and k[1] == seed + 1]
    assert len(fresh) == 2
    command = json.loads((tmp_path / "b" / "ladder.json").read_text())["command"]
    assert command.count("--reuse") == 2


@pytest.mark.parametrize(
    ("content", "text"),
    [
        (None, "cannot access"),
        (b"", "empty, not a games.csv"),
        (b"\xff\xfe\x00 not text", "not a games.csv"),
        (b"a,b\n1,2\n", "line 2: malformed row"),
        (b"game_id,game\n" + b"x" * 140_000 + b"\n", "not a games.csv"),  # csv.Error
    ],
)
def test_reuse_of_a_bad_file_is_refused_naming_it_and_nothing_is_written(
    tmp_path: Path, content: bytes | None, text: str
) -> None:
    bad = tmp_path / "games.csv"
    if content is not None:
        bad.write_bytes(content)
    out = tmp_path / "out"
    args = ["bots", "ladder", "--tables", "byzantium", "--deals", "1", "--workers", "1"]
    result = runner.invoke(app, [*args, "--out", str(out), "--reuse", str(bad)])
    assert result.exit_code == 2, result.output
    assert text in result.output and "games.csv" in result.output
    assert "Traceback" not in result.output and not out.exists()


def test_ratings_do_not_depend_on_the_order_the_tables_were_played() -> None:
    # easy crushes random on 100 deals, and medium beats easy in 60% of 200 games.
    def game(table: int, seed: int, rotation: int, seats: tuple[str, str], winner: int) -> Any:
        match = Match(0, "byzantium", {}, table, seed, rotation, seats, seed)
        returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        return GameResult(match, returns, (0, 0), 10, 0.0)

    results = []
    for d in range(100):
        results += [game(0, d, 0, ("easy", "random"), 0), game(0, d, 1, ("random", "easy"), 1)]
    for d in range(100):
        medium_wins = (d % 5) < 3  # 60% of deals: medium wins both games, else easy does
        results += [
            game(1, d, 0, ("medium", "easy"), 0 if medium_wins else 1),
            game(1, d, 1, ("easy", "medium"), 1 if medium_wins else 0),
        ]
    ratings = ladder_ratings(results, 20, seed=3)
    assert ratings["medium"]["mu"] > ratings["easy"]["mu"] > ratings["random"]["mu"]
    # The same games given in another order: the same ratings (openskill alone, online,
    # gives others).
    again = ladder_ratings(list(reversed(results)), 20, seed=3)
    assert again == ratings
    online = {row["entrant"]: row["mu"] for row in rate(results)}
    assert online != {row["entrant"]: row["mu"] for row in rate(list(reversed(results)))}


def test_the_docs_show_the_shipped_ladder() -> None:
    """docs/bots.md and docs/results/README.md show the ladder that ships, as
    docs/results/ladder_tables.py prints it: a new ladder fails this until they do."""
    tables = load_script(ROOT / "docs/results/ladder_tables.py")
    document = shipped_ladder()
    assert document is not None
    ratings, pairs = tables.markdown(document).strip().split("\n\n")
    assert "| `medium` |" in ratings and "| `medium` against `easy` |" in pairs
    for page in ("docs/bots.md", "docs/results/README.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        assert ratings in text, f"{page} does not show the shipped ladder's ratings"
        assert pairs in text, f"{page} does not show the shipped ladder's pairs"
