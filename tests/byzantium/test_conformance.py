"""The engine conformance suite, run on Byzantium with several option sets."""

from __future__ import annotations

from typing import Any

import pytest

from porphyra.core import conformance


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"first_emperor": 1},
        {"reveal_first_draws": True, "first_emperor": "random"},
        {"stacked": {"byzantine": ["justinian-i"], "foe": ["huns", "avars"]}},
    ],
)
def test_conformance(options: dict[str, Any]) -> None:
    conformance.run_all("byzantium", options, games=4)
