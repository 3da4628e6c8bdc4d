"""Fixtures of the web-server tests: a database URL and a live server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .live import LiveServer


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """An SQLite file database in the test's temporary directory."""
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


@pytest.fixture
def server(db_url: str) -> Iterator[LiveServer]:
    """A live server on a fresh database (bots in threads)."""
    live = LiveServer(db_url).start()
    try:
        yield live
    finally:
        live.stop()
