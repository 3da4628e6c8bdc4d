"""The engine's conformance suite on Conspiracy: 2, 3, 4 players, bonus Locations, and the
solo mode against each Legendary Opponent (section 4; one deciding seat, S-R5)."""

from __future__ import annotations

from typing import Any

import pytest

from porphyra.core import conformance


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2},
        {"players": 3},
        {"players": 4},
        {"players": 2, "bonus_locations": True},
        {"players": 4, "bonus_locations": True, "first_player": 3},
    ],
    ids=["2p", "3p", "4p", "2p-bonus", "4p-bonus"],
)
def test_conformance_suite(options: dict[str, Any]) -> None:
    conformance.run_all("conspiracy", options)


@pytest.mark.parametrize(
    "opponent", ["farmer", "military", "merchant", "politician", "mage", "random"]
)
def test_conformance_suite_solo(opponent: str) -> None:
    conformance.run_all("conspiracy", {"players": 1, "opponent": opponent})
