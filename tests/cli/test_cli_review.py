"""``porphyra review``: the curve, the marks and the moments, in three languages, read
from the cache the second time, and clear errors for bad input."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from porphyra import load_game
from porphyra import record as records
from porphyra.cli import app
from porphyra.cli.lang import set_language
from porphyra.cli.review import curve, print_review, sparkline
from porphyra.cli.views import view_for
from porphyra.games.byzantium.game import ByzantiumGame
from porphyra.review import cache_path, calibration
from tests.review.test_review_engine import bot_game

runner = CliRunner()


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(bot_game("byzantium", 9)), encoding="utf-8")
    return path


def test_sparkline_maps_win_chances_to_blocks() -> None:
    assert sparkline([0.0, 0.5, 1.0]) == "▁▅█"
    assert curve({"decisions": [{"before": 0.5, "after": 0.4}], "result": 1.0}) == [0.5, 0.4, 1.0]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Review of Seat 2", "Win chance", "Search prefers", "The three moments"]),
        ("ja", ["席2のレビュー", "勝率", "探索の推奨手", "ゲームを最も大きく動かした3つの場面"]),
        ("ko", ["좌석 2 리뷰", "승률", "탐색 추천 수", "게임을 가장 크게 바꾼 세 장면"]),
    ],
)
def test_review_prints_in_each_language(game_file: Path, lang: str, words: list[str]) -> None:
    result = runner.invoke(
        app, ["review", str(game_file), "--seat", "2", "--iterations", "16", "--lang", lang]
    )
    assert result.exit_code == 0, result.output
    for word in words:
        assert word in result.output
    review = json.loads(cache_path(game_file).read_text(encoding="utf-8"))
    (only,) = review["reviews"].values()
    first = only["decisions"][0]
    assert f"{first['before'] * 100:.0f}%" in result.output
    assert sum(1 for d in only["decisions"] if str(d["move"]) in result.output) == len(
        only["decisions"]
    )


def test_json_output_and_the_cache(game_file: Path) -> None:
    args = ["review", str(game_file), "--iterations", "16", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    review = json.loads(first.stdout)
    assert review["seat"] == 0 and review["settings"] == {"iterations": 16, "seed": 0}
    cache_path(game_file).write_text("{broken", encoding="utf-8")
    again = runner.invoke(app, [*args[:-1], "--lang", "ja"])
    assert again.exit_code == 0
    assert "正しい JSON ではありません" in again.output  # the notice, translated
    assert json.loads(cache_path(game_file).read_text(encoding="utf-8"))["reviews"]


@pytest.mark.parametrize(
    ("args", "text"),
    [
        (["--seat", "3"], "Seat 1 is the first seat"),
        (["--iterations", "1"], "greater than or equal to 2"),
    ],
)
def test_bad_input_is_refused_clearly(game_file: Path, args: list[str], text: str) -> None:
    result = runner.invoke(app, ["review", str(game_file), *args])
    assert result.exit_code == 2
    assert text in result.output and "Traceback" not in result.output
    assert not cache_path(game_file).exists()


@pytest.mark.parametrize(
    ("lang", "text"), [("en", "calibration data"), ("ja", "較正データ"), ("ko", "보정 데이터")]
)
def test_damaged_calibration_data_is_refused_clearly(
    game_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, text: str
) -> None:
    # A broken install: the maps file has lost its points.  The player reads one line in
    # their language (no traceback) and no review is cached from raw estimates.
    broken = tmp_path / "calibration.json"
    broken.write_text('{"byzantium": {"games": 1000}}', encoding="utf-8")
    monkeypatch.setattr(calibration, "_maps", lambda: calibration.load_maps(broken))
    args = ["review", str(game_file), "--iterations", "4", "--lang", lang]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert text in result.output and str(broken.name) in result.output
    assert "Traceback" not in result.output and "KeyError" not in result.output
    assert not cache_path(game_file).exists()


def test_a_file_that_is_not_a_record(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("[]", encoding="utf-8")
    result = runner.invoke(app, ["review", str(bad)])
    assert result.exit_code == 2 and "record must be a JSON object" in result.output


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_moves_are_shown_by_name_never_by_slug(tmp_path: Path, lang: str) -> None:
    # People see names (the guide): each move's cards by their name in the terminal's
    # language, as the browser's review shows them, and no card's slug.
    path = tmp_path / "game.json"
    record = bot_game("byzantium", 9)
    path.write_text(json.dumps(record), encoding="utf-8")
    args = ["review", str(path), "--iterations", "8", "--lang", lang]
    assert runner.invoke(app, args).exit_code == 0
    (review,) = json.loads(cache_path(path).read_text(encoding="utf-8"))["reviews"].values()
    set_language(lang)
    game = records.replay(record, upto=0).game
    view = view_for("byzantium")
    console = Console(record=True, width=400, file=io.StringIO())
    print_review(console, review, lambda move: view.move_words(game, move))
    output = console.export_text()
    for d in review["decisions"]:
        assert view.move_words(game, d["chosen"]) in output
    assert isinstance(game, ByzantiumGame)
    slugs = {c.slug for c in game.cardset.cards}
    assert not {s for s in slugs if re.search(rf"\b{re.escape(s)}\b", output)}


def test_move_words_name_the_cards_lords_and_locations() -> None:
    set_language("en")
    byzantium = load_game("byzantium")
    words = view_for("byzantium").move_words
    assert words(byzantium, "redraw raiders,raiders,famine") == "redraw Raiders ×2, Famine"
    assert words(byzantium, "redraw -") == "redraw —"
    assert words(byzantium, "end") == "end"
    conspiracy = load_game("conspiracy")
    assert view_for("conspiracy").move_words(conspiracy, "keep purple4") == "keep Purple 4"


@pytest.mark.parametrize(
    ("lang", "take", "swap"), [("ja", "take 青", "swap —"), ("ko", "take 파랑", "swap —")]
)
def test_conspiracy_move_words_name_every_id(lang: str, take: str, swap: str) -> None:
    # Every verb of a played game: no colour, lord id or Location slug reaches the review
    # (English names a colour by its own word: "take blue").
    set_language(lang)
    game = load_game("conspiracy")
    words = view_for("conspiracy").move_words
    assert words(game, "take blue") == take and words(game, "swap -") == swap
    ids = re.compile(r"\b(?:yellow|red|green|blue|purple)\d*\b|\b(?:any|count)-[a-z]+\b")
    seen: set[str] = set()
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            player = state.current_player()
            actions = state.legal_actions(player)
            seen.update(str(a) for a in actions)
            state.apply_action(rng.choice(actions), player)
    assert {a.split(" ")[0] for a in seen} >= {"keep", "take", "place", "loctake", "swap"}
    assert not [(a, words(game, a)) for a in seen if ids.search(words(game, a))]
