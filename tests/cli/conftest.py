"""Fixtures of the terminal-client tests: the fake game registered as ``"fake"``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from porphyra.core import registry


@pytest.fixture
def fake_game() -> Iterator[str]:
    """Register the fake game (``tests.cli.cli_fake_game``) for the test; yields its name."""
    registry._GAMES["fake"] = "tests.cli.cli_fake_game:FakeGame"
    try:
        yield "fake"
    finally:
        registry._GAMES.pop("fake", None)
