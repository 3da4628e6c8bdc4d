"""Reviews cached beside the record: read back, not recomputed; a corrupt cache is
ignored with a notice and rewritten."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from porphyra import record as records
from porphyra.bots.version import BOTS_VERSION
from porphyra.core.messages import Message
from porphyra.review import ReviewSettings, cache_path, cached_review
from porphyra.review import cache as cache_module
from porphyra.review.engine import REVIEW_VERSION
from tests.review.test_review_engine import bot_game

FAST = ReviewSettings(iterations=16, seed=2)


@pytest.fixture
def saved(tmp_path: Path) -> tuple[dict[str, Any], Path]:
    rec = bot_game("byzantium", 7)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    return records.load(path), path


def test_cache_path_is_beside_the_record(tmp_path: Path) -> None:
    assert cache_path(tmp_path / "g.json") == tmp_path / "g.review.json"
    assert cache_path(tmp_path / "g.rec") == tmp_path / "g.rec.review.json"


def test_second_review_is_read_from_the_cache(
    saved: tuple[dict[str, Any], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec, path = saved
    first, hit = cached_review(rec, path, 0, FAST)
    assert not hit and cache_path(path).exists()

    def boom(*_: Any) -> Any:
        raise AssertionError("recomputed")

    monkeypatch.setattr(cache_module, "review_record", boom)
    again, hit = cached_review(rec, path, 0, FAST)
    assert hit and again == first
    with pytest.raises(AssertionError, match="recomputed"):  # other settings: not cached
        cached_review(rec, path, 0, ReviewSettings(iterations=17, seed=2))
    with pytest.raises(AssertionError, match="recomputed"):  # another seat
        cached_review(rec, path, 1, FAST)
    edited = dict(rec, actions=rec["actions"][:-1], result=None)
    with pytest.raises(AssertionError, match="recomputed"):  # another record
        cached_review(edited, path, 0, FAST)


def test_both_seats_share_one_cache_file(saved: tuple[dict[str, Any], Path]) -> None:
    rec, path = saved
    a, _ = cached_review(rec, path, 0, FAST)
    b, _ = cached_review(rec, path, 1, FAST)
    stored = json.loads(cache_path(path).read_text(encoding="utf-8"))
    assert sorted(r["seat"] for r in stored["reviews"].values()) == [0, 1]
    assert cached_review(rec, path, 0, FAST) == (a, True)
    assert cached_review(rec, path, 1, FAST) == (b, True)


@pytest.mark.parametrize(
    ("text", "why"),
    [("{not json", "not valid JSON"), ('{"format": "other"}', "not a review cache")],
)
def test_a_corrupt_cache_is_ignored_with_a_notice(
    saved: tuple[dict[str, Any], Path], text: str, why: str
) -> None:
    rec, path = saved
    fresh, _ = cached_review(rec, path, 0, FAST)
    cache_path(path).write_text(text, encoding="utf-8")
    notes: list[Message] = []
    review, hit = cached_review(rec, path, 0, FAST, notice=notes.append)
    assert not hit and review == fresh
    assert len(notes) == 1 and why in str(notes[0]) and str(cache_path(path)) in str(notes[0])
    assert cached_review(rec, path, 0, FAST, notice=notes.append) == (fresh, True)
    assert len(notes) == 1  # rewritten: read back cleanly


def test_a_tampered_entry_is_recomputed(saved: tuple[dict[str, Any], Path]) -> None:
    rec, path = saved
    fresh, _ = cached_review(rec, path, 0, FAST)
    data = json.loads(cache_path(path).read_text(encoding="utf-8"))
    for review in data["reviews"].values():
        review["version"] = 0
    cache_path(path).write_text(json.dumps(data), encoding="utf-8")
    assert cached_review(rec, path, 0, FAST) == (fresh, False)


def test_a_version_1_review_is_never_read_back(saved: tuple[dict[str, Any], Path]) -> None:
    # Reviews before the calibration (version 1: raw chances) are recomputed, never shown
    # as if calibrated, and leave the file when the new review is written.
    rec, path = saved
    fresh, _ = cached_review(rec, path, 0, FAST)
    data = json.loads(cache_path(path).read_text(encoding="utf-8"))
    ((key, review),) = data["reviews"].items()
    old = {**review, "version": 1, "decisions": [{**d, "before": 0.99} for d in fresh["decisions"]]}
    data["reviews"] = {key.replace(f"v{REVIEW_VERSION}:", "v1:"): old}
    cache_path(path).write_text(json.dumps(data), encoding="utf-8")
    assert cached_review(rec, path, 0, FAST) == (fresh, False)
    assert cached_review(rec, path, 0, FAST) == (fresh, True)
    kept = json.loads(cache_path(path).read_text(encoding="utf-8"))["reviews"]
    assert list(kept) == [key]


def test_a_review_by_other_bots_is_recomputed(
    saved: tuple[dict[str, Any], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The search judges the moves: bots of another version (porphyra.bots.version) make
    # another review, under another key; the older one is dropped from the file.
    rec, path = saved
    fresh, _ = cached_review(rec, path, 0, FAST)
    ((key, _),) = json.loads(cache_path(path).read_text(encoding="utf-8"))["reviews"].items()
    assert key.startswith(f"v{REVIEW_VERSION}:bots={BOTS_VERSION}:seat=0:")
    later = f"v{REVIEW_VERSION}:bots={BOTS_VERSION + 1}:"
    monkeypatch.setattr(cache_module, "KEY_PREFIX", later)
    monkeypatch.setattr(cache_module, "BOTS_VERSION", BOTS_VERSION + 1)
    monkeypatch.setattr(
        cache_module, "review_record", lambda *a: {**fresh, "bots_version": BOTS_VERSION + 1}
    )
    again, hit = cached_review(rec, path, 0, FAST)
    assert not hit and again["bots_version"] == BOTS_VERSION + 1
    kept = json.loads(cache_path(path).read_text(encoding="utf-8"))["reviews"]
    assert list(kept) == [later + "seat=0:iterations=16:seed=2"]
    assert cached_review(rec, path, 0, FAST) == (again, True)


@pytest.mark.parametrize(
    "damage",
    [
        {"decisions": [{"move": 3}]},
        {"decisions": [{"move": 3, "before": "50%", "after": 0.4, "cost": 0.1}]},
        {"moments": [{"move": 1, "kind": "own", "from": None, "to": 0.5}]},
        {"moments": None},
        {"result": "won"},
        {"seat": "0"},
    ],
)
def test_a_damaged_entry_is_recomputed_not_shown(
    saved: tuple[dict[str, Any], Path], damage: dict[str, Any]
) -> None:
    # The terminal prints what the cache holds: a damaged entry would be a traceback.
    rec, path = saved
    fresh, _ = cached_review(rec, path, 0, FAST)
    data = json.loads(cache_path(path).read_text(encoding="utf-8"))
    for review in data["reviews"].values():
        review.update(damage)
    cache_path(path).write_text(json.dumps(data), encoding="utf-8")
    assert cached_review(rec, path, 0, FAST) == (fresh, False)


def test_a_well_formed_review_has_marks_chosen_and_numbers(
    saved: tuple[dict[str, Any], Path],
) -> None:
    rec, path = saved
    fresh, _ = cached_review(rec, path, 0, FAST)
    assert cache_module.well_formed(fresh)
    for field, bad in (("mark", ["x"]), ("chosen", 3), ("cost", float("nan")), ("move", True)):
        decision = {**fresh["decisions"][0], field: bad}
        assert not cache_module.well_formed({**fresh, "decisions": [decision]}), field
