"""The deck tuner's legacy knobs and issue 30's targets in its loss (rules section 6)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from porphyra.balance import tune
from porphyra.balance.edits import MAX_LEGACY
from porphyra.games.byzantium.cards import deck_path

#: Figures inside every target of :data:`porphyra.balance.tune.TARGETS`.
ON_TARGET = tune.Metrics(
    games=1000,
    first_share=0.5,
    collapse=0.10,
    collapse_by_3=0.001,
    leader_after_8=0.65,
    lead3_after_8=0.80,
    battles=0.30,
)


def test_section_6_legacy_knobs_keep_legacy_values_within_0_to_3() -> None:
    base = json.loads(deck_path("v4").read_text())
    old = {c["slug"]: c for c in base["cards"]}
    up = {
        c["slug"]: c
        for c in tune.apply_knobs(base, {"legacy_late_small": 2}, tune.LEGACY_KNOBS)["cards"]
    }
    assert up["preserve-the-classics"]["legacy"] == old["preserve-the-classics"]["legacy"] + 2
    top = tune.apply_knobs(base, {"legacy_late_small": 9}, tune.LEGACY_KNOBS)
    down = tune.apply_knobs(base, {"legacy_early": -9}, tune.LEGACY_KNOBS)
    assert {c["slug"]: c for c in top["cards"]}["preserve-the-classics"]["legacy"] == MAX_LEGACY
    assert {c["slug"]: c for c in down["cards"]}["hagia-sophia"]["legacy"] == 0
    changed = [s for s, c in up.items() if c != old[s]]
    assert changed == ["preserve-the-classics"]  # nothing else moves


def test_a_legacy_knob_on_a_card_that_is_not_legacy_is_refused() -> None:
    base = json.loads(deck_path("v4").read_text())
    bad = tune.Knob("bad", "legacy", ("huns",), -1, 1, "not a Legacy card")
    with pytest.raises(ValueError, match="not a Legacy card"):
        tune.apply_knobs(base, {"bad": 1}, (bad,))


def test_loss_is_zero_on_every_target_of_issue_30() -> None:
    assert tune.loss(ON_TARGET, 0) == 0.0


@pytest.mark.parametrize(
    "field, value",
    [
        ("first_share", 0.53),
        ("collapse", 0.03),
        ("collapse", 0.25),
        ("collapse_by_3", 0.008),
        ("leader_after_8", 0.78),
        ("lead3_after_8", 0.90),
        ("battles", 0.15),
    ],
)
def test_loss_grows_when_a_figure_leaves_its_target(field: str, value: float) -> None:
    changes: dict[str, Any] = {field: value}
    off = replace(ON_TARGET, **changes)
    changes[field] = value + (value - getattr(ON_TARGET, field))
    further = replace(ON_TARGET, **changes)
    assert 0 < tune.loss(off, 0) < tune.loss(further, 0)


def test_a_figure_a_campaign_could_not_measure_costs_nothing() -> None:
    unmeasured = replace(ON_TARGET, leader_after_8=None, lead3_after_8=None, battles=None)
    assert tune.loss(unmeasured, 0) == 0.0
    assert tune.loss(ON_TARGET, 3) == pytest.approx(0.15)  # changes cost a little


def test_measure_reads_the_game_shape_of_the_campaign() -> None:
    base = json.loads(deck_path("v4").read_text())
    m = tune.measure(base, 6, 21_000_000)
    assert m.games == 6
    assert m.leader_after_8 is None or 0.0 <= m.leader_after_8 <= 1.0
    assert m.battles is not None and m.battles >= 0.0
